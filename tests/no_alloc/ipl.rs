//! Decoding placement files never allocates: the kit's counting allocator counts every allocation, reallocation and free made on the decoding thread while
//! `feed`, `finish` and `decode_slice` run over every binary and text fixture — whole, in small
//! chunks, with pauses, following seeks, and on the error paths.

use std::hint::black_box;

use gtastream::{Decoder, FileInfo, Flow, Options, Record, Status, Visitor, Warning};
use testkit::ipl::{all_fixtures, reference, reference_with, Ev};

/// Runs `f` and returns how many allocator calls it made on this thread.
fn allocator_calls(f: impl FnOnce()) -> u64 {
    testkit::alloc_count::allocations(f).0 as u64
}

/// Reads every value of every event without allocating.
#[derive(Default)]
struct Tally {
    events: u32,
    records: u32,
    warnings: u32,
    ended: bool,
    pause: bool,
    sum: f64,
}

impl Tally {
    fn flow(&self) -> Flow {
        if self.pause {
            Flow::Pause
        } else {
            Flow::Continue
        }
    }
}

impl Visitor for Tally {
    fn file(&mut self, info: &FileInfo<'_>) -> Flow {
        self.events += 1;
        self.sum += f64::from(info.instance_count.unwrap_or(0) % 1000);
        self.flow()
    }
    fn record(&mut self, record: &Record<'_>) -> Flow {
        match record {
            Record::Instance(i) => {
                self.events += 1;
                self.records += 1;
                let floats = i
                    .position
                    .iter()
                    .chain(&i.rotation)
                    .chain(i.scale.iter().flatten());
                self.sum += floats
                    .map(|&v| f64::from(v))
                    .filter(|v| v.is_finite())
                    .sum::<f64>();
                self.sum += f64::from(i.model_id) + f64::from(i.interior) + f64::from(i.lod);
                self.sum += i.model_name.map_or(0, <[u8]>::len) as f64;
                self.flow()
            }
            Record::Car(c) => {
                self.events += 1;
                self.records += 1;
                self.sum += f64::from(c.position[0]) + f64::from(c.angle) + f64::from(c.max_delay);
                self.flow()
            }
            Record::SectionLine(line) => {
                self.events += 1;
                self.records += 1;
                self.sum += line.fields().map(<[u8]>::len).sum::<usize>() as f64;
                self.sum += line.section.len() as f64 + line.text.len() as f64;
                self.flow()
            }
            _ => Flow::Continue,
        }
    }
    fn warning(&mut self, w: Warning) -> Flow {
        self.events += 1;
        self.warnings += 1;
        self.sum += w.offset as f64 + w.kind.name().len() as f64;
        self.flow()
    }
    fn end(&mut self) -> Flow {
        self.ended = true;
        Flow::Continue
    }
}

/// Feeds `data` in chunks of `chunk` bytes: re-feeds after pauses, follows seeks (or not),
/// goes on after `Done`, finishes. Returns whether it ended cleanly.
fn feed_all(decoder: &mut Decoder, data: &[u8], chunk: usize, tally: &mut Tally) -> bool {
    let mut pos = 0;
    while pos < data.len() {
        let end = pos.saturating_add(chunk).min(data.len());
        let mut piece = &data[pos..end];
        pos = end;
        loop {
            match decoder.feed(piece, tally) {
                Err(_) => return false,
                Ok(p) => match p.status {
                    Status::Paused => piece = &piece[p.consumed..],
                    Status::Seek(to) => {
                        pos = to as usize;
                        break;
                    }
                    Status::NeedInput | Status::Done => break,
                },
            }
        }
    }
    decoder.finish(tally).is_ok()
}

/// Records, warnings and whether the reference decoder ends cleanly.
fn expected(file: &[u8], can_seek: bool) -> (u32, u32, bool) {
    let log = if can_seek {
        reference(file)
    } else {
        reference_with(file, false)
    }
    .log();
    let records = log
        .iter()
        .filter(|e| matches!(e, Ev::Instance(_) | Ev::Car(_) | Ev::Line { .. }))
        .count() as u32;
    let warnings = log.iter().filter(|e| matches!(e, Ev::Warning(..))).count() as u32;
    (records, warnings, log.last() == Some(&Ev::End))
}

