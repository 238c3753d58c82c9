//! Byte-level cases: files written out byte by byte, with every expected value worked out by
//! hand from docs/FORMATS.md §2 (never taken from the decoder's own output).

use gtastream::{Decoder, Flow, Format, FrameType, Keyframe, Keyframes, RawFrame, Status, Visitor};
use testkit::ifp2::{log_whole, Bits, Ev, Writer};

fn cat(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

fn frame(
    frame_type: FrameType,
    bytes: &[u8],
    time: f32,
    rotation: [f32; 4],
    translation: [f32; 3],
    raw: Option<RawFrame>,
) -> Ev {
    Ev::Frame {
        frame_type,
        bytes: bytes.to_vec(),
        frame: Bits(Keyframe {
            time,
            rotation,
            translation,
            scale: [0.0; 3],
        }),
        raw,
        exact: None,
    }
}

// ---- A tiny ANP3 file with packed frames ------------------------------------------------

const PKG_NAME: &[u8; 24] = b"ped\0junk after nul!!\xff\xff\xff\xff";
const ANIM_NAME: &[u8; 24] = b"walk_civi\0\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e";
const BONE0_NAME: &[u8; 24] = b"Pelvis\0XXXXXXXXXXXXXXXXX";
const BONE1_NAME: &[u8; 24] =
    b"L Thigh\0\xaa\xaa\xaa\xaa\xaa\xaa\xaa\xaa\xaa\xaa\xaa\xaa\xaa\xaa\xaa\xaa";

/// Type 4, frame 0: q (0, −2048, 1024, 4096), time 0, t (1536, −512, 1024).
const T4_F0: [u8; 16] = [
    0x00, 0x00, 0x00, 0xF8, 0x00, 0x04, 0x00, 0x10, // q
    0x00, 0x00, // time
    0x00, 0x06, 0x00, 0xFE, 0x00, 0x04, // translation
];
/// Type 4, frame 1: q (−4096, 0, 0, 0), time 30, t (−32768, 32767, 1).
const T4_F1: [u8; 16] = [
    0x00, 0xF0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, // q
    0x1E, 0x00, // time
    0x00, 0x80, 0xFF, 0x7F, 0x01, 0x00, // translation
];
/// Type 3: q (2048, −1024, 1, −1), time 90.
const T3_F0: [u8; 10] = [
    0x00, 0x08, 0x00, 0xFC, 0x01, 0x00, 0xFF, 0xFF, // q
    0x5A, 0x00, // time
];

/// 0 magic, 4 size, 8 name, 32 count | 36 animation | 72 bone 0 | 108 frames (2 × 16)
/// | 140 bone 1 | 176 frame (10) | 186 end.
fn tiny_anp3() -> Vec<u8> {
    let file = cat(&[
        b"ANP3",
        &[0xB2, 0, 0, 0], // size 178 = 186 − 8
        PKG_NAME,
        &[1, 0, 0, 0], // one animation
        ANIM_NAME,
        &[2, 0, 0, 0],    // two bones
        &[0x2A, 0, 0, 0], // frameDataSize 42 = 2 × 16 + 10
        &[1, 0, 0, 0],    // flags: compressed
        BONE0_NAME,
        &[4, 0, 0, 0], // type 4
        &[2, 0, 0, 0], // two frames
        &[1, 0, 0, 0], // bone id 1
        &T4_F0,
        &T4_F1,
        BONE1_NAME,
        &[3, 0, 0, 0],             // type 3
        &[1, 0, 0, 0],             // one frame
        &[0xFF, 0xFF, 0xFF, 0xFF], // bone id −1
        &T3_F0,
    ]);
    assert_eq!(file.len(), 186);
    file
}

#[test]
fn anp3_every_header_field_and_packed_frame() {
    let t4 = FrameType::Ifp2PackedRotTrans;
    let t3 = FrameType::Ifp2PackedRot;
    let expected = vec![
        Ev::File {
            format: Format::Anp3,
            name: Some(b"ped".to_vec()),
            animation_count: 1,
            instance_count: None,
            car_count: None,
        },
        Ev::Animation {
            index: 0,
            name: b"walk_civi".to_vec(),
            bone_count: 2,
            frame_data_size: Some(42),
            flags: Some(1),
            duration: None,
        },
        Ev::Bone {
            index: 0,
            name: Some(b"Pelvis".to_vec()),
            bone_id: Some(1),
            bone_key: None,
            frame_type: t4,
            frame_count: 2,
        },
        frame(
            t4,
            &T4_F0,
            0.0,
            [0.0, -0.5, 0.25, 1.0],
            [1.5, -0.5, 1.0],
            Some(RawFrame {
                rotation: [0, -2048, 1024, 4096],
                time: 0,
                translation: [1536, -512, 1024],
            }),
        ),
        frame(
            t4,
            &T4_F1,
            0.5,
            [-1.0, 0.0, 0.0, 0.0],
            // 32767 / 1024 and 1 / 1024 are exact in f32.
            [-32.0, 32767.0 / 1024.0, 1.0 / 1024.0],
            Some(RawFrame {
                rotation: [-4096, 0, 0, 0],
                time: 30,
                translation: [-32768, 32767, 1],
            }),
        ),
        Ev::BoneEnd,
        Ev::Bone {
            index: 1,
            name: Some(b"L Thigh".to_vec()),
            bone_id: Some(-1),
            bone_key: None,
            frame_type: t3,
            frame_count: 1,
        },
        frame(
            t3,
            &T3_F0,
            1.5,
            [0.5, -0.25, 1.0 / 4096.0, -1.0 / 4096.0],
            [0.0; 3],
            Some(RawFrame {
                rotation: [2048, -1024, 1, -1],
                time: 90,
                translation: [0; 3],
            }),
        ),
        Ev::BoneEnd,
        Ev::AnimationEnd,
        Ev::End,
    ];
    assert_eq!(log_whole(&tiny_anp3()), expected);
}

/// Keeps every batch's bytes and where they live.
#[derive(Default)]
struct Batches {
    batches: Vec<(FrameType, usize, *const u8, Vec<u8>)>,
}

impl Visitor for Batches {
    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        let bytes = frames.as_bytes();
        self.batches.push((
            frames.frame_type(),
            frames.len(),
            bytes.as_ptr(),
            bytes.to_vec(),
        ));
        Flow::Continue
    }
}

