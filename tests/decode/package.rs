//! `Package` (whole-file decoding), its lookups, and the `encode::ifp2` writer (feature `alloc`).
#![cfg(feature = "alloc")]

use gtastream::encode::{self, EncodeError};
use gtastream::{
    Animation, Bone, ErrorKind, Format, FrameType, Keyframe, Package, Warning, WarningKind,
};
use testkit::anpk_stories::package_from_log;
use testkit::ifp2::*;

fn parse(file: &[u8]) -> Package {
    Package::parse(file).unwrap_or_else(|e| panic!("parse failed: {e}"))
}

#[test]
fn parse_matches_the_reference_decoder() {
    for (name, spec) in valid_specs().into_iter().chain(sloppy_specs()) {
        let file = spec.build();
        assert_eq!(
            parse(&file),
            package_from_log(&reference(&file).log()),
            "{name}"
        );
    }
}

#[test]
fn parse_fields_by_hand() {
    let p = parse(&anp3_multi().build());
    assert_eq!(p.format, Format::Anp3);
    assert_eq!(p.name.as_deref(), Some("multi"));
    assert!(p.warnings.is_empty());
    let names: Vec<&str> = p.animations.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["first", "empty", "caf\u{e9} \u{ff}", "last"]);
    let first = &p.animations[0];
    assert_eq!((first.frame_data_size, first.flags), (Some(16), Some(1)));
    assert_eq!(first.bones.len(), 1);
    let root = &first.bones[0];
    assert_eq!(root.name.as_deref(), Some("a"));
    assert_eq!(root.bone_id, Some(1));
    assert_eq!(root.frame_type, FrameType::Ifp2PackedRotTrans);
    assert_eq!(
        root.frames,
        [Keyframe {
            time: 0.0,
            rotation: [0.0, 0.0, 0.0, 1.0],
            translation: [0.0; 3],
            scale: [0.0; 3]
        }]
    );
    let empty = &p.animations[1];
    assert_eq!((empty.frame_data_size, empty.flags), (Some(0), Some(0)));
    assert!(empty.bones.is_empty());
    assert_eq!(
        p.animations[2].bones[0].name.as_deref(),
        Some("ABCDEFGHIJKLMNOPQRSTUVWX")
    );
    // "last": bone "y" has two frames of q (0, 0, 1, 0) at 3 ticks = 0.05 s.
    let y = &p.animations[3].bones[1];
    assert_eq!(y.frames.len(), 2);
    assert_eq!(y.frames[1].rotation, [0.0, 0.0, 1.0, 0.0]);
    assert_eq!(y.frames[1].time, 3.0 / 60.0);

    let p = parse(&anp2_all_types().build());
    assert_eq!(p.format, Format::Anp2);
    assert_eq!(p.animations[0].frame_data_size, None);
    assert_eq!(p.animations[0].flags, None);
    assert_eq!(p.animations[0].bones[1].bone_id, Some(-1));
    assert_eq!(
        p.animations[1].bones[1].frames[0].translation,
        [-1.0, 0.0, 2.0]
    );
}

#[test]
fn animation_lookup_is_ascii_case_insensitive() {
    let p = parse(&anp3_multi().build());
    for query in ["first", "FIRST", "First", "fIrSt"] {
        assert_eq!(p.animation(query).map(|a| a.name.as_str()), Some("first"));
    }
    assert_eq!(p.animation("LAST").unwrap().bones.len(), 2);
    assert!(p.animation("firs").is_none());
    assert!(p.animation("").is_none());
    // ASCII whitespace around the name is ignored; other characters are not.
    assert_eq!(p.animation(" first\t").unwrap().name, "first");
    assert!(p.animation("\u{a0}first").is_none());
    assert!(p.animation("fi rst").is_none());
    // Bytes above 0x7F are compared as they are.
    assert!(p.animation("CAF\u{e9} \u{ff}").is_some());
    assert!(p.animation("CAF\u{c9} \u{ff}").is_none());
}

#[test]
fn bone_lookups() {
    let p = parse(&anp3_packed().build());
    let walk = p.animation("WALK_CIVI").unwrap();
    assert_eq!(walk.bone("l thigh").unwrap().frames.len(), 2);
    assert_eq!(walk.bone("ROOT").unwrap().bone_id, Some(0));
    assert!(walk.bone("thigh").is_none());
    assert_eq!(walk.bone_by_id(0).unwrap().name.as_deref(), Some("Root"));
    assert_eq!(
        walk.bone_by_id(-1).unwrap().name.as_deref(),
        Some("L Thigh")
    );
    assert!(walk.bone_by_id(1).is_none());
}

