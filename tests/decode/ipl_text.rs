//! Text IPL (docs/FORMATS.md §4 and the issue): every section, the three `inst` layouts, `cars`,
//! pass-through lines with their fields, line endings, comments, blank lines, case, line
//! lengths at the bound, warnings and malformed lines, each with its offset and line number.
//! Expected events are written out by hand; the reference decoder of `testkit::ipl` is checked
//! against the same expectations.

use core::f32::consts::FRAC_PI_2;

use gtastream::{
    Decoder, ErrorKind, Game, Options, Progress, Status, WarningKind, MAX_LINE, SNIFF_LINES,
};
use testkit::ipl::*;

const ROT0: [f32; 4] = [0.0, 0.0, 0.0, 1.0];

/// The decoder (whole input, byte by byte, and through `decode_slice`) and the reference
/// decoder all report `expected`.
fn check(file: &[u8], expected: &[Ev]) {
    assert_eq!(log(file), expected, "decoder, whole input");
    assert_eq!(log_bytewise(file), expected, "decoder, byte by byte");
    assert_eq!(log_slice(file), expected, "decoder, decode_slice");
    assert_eq!(reference(file).log(), expected, "reference decoder");
}

/// The decoder told the game, whole and byte by byte.
fn log_game(file: &[u8], game: Game) -> Vec<Ev> {
    let options = Options {
        game: Some(game),
        ..Options::default()
    };
    let whole_log = drive(file, &whole, options, false).events;
    assert_eq!(drive(file, &bytewise, options, false).events, whole_log);
    whole_log
}

/// `expected` between the file event and `End`.
fn text(events: &[Ev]) -> Vec<Ev> {
    let mut out = vec![Ev::text_file()];
    out.extend_from_slice(events);
    out.push(Ev::End);
    out
}

/// The file event, then `events` (the last of which is the error).
fn failing(events: &[Ev]) -> Vec<Ev> {
    let mut out = vec![Ev::text_file()];
    out.extend_from_slice(events);
    out
}

fn outside(at: u64) -> Ev {
    Ev::Warning(WarningKind::LineOutsideSection, at)
}

fn unclosed(at: u64) -> Ev {
    Ev::Warning(WarningKind::UnclosedSection, at)
}

/// Text that is no placement file.
fn refused() -> Vec<Ev> {
    vec![Ev::Error(ErrorKind::BadMagic, 0)]
}

fn malformed(at: u64) -> Ev {
    Ev::Warning(WarningKind::MalformedLine, at)
}

fn trailing(at: u64) -> Ev {
    Ev::Warning(WarningKind::TrailingText, at)
}

fn line_number(file: &[u8]) -> Option<u32> {
    drive(file, &whole, Options::default(), false).line
}

/// The events of [`text_all_sections`], by hand.
fn all_sections_events() -> Vec<Ev> {
    text(&[
        Ev::Instance(Inst::sa(1, b"lod_a", 0, [1.0, 2.0, 3.0], ROT0, -1)),
        Ev::Instance(Inst::sa(
            2,
            b"lod_b",
            13,
            [-150.0, 3.0, 0.5],
            [0.0, 0.0, 0.5, 1.0],
            5,
        )),
        Ev::Instance(Inst::sa(
            3,
            b"mdl_tab",
            256,
            [4.25, -8.0, 16.0],
            [0.0, 0.0, -0.5, 0.75],
            0,
        )),
        Ev::Instance(Inst::sa(6, b"mdl_commas", 1, [1.0, 2.0, 3.0], ROT0, 2)),
        Ev::Instance(Inst::sa(7, b"spaced", 0, [1.0, 1.0, 1.0], ROT0, -1)),
        Ev::Instance(Inst::sa(9, b"caf\xe9", 0, [0.0; 3], ROT0, -1)),
        Ev::line(
            "cull",
            b"1.0, 2.0, 3.0,  4, 5",
            &[b"1.0", b"2.0", b"3.0", b"4", b"5"],
        ),
        Ev::line("path", b"ped", &[b"ped"]),
        Ev::line("path", b"0, -1, 1, 2, 3", &[b"0", b"-1", b"1", b"2", b"3"]),
        Ev::line(
            "grge",
            b"1.0 2.0 3.0 1 0 4 5 6 7 0 0 bodyshp",
            &[
                b"1.0", b"2.0", b"3.0", b"1", b"0", b"4", b"5", b"6", b"7", b"0", b"0", b"bodyshp",
            ],
        ),
        Ev::line(
            "enex",
            b"1,2,3,FDINT,0",
            &[b"1", b"2", b"3", b"FDINT", b"0"],
        ),
        Ev::line("pick", b"1, 2, 3, 346", &[b"1", b"2", b"3", b"346"]),
        Ev::Car(Car::new(
            [1.0, 2.0, 3.0],
            FRAC_PI_2,
            [400, -1, -1, 3, 50, 100, 0, 10000],
        )),
        Ev::Car(Car::new(
            [-5.0, 6.0, -7.0],
            0.0,
            [-1, 1, 2, 0, 0, 0, 1000, 2000],
        )),
        Ev::line(
            "jump",
            b"1 2 3 4 5 6",
            &[b"1", b"2", b"3", b"4", b"5", b"6"],
        ),
        Ev::line("tcyc", b"a b,c", &[b"a", b"b", b"c"]),
        Ev::line("auzo", b"zone_a, 1, 2, 3", &[b"zone_a", b"1", b"2", b"3"]),
        Ev::line("mult", b"x", &[b"x"]),
        Ev::line(
            "occl",
            b"1, 2, 3, 4, 5, 6, 7",
            &[b"1", b"2", b"3", b"4", b"5", b"6", b"7"],
        ),
        Ev::line("zone", b"ZONE1, 0, 1, 2", &[b"ZONE1", b"0", b"1", b"2"]),
        Ev::Instance(Inst::sa(8, b"UPPER", 0, [0.0; 3], ROT0, -1)),
        Ev::Car(Car::new([0.0; 3], 0.0, [1, 2, 3, 0, 0, 0, 0, 0])),
    ])
}

// ---- Sections, layouts, line endings ---------------------------------------------------------

#[test]
fn every_section_and_inst_layout_with_lf() {
    check(&text_all_sections(), &all_sections_events());
}

#[test]
fn crlf_line_endings_give_the_same_events() {
    let file = crlf(&text_all_sections());
    assert!(file.windows(2).filter(|w| w == b"\r\n").count() > 50);
    check(&file, &all_sections_events());
}

