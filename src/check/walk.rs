//! A game or mod folder walked as the game loads it, through the caller's files: the core of
//! `check DIR` for every front end (the file system's `check::folder`, feature `std`; the C
//! API's file callbacks; the browser's dropped folder). No allocation: the tables are the caller's
//! ([`ModChecker::new`]), the buffers are on the stack, at most [`ARCHIVES`] archives (with
//! their `.dir`), a level file and one text file are open at once.
//!
//! [`walk`] finds the game's level files (`data/default.dat`, then `data/gta.dat`,
//! `data/gta_vc.dat` or `data/gta3.dat`) and reads their lines in order. It opens the archives
//! the game opens (San Andreas `gta3.img`, `gta_int.img` and the `IMG` lines; III and VC
//! `gta3.img` and the `CDIMAGE` lines) when the game reads their directories (at the first
//! `IPL` line in VC and SA, after the level files in III), runs the single-file rules on every
//! file and archive entry (as `check FILE` does) and feeds the [`ModChecker`] for the rules
//! across files. Everything it finds goes to the caller as a [`WalkEvent`].

use core::cell::{Cell, RefCell};
use core::fmt;

use super::mods::{IdSlot, ModChecker, ModFinding, NameSlot};
use super::{Checker, Finding, Games, Level};
use crate::archive::{
    ArchiveDecoder, ArchiveInfo, ArchiveVisitor, ArchiveWarning, Choice, Entry, Input,
};
use crate::level::{self, read_line, Keyword, Lines, MAX_DAT_LINE};
use crate::{Decoder, Error, ErrorKind, Flow, Game, Options, Record, Status};

/// Archives open at once: the games' image slots (III and VC `MAX_CDIMAGES`, San Andreas'
/// eight slots); the level files' archive lines past them are not read (`mod.img.too_many`,
/// `mod.cdimage.too_many`).
pub const ARCHIVES: usize = 8;

/// Bytes read per call.
const READ_SIZE: usize = 16 * 1024;

/// The files of a game or mod folder, as the caller reaches them.
pub trait ModFiles {
    /// An open file (closed when dropped).
    type File;
    /// Why a read failed.
    type Error: fmt::Display;

    /// Opens `path` as a level file writes it (`DATA\MAPS\LA\LAE.IDE`, `models/gta3.img`:
    /// either slash, any case, relative to the game's folder, as the games on Windows
    /// resolve it); `None` when there is no such file.
    fn open(&mut self, path: &[u8]) -> Option<Self::File>;

    /// The file's length in bytes.
    fn len(&mut self, file: &mut Self::File) -> Result<u64, Self::Error>;

    /// Reads into `buf` from `offset`; 0 bytes only at the end.
    fn read_at(
        &mut self,
        file: &mut Self::File,
        offset: u64,
        buf: &mut [u8],
    ) -> Result<usize, Self::Error>;
}

/// What the walk tells its caller, in order.
#[derive(Clone, Copy)]
#[non_exhaustive]
pub enum WalkEvent<'a> {
    /// A file gets its number (findings name files by number): its path as the level file
    /// writes it, or as the game names it (`models/gta3.img`). Numbers count from 0.
    File {
        /// Its number.
        file: u32,
        /// Its path.
        path: &'a [u8],
    },
    /// A file is being read; `entries`: the archive entries read so far.
    Reading {
        /// The file's number.
        file: u32,
        /// Archive entries read so far, over the walk.
        entries: u64,
    },
    /// A finding, of one file or across files.
    Finding(&'a ModFinding),
    /// A file the level files name that was there could not be read: why.
    Unreadable {
        /// The file's number.
        file: u32,
        /// Why.
        reason: &'a dyn fmt::Display,
    },
}

impl fmt::Debug for WalkEvent<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WalkEvent::File { file, path } => {
                write!(f, "File({file}, {:?})", core::str::from_utf8(path))
            }
            WalkEvent::Reading { file, entries } => write!(f, "Reading({file}, {entries})"),
            WalkEvent::Finding(finding) => write!(f, "Finding({finding:?})"),
            WalkEvent::Unreadable { file, reason } => write!(f, "Unreadable({file}, {reason})"),
        }
    }
}

