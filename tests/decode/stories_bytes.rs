//! Stories `.anim` byte by byte: a file written by hand from docs/FORMATS.md §3 (header, offset
//! table, record, bone rows, half-float keyframes, relocation table) with the values every
//! field must decode to, worked out by hand; then the rules on bone rows (flags, ids, counts,
//! garbage offsets), half floats of every kind, and time as a running sum of deltas.

use gtastream::{ErrorKind, Format, FrameType, Keyframe, WarningKind};
use testkit::anpk_stories::*;

/// One LCS animation "jump" with three bones, laid out depth first.
#[rustfmt::skip]
const HAND: [u8; 0xC0] = [
    // 0x00 header
    0x6D, 0x69, 0x6E, 0x61, // "mina"
    0x00, 0x00, 0x00, 0x00, // shrink
    0xC0, 0x00, 0x00, 0x00, // fileEnd
    0xB0, 0x00, 0x00, 0x00, // dataEnd
    0xB0, 0x00, 0x00, 0x00, // relocTab
    0x04, 0x00, 0x00, 0x00, // numRelocs
    0x00, 0x00, 0x00, 0x00, // globalTab
    0x00, 0x00, 0x00, 0x00, // numClasses, numFuncs
    // 0x20 offset table: one animation, whose record follows at once
    0x24, 0x00, 0x00, 0x00,
    // 0x24 record
    0x48, 0x00, 0x00, 0x00, // boneTable
    b'j', b'u', b'm', b'p', 0x00, 0x00, 0x00, 0x00, // name[24]
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x03, 0x00,             // numBones
    0x01, 0x80,             // unknown flags
    0x00, 0x00, 0xC0, 0x3F, // duration 1.5
    // 0x48 bone row 0: rotation, translation, id; 3 frames at 0x6C; key 0xABCDFFFF (id -1)
    0x13, 0x00, 0x03, 0x00, 0x6C, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xCD, 0xAB,
    // 0x54 bone row 1: rotation, platform flag 0x08; 2 frames at 0x9C; key 0x12345678
    0x09, 0x00, 0x02, 0x00, 0x9C, 0x00, 0x00, 0x00, 0x78, 0x56, 0x34, 0x12,
    // 0x60 bone row 2: rotation, id; no frames, garbage offset; key 0x00008000 (id -32768)
    0x11, 0x00, 0x00, 0x00, 0xEF, 0xBE, 0xAD, 0xDE, 0x00, 0x80, 0x00, 0x00,
    // 0x6C bone 0 keyframes: qx qy qz qw dt tx ty tz (half floats)
    0x00, 0x38, 0x00, 0xB4, 0x00, 0x00, 0x00, 0x3C, 0x00, 0x00, 0x00, 0x40, 0x00, 0xC2, 0x00, 0x3E,
    0x01, 0x00, 0x00, 0x80, 0x00, 0x7C, 0x55, 0x35, 0x00, 0x38, 0xFF, 0x03, 0x00, 0xFC, 0xFF, 0x7B,
    0x00, 0x84, 0x01, 0x3C, 0x00, 0xBC, 0x00, 0x00, 0x00, 0x3A, 0x00, 0x49, 0x40, 0x56, 0x00, 0x80,
    // 0x9C bone 1 keyframes: qx qy qz qw dt
    0x00, 0x3C, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x34,
    0x00, 0x00, 0x00, 0x38, 0x00, 0x00, 0x00, 0x3A, 0x66, 0x2E,
    // 0xB0 relocation table: the table entry, the record's boneTable, two frame offsets
    0x20, 0x00, 0x00, 0x00, 0x24, 0x00, 0x00, 0x00, 0x4C, 0x00, 0x00, 0x00, 0x58, 0x00, 0x00, 0x00,
];

fn kf(time: f32, rotation: [f32; 4], translation: [f32; 3]) -> Bits {
    Bits(Keyframe {
        time,
        rotation,
        translation,
        scale: [0.0; 3],
    })
}

