//! Pause and resume: a visitor that pauses makes `feed` return at once with the bytes used so
//! far; feeding the unconsumed rest resumes exactly there, and the events come out as if no
//! pause had happened.

use gtastream::{Decoder, ErrorKind, Status};
use testkit::ifp2::*;

/// Whether a log ended cleanly (then its last call, `end`, came from `finish`, which does not
/// honour pauses).
fn ended(log: &[Ev]) -> bool {
    log.last() == Some(&Ev::End)
}

#[test]
fn pause_at_each_event_reproduces_the_log() {
    for (name, file) in fixtures() {
        let plain = decode_chunks(&[&file], Policy::Continue);
        let in_feed = plain.calls - usize::from(ended(&plain.events));
        for k in 0..=plain.calls {
            let run = decode_chunks(&[&file], Policy::PauseAt(k));
            assert_eq!(run.events, plain.events, "{name}: pause at call {k}");
            assert_eq!(
                run.pauses,
                usize::from(k < in_feed),
                "{name}: pause at call {k}"
            );
        }
    }
}

#[test]
fn pause_at_each_event_while_fed_in_pieces() {
    for (name, file) in fixtures() {
        let expected = log_whole(&file);
        for chunking in [1, 5, 13] {
            let chunks: Vec<&[u8]> = file.chunks(chunking).collect();
            let plain = decode_chunks(&chunks, Policy::Continue);
            for k in 0..=plain.calls {
                let run = decode_chunks(&chunks, Policy::PauseAt(k));
                assert_eq!(
                    run.events, expected,
                    "{name}: chunks of {chunking}, pause at call {k}"
                );
            }
        }
    }
}

#[test]
fn pause_at_every_event() {
    for (name, file) in fixtures() {
        let expected = log_whole(&file);
        let run = decode_chunks(&[&file], Policy::PauseEvery);
        assert_eq!(run.events, expected, "{name}");
        // Every call but `end` (in finish) paused.
        assert_eq!(
            run.pauses,
            run.calls - usize::from(ended(&expected)),
            "{name}"
        );
        let chunks: Vec<&[u8]> = file.chunks(1).collect();
        assert_eq!(
            decode_chunks(&chunks, Policy::PauseEvery).events,
            expected,
            "{name}"
        );
        let chunks: Vec<&[u8]> = file.chunks(9).collect();
        assert_eq!(
            decode_chunks(&chunks, Policy::PauseEvery).events,
            expected,
            "{name}"
        );
    }
}

/// A caller that always feeds from the decoder's position: after a pause, the unconsumed rest
/// and the bytes after it come in one slice of up to `chunk` bytes.
fn decode_from_position(data: &[u8], chunk: usize, policy: Policy) -> Vec<Ev> {
    let mut d = Decoder::new();
    let mut v = Recorder::new(policy);
    let mut pos = 0;
    let mut steps = 0;
    loop {
        steps += 1;
        assert!(steps < 1_000_000, "no progress");
        let end = (pos + chunk).min(data.len());
        match d.feed(&data[pos..end], &mut v) {
            Err(e) => {
                v.events.push(Ev::Error(e.kind, e.offset));
                return v.events;
            }
            Ok(p) => {
                assert!(
                    !matches!(p.status, Status::Seek(_)),
                    "IFP2 input never asks to seek"
                );
                pos += p.consumed;
                assert_eq!(d.position(), pos as u64);
                if pos == data.len() && p.status != Status::Paused {
                    break;
                }
            }
        }
    }
    if let Err(e) = d.finish(&mut v) {
        v.events.push(Ev::Error(e.kind, e.offset));
    }
    v.events
}

#[test]
fn resuming_with_the_rest_and_more_in_one_slice() {
    for (name, file) in fixtures() {
        let expected = log_whole(&file);
        for chunk in [1, 2, 3, 10, 16, 37, 100, 10_000] {
            assert_eq!(
                decode_from_position(&file, chunk, Policy::PauseEvery),
                expected,
                "{name}: chunk {chunk}"
            );
            for k in [0, 1, 2, 3, 5, 8] {
                assert_eq!(
                    decode_from_position(&file, chunk, Policy::PauseAt(k)),
                    expected,
                    "{name}: chunk {chunk}, pause at {k}"
                );
            }
        }
    }
}