/// What the walk did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct WalkSummary {
    /// Files numbered.
    pub files: u32,
    /// Archive entries read.
    pub entries: u64,
    /// Error findings.
    pub errors: u32,
}

/// Why a folder cannot be walked at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum WalkError {
    /// No level file of any game (`data/gta.dat`, `data/gta_vc.dat`, `data/gta3.dat`).
    NoGame,
    /// The level files of several games are there: the caller names the game.
    SeveralGames,
    /// The game's own level file is not there.
    NoLevelFile(&'static str),
}

impl fmt::Display for WalkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WalkError::NoGame => f.write_str(
                "no data/gta.dat, data/gta_vc.dat or data/gta3.dat (a game or mod folder has one)",
            ),
            WalkError::SeveralGames => {
                f.write_str("the level files of several games are here: choose the game")
            }
            WalkError::NoLevelFile(path) => write!(f, "no {path}"),
        }
    }
}

/// The level file that tells each game apart.
const GAME_FILES: [(Game, &str); 3] = [
    (Game::SanAndreas, "data/gta.dat"),
    (Game::ViceCity, "data/gta_vc.dat"),
    (Game::Iii, "data/gta3.dat"),
];

/// The game whose level file the folder has.
pub fn find_game<F: ModFiles>(files: &mut F) -> Result<Game, WalkError> {
    let mut found = None;
    for (game, path) in GAME_FILES {
        if files.open(path.as_bytes()).is_some() {
            if found.is_some() {
                return Err(WalkError::SeveralGames);
            }
            found = Some(game);
        }
    }
    found.ok_or(WalkError::NoGame)
}

/// The games' bits of one game.
pub(crate) fn games_of(game: Game) -> Games {
    match game {
        Game::Iii => Games::III,
        Game::ViceCity => Games::VC,
        Game::SanAndreas => Games::SA,
    }
}

/// Why a file stopped being read.
enum Failure<E> {
    Read(E),
    /// A version 1 archive without its `.dir`.
    NoDirectory,
}

impl<E: fmt::Display> fmt::Display for Failure<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Read(error) => write!(f, "read error: {error}"),
            Failure::NoDirectory => f.write_str("no .dir beside the version 1 archive"),
        }
    }
}

/// A single-file checker for `game` whose findings go to `each` as `file`'s.
fn file_checker<E: FnMut(WalkEvent<'_>)>(
    each: &RefCell<E>,
    game: Game,
    file: u32,
) -> Checker<impl FnMut(&Finding) + '_> {
    Checker::new(games_of(game), move |finding: &Finding| {
        let finding = ModFinding {
            finding: *finding,
            file,
            other: None,
        };
        (each.borrow_mut())(WalkEvent::Finding(&finding));
    })
}

/// An archive the game reads: its number, its file name, its `.img` and, for version 1, its
/// `.dir`.
struct Archive<T> {
    file: u32,
    name: [u8; 64],
    name_len: usize,
    /// Its path as [`same_path`] compares it.
    path: [u8; 128],
    path_len: usize,
    img: T,
    dir: Option<T>,
}

/// Whether two paths name one file as the games resolve them (any case, either slash, a
/// leading `./` or slash aside); paths past 128 bytes are never the same.
fn same_path(a: &[u8], b: &[u8]) -> bool {
    fn trimmed(mut path: &[u8]) -> &[u8] {
        while let [b'.', b'/' | b'\\', rest @ ..] | [b'/' | b'\\', rest @ ..] = path {
            path = rest;
        }
        path
    }
    let fold = |b: &u8| match b {
        b'\\' => b'/',
        b => b.to_ascii_lowercase(),
    };
    let (a, b) = (trimmed(a), trimmed(b));
    a.len() <= 128 && a.len() == b.len() && a.iter().map(fold).eq(b.iter().map(fold))
}

