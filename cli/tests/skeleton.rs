//! Skeletons from the command line: `sample --skeleton MODEL.dff` poses a model,
//! `check --skeleton MODEL.dff ANIM.ifp` checks animations against it, `check MODEL.dff` gives
//! a model's skeleton report. Models and animations are built in code (testkit).

#[allow(dead_code)]
mod support;

use std::path::PathBuf;

use support::{run, run_piped, stderr, stdout, Json};
use testkit::dff::{self, Model, SA, SA_BONES};
use testkit::ifp2::{f1, f2, AnimSpec, BoneSpec, FileSpec};
use testkit::img::Img;

fn fixture(name: &str, bytes: &[u8]) -> String {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("skeleton");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path.to_str().unwrap().to_owned()
}

/// The SA bones with their names trimmed, without the last three (whose places in the test
/// kit's list no PUSH/POP flags can give): a model whose report is empty.
fn trimmed_bones() -> Vec<(i32, &'static str, i32)> {
    SA_BONES[..29]
        .iter()
        .map(|&(id, name, parent)| (id, name.trim(), parent))
        .collect()
}

/// A sound SA skin: the standard bones, trimmed names.
fn sound_skin() -> Model {
    dff::skinned(SA, &trimmed_bones(), false)
}

/// The frame of node id `id` in a [`dff::skinned`] model (after the clump's frame).
fn frame_of(id: i32) -> i64 {
    1 + SA_BONES.iter().position(|b| b.0 == id).unwrap() as i64
}

const Q: [f32; 4] = [0.0, 0.0, 0.0, 1.0];

fn rot(name: &str, id: i32) -> BoneSpec {
    BoneSpec::new(name, 1, id, vec![f1(Q, 0.0), f1(Q, 1.0)])
}

fn trans(name: &str, id: i32, from: [f32; 3], to: [f32; 3]) -> BoneSpec {
    BoneSpec::new(name, 2, id, vec![f2(Q, 0.0, from), f2(Q, 1.0, to)])
}

fn anp3(bones: Vec<BoneSpec>) -> Vec<u8> {
    FileSpec::anp3("test", vec![AnimSpec::new("a", bones)]).build()
}

/// A track on every standard bone (none unmoved).
fn every_bone() -> Vec<BoneSpec> {
    trimmed_bones()
        .iter()
        .map(|&(id, _, _)| rot("b", id))
        .collect()
}

/// `check --json ARGS` parsed, and the rules of its one input's findings.
fn check(args: &[&str]) -> (Json, Vec<String>) {
    let mut all = vec!["check", "--json"];
    all.extend_from_slice(args);
    let output = run(&all);
    assert_ne!(output.status.code(), Some(2), "{}", stderr(&output));
    let json = Json::parse(stdout(&output)).unwrap();
    let inputs = json.get("inputs").arr();
    assert_eq!(inputs.len(), 1);
    let rules = inputs[0]
        .get("findings")
        .arr()
        .iter()
        .map(|f| f.get("rule").str().to_owned())
        .collect();
    (json, rules)
}

/// The rules of `check --skeleton MODEL ANIM` (JSON).
fn on_model(model: &Model, animation: &[u8], tag: &str) -> Vec<String> {
    let m = fixture(&format!("{tag}.dff"), &model.bytes());
    let a = fixture(&format!("{tag}.ifp"), animation);
    check(&["--skeleton", &m, &a]).1
}

/// A rule fires on the case and not on its near miss.
fn fires(rule: &str, case: &[String], near_miss: &[String]) {
    assert!(case.iter().any(|r| r == rule), "{rule} not in {case:?}");
    assert!(
        !near_miss.iter().any(|r| r == rule),
        "{rule} in the near miss {near_miss:?}"
    );
}

#[test]
fn check_skeleton_unbound_tracks() {
    let model = sound_skin();
    let case = on_model(&model, &anp3(vec![rot("x", 777)]), "unbound");
    let near = on_model(&model, &anp3(vec![rot("x", 5)]), "unbound_near");
    fires("skel.track.unbound", &case, &near);
}

