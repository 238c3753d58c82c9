//! ANPK byte by byte: files written by hand from docs/FORMATS.md §1 (header, INFO with its count
//! and padded name, NAME, DGAN, INFO, CPAN, ANIM of 44 and 48 bytes, KR00/KRT0/KRTS frames),
//! with the values every field must decode to, worked out by hand: conjugated quaternions,
//! time last, scale reported. Then the same files cut at every byte and split at every offset.

use gtastream::{ErrorKind, Format, FrameType, Keyframe, WarningKind};
use testkit::anpk_stories::*;

/// One animation "run" with three objects: 44-byte ANIM + KR00 (2 frames), 48-byte ANIM +
/// KRT0, 44-byte ANIM + KRTS.
#[rustfmt::skip]
const HAND: [u8; 0x184] = [
    // 0x000 ANPK, size = 0x184 - 8
    b'A', b'N', b'P', b'K', 0x7C, 0x01, 0x00, 0x00,
    // 0x008 INFO, size 4 + 5, numAnimations 1, "pack" NUL padded to 8
    b'I', b'N', b'F', b'O', 0x09, 0x00, 0x00, 0x00,
    0x01, 0x00, 0x00, 0x00,
    b'p', b'a', b'c', b'k', 0x00, 0x00, 0x00, 0x00,
    // 0x01C NAME, 4, "run" NUL
    b'N', b'A', b'M', b'E', 0x04, 0x00, 0x00, 0x00,
    b'r', b'u', b'n', 0x00,
    // 0x028 DGAN, size = 0x184 - 0x30
    b'D', b'G', b'A', b'N', 0x54, 0x01, 0x00, 0x00,
    // 0x030 INFO, 8, numObjects 3, ignored (a Vice City value)
    b'I', b'N', b'F', b'O', 0x08, 0x00, 0x00, 0x00,
    0x03, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00,
    // 0x040 CPAN, 8 + 44 + 8 + 40
    b'C', b'P', b'A', b'N', 0x64, 0x00, 0x00, 0x00,
    // 0x048 ANIM, 44: "Root", numFrames 2, 0, 1, boneId 42
    b'A', b'N', b'I', b'M', 0x2C, 0x00, 0x00, 0x00,
    b'R', b'o', b'o', b't', 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00,
    0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
    0x2A, 0x00, 0x00, 0x00,
    // 0x07C KR00, 2 × 20
    b'K', b'R', b'0', b'0', 0x28, 0x00, 0x00, 0x00,
    // 0x084 q (0.5, -0.25, 0, 1), time 0
    0x00, 0x00, 0x00, 0x3F, 0x00, 0x00, 0x80, 0xBE, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x00, 0x00,
    // 0x098 q (-1, 0.5, 2, 0.75), time 0.5
    0x00, 0x00, 0x80, 0xBF, 0x00, 0x00, 0x00, 0x3F, 0x00, 0x00, 0x00, 0x40,
    0x00, 0x00, 0x40, 0x3F, 0x00, 0x00, 0x00, 0x3F,
    // 0x0AC CPAN, 8 + 48 + 8 + 32
    b'C', b'P', b'A', b'N', 0x60, 0x00, 0x00, 0x00,
    // 0x0B4 ANIM, 48: "Spine" and garbage after the NUL, numFrames 1, 0, 0, two unused fields
    b'A', b'N', b'I', b'M', 0x30, 0x00, 0x00, 0x00,
    b'S', b'p', b'i', b'n', b'e', 0x00, 0xCD, 0xCD,
    0xCD, 0xCD, 0xCD, 0xCD, 0xCD, 0xCD, 0xCD, 0xCD,
    0xCD, 0xCD, 0xCD, 0xCD, 0xCD, 0xCD, 0xCD, 0xCD,
    0xCD, 0xCD, 0xCD, 0xCD,
    0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0xFF, 0xFF, 0xFF, 0xFF, 0x03, 0x00, 0x00, 0x00,
    // 0x0EC KRT0, 32
    b'K', b'R', b'T', b'0', 0x20, 0x00, 0x00, 0x00,
    // 0x0F4 q (0, -0, -0.5, 0.5), t (1.5, -2, 10), time 0.25
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0x00, 0x00, 0x00, 0xBF,
    0x00, 0x00, 0x00, 0x3F, 0x00, 0x00, 0xC0, 0x3F, 0x00, 0x00, 0x00, 0xC0,
    0x00, 0x00, 0x20, 0x41, 0x00, 0x00, 0x80, 0x3E,
    // 0x114 CPAN, 8 + 44 + 8 + 44
    b'C', b'P', b'A', b'N', 0x68, 0x00, 0x00, 0x00,
    // 0x11C ANIM, 44: "L Hand", numFrames 1, 0, 0, boneId 34
    b'A', b'N', b'I', b'M', 0x2C, 0x00, 0x00, 0x00,
    b'L', b' ', b'H', b'a', b'n', b'd', 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00,
    0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x22, 0x00, 0x00, 0x00,
    // 0x150 KRTS, 44
    b'K', b'R', b'T', b'S', 0x2C, 0x00, 0x00, 0x00,
    // 0x158 q (0.25, 0.5, -0.75, -1), t (0, 0.125, 4), s (2, 0.5, 1), time 3
    0x00, 0x00, 0x80, 0x3E, 0x00, 0x00, 0x00, 0x3F, 0x00, 0x00, 0x40, 0xBF,
    0x00, 0x00, 0x80, 0xBF, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x3E,
    0x00, 0x00, 0x80, 0x40, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x3F,
    0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x40, 0x40,
];