/// The walk's state: the caller's files and sink (shared with the checkers' sinks), the
/// numbers given, the entries read.
struct Walk<'f, 'e, F: ModFiles, E> {
    files: &'f mut F,
    each: &'e RefCell<E>,
    game: Game,
    numbered: u32,
    entries: u64,
}

impl<F: ModFiles, E: FnMut(WalkEvent<'_>)> Walk<'_, '_, F, E> {
    fn number(&mut self, path: &[u8]) -> u32 {
        let file = self.numbered;
        self.numbered += 1;
        (self.each.borrow_mut())(WalkEvent::File { file, path });
        file
    }

    fn reading(&mut self, file: u32) {
        let entries = self.entries;
        (self.each.borrow_mut())(WalkEvent::Reading { file, entries });
    }

    fn unreadable(&mut self, file: u32, reason: &dyn fmt::Display) {
        (self.each.borrow_mut())(WalkEvent::Unreadable { file, reason });
    }

    /// The archive at `path`, open as `img`: a version 1 archive (no `VER2`) with the `.dir`
    /// beside it.
    fn archive(&mut self, file: u32, path: &[u8], mut img: F::File) -> Option<Archive<F::File>> {
        let mut head = [0u8; 4];
        let mut got = 0;
        let read = loop {
            match self.files.read_at(&mut img, got as u64, &mut head[got..]) {
                Ok(0) => break Ok(()),
                Ok(len) => got = (got + len).min(head.len()),
                Err(error) => break Err(error),
            }
            if got == head.len() {
                break Ok(());
            }
        };
        let v2 = match read {
            Ok(()) => &head == b"VER2",
            Err(error) => {
                self.unreadable(file, &Failure::Read(error));
                return None;
            }
        };
        let dir = if v2 {
            None
        } else {
            let mut name = [0u8; MAX_DAT_LINE + 4];
            let stem = path
                .iter()
                .rposition(|&b| b == b'.')
                .filter(|&dot| !path[dot..].iter().any(|&b| b == b'/' || b == b'\\'))
                .map_or(path, |dot| &path[..dot]);
            let len = stem.len() + 4;
            if len > name.len() {
                self.unreadable(file, &Failure::<F::Error>::NoDirectory);
                return None;
            }
            name[..stem.len()].copy_from_slice(stem);
            name[stem.len()..len].copy_from_slice(b".dir");
            match self.files.open(&name[..len]) {
                Some(dir) => Some(dir),
                None => {
                    self.unreadable(file, &Failure::<F::Error>::NoDirectory);
                    return None;
                }
            }
        };
        let mut name = [0u8; 64];
        let whole = level::file_name(path);
        let name_len = whole.len().min(name.len());
        name[..name_len].copy_from_slice(&whole[..name_len]);
        let mut stored = [0u8; 128];
        let path_len = path.len().min(stored.len());
        stored[..path_len].copy_from_slice(&path[..path_len]);
        Some(Archive {
            file,
            name,
            name_len,
            path: stored,
            path_len: if path.len() > stored.len() {
                0
            } else {
                path_len
            },
            img,
            dir,
        })
    }

    /// Decodes an archive into `visitor`, to the end; a decode error is returned, a read error
    /// reported.
    fn decode_archive<V: ArchiveVisitor>(
        &mut self,
        archive: &mut Archive<F::File>,
        visitor: &mut V,
    ) -> Result<(), Error> {
        let result: Result<Result<(), Error>, Failure<F::Error>> = (|| {
            let data_len = self.files.len(&mut archive.img).map_err(Failure::Read)?;
            let mut decoder = match archive.dir.as_mut() {
                Some(dir) => {
                    let dir_len = self.files.len(dir).map_err(Failure::Read)?;
                    ArchiveDecoder::version1(dir_len, data_len)
                }
                None => ArchiveDecoder::new(data_len),
            };
            let mut buffer = [0u8; READ_SIZE];
            loop {
                let position = decoder.position();
                // Small reads for the directory and an entry's first bytes, the rest of the
                // entry for its data: never the bytes of other entries.
                let want = decoder.wanted().map_or(READ_SIZE, |n| {
                    usize::try_from(n).unwrap_or(READ_SIZE).clamp(1, READ_SIZE)
                });
                let file = match (decoder.input(), archive.dir.as_mut()) {
                    (Input::Directory, Some(dir)) => Some(dir),
                    (Input::Directory, None) => None,
                    (Input::Data, _) => Some(&mut archive.img),
                };
                let len = match file {
                    Some(file) => self
                        .files
                        .read_at(file, position, &mut buffer[..want])
                        .map_err(Failure::Read)?,
                    None => 0,
                };
                if len == 0 {
                    return Ok(decoder.finish(visitor));
                }
                let mut chunk = &buffer[..len.min(want)];
                loop {
                    let progress = match decoder.feed(chunk, visitor) {
                        Ok(progress) => progress,
                        Err(error) => return Ok(Err(error)),
                    };
                    chunk = &chunk[progress.consumed..];
                    match progress.status {
                        Status::Paused => continue,
                        Status::Done => return Ok(decoder.finish(visitor)),
                        Status::Seek(_) | Status::NeedInput => {}
                    }
                    break;
                }
            }
        })();
        match result {
            Ok(decoded) => decoded,
            Err(failure) => {
                self.unreadable(archive.file, &failure);
                Ok(())
            }
        }
    }

    /// Decodes a loose file into `visitor`, to the end; a decode error is returned, a read
    /// error reported.
    fn decode_file<V: crate::Visitor>(
        &mut self,
        number: u32,
        file: &mut F::File,
        visitor: &mut V,
    ) -> Result<(), Error> {
        let mut decoder = Decoder::with_options(Options {
            game: Some(self.game),
            ..Options::default()
        });
        let mut buffer = [0u8; READ_SIZE];
        let mut at = 0u64;
        loop {
            let len = match self.files.read_at(file, at, &mut buffer) {
                Ok(len) => len.min(READ_SIZE),
                Err(error) => {
                    self.unreadable(number, &Failure::Read(error));
                    return Ok(());
                }
            };
            if len == 0 {
                return decoder.finish(visitor);
            }
            at += len as u64;
            let mut chunk = &buffer[..len];
            loop {
                let progress = decoder.feed(chunk, visitor)?;
                chunk = &chunk[progress.consumed..];
                match progress.status {
                    Status::Paused => continue,
                    Status::Seek(offset) => at = offset,
                    Status::NeedInput | Status::Done => {}
                }
                break;
            }
        }
    }

    /// Reads a file line by line (a level file, `animgrp.dat`, `ped.dat`); a read error is reported.
    fn lines(
        &mut self,
        number: u32,
        file: &mut F::File,
        mut each: impl FnMut(&mut Self, level::Line<'_>) -> bool,
    ) {
        let mut lines = Lines::new();
        let mut buffer = [0u8; 2048];
        let mut at = 0u64;
        let mut go = true;
        loop {
            let len = match self.files.read_at(file, at, &mut buffer) {
                Ok(len) => len.min(buffer.len()),
                Err(error) => {
                    self.unreadable(number, &Failure::Read(error));
                    return;
                }
            };
            let mut one = |line: level::Line<'_>| {
                if go {
                    go = each(self, line);
                }
            };
            if len == 0 {
                lines.finish(&mut one);
                return;
            }
            lines.feed(&buffer[..len], &mut one);
            if !go {
                return;
            }
            at += len as u64;
        }
    }
    /// Reads the directories of the archives (and checks every entry on its own), as the game
    /// does at the first `IPL` line (III: after the level files).
    fn read_directories<S: FnMut(&ModFinding)>(
        &mut self,
        mods: &mut ModChecker<'_, S>,
        archives: &mut [Option<Archive<F::File>>],
    ) {
        for archive in archives.iter_mut().flatten() {
            self.reading(archive.file);
            let mut checker = file_checker(self.each, self.game, archive.file);
            checker.set_archive_name(&archive.name[..archive.name_len]);
            let mut both = Both::new(checker, &mut *mods, archive.file, Pass::Directory);
            let result = self.decode_archive(archive, &mut both);
            self.entries += both.entries;
            let mut checker = both.checker;
            if let Err(error) = result {
                checker.failed(error);
            }
            checker.finish();
        }
    }

    /// San Andreas loads the stream IPLs (the archives' `.ipl` entries) after the level files
    /// (GR `IplStore.cpp` `LoadAllRemainingIpls`, at the end of `LoadLevel`): against every
    /// IDE. Their own rules were checked with the directory.
    fn read_stream_ipls<S: FnMut(&ModFinding)>(
        &mut self,
        mods: &mut ModChecker<'_, S>,
        archives: &mut [Option<Archive<F::File>>],
    ) {
        for archive in archives.iter_mut().flatten() {
            self.reading(archive.file);
            let checker = Checker::new(games_of(self.game), |_: &Finding| {});
            let mut both = Both::new(checker, &mut *mods, archive.file, Pass::Ipls);
            // Read once already: a failure was reported then.
            let _ = self.decode_archive(archive, &mut both);
        }
    }

    /// A text IPL or an IDE a level file names: its own rules, and its records to the mod
    /// checker.
    fn read_text<S: FnMut(&ModFinding)>(
        &mut self,
        mods: &mut ModChecker<'_, S>,
        number: u32,
        path: &[u8],
        mut file: F::File,
        keyword: Keyword,
    ) {
        self.reading(number);
        let name = level::file_name(path);
        let mut checker = file_checker(self.each, self.game, number);
        checker.set_file_name(name);
        if keyword == Keyword::Ide {
            mods.ide_begin(number);
        } else {
            mods.ipl_begin(number, name, None);
        }
        let mut both = Both::new(checker, &mut *mods, number, Pass::Directory);
        both.feed = true;
        let result = self.decode_file(number, &mut file, &mut both);
        if keyword == Keyword::Ide {
            both.mods.ide_end();
        } else {
            both.mods.ipl_end();
        }
        let mut checker = both.checker;
        match result {
            // An empty IDE or IPL has no format to tell, yet the games read it as no line at
            // all (re3 FileLoader.cpp LoadObjectTypes, LoadScene: the LoadLine loop ends at
            // once; GR FileLoader.cpp the same): nothing to report.
            Err(error) if error.kind == ErrorKind::Empty => {}
            Err(error) => checker.failed(error),
            Ok(()) => {}
        }
        checker.finish();
    }

    /// `anim/ped.ifp`, the block `ped` every game loads at start: its own rules, and its
    /// animations to the mod checker.
    fn read_ped_ifp<S: FnMut(&ModFinding)>(&mut self, mods: &mut ModChecker<'_, S>) {
        const PED_IFP: &[u8] = b"anim/ped.ifp";
        let Some(mut handle) = self.files.open(PED_IFP) else {
            return;
        };
        let number = self.number(PED_IFP);
        self.reading(number);
        let mut checker = file_checker(self.each, self.game, number);
        checker.set_file_name(level::file_name(PED_IFP));
        let mut both = Both::new(checker, &mut *mods, number, Pass::Directory);
        both.block = Block::Loose;
        let result = self.decode_file(number, &mut handle, &mut both);
        if let Block::Begun = both.block {
            both.mods.block_end();
        }
        let mut checker = both.checker;
        if let Err(error) = result {
            checker.failed(error);
        }
        checker.finish();
    }

    /// `data/ped.dat` (every game), when the folder has one.
    fn read_ped_dat<S: FnMut(&ModFinding)>(&mut self, mods: &mut ModChecker<'_, S>) {
        const PED_DAT: &[u8] = b"data/ped.dat";
        let Some(mut handle) = self.files.open(PED_DAT) else {
            return;
        };
        let file = self.number(PED_DAT);
        self.reading(file);
        let mut ped = level::PedDat::new(self.game);
        self.lines(file, &mut handle, |_, line| {
            mods.peddat_line(file, &line, &mut ped);
            true
        });
    }

    /// San Andreas' `data/animgrp.dat`, when the folder has one.
    fn read_animgrp<S: FnMut(&ModFinding)>(&mut self, mods: &mut ModChecker<'_, S>) {
        const ANIMGRP: &[u8] = b"data/animgrp.dat";
        let Some(mut handle) = self.files.open(ANIMGRP) else {
            return;
        };
        let file = self.number(ANIMGRP);
        self.reading(file);
        let mut groups = level::AnimGroups::new();
        self.lines(file, &mut handle, |_, line| {
            mods.animgrp_line(file, &line, &mut groups);
            true
        });
    }
}

