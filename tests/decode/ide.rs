//! IDE files (docs/FORMATS.md §12): every field of a model definition pinned by hand-written
//! lines of each section and each game's layout, the lines passed through, what tells an IDE
//! from a text IPL, warnings with their offsets, every line ending and hand edit of the real
//! files' shapes (`testkit::ide`), chunk invariance, and the byte-for-byte round trip.

use gtastream::encode::{EncodeOptions, Encoder};
use gtastream::{
    Decoder, ErrorKind, FileInfo, Flow, Format, Game, IdeObject, Options, Record, Visitor, Warning,
    WarningKind, MAX_LINE,
};
use testkit::driver::{drive_cut_with, Cut, Policy};

/// A definition as the decoder gave it, owned (the draw distance by its bits).
#[derive(Clone, Debug, Default, PartialEq)]
struct Obj {
    section: String,
    id: i32,
    model: Vec<u8>,
    txd: Vec<u8>,
    mesh_count: Option<i32>,
    draw_distance: Option<u32>,
    flags: Option<u32>,
    times: Option<(i32, i32)>,
    animation: Option<Vec<u8>>,
    text: Vec<u8>,
    line: u32,
    offset: u64,
    raw: Vec<u8>,
}

#[derive(Clone, Debug, PartialEq)]
enum Got {
    File(Format),
    Object(Obj),
    Line {
        section: String,
        text: Vec<u8>,
        line: u32,
        raw: Vec<u8>,
    },
    Warning(WarningKind, u64),
    End,
    Error(ErrorKind, u64),
    /// A record of a text IPL.
    Placement,
}

#[derive(Default)]
struct Collect(Vec<Got>);

impl Visitor for Collect {
    fn file(&mut self, info: &FileInfo<'_>) -> Flow {
        self.0.push(Got::File(info.format));
        Flow::Continue
    }
    fn record(&mut self, record: &Record<'_>) -> Flow {
        self.0.push(match record {
            Record::IdeObject(o) => Got::Object(owned(o)),
            Record::SectionLine(l) => Got::Line {
                section: l.section.into(),
                text: l.text.to_vec(),
                line: l.line,
                raw: l.raw.to_vec(),
            },
            _ => Got::Placement,
        });
        Flow::Continue
    }
    fn warning(&mut self, warning: Warning) -> Flow {
        self.0.push(Got::Warning(warning.kind, warning.offset));
        Flow::Continue
    }
    fn end(&mut self) -> Flow {
        self.0.push(Got::End);
        Flow::Continue
    }
}

fn owned(o: &IdeObject<'_>) -> Obj {
    Obj {
        section: o.section.into(),
        id: o.id,
        model: o.model_name.to_vec(),
        txd: o.txd_name.to_vec(),
        mesh_count: o.mesh_count,
        draw_distance: o.draw_distance.map(f32::to_bits),
        flags: o.flags,
        times: o.time_on.zip(o.time_off),
        animation: o.animation.map(<[u8]>::to_vec),
        text: o.text.to_vec(),
        line: o.line,
        offset: o.offset,
        raw: o.raw.to_vec(),
    }
}

fn decode_as(file: &[u8], game: Option<Game>) -> Vec<Got> {
    let options = Options {
        game,
        ..Options::default()
    };
    let mut got = Collect::default();
    if let Err(e) = Decoder::with_options(options).decode_slice(file, &mut got) {
        got.0.push(Got::Error(e.kind, e.offset));
    }
    got.0
}

fn decode(file: &[u8]) -> Vec<Got> {
    decode_as(file, None)
}

/// The definitions alone.
fn objects(events: &[Got]) -> Vec<Obj> {
    events
        .iter()
        .filter_map(|e| match e {
            Got::Object(o) => Some(o.clone()),
            _ => None,
        })
        .collect()
}

