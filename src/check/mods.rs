//! The links between the files of a game or mod folder (rules `mod.*`, docs/CHECKS.md): a
//! [`ModChecker`] is fed what the game loads, in the game's order (the level files' lines, the
//! archives' directory entries, the definitions of each IDE and the placements of each IPL),
//! and keeps the engine's own bounded tables: the archive entry names (hashed as San Andreas
//! keys names, `CKeyGen`'s JAMCRC of the upper-cased name, with a second hash so that two names
//! never share a key), the model ids (up to the game's model limit: which IDE defined each,
//! which IPL placed it before any did, a map object's model and texture names), counts of the
//! streaming slots, the instance counts of the text IPLs that stream IPLs link their LODs into,
//! each stream IPL's largest LOD index, and the animation blocks (`anim/ped.ifp` and the
//! archives' `.ifp` entries, with their animations' keys) that IDE `anim` objects and
//! `data/animgrp.dat` groups name; `data/ped.dat`'s lines are checked as they come
//! ([`ModChecker::peddat_line`]).
//!
//! It never allocates: the name and id tables are the caller's slices ([`NameSlot`],
//! [`NAME_SLOTS`] recommended for a whole San Andreas; [`IdSlot`], [`model_ids`]), the rest is
//! fixed ([`PARENTS`] text IPLs, [`STREAM_IPLS`] stream IPLs, [`ANIM_BLOCKS`] animation blocks,
//! [`ANIMATIONS`] animations' keys, [`ANIM_GROUPS`] animgrp.dat groups with
//! [`ANIM_GROUP_NAMES`] of their animations' names, [`ANIM_OBJECT_BLOCKS`] blocks IDE `anim`
//! objects name). Past a table's capacity a `check.table_full` note says what was not
//! compared. Walking a folder (finding the files, opening the archives) is the `std` layer's
//! (`check::folder`); this type takes lines, entries, records and animation names only.

use super::{Finding, Games, Rule};
use crate::archive::Entry;
use crate::context::{Context, Item, Name};
use crate::level::{self, DatLine, Keyword, Line};
use crate::{Game, IplInstance, Record};

/// Slots of the name table a whole San Andreas fills to about a quarter (gta3.img holds about
/// 16,000 entries): 65,536 slots of 16 bytes, 1 MiB.
pub const NAME_SLOTS: usize = 1 << 16;
/// Text IPLs whose instance counts are kept for their stream IPLs (San Andreas has at most 40
/// text IPLs with `inst` lines that stream IPLs can link into).
pub const PARENTS: usize = 256;
/// Stream IPLs whose largest LOD index is kept (San Andreas has 256 IPL slots).
pub const STREAM_IPLS: usize = 512;
/// Animation blocks kept: San Andreas has 180 (Vice City 35), the table is filled past them.
pub const ANIM_BLOCKS: usize = 256;
/// Animations whose keys are kept, with their block: San Andreas holds 2500 (Vice City 450).
pub const ANIMATIONS: usize = 4096;
/// `data/animgrp.dat` groups kept: San Andreas reads up to 27 besides its 118 built-in ones.
pub const ANIM_GROUPS: usize = 64;
/// Animation names of the `data/animgrp.dat` groups kept (with their lines).
pub const ANIM_GROUP_NAMES: usize = 1024;
/// Distinct animation blocks IDE `anim` objects name, each with the first object naming it.
pub const ANIM_OBJECT_BLOCKS: usize = 256;

/// The games' tables of animations and of animation blocks (III and VC `NUMANIMATIONS`,
/// `NUMANIMBLOCKS`; GR `AnimManager.h` `ms_aAnimations`, `NUM_ANIM_BLOCKS`).
const fn anim_limits(game: Game) -> (u32, u32) {
    match game {
        Game::Iii => (250, 2),
        Game::ViceCity => (450, 35),
        Game::SanAndreas => (2500, 180),
    }
}

/// The game's model ids (`0..model_ids(game)`): the size of its model table (III and VC
/// `MODELINFOSIZE`, GR `NUM_MODEL_INFOS`), and of the id table [`ModChecker::new`] takes.
pub const fn model_ids(game: Game) -> usize {
    match game {
        Game::Iii => 5500,
        Game::ViceCity => 6500,
        Game::SanAndreas => 20000,
    }
}

/// One slot of the id table: which file defined the model id, and which placed it while no
/// definition was loaded (each the caller's file number plus one; 0: none).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IdSlot {
    defined: u32,
    placed_undefined: u32,
    /// A map object's (`objs`, `tobj`, `anim`) model and texture dictionary keys
    /// (`name.dff`, `name.txd`; 0: not a map object) and its line, for [`ModChecker::finish`].
    model: u64,
    txd: u64,
    line: u32,
    /// Defined after the directories were read (San Andreas: after the first IPL line).
    late: bool,
    offset: u64,
}

impl IdSlot {
    /// An empty slot.
    pub const EMPTY: IdSlot = IdSlot {
        defined: 0,
        placed_undefined: 0,
        model: 0,
        txd: 0,
        line: 0,
        late: false,
        offset: 0,
    };
}

/// One slot of the name table: a name's two hashes and the file (archive) that holds it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NameSlot {
    key: u64,
    file: u32,
}