#[test]
fn mixed_line_endings_give_the_same_events() {
    let mut file = Vec::new();
    for (k, line) in text_all_sections()
        .split_inclusive(|&b| b == b'\n')
        .enumerate()
    {
        if k % 2 == 0 {
            file.extend_from_slice(&crlf(line));
        } else {
            file.extend_from_slice(line);
        }
    }
    check(&file, &all_sections_events());
}

#[test]
fn the_last_line_needs_no_line_break() {
    // Ends in "End" (the closing line of the last section) without a line break.
    let mut file = text_all_sections();
    file.truncate(file.len() - b"# the end\n\n".len() - 1);
    assert!(file.ends_with(b"\nEnd"));
    check(&file, &all_sections_events());
    // And with CR LF everywhere else.
    check(&crlf(&file), &all_sections_events());
    // A record line as the last line, unterminated (and so unclosed).
    check(
        b"cull\n1 2",
        &text(&[Ev::line("cull", b"1 2", &[b"1", b"2"]), unclosed(8)]),
    );
    check(
        b"cars\r\n0 0 0 0 1 2 3 0 0 0 0 0\r",
        &text(&[
            Ev::Car(Car::new([0.0; 3], 0.0, [1, 2, 3, 0, 0, 0, 0, 0])),
            unclosed(30),
        ]),
    );
}

#[test]
fn section_names_in_any_case() {
    for name in SECTION_NAMES {
        let upper = name.to_ascii_uppercase();
        let mixed: String = name
            .chars()
            .enumerate()
            .map(|(k, c)| {
                if k % 2 == 0 {
                    c.to_ascii_uppercase()
                } else {
                    c
                }
            })
            .collect();
        for spelled in [name.to_string(), upper, mixed] {
            let (body, event): (&[u8], Ev) = match name {
                "inst" => (
                    b"1, a, 0, 0, 0, 0, 0, 0, 0, 1, -1",
                    Ev::Instance(Inst::sa(1, b"a", 0, [0.0; 3], ROT0, -1)),
                ),
                "cars" => (
                    b"0 0 0 0 1 2 3 0 0 0 0 0",
                    Ev::Car(Car::new([0.0; 3], 0.0, [1, 2, 3, 0, 0, 0, 0, 0])),
                ),
                _ => (b"a, b", Ev::line(name, b"a, b", &[b"a", b"b"])),
            };
            let file = cat(&[spelled.as_bytes(), b"\n", body, b"\nEND\n"]);
            check(&file, &text(&[event]));
        }
    }
}

#[test]
fn section_names_are_whole_fields() {
    // Blanks around the name are trimmed, and what follows the name on its line is ignored;
    // a name that only begins with a section name is not one.
    check(b"  inst  \nend\n", &text(&[]));
    check(
        b"cull, x\n1\nend\n",
        &text(&[Ev::line("cull", b"1", &[b"1"])]),
    );
    // (`instx` is a bare word: a section the games do not know.)
    check(
        b"instx\n1\nend\ncull\n",
        &text(&[Ev::line("instx", b"1", &[b"1"]), unclosed(17)]),
    );
    check(
        b"Instx\nend\ncull\n",
        &text(&[outside(0), outside(6), unclosed(15)]),
    );
    check(b"in st\nzone\nend\n", &text(&[outside(0)]));
    // Without a section keyword, a bare word or a record, no placement file.
    check(b"Instx\nend\n", &refused());
    check(b"in st\n", &refused());
}

#[test]
fn lines_starting_with_end_close_a_section() {
    // "cull", "a", the closing line, then "b c" outside any section.
    for closer in [
        &b"end"[..],
        b"END",
        b"End",
        b"  end  ",
        b"\tend\t# done",
        b"endcull",
        b"end,",
        b"end\r",
    ] {
        let file = cat(&[b"cull\na\n", closer, b"\nb c\n"]);
        let b_at = (7 + closer.len() + 1) as u64;
        check(
            &file,
            &text(&[
                Ev::line("cull", b"a", &[b"a"]),
                outside(b_at),
                Ev::line("", b"b c", &[b"b", b"c"]),
            ]),
        );
    }
    // "end" later in a line does not close.
    check(
        b"cull\nx end\nend\n",
        &text(&[Ev::line("cull", b"x end", &[b"x", b"end"])]),
    );
}

#[test]
fn comments_and_blank_lines_are_ignored_everywhere() {
    let file = b"# c\n\n \t \r\ninst\n#1, a, 0, 0, 0, 0, 0, 0, 0, 1, -1\n#\n\n   \n  # x\nend\n# after\n\t\n";
    check(file, &text(&[]));
    check(&crlf(file), &text(&[]));
}

#[test]
fn fields_are_split_by_commas_and_blanks() {
    check(
        b"cull\n ,a,,b\t\t c , \nend\n",
        &text(&[Ev::line("cull", b",a,,b\t\t c ,", &[b"a", b"b", b"c"])]),
    );
    // An instance with extra separators everywhere.
    check(
        b"inst\n,1,,a ,\t0, 0 ,0,0,0,0,0,1,-1,,\nend\n",
        &text(&[Ev::Instance(Inst::sa(1, b"a", 0, [0.0; 3], ROT0, -1))]),
    );
}

#[test]
fn names_are_raw_bytes() {
    check(
        b"inst\n1, \xe9\xff, 0, 0, 0, 0, 0, 0, 0, 1, -1\nend\n",
        &text(&[Ev::Instance(Inst::sa(
            1,
            b"\xe9\xff",
            0,
            [0.0; 3],
            ROT0,
            -1,
        ))]),
    );
    check(
        b"zone\nZ\xe4hl 1\nend\n",
        &text(&[Ev::line("zone", b"Z\xe4hl 1", &[b"Z\xe4hl", b"1"])]),
    );
}

