//! `check DIR` (rules `mod.*`): whole folders built in code in a temporary directory, each
//! rule's case that fires and its near miss that does not, and the stock shapes of the three
//! games giving no error.

use gtastream::check::folder::{check_folder, FolderOptions, FolderReport};
use gtastream::check::mods::{model_ids, IdSlot, NameSlot, NAME_SLOTS};
use gtastream::check::walk::{walk, WalkEvent};
use gtastream::check::{Level, Rule};
use gtastream::Game;
use testkit::folder::{gta3, san_andreas, stream_ipl, vice_city, Folder, MemFiles};
use testkit::img::Img;

/// The folder checked on disk; the same walk over its files held in memory (as a host with
/// its own file system serves them), whole or in short reads of any size, must tell the same
/// files, findings and failures.
fn check(folder: &Folder) -> FolderReport {
    let report =
        check_folder(&folder.root, &FolderOptions::default(), &mut |_, _| {}).expect("checked");
    for most in [usize::MAX, 1, 7, 600] {
        let mut files = MemFiles::read(folder).with_reads_of(most);
        let (mut paths, mut findings, mut unreadable) = (Vec::new(), Vec::new(), Vec::new());
        let mut names = vec![NameSlot::EMPTY; NAME_SLOTS];
        let mut ids = vec![IdSlot::EMPTY; model_ids(report.game)];
        let summary = walk(
            &mut files,
            report.game,
            &mut names,
            &mut ids,
            |event| match event {
                WalkEvent::File { path, .. } => {
                    paths.push(String::from_utf8_lossy(path).into_owned())
                }
                WalkEvent::Finding(f) => findings.push(*f),
                WalkEvent::Unreadable { file, reason } => {
                    unreadable.push((paths[file as usize].clone(), reason.to_string()))
                }
                _ => {}
            },
        )
        .expect("walked in memory");
        assert_eq!(paths, report.files, "reads of {most}");
        assert_eq!(findings, report.findings, "reads of {most}");
        assert_eq!(unreadable, report.unreadable, "reads of {most}");
        assert_eq!(summary.entries, report.entries);
        assert_eq!(
            summary.errors as usize,
            findings
                .iter()
                .filter(|f| f.finding.level() == Level::Error)
                .count()
        );
    }
    report
}

/// The rules found across files (`mod.*`), with the file and the other file named.
fn mod_rules(report: &FolderReport) -> Vec<(&'static str, String, Option<String>)> {
    report
        .findings
        .iter()
        .filter(|f| f.finding.rule.id().starts_with("mod."))
        .map(|f| {
            (
                f.finding.rule.id(),
                report.files[f.file as usize].clone(),
                f.other.map(|o| report.files[o as usize].clone()),
            )
        })
        .collect()
}

fn errors(report: &FolderReport) -> Vec<String> {
    report
        .findings
        .iter()
        .filter(|f| f.finding.level() == Level::Error)
        .map(|f| {
            format!(
                "{} {}: {}",
                report.files[f.file as usize],
                f.finding.rule.id(),
                f.finding
            )
        })
        .collect()
}

#[test]
fn stock_san_andreas_has_no_error() {
    let folder = san_andreas("stock-sa", "");
    let report = check(&folder);
    assert_eq!(report.game, Game::SanAndreas);
    assert_eq!(errors(&report), Vec::<String>::new());
    assert_eq!(mod_rules(&report), []);
    assert!(report.unreadable.is_empty(), "{:?}", report.unreadable);
    assert_eq!(report.entries, 10);
    // The files in load order: the archives the game opens first, the level files, the IPL.
    assert_eq!(
        report.files,
        [
            "models/gta3.img",
            "models/gta_int.img",
            "data/default.dat",
            "DATA\\DEFAULT.IDE",
            "data/gta.dat",
            "DATA\\MAPS\\LA\\LAE.IDE",
            "DATA\\MAPS\\LA\\LAE.IPL"
        ]
    );
}

#[test]
fn missing_files() {
    let folder = san_andreas("missing", "IMG MODELS\\NOWHERE.IMG\r\n");
    folder.remove("data/maps/la/lae.ide");
    let report = check(&folder);
    // Without its IDE, every instance of the IPL and of its stream IPLs is of no model.
    let ipl = || {
        (
            "mod.ipl.undefined_id",
            "DATA\\MAPS\\LA\\LAE.IPL".to_string(),
            None,
        )
    };
    let stream = || ("mod.ipl.undefined_id", "models/gta3.img".to_string(), None);
    assert_eq!(
        mod_rules(&report),
        [
            ("mod.archive.missing", "data/gta.dat".into(), None),
            ("mod.file.missing", "data/gta.dat".into(), None),
            ipl(),
            ipl(),
            ipl(),
            ipl(),
            stream(),
            stream(),
            stream(),
            stream(),
        ]
    );
    let missing = report
        .findings
        .iter()
        .find(|f| f.finding.rule == Rule::ModFileMissing)
        .unwrap();
    assert_eq!(missing.finding.context.line, Some(3));
    assert_eq!(
        missing.finding.offset,
        "# gta.dat\r\nIMG MODELS\\NOWHERE.IMG\r\n".len() as u64
    );
    // A line after EXIT is never read: its missing file is no finding.
    assert!(!report.files.iter().any(|f| f.contains("NOT_READ")));
}

