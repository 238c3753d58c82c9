//! `gtastream extract`: copies entries out of an archive, as the bytes the archive holds for
//! them (whole sectors, cut at the end of the file), each under its own name.

use std::collections::HashSet;
use std::fs::{self, File};
use std::io::{self, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use gtastream::archive::{ArchiveVisitor, ArchiveWarning, Choice, Entry};
use gtastream::Flow;

use crate::names::latin1;
use crate::target::{same_name, Archive};
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

/// Extracts the entries (all when `wanted` is empty) into `dir`, printing each path written.
pub fn run(archive: &Archive, wanted: &[String], dir: &Path) -> Result<(), String> {
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
    fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut img = File::open(&archive.img).map_err(|e| format!("{}: {e}", archive.shown))?;
    let bar = progress(picker.picked.len() as u64);
    let stdout = io::stdout();
    for (index, (name, offset, size)) in picker.picked.iter().enumerate() {
        bar.inc(1);
        let path: PathBuf = dir.join(file_name(name, index));
        match copy(&mut img, *offset, *size, &path) {
            Ok(()) => {
                let _ = writeln!(stdout.lock(), "{}", path.display());
            }
            Err(error) => failed.push(format!("{}: {error}", path.display())),
        }
    }
    bar.finish_and_clear();
    if failed.is_empty() {
        Ok(())
    } else {
        Err(failed.join("\ngtastream: "))
    }
}

fn copy(img: &mut File, offset: u64, size: u64, path: &Path) -> io::Result<()> {
    img.seek(SeekFrom::Start(offset))?;
    let mut out = io::BufWriter::new(File::create(path)?);
    let copied = io::copy(&mut io::Read::take(&mut *img, size), &mut out)?;
    out.flush()?;
    if copied < size {
        return Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            "the archive is shorter than its directory says",
        ));
    }
    Ok(())
}
