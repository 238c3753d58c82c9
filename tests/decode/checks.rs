//! `check`: each rule fires on a case built in code and stays quiet on its near miss; files
//! in the shape the games ship give no error; findings are the same however the input is
//! cut; docs/CHECKS.md lists the table.

#![cfg(feature = "std")]

use gtastream::check::{Checker, Finding, Games, Level, Rule};
use gtastream::Decoder;
use testkit::check_cases::*;
use testkit::driver::Cut;
use testkit::ifp2::{p3, AnimSpec, BoneSpec, FileSpec};

fn fires(found: &[Finding], rule: Rule) -> bool {
    found.iter().any(|f| f.rule == rule)
}

fn errors(found: &[Finding]) -> Vec<String> {
    found
        .iter()
        .filter(|f| f.level() == Level::Error)
        .map(|f| format!("{} at {}: {f}", f.rule.id(), f.offset))
        .collect()
}

#[test]
fn every_rule_fires_and_its_near_miss_does_not() {
    let cases = cases();
    for (rule, bad, good) in &cases {
        let (b, g) = (bad.findings(), good.findings());
        let ids = |f: &[Finding]| f.iter().map(|f| f.rule.id()).take(20).collect::<Vec<_>>();
        assert!(
            fires(&b, *rule),
            "{} does not fire: {:?}",
            rule.id(),
            ids(&b)
        );
        assert!(
            !fires(&g, *rule),
            "{} fires on its near miss: {:?}",
            rule.id(),
            ids(&g)
        );
    }
    let missing: Vec<&str> = Rule::ALL
        .iter()
        .filter(|r| !Rule::RETIRED.contains(r))
        // The skeleton rules need a model: tests/decode/rig.rs fires each of them.
        .filter(|r| !r.id().starts_with("skel."))
        // The rules across files need a folder: tests/decode/mod_folder.rs fires each of them.
        .filter(|r| !r.id().starts_with("mod."))
        .filter(|r| !cases.iter().any(|(c, _, _)| c == *r))
        .map(|r| r.id())
        .collect();
    assert!(missing.is_empty(), "rules without a case: {missing:?}");
}

/// A finding names its entry, animation and bone (index and name) and its absolute offset.
#[test]
fn findings_carry_their_context() {
    let found = check_archive(&img(&[(
        "walk.ifp",
        &FileSpec::anp3(
            "walk",
            vec![AnimSpec::new("run", vec![packed(&[0, 1]), packed(&[5, 6])])],
        )
        .build(),
    )]));
    let f = found
        .iter()
        .find(|f| f.rule == Rule::TimeFirstNotZero)
        .unwrap();
    assert_eq!(f.context.entry.unwrap().name.as_bytes(), b"walk.ifp");
    let animation = f.context.animation.unwrap();
    assert_eq!(
        (animation.index, animation.name.as_bytes()),
        (0, &b"run"[..])
    );
    assert_eq!(f.context.bone.unwrap().index, 1);
    // The second bone's first frame: entry at 2048, header 36, animation 36, first bone 36
    // and two frames of 10, second bone's header 36.
    assert_eq!(f.offset, 2048 + 36 + 36 + (36 + 20) + 36);
    let mut line = String::new();
    f.write_line(&mut line, "anim.img").unwrap();
    assert!(
        line.starts_with("anim.img:walk.ifp: note ifp.time.first_not_zero (sa) at 2212"),
        "{line}"
    );
    assert!(
        line.ends_with(", animation 0 \"run\", bone 1 \"Root\": a bone's first key is not at 0: each loop holds the pose that much longer (before 0: that much shorter) (value 0.083333336)"),
        "{line}"
    );
}
#[test]
fn shipped_shapes_give_no_error() {
    let walk = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/samples/walk.ifp")).unwrap();
    assert_eq!(errors(&check(&walk, "walk.ifp")), Vec::<String>::new());
    // A stock ped.ifp's shape: block "ped", many packed animations, the compressed flag set.
    let animations = (0..300)
        .map(|i| {
            let bones = (0..16)
                .map(|b| {
                    BoneSpec::new(
                        &format!("bone{b}"),
                        3 + (b == 0) as u32,
                        b,
                        (0..8).map(|t| p3(Q, t * 4)).collect(),
                    )
                })
                .collect();
            AnimSpec::new(&format!("anim{i}"), bones)
        })
        .collect();
    let ped = FileSpec::anp3("ped", animations).build();
    assert_eq!(errors(&check(&ped, "ped.ifp")), Vec::<String>::new());
    assert_eq!(
        errors(&check_archive(&img(&[("ped.ifp", &ped)]))),
        Vec::<String>::new()
    );
}

/// The findings of every 2-way split, and byte by byte, are those of the whole file.
#[test]
fn findings_do_not_depend_on_the_cuts() {
    let file = anp3(vec![
        AnimSpec::new("walk", vec![packed(&[5, 5, 3, 1])]).flags(0),
        AnimSpec::new("WALK", vec![packed(&[0])]),
    ]);
    let run = |cut: &Cut| {
        let mut found = Vec::new();
        let mut checker = Checker::new(Games::ALL, |f: &Finding| found.push(*f));
        checker.set_file_name(b"x.ifp");
        let mut decoder = Decoder::new();
        let (mut at, mut turn) = (0, 0);
        while at < file.len() {
            let end = cut.end(at, turn, file.len());
            let mut piece = &file[at..end];
            while !piece.is_empty() {
                let progress = decoder.feed(piece, &mut checker).unwrap();
                piece = &piece[progress.consumed..];
                at += progress.consumed;
            }
            turn += 1;
        }
        decoder.finish(&mut checker).unwrap();
        checker.finish();
        found
    };
    let whole = run(&Cut::Whole);
    assert!(whole.len() >= 5, "{whole:?}");
    assert_eq!(run(&Cut::bytewise()), whole);
    for cut in Cut::every_split(file.len()) {
        assert_eq!(run(&cut), whole, "{cut:?}");
    }
}