/// The one definition of `line` in `section` (opened on the line before, at offset 0).
fn one(section: &str, line: &str, game: Option<Game>) -> Option<Obj> {
    let file = format!("{section}\n{line}\nend\n");
    let events = decode_as(file.as_bytes(), game);
    assert_eq!(events.first(), Some(&Got::File(Format::Ide)), "{file}");
    let found = objects(&events);
    assert!(found.len() <= 1);
    let got = found.into_iter().next();
    // Pinned once here: the line number, offset, stored line and text of every definition.
    if let Some(o) = &got {
        assert_eq!(o.line, 2);
        assert_eq!(o.offset, section.len() as u64 + 1);
        assert_eq!(o.raw, format!("{line}\n").as_bytes());
        assert_eq!(o.text, line.as_bytes());
        assert_eq!(o.section, section);
    } else {
        // A line the game does not read: a warning at the line, then the line passed through.
        assert_eq!(
            events[1..],
            [
                Got::Warning(WarningKind::MalformedLine, section.len() as u64 + 1),
                Got::Line {
                    section: section.into(),
                    text: line.as_bytes().to_vec(),
                    line: 2,
                    raw: format!("{line}\n").into_bytes(),
                },
                Got::End,
            ],
            "{file}"
        );
    }
    got
}

fn bits(value: f32) -> Option<u32> {
    Some(value.to_bits())
}

fn obj(id: i32, model: &str, txd: &str) -> Obj {
    Obj {
        id,
        model: model.into(),
        txd: txd.into(),
        ..Obj::default()
    }
}

/// Compares the fields a case names (the line's own are checked by [`one`]).
fn same(got: Option<Obj>, expected: Obj) {
    let got = got.expect("a definition");
    let values = |o: &Obj| {
        (
            o.id,
            o.model.clone(),
            o.txd.clone(),
            o.mesh_count,
            o.draw_distance,
            o.flags,
            o.times,
            o.animation.clone(),
        )
    };
    assert_eq!(values(&got), values(&expected));
}

#[test]
fn objs_lines_in_every_layout() {
    // San Andreas' short layout (gta-reversed LoadObject: "%d %s %s %f %d").
    let mut short = obj(615, "veg_tree3", "gta_tree_boak");
    short.draw_distance = bits(300.0);
    short.flags = Some(2_097_152);
    same(
        one("objs", "615, veg_tree3, gta_tree_boak, 300, 2097152", None),
        short.clone(),
    );
    same(
        one(
            "objs",
            "615, veg_tree3, gta_tree_boak, 300, 2097152",
            Some(Game::SanAndreas),
        ),
        short,
    );
    // GTA III and Vice City read a mesh count there: 300 meshes is none they know.
    for game in [Game::Iii, Game::ViceCity] {
        assert_eq!(one("objs", "615, tree, txd, 300, 0", Some(game)), None);
    }
    // The mesh-count layouts, in every game (a count of one to three, as many distances).
    for game in [None, Some(Game::Iii), Some(Game::ViceCity)] {
        let mut one_mesh = obj(100, "lamppost1", "lamppost");
        one_mesh.mesh_count = Some(1);
        one_mesh.draw_distance = bits(100.0);
        one_mesh.flags = Some(0);
        same(
            one("objs", "100, lamppost1, lamppost, 1, 100, 0", game),
            one_mesh,
        );
        let mut two = obj(101, "gate", "gate");
        two.mesh_count = Some(2);
        two.draw_distance = bits(30.0);
        two.flags = Some(4);
        same(one("objs", "101 gate gate 2 30 120 4", game), two);
        let mut three = obj(200, "bench", "generic");
        three.mesh_count = Some(3);
        three.draw_distance = bits(20.5);
        three.flags = Some(132);
        same(
            one("objs", "200\tbench\tgeneric\t3\t20.5\t50\t150\t132", game),
            three,
        );
        // A distance missing, no distance at all: not read.
        assert_eq!(one("objs", "103 m t 2 30 0", game), None);
        assert_eq!(one("objs", "104 m t", game), None);
    }
    // Four meshes: GTA III and Vice City know none; San Andreas reads the short layout (a
    // distance of 4, flags 1), the rest unread.
    for game in [Game::Iii, Game::ViceCity] {
        assert_eq!(one("objs", "102 m t 4 1 2 3 4 0", Some(game)), None);
    }
    let mut four = obj(102, "m", "t");
    four.draw_distance = bits(4.0);
    four.flags = Some(1);
    same(one("objs", "102 m t 4 1 2 3 4 0", None), four);
    // San Andreas falls back to the mesh count when the short distance is under 4.
    let mut fallback = obj(105, "m", "t");
    fallback.mesh_count = Some(1);
    fallback.draw_distance = bits(3.5);
    fallback.flags = Some(1);
    same(one("objs", "105 m t 1 3.5 1", None), fallback);
    // Negative flags, as `%d` into an unsigned field.
    let mut negative = obj(106, "m", "t");
    negative.draw_distance = bits(50.0);
    negative.flags = Some(u32::MAX);
    same(one("objs", "106 m t 50 -1", None), negative);
    // An inline comment and `' ,'` separators: the games' sscanf stops before them.
    let mut commented = obj(1501, "box", "generic");
    commented.draw_distance = bits(100.0);
    commented.flags = Some(0);
    same(
        one("objs", "1501 , box , generic , 100 , 0   # a box", None),
        commented,
    );
}

