//! `check`: will the game load this file? A visitor adaptor over the decoder (and the archive
//! decoder) that applies the engines' own rules (one table, docs/CHECKS.md) to the events and
//! reports [`Finding`]s as it goes.
//!
//! It never allocates. Its state is bounded and fixed: the current animation, bone and text
//! section; counters; and two tables of name hashes for the rules that compare across records
//! ([`NAME_TABLE`] archive entry names, [`ANIMATION_TABLE`] animation names of one block).
//! Past a table's capacity a [`Rule::TableFull`] note says that later names were not compared.
//! Overlaps between archive entries are found between neighbours in directory order.
//!
//! ```
//! use gtastream::check::Checker;
//! use gtastream::Decoder;
//!
//! # let file: &[u8] = b"ANP3\x1c\0\0\0demo\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0";
//! let mut errors = 0;
//! // For the games the file is for (ANP3: San Andreas and MTA).
//! let mut checker = Checker::from_file(|f: &gtastream::check::Finding| {
//!     errors += usize::from(f.level() == gtastream::check::Level::Error);
//! });
//! checker.set_file_name(b"demo.ifp");
//! if let Err(error) = Decoder::new().decode_slice(file, &mut checker) {
//!     checker.failed(error);
//! }
//! checker.finish();
//! assert_eq!(errors, 0);
//! ```

#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub mod folder;
pub mod group;
pub mod json;
pub mod mods;
mod rules;
pub mod walk;

use core::fmt;

pub use rules::{Engine, Games, Level, Rule};

use crate::archive::{ArchiveInfo, ArchiveVersion, ArchiveVisitor, ArchiveWarning, Choice, Entry};
use crate::archive::{ArchiveWarningKind, RECORD_SIZE};
use crate::context::{Context, Name};
#[cfg(feature = "ipl-text")]
use crate::format::fields::line_fields as fields;
use crate::{
    AnimationInfo, BoneInfo, Error, ErrorKind, FileInfo, Flow, Format, IplInstance, Keyframes,
    Record, Unit, UnitKind, Visitor, Warning, WarningKind,
};

/// Archive entry names the duplicate rules remember (hashes of the upper-cased names).
pub const NAME_TABLE: usize = 2048;
/// Animation names of one block the duplicate rule remembers.
pub const ANIMATION_TABLE: usize = 512;

/// What a rule found, where.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct Finding {
    /// The rule.
    pub rule: Rule,
    /// The games it concerns here (within the rule's, the format's and the caller's).
    pub games: Games,
    /// Absolute offset (in the `.img` for an archive entry; in the `.dir` for a version 1
    /// directory record).
    pub offset: u64,
    /// The entry, animation, bone or line.
    pub context: Context,
    /// The value that broke the rule, where there is one (a time, a count, an id).
    pub value: Option<f64>,
    /// The bound it broke.
    pub limit: Option<f64>,
    /// [`Rule::DecodeFailed`] and decoder errors mapped to rules: the error.
    pub error: Option<ErrorKind>,
}

impl Finding {
    /// The finding's level (the rule's).
    pub fn level(&self) -> Level {
        self.rule.level()
    }

    /// The message: the rule's reason and the values (`Display` writes the same).
    pub fn message(&self) -> impl fmt::Display + '_ {
        self
    }

    /// The text line `FILE[:ENTRY]: LEVEL RULE (GAMES) at OFFSET, animation N "NAME", bone M
    /// "NAME": reason`, without line break.
    pub fn write_line(&self, out: &mut impl fmt::Write, file: &str) -> fmt::Result {
        out.write_str(file)?;
        if let Some(entry) = &self.context.entry {
            write!(out, ":{}", entry.name)?;
        }
        write!(
            out,
            ": {} {} ({}) at {}",
            self.level().name(),
            self.rule.id(),
            self.games,
            self.offset
        )?;
        let mut place = self.context;
        place.entry = None;
        write!(out, "{}: {}", Place(place), self)
    }
}

/// The context after `at OFFSET`: `, animation ...` or nothing.
struct Place(Context);

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = &self.0;
        if c.animation.is_some() || c.line.is_some() {
            write!(f, ", {c}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Finding {
    /// The rule's reason, then the value and bound: `reason (value 3000, limit 2500)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.rule.reason())?;
        if let Some(error) = self.error {
            write!(f, " ({})", error.reason())?;
        }
        match (self.value.map(Number), self.limit.map(Number)) {
            (Some(v), Some(l)) => write!(f, " (value {v}, limit {l})"),
            (Some(v), None) => write!(f, " (value {v})"),
            (None, Some(l)) => write!(f, " (limit {l})"),
            (None, None) => Ok(()),
        }
    }
}

/// A value as short as it reads: values from `f32` fields print as `f32`.
struct Number(f64);

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let single = self.0 as f32;
        if f64::from(single) == self.0 {
            write!(f, "{single}")
        } else {
            write!(f, "{}", self.0)
        }
    }
}

/// The games that load a format (Stories files: none of these).
pub fn games_of(format: Format) -> Games {
    match format {
        Format::Anpk => Games::ALL,
        Format::Anp3 | Format::Anp2 => Games::SA.union(Games::MTA),
        Format::IplText | Format::Ide => Games::III.union(Games::VC).union(Games::SA),
        Format::IplBinary => Games::SA,
        Format::Anim | Format::Dff => Games::NONE,
    }
}

/// The games that load an archive version.
pub fn games_of_archive(version: ArchiveVersion) -> Games {
    match version {
        ArchiveVersion::V1 => Games::III.union(Games::VC),
        ArchiveVersion::V2 => Games::SA,
    }
}

/// A fixed table of name hashes (FNV-1a of the upper-cased bytes, open addressing): a repeat
/// is found unless two names share a 64-bit hash.
#[derive(Clone, Debug)]
struct NameTable<const N: usize> {
    slots: [u64; N],
    used: usize,
    full: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Seen {
    New,
    Again,
    /// The table is full: not compared.
    Full,
}

impl<const N: usize> NameTable<N> {
    const fn new() -> Self {
        NameTable {
            slots: [0; N],
            used: 0,
            full: false,
        }
    }

    fn clear(&mut self) {
        if self.used > 0 {
            self.slots = [0; N];
        }
        self.used = 0;
        self.full = false;
    }