#[test]
fn img_lines_over_the_slots_and_after_the_first_ipl() {
    let five: String = (0..5)
        .map(|i| format!("IMG MODELS\\M{i}.IMG\r\n"))
        .collect();
    let folder = san_andreas("img-five", &five);
    for i in 0..6 {
        folder.write(&format!("models/m{i}.img"), &Img::default().v2());
    }
    assert_eq!(mod_rules(&check(&folder)), []);

    let six: String = (0..6)
        .map(|i| format!("IMG MODELS\\M{i}.IMG\r\n"))
        .collect();
    let folder = san_andreas("img-six", &six);
    for i in 0..6 {
        folder.write(&format!("models/m{i}.img"), &Img::default().v2());
    }
    let report = check(&folder);
    assert_eq!(
        mod_rules(&report),
        [("mod.img.too_many", "data/gta.dat".into(), None)]
    );
    let f = &report
        .findings
        .iter()
        .find(|f| f.finding.rule == Rule::ModImgTooMany)
        .unwrap()
        .finding;
    assert_eq!(
        (f.context.line, f.value, f.limit),
        (Some(7), Some(6.0), Some(5.0))
    );

    // After the first IPL line the directories were read.
    let folder = san_andreas("img-late", "");
    folder.write(
        "data/gta.dat",
        b"IPL DATA\\MAPS\\LA\\LAE.IPL\r\nIMG MODELS\\LATE.IMG\r\nIDE DATA\\MAPS\\LA\\LAE.IDE\r\n",
    );
    folder.write(
        "models/late.img",
        &Img::default().add("lae_road.dff", b"x").v2(),
    );
    // Never read, so its name shadows nothing. The IDE after the IPL came too late for it, and
    // for the directories: its models, although in gta_int.img, never stream.
    let undefined = || {
        (
            "mod.ipl.undefined_id",
            "DATA\\MAPS\\LA\\LAE.IPL".to_string(),
            None,
        )
    };
    let not_streamed = || {
        (
            "mod.ide.model_not_streamed",
            "DATA\\MAPS\\LA\\LAE.IDE".to_string(),
            None,
        )
    };
    let late = || {
        (
            "mod.ide.defined_after_use",
            "DATA\\MAPS\\LA\\LAE.IDE".to_string(),
            Some("DATA\\MAPS\\LA\\LAE.IPL".to_string()),
        )
    };
    assert_eq!(
        mod_rules(&check(&folder)),
        [
            undefined(),
            undefined(),
            undefined(),
            undefined(),
            ("mod.img.after_ipl", "data/gta.dat".into(), None),
            late(),
            late(),
            late(),
            late(),
            not_streamed(),
            not_streamed(),
            not_streamed(),
            not_streamed(),
        ]
    );
}

#[test]
fn names_shadowed_across_archives() {
    let folder = san_andreas("shadowed", "IMG MODELS\\MOD.IMG\r\n");
    folder.write(
        "models/mod.img",
        &Img::default()
            .add("LAE_ROAD.DFF", b"x")
            .add("new.dff", b"y")
            .v2(),
    );
    let report = check(&folder);
    assert_eq!(
        mod_rules(&report),
        [(
            "mod.name.shadowed",
            "MODELS\\MOD.IMG".into(),
            Some("models/gta3.img".into())
        )]
    );
    let f = &report
        .findings
        .iter()
        .find(|f| f.finding.rule == Rule::ModNameShadowed)
        .unwrap()
        .finding;
    assert_eq!(f.context.entry.unwrap().name.as_bytes(), b"LAE_ROAD.DFF");
    assert_eq!(f.context.entry.unwrap().index, 0);
    assert_eq!(f.level(), Level::Warning);

    // Near miss: other names only.
    let folder = san_andreas("not-shadowed", "IMG MODELS\\MOD.IMG\r\n");
    folder.write(
        "models/mod.img",
        &Img::default().add("lae_road2.dff", b"x").v2(),
    );
    assert_eq!(mod_rules(&check(&folder)), []);
}

#[test]
fn stream_lods_against_the_parent_text_ipl() {
    // lae.ipl has 4 instances: LOD 4 is past them, 3 is the last.
    let folder = san_andreas("lod-range", "");
    let mut img = Img::default();
    img.add("lae_stream0.ipl", &stream_ipl(4000, &[0, 4, -1]));
    folder.write("models/gta3.img", &img.v2());
    let report = check(&folder);
    assert_eq!(
        mod_rules(&report),
        [(
            "mod.stream.lod_range",
            "models/gta3.img".into(),
            Some("DATA\\MAPS\\LA\\LAE.IPL".into())
        )]
    );
    let f = &report
        .findings
        .iter()
        .find(|f| f.finding.rule == Rule::ModStreamLodRange)
        .unwrap()
        .finding;
    assert_eq!((f.value, f.limit), (Some(4.0), Some(4.0)));
    assert_eq!(f.context.entry.unwrap().name.as_bytes(), b"lae_stream0.ipl");
    assert_eq!(f.level(), Level::Error);

    // A stream IPL of a parent no IPL line loads.
    let folder = san_andreas("no-parent", "");
    let mut img = Img::default();
    img.add("lax_stream0.ipl", &stream_ipl(4000, &[0]))
        .add("lay_stream0.ipl", &stream_ipl(4000, &[-1, -1]));
    folder.write("models/gta3.img", &img.v2());
    let report = check(&folder);
    assert_eq!(
        mod_rules(&report),
        [("mod.stream.no_parent", "models/gta3.img".into(), None)]
    );
}

#[test]
fn streaming_slots() {
    let with = |n: usize| {
        let folder = san_andreas(&format!("slots-{n}"), "IMG MODELS\\NODES.IMG\r\n");
        let mut img = Img::default();
        for i in 0..n {
            img.add_at(
                &format!("nodes{i}.dat"),
                1 + (n as u32 * 32 / 2048) + i as u32,
                b"n",
            );
        }
        folder.write("models/nodes.img", &img.v2());
        folder
    };
    assert_eq!(mod_rules(&check(&with(64))), []);
    let report = check(&with(65));
    assert_eq!(
        mod_rules(&report),
        [("mod.slots.over_limit", "MODELS\\NODES.IMG".into(), None)]
    );
    let f = &report
        .findings
        .iter()
        .find(|f| f.finding.rule == Rule::ModSlotsOverLimit)
        .unwrap()
        .finding;
    assert_eq!((f.value, f.limit), (Some(65.0), Some(64.0)));
    assert_eq!(f.context.entry.unwrap().name.as_bytes(), b"nodes64.dat");
}