impl NameSlot {
    /// An empty slot.
    pub const EMPTY: NameSlot = NameSlot { key: 0, file: 0 };
}

/// A finding across files: where (the file, and the finding's line or archive entry) and the
/// other file involved.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct ModFinding {
    /// The rule, games, offset, line or entry, value and bound.
    pub finding: Finding,
    /// The file it is in: the caller's number for it (see [`ModChecker`]).
    pub file: u32,
    /// The other file involved (the archive that also holds a name, the parent text IPL),
    /// by the caller's number.
    pub other: Option<u32>,
}

/// The kinds of streamed entries with slots of their own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Txd,
    Col,
    Ipl,
    Dat,
    Ifp,
    Rrr,
    Scm,
}

const KINDS: [(&[u8], Kind); 7] = [
    (b"TXD", Kind::Txd),
    (b"COL", Kind::Col),
    (b"IPL", Kind::Ipl),
    (b"DAT", Kind::Dat),
    (b"IFP", Kind::Ifp),
    (b"RRR", Kind::Rrr),
    (b"SCM", Kind::Scm),
];

/// The game's slots of a kind (`None`: not streamed, or no limit known).
fn slots(game: Game, kind: Kind) -> Option<u32> {
    match (game, kind) {
        (Game::SanAndreas, Kind::Txd) => Some(5000),
        // Slot 0 is the generic one.
        (Game::SanAndreas, Kind::Col) => Some(254),
        (Game::SanAndreas, Kind::Ipl) => Some(255),
        (Game::SanAndreas, Kind::Dat) => Some(64),
        (Game::SanAndreas, Kind::Ifp) => Some(180),
        (Game::SanAndreas, Kind::Rrr) => Some(475),
        (Game::SanAndreas, Kind::Scm) => Some(82),
        (Game::ViceCity, Kind::Txd) => Some(1385),
        (Game::ViceCity, Kind::Col) => Some(31),
        (Game::ViceCity, Kind::Ifp) => Some(35),
        (Game::Iii, Kind::Txd) => Some(850),
        _ => None,
    }
}

/// Where a finding on a level file's line is: the line's offset, and the line in its context.
fn at_line(line: &Line<'_>) -> (u64, Context) {
    At::of(line).place()
}

/// Where a finding on an archive entry is: the entry's offset, and the entry in its context.
fn at_entry(entry: &Entry<'_>) -> (u64, Context) {
    let context = Context {
        entry: Some(Item {
            index: entry.index,
            name: Name::new(entry.name),
        }),
        base: entry.offset,
        offset: entry.offset,
        ..Context::default()
    };
    (entry.offset, context)
}

/// The kind of an entry name: its first three characters after the first `.`, any case.
fn kind_of(name: &[u8]) -> Option<Kind> {
    let dot = name.iter().position(|&b| b == b'.')?;
    let ext = name.get(dot + 1..dot + 4)?;
    KINDS
        .iter()
        .find(|(k, _)| ext.eq_ignore_ascii_case(k))
        .map(|&(_, kind)| kind)
}

/// A name's key in the table: San Andreas' JAMCRC, then FNV-1a, both of the upper-cased
/// bytes (never 0: 0 is an empty slot).
fn name_key(name: &[u8]) -> u64 {
    let mut fnv = 0x811c_9dc5_u32;
    for &b in name {
        fnv = (fnv ^ u32::from(b.to_ascii_uppercase())).wrapping_mul(0x0100_0193);
    }
    ((u64::from(level::uppercase_key(name)) << 32) | u64::from(fnv)).max(1)
}

/// The key of `stem` + `ext` (`lae_road` + `.dff`), as [`name_key`] of the whole name.
fn file_key(stem: &[u8], ext: &[u8]) -> u64 {
    let mut whole = [0u8; 64];
    let len = stem.len() + ext.len();
    if len > whole.len() {
        return 0;
    }
    whole[..stem.len()].copy_from_slice(stem);
    whole[stem.len()..len].copy_from_slice(ext);
    name_key(&whole[..len])
}

/// A text IPL loaded by a level file: its name's key and how many `inst` lines it had.
#[derive(Clone, Copy, Debug, Default)]
struct Parent {
    key: u64,
    instances: u32,
    file: u32,
}

/// A stream IPL: its parent's key and its largest LOD index, with where it is.
#[derive(Clone, Copy, Debug)]
struct Stream {
    parent: u64,
    lod: i32,
    offset: u64,
    context: Context,
    file: u32,
}

/// The IPL being fed.
#[derive(Clone, Copy, Debug)]
struct Current {
    file: u32,
    key: u64,
    /// A stream IPL (an archive entry whose name holds `_stream`): its parent's key.
    parent: Option<u64>,
    context: Context,
    instances: u32,
    lod: Option<(i32, u64, Option<u32>)>,
    /// An IDE, not an IPL.
    ide: bool,
}

/// An animation block the game registers: by its name (the archive entry's stem, `ped`, or
/// the name inside a file that matches none), with the animations the file that fills it
/// holds (a range of the animation table).
#[derive(Clone, Copy, Debug, Default)]
struct Block {
    key: u64,
    /// Registered when the directories are read (`ped`, an archive's `.ifp`): what IDE
    /// `anim` objects can find.
    listed: bool,
    /// A file filled it: its animations are `first..first + count` of the table.
    read: bool,
    /// Some of its animations did not fit the table: its names are not compared.
    partial: bool,
    first: u32,
    count: u32,
    /// The file that filled it.
    file: u32,
}

