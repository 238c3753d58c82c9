//! Making and editing IMG archives on disk, safely (docs/FORMATS.md §5.5).
//!
//! Every operation writes a new archive beside the old one through [`ArchiveWriter`], copying
//! the untouched entries across a piece at a time, then reads the new archive back and checks
//! every entry (name, length and a 64-bit hash of its bytes) against what it must hold, and
//! only then puts it in place by renaming: the source is never written to. A version 2
//! archive is one rename. A version 1 pair is two: the new `.dir` is first renamed to
//! `NAME.dir.pending` (the commit point), then the `.img` and the `.dir` are put in place;
//! an operation that finds a `.pending` directory beside an archive first completes that
//! commit ([`recover`]). So a kill at any moment leaves the old archive, or the new one once
//! the commit is completed.
//!
//! Memory: the directory's records (names and positions) and one copy buffer; never an
//! entry's bytes whole.

use std::boxed::Box;
use std::fs::{self, File};
use std::io::{self, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::string::String;
use std::vec::Vec;
use std::{format, vec};

pub use super::plan::EditReport;
use super::plan::{self, EditPlan, PlanError};
use super::{
    ArchiveDecoder, ArchiveVersion, ArchiveVisitor, ArchiveWriteError, ArchiveWriter, Choice,
    Entry, SECTOR,
};
use crate::encode::IoSink;
use crate::io::{decode_archive, stream_len, ReadError};
use crate::Visitor;

/// Bytes copied at a time.
const COPY_SIZE: usize = 1 << 16;

/// The files of an archive: the `.img`, and the `.dir` of a version 1 archive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArchivePaths {
    /// The `.img` (the only file of a version 2 archive).
    pub img: PathBuf,
    /// The `.dir` of a version 1 archive.
    pub dir: Option<PathBuf>,
}

impl ArchivePaths {
    /// The archive whose file is at `path`: a `.dir` with the `.img` beside it, a file that
    /// starts with `VER2`, or an `.img` with a `.dir` beside it (same stem, extension in any
    /// case). `None` for any other file; an error if the file cannot be read, or a `.dir` has
    /// no `.img`.
    pub fn find(path: &Path) -> io::Result<Option<ArchivePaths>> {
        let extension = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        if extension.as_deref() == Some("dir") {
            let img = sibling(path, "img")
                .ok_or_else(|| io::Error::other(format!("no .img beside {}", path.display())))?;
            return Ok(Some(ArchivePaths {
                img,
                dir: Some(path.to_path_buf()),
            }));
        }
        let mut magic = [0u8; 4];
        let mut file = File::open(path)?;
        let mut read = 0;
        while read < magic.len() {
            match read_some(&mut file, &mut magic[read..])? {
                0 => break,
                n => read += n,
            }
        }
        let dir = match extension.as_deref() {
            _ if &magic[..read] == b"VER2" => None,
            Some("img") => match sibling(path, "dir") {
                Some(dir) => Some(dir),
                None => return Ok(None),
            },
            _ => return Ok(None),
        };
        Ok(Some(ArchivePaths {
            img: path.to_path_buf(),
            dir,
        }))
    }

    /// The archive's version.
    pub fn version(&self) -> ArchiveVersion {
        if self.dir.is_some() {
            ArchiveVersion::V1
        } else {
            ArchiveVersion::V2
        }
    }
}

/// A file to put into an archive under `name`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewEntry {
    /// The entry's name (1 to 23 bytes, with a `.`).
    pub name: Vec<u8>,
    /// The file holding its bytes.
    pub path: PathBuf,
}

impl NewEntry {
    /// An entry named after the file's name.
    pub fn from_path(path: impl Into<PathBuf>) -> Self {
        let path = path.into();
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned().into_bytes())
            .unwrap_or_default();
        NewEntry { name, path }
    }
}

/// Why an archive could not be made or edited. Nothing was changed on disk.
#[derive(Debug)]
pub enum EditError {
    /// Reading or writing a file failed.
    Io(io::Error),
    /// The existing archive does not decode.
    Read(ReadError),
    /// The new archive cannot hold an entry (its name, its size, ...).
    Write(ArchiveWriteError),
    /// `remove` names an entry the archive does not hold.
    NoSuchEntry(String),
    /// Reading the new archive back did not give what was written (a disk or file system
    /// fault): the new archive was deleted.
    Verify(String),
}

