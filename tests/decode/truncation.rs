//! Every truncation of every fixture: the decoder reports what the complete units before the cut
//! make, then `Truncated` at the start of the unit the cut falls in (the 36-byte file header,
//! an animation header, a bone header, or one keyframe record); a cut after the end of the
//! content loses only trailing bytes, and decoding succeeds.

use gtastream::{Decoder, ErrorKind};
use testkit::ifp2::*;

/// Cuts inside the magic (1 to 3 bytes) are left to `a_cut_inside_the_magic_is_truncated`.
fn cuts(len: usize) -> impl Iterator<Item = usize> {
    std::iter::once(0).chain(4.min(len)..=len)
}

#[test]
fn every_truncation_of_every_fixture() {
    for (name, file) in fixtures() {
        let full = reference(&file);
        for cut in cuts(file.len()) {
            let expected = full.log_truncated(cut as u64);
            assert_eq!(log_whole(&file[..cut]), expected, "{name}: cut at {cut}");
            // The reference agrees with itself on the cut input.
            assert_eq!(
                reference(&file[..cut]).log(),
                expected,
                "{name}: cut at {cut}"
            );
        }
    }
}

#[test]
fn every_truncation_fed_byte_by_byte() {
    for (name, file) in fixtures() {
        let full = reference(&file);
        for cut in cuts(file.len()).step_by(3) {
            let expected = full.log_truncated(cut as u64);
            assert_eq!(log_bytewise(&file[..cut]), expected, "{name}: cut at {cut}");
        }
    }
}

/// The units of `anp3_packed()`, by hand: header, animation header, bone "Root", its three
/// 16-byte frames, bone "L Thigh", its two 10-byte frames.
const PACKED_UNITS: [(u64, u64); 9] = [
    (0, 36),
    (36, 36),
    (72, 36),
    (108, 16),
    (124, 16),
    (140, 16),
    (156, 36),
    (192, 10),
    (202, 10),
];

#[test]
fn the_reference_units_match_a_hand_made_layout() {
    let file = anp3_packed().build();
    assert_eq!(reference(&file).units, PACKED_UNITS);
}

#[test]
fn truncated_offsets_by_hand() {
    let file = anp3_packed().build();
    assert_eq!(file.len(), 212);
    // (Cut at 0 nothing is left: the empty input's own error, below.)
    for (cut, at) in [
        (4, 0),
        (35, 0),
        (36, 36),
        (71, 36),
        (72, 72),
        (107, 72),
        (108, 108),
        (109, 108),
        (123, 108),
        (124, 124),
        (155, 140),
        (156, 156),
        (191, 156),
        (192, 192),
        (201, 192),
        (202, 202),
        (211, 202),
    ] {
        let log = log_whole(&file[..cut]);
        assert_eq!(
            log.last(),
            Some(&Ev::error(ErrorKind::Truncated, at)),
            "cut at {cut}"
        );
        assert!(!log.contains(&Ev::End), "cut at {cut}");
    }
    assert_eq!(log_whole(&file).last(), Some(&Ev::End));
}

#[test]
fn frames_before_the_cut_are_delivered() {
    let file = anp3_packed().build();
    // Cut inside the third frame of "Root": its first two frames arrive, not the third.
    let log = log_whole(&file[..145]);
    assert_eq!(keyframes(&log).len(), 2);
    // Cut right after the third: the bone is complete and ends.
    let log = log_whole(&file[..156]);
    assert_eq!(keyframes(&log).len(), 3);
    assert_eq!(log[log.len() - 2], Ev::BoneEnd);
    assert_eq!(log[log.len() - 1], Ev::error(ErrorKind::Truncated, 156));
}

#[test]
fn cuts_inside_trailing_data_succeed() {
    let file = anp3_packed().trailing(&[7; 20]).build();
    for cut in 212..=file.len() {
        let log = log_whole(&file[..cut]);
        assert_eq!(log.last(), Some(&Ev::End), "cut at {cut}");
        let trailing = warnings(&log)
            .iter()
            .filter(|(k, _)| *k == gtastream::WarningKind::TrailingData)
            .count();
        assert_eq!(trailing, usize::from(cut > 212), "cut at {cut}");
    }
}

#[test]
fn empty_input_is_its_own_error() {
    let mut d = Decoder::new();
    let mut v = Recorder::new(Policy::Continue);
    let e = d.finish(&mut v).unwrap_err();
    assert_eq!((e.kind, e.offset), (ErrorKind::Empty, 0));
    assert!(v.events.is_empty());
    assert_eq!(d.error(), Some(e));
}

#[test]
fn a_file_cut_right_after_the_magic_is_truncated() {
    for magic in [b"ANP3", b"ANP2"] {
        let log = log_whole(magic);
        assert_eq!(log, [Ev::error(ErrorKind::Truncated, 0)], "{magic:?}");
        assert_eq!(log_bytewise(magic), log, "{magic:?}");
    }
    // Four bytes of a wrong (binary) magic are enough to tell.
    assert_eq!(log_whole(b"RIF\0"), [Ev::error(ErrorKind::BadMagic, 0)]);
}

/// A file cut inside its magic is a truncated file of that format, not a complete file of
/// another: "A", "AN", "ANP" are what is left of an ANP3/ANP2 file cut after 1 to 3 bytes.
#[test]
fn a_cut_inside_the_magic_is_truncated() {
    for file in [anp3_packed().build(), anp2_all_types().build()] {
        for cut in 1..4 {
            let expected = [Ev::error(ErrorKind::Truncated, 0)];
            assert_eq!(log_whole(&file[..cut]), expected, "{:?}", &file[..cut]);
            assert_eq!(log_bytewise(&file[..cut]), expected, "{:?}", &file[..cut]);
        }
    }
}

#[test]
fn short_input_that_begins_no_format_is_a_bad_magic() {
    for input in [&b"\0"[..], b"\xff\xfe", b"AN\0"] {
        assert_eq!(
            log_whole(input),
            [Ev::error(ErrorKind::BadMagic, 0)],
            "{input:?}"
        );
    }
}
