//! Bounded work: decoding N bytes costs O(N) however large the counts a file declares, and the
//! seeks a Stories or binary IPL file can ask for re-read at most `REREAD_FACTOR` times the
//! input (plus `REREAD_SLACK`): beyond that the decoder stops with `ErrorKind::Limit`.
//!
//! Work is counted in steps, never in time: visitor events (each keyframe counted), bytes the
//! decoder consumed, bytes handed to `feed`, `feed` calls and seeks of a seeking driver
//! (`testkit::hostile::run`, which also checks the re-read bound on every seek it follows and
//! that a `Limit` comes exactly when the next seek would break it).

use gtastream::ErrorKind::{Limit, Truncated};
use gtastream::{REREAD_FACTOR, REREAD_SLACK};
use testkit::hostile::stories::{self as writer, Layout};
use testkit::hostile::*;

const FOUR_GIB: u64 = 1 << 32;

/// The bounds SECURITY.md states, on a run of `len` bytes in chunks of `chunk`.
#[track_caller]
fn check_linear(name: &str, len: usize, chunk: usize, work: &Work) {
    let len = len as u64;
    // The decoder's work: the bytes it parses (skipped bytes cost nothing).
    let parsed_bound = len + REREAD_FACTOR * len + REREAD_SLACK;
    assert!(work.parsed <= parsed_bound, "{name}: {work:?}");
    assert!(work.events <= work.parsed + 16, "{name}: {work:?}");
    // A seek leads to an event, or to a pass over a Stories relocation table; a pass after
    // the first reads at least 512 entries (2 KiB).
    assert!(
        work.seeks <= 2 * work.events + work.parsed / 2048 + 40,
        "{name}: {work:?}"
    );
    // A reader reads what the decoder consumes, and at most a chunk per seek more.
    let chunk = chunk.min(len as usize) as u64;
    assert!(
        work.offered <= work.consumed + (work.seeks + 1) * chunk,
        "{name}: {work:?}"
    );
    assert!(work.feeds <= work.seeks + 1 + work.offered.div_ceil(chunk.max(1)) + 1);
}

/// Decodes in several chunk sizes; checks the bounds; returns the whole run.
fn measure(name: &str, bytes: &[u8]) -> (Outcome, Work) {
    let mut sizes = vec![usize::MAX, 4096];
    if bytes.len() <= 1 << 16 {
        sizes.extend([61, 1]);
    }
    let mut first: Option<(Outcome, Work)> = None;
    for chunk in sizes {
        let (outcome, work) = run(bytes, chunk, true);
        check_linear(name, bytes.len(), chunk, &work);
        match &first {
            None => first = Some((outcome, work)),
            Some((whole, _)) => {
                let same = outcome
                    .lines
                    .iter()
                    .zip(&whole.lines)
                    .take_while(|(a, b)| a == b)
                    .count();
                assert!(
                    outcome == *whole,
                    "{name}: chunks of {chunk} differ after {same} events: {:?} / {:?}",
                    outcome.lines.get(same),
                    whole.lines.get(same)
                );
            }
        }
    }
    first.expect("a run")
}

const DATA: usize = 64 * 1024;

// ------------------------------------------------------------------------------------------
// Huge declared counts, little data