/// Walks the folder `files` holds for `game` (see the module documentation) with the caller's
/// tables for the [`ModChecker`] (`names` all [`NameSlot::EMPTY`], [`NAME_SLOTS`](super::mods::NAME_SLOTS)
/// for a whole game; `ids` all [`IdSlot::EMPTY`], [`model_ids`](super::mods::model_ids) of
/// the game), telling `each` every file, finding and failure as they come.
pub fn walk<F: ModFiles>(
    files: &mut F,
    game: Game,
    names: &mut [NameSlot],
    ids: &mut [IdSlot],
    mut each: impl FnMut(WalkEvent<'_>),
) -> Result<WalkSummary, WalkError> {
    let [default_dat, game_dat] = level::level_files(game);
    if files.open(game_dat.as_bytes()).is_none() {
        return Err(WalkError::NoLevelFile(game_dat));
    }
    let errors = Cell::new(0u32);
    let each = RefCell::new(|event: WalkEvent<'_>| {
        if let WalkEvent::Finding(f) = event {
            errors.set(errors.get() + u32::from(f.finding.level() == Level::Error));
        }
        each(event);
    });
    let mut mods = ModChecker::new(game, names, ids, |finding: &ModFinding| {
        (each.borrow_mut())(WalkEvent::Finding(finding));
    });
    let mut walk = Walk {
        files,
        each: &each,
        game,
        numbered: 0,
        entries: 0,
    };
    let mut archives: [Option<Archive<F::File>>; ARCHIVES] = [const { None }; ARCHIVES];
    let mut opened = 0;
    for path in level::implicit_archives(game) {
        let file = walk.number(path.as_bytes());
        let archive = walk
            .files
            .open(path.as_bytes())
            .and_then(|img| walk.archive(file, path.as_bytes(), img));
        if let Some(archive) = archive {
            archives[opened] = Some(archive);
            opened += 1;
        }
    }
    let mut directories_read = false;
    for level_file in [default_dat, game_dat] {
        let Some(mut handle) = walk.files.open(level_file.as_bytes()) else {
            continue;
        };
        let file = walk.number(level_file.as_bytes());
        walk.reading(file);
        walk.lines(file, &mut handle, |walk, line| {
            let dat = read_line(line.stored);
            if dat.keyword == Keyword::Exit {
                return false;
            }
            let target = if dat.keyword.names_file() {
                walk.files.open(dat.path)
            } else {
                None
            };
            if dat.keyword == Keyword::Ipl && !directories_read && game != Game::Iii {
                directories_read = true;
                walk.read_directories(&mut mods, &mut archives);
            }
            let read = mods.level_line(file, &line, &dat, target.is_some());
            let Some(target) = target.filter(|_| read) else {
                return true;
            };
            match dat.keyword {
                // An archive already open (stock San Andreas' gta.dat names
                // `MODELS\GTA_INT.IMG`, which the game opened first): its names are the
                // same file's, each registered once (GR Streaming.cpp:L1220-1226, the first
                // wins); nothing more to read or to report.
                Keyword::Img | Keyword::CdImage
                    if archives[..opened]
                        .iter()
                        .flatten()
                        .any(|a| a.path_len > 0 && same_path(&a.path[..a.path_len], dat.path)) => {}
                Keyword::Img | Keyword::CdImage if opened < ARCHIVES => {
                    let number = walk.number(dat.path);
                    if let Some(archive) = walk.archive(number, dat.path, target) {
                        archives[opened] = Some(archive);
                        opened += 1;
                    }
                }
                Keyword::Ipl | Keyword::Ide => {
                    let number = walk.number(dat.path);
                    walk.read_text(&mut mods, number, dat.path, target, dat.keyword);
                }
                _ => {}
            }
            true
        });
    }
    if !directories_read {
        walk.read_directories(&mut mods, &mut archives);
    }
    walk.read_ped_ifp(&mut mods);
    walk.read_ped_dat(&mut mods);
    if game == Game::SanAndreas {
        walk.read_animgrp(&mut mods);
        walk.read_stream_ipls(&mut mods, &mut archives);
    }
    mods.finish();
    Ok(WalkSummary {
        files: walk.numbered,
        entries: walk.entries,
        errors: errors.get(),
    })
}

