//! Hostile offsets in the formats that reach records through file offsets (Stories `.anim`,
//! binary IPL): past the end, into the header, at themselves, and round in cycles (several
//! pointers at the same bytes, tables pointing back at tables). Each ends in the defined error,
//! warning or event sequence, at the offset docs/FORMATS.md gives; a caller that cannot seek gets
//! `SeekRequired` naming the first offset behind it.

use gtastream::ErrorKind::{CountTooLarge, Malformed, SeekRequired, Truncated};
use gtastream::{Error, ErrorKind};
use testkit::hostile::stories::Layout;
use testkit::hostile::*;

fn stories_fixture() -> Fixture {
    stories(&stories_clips(), Layout::DepthFirst, false, 0)
}

fn patched(bytes: &[u8], patches: &[(u64, u32)]) -> Vec<u8> {
    let mut bytes = bytes.to_vec();
    for &(at, value) in patches {
        put_u32(&mut bytes, at, value);
    }
    bytes
}

/// The error a caller that cannot seek gets.
fn without_seeking(bytes: &[u8]) -> Outcome {
    let (outcome, work) = run(bytes, usize::MAX, false);
    assert_eq!(work.seeks, 0);
    assert_eq!(run(bytes, 1, false).0, outcome, "byte by byte");
    outcome
}

#[track_caller]
fn seek_required(bytes: &[u8], offset: u64) -> Outcome {
    let outcome = without_seeking(bytes);
    let expected = Error {
        kind: SeekRequired,
        offset,
    };
    assert_eq!(outcome.error, Some(expected), "{:#?}", outcome.lines);
    outcome
}

// ------------------------------------------------------------------------------------------
// Stories: the offset table

#[test]
fn stories_pristine_needs_a_seek_back_to_the_offset_table() {
    let f = stories_fixture();
    let out = expect_ok(&f.bytes);
    assert_eq!(out.count("animation_end"), 3);
    // The relocation table, read first, lies at the end: the animations lie behind it.
    let streamed = seek_required(&f.bytes, 0x20);
    assert_eq!(streamed.lines.len(), 1, "only the file event");
}

#[test]
fn stories_entry_past_the_end_ends_the_table() {
    let f = stories_fixture();
    let len = f.bytes.len() as u32;
    for bad in [len, len + 1, u32::MAX] {
        let none = expect_ok(&patched(&f.bytes, &[(0x20, bad)]));
        assert!(none.lines[0].contains("animations=0"), "{bad:#x}");
        let one = expect_ok(&patched(&f.bytes, &[(0x24, bad)]));
        assert!(one.lines[0].contains("animations=1"), "{bad:#x}");
        assert_eq!(one.count("animation_end"), 1);
    }
}

#[test]
fn stories_entry_into_the_header_ends_the_table() {
    let f = stories_fixture();
    for bad in [0, 4, 0x10, 0x1F] {
        let none = expect_ok(&patched(&f.bytes, &[(0x20, bad)]));
        assert!(none.lines[0].contains("animations=0"), "{bad:#x}");
    }
}

#[test]
fn stories_entry_beyond_the_data_is_truncated_there() {
    // A zero entry ends the table; fileEnd says the file goes on for ever.
    let f = stories(&stories_clips(), Layout::DepthFirst, false, 4);
    let far = f.bytes.len() as u32 + 100;
    let bytes = patched(&f.bytes, &[(0x08, u32::MAX), (0x20, far)]);
    let out = expect_error(&bytes, Truncated, far as u64);
    assert_eq!(out.lines.len(), 1, "{:#?}", out.lines);
    assert!(out.lines[0].contains("animations=3"));
}

/// `mina`, one entry at 0x20 pointing at itself: the record is read from the offset table,
/// its bone table pointer (the same word) points at 0x20 too.
fn self_pointing(bones: u16) -> Vec<u8> {
    let mut bytes = vec![0u8; 0x48];
    bytes[..4].copy_from_slice(b"mina");
    put_u32(&mut bytes, 0x20, 0x20);
    put_u16(&mut bytes, 0x20 + 0x1C, bones);
    bytes.extend_from_slice(&0x20u32.to_le_bytes());
    let file_end = bytes.len() as u32;
    put_u32(&mut bytes, 0x08, file_end);
    put_u32(&mut bytes, 0x10, 0x48);
    put_u32(&mut bytes, 0x14, 1);
    bytes
}