/// An empty IDE or IPL (a real SA-MP folder ships `SAMP/CUSTOM.ide` of 0 bytes): the games'
/// loaders read no line from it (re3 FileLoader.cpp LoadObjectTypes and LoadScene: the
/// `CFileMgr::ReadLine` loop ends at once; GR FileLoader.cpp LoadObjectTypes and LoadScene the
/// same), so it is no finding, while a file of one byte that is not text still is.
#[test]
fn empty_ide_and_ipl_load_as_nothing() {
    let folder = san_andreas(
        "empty-text",
        "IDE DATA\\MAPS\\EMPTY.IDE\r\nIPL DATA\\MAPS\\EMPTY.IPL\r\n",
    );
    folder.write("data/maps/empty.ide", b"");
    folder.write("data/maps/empty.ipl", b"");
    let report = check(&folder);
    assert_eq!(errors(&report), Vec::<String>::new());
    // The only findings: `lae.ide` now comes after an IPL line, too late for the directories.
    let rules = mod_rules(&report);
    assert_eq!(rules.len(), 4);
    assert!(rules.iter().all(|r| r.0 == "mod.ide.model_not_streamed"));
    assert!(report.files.iter().any(|f| f == "DATA\\MAPS\\EMPTY.IDE"));
    assert!(report.files.iter().any(|f| f == "DATA\\MAPS\\EMPTY.IPL"));

    // Near miss: a byte that is no text is still a file that does not decode.
    folder.write("data/maps/empty.ide", &[0]);
    let report = check(&folder);
    assert_eq!(
        report
            .findings
            .iter()
            .filter(|f| f.finding.rule == Rule::DecodeFailed)
            .map(|f| report.files[f.file as usize].as_str())
            .collect::<Vec<_>>(),
        ["DATA\\MAPS\\EMPTY.IDE"]
    );
}

#[test]
fn vice_city_and_iii_shapes() {
    // Vice City: gta_vc.dat, CDIMAGE lines, version 1 archives; the last CDIMAGE wins.
    let folder = vice_city("stock-vc");
    let report = check(&folder);
    assert_eq!(report.game, Game::ViceCity);
    assert_eq!(errors(&report), Vec::<String>::new());
    assert_eq!(
        mod_rules(&report),
        [("mod.img.after_ipl", "data/gta_vc.dat".into(), None)]
    );

    // GTA III reads the directories after the whole level file: a late CDIMAGE is read, and
    // its names shadow (the last image wins there).
    let folder = gta3("stock-iii");
    let report = check(&folder);
    assert_eq!(report.game, Game::Iii);
    assert_eq!(errors(&report), Vec::<String>::new());
    assert_eq!(
        mod_rules(&report),
        [(
            "mod.name.shadowed",
            "MODELS\\LATE.IMG".into(),
            Some("models/gta3.img".into())
        )]
    );
}

#[test]
fn the_game_from_the_folder() {
    let folder = Folder::new("no-game");
    let error = check_folder(&folder.root, &FolderOptions::default(), &mut |_, _| {}).unwrap_err();
    assert!(error.0.contains("no data/gta.dat"), "{error}");
    let folder = san_andreas("two-games", "");
    folder.write("data/gta3.dat", b"");
    let error = check_folder(&folder.root, &FolderOptions::default(), &mut |_, _| {}).unwrap_err();
    assert!(error.0.contains("--game"), "{error}");
    let options = FolderOptions {
        game: Some(Game::SanAndreas),
        ..FolderOptions::default()
    };
    assert!(check_folder(&folder.root, &options, &mut |_, _| {}).is_ok());
}

#[test]
fn a_mod_against_its_base_game() {
    let game = san_andreas("base-game", "IMG MODELS\\MOD.IMG\r\n");
    let mod_folder = Folder::new("mod-over-base");
    mod_folder.write(
        "models/MOD.img",
        &Img::default().add("lae_road.dff", b"x").v2(),
    );
    let options = FolderOptions {
        game: None,
        base: Some(game.root.clone()),
    };
    let report = check_folder(&mod_folder.root, &options, &mut |_, _| {}).unwrap();
    assert_eq!(
        mod_rules(&report),
        [(
            "mod.name.shadowed",
            "MODELS\\MOD.IMG".into(),
            Some("models/gta3.img".into())
        )]
    );
}

#[test]
fn ide_ids_duplicated_out_of_range_and_placed_undefined() {
    // 4001 defined again by a second IDE: the later one replaces it; 20000 is past the table.
    let folder = san_andreas("ide-ids", "IDE DATA\\MAPS\\MORE.IDE\r\n");
    folder.write(
        "data/maps/more.ide",
        &testkit::folder::sa_ide(&[5000, 4001, 20000]),
    );
    let report = check(&folder);
    // 5000's model is in no archive; 4001's is (the later definition, lae_m4001, too).
    assert_eq!(
        mod_rules(&report),
        [
            (
                "mod.ide.duplicate_id",
                "DATA\\MAPS\\LA\\LAE.IDE".into(),
                Some("DATA\\MAPS\\MORE.IDE".into())
            ),
            (
                "mod.ide.model_not_streamed",
                "DATA\\MAPS\\MORE.IDE".into(),
                None
            ),
        ]
    );
    let f = &report
        .findings
        .iter()
        .find(|f| f.finding.rule == Rule::ModIdeModelNotStreamed)
        .unwrap()
        .finding;
    assert_eq!(
        (f.context.line, f.value, f.level()),
        (Some(3), Some(5000.0), Level::Warning)
    );
    // 20000 is past the table: the single-file rule's, on the IDE's line.
    let range = report
        .findings
        .iter()
        .find(|f| f.finding.rule == Rule::IdeIdRange)
        .unwrap();
    assert_eq!(report.files[range.file as usize], "DATA\\MAPS\\MORE.IDE");
    assert_eq!(range.finding.level(), Level::Error);
    let dup = &report
        .findings
        .iter()
        .find(|f| f.finding.rule == Rule::ModIdeDuplicateId)
        .unwrap()
        .finding;
    assert_eq!((dup.context.line, dup.value), (Some(4), Some(4001.0)));
    assert_eq!(dup.level(), Level::Warning);
    // The IDE line's offset: after "# built in code\r\nobjs\r\n" and the line of 4000.
    assert_eq!(
        dup.offset,
        ("# built in code\r\nobjs\r\n".len() + "4000, lae_m4000, lae_txd, 100, 0\r\n".len()) as u64
    );

    // An instance of an id no IDE defines: San Andreas crashes (error); near miss: 19999 defined.
    let folder = san_andreas(
        "ipl-undefined",
        "IMG MODELS\\MORE.IMG\r\nIDE DATA\\MAPS\\MORE.IDE\r\n",
    );
    folder.write("data/maps/more.ide", &testkit::folder::sa_ide(&[19999]));
    folder.write(
        "models/more.img",
        &Img::default().add("LAE_M19999.DFF", b"d").v2(),
    );
    folder.write(
        "data/maps/la/LAe.ipl",
        &testkit::folder::sa_text_ipl(&[
            (4000, "a", -1),
            (19999, "b", -1),
            (4004, "c", -1),
            (4001, "d", -1),
        ]),
    );
    let report = check(&folder);
    assert_eq!(
        mod_rules(&report),
        [(
            "mod.ipl.undefined_id",
            "DATA\\MAPS\\LA\\LAE.IPL".into(),
            None
        )]
    );
    let f = &report
        .findings
        .iter()
        .find(|f| f.finding.rule == Rule::ModIplUndefinedId)
        .unwrap()
        .finding;
    assert_eq!(
        (f.context.line, f.value, f.level()),
        (Some(5), Some(4004.0), Level::Error)
    );
}