/// Shaped like a stock San Andreas `ped.ifp`: the root bone is `Normal`, the others start with a
/// space, bone ids are the SA skeleton's, and one bone has id -1 (match by name).
fn ped_shaped() -> FileSpec {
    let rotation = |name: &str, id: i32| {
        BoneSpec::new(
            name,
            3,
            id,
            vec![p3([0, 0, 0, ONE], 0), p3([0, 0, 1, ONE], 30)],
        )
    };
    let walk = |name: &str| {
        AnimSpec::new(
            name,
            vec![
                BoneSpec::new("Normal", 4, 0, vec![p4([0, 0, 0, ONE], 0, [0, 0, 1024])]),
                rotation(" Pelvis", 1),
                rotation(" Spine", 2),
                rotation(" L Thigh", 41),
                rotation(" R Thigh", 51),
                rotation(" L Finger", -1),
            ],
        )
    };
    FileSpec::anp3("ped", vec![walk("WALK_player"), walk("walk_civi")])
}

#[test]
fn lookups_find_the_names_of_a_real_ped_file() {
    let p = parse(&ped_shaped().build());
    let walk = p.animation("WALK_CIVI").unwrap();
    assert_eq!(walk.name, "walk_civi");
    assert_eq!(p.animation(" walk_player ").unwrap().name, "WALK_player");
    for (query, id) in [
        ("Normal", 0),
        ("normal", 0),
        ("Pelvis", 1),
        (" PELVIS", 1),
        ("spine", 2),
        ("l thigh", 41),
        ("R Thigh\n", 51),
        ("L Finger", -1),
    ] {
        assert_eq!(
            walk.bone(query).and_then(|b| b.bone_id),
            Some(id),
            "{query:?}"
        );
    }
    // The stored names are kept as they are; only the lookup ignores the space.
    assert_eq!(walk.bone_by_id(1).unwrap().name.as_deref(), Some(" Pelvis"));
    assert_eq!(
        walk.bone_by_id(-1).unwrap().name.as_deref(),
        Some(" L Finger")
    );
    assert!(walk.bone("Root").is_none());
    assert!(walk.bone("Thigh").is_none());
    assert!(walk.bone("LThigh").is_none());
    assert_eq!(walk.bone_by_id(0).unwrap().frames.len(), 1);
}

#[test]
fn warnings_are_collected_in_file_order() {
    let p = parse(&all_oddities().build());
    let w = |kind, offset| Warning { kind, offset };
    assert_eq!(
        p.warnings,
        [
            w(WarningKind::TimeBackwards, 124),
            w(WarningKind::FrameDataSizeMismatch, 64),
            w(WarningKind::CompressedFlagClear, 68),
            w(WarningKind::TimeBackwards, 268),
            w(WarningKind::SizeMismatch, 4),
            w(WarningKind::TrailingData, 282),
        ]
    );
    // The trailing bytes are not an animation.
    assert_eq!(p.animations.len(), 2);
}

#[test]
fn parse_errors() {
    for (name, file) in error_fixtures() {
        let expected = match reference(&file).log().pop() {
            Some(Ev::Error(kind, offset)) => gtastream::Error { kind, offset },
            other => panic!("{name}: {other:?}"),
        };
        assert_eq!(Package::parse(&file), Err(expected), "{name}");
    }
    let file = anp3_packed().build();
    let e = Package::parse(&file[..150]).unwrap_err();
    assert_eq!((e.kind, e.offset), (ErrorKind::Truncated, 140));
    let e = Package::parse(&[]).unwrap_err();
    assert_eq!((e.kind, e.offset), (ErrorKind::Empty, 0));
}

#[test]
fn huge_declared_counts_do_not_reserve_memory() {
    // 429 million frames are declared but the file ends: parse must fail cleanly (a
    // reservation sized by the count would abort the process).
    let file = FileSpec::anp3(
        "f",
        vec![AnimSpec::new(
            "a",
            vec![BoneSpec::new("b", 3, 0, vec![p3([0; 4], 0)]).count(429_496_718)],
        )],
    )
    .build();
    let e = Package::parse(&file).unwrap_err();
    assert_eq!((e.kind, e.offset), (ErrorKind::Truncated, 118));
}