#[test]
fn line_breaks_among_the_first_four_bytes() {
    // The first bytes decide the format; lines that end within them are lines like any other,
    // however the input is cut (whole, byte by byte, at every split).
    let cases: Vec<(Vec<u8>, Vec<Ev>)> = vec![
        (b"A\nB\n".to_vec(), refused()),
        (
            b"A\nB\ncull".to_vec(),
            text(&[outside(0), outside(2), unclosed(8)]),
        ),
        (
            b"\r\n\r\ninst\r\n1, a, 0, 0, 0, 0, 0, 0, 0, 1, -1\r\nend\r\n".to_vec(),
            text(&[Ev::Instance(Inst::sa(1, b"a", 0, [0.0; 3], ROT0, -1))]),
        ),
        (
            b"end\nzone\nz\nend\n".to_vec(),
            text(&[outside(0), Ev::line("zone", b"z", &[b"z"])]),
        ),
        (cat(&[b"\n", &[b' '; 256], b"\n"]), refused()),
        (
            cat(&[b"cull\n", &[b' '; 256], b"\n"]),
            failing(&[Ev::Error(ErrorKind::Limit, 5)]),
        ),
    ];
    for (file, expected) in cases {
        check(&file, &expected);
        for k in 1..file.len() {
            let split = move |p: usize| if p < k { k } else { usize::MAX };
            assert_eq!(
                drive(&file, &split, Options::default(), false).events,
                expected,
                "split at {k}"
            );
        }
    }
}

// ---- Warnings --------------------------------------------------------------------------------

#[test]
fn warnings_at_line_offsets() {
    // "stray line\n" 0..11, "# comment\n" ..21, "end\n" ..25, "\n" ..26, "cull\n" ..31,
    // "1 2\n" ..35, "end\n" ..39, "  another stray\n" ..55, "zone\n" ..60, "z 1\n" ..64.
    let file = text_warnings();
    assert_eq!(file.len(), 64);
    check(
        &file,
        &text(&[
            outside(0),
            outside(21),
            Ev::line("cull", b"1 2", &[b"1", b"2"]),
            outside(39),
            Ev::line("", b"another stray", &[b"another", b"stray"]),
            Ev::line("zone", b"z 1", &[b"z", b"1"]),
            unclosed(64),
        ]),
    );
    // CR LF: each line one byte longer.
    check(
        &crlf(&file),
        &text(&[
            outside(0),
            outside(23),
            Ev::line("cull", b"1 2", &[b"1", b"2"]),
            outside(46),
            Ev::line("", b"another stray", &[b"another", b"stray"]),
            Ev::line("zone", b"z 1", &[b"z", b"1"]),
            unclosed(74),
        ]),
    );
    // Without the last line break, the input ends one byte earlier.
    check(
        &file[..63],
        &text(&[
            outside(0),
            outside(21),
            Ev::line("cull", b"1 2", &[b"1", b"2"]),
            outside(39),
            Ev::line("", b"another stray", &[b"another", b"stray"]),
            Ev::line("zone", b"z 1", &[b"z", b"1"]),
            unclosed(63),
        ]),
    );
}

#[test]
fn an_unclosed_section_warns_at_the_end_of_input() {
    check(b"inst", &text(&[unclosed(4)]));
    check(b"inst\n", &text(&[unclosed(5)]));
    check(b"inst\n\n\n# c\n", &text(&[unclosed(11)]));
    check(b"inst\nend\ncars\n", &text(&[unclosed(14)]));
    check(b"inst\nend\n", &text(&[]));
}

#[test]
fn short_text_files() {
    check(b"\n", &text(&[]));
    // One bare word: a section the games do not know, never closed.
    check(b"ab", &text(&[unclosed(2)]));
    check(b"a", &text(&[unclosed(1)]));
    check(b"B", &refused());
    check(b"a b", &refused());
    check(b"#", &text(&[]));
    check(b"  ", &text(&[]));
}

#[test]
fn feed_never_reports_done_for_text() {
    // A text file has no declared end: only `finish` ends it.
    let file = text_all_sections();
    let mut decoder = Decoder::new();
    let mut rec = Recorder::default();
    assert_eq!(
        decoder.feed(&file, &mut rec),
        Ok(Progress {
            consumed: file.len(),
            status: Status::NeedInput
        })
    );
    assert_eq!(decoder.position(), file.len() as u64);
    assert_eq!(decoder.finish(&mut rec), Ok(()));
    assert_eq!(rec.events, all_sections_events());
}

// ---- Line length -----------------------------------------------------------------------------

#[test]
fn max_line_is_256() {
    assert_eq!(MAX_LINE, 256);
}

#[test]
fn lines_of_255_and_256_bytes_pass() {
    let file = cat(&[
        b"cull\n",
        &long_line(255, b"\n"),
        &long_line(256, b"\n"),
        &long_line(256, b"\r\n"),
        b"end\n",
    ]);
    let twos = |n| vec![b'2'; n];
    let line = |n| {
        let t = cat(&[b"1,", &twos(n)]);
        Ev::Line {
            section: "cull".into(),
            text: t,
            fields: vec![b"1".to_vec(), twos(n)],
        }
    };
    check(&file, &text(&[line(252), line(253), line(252)]));
}

#[test]
fn a_line_of_257_bytes_is_a_limit_error_at_its_offset() {
    for brk in [&b"\n"[..], b"\r\n"] {
        let file = cat(&[b"cull\n", &long_line(257, brk), b"end\n"]);
        check(&file, &failing(&[Ev::Error(ErrorKind::Limit, 5)]));
    }
    // Any line: a comment, a blank line, a line outside sections.
    let comment = cat(&[b"cull\nend\n#", &[b'x'; 255], b"\n"]);
    check(&comment, &failing(&[Ev::Error(ErrorKind::Limit, 9)]));
    let blank = cat(&[b"cull\n#abc\n", &[b' '; 256], b"\n"]);
    check(&blank, &failing(&[Ev::Error(ErrorKind::Limit, 10)]));
    let stray = cat(&[b"cull\nend\na stray\n", &[b'y'; 300], b"\n"]);
    check(
        &stray,
        &failing(&[
            outside(9),
            Ev::line("", b"a stray", &[b"a", b"stray"]),
            Ev::Error(ErrorKind::Limit, 17),
        ]),
    );
    // Before a section keyword or a record shows a placement file, such a line shows none:
    // the games read lines of at most 256 bytes.
    let comment = cat(&[b"#", &[b'x'; 255], b"\n"]);
    check(&comment, &refused());
    check(&cat(&[b"# ok\n", &[b' '; 256], b"\n"]), &refused());
    check(&cat(&[b"Stray\n", &[b'y'; 300], b"\ncull\n"]), &refused());
    // Far longer, in a file fed in one piece.
    let huge = cat(&[b"inst\n", &[b'7'; 5000]]);
    check(&huge, &failing(&[Ev::Error(ErrorKind::Limit, 5)]));
}

