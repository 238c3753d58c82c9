//! Writing IMG archives: entries in order, bytes in pieces, to sinks, in fixed memory
//! (docs/FORMATS.md §5.4).
//!
//! [`ArchiveWriter`] is the mirror of the archive decoder. Version 2 reserves room for the
//! directory at the start of the `.img` and patches each record when its entry ends (the
//! count too, at [`finish`](ArchiveWriter::finish)); version 1 appends each record to the
//! `.dir` as its entry ends. Every entry starts on a sector boundary and is padded with zeros
//! to the next one. What the games cannot read is refused with an error naming the entry:
//! names they skip or cut, entries larger than the version's size field, offsets past what
//! the streamer reaches.

use core::fmt;

use super::{ArchiveVersion, ENTRY_NAME_SIZE, RECORD_SIZE, SECTOR};
use crate::encode::{Sink, SinkError};

/// Bytes of the version 2 header (`VER2` and the count).
const HEADER_SIZE: u64 = 8;

/// Most sectors one version 2 entry holds: its size field is a `u16`.
pub const MAX_V2_ENTRY_SECTORS: u64 = u16::MAX as u64;

/// Sectors the games reach: the streamer computes byte offsets in 32 bits (4 GiB).
pub const MAX_ARCHIVE_SECTORS: u64 = (1 << 32) / SECTOR;

/// Longest entry name: byte 23 of the field is forced to NUL by Vice City and San Andreas.
pub const MAX_ENTRY_NAME: usize = ENTRY_NAME_SIZE - 1;

/// Latest index of a name's first `.` that Vice City and San Andreas accept.
pub const MAX_DOT_INDEX: usize = 20;

crate::error::kinds! {
    /// Why an archive cannot be written (docs/FORMATS.md §5.4).
    pub enum ArchiveWriteErrorKind {
        /// An entry name of no bytes.
        EmptyName = 400, "empty_name", "entry name is empty";
        /// An entry name longer than 23 bytes: the games cut it at byte 23.
        NameTooLong = 401, "name_too_long", "entry name longer than 23 bytes";
        /// An entry name without a `.`, with its first `.` past index 20, with nothing after
        /// the `.`, or holding a control byte, a NUL or a path separator: the games skip it.
        InvalidName = 402, "invalid_name", "entry name the games skip";
        /// A version 2 entry of more than 65535 sectors (its size field is a `u16`).
        EntryTooLarge = 403, "entry_too_large", "entry larger than the size field holds";
        /// The archive grows past the 4 GiB the games reach.
        ArchiveTooLarge = 404, "archive_too_large", "archive larger than the games reach";
        /// More entries than the version 2 directory was made for.
        TooManyEntries = 405, "too_many_entries", "more entries than the directory holds";
        /// A call out of order: data or an entry end with no entry begun, an entry begun
        /// inside another, a call after `finish`.
        InvalidState = 406, "invalid_state", "call out of order";
        /// A sink refused bytes.
        Sink = 407, "sink", "the sink failed";
        /// The same name twice (compared as the games compare: ASCII case aside).
        DuplicateName = 408, "duplicate_name", "entry name already in the archive";
    }
}

/// Why an archive cannot be written, and the entry concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArchiveWriteError {
    /// What went wrong.
    pub kind: ArchiveWriteErrorKind,
    /// Index of the entry concerned (the number of entries written before it).
    pub index: u32,
    name: [u8; ENTRY_NAME_SIZE + 8],
    name_len: u8,
}

impl ArchiveWriteError {
    pub(crate) fn new(kind: ArchiveWriteErrorKind, index: u32, name: &[u8]) -> Self {
        let mut shown = [0; ENTRY_NAME_SIZE + 8];
        let n = name.len().min(shown.len());
        shown[..n].copy_from_slice(&name[..n]);
        ArchiveWriteError {
            kind,
            index,
            name: shown,
            name_len: n as u8,
        }
    }

    /// The entry's name as given (its first 32 bytes).
    pub fn name(&self) -> &[u8] {
        &self.name[..usize::from(self.name_len)]
    }
}

impl fmt::Display for ArchiveWriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (entry {}", self.kind.reason(), self.index)?;
        if self.name_len > 0 {
            f.write_str(" \"")?;
            for &b in self.name() {
                write!(f, "{}", char::from(b))?;
            }
            f.write_str("\"")?;
        }
        f.write_str(")")
    }
}

impl core::error::Error for ArchiveWriteError {}