#[test]
fn the_counter_counts() {
    let calls = allocator_calls(|| {
        let v = black_box(vec![black_box(1u8); 100]);
        drop(v);
    });
    assert_eq!(calls, 2, "one allocation and one free");
}

#[test]
fn feeding_allocates_nothing() {
    let fixtures = all_fixtures();
    let mut runs = 0;
    for (name, file) in &fixtures {
        for can_seek in [true, false] {
            let want = expected(file, can_seek);
            for chunk in [usize::MAX, 1, 2, 7, 64] {
                for pause in [false, true] {
                    let mut decoder = Decoder::with_options(Options {
                        can_seek,
                        ..Options::DEFAULT
                    });
                    let mut tally = Tally {
                        pause,
                        ..Tally::default()
                    };
                    let mut clean = false;
                    let calls = allocator_calls(|| {
                        clean = feed_all(&mut decoder, file, chunk, &mut tally);
                    });
                    assert_eq!(calls, 0, "{name}: chunks of {chunk}, pause {pause}");
                    // The decoder did the work (what it reported, chunk by chunk, is the
                    // business of ipl_chunking.rs).
                    if chunk == usize::MAX {
                        assert_eq!(
                            (tally.records, tally.warnings, clean),
                            want,
                            "{name}: pause {pause}, can_seek {can_seek}"
                        );
                    }
                    assert_eq!(tally.ended, clean);
                    black_box((tally.sum, tally.events));
                    runs += 1;
                }
            }
        }
    }
    assert!(runs > 300);
}

#[test]
fn decode_slice_allocates_nothing() {
    for (name, file) in all_fixtures() {
        let mut decoder = Decoder::new();
        let mut tally = Tally::default();
        let mut result = Ok(());
        let calls = allocator_calls(|| result = decoder.decode_slice(&file, &mut tally));
        assert_eq!(calls, 0, "{name}");
        let (records, warnings, clean) = expected(&file, true);
        assert_eq!(
            (tally.records, tally.warnings, result.is_ok()),
            (records, warnings, clean)
        );
        black_box(tally.sum);
    }
}

#[test]
fn errors_allocate_nothing() {
    // Every error path: bad magic, empty input, a line too long, a malformed line, a count too
    // large, a seek refused, a truncated record, a visitor's abort, and the sticky errors after.
    let long_line = [b'x'; 300];
    let mut count_too_large = testkit::ipl::vanilla();
    count_too_large[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
    let overlapping = testkit::ipl::bnry(
        &testkit::ipl::samples_inst(3),
        76,
        &testkit::ipl::samples_car(1),
        100,
    );
    let cases: [(&[u8], bool); 8] = [
        (b"\x80bad", true),
        (b"", true),
        (&long_line, true),
        (&b"not a placement file\n"[..], true),
        (b"inst\n1 a 0 0 0 0 0 0 0 1\n22222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222\n", true),
        (&count_too_large, true),
        (&overlapping, false),
        (&overlapping[..150], true),
    ];
    for (file, can_seek) in cases {
        let mut decoder = Decoder::with_options(Options {
            can_seek,
            ..Options::DEFAULT
        });
        let mut tally = Tally::default();
        let mut results = (true, true, true);
        let calls = allocator_calls(|| {
            results.0 = feed_all(&mut decoder, file, 5, &mut tally);
            results.1 = decoder.feed(b"more", &mut tally).is_ok();
            results.2 = decoder.finish(&mut tally).is_ok();
            black_box(
                decoder
                    .error()
                    .map(|e| (e.kind.name(), e.kind.reason(), e.offset)),
            );
        });
        assert_eq!(calls, 0, "{file:?}");
        assert_eq!(results, (false, false, false), "{file:?}");
    }

    struct Abort;
    impl Visitor for Abort {
        fn record(&mut self, record: &Record<'_>) -> Flow {
            match record {
                Record::Instance(_) => Flow::Abort,
                _ => Flow::Continue,
            }
        }
    }
    let file = testkit::ipl::vanilla();
    let mut decoder = Decoder::new();
    let mut result = Ok(());
    let calls = allocator_calls(|| result = decoder.decode_slice(&file, &mut Abort));
    assert_eq!(calls, 0);
    assert_eq!(
        result.map_err(|e| (e.kind, e.offset)),
        Err((gtastream::ErrorKind::Aborted, 76))
    );
}