/// The smallest subnormal half, 2^-24, and the largest, 1023 × 2^-24.
const SUB_MIN: f32 = 1.0 / 16_777_216.0;
const SUB_MAX: f32 = 1023.0 / 16_777_216.0;

/// The events of `HAND`, worked out by hand.
fn hand_log() -> Vec<Ev> {
    let frame = |t, bytes: &[u8], k| Ev::Frame {
        frame_type: t,
        bytes: bytes.to_vec(),
        frame: k,
        raw: None,
        exact: None,
    };
    let rt = FrameType::StoriesRotTrans;
    let r = FrameType::StoriesRot;
    vec![
        Ev::File {
            format: Format::Anim,
            name: None,
            animation_count: 1,
            instance_count: None,
            car_count: None,
        },
        Ev::Animation {
            index: 0,
            name: b"jump".to_vec(),
            bone_count: 3,
            frame_data_size: None,
            flags: None,
            duration: Some(1.5f32.to_bits()),
        },
        Ev::Bone {
            index: 0,
            name: None,
            bone_id: Some(-1),
            bone_key: Some(0xABCD_FFFF),
            frame_type: rt,
            frame_count: 3,
        },
        // Conjugated: x, y, z negated (so +0 becomes -0); time 0 + 0.
        frame(
            rt,
            &HAND[0x6C..0x7C],
            kf(0.0, [-0.5, 0.25, -0.0, 1.0], [2.0, -3.0, 1.5]),
        ),
        // Subnormals, -0 (negated to +0), infinities, 0x3555 = 1365/4096, max half 65504.
        frame(
            rt,
            &HAND[0x7C..0x8C],
            kf(
                0.5,
                [-SUB_MIN, 0.0, f32::NEG_INFINITY, 1365.0 / 4096.0],
                [SUB_MAX, f32::NEG_INFINITY, 65504.0],
            ),
        ),
        // Smallest normal (negative), 1 + 2^-10; time 0.5 + 0.75; 10, 100, -0.
        frame(
            rt,
            &HAND[0x8C..0x9C],
            kf(
                1.25,
                [1.0 / 16384.0, -1025.0 / 1024.0, 1.0, 0.0],
                [10.0, 100.0, -0.0],
            ),
        ),
        Ev::BoneEnd,
        Ev::Bone {
            index: 1,
            name: None,
            bone_id: None,
            bone_key: Some(0x1234_5678),
            frame_type: r,
            frame_count: 2,
        },
        // Frame 0 holds its own time (0.25); then + 0x2E66 = 1638/16384.
        frame(
            r,
            &HAND[0x9C..0xA6],
            kf(0.25, [-1.0, -0.0, -0.0, 0.0], [0.0; 3]),
        ),
        frame(
            r,
            &HAND[0xA6..0xB0],
            kf(
                (4096.0 + 1638.0) / 16384.0,
                [-0.0, -0.5, -0.0, 0.75],
                [0.0; 3],
            ),
        ),
        Ev::BoneEnd,
        Ev::Bone {
            index: 2,
            name: None,
            bone_id: Some(-32768),
            bone_key: Some(0x0000_8000),
            frame_type: r,
            frame_count: 0,
        },
        Ev::BoneEnd,
        Ev::AnimationEnd,
        Ev::End,
    ]
}

/// The units of `HAND` in the order a front-to-back decoder reads them, by hand: header,
/// table entry, relocation table, the entry again, record, row 0 and its frames, row 1 and
/// its frames, row 2, and the end of the file.
const HAND_UNITS: [(u64, u64); 17] = [
    (0x00, 0x20),
    (0x20, 4),
    (0xB0, 4),
    (0xB4, 4),
    (0xB8, 4),
    (0xBC, 4),
    (0x20, 4),
    (0x24, 0x24),
    (0x48, 12),
    (0x6C, 16),
    (0x7C, 16),
    (0x8C, 16),
    (0x54, 12),
    (0x9C, 10),
    (0xA6, 10),
    (0x60, 12),
    (0xC0, 0),
];

