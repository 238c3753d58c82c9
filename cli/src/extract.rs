//! `gtastream extract`: copies entries out of an archive, as the bytes the archive holds for
//! them (whole sectors, cut at the end of the file), each under its own name (written whole
//! or not at all, and never over an existing file without `--force`), or one entry to
//! standard output.

use std::collections::HashSet;
use std::fs;
use std::io::{self, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use gtastream::archive::{ArchiveVisitor, ArchiveWarning, Choice, Entry};
use gtastream::Flow;

use crate::names::latin1;
use crate::output::{Destination, Pending};
use crate::target::{same_name, Archive, ImgReader};
use crate::walk::progress;

/// The entries to copy: (name, offset, size).
struct Picker<'a> {
    wanted: &'a [String],
    found: Vec<bool>,
    picked: Vec<(Vec<u8>, u64, u64)>,
    /// Names already taken, lower case: a later entry of the same name is skipped.
    taken: HashSet<String>,
    notes: Vec<String>,
}

impl gtastream::Visitor for Picker<'_> {}

impl ArchiveVisitor for Picker<'_> {
    fn entry(&mut self, entry: &Entry<'_>) -> Choice {
        let wanted = if self.wanted.is_empty() {
            true
        } else {
            match self.wanted.iter().position(|w| same_name(entry.name, w)) {
                Some(i) => !std::mem::replace(&mut self.found[i], true),
                None => false,
            }
        };
        if wanted {
            let key = latin1(entry.name).to_lowercase();
            if self.taken.insert(key) {
                self.picked
                    .push((entry.name.to_vec(), entry.offset, entry.size));
            } else {
                self.notes.push(format!(
                    "entry {} ({:?}) has the name of an earlier entry: skipped",
                    entry.index,
                    latin1(entry.name)
                ));
            }
        }
        Choice::Skip
    }

    fn archive_warning(&mut self, warning: ArchiveWarning) -> Flow {
        self.notes.push(format!(
            "warning: {warning} ({}, entry {})",
            warning.kind.name(),
            warning.index
        ));
        Flow::Continue
    }
}

/// A file name for an entry: path separators and other characters no file system takes are
/// replaced, so an entry never lands outside the output folder.
fn file_name(name: &[u8], index: usize) -> String {
    let text: String = latin1(name)
        .chars()
        .map(|c| match c {
            '/' | '\\' | ':' | '*' | '?' | '"' | '<' | '>' | '|' => '_',
            c if c.is_control() => '_',
            c => c,
        })
        .collect();
    match text.trim() {
        "" | "." | ".." => format!("entry{index}"),
        _ => text,
    }
}

/// Extracts the entries (all when `wanted` is empty) into the folder `output`, printing each
/// path written; or, when `output` is `-`, the one entry named to standard output. An existing
/// file is replaced only with `force`: otherwise nothing is written.
pub fn run(archive: &Archive, wanted: &[String], output: &Path, force: bool) -> Result<(), String> {
    let to_stdout = matches!(Destination::of(output), Destination::Stdout);
    if to_stdout && wanted.len() != 1 {
        return Err(format!(
            "-o - writes one entry to standard output: name exactly one (got {})",
            wanted.len()
        ));
    }
    let mut picker = Picker {
        wanted,
        found: vec![false; wanted.len()],
        picked: Vec::new(),
        taken: HashSet::new(),
        notes: Vec::new(),
    };
    let listed = archive.decode(&mut picker);
    for note in &picker.notes {
        eprintln!("gtastream: {}: {note}", archive.shown);
    }
    listed.map_err(|e| format!("{}: {e}", archive.shown))?;
    let mut failed = Vec::new();
    for (name, found) in wanted.iter().zip(&picker.found) {
        if !found {
            failed.push(format!("{}: no entry named {name:?}", archive.shown));
        }
    }
    let mut img = archive
        .img
        .open()
        .map_err(|e| format!("{}: {e}", archive.shown))?;
    if to_stdout {
        if let Some((_, offset, size)) = picker.picked.first() {
            let mut bytes = Vec::new();
            copy(&mut img, *offset, *size, &mut bytes).map_err(|e| format!("-: {e}"))?;
            let mut stdout = io::stdout().lock();
            stdout
                .write_all(&bytes)
                .and_then(|()| stdout.flush())
                .map_err(crate::write_error)?;
        }
        return finish(failed);
    }
    let paths: Vec<PathBuf> = (picker.picked.iter().enumerate())
        .map(|(index, (name, ..))| output.join(file_name(name, index)))
        .collect();
    if !force {
        let existing: Vec<String> = (paths.iter().filter(|p| p.exists()))
            .map(|p| {
                format!(
                    "{}: exists (--force replaces it); nothing extracted",
                    p.display()
                )
            })
            .collect();
        if !existing.is_empty() {
            failed.extend(existing);
            return finish(failed);
        }
    }
    fs::create_dir_all(output).map_err(|e| format!("{}: {e}", output.display()))?;
    let bar = progress(picker.picked.len() as u64);
    let stdout = io::stdout();
    for ((_, offset, size), path) in picker.picked.iter().zip(&paths) {
        bar.inc(1);
        match write(&mut img, *offset, *size, path) {
            Ok(()) => {
                let _ = writeln!(stdout.lock(), "{}", path.display());
            }
            Err(error) => failed.push(error),
        }
    }
    bar.finish_and_clear();
    finish(failed)
}

fn finish(failed: Vec<String>) -> Result<(), String> {
    if failed.is_empty() {
        Ok(())
    } else {
        Err(failed.join("\ngtastream: "))
    }
}

/// Writes the entry's bytes to `path`, replaced only once complete.
fn write(img: &mut ImgReader, offset: u64, size: u64, path: &Path) -> Result<(), String> {
    let (pending, file) = Pending::create(path)?;
    let at_path = |e: io::Error| format!("{}: {e}", path.display());
    let mut out = io::BufWriter::new(file);
    copy(img, offset, size, &mut out).map_err(at_path)?;
    let file = out.into_inner().map_err(|e| at_path(e.into_error()))?;
    pending.commit(file)
}

fn copy(img: &mut ImgReader, offset: u64, size: u64, out: &mut impl Write) -> io::Result<()> {
    img.seek(SeekFrom::Start(offset))?;
    let copied = io::copy(&mut io::Read::take(&mut *img, size), out)?;
    if copied < size {
        return Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            "the archive is shorter than its directory says",
        ));
    }
    Ok(())
}