/// A line of a text file, where a finding on it is (its number and its first byte's offset).
#[derive(Clone, Copy, Debug)]
struct At {
    line: u32,
    offset: u64,
}

impl At {
    fn of(line: &Line<'_>) -> At {
        At {
            line: line.number,
            offset: line.offset,
        }
    }

    fn place(self) -> (u64, Context) {
        let context = Context {
            line: Some(self.line),
            offset: self.offset,
            ..Context::default()
        };
        (self.offset, context)
    }
}

/// A `data/animgrp.dat` group: its block's key and where it is.
#[derive(Clone, Copy, Debug)]
struct AnimGroup {
    block: u64,
    file: u32,
    at: At,
}

/// An animation a group lists: its group, its name's key (the game's), and its line.
#[derive(Clone, Copy, Debug)]
struct GroupName {
    group: u16,
    key: u32,
    at: At,
}

/// A block IDE `anim` objects name: the first object naming it.
#[derive(Clone, Copy, Debug)]
struct ObjectBlock {
    key: u64,
    file: u32,
    id: i32,
    at: At,
}

/// The animation file being fed: its block (`None`: its animations go nowhere) and where.
#[derive(Clone, Copy, Debug)]
struct OpenBlock {
    block: Option<usize>,
    file: u32,
    at: (u64, Context),
}

/// Checks the links between a folder's files (module documentation). Files are numbered by
/// the caller (an index into its own list of paths); findings name them by these numbers.
pub struct ModChecker<'t, S> {
    game: Game,
    games: Games,
    sink: S,
    names: &'t mut [NameSlot],
    ids: &'t mut [IdSlot],
    names_used: usize,
    names_full: bool,
    archive_lines: u32,
    seen_ipl: bool,
    kinds: [u32; KINDS.len()],
    parents: [Parent; PARENTS],
    parents_len: usize,
    streams: [Option<Stream>; STREAM_IPLS],
    streams_len: usize,
    tables_full: bool,
    current: Option<Current>,
    errors: u32,
    blocks: [Block; ANIM_BLOCKS],
    blocks_len: usize,
    /// A block did not fit: a name not found may be one of those.
    blocks_full: bool,
    /// Blocks registered from archives (not counting `ped`): none, and the folder holds no
    /// archive with animations (a mod folder without `gta3.img`), so nothing is missing.
    archive_blocks: u32,
    animations: [u32; ANIMATIONS],
    animations_len: usize,
    /// Animations of every block together, as the game reserves them.
    animations_total: u32,
    open_block: Option<OpenBlock>,
    groups: [Option<AnimGroup>; ANIM_GROUPS],
    groups_len: usize,
    group_names: [Option<GroupName>; ANIM_GROUP_NAMES],
    group_names_len: usize,
    /// The group being read from animgrp.dat is not kept (the table was full).
    group_dropped: bool,
    object_blocks: [Option<ObjectBlock>; ANIM_OBJECT_BLOCKS],
    object_blocks_len: usize,
}

impl<'t, S: FnMut(&ModFinding)> ModChecker<'t, S> {
    /// A checker for `game`, remembering archive entry names in `names` (all
    /// [`NameSlot::EMPTY`]; [`NAME_SLOTS`] for a whole game) and model ids in `ids` (all
    /// [`IdSlot::EMPTY`]; [`model_ids`] of the game: ids past a shorter table are not
    /// compared), handing each finding to `sink`.
    pub fn new(game: Game, names: &'t mut [NameSlot], ids: &'t mut [IdSlot], sink: S) -> Self {
        let games = match game {
            Game::Iii => Games::III,
            Game::ViceCity => Games::VC,
            Game::SanAndreas => Games::SA,
        };
        ModChecker {
            game,
            games,
            sink,
            names,
            ids,
            names_used: 0,
            names_full: false,
            archive_lines: 0,
            seen_ipl: false,
            kinds: [0; KINDS.len()],
            parents: [Parent::default(); PARENTS],
            parents_len: 0,
            streams: [None; STREAM_IPLS],
            streams_len: 0,
            tables_full: false,
            current: None,
            errors: 0,
            blocks: [Block::default(); ANIM_BLOCKS],
            blocks_len: 0,
            blocks_full: false,
            archive_blocks: 0,
            animations: [0; ANIMATIONS],
            animations_len: 0,
            animations_total: 0,
            open_block: None,
            groups: [None; ANIM_GROUPS],
            groups_len: 0,
            group_names: [None; ANIM_GROUP_NAMES],
            group_names_len: 0,
            group_dropped: false,
            object_blocks: [None; ANIM_OBJECT_BLOCKS],
            object_blocks_len: 0,
        }
        .with_ped_block()
    }

    /// Every game registers `ped` first (GR `AnimManager.cpp` `Initialise`, III and VC
    /// `LoadAnimFiles`).
    fn with_ped_block(mut self) -> Self {
        self.blocks[0] = Block {
            key: name_key(b"ped"),
            listed: true,
            ..Block::default()
        };
        self.blocks_len = 1;
        self
    }

