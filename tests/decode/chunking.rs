//! Chunk-split invariance: however the same bytes are cut into `feed` calls, the decoder reports
//! the same events (one log entry per keyframe), warnings and errors, with the same offsets.
//! Every fixture (valid, sloppy, failing) is decoded whole and checked against the reference
//! decoder, then byte by byte, split in two at every offset, in three at sampled offsets, in
//! fixed-size chunks, and with empty chunks in between.

use gtastream::Decoder;
use testkit::ifp2::*;

#[test]
fn whole_input_matches_the_reference_decoder() {
    for (name, file) in fixtures() {
        let log = log_whole(&file);
        assert_eq!(log, reference(&file).log(), "{name}");
        assert!(
            matches!(log.last(), Some(Ev::End | Ev::Error(..))),
            "{name}: a log ends with end or an error"
        );
    }
}

/// A host that offers each piece to `feed_buffered` first, and to `feed` only when it declines,
/// sees the events of plain `feed` calls on the same pieces; a piece taken is wholly consumed.
#[test]
fn feed_buffered_takes_only_pieces_without_events() {
    fn run(
        file: &[u8],
        piece: usize,
        buffered: bool,
    ) -> (Vec<Ev>, Option<gtastream::Error>, usize) {
        let mut decoder = Decoder::new();
        let mut recorder = Recorder::new(Policy::Continue);
        let mut taken = 0;
        for chunk in file.chunks(piece) {
            if buffered {
                if let Some(progress) = decoder.feed_buffered(chunk) {
                    assert_eq!(progress.consumed, chunk.len());
                    assert_eq!(progress.status, gtastream::Status::NeedInput);
                    taken += 1;
                    continue;
                }
            }
            if let Err(error) = decoder.feed(chunk, &mut recorder) {
                assert_eq!(
                    decoder.feed_buffered(chunk),
                    None,
                    "a stopped decoder takes nothing"
                );
                return (recorder.events, Some(error), taken);
            }
        }
        let end = decoder.finish(&mut recorder).err();
        (recorder.events, end, taken)
    }
    let mut taken = 0;
    for (name, file) in fixtures() {
        for piece in [1, 3, 64] {
            let (events, error, n) = run(&file, piece, true);
            assert_eq!(
                (events, error),
                {
                    let (events, error, _) = run(&file, piece, false);
                    (events, error)
                },
                "{name}: pieces of {piece}"
            );
            taken += n;
        }
    }
    assert!(taken > 0, "some pieces are only buffered");
}

#[test]
fn byte_by_byte_equals_whole() {
    for (name, file) in fixtures() {
        assert_eq!(log_bytewise(&file), log_whole(&file), "{name}");
    }
}

#[test]
fn every_split_in_two_equals_whole() {
    for (name, file) in fixtures() {
        let whole = log_whole(&file);
        let end = reference(&file).content_end();
        for cut in 0..=file.len() {
            let run = decode_chunks(&chunks_at(&file, &[cut]), Policy::Continue);
            assert_eq!(run.events, whole, "{name}: split at {cut}");
            // Done is first reported by the feed whose chunk completes the content.
            let expected_done = end.map(|end| {
                if end <= cut as u64 {
                    cut as u64
                } else {
                    file.len() as u64
                }
            });
            assert_eq!(run.done_at, expected_done, "{name}: split at {cut}");
        }
    }
}

#[test]
fn splits_in_three_equal_whole() {
    let mut rng = Rng::new(0x5eed_0003);
    for (name, file) in fixtures() {
        let whole = log_whole(&file);
        let n = file.len();
        // Structured pairs: both cuts near each other (a unit split twice), then random pairs.
        let mut pairs = Vec::new();
        for a in (0..n).step_by(7) {
            for gap in [0, 1, 2, 5] {
                pairs.push((a, (a + gap).min(n)));
            }
        }
        for _ in 0..300 {
            let a = rng.below(n + 1);
            let b = rng.below(n + 1);
            pairs.push((a.min(b), a.max(b)));
        }
        for (a, b) in pairs {
            assert_eq!(log_split(&file, &[a, b]), whole, "{name}: cuts {a}, {b}");
        }
    }
}

#[test]
fn fixed_size_chunks_equal_whole() {
    for (name, file) in fixtures() {
        let whole = log_whole(&file);
        for size in (2..=80).chain([99, 128, 255, 1000]) {
            let chunks: Vec<&[u8]> = file.chunks(size).collect();
            let run = decode_chunks(&chunks, Policy::Continue);
            assert_eq!(run.events, whole, "{name}: chunks of {size}");
        }
    }
}

#[test]
fn empty_chunks_change_nothing() {
    for (name, file) in fixtures() {
        let whole = log_whole(&file);
        let n = file.len();
        let cuts = [0, 0, n / 3, n / 3, n / 2, n, n];
        assert_eq!(log_split(&file, &cuts), whole, "{name}");
    }
}