impl core::fmt::Display for EditError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            EditError::Io(error) => write!(f, "{error}"),
            EditError::Read(error) => write!(f, "{error}"),
            EditError::Write(error) => write!(f, "{error}"),
            EditError::NoSuchEntry(name) => write!(f, "no entry named {name}"),
            EditError::Verify(what) => write!(f, "the new archive reads back wrong: {what}"),
        }
    }
}

impl std::error::Error for EditError {}

impl From<io::Error> for EditError {
    fn from(error: io::Error) -> Self {
        EditError::Io(error)
    }
}

impl From<ArchiveWriteError> for EditError {
    fn from(error: ArchiveWriteError) -> Self {
        EditError::Write(error)
    }
}

/// Called with the bytes written so far and the bytes to write in all.
pub type Progress<'a> = &'a mut dyn FnMut(u64, u64);

/// One entry of an old archive's directory.
#[derive(Clone, Debug)]
struct Record {
    name: Vec<u8>,
    offset: u64,
    size: u64,
}

/// Where an entry of the new archive comes from.
#[derive(Clone, Debug)]
enum Source {
    Old(usize),
    File(usize),
}

/// Makes a new archive of `entries` at `paths` (refused if a file is there already).
pub fn create(
    paths: &ArchivePaths,
    entries: &[NewEntry],
    progress: Progress<'_>,
) -> Result<EditReport, EditError> {
    for path in [Some(&paths.img), paths.dir.as_ref()].into_iter().flatten() {
        if path.exists() {
            return Err(EditError::Io(io::Error::new(
                io::ErrorKind::AlreadyExists,
                format!("{} exists", path.display()),
            )));
        }
    }
    let plan = EditPlan::create(&names(entries)).map_err(plan_error(&[]))?;
    commit(
        paths,
        None,
        &[],
        entries,
        &sources(&plan),
        plan.report,
        progress,
    )
}

/// Puts `entries` into the archive: a name already there (ASCII case aside) is replaced in its
/// place, a new one appended after the last entry.
pub fn add(
    paths: &ArchivePaths,
    entries: &[NewEntry],
    progress: Progress<'_>,
) -> Result<EditReport, EditError> {
    recover(paths)?;
    let records = read_directory(paths)?;
    let old: Vec<&[u8]> = records.iter().map(|r| &r.name[..]).collect();
    let plan = EditPlan::add(&old, &names(entries)).map_err(plan_error(&[]))?;
    commit(
        paths,
        Some(paths),
        &records,
        entries,
        &sources(&plan),
        plan.report,
        progress,
    )
}

/// Removes the entries named `names` (ASCII case aside; every entry of such a name).
pub fn remove(
    paths: &ArchivePaths,
    names: &[&[u8]],
    progress: Progress<'_>,
) -> Result<EditReport, EditError> {
    recover(paths)?;
    let records = read_directory(paths)?;
    let old: Vec<&[u8]> = records.iter().map(|r| &r.name[..]).collect();
    let plan = EditPlan::remove(&old, names).map_err(plan_error(names))?;
    commit(
        paths,
        Some(paths),
        &records,
        &[],
        &sources(&plan),
        plan.report,
        progress,
    )
}

/// Writes the archive anew: the entries in their order, packed one after the other, without
/// the holes, junk and unused directory room between them.
pub fn rebuild(paths: &ArchivePaths, progress: Progress<'_>) -> Result<EditReport, EditError> {
    recover(paths)?;
    let records = read_directory(paths)?;
    let plan = EditPlan::rebuild(records.len());
    commit(
        paths,
        Some(paths),
        &records,
        &[],
        &sources(&plan),
        plan.report,
        progress,
    )
}

/// Completes a version 1 commit that a kill interrupted (a `NAME.dir.pending` beside the
/// archive), and deletes the temporary files an interrupted operation left before its commit
/// point. Every operation calls it first.
pub fn recover(paths: &ArchivePaths) -> Result<(), EditError> {
    let img_new = temporary(&paths.img);
    if let Some(dir) = &paths.dir {
        let pending = pending(dir);
        if pending.exists() {
            if img_new.exists() {
                fs::rename(&img_new, &paths.img)?;
            }
            fs::rename(&pending, dir)?;
            sync_parent(dir)?;
            return Ok(());
        }
        remove_if_there(&temporary(dir))?;
    }
    Ok(remove_if_there(&img_new)?)
}