    /// Error findings so far.
    pub fn errors(&self) -> u32 {
        self.errors
    }

    /// The sink back.
    pub fn into_sink(self) -> S {
        self.sink
    }

    fn emit(&mut self, rule: Rule, file: u32, other: Option<u32>, at: (u64, Context)) {
        self.emit_value(rule, file, other, at, None, None);
    }

    fn emit_value(
        &mut self,
        rule: Rule,
        file: u32,
        other: Option<u32>,
        (offset, context): (u64, Context),
        value: Option<f64>,
        limit: Option<f64>,
    ) {
        let games = rule.games().and(self.games);
        if games.is_empty() {
            return;
        }
        if rule.level() == super::Level::Error {
            self.errors += 1;
        }
        let finding = ModFinding {
            finding: Finding {
                rule,
                games,
                offset,
                context,
                value,
                limit,
                error: None,
            },
            file,
            other,
        };
        (self.sink)(&finding);
    }

    /// A line of a level file (`file`), in order; `found`: whether the file the line names
    /// was found (ignored for lines that name none). Returns whether the game reads what the
    /// line names: `false` for an archive past the slots or after the first `IPL` line, and
    /// for a file that is not there.
    pub fn level_line(
        &mut self,
        file: u32,
        line: &Line<'_>,
        dat: &DatLine<'_>,
        found: bool,
    ) -> bool {
        let at = at_line(line);
        let archive = matches!(dat.keyword, Keyword::Img | Keyword::CdImage);
        let mut read = true;
        if archive {
            // III and VC read CDIMAGE lines, San Andreas IMG lines.
            let for_game = (dat.keyword == Keyword::Img) == (self.game == Game::SanAndreas);
            if !for_game {
                return false;
            }
            if self.seen_ipl && self.game != Game::Iii {
                self.emit(Rule::ModImgAfterIpl, file, None, at);
                read = false;
            } else {
                self.archive_lines += 1;
                let (rule, slots) = match self.game {
                    Game::SanAndreas => (Rule::ModImgTooMany, 5),
                    _ => (Rule::ModCdImageTooMany, 7),
                };
                if self.archive_lines > slots {
                    let count = f64::from(self.archive_lines);
                    self.emit_value(rule, file, None, at, Some(count), Some(f64::from(slots)));
                    read = false;
                }
            }
        }
        if dat.keyword == Keyword::Ipl {
            self.seen_ipl = true;
        }
        if dat.keyword.names_file() && !found {
            let rule = match dat.keyword {
                Keyword::Ide | Keyword::Ipl => Rule::ModFileMissing,
                _ => Rule::ModArchiveMissing,
            };
            self.emit(rule, file, None, at);
            read = false;
        }
        read && dat.keyword.names_file()
    }

    /// An entry of the archive `file`'s directory (an archive the game reads, in the game's
    /// order: San Andreas gta3.img, gta_int.img, then the IMG lines; III and VC gta3.img,
    /// then the CDIMAGE lines).
    pub fn archive_entry(&mut self, file: u32, entry: &Entry<'_>) {
        let at = at_entry(entry);
        let kind = kind_of(entry.name);
        let first = match self.register(entry.name, file) {
            Registered::New => true,
            Registered::Again(other) => {
                // The same archive twice is the single-file rule's (img2.duplicate).
                if other != file {
                    self.emit(Rule::ModNameShadowed, file, Some(other), at);
                }
                false
            }
            Registered::Full => true,
        };
        let Some(kind) = kind else { return };
        // San Andreas gives every COL record a slot of its own; other kinds one a name.
        if !(first || (kind == Kind::Col && self.game == Game::SanAndreas)) {
            return;
        }
        let i = KINDS.iter().position(|&(_, k)| k == kind).unwrap_or(0);
        self.kinds[i] += 1;
        if let Some(limit) = slots(self.game, kind) {
            if self.kinds[i] == limit + 1 {
                let value = Some(f64::from(self.kinds[i]));
                self.emit_value(
                    Rule::ModSlotsOverLimit,
                    file,
                    None,
                    at,
                    value,
                    Some(f64::from(limit)),
                );
            }
        }
    }

    fn register(&mut self, name: &[u8], file: u32) -> Registered {
        let len = self.names.len();
        if len == 0 {
            return Registered::Full;
        }
        let key = name_key(name);
        let mut i = (key % len as u64) as usize;
        loop {
            let slot = self.names[i];
            if slot.key == 0 {
                break;
            }
            if slot.key == key {
                return Registered::Again(slot.file);
            }
            i = (i + 1) % len;
        }
        if self.names_used >= len / 4 * 3 {
            if !core::mem::replace(&mut self.names_full, true) {
                let limit = Some((len / 4 * 3) as f64);
                self.emit_value(
                    Rule::TableFull,
                    file,
                    None,
                    (0, Context::default()),
                    None,
                    limit,
                );
            }
            return Registered::Full;
        }
        self.names[i] = NameSlot { key, file };
        self.names_used += 1;
        Registered::New
    }