#[test]
fn check_skeleton_names_the_engine_lacks() {
    let model = sound_skin();
    // A name binds by the engine's table on a skinned model: " Pelvis" (the DFF's frame name
    // in real peds) is not in it, "Pelvis" is.
    let case = on_model(&model, &anp3(vec![rot(" Pelvis", -1)]), "name");
    let near = on_model(&model, &anp3(vec![rot("Pelvis", -1)]), "name_near");
    fires("skel.track.name_not_in_table", &case, &near);
}

#[test]
fn check_skeleton_ids_on_an_unskinned_model() {
    let model = dff::animated_object();
    let case = on_model(&model, &anp3(vec![rot("part1", 5)]), "id");
    let near = on_model(&model, &anp3(vec![rot("part1", -1)]), "id_near");
    fires("skel.track.id_on_unskinned", &case, &near);
    assert!(!near.iter().any(|r| r == "skel.track.unbound"), "{near:?}");
}

#[test]
fn check_skeleton_two_tracks_on_one_bone() {
    let model = sound_skin();
    let case = on_model(&model, &anp3(vec![rot("a", 5), rot("b", 5)]), "dup");
    let near = on_model(&model, &anp3(vec![rot("a", 5), rot("b", 4)]), "dup_near");
    fires("skel.track.duplicate_bone", &case, &near);
}

#[test]
fn check_skeleton_translation_off_the_root() {
    let model = sound_skin();
    let moved = anp3(vec![trans("Head", 5, [0.0; 3], [0.0, 0.0, 0.1])]);
    let zero = anp3(vec![trans("Head", 5, [0.0; 3], [0.0; 3])]);
    let root = anp3(vec![trans("Root", 0, [0.0; 3], [0.0, 0.0, 0.1])]);
    let moved = on_model(&model, &moved, "tr");
    let zero = on_model(&model, &zero, "tr_zero");
    let root = on_model(&model, &root, "tr_root");
    fires("skel.track.translation_non_root", &moved, &root);
    fires("skel.track.translation_zero", &zero, &root);
    fires("skel.track.translation_zero", &zero, &moved);
}

#[test]
fn check_skeleton_root_motion_on_the_pelvis() {
    let model = sound_skin();
    let walk = anp3(vec![trans("Pelvis", 1, [0.0; 3], [0.0, 2.0, 0.0])]);
    let sway = anp3(vec![trans("Pelvis", 1, [0.0; 3], [0.0, 0.1, 0.0])]);
    let case = on_model(&model, &walk, "pelvis");
    let near = on_model(&model, &sway, "pelvis_near");
    fires("skel.track.pelvis_root_motion", &case, &near);
}

#[test]
fn check_skeleton_bones_no_track_moves() {
    let model = sound_skin();
    let case = on_model(&model, &anp3(vec![rot("Head", 5)]), "unmoved");
    let near = on_model(&model, &anp3(every_bone()), "unmoved_near");
    fires("skel.model.unmoved_bones", &case, &near);
}

#[test]
fn without_a_skeleton_check_gives_no_skeleton_rule() {
    let a = fixture("plain.ifp", &anp3(vec![rot("x", 777)]));
    let (_, rules) = check(&[&a]);
    assert!(!rules.iter().any(|r| r.starts_with("skel.")), "{rules:?}");
}

/// The rules of `check MODEL.dff`.
fn report(model: &Model, tag: &str) -> Vec<String> {
    let m = fixture(&format!("{tag}.dff"), &model.bytes());
    check(&[&m]).1
}

#[test]
fn a_sound_model_has_an_empty_report() {
    assert_eq!(report(&sound_skin(), "sound"), Vec::<String>::new());
    assert_eq!(
        report(&dff::gta3_vehicle(), "vehicle"),
        Vec::<String>::new()
    );
}

#[test]
fn report_a_skinned_model_without_a_table() {
    let mut model = sound_skin();
    model.frames[1].hanim.as_mut().unwrap().table = None;
    fires(
        "skel.dff.no_table",
        &report(&model, "no_table"),
        &report(&sound_skin(), "no_table_near"),
    );
}

