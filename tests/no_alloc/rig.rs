//! Building a skeleton, binding, posing and the skeleton checks never allocate (the models
//! and the animation file are built before counting starts).

use std::hint::black_box;

use gtastream::check::{Finding, Games};
use gtastream::rig::*;
use gtastream::{Decoder, Sampler};
use testkit::ifp2::{f1, f2, AnimSpec, BoneSpec, FileSpec};
use testkit::rig::{iii_ped, sa_ped};

fn allocations(f: impl FnOnce()) -> usize {
    testkit::alloc_count::allocations(f).0
}

#[test]
fn skeletons_binding_posing_and_checks_allocate_nothing() {
    let q = [0.0, 0.0, 0.0, 1.0];
    let file = FileSpec::anp3(
        "test",
        vec![AnimSpec::new(
            "a",
            vec![
                BoneSpec::new(
                    "Root",
                    2,
                    0,
                    vec![f2(q, 0.0, [0.0; 3]), f2(q, 1.0, [0.0, 1.0, 0.0])],
                ),
                BoneSpec::new(" Pelvis", 1, -1, vec![f1(q, 0.0), f1(q, 1.0)]),
                BoneSpec::new("Head", 1, 5, vec![f1(q, 0.0), f1(q, 1.0)]),
                BoneSpec::new("Shead", 1, -1, vec![f1(q, 0.0)]),
            ],
        )],
    )
    .build();
    for model in [sa_ped(), iii_ped()] {
        let records = model.records();
        let n = allocations(|| {
            let mut builder = SkeletonBuilder::new();
            for r in &records {
                builder.take(r);
            }
            let skeleton = builder.build().expect("fits");
            let tracks = AnimationTracks::find(&file, None, 0).expect("an animation");
            let sampler = Sampler::<8>::by_index(&file, 0).expect("an animation");
            let mut out = [[0.0f32; 16]; MAX_FRAMES];
            let mut sum = 0.0f32;
            for host in Host::ALL {
                bind_all(&skeleton, host, tracks.tracks(), |_, b| {
                    sum += f32::from(b.frame().unwrap_or(0));
                });
                pose_animation(
                    &skeleton,
                    host,
                    &tracks,
                    &sampler,
                    0.3,
                    true,
                    &mut out,
                    |_, _| {},
                )
                .expect("poses");
                sum += out[1][12];
            }
            let mut count = 0u32;
            let mut checker = SkeletonChecker::new(&skeleton, Games::ALL, |_: &Finding| count += 1);
            Decoder::new()
                .decode_slice(&file, &mut checker)
                .expect("decodes");
            drop(checker);
            count += check_skeleton(&skeleton, Games::ALL, |_| {});
            black_box((sum, count));
        });
        assert_eq!(n, 0);
    }
}

/// Reading a skeleton from DFF bytes and checking a model or an animation on it as
/// `gtastream check` does allocate nothing either.
#[test]
fn reading_a_skeleton_and_checking_files_allocate_nothing() {
    let q = [0.0, 0.0, 0.0, 1.0];
    let file = FileSpec::anp3(
        "test",
        vec![AnimSpec::new(
            "a",
            vec![BoneSpec::new("Head", 1, 5, vec![f1(q, 0.0), f1(q, 1.0)])],
        )],
    )
    .build();
    for model in [testkit::dff::sa_skin(), testkit::dff::gta3_vehicle()] {
        let dff = model.bytes();
        let n = allocations(|| {
            let skeleton = read_skeleton(&dff).expect("a model");
            let mut count = 0u32;
            let checked = check_file(&dff, b"m.dff", None, None, |_| count += 1);
            let on = check_file(&file, b"a.ifp", None, Some(&skeleton), |_| count += 1);
            black_box((count, checked, on, skeleton.frames().len()));
        });
        assert_eq!(n, 0);
    }
}
