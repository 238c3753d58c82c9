//! Benchmark inputs of every format, made in code and deterministic (a seeded SplitMix64):
//! the same seed and size always give the same bytes.
//!
//! Shared by the criterion benchmarks (`benches/decode.rs`), the generator of the C benchmark's
//! input (`examples/bench_file.rs`) and the test that runs the C benchmark
//! (`ffi/tests/c_examples.rs`), which include this file with `#[path]`. It needs the core
//! crate under the name `gtastream` with the `alloc` feature (for `encode`).
#![allow(dead_code)]

use gtastream::{Animation, Bone, Format, FrameType, Keyframe, Package};

/// A generated file and what it holds.
pub struct Input {
    pub bytes: Vec<u8>,
    /// Keyframes (animation formats) or records: instances and cars (placement formats).
    pub items: u64,
    /// Whether the file needs seeks (Stories).
    pub seeks: bool,
}

/// A small deterministic generator (SplitMix64), so every run decodes the same bytes.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: i32, hi: i32) -> i32 {
        let span = (hi - lo + 1) as u64;
        lo + (self.next() % span) as i32
    }

    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// Bone names and ids of a San Andreas ped skeleton; about a quarter of stock bones store −1.
const SKELETON: &[(&str, i32)] = &[
    ("Root", 0),
    ("Pelvis", 1),
    ("Spine", 2),
    ("Spine1", 3),
    ("Neck", 4),
    ("Head", 5),
    ("Jaw", 8),
    ("L Brow", 6),
    ("R Brow", 7),
    ("Bip01 L Clavicle", 31),
    ("L UpperArm", 32),
    ("L ForeArm", 33),
    ("L Hand", 34),
    ("L Finger", 35),
    ("L Finger01", 36),
    ("Bip01 R Clavicle", 21),
    ("R UpperArm", 22),
    ("R ForeArm", 23),
    ("R Hand", 24),
    ("R Finger", 25),
    ("R Finger01", 26),
    ("L Thigh", 41),
    ("L Calf", 42),
    ("L Foot", 43),
    ("L Toe0", 2000),
    ("R Thigh", 51),
    ("R Calf", 52),
    ("R Foot", 53),
    ("R Toe0", 2001),
    ("L breast", 302),
    ("R breast", 301),
    ("Belly", 201),
    ("Tail", -1),
    ("Extra", -1),
];

/// A bone of 30–60 keyframes whose values are exact multiples of the packed units (so the
/// packed encoder stores them without loss, and half floats hold them exactly), times rising by
/// 1–4 ticks of 1/60 s.
fn bone(rng: &mut Rng, name: &str, bone_id: i32, frame_type: FrameType) -> Bone {
    let count = rng.range(30, 60);
    let mut tick = 0;
    let frames = (0..count)
        .map(|_| {
            let frame = Keyframe {
                time: tick as f32 / 60.0,
                rotation: [0; 4].map(|_| rng.range(-4096, 4096) as f32 / 4096.0),
                translation: if frame_type.has_translation() {
                    [0; 3].map(|_| rng.range(-2048, 2048) as f32 / 1024.0)
                } else {
                    [0.0; 3]
                },
                scale: if frame_type.has_scale() {
                    [0; 3].map(|_| rng.range(512, 2048) as f32 / 1024.0)
                } else {
                    [0.0; 3]
                },
            };
            tick += rng.range(1, 4);
            frame
        })
        .collect();
    Bone {
        name: Some(name.into()),
        bone_id: Some(bone_id),
        bone_key: None,
        frame_type,
        frames,
        raw: Vec::new(),
    }
}

/// An animation of 26–34 bones of the ped skeleton: the root and about 15 % of the others
/// with translations (`moving`), the rest rotation only (`still`), as in `ped.ifp`.
fn animation(rng: &mut Rng, index: usize, still: FrameType, moving: FrameType) -> Animation {
    let bone_count = rng.range(26, SKELETON.len() as i32) as usize;
    let bones = SKELETON[..bone_count]
        .iter()
        .enumerate()
        .map(|(i, &(name, id))| {
            let frame_type = if i == 0 || rng.chance(15) {
                moving
            } else {
                still
            };
            let id = if rng.chance(25) { -1 } else { id };
            bone(rng, name, id, frame_type)
        })
        .collect();
    Animation {
        name: format!("bench_anim_{index:05}"),
        frame_data_size: None,
        flags: None,
        duration: None,
        bones,
        raw: Vec::new(),
    }
}

/// Animations until their keyframes and headers (`per_animation` and `per_bone` bytes each)
/// reach `target` bytes.
fn animations(
    rng: &mut Rng,
    target: usize,
    still: FrameType,
    moving: FrameType,
    per_animation: usize,
    per_bone: usize,
) -> Vec<Animation> {
    let mut out = Vec::new();
    let mut size = 0;
    while size < target {
        let animation = animation(rng, out.len(), still, moving);
        size += per_animation
            + animation
                .bones
                .iter()
                .map(|b| per_bone + b.frames.len() * b.frame_type.size())
                .sum::<usize>();
        out.push(animation);
    }
    out
}