    fn insert(&mut self, name: &[u8]) -> Seen {
        let mut hash = 0xcbf2_9ce4_8422_2325_u64;
        for &b in name {
            hash = (hash ^ u64::from(b.to_ascii_uppercase())).wrapping_mul(0x100_0000_01b3);
        }
        let hash = hash.max(1);
        let mut i = (hash % N as u64) as usize;
        loop {
            match self.slots[i] {
                0 => break,
                h if h == hash => return Seen::Again,
                _ => i = (i + 1) % N,
            }
        }
        // Three quarters full keeps the probes short.
        if self.used >= N / 4 * 3 {
            return Seen::Full;
        }
        self.slots[i] = hash;
        self.used += 1;
        Seen::New
    }
}

/// Binding bone ids of one animation the duplicate-id rule remembers (a stock ped skeleton
/// has 32 bones; later ids are not compared).
const BONE_ID_TABLE: usize = 64;

/// The keyframe state of the current bone.
#[derive(Clone, Copy, Debug, Default)]
struct BoneState {
    keys: u32,
    first: f32,
    last: f32,
    /// Offset of the first key whose time went back.
    decreasing: Option<u64>,
    /// Rules reported once a bone, by their bit.
    reported: u32,
    /// The engine packs this bone's floats (SA: ANPK; ANP3/ANP2 frames are taken as they
    /// are, the first bone's class deciding the animation's).
    packs: bool,
    /// Offset of the current batch's first frame.
    batch_at: u64,
    /// Offset of the bone's first key: where the rules on the whole bone point (the batches
    /// depend on how the input is cut).
    first_at: u64,
}

/// The current animation.
#[derive(Clone, Copy, Debug, Default)]
struct AnimationState {
    at: u64,
    bones: u32,
    frame_data_size: Option<u32>,
    flags: Option<u32>,
    frame_bytes: u64,
    floats: bool,
    packed: bool,
    /// The largest last key time over the bones with keys.
    length: Option<f32>,
}

/// A text IPL's open section: its first field, lower case.
#[derive(Clone, Copy, Debug, Default)]
struct Section {
    name: [u8; 4],
}

/// The sections each game reads, by the first four bytes of their header (the games compare
/// them as they are: lowercase). San Andreas reads every section the others do.
const III_SECTIONS: &[&[u8]] = &[b"inst", b"zone", b"cull", b"pick", b"path"];
const VC_SECTIONS: &[&[u8]] = &[b"inst", b"zone", b"cull", b"pick", b"path", b"occl"];
const SA_SECTIONS: &[&[u8]] = &[
    b"path", b"inst", b"mult", b"zone", b"cull", b"occl", b"grge", b"enex", b"pick", b"cars",
    b"jump", b"tcyc", b"auzo",
];

/// The games that read `section`. At a header no game knows, the games stay outside any
/// section (each line after it is tried as a header), so it needs no `end`.
fn games_reading(section: &Section) -> Games {
    let name = &&section.name[..];
    let lists = [
        (Games::III, III_SECTIONS),
        (Games::VC, VC_SECTIONS),
        (Games::SA, SA_SECTIONS),
    ];
    lists
        .into_iter()
        .filter(|(_, list)| list.contains(name))
        .fold(Games::NONE, |games, (game, _)| games.union(game))
}

/// The state of a text or binary IPL.
#[derive(Clone, Copy, Debug, Default)]
struct IplState {
    section: Option<Section>,
    /// Games told by the first inst line's field count (11 SA, 12 III, 13 VC).
    games: Option<Games>,
    instances: u32,
    /// The largest LOD index, with where it was.
    lod: Option<(i32, u64, Option<u32>)>,
    once: u32,
}

/// Rules reported once a file, by bit.
const ONCE_ANIM_SIZE: u32 = 1;
const ONCE_MTA_FLOAT: u32 = 4;
const ONCE_SCALE: u32 = 8;
#[cfg(feature = "ipl-text")]
const ONCE_PATH: u32 = 16;
const ONCE_IPL_SCALE: u32 = 32;

/// The state of the archive's directory.
#[derive(Clone, Debug)]
struct ArchiveState {
    version: ArchiveVersion,
    names: NameTable<NAME_TABLE>,
    /// The games that load the archive (narrowed by its contents when the games come from
    /// the file).
    games: Games,
    /// A cutscene archive (`cuts.img`): its IFPs are loaded by the cutscene loader, not
    /// streamed.
    cutscene: bool,
    /// The largest first and second sizes (v2), the second's offset and entry.
    size: u16,
    size2: Option<(u16, u64, Context)>,
    counts: [u32; 5],
    /// The previous entry's data (start, end) in bytes.
    previous: Option<(u64, u64)>,
}

const TXD: usize = 0;
const COL: usize = 1;
const IFP: usize = 2;
const RRR: usize = 3;
const SCM: usize = 4;

/// Checks files and archives against the engines' rules (module documentation): a
/// [`Visitor`] and [`ArchiveVisitor`] that hands each [`Finding`] to `sink`.
pub struct Checker<S> {
    games: Games,
    sink: S,
    context: Context,
    /// The name the game knows the file by (the archive entry's or file's, without extension).
    stem: Option<Name>,
    /// Whether the whole stem (of any length, not the cut [`Name`]) holds `_stream`.
    stem_stream: bool,
    /// The games come from the file (the format, its chunks, its lines), not the caller.
    from_file: bool,
    /// Games the input's files were checked for, before the current file and with it.
    checked_before: Games,
    checked: Games,
    /// `loaded_by` before the current file.
    loaded_before: Games,
    /// The current file's games are decided (ANPK: at its first ANIM chunk).
    decided: bool,
    /// The archive being read is a cutscene archive (`cuts.img`).
    cutscene_archive: bool,
    /// The loose file is named `.ide` or `.ipl`: a text file the games read line by line.
    text_by_name: bool,
    /// The decoder reported the current bone's name as a repeat.
    name_repeat: bool,
    bone_ids: [i16; BONE_ID_TABLE],
    bone_id_count: usize,
    format: Option<Format>,
    /// Games that load the current file (the format's, within the archive's).
    file_games: Games,
    animations: u64,
    /// The games that load some file of the input (for the totals).
    loaded_by: Games,
    animation_names: NameTable<ANIMATION_TABLE>,
    animation: AnimationState,
    bone: BoneState,
    ipl: IplState,
    once: u32,
    archive: Option<ArchiveState>,
    errors: u32,
    findings: u32,
}

impl<S: FnMut(&Finding)> Checker<S> {
    /// A checker for `games` ([`Games::ALL`]: every game that loads the format) that gives
    /// each finding to `sink`.
    pub fn new(games: Games, sink: S) -> Self {
        Checker {
            games,
            sink,
            context: Context::default(),
            stem: None,
            stem_stream: false,
            from_file: false,
            checked_before: Games::NONE,
            checked: Games::NONE,
            loaded_before: Games::NONE,
            decided: false,
            cutscene_archive: false,
            text_by_name: false,
            name_repeat: false,
            bone_ids: [0; BONE_ID_TABLE],
            bone_id_count: 0,
            format: None,
            file_games: Games::NONE,
            animations: 0,
            loaded_by: Games::NONE,
            animation_names: NameTable::new(),
            animation: AnimationState::default(),
            bone: BoneState::default(),
            ipl: IplState::default(),
            once: 0,
            archive: None,
            errors: 0,
            findings: 0,
        }
    }

    /// A checker for the games each file is for, decided from the file itself: ANP3 and
    /// ANP2 SA and MTA; ANPK by its ANIM chunks (44 bytes: VC, SA, MTA; 48: III); a binary
    /// IPL SA; a text IPL by its `inst` lines and sections; an IMG version 2 SA, version 1 III
    /// and VC (VC alone once it holds a `.col`). [`games`](Self::games) says which.
    pub fn from_file(sink: S) -> Self {
        let mut checker = Checker::new(Games::ALL, sink);
        checker.from_file = true;
        checker
    }

    /// A checker for `games` when the caller names them, otherwise for the games each file
    /// is for ([`Checker::from_file`]): the front ends' default.
    pub fn with_games(games: Option<Games>, sink: S) -> Self {
        match games {
            Some(games) => Checker::new(games, sink),
            None => Checker::from_file(sink),
        }
    }

    /// The loose file's name (a path's last part): its stem is the block name the game
    /// expects (`ped.ifp` holds block `ped`). An archive is named by
    /// [`set_archive_name`](Self::set_archive_name).
    pub fn set_file_name(&mut self, name: &[u8]) {
        self.set_stem(name);
        let extension = name.rsplit(|&b| b == b'.').next().unwrap_or_default();
        self.text_by_name = name.contains(&b'.')
            && (extension.eq_ignore_ascii_case(b"ide") || extension.eq_ignore_ascii_case(b"ipl"));
    }

    /// The archive's file name (a path's last part), before it is decoded: `cuts.img` is a
    /// cutscene archive, whose IFPs the cutscene loader reads.
    pub fn set_archive_name(&mut self, name: &[u8]) {
        self.cutscene_archive = stem(name).eq_ignore_ascii_case(b"cuts");
    }