#[test]
fn an_unterminated_last_line_may_take_255_bytes() {
    // Without its line break a last line has one byte fewer: 255 pass, 256 would need 257
    // bytes with the break.
    let file = cat(&[b"zone\n", &long_line(255, b"")]);
    let twos = vec![b'2'; 253];
    check(
        &file,
        &text(&[
            Ev::Line {
                section: "zone".into(),
                text: cat(&[b"1,", &twos]),
                fields: vec![b"1".to_vec(), twos.clone()],
            },
            unclosed(260),
        ]),
    );
    let file = cat(&[b"zone\n", &long_line(256, b"")]);
    check(&file, &failing(&[Ev::Error(ErrorKind::Limit, 5)]));
}

#[test]
fn line_number_of_a_too_long_line() {
    // `Decoder::line` gives the number of the line that failed; here the second.
    let file = cat(&[b"cull\n", &long_line(257, b"\n"), b"end\n"]);
    assert_eq!(line_number(&file), Some(2));
    let file = cat(&[b"# one\n# two\n", &[b'#'; 400]]);
    assert_eq!(line_number(&file), Some(3));
}

// ---- Lines as the games read them (docs/FORMATS.md §4) --------------------------------------------

/// The offset of the first occurrence of `needle` in `file`.
fn find(file: &[u8], needle: &[u8]) -> u64 {
    file.windows(needle.len())
        .position(|w| w == needle)
        .expect("needle in file") as u64
}

/// A line passed through with its fields.
fn passed(section: &'static str, line: &[u8]) -> Ev {
    let text = trim(line);
    Ev::Line {
        section: section.into(),
        text: text.to_vec(),
        fields: split_fields(text).iter().map(|f| f.to_vec()).collect(),
    }
}

fn inst_a() -> Ev {
    Ev::Instance(Inst::sa(1, b"a", 0, [0.0; 3], ROT0, -1))
}

#[test]
fn a_line_the_game_cannot_read_is_a_warning_and_decoding_goes_on() {
    let good: &[u8] = b"1, a, 0, 0, 0, 0, 0, 0, 0, 1, -1\n";
    let bad_lines: &[&[u8]] = &[
        // Cut short: the LOD (or more) is missing.
        b"1, a, 0, 0, 0, 0, 0, 0, 0, 1",
        b"1, a, 0, 1.0, 2.0",
        b"1",
        b"1 2",
        b"-5, m",
        b"cars",
        // A conversion that finds no number where it starts.
        b"x, a, 0, 0, 0, 0, 0, 0, 0, 1, -1",
        b"1, a, 0, 0, y, 0, 0, 0, 0, 1, -1",
        b"1, a, 0, 0, 0, 0, 0, 0, 0, one, -1",
        b"1, a, 0, 0, 0, 0, 0, 0, 0, 1, -",
        // `%d` reads 1, `%s` reads ".5", then `%d` fails on "a".
        b"1.5, a, 0, 0, 0, 0, 0, 0, 0, 1, -1",
        // Beyond `i32`: no value is invented.
        b"2147483648, a, 0, 0, 0, 0, 0, 0, 0, 1, -1",
        // A broken float: `%f` reads 2, the next `%f` fails on the µ.
        b"1, a, 0, 2\xb550.66, 1, 2, 0, 0, 0, 1, -1",
        // No `inf` or `nan`.
        b"1, a, 0, inf, 0, 0, 0, 0, 0, 1, -1",
    ];
    for bad in bad_lines {
        let file = cat(&[b"inst\n", good, bad, b"\n", good, b"end\n"]);
        let at = (5 + good.len()) as u64;
        check(
            &file,
            &text(&[inst_a(), malformed(at), passed("inst", bad), inst_a()]),
        );
    }
}

#[test]
fn a_pause_after_the_warning_leaves_the_line_number_at_the_bad_line() {
    let file = b"inst\n1, a, 0, 0, 0, 0, 0, 0, 0, 1, -1\n1, a\nend\n";
    let mut decoder = Decoder::new();
    let mut rec = Recorder::new(testkit::log::Policy::PauseEvery);
    let mut at = 0;
    loop {
        let progress = decoder.feed(&file[at..], &mut rec).unwrap();
        at += progress.consumed;
        if rec.events.last() == Some(&malformed(38)) {
            assert_eq!(decoder.line(), Some(3));
            assert_eq!(decoder.position(), 38);
            break;
        }
        assert_eq!(progress.status, Status::Paused);
    }
}

#[test]
fn what_follows_the_last_field_is_ignored() {
    let good: &[u8] = b"1, a, 0, 0, 0, 0, 0, 0, 0, 1, -1\n";
    let sa = |interior, position, rotation, lod| {
        Ev::Instance(Inst::sa(1, b"a", interior, position, rotation, lod))
    };
    // (line, what the game reads, where the ignored text starts if it is no comment)
    let cases: Vec<(&[u8], Ev, Option<usize>)> = vec![
        (
            b"1, a, 0, 0, 0, 0, 0, 0, 0, 1, -1   #### Aavts3_crb6qm11",
            inst_a(),
            None,
        ),
        (b"1, a, 0, 0, 0, 0, 0, 0, 0, 1, -1#c", inst_a(), None),
        (b"1, a, 0, 0, 0, 0, 0, 0, 0, 1, -1 ,,\t", inst_a(), None),
        (b"1, a, 0, 0, 0, 0, 0, 0, 0, 1, -1 // c", inst_a(), Some(33)),
        // `%d` reads -1 and leaves ".0".
        (b"1, a, 0, 0, 0, 0, 0, 0, 0, 1, -1.0", inst_a(), Some(32)),
        // `%d` reads the interior 1 from "1.5"; `%f` reads 0.5 from ".5"; all shifts.
        (
            b"1, a, 1.5, 0, 0, 0, 0, 0, 0, 1, -1",
            sa(1, [0.5, 0.0, 0.0], [0.0; 4], 1),
            Some(32),
        ),
        // Fourteen fields: eleven read.
        (
            b"1, a, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 7",
            sa(0, [0.0; 3], [0.0; 4], 0),
            Some(33),
        ),
    ];
    for (line, event, rest) in cases {
        let file = cat(&[b"inst\n", good, line, b"\nend\n"]);
        let line_at = 5 + good.len();
        let mut events = vec![inst_a()];
        if let Some(i) = rest {
            events.push(trailing((line_at + i) as u64));
        }
        events.push(event);
        check(&file, &text(&events));
    }
}