fn feeds() -> [Feed; 5] {
    [
        Feed::Whole,
        Feed::Chunk(1),
        Feed::Chunk(7),
        Feed::Chunk(64),
        Feed::Chunk(4096),
    ]
}

#[test]
fn the_hand_file_decodes_to_the_hand_values() {
    for feed in feeds() {
        assert_eq!(log_of(&HAND, &feed), hand_log(), "{feed:?}");
    }
    assert_eq!(stories_reference(&HAND).log(), hand_log(), "the reference");
}

#[test]
fn the_hand_file_seeks_back_to_the_table_and_to_each_row_after_keyframes() {
    for feed in feeds() {
        let run = decode(&HAND, &feed, true, Policy::Continue);
        assert_eq!(run.seeks, [0x20, 0x54, 0x60], "{feed:?}");
    }
}

#[test]
fn the_hand_file_without_seeking_fails_at_the_table_after_the_file_event() {
    for feed in feeds() {
        let log = log_no_seek(&HAND, &feed);
        assert_eq!(
            log,
            [
                hand_log()[0].clone(),
                Ev::Error(ErrorKind::SeekRequired, 0x20)
            ],
            "{feed:?}"
        );
    }
}

#[test]
fn the_hand_file_cut_anywhere_is_truncated_at_the_first_unit_missing() {
    let full = hand_log();
    // (Cut at 0 nothing is left: the empty input's own error, in tests/errors.rs.)
    for cut in 1..HAND.len() {
        let expected_at = HAND_UNITS
            .iter()
            .find(|(at, len)| at + len > cut as u64)
            .unwrap()
            .0;
        for feed in [Feed::Whole, Feed::Chunk(1), Feed::Chunk(7)] {
            let log = log_of(&HAND[..cut], &feed);
            assert_eq!(
                error_of(&log),
                Some((ErrorKind::Truncated, expected_at)),
                "cut at {cut:#x} {feed:?}"
            );
            let before = &log[..log.len() - 1];
            assert_eq!(before, &full[..before.len()], "cut at {cut:#x}: a prefix");
        }
    }
}

#[test]
fn zero_padding_past_file_end_is_silent() {
    for extra in [1, 3, 4, 2048 - HAND.len()] {
        let mut file = HAND.to_vec();
        file.resize(HAND.len() + extra, 0);
        for feed in feeds() {
            assert_eq!(log_of(&file, &feed), hand_log(), "{extra} zeros {feed:?}");
        }
    }
}

#[test]
fn garbage_past_file_end_is_trailing_data_at_its_first_non_zero_byte() {
    let mut file = HAND.to_vec();
    file.extend_from_slice(&[0, 0, 0, 7, 0, 9, 0xFF, 0xFF]);
    let mut expected = hand_log();
    expected.insert(
        expected.len() - 1,
        Ev::Warning(WarningKind::TrailingData, 0xC3),
    );
    for feed in feeds() {
        assert_eq!(log_of(&file, &feed), expected, "{feed:?}");
    }
}

#[test]
fn a_file_shorter_than_file_end_is_truncated_at_file_end() {
    let mut file = HAND.to_vec();
    put_u32(&mut file, 0x08, 0xC8);
    let mut expected = hand_log();
    *expected.last_mut().unwrap() = Ev::Error(ErrorKind::Truncated, 0xC8);
    for feed in feeds() {
        assert_eq!(log_of(&file, &feed), expected, "{feed:?}");
    }
    // With the missing bytes there, it decodes (they are not read).
    file.extend_from_slice(&[0xAB; 8]);
    for feed in feeds() {
        assert_eq!(log_of(&file, &feed), hand_log(), "{feed:?}");
    }
}