#[test]
fn stories_entry_pointing_at_itself() {
    let empty = expect_ok(&self_pointing(0));
    assert_eq!(
        empty.lines,
        [
            "file ANIM name=None animations=1 instances=None cars=None",
            "animation 0 \"\" bones=0 fds=None flags=None duration=Some(0.0)",
            "animation_end",
            "end",
        ]
    );
    // Row 0 is the entry and the next word: flags 0x0020, no keyframes; key = u32 at 0x28.
    let one = expect_ok(&self_pointing(1));
    assert_eq!(
        one.lines[2],
        "bone 0 None id=None key=Some(0) stories_rot frames=0"
    );
    assert_eq!(one.count("bone_end"), 1);
    let streamed = seek_required(&self_pointing(1), 0x20);
    assert_eq!(streamed.lines.len(), 1);
}

#[test]
fn stories_entries_sharing_one_record() {
    let f = stories_fixture();
    let record = f.at("record0") as u32;
    let bytes = patched(&f.bytes, &[(0x24, record), (0x28, record)]);
    let out = expect_ok(&bytes);
    assert_eq!(out.count("animation "), 3);
    // The three animations are the same but for their index.
    let blocks: Vec<Vec<String>> = out
        .lines
        .split(|l| l.starts_with("animation ") || l == "end")
        .skip(1)
        .map(|b| b.to_vec())
        .collect();
    assert_eq!(blocks.len(), 4);
    assert_eq!(blocks[0], blocks[1]);
    assert_eq!(blocks[1], blocks[2]);
}

// ------------------------------------------------------------------------------------------
// Stories: bone tables, keyframes, the relocation table

#[test]
fn stories_bone_table_past_the_end() {
    let f = stories_fixture();
    let record = f.at("record0");
    let out = expect_error(
        &patched(&f.bytes, &[(record, 0xFFFF_FF00)]),
        Truncated,
        0xFFFF_FF00,
    );
    assert_eq!(out.count("animation "), 1);
    assert_eq!(out.count("bone "), 0);
}

#[test]
fn stories_bone_table_in_the_header_or_the_offset_table() {
    let f = stories_fixture();
    let record = f.at("record0");
    // Row 0 at offset 0 has flags "mi" = 0x696D: flag 0x04 is set, which is malformed.
    expect_error(&patched(&f.bytes, &[(record, 0)]), Malformed, 0);
    // Row 0 at the offset table has flags = the low half of entry 0 (0x2C): 0x04 again.
    assert_eq!(get_u32(&f.bytes, 0x20) & 0xFFFF & 0x04, 0x04);
    expect_error(&patched(&f.bytes, &[(record, 0x20)]), Malformed, 0x20);
}

#[test]
fn stories_bone_table_pointing_at_its_own_record() {
    let f = stories_fixture();
    let record = f.at("record0");
    // Row 0 is the record: its flags are the low half of the pointer itself (0x2C), which
    // has flag 0x04.
    assert_eq!(record & 0x04, 0x04);
    expect_error(
        &patched(&f.bytes, &[(record, record as u32)]),
        Malformed,
        record,
    );
    // Pointing 4 bytes into the record instead, row 0 is name bytes ("walk": flags 0x6177,
    // 0x04 set again). 12 bytes in: two rows of zero name bytes and numBones (bones without
    // keyframes), then the record ends (0x24 bytes) and the third row is the real first row.
    expect_error(
        &patched(&f.bytes, &[(record, record as u32 + 4)]),
        Malformed,
        record + 4,
    );
    let out = expect_ok(&patched(&f.bytes, &[(record, record as u32 + 12)]));
    let first: Vec<&String> = out
        .lines
        .iter()
        .take_while(|l| *l != "animation_end")
        .collect();
    assert_eq!(first.iter().filter(|l| l.starts_with("bone ")).count(), 3);
    assert_eq!(first.iter().filter(|l| l.starts_with("key ")).count(), 2);
    let third = first
        .iter()
        .filter(|l| l.starts_with("bone "))
        .nth(2)
        .unwrap();
    assert!(third.ends_with("stories_rot_trans frames=2"), "{third}");
}

#[test]
fn stories_keyframes_past_the_end() {
    let f = stories_fixture();
    let row = f.at("row0.0");
    let out = expect_error(
        &patched(&f.bytes, &[(row + 4, 0xFFFF_FF00)]),
        Truncated,
        0xFFFF_FF00,
    );
    assert_eq!(out.count("bone "), 1);
    assert_eq!(out.count("key "), 0);
}

#[test]
fn stories_keyframes_in_the_header_or_their_own_row() {
    let f = stories_fixture();
    let pristine = expect_ok(&f.bytes);
    let row = f.at("row0.0");
    for target in [0, 0x20, row as u32] {
        let out = expect_ok(&patched(&f.bytes, &[(row + 4, target)]));
        assert_eq!(out.count("key "), pristine.count("key "), "{target:#x}");
        assert_eq!(out.lines.len(), pristine.lines.len(), "{target:#x}");
    }
}