/// The plan's entries in the terms of files: a new entry is one of the files given.
fn sources(plan: &EditPlan) -> Vec<Source> {
    let source = |s: &plan::Source| match *s {
        plan::Source::Old(i) => Source::Old(i),
        plan::Source::New(k) => Source::File(k),
    };
    plan.entries.iter().map(source).collect()
}

fn names(entries: &[NewEntry]) -> Vec<&[u8]> {
    entries.iter().map(|e| &e.name[..]).collect()
}

/// The edit error of a plan error; `names` are those to remove.
fn plan_error<'a>(names: &'a [&[u8]]) -> impl FnOnce(PlanError) -> EditError + 'a {
    move |error| match error {
        PlanError::Name(error) => EditError::Write(error),
        PlanError::NoSuchEntry(i) => EditError::NoSuchEntry(latin1(names[i])),
    }
}

/// The old archive's records, as the archive decoder reads them.
fn read_directory(paths: &ArchivePaths) -> Result<Vec<Record>, EditError> {
    #[derive(Default)]
    struct Collect(Vec<Record>);
    impl Visitor for Collect {}
    impl ArchiveVisitor for Collect {
        fn entry(&mut self, entry: &Entry<'_>) -> Choice {
            self.0.push(Record {
                name: entry.name.to_vec(),
                offset: entry.offset,
                size: entry.size,
            });
            Choice::Skip
        }
    }
    let mut img = File::open(&paths.img)?;
    let img_len = stream_len(&mut img)?;
    let mut dir = match &paths.dir {
        Some(path) => Some(File::open(path)?),
        None => None,
    };
    let mut decoder = match dir.as_mut() {
        Some(dir) => ArchiveDecoder::version1(stream_len(dir)?, img_len),
        None => ArchiveDecoder::new(img_len),
    };
    let mut collect = Collect::default();
    decode_archive(&mut decoder, dir.as_mut(), &mut img, &mut collect).map_err(EditError::Read)?;
    Ok(collect.0)
}

/// Writes the planned archive beside `paths`, checks it, and puts it in place.
fn commit(
    paths: &ArchivePaths,
    old: Option<&ArchivePaths>,
    records: &[Record],
    files: &[NewEntry],
    plan: &[Source],
    mut report: EditReport,
    progress: Progress<'_>,
) -> Result<EditReport, EditError> {
    let img_new = temporary(&paths.img);
    let dir_new = paths.dir.as_deref().map(temporary);
    let result = write_planned(paths, old, records, files, plan, progress).and_then(|expected| {
        let got = read_back(&img_new, dir_new.as_deref())?;
        if got != expected {
            let at = got.iter().zip(&expected).position(|(a, b)| a != b);
            return Err(EditError::Verify(match at {
                Some(i) => format!("entry {i}"),
                None => format!("{} entries, {} expected", got.len(), expected.len()),
            }));
        }
        Ok(expected)
    });
    let expected = match result {
        Ok(expected) => expected,
        Err(error) => {
            let _ = remove_if_there(&img_new);
            if let Some(dir_new) = &dir_new {
                let _ = remove_if_there(dir_new);
            }
            return Err(error);
        }
    };
    match (&paths.dir, &dir_new) {
        (Some(dir), Some(dir_new)) => {
            // The commit point: from here on, `recover` completes the operation.
            fs::rename(dir_new, pending(dir))?;
            sync_parent(dir)?;
            fs::rename(&img_new, &paths.img)?;
            fs::rename(pending(dir), dir)?;
        }
        _ => fs::rename(&img_new, &paths.img)?,
    }
    sync_parent(&paths.img)?;
    report.entries = expected.len() as u32;
    report.img_len = fs::metadata(&paths.img)?.len();
    Ok(report)
}

/// What each entry of a written archive holds: its name, length and hash.
type Digest = (Vec<u8>, u64, u64);

