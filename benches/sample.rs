//! Sampling speed (docs/ANIMATION.md): poses of a whole ped animation per second, and the
//! one-off cost of indexing it in a file.
//!
//! The animation is a typical SA ped clip: 32 bones, 2 s, packed keys at 30 Hz (61 keys a
//! bone; the root with translation), or the same as floats. Each iteration samples the full
//! pose at 61 times spread over the clip (the walk over a bone's keys grows with the time), so
//! one element is one full pose. `cargo bench --features alloc --bench sample`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gtastream::{encode, Animation, Bone, Format, FrameType, Keyframe, Package, Sampler};

const BONES: usize = 32;
const KEYS: usize = 61;
const TIMES: usize = 61;

fn clip(packed: bool) -> Vec<u8> {
    let bones = (0..BONES)
        .map(|b| {
            let frame_type = match (packed, b == 0) {
                (true, true) => FrameType::Ifp2PackedRotTrans,
                (true, false) => FrameType::Ifp2PackedRot,
                (false, true) => FrameType::Ifp2RotTrans,
                (false, false) => FrameType::Ifp2Rot,
            };
            let frames = (0..KEYS)
                .map(|k| {
                    let angle = (k as f32 * 0.1 + b as f32).sin() * 0.5;
                    Keyframe {
                        time: k as f32 / 30.0,
                        rotation: [angle.sin() * 0.6, 0.0, angle.sin() * 0.8, angle.cos()],
                        translation: [0.0, k as f32 * 0.02, 1.0],
                        scale: [0.0; 3],
                    }
                })
                .collect();
            Bone {
                name: Some(format!("bone{b}")),
                bone_id: Some(b as i32),
                bone_key: None,
                frame_type,
                frames,
                raw: Vec::new(),
            }
        })
        .collect();
    let package = Package {
        format: Format::Anp3,
        name: Some("bench".into()),
        animations: vec![Animation {
            name: "walk".into(),
            frame_data_size: None,
            flags: Some(u32::from(packed)),
            duration: None,
            bones,
            raw: Vec::new(),
        }],
        warnings: vec![],
        raw: Vec::new(),
        trailing: Vec::new(),
    };
    encode::ifp2(&package).unwrap()
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("sample");
    for (label, packed) in [("packed", true), ("float", false)] {
        let data = clip(packed);
        let sampler = Sampler::<BONES>::new(&data, b"walk").unwrap();
        let length = sampler.length();
        group.throughput(Throughput::Elements(TIMES as u64));
        group.bench_function(format!("pose_{label}"), |b| {
            b.iter(|| {
                let mut sum = 0.0f32;
                for i in 0..TIMES {
                    let t = length * i as f32 / TIMES as f32;
                    sampler
                        .sample(black_box(t), true, |pose| sum += pose.rotation[3])
                        .unwrap();
                }
                black_box(sum)
            })
        });
        group.throughput(Throughput::Elements(1));
        group.bench_function(format!("index_{label}"), |b| {
            b.iter(|| {
                Sampler::<BONES>::new(black_box(&data), b"walk")
                    .unwrap()
                    .length()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