#[test]
fn tobj_anim_weap_hier_cars_peds_lines() {
    let mut timed = obj(3000, "nitelite", "nitelite_txd");
    timed.draw_distance = bits(150.0);
    timed.flags = Some(0);
    timed.times = Some((20, 6));
    same(
        one("tobj", "3000, nitelite, nitelite_txd, 150, 0, 20, 6", None),
        timed,
    );
    let mut old = obj(102, "neon01", "neon");
    old.mesh_count = Some(1);
    old.draw_distance = bits(300.0);
    old.flags = Some(0);
    old.times = Some((20, 6));
    same(
        one(
            "tobj",
            "102, neon01, neon, 1, 300, 0, 20, 6",
            Some(Game::ViceCity),
        ),
        old,
    );
    assert_eq!(one("tobj", "102, neon01, neon, 1, 300, 0, 20", None), None);

    // San Andreas' animated objects: "%d %s %s %s %f %d", all six needed.
    let mut anim = obj(3394, "kmb_container_red", "kmb_container");
    anim.animation = Some(b"container_anim".to_vec());
    anim.draw_distance = bits(150.0);
    anim.flags = Some(0);
    same(
        one(
            "anim",
            "3394, kmb_container_red, kmb_container, container_anim, 150, 0",
            None,
        ),
        anim,
    );
    assert_eq!(one("anim", "3394, a, b, c, 150", None), None);

    // Weapons: "%d %s %s %s %d %f" (San Andreas' files add a field the game does not read).
    let mut weapon = obj(321, "gun_dildo1", "gun_dildo1");
    weapon.animation = Some(b"null".to_vec());
    weapon.draw_distance = bits(50.0);
    same(
        one("weap", "321, gun_dildo1, gun_dildo1, null, 1, 50, 0", None),
        weapon,
    );
    assert_eq!(one("weap", "321, a, b, null, 1", None), None);

    same(
        one("hier", "3092, dead_tied_cop, dead_tied_cop", None),
        obj(3092, "dead_tied_cop", "dead_tied_cop"),
    );
    assert_eq!(one("hier", "3092, dead_tied_cop", None), None);

    // Cars and pedestrians: the three fields named, the rest in the text.
    let car = "400, landstal, landstal, car, LANDSTAL, LANDSTK, null, richfamily, 10, 7, 0";
    same(one("cars", car, None), obj(400, "landstal", "landstal"));
    // A car line opens its file: `cars` is a text IPL section too (the line tells).
    let ped = "7, male01, male01, CIVMALE, STAT_STREET_GUY, man, 1FF, 0, null, 9, 9";
    same(one("peds", ped, None), obj(7, "male01", "male01"));
    // GTA III reads a pedestrian only with its seven fields (re3 LoadPedObject).
    let short_ped = "2\tgang01\tgang01\tGANG1";
    same(
        one("peds", short_ped, Some(Game::ViceCity)),
        obj(2, "gang01", "gang01"),
    );
    assert_eq!(one("peds", short_ped, Some(Game::Iii)), None);
    same(
        one(
            "peds",
            "1\tcop\tcop\tCOP\tSTAT_COP\tman\t7F",
            Some(Game::Iii),
        ),
        obj(1, "cop", "cop"),
    );
    // An id that is no number: not read.
    assert_eq!(one("hier", "x, a, b", None), None);
}