#[test]
fn ifp2_huge_counts() {
    // numAnimations as large as fits, then zeros: empty animations of 36 bytes.
    let mut w = W::default();
    w.bytes(b"ANP3").u32(0).fixed(b"big", 24);
    w.u32(((FOUR_GIB - 36) / 36) as u32);
    w.out.resize(36 + DATA, 0);
    let (out, work) = measure("ANP3 animations", &w.out);
    let whole = (DATA / 36) as u64;
    assert_eq!(out.error.map(|e| e.kind), Some(Truncated));
    assert_eq!(out.error.unwrap().offset, 36 + 36 * whole);
    assert_eq!(work.events, 1 + 2 * whole);

    // numBones as large as fits: bones of type 3 without keyframes.
    let mut w = W::default();
    w.bytes(b"ANP3").u32(0).fixed(b"big", 24).u32(1);
    w.fixed(b"a", 24)
        .u32(((FOUR_GIB - 72) / 36) as u32)
        .u32(0)
        .u32(1);
    let bones = DATA / 36;
    for _ in 0..bones {
        w.fixed(b"b", 24).u32(3).u32(0).i32(-1);
    }
    let (out, work) = measure("ANP3 bones", &w.out);
    assert_eq!(out.error.map(|e| e.kind), Some(Truncated));
    // Every bone after the first repeats its name "b": a warning each.
    assert_eq!(work.events, 2 + 3 * bones as u64 - 1);

    // numFrames as large as fits: 10-byte keyframes.
    let mut w = W::default();
    w.bytes(b"ANP3").u32(0).fixed(b"big", 24).u32(1);
    w.fixed(b"a", 24).u32(1).u32(0).u32(1);
    w.fixed(b"b", 24)
        .u32(3)
        .u32(((FOUR_GIB - 108) / 10) as u32)
        .i32(0);
    w.out.resize(108 + DATA, 0);
    let (out, work) = measure("ANP3 keyframes", &w.out);
    assert_eq!(out.error.map(|e| e.kind), Some(Truncated));
    assert_eq!(out.count("key ") as u64, (DATA / 10) as u64);
    assert!(work.events <= 3 + (DATA / 10) as u64);
}

#[test]
fn anpk_huge_object_count() {
    let mut w = W::default();
    w.bytes(b"ANPK")
        .u32(0)
        .bytes(b"INFO")
        .u32(8)
        .u32(1)
        .bytes(b"big\0");
    w.bytes(b"NAME").u32(2).bytes(b"a\0\0\0");
    w.bytes(b"DGAN").u32(0).bytes(b"INFO").u32(8);
    // As many 60-byte objects as a 4 GiB file could hold.
    w.u32(((FOUR_GIB - w.at() - 8) / 60) as u32).u32(0);
    let objects = DATA / 60;
    for _ in 0..objects {
        w.bytes(b"CPAN").u32(52).bytes(b"ANIM").u32(44);
        w.fixed(b"o", 28).i32(0).i32(0).i32(-1).i32(1);
    }
    let (out, work) = measure("ANPK objects", &w.out);
    assert_eq!(out.error.map(|e| e.kind), Some(Truncated));
    assert_eq!(out.count("bone "), objects);
    // Every object after the first repeats its name "o": a warning each.
    assert_eq!(work.events, 2 + 3 * objects as u64 - 1);
}

#[test]
fn stories_huge_counts() {
    // i16::MAX bones whose rows are zeros (no keyframes), in a short file.
    let mut clips = stories_clips();
    clips.truncate(1);
    let f = stories(&clips, Layout::DepthFirst, false, 0);
    let mut bytes = f.bytes.clone();
    let record = f.at("record0");
    put_u16(&mut bytes, record + 0x1C, 0x7FFF);
    let table = bytes.len() as u32;
    put_u32(&mut bytes, record, table);
    let rows = DATA / 12;
    bytes.resize(bytes.len() + rows * 12, 0);
    let (out, work) = measure("Stories bones", &bytes);
    assert_eq!(out.error.map(|e| e.kind), Some(Truncated));
    assert_eq!(out.count("bone "), rows);
    assert!(work.events <= 4 + 2 * rows as u64);
}

#[test]
fn bnry_huge_counts() {
    let f = bnry(1, 0);
    let mut bytes = f.bytes.clone();
    put_u32(
        &mut bytes,
        0x04,
        ((FOUR_GIB - BNRY_HEADER) / INSTANCE) as u32,
    );
    put_u32(&mut bytes, 0x20, 0);
    bytes.resize(BNRY_HEADER as usize + DATA, 0);
    let (out, work) = measure("bnry instances", &bytes);
    assert_eq!(out.error.map(|e| e.kind), Some(Truncated));
    let whole = (DATA as u64) / INSTANCE;
    assert_eq!(out.count("instance ") as u64, whole);
    assert_eq!(work.events, 1 + whole);
}

