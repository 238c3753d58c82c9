//! Every truncation of a fixture of every format (sampled for big fixtures), fed whole, byte by
//! byte and in several chunk sizes: decoding fails with `Truncated` at the start of the first
//! unit, in reading order, that the cut leaves incomplete (docs/FORMATS.md gives the units and the
//! order; `Fixture::units` lists them), after exactly the events of the complete units before
//! it. And the driver contract: errors are sticky, `finish` twice is `Finished`.

use gtastream::ErrorKind::{Aborted, BadMagic, Empty, Finished, Truncated};
use gtastream::{Decoder, Error, ErrorKind, Status, Visitor};
use testkit::hostile::stories::Layout;
use testkit::hostile::*;

fn fixtures() -> Vec<(String, Fixture)> {
    let ifp2_anims: &[&[(u32, usize)]] = &[&[(4, 3), (3, 2), (3, 0)], &[(1, 2), (2, 1)]];
    let anpk_anims: &[&[Object]] = &[
        &[(b"KRT0", 2, true), (b"KR00", 0, false), (b"KRTS", 1, true)],
        &[(b"KR00", 1, false)],
        &[],
    ];
    let mut all = vec![
        ("anp3".to_string(), ifp2(true, ifp2_anims)),
        ("anp2".to_string(), ifp2(false, ifp2_anims)),
        ("anpk".to_string(), anpk(anpk_anims)),
        ("bnry".to_string(), bnry(3, 2)),
    ];
    for (layout, pad) in [
        (Layout::DepthFirst, 0),
        (Layout::Grouped, 0),
        (Layout::Backward, 4),
    ] {
        for vcs in [false, true] {
            let name = format!("stories {layout:?} vcs={vcs}");
            all.push((name, stories(&stories_clips(), layout, vcs, pad)));
        }
    }
    // A bigger one, sampled.
    let shaped = stories::shaped(6, 12, 10);
    all.push((
        "stories shaped".into(),
        stories(&shaped, Layout::Grouped, true, 0),
    ));
    all
}

/// All cuts of small files; of big ones every 7th, and each unit boundary and its neighbours.
fn cuts(f: &Fixture) -> Vec<u64> {
    let len = f.bytes.len() as u64;
    if len <= 4096 {
        return (0..=len).collect();
    }
    let mut cuts: Vec<u64> = (0..=len).step_by(7).collect();
    for &(start, unit) in &f.units {
        for at in [start, start + 1, start + unit - 1, start + unit] {
            cuts.push(at.min(len));
        }
    }
    cuts.sort_unstable();
    cuts.dedup();
    cuts
}

/// The lines a run shares with the complete file: up to the final checks.
fn body(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter(|l| *l != "end" && !l.starts_with("warning trailing_data"))
        .cloned()
        .collect()
}

#[test]
fn every_truncation_of_every_fixture() {
    for (name, f) in fixtures() {
        let full = expect_ok(&f.bytes);
        let full_body = body(&full.lines);
        for cut in cuts(&f) {
            let bytes = &f.bytes[..cut as usize];
            let out = decode_all(bytes);
            let expected = match cut {
                // Nothing; or the start of a magic.
                0 => Some((Empty, 0)),
                1..=3 => Some((Truncated, 0)),
                _ => f.truncated_at(cut).map(|at| (Truncated, at)),
            };
            assert_eq!(
                out.error.map(|e| (e.kind, e.offset)),
                expected,
                "{name}: cut at {cut}"
            );
            let lines = body(&out.lines);
            assert_eq!(
                lines[..],
                full_body[..lines.len()],
                "{name}: cut at {cut}: not a prefix of the whole file's events"
            );
            if expected.is_none() {
                assert_eq!(lines, full_body, "{name}: cut at {cut} after the content");
            }
        }
    }
}

#[test]
#[cfg(feature = "ipl-text")]
fn every_truncation_of_a_text_file() {
    let text = b"# placement\r\ncull\n1, 2, 3, 4\nend\ninst\n\
                 1337, object, 0, 1.5, -2, 10, 0, 0, 0.7071, 0.7071, -1\nend\n\
                 cars\n1, 2, 3, 1.5, -1, -1, -1, 0, 0, 0, 0, 1000\nend\n";
    let full = expect_ok(text);
    for cut in 0..=text.len() {
        let bytes = &text[..cut];
        let out = decode_all(bytes);
        if cut == 0 {
            assert_eq!(out.error.map(|e| (e.kind, e.offset)), Some((Empty, 0)));
            continue;
        }
        // Cut inside "cull": a bare word, a section the games do not know, left open. (Cut in
        // the comment before it, an empty one.)
        if (14..17).contains(&cut) {
            assert_eq!(out.error, None);
            continue;
        }
        // The last line is cut short: an instance or car line may lose fields (a warning at
        // its start, then the line; or a record with a shorter last number); any other line
        // is just shorter. Lines before it are whole.
        let line_start = bytes[..cut - 1]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1) as u64;
        assert_eq!(out.error, None, "cut at {cut}");
        let malformed = out
            .warnings
            .iter()
            .filter(|w| w.0 == "malformed_line")
            .collect::<Vec<_>>();
        assert!(
            malformed.is_empty() || malformed == [&("malformed_line", line_start)],
            "cut at {cut}: {malformed:?}"
        );
        // After the events the two share: at most a warning about the cut line and its event,
        // the warning that its section is not closed, and the end.
        let shared = out
            .lines
            .iter()
            .zip(&full.lines)
            .take_while(|(a, b)| a == b)
            .count();
        assert!(
            out.lines.len() - shared <= 4,
            "cut at {cut}: {:#?}",
            out.lines
        );
    }
}