#[test]
fn whole_input_batches_are_the_stored_bytes_in_place() {
    let file = tiny_anp3();
    let mut v = Batches::default();
    let mut d = Decoder::new();
    d.feed(&file, &mut v).unwrap();
    d.finish(&mut v).unwrap();
    assert_eq!(v.batches.len(), 2);
    let (t, n, ptr, bytes) = &v.batches[0];
    assert_eq!((*t, *n), (FrameType::Ifp2PackedRotTrans, 2));
    assert_eq!(bytes.as_slice(), &file[108..140]);
    assert_eq!(*ptr, file[108..].as_ptr(), "a whole batch is not copied");
    let (t, n, ptr, bytes) = &v.batches[1];
    assert_eq!((*t, *n), (FrameType::Ifp2PackedRot, 1));
    assert_eq!(bytes.as_slice(), &T3_F0);
    assert_eq!(*ptr, file[176..].as_ptr(), "a whole batch is not copied");
}

#[test]
fn raw_gives_stored_integers_for_packed_types_only() {
    struct Raw(Vec<Option<Vec<RawFrame>>>);
    impl Visitor for Raw {
        fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
            self.0.push(frames.raw().map(|r| r.collect()));
            Flow::Continue
        }
    }
    let mut v = Raw(Vec::new());
    let mut d = Decoder::new();
    d.feed(&tiny_anp3(), &mut v).unwrap();
    d.finish(&mut v).unwrap();
    assert_eq!(
        v.0,
        vec![
            Some(vec![
                RawFrame {
                    rotation: [0, -2048, 1024, 4096],
                    time: 0,
                    translation: [1536, -512, 1024],
                },
                RawFrame {
                    rotation: [-4096, 0, 0, 0],
                    time: 30,
                    translation: [-32768, 32767, 1],
                },
            ]),
            Some(vec![RawFrame {
                rotation: [2048, -1024, 1, -1],
                time: 90,
                translation: [0, 0, 0],
            }]),
        ]
    );

    let mut v = Raw(Vec::new());
    let mut d = Decoder::new();
    d.feed(&floats_anp3(), &mut v).unwrap();
    d.finish(&mut v).unwrap();
    assert_eq!(v.0, vec![None, None]);
}