/// Checks an entry name against what the games read (docs/FORMATS.md §5.4): 1 to 23 bytes,
/// no NUL, control byte or path separator, a `.` at index 20 at the latest with at least one
/// byte after it.
pub fn check_entry_name(name: &[u8]) -> Result<(), ArchiveWriteErrorKind> {
    if name.is_empty() {
        return Err(ArchiveWriteErrorKind::EmptyName);
    }
    if name.len() > MAX_ENTRY_NAME {
        return Err(ArchiveWriteErrorKind::NameTooLong);
    }
    let bad_byte = |b: &u8| *b < 0x20 || *b == 0x7f || *b == b'/' || *b == b'\\';
    match name.iter().position(|&b| b == b'.') {
        Some(dot) if dot <= MAX_DOT_INDEX && dot + 1 < name.len() && !name.iter().any(bad_byte) => {
            Ok(())
        }
        _ => Err(ArchiveWriteErrorKind::InvalidName),
    }
}

/// Whether two entry names are the same to the games (ASCII case aside).
pub fn same_entry_name(a: &[u8], b: &[u8]) -> bool {
    a.eq_ignore_ascii_case(b)
}

/// Where an [`ArchiveWriter`] puts its bytes: the `.img`, and for version 1 the `.dir`.
pub trait ArchiveSink {
    /// The `.img` file (header, directory and data for version 2; data for version 1).
    fn img(&mut self) -> &mut dyn Sink;
    /// The `.dir` file of a version 1 archive; `None` for version 2.
    fn dir(&mut self) -> Option<&mut dyn Sink>;
}

/// A version 2 archive goes to one sink.
impl<S: Sink> ArchiveSink for S {
    fn img(&mut self) -> &mut dyn Sink {
        self
    }
    fn dir(&mut self) -> Option<&mut dyn Sink> {
        None
    }
}

/// The two files of a version 1 archive.
#[derive(Debug)]
pub struct SplitSink<I, D> {
    /// The `.img`: the entries' data.
    pub img: I,
    /// The `.dir`: the records.
    pub dir: D,
}

impl<I: Sink, D: Sink> ArchiveSink for SplitSink<I, D> {
    fn img(&mut self) -> &mut dyn Sink {
        &mut self.img
    }
    fn dir(&mut self) -> Option<&mut dyn Sink> {
        Some(&mut self.dir)
    }
}

/// The entry being written.
#[derive(Clone, Copy, Debug)]
struct Open {
    name: [u8; ENTRY_NAME_SIZE],
    /// Offset of its first byte in the `.img`.
    start: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Nothing written yet.
    New,
    /// Between entries.
    Ready,
    /// Inside an entry.
    Entry,
    /// `finish` returned.
    Finished,
}

/// What [`ArchiveWriter::finish`] reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ArchiveWritten {
    /// Entries written.
    pub entries: u32,
    /// Bytes of the `.img`.
    pub img_len: u64,
    /// Bytes of the `.dir` (version 1; 0 for version 2).
    pub dir_len: u64,
}

/// A streaming IMG writer of fixed size that never allocates (see the module documentation).
///
/// ```
/// use gtastream::archive::{ArchiveVersion, ArchiveWriter};
/// use gtastream::encode::SliceSink;
///
/// let mut buffer = [0u8; 3 * 2048];
/// let mut img = SliceSink::new(&mut buffer);
/// let mut writer = ArchiveWriter::new(ArchiveVersion::V2, 2);
/// for (name, data) in [(&b"a.ipl"[..], &b"inst\nend\n"[..]), (b"b.txt", b"hello")] {
///     writer.begin_entry(&mut img, name)?;
///     writer.write(&mut img, data)?;
///     writer.end_entry(&mut img)?;
/// }
/// let written = writer.finish(&mut img)?;
/// assert_eq!((written.entries, written.img_len), (2, 3 * 2048));
/// assert_eq!(&img.written()[..8], b"VER2\x02\0\0\0");
/// # Ok::<(), gtastream::archive::ArchiveWriteError>(())
/// ```
#[derive(Clone, Debug)]
pub struct ArchiveWriter {
    version: ArchiveVersion,
    /// Version 2: the records the directory has room for.
    capacity: u32,
    /// Entries ended so far.
    entries: u32,
    /// Bytes written to the `.img` so far.
    img_len: u64,
    dir_len: u64,
    open: Open,
    phase: Phase,
    error: Option<ArchiveWriteError>,
}

impl ArchiveWriter {
    /// A writer of a `version` archive. `capacity` is the most entries a version 2 directory
    /// gets room for (the count written is the entries' number); version 1 ignores it.
    pub const fn new(version: ArchiveVersion, capacity: u32) -> Self {
        ArchiveWriter {
            version,
            capacity,
            entries: 0,
            img_len: 0,
            dir_len: 0,
            open: Open {
                name: [0; ENTRY_NAME_SIZE],
                start: 0,
            },
            phase: Phase::New,
            error: None,
        }
    }

    /// The layout being written.
    pub fn version(&self) -> ArchiveVersion {
        self.version
    }

    /// Entries ended so far.
    pub fn entries(&self) -> u32 {
        self.entries
    }

