//! `check DIR`: a game or mod folder walked as the game loads it (feature `std`).
//!
//! [`check_folder`] finds the game's level files (`data/default.dat`, then `data/gta.dat`,
//! `data/gta_vc.dat` or `data/gta3.dat`), resolves each line's path as the games on Windows
//! do (any case, `\` or `/`), opens the archives the game opens (San Andreas `gta3.img`,
//! `gta_int.img` and the `IMG` lines; III and VC `gta3.img` and the `CDIMAGE` lines) when the
//! game reads their directories (at the first `IPL` line in VC and SA, after the level files
//! in III), runs the single-file rules on every file and archive entry (as `check FILE` does)
//! and feeds a [`ModChecker`] for the rules across files. Memory: the checker's tables (the
//! 1 MiB name table among them), the list of file names, and the findings.

use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::string::{String, ToString};
use std::vec::Vec;
use std::{format, vec};

use super::mods::{model_ids, IdSlot, ModChecker, ModFinding, NameSlot, NAME_SLOTS};
use super::{Checker, Finding};
use crate::archive::{ArchiveDecoder, ArchiveInfo, ArchiveVisitor, ArchiveWarning, Choice, Entry};
use crate::io::{decode_archive, decode_reader, stream_len};
use crate::level::{self, read_line, Keyword, Lines};
use crate::{Decoder, Error, Flow, Game, Options, Record};

/// What to check.
#[derive(Clone, Debug, Default)]
pub struct FolderOptions {
    /// The game (`None`: the level file found decides).
    pub game: Option<Game>,
    /// A game folder the mod folder is checked against: a path is looked up in the mod
    /// folder first, then here.
    pub base: Option<PathBuf>,
}

/// What the walk found.
#[derive(Clone, Debug)]
pub struct FolderReport {
    /// The game checked.
    pub game: Game,
    /// The files the findings name (by index): as the level files write them, or as found.
    pub files: Vec<String>,
    /// Every finding, single-file and across files, in the order found.
    pub findings: Vec<ModFinding>,
    /// Files that could not be read, with why.
    pub unreadable: Vec<(String, String)>,
    /// Archive entries read.
    pub entries: u64,
}

/// Why a folder cannot be checked at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FolderError(pub String);

impl core::fmt::Display for FolderError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The level file that tells each game apart.
const GAME_FILES: [(Game, &str); 3] = [
    (Game::SanAndreas, "data/gta.dat"),
    (Game::ViceCity, "data/gta_vc.dat"),
    (Game::Iii, "data/gta3.dat"),
];

/// `path` (either slash) under `root`, each component matched in any case, as Windows does.
pub fn resolve_in(root: &Path, path: &[u8]) -> Option<PathBuf> {
    let text = String::from_utf8_lossy(path);
    let mut at = root.to_path_buf();
    for part in text
        .split(['\\', '/'])
        .filter(|p| !p.is_empty() && *p != ".")
    {
        let exact = at.join(part);
        if exact.exists() {
            at = exact;
            continue;
        }
        let found = fs::read_dir(&at).ok()?.flatten().find(|e| {
            e.file_name()
                .to_str()
                .is_some_and(|n| n.eq_ignore_ascii_case(part))
        })?;
        at = found.path();
    }
    Some(at)
}

struct Walk<'p> {
    roots: Vec<PathBuf>,
    report: FolderReport,
    progress: &'p mut dyn FnMut(&str, u64),
}

impl Walk<'_> {
    fn resolve(&self, path: &[u8]) -> Option<PathBuf> {
        self.roots
            .iter()
            .find_map(|root| resolve_in(root, path).filter(|p| p.is_file()))
    }

    fn file(&mut self, shown: String) -> u32 {
        self.report.files.push(shown);
        (self.report.files.len() - 1) as u32
    }

    fn single(&mut self, file: u32, findings: Vec<Finding>) {
        self.report
            .findings
            .extend(findings.into_iter().map(|finding| ModFinding {
                finding,
                file,
                other: None,
            }));
    }
}