/// Vice City: more than 7 CDIMAGE lines overflow the image slots (8 with gta3.img: 7 is the near
/// miss); an instance of an undefined id is skipped (a warning there, not San Andreas' crash).
#[test]
fn vice_city_cdimage_slots_and_undefined_ids() {
    let with = |lines: usize, ipl: &[u8]| {
        let folder = Folder::new(&format!("vc-cdimages-{lines}"));
        let images: String = (0..lines)
            .map(|i| format!("CDIMAGE MODELS\\C{i}.IMG\r\n"))
            .collect();
        let dat = format!("{images}IDE DATA\\A.IDE\r\nIPL DATA\\A.IPL\r\n");
        folder.write("data/gta_vc.dat", dat.as_bytes());
        folder.write("data/a.ide", b"objs\r\n100, a, a, 1, 100, 0\r\nend\r\n");
        folder.write("data/a.ipl", ipl);
        let (dir, img) = Img::default().add("a.dff", b"x").clone().v1();
        folder
            .write("models/gta3.dir", &dir)
            .write("models/gta3.img", &img);
        for i in 0..lines {
            let (dir, img) = Img::default().add(&format!("c{i}.dff"), b"x").clone().v1();
            folder.write(&format!("models/c{i}.dir"), &dir);
            folder.write(&format!("models/c{i}.img"), &img);
        }
        folder
    };
    let defined = b"inst\r\n100, a, 0, 1, 2, 3, 1, 1, 1, 0, 0, 0, 1\r\nend\r\n";
    let report = check(&with(7, defined));
    assert_eq!(report.game, Game::ViceCity);
    assert_eq!(mod_rules(&report), []);
    let report = check(&with(8, defined));
    assert_eq!(
        mod_rules(&report),
        [("mod.cdimage.too_many", "data/gta_vc.dat".into(), None)]
    );
    let f = &report
        .findings
        .iter()
        .find(|f| f.finding.rule == Rule::ModCdImageTooMany)
        .unwrap()
        .finding;
    assert_eq!(
        (f.context.line, f.value, f.limit, f.level()),
        (Some(8), Some(8.0), Some(7.0), Level::Error)
    );

    let undefined = b"inst\r\n101, b, 0, 1, 2, 3, 1, 1, 1, 0, 0, 0, 1\r\nend\r\n";
    let report = check(&with(0, undefined));
    assert_eq!(
        mod_rules(&report),
        [("mod.ipl.undefined_id_skipped", "DATA\\A.IPL".into(), None)]
    );
    assert_eq!(errors(&report), Vec::<String>::new());
}

/// Every rule across files has its case in this module.
#[test]
fn every_mod_rule_has_a_case() {
    let here = include_str!("mod_folder.rs");
    let missing: Vec<&str> = Rule::ALL
        .iter()
        .map(|r| r.id())
        .filter(|id| id.starts_with("mod.") && !here.contains(&format!("\"{id}\"")))
        .collect();
    assert!(missing.is_empty(), "{missing:?}");
}

/// animgrp.dat: a group of more names than its count (an error); its near miss, as many.
#[test]
fn animgrp_groups_past_their_count() {
    let folder = san_andreas("animgrp", "");
    folder.write(
        "data/animgrp.dat",
        b"# groups\r\ndefault, ped, man, 2\r\nwalk_civi\r\nrun_civi\r\nend\r\nfat, fat, man, 1\r\nfatwalk\r\nfatrun\r\nend\r\n",
    );
    let report = check(&folder);
    assert_eq!(
        mod_rules(&report),
        [(
            "mod.animgrp.too_many_names",
            "data/animgrp.dat".into(),
            None
        )]
    );
    let f = &report
        .findings
        .iter()
        .find(|f| f.finding.rule == Rule::ModAnimgrpTooManyNames)
        .unwrap()
        .finding;
    assert_eq!(
        (f.context.line, f.value, f.limit, f.level()),
        (Some(8), Some(2.0), Some(1.0), Level::Error)
    );
    folder.write(
        "data/animgrp.dat",
        b"default, ped, man, 2\r\nwalk_civi\r\nrun_civi\r\nend\r\n",
    );
    assert_eq!(mod_rules(&check(&folder)), []);
}

/// The animation rules fed as the walk feeds them (the game's order: animgrp.dat at start-up,
/// anim/ped.ifp, the IDEs, then the archives' directories with their `.ifp` entries), each
/// `.ifp` entry's block name inside the file from `internal` (stem, name).
mod animations {
    use gtastream::archive::{ArchiveDecoder, ArchiveVisitor, Choice, Entry};
    use gtastream::check::mods::{model_ids, IdSlot, ModChecker, ModFinding, NameSlot};
    use gtastream::check::Level;
    use gtastream::level::{AnimGroups, Line, Lines};
    use gtastream::{AnimationInfo, Decoder, Flow, Game, Options, Record, Visitor};
    use testkit::ifp2::{AnimSpec, BoneSpec, FileSpec};
    use testkit::img::Img;

    const ANIMGRP: u32 = 0;
    const PED: u32 = 1;
    const IDE: u32 = 2;
    const IMG: u32 = 3;

    struct Feed<'m, 't, S> {
        mods: &'m mut ModChecker<'t, S>,
        file: u32,
        internal: &'m [(&'m str, &'m str)],
        /// Decode the `.ifp` entries (else only their names are registered).
        decode: bool,
        open: bool,
    }