    /// The first error, which every later call returns.
    pub fn error(&self) -> Option<ArchiveWriteError> {
        self.error
    }

    /// Bytes before the first entry's data: version 2's header and directory, in whole
    /// sectors.
    pub const fn data_start(version: ArchiveVersion, capacity: u32) -> u64 {
        match version {
            ArchiveVersion::V1 => 0,
            ArchiveVersion::V2 => {
                (HEADER_SIZE + RECORD_SIZE * capacity as u64).div_ceil(SECTOR) * SECTOR
            }
        }
    }

    /// Begins an entry named `name` (checked as the games read names).
    pub fn begin_entry(
        &mut self,
        out: &mut impl ArchiveSink,
        name: &[u8],
    ) -> Result<(), ArchiveWriteError> {
        self.begin(out, name, check_entry_name(name))
    }

    /// Begins an entry under a name an archive's directory already holds (1 to 24 bytes, no
    /// NUL), unchecked otherwise: rewriting an archive keeps every entry it had, even one the
    /// games skip.
    pub fn begin_existing_entry(
        &mut self,
        out: &mut impl ArchiveSink,
        name: &[u8],
    ) -> Result<(), ArchiveWriteError> {
        let fits = match name.len() {
            0 => Err(ArchiveWriteErrorKind::EmptyName),
            n if n > ENTRY_NAME_SIZE => Err(ArchiveWriteErrorKind::NameTooLong),
            _ if name.contains(&0) => Err(ArchiveWriteErrorKind::InvalidName),
            _ => Ok(()),
        };
        self.begin(out, name, fits)
    }

    fn begin(
        &mut self,
        out: &mut impl ArchiveSink,
        name: &[u8],
        name_ok: Result<(), ArchiveWriteErrorKind>,
    ) -> Result<(), ArchiveWriteError> {
        self.sticky()?;
        if self.phase == Phase::New {
            self.start(out, name)?;
        }
        if self.phase != Phase::Ready {
            return self.fail(ArchiveWriteErrorKind::InvalidState, name);
        }
        if let Err(kind) = name_ok {
            return self.fail(kind, name);
        }
        if self.version == ArchiveVersion::V2 && self.entries >= self.capacity {
            return self.fail(ArchiveWriteErrorKind::TooManyEntries, name);
        }
        let mut field = [0; ENTRY_NAME_SIZE];
        field[..name.len()].copy_from_slice(name);
        self.open = Open {
            name: field,
            start: self.img_len,
        };
        self.phase = Phase::Entry;
        Ok(())
    }

    /// Appends `bytes` to the entry begun.
    pub fn write(
        &mut self,
        out: &mut impl ArchiveSink,
        bytes: &[u8],
    ) -> Result<(), ArchiveWriteError> {
        self.admit(bytes.len() as u64)?;
        self.put(out, bytes)
    }

    /// Counts `len` bytes of the entry begun that the caller appends to the `.img` sink itself,
    /// in a way the sink cannot see (the system copying a range of one file into another),
    /// after the checks of [`write`](Self::write). Call it before appending them.
    pub fn write_outside(&mut self, len: u64) -> Result<(), ArchiveWriteError> {
        self.admit(len)?;
        self.img_len += len;
        Ok(())
    }

    /// `len` more bytes of the entry begun fit.
    fn admit(&mut self, len: u64) -> Result<(), ArchiveWriteError> {
        self.sticky()?;
        if self.phase != Phase::Entry {
            return self.fail(ArchiveWriteErrorKind::InvalidState, &[]);
        }
        let len = self.img_len.saturating_add(len);
        let sectors = (len - self.open.start).div_ceil(SECTOR);
        if self.version == ArchiveVersion::V2 && sectors > MAX_V2_ENTRY_SECTORS {
            return self.fail_open(ArchiveWriteErrorKind::EntryTooLarge);
        }
        if len.div_ceil(SECTOR) > MAX_ARCHIVE_SECTORS {
            return self.fail_open(ArchiveWriteErrorKind::ArchiveTooLarge);
        }
        Ok(())
    }