    fn set_stem(&mut self, name: &[u8]) {
        let stem = stem(name);
        self.stem = Some(Name::new(stem));
        self.stem_stream = contains_ignore_case(stem, b"_stream");
    }

    /// The games checked so far: those the input's files are for (from the file, or within
    /// the caller's set).
    pub fn games(&self) -> Games {
        self.checked.and(self.games)
    }

    /// Whether the games come from the file ([`Checker::from_file`]) or the caller.
    pub fn games_from_file(&self) -> bool {
        self.from_file
    }

    /// The current file's games become `games`: the totals and [`games`](Self::games) follow.
    fn set_file_games(&mut self, games: Games) {
        self.file_games = games;
        self.loaded_by = self.loaded_before.union(games);
        self.checked = self.checked_before.union(games);
    }

    /// Narrows the current file's games to `games` when they come from the file (never to
    /// none).
    fn narrow(&mut self, games: Games) {
        let narrowed = self.file_games.and(games);
        if self.from_file && !narrowed.is_empty() {
            self.set_file_games(narrowed);
        }
    }

    /// Findings at error level so far.
    pub fn errors(&self) -> u32 {
        self.errors
    }

    /// Findings so far.
    pub fn findings(&self) -> u32 {
        self.findings
    }

    /// The format of the file (of the last entry, in an archive).
    pub fn format(&self) -> Option<Format> {
        self.format
    }

    /// Where the decoder is.
    pub fn context(&self) -> &Context {
        &self.context
    }

    /// The sink, back.
    pub fn into_sink(self) -> S {
        self.sink
    }

    /// The decoder stopped with `error` (a loose file; an entry's error comes through
    /// [`ArchiveVisitor::entry_end`]): a finding for it, with what was decoded before.
    pub fn failed(&mut self, error: Error) {
        // An empty loose IDE or IPL has no format to tell, yet the games read it as no line
        // at all (re3 FileLoader.cpp LoadObjectTypes, LoadScene: the LoadLine loop ends at
        // once; GR FileLoader.cpp the same).
        if error.kind == ErrorKind::Empty && self.text_by_name && self.archive.is_none() {
            return;
        }
        let rule = match (error.kind, self.format) {
            (ErrorKind::UnknownFrameType, Some(Format::Anpk)) => Some(Rule::AnpkKfrmUnknown),
            (ErrorKind::UnknownFrameType, Some(Format::Anp3 | Format::Anp2)) => {
                Some(Rule::Anp3FrameTypeInvalid)
            }
            (ErrorKind::Truncated, Some(Format::IplBinary)) => Some(Rule::BnryBounds),
            // The decoder's bound on names is the III/VC buffer.
            (ErrorKind::Limit, Some(Format::Anpk)) => Some(Rule::AnpkChunkTooBig),
            (kind, _) if kind.is_foreign() => Some(Rule::ForeignFile),
            _ => None,
        };
        let at = self.context.absolute(error.offset);
        // A file of no checked game's format (a Stories file, or an SA file in a version 1
        // archive) is broken all the same: its failure is reported for every game that loads
        // its container (an archive's games; a loose file's: all).
        let container = match &self.archive {
            Some(archive) => archive.games,
            None => Games::ALL,
        };
        let games = match self.format {
            Some(_) if !self.file_games.is_empty() => self.file_games,
            _ => container,
        };
        let rule = rule.unwrap_or(Rule::DecodeFailed);
        self.emit_full(rule, games, at, None, None, Some(error.kind), self.context);
        if rule != Rule::DecodeFailed && rule != Rule::ForeignFile {
            self.emit_full(Rule::Incomplete, games, at, None, None, None, self.context);
        }
    }

    /// The input ended (after the decoder's `finish`, or the archive's): the rules that
    /// count over the whole input.
    pub fn finish(&mut self) {
        let total = self.animations as f64;
        for (game, limit) in [(Games::III, 250.0), (Games::VC, 450.0), (Games::SA, 2500.0)] {
            if total > limit {
                let at = 0;
                self.emit_full(
                    Rule::AnimsTotalOverLimit,
                    game.and(self.loaded_by),
                    at,
                    Some(total),
                    Some(limit),
                    None,
                    Context::default(),
                );
            }
        }
        self.animations = 0;
        self.loaded_by = Games::NONE;
        let Some(archive) = self.archive.take() else {
            return;
        };
        let here = Context::default();
        let c = archive.counts;
        let over = |n: u32, limit: u32| (n > limit).then_some((f64::from(n), f64::from(limit)));
        let report = |checker: &mut Self, rule, games, found: Option<(f64, f64)>| {
            if let Some((v, l)) = found {
                checker.emit_full(rule, games, 0, Some(v), Some(l), None, here);
            }
        };
        match archive.version {
            _ if archive.cutscene => {}
            ArchiveVersion::V1 => {
                report(
                    self,
                    Rule::Img1SlotsOverLimit,
                    Games::III,
                    over(c[TXD], 850),
                );
                report(
                    self,
                    Rule::Img1SlotsOverLimit,
                    Games::VC,
                    over(c[TXD], 1385),
                );
                report(self, Rule::Img1SlotsOverLimit, Games::VC, over(c[COL], 31));
                report(self, Rule::BlocksOverLimit, Games::VC, over(c[IFP], 35));
            }
            ArchiveVersion::V2 => {
                report(self, Rule::BlocksOverLimit, Games::SA, over(c[IFP], 180));
                report(self, Rule::Img2RrrScmSlots, Games::SA, over(c[RRR], 475));
                report(self, Rule::Img2RrrScmSlots, Games::SA, over(c[SCM], 82));
                if let Some((size2, at, context)) = archive.size2 {
                    if size2 > archive.size {
                        let (v, l) = (f64::from(size2), f64::from(archive.size));
                        let rule = Rule::Img2StreamBufferOverflow;
                        self.emit_full(rule, Games::SA, at, Some(v), Some(l), None, context);
                    }
                }
            }
        }
    }

    fn emit(&mut self, rule: Rule, games: Games, at: u64) {
        self.emit_value(rule, games, at, None, None);
    }

    fn emit_value(
        &mut self,
        rule: Rule,
        games: Games,
        at: u64,
        value: Option<f64>,
        limit: Option<f64>,
    ) {
        let games = games.and(self.file_games);
        self.emit_full(rule, games, at, value, limit, None, self.context);
    }

    #[allow(clippy::too_many_arguments)]
    fn emit_full(
        &mut self,
        rule: Rule,
        games: Games,
        at: u64,
        value: Option<f64>,
        limit: Option<f64>,
        error: Option<ErrorKind>,
        context: Context,
    ) {
        let games = games.and(rule.games()).and(self.games);
        if games.is_empty() {
            return;
        }
        // The context's offset is the finding's: the last unit read depends on the cuts.
        let context = Context {
            offset: at,
            ..context
        };
        let finding = Finding {
            rule,
            games,
            offset: at,
            context,
            value,
            limit,
            error,
        };
        self.findings += 1;
        self.errors += u32::from(rule.level() == Level::Error);
        (self.sink)(&finding);
    }

    /// `rule` once a bone (bit `bit` of the bone's set).
    fn once_per_bone(&mut self, bit: u32, rule: Rule, games: Games, at: u64, value: Option<f64>) {
        if self.bone.reported & bit == 0 {
            self.bone.reported |= bit;
            self.emit_value(rule, games, at, value, None);
        }
    }

    fn once_per_file(&mut self, bit: u32, rule: Rule, games: Games, at: u64) {
        if self.once & bit == 0 {
            self.once |= bit;
            self.emit(rule, games, at);
        }
    }