/// The decimal-comma line of a real San Andreas file.
const COMMA_LINE: &[u8] =
    b"2, comma, 0, 2225.2, -1185.7, 2499,8149, 0.0, 0.0, 1.0, 1.62921e-007, -1\n";

#[test]
fn a_decimal_comma_line_gives_the_values_the_game_reads() {
    // The layout is San Andreas (decided by the first line): z = 2499, rx = 8149, ..., and
    // `%d` reads the LOD 1 from "1.62921e-007"; the rest is ignored, with a warning.
    let file = cat(&[
        b"inst\n",
        b"1, a, 0, 0, 0, 0, 0, 0, 0, 1, -1\n",
        COMMA_LINE,
        b"end\n",
    ]);
    let expected = text(&[
        inst_a(),
        trailing(find(&file, b".62921e")),
        Ev::Instance(Inst::sa(
            2,
            b"comma",
            0,
            [2225.2, -1185.7, 2499.0],
            [8149.0, 0.0, 0.0, 1.0],
            1,
        )),
    ]);
    check(&file, &expected);
}

#[test]
fn the_first_inst_line_decides_the_layout_and_the_option_overrides_it() {
    // The decimal-comma line first: twelve fields that scan whole as a GTA III line, so
    // GTA III it is for the whole file (what the file says; the caller may know better).
    let file = cat(&[
        b"inst\n",
        COMMA_LINE,
        b"1, a, 0, 0, 0, 0, 0, 0, 0, 1, -1\n",
        b"end\n",
    ]);
    let as_iii = Ev::Instance(Inst::iii(
        2,
        b"comma",
        [0.0, 2225.2, -1185.7],
        [2499.0, 8149.0, 0.0],
        [0.0, 1.0, 1.62921e-7, -1.0],
    ));
    // The SA line read as GTA III: a 12th conversion finds nothing.
    let second_at = 5 + COMMA_LINE.len() as u64;
    check(
        &file,
        &text(&[
            as_iii,
            malformed(second_at),
            passed("inst", b"1, a, 0, 0, 0, 0, 0, 0, 0, 1, -1"),
        ]),
    );
    // Named San Andreas, both lines read as the game reads them.
    let expected = text(&[
        trailing(find(&file, b".62921e")),
        Ev::Instance(Inst::sa(
            2,
            b"comma",
            0,
            [2225.2, -1185.7, 2499.0],
            [8149.0, 0.0, 0.0, 1.0],
            1,
        )),
        inst_a(),
    ]);
    assert_eq!(log_game(&file, Game::SanAndreas), expected);
    assert_eq!(reference_game(&file, Game::SanAndreas).log(), expected);
    // Named Vice City, the SA line is cut short (13 conversions).
    let vc = log_game(&file, Game::ViceCity);
    assert_eq!(vc, reference_game(&file, Game::ViceCity).log());
    assert!(vc.contains(&malformed(second_at)), "{vc:?}");
}

#[test]
fn the_first_line_of_each_layout() {
    check(
        &vice_city(),
        &text(&[
            Ev::Instance(Inst::vc(
                4,
                b"vc_obj",
                2,
                [10.0, 20.0, 30.0],
                [1.0, 1.5, 2.0],
                ROT0,
            )),
            // Thirteen fields and a comment.
            Ev::Instance(Inst::vc(
                5,
                b"vc_two",
                0,
                [-1.5, 25.0, 3.0],
                [1.0; 3],
                [0.0, 0.0, 0.5, 0.8660254],
            )),
            malformed(find(&vice_city(), b"6, vc_bad")),
            passed("inst", b"6, vc_bad, 0, 1, 2"),
        ]),
    );
    check(
        &gta_iii(),
        &text(&[
            Ev::Instance(Inst::iii(
                5,
                b"iii_obj",
                [100.5, -200.25, 7.0],
                [2.0, 2.0, 2.0],
                [0.0, 0.0, 1.0, 0.0],
            )),
            Ev::Instance(Inst::iii(6, b"iii_two", [1.0, 2.0, 3.0], [1.0; 3], ROT0)),
        ]),
    );
    // San Andreas decided, a Vice City line is read as San Andreas: ten floats' worth of
    // fields, then the LOD from the 11th field; the rest ignored.
    let file =
        b"inst\n1, a, 0, 0, 0, 0, 0, 0, 0, 1, -1\n4, vc, 2, 1, 2, 3, 1, 1, 1, 0, 0, 0, 1\nend\n";
    check(
        file,
        &text(&[
            inst_a(),
            trailing(find(file, b"0, 1\nend")),
            Ev::Instance(Inst::sa(
                4,
                b"vc",
                2,
                [1.0, 2.0, 3.0],
                [1.0, 1.0, 1.0, 0.0],
                0,
            )),
        ]),
    );
    // A first line that decides nothing (a trailing comment) is read by a guess; the next
    // line decides.
    let file = b"inst\n1, a, 0, 1, 2, 3, 0, 0, 0, 1, -1 # c\n4, vc, 2, 1, 2, 3, 1, 1, 1, 0, 0, 0, 1\nend\n";
    check(
        file,
        &text(&[
            Ev::Instance(Inst::sa(1, b"a", 0, [1.0, 2.0, 3.0], ROT0, -1)),
            Ev::Instance(Inst::vc(4, b"vc", 2, [1.0, 2.0, 3.0], [1.0; 3], ROT0)),
        ]),
    );
}

// The numbers as the file writes them, which read to the same `f32`s.
#[allow(clippy::excessive_precision)]
#[test]
fn a_real_san_andreas_file_loses_no_good_line() {
    let file = sa_quirks();
    let line_at = |needle: &[u8]| find(&file, needle);
    check(
        &file,
        &text(&[
            Ev::Instance(Inst::sa(1, b"good_a", 0, [1.0, 2.0, 3.0], ROT0, -1)),
            trailing(find(&file, b".62921e")),
            Ev::Instance(Inst::sa(
                2,
                b"comma",
                0,
                [2225.2, -1185.7, 2499.0],
                [8149.0, 0.0, 0.0, 1.0],
                1,
            )),
            Ev::Instance(Inst::sa(3, b"comment", 0, [1.5, 2.5, 3.5], ROT0, -1)),
            malformed(line_at(b"4, broken")),
            passed("inst", b"4, broken, 0, 2\xb550.66, 1, 2, 0, 0, 0, 1, -1"),
            malformed(line_at(b"5, cut_short")),
            passed("inst", b"5, cut_short, 0, 1.0, 2.0"),
            Ev::Instance(Inst::sa(
                6,
                b"good_b",
                13,
                [-8.742277657e-08, 2.173596769e-008, 5.48026173142e-05],
                ROT0,
                0,
            )),
            Ev::Car(Car::new([1.0, 2.0, 3.0], 0.5, [400, -1, -1, 0, 0, 0, 0, 0])),
            malformed(line_at(b"1.0, 2.0, 3.0, 0.5, 400, -1, -1, 0, 0, 0\n")),
            passed("cars", b"1.0, 2.0, 3.0, 0.5, 400, -1, -1, 0, 0, 0"),
            // MSVC's "1.#QNAN": `%f` reads 1., then `%d` fails on "#QNAN".
            malformed(line_at(b"4.0, 5.0")),
            passed(
                "cars",
                b"4.0, 5.0, 6.0, 1.#QNAN, 401, -1, -1, 0, 0, 0, 0, 0",
            ),
            Ev::Car(Car::new([7.0, 8.0, 9.0], 0.25, [402, 1, 2, 3, 4, 5, 6, 7])),
        ]),
    );
}