    impl<S: FnMut(&ModFinding)> Visitor for Feed<'_, '_, S> {
        fn record(&mut self, record: &Record<'_>) -> Flow {
            self.mods.record(record, 0, None);
            Flow::Continue
        }
        fn animation(&mut self, info: &AnimationInfo<'_>) -> Flow {
            self.mods.block_animation(info.name);
            Flow::Continue
        }
    }

    impl<S: FnMut(&ModFinding)> ArchiveVisitor for Feed<'_, '_, S> {
        fn entry(&mut self, entry: &Entry<'_>) -> Choice {
            self.mods.archive_entry(self.file, entry);
            let name = String::from_utf8_lossy(entry.name).to_lowercase();
            let Some(stem) = name.strip_suffix(".ifp") else {
                return Choice::Skip;
            };
            let internal = self
                .internal
                .iter()
                .find(|(s, _)| *s == stem)
                .map(|(_, i)| i.as_bytes());
            self.mods.block_begin(self.file, Some(entry), internal);
            if self.decode {
                self.open = true;
                Choice::Decode
            } else {
                self.mods.block_end();
                Choice::Skip
            }
        }
        fn entry_end(&mut self, _: Result<(), gtastream::Error>) -> Flow {
            if std::mem::take(&mut self.open) {
                self.mods.block_end();
            }
            Flow::Continue
        }
    }

    /// An ANP3 file of block `name` holding animations of these names.
    fn ifp(name: &str, animations: &[&str]) -> Vec<u8> {
        let animations = animations
            .iter()
            .map(|a| AnimSpec::new(a, vec![BoneSpec::packed("root", &[0, 4])]))
            .collect();
        FileSpec::anp3(name, animations).build()
    }