// ------------------------------------------------------------------------------------------
// Sticky errors, finish, reset

struct Quiet;
impl Visitor for Quiet {}

/// A text placement file with a line longer than the decoder's bound.
fn cat_text_too_long() -> Vec<u8> {
    let mut text = b"inst\n".to_vec();
    text.extend(std::iter::repeat_n(b'1', 300));
    text
}

/// Hostile files of every format, each with its error.
fn failing() -> Vec<(&'static str, Vec<u8>, ErrorKind)> {
    let mut anp3 = ifp2(true, &[&[(4, 2)]]).bytes;
    put_u32(&mut anp3, 72 + 24, 9);
    let mut anpk_file = anpk(&[&[(b"KR00", 1, true)]]).bytes;
    put_u32(&mut anpk_file, 16, u32::MAX);
    let mut stories_file = stories(&stories_clips(), Layout::Grouped, false, 0).bytes;
    put_u32(&mut stories_file, 0x14, u32::MAX);
    let bnry_file = bnry(2, 1).bytes;
    vec![
        ("anp3", anp3, ErrorKind::UnknownFrameType),
        ("anpk", anpk_file, ErrorKind::CountTooLarge),
        ("stories", stories_file, ErrorKind::CountTooLarge),
        ("bnry", bnry_file[..100].to_vec(), ErrorKind::Truncated),
        (
            "text",
            cat_text_too_long(),
            crate::text_error(ErrorKind::Limit),
        ),
        (
            "not a placement file",
            b"[package]\n".to_vec(),
            crate::text_error(BadMagic),
        ),
        ("magic", b"\0\0\0\0".to_vec(), BadMagic),
    ]
}

#[test]
fn a_feed_after_an_error_gets_the_same_error() {
    for (name, bytes, kind) in failing() {
        for chunk in [1, 5, bytes.len()] {
            let mut decoder = Decoder::new();
            let mut first = None;
            for piece in bytes.chunks(chunk) {
                match decoder.feed(piece, &mut Quiet) {
                    Ok(progress) => assert!(!matches!(progress.status, Status::Seek(_))),
                    Err(error) => {
                        first = Some(error);
                        break;
                    }
                }
            }
            let error = match first {
                Some(error) => error,
                None => decoder.finish(&mut Quiet).expect_err(name),
            };
            assert_eq!(error.kind, kind, "{name}");
            for _ in 0..3 {
                assert_eq!(decoder.feed(&bytes, &mut Quiet), Err(error), "{name}");
                assert_eq!(decoder.feed(&[], &mut Quiet), Err(error), "{name}");
                assert_eq!(decoder.finish(&mut Quiet), Err(error), "{name}");
                assert_eq!(decoder.error(), Some(error), "{name}");
            }
            // `reset` starts over: a good file decodes.
            decoder.reset();
            let good = ifp2(true, &[&[(3, 1)]]).bytes;
            assert_eq!(decoder.decode_slice(&good, &mut Quiet), Ok(()), "{name}");
        }
    }
}

#[test]
fn finish_twice_is_finished() {
    let good = ifp2(true, &[&[(3, 1)]]).bytes;
    for chunk in [1, 7, good.len()] {
        let mut decoder = Decoder::new();
        for piece in good.chunks(chunk) {
            decoder.feed(piece, &mut Quiet).expect("decodes");
        }
        assert_eq!(decoder.finish(&mut Quiet), Ok(()));
        let finished = Error {
            kind: Finished,
            offset: good.len() as u64,
        };
        assert_eq!(decoder.finish(&mut Quiet), Err(finished));
        assert_eq!(decoder.finish(&mut Quiet), Err(finished));
        assert_eq!(decoder.feed(b"ANP3", &mut Quiet), Err(finished));
        assert_eq!(decoder.feed(&[], &mut Quiet), Err(finished));
        assert_eq!(decoder.error(), None, "finishing is not an error state");
    }
    // An empty input: finish fails (nothing decoded), and stays failed.
    let mut decoder = Decoder::new();
    let error = decoder.finish(&mut Quiet).expect_err("empty");
    assert_eq!((error.kind, error.offset), (Empty, 0));
    assert_eq!(decoder.finish(&mut Quiet), Err(error));
}

#[test]
fn an_abort_is_sticky_at_the_unit_it_came_from() {
    let f = ifp2(true, &[&[(4, 2), (3, 1)]]);
    let full = expect_ok(&f.bytes);
    // Marks: file, animation, bone 0, bone_end, bone 1 ... (keyframe batches not counted).
    let offsets = [0, f.at("anim0"), f.at("bone0.0"), f.at("bone0.1")];
    let events = [0, 1, 2, 4];
    for (event, at) in events.into_iter().zip(offsets) {
        for chunk in [1, 3, usize::MAX] {
            let (out, _) = run_with(&f.bytes, chunk, true, Some(event));
            let expected = Error {
                kind: Aborted,
                offset: at,
            };
            assert_eq!(
                out.error,
                Some(expected),
                "event {event}, chunks of {chunk}"
            );
            assert_eq!(out.lines[..], full.lines[..out.lines.len()]);
        }
    }
}

#[test]
fn one_byte_feeds_match_the_whole_input_for_every_fixture() {
    for (name, f) in fixtures() {
        let (whole, _) = run(&f.bytes, usize::MAX, true);
        let (bytes, work) = run(&f.bytes, 1, true);
        assert_eq!(bytes, whole, "{name}");
        assert!(work.feeds >= f.bytes.len() as u64, "{name}");
    }
}
