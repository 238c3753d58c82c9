//! Every truncation of every placement fixture.
//!
//! Binary: a cut inside a unit is `Truncated` at that unit's offset (the header at 0, a record
//! at its own offset, a section not reached at its offset), after the events of every whole
//! unit before it; a cut once the content is complete decodes fully (only padding was lost).
//! Text: a cut file is still a text file; the events of the lines wholly before the cut are
//! those of the whole file, and the cut line is decoded as the line it has become.

use gtastream::{ErrorKind, Options, WarningKind};
use testkit::ipl::*;

fn decode(prefix: &[u8]) -> Outcome {
    drive(prefix, &whole, Options::default(), false)
}

// ---- Binary ----------------------------------------------------------------------------------

#[test]
fn every_truncation_of_binary_files_matches_the_reference() {
    for (name, file) in binary_fixtures() {
        for cut in 0..=file.len() {
            let prefix = &file[..cut];
            let expected = reference(prefix).log();
            assert_eq!(log(prefix), expected, "{name} cut at {cut}");
            assert_eq!(
                log_slice(prefix),
                expected,
                "{name} cut at {cut}: decode_slice"
            );
            if cut < 600 {
                assert_eq!(
                    log_bytewise(prefix),
                    expected,
                    "{name} cut at {cut}: byte by byte"
                );
            }
        }
    }
}

/// The offset where a file's content ends, from its header: the header, or the end of the
/// section that ends last.
fn content_end(file: &[u8]) -> usize {
    let n_inst = get_u32(file, 0x04) as usize;
    let n_car = get_u32(file, 0x14) as usize;
    let mut end = HEADER;
    if n_inst > 0 {
        end = end.max(get_u32(file, 0x1C) as usize + n_inst * INSTANCE);
    }
    if n_car > 0 {
        end = end.max(get_u32(file, 0x3C) as usize + n_car * CAR);
    }
    end
}

#[test]
fn binary_cuts_fail_before_the_content_end_and_pass_after_it() {
    for (name, file) in binary_fixtures() {
        let full = log(&file);
        if full.last() != Some(&Ev::End) {
            continue;
        }
        let end = content_end(&file);
        for cut in 0..=file.len() {
            let out = log(&file[..cut]);
            match out.last() {
                Some(Ev::End) => assert!(cut >= end, "{name}: cut at {cut} < {end} passed"),
                Some(Ev::Error(ErrorKind::Empty, 0)) => assert_eq!(cut, 0, "{name}"),
                Some(Ev::Error(ErrorKind::Truncated, at)) => {
                    assert!(cut < end, "{name}: cut at {cut} ≥ {end} failed");
                    // The unit cut short starts before the cut, or is a section not reached.
                    let at = *at as usize;
                    let sections = [get_u32(&file, 0x1C), get_u32(&file, 0x3C)];
                    assert!(
                        at <= cut || sections.contains(&(at as u32)),
                        "{name}: cut at {cut}, truncated at {at}"
                    );
                }
                other => panic!("{name}: cut at {cut}: {other:?}"),
            }
            if cut >= end {
                // Only padding (and trailing bytes) are lost.
                let kept: Vec<_> = full
                    .iter()
                    .filter(|e| {
                        !matches!(e, Ev::Warning(WarningKind::TrailingData, at) if *at as usize >= cut)
                    })
                    .cloned()
                    .collect();
                assert_eq!(out, kept, "{name}: cut at {cut}");
            } else {
                // Every event before the error is one of the whole file's, in order.
                assert_eq!(out[..out.len() - 1], full[..out.len() - 1], "{name}: {cut}");
            }
        }
    }
}

#[test]
fn truncations_of_the_vanilla_file_by_hand() {
    // Header 0..76, instances 76..196 (40 each), cars 196..292 (48 each).
    let file = vanilla();
    let events = vanilla_events();
    for cut in 0..=file.len() + 10 {
        let prefix = &file[..cut.min(file.len())];
        let out = log(prefix);
        let truncated = |at: usize, whole_records: usize| {
            let mut v = events[..1 + whole_records].to_vec();
            v.push(Ev::Error(ErrorKind::Truncated, at as u64));
            v
        };
        let expected = match cut {
            // Nothing at all; part of the magic ("b", "bn", "bnr"), part of the header.
            0 => vec![Ev::Error(ErrorKind::Empty, 0)],
            1..=75 => vec![Ev::Error(ErrorKind::Truncated, 0)],
            76..=195 => {
                let k = (cut - 76) / 40;
                truncated(76 + 40 * k, k)
            }
            196..=291 => {
                let k = (cut - 196) / 48;
                truncated(196 + 48 * k, 3 + k)
            }
            _ => events.clone(),
        };
        assert_eq!(out, expected, "cut at {cut}");
    }
}

