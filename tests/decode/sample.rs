//! The sampler against poses worked out by hand (docs/ANIMATION.md), on
//! fixtures of every storage kind: float and packed IFP2, ANPK, Stories. Every pose is also
//! checked against `Animation::sample` over the decoded `Package` (the same rules on owned
//! values): the two agree bit for bit.
#![cfg(feature = "alloc")]

use gtastream::{encode, ErrorKind, FrameType, Package, Sampler};
use testkit::anpk::{anim, bone, kf, package};
use testkit::ifp2::*;
use testkit::stories::{self, Anim, BoneRow, Layout};

const ID: [f32; 4] = [0.0, 0.0, 0.0, 1.0];
/// 90° about z.
const Z90: [f32; 4] = [
    0.0,
    0.0,
    core::f32::consts::FRAC_1_SQRT_2,
    core::f32::consts::FRAC_1_SQRT_2,
];
/// 180° about z.
const Z180: [f32; 4] = [0.0, 0.0, 1.0, 0.0];

/// `angle` (degrees) about z, by exact math: what the games' slerp gives up to `sinf`/`acosf`
/// rounding.
fn about_z(degrees: f64) -> [f32; 4] {
    let half = degrees.to_radians() / 2.0;
    [0.0, 0.0, half.sin() as f32, half.cos() as f32]
}

type Pose = (Option<Vec<u8>>, [f32; 4], Option<[f32; 3]>);

/// Every bone's pose, from the file and from the package (which must agree exactly).
fn poses(data: &[u8], animation: &str, time: f32, looped: bool) -> Vec<Pose> {
    let sampler = Sampler::<16>::new(data, animation.as_bytes()).expect("animation");
    let mut from_file = Vec::new();
    sampler
        .sample(time, looped, |p| {
            from_file.push((p.name.map(<[u8]>::to_vec), p.rotation, p.translation))
        })
        .expect("samples");
    let package = Package::parse(data).unwrap();
    let mut from_package = Vec::new();
    package
        .animation(animation)
        .unwrap()
        .sample(time, looped, |p| {
            from_package.push((p.name.map(<[u8]>::to_vec), p.rotation, p.translation))
        })
        .unwrap();
    let bits = |v: &[Pose]| -> Vec<Vec<u32>> {
        v.iter()
            .map(|(_, r, t)| {
                r.iter()
                    .chain(t.iter().flatten())
                    .map(|x| x.to_bits())
                    .collect()
            })
            .collect()
    };
    assert_eq!(
        bits(&from_file),
        bits(&from_package),
        "{animation} at {time}"
    );
    from_file
}

#[track_caller]
fn close(got: [f32; 4], want: [f32; 4]) {
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).abs() < 2e-6, "{got:?} != {want:?}");
    }
}

/// Float IFP2: a root with translation whose second key is stored flipped, a bone whose first
/// key is at 1 s, a bone with two keys at one time, a one-key bone, and a short bone.
fn float_file() -> Vec<u8> {
    let neg = |q: [f32; 4]| q.map(|c| -c);
    FileSpec::anp3(
        "f",
        vec![AnimSpec::new(
            "walk",
            vec![
                BoneSpec::new(
                    "Root",
                    2,
                    0,
                    vec![
                        f2(ID, 0.0, [0.0; 3]),
                        f2(neg(Z90), 1.0, [1.0, 2.0, 4.0]),
                        f2(Z180, 2.0, [1.0, 2.0, 4.0]),
                    ],
                ),
                BoneSpec::new("Late", 1, 2, vec![f1(ID, 1.0), f1(Z90, 2.0)]),
                BoneSpec::new("Snap", 1, 3, vec![f1(ID, 0.0), f1(Z90, 0.0), f1(Z180, 1.0)]),
                BoneSpec::new("One", 2, 4, vec![f2([0.5; 4], 0.5, [3.0, -1.0, 0.25])]),
                BoneSpec::new("Short", 1, 5, vec![f1(ID, 0.0), f1(Z90, 0.5)]),
                BoneSpec::new("Empty", 1, 6, vec![]),
            ],
        )
        .flags(0)],
    )
    .build()
}