fn kf(time: f32, rotation: [f32; 4], translation: [f32; 3], scale: [f32; 3]) -> Bits {
    Bits(Keyframe {
        time,
        rotation,
        translation,
        scale,
    })
}

fn frame(frame_type: FrameType, bytes: &[u8], k: Bits) -> Ev {
    Ev::Frame {
        frame_type,
        bytes: bytes.to_vec(),
        frame: k,
        raw: None,
        exact: None,
    }
}

fn bone(index: u32, name: &[u8], id: Option<i32>, t: FrameType, frames: u32) -> Ev {
    Ev::Bone {
        index,
        name: Some(name.to_vec()),
        bone_id: id,
        bone_key: None,
        frame_type: t,
        frame_count: frames,
    }
}

fn animation(index: u32, name: &[u8], bones: u32) -> Ev {
    Ev::Animation {
        index,
        name: name.to_vec(),
        bone_count: bones,
        frame_data_size: None,
        flags: None,
        duration: None,
    }
}

/// The events of `HAND`, worked out by hand.
fn hand_log() -> Vec<Ev> {
    use FrameType::{Kr00, Krt0, Krts};
    let zero = [0.0; 3];
    vec![
        Ev::File {
            format: Format::Anpk,
            name: Some(b"pack".to_vec()),
            animation_count: 1,
            instance_count: None,
            car_count: None,
        },
        animation(0, b"run", 3),
        bone(0, b"Root", Some(42), Kr00, 2),
        frame(
            Kr00,
            &HAND[0x84..0x98],
            kf(0.0, [-0.5, 0.25, -0.0, 1.0], zero, zero),
        ),
        frame(
            Kr00,
            &HAND[0x98..0xAC],
            kf(0.5, [1.0, -0.5, -2.0, 0.75], zero, zero),
        ),
        Ev::BoneEnd,
        bone(1, b"Spine", None, Krt0, 1),
        frame(
            Krt0,
            &HAND[0xF4..0x114],
            kf(0.25, [-0.0, 0.0, 0.5, 0.5], [1.5, -2.0, 10.0], zero),
        ),
        Ev::BoneEnd,
        bone(2, b"L Hand", Some(34), Krts, 1),
        frame(
            Krts,
            &HAND[0x158..0x184],
            kf(
                3.0,
                [-0.25, -0.5, 0.75, -1.0],
                [0.0, 0.125, 4.0],
                [2.0, 0.5, 1.0],
            ),
        ),
        Ev::BoneEnd,
        Ev::AnimationEnd,
        Ev::End,
    ]
}

/// The units of `HAND` in reading order, by hand: ANPK + INFO header + count, package name,
/// NAME header, name + DGAN + INFO header + count, the ignored INFO field, then per object
/// CPAN + ANIM headers, ANIM payload, keyframe chunk header, frames.
const HAND_UNITS: [(u64, u64); 9] = [
    // The block header with the package name; each animation from its NAME chunk to the end
    // of its INFO chunk; each object from its CPAN chunk to its keyframe chunk's header
    // (docs/FORMATS.md §9.7: one unit per event, as stored); the keyframes.
    (0x000, 28),
    (0x01C, 36),
    (0x040, 68),
    (0x084, 20),
    (0x098, 20),
    (0x0AC, 72),
    (0x0F4, 32),
    (0x114, 68),
    (0x158, 44),
];