/// Whether `name`'s extension (after its last `.`) is `extension`, in any case.
fn has_extension(name: &[u8], extension: &[u8]) -> bool {
    name.rsplit(|&b| b == b'.')
        .next()
        .is_some_and(|e| e.eq_ignore_ascii_case(extension))
}

/// Which reading of an archive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pass {
    /// The directory, when the game reads it: every entry's name to the mod checker, every
    /// entry to the single-file checker.
    Directory,
    /// The IPL entries, when San Andreas loads them: their placements to the mod checker.
    Ipls,
}

/// The single-file checker and the checker across files, fed one file or archive together.
struct Both<'m, 't, C, S> {
    checker: C,
    mods: &'m mut ModChecker<'t, S>,
    file: u32,
    /// The records of the entry (or file) being decoded go to the mod checker.
    feed: bool,
    pass: Pass,
    /// Archive entries seen.
    entries: u64,
    /// The animation block being read.
    block: Block,
}

impl<'m, 't, C, S: FnMut(&ModFinding)> Both<'m, 't, C, S> {
    fn new(checker: C, mods: &'m mut ModChecker<'t, S>, file: u32, pass: Pass) -> Self {
        Both {
            checker,
            mods,
            file,
            feed: false,
            pass,
            entries: 0,
            block: Block::None,
        }
    }
}