#[test]
fn bad_cars_lines() {
    let good: &[u8] = b"0 0 0 0 1 2 3 0 0 0 0 0\r\n";
    let good_car = || Ev::Car(Car::new([0.0; 3], 0.0, [1, 2, 3, 0, 0, 0, 0, 0]));
    let bad_lines: &[&[u8]] = &[
        b"0 0 0 0 1 2 3 0 0 0 0",
        b"0 0 0 0 1.5 2 3 0 0 0 0 0",
        b"0 0 z 0 1 2 3 0 0 0 0 0",
        b"0 0 0 0 1 2 3 0 0 0 0 -",
        b"0 0 0 0 1 2 3 0 0 0 0 99999999999",
        b"inst",
    ];
    for bad in bad_lines {
        let file = cat(&[b"# cars\r\ncars\r\n", good, bad, b"\r\n", good, b"end\r\n"]);
        let at = (14 + good.len()) as u64;
        check(
            &file,
            &text(&[good_car(), malformed(at), passed("cars", bad), good_car()]),
        );
    }
    // A 13th field is ignored, with a warning.
    let file = cat(&[b"cars\n", b"0 0 0 0 1 2 3 0 0 0 0 0 0\n", b"end\n"]);
    check(&file, &text(&[trailing(29), good_car()]));
}

#[test]
fn numbers_in_the_forms_the_games_write() {
    check(
        b"inst\n-7, m, 13, 1e3, -2.5E-1, +0.125, 0., .0, -0, 1, 2147483647\nend\n",
        &text(&[Ev::Instance(Inst::sa(
            -7,
            b"m",
            13,
            [1000.0, -0.25, 0.125],
            [0.0, 0.0, -0.0, 1.0],
            i32::MAX,
        ))]),
    );
    check(
        b"cars\n1 2 3 -2.5 -1 -1 -1 -2147483648 0 0 0 0\nend\n",
        &text(&[Ev::Car(Car::new(
            [1.0, 2.0, 3.0],
            -2.5,
            [-1, -1, -1, i32::MIN, 0, 0, 0, 0],
        ))]),
    );
    // An exponent without digits is no exponent: `%f` reads 1 and the next field starts at
    // "e"; three-digit MSVC exponents read whole.
    check(
        b"inst\n1, m, 0, 1e, 2, 3, 0, 0, 0, 1, -1\nend\n",
        &text(&[
            malformed(5),
            passed("inst", b"1, m, 0, 1e, 2, 3, 0, 0, 0, 1, -1"),
        ]),
    );
    check(
        b"inst\n1, m, 0, 1e+005, 2E-003, 3, 0, 0, 0, 1, -1\nend\n",
        &text(&[Ev::Instance(Inst::sa(
            1,
            b"m",
            0,
            [1e5, 2e-3, 3.0],
            ROT0,
            -1,
        ))]),
    );
}

// ---- What is a placement file ------------------------------------------------------------------

#[test]
fn text_that_is_no_placement_file_is_refused() {
    check(&not_placement(), &refused());
    check(&crlf(&not_placement()), &refused());
    // A Markdown file: headings are comments, the rest is prose.
    let markdown =
        b"# gtastream\n\nA streaming decoder.\n\n## Usage\n\nRun it:\n\n```\ncargo run\n```\n";
    check(markdown, &refused());
    // Seven stray lines, then a keyword: a placement file; eight: none.
    assert_eq!(SNIFF_LINES, 8);
    let lines = |n: usize| {
        let mut out: Vec<u8> = (0..n)
            .flat_map(|k| format!("stray {k}\n").into_bytes())
            .collect();
        out.extend_from_slice(b"cull\n1\nend\n");
        out
    };
    let seven = lines(7);
    let mut events: Vec<Ev> = (0..7).map(|k| outside(8 * k)).collect();
    events.push(Ev::line("cull", b"1", &[b"1"]));
    check(&seven, &text(&events));
    check(&lines(8), &refused());
    // Blank lines and comments do not count.
    let padded = cat(&[&b"\n# c\n\n".repeat(50), &seven]);
    assert_eq!(log(&padded).len(), text(&events).len());
}

#[test]
fn every_real_kind_of_placement_file_is_accepted() {
    // A real EMPTY.IPL: one line break. Comments only.
    check(b"\n", &text(&[]));
    check(b"# empty\r\n", &text(&[]));
    // No header comment, no final line break.
    check(b"cull\n1\nend", &text(&[Ev::line("cull", b"1", &[b"1"])]));
    // `inst` lines before an `inst` keyword: skipped by the game, but a placement file; the
    // lines are passed through outside any section.
    let file = b"1, a, 0, 0, 0, 0, 0, 0, 0, 1, -1\r\n2, b, 0, 0, 0, 0, 0, 0, 0, 1, -1\r\n";
    let fields = |text: &'static [u8]| split_fields(text);
    let one = b"1, a, 0, 0, 0, 0, 0, 0, 0, 1, -1";
    let two = b"2, b, 0, 0, 0, 0, 0, 0, 0, 1, -1";
    check(
        file,
        &text(&[
            outside(0),
            Ev::line("", one, &fields(one)),
            outside(34),
            Ev::line("", two, &fields(two)),
        ]),
    );
    // A `cars` record alone.
    let car = b"0 0 0 0 1 2 3 0 0 0 0 0";
    check(car, &text(&[outside(0), Ev::line("", car, &fields(car))]));
}