#[test]
#[cfg(feature = "ipl-text")]
fn text_many_short_lines() {
    // A section keyword makes it a placement file; the lines after it are outside sections
    // (each a warning, then the line).
    let mut text = b"# many lines\nzone\nend\n".to_vec();
    text.extend(b"x 1\n".repeat(DATA / 4));
    let (out, work) = measure("text lines", &text);
    assert_eq!(out.error, None);
    assert_eq!(out.count("warning line_outside_section"), DATA / 4);
    assert!(work.events <= 2 + 2 * (DATA / 4) as u64);
}

// ------------------------------------------------------------------------------------------
// Stories files that make the decoder revisit bytes

/// A Stories file whose `entries` offset-table entries all point at one record, whose bone
/// table has `rows` rows; `frames(row)` gives each row's keyframe offset (with one key) or
/// `None` (no keyframes).
fn revisiting(entries: u32, rows: u32, frames: impl Fn(u64, u32) -> Option<u32>) -> Vec<u8> {
    let record = 0x20 + 4 * entries as u64;
    let table = record + 0x24;
    let mut bytes = vec![0u8; (table + 12 * rows as u64) as usize];
    bytes[..4].copy_from_slice(b"mina");
    let mut relocs = Vec::new();
    for i in 0..entries as u64 {
        put_u32(&mut bytes, 0x20 + 4 * i, record as u32);
        relocs.push(0x20 + 4 * i as u32);
    }
    put_u32(&mut bytes, record, table as u32);
    relocs.push(record as u32);
    bytes[record as usize + 4..record as usize + 8].copy_from_slice(b"same");
    put_u16(&mut bytes, record + 0x1C, rows as u16);
    for r in 0..rows {
        let at = table + 12 * r as u64;
        put_u16(&mut bytes, at, 0x01);
        if let Some(offset) = frames(table, r) {
            put_u16(&mut bytes, at + 2, 1);
            put_u32(&mut bytes, at + 4, offset);
            relocs.push(at as u32 + 4);
        }
        put_u32(&mut bytes, at + 8, r);
    }
    let reloc_at = bytes.len() as u32;
    for r in &relocs {
        bytes.extend_from_slice(&r.to_le_bytes());
    }
    let file_end = bytes.len() as u32;
    put_u32(&mut bytes, 0x08, file_end);
    put_u32(&mut bytes, 0x0C, reloc_at);
    put_u32(&mut bytes, 0x10, reloc_at);
    put_u32(&mut bytes, 0x14, relocs.len() as u32);
    bytes
}

#[test]
fn many_animations_sharing_one_huge_bone_table_stop_at_the_bound() {
    // Every animation re-reads the whole table: ~390 KB each.
    let few = revisiting(4, 0x7FFF, |_, _| None);
    let (out, work) = measure("shared table, 4 animations", &few);
    assert_eq!(out.error, None);
    eprintln!(
        "shared table, 4 animations: re-read ratio {:.1}",
        work.reread_ratio(few.len())
    );
    let many = revisiting(200, 0x7FFF, |_, _| None);
    let (out, work) = measure("shared table, 200 animations", &many);
    assert_eq!(out.error.map(|e| e.kind), Some(Limit));
    let done = out.count("animation_end");
    eprintln!(
        "shared table, 200 animations: Limit after {done}, parsed {} bytes of {}",
        work.parsed,
        many.len()
    );
    assert!((1..200).contains(&done));
    // The refusal came at the seek back to the next entry of the offset table.
    let offset = out.error.unwrap().offset;
    assert_eq!(offset, 0x20 + 4 * done as u64);
    assert!(work.parsed > REREAD_FACTOR * work.furthest + REREAD_SLACK);
}