#[test]
fn packed_translation_is_divided_by_1024_not_4096() {
    let mut file = tiny_anp3();
    // Frame 0 translation x := 4096 raw.
    file[118..120].copy_from_slice(&[0x00, 0x10]);
    let log = log_whole(&file);
    let k = log.iter().find_map(Ev::keyframe).unwrap();
    assert_eq!(k.translation[0], 4.0, "4096 / 1024");
    assert_eq!(k.rotation[3], 1.0, "4096 / 4096");
}

// ---- Float frames (types 1 and 2) ------------------------------------------------------

const F_0_5: [u8; 4] = [0x00, 0x00, 0x00, 0x3F];
const F_M0_25: [u8; 4] = [0x00, 0x00, 0x80, 0xBE];
const F_0_125: [u8; 4] = [0x00, 0x00, 0x00, 0x3E];
const F_1: [u8; 4] = [0x00, 0x00, 0x80, 0x3F];
const F_0_75: [u8; 4] = [0x00, 0x00, 0x40, 0x3F];
const F_2: [u8; 4] = [0x00, 0x00, 0x00, 0x40];
const F_1_5: [u8; 4] = [0x00, 0x00, 0xC0, 0x3F];
const F_M2: [u8; 4] = [0x00, 0x00, 0x00, 0xC0];
const F_100_25: [u8; 4] = [0x00, 0x80, 0xC8, 0x42];
const F_0: [u8; 4] = [0; 4];

#[test]
fn the_hand_written_ieee_bytes_are_right() {
    // Guards the fixture itself: each literal is the IEEE 754 single it claims to be.
    for (bytes, value) in [
        (F_0_5, 0.5f32),
        (F_M0_25, -0.25),
        (F_0_125, 0.125),
        (F_1, 1.0),
        (F_0_75, 0.75),
        (F_2, 2.0),
        (F_1_5, 1.5),
        (F_M2, -2.0),
        (F_100_25, 100.25),
        (F_0, 0.0),
    ] {
        assert_eq!(f32::from_le_bytes(bytes), value);
    }
}

/// 36 animation (flags 0: float frames are not compressed) | 72 bone "r" (type 1)
/// | 108 frame (20) | 128 bone "rt" (type 2) | 164 frame (32) | 196 end.
fn floats_anp3() -> Vec<u8> {
    let r_frame = cat(&[&F_0_5, &F_M0_25, &F_0_125, &F_1, &F_0_75]);
    let rt_frame = cat(&[&F_0, &F_0, &F_0, &F_1, &F_2, &F_1_5, &F_M2, &F_100_25]);
    let file = cat(&[
        b"ANP3",
        &[0xBC, 0, 0, 0], // 188 = 196 − 8
        b"floats\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0",
        &[1, 0, 0, 0],
        b"f\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0",
        &[2, 0, 0, 0],
        &[0x34, 0, 0, 0], // 52 = 20 + 32
        &[0, 0, 0, 0],    // flags 0
        b"r\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0",
        &[1, 0, 0, 0],
        &[1, 0, 0, 0],
        &[0x10, 0x27, 0, 0], // bone id 10000
        &r_frame,
        b"rt\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0",
        &[2, 0, 0, 0],
        &[1, 0, 0, 0],
        &[0xFE, 0xFF, 0xFF, 0xFF], // bone id −2
        &rt_frame,
    ]);
    assert_eq!(file.len(), 196);
    file
}

#[test]
fn float_frames_are_reported_as_stored() {
    let file = floats_anp3();
    let expected = vec![
        Ev::File {
            format: Format::Anp3,
            name: Some(b"floats".to_vec()),
            animation_count: 1,
            instance_count: None,
            car_count: None,
        },
        Ev::Animation {
            index: 0,
            name: b"f".to_vec(),
            bone_count: 2,
            frame_data_size: Some(52),
            flags: Some(0),
            duration: None,
        },
        Ev::Bone {
            index: 0,
            name: Some(b"r".to_vec()),
            bone_id: Some(10000),
            bone_key: None,
            frame_type: FrameType::Ifp2Rot,
            frame_count: 1,
        },
        frame(
            FrameType::Ifp2Rot,
            &file[108..128],
            0.75,
            [0.5, -0.25, 0.125, 1.0],
            [0.0; 3],
            None,
        ),
        Ev::BoneEnd,
        Ev::Bone {
            index: 1,
            name: Some(b"rt".to_vec()),
            bone_id: Some(-2),
            bone_key: None,
            frame_type: FrameType::Ifp2RotTrans,
            frame_count: 1,
        },
        // Time (2.0) comes before the translation in version 2.
        frame(
            FrameType::Ifp2RotTrans,
            &file[164..196],
            2.0,
            [0.0, 0.0, 0.0, 1.0],
            [1.5, -2.0, 100.25],
            None,
        ),
        Ev::BoneEnd,
        // flags bit 0 clear, but no packed bone: no warning.
        Ev::AnimationEnd,
        Ev::End,
    ];
    assert_eq!(log_whole(&file), expected);
}