/// A second file, with what real files get wrong: zero INFO/NAME/DGAN/CPAN/ANIM tags, an INFO
/// of 12 bytes (two ignored fields), an object without frames followed by an empty `K000`
/// chunk, an animation with an empty name and no objects.
#[rustfmt::skip]
const ODD: [u8; 0xB0] = [
    // 0x00 ANPK, size = 0xB0 - 8
    b'A', b'N', b'P', b'K', 0xA8, 0x00, 0x00, 0x00,
    // 0x08 (zero INFO tag), 4 + 4, numAnimations 2, "abc" NUL
    0x00, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00,
    0x02, 0x00, 0x00, 0x00,
    b'a', b'b', b'c', 0x00,
    // 0x18 (zero NAME tag), 5, "walk" NUL padded to 8
    0x00, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00,
    b'w', b'a', b'l', b'k', 0x00, 0x00, 0x00, 0x00,
    // 0x28 (zero DGAN tag), size = 0x8C - 0x30
    0x00, 0x00, 0x00, 0x00, 0x5C, 0x00, 0x00, 0x00,
    // 0x30 INFO, 12: numObjects 1, two ignored fields
    b'I', b'N', b'F', b'O', 0x0C, 0x00, 0x00, 0x00,
    0x01, 0x00, 0x00, 0x00, 0x11, 0x11, 0x11, 0x11, 0x22, 0x22, 0x22, 0x22,
    // 0x44 (zero CPAN tag), 8 + 48 + 8
    0x00, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00,
    // 0x4C (zero ANIM tag), 48: "Bip01", numFrames 0, 0, -1, two unused fields
    0x00, 0x00, 0x00, 0x00, 0x30, 0x00, 0x00, 0x00,
    b'B', b'i', b'p', b'0', b'1', 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    // 0x84 K000, 0
    b'K', b'0', b'0', b'0', 0x00, 0x00, 0x00, 0x00,
    // 0x8C NAME, 1 (just the NUL)
    b'N', b'A', b'M', b'E', 0x01, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00,
    // 0x98 DGAN, size = 0xB0 - 0xA0
    b'D', b'G', b'A', b'N', 0x10, 0x00, 0x00, 0x00,
    // 0xA0 INFO, 8, numObjects 0, ignored
    b'I', b'N', b'F', b'O', 0x08, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
];

fn odd_log() -> Vec<Ev> {
    let tag = |at| Ev::Warning(WarningKind::UnexpectedTag, at);
    vec![
        tag(0x08),
        Ev::File {
            format: Format::Anpk,
            name: Some(b"abc".to_vec()),
            animation_count: 2,
            instance_count: None,
            car_count: None,
        },
        tag(0x18),
        tag(0x28),
        animation(0, b"walk", 1),
        tag(0x44),
        tag(0x4C),
        bone(0, b"Bip01", None, FrameType::Kr00, 0),
        Ev::BoneEnd,
        Ev::AnimationEnd,
        animation(1, b"", 0),
        Ev::AnimationEnd,
        Ev::End,
    ]
}

/// The units of `ODD` in reading order; the `K000` chunk is read only whole.
const ODD_UNITS: [(u64, u64); 5] = [
    (0x00, 24),
    (0x18, 44),
    // The object without frames; cut inside the empty `K000` chunk after it, the chunk is not
    // taken, and the bytes are the next animation's NAME header.
    (0x44, 64),
    (0x84, 8),
    (0x8C, 36),
];

fn files() -> [(&'static str, &'static [u8], Vec<Ev>); 2] {
    [("hand", &HAND, hand_log()), ("odd", &ODD, odd_log())]
}

#[test]
fn the_hand_files_decode_to_the_hand_values() {
    for (name, file, expected) in files() {
        assert_eq!(log_of(file, &Feed::Whole), expected, "{name}");
        assert_eq!(anpk_reference(file).log, expected, "{name}: the reference");
    }
}

#[test]
fn byte_by_byte_and_every_two_way_split_give_the_same_log() {
    for (name, file, expected) in files() {
        assert_eq!(log_of(file, &Feed::Chunk(1)), expected, "{name}");
        for cut in 0..=file.len() {
            assert_eq!(
                log_of(file, &Feed::At(vec![cut])),
                expected,
                "{name}: cut at {cut:#x}"
            );
        }
    }
}

#[test]
fn every_three_way_split_of_the_odd_file() {
    for a in 0..=ODD.len() {
        for b in a..=ODD.len() {
            assert_eq!(
                log_of(&ODD, &Feed::At(vec![a, b])),
                odd_log(),
                "cuts at {a:#x}, {b:#x}"
            );
        }
    }
}