#[test]
fn float_poses_by_hand() {
    let data = float_file();
    let sampler = Sampler::<16>::new(&data, b" WALK ").unwrap();
    assert_eq!(sampler.length(), 2.0);
    // The bone without keys is not played.
    assert_eq!(sampler.bone_count(), 5);

    let p = poses(&data, "walk", 0.5, false);
    let names: Vec<_> = p.iter().map(|b| b.0.clone().unwrap()).collect();
    assert_eq!(names, [&b"Root"[..], b"Late", b"Snap", b"One", b"Short"]);
    // Root: halfway to the flip-corrected 90° (not the long way to the stored −90°), and the
    // translation lerped.
    close(p[0].1, about_z(45.0));
    assert_eq!(p[0].2, Some([0.5, 1.0, 2.0]));
    // Late: playback starts at its first key (1 s), so 0.5 s is halfway to its second.
    close(p[1].1, about_z(45.0));
    assert_eq!(p[1].2, None);
    // Snap: the zero delta is skipped; 0.5 s is halfway from the second key (90°) to 180°.
    close(p[2].1, about_z(135.0));
    // One key: held, exactly.
    assert_eq!((p[3].1, p[3].2), ([0.5; 4], Some([3.0, -1.0, 0.25])));
    // Short: at its last key.
    close(p[4].1, Z90);

    let p = poses(&data, "walk", 0.0, false);
    close(p[0].1, ID);
    // Snap at 0: the zero-delta interval gives the factor 0, so the first key.
    close(p[2].1, ID);

    // Not looped, past a bone's end it holds its last key; at the length every bone does.
    let p = poses(&data, "walk", 0.75, false);
    assert_eq!(p[4].1, Z90);
    let p = poses(&data, "walk", 2.0, false);
    assert_eq!(p[0].1, Z180);
    assert_eq!(p[0].2, Some([1.0, 2.0, 4.0]));
    assert_eq!(p[1].1, Z90);
}

#[test]
fn looping_wraps_each_bone_on_its_own_keys() {
    let data = float_file();
    // 4.5 s wraps twice by the length (2 s) to 0.5 s.
    let at = poses(&data, "walk", 0.5, true);
    let wrapped = poses(&data, "walk", 4.5, true);
    for (a, w) in at.iter().zip(&wrapped) {
        close(w.1, a.1);
    }
    // Short (keys at 0 and 0.5 s) at 0.75 s, looped: once round its own keys, then 0.25 s on:
    // halfway. Not looped it holds its last key.
    let p = poses(&data, "walk", 0.75, true);
    close(p[4].1, about_z(45.0));
    // Late (keys at 1 and 2 s, a lap of 2 s) at 1.5 s: still in its first interval, three
    // quarters on.
    close(p[1].1, about_z(67.5));
}

/// A looped animation of length 0, or with a bone whose keys never advance, hangs the games:
/// an error, not a hang.
#[test]
fn endless_loops_are_errors() {
    let data = FileSpec::anp3(
        "e",
        vec![
            AnimSpec::new(
                "still",
                vec![BoneSpec::new("Root", 1, 0, vec![f1(ID, 0.0)])],
            ),
            AnimSpec::new(
                "stuck",
                vec![
                    BoneSpec::new("Root", 1, 0, vec![f1(ID, 0.0), f1(Z90, 2.0)]),
                    BoneSpec::new("Head", 1, 5, vec![f1(ID, 0.0), f1(Z90, 0.0)]),
                ],
            ),
        ],
    )
    .build();
    let still = Sampler::<4>::new(&data, b"still").unwrap();
    let error = still.sample(0.0, true, |_| {}).unwrap_err();
    assert_eq!((error.kind, error.offset), (ErrorKind::Endless, 0));
    // Not looped, it is a pose.
    still
        .sample(0.0, false, |p| assert_eq!(p.rotation, ID))
        .unwrap();
    let stuck = Sampler::<4>::new(&data, b"stuck").unwrap();
    let error = stuck.sample(0.5, true, |_| {}).unwrap_err();
    assert_eq!(error.kind, ErrorKind::Endless);
    // The offset names Head's keys: after the file header, "still", stuck's header, Root's
    // header and 2 × 20 bytes, and Head's header.
    let head_keys = 36 + (36 + 36 + 20) + 36 + (36 + 40) + 36;
    assert_eq!(error.offset, head_keys as u64);
    assert_eq!(
        Sampler::<4>::new(&data, b"missing").unwrap_err().kind,
        ErrorKind::NotFound
    );
    assert_eq!(Sampler::<4>::by_index(&data, 1).unwrap().name(), b"stuck");
    // More bones than the sampler holds.
    assert_eq!(
        Sampler::<1>::new(&data, b"stuck").unwrap_err().kind,
        ErrorKind::Limit
    );
}