#[test]
fn empty_input_is_its_own_error() {
    check(b"", &[Ev::Error(ErrorKind::Empty, 0)]);
    let mut decoder = Decoder::new();
    let error = decoder.finish(&mut Recorder::default()).unwrap_err();
    assert_eq!((error.kind, error.offset), (ErrorKind::Empty, 0));
    assert_eq!(error.kind.name(), "empty");
    // Empty feeds change nothing.
    let mut decoder = Decoder::new();
    let mut rec = Recorder::default();
    decoder.feed(b"", &mut rec).unwrap();
    assert_eq!(decoder.finish(&mut rec).unwrap_err().kind, ErrorKind::Empty);
}

#[test]
fn errors_stop_the_decoder_and_stay() {
    let file = cat(&[b"inst\n", &[b'7'; 300], b"\nend\ncull\nx\nend\n"]);
    let mut decoder = Decoder::new();
    let mut rec = Recorder::default();
    let error = decoder.feed(&file, &mut rec).unwrap_err();
    assert_eq!((error.kind, error.offset), (ErrorKind::Limit, 5));
    assert_eq!(decoder.error(), Some(error));
    assert_eq!(decoder.line(), Some(2));
    assert_eq!(decoder.feed(b"cull\n", &mut rec), Err(error));
    assert_eq!(decoder.finish(&mut rec), Err(error));
    assert_eq!(rec.events, [Ev::text_file()]);
    // `reset` forgets it.
    decoder.reset();
    let mut rec = Recorder::default();
    decoder.decode_slice(b"cull\nx\nend\n", &mut rec).unwrap();
    assert_eq!(rec.events, text(&[Ev::line("cull", b"x", &[b"x"])]));
}

#[test]
fn every_text_fixture_matches_the_reference_decoder() {
    for (name, file) in text_fixtures() {
        let expected = reference(&file).log();
        assert_eq!(log(&file), expected, "{name}");
        assert_eq!(log_slice(&file), expected, "{name}: decode_slice");
    }
}

/// Archive entries are padded with zeros to their sector: a NUL ends the text, the zeros after
/// it are padding (no warning), and other bytes after it are trailing data.
#[test]
fn a_nul_ends_the_text_and_zero_padding_is_silent() {
    let file = text_all_sections();
    let mut padded = file.clone();
    padded.resize(file.len().next_multiple_of(2048) + 2048, 0);
    assert_eq!(log(&padded), all_sections_events());
    assert_eq!(log_bytewise(&padded), all_sections_events());
    assert_eq!(log_slice(&padded), all_sections_events());
    // The line before the NUL is the last one, read as a line without a break.
    let cut = b"cull\n1 2\0\0\0";
    assert_eq!(
        log(cut),
        text(&[Ev::line("cull", b"1 2", &[b"1", b"2"]), unclosed(8)])
    );
    assert_eq!(log_bytewise(cut), log(cut));
    // Something other than zeros after the NUL is stale data, reported once.
    let mut stale = padded.clone();
    let at = file.len() + 100;
    stale[at] = b'x';
    let mut expected = all_sections_events();
    expected.insert(
        expected.len() - 1,
        Ev::Warning(WarningKind::TrailingData, at as u64),
    );
    assert_eq!(log(&stale), expected);
    assert_eq!(log_bytewise(&stale), expected);
}

// ---- Sections the games do not know ----------------------------------------------------------

/// A mod's `wanted` section (`N, count` lines and tab-indented rows, then `end`) before the
/// usual sections, as real San Andreas mod files have it.
fn wanted() -> Vec<u8> {
    cat(&[
        b"# wanted levels\r\n",
        b"wanted\r\n",
        b"3, 2\r\n",
        b"\t1, 2488.5, -1666.25, 13.3\r\n",
        b"\t2, 2495.0, -1670.0, 13.3\r\n",
        b"end\r\n",
        b"inst\r\n",
        b"1, a, 0, 0, 0, 0, 0, 0, 0, 1, -1\r\n",
        b"end\r\n",
    ])
}

fn wanted_events() -> Vec<Ev> {
    let line = |text: &'static [u8]| Ev::line("wanted", text, &split_fields(text));
    text(&[
        line(b"3, 2"),
        line(b"1, 2488.5, -1666.25, 13.3"),
        line(b"2, 2495.0, -1670.0, 13.3"),
        Ev::Instance(Inst::sa(1, b"a", 0, [0.0; 3], ROT0, -1)),
    ])
}

#[test]
fn a_bare_word_opens_a_section_the_games_do_not_know() {
    let file = wanted();
    check(&file, &wanted_events());
    // The same events however the input is cut (the kit's driver: every split in two, bytes).
    let cuts = testkit::driver::Cut::every_split(file.len()).chain([
        testkit::driver::Cut::bytewise(),
        testkit::driver::Cut::Chunk(7),
    ]);
    for cut in cuts {
        let outcome =
            testkit::driver::drive_cut(&file, &cut, testkit::driver::Policy::Continue, false);
        assert_eq!(outcome.logged(), wanted_events(), "{cut:?}");
    }
    // A file of that section alone is a placement file with no records (the game loads it).
    let alone = b"wanted\n3, 2\n\t1, 0.5, 0.5, 1\nend\n";
    check(
        alone,
        &text(&[
            Ev::line("wanted", b"3, 2", &[b"3", b"2"]),
            Ev::line("wanted", b"1, 0.5, 0.5, 1", &[b"1", b"0.5", b"0.5", b"1"]),
        ]),
    );
    // Words: lower case letters, digits and `_`, a letter first, up to MAX_SECTION_NAME bytes;
    // blanks may follow. `end...` closes, and is a stray line outside any section.
    let sixteen = b"a234567890123456";
    assert_eq!(sixteen.len(), gtastream::MAX_SECTION_NAME);
    check(
        &cat(&[b"cull\nend\n", sixteen, b" \t\n1\nend\n"]),
        &text(&[Ev::line("a234567890123456", b"1", &[b"1"])]),
    );
    check(
        b"cull\nend\nmy_zone2,\n1\nend\n",
        &text(&[Ev::line("my_zone2", b"1", &[b"1"])]),
    );
    for not_a_word in [
        &b"a2345678901234567"[..],
        b"Wanted",
        b"2wanted",
        b"wanted 1",
        b"want-ed",
        b"endwanted",
    ] {
        let file = cat(&[b"cull\nend\n", not_a_word, b"\n"]);
        check(
            &file,
            &text(&[
                outside(9),
                Ev::line("", not_a_word, &split_fields(not_a_word)),
            ]),
        );
    }
    // To the games an unknown section is none: a section name inside one opens its section.
    check(
        b"wanted\n1 2\nzone\nz\nend\n",
        &text(&[
            Ev::line("wanted", b"1 2", &[b"1", b"2"]),
            Ev::line("zone", b"z", &[b"z"]),
        ]),
    );
}