/// Writes the new archive's temporary files; returns each entry's digest.
fn write_planned(
    paths: &ArchivePaths,
    old: Option<&ArchivePaths>,
    records: &[Record],
    files: &[NewEntry],
    plan: &[Source],
    progress: Progress<'_>,
) -> Result<Vec<Digest>, EditError> {
    let mut old_img = match old {
        Some(old) => Some(File::open(&old.img)?),
        None => None,
    };
    let total: u64 = plan
        .iter()
        .map(|source| match source {
            Source::Old(i) => Ok(records[*i].size),
            Source::File(k) => fs::metadata(&files[*k].path).map(|m| m.len()),
        })
        .sum::<io::Result<u64>>()?;
    let mut writer = ArchiveWriter::new(paths.version(), plan.len() as u32);
    let img = BufWriter::with_capacity(COPY_SIZE, create_new(&temporary(&paths.img))?);
    let mut img = IoSink::new(img)?;
    let mut dir = match &paths.dir {
        Some(dir) => Some(IoSink::new(BufWriter::new(create_new(&temporary(dir))?))?),
        None => None,
    };
    let mut buffer = vec![0u8; COPY_SIZE];
    let mut digests = Vec::with_capacity(plan.len());
    let mut done = 0;
    for source in plan {
        let (name, mut reader, len): (&[u8], Box<dyn Read>, u64) = match source {
            Source::Old(i) => {
                let record = &records[*i];
                let file = old_img.as_mut().expect("an old archive");
                file.seek(SeekFrom::Start(record.offset))?;
                (
                    &record.name,
                    Box::new(file.try_clone()?.take(record.size)),
                    record.size,
                )
            }
            Source::File(k) => {
                let file = File::open(&files[*k].path)?;
                let len = file.metadata()?.len();
                (&files[*k].name, Box::new(file), len)
            }
        };
        let mut hash = Hash::new();
        let mut copied = 0;
        {
            let mut out = Outputs {
                img: &mut img,
                dir: dir.as_mut(),
            };
            match source {
                Source::Old(_) => writer.begin_existing_entry(&mut out, name)?,
                Source::File(_) => writer.begin_entry(&mut out, name)?,
            }
            loop {
                let n = read_some(&mut reader, &mut buffer)?;
                if n == 0 {
                    break;
                }
                hash.update(&buffer[..n]);
                writer.write(&mut out, &buffer[..n])?;
                copied += n as u64;
                done += n as u64;
                progress(done, total);
            }
            writer.end_entry(&mut out)?;
        }
        if copied != len {
            return Err(EditError::Io(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                format!("{} changed while it was copied", latin1(name)),
            )));
        }
        hash.update_zeros(copied.next_multiple_of(SECTOR) - copied);
        digests.push((
            name.to_vec(),
            copied.next_multiple_of(SECTOR),
            hash.finish(),
        ));
    }
    let mut out = Outputs {
        img: &mut img,
        dir: dir.as_mut(),
    };
    writer.finish(&mut out)?;
    finish_file(img)?;
    if let Some(dir) = dir {
        finish_file(dir)?;
    }
    Ok(digests)
}

/// The sinks of the files being written.
struct Outputs<'a, W: Write + Seek> {
    img: &'a mut IoSink<W>,
    dir: Option<&'a mut IoSink<W>>,
}

impl<W: Write + Seek> super::ArchiveSink for Outputs<'_, W> {
    fn img(&mut self) -> &mut dyn crate::encode::Sink {
        self.img
    }
    fn dir(&mut self) -> Option<&mut dyn crate::encode::Sink> {
        match &mut self.dir {
            Some(dir) => Some(*dir),
            None => None,
        }
    }
}

/// Flushes a written file to the disk (an error of the sink's included).
fn finish_file(sink: IoSink<BufWriter<File>>) -> Result<(), EditError> {
    if let Some(error) = sink.error() {
        return Err(EditError::Io(io::Error::new(
            error.kind(),
            std::string::ToString::to_string(error),
        )));
    }
    let file = sink.into_inner().into_inner().map_err(|e| e.into_error())?;
    file.sync_all()?;
    Ok(())
}

/// Each entry's digest, read back through the archive decoder.
fn read_back(img: &Path, dir: Option<&Path>) -> Result<Vec<Digest>, EditError> {
    let paths = ArchivePaths {
        img: img.to_path_buf(),
        dir: dir.map(Path::to_path_buf),
    };
    let records = read_directory(&paths)?;
    let mut file = File::open(img)?;
    let mut buffer = vec![0u8; COPY_SIZE];
    let mut digests = Vec::with_capacity(records.len());
    for record in records {
        file.seek(SeekFrom::Start(record.offset))?;
        let mut reader = (&mut file).take(record.size);
        let mut hash = Hash::new();
        loop {
            let n = read_some(&mut reader, &mut buffer)?;
            if n == 0 {
                break;
            }
            hash.update(&buffer[..n]);
        }
        digests.push((record.name, record.size, hash.finish()));
    }
    Ok(digests)
}