/// Packed IFP2 (types 3 and 4): quaternions × 4096, times in 60 Hz ticks, translations × 1024.
#[test]
fn packed_poses_by_hand() {
    let data = FileSpec::anp3(
        "p",
        vec![AnimSpec::new(
            "run",
            vec![
                BoneSpec::new(
                    "Root",
                    4,
                    0,
                    vec![
                        p4([0, 0, 0, 4096], 0, [0, 0, 0]),
                        p4([0, 0, 4096, 0], 60, [1024, -2048, 512]),
                        // Stored flipped: corrected to (0, 0, 1, 0), so the last second holds.
                        p4([0, 0, -4096, 0], 120, [1024, -2048, 512]),
                    ],
                ),
                BoneSpec::new(
                    "Head",
                    3,
                    5,
                    vec![p3([0, 0, 0, 4096], 30), p3([0, 0, 4096, 0], 90)],
                ),
            ],
        )],
    )
    .build();
    let p = poses(&data, "run", 0.5, false);
    close(p[0].1, about_z(90.0));
    assert_eq!(p[0].2, Some([0.5, -1.0, 0.25]));
    // Head starts at its first key (0.5 s): at 0.5 s it is halfway to its second (1.5 s).
    close(p[1].1, about_z(90.0));
    let p = poses(&data, "run", 1.5, false);
    close(p[0].1, Z180);
    assert_eq!(p[0].2, Some([1.0, -2.0, 0.5]));
    // Held past the end: the last key as corrected at load, not as stored (without the
    // correction the interval above would slerp between opposite quaternions: θ = π, zero).
    let p = poses(&data, "run", 3.0, false);
    assert_eq!(p[0].1, Z180);
    assert!(p[0].1[2].is_sign_positive());
}

/// ANPK: quaternions stored conjugated, decoded to the engine convention before sampling.
#[test]
fn anpk_poses_by_hand() {
    let file = package(
        "ped",
        vec![anim(
            "idle",
            vec![
                bone(
                    "Root",
                    Some(0),
                    FrameType::Krt0,
                    vec![
                        kf(0.0, ID, [0.0; 3], [0.0; 3]),
                        kf(2.0, Z180, [2.0, 0.0, -2.0], [0.0; 3]),
                    ],
                ),
                bone(
                    "Head",
                    None,
                    FrameType::Kr00,
                    vec![kf(0.0, ID, [0.0; 3], [0.0; 3])],
                ),
            ],
        )],
    );
    let data = encode::anpk(&file).unwrap();
    let p = poses(&data, "IDLE", 1.0, false);
    close(p[0].1, about_z(90.0));
    assert_eq!(p[0].2, Some([1.0, 0.0, -1.0]));
    assert_eq!((p[1].1, p[1].2), (ID, None));
    assert_eq!(p[1].0.as_deref(), Some(&b"Head"[..]));
}

/// Stories: half floats, times the running sum of the stored deltas.
#[test]
fn stories_poses_by_hand() {
    let anims = vec![Anim {
        name: "dance",
        duration: 2.0,
        bones: vec![BoneRow {
            flags: 0x01 | 0x02 | 0x10,
            key: 0xABCD_0000,
            frames: vec![
                stories::frame(ID, 0.0, Some([0.0, 0.0, 0.0])),
                // Stored conjugated.
                stories::frame([0.0, 0.0, -1.0, 0.0], 1.0, Some([1.0, 2.0, 4.0])),
                stories::frame([0.0, 0.0, -1.0, 0.0], 1.0, Some([1.0, 2.0, 4.0])),
            ],
            garbage_offset: 0,
        }],
    }];
    for layout in [Layout::DepthFirst, Layout::Backward] {
        let data = stories::write(&anims, layout, false, 0);
        let p = poses(&data, "dance", 0.25, false);
        close(p[0].1, about_z(45.0));
        assert_eq!(p[0].2, Some([0.25, 0.5, 1.0]));
        // The key's low 16 bits are the id (flag 0x10): Root, named by the skeleton table.
        let sampler = Sampler::<4>::new(&data, b"dance").unwrap();
        sampler
            .sample(3.0, true, |pose| {
                assert_eq!(pose.bone_id, Some(0));
                close(pose.rotation, Z180);
            })
            .unwrap();
    }
}