/// An animation file (a block of the game's animations) being decoded: its block is begun
/// at its `file` event, which names the block inside the file.
#[derive(Clone, Copy, Debug)]
enum Block {
    None,
    /// `anim/ped.ifp`, before its `file` event.
    Loose,
    /// An archive's `.ifp` entry, before its `file` event: the entry, its name in `name`.
    Entry {
        index: u32,
        name: [u8; 24],
        name_len: u8,
        offset: u64,
        size: u64,
        declared_size: u64,
        format: Option<crate::Format>,
        record: [u8; crate::archive::RECORD_SIZE as usize],
    },
    /// Begun: its animations go to the mod checker.
    Begun,
}

impl<F: FnMut(&Finding), S: FnMut(&ModFinding)> crate::Visitor for Both<'_, '_, Checker<F>, S> {
    fn file(&mut self, info: &crate::FileInfo<'_>) -> Flow {
        match self.block {
            Block::Loose => {
                self.mods.block_begin(self.file, None, info.name);
                self.block = Block::Begun;
            }
            Block::Entry {
                index,
                name,
                name_len,
                offset,
                size,
                declared_size,
                format,
                record,
            } => {
                let entry = Entry {
                    index,
                    name: &name[..usize::from(name_len)],
                    offset,
                    size,
                    declared_size,
                    format,
                    record,
                };
                self.mods.block_begin(self.file, Some(&entry), info.name);
                self.block = Block::Begun;
            }
            Block::None | Block::Begun => {}
        }
        crate::Visitor::file(&mut self.checker, info)
    }
    fn animation(&mut self, info: &crate::AnimationInfo<'_>) -> Flow {
        if let Block::Begun = self.block {
            self.mods.block_animation(info.name);
        }
        crate::Visitor::animation(&mut self.checker, info)
    }
    fn bone(&mut self, info: &crate::BoneInfo<'_>) -> Flow {
        crate::Visitor::bone(&mut self.checker, info)
    }
    fn keyframes(&mut self, frames: crate::Keyframes<'_>) -> Flow {
        crate::Visitor::keyframes(&mut self.checker, frames)
    }
    fn bone_end(&mut self) -> Flow {
        crate::Visitor::bone_end(&mut self.checker)
    }
    fn animation_end(&mut self) -> Flow {
        crate::Visitor::animation_end(&mut self.checker)
    }
    fn animation_summary(&mut self, summary: &crate::AnimationSummary) -> Flow {
        crate::Visitor::animation_summary(&mut self.checker, summary)
    }
    fn record(&mut self, record: &Record<'_>) -> Flow {
        let flow = crate::Visitor::record(&mut self.checker, record);
        if self.feed {
            let context = *self.checker.context();
            self.mods.record(record, context.offset, context.line);
        }
        flow
    }
    fn warning(&mut self, warning: crate::Warning) -> Flow {
        crate::Visitor::warning(&mut self.checker, warning)
    }
    fn text_line(&mut self, raw: &[u8]) -> Flow {
        crate::Visitor::text_line(&mut self.checker, raw)
    }
    fn trailing(&mut self, bytes: &[u8]) -> Flow {
        crate::Visitor::trailing(&mut self.checker, bytes)
    }
    fn end(&mut self) -> Flow {
        crate::Visitor::end(&mut self.checker)
    }
    fn unit(&mut self, unit: &crate::Unit<'_>) {
        crate::Visitor::unit(&mut self.checker, unit)
    }
}

