//! RenderWare models from the command line: `dump --json` gives the model document, `info`
//! what the model holds, `ls` an archive's models with their frames, bones and skin.

#[allow(dead_code)]
mod support;

use std::path::PathBuf;

use support::{run, stderr, stdout, Json};
use testkit::dff;
use testkit::img::Img;

fn fixture(name: &str, bytes: &[u8]) -> String {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, bytes).unwrap();
    path.to_str().unwrap().to_owned()
}

#[test]
fn dump_json_of_a_skin_has_the_model_document() {
    let model = dff::sa_skin();
    let path = fixture("skin.dff", &model.bytes());
    let output = run(&["dump", "--json", &path]);
    assert!(output.status.success(), "{}", stderr(&output));
    let json = Json::parse(stdout(&output)).unwrap();
    assert_eq!(
        json.keys(),
        [
            "format",
            "rw_version",
            "frames",
            "hanim",
            "skin",
            "atomics",
            "geometries"
        ]
    );
    assert_eq!(json.get("format").str(), "dff");
    assert_eq!(json.get("rw_version").str(), "0x1803FFFF");
    let frames = json.get("frames").arr();
    assert_eq!(frames.len(), model.frames.len());
    for (i, (f, m)) in frames.iter().zip(&model.frames).enumerate() {
        assert_eq!(
            f.keys(),
            ["index", "parent", "name", "rotation", "position", "bone_id"]
        );
        assert_eq!(f.get("index").i64(), i as i64);
        assert_eq!(f.get("parent").i64(), i64::from(m.parent));
        assert_eq!(f.get("rotation").f32s(), m.rotation);
        assert_eq!(f.get("position").f32s(), m.position);
        let name = m
            .name
            .as_ref()
            .map(|n| String::from_utf8(n.clone()).unwrap());
        assert_eq!(f.get("name").str(), name.unwrap());
        match &m.hanim {
            Some(h) => assert_eq!(f.get("bone_id").i64(), i64::from(h.node_id)),
            None => assert_eq!(f.get("bone_id"), &Json::Null),
        }
    }
    let hanim = json.get("hanim");
    assert_eq!(hanim.keys(), ["flags", "nodes"]);
    let nodes = hanim.get("nodes").arr();
    assert_eq!(nodes.len(), dff::SA_BONES.len());
    assert_eq!(nodes[1].get("id").i64(), 1);
    assert_eq!(nodes[1].get("index").i64(), 1);
    let skin = json.get("skin");
    assert_eq!(
        skin.keys(),
        ["bones", "used_bones", "max_weights", "inverse_bind"]
    );
    assert_eq!(skin.get("bones").i64(), 32);
    assert_eq!(skin.get("max_weights").i64(), 4);
    let bind = skin.get("inverse_bind").arr();
    assert_eq!(bind.len(), 32);
    assert_eq!(bind[3].f32s(), dff::Skin::matrix(3));
    assert_eq!(json.get("atomics").arr()[0].keys(), ["frame", "geometry"]);
    let geometry = &json.get("geometries").arr()[0];
    assert_eq!(geometry.keys(), ["vertices", "triangles", "materials"]);
    assert_eq!(geometry.get("vertices").i64(), 24);
    assert_eq!(geometry.get("materials").i64(), 2);
}

#[test]
fn dump_json_of_an_unskinned_model_has_nulls() {
    let path = fixture("vehicle.dff", &dff::gta3_vehicle().bytes());
    let output = run(&["dump", "--json", &path]);
    assert!(output.status.success(), "{}", stderr(&output));
    let json = Json::parse(stdout(&output)).unwrap();
    assert_eq!(json.get("hanim"), &Json::Null);
    assert_eq!(json.get("skin"), &Json::Null);
    assert_eq!(json.get("frames").arr()[0].get("parent").i64(), -1);
    assert_eq!(json.get("frames").arr()[0].get("bone_id"), &Json::Null);
    assert_eq!(json.get("geometries").arr().len(), 2);
}

#[test]
fn info_says_what_a_model_holds() {
    let path = fixture("info.dff", &dff::cutscene_ped().bytes());
    let output = run(&["info", &path]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains("format:      dff"), "{text}");
    assert!(text.contains("rw version:  3.6.0.3 (0x1803FFFF)"), "{text}");
    assert!(text.contains("bones:       54"), "{text}");
    assert!(text.contains("skinned:     yes (54 bones)"), "{text}");
}

#[test]
fn ls_names_models_with_frames_bones_and_skin() {
    let mut img = Img::default();
    img.add("player.dff", &dff::sa_skin().bytes());
    img.add("car.dff", &dff::gta3_vehicle().bytes());
    let path = fixture("models.img", &img.v2());
    let output = run(&["ls", &path]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.contains("dff  33 frames, 32 bones, skinned (3.6.0.3)"),
        "{text}"
    );
    assert!(text.contains("dff  6 frames, 0 bones (3.2.0.0)"), "{text}");
    let output = run(&["ls", "--json", &path]);
    let json = Json::parse(stdout(&output)).unwrap();
    let model = json.get("entries").arr()[0].get("model");
    assert_eq!(model.get("frames").i64(), 33);
    assert_eq!(model.get("bones").i64(), 32);
    assert_eq!(model.get("skinned"), &Json::Bool(true));
}