/// The sound skin with its node table changed by `f`.
fn with_table(f: impl FnOnce(&mut Vec<(i32, i32, u32)>)) -> Model {
    let mut model = sound_skin();
    let table = model.frames[1].hanim.as_mut().unwrap().table.as_mut();
    f(&mut table.unwrap().2);
    model
}

#[test]
fn report_the_node_table_against_the_frames() {
    let near = report(&sound_skin(), "table_near");
    // A node no frame carries.
    let model = with_table(|nodes| nodes.push((999, nodes.len() as i32, 1)));
    fires(
        "skel.dff.node_without_frame",
        &report(&model, "node_without_frame"),
        &near,
    );
    // A frame below the table's whose id the table lacks.
    let mut model = sound_skin();
    model
        .frames
        .push(dff::Frame::new(40, 6, [0.0; 3]).named(b"extra").bone(777));
    fires(
        "skel.dff.frame_id_not_in_table",
        &report(&model, "frame_id"),
        &near,
    );
    // A node id used twice.
    let model = with_table(|nodes| nodes[7].0 = nodes[6].0);
    fires(
        "skel.dff.duplicate_node_id",
        &report(&model, "duplicate_id"),
        &near,
    );
}

#[test]
fn report_push_pop_flags() {
    let near = report(&sound_skin(), "flags_near");
    // No flag at all: every node hangs below the one before, which the frames disagree with.
    let model = with_table(|nodes| nodes.iter_mut().for_each(|n| n.2 = 0));
    let case = report(&model, "no_flags");
    fires("skel.dff.push_pop_parent", &case, &near);
    assert!(
        !case.iter().any(|r| r == "skel.dff.pop_underflow"),
        "{case:?}"
    );
    // Every node pops: more pops than pushes.
    let model = with_table(|nodes| nodes.iter_mut().for_each(|n| n.2 = dff::POP));
    fires("skel.dff.pop_underflow", &report(&model, "pops"), &near);
}

#[test]
fn report_missing_standard_bones_and_names_with_blanks() {
    let near = report(&sound_skin(), "bones_near");
    let few = dff::skinned(SA, &trimmed_bones()[..6], false);
    fires("skel.dff.missing_bone", &report(&few, "few"), &near);
    // The same on a Vice City model (the rule is San Andreas'): not reported for VC.
    let vc = dff::skinned(dff::VC, &trimmed_bones()[..6], false);
    assert!(!report(&vc, "few_vc")
        .iter()
        .any(|r| r == "skel.dff.missing_bone"));
    let blanks = dff::skinned(SA, &SA_BONES[..29], false);
    fires("skel.dff.name_blanks", &report(&blanks, "blanks"), &near);
}

#[test]
fn the_report_document_has_checks_shape_and_the_models_games() {
    let few = dff::skinned(SA, &trimmed_bones()[..6], false);
    let path = fixture("shape.dff", &few.bytes());
    let (json, _) = check(&[&path]);
    assert_eq!(json.keys(), ["inputs"]);
    let input = &json.get("inputs").arr()[0];
    assert_eq!(
        input.keys(),
        [
            "file",
            "format",
            "findings",
            "groups",
            "summary",
            "games",
            "games_from"
        ]
    );
    assert_eq!(input.get("format").str(), "dff");
    let games: Vec<&str> = input.get("games").arr().iter().map(Json::str).collect();
    assert_eq!(games, ["sa", "mta"]);
    assert_eq!(input.get("games_from").str(), "file");
    let finding = &input.get("findings").arr()[0];
    assert_eq!(
        finding.keys(),
        [
            "rule",
            "severity",
            "games",
            "offset",
            "entry",
            "animation",
            "bone",
            "message"
        ]
    );
    let missing = input
        .get("findings")
        .arr()
        .iter()
        .filter(|f| f.get("rule").str() == "skel.dff.missing_bone");
    assert_eq!(
        missing.count(),
        23 - 6,
        "the tags of the standard bones past the neck"
    );
    let group = &input.get("groups").arr()[0];
    assert_eq!(
        group.keys(),
        [
            "rule",
            "severity",
            "games",
            "count",
            "animations",
            "entries",
            "first",
            "listed",
            "spread"
        ]
    );
    // --game names the games.
    let (json, _) = check(&["--game", "vc", &path]);
    let input = &json.get("inputs").arr()[0];
    assert_eq!(input.get("games_from").str(), "caller");
    let games: Vec<&str> = input.get("games").arr().iter().map(Json::str).collect();
    assert_eq!(games, ["vc"]);
}