/// Checks the folder `root` (module documentation); `progress` is told each file as it is
/// read and the archive entries read so far.
pub fn check_folder(
    root: &Path,
    options: &FolderOptions,
    progress: &mut dyn FnMut(&str, u64),
) -> Result<FolderReport, FolderError> {
    let mut roots = vec![root.to_path_buf()];
    roots.extend(options.base.clone());
    let game = match options.game {
        Some(game) => game,
        None => {
            let found: Vec<Game> = GAME_FILES
                .iter()
                .filter(|(_, f)| roots.iter().any(|r| resolve_in(r, f.as_bytes()).is_some()))
                .map(|&(g, _)| g)
                .collect();
            match found.as_slice() {
                [game] => *game,
                [] => {
                    return Err(FolderError(format!(
                        "{}: no data/gta.dat, data/gta_vc.dat or data/gta3.dat (a game or mod folder has one)",
                        root.display()
                    )))
                }
                _ => {
                    return Err(FolderError(format!(
                        "{}: the level files of several games are here: choose one with --game",
                        root.display()
                    )))
                }
            }
        }
    };
    let mut walk = Walk {
        roots,
        report: FolderReport {
            game,
            files: Vec::new(),
            findings: Vec::new(),
            unreadable: Vec::new(),
            entries: 0,
        },
        progress,
    };
    let mut names = vec![NameSlot::EMPTY; NAME_SLOTS];
    let mut ids = vec![IdSlot::EMPTY; model_ids(game)];
    let mut found_mod = Vec::new();
    let mut checker = ModChecker::new(game, &mut names, &mut ids, |f: &ModFinding| {
        found_mod.push(*f)
    });
    // The archives whose directories the game reads, in its order.
    let mut archives: Vec<(u32, PathBuf)> = Vec::new();
    for path in level::implicit_archives(game) {
        let file = walk.file(path.to_string());
        if let Some(found) = walk.resolve(path.as_bytes()) {
            archives.push((file, found));
        }
    }
    let mut directories_read = false;
    let [default_dat, game_dat] = level::level_files(game);
    for level_file in [default_dat, game_dat] {
        let Some(path) = walk.resolve(level_file.as_bytes()) else {
            if level_file == game_dat {
                return Err(FolderError(format!("{}: no {level_file}", root.display())));
            }
            continue;
        };
        let file = walk.file(level_file.to_string());
        let bytes = match fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) => {
                walk.report
                    .unreadable
                    .push((level_file.to_string(), e.to_string()));
                continue;
            }
        };
        let mut lines = Vec::new();
        let mut reader = Lines::new();
        let mut keep =
            |l: level::Line<'_>| lines.push((l.number, l.offset, l.stored.to_vec(), l.cut));
        reader.feed(&bytes, &mut keep);
        reader.finish(&mut keep);
        for (number, offset, stored, cut) in lines {
            let line = level::Line {
                number,
                offset,
                stored: &stored,
                cut,
            };
            let dat = read_line(&stored);
            if dat.keyword == Keyword::Exit {
                break;
            }
            let target = dat
                .keyword
                .names_file()
                .then(|| walk.resolve(dat.path))
                .flatten();
            if dat.keyword == Keyword::Ipl && !directories_read && game != Game::Iii {
                directories_read = true;
                read_archives(&mut walk, &mut checker, &archives);
            }
            let shown = String::from_utf8_lossy(dat.path).into_owned();
            let read = checker.level_line(file, &line, &dat, target.is_some());
            let Some(target) = target.filter(|_| read) else {
                continue;
            };
            match dat.keyword {
                Keyword::Img | Keyword::CdImage => {
                    let file = walk.file(shown);
                    archives.push((file, target));
                }
                Keyword::Ipl | Keyword::Ide => {
                    let file = walk.file(shown.clone());
                    (walk.progress)(&shown, walk.report.entries);
                    check_text(&mut walk, &mut checker, file, &target, game, dat.keyword);
                }
                _ => {}
            }
        }
    }
    if !directories_read {
        read_archives(&mut walk, &mut checker, &archives);
    }
    if game == Game::SanAndreas {
        read_animgrp(&mut walk, &mut checker);
    }
    // San Andreas loads the stream IPLs after the level files (GR `IplStore.cpp`
    // `LoadAllRemainingIpls`, at the end of `LoadLevel`): against every IDE.
    if game == Game::SanAndreas {
        read_stream_ipls(&mut walk, &mut checker, &archives);
    }
    checker.finish();
    walk.report.findings.extend(found_mod);
    Ok(walk.report)
}

/// San Andreas' `data/animgrp.dat`, when the folder has one.
fn read_animgrp<S: FnMut(&ModFinding)>(walk: &mut Walk<'_>, mods: &mut ModChecker<'_, S>) {
    const ANIMGRP: &str = "data/animgrp.dat";
    let Some(path) = walk.resolve(ANIMGRP.as_bytes()) else {
        return;
    };
    let file = walk.file(ANIMGRP.to_string());
    match fs::read(&path) {
        Ok(bytes) => {
            let mut groups = level::AnimGroups::new();
            let mut lines = Lines::new();
            let mut each = |line: level::Line<'_>| mods.animgrp_line(file, &line, &mut groups);
            lines.feed(&bytes, &mut each);
            lines.finish(&mut each);
        }
        Err(e) => walk
            .report
            .unreadable
            .push((ANIMGRP.to_string(), e.to_string())),
    }
}