#[test]
fn bad_flags_are_malformed_at_the_row() {
    // 0x04 (never seen), or translation without rotation.
    for flags in [
        0x04u16, 0x05, 0x07, 0x0C, 0x1D, 0x02, 0x12, 0x0A, 0x06, 0xFFFF, 0xFFFE,
    ] {
        let mut file = HAND.to_vec();
        file[0x54..0x56].copy_from_slice(&flags.to_le_bytes());
        let mut expected = hand_log()[..7].to_vec(); // up to bone 0's end
        expected.push(Ev::Error(ErrorKind::Malformed, 0x54));
        for feed in [Feed::Whole, Feed::Chunk(1), Feed::Chunk(7)] {
            assert_eq!(log_of(&file, &feed), expected, "flags {flags:#x} {feed:?}");
        }
    }
}

#[test]
fn other_flags_are_accepted() {
    // No flag at all, platform flags, high bits: only 0x02 decides the frame size.
    for flags in [0x00u16, 0x01, 0x08, 0x10, 0x18, 0x0100, 0x8001, 0xFFF9] {
        let mut file = HAND.to_vec();
        file[0x54..0x56].copy_from_slice(&flags.to_le_bytes());
        let mut expected = hand_log();
        let Ev::Bone { bone_id, .. } = &mut expected[7] else {
            unreachable!()
        };
        *bone_id = (flags & 0x10 != 0).then_some(0x5678);
        assert_eq!(log_of(&file, &Feed::Chunk(7)), expected, "flags {flags:#x}");
    }
    // Translation with rotation: 16-byte frames from the same offset, whatever they hold.
    let mut file = HAND.to_vec();
    file[0x54..0x56].copy_from_slice(&0x03u16.to_le_bytes());
    let log = log_of(&file, &Feed::Chunk(7));
    assert_eq!(log, stories_reference(&file).log());
    assert!(matches!(
        log[7],
        Ev::Bone {
            frame_type: FrameType::StoriesRotTrans,
            frame_count: 2,
            ..
        }
    ));
    assert_eq!(log.last(), Some(&Ev::End));
}

#[test]
fn bone_ids_are_the_low_16_bits_of_the_key_as_i16() {
    for (key, id) in [
        (0x0000_0000u32, 0),
        (0x0000_0001, 1),
        (0xABCD_7FFF, 32767),
        (0x0000_8000, -32768),
        (0xFFFF_FFFF, -1),
        (0x1234_FFFE, -2),
        (0xFFFF_0000, 0),
    ] {
        let mut file = HAND.to_vec();
        file[0x50..0x54].copy_from_slice(&key.to_le_bytes());
        let log = log_of(&file, &Feed::Whole);
        let Ev::Bone {
            bone_id, bone_key, ..
        } = &log[2]
        else {
            panic!("{log:?}")
        };
        assert_eq!((*bone_id, *bone_key), (Some(id), Some(key)), "key {key:#x}");
        // Without flag 0x10, no id, the same key.
        file[0x48] = 0x03;
        let log = log_of(&file, &Feed::Whole);
        let Ev::Bone {
            bone_id, bone_key, ..
        } = &log[2]
        else {
            panic!("{log:?}")
        };
        assert_eq!((*bone_id, *bone_key), (None, Some(key)), "key {key:#x}");
    }
}

#[test]
fn a_bone_without_keyframes_never_follows_its_offset() {
    // Beyond the file, inside the header (behind: following it would seek), at the relocation
    // table, at the keyframes of another bone.
    for garbage in [0xDEAD_BEEFu32, 0, 0x10, 0xB0, 0x6C, 0xFFFF_FFFF] {
        let mut file = HAND.to_vec();
        file[0x64..0x68].copy_from_slice(&garbage.to_le_bytes());
        for feed in feeds() {
            let run = decode(&file, &feed, true, Policy::Continue);
            assert_eq!(run.log, hand_log(), "offset {garbage:#x} {feed:?}");
            assert_eq!(
                run.seeks,
                [0x20, 0x54, 0x60],
                "offset {garbage:#x} {feed:?}"
            );
        }
    }
}