fn keyframes(animations: &[Animation]) -> u64 {
    animations
        .iter()
        .flat_map(|a| &a.bones)
        .map(|b| b.frames.len() as u64)
        .sum()
}

fn package(format: Format, animations: Vec<Animation>) -> Package {
    Package {
        format,
        name: Some("bench".into()),
        animations,
        warnings: Vec::new(),
        raw: Vec::new(),
        trailing: Vec::new(),
    }
}

/// An `ANP3` package of at least `target` bytes: packed keyframes, types 3 and 4.
pub fn anp3(target: usize, seed: u64) -> Input {
    let mut rng = Rng(seed);
    let animations = animations(
        &mut rng,
        target,
        FrameType::Ifp2PackedRot,
        FrameType::Ifp2PackedRotTrans,
        36,
        36,
    );
    let items = keyframes(&animations);
    let bytes = gtastream::encode::ifp2(&package(Format::Anp3, animations))
        .expect("benchmark package encodes");
    Input {
        bytes,
        items,
        seeks: false,
    }
}

/// An `ANPK` package of about `target` bytes: float keyframes, `KR00` and `KRT0`.
pub fn anpk(target: usize, seed: u64) -> Input {
    let mut rng = Rng(seed);
    let animations = animations(&mut rng, target, FrameType::Kr00, FrameType::Krt0, 56, 80);
    let items = keyframes(&animations);
    let bytes = gtastream::encode::anpk(&package(Format::Anpk, animations))
        .expect("benchmark package encodes");
    Input {
        bytes,
        items,
        seeks: false,
    }
}

/// `f32` to IEEE half-float bits, for the values the generator makes: zero, or normal halves
/// held exactly (multiples of 1/4096 and 1/1024 below 16, sums of 1/60 steps rounded here).
fn half(value: f32) -> u16 {
    if value == 0.0 {
        return 0;
    }
    let bits = value.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exponent = ((bits >> 23) & 0xff) as i32 - 127 + 15;
    assert!(
        (1..31).contains(&exponent),
        "{value} is out of the half range"
    );
    // Rounds the mantissa to 10 bits (ties away from zero: enough for benchmark data).
    let mantissa = ((bits & 0x7f_ffff) + 0x1000) >> 13;
    sign | (((exponent as u32) << 10) + mantissa) as u16
}

/// A Stories `.anim` file of about `target` bytes: records, bone tables and keyframes
/// depth-first (record, its bones, their keyframes), half-float keyframes with and without
/// translation, every bone with an id (flag 0x10). Decoding it takes one seek back per
/// animation (to the offset table) and one per bone after a bone with keyframes.
pub fn stories(target: usize, seed: u64) -> Input {
    let mut rng = Rng(seed);
    let animations = animations(
        &mut rng,
        target,
        FrameType::StoriesRot,
        FrameType::StoriesRotTrans,
        0x24 + 4,
        12,
    );
    let items = keyframes(&animations);
    let count = animations.len();
    let mut out = vec![0u8; 0x20 + 4 * count];
    out[..4].copy_from_slice(b"mina");
    let mut relocs: Vec<u32> = Vec::new();
    let put = |out: &mut Vec<u8>, at: usize, value: u32| {
        out[at..at + 4].copy_from_slice(&value.to_le_bytes());
    };
    for (index, animation) in animations.iter().enumerate() {
        let record = out.len();
        put(&mut out, 0x20 + 4 * index, record as u32);
        relocs.push((0x20 + 4 * index) as u32);
        let bone_table = record + 0x24;
        out.extend_from_slice(&(bone_table as u32).to_le_bytes());
        relocs.push(record as u32);
        let mut name = [0u8; 24];
        let stored = format!("anim{index}");
        name[..stored.len()].copy_from_slice(stored.as_bytes());
        out.extend_from_slice(&name);
        out.extend_from_slice(&(animation.bones.len() as i16).to_le_bytes());
        out.extend_from_slice(&[0, 0]);
        let duration = animation
            .bones
            .iter()
            .filter_map(|b| b.frames.last())
            .fold(0.0f32, |end, f| end.max(f.time));
        out.extend_from_slice(&duration.to_le_bytes());
        let mut frames_at = bone_table + 12 * animation.bones.len();
        for bone in &animation.bones {
            let translated = bone.frame_type.has_translation();
            let flags: u16 = 0x01 | 0x10 | if translated { 0x02 } else { 0 };
            let id = bone.bone_id.unwrap_or(-1) as u16;
            relocs.push((out.len() + 4) as u32);
            out.extend_from_slice(&flags.to_le_bytes());
            out.extend_from_slice(&(bone.frames.len() as i16).to_le_bytes());
            out.extend_from_slice(&(frames_at as u32).to_le_bytes());
            out.extend_from_slice(&(0x5EED_0000 | u32::from(id)).to_le_bytes());
            frames_at += bone.frames.len() * bone.frame_type.size();
        }
        for bone in &animation.bones {
            let mut previous = 0.0;
            for frame in &bone.frames {
                let [x, y, z, w] = frame.rotation;
                // Stored conjugated, as the decoder negates it back.
                for value in [-x, -y, -z, w, frame.time - previous] {
                    out.extend_from_slice(&half(value).to_le_bytes());
                }
                previous = frame.time;
                if bone.frame_type.has_translation() {
                    for value in frame.translation {
                        out.extend_from_slice(&half(value).to_le_bytes());
                    }
                }
            }
        }
    }
    let reloc_at = out.len();
    for reloc in &relocs {
        out.extend_from_slice(&reloc.to_le_bytes());
    }
    let end = out.len() as u32;
    put(&mut out, 0x08, end);
    put(&mut out, 0x0C, reloc_at as u32);
    put(&mut out, 0x10, reloc_at as u32);
    put(&mut out, 0x14, relocs.len() as u32);
    Input {
        bytes: out,
        items,
        seeks: true,
    }
}