#[test]
fn other_sections_pass_through() {
    let file = b"objs\nend\ntxdp\ngta_tree_boak, gta_tree_parent\nend\n2dfx\n100, 0, 0, 5, 255\nend\npath\n1, 100, lamppost1\nend\ntanm\n1, a, b, c\nend\n";
    let lines: Vec<_> = decode(file)
        .into_iter()
        .filter_map(|e| match e {
            Got::Line {
                section,
                text,
                line,
                ..
            } => Some((section, text, line)),
            Got::File(Format::Ide) | Got::End => None,
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        lines,
        [
            ("txdp".into(), b"gta_tree_boak, gta_tree_parent".to_vec(), 4),
            ("2dfx".into(), b"100, 0, 0, 5, 255".to_vec(), 7),
            ("path".into(), b"1, 100, lamppost1".to_vec(), 10),
            ("tanm".into(), b"1, a, b, c".to_vec(), 13),
        ]
    );
}

#[test]
fn what_tells_an_ide_from_a_text_ipl() {
    let format = |file: &[u8]| match decode(file).first() {
        Some(Got::File(format)) => Some(*format),
        _ => None,
    };
    // A section only IDE files have.
    for name in [
        "objs", "tobj", "anim", "weap", "peds", "2dfx", "txdp", "hier", "tanm",
    ] {
        assert_eq!(
            format(format!("{name}\nend\n").as_bytes()),
            Some(Format::Ide),
            "{name}"
        );
    }
    // One only text IPL files have.
    assert_eq!(format(b"inst\nend\n"), Some(Format::IplText));
    // `cars` and `path`: their first line tells.
    assert_eq!(
        format(b"cars\n400, landstal, landstal, car\nend\n"),
        Some(Format::Ide)
    );
    assert_eq!(
        format(b"cars\n1.0, 2.0, 3.0, 0, 400, -1, -1, 0, 0, 0, 0, 0\nend\n"),
        Some(Format::IplText)
    );
    assert_eq!(format(b"path\n1, 100, lamppost1\nend\n"), Some(Format::Ide));
    // Only where both formats read the header as that section: text IPL alone reads `PATH`
    // (any case, the whole word), an IDE alone `pathinst` (a lower-case prefix).
    let ipl_line = b"1.0, 2.0, 3.0, 0, 400, -1, -1, 0, 0, 0, 0, 0\nend\n";
    assert_eq!(
        format(&[b"CARS\n".as_slice(), ipl_line].concat()),
        Some(Format::IplText)
    );
    assert_eq!(
        format(&[b"carsx\n".as_slice(), ipl_line].concat()),
        Some(Format::Ide)
    );
    assert_eq!(
        format(b"pathinst\n\"00iLn7657e-08( 2.1\n"),
        Some(Format::Ide)
    );
    // Empty, they tell nothing: the next section does.
    assert_eq!(format(b"cars\nend\nobjs\nend\n"), Some(Format::Ide));
    assert_eq!(format(b"cars\nend\n"), Some(Format::IplText));
    // A definition before any section.
    let early = decode(b"# defs\n1500 , early , generic , 100 , 0\nobjs\nend\n");
    assert_eq!(
        early,
        [
            Got::File(Format::Ide),
            Got::Warning(WarningKind::LineOutsideSection, 7),
            Got::Line {
                section: String::new(),
                text: b"1500 , early , generic , 100 , 0".to_vec(),
                line: 2,
                raw: b"1500 , early , generic , 100 , 0\n".to_vec(),
            },
            Got::End,
        ]
    );
    // The games' section names are lower case.
    assert_eq!(format(b"OBJS\n1 a b 100 0\nend\n"), Some(Format::Ide));
    assert_eq!(
        decode(b"OBJS\n1 a b 100 0\nend\n")[1],
        Got::Warning(WarningKind::LineOutsideSection, 0)
    );
}

#[test]
fn warnings_of_real_files_shapes() {
    // testkit::ide::quirks: a definition before any section, `' ,'`, blanks before `objs`, an
    // inline comment, a line not read, a stray `end`, an unknown section, the last section
    // open and no final newline.
    let file = testkit::ide::quirks();
    let events = decode(&file);
    let at = |needle: &str| {
        file.windows(needle.len())
            .position(|w| w == needle.as_bytes())
            .expect("in the file") as u64
    };
    let kinds: Vec<_> = events
        .iter()
        .map(|e| match e {
            Got::File(_) => "file".to_string(),
            Got::Object(o) => format!("object {}", o.id),
            Got::Line { section, text, .. } => {
                format!("line {section}: {}", String::from_utf8_lossy(text))
            }
            Got::Warning(kind, offset) => format!("{} at {offset}", kind.name()),
            Got::End => "end".into(),
            Got::Error(kind, offset) => format!("error {kind:?} {offset}"),
            Got::Placement => "placement".into(),
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "file".to_string(),
            "line_outside_section at 0".into(),
            "line : 1500 , early , generic , 100 , 0".into(),
            "object 1501".into(),
            format!("malformed_line at {}", at("1502")),
            "line objs: 1502, quad, generic".into(),
            format!("line_outside_section at {}", at("end\nend") + 4),
            "line : end".into(),
            "line mlox: one, two".into(),
            "object 1503".into(),
            format!("unclosed_section at {}", file.len()),
            "end".into(),
        ]
    );
    let last = objects(&events).pop().expect("a last definition");
    assert_eq!(last.raw, b"1503, last, generic");
    assert_eq!(last.line, 12);
}

#[test]
fn line_breaks_are_kept_as_stored() {
    for eol in ["\n", "\r\n", "\r\r\n"] {
        let file = format!("objs{eol}1 a b 100 0{eol}end{eol}");
        let got = objects(&decode(file.as_bytes()));
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].raw, format!("1 a b 100 0{eol}").as_bytes());
        assert_eq!(got[0].text, b"1 a b 100 0");
        assert_eq!(got[0].offset, 4 + eol.len() as u64);
    }
}