/// A text IPL or an IDE a level file names: its own rules, and its records to the mod checker.
fn check_text<S: FnMut(&ModFinding)>(
    walk: &mut Walk<'_>,
    mods: &mut ModChecker<'_, S>,
    file: u32,
    path: &Path,
    game: Game,
    keyword: Keyword,
) {
    let mut findings = Vec::new();
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut checker = Checker::new(games_of(game), |f: &Finding| findings.push(*f));
    checker.set_file_name(name.as_bytes());
    if keyword == Keyword::Ide {
        mods.ide_begin(file);
    } else {
        mods.ipl_begin(file, name.as_bytes(), None);
    }
    let mut both = Both {
        checker,
        mods,
        file,
        feed: true,
        pass: Pass::Directory,
        entries: 0,
    };
    let mut decoder = Decoder::with_options(Options {
        game: Some(game),
        ..Options::default()
    });
    let result = File::open(path)
        .map_err(|e| e.to_string())
        .and_then(|mut f| {
            decode_reader(&mut decoder, &mut f, &mut both).map_err(|e| e.to_string())
        });
    if keyword == Keyword::Ide {
        both.mods.ide_end();
    } else {
        both.mods.ipl_end();
    }
    let mut checker = both.checker;
    if let Err(message) = result {
        walk.report
            .unreadable
            .push((walk.report.files[file as usize].clone(), message));
    }
    checker.finish();
    walk.single(file, findings);
}

fn games_of(game: Game) -> super::Games {
    match game {
        Game::Iii => super::Games::III,
        Game::ViceCity => super::Games::VC,
        Game::SanAndreas => super::Games::SA,
    }
}

fn read_archives<S: FnMut(&ModFinding)>(
    walk: &mut Walk<'_>,
    mods: &mut ModChecker<'_, S>,
    archives: &[(u32, PathBuf)],
) {
    for (file, path) in archives {
        let shown = walk.report.files[*file as usize].clone();
        (walk.progress)(&shown, walk.report.entries);
        let mut findings = Vec::new();
        let mut checker = Checker::new(games_of(walk.report.game), |f: &Finding| findings.push(*f));
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        checker.set_archive_name(name.as_bytes());
        let mut both = Both {
            checker,
            mods: &mut *mods,
            file: *file,
            feed: false,
            pass: Pass::Directory,
            entries: 0,
        };
        let result = read_archive(path, &mut both);
        walk.report.entries += both.entries;
        let mut checker = both.checker;
        if let Err(message) = result {
            walk.report.unreadable.push((shown, message));
        }
        checker.finish();
        walk.single(*file, findings);
    }
}

/// The IPL entries of the archives, decoded again for the mod checker alone (their own rules
/// were checked with the directory).
fn read_stream_ipls<S: FnMut(&ModFinding)>(
    walk: &mut Walk<'_>,
    mods: &mut ModChecker<'_, S>,
    archives: &[(u32, PathBuf)],
) {
    for (file, path) in archives {
        let shown = walk.report.files[*file as usize].clone();
        (walk.progress)(&shown, walk.report.entries);
        let mut both = Both {
            checker: Checker::new(games_of(walk.report.game), |_: &Finding| {}),
            mods: &mut *mods,
            file: *file,
            feed: false,
            pass: Pass::Ipls,
            entries: 0,
        };
        // Read once already: a failure was reported then.
        let _ = read_archive(path, &mut both);
    }
}

/// Decodes the archive at `path` (a version 1 archive: its `.dir` beside it) into `visitor`.
fn read_archive<V: ArchiveVisitor>(path: &Path, visitor: &mut V) -> Result<(), String> {
    let mut img = File::open(path).map_err(|e| e.to_string())?;
    let data_len = stream_len(&mut img).map_err(|e| e.to_string())?;
    let mut head = [0u8; 4];
    use std::io::{Read, Seek, SeekFrom};
    let v2 = img.read_exact(&mut head).is_ok() && &head == b"VER2";
    img.seek(SeekFrom::Start(0)).map_err(|e| e.to_string())?;
    let mut dir = if v2 {
        None
    } else {
        let dir = path.with_extension("dir");
        let dir = dir
            .parent()
            .and_then(|p| resolve_in(p, dir.file_name()?.to_string_lossy().as_bytes()))
            .ok_or("no .dir beside the version 1 archive")?;
        Some(File::open(dir).map_err(|e| e.to_string())?)
    };
    let mut decoder = match dir.as_mut() {
        Some(d) => ArchiveDecoder::version1(stream_len(d).map_err(|e| e.to_string())?, data_len),
        None => ArchiveDecoder::new(data_len),
    };
    decode_archive(&mut decoder, dir.as_mut(), &mut img, visitor).map_err(|e| e.to_string())
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
}

impl<F: FnMut(&Finding), S: FnMut(&ModFinding)> crate::Visitor for Both<'_, '_, Checker<F>, S> {
    fn file(&mut self, info: &crate::FileInfo<'_>) -> Flow {
        crate::Visitor::file(&mut self.checker, info)
    }
    fn animation(&mut self, info: &crate::AnimationInfo<'_>) -> Flow {
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
            return ArchiveVisitor::entry(&mut self.checker, entry);
        }
        let ipl = entry
            .name
            .rsplit(|&b| b == b'.')
            .next()
            .is_some_and(|e| e.eq_ignore_ascii_case(b"ipl"));
        if !ipl {
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
        if core::mem::take(&mut self.feed) {
            self.mods.ipl_end();
        }
        ArchiveVisitor::entry_end(&mut self.checker, result)
    }
    fn archive_warning(&mut self, warning: ArchiveWarning) -> Flow {
        ArchiveVisitor::archive_warning(&mut self.checker, warning)
    }
}