#[test]
fn check_text_output_groups_and_summarises_skeleton_findings() {
    let m = fixture("text.dff", &sound_skin().bytes());
    // Named as its block, for SA alone: the skeleton's findings and the summary.
    let a = fixture("test.ifp", &anp3(vec![rot("x", 777), rot(" Pelvis", -1)]));
    let output = run(&["check", "--game", "sa", "--skeleton", &m, &a]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains("skel.track.unbound"), "{text}");
    assert!(text.contains("skel.track.name_not_in_table"), "{text}");
    let last = text.lines().last().unwrap();
    assert!(
        last.starts_with(&format!("{a}: 0 errors, 2 warnings")),
        "{last}"
    );
}

#[test]
fn check_skeleton_takes_a_model_in_an_archive_and_refuses_a_bad_one() {
    let mut img = Img::default();
    img.add("ped.dff", &sound_skin().bytes());
    let archive = fixture("models.img", &img.v2());
    let a = fixture("archived.ifp", &anp3(vec![rot("x", 777)]));
    let (_, rules) = check(&["--skeleton", &format!("{archive}:PED.DFF"), &a]);
    assert!(rules.iter().any(|r| r == "skel.track.unbound"), "{rules:?}");
    // A model that is no model: a usage error, named.
    let output = run(&["check", "--skeleton", &a, &a]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("not a model"),
        "{}",
        stderr(&output)
    );
    // A model in an archive, checked alone.
    let output = run(&["check", "--json", &format!("{archive}:ped.dff")]);
    let json = Json::parse(stdout(&output)).unwrap();
    assert_eq!(json.get("inputs").arr()[0].get("format").str(), "dff");
}

#[test]
fn a_model_on_standard_input_gets_its_report() {
    let few = dff::skinned(SA, &trimmed_bones()[..6], false);
    let output = run_piped(&["check", "--json", "-"], &few.bytes());
    let json = Json::parse(stdout(&output)).unwrap();
    let input = &json.get("inputs").arr()[0];
    assert_eq!(input.get("format").str(), "dff");
    assert!(input
        .get("findings")
        .arr()
        .iter()
        .any(|f| f.get("rule").str() == "skel.dff.missing_bone"));
}

/// Column-major product.
fn mul(a: &[f32; 16], b: &[f32; 16]) -> [f32; 16] {
    testkit::rig::mul(a, b)
}

/// The bind pose of a testkit model: each frame's model matrix.
fn bind_pose(model: &Model) -> Vec<[f32; 16]> {
    let mut out: Vec<[f32; 16]> = Vec::new();
    for f in &model.frames {
        let local = testkit::rig::matrix(f.rotation, f.position);
        out.push(if f.parent >= 0 {
            mul(&out[f.parent as usize], &local)
        } else {
            local
        });
    }
    out
}

fn close(a: &[f32], b: &[f32]) -> bool {
    a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-4)
}

