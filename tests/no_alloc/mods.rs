//! The checker across files and the level file readers never allocate: level lines, archive
//! entries, IDE definitions, IPL placements and animation blocks fed in the game's order, with
//! findings of several `mod.*` rules, the tables the caller's.
#![cfg(feature = "ipl-text")]

use gtastream::archive::{ArchiveDecoder, ArchiveVisitor, Choice, Entry};
use gtastream::check::mods::{model_ids, IdSlot, ModChecker, ModFinding, NameSlot};
use gtastream::level::{read_line, AnimGroups, Lines, PedDat};
use gtastream::{Decoder, Flow, Game, Options, Record, Visitor};

struct Feed<'m, 't, S> {
    mods: &'m mut ModChecker<'t, S>,
    file: u32,
}

impl<S: FnMut(&ModFinding)> Visitor for Feed<'_, '_, S> {
    fn record(&mut self, record: &Record<'_>) -> Flow {
        self.mods.record(record, 0, None);
        Flow::Continue
    }
}

impl<S: FnMut(&ModFinding)> ArchiveVisitor for Feed<'_, '_, S> {
    fn entry(&mut self, entry: &Entry<'_>) -> Choice {
        self.mods.archive_entry(self.file, entry);
        Choice::Skip
    }
}

#[test]
fn checking_a_folder_does_not_allocate() {
    let dat = b"IMG MODELS\\A.IMG\r\nIMG MODELS\\B.IMG\r\nIDE DATA\\A.IDE\r\nIPL DATA\\A.IPL\r\n";
    let ide = b"objs\r\n4000, a, a, 100, 0\r\n4000, b, b, 100, 0\r\nend\r\n";
    let ipl = b"inst\r\n4000, a, 0, 1, 2, 3, 0, 0, 0, 1, -1\r\n4001, b, 0, 1, 2, 3, 0, 0, 0, 1, -1\r\nend\r\n";
    let animgrp = b"default, ped, man, 1\r\nwalk\r\nrun\r\nend\r\n";
    let ped_dat = b"Hate COP\r\nPLAYER1\r\nHate GANG1 NOBODY\r\n";
    let mut img = vec![0u8; 2048];
    img[..8].copy_from_slice(b"VER2\x01\0\0\0");
    img[8..16].copy_from_slice(&[1, 0, 0, 0, 1, 0, 0, 0]);
    img[16..21].copy_from_slice(b"a.dff");
    img.resize(4096, 0);
    let mut names = vec![NameSlot::EMPTY; 1024];
    let mut ids = vec![IdSlot::EMPTY; model_ids(Game::SanAndreas)];
    let mut rules = Vec::with_capacity(16);
    let (allocations, ()) = testkit::alloc_count::allocations(|| {
        let mut mods = ModChecker::new(Game::SanAndreas, &mut names, &mut ids, |f: &ModFinding| {
            rules.push(f.finding.rule.id())
        });
        let mut lines = Lines::new();
        for chunk in dat.chunks(7) {
            lines.feed(chunk, |line| {
                mods.level_line(0, &line, &read_line(line.stored), true);
            });
        }
        for file in [1, 2] {
            let mut feed = Feed {
                mods: &mut mods,
                file,
            };
            ArchiveDecoder::new(img.len() as u64)
                .decode_slice(&img, &mut feed)
                .unwrap();
        }
        let options = Options {
            game: Some(Game::SanAndreas),
            ..Options::default()
        };
        mods.ide_begin(3);
        Decoder::with_options(options)
            .decode_slice(
                ide,
                &mut Feed {
                    mods: &mut mods,
                    file: 3,
                },
            )
            .unwrap();
        mods.ide_end();
        mods.ipl_begin(4, b"a.ipl", None);
        Decoder::with_options(options)
            .decode_slice(
                ipl,
                &mut Feed {
                    mods: &mut mods,
                    file: 4,
                },
            )
            .unwrap();
        mods.ipl_end();
        // anim/ped.ifp without the group's `walk`.
        mods.block_begin(6, None, Some(b"ped"));
        mods.block_animation(b"run_x");
        mods.block_end();
        let mut groups = AnimGroups::new();
        let mut lines = Lines::new();
        let mut each = |line: gtastream::level::Line<'_>| mods.animgrp_line(5, &line, &mut groups);
        lines.feed(animgrp, &mut each);
        lines.finish(&mut each);
        let mut ped = PedDat::new(Game::SanAndreas);
        let mut lines = Lines::new();
        let mut each = |line: gtastream::level::Line<'_>| mods.peddat_line(7, &line, &mut ped);
        lines.feed(ped_dat, &mut each);
        lines.finish(&mut each);
        mods.finish();
    });
    assert_eq!(allocations, 0);
    assert_eq!(
        rules,
        [
            "mod.name.shadowed",
            "mod.ide.duplicate_id",
            "mod.ipl.undefined_id",
            "mod.animgrp.too_many_names",
            "mod.peddat.relation_before_type_mission8",
            "mod.peddat.unknown_name",
            "mod.animgrp.animation_missing",
            "mod.ide.model_not_streamed",
        ]
    );
}

/// The whole walk over a folder (its files held in memory, as a host serves them): level
/// files, archives, IDEs, text and stream IPLs, `animgrp.dat`, `ped.dat`, with findings of both kinds.
#[test]
fn walking_a_folder_does_not_allocate() {
    use gtastream::check::walk::{walk, WalkEvent};
    use testkit::folder::{sa_ide, san_andreas, MemFiles};

    let folder = san_andreas(
        "no-alloc-walk",
        "IDE DATA\\MAPS\\TWICE.IDE\r\nIMG MODELS\\MISSING.IMG\r\n",
    );
    folder.write("data/maps/twice.ide", &sa_ide(&[4000]));
    folder.write(
        "data/animgrp.dat",
        b"default, ped, man, 1\r\nwalk\r\nrun\r\nend\r\n",
    );
    folder.write("data/ped.dat", b"PLAYER1\r\nHate COP NOBODY\r\n");
    let mut files = MemFiles::read(&folder);
    let mut names = vec![NameSlot::EMPTY; 1024];
    let mut ids = vec![IdSlot::EMPTY; model_ids(Game::SanAndreas)];
    let mut rules = Vec::with_capacity(64);
    let mut paths = 0;
    let (allocations, summary) = testkit::alloc_count::allocations(|| {
        walk(
            &mut files,
            Game::SanAndreas,
            &mut names,
            &mut ids,
            |event| match event {
                WalkEvent::Finding(f) => rules.push(f.finding.rule.id()),
                WalkEvent::File { .. } => paths += 1,
                _ => {}
            },
        )
    });
    assert_eq!(allocations, 0);
    let summary = summary.expect("walked");
    assert_eq!(summary.files, paths);
    assert!(summary.entries > 0);
    for rule in [
        "mod.archive.missing",
        "mod.ide.duplicate_id",
        "mod.animgrp.too_many_names",
        "mod.peddat.unknown_name",
    ] {
        assert!(rules.contains(&rule), "{rule} in {rules:?}");
    }
}