/// A file cut short fails as the decoder fails it, wherever the cut (a cut inside the wanted
/// animation's keys left them in the decoder's carry, reported as a malformed field at 0).
#[test]
fn a_cut_file_fails_as_the_decoder_fails_it() {
    let bone = |name: &str| BoneSpec::new(name, 3, 0, vec![p3([0, 0, 0, 4096], 0); 3]);
    let file = FileSpec::anp3(
        "cut",
        vec![
            AnimSpec::new("a", vec![bone("a0")]),
            AnimSpec::new("b", vec![bone("b0"), bone("b1")]),
        ],
    )
    .build();
    let mut failed = 0;
    for cut in 1..file.len() {
        let data = &file[..cut];
        let Err(decoder) = gtastream::Decoder::new().decode_slice(data, &mut Ignore) else {
            continue;
        };
        match Sampler::<8>::new(data, b"b") {
            Err(error) => {
                assert_eq!(error, decoder, "cut at {cut}");
                failed += 1;
            }
            // Found before the cut only if the cut lies after the animation.
            Ok(_) => panic!("cut at {cut}: sampled a cut animation"),
        }
    }
    assert!(failed > 100, "{failed}");
}

struct Ignore;
impl gtastream::Visitor for Ignore {}

/// An `ANLF` of two blocks of two animations each (every bone 2 keys, 90° apart over 1 s).
fn two_block_anlf() -> Vec<u8> {
    let clip = |name: &str, bones: usize| {
        let keys = vec![
            kf(0.0, ID, [0.0; 3], [0.0; 3]),
            kf(1.0, Z90, [0.0; 3], [0.0; 3]),
        ];
        let bones = (0..bones)
            .map(|b| {
                bone(
                    &format!("b{b}"),
                    Some(b as i32),
                    FrameType::Kr00,
                    keys.clone(),
                )
            })
            .collect();
        anim(name, bones)
    };
    let block = |name: &str, clips| testkit::anpk::bytes(&package(name, clips));
    testkit::anpk::anlf(&[
        block("first", vec![clip("a0", 1), clip("a1", 2)]),
        block("second", vec![clip("a2", 3), clip("a3", 4)]),
    ])
}

/// An animation's index is its position in the whole file: an `ANLF`'s second block goes on
/// counting (issue 31: it restarted at 0, and the second block could not be reached by index).
#[test]
fn anlf_indexes_count_across_blocks() {
    let data = two_block_anlf();
    for (index, name, bones) in [(0, "a0", 1), (1, "a1", 2), (2, "a2", 3), (3, "a3", 4)] {
        let sampler = Sampler::<8>::by_index(&data, index).unwrap();
        assert_eq!((sampler.name(), sampler.index()), (name.as_bytes(), index));
        assert_eq!(sampler.bone_count(), bones);
        let by_name = Sampler::<8>::new(&data, name.as_bytes()).unwrap();
        assert_eq!(by_name.index(), index, "{name}");
    }
    assert_eq!(
        Sampler::<8>::by_index(&data, 4).unwrap_err().kind,
        ErrorKind::NotFound
    );
    // The events and the summaries carry the same indexes.
    #[derive(Default)]
    struct Indexes(Vec<u32>, Vec<(u32, u32)>);
    impl gtastream::Visitor for Indexes {
        fn animation(&mut self, info: &gtastream::AnimationInfo<'_>) -> gtastream::Flow {
            self.0.push(info.index);
            gtastream::Flow::Continue
        }
        fn animation_summary(&mut self, s: &gtastream::AnimationSummary) -> gtastream::Flow {
            self.1.push((s.index, s.bones));
            gtastream::Flow::Continue
        }
    }
    let mut seen = gtastream::Summarize::new(Indexes::default());
    gtastream::Decoder::new()
        .decode_slice(&data, &mut seen)
        .unwrap();
    assert_eq!(seen.inner.0, [0, 1, 2, 3]);
    assert_eq!(seen.inner.1, [(0, 1), (1, 2), (2, 3), (3, 4)]);
    // The whole-file package numbers them the same way.
    let package = Package::parse(&data).unwrap();
    let indexes: Vec<u32> = package.summaries().map(|s| s.index).collect();
    assert_eq!(indexes, [0, 1, 2, 3]);
}