// ---- ANP2: 28-byte animation headers ---------------------------------------------------

/// 36 animation (28 bytes) | 64 bone "Root" (type 2) | 100 frame (32) | 132 bone "Spine"
/// (type 4) | 168 frame (16) | 184 end.
fn tiny_anp2() -> Vec<u8> {
    let file = cat(&[
        b"ANP2",
        &[0xB0, 0, 0, 0], // 176 = 184 − 8
        b"anp2\0\x11\x22\x33\x44\x55\x66\x77\x88\x99\0\0\0\0\0\0\0\0\0\0",
        &[1, 0, 0, 0],
        b"idle\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0",
        &[2, 0, 0, 0], // two bones; no frameDataSize, no flags
        b"Root\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0",
        &[2, 0, 0, 0],
        &[1, 0, 0, 0],
        &[0, 0, 0, 0],
        &F_0_5,
        &F_M0_25,
        &F_0_125,
        &F_1,
        &F_0_75,
        &F_1_5,
        &F_M2,
        &F_100_25,
        b"Spine\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0",
        &[4, 0, 0, 0],
        &[1, 0, 0, 0],
        &[2, 0, 0, 0],
        // q (0, 0, 0, 4096), time 15, t (1024, −2048, 256)
        &[
            0, 0, 0, 0, 0, 0, 0x00, 0x10, 0x0F, 0x00, 0x00, 0x04, 0x00, 0xF8, 0x00, 0x01,
        ],
    ]);
    assert_eq!(file.len(), 184);
    file
}

#[test]
fn anp2_has_a_28_byte_animation_header() {
    let file = tiny_anp2();
    let expected = vec![
        Ev::File {
            format: Format::Anp2,
            name: Some(b"anp2".to_vec()),
            animation_count: 1,
            instance_count: None,
            car_count: None,
        },
        Ev::Animation {
            index: 0,
            name: b"idle".to_vec(),
            bone_count: 2,
            frame_data_size: None,
            flags: None,
            duration: None,
        },
        Ev::Bone {
            index: 0,
            name: Some(b"Root".to_vec()),
            bone_id: Some(0),
            bone_key: None,
            frame_type: FrameType::Ifp2RotTrans,
            frame_count: 1,
        },
        frame(
            FrameType::Ifp2RotTrans,
            &file[100..132],
            0.75,
            [0.5, -0.25, 0.125, 1.0],
            [1.5, -2.0, 100.25],
            None,
        ),
        Ev::BoneEnd,
        Ev::Bone {
            index: 1,
            name: Some(b"Spine".to_vec()),
            bone_id: Some(2),
            bone_key: None,
            frame_type: FrameType::Ifp2PackedRotTrans,
            frame_count: 1,
        },
        frame(
            FrameType::Ifp2PackedRotTrans,
            &file[168..184],
            0.25,
            [0.0, 0.0, 0.0, 1.0],
            [1.0, -2.0, 0.25],
            Some(RawFrame {
                rotation: [0, 0, 0, 4096],
                time: 15,
                translation: [1024, -2048, 256],
            }),
        ),
        Ev::BoneEnd,
        Ev::AnimationEnd,
        Ev::End,
    ];
    assert_eq!(log_whole(&file), expected);
}

/// A name field, checked to be exactly 24 bytes at compile time.
fn field(bytes: &[u8; 24]) -> &[u8] {
    bytes
}

// ---- Names -------------------------------------------------------------------------------

