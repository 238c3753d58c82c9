//! Streaming ANPK (feature `alloc` for the fixtures): every fixture, valid, sloppy or failing,
//! gives the reference decoder's events, warnings and error however it is cut (whole, byte by
//! byte, at every 2-way split, in fixed chunks), when the visitor pauses, and for a caller
//! that cannot seek (ANPK never needs to); every truncation is `Truncated` at the start of the
//! unit containing the cut, unless the content was already complete.
#![cfg(feature = "alloc")]

use gtastream::ErrorKind;
use testkit::anpk::*;
use testkit::anpk_stories::*;

#[test]
fn whole_input_matches_the_reference() {
    for (name, file) in fixtures() {
        let log = log_of(&file, &Feed::Whole);
        assert_eq!(log, anpk_reference(&file).log, "{name}");
        assert!(
            matches!(log.last(), Some(Ev::End | Ev::Error(..))),
            "{name}"
        );
    }
}

#[test]
fn byte_by_byte_and_fixed_chunks_equal_whole() {
    for (name, file) in fixtures() {
        let whole = log_of(&file, &Feed::Whole);
        for n in [1, 2, 3, 7, 64, 4096] {
            assert_eq!(
                log_of(&file, &Feed::Chunk(n)),
                whole,
                "{name}: chunks of {n}"
            );
        }
    }
}

#[test]
fn every_two_way_split_equals_whole() {
    for (name, file) in fixtures() {
        let whole = log_of(&file, &Feed::Whole);
        for cut in 0..=file.len() {
            assert_eq!(
                log_of(&file, &Feed::At(vec![cut])),
                whole,
                "{name}: cut at {cut}"
            );
        }
    }
}

#[test]
fn a_caller_that_cannot_seek_gets_the_same() {
    for (name, file) in fixtures() {
        let run = decode(&file, &Feed::Chunk(5), true, Policy::Continue);
        assert!(run.seeks.is_empty(), "{name}: ANPK is read front to back");
        assert_eq!(log_no_seek(&file, &Feed::Chunk(5)), run.log, "{name}");
    }
}

#[test]
fn every_truncation_is_truncated_at_the_unit_containing_the_cut() {
    // Mismatches are collected so that a failure lists them all.
    let mut wrong = Vec::new();
    let mut checked = 0;
    for (name, file) in fixtures() {
        let full = anpk_reference(&file).log;
        for cut in 0..file.len() {
            let data = &file[..cut];
            let expected = anpk_reference(data).log;
            match (error_of(&full), error_of(&expected)) {
                // Cut before the error of a failing file, or anywhere in a good one: a
                // truncation, unless the content was complete (then trailing bytes, if any, are
                // cut short, and that is all).
                (_, Some((ErrorKind::Truncated, at))) => assert!(at <= cut as u64),
                // Nothing left: the empty input's own error.
                (_, Some((ErrorKind::Empty, 0))) => assert_eq!(cut, 0),
                (Some(e), Some(got)) => assert_eq!(got, e, "{name}: cut {cut}"),
                (_, None) => assert_eq!(expected.last(), Some(&Ev::End)),
                (None, Some(e)) => panic!("{name}: cut {cut}: {e:?}"),
            }
            for feed in [Feed::Whole, Feed::Chunk(1), Feed::Chunk(7)] {
                checked += 1;
                let log = log_of(data, &feed);
                if log != expected {
                    wrong.push(format!(
                        "{name}: cut at {cut} {feed:?}: expected {:?}, got {:?}",
                        expected.last(),
                        log.last()
                    ));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {checked} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

#[test]
fn cuts_after_the_content_are_not_truncations() {
    // `mixed` ends with an object without frames: the content is complete at the end of the
    // file, so zeros after it, cut anywhere, are silent.
    let file = bytes(&mixed());
    let mut padded = file.clone();
    padded.resize(file.len() + 16, 0);
    let expected = log_of(&file, &Feed::Whole);
    for cut in file.len()..=padded.len() {
        assert_eq!(
            log_of(&padded[..cut], &Feed::Chunk(3)),
            expected,
            "cut {cut}"
        );
    }
}

#[test]
fn pause_at_every_event_reproduces_the_log() {
    for (name, file) in fixtures() {
        let expected = log_of(&file, &Feed::Whole);
        for feed in [Feed::Whole, Feed::Chunk(1), Feed::Chunk(7)] {
            let run = decode(&file, &feed, true, Policy::PauseEvery);
            assert_eq!(run.log, expected, "{name} {feed:?}");
            // Every call paused but those `finish` made (it does not honour pauses): `end`,
            // and after an object without frames at the end of the file, the events that
            // wait for the end of the input to know no empty keyframe chunk follows (the
            // object's own, whose unit would hold that chunk, and those after it).
            assert_eq!(run.pauses, run.calls - run.finish_calls, "{name} {feed:?}");
            assert!(run.finish_calls <= 5, "{name} {feed:?}");
        }
    }
}

#[test]
fn pause_at_each_single_event() {
    for (name, file) in fixtures() {
        let expected = log_of(&file, &Feed::Whole);
        for feed in [Feed::Whole, Feed::Chunk(5)] {
            let calls = decode(&file, &feed, true, Policy::Continue).calls;
            for k in 0..calls {
                let run = decode(&file, &feed, true, Policy::PauseAt(k));
                assert_eq!(run.log, expected, "{name}: pause at {k} {feed:?}");
            }
        }
    }
}