    /// An IPL begins: `file` is the text IPL a level file names, or the archive holding
    /// `entry` (a stream IPL when its name holds `_stream`). `name` is the file's or entry's
    /// name.
    pub fn ipl_begin(&mut self, file: u32, name: &[u8], entry: Option<&Entry<'_>>) {
        let mut context = Context::default();
        let mut parent = None;
        if let Some(entry) = entry {
            context.entry = Some(Item {
                index: entry.index,
                name: Name::new(entry.name),
            });
            context.base = entry.offset;
            parent = level::stream_parent(name).map(name_key);
        }
        self.current = Some(Current {
            file,
            key: name_key(level::stem(name)),
            parent,
            context,
            instances: 0,
            lod: None,
            ide: false,
        });
    }

    /// A record of the IPL or IDE begun, with the absolute offset and line the decoder
    /// reported it at (a [`crate::context::Context`]'s; an IDE object carries its own).
    pub fn record(&mut self, record: &Record<'_>, offset: u64, line: Option<u32>) {
        match record {
            Record::Instance(instance) => {
                let Some(current) = self.current.as_mut() else {
                    return;
                };
                current.instances += 1;
                Self::note_lod(current, instance, offset, line);
                let (file, mut context) = (current.file, current.context);
                context.line = line;
                context.offset = offset;
                self.placed(instance.model_id, file, (offset, context));
            }
            Record::IdeObject(object) => {
                let Some(current) = self.current else {
                    return;
                };
                let mut context = current.context;
                context.line = Some(object.line);
                context.offset = object.offset;
                self.defined(object.id, current.file, (object.offset, context));
                let map_object = matches!(object.section, "objs" | "tobj" | "anim");
                if let Some(slot) = usize::try_from(object.id)
                    .ok()
                    .and_then(|i| self.ids.get_mut(i))
                {
                    if slot.defined == current.file + 1 && map_object {
                        slot.model = file_key(object.model_name, b".dff");
                        slot.txd = file_key(object.txd_name, b".txd");
                        slot.line = object.line;
                        slot.offset = object.offset;
                        slot.late = self.seen_ipl;
                    }
                }
                // The blocks are looked up once, at the first IPL line: an object defined
                // later is not streamed at all (mod.ide.model_not_streamed).
                if object.section == "anim" && !self.seen_ipl {
                    if let Some(block) = object.animation {
                        let at = At {
                            line: object.line,
                            offset: object.offset,
                        };
                        self.object_block(block, current.file, object.id, at);
                    }
                }
            }
            _ => {}
        }
    }

    /// An IPL places model `id`: is it defined?
    fn placed(&mut self, id: i32, file: u32, at: (u64, Context)) {
        // Ids outside the table are the single-file rules' (`iplsa.inst.id_range`, ...).
        let Some(slot) = usize::try_from(id).ok().and_then(|i| self.ids.get_mut(i)) else {
            return;
        };
        if slot.defined != 0 {
            return;
        }
        if slot.placed_undefined == 0 {
            slot.placed_undefined = file + 1;
        }
        let rule = match self.game {
            Game::SanAndreas => Rule::ModIplUndefinedId,
            _ => Rule::ModIplUndefinedIdSkipped,
        };
        self.emit_value(rule, file, None, at, Some(f64::from(id)), None);
    }

    /// An IDE defines model `id`.
    fn defined(&mut self, id: i32, file: u32, at: (u64, Context)) {
        let limit = self.ids.len().min(model_ids(self.game));
        // Ids outside the game's table are the single-file rule's (`ide.id.range`).
        let Some(index) = usize::try_from(id).ok().filter(|&i| i < limit) else {
            return;
        };
        let slot = self.ids[index];
        if slot.defined != 0 {
            let other = Some(slot.defined - 1);
            self.emit_value(
                Rule::ModIdeDuplicateId,
                file,
                other,
                at,
                Some(f64::from(id)),
                None,
            );
        }
        if slot.placed_undefined != 0 {
            let other = Some(slot.placed_undefined - 1);
            self.emit_value(
                Rule::ModIdeDefinedAfterUse,
                file,
                other,
                at,
                Some(f64::from(id)),
                None,
            );
        }
        self.ids[index] = IdSlot {
            defined: file + 1,
            ..IdSlot::EMPTY
        };
    }

    /// A line of San Andreas' `data/animgrp.dat` (`file`), read by `groups`. Its groups'
    /// blocks and animations are compared with the blocks read by [`finish`](Self::finish).
    pub fn animgrp_line(&mut self, file: u32, line: &Line<'_>, groups: &mut level::AnimGroups) {
        match groups.line(line.stored) {
            level::AnimGroupLine::Group { block, .. } => {
                self.group_dropped = self.groups_len == ANIM_GROUPS;
                if self.group_dropped {
                    self.table_full(file, ANIM_GROUPS);
                    return;
                }
                self.groups[self.groups_len] = Some(AnimGroup {
                    block: name_key(block),
                    file,
                    at: At::of(line),
                });
                self.groups_len += 1;
            }
            level::AnimGroupLine::Animation { name, index, count } => {
                let Some(count) = count else { return };
                if index == count {
                    let at = at_line(line);
                    let (value, limit) = (Some(f64::from(index + 1)), Some(f64::from(count)));
                    self.emit_value(Rule::ModAnimgrpTooManyNames, file, None, at, value, limit);
                }
                // Names past the count are not the group's (the rule above).
                if index >= count || self.group_dropped || self.groups_len == 0 {
                    return;
                }
                if self.group_names_len == ANIM_GROUP_NAMES {
                    self.table_full(file, ANIM_GROUP_NAMES);
                    return;
                }
                self.group_names[self.group_names_len] = Some(GroupName {
                    group: (self.groups_len - 1) as u16,
                    key: level::uppercase_key(name),
                    at: At::of(line),
                });
                self.group_names_len += 1;
            }
            _ => {}
        }
    }