#[test]
fn negative_counts_are_count_too_large() {
    // numFrames of row 1 = -1: at the row.
    let mut file = HAND.to_vec();
    file[0x56..0x58].copy_from_slice(&(-1i16).to_le_bytes());
    let mut expected = hand_log()[..7].to_vec();
    expected.push(Ev::Error(ErrorKind::CountTooLarge, 0x54));
    assert_eq!(log_of(&file, &Feed::Chunk(3)), expected);
    // numBones = -32768: at the record.
    let mut file = HAND.to_vec();
    file[0x40..0x42].copy_from_slice(&i16::MIN.to_le_bytes());
    let expected = vec![
        hand_log()[0].clone(),
        Ev::Error(ErrorKind::CountTooLarge, 0x24),
    ];
    assert_eq!(log_of(&file, &Feed::Chunk(3)), expected);
}

#[test]
fn the_reference_half_floats_are_right() {
    // A check of the reference's conversion against values worked out by hand.
    for (bits, value) in [
        (0x0000u16, 0.0f32),
        (0x8000, -0.0),
        (0x0001, SUB_MIN),
        (0x03FF, SUB_MAX),
        (0x0400, 1.0 / 16384.0),
        (0x3555, 1365.0 / 4096.0),
        (0x3C00, 1.0),
        (0x3C01, 1025.0 / 1024.0),
        (0xC000, -2.0),
        (0x7BFF, 65504.0),
        (0xFBFF, -65504.0),
        (0x7C00, f32::INFINITY),
        (0xFC00, f32::NEG_INFINITY),
    ] {
        assert_eq!(half_value(bits).to_bits(), value.to_bits(), "{bits:#06x}");
    }
    assert!(half_value(0x7E00).is_nan() && half_value(0xFC01).is_nan());
}

/// A file of one animation whose bones hold keyframes with translation.
fn one_animation(bones: Vec<testkit::stories::BoneRow>) -> Vec<u8> {
    let anim = testkit::stories::Anim {
        name: "halves",
        duration: 0.0,
        bones,
    };
    testkit::stories::write(&[anim], testkit::stories::Layout::DepthFirst, false, 0)
}

#[test]
fn every_half_float_decodes_exactly() {
    // All 65536 bit patterns, in qx (reported negated), qw and tx (reported as stored), dt 0.
    let frames: Vec<testkit::stories::Frame> = (0..=u16::MAX)
        .map(|h| testkit::stories::Frame {
            rotation: [h, 0, 0, h],
            dt: 0,
            translation: Some([h, 0, 0]),
        })
        .collect();
    let bones = frames
        .chunks(16384)
        .map(|chunk| testkit::stories::BoneRow {
            flags: 0x03,
            key: 0,
            frames: chunk.to_vec(),
            garbage_offset: 0,
        })
        .collect();
    let file = one_animation(bones);
    let log = log_of(&file, &Feed::Chunk(4096));
    let frames = keyframes(&log);
    assert_eq!(frames.len(), 65536);
    for (h, k) in (0..=u16::MAX).zip(frames) {
        let v = half_value(h);
        assert!(same_value(k.rotation[0], -v), "{h:#06x}: {:?}", k.rotation);
        assert!(same_value(k.rotation[3], v), "{h:#06x}: {:?}", k.rotation);
        assert!(same_value(k.translation[0], v), "{h:#06x}");
        assert_eq!(k.time.to_bits(), 0, "{h:#06x}");
    }
}

fn same_value(a: f32, b: f32) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