    fn block(&mut self, info: &FileInfo<'_>) {
        self.animation_names.clear();
        let Some(name) = info.name else { return };
        let at = self.context.offset;
        if let Some(stem) = self.stem {
            let is_ped = stem.as_bytes().eq_ignore_ascii_case(b"ped");
            if is_ped && !name.eq_ignore_ascii_case(b"ped") {
                self.emit(Rule::BlockPedName, Games::ALL, at);
            } else if !is_ped && !name.eq_ignore_ascii_case(stem.as_bytes()) {
                // An entry of a cutscene archive, also when checked alone (`cuts.img:x.ifp`).
                let rule = match self.context.entry {
                    _ if self.cutscene_archive => Rule::CutsceneBlockName,
                    Some(_) => Rule::BlockNameMismatch,
                    None => Rule::BlockNameMismatchLoose,
                };
                self.emit(rule, Games::ALL, at);
            }
        }
        let len = name.len();
        let mut long = Games::NONE;
        for (game, max) in [(Games::III, 23), (Games::VC, 19), (Games::SA, 15)] {
            if len > max {
                long = long.union(game);
            }
        }
        if !long.is_empty() {
            self.emit_value(Rule::BlockNameTooLong, long, at, Some(len as f64), None);
        }
        if info.format != Format::Anpk && len >= 24 {
            self.emit(Rule::Anp3NameUnterminated, Games::SA, at);
        }
        if let Some(size) = info.info_size {
            self.chunk_size(size, 28, at);
        }
    }

    /// An ANPK chunk of `size` bytes against the III/VC buffer (256 bytes), SA's (260: the
    /// executable reads every body there whole, whatever its kind) and MTA's struct of `mta`.
    fn chunk_size(&mut self, size: u32, mta: u64, at: u64) {
        let padded = (u64::from(size) + 3) & !3;
        let value = Some(padded as f64);
        for (games, limit) in [(Games::III.union(Games::VC), 256), (Games::SA, 260)] {
            if padded > limit {
                let l = Some(limit as f64);
                self.emit_value(Rule::AnpkChunkTooBig, games, at, value, l);
            }
        }
        if padded > mta {
            let rule = Rule::MtaAnpkStructOverrun;
            self.emit_value(rule, Games::MTA, at, value, Some(mta as f64));
        }
    }

    fn frames(&mut self, frames: Keyframes<'_>) {
        let frame_type = frames.frame_type();
        let size = frame_type.size() as u64;
        let batch_at = self.bone.batch_at;
        self.bone.batch_at = batch_at + frames.len() as u64 * size;
        if let Some(raw) = frames.raw() {
            // Packed frames are finite and never packed again: only their times matter.
            for (i, frame) in raw.enumerate() {
                let time = f32::from(frame.time) / 60.0;
                self.key_time(time, batch_at + i as u64 * size);
            }
            return;
        }
        let has_translation = frame_type.has_translation();
        let scale = frame_type.has_scale();
        for (i, key) in frames.iter().enumerate() {
            let at = batch_at + i as u64 * size;
            let values = key.rotation.iter().chain(&key.translation);
            if !key.time.is_finite() || values.clone().any(|v| !v.is_finite()) {
                self.once_per_bone(1, Rule::ValueNan, Games::ALL, at, None);
            }
            let t = key.time;
            self.key_time(t, at);
            if self.bone.packs {
                if f64::from(t) * 60.0 + 0.5 > 32767.0 {
                    let v = Some(f64::from(t));
                    self.once_per_bone(4, Rule::TimeTickOverflow, Games::SA, at, v);
                }
                if let Some(&c) = key.rotation.iter().find(|c| c.abs() >= 8.0) {
                    let v = Some(f64::from(c));
                    self.once_per_bone(8, Rule::ValueQuatRange, Games::SA, at, v);
                }
                if has_translation {
                    if let Some(&c) = key.translation.iter().find(|c| c.abs() >= 32.0) {
                        let v = Some(f64::from(c));
                        self.once_per_bone(16, Rule::ValueTransRange, Games::SA, at, v);
                    }
                }
            }
            if scale && key.scale != [1.0; 3] {
                self.once_per_file(ONCE_SCALE, Rule::ValueScaleIgnored, Games::ALL, at);
            }
        }
    }

    /// The timing rules of one key of the current bone, at `at`.
    #[inline]
    fn key_time(&mut self, t: f32, at: u64) {
        if self.bone.keys == 0 {
            self.bone.first = t;
            self.bone.first_at = at;
            if t != 0.0 && !t.is_nan() {
                self.emit_value(
                    Rule::TimeFirstNotZero,
                    Games::ALL,
                    at,
                    Some(f64::from(t)),
                    None,
                );
            }
        } else if t < self.bone.last {
            self.bone.decreasing.get_or_insert(at);
        } else if t == self.bone.last {
            self.once_per_bone(2, Rule::TimeDuplicate, Games::ALL, at, Some(f64::from(t)));
        }
        self.bone.last = t;
        self.bone.keys += 1;
    }

    /// The rules of an IDE definition: its id within each game's model table, its names
    /// within the loader's buffers.
    fn definition(&mut self, object: &crate::IdeObject<'_>) {
        /// The model tables' sizes (III, VC, SA; docs/CHECKS.md `ide.id.range`).
        const TABLES: [(Games, i32); 3] =
            [(Games::III, 5500), (Games::VC, 6500), (Games::SA, 20000)];
        /// The loaders' `char[24]` name buffers.
        const NAME: usize = 24;
        let at = object.offset;
        let id = object.id;
        // What the line tells of the game the file is for, when that comes from the file: San
        // Andreas' short layout and `anim`; `weap` (Vice City and San Andreas); an id only a
        // later game's table holds.
        let short = object.mesh_count.is_none() && matches!(object.section, "objs" | "tobj");
        if short || object.section == "anim" {
            self.narrow(Games::SA);
        } else if object.section == "weap" {
            self.narrow(Games::VC.union(Games::SA));
        }
        let holding = TABLES
            .iter()
            .filter(|&&(_, size)| (0..size).contains(&id))
            .fold(Games::NONE, |games, &(game, _)| games.union(game));
        self.narrow(holding);
        for (game, size) in TABLES {
            if !(0..size).contains(&id) {
                let (value, limit) = (Some(f64::from(id)), Some(f64::from(size)));
                self.emit_value(Rule::IdeIdRange, game, at, value, limit);
            }
        }
        let longest = object.model_name.len().max(object.txd_name.len());
        if longest >= NAME {
            let (value, limit) = (Some(longest as f64), Some(NAME as f64 - 1.0));
            self.emit_value(Rule::IdeNameLength, Games::ALL, at, value, limit);
        }
    }