#[test]
fn lines_outside_sections_are_passed_through_after_their_warning() {
    // A record before any section name, a stray line between sections: each a warning, then
    // the line with no section name.
    let record = b"1, a, 0, 0, 0, 0, 0, 0, 0, 1, -1";
    let file = cat(&[record, b"\ncull\nend\nstray line\n"]);
    check(
        &file,
        &text(&[
            outside(0),
            Ev::line("", record, &split_fields(record)),
            outside(42),
            Ev::line("", b"stray line", &[b"stray", b"line"]),
        ]),
    );
    // A pause after the warning leaves the decoder at the line's start, for any cut.
    for cut in testkit::driver::Cut::every_split(file.len()) {
        let plain =
            testkit::driver::drive_cut(&file, &cut, testkit::driver::Policy::Continue, false);
        let paused =
            testkit::driver::drive_cut(&file, &cut, testkit::driver::Policy::PauseEvery, false);
        assert_eq!(paused.logged(), plain.logged(), "{cut:?}");
    }
}

#[test]
fn text_that_is_no_placement_file_is_still_refused() {
    // A Cargo.toml, a README (comments, prose, a capitalised one-word heading), a list of
    // numbers, upper-case words.
    let readme =
        b"# gtastream\n\nA streaming decoder.\n\nUsage\n=====\n\nRun `gtastream info FILE`.\n";
    for file in [
        not_placement(),
        readme.to_vec(),
        b"1\n2\n3\n".to_vec(),
        b"WANTED\n3, 2\nEND\n".to_vec(),
        b"[wanted]\n3, 2\n".to_vec(),
    ] {
        check(&file, &refused());
    }
}

#[test]
#[cfg(feature = "alloc")]
fn unknown_sections_and_outside_lines_write_back() {
    use gtastream::encode::{EncodeOptions, Encoder};
    use gtastream::Format;
    let outside = b"1, a, 0, 0, 0, 0, 0, 0, 0, 1, -1";
    for file in [wanted(), cat(&[outside, b"\nwanted\n3 2\nend\nx y\n"])] {
        let mut encoder = Encoder::new(Format::IplText, Vec::new(), EncodeOptions::default())
            .expect("text is written");
        gtastream::Decoder::new()
            .decode_slice(&file, &mut encoder)
            .unwrap();
        let written = encoder.into_sink();
        let without = |log: Vec<Ev>| -> Vec<Ev> {
            log.into_iter()
                .filter(|e| !matches!(e, Ev::Warning(..)))
                .collect()
        };
        assert_eq!(without(log(&written)), without(log(&file)), "{written:?}");
    }
    // Lines that would read back as something else are refused (errors stick: an encoder
    // each); the lines before the last one are written.
    let last_refused = |lines: &[(&str, &[u8])]| {
        let mut e = Encoder::new(Format::IplText, Vec::new(), EncodeOptions::default()).unwrap();
        e.file(None).unwrap();
        let (last, before) = lines.split_last().unwrap();
        for (section, text) in before {
            e.section_line(section, text).unwrap();
        }
        e.section_line(last.0, last.1).is_err()
    };
    // Before any section name or record, a stray line would be skipped by a reader.
    assert!(last_refused(&[("", b"stray line")]));
    assert!(!last_refused(&[("", outside), ("", b"stray line")]));
    // A section name inside an unknown section opens that section.
    assert!(last_refused(&[("wanted", b"3 2"), ("wanted", b"zone")]));
    // No bare word: no section name a reader would find.
    assert!(last_refused(&[("Wanted", b"1")]));
    assert!(last_refused(&[("wanted 2", b"1")]));
    // Outside a section, a bare word or a section name would open one.
    assert!(last_refused(&[("wanted", b"1"), ("", b"wanted")]));
    assert!(last_refused(&[("wanted", b"1"), ("", b"cull x")]));
    assert!(!last_refused(&[("wanted", b"1"), ("", b"x y")]));
}

/// A stored line is written only while it reads back as its event: one that would read back
/// as a section header or an `end` is refused exactly as the text without it (issue 31: both
/// returned OK, the output read back as an empty section and as a lost line).
#[test]
#[cfg(feature = "alloc")]
fn stored_lines_that_read_back_otherwise_are_refused() {
    use gtastream::encode::{EncodeOptions, Encoder};
    use gtastream::Format;
    let outcome = |section: &str, text: &[u8], raw: &[u8]| {
        let mut e = Encoder::new(Format::IplText, Vec::new(), EncodeOptions::default()).unwrap();
        e.file(None).unwrap();
        let result = e.section_line_stored(section, text, 1, raw);
        result.map(|()| e.into_sink()).map_err(|e| format!("{e:?}"))
    };
    for (section, text, raw) in [
        ("", &b"abc"[..], &b"abc\n"[..]),
        ("grge", b"end", b"end\n"),
        ("grge", b"END of it", b"END of it\r\n"),
        ("", b"cull 1 2", b"cull 1 2\n"),
        ("wanted", b"inst", b"inst\n"),
        ("grge", b"# note", b"# note\n"),
    ] {
        let with_raw = outcome(section, text, raw);
        let without = outcome(section, text, b"");
        assert_eq!(
            with_raw.as_ref().err(),
            without.as_ref().err(),
            "{section:?} {text:?}"
        );
        assert!(with_raw.is_err(), "{text:?}");
    }
    // A stored line that reads back as its event is still written as stored (its blanks and
    // line break kept) once the section is open.
    let mut e = Encoder::new(Format::IplText, Vec::new(), EncodeOptions::default()).unwrap();
    e.file(None).unwrap();
    e.text_line(b"grge\n").unwrap();
    e.section_line_stored("grge", b"1 2 3", 2, b"  1 2 3\t\r\n")
        .unwrap();
    e.text_line(b"end\n").unwrap();
    e.end().unwrap();
    assert_eq!(e.into_sink(), b"grge\n  1 2 3\t\r\nend\n");
}