/// A 64-bit hash of a byte stream, eight bytes at a time (the stream's cuts do not matter):
/// enough to tell a faulty copy from a good one, at memory speed.
struct Hash {
    state: u64,
    tail: [u8; 8],
    tail_len: usize,
}

impl Hash {
    const MULTIPLIER: u64 = 0x9E37_79B9_7F4A_7C15;

    fn new() -> Self {
        Hash {
            state: 0xcbf2_9ce4_8422_2325,
            tail: [0; 8],
            tail_len: 0,
        }
    }

    fn word(&mut self, word: [u8; 8]) {
        let mixed = (self.state ^ u64::from_le_bytes(word)).wrapping_mul(Self::MULTIPLIER);
        self.state = mixed ^ (mixed >> 29);
    }

    fn update(&mut self, mut bytes: &[u8]) {
        if self.tail_len > 0 {
            let take = (8 - self.tail_len).min(bytes.len());
            self.tail[self.tail_len..self.tail_len + take].copy_from_slice(&bytes[..take]);
            self.tail_len += take;
            bytes = &bytes[take..];
            if self.tail_len < 8 {
                return;
            }
            self.word(self.tail);
            self.tail_len = 0;
        }
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            self.word(word.try_into().expect("8 bytes"));
        }
        let rest = words.remainder();
        self.tail[..rest.len()].copy_from_slice(rest);
        self.tail_len = rest.len();
    }

    fn update_zeros(&mut self, n: u64) {
        const ZEROS: [u8; 256] = [0; 256];
        let mut left = n;
        while left > 0 {
            let take = left.min(ZEROS.len() as u64) as usize;
            self.update(&ZEROS[..take]);
            left -= take as u64;
        }
    }

    /// The hash, the length of a last partial word folded in.
    fn finish(&self) -> u64 {
        let mut last = self.tail;
        last[self.tail_len..].fill(0);
        let mut hash = Hash {
            state: self.state ^ self.tail_len as u64,
            ..Hash::new()
        };
        hash.word(last);
        hash.state
    }
}

fn read_some(reader: &mut impl Read, buffer: &mut [u8]) -> io::Result<usize> {
    loop {
        match reader.read(buffer) {
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            result => return result,
        }
    }
}

/// The file beside `path` with the same stem and `extension` in any case (the first in byte
/// order if several spellings are there, so every run finds the same).
fn sibling(path: &Path, extension: &str) -> Option<PathBuf> {
    let stem = path.file_stem()?;
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut found: Vec<PathBuf> = fs::read_dir(parent)
        .ok()?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.file_stem() == Some(stem)
                && p.extension()
                    .and_then(|e| e.to_str())
                    .is_some_and(|e| e.eq_ignore_ascii_case(extension))
                && p.is_file()
        })
        .collect();
    found.sort();
    found.into_iter().next()
}

/// `NAME.gtastream-new` beside `path`: where the new file is written.
fn temporary(path: &Path) -> PathBuf {
    with_suffix(path, ".gtastream-new")
}

/// `NAME.pending` beside a version 1 `.dir`: the new directory once the commit began.
fn pending(dir: &Path) -> PathBuf {
    with_suffix(dir, ".pending")
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(suffix);
    path.with_file_name(name)
}

fn create_new(path: &Path) -> io::Result<File> {
    remove_if_there(path)?;
    File::options()
        .read(true)
        .write(true)
        .create_new(true)
        .open(path)
}

fn remove_if_there(path: &Path) -> io::Result<()> {
    match fs::remove_file(path) {
        Err(error) if error.kind() != io::ErrorKind::NotFound => Err(error),
        _ => Ok(()),
    }
}

/// Makes the renames in `path`'s folder durable (where the system allows opening a folder).
fn sync_parent(path: &Path) -> io::Result<()> {
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    match File::open(parent) {
        Ok(dir) => dir.sync_all().or(Ok(())),
        Err(_) => Ok(()),
    }
}

fn latin1(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| char::from(b)).collect()
}