#[test]
fn time_is_the_running_sum_of_the_deltas() {
    // 0x2E66 = 1638/16384: k of them sum exactly to k × 1638/16384 (24 bits suffice).
    let dt = 0x2E66;
    let frame = testkit::stories::Frame {
        rotation: [0, 0, 0, 0x3C00],
        dt,
        translation: Some([0, 0, 0]),
    };
    let file = one_animation(vec![testkit::stories::BoneRow {
        flags: 0x03,
        key: 0,
        frames: vec![frame; 100],
        garbage_offset: 0,
    }]);
    let times: Vec<f32> = keyframes(&log_of(&file, &Feed::Chunk(7)))
        .iter()
        .map(|k| k.time)
        .collect();
    let expected: Vec<f32> = (1..=100).map(|k| k as f32 * 1638.0 / 16384.0).collect();
    assert_eq!(times, expected);
}

#[test]
fn a_negative_delta_is_time_going_backwards_once_per_bone() {
    let frame = |dt| testkit::stories::Frame {
        rotation: [0, 0, 0, 0x3C00],
        dt,
        translation: None,
    };
    // dt: 1, 1, -0.5, -0.5, 1 → times 1, 2, 1.5, 1, 2; a second bone the same.
    let frames = vec![
        frame(0x3C00),
        frame(0x3C00),
        frame(0xB800),
        frame(0xB800),
        frame(0x3C00),
    ];
    let bone = testkit::stories::BoneRow {
        flags: 0x01,
        key: 0,
        frames,
        garbage_offset: 0,
    };
    let file = one_animation(vec![bone.clone(), bone]);
    let log = log_of(&file, &Feed::Chunk(1));
    assert_eq!(log, stories_reference(&file).log());
    let times: Vec<f32> = keyframes(&log).iter().map(|k| k.time).collect();
    assert_eq!(times, [1.0, 2.0, 1.5, 1.0, 2.0, 1.0, 2.0, 1.5, 1.0, 2.0]);
    // Layout (depth first, LCS, no padding): table 0x20, record 0x24, rows 0x48 and 0x54,
    // keyframes of bone 0 at 0x60 and of bone 1 at 0x92; the third frame warns.
    assert_eq!(
        warnings(&log),
        [
            (WarningKind::TimeBackwards, 0x60 + 20),
            (WarningKind::TimeBackwards, 0x92 + 20),
        ]
    );
}

#[test]
fn a_nan_time_has_the_same_bits_however_the_input_is_cut() {
    // Deltas 1, a NaN, 1, another NaN (other sign and payload), 1, ...: once the running sum
    // is NaN, every later time is that NaN, bit for bit, whatever batch or chunk it falls in.
    let deltas = [0x3C00, 0x7C01, 0x3C00, 0xFE55, 0x3C00, 0x7D00];
    let frames: Vec<testkit::stories::Frame> = (0..150)
        .map(|i| testkit::stories::Frame {
            rotation: [0, 0, 0, 0x3C00],
            dt: deltas[i % deltas.len()],
            translation: None,
        })
        .collect();
    let file = one_animation(vec![testkit::stories::BoneRow {
        flags: 0x01,
        key: 0,
        frames,
        garbage_offset: 0,
    }]);
    let times = |feed: &Feed| -> Vec<u32> {
        keyframes(&log_of(&file, feed))
            .iter()
            .map(|k| k.time.to_bits())
            .collect()
    };
    let whole = times(&Feed::Whole);
    assert_eq!(whole.len(), 150);
    assert_eq!(whole[0], 1.0f32.to_bits());
    assert!(whole[1..].iter().all(|&t| f32::from_bits(t).is_nan()));
    let frames_at = file.len() - 150 * 10 - 16;
    for feed in [Feed::Chunk(1), Feed::Chunk(7), Feed::Chunk(64)]
        .into_iter()
        .chain((0..150).map(|k| Feed::At(vec![frames_at + k * 10 + 4])))
    {
        assert_eq!(times(&feed), whole, "{feed:?}");
    }
}