    /// The text IPL rules of one line (lines come only from the text decoder).
    #[cfg(feature = "ipl-text")]
    fn text_line(&mut self, text: &[u8]) {
        let at = self.context.offset;
        let text = text.trim_ascii();
        let mut parts = fields(text);
        let first = parts.next().unwrap_or_default();
        let count = 1 + parts.count();
        let games = self.ipl.games.unwrap_or(Games::ALL);
        let Some(section) = self.ipl.section else {
            if text.starts_with(b"end") {
                return;
            }
            let mut name = [0u8; 4];
            for (d, s) in name.iter_mut().zip(first) {
                *d = s.to_ascii_lowercase();
            }
            self.ipl.section = Some(Section { name });
            // A section only some games read tells whose file it is.
            let readers = games_reading(&Section { name });
            if !readers.is_empty() {
                self.narrow(readers);
            }
            for (rule, game, list) in [
                (Rule::Ipl3Sections, Games::III, III_SECTIONS),
                (Rule::IplvcSections, Games::VC, VC_SECTIONS),
                (Rule::IplsaSections, Games::SA, SA_SECTIONS),
            ] {
                if !list.iter().any(|k| text.starts_with(k)) {
                    self.emit(rule, game.and(games), at);
                }
            }
            return;
        };
        if text.starts_with(b"end") {
            self.ipl.section = None;
            return;
        }
        if crate::format::ipl_text::is_keyword(first) {
            let reading = games_reading(&section);
            if reading.is_empty() {
                // The games opened no section at its header: this one opens its own.
                self.ipl.section = None;
                return self.text_line(text);
            }
            self.emit(Rule::Ipl3MissingEnd, games.and(reading), at);
            if &section.name == b"inst" {
                self.emit(Rule::IplsaMissingEnd, games, at);
            }
            return;
        }
        let n = count as f64;
        match &section.name {
            b"inst" => {
                if self.ipl.games.is_none() {
                    self.ipl.games = match count {
                        11 => Some(Games::SA),
                        12 => Some(Games::III),
                        13 => Some(Games::VC),
                        _ => None,
                    };
                }
                let games = self.ipl.games.unwrap_or(Games::ALL);
                self.narrow(games);
                self.ipl.instances += 1;
                // The games scan the first fields: a decimal comma splits a number in two and
                // shifts the rest; the value is what the game loads as its last field.
                let reads = match games {
                    g if g == Games::SA => Some(11),
                    g if g == Games::III => Some(12),
                    g if g == Games::VC => Some(13),
                    _ => None,
                };
                if let Some(reads) = reads.filter(|&r| count > r && decimal_comma(text)) {
                    let last = fields(text).nth(reads - 1).unwrap_or_default();
                    let v = core::str::from_utf8(last)
                        .ok()
                        .and_then(|t| t.trim().parse::<f64>().ok());
                    let l = Some(reads as f64);
                    self.emit_value(Rule::IplInstShifted, games, at, v, l);
                }
                if count < 12 {
                    self.emit_value(Rule::Ipl3InstFields, games, at, Some(n), None);
                    self.emit_value(Rule::IplvcInstFields, games, at, Some(n), None);
                }
                if count < 11 {
                    // Fewer fields can still fill all eleven conversions (an empty name).
                    let reads = scanned(text, SA_INST_CONVERSIONS);
                    if reads < 11 {
                        let v = Some(reads as f64);
                        self.emit_value(Rule::IplsaInstFields, games, at, v, None);
                    }
                }
                let name = fields(text).nth(1).unwrap_or_default();
                if name.len() >= 24 {
                    let v = Some(name.len() as f64);
                    self.emit_value(Rule::Ipl3InstNameLen, games, at, v, None);
                    self.emit_value(Rule::IplsaInstNameLen, games, at, v, None);
                }
            }
            b"zone" => {
                if count != 9 {
                    self.emit_value(Rule::Ipl3ZoneFields, games, at, Some(n), None);
                } else {
                    self.emit_value(Rule::IplsaZoneFields, games, at, Some(n), None);
                }
            }
            b"cull" => {
                if count < 11 {
                    self.emit_value(Rule::Ipl3CullFields, games, at, Some(n), None);
                }
                if count != 11 && count != 14 {
                    self.emit_value(Rule::IplsaCull, games, at, Some(n), None);
                }
            }
            b"occl" if count < 7 => {
                self.emit_value(Rule::IplvcOcclFields, games, at, Some(n), None)
            }
            b"enex" if count < 18 => {
                self.emit_value(Rule::IplsaEnexFields, games, at, Some(n), None)
            }
            b"auzo" if first.len() >= 8 => {
                let v = Some(first.len() as f64);
                self.emit_value(Rule::IplsaAuzoName, games, at, v, None);
            }
            b"tcyc" if count < 8 => self.emit_value(Rule::IplsaTcyc, games, at, Some(n), None),
            b"jump" | b"pick" | b"grge" => {
                let want: u32 = match &section.name {
                    b"jump" => 16,
                    b"pick" => 4,
                    _ => 11,
                };
                if count != want as usize {
                    let v = Some(n);
                    let l = Some(f64::from(want));
                    self.emit_value(Rule::IplsaJumpPickGrge, games, at, v, l);
                }
            }
            b"path" if self.ipl.once & ONCE_PATH == 0 => {
                self.ipl.once |= ONCE_PATH;
                self.emit(Rule::IplsaPathStops, games, at);
            }
            _ => {}
        }
    }

    fn placement(&mut self, i: &IplInstance<'_>) {
        let at = self.context.offset;
        let binary = self.format == Some(Format::IplBinary);
        let games = if binary {
            Games::SA
        } else {
            self.ipl.games.unwrap_or(Games::ALL)
        };
        let id = i.model_id;
        let v = Some(f64::from(id));
        if binary {
            self.ipl.instances += 1;
            if !(0..20000).contains(&id) {
                self.emit_value(Rule::BnryInstIdRange, games, at, v, Some(20000.0));
            }
        } else {
            for (rule, game, limit) in [
                (Rule::Ipl3InstIdRange, Games::III, 5500),
                (Rule::IplvcInstIdRange, Games::VC, 6500),
                (Rule::IplsaInstIdRange, Games::SA, 20000),
            ] {
                if !(0..limit).contains(&id) {
                    self.emit_value(rule, game.and(games), at, v, Some(f64::from(limit)));
                }
            }
        }
        let [x, y, _] = i.position;
        let inside =
            |lo_x: f32, hi_x: f32| (lo_x..hi_x).contains(&x) && (-2000.0..2000.0).contains(&y);
        if !inside(-2000.0, 2000.0) {
            self.emit(Rule::Ipl3InstOutsideWorld, games, at);
        }
        if !inside(-2400.0, 1600.0) {
            self.emit(Rule::IplvcInstOutsideWorld, games, at);
        }
        if i.position.iter().any(|c| c.is_nan()) {
            self.emit(Rule::IplsaPosNan, games, at);
        } else if x.abs() >= 3000.0 || y.abs() >= 3000.0 {
            self.emit(Rule::IplsaPosOffMap, games, at);
        }
        let w = i.rotation[3];
        if !(-1.0..=1.0).contains(&w) {
            self.emit_value(Rule::Ipl3InstQuat, games, at, Some(f64::from(w)), None);
        }
        if i.scale.is_some_and(|s| s != [1.0; 3]) && self.ipl.once & ONCE_IPL_SCALE == 0 {
            self.ipl.once |= ONCE_IPL_SCALE;
            self.emit(Rule::Ipl3InstScaleIgnored, games, at);
        }
        let lod = i.lod;
        let lod_v = Some(f64::from(lod));
        if lod < -1 {
            let rule = if binary {
                Rule::BnryLodRange
            } else {
                Rule::IplsaLodRange
            };
            self.emit_value(rule, Games::SA, at, lod_v, None);
        } else if lod >= 0 {
            if binary {
                // The whole stem, of any length: SA finds the parent by the name's `_stream`.
                let related = self.stem.is_none() || self.stem_stream;
                if !related {
                    self.emit_value(Rule::BnryLodNoParent, Games::SA, at, lod_v, None);
                }
            } else if self.ipl.lod.is_none_or(|(max, _, _)| lod > max) {
                self.ipl.lod = Some((lod, at, self.context.line));
            }
        }
    }

    fn ipl_end(&mut self) {
        if self.format != Some(Format::IplText) {
            return;
        }
        let games = self.ipl.games.unwrap_or(Games::ALL);
        let at = self.context.offset;
        if let Some(section) = self.ipl.section {
            self.emit(Rule::Ipl3MissingEnd, games.and(games_reading(&section)), at);
            if &section.name == b"inst" {
                self.emit(Rule::IplsaMissingEnd, games, at);
            }
        }
        let count = self.ipl.instances;
        if let Some((lod, lod_at, line)) = self.ipl.lod {
            if lod as u32 >= count {
                let mut context = self.context;
                context.line = line;
                let games = games.and(self.file_games);
                let (v, l) = (Some(f64::from(lod)), Some(f64::from(count)));
                self.emit_full(Rule::IplsaLodRange, games, lod_at, v, l, None, context);
            }
        }
        if count > 4096 {
            let v = Some(f64::from(count));
            self.emit_value(Rule::IplsaInstCount, games, at, v, Some(4096.0));
        }
    }