fn vanilla_events() -> Vec<Ev> {
    let mut out = vec![Ev::bnry_file(3, 2)];
    out.extend(samples_inst(3).into_iter().map(Ev::Instance));
    out.extend(samples_car(2).into_iter().map(Ev::Car));
    out.push(Ev::End);
    out
}

#[test]
fn truncations_that_stop_short_of_a_section() {
    // Instances at 100 (garbage from 76), cars at 232 (garbage from 220): a cut in a gap is
    // truncated at the offset of the section not reached.
    let file = binary_fixtures()
        .into_iter()
        .find(|(n, _)| n == "gap between sections")
        .unwrap()
        .1;
    for cut in 76..=100 {
        let out = log(&file[..cut]);
        assert_eq!(
            out,
            [Ev::bnry_file(3, 2), Ev::Error(ErrorKind::Truncated, 100)],
            "cut at {cut}"
        );
    }
    for cut in 220..=232 {
        let out = log(&file[..cut]);
        assert_eq!(out.len(), 5, "cut at {cut}");
        assert_eq!(out[4], Ev::Error(ErrorKind::Truncated, 232), "cut at {cut}");
    }
    // Complete from 328 on: the padding to 512 is optional.
    for cut in 328..=file.len() {
        assert_eq!(log(&file[..cut]).last(), Some(&Ev::End), "cut at {cut}");
    }
}

#[test]
fn truncations_of_a_file_that_seeks() {
    // Instances 76..196, then back to a car at 100: complete once the instances are.
    let file = binary_fixtures()
        .into_iter()
        .find(|(n, _)| n == "overlapping: cars inside the instances")
        .unwrap()
        .1;
    for cut in 76..file.len() {
        let out = decode(&file[..cut]);
        let k = (cut - 76) / 40;
        assert_eq!(out.events.len(), 2 + k, "cut at {cut}");
        assert_eq!(
            out.events.last(),
            Some(&Ev::Error(ErrorKind::Truncated, (76 + 40 * k) as u64)),
            "cut at {cut}"
        );
        assert!(out.seeks.is_empty(), "no seek before the instances end");
    }
    let out = decode(&file);
    assert_eq!(out.seeks, [100]);
    assert_eq!(out.events.last(), Some(&Ev::End));
}

// ---- Text ------------------------------------------------------------------------------------

/// Offsets where the lines of `file` start (after each line break).
#[cfg(feature = "ipl-text")]
fn line_starts(file: &[u8]) -> Vec<usize> {
    let mut starts = vec![0];
    starts.extend(
        file.iter()
            .enumerate()
            .filter(|(_, &b)| b == b'\n')
            .map(|(i, _)| i + 1),
    );
    starts
}

#[test]
#[cfg(feature = "ipl-text")]
fn every_truncation_of_text_files_matches_the_reference() {
    for (name, file) in text_fixtures() {
        for cut in 0..=file.len() {
            let prefix = &file[..cut];
            let expected = reference(prefix);
            let out = decode(prefix);
            assert_eq!(out.events, expected.log(), "{name} cut at {cut}");
            assert_eq!(
                log_bytewise(prefix),
                out.events,
                "{name} cut at {cut}: byte by byte"
            );
            if let Some(Ev::Error(ErrorKind::Malformed, _)) = out.events.last() {
                assert_eq!(out.line, expected.line, "{name} cut at {cut}: line number");
            }
        }
    }
}