impl<F: FnMut(&Finding), S: FnMut(&ModFinding)> ArchiveVisitor for Both<'_, '_, Checker<F>, S> {
    fn archive(&mut self, info: &ArchiveInfo) -> Flow {
        ArchiveVisitor::archive(&mut self.checker, info)
    }
    fn entry(&mut self, entry: &Entry<'_>) -> Choice {
        if self.pass == Pass::Directory {
            self.entries += 1;
            self.mods.archive_entry(self.file, entry);
            let choice = ArchiveVisitor::entry(&mut self.checker, entry);
            // The archive's animation files: blocks the game streams.
            if choice == Choice::Decode && has_extension(entry.name, b"ifp") {
                let mut name = [0u8; 24];
                let name_len = entry.name.len().min(name.len());
                name[..name_len].copy_from_slice(&entry.name[..name_len]);
                self.block = Block::Entry {
                    index: entry.index,
                    name,
                    name_len: name_len as u8,
                    offset: entry.offset,
                    size: entry.size,
                    declared_size: entry.declared_size,
                    format: entry.format,
                    record: entry.record,
                };
            }
            return choice;
        }
        if !has_extension(entry.name, b"ipl") {
            return Choice::Skip;
        }
        let choice = ArchiveVisitor::entry(&mut self.checker, entry);
        self.feed = choice == Choice::Decode;
        if self.feed {
            self.mods.ipl_begin(self.file, entry.name, Some(entry));
        }
        choice
    }
    fn entry_end(&mut self, result: Result<(), Error>) -> Flow {
        if self.pass == Pass::Ipls && core::mem::take(&mut self.feed) {
            self.mods.ipl_end();
        }
        if let Block::Begun = core::mem::replace(&mut self.block, Block::None) {
            self.mods.block_end();
        }
        ArchiveVisitor::entry_end(&mut self.checker, result)
    }
    fn archive_warning(&mut self, warning: ArchiveWarning) -> Flow {
        ArchiveVisitor::archive_warning(&mut self.checker, warning)
    }
}