    /// The directory rules of an entry's record; whether the game registers the record (a
    /// name with its '.' at index 20 or before, some sectors).
    fn directory(&mut self, entry: &Entry<'_>) -> bool {
        let Some(archive) = &self.archive else {
            return true;
        };
        let archive_games = archive.games;
        let version = archive.version;
        let r = &entry.record;
        let sectors = u32::from_le_bytes([r[0], r[1], r[2], r[3]]);
        let index = u64::from(entry.index);
        let at = match version {
            ArchiveVersion::V1 => index * RECORD_SIZE,
            ArchiveVersion::V2 => 8 + index * RECORD_SIZE,
        };
        let field = &r[8..32];
        // The engines' name: VC and SA force a NUL at byte 23, III does not.
        let forced = &field[..field[..23].iter().position(|&b| b == 0).unwrap_or(23)];
        let dot = forced.iter().position(|&b| b == b'.');
        let extension = dot.map_or(&[][..], |d| &forced[d + 1..]);
        let ext3 = |e: &[u8]| {
            let mut x = [0u8; 3];
            for (d, s) in x.iter_mut().zip(e) {
                *d = s.to_ascii_uppercase();
            }
            x
        };
        let kind = ext3(extension);
        // III streams no collisions: an archive of them is Vice City's.
        let games = match version {
            ArchiveVersion::V1 if self.from_file && kind == *b"COL" => Games::VC,
            _ => archive_games,
        };
        if let Some(archive) = &mut self.archive {
            archive.games = games;
        }
        self.file_games = games;
        let base = dot.map_or(forced, |d| &forced[..d]);
        let size = match version {
            ArchiveVersion::V1 => u32::from_le_bytes([r[4], r[5], r[6], r[7]]),
            ArchiveVersion::V2 => {
                let size2 = u16::from_le_bytes([r[6], r[7]]);
                u32::from(if size2 != 0 {
                    size2
                } else {
                    u16::from_le_bytes([r[4], r[5]])
                })
            }
        };
        match version {
            ArchiveVersion::V1 => {
                let nul = field.iter().position(|&b| b == 0);
                if nul.is_none() {
                    self.emit(Rule::Img1NameUnterminated, Games::III, at);
                }
                let iii_name = &field[..nul.unwrap_or(24)];
                let iii_dot = iii_name.iter().position(|&b| b == b'.');
                match iii_dot {
                    None => self.emit(Rule::Img1NameNoDot, Games::III, at),
                    Some(d) => {
                        let e = &iii_name[d + 1..];
                        if ![&b"DFF"[..], b"dff", b"TXD", b"txd"].contains(&e) {
                            self.emit(Rule::Img1ExtExact, Games::III, at);
                        }
                    }
                }
                if dot.is_none_or(|d| d > 20) {
                    self.emit(Rule::Img1NameRules, Games::VC, at);
                } else if ![*b"DFF", *b"TXD", *b"COL", *b"IFP"].contains(&kind) {
                    self.emit(Rule::Img1ExtExact, Games::VC, at);
                }
                // Each game's view of the name: III reads all 24 bytes, VC up to byte 23.
                if let Some(d) = iii_dot {
                    if d >= 20 && ext3(&iii_name[d + 1..]) == *b"TXD" {
                        self.emit(Rule::Img1SlotNameLen, Games::III, at);
                    }
                }
                if base.len() >= 20 && (kind == *b"TXD" || kind == *b"COL") {
                    self.emit(Rule::Img1SlotNameLen, Games::VC, at);
                }
                if sectors >= 1 << 21 {
                    let v = Some(f64::from(sectors));
                    self.emit_value(
                        Rule::Img1OffsetRange,
                        games,
                        at,
                        v,
                        Some(f64::from(1 << 21)),
                    );
                }
            }
            ArchiveVersion::V2 => {
                let size1 = u16::from_le_bytes([r[4], r[5]]);
                let size2 = u16::from_le_bytes([r[6], r[7]]);
                // The cutscene loader reads a cutscene archive's directory itself (SA
                // CCutsceneMgr::LoadCutsceneData): the streaming rules by kind do not apply.
                let streamed = !self.cutscene_archive;
                if dot.is_none_or(|d| d > 20) {
                    self.emit(Rule::Img2NameRules, games, at);
                } else if streamed
                    && ![
                        *b"DFF", *b"TXD", *b"COL", *b"IPL", *b"DAT", *b"IFP", *b"RRR", *b"SCM",
                    ]
                    .contains(&kind)
                {
                    self.emit(Rule::Img2ExtKinds, games, at);
                }
                if size2 != 0 {
                    self.emit_value(Rule::Img2SizeField, games, at, Some(f64::from(size2)), None);
                }
                if size1 == 0 && size2 == 0 {
                    self.emit(Rule::Img2ZeroSize, games, at);
                }
                if kind == *b"DAT" && !is_nodes(base) && streamed {
                    self.emit(Rule::Img2DatName, games, at);
                }
                if base.len() >= 18 && (kind == *b"IPL" || kind == *b"COL") {
                    let rule = if entry.format == Some(Format::IplBinary) {
                        Rule::BnryName
                    } else {
                        Rule::Img2SlotNameLen
                    };
                    self.emit_value(rule, games, at, Some(base.len() as f64), Some(17.0));
                }
                if sectors >= 1 << 21 {
                    let v = Some(f64::from(sectors));
                    self.emit_value(
                        Rule::Img2OffsetRange,
                        games,
                        at,
                        v,
                        Some(f64::from(1 << 21)),
                    );
                }
                let context = self.context;
                if let Some(archive) = &mut self.archive {
                    archive.size = archive.size.max(size1);
                    if archive.size2.is_none_or(|(s, _, _)| size2 > s) && size2 != 0 {
                        archive.size2 = Some((size2, at, context));
                    }
                }
            }
        }
        let counter = match &kind {
            b"TXD" => Some(TXD),
            b"COL" => Some(COL),
            b"IFP" => Some(IFP),
            b"RRR" => Some(RRR),
            b"SCM" => Some(SCM),
            _ => None,
        };
        let registered = dot.is_some_and(|d| d <= 20) && size != 0;
        let Some(archive) = &mut self.archive else {
            return registered;
        };
        if let Some(i) = counter {
            archive.counts[i] += 1;
        }
        let seen = if size != 0 {
            archive.names.insert(forced)
        } else {
            Seen::New
        };
        let start = u64::from(sectors) * 2048;
        let end = start + u64::from(size) * 2048;
        let overlaps = archive
            .previous
            .is_some_and(|(s, e)| size != 0 && start < e && s < end);
        if size != 0 {
            archive.previous = Some((start, end));
        }
        match seen {
            Seen::New => {}
            Seen::Again => {
                let rule = match version {
                    ArchiveVersion::V1 => Rule::Img1Duplicate,
                    ArchiveVersion::V2 if kind == *b"COL" => Rule::Img2ColNoDedupe,
                    ArchiveVersion::V2 => Rule::Img2Duplicate,
                };
                self.emit(rule, games, at);
            }
            Seen::Full => {
                if !archive.names.full {
                    archive.names.full = true;
                    self.emit_value(Rule::TableFull, games, at, None, Some(NAME_TABLE as f64));
                }
            }
        }
        if overlaps {
            let rule = match version {
                ArchiveVersion::V1 => Rule::Img1DataOverlap,
                ArchiveVersion::V2 => Rule::Img2DataOverlap,
            };
            self.emit(rule, games, at);
        }
        registered
    }
}

/// A file name without its extension (and path).
fn stem(name: &[u8]) -> &[u8] {
    let name = match name.iter().rposition(|&b| b == b'/' || b == b'\\') {
        Some(i) => &name[i + 1..],
        None => name,
    };
    match name.iter().position(|&b| b == b'.') {
        Some(i) => &name[..i],
        None => name,
    }
}

/// San Andreas' inst conversions: `%d %s %d %f %f %f %f %f %f %f %d` (GR FileLoader.cpp
/// LoadObjectInstance, 0x538090).
#[cfg(feature = "ipl-text")]
const SA_INST_CONVERSIONS: &[u8] = b"dsdfffffffd";

/// How many of `conversions` (`d`, `s`, `f`) `sscanf` fills from `text`, with commas and
/// control characters as blanks (GR FileLoader.cpp LoadLine). A field split where `%d` stops
/// at a decimal point feeds the next conversion: `3425, , 0, 0.76` fills four.
#[cfg(feature = "ipl-text")]
fn scanned(text: &[u8], conversions: &[u8]) -> usize {
    let blank = |b: &u8| *b <= b' ' || *b == b',';
    let digits = |t: &[u8]| t.iter().take_while(|b| b.is_ascii_digit()).count();
    let sign = |t: &[u8]| usize::from(matches!(t.first(), Some(b'+' | b'-')));
    let mut rest = text;
    for (done, kind) in conversions.iter().enumerate() {
        let start = rest.iter().position(|b| !blank(b)).unwrap_or(rest.len());
        rest = &rest[start..];
        let len = match kind {
            b's' => rest.iter().take_while(|b| !blank(b)).count(),
            b'd' => {
                let s = sign(rest);
                match digits(&rest[s..]) {
                    0 => 0,
                    d => s + d,
                }
            }
            _ => {
                let s = sign(rest);
                let whole = digits(&rest[s..]);
                let mut len = s + whole;
                let mut mantissa = whole;
                if rest.get(len) == Some(&b'.') {
                    let fraction = digits(&rest[len + 1..]);
                    mantissa += fraction;
                    len += 1 + fraction;
                }
                if mantissa == 0 {
                    0
                } else {
                    if matches!(rest.get(len), Some(b'e' | b'E')) {
                        let s = sign(&rest[len + 1..]);
                        let e = digits(&rest[len + 1 + s..]);
                        if e > 0 {
                            len += 1 + s + e;
                        }
                    }
                    len
                }
            }
        };
        if len == 0 {
            return done;
        }
        rest = &rest[len..];
    }
    conversions.len()
}

/// A number written with a decimal comma (`8149,5`) in a line whose fields are separated by
/// `, `: a digit, a comma, a digit.
#[cfg(feature = "ipl-text")]
fn decimal_comma(text: &[u8]) -> bool {
    let digit_comma_digit = text
        .windows(3)
        .any(|w| w[0].is_ascii_digit() && w[1] == b',' && w[2].is_ascii_digit());
    digit_comma_digit && text.windows(2).any(|w| w == b", ")
}

fn contains_ignore_case(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len())
        .any(|w| w.eq_ignore_ascii_case(needle))
}

