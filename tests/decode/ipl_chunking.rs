//! Chunk-split invariance and pausing for placement files: however the same bytes are cut into
//! `feed` calls, and wherever the visitor pauses, the decoder reports the same events, warnings
//! and errors with the same offsets, and the same seeks. Every binary and text fixture is
//! decoded whole (and checked against the reference decoder), byte by byte, split in two at
//! every offset, in fixed-size chunks, and with a pause after every event.

use gtastream::Options;
use testkit::ipl::*;

fn split_at(k: usize) -> impl Fn(usize) -> usize {
    move |p| if p < k { k } else { usize::MAX }
}

#[test]
fn whole_input_matches_the_reference_decoder() {
    for (name, file) in all_fixtures() {
        let out = drive(&file, &whole, Options::default(), false);
        let reference = reference(&file);
        assert_eq!(out.events, reference.log(), "{name}");
        assert_eq!(
            out.seeks.is_empty(),
            !reference.seeks,
            "{name}: seeks {:?}",
            out.seeks
        );
        assert_eq!(log_slice(&file), out.events, "{name}: decode_slice");
    }
}

#[test]
fn byte_by_byte_equals_whole() {
    for (name, file) in all_fixtures() {
        let whole_out = drive(&file, &whole, Options::default(), false);
        let bytes_out = drive(&file, &bytewise, Options::default(), false);
        assert_eq!(bytes_out.events, whole_out.events, "{name}");
        assert_eq!(bytes_out.seeks, whole_out.seeks, "{name}: seeks");
    }
}

#[test]
fn every_two_way_split_equals_whole() {
    for (name, file) in all_fixtures() {
        let expected = drive(&file, &whole, Options::default(), false);
        for k in 1..file.len() {
            let out = drive(&file, &split_at(k), Options::default(), false);
            assert_eq!(out.events, expected.events, "{name}: split at {k}");
            assert_eq!(out.seeks, expected.seeks, "{name}: split at {k}");
        }
    }
}

#[test]
fn three_way_splits_equal_whole() {
    for (name, file) in all_fixtures() {
        let expected = log(&file);
        let step = (file.len() / 40).max(1);
        for a in (1..file.len()).step_by(step) {
            for b in (a + 1..file.len()).step_by(step + 2) {
                let cuts = move |p: usize| match p {
                    p if p < a => a,
                    p if p < b => b,
                    _ => usize::MAX,
                };
                assert_eq!(
                    drive(&file, &cuts, Options::default(), false).events,
                    expected,
                    "{name}: cut at {a} and {b}"
                );
            }
        }
    }
}

#[test]
fn fixed_chunk_sizes_equal_whole() {
    for (name, file) in all_fixtures() {
        let expected = log(&file);
        for size in [
            2, 3, 4, 5, 7, 13, 39, 40, 41, 47, 48, 64, 75, 76, 77, 255, 256, 257, 1000,
        ] {
            let cuts = move |p: usize| p + size;
            assert_eq!(
                drive(&file, &cuts, Options::default(), false).events,
                expected,
                "{name}: chunks of {size}"
            );
        }
    }
}

#[test]
fn without_seeking_every_cut_gives_the_reference_result() {
    for (name, file) in binary_fixtures() {
        let expected = reference_with(&file, false).log();
        let no_seek = Options {
            can_seek: false,
            ..Options::DEFAULT
        };
        assert_eq!(
            drive(&file, &whole, no_seek, false).events,
            expected,
            "{name}"
        );
        assert_eq!(
            drive(&file, &bytewise, no_seek, false).events,
            expected,
            "{name}"
        );
        for k in (1..file.len()).step_by(7) {
            assert_eq!(
                drive(&file, &split_at(k), no_seek, false).events,
                expected,
                "{name}: split at {k}"
            );
        }
    }
}

#[test]
fn a_pause_after_every_event_reproduces_the_log() {
    let mut checked_positions = 0;
    for (name, file) in all_fixtures() {
        let expected = log(&file);
        let reference = reference(&file);
        let cuts: [(&str, &dyn Fn(usize) -> usize); 3] = [
            ("whole", &whole),
            ("byte by byte", &bytewise),
            ("chunks of 33", &|p| p + 33),
        ];
        for (how, cut) in cuts {
            let out = drive(&file, cut, Options::default(), true);
            assert_eq!(out.events, expected, "{name}, {how}");
            // Every event `feed` reported paused it (those of `finish` cannot); so did each
            // text line without an event (`text_line`), after as many events as came before.
            let before_finish = out.pauses.last().map_or(0, |p| p.0);
            let mut counts: Vec<usize> = out.pauses.iter().map(|p| p.0).collect();
            counts.dedup();
            counts.retain(|&count| count > 0);
            assert_eq!(
                counts,
                (1..=before_finish).collect::<Vec<_>>(),
                "{name}, {how}: one pause per event"
            );
            // A pause after a record or a line leaves the decoder just past it.
            let mut previous = 0;
            for &(count, position) in &out.pauses {
                if count == core::mem::replace(&mut previous, count) {
                    continue;
                }
                let (event, end) = &reference.events[count - 1];
                if let (Ev::Instance(_) | Ev::Car(_) | Ev::Line { .. }, Some(end)) = (event, end) {
                    assert_eq!(
                        position, *end,
                        "{name}, {how}: position after event {count}"
                    );
                    checked_positions += 1;
                }
            }
        }
    }
    assert!(checked_positions > 100, "{checked_positions}");
}

#[test]
fn pausing_at_every_split_point() {
    // Pauses and a cut anywhere: the same log (small fixtures, every split).
    for (name, file) in all_fixtures() {
        if file.len() > 400 {
            continue;
        }
        let expected = log(&file);
        for k in 1..file.len() {
            assert_eq!(
                drive(&file, &split_at(k), Options::default(), true).events,
                expected,
                "{name}: split at {k}"
            );
        }
    }
}
