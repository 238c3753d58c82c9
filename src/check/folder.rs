//! `check DIR` on a folder of the file system (feature `std`): [`super::walk`] over
//! [`DirFiles`], which resolves each path as the games on Windows do (any case, `\` or `/`),
//! in the mod folder first and then in the game folder it is checked against. Memory: the
//! checker's tables (the 1 MiB name table among them), the list of file names, and the
//! findings.

use std::fs::{self, File};
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::string::{String, ToString};
use std::vec::Vec;
use std::{format, vec};

use super::mods::{model_ids, IdSlot, ModFinding, NameSlot, NAME_SLOTS};
use super::walk::{find_game, walk, ModFiles, WalkError, WalkEvent};
use crate::Game;

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

/// The files under one folder, or a mod folder over a game folder.
#[derive(Clone, Debug)]
pub struct DirFiles {
    roots: Vec<PathBuf>,
}

impl DirFiles {
    /// The files under `root`, then (for a path not there) under `base`.
    pub fn new(root: &Path, base: Option<&Path>) -> Self {
        let mut roots = vec![root.to_path_buf()];
        roots.extend(base.map(Path::to_path_buf));
        DirFiles { roots }
    }

    /// Where `path` is: the first folder that has it.
    pub fn resolve(&self, path: &[u8]) -> Option<PathBuf> {
        self.roots
            .iter()
            .find_map(|root| resolve_in(root, path).filter(|p| p.is_file()))
    }
}

impl ModFiles for DirFiles {
    type File = File;
    type Error = std::io::Error;

    fn open(&mut self, path: &[u8]) -> Option<File> {
        File::open(self.resolve(path)?).ok()
    }

    fn len(&mut self, file: &mut File) -> std::io::Result<u64> {
        Ok(file.metadata()?.len())
    }

    fn read_at(&mut self, file: &mut File, offset: u64, buf: &mut [u8]) -> std::io::Result<usize> {
        file.seek(SeekFrom::Start(offset))?;
        loop {
            match file.read(buf) {
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                result => return result,
            }
        }
    }
}

/// Checks the folder `root` ([`super::walk`]); `progress` is told each file as it is read
/// and the archive entries read so far.
pub fn check_folder(
    root: &Path,
    options: &FolderOptions,
    progress: &mut dyn FnMut(&str, u64),
) -> Result<FolderReport, FolderError> {
    let mut files = DirFiles::new(root, options.base.as_deref());
    let failed = |e: WalkError| FolderError(format!("{}: {e}", root.display()));
    let game = match options.game {
        Some(game) => game,
        None => find_game(&mut files).map_err(|e| match e {
            WalkError::SeveralGames => FolderError(format!(
                "{}: the level files of several games are here: choose one with --game",
                root.display()
            )),
            e => failed(e),
        })?,
    };
    let mut report = FolderReport {
        game,
        files: Vec::new(),
        findings: Vec::new(),
        unreadable: Vec::new(),
        entries: 0,
    };
    let mut names = vec![NameSlot::EMPTY; NAME_SLOTS];
    let mut ids = vec![IdSlot::EMPTY; model_ids(game)];
    let summary = walk(
        &mut files,
        game,
        &mut names,
        &mut ids,
        |event| match event {
            WalkEvent::File { path, .. } => {
                report
                    .files
                    .push(String::from_utf8_lossy(path).into_owned());
            }
            WalkEvent::Reading { file, entries } => {
                progress(&report.files[file as usize], entries);
            }
            WalkEvent::Finding(finding) => report.findings.push(*finding),
            WalkEvent::Unreadable { file, reason } => {
                let path = report.files[file as usize].clone();
                report.unreadable.push((path, reason.to_string()));
            }
        },
    )
    .map_err(failed)?;
    report.entries = summary.entries;
    Ok(report)
}