#[test]
fn stories_relocation_table_past_the_end() {
    let f = stories_fixture();
    let out = expect_error(
        &patched(&f.bytes, &[(0x10, 0xFFFF_FF00)]),
        Truncated,
        0xFFFF_FF00,
    );
    assert!(out.lines.is_empty(), "{:#?}", out.lines);
    // So far out that its entries cannot fit below 4 GiB.
    expect_error(
        &patched(&f.bytes, &[(0x10, 0xFFFF_FFF0)]),
        CountTooLarge,
        0x14,
    );
}

#[test]
fn stories_relocation_table_in_the_header() {
    let f = stories_fixture();
    // The header's eight words as the relocation table: none lists 0x20, so no entry counts.
    let none = expect_ok(&patched(&f.bytes, &[(0x10, 0), (0x14, 8)]));
    assert!(none.lines[0].contains("animations=0"));
    // dataEnd (unused by the decoder) = 0x20 lists the first entry.
    let one = expect_ok(&patched(&f.bytes, &[(0x10, 0), (0x14, 8), (0x0C, 0x20)]));
    assert!(one.lines[0].contains("animations=1"));
    assert!(one.lines[1].contains("\"walk\""));
}

// ------------------------------------------------------------------------------------------
// Binary IPL

#[test]
fn bnry_section_past_the_end() {
    let f = bnry(2, 1);
    let len = f.bytes.len() as u32;
    for bad in [len, 0xFFFF_FF00] {
        // Sections are read in file order: the car first, then the instances are missing.
        let out = expect_error(&patched(&f.bytes, &[(0x1C, bad)]), Truncated, bad as u64);
        assert_eq!((out.count("car "), out.count("instance ")), (1, 0));
    }
    // Two instances from 0xFFFFFFF0 cannot fit below 4 GiB: the count is wrong.
    expect_error(
        &patched(&f.bytes, &[(0x1C, 0xFFFF_FFF0)]),
        CountTooLarge,
        0x04,
    );
    let out = expect_error(
        &patched(&f.bytes, &[(0x3C, 0xFFFF_FF00)]),
        Truncated,
        0xFFFF_FF00,
    );
    assert_eq!((out.count("car "), out.count("instance ")), (0, 2));
}

#[test]
fn bnry_section_in_the_header() {
    let f = bnry(2, 1);
    let bytes = patched(&f.bytes, &[(0x1C, 0)]);
    let out = expect_ok(&bytes);
    assert_eq!((out.count("instance "), out.count("car ")), (2, 1));
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    seek_required(&bytes, 0);
}

#[test]
fn bnry_cars_offset_pointing_at_itself() {
    let f = bnry(2, 1);
    let bytes = patched(&f.bytes, &[(0x3C, 0x3C)]);
    let out = expect_ok(&bytes);
    assert!(out.lines[1].starts_with("car "), "{:#?}", out.lines);
    assert_eq!(out.count("instance "), 2);
    // The real car is never read: stale data after the sections.
    assert_eq!(
        out.warnings,
        [("trailing_data", first_nonzero(&f.bytes, f.at("cars")))]
    );
    seek_required(&bytes, 0x3C);
}

#[test]
fn bnry_sections_at_the_same_offset() {
    let f = bnry(2, 1);
    let inst = f.at("inst") as u32;
    let bytes = patched(&f.bytes, &[(0x3C, inst)]);
    let out = expect_ok(&bytes);
    assert_eq!((out.count("instance "), out.count("car ")), (2, 1));
    assert_eq!(
        out.warnings,
        [("trailing_data", first_nonzero(&f.bytes, f.at("cars")))]
    );
    let streamed = seek_required(&bytes, inst as u64);
    assert_eq!(streamed.count("instance "), 2);
}

#[test]
fn bnry_offset_of_an_empty_section_is_never_followed() {
    let f = bnry(2, 1);
    let bytes = patched(&f.bytes, &[(0x14, 0), (0x3C, 0xDEAD_BEEF), (0x40, 0)]);
    let out = expect_ok(&bytes);
    assert_eq!((out.count("instance "), out.count("car ")), (2, 0));
    assert_eq!(
        out.warnings,
        [("trailing_data", first_nonzero(&f.bytes, f.at("cars")))]
    );
    assert_eq!(without_seeking(&bytes), out);
}

#[test]
fn seek_required_is_sticky() {
    let f = bnry(2, 1);
    let bytes = patched(&f.bytes, &[(0x1C, 0)]);
    let out = seek_required(&bytes, 0);
    assert_eq!(out.error.map(|e| e.kind), Some(ErrorKind::SeekRequired));
}