#[test]
fn a_line_over_the_bound_fails_at_its_offset() {
    let mut file = b"objs\n".to_vec();
    file.extend(std::iter::repeat_n(b'1', MAX_LINE + 1));
    assert_eq!(decode(&file).last(), Some(&Got::Error(ErrorKind::Limit, 5)));
}

/// Every cut of each real file's shape gives the same events (the test kit's log, which
/// writes every record's fields, stored line and offset).
#[test]
fn any_chunking_gives_the_same_events() {
    for (name, file) in testkit::ide::shapes() {
        for game in [
            None,
            Some(Game::Iii),
            Some(Game::ViceCity),
            Some(Game::SanAndreas),
        ] {
            let options = Options {
                game,
                ..Options::default()
            };
            let whole = drive_cut_with(&file, &Cut::Whole, Policy::Continue, options).logged();
            assert!(
                whole.iter().any(|e| format!("{e:?}").contains("IdeObject")),
                "{name}"
            );
            let cuts = [Cut::bytewise(), Cut::Sizes(vec![7, 0, 3, 64, 1])]
                .into_iter()
                .chain(Cut::every_split(file.len()));
            for cut in cuts {
                for policy in [Policy::Continue, Policy::PauseEvery] {
                    let log = drive_cut_with(&file, &cut, policy, options).logged();
                    assert_eq!(log, whole, "{name} {game:?} {cut:?}");
                }
            }
        }
    }
}