/// `nodes<N>` with 0 <= N <= 63.
fn is_nodes(base: &[u8]) -> bool {
    base.len() > 5
        && base[..5].eq_ignore_ascii_case(b"nodes")
        && base.len() <= 7
        && base[5..].iter().all(u8::is_ascii_digit)
        && base[5..]
            .iter()
            .fold(0u32, |n, &d| n * 10 + u32::from(d - b'0'))
            <= 63
}

impl<S: FnMut(&Finding)> Visitor for Checker<S> {
    fn file(&mut self, info: &FileInfo<'_>) -> Flow {
        self.context.file();
        self.format = Some(info.format);
        let within = match &self.archive {
            Some(a) => a.games,
            None => Games::ALL,
        };
        self.loaded_before = self.loaded_by;
        self.checked_before = self.checked;
        self.set_file_games(games_of(info.format).and(within));
        // ANPK is decided at its first ANIM chunk; the others by their format.
        self.decided = info.format != Format::Anpk;
        self.ipl = IplState::default();
        self.once = 0;
        if matches!(info.format, Format::Anp3 | Format::Anp2) {
            // Vice City reads any magic as ANPK: in its archive, or when asked for by name.
            let vc = match &self.archive {
                Some(a) => a.games.and(Games::VC),
                None if self.from_file => Games::NONE,
                None => Games::VC,
            };
            let at = self.context.offset;
            self.emit_full(Rule::MagicUnknown, vc, at, None, None, None, self.context);
        }
        if info.format.is_animation() {
            self.block(info);
        }
        Flow::Continue
    }

    fn animation(&mut self, info: &AnimationInfo<'_>) -> Flow {
        self.context.animation(info);
        self.animations += 1;
        let at = self.context.offset;
        self.animation = AnimationState {
            at,
            bones: info.bone_count,
            frame_data_size: info.frame_data_size,
            flags: info.flags,
            ..AnimationState::default()
        };
        self.bone_id_count = 0;
        match self.animation_names.insert(info.name) {
            Seen::New => {}
            Seen::Again => self.emit(Rule::AnimDuplicateName, Games::ALL, at),
            Seen::Full => {
                if !self.animation_names.full {
                    self.animation_names.full = true;
                    let limit = Some(ANIMATION_TABLE as f64);
                    self.emit_value(Rule::TableFull, Games::ALL, at, None, limit);
                }
            }
        }
        let len = info.name.len();
        if self.format == Some(Format::Anpk) {
            if len >= 24 {
                self.emit_value(
                    Rule::AnimNameTooLong,
                    Games::ALL,
                    at,
                    Some(len as f64),
                    None,
                );
            }
        } else if len >= 24 {
            self.emit(Rule::Anp3NameUnterminated, Games::SA, at);
        }
        if let Some(size) = info.name_size {
            self.chunk_size(size, 24, at);
        }
        if let Some(size) = info.info_size {
            self.chunk_size(size, u64::MAX, at);
        }
        if info.bone_count == 0 {
            self.emit(Rule::AnimNoSequences, Games::ALL, at);
        }
        if info.bone_count > 32767 {
            let v = Some(f64::from(info.bone_count));
            self.emit_value(Rule::Anp3SeqsOverU16, Games::SA, at, v, Some(32767.0));
        }
        Flow::Continue
    }