/// docs/CHECKS.md is the table, rendered; `GTASTREAM_BLESS=1` rewrites it.
#[test]
fn checks_md_lists_the_table() {
    let mut md = String::from(GUIDE);
    md.push_str("\n## The rules\n\n| Rule | Games | Engine | Level | Reason | Source |\n|---|---|---|---|---|---|\n");
    for rule in Rule::ALL {
        md.push_str(&format!(
            "| `{}` | {} | {} | {} | {} | {} |\n",
            rule.id(),
            rule.games(),
            rule.engine().name(),
            rule.level().name(),
            rule.reason().replace('|', "\\|"),
            rule.source().replace('|', "\\|"),
        ));
    }
    md.push_str(LEFT_OUT);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/CHECKS.md");
    if std::env::var_os("GTASTREAM_BLESS").is_some() {
        std::fs::write(path, &md).unwrap();
    }
    assert_eq!(
        std::fs::read_to_string(path).unwrap_or_default(),
        md,
        "docs/CHECKS.md is stale"
    );
}

const GUIDE: &str = "\
# `gtastream check`: will the game load this file?

<!-- Generated by tests/decode/checks.rs from the table in src/check/rules.rs: edit those and
run `GTASTREAM_BLESS=1 cargo test -p gtastream --all-features --test decode checks_md`. -->

`gtastream check [--game sa|vc|iii|mta]... [--all] [--level error|warning|note] [--json]
INPUT...` applies what GTA III, Vice City
and San Andreas (and MTA:SA, a host that loads IFP files itself) do when they load a file, read
from the San Andreas executable's own reading where there is one (a public disassembly of
`gta_sa.exe` 1.0 US: INU-ez/INU_Check-GTA `docs/re/ifp_path.md` and, for models,
`docs/re/ped_skin_path.md`, cited as \"SA exe\" with its addresses and by those file names with
their sections), the reimplementations' loaders (re3, reVC, gta-reversed) and MTA's client. Where
the executable and gta-reversed disagree, the executable wins for San Andreas (see \"Changed by
the executable\" below). INPUT is a file, an IMG archive (each entry is checked, and the
directory too) or `ARCHIVE:ENTRY`.

