//! The end of the Stories offset table (docs/FORMATS.md §3): its length is not stored; it ends at the
//! first zero entry, entry outside `[0x20, fileEnd)`, position not listed in the relocation
//! table, or position where the lowest animation seen so far begins. Each rule is exercised
//! where the others would let the table go on, with the count worked out by hand, and the
//! whole log compared with the reference decoder.

use gtastream::{ErrorKind, Format};
use testkit::anpk_stories::*;
use testkit::stories::*;

fn feeds() -> [Feed; 4] {
    [Feed::Whole, Feed::Chunk(1), Feed::Chunk(7), Feed::Chunk(64)]
}

/// Decodes `file` every way, checks it against the reference, and that the table holds
/// `animations` entries. Returns the log.
fn check(what: &str, file: &[u8], animations: u32) -> Vec<Ev> {
    let r = stories_reference(file);
    let expected = r.log();
    assert_eq!(
        expected[0],
        Ev::File {
            format: Format::Anim,
            name: None,
            animation_count: animations,
            instance_count: None,
            car_count: None,
        },
        "{what}: the reference"
    );
    for feed in feeds() {
        let run = decode(file, &feed, true, Policy::Continue);
        assert_eq!(run.log, expected, "{what} {feed:?}");
        assert_eq!(run.seeks, r.seeks(), "{what} {feed:?}");
        assert_eq!(
            log_no_seek(file, &feed),
            r.no_seek_log(),
            "{what} {feed:?}: without seeking"
        );
    }
    expected
}

fn table_entry(file: &[u8], i: u64) -> u32 {
    get_u32(file, 0x20 + 4 * i)
}

/// The sample (4 animations) laid out grouped with 8 bytes of padding after the table, whose
/// two padding words (at 0x30 and 0x34) are listed in the relocation table, so that only their
/// values can end the table there.
fn padded_with_listed_padding(first: u32, second: u32) -> Vec<u8> {
    let mut file = write(&sample(), Layout::Grouped, false, 8);
    put_u32(&mut file, 0x30, first);
    put_u32(&mut file, 0x34, second);
    add_relocs(&mut file, &[0x30, 0x34]);
    file
}

#[test]
fn a_zero_entry_ends_the_table() {
    let plain = log_of(&write(&sample(), Layout::Grouped, false, 0), &Feed::Whole);
    let file = padded_with_listed_padding(0, 0);
    let log = check("zero", &file, 4);
    assert_eq!(without_warnings(&log), without_warnings(&plain));
    // A zero entry ends it even when a valid, listed offset follows.
    let record = table_entry(&file, 0);
    let file = padded_with_listed_padding(0, record);
    check("zero, then a record", &file, 4);
}

#[test]
fn an_entry_outside_the_file_ends_the_table() {
    let file = padded_with_listed_padding(0, 0);
    let file_end = get_u32(&file, 0x08);
    let record = table_entry(&file, 0);
    // Each followed by a valid, listed offset that would be a fifth animation.
    for bad in [file_end, file_end + 1, 0xFFFF_FFFF, 0x1F, 0x10, 0x01] {
        let file = padded_with_listed_padding(bad, record);
        assert_eq!(get_u32(&file, 0x08), file_end);
        check(&format!("entry {bad:#x}"), &file, 4);
    }
}

#[test]
fn an_entry_inside_the_file_and_listed_is_an_animation() {
    // The counter-check: the same place holding a record offset makes a fifth animation, the
    // same as the first but for its index.
    let probe = padded_with_listed_padding(0, 0);
    let record = table_entry(&probe, 0);
    let file = padded_with_listed_padding(record, 0);
    let log = check("a copy of the first", &file, 5);
    let animations: Vec<Vec<Ev>> = split_animations(&log);
    assert_eq!(animations.len(), 5);
    let renumbered: Vec<Ev> = animations[4]
        .iter()
        .cloned()
        .map(|e| match e {
            Ev::Animation {
                name,
                bone_count: bones,
                frame_data_size,
                flags,
                duration,
                ..
            } => Ev::Animation {
                index: 0,
                name,
                bone_count: bones,
                frame_data_size,
                flags,
                duration,
            },
            e => e,
        })
        .collect();
    assert_eq!(renumbered, animations[0]);
}

/// The events of each animation, from its `Animation` event to its `AnimationEnd`.
fn split_animations(log: &[Ev]) -> Vec<Vec<Ev>> {
    let mut out = Vec::new();
    for e in log {
        match e {
            Ev::Animation { .. } => out.push(vec![e.clone()]),
            _ => {
                if let Some(last) = out.last_mut() {
                    if last.last() != Some(&Ev::AnimationEnd) {
                        last.push(e.clone());
                    }
                }
            }
        }
    }
    out
}

#[test]
fn the_table_ends_where_the_first_animation_begins() {
    // Depth first without padding: the first record follows the table at 0x30, and its first
    // field (the bone table offset) is a valid offset the relocation table lists.
    let file = write(&sample(), Layout::DepthFirst, false, 0);
    assert_eq!(table_entry(&file, 0), 0x30);
    let listed = relocs(&file);
    assert!(listed.contains(&0x30));
    let boné_table = get_u32(&file, 0x30);
    assert!((0x20..get_u32(&file, 0x08)).contains(&boné_table));
    check("depth first", &file, 4);
    // The lowest record may come last in the table.
    let mut swapped = file.clone();
    let (a, b) = (table_entry(&file, 0), table_entry(&file, 3));
    put_u32(&mut swapped, 0x20, b);
    put_u32(&mut swapped, 0x2C, a);
    let log = check("lowest last", &swapped, 4);
    let names: Vec<&[u8]> = log
        .iter()
        .filter_map(|e| match e {
            Ev::Animation { name, .. } => Some(name.as_slice()),
            _ => None,
        })
        .collect();
    assert_eq!(
        names,
        [
            &b"idle"[..],
            b"abcdefghijklmnopqrstuvwx",
            b"empty",
            b"walk_player"
        ]
    );
}