#[test]
fn rows_pointing_back_at_their_table_cost_what_they_parse() {
    // Each row's keyframes lie at the start of the table, behind the row: every bone seeks
    // back to them and ahead to the next row, but parses only its row and its keyframes.
    let rows = 0x7FFF;
    let bytes = revisiting(1, rows, |table, _| Some(table as u32));
    let (out, work) = measure("rows pointing back", &bytes);
    assert_eq!(out.error, None);
    assert_eq!(out.count("bone_end") as u64, rows as u64);
    eprintln!(
        "rows pointing back: {rows} rows, {} seeks, parsed {} bytes of {}",
        work.seeks,
        work.parsed,
        bytes.len()
    );
    assert!(work.parsed <= 2 * bytes.len() as u64, "{work:?}");
    // Keyframes at the header, behind everything: the same.
    let bytes = revisiting(1, rows, |_, _| Some(0));
    let (out, work) = measure("rows pointing at the header", &bytes);
    assert_eq!(out.error, None);
    assert!(work.parsed <= 2 * bytes.len() as u64, "{work:?}");
}

/// Real-shaped Stories content in the three layouts: measured re-read ratios (all printed
/// before any is checked).
fn real_shaped(clips: usize, bones: usize, keys: usize, limit: f64) {
    let mut failures = Vec::new();
    for layout in [Layout::DepthFirst, Layout::Grouped, Layout::Backward] {
        let written = writer::write_placed(&writer::shaped(clips, bones, keys), layout, true, 0);
        let name = format!("{clips}x{bones}x{keys} {layout:?}");
        let (out, work) = run(&written.bytes, 4096, true);
        check_linear(&name, written.bytes.len(), 4096, &work);
        let ratio = work.reread_ratio(written.bytes.len());
        eprintln!(
            "{name}: {} bytes, {} seeks, re-read ratio {ratio:.2} (bound {REREAD_FACTOR}), {:?}",
            written.bytes.len(),
            work.seeks,
            out.error
        );
        if out.error.is_some() || out.count("animation_end") != clips || ratio >= limit {
            failures.push(format!("{name}: ratio {ratio:.2}, {:?}", out.error));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn small_real_shaped_stories_files_stay_below_the_bound() {
    real_shaped(3, 4, 3, 8.0);
}

/// A typical package: 20 animations of 20 bones of 20 keyframes, 69 KB, and a larger one:
/// each bone seeks from its row to its keyframes and back, each animation back to the offset
/// table, yet the bytes parsed stay close to the file's size.
#[test]
fn real_shaped_stories_files_stay_far_below_the_bound() {
    real_shaped(20, 20, 20, REREAD_FACTOR as f64 / 8.0);
    real_shaped(128, 32, 30, REREAD_FACTOR as f64 / 8.0);
}

/// The offset table's end is checked against the relocation table 512 entries per pass.
#[test]
fn a_long_offset_table_takes_bounded_relocation_passes() {
    // 520 entries: two passes, then every animation.
    let two = revisiting(520, 0, |_, _| None);
    let (out, work) = measure("520 entries", &two);
    assert_eq!(out.error, None);
    assert_eq!(out.count("animation_end"), 520);
    eprintln!(
        "520 entries: {} seeks, re-read ratio {:.1}",
        work.seeks,
        work.reread_ratio(two.len())
    );
    // 70 000 entries: 137 passes over a 280 KB relocation table would re-read 38 MB; the
    // bound refuses a pass seek first, before any event.
    let many = revisiting(70_000, 0, |_, _| None);
    let reloc_at = get_u32(&many, 0x10) as u64;
    let (out, work) = measure("70000 entries", &many);
    assert_eq!(
        out.error,
        Some(gtastream::Error {
            kind: Limit,
            offset: reloc_at
        })
    );
    assert!(out.lines.is_empty(), "{:?}", &out.lines[..3]);
    assert!(work.seeks > 100, "{work:?}");
}