// ---- Encoding --------------------------------------------------------------------------------

/// The valid fixtures whose names the writer can hold (23 bytes and the NUL: see
/// `encode_refuses_what_the_format_cannot_hold` for 24-byte names).
fn encodable_specs() -> Vec<(&'static str, FileSpec)> {
    let fits = |spec: &FileSpec| {
        spec.name.len() < 24
            && spec
                .animations
                .iter()
                .all(|a| a.name.len() < 24 && a.bones.iter().all(|b| b.name.len() < 24))
    };
    let specs: Vec<_> = valid_specs().into_iter().filter(|(_, s)| fits(s)).collect();
    assert_eq!(
        specs.len(),
        valid_specs().len() - 1,
        "only anp3_multi is left out"
    );
    specs
}

#[test]
fn encode_then_parse_gives_the_same_package() {
    for (name, spec) in encodable_specs() {
        let p = parse(&spec.build());
        let bytes = encode::ifp2(&p).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(parse(&bytes), p, "{name}");
    }
}

#[test]
fn encode_reproduces_clean_files_byte_for_byte() {
    // With zeros after the names (what the writer puts there), a clean file comes back as is.
    for (name, spec) in encodable_specs() {
        let file = spec.fill(0).build();
        let bytes = encode::ifp2(&parse(&file)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(bytes, file, "{name}");
    }
}

#[test]
fn encode_writes_the_redundant_fields_correctly() {
    // Normalised, sloppy files come back without their size/frameDataSize/flags/trailing
    // warnings; the time and duplicate-name warnings stay, because the frames and names are
    // kept as they are (and the bones stay where they were).
    for (name, spec) in sloppy_specs() {
        let p = parse(&spec.build());
        let mut clean = p.clone();
        clean.normalise();
        let again = parse(&encode::ifp2(&clean).unwrap());
        let kept: Vec<Warning> = p
            .warnings
            .iter()
            .copied()
            .filter(|w| {
                matches!(
                    w.kind,
                    WarningKind::TimeBackwards | WarningKind::DuplicateBone
                )
            })
            .collect();
        assert_eq!(again.warnings, kept, "{name}");
        assert_eq!(again.animations.len(), p.animations.len(), "{name}");
        for (a, b) in again.animations.iter().zip(&p.animations) {
            assert_eq!((&a.name, &a.bones), (&b.name, &b.bones), "{name}");
        }
    }
}

fn kf(time: f32, rotation: [f32; 4], translation: [f32; 3]) -> Keyframe {
    Keyframe {
        time,
        rotation,
        translation,
        scale: [0.0; 3],
    }
}

/// A package in decoded form with all four frame types: packed values are multiples of the
/// divisors, so they survive quantisation.
fn all_types_package(format: Format) -> Package {
    let anp3 = format == Format::Anp3;
    let bone = |name: &str, id, frame_type, frames| Bone {
        name: Some(name.to_string()),
        bone_id: Some(id),
        bone_key: None,
        frame_type,
        frames,
        raw: Vec::new(),
    };
    Package {
        format,
        name: Some("round trip".into()),
        animations: vec![
            Animation {
                name: "Floats".into(),
                frame_data_size: anp3.then_some(2 * 20 + 32),
                flags: anp3.then_some(0),
                duration: None,
                bones: vec![
                    bone(
                        "r",
                        1,
                        FrameType::Ifp2Rot,
                        vec![
                            kf(0.0, [0.1, 0.2, 0.3, 0.4], [0.0; 3]),
                            kf(0.3, [-0.5, 1e-7, -0.0, 1.0], [0.0; 3]),
                        ],
                    ),
                    bone(
                        "rt",
                        -1,
                        FrameType::Ifp2RotTrans,
                        vec![kf(1.0 / 3.0, [0.0, 0.0, 0.0, 1.0], [12.5, -0.001, 1e5])],
                    ),
                ],
                raw: Vec::new(),
            },
            Animation {
                name: "Packed".into(),
                frame_data_size: anp3.then_some(10 + 2 * 16),
                flags: anp3.then_some(1),
                duration: None,
                bones: vec![
                    bone(
                        "p",
                        2,
                        FrameType::Ifp2PackedRot,
                        vec![kf(7.0 / 60.0, [-1.0, 0.5, 3.0 / 4096.0, -8.0], [0.0; 3])],
                    ),
                    bone(
                        "pt",
                        3,
                        FrameType::Ifp2PackedRotTrans,
                        vec![
                            kf(
                                -1.0 / 60.0,
                                [0.0, 0.0, 0.0, 1.0],
                                [-32.0, 31.999_023, 1.0 / 1024.0],
                            ),
                            kf(546.0, [0.25; 4], [0.0, -0.5, 2.0]),
                        ],
                    ),
                ],
                raw: Vec::new(),
            },
            Animation {
                name: "caf\u{e9}".into(),
                frame_data_size: anp3.then_some(0),
                flags: anp3.then_some(0),
                duration: None,
                bones: vec![],
                raw: Vec::new(),
            },
        ],
        warnings: vec![],
        raw: Vec::new(),
        trailing: Vec::new(),
    }
}

#[test]
fn round_trip_of_every_frame_type_in_anp3_and_anp2() {
    for format in [Format::Anp3, Format::Anp2] {
        let p = all_types_package(format);
        let bytes = encode::ifp2(&p).unwrap();
        assert_eq!(&bytes[..4], format.name().as_bytes());
        assert_eq!(parse(&bytes), p, "{format:?}");
        assert_eq!(log_whole(&bytes), reference(&bytes).log());
    }
}

/// A tiny package and its bytes, written out by hand.
fn tiny() -> Package {
    Package {
        format: Format::Anp3,
        name: Some("pk".into()),
        animations: vec![Animation {
            name: "Run".into(),
            // Ignored by the writer, which computes both.
            frame_data_size: Some(999),
            flags: None,
            duration: None,
            bones: vec![
                Bone {
                    name: Some("Root".into()),
                    bone_id: Some(0),
                    bone_key: None,
                    frame_type: FrameType::Ifp2PackedRotTrans,
                    frames: vec![kf(0.5, [0.0, 0.0, -0.5, 1.0], [1.5, -0.25, 0.0])],
                    raw: Vec::new(),
                },
                Bone {
                    name: None,
                    bone_id: None,
                    bone_key: None,
                    frame_type: FrameType::Ifp2Rot,
                    frames: vec![kf(0.75, [0.5, -0.25, 0.125, 1.0], [0.0; 3])],
                    raw: Vec::new(),
                },
            ],
            raw: Vec::new(),
        }],
        warnings: vec![],
        raw: Vec::new(),
        trailing: Vec::new(),
    }
}

fn zeros(n: usize) -> Vec<u8> {
    vec![0; n]
}

#[test]
fn encode_writes_exactly_these_bytes() {
    let packed_frame: [u8; 16] = [
        0x00, 0x00, 0x00, 0x00, 0x00, 0xF8, 0x00, 0x10, // q 0, 0, −2048, 4096
        0x1E, 0x00, // time 30
        0x00, 0x06, 0x00, 0xFF, 0x00, 0x00, // t 1536, −256, 0
    ];
    let float_frame: [u8; 20] = [
        0x00, 0x00, 0x00, 0x3F, // 0.5
        0x00, 0x00, 0x80, 0xBE, // −0.25
        0x00, 0x00, 0x00, 0x3E, // 0.125
        0x00, 0x00, 0x80, 0x3F, // 1.0
        0x00, 0x00, 0x40, 0x3F, // 0.75
    ];
    let bones = [
        &b"Root"[..],
        &zeros(20),
        &[4, 0, 0, 0],
        &[1, 0, 0, 0],
        &[0, 0, 0, 0],
        &packed_frame,
        &zeros(24), // no name
        &[1, 0, 0, 0],
        &[1, 0, 0, 0],
        &[0xFF, 0xFF, 0xFF, 0xFF], // no id: −1
        &float_frame,
    ]
    .concat();

    // 36 header | 36 animation | 36 + 16 | 36 + 20 | 180 end.
    let anp3 = [
        &b"ANP3"[..],
        &[0xAC, 0, 0, 0], // 172
        b"pk",
        &zeros(22),
        &[1, 0, 0, 0],
        b"Run",
        &zeros(21),
        &[2, 0, 0, 0],
        &[0x24, 0, 0, 0], // 36 = 16 + 20
        &[1, 0, 0, 0],    // a packed bone: compressed
        &bones,
    ]
    .concat();
    assert_eq!(anp3.len(), 180);
    assert_eq!(encode::ifp2(&tiny()).unwrap(), anp3);

    // ANP2: no frameDataSize, no flags; 172 bytes.
    let anp2 = [
        &b"ANP2"[..],
        &[0xA4, 0, 0, 0], // 164
        b"pk",
        &zeros(22),
        &[1, 0, 0, 0],
        b"Run",
        &zeros(21),
        &[2, 0, 0, 0],
        &bones,
    ]
    .concat();
    let mut p = tiny();
    p.format = Format::Anp2;
    assert_eq!(encode::ifp2(&p).unwrap(), anp2);
}

#[test]
fn encode_rounds_packed_values_to_nearest() {
    let mut p = tiny();
    let frame = &mut p.animations[0].bones[0].frames[0];
    // × 4096: 1.4 → 1, 1.6 → 2, −1.6 → −2; time × 60: 0.4 → 0; translation × 1024: 2.6 → 3.
    frame.rotation = [1.4 / 4096.0, 1.6 / 4096.0, -1.6 / 4096.0, 1.0];
    frame.time = 0.4 / 60.0;
    frame.translation = [2.6 / 1024.0, 0.0, 0.0];
    let bytes = encode::ifp2(&p).unwrap();
    let f = &bytes[36 + 36 + 36..][..16];
    assert_eq!(&f[..8], &[1, 0, 2, 0, 0xFE, 0xFF, 0x00, 0x10]);
    assert_eq!(&f[8..12], &[0, 0, 3, 0]);
}

#[test]
fn encode_refuses_what_the_format_cannot_hold() {
    let mut p = tiny();
    p.animations[0].name = "x".repeat(25);
    assert!(
        matches!(encode::ifp2(&p), Err(EncodeError::NameTooLong(n)) if n.len == 25 && n.max == 23)
    );
    p.name = Some("\u{100}".into());
    assert_eq!(encode::ifp2(&p), Err(EncodeError::BadName));
    // Every written name keeps its NUL (docs/FORMATS.md §9.4): 23 bytes fit a `char[24]`, 24
    // do not, although a decoder reads a full field.
    let mut p = tiny();
    p.animations[0].name = "x".repeat(23);
    p.animations[0].bones[0].name = Some("ABCDEFGHIJKLMNOPQRSTUVW".into());
    let bytes = encode::ifp2(&p).unwrap();
    assert_eq!(&bytes[36..60], format!("{}\0", "x".repeat(23)).as_bytes());
    let back = Package::parse(&bytes).unwrap();
    assert_eq!(back.animations[0].name, "x".repeat(23));
    assert_eq!(
        back.animations[0].bones[0].name.as_deref(),
        Some("ABCDEFGHIJKLMNOPQRSTUVW")
    );
    p.animations[0].bones[0].name = Some("ABCDEFGHIJKLMNOPQRSTUVWX".into());
    assert!(
        matches!(encode::ifp2(&p), Err(EncodeError::NameTooLong(n)) if n.name() == b"ABCDEFGHIJKLMNOPQRSTUVWX")
    );

    for (rotation, time, translation) in [
        (8.0, 0.0, 0.0),           // 32768
        (-8.001, 0.0, 0.0),        // below −32768
        (0.0, 546.2, 0.0),         // 32772 ticks
        (0.0, 0.0, 32.0),          // 32768
        (f32::NAN, 0.0, 0.0),      // not a number
        (0.0, f32::INFINITY, 0.0), // not a number
    ] {
        let mut p = tiny();
        let frame = &mut p.animations[0].bones[0].frames[0];
        frame.rotation[0] = rotation;
        frame.time = time;
        frame.translation[0] = translation;
        assert_eq!(
            encode::ifp2(&p),
            Err(EncodeError::OutOfRange),
            "{rotation} {time} {translation}"
        );
    }
    // The extremes that do fit.
    let mut p = tiny();
    let frame = &mut p.animations[0].bones[0].frames[0];
    frame.rotation[0] = -8.0;
    frame.translation[0] = -32.0;
    frame.translation[1] = 32767.0 / 1024.0;
    assert!(encode::ifp2(&p).is_ok());
}