#[test]
#[cfg(feature = "ipl-text")]
fn a_cut_text_file_keeps_the_events_of_its_whole_lines() {
    for (name, file) in text_fixtures() {
        let full = reference(&file);
        let full_log = log(&file);
        // (A cut of text that is no placement file may be one: `nam` is a bare word.)
        if full_log == [Ev::Error(ErrorKind::BadMagic, 0)] {
            continue;
        }
        let starts = line_starts(&file);
        for cut in 1..=file.len() {
            let out = decode(&file[..cut]).events;
            // A cut file is still a text file, unless the cut leaves no section keyword or
            // record among lines that are no comments (the reference agrees, above).
            if out == [Ev::Error(ErrorKind::BadMagic, 0)] {
                continue;
            }
            assert_eq!(out[0], Ev::text_file(), "{name} cut at {cut}");
            // Events of lines wholly before the cut: those of the whole file.
            let kept = full
                .events
                .iter()
                .take_while(|(_, end)| end.is_some_and(|e| e as usize <= cut))
                .count();
            assert_eq!(
                out[..kept.min(out.len())],
                full_log[..kept.min(out.len())],
                "{name} cut at {cut}"
            );
            // After them: at most what the cut line gives, a warning that the input ended in
            // a section, and the end; or an error at a line's start.
            let cut_line = *starts.iter().rev().find(|&&s| s <= cut).unwrap() as u64;
            let rest = &out[kept.min(out.len())..];
            assert!(rest.len() <= 4, "{name} cut at {cut}: {rest:?}");
            for ev in rest {
                match ev {
                    Ev::End | Ev::Instance(_) | Ev::Car(_) | Ev::Line { .. } => {}
                    Ev::Warning(WarningKind::UnclosedSection, at) => {
                        assert_eq!(*at as usize, cut, "{name}")
                    }
                    Ev::Warning(WarningKind::LineOutsideSection, at) => {
                        assert_eq!(*at, cut_line, "{name} cut at {cut}")
                    }
                    // A record line cut short: a warning at its start, then the line.
                    Ev::Warning(WarningKind::MalformedLine, at) => {
                        assert_eq!(*at, cut_line, "{name} cut at {cut}")
                    }
                    // Or a record whose last field is cut inside.
                    Ev::Warning(WarningKind::TrailingText, at) => {
                        assert!(
                            *at >= cut_line && (*at as usize) < cut,
                            "{name} cut at {cut}"
                        )
                    }
                    Ev::Error(ErrorKind::Malformed | ErrorKind::Limit, at) => {
                        assert!(starts.contains(&(*at as usize)), "{name} cut at {cut}")
                    }
                    other => panic!("{name} cut at {cut}: {other:?}"),
                }
            }
            assert!(
                matches!(rest.last(), Some(Ev::End | Ev::Error(..))) || rest.is_empty(),
                "{name} cut at {cut}: {rest:?}"
            );
        }
    }
}

#[test]
#[cfg(feature = "ipl-text")]
fn a_record_line_cut_short_is_malformed_or_a_shorter_number() {
    // "inst\n" then an SA line whose LOD is -15: cut inside the line, it has too few fields
    // or a bare "-" (a warning, the line passed through); cut inside the LOD it is a
    // different number.
    let file = b"inst\n1, a, 0, 1.0, 2.0, 3.25, 0, 0, 0, 1, -15\nend\n";
    let line_at = 5;
    let minus = file.iter().position(|&b| b == b'-').unwrap();
    for cut in [
        minus,
        minus + 1,
        minus - 3,
        line_at as usize + 1,
        line_at as usize + 4,
    ] {
        let out = decode(&file[..cut]);
        let text = &file[line_at as usize..cut];
        assert_eq!(
            out.events,
            [
                Ev::text_file(),
                Ev::Warning(WarningKind::MalformedLine, line_at),
                Ev::line("inst", text.trim_ascii(), &split_fields(text)),
                Ev::Warning(WarningKind::UnclosedSection, cut as u64),
                Ev::End
            ],
            "cut at {cut}"
        );
    }
    let instance = |lod| {
        Ev::Instance(Inst::sa(
            1,
            b"a",
            0,
            [1.0, 2.0, 3.25],
            [0.0, 0.0, 0.0, 1.0],
            lod,
        ))
    };
    let unclosed = |at: usize| Ev::Warning(WarningKind::UnclosedSection, at as u64);
    for (cut, lod) in [(minus + 2, -1), (minus + 3, -15), (minus + 4, -15)] {
        assert_eq!(
            decode(&file[..cut]).events,
            [Ev::text_file(), instance(lod), unclosed(cut), Ev::End],
            "cut at {cut}"
        );
    }
}