    /// Ends the entry begun: pads it to its last sector and writes its record.
    pub fn end_entry(&mut self, out: &mut impl ArchiveSink) -> Result<(), ArchiveWriteError> {
        self.sticky()?;
        if self.phase != Phase::Entry {
            return self.fail(ArchiveWriteErrorKind::InvalidState, &[]);
        }
        self.pad(out)?;
        let offset = self.open.start / SECTOR;
        let sectors = (self.img_len - self.open.start) / SECTOR;
        let mut record = [0; RECORD_SIZE as usize];
        record[..4].copy_from_slice(&(offset as u32).to_le_bytes());
        match self.version {
            // The second size word stays 0: San Andreas takes it for the size when it is
            // set, yet sizes its streaming buffer from the first (docs/FORMATS.md §5.4).
            ArchiveVersion::V2 => record[4..6].copy_from_slice(&(sectors as u16).to_le_bytes()),
            ArchiveVersion::V1 => record[4..8].copy_from_slice(&(sectors as u32).to_le_bytes()),
        }
        record[8..].copy_from_slice(&self.open.name);
        let result = match (self.version, out.dir()) {
            (ArchiveVersion::V2, _) => out
                .img()
                .patch(HEADER_SIZE + RECORD_SIZE * u64::from(self.entries), &record),
            (ArchiveVersion::V1, Some(dir)) => dir.write(&record),
            (ArchiveVersion::V1, None) => Err(SinkError),
        };
        if result.is_err() {
            return self.fail_open(ArchiveWriteErrorKind::Sink);
        }
        self.dir_len += if self.version == ArchiveVersion::V1 {
            RECORD_SIZE
        } else {
            0
        };
        self.entries += 1;
        self.phase = Phase::Ready;
        Ok(())
    }

    /// Ends the archive: version 2's count is patched to the entries written. Every entry
    /// must have ended.
    pub fn finish(
        &mut self,
        out: &mut impl ArchiveSink,
    ) -> Result<ArchiveWritten, ArchiveWriteError> {
        self.sticky()?;
        if self.phase == Phase::New {
            self.start(out, &[])?;
        }
        if self.phase != Phase::Ready {
            return self.fail(ArchiveWriteErrorKind::InvalidState, &[]);
        }
        if self.version == ArchiveVersion::V2
            && out.img().patch(4, &self.entries.to_le_bytes()).is_err()
        {
            return self.fail(ArchiveWriteErrorKind::Sink, &[]);
        }
        self.phase = Phase::Finished;
        Ok(ArchiveWritten {
            entries: self.entries,
            img_len: self.img_len,
            dir_len: self.dir_len,
        })
    }

    /// Version 2: the header and a directory of zeroed records, to the first sector after.
    fn start(&mut self, out: &mut impl ArchiveSink, name: &[u8]) -> Result<(), ArchiveWriteError> {
        if self.version == ArchiveVersion::V1 && out.dir().is_none() {
            return self.fail(ArchiveWriteErrorKind::Sink, name);
        }
        if self.version == ArchiveVersion::V2 {
            let start = Self::data_start(self.version, self.capacity);
            if start / SECTOR > MAX_ARCHIVE_SECTORS {
                return self.fail(ArchiveWriteErrorKind::ArchiveTooLarge, name);
            }
            self.put(out, b"VER2")?;
            self.put(out, &0u32.to_le_bytes())?;
            self.zeros(out, start - HEADER_SIZE)?;
        }
        self.phase = Phase::Ready;
        Ok(())
    }

    /// Zeros up to the next sector boundary.
    fn pad(&mut self, out: &mut impl ArchiveSink) -> Result<(), ArchiveWriteError> {
        let gap = self.img_len.next_multiple_of(SECTOR) - self.img_len;
        self.zeros(out, gap)
    }

    fn zeros(&mut self, out: &mut impl ArchiveSink, mut n: u64) -> Result<(), ArchiveWriteError> {
        const ZEROS: [u8; 256] = [0; 256];
        while n > 0 {
            let take = n.min(ZEROS.len() as u64) as usize;
            self.put(out, &ZEROS[..take])?;
            n -= take as u64;
        }
        Ok(())
    }

    fn put(&mut self, out: &mut impl ArchiveSink, bytes: &[u8]) -> Result<(), ArchiveWriteError> {
        if out.img().write(bytes).is_err() {
            return self.fail_open(ArchiveWriteErrorKind::Sink);
        }
        self.img_len += bytes.len() as u64;
        Ok(())
    }

    fn sticky(&self) -> Result<(), ArchiveWriteError> {
        match self.error {
            Some(error) => Err(error),
            None if self.phase == Phase::Finished => Err(ArchiveWriteError::new(
                ArchiveWriteErrorKind::InvalidState,
                self.entries,
                &[],
            )),
            None => Ok(()),
        }
    }

    fn fail<T>(
        &mut self,
        kind: ArchiveWriteErrorKind,
        name: &[u8],
    ) -> Result<T, ArchiveWriteError> {
        let error = ArchiveWriteError::new(kind, self.entries, name);
        self.error = Some(error);
        Err(error)
    }

    /// Fails naming the entry begun (or no name between entries).
    fn fail_open<T>(&mut self, kind: ArchiveWriteErrorKind) -> Result<T, ArchiveWriteError> {
        let name = self.open.name;
        let len = if self.phase == Phase::Entry {
            name.iter().position(|&b| b == 0).unwrap_or(name.len())
        } else {
            0
        };
        self.fail(kind, &name[..len])
    }
}