    struct Feeding<'a> {
        game: Game,
        animgrp: &'a [u8],
        ped: &'a [&'a str],
        ide: &'a [u8],
        img: Vec<u8>,
        internal: &'a [(&'a str, &'a str)],
        decode: bool,
        /// animgrp.dat after the archives (the checker compares at the end: any order).
        animgrp_last: bool,
    }

    /// The findings of the animation rules (`mod.ide.anim_block_missing`, `mod.animgrp.*`,
    /// `mod.anims.over_limit`, `mod.anim_blocks.over_limit`).
    fn run(g: &Feeding<'_>) -> Vec<ModFinding> {
        let mut names = vec![NameSlot::EMPTY; 1024];
        let mut ids = vec![IdSlot::EMPTY; model_ids(g.game)];
        let mut found = Vec::new();
        let mut mods = ModChecker::new(g.game, &mut names, &mut ids, |f: &ModFinding| {
            found.push(*f)
        });
        let animgrp = |mods: &mut ModChecker<'_, _>| {
            let mut groups = AnimGroups::new();
            let mut lines = Lines::new();
            let mut each = |line: Line<'_>| mods.animgrp_line(ANIMGRP, &line, &mut groups);
            lines.feed(g.animgrp, &mut each);
            lines.finish(&mut each);
        };
        if !g.animgrp_last {
            animgrp(&mut mods);
        }
        mods.block_begin(PED, None, Some(b"ped"));
        for name in g.ped {
            mods.block_animation(name.as_bytes());
        }
        mods.block_end();
        let options = Options {
            game: Some(g.game),
            ..Options::default()
        };
        mods.ide_begin(IDE);
        let mut feed = Feed {
            mods: &mut mods,
            file: IDE,
            internal: g.internal,
            decode: g.decode,
            open: false,
        };
        if !g.ide.is_empty() {
            Decoder::with_options(options)
                .decode_slice(g.ide, &mut feed)
                .unwrap();
        }
        mods.ide_end();
        let mut feed = Feed {
            mods: &mut mods,
            file: IMG,
            internal: g.internal,
            decode: g.decode,
            open: false,
        };
        ArchiveDecoder::new(g.img.len() as u64)
            .decode_slice(&g.img, &mut feed)
            .unwrap();
        if g.animgrp_last {
            animgrp(&mut mods);
        }
        mods.finish();
        found
            .into_iter()
            .filter(|f| {
                let id = f.finding.rule.id();
                id.starts_with("mod.anim") || id == "mod.ide.anim_block_missing"
            })
            .collect()
    }

    /// A finding's rule, file, line, value and level.
    type Summary = (&'static str, u32, Option<u32>, Option<f64>, Level);

    fn summary(found: &[ModFinding]) -> Vec<Summary> {
        found
            .iter()
            .map(|f| {
                (
                    f.finding.rule.id(),
                    f.file,
                    f.finding.context.line,
                    f.finding.value,
                    f.finding.level(),
                )
            })
            .collect()
    }

    const IDE_TEXT: &[u8] = b"anim\r\n\
5000, door1, doors_txd, Doors, 100, 0\r\n\
5001, door2, doors_txd, null, 100, 0\r\n\
5002, door3, doors_txd, NULL, 100, 0\r\n\
5003, thing, thing_txd, missingblk, 100, 0\r\n\
5004, thing2, thing_txd, MissingBlk, 100, 0\r\n\
5005, crate1, crate_txd, box, 100, 0\r\n\
end\r\n";

    const ANIMGRP_TEXT: &[u8] = b"ped_group, ped, man, 2\r\n\
walk_civi\r\n\
RUN_CIVI\r\n\
end\r\n\
doors_group, doors, man, 3\r\n\
open\r\n\
shut\r\n\
close\r\n\
end\r\n\
crate_group, crate, man, 1\r\n\
anything\r\n\
end\r\n\
gone_group, nosuchblk, man, 1\r\n\
x\r\n\
end\r\n\
too, ped, man, 1\r\n\
walk_civi\r\n\
fly_civi\r\n\
end\r\n";

    fn sa_archive(with_blocks: bool) -> Vec<u8> {
        let mut img = Img::default();
        img.add("door1.dff", &[0x10, 0, 0, 0]);
        if with_blocks {
            img.add("doors.ifp", &ifp("DOORS", &["OPEN", "close"]))
                .add("crate.ifp", &ifp("box", &["lift"]));
        }
        img.v2()
    }

    /// IDE `anim` objects and animgrp.dat groups against the blocks: a block no file
    /// provides (warnings), a group's animation its block lacks (an error, naming the archive);
    /// the near misses: names in another case, `null` in any case, a group whose block's file
    /// fills another block (not compared), names past the group's count.
    #[test]
    fn blocks_and_animations_named_across_files() {
        let game = Feeding {
            game: Game::SanAndreas,
            animgrp: ANIMGRP_TEXT,
            ped: &["walk_civi", "run_civi"],
            ide: IDE_TEXT,
            img: sa_archive(true),
            internal: &[("doors", "DOORS"), ("crate", "box")],
            decode: true,
            animgrp_last: false,
        };
        let found = run(&game);
        assert_eq!(
            summary(&found),
            [
                (
                    "mod.animgrp.too_many_names",
                    ANIMGRP,
                    Some(18),
                    Some(2.0),
                    Level::Error
                ),
                (
                    "mod.ide.anim_block_missing",
                    IDE,
                    Some(5),
                    Some(5003.0),
                    Level::Warning
                ),
                // `box` is the block inside crate.ifp: made when it streams, after the IDEs'
                // blocks were looked up.
                (
                    "mod.ide.anim_block_missing",
                    IDE,
                    Some(7),
                    Some(5005.0),
                    Level::Warning
                ),
                (
                    "mod.animgrp.animation_missing",
                    ANIMGRP,
                    Some(7),
                    None,
                    Level::Error
                ),
                (
                    "mod.animgrp.block_missing",
                    ANIMGRP,
                    Some(13),
                    None,
                    Level::Warning
                ),
            ]
        );
        // animgrp.dat read after the blocks: the same findings.
        let last = Feeding {
            animgrp_last: true,
            img: game.img.clone(),
            ..game
        };
        assert_eq!(summary(&run(&last)), summary(&found));
        // The missing animation names the archive whose file filled the block.
        assert_eq!(found[3].other, Some(IMG));
        // The IDE line's offset: after "anim\r\n" and three lines.
        let offset = b"anim\r\n".len()
            + IDE_TEXT
                .split(|&b| b == b'\n')
                .skip(1)
                .take(3)
                .map(|l| l.len() + 1)
                .sum::<usize>();
        assert_eq!(found[1].finding.offset, offset as u64);

        // A folder with no block of its own archives (a mod folder without gta3.img): no
        // block is missing; ped's groups are still compared.
        let without = Feeding {
            img: sa_archive(false),
            ..game
        };
        let found = run(&without);
        assert_eq!(
            summary(&found),
            [(
                "mod.animgrp.too_many_names",
                ANIMGRP,
                Some(18),
                Some(2.0),
                Level::Error
            )]
        );
        let missing_walk = Feeding {
            ped: &["run_civi"],
            ..without
        };
        // Both groups of ped list walk_civi.
        assert_eq!(
            summary(&run(&missing_walk))[1..],
            [
                (
                    "mod.animgrp.animation_missing",
                    ANIMGRP,
                    Some(2),
                    None,
                    Level::Error
                ),
                (
                    "mod.animgrp.animation_missing",
                    ANIMGRP,
                    Some(17),
                    None,
                    Level::Error
                ),
            ]
        );
        // Every name there: no finding beyond the count's.
        let all = Feeding {
            animgrp: b"doors_group, doors, man, 3\r\nopen\r\nCLOSE\r\nend\r\n",
            ide: b"anim\r\n5000, door1, doors_txd, doors, 100, 0\r\nend\r\n",
            ..game
        };
        assert_eq!(summary(&run(&all)), []);
    }

    /// Blocks past the game's table (Vice City 35: ped and 35 archive blocks), and its near
    /// miss (ped and 34), where the streaming slots (35 `.ifp` entries) are not yet full.
    #[test]
    fn blocks_over_the_limit() {
        let blocks = |n: usize| {
            let mut img = Img::default();
            for i in 0..n {
                img.add(&format!("block{i}.ifp"), &[0u8; 4]);
            }
            img.v2()
        };
        let game = |img| Feeding {
            game: Game::ViceCity,
            animgrp: b"",
            ped: &["walk_civi"],
            ide: b"",
            img,
            internal: &[],
            decode: false,
            animgrp_last: false,
        };
        let found = run(&game(blocks(35)));
        assert_eq!(
            summary(&found),
            [(
                "mod.anim_blocks.over_limit",
                IMG,
                None,
                Some(36.0),
                Level::Error
            )]
        );
        let entry = found[0].finding.context.entry.unwrap();
        assert_eq!((entry.index, found[0].finding.limit), (34, Some(35.0)));
        assert_eq!(summary(&run(&game(blocks(34)))), []);
        // A name already registered (any case) is no new block.
        let mut img = Img::default();
        for i in 0..34 {
            img.add(&format!("block{i}.ifp"), &[0u8; 4]);
        }
        img.add("BLOCK0.IFP", &[0u8; 4]).add("Ped.ifp", &[0u8; 4]);
        assert_eq!(summary(&run(&game(img.v2()))), []);
    }

    /// Animations past the game's table, all blocks together (San Andreas 2500, III 250),
    /// and the near misses; III streams no `.ifp` entries, so an archive's do not count.
    #[test]
    fn animations_over_the_limit() {
        let names: Vec<String> = (0..2501).map(|i| format!("a{i}")).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let game = |game, ped, img| Feeding {
            game,
            animgrp: b"",
            ped,
            ide: b"",
            img,
            internal: &[],
            decode: true,
            animgrp_last: false,
        };
        let empty = Img::default().v2();
        let found = run(&game(Game::SanAndreas, &names, empty.clone()));
        assert_eq!(
            summary(&found),
            [(
                "mod.anims.over_limit",
                PED,
                None,
                Some(2501.0),
                Level::Error
            )]
        );
        let animation = found[0].finding.context.animation.unwrap();
        assert_eq!(
            (animation.index, animation.name.as_bytes()),
            (2500, &b"a2500"[..])
        );
        assert_eq!(found[0].finding.limit, Some(2500.0));
        assert_eq!(
            summary(&run(&game(Game::SanAndreas, &names[..2500], empty.clone()))),
            []
        );
        // ped's 2499 and an archive block's 2: past the table.
        let mut img = Img::default();
        img.add("two.ifp", &ifp("two", &["x", "y"]));
        let found = run(&game(Game::SanAndreas, &names[..2499], img.v2()));
        assert_eq!(
            summary(&found),
            [(
                "mod.anims.over_limit",
                IMG,
                None,
                Some(2501.0),
                Level::Error
            )]
        );
        assert_eq!(
            summary(&run(&game(Game::Iii, &names[..251], empty.clone()))),
            [("mod.anims.over_limit", PED, None, Some(251.0), Level::Error)]
        );
        assert_eq!(summary(&run(&game(Game::Iii, &names[..250], img.v2()))), []);
    }
}