fn write_back(file: &[u8]) -> Vec<u8> {
    let mut encoder =
        Encoder::new(Format::Ide, Vec::new(), EncodeOptions::default()).expect("IDE is written");
    Decoder::new()
        .decode_slice(file, &mut encoder)
        .expect("the file decodes");
    assert!(encoder.is_finished(), "{:?}", encoder.error());
    encoder.into_sink()
}

#[test]
fn unedited_files_come_back_byte_for_byte() {
    for (name, file) in testkit::ide::shapes() {
        assert_eq!(write_back(&file), file, "{name}");
    }
}

#[test]
fn definitions_are_written_from_their_fields() {
    let mut encoder =
        Encoder::new(Format::Ide, Vec::new(), EncodeOptions::default()).expect("IDE is written");
    encoder.file(None).unwrap();
    let mut short = IdeObject::default();
    short.section = "objs";
    short.id = 1337;
    short.model_name = b"box";
    short.txd_name = b"generic";
    short.draw_distance = Some(100.0);
    short.flags = Some(4);
    encoder.record(&Record::IdeObject(short)).unwrap();
    let mut meshes = short;
    meshes.id = 1338;
    meshes.mesh_count = Some(2);
    meshes.draw_distance = Some(30.5);
    // The second distance comes from the line's text.
    meshes.text = b"1338, box, generic, 2, 99, 120, 0";
    encoder.record(&Record::IdeObject(meshes)).unwrap();
    let mut car = IdeObject::default();
    car.section = "cars";
    car.id = 401;
    car.model_name = b"bravura";
    car.txd_name = b"bravura";
    // Edited: the id and names; the fields the record does not name are the text's.
    car.text = b"400, landstal, landstal, car, LANDSTAL, LANDSTK, null, richfamily, 10";
    encoder.record(&Record::IdeObject(car)).unwrap();
    // A draw distance missing from an `objs` definition cannot be written.
    let mut missing = short;
    missing.draw_distance = None;
    assert!(encoder.record(&Record::IdeObject(missing)).is_err());
    let mut encoder =
        Encoder::new(Format::Ide, Vec::new(), EncodeOptions::default()).expect("IDE is written");
    encoder.file(None).unwrap();
    encoder.record(&Record::IdeObject(short)).unwrap();
    encoder.record(&Record::IdeObject(meshes)).unwrap();
    encoder.record(&Record::IdeObject(car)).unwrap();
    encoder.end().unwrap();
    let written = encoder.into_sink();
    assert_eq!(
        String::from_utf8(written.clone()).unwrap(),
        "objs\n1337, box, generic, 100, 4\n1338, box, generic, 2, 30.5, 120, 4\nend\n\
         cars\n401, bravura, bravura, car, LANDSTAL, LANDSTK, null, richfamily, 10\nend\n"
    );
    // And read back as they were.
    let read = objects(&decode(&written));
    assert_eq!(read.len(), 3);
    assert_eq!(read[1].mesh_count, Some(2));
    assert_eq!(read[1].draw_distance, bits(30.5));
    assert_eq!(read[2].id, 401);
}

#[test]
fn an_ide_is_no_placement_file_to_convert_to() {
    let file = testkit::ide::sa();
    let mut encoder = Encoder::new(Format::IplText, Vec::new(), EncodeOptions::default()).unwrap();
    assert!(Decoder::new().decode_slice(&file, &mut encoder).is_err());
}