    /// A line of `data/ped.dat` (`file`), read by `ped` (the game's reader, rules
    /// `mod.peddat.*`): names the game does not know, a relation before any type, and the
    /// fixed buffers III and VC copy the file, its lines and its words into.
    pub fn peddat_line(&mut self, file: u32, line: &Line<'_>, ped: &mut level::PedDat) {
        // III, VC: the file in 16 KiB, each line in 256 bytes, each word in 32 (re3
        // PedType.cpp L47-48, L56); SA copies only a line's first word, into 32 bytes.
        const BUFFER: u64 = 16 * 1024;
        const LINE: usize = 256;
        const WORD: usize = 32;
        let read = ped.line(line);
        let sa = self.game == Game::SanAndreas;
        let at = || at_line(line);
        let end = ped.text_bytes();
        let start = end - line.stored.len() as u64;
        if !sa && end >= BUFFER && start <= BUFFER {
            let (value, limit) = (Some(end as f64), Some((BUFFER - 1) as f64));
            self.emit_value(Rule::ModPeddatFileTooBig, file, None, at(), value, limit);
        }
        if !sa && (line.cut || line.stored.len() >= LINE) {
            let (value, limit) = (Some(line.stored.len() as f64), Some((LINE - 1) as f64));
            self.emit_value(Rule::ModPeddatLineTooLong, file, None, at(), value, limit);
        }
        let long_word = |word: &[u8]| word.len() >= WORD;
        let too_long = match read {
            level::PedDatLine::Type { name, .. } => Some(name).filter(|w| long_word(w)),
            // SA splits the names with strtok in place: only III and VC copy them.
            level::PedDatLine::Relation { keyword, names, .. } => core::iter::once(keyword)
                .chain(names.filter(|_| !sa))
                .find(|w| long_word(w)),
            _ => None,
        };
        if let Some(word) = too_long {
            let (value, limit) = (Some(word.len() as f64), Some((WORD - 1) as f64));
            self.emit_value(Rule::ModPeddatWordTooLong, file, None, at(), value, limit);
        }
        match read {
            level::PedDatLine::Type { index: None, .. } => {
                let rule = match sa {
                    true => Rule::ModPeddatUnknownTypeMission8,
                    false => Rule::ModPeddatUnknownType,
                };
                self.emit(rule, file, None, at());
            }
            level::PedDatLine::Relation {
                names, after_type, ..
            } => {
                if !after_type {
                    let rule = match sa {
                        true => Rule::ModPeddatRelationBeforeTypeMission8,
                        false => Rule::ModPeddatRelationBeforeType,
                    };
                    self.emit(rule, file, None, at());
                }
                for name in names {
                    if level::ped_flag(self.game, name).is_none() {
                        self.emit(Rule::ModPeddatUnknownName, file, None, at());
                    }
                }
            }
            _ => {}
        }
    }

    /// An IDE `anim` object (model `id`) names the animation block `name` (`null`: none).
    fn object_block(&mut self, name: &[u8], file: u32, id: i32, at: At) {
        // `null` in any case names no block (SA exe SetAnimFile compares with _stricmp).
        if name.eq_ignore_ascii_case(b"null") {
            return;
        }
        let key = name_key(name);
        let known = self.object_blocks[..self.object_blocks_len]
            .iter()
            .flatten()
            .any(|b| b.key == key);
        if known {
            return;
        }
        if self.object_blocks_len == ANIM_OBJECT_BLOCKS {
            self.table_full(file, ANIM_OBJECT_BLOCKS);
            return;
        }
        self.object_blocks[self.object_blocks_len] = Some(ObjectBlock { key, file, id, at });
        self.object_blocks_len += 1;
    }

    /// An animation file the game loads begins (`file`): `anim/ped.ifp` (`entry` `None`,
    /// block `ped`) or an archive's `.ifp` entry, registered under the entry's name without
    /// its extension as San Andreas and Vice City do when they read the directories (an
    /// archive the game reads). `internal` is the block name inside the file (`None`:
    /// unknown): a name other than the block's fills a block of that name instead. Its
    /// animations follow ([`block_animation`](Self::block_animation)), then
    /// [`block_end`](Self::block_end).
    pub fn block_begin(&mut self, file: u32, entry: Option<&Entry<'_>>, internal: Option<&[u8]>) {
        self.open_block = None;
        let at = entry.map_or((0, Context::default()), at_entry);
        let name: &[u8] = match entry {
            // III streams no animation files (re3 Streaming.cpp LoadCdDirectory: DFF, TXD).
            Some(_) if self.game == Game::Iii => return,
            Some(entry) => {
                self.archive_blocks += 1;
                level::stem(entry.name)
            }
            None => b"ped",
        };
        let listed = self.find_or_add_block(name, true, file, at);
        // The file fills the block of its own name (GR AnimManager.cpp L591-618).
        let target = match internal {
            Some(inner) if name_key(inner) != name_key(name) => {
                self.find_or_add_block(inner, false, file, at)
            }
            _ => listed,
        };
        let block = target.and_then(|i| {
            let block = &mut self.blocks[i];
            if block.read && block.count > 0 {
                // San Andreas keeps the first file's animations (the first archive's entry
                // is the one streamed); III and VC stream the last archive's.
                if self.game == Game::SanAndreas {
                    return None;
                }
                self.animations_total -= block.count;
            }
            *block = Block {
                read: true,
                partial: false,
                first: self.animations_len as u32,
                count: 0,
                file,
                ..*block
            };
            Some(i)
        });
        self.open_block = Some(OpenBlock { block, file, at });
    }

