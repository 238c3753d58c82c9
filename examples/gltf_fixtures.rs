//! Writes the inputs of the glTF checks (tests/gltf/, run by `.ci/run`): for San Andreas,
//! Vice City and GTA III, a model built in code (the test kit's DFF shapes: an SA skin, a VC
//! skin whose frame list is not in node order, a GTA III ped of named unskinned frames) and an
//! animation file whose tracks turn and move its bones, with a step (two keys at one time),
//! a flipped quaternion and a track that binds to nothing; packed keys whose slerp jumps to
//! the next key (`jumps.ifp`); and `cases.json`, which names them with the animations and
//! times to compare.
//!
//! ```text
//! cargo run --features gltf --example gltf_fixtures -- OUT_DIR
//! cargo run --release --features gltf --example gltf_fixtures -- --speed
//! ```
//!
//! `--speed` times the conversion of the stock-shaped `ped.ifp` (330 animations) on the SA
//! skin instead (docs/ANIMATION.md, "glTF").

use std::path::Path;
use std::process::ExitCode;

use gtastream::FrameType::{Kr00, Krt0};
use testkit::anpk::{anim, bone, kf, package};
use testkit::dff;
use testkit::ifp2::{f1, f2, p3, p4, AnimSpec, BoneSpec, FileSpec};
use testkit::rig::quaternion;

/// A rotation that differs per bone `b` and key `k`.
fn turn(b: usize, k: usize) -> [f32; 4] {
    quaternion(
        [
            1.0 + b as f32 * 0.4,
            0.5 - k as f32 * 0.3,
            0.25 + (b % 3) as f32,
        ],
        0.15 + 0.3 * k as f32 + 0.05 * b as f32,
    )
}

/// The same as `turn`, packed (× 4096).
fn packed(b: usize, k: usize) -> [i16; 4] {
    turn(b, k).map(|c| (c * 4096.0).round() as i16)
}

fn sa() -> Vec<u8> {
    let times = [0.0, 0.25, 0.5, 1.0];
    let rotations = |b: usize| -> BoneSpec {
        let frames = times
            .iter()
            .enumerate()
            .map(|(k, &t)| f1(turn(b, k), t))
            .collect();
        BoneSpec::new("b", 1, 0, frames)
    };
    let mut bones = Vec::new();
    // The root moves (type 2).
    let root = times
        .iter()
        .enumerate()
        .map(|(k, &t)| f2(turn(0, k), t, [0.1 * k as f32, 0.5 - 0.2 * k as f32, 1.0]))
        .collect();
    bones.push(BoneSpec::new("Root", 2, 0, root));
    // A step at 0.3: two keys at one time.
    let step = vec![
        f1(turn(1, 0), 0.0),
        f1(turn(1, 1), 0.3),
        f1(turn(1, 2), 0.3),
        f1(turn(1, 3), 0.8),
    ];
    bones.push(BoneSpec::new(" Pelvis", 1, 1, step));
    // A flipped key (the negated quaternion): removed as at load.
    let flipped = vec![
        f1(turn(2, 0), 0.0),
        f1(turn(2, 1).map(|c| -c), 0.5),
        f1(turn(2, 2), 1.0),
    ];
    bones.push(BoneSpec::new(" Spine", 1, 2, flipped));
    for (b, id) in [(3, 22), (4, 32), (5, 41), (6, 5)] {
        let mut spec = rotations(b);
        spec.bone_id = id;
        bones.push(spec);
    }
    // No bone of the model has this id: reported, not written.
    bones.push(BoneSpec::new("Tail", 1, 999, vec![f1(turn(7, 0), 0.0)]));
    let walk = AnimSpec::new("walk", bones);
    // Packed keys (types 3 and 4), 60 ticks a second.
    let ticks = [0i16, 15, 30, 60];
    let packed_root = ticks
        .iter()
        .enumerate()
        .map(|(k, &t)| p4(packed(8, k), t, [100 * k as i16, -50, 1024]))
        .collect();
    let packed_head = ticks
        .iter()
        .enumerate()
        .map(|(k, &t)| p3(packed(9, k), t))
        .collect();
    let idle = AnimSpec::new(
        "idle_packed",
        vec![
            BoneSpec::new("Root", 4, 0, packed_root),
            BoneSpec::new(" Head", 3, 5, packed_head),
        ],
    );
    FileSpec::anp3("gltf", vec![walk, idle]).build()
}

/// ANPK tracks on `names` (with ids where `ids` gives them): the first moves (KRT0).
fn anpk(names: &[(&str, i32)], ids: bool) -> Vec<u8> {
    let times = [0.0, 0.4, 0.7, 1.2];
    let bones = names
        .iter()
        .enumerate()
        .map(|(b, &(name, id))| {
            let id = ids.then_some(id);
            if b == 0 {
                let keys = times
                    .iter()
                    .enumerate()
                    .map(|(k, &t)| kf(t, turn(b, k), [0.2 * k as f32, 0.0, 0.9], [1.0; 3]))
                    .collect();
                bone(name, id, Krt0, keys)
            } else {
                let keys = times
                    .iter()
                    .enumerate()
                    .map(|(k, &t)| kf(t, turn(b, k), [0.0; 3], [1.0; 3]))
                    .collect();
                bone(name, id, Kr00, keys)
            }
        })
        .collect();
    testkit::anpk::bytes(&package("gltf", vec![anim("run", bones)]))
}

