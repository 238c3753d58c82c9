//! `convert --to gltf|glb --skeleton MODEL.dff IN OUT`: the containers, the report of the
//! tracks not written, `--animation`, archive entries, and the refusals. The document itself
//! is tested in the core (tests/decode/gltf.rs) and against the Khronos validator and three.js
//! (tests/gltf/). Models and animations are built in code (testkit).

#[allow(dead_code)]
mod support;

use std::path::PathBuf;

use support::{run, stderr, Json};
use testkit::dff;
use testkit::ifp2::{f1, f2, AnimSpec, BoneSpec, FileSpec};
use testkit::img::Img;

fn dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("gltf");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn fixture(name: &str, bytes: &[u8]) -> String {
    let path = dir().join(name);
    std::fs::write(&path, bytes).unwrap();
    path.to_str().unwrap().to_owned()
}

fn out(name: &str) -> String {
    let path = dir().join(name);
    let _ = std::fs::remove_file(&path);
    path.to_str().unwrap().to_owned()
}

const Q: [f32; 4] = [0.0, 0.0, 0.6, 0.8];

/// Two animations on the SA skin's bones, one track bound to nothing.
fn anp3() -> Vec<u8> {
    FileSpec::anp3(
        "ped",
        vec![
            AnimSpec::new(
                "walk",
                vec![
                    BoneSpec::new(
                        "Root",
                        2,
                        0,
                        vec![f2(Q, 0.0, [0.0; 3]), f2(Q, 1.0, [1.0; 3])],
                    ),
                    BoneSpec::new("Tail", 1, 999, vec![f1(Q, 0.0)]),
                ],
            ),
            AnimSpec::new(
                "run",
                vec![BoneSpec::new(" Head", 1, 5, vec![f1(Q, 0.0), f1(Q, 0.5)])],
            ),
        ],
    )
    .build()
}

#[test]
fn glb_and_gltf_with_the_unbound_tracks_on_stderr() {
    let model = fixture("sa.dff", &dff::sa_skin().bytes());
    let anim = fixture("ped.ifp", &anp3());
    let glb = out("ped.glb");
    let output = run(&["convert", "--to", "glb", "--skeleton", &model, &anim, &glb]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let bytes = std::fs::read(&glb).unwrap();
    assert_eq!(&bytes[0..4], b"glTF");
    assert_eq!(
        u32::from_le_bytes(bytes[8..12].try_into().unwrap()) as usize,
        bytes.len()
    );
    let text = stderr(&output);
    assert!(
        text.contains(
            "animation \"walk\": track 1 (\"Tail\", bone id 999) not written: binds to nothing (no_such_id)"
        ),
        "{text}"
    );
    assert!(
        text.contains("2 animations written, 1 tracks not written"),
        "{text}"
    );

    let gltf = out("ped.gltf");
    let output = run(&[
        "convert",
        "--to",
        "GLTF",
        "--skeleton",
        &model,
        &anim,
        &gltf,
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let doc = Json::parse(&std::fs::read_to_string(&gltf).unwrap()).unwrap();
    let names: Vec<&str> = doc
        .get("animations")
        .arr()
        .iter()
        .map(|a| a.get("name").str())
        .collect();
    assert_eq!(names, ["walk", "run"]);
    assert!(doc.get("buffers").arr()[0]
        .get("uri")
        .str()
        .starts_with("data:application/octet-stream;base64,"));
    let nodes = doc.get("nodes").arr();
    assert_eq!(nodes[0].get("name").str(), "RenderWare Z-up");
    assert_eq!(nodes[2].get("name").str(), "Root");
    assert_eq!(
        nodes[2].get("extras").get("gtastream").get("bone_id").i64(),
        0
    );
}

#[test]
fn animations_by_name_and_inputs_from_archives() {
    let mut img = Img::default();
    img.add("player.dff", &dff::sa_skin().bytes());
    img.add("ped.ifp", &anp3());
    let archive = fixture("models.img", &img.v2());
    let model = format!("{archive}:PLAYER.DFF");
    let anim = format!("{archive}:ped.ifp");
    let gltf = out("run.gltf");
    let output = run(&[
        "convert",
        "--to",
        "gltf",
        "--skeleton",
        &model,
        "--animation",
        "RUN",
        &anim,
        &gltf,
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let doc = Json::parse(&std::fs::read_to_string(&gltf).unwrap()).unwrap();
    let animations = doc.get("animations").arr();
    assert_eq!(animations.len(), 1);
    assert_eq!(animations[0].get("name").str(), "run");
    assert!(stderr(&output).contains("1 animations written, 0 tracks not written"));
}

#[test]
fn refusals_leave_no_output() {
    let model = fixture("sa2.dff", &dff::sa_skin().bytes());
    let anim = fixture("ped2.ifp", &anp3());
    let glb = out("refused.glb");
    let cases: [(&[&str], &str); 5] = [
        (&["convert", "--to", "glb", &anim, &glb], "needs --skeleton"),
        (
            &[
                "convert",
                "--to",
                "glb",
                "--skeleton",
                &model,
                "--animation",
                "sprint",
                &anim,
                &glb,
            ],
            "no animation named `sprint`",
        ),
        (
            &["convert", "--to", "glb", "--skeleton", &anim, &anim, &glb],
            "not a model",
        ),
        (
            &["convert", "--to", "anp3", "--skeleton", &model, &anim, &glb],
            "--skeleton and --animation go with --to gltf or glb",
        ),
        (
            &[
                "convert",
                "--to",
                "glb",
                "--skeleton",
                &model,
                "--game",
                "sa",
                "--game",
                "vc",
                &anim,
                &glb,
            ],
            "takes one --game",
        ),
    ];
    for (args, message) in cases {
        let output = run(args);
        assert_eq!(
            output.status.code(),
            Some(1),
            "{args:?}: {}",
            stderr(&output)
        );
        assert!(
            stderr(&output).contains(message),
            "{args:?}: {}",
            stderr(&output)
        );
        assert!(!std::path::Path::new(&glb).exists(), "{args:?}");
    }
}

#[test]
fn the_game_decides_the_binding() {
    // GTA III binds by frame name only: "Tail" is then no frame's name (on SA, its id is no
    // bone's).
    let model = fixture("sa3.dff", &dff::sa_skin().bytes());
    let anim = fixture("ped3.ifp", &anp3());
    let gltf = out("iii.gltf");
    let output = run(&[
        "convert",
        "--to",
        "gltf",
        "--skeleton",
        &model,
        "--game",
        "iii",
        &anim,
        &gltf,
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stderr(&output);
    assert!(text.contains("binds to nothing (no_such_name)"), "{text}");
    assert!(
        text.contains("2 animations written, 1 tracks not written"),
        "{text}"
    );
}