    /// The block named `name`, registered (`listed`: from a directory) if new.
    fn find_or_add_block(
        &mut self,
        name: &[u8],
        listed: bool,
        file: u32,
        at: (u64, Context),
    ) -> Option<usize> {
        let key = name_key(name);
        if let Some(i) = self.blocks[..self.blocks_len]
            .iter()
            .position(|b| b.key == key)
        {
            self.blocks[i].listed |= listed;
            return Some(i);
        }
        if self.blocks_len == ANIM_BLOCKS {
            self.blocks_full = true;
            self.table_full(file, ANIM_BLOCKS);
            return None;
        }
        self.blocks[self.blocks_len] = Block {
            key,
            listed,
            ..Block::default()
        };
        self.blocks_len += 1;
        let limit = anim_limits(self.game).1;
        if self.blocks_len as u32 == limit + 1 {
            let (value, limit) = (Some(self.blocks_len as f64), Some(f64::from(limit)));
            self.emit_value(Rule::ModAnimBlocksOverLimit, file, None, at, value, limit);
        }
        Some(self.blocks_len - 1)
    }

    /// An animation of the file begun.
    pub fn block_animation(&mut self, name: &[u8]) {
        let Some(OpenBlock {
            block: Some(i),
            file,
            at: (offset, mut context),
        }) = self.open_block
        else {
            return;
        };
        let block = &mut self.blocks[i];
        block.count += 1;
        let index = block.count - 1;
        if self.animations_len < ANIMATIONS && !block.partial {
            self.animations[self.animations_len] = level::uppercase_key(name);
            self.animations_len += 1;
        } else if !core::mem::replace(&mut block.partial, true) {
            self.table_full(file, ANIMATIONS);
        }
        self.animations_total += 1;
        let limit = anim_limits(self.game).0;
        if self.animations_total == limit + 1 {
            context.animation = Some(Item {
                index,
                name: Name::new(name),
            });
            let (value, limit) = (
                Some(f64::from(self.animations_total)),
                Some(f64::from(limit)),
            );
            self.emit_value(
                Rule::ModAnimsOverLimit,
                file,
                None,
                (offset, context),
                value,
                limit,
            );
        }
    }

    /// The animation file begun ends.
    pub fn block_end(&mut self) {
        self.open_block = None;
    }

    /// The block of `key`, if registered.
    fn block(&self, key: u64) -> Option<&Block> {
        self.blocks[..self.blocks_len].iter().find(|b| b.key == key)
    }

    /// The IDE `anim` objects' blocks and the animgrp.dat groups against the blocks read.
    fn finish_animations(&mut self) {
        // Without a block from an archive the folder has none of the game's (a mod folder
        // without gta3.img): a block not found may be there.
        let missing_known = self.archive_blocks > 0 && !self.blocks_full;
        for i in 0..self.object_blocks_len {
            let Some(object) = self.object_blocks[i] else {
                continue;
            };
            let found = self.block(object.key).is_some_and(|b| b.listed);
            if missing_known && !found {
                let value = Some(f64::from(object.id));
                let rule = Rule::ModIdeAnimBlockMissing;
                self.emit_value(rule, object.file, None, object.at.place(), value, None);
            }
        }
        let mut names = 0;
        for g in 0..self.groups_len {
            let Some(group) = self.groups[g] else {
                continue;
            };
            let block = self.block(group.block).copied();
            if block.is_none() && missing_known {
                self.emit(
                    Rule::ModAnimgrpBlockMissing,
                    group.file,
                    None,
                    group.at.place(),
                );
            }
            while names < self.group_names_len {
                let Some(name) = self.group_names[names].filter(|n| usize::from(n.group) == g)
                else {
                    break;
                };
                names += 1;
                // Only a block read whole is compared.
                let Some(block) = block.filter(|b| b.read && !b.partial) else {
                    continue;
                };
                let first = block.first as usize;
                let keys = &self.animations[first..first + block.count as usize];
                if !keys.contains(&name.key) {
                    let other = Some(block.file);
                    let rule = Rule::ModAnimgrpAnimationMissing;
                    self.emit_value(rule, group.file, other, name.at.place(), None, None);
                }
            }
        }
        self.object_blocks_len = 0;
        self.groups_len = 0;
        self.group_names_len = 0;
    }

    /// An IDE file (`file`) begins; its records follow ([`record`](Self::record)), then
    /// [`ide_end`](Self::ide_end).
    pub fn ide_begin(&mut self, file: u32) {
        self.current = Some(Current {
            file,
            key: 0,
            parent: None,
            context: Context::default(),
            instances: 0,
            lod: None,
            ide: true,
        });
    }