/// An archive names an IDE entry as the decoder reads it.
#[test]
fn an_archive_entry_is_named_an_ide() {
    for (name, file) in testkit::ide::shapes() {
        assert_eq!(
            gtastream::archive::decoded_format(&file, true),
            Some(Format::Ide),
            "{name}"
        );
    }
    let ipl = b"inst\n1, a, 0, 1, 2, 3, 0, 0, 0, 1, -1\nend\n";
    assert_eq!(
        gtastream::archive::decoded_format(ipl, true),
        Some(Format::IplText)
    );
}

/// The rules of `check` on a file's definitions: (rule id, games) of each finding.
fn findings(file: &[u8]) -> Vec<(&'static str, Vec<&'static str>, Option<f64>)> {
    use gtastream::check::{Checker, Finding, Games};
    let mut found = Vec::new();
    let mut checker = Checker::new(Games::ALL, |f: &Finding| found.push(*f));
    Decoder::new()
        .decode_slice(file, &mut checker)
        .expect("the file decodes");
    checker.finish();
    found
        .iter()
        .map(|f| {
            let games = Games::EACH
                .iter()
                .filter(|(g, _)| f.games.contains(*g))
                .map(|&(_, name)| name)
                .collect();
            (f.rule.id(), games, f.value)
        })
        .collect()
}

#[test]
fn ids_past_each_games_model_table_and_long_names_are_found() {
    let line = |id: i32, name: &str| format!("objs\n{id}, {name}, generic, 100, 0\nend\n");
    // Near misses: the last id of GTA III's table, a 23-byte name.
    assert_eq!(findings(line(5499, &"m".repeat(23)).as_bytes()), []);
    assert_eq!(
        findings(line(5500, "m").as_bytes()),
        [("ide.id.range", vec!["iii"], Some(5500.0))]
    );
    assert_eq!(
        findings(line(6500, "m").as_bytes()),
        [
            ("ide.id.range", vec!["iii"], Some(6500.0)),
            ("ide.id.range", vec!["vc"], Some(6500.0))
        ]
    );
    assert_eq!(findings(line(19999, "m").as_bytes()).len(), 2);
    let all = findings(line(-1, "m").as_bytes());
    assert_eq!(
        all.iter().map(|f| f.1.clone()).collect::<Vec<_>>(),
        [["iii"], ["vc"], ["sa"]]
    );
    assert_eq!(
        findings(line(100, &"m".repeat(24)).as_bytes()),
        [("ide.name.length", vec!["iii", "vc", "sa"], Some(24.0))]
    );
    // The real files' shapes give none.
    for (name, file) in testkit::ide::shapes() {
        assert_eq!(findings(&file), [], "{name}");
    }
}

/// With the games from the file, a definition tells which games the file is for: an SA or VC
/// file's ids give no finding for the earlier games.
#[test]
fn an_ide_names_its_games() {
    use gtastream::check::{Checker, Finding, Games};
    let games_of = |file: &[u8]| {
        let mut found = 0;
        let mut checker = Checker::from_file(|_: &Finding| found += 1);
        Decoder::new().decode_slice(file, &mut checker).unwrap();
        checker.finish();
        let games = checker.games();
        (games, found)
    };
    let sa = Games::SA;
    let vc_sa = Games::VC.union(Games::SA);
    let all = Games::III.union(vc_sa);
    assert_eq!(games_of(b"objs\n18000, m, t, 300, 0\nend\n"), (sa, 0));
    assert_eq!(games_of(b"objs\n6000, m, t, 1, 300, 0\nend\n"), (vc_sa, 0));
    assert_eq!(
        games_of(b"weap\n259, m, t, unarmed, 1, 50\nend\n"),
        (vc_sa, 0)
    );
    assert_eq!(games_of(b"anim\n3394, m, t, anim, 150, 0\nend\n"), (sa, 0));
    assert_eq!(games_of(b"objs\n100, m, t, 1, 300, 0\nend\n"), (all, 0));
    // Past every table: all three, each its finding.
    assert_eq!(games_of(b"objs\n20000, m, t, 300, 0\nend\n"), (sa, 1));
    assert_eq!(games_of(b"hier\n20000, m, t\nend\n"), (all, 3));
}