#[test]
fn the_hand_files_cut_anywhere_are_truncated_at_the_unit_containing_the_cut() {
    // Every mismatch is collected, so that a failure lists every cut that goes wrong.
    let mut wrong = Vec::new();
    for (name, file, full, units) in [
        ("hand", &HAND[..], hand_log(), &HAND_UNITS[..]),
        ("odd", &ODD[..], odd_log(), &ODD_UNITS[..]),
    ] {
        // Cut at 0 nothing is left: the empty input's own error (tests/errors.rs).
        for cut in 1..file.len() {
            let expected_at = units
                .iter()
                .find(|(at, len)| at + len > cut as u64)
                .unwrap()
                .0;
            for feed in [Feed::Whole, Feed::Chunk(1), Feed::Chunk(3)] {
                let log = log_of(&file[..cut], &feed);
                let got = error_of(&log);
                if got != Some((ErrorKind::Truncated, expected_at)) {
                    wrong.push(format!(
                        "{name}: cut at {cut:#x} {feed:?}: expected Truncated at \
                         {expected_at:#x}, got {got:x?}"
                    ));
                    continue;
                }
                // What came before is the start of the full log. (Cut inside the K000 chunk,
                // the chunk is not there: the sizes of CPAN and DGAN then disagree, and say so.)
                let before = without_warnings(&log[..log.len() - 1]);
                assert_eq!(
                    before,
                    without_warnings(&full)[..before.len()],
                    "{name}: cut at {cut:#x}"
                );
                assert_eq!(
                    log,
                    anpk_reference(&file[..cut]).log,
                    "{name}: cut at {cut:#x}"
                );
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

#[test]
fn cut_inside_the_ignored_info_field_is_truncated_at_its_animation() {
    // The INFO chunk's fields after the count (0x3C..0x40 in HAND; 0x3C..0x44 and 0xAC..0xB0
    // in ODD) are not interpreted, but they are part of the animation's unit (kept for writing
    // the file back): cut inside, the error names where the animation's NAME chunk begins.
    for (file, field, animation) in [
        (&HAND[..], 0x3C..0x40, 0x1C),
        (&ODD[..], 0x3C..0x44, 0x18),
        (&ODD[..], 0xAC..0xB0, 0x8C),
    ] {
        for cut in field.clone() {
            for feed in [Feed::Whole, Feed::Chunk(1)] {
                assert_eq!(
                    error_of(&log_of(&file[..cut], &feed)),
                    Some((ErrorKind::Truncated, animation)),
                    "cut at {cut:#x} {feed:?}"
                );
            }
        }
    }
}

#[test]
fn cut_inside_the_k000_chunk_the_sizes_disagree() {
    // Cut at 0x88: the chunk is not whole, so it is not the empty chunk; CPAN (size at 0x48)
    // and DGAN (size at 0x2C) then end 8 bytes before their sizes say.
    let log = log_of(&ODD[..0x88], &Feed::Whole);
    assert_eq!(
        log[8..],
        [
            Ev::Warning(WarningKind::SizeMismatch, 0x48),
            Ev::BoneEnd,
            Ev::Warning(WarningKind::SizeMismatch, 0x2C),
            Ev::AnimationEnd,
            Ev::Error(ErrorKind::Truncated, 0x84),
        ]
    );
}

#[test]
fn pause_at_every_event_reproduces_the_log() {
    for (name, file, expected) in files() {
        for feed in [Feed::Whole, Feed::Chunk(1), Feed::Chunk(5)] {
            let run = decode(file, &feed, true, Policy::PauseEvery);
            assert_eq!(run.log, expected, "{name} {feed:?}");
            assert_eq!(run.pauses, run.calls - run.finish_calls, "{name} {feed:?}");
        }
    }
}

#[test]
fn the_game_ignores_the_fields_the_decoder_ignores() {
    // Object names after their NUL, the two fields after numFrames, the 48-byte form's last
    // two fields, the INFO's last field: changing them changes nothing.
    let mut file = HAND;
    for at in [0x3C, 0x70, 0x74, 0xDC, 0xE0, 0xE4, 0xE8, 0x144, 0x148] {
        file[at..at + 4].copy_from_slice(&0x7777_7777u32.to_le_bytes());
    }
    file[0x55..0x6C].fill(0x55);
    file[0x12B..0x140].fill(0xAA);
    assert_eq!(log_of(&file, &Feed::Chunk(3)), hand_log());
}

#[test]
fn frames_report_the_stored_values_conjugated() {
    let log = log_of(&HAND, &Feed::Chunk(9));
    let frames = keyframes(&log);
    // Each stored x, y, z comes back negated, w as stored.
    for (k, at) in frames.iter().zip([0x84usize, 0x98, 0xF4, 0x158]) {
        for (i, r) in k.rotation.iter().enumerate() {
            let stored = f32_at(&HAND, at + 4 * i);
            let expected = if i < 3 { -stored } else { stored };
            assert_eq!(r.to_bits(), expected.to_bits(), "frame at {at:#x}, q[{i}]");
        }
    }
}