/// The animation rules through the whole walk: `anim/ped.ifp` and the archives' `.ifp`
/// entries are read as blocks (the block inside a file named by its `file` event), the IDE's
/// `anim` objects and `animgrp.dat` compared with them.
#[test]
fn animation_blocks_through_the_walk() {
    use testkit::ifp2::{AnimSpec, BoneSpec, FileSpec};
    let ifp = |name: &str, animations: &[&str]| {
        let animations = animations
            .iter()
            .map(|a| AnimSpec::new(a, vec![BoneSpec::packed("root", &[0, 4])]))
            .collect();
        FileSpec::anp3(name, animations).build()
    };
    let folder = san_andreas("anim-walk", "IDE DATA\\MAPS\\ANIMATED.IDE\r\n");
    folder.write("anim/ped.ifp", &ifp("ped", &["walk", "run"]));
    let mut img = Img::default();
    img.add("lae_road.dff", &[0x10, 0, 0, 0, 0, 0, 0, 0])
        .add("GANGS.IFP", &ifp("gangs", &["hiya"]))
        .add("lae_stream0.ipl", &stream_ipl(4000, &[0, 3, -1]));
    folder.write("models/gta3.img", &img.v2());
    // 4100 names a block no file provides; 4101 one gta3.img holds (in another case).
    folder.write(
        "data/maps/animated.ide",
        b"anim\r\n4100, door, lae_txd, nosuchblock, 100, 0\r\n4101, gate, lae_txd, Gangs, 100, 0\r\nend\r\n",
    );
    folder.write(
        "data/animgrp.dat",
        b"player, ped, man, 3\r\nWALK\r\nrun\r\nsprint\r\nend\r\ngang, gangs, man, 1\r\nhiya\r\nend\r\n",
    );
    let report = check(&folder);
    let found: Vec<_> = mod_rules(&report)
        .into_iter()
        .filter(|(rule, _, _)| rule.contains("anim"))
        .collect();
    assert_eq!(
        found,
        [
            (
                "mod.ide.anim_block_missing",
                "DATA\\MAPS\\ANIMATED.IDE".to_string(),
                None
            ),
            (
                "mod.animgrp.animation_missing",
                "data/animgrp.dat".to_string(),
                Some("anim/ped.ifp".to_string())
            ),
        ],
        "{found:?}"
    );
    assert!(report.files.contains(&"anim/ped.ifp".to_string()));
    // The near misses: every animation there and every block named, no finding.
    folder.write(
        "data/maps/animated.ide",
        b"anim\r\n4101, gate, lae_txd, Gangs, 100, 0\r\nend\r\n",
    );
    folder.write(
        "data/animgrp.dat",
        b"player, ped, man, 2\r\nWALK\r\nrun\r\nend\r\ngang, gangs, man, 1\r\nhiya\r\nend\r\n",
    );
    let report = check(&folder);
    let anim_rules: Vec<_> = mod_rules(&report)
        .into_iter()
        .filter(|(rule, _, _)| rule.contains("anim"))
        .collect();
    assert_eq!(anim_rules, []);
}

/// A folder of `game` (its level file and nothing else; San Andreas: the kit's folder) with
/// `ped` as its `data/ped.dat`, checked: the `mod.peddat.*` findings with their lines.
fn ped_dat(game: Game, ped: &[u8]) -> Vec<(&'static str, Option<u32>)> {
    let report = ped_dat_report(game, ped);
    report
        .findings
        .iter()
        .filter(|f| f.finding.rule.id().starts_with("mod.peddat."))
        .map(|f| {
            assert_eq!(report.files[f.file as usize], "data/ped.dat");
            (f.finding.rule.id(), f.finding.context.line)
        })
        .collect()
}

/// The folder of [`ped_dat`], its whole report.
fn ped_dat_report(game: Game, ped: &[u8]) -> FolderReport {
    let name = format!("peddat-{game:?}");
    let folder = match game {
        Game::SanAndreas => san_andreas(&name, ""),
        Game::ViceCity => {
            let folder = Folder::new(&name);
            folder.write("data/gta_vc.dat", b"# level\r\n");
            folder
        }
        Game::Iii => {
            let folder = Folder::new(&name);
            folder.write("data/gta3.dat", b"# level\r\n");
            folder
        }
    };
    folder.write("data/ped.dat", ped);
    let report = check(&folder);
    assert_eq!(report.game, game);
    assert!(report.files.iter().any(|f| f == "data/ped.dat"));
    report
}

/// A ped.dat of III and VC's stock shape: type lines of five numbers, `Threat` and `Avoid`
/// lines of type and flag names (empty ones too), comments, tabs, CR LF.
const PED_DAT_III: &[u8] = b"# ped types\r\n#\r\nPLAYER1\t1.0\t1.0\t1.0\t1.0\t1.0\r\nThreat\tGANG1, COP_CAR\r\nAvoid\r\n\r\nCOP\t1.0\t1.0\t1.0\t1.0\t1.0\r\nThreat\tCRIMINAL GUN EXPLOSION\r\nAvoid\tDEADPEDS\r\nPROSTITUTE 1 1 1 1 1\r\nThreat\r\nAvoid\r\n";