#[test]
fn done_is_reported_exactly_when_the_content_is_complete() {
    for (name, file) in fixtures() {
        let run = decode_chunks(&file.chunks(1).collect::<Vec<_>>(), Policy::Continue);
        assert_eq!(run.done_at, reference(&file).content_end(), "{name}");
    }
}

#[test]
fn batches_follow_the_chunking_but_frames_do_not() {
    // Whole input: one batch per bone with frames (time_backwards also splits at each
    // warning). Byte by byte: the frames are gathered across pieces into the same batches,
    // as many as the carry buffer holds. An empty piece delivers what is gathered.
    let file = anp3_packed().build();
    let whole = decode_chunks(&[&file], Policy::Continue);
    assert_eq!(whole.batches, 2);
    let bytewise = decode_chunks(&file.chunks(1).collect::<Vec<_>>(), Policy::Continue);
    assert_eq!(bytewise.batches, 2);
    assert_eq!(whole.events, bytewise.events);
    let mut pieces: Vec<&[u8]> = Vec::new();
    for piece in file.chunks(1) {
        pieces.push(piece);
        pieces.push(&[]);
    }
    let flushed = decode_chunks(&pieces, Policy::Continue);
    assert_eq!(flushed.batches, 5, "one batch per frame");
    assert_eq!(whole.events, flushed.events);

    let file = time_backwards().build();
    let whole = decode_chunks(&[&file], Policy::Continue);
    // 5 bones with frames, 3 of them split in two by their warning.
    assert_eq!(whole.batches, 8);
}

#[test]
fn a_cloned_decoder_continues_like_the_original() {
    for (name, file) in fixtures() {
        let whole = log_whole(&file);
        for cut in (0..=file.len()).step_by(3) {
            let mut d = Decoder::new();
            let mut first = Recorder::new(Policy::Continue);
            let head = d.feed(&file[..cut], &mut first);
            if head.is_err() {
                continue;
            }
            let mut twin = d.clone();
            let mut a = first.continuing(Policy::Continue);
            let mut b = first.continuing(Policy::Continue);
            let ra = d.feed(&file[cut..], &mut a).and_then(|_| d.finish(&mut a));
            let rb = twin
                .feed(&file[cut..], &mut b)
                .and_then(|_| twin.finish(&mut b));
            assert_eq!(ra, rb, "{name}: cut {cut}");
            assert_eq!(a.events, b.events, "{name}: cut {cut}");
            let mut joined = first.events;
            joined.extend(a.events);
            if let Err(e) = ra {
                joined.push(Ev::Error(e.kind, e.offset));
            }
            assert_eq!(joined, whole, "{name}: cut {cut}");
        }
    }
}

/// Every single-byte change to a valid or sloppy file: the decoder agrees with the reference
/// decoder, whole and byte by byte (whatever the change makes of the file: warnings, errors,
/// truncation, different values).
#[test]
fn every_single_byte_change_matches_the_reference() {
    for (name, spec) in valid_specs().into_iter().chain(sloppy_specs()) {
        let file = spec.build();
        for at in 0..file.len() {
            for value in [0x00, 0xFF, file[at] ^ 0x01, file[at].wrapping_add(0x80)] {
                let mut m = file.clone();
                m[at] = value;
                if other_format(&m) {
                    continue;
                }
                let whole = log_whole(&m);
                assert_eq!(
                    whole,
                    reference(&m).log(),
                    "{name}: byte {at} := {value:#x}"
                );
                if at % 5 == 0 {
                    assert_eq!(log_bytewise(&m), whole, "{name}: byte {at} := {value:#x}");
                }
            }
        }
    }
}

/// Random multi-byte mutations and cuts: same agreement, and chunk invariance.
#[test]
fn random_mutations_match_the_reference_and_are_chunk_invariant() {
    let mut rng = Rng::new(0x0bad_f11e);
    let files: Vec<Vec<u8>> = fixtures().into_iter().map(|(_, f)| f).collect();
    for round in 0..3000 {
        let mut m = files[rng.below(files.len())].clone();
        for _ in 0..1 + rng.below(6) {
            let at = rng.below(m.len());
            m[at] = rng.next() as u8;
        }
        if rng.below(4) == 0 {
            m.truncate(rng.below(m.len() + 1));
        }
        // Inputs cut inside the magic: see truncation.rs.
        if other_format(&m) || cut_magic(&m) {
            continue;
        }
        let whole = log_whole(&m);
        assert_eq!(whole, reference(&m).log(), "round {round}: {m:02x?}");
        let cut = rng.below(m.len() + 1);
        assert_eq!(log_split(&m, &[cut]), whole, "round {round}: cut {cut}");
        let size = 1 + rng.below(40);
        let chunks: Vec<&[u8]> = m.chunks(size).collect();
        assert_eq!(
            decode_chunks(&chunks, Policy::Continue).events,
            whole,
            "round {round}: chunks of {size}"
        );
    }
}