#[test]
fn consumed_stops_right_after_the_pausing_unit() {
    // anp3_packed, whole: calls and where the input stands after each — file header ends at
    // 36, animation header 72, bone header 108, its frames 156, bone end 156, second bone
    // header 192, its frames 212, bone end 212, animation end 212.
    let file = anp3_packed().build();
    for (k, at) in [36, 72, 108, 156, 156, 192, 212, 212, 212]
        .into_iter()
        .enumerate()
    {
        let mut d = Decoder::new();
        let mut v = Recorder::new(Policy::PauseAt(k));
        let p = d.feed(&file, &mut v).unwrap();
        assert_eq!(
            (p.status, p.consumed),
            (Status::Paused, at),
            "pause at call {k}"
        );
        assert_eq!(d.position(), at as u64);
        assert_eq!(v.calls, k + 1, "no call after the pause");
    }
}

#[test]
fn pausing_at_a_time_warning_leaves_the_frame_unconsumed() {
    // time_backwards: call 4 is the warning for the frame at 128, which is not consumed yet.
    let file = time_backwards().build();
    let mut d = Decoder::new();
    let mut v = Recorder::new(Policy::PauseAt(4));
    let p = d.feed(&file, &mut v).unwrap();
    assert_eq!((p.status, p.consumed), (Status::Paused, 128));
    assert_eq!(
        v.events.last(),
        Some(&Ev::warning(gtastream::WarningKind::TimeBackwards, 128))
    );
    // Resuming delivers that frame next, and no second warning.
    let before = v.events.len();
    d.feed(&file[128..], &mut v).unwrap();
    d.finish(&mut v).unwrap();
    assert!(matches!(&v.events[before], Ev::Frame { bytes, .. } if bytes[..] == file[128..138]));
    assert_eq!(v.events, log_whole(&file));
}

#[test]
fn finish_completes_the_zero_byte_steps_after_a_pause() {
    // Pausing at the last bone end consumes everything; finish may be called right away and
    // reports the animation end and the end.
    let file = anp3_packed().build();
    let mut d = Decoder::new();
    let mut v = Recorder::new(Policy::PauseAt(7));
    let p = d.feed(&file, &mut v).unwrap();
    assert_eq!((p.status, p.consumed), (Status::Paused, file.len()));
    d.finish(&mut v).unwrap();
    assert_eq!(v.events, log_whole(&file));
}

#[test]
fn finish_does_not_honour_pauses() {
    let file = anp3_packed().build();
    // Pause at every call; the bone end (call 7) leaves the animation end and the end to
    // finish, which runs both despite the pauses.
    let mut d = Decoder::new();
    let mut v = Recorder::new(Policy::PauseEvery);
    let mut rest: &[u8] = &file;
    for _ in 0..8 {
        let p = d.feed(rest, &mut v).unwrap();
        assert_eq!(p.status, Status::Paused);
        rest = &rest[p.consumed..];
    }
    assert!(rest.is_empty());
    d.finish(&mut v).unwrap();
    assert_eq!(v.events, log_whole(&file));
}

#[test]
fn finishing_without_feeding_the_rest_is_a_truncation() {
    let file = anp3_packed().build();
    let mut d = Decoder::new();
    let mut v = Recorder::new(Policy::PauseAt(1));
    let p = d.feed(&file, &mut v).unwrap();
    assert_eq!((p.status, p.consumed), (Status::Paused, 72));
    let e = d.finish(&mut v).unwrap_err();
    assert_eq!((e.kind, e.offset), (ErrorKind::Truncated, 72));
}

#[test]
fn finishing_after_a_pause_at_the_last_byte_with_a_seek_back_pending_is_seek_required() {
    // A Stories relocation table comes last: pausing at the file event, which follows it,
    // consumes every byte, and the first animation lies behind. Finishing there is what a
    // caller that never seeks does: `seek_required` at the table entry, as `feed` would ask.
    let file = testkit::stories::write(
        &testkit::stories::sample(),
        testkit::stories::Layout::DepthFirst,
        false,
        0,
    );
    let mut d = Decoder::new();
    let mut v = Recorder::new(Policy::PauseAt(0));
    let p = d.feed(&file, &mut v).unwrap();
    assert_eq!((p.status, p.consumed), (Status::Paused, file.len()));
    assert!(matches!(v.events[..], [Ev::File { .. }]));
    let e = d.finish(&mut v).unwrap_err();
    assert_eq!((e.kind, e.offset), (ErrorKind::SeekRequired, 0x20));
    // As a caller that cannot seek is told at once.
    let mut d = Decoder::with_options(gtastream::Options {
        can_seek: false,
        ..Default::default()
    });
    let e = d.decode_slice(&file, &mut Recorder::new(Policy::Continue));
    assert_eq!(
        e.map_err(|e| (e.kind, e.offset)),
        Err((ErrorKind::SeekRequired, 0x20))
    );
}