/// Prints the time of `export` and of the `.glb` of the stock-shaped `ped.ifp`.
fn speed() {
    use gtastream::gltf::export::{export, Options};
    let ifp = testkit::stock::sa_ped().build();
    let skeleton = gtastream::rig::read_skeleton(&dff::sa_skin().bytes()).expect("a model");
    let runs = 20;
    let mut best = f64::INFINITY;
    let mut size = 0;
    for _ in 0..runs {
        let start = std::time::Instant::now();
        let e = export(&ifp, &skeleton, &Options::default()).expect("exports");
        size = e.to_glb().len();
        best = best.min(start.elapsed().as_secs_f64());
    }
    println!(
        "ped.ifp ({} bytes, 330 animations) to .glb ({size} bytes): best of {runs} {:.1} ms",
        ifp.len(),
        best * 1e3
    );
}

fn main() -> ExitCode {
    if std::env::args().nth(1).as_deref() == Some("--speed") {
        speed();
        return ExitCode::SUCCESS;
    }
    let Some(out) = std::env::args().nth(1) else {
        eprintln!("usage: gltf_fixtures OUT_DIR");
        return ExitCode::from(2);
    };
    let out = Path::new(&out);
    let files: [(&str, Vec<u8>); 8] = [
        ("sa.dff", dff::sa_skin().bytes()),
        ("sa.ifp", sa()),
        ("vc.dff", dff::vc_ped().bytes()),
        (
            "vc.ifp",
            anpk(
                &[
                    ("Root", 0),
                    ("Spine", 2),
                    ("Head", 5),
                    ("R UpperArm", 22),
                    ("Tail", 999),
                ],
                true,
            ),
        ),
        // The stock-shaped ped.ifp (330 animations, keys at one time): validated, and what
        // the conversion speed is measured on.
        ("ped.ifp", testkit::stock::sa_ped().build()),
        (
            "jumps.ifp",
            testkit::stock::packed_jumps("gltf", "walk_packed", (" Spine", 2)),
        ),
        ("iii.dff", dff::gta3_ped().bytes()),
        (
            "iii.ifp",
            anpk(
                &[(" Pelvis", 1), (" Spine", 2), (" Head", 5), ("Swaist", 0)],
                false,
            ),
        ),
    ];
    // Times every 0.05 s, past the end too; the step's own time (0.3) among them.
    let times: Vec<String> = (0..=30).map(|i| format!("{}", i as f32 * 0.05)).collect();
    let times = times.join(", ");
    // The jumps' file: every 0.05 s, at each jump's key (10, 20, 30 ticks) and just after
    // each key; the step's own time (40 ticks) left out, as a viewer may take either side.
    let mut jump_times: Vec<f32> = (0..=22).map(|i| i as f32 * 0.05).collect();
    for ticks in [10.0f32, 20.0, 30.0] {
        jump_times.push(ticks / 60.0);
    }
    for ticks in [10.0f32, 20.0, 30.0, 40.0] {
        jump_times.push(ticks / 60.0 + 1e-4);
    }
    let jump_times: Vec<String> = jump_times.iter().map(|t| format!("{t}")).collect();
    let jump_times = jump_times.join(", ");
    let cases = format!(
        r#"[
  {{"name": "sa", "model": "sa.dff", "animation": "sa.ifp", "animations": ["walk", "idle_packed"],
   "tolerance": {{"idle_packed": 5e-5}}, "times": [{times}],
   "unwritten": [["walk", 7]]}},
  {{"name": "sa_ped", "model": "sa.dff", "animation": "ped.ifp",
   "animations": ["anim_000", "anim_001", "anim_329"], "times": [{times}], "unwritten": []}},
  {{"name": "vc", "model": "vc.dff", "animation": "vc.ifp", "animations": ["run"],
   "times": [{times}], "unwritten": [["run", 4]]}},
  {{"name": "sa_jumps", "model": "sa.dff", "animation": "jumps.ifp",
   "animations": ["walk_packed"], "tolerance": {{"walk_packed": 5e-5}}, "times": [{jump_times}],
   "unwritten": []}},
  {{"name": "iii", "model": "iii.dff", "animation": "iii.ifp", "animations": ["run"],
   "times": [{times}], "unwritten": [["run", 3]]}}
]
"#
    );
    let written = std::fs::create_dir_all(out).and_then(|()| {
        for (name, bytes) in &files {
            std::fs::write(out.join(name), bytes)?;
        }
        std::fs::write(out.join("cases.json"), cases)
    });
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("gltf_fixtures: {}: {e}", out.display());
            ExitCode::FAILURE
        }
    }
}