/// A binary `bnry` placement file of about `target` bytes: instances, then car generators
/// (one for every 16 instances), right after the 76-byte header as vanilla files have them.
pub fn ipl_binary(target: usize, seed: u64) -> Input {
    let mut rng = Rng(seed);
    let instances = (target.max(76) - 76) * 16 / (16 * 40 + 48);
    let cars = instances / 16;
    let mut out = Vec::with_capacity(76 + instances * 40 + cars * 48);
    out.extend_from_slice(b"bnry");
    let cars_at = 76 + instances * 40;
    let header: [u32; 18] = [
        instances as u32,
        0,
        0,
        0,
        cars as u32,
        0,
        76,
        (instances * 40) as u32,
        0,
        0,
        0,
        0,
        0,
        0,
        cars_at as u32,
        (cars * 48) as u32,
        0,
        0,
    ];
    for value in header {
        out.extend_from_slice(&value.to_le_bytes());
    }
    for _ in 0..instances {
        for _ in 0..7 {
            let value = rng.range(-300_000, 300_000) as f32 / 100.0;
            out.extend_from_slice(&value.to_le_bytes());
        }
        for value in [rng.range(0, 20_000), rng.range(0, 18), -1] {
            out.extend_from_slice(&value.to_le_bytes());
        }
    }
    for _ in 0..cars {
        for _ in 0..4 {
            let value = rng.range(-300_000, 300_000) as f32 / 100.0;
            out.extend_from_slice(&value.to_le_bytes());
        }
        for _ in 0..8 {
            out.extend_from_slice(&rng.range(-1, 100).to_le_bytes());
        }
    }
    Input {
        bytes: out,
        items: (instances + cars) as u64,
        seeks: false,
    }
}

/// A text placement file of about `target` bytes: an `inst` section of San Andreas lines,
/// a `cars` section (one car for every 16 instances), and a `path` section passed through.
pub fn ipl_text(target: usize, seed: u64) -> Input {
    use std::fmt::Write as _;
    let mut rng = Rng(seed);
    let mut inst = String::from("# benchmark placement\ninst\n");
    let mut cars = String::from("end\ncars\n");
    let mut path = String::from("end\npath\n");
    let mut items = 0;
    let coordinate = |rng: &mut Rng| rng.range(-300_000, 300_000) as f32 / 100.0;
    while inst.len() + cars.len() + path.len() < target {
        let (x, y, z) = (
            coordinate(&mut rng),
            coordinate(&mut rng),
            coordinate(&mut rng),
        );
        let q = [0; 4].map(|_| rng.range(-1000, 1000) as f32 / 1000.0);
        writeln!(
            inst,
            "{}, building{}, {}, {x}, {y}, {z}, {}, {}, {}, {}, -1",
            rng.range(0, 20_000),
            rng.range(0, 999),
            rng.range(0, 18),
            q[0],
            q[1],
            q[2],
            q[3]
        )
        .unwrap();
        items += 1;
        if items % 16 == 0 {
            let angle = rng.range(0, 6283) as f32 / 1000.0;
            writeln!(
                cars,
                "{x}, {y}, {z}, {angle}, {}, -1, -1, 0, 0, 0, 0, 0",
                rng.range(400, 611)
            )
            .unwrap();
            items += 1;
        }
        if items % 64 == 0 {
            writeln!(path, "{x}, {y}, {z}, 1, 0, 0").unwrap();
        }
    }
    path.push_str("end\n");
    Input {
        bytes: [inst, cars, path].concat().into_bytes(),
        items,
        seeks: false,
    }
}