/// The time domain (docs/ANIMATION.md): finite times from 0; a negative or non-finite time is
/// `BadTime`, never a NaN pose or an extrapolated rotation.
#[test]
fn times_outside_the_domain_are_errors() {
    let data = float_file();
    let sampler = Sampler::<16>::new(&data, b"walk").unwrap();
    let package = Package::parse(&data).unwrap();
    let animation = package.animation("walk").unwrap();
    for time in [
        -1.0,
        -f32::MIN_POSITIVE,
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
    ] {
        for looped in [false, true] {
            let error = sampler.sample(time, looped, |_| {}).unwrap_err();
            assert_eq!(
                (error.kind, error.offset),
                (ErrorKind::BadTime, 0),
                "{time}"
            );
            let error = sampler.bone_pose(0, time, looped).unwrap().unwrap_err();
            assert_eq!(error.kind, ErrorKind::BadTime);
            let error = animation.sample(time, looped, |_| {}).unwrap_err();
            assert_eq!(error.kind, ErrorKind::BadTime);
        }
    }
    // -0.0 is 0.
    let zero = poses(&data, "walk", 0.0, false);
    let minus_zero = poses(&data, "walk", -0.0, false);
    assert_eq!(zero, minus_zero);
}

fn unit(q: [f32; 4]) -> bool {
    let sq: f32 = q.iter().map(|c| c * c).sum();
    (sq - 1.0).abs() < 1e-6
}

/// `--loop` takes any finite time: far past the length it wraps by the exact remainder, in
/// bounded work (issue 31: 1e9 failed with `Limit`); close to it, as the games subtract laps.
#[test]
fn looping_takes_any_finite_time() {
    let data = float_file();
    // The length is 2 s: 1e9 s is 500 million laps, exactly 0 s on.
    let far = poses(&data, "walk", 1e9, true);
    let start = poses(&data, "walk", 0.0, true);
    assert_eq!(far, start);
    // 2049.5 s (over GAME_LAPS laps): the remainder, 1.5 s.
    let past = poses(&data, "walk", 2049.5, true);
    let at = poses(&data, "walk", 1.5, true);
    assert_eq!(past, at);
    // The largest finite time too; every rotation unit.
    for time in [f32::MAX, 3.0e38, 1.0e20, 12345.678] {
        for pose in poses(&data, "walk", time, true) {
            assert!(unit(pose.1), "{time}: {:?}", pose.1);
        }
    }
}

/// Every rotation the sampler gives is a unit quaternion, even between packed keys (not unit
/// as stored) or where a time runs backwards (f outside [0, 1]): the games normalise before
/// use.
#[test]
fn rotations_are_unit_quaternions() {
    let data = FileSpec::anp3(
        "u",
        vec![AnimSpec::new(
            "odd",
            vec![
                // Packed, not unit as stored (|q| = 1.1 and 0.9), 90° apart.
                BoneSpec::new(
                    "Root",
                    3,
                    0,
                    vec![p3([0, 0, 0, 4506], 0), p3([0, 0, 2606, 2606], 60)],
                ),
                // Time backwards in the middle: the games extrapolate between its keys.
                BoneSpec::new(
                    "Head",
                    1,
                    5,
                    vec![f1(ID, 0.0), f1(Z90, 1.0), f1(Z180, 0.5), f1(ID, 2.0)],
                ),
                // A zero quaternion.
                BoneSpec::new("Spine", 1, 3, vec![f1([0.0; 4], 0.0), f1([0.0; 4], 1.0)]),
            ],
        )],
    )
    .build();
    for step in 0..=40 {
        let time = step as f32 * 0.05;
        for looped in [false, true] {
            let p = poses(&data, "odd", time, looped);
            for (name, rotation, _) in &p {
                assert!(unit(*rotation), "{name:?} at {time}: {rotation:?}");
            }
            // No direction: the identity.
            assert_eq!(p[2].1, ID);
        }
    }
}