#[test]
fn an_entry_pointing_into_the_table_ends_it_there() {
    // Entry 1 points at 0x28, the position of entry 2: the table ends at 0x28 (two entries),
    // and the second "record" is read from there, whatever it holds.
    let mut file = write(&sample(), Layout::DepthFirst, false, 0);
    put_u32(&mut file, 0x24, 0x28);
    check("entry 1 = 0x28", &file, 2);
}

/// The relocation table's entries.
fn relocs(file: &[u8]) -> Vec<u32> {
    let (at, n) = (get_u32(file, 0x10), get_u32(file, 0x14));
    (0..n)
        .map(|i| get_u32(file, u64::from(at + 4 * i)))
        .collect()
}

/// Two animations laid out backwards without padding, so that the keyframes of the last one
/// follow the table at 0x28. Those keyframes are subnormal halves chosen so that, read as
/// u32, they are the offsets 0x40, 0x44, 0x48, 0x4C (twice): valid-looking entries. The
/// lowest of them, 0x40, ends the table at position 0x40 (8 entries), and only the relocation
/// table tells that it ends at 0x28.
fn looks_like_offsets() -> Vec<u8> {
    let tricky = Frame {
        rotation: [0x0040, 0, 0x0044, 0],
        dt: 0x0048,
        translation: Some([0, 0x004C, 0]),
    };
    let anims = vec![
        Anim {
            name: "first",
            duration: 1.0,
            bones: vec![BoneRow {
                flags: 0x01,
                key: 1,
                frames: vec![frame([0.0, 0.0, 0.0, 1.0], 0.0, None)],
                garbage_offset: 0,
            }],
        },
        Anim {
            name: "second",
            duration: 1.0,
            bones: vec![BoneRow {
                flags: 0x03,
                key: 2,
                frames: vec![tricky.clone(), tricky],
                garbage_offset: 0,
            }],
        },
    ];
    let file = write(&anims, Layout::Backward, false, 0);
    let words: Vec<u32> = (0..8).map(|i| get_u32(&file, 0x28 + 4 * i)).collect();
    assert_eq!(words, [0x40, 0x44, 0x48, 0x4C, 0x40, 0x44, 0x48, 0x4C]);
    file
}

#[test]
fn a_position_the_relocation_table_does_not_list_ends_the_table() {
    let file = looks_like_offsets();
    let log = check("keyframes after the table", &file, 2);
    assert_eq!(log.last(), Some(&Ev::End));
    assert!(
        stories_reference(&file).cut_by_relocations,
        "the test needs the relocation rule"
    );
    // One pass over the relocation table finds the end; without seeking, going back to the
    // first table entry is the first seek.
    assert_eq!(
        log_no_seek(&file, &Feed::Whole),
        [
            Ev::File {
                format: Format::Anim,
                name: None,
                animation_count: 2,
                instance_count: None,
                car_count: None,
            },
            Ev::Error(ErrorKind::SeekRequired, 0x20)
        ]
    );
}

#[test]
fn the_first_unlisted_position_ends_the_table_even_if_later_ones_are_listed() {
    let mut file = looks_like_offsets();
    add_relocs(&mut file, &[0x2C, 0x30, 0x34]);
    check("0x28 unlisted, 0x2C.. listed", &file, 2);
}

#[test]
fn listed_positions_are_entries_even_where_keyframes_lie() {
    // Listing 0x28 and 0x2C (out of order, at the end of the relocation table) makes them
    // entries: the table ends at 0x30, the first position not listed.
    let mut file = looks_like_offsets();
    add_relocs(&mut file, &[0x2C, 0x28]);
    check("0x28, 0x2C listed", &file, 4);
}

#[test]
fn a_position_listed_twice_does_not_list_another() {
    // The relocation table lists 0x20 seven times and 0x24 once, not 0x28..0x3C: the table
    // still ends at 0x28 (counting listed entries would find 8 in the 8 positions).
    let mut file = looks_like_offsets();
    add_relocs(&mut file, &[0x20; 6]);
    check("duplicates of 0x20", &file, 2);
}

#[test]
fn no_relocation_table_means_no_animations() {
    let mut file = write(&sample(), Layout::DepthFirst, false, 0);
    put_u32(&mut file, 0x14, 0);
    let log = check("numRelocs 0", &file, 0);
    assert_eq!(log.len(), 2, "{log:?}");
}

#[test]
fn a_table_cut_short_by_the_file_end() {
    // fileEnd at 0x28: only 0x20 may hold an entry, and an entry must lie below 0x28; the
    // first entry (the record at 0x30) is outside, so there is no animation. Everything past
    // fileEnd is trailing data.
    let mut file = write(&sample(), Layout::DepthFirst, false, 0);
    put_u32(&mut file, 0x08, 0x28);
    let log = check("fileEnd 0x28", &file, 0);
    assert!(
        matches!(log[1], Ev::Warning(gtastream::WarningKind::TrailingData, _)),
        "{log:?}"
    );
}