#[test]
fn names_end_at_the_first_nul_and_may_fill_the_field() {
    let mut w = Writer::new();
    w.bytes(b"ANP3").u32(0);
    // A name of 24 bytes and no NUL at all.
    w.bytes(field(b"ABCDEFGHIJKLMNOPQRSTUVWX")).u32(1);
    // An empty name (NUL first) with garbage behind it.
    w.bytes(field(b"\0not the name, garbage!!"))
        .u32(1)
        .u32(10)
        .u32(1);
    // High bytes are kept as they are; a second NUL later changes nothing.
    w.bytes(field(b"Bip01 \xe9\xff\0hidden\0more\0\0\0\0"))
        .u32(3)
        .u32(1)
        .i32(-1);
    w.i16(0).i16(0).i16(0).i16(4096).i16(0);
    let size = w.len() as u32 - 8;
    w.patch_u32(4, size);
    let log = log_whole(&w.out);
    assert_eq!(
        log[0],
        Ev::File {
            format: Format::Anp3,
            name: Some(b"ABCDEFGHIJKLMNOPQRSTUVWX".to_vec()),
            animation_count: 1,
            instance_count: None,
            car_count: None,
        }
    );
    match &log[1] {
        Ev::Animation { name, .. } => assert_eq!(name, b""),
        other => panic!("expected the animation, got {other:?}"),
    }
    match &log[2] {
        Ev::Bone { name, bone_id, .. } => {
            assert_eq!(name.as_deref(), Some(&b"Bip01 \xe9\xff"[..]));
            assert_eq!(*bone_id, Some(-1));
        }
        other => panic!("expected the bone, got {other:?}"),
    }
    assert_eq!(log.last(), Some(&Ev::End));
    assert!(
        testkit::ifp2::warnings(&log).is_empty(),
        "bone id −1 is not a warning"
    );
}

#[test]
fn bone_ids_are_signed_and_kept_as_stored() {
    for id in [-1, 0, 1, 2000, i32::MIN, i32::MAX] {
        let file = testkit::ifp2::FileSpec::anp3(
            "ids",
            vec![testkit::ifp2::AnimSpec::new(
                "a",
                vec![testkit::ifp2::BoneSpec::new("b", 3, id, vec![])],
            )],
        )
        .build();
        // The bone id sits at 36 (file header) + 36 (animation header) + 32.
        assert_eq!(&file[104..108], &id.to_le_bytes());
        let log = log_whole(&file);
        assert!(
            log.iter()
                .any(|e| matches!(e, Ev::Bone { bone_id, .. } if *bone_id == Some(id))),
            "id {id}"
        );
        assert!(testkit::ifp2::warnings(&log).is_empty());
    }
}

// ---- Feed answers --------------------------------------------------------------------------

#[test]
fn feed_reports_need_input_until_the_content_is_complete() {
    let file = tiny_anp3();
    let mut v = testkit::ifp2::Recorder::new(testkit::ifp2::Policy::Continue);
    let mut d = Decoder::new();
    assert_eq!(d.position(), 0);
    let p = d.feed(&[], &mut v).unwrap();
    assert_eq!((p.consumed, p.status), (0, Status::NeedInput));
    let p = d.feed(&file[..100], &mut v).unwrap();
    assert_eq!((p.consumed, p.status), (100, Status::NeedInput));
    assert_eq!(d.position(), 100);
    let p = d.feed(&file[100..185], &mut v).unwrap();
    assert_eq!((p.consumed, p.status), (85, Status::NeedInput));
    let p = d.feed(&file[185..], &mut v).unwrap();
    assert_eq!((p.consumed, p.status), (1, Status::Done));
    assert_eq!(d.position(), 186);
    let p = d.feed(&[], &mut v).unwrap();
    assert_eq!((p.consumed, p.status), (0, Status::Done));
    assert!(!v.events.contains(&Ev::End), "end comes from finish only");
    d.finish(&mut v).unwrap();
    assert_eq!(v.events.last(), Some(&Ev::End));
}

#[test]
fn public_frame_type_table_matches_the_spec() {
    use FrameType::*;
    assert_eq!(FrameType::from_ifp2(0), None);
    assert_eq!(FrameType::from_ifp2(5), None);
    assert_eq!(FrameType::from_ifp2(u32::MAX), None);
    for (value, t, size, trans) in [
        (1, Ifp2Rot, 20, false),
        (2, Ifp2RotTrans, 32, true),
        (3, Ifp2PackedRot, 10, false),
        (4, Ifp2PackedRotTrans, 16, true),
    ] {
        assert_eq!(FrameType::from_ifp2(value), Some(t));
        assert_eq!(t as u32, value);
        assert_eq!(t.size(), size);
        assert_eq!(t.has_translation(), trans);
        assert_eq!(t.is_packed(), value >= 3);
        assert!(!t.has_scale());
    }
    assert_eq!(Format::Anp3.name(), "ANP3");
    assert_eq!(Format::Anp2.name(), "ANP2");
}
