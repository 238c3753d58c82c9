//! Making and editing IMG archives on disk, safely (docs/FORMATS.md §5.5).
//!
//! Every operation writes a new archive beside the old one through [`ArchiveWriter`], the
//! entries' bytes copied from file to file by the system, then reads the new archive back and
//! checks every entry (its name, its length and its bytes, compared with those of its source)
//! while the new files are synced, and only when both have ended puts it in place by renaming:
//! the source is never written to. A version 2 archive is one rename. A version 1 pair is two:
//! the new `.dir` is first renamed to `NAME.dir.pending` (the commit point), then the `.img`
//! and the `.dir` are put in place. While `NAME.dir.pending` is there, the two files may not
//! belong together: readers refuse the archive ([`ArchivePaths::check_readable`]), and
//! [`recover`], which every operation calls first, completes the change. So whatever the
//! moment of a kill, a reader sees the old archive, the new one, or a refusal that names the
//! unfinished change.
//!
//! The caller follows each step ([`Step`]) and may stop the operation until the commit point:
//! it then removes its temporary files ([`EditError::Interrupted`]).
//!
//! Memory: the directory's records (names and positions) and two 64 KiB buffers; never an
//! entry's bytes whole.

use core::ops::ControlFlow;
use std::fs::{self, File};
use std::io::{self, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::string::{String, ToString};
use std::vec::Vec;
use std::{format, vec};

pub use super::plan::EditReport;
use super::plan::{EditPlan, PlanError, Source};
use super::{
    ArchiveDecoder, ArchiveVersion, ArchiveVisitor, ArchiveWriteError, ArchiveWriter, Choice,
    Entry, SECTOR,
};
use crate::encode::SinkError;
use crate::io::{decode_archive, stream_len, ReadError};
use crate::Visitor;

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
    /// case). So is an `.img` that an interrupted `create` left unfinished (with only its
    /// `NAME.dir.pending`, or not yet there beside its temporary files), so that it is refused
    /// or recovered, not taken for another file. `None` for any other file; an error if the
    /// file cannot be read, or a `.dir` has no `.img`.
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
        // The directory `create` makes for a version 1 archive at `path`, while only its
        // pending directory (or its temporary file) is there.
        let created_dir = |left: fn(&Path) -> PathBuf| {
            let dir = path.with_extension("dir");
            left(&dir).exists().then_some(dir)
        };
        let mut magic = [0u8; 4];
        let mut file = match File::open(path) {
            Ok(file) => file,
            // What an interrupted `create` left, that `recover` deals with.
            Err(error)
                if error.kind() == io::ErrorKind::NotFound
                    && extension.as_deref() == Some("img") =>
            {
                let dir = created_dir(pending).or_else(|| created_dir(temporary));
                return if dir.is_some() || temporary(path).exists() {
                    Ok(Some(ArchivePaths {
                        img: path.to_path_buf(),
                        dir,
                    }))
                } else {
                    Err(error)
                };
            }
            Err(error) => return Err(error),
        };
        let read = read_full(&mut file, &mut magic)?;
        let dir = match extension.as_deref() {
            _ if &magic[..read] == b"VER2" => None,
            Some("img") => match sibling(path, "dir").or_else(|| created_dir(pending)) {
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

    /// What an interrupted edit left beside the archive.
    pub fn leftovers(&self) -> Leftovers {
        Leftovers {
            pending: self.dir.as_deref().map(pending).filter(|p| p.exists()),
            temporary: [Some(&self.img), self.dir.as_ref()]
                .into_iter()
                .flatten()
                .map(|path| temporary(path))
                .filter(|path| path.exists())
                .collect(),
        }
    }

    /// Whether the archive may be read as its files stand. Refused
    /// ([`EditError::Unfinished`]) while a version 1 change is past its commit point but not
    /// yet complete: its `.img` may already be the new one and its `.dir` still the old one.
    /// Otherwise the temporary files an interrupted edit left, which a reader should name:
    /// the archive is as it was before that edit.
    pub fn check_readable(&self) -> Result<Vec<PathBuf>, EditError> {
        let leftovers = self.leftovers();
        match leftovers.pending {
            Some(pending) => Err(EditError::Unfinished(pending)),
            None => Ok(leftovers.temporary),
        }
    }
}

/// What an interrupted edit left beside an archive (docs/FORMATS.md §5.5).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Leftovers {
    /// `NAME.dir.pending`: the new directory of a version 1 change interrupted after its
    /// commit point. [`recover`] completes the change.
    pub pending: Option<PathBuf>,
    /// `NAME.gtastream-new`: the new files of an edit interrupted before its commit point
    /// (then the archive is as before it; [`recover`] removes them), or, beside a pending
    /// directory, the new `.img` not yet put in place.
    pub temporary: Vec<PathBuf>,
}

impl Leftovers {
    /// Whether nothing was left.
    pub fn is_empty(&self) -> bool {
        self.pending.is_none() && self.temporary.is_empty()
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

/// Why an archive could not be made or edited. Nothing was changed on disk, except by
/// [`recover`], which an operation calls first.
#[derive(Debug)]
pub enum EditError {
    /// Reading or writing a file failed.
    Io(io::Error),
    /// A file to put in cannot be read, or is a folder (checked before anything is written).
    Source(PathBuf, io::Error),
    /// The existing archive does not decode.
    Read(ReadError),
    /// The new archive cannot hold an entry (its name, its size, ...).
    Write(ArchiveWriteError),
    /// `remove` names an entry the archive does not hold.
    NoSuchEntry(String),
    /// Reading the new archive back did not give what was written (a disk or file system
    /// fault): the new archive was deleted.
    Verify(String),
    /// The caller stopped the operation before its commit point: these temporary files were
    /// removed, the archive is as it was.
    Interrupted(Vec<PathBuf>),
    /// A version 1 change was interrupted after its commit point (this `NAME.dir.pending` is
    /// its new directory): the archive's two files may not belong together until [`recover`]
    /// completes it.
    Unfinished(PathBuf),
}

impl core::fmt::Display for EditError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            EditError::Io(error) => write!(f, "{error}"),
            EditError::Source(path, error) => write!(f, "{}: {error}", path.display()),
            EditError::Read(error) => write!(f, "{error}"),
            EditError::Write(error) => write!(f, "{error}"),
            EditError::NoSuchEntry(name) => write!(f, "no entry named {name}"),
            EditError::Verify(what) => write!(f, "the new archive reads back wrong: {what}"),
            EditError::Interrupted(removed) => {
                write!(f, "interrupted; the archive is as it was")?;
                if !removed.is_empty() {
                    write!(f, " (removed {})", list(removed))?;
                }
                Ok(())
            }
            EditError::Unfinished(pending) => write!(
                f,
                "an interrupted change is unfinished: its new directory is {} (recovering the \
                 archive completes it)",
                pending.display()
            ),
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

/// How far an operation has come, told to its caller at each step ([`Progress`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Step<'a> {
    /// Writing the new archive beside the old one (the first step: its files were made).
    Write(Count),
    /// Reading the new archive back and comparing it with its sources.
    Check(Count),
    /// The new archive is checked and on disk: the last step before the commit point.
    Synced,
    /// Putting the new archive in place (the commit), a step at a time.
    Commit(FileStep<'a>),
    /// Dealing with what an interrupted operation left ([`recover`]): completing its commit,
    /// or removing its temporary files.
    Recover(FileStep<'a>),
}

/// A change to the files and folders of an archive, once made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FileStep<'a> {
    /// `from` was renamed to `to`, replacing it.
    Renamed {
        /// The file renamed.
        from: &'a Path,
        /// Its new name.
        to: &'a Path,
    },
    /// A temporary file was removed.
    Removed(&'a Path),
    /// The folder was synced: the renames before are on disk.
    Synced(&'a Path),
}

/// Entries and bytes done so far, of all.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Count {
    /// Entries done.
    pub entries: u32,
    /// Entries in all.
    pub total_entries: u32,
    /// Bytes of the entries done (for `Check`, whole sectors).
    pub bytes: u64,
    /// Bytes in all.
    pub total_bytes: u64,
}

/// Called at each step of an operation. `Break` before the commit point (at a `Write`,
/// `Check` or `Synced` step) stops it: its temporary files are removed and it returns
/// [`EditError::Interrupted`]. From the commit point on, and while recovering, the operation
/// goes on to the end whatever the answer, so that no change is left half made.
pub type Progress<'a> = &'a mut dyn FnMut(Step<'_>) -> ControlFlow<()>;

/// One entry of an old archive's directory.
#[derive(Clone, Debug)]
struct Record {
    name: Vec<u8>,
    offset: u64,
    size: u64,
}

/// Makes a new archive of `entries` at `paths` (refused if a file is there already, once
/// what an interrupted operation left there was recovered).
pub fn create(
    paths: &ArchivePaths,
    entries: &[NewEntry],
    progress: Progress<'_>,
) -> Result<EditReport, EditError> {
    recover(paths, progress)?;
    for path in [Some(&paths.img), paths.dir.as_ref()].into_iter().flatten() {
        if path.exists() {
            return Err(EditError::Io(io::Error::new(
                io::ErrorKind::AlreadyExists,
                format!("{} exists", path.display()),
            )));
        }
    }
    check_sources(entries)?;
    let plan = EditPlan::create(&names(entries)).map_err(plan_error(&[]))?;
    commit(paths, None, &[], entries, plan, progress)
}

/// Puts `entries` into the archive: a name already there (ASCII case aside) is replaced in its
/// place, a new one appended after the last entry.
pub fn add(
    paths: &ArchivePaths,
    entries: &[NewEntry],
    progress: Progress<'_>,
) -> Result<EditReport, EditError> {
    recover(paths, progress)?;
    check_sources(entries)?;
    let records = read_directory(paths)?;
    let old: Vec<&[u8]> = records.iter().map(|r| &r.name[..]).collect();
    let plan = EditPlan::add(&old, &names(entries)).map_err(plan_error(&[]))?;
    commit(paths, Some(paths), &records, entries, plan, progress)
}

/// Removes the entries named `names` (ASCII case aside; every entry of such a name).
pub fn remove(
    paths: &ArchivePaths,
    names: &[&[u8]],
    progress: Progress<'_>,
) -> Result<EditReport, EditError> {
    recover(paths, progress)?;
    let records = read_directory(paths)?;
    let old: Vec<&[u8]> = records.iter().map(|r| &r.name[..]).collect();
    let plan = EditPlan::remove(&old, names).map_err(plan_error(names))?;
    commit(paths, Some(paths), &records, &[], plan, progress)
}

/// Writes the archive anew: the entries in their order, packed one after the other, without
/// the holes, junk and unused directory room between them.
pub fn rebuild(paths: &ArchivePaths, progress: Progress<'_>) -> Result<EditReport, EditError> {
    recover(paths, progress)?;
    let records = read_directory(paths)?;
    let plan = EditPlan::rebuild(records.len());
    commit(paths, Some(paths), &records, &[], plan, progress)
}

/// Deals with what an interrupted operation left beside the archive, and returns it: completes
/// a version 1 change interrupted after its commit point (`NAME.dir.pending`: the new `.img`
/// is put in place if it is not yet, then the new `.dir`), or removes the temporary files of
/// one interrupted before it (the archive is as before that operation). Each step is told to
/// `progress` ([`Step::Recover`]); nothing stops it. Every operation calls it first.
pub fn recover(paths: &ArchivePaths, progress: Progress<'_>) -> Result<Leftovers, EditError> {
    let leftovers = paths.leftovers();
    let img_new = temporary(&paths.img);
    match (&leftovers.pending, &paths.dir) {
        (Some(pending), Some(dir)) => {
            if img_new.exists() {
                rename(&img_new, &paths.img, progress, Phase::Recover)?;
            }
            rename(pending, dir, progress, Phase::Recover)?;
        }
        _ => {
            for path in &leftovers.temporary {
                remove_if_there(path)?;
                let _ = progress(Step::Recover(FileStep::Removed(path)));
            }
        }
    }
    Ok(leftovers)
}

/// Renames `from` to `to` and syncs their folder, so that a later rename never reaches the
/// disk before this one; tells `progress` of both steps.
fn rename(from: &Path, to: &Path, progress: Progress<'_>, phase: Phase) -> io::Result<()> {
    fs::rename(from, to)?;
    let _ = progress(phase.step(FileStep::Renamed { from, to }));
    let folder = sync_parent(to)?;
    let _ = progress(phase.step(FileStep::Synced(&folder)));
    Ok(())
}

/// Whether files are changed to commit an operation or to recover from an interrupted one.
#[derive(Clone, Copy)]
enum Phase {
    Commit,
    Recover,
}

impl Phase {
    fn step(self, file_step: FileStep<'_>) -> Step<'_> {
        match self {
            Phase::Commit => Step::Commit(file_step),
            Phase::Recover => Step::Recover(file_step),
        }
    }
}

/// Each file to put in is a file that can be read: an error naming the first that is not
/// (missing, unreadable, a folder), before anything is written.
fn check_sources(entries: &[NewEntry]) -> Result<(), EditError> {
    for entry in entries {
        let error = match fs::metadata(&entry.path) {
            Ok(meta) if meta.is_dir() => io::Error::new(
                io::ErrorKind::IsADirectory,
                "a folder, not a file (name the files in it)",
            ),
            Ok(_) => match File::open(&entry.path) {
                Ok(_) => continue,
                Err(error) => error,
            },
            Err(error) => error,
        };
        return Err(EditError::Source(entry.path.clone(), error));
    }
    Ok(())
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

/// Tells `progress` of a step before the commit point: `Break` is the error that makes the
/// operation remove its temporary files.
fn stoppable(progress: Progress<'_>, step: Step<'_>) -> Result<(), EditError> {
    match progress(step) {
        ControlFlow::Continue(()) => Ok(()),
        ControlFlow::Break(()) => Err(EditError::Interrupted(Vec::new())),
    }
}

/// Writes the planned archive beside `paths`, checks it, and puts it in place.
fn commit(
    paths: &ArchivePaths,
    old: Option<&ArchivePaths>,
    records: &[Record],
    files: &[NewEntry],
    plan: EditPlan,
    progress: Progress<'_>,
) -> Result<EditReport, EditError> {
    let EditPlan {
        entries,
        mut report,
    } = plan;
    let img_new = temporary(&paths.img);
    let dir_new = paths.dir.as_deref().map(temporary);
    let result =
        write_planned(paths, old, records, files, &entries, progress).and_then(|written| {
            // The disk takes the new files while they are read back: from the page cache, as
            // they would be read after the sync, which still ends before any rename. The sync
            // runs on a thread of its own, which a stop does not wait for.
            let Written { img, dir, lens } = written;
            let syncing = std::thread::spawn(move || {
                img.sync_all()?;
                dir.as_ref().map_or(Ok(()), File::sync_all)
            });
            read_back(
                &img_new,
                dir_new.as_deref(),
                old,
                records,
                files,
                &entries,
                &lens,
                progress,
            )?;
            syncing
                .join()
                .unwrap_or_else(|_| Err(io::Error::other("syncing the new archive failed")))?;
            stoppable(progress, Step::Synced)
        });
    if let Err(mut error) = result {
        let mut removed = Vec::new();
        for path in [Some(&img_new), dir_new.as_ref()].into_iter().flatten() {
            if path.exists() && remove_if_there(path).is_ok() {
                removed.push(path.clone());
            }
        }
        if let EditError::Interrupted(list) = &mut error {
            *list = removed;
        }
        return Err(error);
    }
    // The commit: from here on the operation goes to its end, and so does `recover`.
    match (&paths.dir, &dir_new) {
        (Some(dir), Some(dir_new)) => {
            let pending = pending(dir);
            // The commit point: once this rename is on disk, the change is decided.
            rename(dir_new, &pending, progress, Phase::Commit)?;
            rename(&img_new, &paths.img, progress, Phase::Commit)?;
            rename(&pending, dir, progress, Phase::Commit)?;
        }
        _ => rename(&img_new, &paths.img, progress, Phase::Commit)?,
    }
    report.img_len = fs::metadata(&paths.img)?.len();
    Ok(report)
}

/// The new archive's files, written but not yet synced, and the bytes each entry took from
/// its source (zeros follow, to its last sector).
struct Written {
    img: File,
    dir: Option<File>,
    lens: Vec<u64>,
}

/// Writes the new archive's temporary files. The entries' bytes go from file to file by
/// the system (`copy_file_range` on Linux), never through this process.
fn write_planned(
    paths: &ArchivePaths,
    old: Option<&ArchivePaths>,
    records: &[Record],
    files: &[NewEntry],
    plan: &[Source],
    progress: Progress<'_>,
) -> Result<Written, EditError> {
    let old_img = match old {
        Some(old) => Some(File::open(&old.img)?),
        None => None,
    };
    let old_len = match &old_img {
        Some(file) => file.metadata()?.len(),
        None => 0,
    };
    let total_bytes: u64 = plan
        .iter()
        .map(|source| match source {
            Source::Old(i) => Ok(kept_len(&records[*i], old_len)),
            Source::New(k) => source_len(&files[*k].path),
        })
        .sum::<Result<u64, EditError>>()?;
    let mut count = Count {
        total_entries: plan.len() as u32,
        total_bytes,
        ..Count::default()
    };
    let mut writer = ArchiveWriter::new(paths.version(), plan.len() as u32);
    let mut img = FileSink::new(create_new(&temporary(&paths.img))?);
    let mut dir = match &paths.dir {
        Some(dir) => Some(FileSink::new(create_new(&temporary(dir))?)),
        None => None,
    };
    stoppable(progress, Step::Write(count))?;
    let mut lens = Vec::with_capacity(plan.len());
    for source in plan {
        let opened;
        let (name, file, start, len): (&[u8], &File, u64, u64) = match *source {
            Source::Old(i) => {
                let record = &records[i];
                let len = kept_len(record, old_len);
                let file = old_img.as_ref().expect("an old archive");
                (&record.name, file, record.offset, len)
            }
            Source::New(k) => {
                let source = |e| EditError::Source(files[k].path.clone(), e);
                opened = File::open(&files[k].path).map_err(source)?;
                let len = opened.metadata().map_err(source)?.len();
                (&files[k].name, &opened, 0, len)
            }
        };
        let changed = || {
            EditError::Io(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                format!("{} changed while it was copied", latin1(name)),
            ))
        };
        let mut out = Outputs {
            img: &mut img,
            dir: dir.as_mut(),
        };
        match source {
            Source::Old(_) => writer.begin_existing_entry(&mut out, name)?,
            Source::New(_) => writer.begin_entry(&mut out, name)?,
        }
        let mut copied = 0;
        while copied < len {
            // In pieces, for the progress.
            let piece = (len - copied).min(PROGRESS_STEP);
            writer.write_outside(piece)?;
            if out.img.copy_from(file, start + copied, piece)? != piece {
                return Err(changed());
            }
            copied += piece;
            count.bytes += piece;
            if copied < len {
                stoppable(progress, Step::Write(count))?;
            }
        }
        if let Source::New(_) = source {
            if read_some(&mut &*file, &mut [0])? != 0 {
                return Err(changed());
            }
        }
        writer.end_entry(&mut out)?;
        lens.push(len);
        count.entries += 1;
        stoppable(progress, Step::Write(count))?;
    }
    let mut out = Outputs {
        img: &mut img,
        dir: dir.as_mut(),
    };
    writer.finish(&mut out)?;
    Ok(Written {
        img: img.finish()?,
        dir: dir.map(FileSink::finish).transpose()?,
        lens,
    })
}

/// The length of a file to put in, the error naming it.
fn source_len(path: &Path) -> Result<u64, EditError> {
    fs::metadata(path)
        .map(|m| m.len())
        .map_err(|e| EditError::Source(path.to_path_buf(), e))
}

/// The bytes an old entry keeps: an entry that runs past the end of the file keeps the bytes
/// there are.
fn kept_len(record: &Record, old_len: u64) -> u64 {
    record.size.min(old_len.saturating_sub(record.offset))
}

/// Bytes copied between two reports of progress.
const PROGRESS_STEP: u64 = 8 << 20;

/// Bytes gathered before a write, and read at a time by the check.
const BUFFER_SIZE: usize = 1 << 16;

/// The sinks of the files being written.
struct Outputs<'a> {
    img: &'a mut FileSink,
    dir: Option<&'a mut FileSink>,
}

impl super::ArchiveSink for Outputs<'_> {
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

/// A new file: the writer's bytes through a buffer, and ranges of other files appended by
/// the system. The first I/O error is kept for [`finish`](Self::finish).
struct FileSink {
    file: BufWriter<File>,
    /// Bytes of the file, the buffered ones included.
    end: u64,
    error: Option<io::Error>,
}

impl FileSink {
    fn new(file: File) -> Self {
        FileSink {
            file: BufWriter::with_capacity(BUFFER_SIZE, file),
            end: 0,
            error: None,
        }
    }

    /// Appends `len` bytes of `source` from byte `at`; returns how many there were.
    fn copy_from(&mut self, source: &File, at: u64, len: u64) -> io::Result<u64> {
        self.kept()?;
        let mut source = source;
        source.seek(SeekFrom::Start(at))?;
        // `io::copy` from a file into a buffered file is the system's copy where there is
        // one (the buffer flushed first), else reads into the buffer.
        let copied = io::copy(&mut source.take(len), &mut self.file)?;
        self.end += copied;
        Ok(copied)
    }

    /// The error a write or patch kept, if any.
    fn kept(&self) -> io::Result<()> {
        match &self.error {
            Some(error) => Err(io::Error::new(error.kind(), ToString::to_string(error))),
            None => Ok(()),
        }
    }

    /// The file, every byte written to it (not yet synced).
    fn finish(mut self) -> io::Result<File> {
        self.kept()?;
        self.file.flush()?;
        self.file.into_inner().map_err(|e| e.into_error())
    }

    fn keep<T>(&mut self, result: io::Result<T>) -> Result<T, SinkError> {
        result.map_err(|error| {
            self.error.get_or_insert(error);
            SinkError
        })
    }
}

impl crate::encode::Sink for FileSink {
    fn write(&mut self, bytes: &[u8]) -> Result<(), SinkError> {
        let result = self.file.write_all(bytes);
        self.keep(result)?;
        self.end += bytes.len() as u64;
        Ok(())
    }

    fn patch(&mut self, offset: u64, bytes: &[u8]) -> Result<(), SinkError> {
        if offset.saturating_add(bytes.len() as u64) > self.end {
            return Err(SinkError);
        }
        let end = self.end;
        let file = &mut self.file;
        let result = file
            .seek(SeekFrom::Start(offset))
            .and_then(|_| file.write_all(bytes))
            .and_then(|()| file.seek(SeekFrom::Start(end)));
        self.keep(result).map(drop)
    }
}

/// Reads the new archive back through the archive decoder: every entry must have the name
/// planned, and hold the bytes taken from its source then zeros to its last sector (compared
/// byte for byte with the source, a piece at a time, each told to `progress`).
#[allow(clippy::too_many_arguments)]
fn read_back(
    img: &Path,
    dir: Option<&Path>,
    old: Option<&ArchivePaths>,
    records: &[Record],
    files: &[NewEntry],
    plan: &[Source],
    lens: &[u64],
    progress: Progress<'_>,
) -> Result<(), EditError> {
    let paths = ArchivePaths {
        img: img.to_path_buf(),
        dir: dir.map(Path::to_path_buf),
    };
    let got = read_directory(&paths)?;
    if got.len() != plan.len() {
        return Err(EditError::Verify(format!(
            "{} entries, {} expected",
            got.len(),
            plan.len()
        )));
    }
    let mut count = Count {
        total_entries: got.len() as u32,
        total_bytes: got.iter().map(|r| r.size).sum(),
        ..Count::default()
    };
    let mut new = File::open(img)?;
    let mut old_img = match old {
        Some(old) => Some(File::open(&old.img)?),
        None => None,
    };
    let mut buffers = vec![0u8; 2 * BUFFER_SIZE];
    let (mine, theirs) = buffers.split_at_mut(BUFFER_SIZE);
    for (i, ((record, source), &len)) in got.iter().zip(plan).zip(lens).enumerate() {
        let mut opened;
        let (name, source): (&[u8], &mut File) = match *source {
            Source::Old(k) => {
                let old_img = old_img.as_mut().expect("an old archive");
                old_img.seek(SeekFrom::Start(records[k].offset))?;
                (&records[k].name, old_img)
            }
            Source::New(k) => {
                opened = File::open(&files[k].path)
                    .map_err(|e| EditError::Source(files[k].path.clone(), e))?;
                (&files[k].name, &mut opened)
            }
        };
        let wrong = || EditError::Verify(format!("entry {i} ({})", latin1(name)));
        if record.name != name || record.size != len.next_multiple_of(SECTOR) {
            return Err(wrong());
        }
        let mut compared = 0;
        while compared < record.size {
            let piece = (record.size - compared).min(PROGRESS_STEP);
            let from_source = len.saturating_sub(compared).min(piece);
            let at = record.offset + compared;
            if !same_bytes(&mut new, at, piece, source, from_source, mine, theirs)? {
                return Err(wrong());
            }
            compared += piece;
            count.bytes += piece;
            if compared < record.size {
                stoppable(progress, Step::Check(count))?;
            }
        }
        count.entries += 1;
        stoppable(progress, Step::Check(count))?;
    }
    Ok(())
}

/// Whether the `size` bytes at `offset` of `new` are the next `len` bytes of `source` then
/// zeros, read a buffer at a time.
fn same_bytes(
    new: &mut File,
    offset: u64,
    size: u64,
    source: &mut File,
    len: u64,
    mine: &mut [u8],
    theirs: &mut [u8],
) -> io::Result<bool> {
    new.seek(SeekFrom::Start(offset))?;
    let mut new = new.take(size);
    let mut source = source.take(len);
    let mut left = size;
    while left > 0 {
        let n = left.min(mine.len() as u64) as usize;
        let m = read_full(&mut source, &mut theirs[..n])?;
        if read_full(&mut new, &mut mine[..n])? != n
            || mine[..m] != theirs[..m]
            || mine[m..n].iter().any(|&b| b != 0)
        {
            return Ok(false);
        }
        left -= n as u64;
    }
    Ok(true)
}

/// Reads until `buffer` is full or the reader ends; returns the bytes read.
fn read_full(reader: &mut impl Read, buffer: &mut [u8]) -> io::Result<usize> {
    let mut read = 0;
    while read < buffer.len() {
        match read_some(reader, &mut buffer[read..])? {
            0 => break,
            n => read += n,
        }
    }
    Ok(read)
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
        // Beside `path` as it was given (no `./` added).
        .map(|e| path.with_file_name(e.file_name()))
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

/// Makes the renames in `path`'s folder durable (where the system allows opening a folder);
/// returns the folder.
fn sync_parent(path: &Path) -> io::Result<PathBuf> {
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if let Ok(dir) = File::open(parent) {
        // Windows opens no folder as a file; elsewhere a folder's sync may be refused.
        let _ = dir.sync_all();
    }
    Ok(parent.to_path_buf())
}

fn latin1(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| char::from(b)).collect()
}

/// Paths for a message: `a`, `a and b`.
fn list(paths: &[PathBuf]) -> String {
    let shown: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    shown.join(" and ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A folder of its own under the system's temporary folder.
    fn folder(test: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("gtastream-edit-{}-{test}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// An archive of two files made by `create`, and its plan.
    fn two_files(dir: &Path) -> (ArchivePaths, Vec<NewEntry>, Vec<Source>, Vec<u64>) {
        let mut files = Vec::new();
        for (name, bytes) in [("a.dff", vec![1u8; 5000]), ("b.txd", vec![2u8; 4096])] {
            fs::write(dir.join(name), &bytes).unwrap();
            files.push(NewEntry::from_path(dir.join(name)));
        }
        let paths = ArchivePaths {
            img: dir.join("x.img"),
            dir: None,
        };
        create(&paths, &files, &mut |_| ControlFlow::Continue(())).unwrap();
        (
            paths,
            files,
            vec![Source::New(0), Source::New(1)],
            vec![5000, 4096],
        )
    }

    fn check(paths: &ArchivePaths, files: &[NewEntry], plan: &[Source], lens: &[u64]) -> String {
        let mut progress = |_: Step<'_>| ControlFlow::Continue(());
        match read_back(
            &paths.img,
            None,
            None,
            &[],
            files,
            plan,
            lens,
            &mut progress,
        ) {
            Ok(()) => "ok".into(),
            Err(EditError::Verify(what)) => what,
            Err(error) => panic!("{error}"),
        }
    }

    #[test]
    fn the_read_back_finds_every_difference() {
        let dir = folder("read_back");
        let (paths, files, plan, lens) = two_files(&dir);
        assert_eq!(check(&paths, &files, &plan, &lens), "ok");
        // A byte of the copy changed, in the data and in the padding.
        let good = fs::read(&paths.img).unwrap();
        for at in [2048 + 4999, 2048 + 5000, 4 * 2048 + 4095] {
            let mut bad = good.clone();
            bad[at] ^= 0x40;
            fs::write(&paths.img, &bad).unwrap();
            let entry = if at < 4 * 2048 {
                "entry 0 (a.dff)"
            } else {
                "entry 1 (b.txd)"
            };
            assert_eq!(check(&paths, &files, &plan, &lens), entry, "byte {at}");
        }
        fs::write(&paths.img, &good).unwrap();
        // The copy holds a byte more than was taken from the source (not a zero).
        assert_eq!(
            check(&paths, &files, &plan, &[5000, 4095]),
            "entry 1 (b.txd)"
        );
        // The source no longer holds what was copied.
        let mut changed = vec![2u8; 4096];
        changed[100] = 3;
        fs::write(&files[1].path, &changed).unwrap();
        assert_eq!(check(&paths, &files, &plan, &lens), "entry 1 (b.txd)");
        // Entries in another order, or one missing.
        let swapped = [Source::New(1), Source::New(0)];
        assert_eq!(
            check(&paths, &files, &swapped, &[4096, 5000]),
            "entry 0 (b.txd)"
        );
        assert_eq!(
            check(&paths, &files, &plan[..1], &lens[..1]),
            "2 entries, 1 expected"
        );
        fs::remove_dir_all(&dir).unwrap();
    }
}