#[test]
fn sample_skeleton_json_binds_bones_and_poses_every_frame() {
    let model = sound_skin();
    let m = fixture("pose.dff", &model.bytes());
    // Head (id 5) turned a quarter about z and moved; an id the model lacks.
    let s = std::f32::consts::FRAC_1_SQRT_2;
    let turn = [0.0, 0.0, s, s];
    let head = BoneSpec::new(
        "Head",
        2,
        5,
        vec![
            f2(turn, 0.0, [0.5, 0.0, 0.0]),
            f2(turn, 1.0, [0.5, 0.0, 0.0]),
        ],
    );
    let a = fixture("pose.ifp", &anp3(vec![head, rot("x", 777)]));
    let output = run(&[
        "sample",
        "--json",
        "--skeleton",
        &m,
        "--animation",
        "a",
        "--time",
        "0.5",
        &a,
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let json = Json::parse(stdout(&output)).unwrap();
    assert_eq!(
        json.keys(),
        ["animation", "time", "game", "bones", "frames"]
    );
    assert_eq!(json.get("game").str(), "sa");
    let bones = json.get("bones").arr();
    assert_eq!(
        bones[0].keys(),
        [
            "name",
            "bone_id",
            "rotation",
            "translation",
            "frame",
            "unbound"
        ]
    );
    let head_frame = frame_of(5);
    assert_eq!(bones[0].get("frame").i64(), head_frame);
    assert_eq!(bones[0].get("unbound"), &Json::Null);
    assert_eq!(bones[1].get("frame"), &Json::Null);
    assert_eq!(bones[1].get("unbound").str(), "no_such_id");
    let frames = json.get("frames").arr();
    assert_eq!(frames.len(), model.frames.len());
    let rest = bind_pose(&model);
    let head_frame = head_frame as usize;
    for (i, f) in frames.iter().enumerate() {
        assert_eq!(f.keys(), ["index", "name", "matrix"]);
        assert_eq!(f.get("index").i64(), i as i64);
        let name = model.frames[i].name.clone().unwrap();
        assert_eq!(f.get("name").str().as_bytes(), name.as_slice());
        let matrix = f.get("matrix").f32s();
        assert_eq!(matrix.len(), 16);
        // The head and the frames below it move; the others stay at rest.
        let below_head = {
            let mut p = i as i32;
            while p >= 0 && p as usize != head_frame {
                p = model.frames[p as usize].parent;
            }
            p >= 0
        };
        if !below_head {
            assert!(
                close(&matrix, &rest[i]),
                "frame {i}: {matrix:?} {:?}",
                rest[i]
            );
        }
    }
    // The head: its parent's matrix times the track's rotation and translation.
    let parent = model.frames[head_frame].parent as usize;
    let local = testkit::rig::matrix(
        [0.0, 1.0, 0.0, -1.0, 0.0, 0.0, 0.0, 0.0, 1.0],
        [0.5, 0.0, 0.0],
    );
    let expected = mul(&rest[parent], &local);
    let got = frames[head_frame].get("matrix").f32s();
    assert!(close(&got, &expected), "{got:?} {expected:?}");
}

#[test]
fn sample_skeleton_text_and_games() {
    let model = sound_skin();
    let mut img = Img::default();
    img.add("ped.dff", &model.bytes());
    let archive = fixture("pose.img", &img.v2());
    let a = fixture(
        "text_pose.ifp",
        &anp3(vec![rot("Head", 5), rot(" Pelvis", -1)]),
    );
    let entry = format!("{archive}:ped.dff");
    let output = run(&[
        "sample",
        "--skeleton",
        &entry,
        "--animation",
        "a",
        "--time",
        "0",
        &a,
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains("bound as sa binds:"), "{text}");
    assert!(
        text.contains(&format!("-> frame {} \"Head\"", frame_of(5))),
        "{text}"
    );
    assert!(text.contains("nothing (name_not_in_table)"), "{text}");
    assert!(
        text.contains(&format!("frames in model space ({})", model.frames.len())),
        "{text}"
    );
    // MTA's loader knows " Pelvis" (blanks dropped): it binds there.
    let output = run(&[
        "sample",
        "--json",
        "--skeleton",
        &entry,
        "--game",
        "mta",
        "--animation",
        "a",
        "--time",
        "0",
        &a,
    ]);
    let json = Json::parse(stdout(&output)).unwrap();
    assert_eq!(json.get("game").str(), "mta");
    assert_eq!(json.get("bones").arr()[1].get("frame").i64(), frame_of(1));
    // --game needs --skeleton.
    let output = run(&[
        "sample",
        "--game",
        "sa",
        "--animation",
        "a",
        "--time",
        "0",
        &a,
    ]);
    assert_eq!(output.status.code(), Some(2));
    // A model that is not one.
    let output = run(&[
        "sample",
        "--skeleton",
        &a,
        "--animation",
        "a",
        "--time",
        "0",
        &a,
    ]);
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("not a model"),
        "{}",
        stderr(&output)
    );
}