    /// The IDE begun ends.
    pub fn ide_end(&mut self) {
        self.current = None;
    }

    fn note_lod(current: &mut Current, instance: &IplInstance<'_>, offset: u64, line: Option<u32>) {
        if instance.lod >= 0 && current.lod.is_none_or(|(lod, _, _)| instance.lod > lod) {
            current.lod = Some((instance.lod, offset, line));
        }
    }

    /// The IPL begun ends: a text IPL's instance count is kept for its stream IPLs, a stream
    /// IPL's largest LOD index for [`finish`](Self::finish).
    pub fn ipl_end(&mut self) {
        let Some(current) = self.current.take().filter(|c| !c.ide) else {
            return;
        };
        match current.parent {
            None if current.context.entry.is_none() => {
                if let Some(p) = self.parents[..self.parents_len]
                    .iter_mut()
                    .find(|p| p.key == current.key)
                {
                    p.instances = p.instances.max(current.instances);
                } else if self.parents_len < PARENTS {
                    self.parents[self.parents_len] = Parent {
                        key: current.key,
                        instances: current.instances,
                        file: current.file,
                    };
                    self.parents_len += 1;
                } else {
                    self.table_full(current.file, PARENTS);
                }
            }
            None => {}
            Some(parent) => {
                let Some((lod, offset, line)) = current.lod else {
                    return;
                };
                if self.streams_len == STREAM_IPLS {
                    self.table_full(current.file, STREAM_IPLS);
                    return;
                }
                let mut context = current.context;
                context.line = line;
                context.offset = offset;
                self.streams[self.streams_len] = Some(Stream {
                    parent,
                    lod,
                    offset,
                    context,
                    file: current.file,
                });
                self.streams_len += 1;
            }
        }
    }

    fn table_full(&mut self, file: u32, limit: usize) {
        if !core::mem::replace(&mut self.tables_full, true) {
            let at = (0, Context::default());
            self.emit_value(Rule::TableFull, file, None, at, None, Some(limit as f64));
        }
    }

    /// Whether a name's key is in the table (an archive the game reads holds it).
    fn holds(&self, key: u64) -> bool {
        let len = self.names.len();
        if len == 0 || key == 0 {
            return true;
        }
        let mut i = (key % len as u64) as usize;
        loop {
            match self.names[i].key {
                0 => return false,
                k if k == key => return true,
                _ => i = (i + 1) % len,
            }
        }
    }

    /// Everything was fed: the blocks IDE `anim` objects and animgrp.dat groups name are
    /// looked up, with the groups' animations, in the blocks read; the map objects' models
    /// and texture dictionaries are looked up in the archives (San Andreas), and the stream
    /// IPLs' LOD indexes compared with their parents' instance counts.
    pub fn finish(&mut self) {
        self.finish_animations();
        // A full name table cannot say a name is missing.
        if self.game == Game::SanAndreas && !self.names_full {
            for id in 0..self.ids.len() {
                let slot = self.ids[id];
                let streamed = !slot.late && self.holds(slot.model) && self.holds(slot.txd);
                if slot.model == 0 || streamed {
                    continue;
                }
                let context = Context {
                    line: Some(slot.line),
                    offset: slot.offset,
                    ..Context::default()
                };
                let at = (slot.offset, context);
                let value = Some(id as f64);
                self.emit_value(
                    Rule::ModIdeModelNotStreamed,
                    slot.defined - 1,
                    None,
                    at,
                    value,
                    None,
                );
            }
        }
        for i in 0..self.streams_len {
            let Some(stream) = self.streams[i] else {
                continue;
            };
            let at = (stream.offset, stream.context);
            let parent = self.parents[..self.parents_len]
                .iter()
                .find(|p| p.key == stream.parent)
                .copied();
            let value = Some(f64::from(stream.lod));
            match parent {
                Some(p) if p.instances > 0 => {
                    if stream.lod as u32 >= p.instances {
                        let limit = Some(f64::from(p.instances));
                        self.emit_value(
                            Rule::ModStreamLodRange,
                            stream.file,
                            Some(p.file),
                            at,
                            value,
                            limit,
                        );
                    }
                }
                Some(p) => self.emit_value(
                    Rule::ModStreamNoParent,
                    stream.file,
                    Some(p.file),
                    at,
                    value,
                    None,
                ),
                None => {
                    self.emit_value(Rule::ModStreamNoParent, stream.file, None, at, value, None)
                }
            }
        }
        self.streams_len = 0;
    }
}

enum Registered {
    New,
    Again(u32),
    Full,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_and_keys() {
        assert_eq!(kind_of(b"lae_stream0.ipl"), Some(Kind::Ipl));
        assert_eq!(kind_of(b"a.b.txd"), None);
        assert_eq!(kind_of(b"GENERIC.COLX"), Some(Kind::Col));
        assert_eq!(kind_of(b"model.dff"), None);
        assert_eq!(name_key(b"Lae.IPL"), name_key(b"LAE.ipl"));
        assert_ne!(name_key(b"lae.ipl"), name_key(b"lae2.ipl"));
    }
}