    fn bone(&mut self, info: &BoneInfo<'_>) -> Flow {
        self.context.bone(info);
        let at = self.context.offset;
        let t = info.frame_type;
        let anpk = self.format == Some(Format::Anpk);
        self.bone = BoneState {
            packs: anpk,
            batch_at: at,
            ..BoneState::default()
        };
        let name_repeat = core::mem::take(&mut self.name_repeat);
        if let Some(size) = info.anim_size.filter(|_| !self.decided) {
            // The ANIM chunk tells who wrote the file: VC's 44 bytes (with a bone id), or
            // III's 48.
            self.decided = true;
            match size {
                44 => self.narrow(Games::VC.union(Games::SA).union(Games::MTA)),
                48 => self.narrow(Games::III),
                _ => {}
            }
        }
        let count = info.frame_count;
        if count == 0 {
            if anpk {
                self.emit(Rule::SeqZeroFrames, Games::VC, at);
                self.emit(Rule::AnpkZeroFramesSa, Games::SA, at);
            } else {
                self.emit(Rule::SeqZeroFrames, Games::SA, at);
            }
        }
        if count > 32767 {
            let v = Some(f64::from(count));
            self.emit_value(Rule::Anp3FramesOverU16, Games::SA, at, v, Some(32767.0));
        }
        if !anpk && info.name.is_some_and(|n| n.len() >= 24) {
            self.emit(Rule::Anp3NameUnterminated, Games::SA, at);
        }
        if let Some(size) = info.anim_size {
            if size != 44 {
                self.once_per_file(ONCE_ANIM_SIZE, Rule::AnpkAnimSize, Games::ALL, at);
            }
        }
        // SA binds a bone with an id by the id's low 16 bits, compared signed.
        if let Some(id) = info.bone_id.filter(|&id| id != -1) {
            if !(0..=0x7FFF).contains(&id) {
                let v = Some(f64::from(id));
                self.emit_value(Rule::SeqBoneIdRange, Games::SA, at, v, Some(32767.0));
            } else {
                let id = id as i16;
                let seen = &self.bone_ids[..self.bone_id_count];
                if seen.contains(&id) {
                    if !name_repeat {
                        let v = Some(f64::from(id));
                        self.emit_value(Rule::SeqDuplicateBone, Games::ALL, at, v, None);
                    }
                } else if self.bone_id_count < BONE_ID_TABLE {
                    self.bone_ids[self.bone_id_count] = id;
                    self.bone_id_count += 1;
                }
            }
        }
        if t.ifp2_type().is_some() {
            self.animation.frame_bytes += u64::from(count) * t.size() as u64;
            if t.is_packed() {
                self.animation.packed = true;
            } else {
                self.animation.floats = true;
                self.once_per_file(ONCE_MTA_FLOAT, Rule::MtaFloatFrames, Games::MTA, at);
            }
        }
        Flow::Continue
    }

    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        self.frames(frames);
        Flow::Continue
    }

    fn bone_end(&mut self) -> Flow {
        let b = self.bone;
        let at = b.first_at;
        if b.keys >= 1 {
            let last = f64::from(b.last);
            if b.keys >= 2 && b.last <= b.first {
                self.emit_value(
                    Rule::TimeSeqNonpositiveSpan,
                    Games::ALL,
                    at,
                    Some(last),
                    None,
                );
            }
            if b.keys >= 2 && b.last <= 0.0 {
                self.emit_value(
                    Rule::TimeSeqLastNonpositive,
                    Games::ALL,
                    at,
                    Some(last),
                    None,
                );
            } else if let Some(back) = b.decreasing.filter(|_| b.last > b.first) {
                self.emit(Rule::TimeDecreasing, Games::ALL, back);
            }
            let length = self.animation.length.get_or_insert(b.last);
            *length = length.max(b.last);
        }
        self.context.bone_end();
        Flow::Continue
    }

    fn animation_end(&mut self) -> Flow {
        let a = self.animation;
        let at = a.at;
        if a.bones > 0 && a.length.is_none_or(|l| l <= 0.0) {
            self.emit(Rule::TimeZeroDuration, Games::ALL, at);
        }
        if let Some(size) = a.frame_data_size {
            if u64::from(size) < a.frame_bytes {
                let (v, l) = (Some(f64::from(size)), Some(a.frame_bytes as f64));
                self.emit_value(Rule::Anp3FrameDataTooSmall, Games::SA, at, v, l);
            }
        }
        // The first bone's frame type overrides flags bit 0: it matters only without bones.
        if let Some(flags) = a.flags.filter(|f| f & 1 != 0 && a.bones == 0) {
            let v = Some(f64::from(flags));
            self.emit_value(Rule::Anp3CompressFlagMismatch, Games::SA, at, v, None);
        }
        if a.floats && a.packed {
            self.emit(Rule::Ifp2MixedFrameClasses, Games::SA, at);
        }
        self.context.animation_end();
        Flow::Continue
    }

    fn record(&mut self, record: &Record<'_>) -> Flow {
        match record {
            Record::Instance(instance) => {
                self.placement(instance);
                Flow::Continue
            }
            Record::Car(car) => {
                let id = car.model_id;
                if id != -1 && !(400..=630).contains(&id) {
                    let rule = if self.format == Some(Format::IplBinary) {
                        Rule::BnryCarsModel
                    } else {
                        Rule::IplsaCars
                    };
                    let at = self.context.offset;
                    self.emit_value(rule, Games::SA, at, Some(f64::from(id)), None);
                }
                Flow::Continue
            }
            Record::IdeObject(object) => {
                self.definition(object);
                Flow::Continue
            }
            _ => Flow::Continue,
        }
    }

    fn warning(&mut self, warning: Warning) -> Flow {
        let at = self.context.absolute(warning.offset);
        if warning.kind == WarningKind::DuplicateBone {
            self.name_repeat = true;
            self.emit(Rule::SeqDuplicateBone, Games::ALL, at);
        }
        Flow::Continue
    }

    fn end(&mut self) -> Flow {
        self.ipl_end();
        Flow::Continue
    }

    fn unit(&mut self, unit: &Unit<'_>) {
        self.context.unit(unit);
        match unit.kind {
            UnitKind::Keyframes => self.bone.batch_at = self.context.offset,
            UnitKind::EmptyKeyframeChunk => {
                let at = self.context.offset;
                self.emit(Rule::AnpkKfrmOnZeroFrames, Games::ALL, at);
            }
            #[cfg(feature = "ipl-text")]
            // The text IPL rules (an IDE has none yet).
            UnitKind::Line if self.format == Some(Format::IplText) => self.text_line(unit.bytes),
            _ => {}
        }
    }
}

impl<S: FnMut(&Finding)> ArchiveVisitor for Checker<S> {
    fn archive(&mut self, info: &ArchiveInfo) -> Flow {
        let games = games_of_archive(info.version);
        self.checked = self.checked.union(games);
        self.archive = Some(ArchiveState {
            games,
            cutscene: self.cutscene_archive,
            version: info.version,
            names: NameTable::new(),
            size: 0,
            size2: None,
            counts: [0; 5],
            previous: None,
        });
        Flow::Continue
    }

    fn entry(&mut self, entry: &Entry<'_>) -> Choice {
        self.context.entry(entry);
        self.format = None;
        let registered = self.directory(entry);
        self.set_stem(entry.name);
        // A record the game skips (a name without its '.', no sectors) is never read.
        if entry.format.is_some() && registered {
            Choice::Decode
        } else {
            self.context.entry_end();
            Choice::Skip
        }
    }

    fn entry_end(&mut self, result: Result<(), Error>) -> Flow {
        // Text that is no placement file (a readme) is of no format the decoder reads, as
        // `archive::decoded_format` says and `ls` lists it: passed over like any such entry.
        if let Err(error) = result {
            if !(error.kind == ErrorKind::BadMagic && self.format.is_none()) {
                self.failed(error);
            }
        }
        self.context.entry_end();
        self.format = None;
        Flow::Continue
    }

    fn archive_warning(&mut self, warning: ArchiveWarning) -> Flow {
        let Some(archive) = &self.archive else {
            return Flow::Continue;
        };
        let version = archive.version;
        let games = archive.games;
        self.file_games = games;
        let rule = match (warning.kind, version) {
            (ArchiveWarningKind::DirectoryTruncated, ArchiveVersion::V1) => Rule::Img1PartialRecord,
            (ArchiveWarningKind::DirectoryTruncated, ArchiveVersion::V2) => Rule::Img2CountVsSize,
            (ArchiveWarningKind::EntryOverlapsDirectory, _) => Rule::Img2DataOverlap,
            _ => return Flow::Continue,
        };
        self.emit_full(
            rule,
            games,
            warning.offset,
            None,
            None,
            None,
            Context::default(),
        );
        Flow::Continue
    }
}
