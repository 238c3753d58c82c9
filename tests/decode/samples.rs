//! The committed sample `samples/walk.ifp` is ours: byte for byte what the generator in
//! `examples/sample/demo.rs` makes. Regenerate it with
//! `cargo run --example make_sample --features alloc`.
#![cfg(feature = "alloc")]

#[path = "../../examples/sample/demo.rs"]
mod demo;

use gtastream::{Decoder, Flow, Format, FrameType, Keyframes, Package, Visitor};

fn committed() -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(demo::SAMPLE_PATH);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn committed_sample_is_what_the_generator_makes() {
    let committed = committed();
    let generated = demo::bytes();
    assert!(
        committed == generated,
        "{} differs from the generator's output ({} vs {} bytes); \
         run `cargo run --example make_sample --features alloc`",
        demo::SAMPLE_PATH,
        committed.len(),
        generated.len()
    );
}

#[test]
fn sample_is_small() {
    assert!(committed().len() <= 4096);
}

#[test]
fn sample_decodes_cleanly_and_round_trips() {
    let bytes = committed();
    let package = Package::parse(&bytes).expect("the sample decodes");
    assert_eq!(package.format, Format::Anp3);
    assert_eq!(package.name.as_deref(), Some("demo"));
    assert!(package.warnings.is_empty(), "{:?}", package.warnings);
    let names: Vec<&str> = package.animations.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["walk", "run", "idle"]);
    // Packed frames quantise exactly once: decoding and encoding again gives the same bytes.
    assert_eq!(gtastream::encode::ifp2(&package).unwrap(), bytes);
}

#[test]
fn sample_walk_is_plausible() {
    let package = Package::parse(&committed()).unwrap();
    let walk = package.animation("WALK").expect("case-insensitive lookup");
    let ids: Vec<Option<i32>> = walk.bones.iter().map(|b| b.bone_id).collect();
    assert_eq!(
        ids,
        [Some(0), Some(1), Some(2), Some(41), Some(51), Some(-1)]
    );

    let root = walk.bone_by_id(0).unwrap();
    assert_eq!(root.name.as_deref(), Some("Root"));
    assert_eq!(root.frame_type, FrameType::Ifp2PackedRotTrans);
    let (first, last) = (root.frames.first().unwrap(), root.frames.last().unwrap());
    let speed = (last.translation[1] - first.translation[1]) / (last.time - first.time);
    assert!((speed - 1.9).abs() < 0.01, "root speed {speed} m/s");

    for bone in &walk.bones[1..] {
        assert_eq!(bone.frame_type, FrameType::Ifp2PackedRot);
    }
    assert!(walk.bone("head").unwrap().bone_id == Some(-1));

    for animation in &package.animations {
        for bone in &animation.bones {
            // A looping clip: the last key repeats the first pose.
            let (a, b) = (&bone.frames[0], bone.frames.last().unwrap());
            assert_eq!(a.rotation, b.rotation, "{} {:?}", animation.name, bone.name);
            for frame in &bone.frames {
                let norm: f32 = frame.rotation.iter().map(|q| q * q).sum::<f32>().sqrt();
                assert!((norm - 1.0).abs() < 1e-3, "|q| = {norm}");
            }
        }
    }
}

/// Counts keyframes as the streaming decoder delivers them.
#[derive(Default)]
struct Count {
    frames: usize,
    warnings: usize,
}

impl Visitor for Count {
    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        self.frames += frames.len();
        Flow::Continue
    }
    fn warning(&mut self, _: gtastream::Warning) -> Flow {
        self.warnings += 1;
        Flow::Continue
    }
}

#[test]
fn sample_streams_in_small_chunks() {
    let bytes = committed();
    let whole = Package::parse(&bytes).unwrap();
    let expected: usize = whole
        .animations
        .iter()
        .flat_map(|a| &a.bones)
        .map(|b| b.frames.len())
        .sum();
    for chunk in [1, 7, 64, 4096] {
        let mut decoder = Decoder::new();
        let mut count = Count::default();
        for piece in bytes.chunks(chunk) {
            decoder.feed(piece, &mut count).unwrap();
        }
        decoder.finish(&mut count).unwrap();
        assert_eq!(
            (count.frames, count.warnings),
            (expected, 0),
            "chunk {chunk}"
        );
    }
}