/// ped.dat in GTA III and Vice City: each rule's case and its near miss.
#[test]
fn ped_dat_iii_and_vice_city() {
    for game in [Game::Iii, Game::ViceCity] {
        // The stock shape: nothing.
        assert_eq!(ped_dat(game, PED_DAT_III), []);
        // Threat before any type line: written past the type table.
        let text = [&b"Threat COP\r\n"[..], PED_DAT_III].concat();
        assert_eq!(
            ped_dat(game, &text),
            [("mod.peddat.relation_before_type", Some(1))]
        );
        // A keyword with a colon, a lower-case type, a San Andreas type: no type of that name;
        // a name no list knows in a Threat line (its near miss: the flags GUN and DEADPEDS).
        let text = [
            PED_DAT_III,
            b"Threat: COP\r\ncop 1 1 1 1 1\r\nGANG10 1 1 1 1 1\r\nCOP 1 1 1 1 1\r\nThreat GUN NOBODY DEADPEDS\r\n",
        ]
        .concat();
        assert_eq!(
            ped_dat(game, &text),
            [
                ("mod.peddat.unknown_type", Some(13)),
                ("mod.peddat.unknown_type", Some(14)),
                ("mod.peddat.unknown_type", Some(15)),
                ("mod.peddat.unknown_name", Some(17)),
            ]
        );
        // A line of 256 bytes (a comment too is copied whole); its near miss, 255 bytes
        // followed by CR LF (the CR is not the line's in text mode).
        let line = |len: usize| [&b"#"[..], &vec![b'x'; len - 1], b"\r\n"].concat();
        let text = [PED_DAT_III, &line(255), &line(256)].concat();
        assert_eq!(
            ped_dat(game, &text),
            [("mod.peddat.line_too_long", Some(14))]
        );
        // A word of 32 bytes: copied into 32; its near miss, 31 (a name no list knows).
        let text = [
            PED_DAT_III,
            format!("Threat {}\r\nAvoid {}\r\n", "N".repeat(31), "N".repeat(32)).as_bytes(),
        ]
        .concat();
        assert_eq!(
            ped_dat(game, &text),
            [
                ("mod.peddat.unknown_name", Some(13)),
                ("mod.peddat.word_too_long", Some(14)),
                ("mod.peddat.unknown_name", Some(14)),
            ]
        );
        // 16384 bytes as text mode reads them: past the 16 KiB buffer. Its near miss: 16383
        // bytes, 16383 + 163 on disk (every CR LF is one byte).
        let comments = |last: usize| {
            let mut text = [&b"#"[..], &[b'x'; 98], b"\r\n"].concat().repeat(163);
            text.extend([&b"#"[..], &vec![b'x'; last - 1]].concat());
            text
        };
        let under = comments(16383 - 163 * 100);
        assert_eq!(under.len(), 16383 + 163);
        assert_eq!(ped_dat(game, &under), []);
        let over = comments(16384 - 163 * 100);
        assert_eq!(
            ped_dat(game, &over),
            [("mod.peddat.file_too_big", Some(164))]
        );
        // Where: the line's first byte on disk, the bytes the game counts, the most it holds.
        let report = ped_dat_report(game, &over);
        let f = &report.findings[0].finding;
        assert_eq!(
            (f.offset, f.value, f.limit, f.level()),
            (163 * 101, Some(16384.0), Some(16383.0), Level::Error)
        );
        let text = [PED_DAT_III, &line(300)].concat();
        let report = ped_dat_report(game, &text);
        let f = &report.findings[0].finding;
        assert_eq!(
            (f.rule, f.offset, f.value, f.limit),
            (
                Rule::ModPeddatLineTooLong,
                PED_DAT_III.len() as u64,
                Some(300.0),
                Some(255.0)
            )
        );
    }
}

/// ped.dat in San Andreas: its relation lines (`Hate` and the others, a prefix is enough),
/// unknown names read as MISSION8 (warnings), only the first word copied.
#[test]
fn ped_dat_san_andreas() {
    let stock: &[u8] = b"# ped relations\r\nPLAYER1\r\nHate\tGANG1 GANG2\r\nDislike\r\nLike\r\nRespect\r\nGANG10\r\nHate PLAYER1 COP\r\nDislike\tMISSION8\r\nLike GANG10\r\nRespect\tGANG10\r\n";
    assert_eq!(ped_dat(Game::SanAndreas, stock), []);
    // A colon after the keyword, a line past 255 bytes, a file past 16 KiB: San Andreas
    // reads them (lines from LoadLine, no 16 KiB buffer).
    let mut text = [
        stock,
        b"Hate: COP\r\n",
        format!("Like {}\r\n", " COP".repeat(80)).as_bytes(),
    ]
    .concat();
    text.extend(b"#\r\n".repeat(6000));
    assert_eq!(ped_dat(Game::SanAndreas, &text), []);
    // A relation before any type line, an unknown type, a name no type has.
    let text = [
        &b"Hate COP\r\n"[..],
        stock,
        b"NOBODY\r\nHate COP NOBODY GUN\r\n",
    ]
    .concat();
    assert_eq!(
        ped_dat(Game::SanAndreas, &text),
        [
            ("mod.peddat.relation_before_type_mission8", Some(1)),
            ("mod.peddat.unknown_type_mission8", Some(13)),
            ("mod.peddat.unknown_name", Some(14)),
            ("mod.peddat.unknown_name", Some(14)),
        ]
    );
    // A first word of 32 bytes; its near miss, a name of 32 after Hate (not copied).
    let text = [
        stock,
        format!("Hate {}\r\n{}\r\n", "N".repeat(32), "N".repeat(32)).as_bytes(),
    ]
    .concat();
    assert_eq!(
        ped_dat(Game::SanAndreas, &text),
        [
            ("mod.peddat.unknown_name", Some(12)),
            ("mod.peddat.word_too_long", Some(13)),
            ("mod.peddat.unknown_type_mission8", Some(13)),
        ]
    );
}

/// Stock San Andreas' gta.dat names `MODELS\GTA_INT.IMG`, the archive the game opened first:
/// the same file's names are not shadowed by themselves. A copy under another name is.
#[test]
fn an_img_line_naming_an_archive_already_open_shadows_nothing() {
    let folder = san_andreas("img-line-gta-int", "IMG MODELS\\GTA_INT.IMG\r\n");
    let report = check(&folder);
    assert_eq!(mod_rules(&report), []);
    assert_eq!(errors(&report), Vec::<String>::new());

    let folder = san_andreas("img-line-copy", "IMG MODELS\\GTA_INT2.IMG\r\n");
    let copy = std::fs::read(folder.path("models/gta_int.img")).expect("the archive");
    folder.write("models/gta_int2.img", &copy);
    let report = check(&folder);
    let shadowed = mod_rules(&report)
        .into_iter()
        .filter(|(rule, _, _)| *rule == "mod.name.shadowed")
        .count();
    assert_eq!(shadowed, 6, "{:?}", mod_rules(&report));
}