Without `--game`, the games come from the file itself, and the output says so (text: a
summary line ends with `games from the file`; JSON: `\"games\"` and `\"games_from\": \"file\"`):
ANP3 and ANP2 are SA and MTA; ANPK is decided at its first `ANIM` chunk (44 bytes, with a bone
id: VC, SA and MTA; 48 bytes: III; before it, all four); a binary IPL and an IMG version 2 are
SA; a text IPL is III, VC and SA, narrowed to the game its first `inst` line is written for (11
fields SA, 12 III, 13 VC) and by the sections only some games read; an IDE is III, VC and SA,
narrowed by its definitions (San Andreas' short `objs`/`tobj` layout and `anim`: SA; `weap`:
VC and SA; an id past a game's model table: the games whose table holds it); an IMG version 1 is III and
VC, VC alone from its first `.col` record. `--game` chooses the games instead (`\"games_from\":
\"caller\"`; text: `games named`). From Rust, `Checker::from_file` and `Checker::games`; the C API, JS and Python
take the games from the file when given none. A record the game skips (a name without its `.`
at index 20 or before, or no sectors) is not decoded; a finding never names a game that cannot
load the container it is in. The IFPs of a cutscene archive (an archive file named `cuts.img`:
`Checker::set_archive_name`, which the command, C, JS and Python call with the archive's name)
get the cutscene loader's rule (`ifp.cutscene.block_name`), not the streaming one, also when
an entry is checked alone (`cuts.img:ENTRY`); the loader reads that archive's directory itself,
so the streaming rules by kind (`img2.ext.kinds`, `img2.dat_name`) do not apply to it.

Each finding names its rule, level, games, absolute offset (in the `.img` for an entry; in the
`.dir` for a version 1 directory record), and the entry, animation and bone (index and name) or
the line. Levels: **error**, the game crashes or corrupts memory; **warning**, it loads the
file but not as meant, or hangs when the animation is played looped, or the rule rests on
gta-reversed code written from documentation (\"GR-docs\": SA's IFP loader) and is not
confirmed; **note**, the game skips or ignores something. Files in the shape the games ship
give no error. Exit status: 0 when no finding is an error, 1 when one is, 2 when an input
cannot be read.

The text output is grouped: a rule found more than 3 times in an input is one line with its
count, where they lie and its first finding (`770 times in 330 animations, first at 212, ...`;
`--all` lists every finding), and each input ends with a summary line: errors, warnings and
notes, then the same for each game checked, and whence the games came. `--level` is the least
level listed (the summary still counts every finding). The JSON keeps every finding and gives
the same groups (`\"groups\"`) and counts (`\"summary\"`); `check::group::Grouping` makes both.

```text
$ gtastream check anim.img
anim.img:walk.ifp: error ifp.block.name_mismatch (sa) at 2048: the block name differs from the archive entry's (or file's) name: the block stays unloaded
anim.img: 1 error, 0 warnings, 0 notes (sa: 1 error, 0 warnings, 0 notes), games from the file
$ gtastream check --json ped.ifp
{\"inputs\": [
  {\"file\": \"ped.ifp\", \"format\": \"ANP3\", \"findings\": [
    {\"rule\": \"ifp.time.first_not_zero\", \"severity\": \"note\", \"games\": [\"sa\", \"mta\"], \"offset\": 144, \"entry\": null, \"animation\": 0, \"bone\": 1, \"message\": \"animation 0 \\\"run\\\", bone 1 \\\"Root\\\": a bone's first key is after 0: ...\"}
  ], \"groups\": [
    {\"rule\": \"ifp.time.first_not_zero\", \"severity\": \"note\", \"games\": [\"sa\", \"mta\"], \"count\": 1, \"animations\": 1, \"entries\": 0, \"first\": 0, \"listed\": true, \"spread\": \"1 time in 1 animation\"}
  ], \"summary\": {\"errors\": 0, \"warnings\": 0, \"notes\": 1, \"games\": {\"iii\": {...}, \"vc\": {...}, \"sa\": {...}, \"mta\": {...}}}, \"games\": [\"sa\", \"mta\"], \"games_from\": \"file\"}
]}
```

`convert` checks what it writes the same way (`--game` to choose the games, `--check` to
refuse an output with an error finding). From Rust: `gtastream::check::Checker` (a visitor of
the decoder and the archive decoder; `check::json::Document` writes the JSON above); from C:
`gts_rule_count`, `gts_rule_info`, `gts_check_memory` (one call) and the streaming
`gts_checker_init`/`gts_checker_feed`/`gts_checker_finish` (`gts_checker_games`: the games
checked), docs/C.md; from JS and Python, `check()`, which returns the JSON document.

The checker streams and never allocates. What it remembers across records is bounded: the
current animation, bone and section, counters, and two tables of name hashes: 2048 archive
entry names (`check::NAME_TABLE`) and 512 animation names per block
(`check::ANIMATION_TABLE`), each filled to three quarters; past that, a `check.table_full`
note says that later names were not compared. Overlaps between archive entries are found
between neighbours in directory order. Duplicate bones are those the decoder reports (it keeps
the names of an animation's first bones) and those of one bone id (the first 64 ids of an
animation). A binary IPL's name is read whole, of any length.

## Whole folders (`check DIR`)

`gtastream check DIR` (docs/CLI.md) checks a game or mod folder as the game loads it: the
level files (`data/default.dat`, then `data/gta.dat` for San Andreas, `data/gta_vc.dat` for Vice
City, `data/gta3.dat` for GTA III; their lines are read as docs/FORMATS.md §13 says), each path
resolved in any case with `\\` or `/`, the archives opened when the game reads their
directories (San Andreas and Vice City at the first `IPL` line, GTA III after the level files;
San Andreas opens `models/gta3.img` and `models/gta_int.img` first, III and VC
`models/gta3.img`; the archives' `.ifp` entries and `anim/ped.ifp` are the animation blocks,
`data/animgrp.dat` San Andreas' animation groups, `data/ped.dat` every game's ped types), every
file and archive entry checked with the
rules above, and the rules `mod.*` applied across files, each finding naming its file (as the
level file writes it), its line or archive entry, and the other file involved. `--base DIR`
checks a mod folder against an installed game (paths are looked up in the mod folder first).
From Rust: `check::walk::walk` is the walk, in the core: it never allocates, holds at most 8
archives, a level file and one other file open, and reaches the files through the caller's
`check::walk::ModFiles` (open a path as a level file writes it, its length, a read at an
offset), so a host with its own file system, the C API's callbacks or a browser's dropped
folder, walks the same way; `check::folder::DirFiles` and `check_folder` (feature `std`) are
the file system's. `check::mods::ModChecker` underneath is fed the lines, directory entries,
definitions, placements and animations in load order. Its tables are the engine's own, fixed in
size:

- archive entry names: the caller's table of `check::mods::NAME_SLOTS` (65,536) slots of 16
  bytes (1 MiB), filled to three quarters (49,152 names; a San Andreas install has about
  17,000), each name keyed as San Andreas keys names (`CKeyGen::GetUppercaseKey`, the JAMCRC of
  the upper-cased name) with a second hash (FNV-1a) so that two names never share a key, and the
  archive that holds it;
- streaming slots: one counter per kind (TXD, COL, IPL, DAT, IFP, RRR, SCM), against the
  game's slots (San Andreas: SA exe `CStreaming::Init2` 0x5B9020, INU GTACHECK_RULES.md §1);
- model ids: the caller's table of `check::mods::model_ids(game)` slots (5,500 / 6,500 /
  20,000, the games' model tables) of 40 bytes (800 KB for San Andreas): which IDE defined the
  id, which IPL placed it before any did, and a map object's model and texture dictionary keys
  and line (looked up in the name table at the end: `mod.ide.model_not_streamed`);
- text IPLs that stream IPLs link their LODs into: `check::mods::PARENTS` (256) names with their
  instance counts; stream IPLs: `check::mods::STREAM_IPLS` (512), each with its largest LOD index.
- animation blocks: `check::mods::ANIM_BLOCKS` (256; San Andreas has 180, Vice City 35),
  registered as the games do (`ped` first, then each archive `.ifp` entry's name without its
  extension, and the block name inside a file that matches none), each with the range of its
  animations' keys (`CKeyGen::GetUppercaseKey`) in a table of `check::mods::ANIMATIONS`
  (4,096; San Andreas holds 2,500): `mod.anim_blocks.over_limit`, `mod.anims.over_limit`;
- `data/animgrp.dat`: `check::mods::ANIM_GROUPS` (64) groups with their blocks, and
  `check::mods::ANIM_GROUP_NAMES` (1,024) of their animation names with their lines, compared
  with the blocks at the end (`mod.animgrp.block_missing`, `mod.animgrp.animation_missing`:
  only a block whose file was read is compared); IDE `anim` objects:
  `check::mods::ANIM_OBJECT_BLOCKS` (256) distinct blocks with the first object naming each
  (`mod.ide.anim_block_missing`). A block is only missing when the archives read held at
  least one `.ifp` (a mod folder without `gta3.img` is not short of the game's blocks).
- `data/ped.dat` (every game): read line by line (`level::PedDat`), nothing kept but the
  current type and the bytes read (`mod.peddat.*`).

Past a table's capacity a `check.table_full` note says what was not compared. The walk itself
keeps the list of file names and the findings. San Andreas' stream IPLs are read after the
level files, as `LoadLevel` loads them (GR IplStore.cpp `LoadAllRemainingIpls`), so their ids
are compared with every IDE. A folder of `gta3.img`'s size (16,000 entries, 250 IPLs, 10 IDEs,
built by `examples/make_mod_folder.rs`, 34 MB) is checked in 0.04 s (37 ms of processor time,
its files in the page cache) with 6.5 MB of peak memory.
Not checked yet across files: models and TXDs of other than map objects (vehicles, peds,
weapons) and loose ones (`MODELFILE`), the animation blocks vehicles, weapons and peds name,
`ped.dat`, the animation groups built into III and VC, cutscene animations (`anim/cuts.img`),
two-hop LOD chains (a LOD with a LOD of its own: the games follow one link at a time, GR
FileLoader.cpp `LinkLods` L1956-1968 and the renderer, and draw such chains, so no failure is
known).

## Changed by the executable

Read against the San Andreas executable (INU-ez/INU_Check-GTA `docs/re/ifp_path.md`), these
rules changed (issue 30); their source names the executable first:

- `ifp.anp3.compress_flag_mismatch`: the header's flags bit 0 is overwritten by the first
  bone's frame type (§1.2), so a flag that disagrees with the frame types is harmless. It now
  fires only on an animation of no bones with the bit set (§3.2: SA frees garbage on first use).
  The real hazard, float and packed bones in one animation, is the new
  `ifp.ifp2.mixed_frame_classes` (§3.6).
- `ifp.anp2.compressed_types` is retired (kept for its number, never reported): ANP2 too takes
  the flag from the first bone.
- `ifp.anpk.struct_overrun` is retired: SA reads every ANPK INFO, NAME and ANIM body into a
  260-byte stack buffer (§3.13), so a 48-byte ANIM (every III and VC `ped.ifp`) is harmless.
  `ifp.anpk.chunk_too_big` now covers SA too, above 260 bytes.
- `ifp.anp3.frames_over_u16` and `ifp.anp3.seqs_over_u16`: the counts are int16 (§3.9): the
  limit is 32767, not 65535, and the result a crash or garbage (errors).
- Float ANP3/ANP2 frames are taken as they are, not packed, whatever the flag says (§1.2): the
  packing rules (`ifp.time.tick_overflow`, `ifp.value.quat_range`, `ifp.value.trans_range`)
  apply to ANPK.
- `ifp.seq.zero_frames`: per format (§3.1): an ANP3 bone of no keys gives SA a garbage length
  (this rule); an ANPK one crashes SA on first play (new `ifp.anpk.zero_frames`).
- New: `ifp.seq.bone_id_range` (ids are compared as int16, §3.16); `ifp.seq.duplicate_bone`
  also compares bone ids (SA binds by id, §1.5); `ifp.time.first_not_zero` also fires before 0
  (the first key's time is added at each loop, §1.4).
- Not a rule: SA reads any magic but ANP2/ANP3 as ANPK (§1.1); the decoder refuses an unknown
  magic (`file.decode_failed`). Vice City reads an ANP3/ANP2 as ANPK: `ifp.magic.unknown`.

Also changed (issue 30): `mta.ifp.float_frames` is an error (MTA crashes on them);
`ifp.anpk.chunk_too_big` is reported for the decoder's refusal of a name over 256 bytes; a file
of another format or tool (Fastman92's archive, GTA IV's, a model) is `file.foreign`, not
`file.decode_failed`; a text IPL `inst` line with a decimal comma is
`ipl.inst.shifted_fields`.
";

const LEFT_OUT: &str = "
## What the games do that `check` does not check, and why

The loaders do more than the rules above check. Each behaviour below has the id it would have
as a rule, what the game does, its source in the engines, and why it is left out.

- **Needs other files than the one checked** (an IDE, gta.dat, the other archives, every IPL
  of the game):
  - `ifp.block.collision`: a file whose block name is that of a block already loaded (a mod
    IFP called `ped`): SA writes over that block's animations, past its end when the new file
    has more; VC loops over the old block's count (SA and VC AnimManager LoadAnimFile).
  - `ifp.anim.required_missing`: a block bound to an animation group lacks an animation the
    group needs (III and VC: lists compiled in; SA: `data/animgrp.dat`): the game looks it up,
    gets null and crashes (III AnimBlendAssocGroup.cpp, AnimBlendAssociation.cpp Init).
  - Model ids without a model: III and VC skip an `inst` line whose id has no model
    (`ipl3.inst.unknown_id`, III FileLoader.cpp LoadObjectInstance); SA crashes on one, in a
    text IPL when it links the LODs (`iplsa.inst.unknown_model`, GR FileLoader.cpp
    LoadObjectInstance, LinkLods) and in a binary IPL (`bnry.inst.unknown_model`, GR
    IplStore.cpp); `iplsa.lod.target_null`: a LOD index naming such a line is a null LOD (GR
    LinkLods); `ipl3.inst.not_simple`: III takes a vehicle, ped or clump model as a simple one
    (an assert only, III FileLoader.cpp).
  - Archive entries and the game's data files: `img1.extra_dff_overflow` (III more than 128, VC
    256 `.dff` entries of no IDE model overflow the extra-objects directory, III Directory.cpp
    AddItem, Streaming.cpp); `img2.dff_unknown_model` (SA puts them in its extra directory of
    550, GR Streaming.cpp LoadCdDirectory). Over a folder, `check DIR` reports which archive's
    entry the game streams (`mod.name.shadowed`), a `CDIMAGE` or `IMG` line after the first
    `IPL` line (`mod.img.after_ipl`) and past the game's slots (`mod.img.too_many`,
    `mod.cdimage.too_many`).
  - Counts over the whole game: SA's 40 gta.dat IPLs with instances (`iplsa.files_with_inst`,
    GR IplStore.cpp), 4096 instances of a parent and its LOD-linked stream IPLs
    (`bnry.lod_linked_count`), and the pools of buildings, treadables and dummies (`ipl3.pools`,
    `iplvc.pools`: III and VC config.h; `iplsa.pools`: GR Pools.cpp). (Over a folder, `check
    DIR` counts the streaming slots, `mod.slots.over_limit`, and compares a binary IPL's LOD
    indexes with its parent text IPL's count, `mod.stream.lod_range`.)
- **Decided by the decoder**: an IMG version 2 without its `VER2` magic (`img2.magic`; SA does
  not compare it, GR Streaming.cpp), MTA's magic and negative counts, and text IPL lines longer
  than 256 bytes, which III and SA split (`ipl3.line_len`, `iplsa.line_len`, III
  FileLoader.cpp ReadLine, GR FileLoader.h) fail to decode, which is `file.decode_failed`; the
  games a format is not loaded by are not checked for it.
- **Not visible in the events**: `ifp.anlf.multi`: only III reads `ANLF` containers (VC crashes
  on one, SA reads it wrong), and III has two block slots for them (III AnimManager.cpp); an
  ANLF's blocks are reported as ANPK blocks.
- **How the engine reads, not a fault**: the ANPK, `DGAN` and `CPAN` sizes are never read, the
  counts drive the reading (`ifp.anpk.counts_ignored`, III and VC AnimManager.cpp); nor is
  ANP3's header size, nor the caller's wish for packed frames (`ifp.anp3.header_size_ignored`,
  `ifp.anp3.loadcompressed_ignored`, GR AnimManager.cpp); a quaternion not of length 1 is
  normalised after blending (`ifp.value.non_unit_quat`, GR RpAnimBlend.cpp
  FrameUpdateCallBackSkinned); a translation on a bone other than the root replaces its bind
  offset (`ifp.value.translation_non_root`, the same place; the skeleton rule
  `skel.track.translation_non_root` reports it against a model); III reads `pick` and skips
  `path` (`ipl3.pick_path`), VC loads `path` nodes (`iplvc.path`, both FileLoader.cpp); SA's
  `inst` flags field (area code and streaming bits, `iplsa.inst.flags`), its rule that a
  rotation whose x and y are both at most 0.05 keeps only its heading (from w and the sign of
  z; `iplsa.inst.small_tilt`: it would flag most shipped lines), the columns after the eleventh it
  does not read (`iplsa.inst.extra_columns`: a trailing column shifts nothing; a decimal comma
  is `ipl.inst.shifted_fields`), `occl` lines of 7 to 10 fields read with zeros
  (`iplsa.occl`), all GR FileLoader.cpp; a binary IPL's header fields other than the counts
  and offsets are never read (`bnry.fields_used`), its car generators are made at its second
  load, not the first (`bnry.cars.first_load`, GR IplStore.cpp), and its flags and rotations
  read as a text line's (`bnry.flags_rotation`).
- **Not done yet**: `iplsa.enex.name` (SA keeps an `enex` name from its quotes: without a `\"`
  the name is null, GR FileLoader.cpp LoadEntryExit), `img1.size_huge` (III and VC allocate
  one streaming buffer as large as the largest entry; the sources give no size that fails).
- **Covered under another id**: Vice City reads `inst` scale, names, rotations, a missing `end`
  and `zone` lines as III does (reVC FileLoader.cpp), so the III rules
  `ipl3.inst.scale_ignored`, `ipl3.inst.name_len`, `ipl3.inst.quat`, `ipl3.missing_end` and
  `ipl3.zone.fields` carry Vice City too.
";

/// A broken file of a format no checked game loads still has a finding for its failure, for
/// every game: a Stories file, and an SA file in a version 1 archive (III and VC), whose
/// failure is SA's rule and the note that the check stopped. The `check` fuzz target found the
/// first: `Checker::failed` gave the finding the format's games, none, and so dropped it.
#[test]
fn a_broken_file_no_checked_game_loads_has_its_failure() {
    let (_, mut stories) = testkit::seeds::files()
        .into_iter()
        .find(|(name, _)| name == "stories-depth-first-lcs")
        .unwrap();
    stories[8] = 0xff;
    let mut bad_type = ticks(&[0, 5]);
    bad_type[36 + 36 + 24] = 9;
    let Input::V1(dir, mut data) = v1(&[(b"walk.ifp", 0, 1)], 1) else {
        unreachable!()
    };
    data[..bad_type.len()].copy_from_slice(&bad_type);
    for (what, found, rule, games) in [
        (
            "Stories",
            check(&stories, "x.anim"),
            Rule::DecodeFailed,
            Games::ALL,
        ),
        // Only the games that load the container: III and VC, never SA.
        (
            "ANP3 in IMG v1",
            Input::V1(dir, data).findings(),
            Rule::Incomplete,
            Games::III.union(Games::VC),
        ),
    ] {
        let last = found.last().unwrap_or_else(|| panic!("{what}: no finding"));
        assert_eq!((last.rule, last.games), (rule, games), "{what}: {found:?}");
    }
}

/// At a header no game reads (a mod's `wanted`), the games open no section: each line after
/// it is tried as a header (reVC `LoadScene`: `if(section == NONE)`), so it needs no `end`.
/// The `inst` after it opens its section, whose lines are checked. An `inst` in an `occl`
/// section is a header without `end` for Vice City, which reads `occl`, not for III.
#[test]
fn a_header_no_game_reads_opens_no_section() {
    let long = format!("1, {}, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1", "n".repeat(24));
    let unknown = check(
        format!("wanted\n3, 2\ninst\n{long}\nend\nfoo\n").as_bytes(),
        "a.ipl",
    );
    let rules: Vec<Rule> = unknown.iter().map(|f| f.rule).collect();
    assert!(rules.contains(&Rule::Ipl3Sections), "{unknown:?}");
    assert!(rules.contains(&Rule::Ipl3InstNameLen), "{unknown:?}");
    assert!(!rules.contains(&Rule::Ipl3MissingEnd), "{unknown:?}");
    let occl = check(b"occl\n3, 2\ninst\n1 2\nend\n", "a.ipl");
    let missing: Vec<Games> = occl
        .iter()
        .filter(|f| f.rule == Rule::Ipl3MissingEnd)
        .map(|f| f.games)
        .collect();
    assert_eq!(missing, [Games::VC], "{occl:?}");
}

/// Issue 30's real shapes: no false error on files the games load, and the games a file is
/// for decided from the file.
#[test]
fn real_shapes_get_the_games_they_are_for() {
    // A stock stream IPL under a name longer than a context name: the whole stem is read.
    let long = "lae_stream0_with_a_very_long_name_over_32_bytes.ipl";
    let stream = check(&bnry(0, 1, 400), long);
    assert_eq!(errors(&stream), Vec::<String>::new());
    assert!(fires(
        &check(
            &bnry(0, 1, 400),
            "lae_with_a_very_long_name_over_32_bytes.ipl"
        ),
        Rule::BnryLodNoParent
    ));

    // A Vice City ped.ifp: 269 animations of 44-byte ANIM chunks passes by default.
    let vc_ped = anpk_named("ped", &names(269, "anim"));
    let mut found = Vec::new();
    let mut checker = Checker::from_file(|f: &Finding| found.push(*f));
    checker.set_file_name(b"ped.ifp");
    Decoder::new().decode_slice(&vc_ped, &mut checker).unwrap();
    checker.finish();
    assert_eq!(
        checker.games(),
        Games::VC.union(Games::SA).union(Games::MTA)
    );
    assert!(checker.games_from_file());
    assert_eq!(errors(&found), Vec::<String>::new());
    // Asked for III by name, it is over III's 250.
    let iii = check_for(&vc_ped, "ped.ifp", Games::III);
    assert!(fires(&iii, Rule::AnimsTotalOverLimit), "{iii:?}");

    // The games of each kind of file.
    let games_of = |data: &[u8], name: &str| {
        let mut checker = Checker::from_file(|_: &Finding| {});
        checker.set_file_name(name.as_bytes());
        let _ = Decoder::new().decode_slice(data, &mut checker);
        checker.finish();
        checker.games()
    };
    let iii_file = anpk_one(anpk_bone(
        "b",
        None,
        gtastream::FrameType::Kr00,
        vec![key(0.0, [0.0; 3], [1.0; 3])],
    ));
    assert_eq!(games_of(&iii_file, "a.ifp"), Games::III);
    assert_eq!(
        games_of(&ticks(&[0, 5]), "demo.ifp"),
        Games::SA.union(Games::MTA)
    );
    assert_eq!(games_of(&bnry(-1, 1, 400), "x_stream0.ipl"), Games::SA);
    let sa_text = "inst\n1, name, 0, 0, 0, 0, 0, 0, 0, 1, -1\nend\n";
    assert_eq!(games_of(sa_text.as_bytes(), "a.ipl"), Games::SA);
    let vc_text = "inst\n1, name, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1\nend\n";
    assert_eq!(games_of(vc_text.as_bytes(), "a.ipl"), Games::VC);
}

/// A real SA stream IPL source (Project Props `sfs_stream9.ipl`) has inst lines with an empty
/// name: `3425, , 0, 0.76, -1222.97, 139.482, 0, 0, 0.70710677, -0.707107, -1` is ten fields,
/// yet San Andreas reads all eleven (GR FileLoader.cpp LoadObjectInstance `sscanf` of
/// `%d %s %d %f %f %f %f %f %f %f %d`, on the line LoadLine made blank for commas): `%s` takes
/// `0`, `%d` the `0` of `0.76`, `%f` the `.76`. No stack garbage: no `iplsa.inst.fields`.
#[test]
fn an_empty_inst_name_is_scanned_as_the_game_does() {
    let sa = |line: &str| {
        let text = format!("inst\n1, name, 0, 0, 0, 0, 0, 0, 0, 1, -1\n{line}\nend\n");
        check_for(text.as_bytes(), "a.ipl", Games::SA)
    };
    let empty_name = sa("3425, , 0, 0.76, -1222.97, 139.482, 0, 0, 0.70710677, -0.707107, -1");
    assert!(!fires(&empty_name, Rule::IplsaInstFields), "{empty_name:?}");
    // Near misses: the split needs a decimal point where `%d` stops; without one, or with
    // a field really missing, the last conversion reads stack garbage.
    for line in [
        "3425, , 0, 1, -1222.97, 139.482, 0, 0, 0.70710677, -0.707107, -1",
        "3425, name, 0, 0.76, -1222.97, 139.482, 0, 0, 0.7, -0.7",
    ] {
        let found = sa(line);
        let fields = found
            .iter()
            .find(|f| f.rule == Rule::IplsaInstFields)
            .unwrap_or_else(|| panic!("{line}: {found:?}"));
        assert_eq!(fields.value, Some(10.0), "{line}");
    }
}

/// An empty loose IDE or IPL (a real SA-MP folder ships `SAMP/CUSTOM.ide` of 0 bytes): the
/// games read no line from it, so `check FILE` finds nothing; an empty animation or model
/// still does not decode.
#[test]
fn an_empty_ide_or_ipl_is_no_finding() {
    for name in ["CUSTOM.ide", "x.IPL"] {
        let found = check(b"", name);
        assert_eq!(found, [], "{name}");
    }
    for name in ["ped.ifp", "a.dff", "ide", "x.ide.txt"] {
        let found = check(b"", name);
        assert!(fires(&found, Rule::DecodeFailed), "{name}: {found:?}");
    }
}

/// A version 2 record the game skips (a name without its '.', no sectors) is not decoded; an
/// archive's findings never name a game that cannot load it.
#[test]
fn skipped_records_are_not_decoded() {
    let ifp = ticks(&[0, 5]);
    let mut archive = img(&[("nodot", &ifp), ("empty.ifp", &ifp), ("other.ifp", &ifp)]);
    // The second record: no sectors (its data still lies there).
    archive[8 + 32 + 4..8 + 32 + 6].copy_from_slice(&0u16.to_le_bytes());
    // The first record's data: garbage the decoder would fail on.
    let first = 2048;
    archive[first..first + 4].copy_from_slice(b"ANP3");
    archive[first + 4..first + 8].copy_from_slice(&u32::MAX.to_le_bytes());
    archive[first + 32..first + 36].copy_from_slice(&u32::MAX.to_le_bytes());
    let found = check_archive(&archive);
    assert!(!fires(&found, Rule::DecodeFailed), "{found:?}");
    assert!(!fires(&found, Rule::Incomplete), "{found:?}");
    assert!(fires(&found, Rule::Img2NameRules), "{found:?}");
    assert!(fires(&found, Rule::Img2ZeroSize), "{found:?}");
    assert!(
        found
            .iter()
            .all(|f| Games::SA.union(Games::MTA).contains(f.games)),
        "{found:?}"
    );
    // The record that is read is checked.
    let mismatch = found
        .iter()
        .find(|f| f.rule == Rule::BlockNameMismatch)
        .unwrap();
    assert_eq!(
        mismatch.context.entry.unwrap().name.as_bytes(),
        b"other.ifp"
    );
}

/// The misses of issue 30, each with its near miss.
#[test]
fn the_misses_fire() {
    use testkit::ifp2::BoneSpec as B;
    let bone = |name: &str, id: i32| B::new(name, 3, id, vec![p3(Q, 0), p3(Q, 5)]);
    // One bone id, two names: SA binds both to one bone.
    let same_id = anp3(vec![AnimSpec::new(
        "walk",
        vec![bone("Spine", 2), bone("Spine1", 2)],
    )]);
    let other_id = anp3(vec![AnimSpec::new(
        "walk",
        vec![bone("Spine", 2), bone("Spine1", 3)],
    )]);
    assert!(fires(&check(&same_id, "demo.ifp"), Rule::SeqDuplicateBone));
    assert!(!fires(
        &check(&other_id, "demo.ifp"),
        Rule::SeqDuplicateBone
    ));
    // One name and one id: reported once.
    let both = anp3(vec![AnimSpec::new(
        "walk",
        vec![bone("Spine", 2), bone("Spine", 2)],
    )]);
    let found = check(&both, "demo.ifp");
    assert_eq!(
        found
            .iter()
            .filter(|f| f.rule == Rule::SeqDuplicateBone)
            .count(),
        1,
        "{found:?}"
    );

    // A 300-character animation name overflows the stack buffer: not "does not decode".
    let mut long = anpk_named("demo", &["a".repeat(20)]);
    let at = long.windows(4).position(|w| w == b"NAME").unwrap();
    let old = u32::from_le_bytes(long[at + 4..at + 8].try_into().unwrap()) as usize;
    let mut body = vec![b'a'; 300];
    body.resize(304, 0);
    long.splice(at + 8..at + 8 + old.next_multiple_of(4), body);
    long[at + 4..at + 8].copy_from_slice(&304u32.to_le_bytes());
    let found = check_for(&long, "demo.ifp", Games::ALL);
    assert!(fires(&found, Rule::AnpkChunkTooBig), "{found:?}");
    assert!(!fires(&found, Rule::DecodeFailed), "{found:?}");

    // A first key before 0, as one after it.
    assert!(fires(
        &check(&ticks(&[-5, 10]), "demo.ifp"),
        Rule::TimeFirstNotZero
    ));

    // MTA crashes on float frames: an error.
    assert_eq!(Rule::MtaFloatFrames.level(), Level::Error);

    // An extra integer column at the end shifts nothing.
    let good_sa = "1, name, 0, 0, 0, 0, 0, 0, 0, 1, -1";
    let trailing = format!("inst\n{good_sa}\n{good_sa}, 7\nend\n");
    assert!(!fires(
        &check(trailing.as_bytes(), "a.ipl"),
        Rule::IplInstShifted
    ));
    let comma = format!("inst\n{good_sa}\n1, name, 0, 8149,5, 0, 0, 0, 0, 0, 1, -1\nend\n");
    let found = check(comma.as_bytes(), "a.ipl");
    let shifted = found
        .iter()
        .find(|f| f.rule == Rule::IplInstShifted)
        .unwrap();
    // SA reads the author's w (1) as the LOD.
    assert_eq!(shifted.value, Some(1.0));

    // Retired rules never fire.
    let anpk48 = anpk_named(&"n".repeat(16), &names(1, "a"));
    let anp2 = FileSpec::anp2("demo", vec![AnimSpec::new("walk", vec![packed(&[0, 5])])]).build();
    for (data, name) in [(&anpk48, "x.ifp"), (&anp2, "demo.ifp")] {
        let found = check_for(data, name, Games::ALL);
        assert!(
            !found.iter().any(|f| Rule::RETIRED.contains(&f.rule)),
            "{found:?}"
        );
    }
}

/// Receives nothing: every method of the visitor has a default.
struct Nothing;
impl gtastream::Visitor for Nothing {}

/// docs/FORMATS.md §0: an offset can lie past the end of the input, where a field of the file
/// places the unit there. The example the docs give (and the C header's note on
/// `GTS_NO_OFFSET`): a 76-byte binary IPL whose instances start at 5000 fails with `truncated`
/// at 5000, and the checker finds `bnry.bounds` there; no finding lies anywhere else past it.
#[test]
fn offsets_past_the_end_are_where_the_file_places_the_unit() {
    let mut data = testkit::ipl::bnry(&[], 0x4C, &[], 0x4C);
    data[0x04..0x08].copy_from_slice(&1u32.to_le_bytes());
    data[0x1C..0x20].copy_from_slice(&5000u32.to_le_bytes());
    assert_eq!(data.len(), 76);
    let error = Decoder::new()
        .decode_slice(&data, &mut Nothing)
        .unwrap_err();
    assert_eq!(
        (error.kind, error.offset),
        (gtastream::ErrorKind::Truncated, 5000)
    );
    let found = check(&data, "far.ipl");
    let bounds: Vec<u64> = found
        .iter()
        .filter(|f| f.rule == Rule::BnryBounds)
        .map(|f| f.offset)
        .collect();
    assert_eq!(bounds, [5000], "{found:#?}");
    for finding in &found {
        assert!(
            finding.offset == 5000 || finding.offset < data.len() as u64,
            "{finding:#?}"
        );
    }
    // Within the input, every offset is inside it: the same file with its instances in place.
    let mut inside = testkit::ipl::bnry(&[], 0x4C, &[], 0x4C);
    inside[0x04..0x08].copy_from_slice(&1u32.to_le_bytes());
    inside[0x1C..0x20].copy_from_slice(&0x40u32.to_le_bytes());
    let error = Decoder::new()
        .decode_slice(&inside, &mut Nothing)
        .unwrap_err();
    assert!(error.offset < inside.len() as u64, "{error:?}");
}

/// Every case of every rule, its near miss and issue 30's misses give the same findings
/// however they are cut: byte by byte (up to 64 KiB), in pieces of 7 and 4096 bytes and of
/// changing sizes, and split in two anywhere (up to 2 KiB; at 24 places in larger inputs).
#[test]
fn every_case_gives_its_findings_however_it_is_cut() {
    let mut inputs: Vec<(String, Input)> = Vec::new();
    for (rule, bad, good) in cases() {
        inputs.push((format!("{} fires", rule.id()), bad));
        inputs.push((format!("{} near miss", rule.id()), good));
    }
    for (what, input) in misses() {
        inputs.push((what.to_owned(), input));
    }
    let mut findings = 0;
    for (what, input) in &inputs {
        let whole = input.findings();
        findings += whole.len();
        let len = input.len();
        let mut cuts = vec![
            Cut::Whole,
            Cut::Chunk(7),
            Cut::Chunk(4096),
            Cut::Sizes(vec![1, 0, 3, 64, 2]),
        ];
        if len <= 64 << 10 {
            cuts.push(Cut::bytewise());
        }
        if len <= 2048 {
            cuts.extend(Cut::every_split(len));
        } else {
            cuts.extend((1..24).map(|k| Cut::At(vec![len * k / 24 + k])));
        }
        for cut in &cuts {
            let got = input.findings_cut(cut);
            if let Some((g, w)) = got.iter().zip(&whole).find(|(g, w)| g != w) {
                panic!("{what}, {cut:?}: {g:?}\ninstead of {w:?}");
            }
            assert_eq!(got.len(), whole.len(), "{what}, {cut:?}: {got:?}");
        }
    }
    assert!(findings > 200, "{findings}");
}
