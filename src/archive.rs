//! IMG archives: the directory's entries as events, and each entry the visitor wants decoded
//! by an inner [`Decoder`] (docs/RUST.md, "Archives"; docs/FORMATS.md, "IMG archives").
//!
//! The archive decoder is one more push decoder: the caller feeds bytes from
//! [`ArchiveDecoder::position`] of [`ArchiveDecoder::input`], and follows [`Status::Seek`] to
//! reach each entry and to come back to the next directory record. The directory is re-read
//! record by record, never stored, so the state is a fixed size whatever the archive holds.
//!
//! - **Version 2** (San Andreas): one file, `VER2`, a `u32` count, then 32-byte records
//!   (`u32` offset and `u16` size in 2048-byte sectors, a `u16` second size used when the
//!   first is 0, a 24-byte NUL-terminated name).
//! - **Version 1** (GTA III, Vice City): the records (`u32` offset, `u32` size, 24-byte name)
//!   are a `.dir` file of their own beside the `.img` that holds the data. The decoder reads
//!   both: [`ArchiveDecoder::input`] says which one `position` and a seek refer to.
//!
//! An entry's own events are exactly those of decoding the extracted entry (its sectors, from
//! its offset, `size` bytes): their offsets count from the entry's first byte. An entry that
//! fails is reported by [`ArchiveVisitor::entry_end`] with its error, and the archive goes on.

use crate::decoder::{Options, Progress, Status};
use crate::error::{Error, ErrorKind};
use crate::event::{Flow, Format, Visitor};
use crate::format::{foreign, sniff_format};
use crate::limits::{MAX_LINE, REREAD_FACTOR, REREAD_SLACK, SNIFF_LINES};
use crate::Decoder;

#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub mod edit;
#[cfg(feature = "alloc")]
#[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
pub mod plan;
mod write;
pub use write::{
    check_entry_name, same_entry_name, ArchiveSink, ArchiveWriteError, ArchiveWriteErrorKind,
    ArchiveWriter, ArchiveWritten, SplitSink, MAX_ARCHIVE_SECTORS, MAX_DOT_INDEX, MAX_ENTRY_NAME,
    MAX_V2_ENTRY_SECTORS,
};

/// Bytes in an IMG sector: offsets and sizes count these.
pub const SECTOR: u64 = 2048;
/// Bytes of a directory record, in both versions.
pub const RECORD_SIZE: u64 = 32;
/// Bytes of an entry's name field (NUL-terminated; bytes after the NUL are garbage).
pub const ENTRY_NAME_SIZE: usize = 24;
/// Bytes of an entry sniffed for its format (fewer if the entry is shorter): as many as the
/// decoder sniffs a file by.
pub const SNIFF_SIZE: usize = crate::format::SNIFF_SIZE;
/// Size of an [`ArchiveDecoder`] in bytes (for C callers: `GTS_ARCHIVE_SIZE`).
pub const ARCHIVE_DECODER_SIZE: usize = core::mem::size_of::<ArchiveDecoder>();

/// The inner decoder and a few counters: a C host reserves this much, on a stack or in
/// static memory.
const _: () = assert!(
    ARCHIVE_DECODER_SIZE <= 768,
    "the archive decoder must stay within 768 bytes"
);

/// Bytes of the version 2 header: `VER2` and the entry count.
const HEADER_SIZE: u64 = 8;

/// The two layouts of IMG archives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArchiveVersion {
    /// GTA III and Vice City: a `.dir` file of records beside the `.img`.
    V1,
    /// San Andreas: one `.img` whose header (`VER2`) and records precede the data.
    V2,
}

impl ArchiveVersion {
    /// `"VER1"` or `"VER2"`, as the command-line tool prints it.
    pub const fn name(self) -> &'static str {
        match self {
            ArchiveVersion::V1 => "VER1",
            ArchiveVersion::V2 => "VER2",
        }
    }
}

/// Which of a version 1 archive's two files [`ArchiveDecoder::position`] refers to (always
/// [`Input::Data`] for version 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Input {
    /// The `.dir` file of a version 1 archive.
    Directory,
    /// The `.img` file.
    Data,
}

/// The archive was recognised: the first event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ArchiveInfo {
    /// The layout.
    pub version: ArchiveVersion,
    /// Directory records that lie whole in the directory (a cut one is a warning).
    pub entry_count: u32,
}

/// A directory entry, reported before its data is decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Entry<'a> {
    /// 0-based position in the directory.
    pub index: u32,
    /// The name: bytes up to the first NUL (at most 24).
    pub name: &'a [u8],
    /// Absolute offset of the entry's first byte in the `.img` file.
    pub offset: u64,
    /// Bytes of the entry that the `.img` holds: the declared sectors, cut at the end of the
    /// file. What `extract` writes and what the inner decoder reads.
    pub size: u64,
    /// Bytes the directory declares (sectors × 2048).
    pub declared_size: u64,
    /// The format the decoder would find in the entry's first [`SNIFF_SIZE`] bytes; `None`
    /// for content it does not decode (models, textures, collisions, empty entries). Text is
    /// settled by more lines: [`decoded_format`] gives the decoder's answer for any entry.
    pub format: Option<Format>,
    /// The directory record as stored: the engines' own reading of its fields (version 2's
    /// second size, the name's bytes after the NUL) differs from the decoder's.
    pub record: [u8; RECORD_SIZE as usize],
}

/// What the visitor wants done with an entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Choice {
    /// Go on with the next directory record (nothing is read of the entry's data beyond its
    /// first bytes).
    #[default]
    Skip,
    /// Decode the entry: its events, then [`ArchiveVisitor::entry_end`].
    Decode,
    /// Stop with [`ErrorKind::Aborted`].
    Abort,
}

crate::error::kinds! {
    /// Oddities of an archive's directory: the archive is still read.
    pub enum ArchiveWarningKind {
        /// The directory ends inside a record (version 2: the count promises more records
        /// than the file holds; version 1: the `.dir` size is not a multiple of 32). The whole
        /// records are read.
        DirectoryTruncated = 1, "directory_truncated", "directory ends inside a record";
        /// An entry of no sectors.
        EmptyEntry = 2, "empty_entry", "entry of no sectors";
        /// An entry's sectors run past the end of the `.img`: it is cut there (to nothing if
        /// it starts past the end).
        EntryPastEnd = 3, "entry_past_end", "entry runs past the end of the archive";
        /// A version 2 entry's data overlaps the directory.
        EntryOverlapsDirectory = 4, "entry_overlaps_directory", "entry overlaps the directory";
        /// A name field without a NUL: the name is all 24 bytes.
        UnterminatedName = 5, "unterminated_name", "entry name without a NUL";
    }
}

/// An oddity of the directory, with the offset of the record concerned in the directory's
/// input (the `.img` for version 2, the `.dir` for version 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ArchiveWarning {
    /// What looked odd.
    pub kind: ArchiveWarningKind,
    /// Offset of the directory record (or of the cut record) concerned.
    pub offset: u64,
    /// The entry concerned (for `DirectoryTruncated`, the index the cut record would have).
    pub index: u32,
}

impl core::fmt::Display for ArchiveWarning {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{} at offset {}", self.kind.reason(), self.offset)
    }
}

/// Receives an archive's events: its own, and (through [`Visitor`]) those of every entry it
/// chose to decode, between [`entry`](Self::entry) and [`entry_end`](Self::entry_end).
/// Every method has a default: skip every entry, continue.
pub trait ArchiveVisitor: Visitor {
    /// The archive was recognised; the first event.
    fn archive(&mut self, _info: &ArchiveInfo) -> Flow {
        Flow::Continue
    }
    /// A directory entry. `Decode` is followed by the entry's events and `entry_end`.
    fn entry(&mut self, _entry: &Entry<'_>) -> Choice {
        Choice::Skip
    }
    /// The decoded entry ended: `Ok` after its `end` event, or the error that stopped it
    /// (offset from the entry's first byte). The archive goes on with the next entry.
    fn entry_end(&mut self, _result: Result<(), Error>) -> Flow {
        Flow::Continue
    }
    /// Something odd in the directory; the archive goes on.
    fn archive_warning(&mut self, _warning: ArchiveWarning) -> Flow {
        Flow::Continue
    }
}

impl<V: ArchiveVisitor + ?Sized> ArchiveVisitor for &mut V {
    fn archive(&mut self, info: &ArchiveInfo) -> Flow {
        (**self).archive(info)
    }
    fn entry(&mut self, entry: &Entry<'_>) -> Choice {
        (**self).entry(entry)
    }
    fn entry_end(&mut self, result: Result<(), Error>) -> Flow {
        (**self).entry_end(result)
    }
    fn archive_warning(&mut self, warning: ArchiveWarning) -> Flow {
        (**self).archive_warning(warning)
    }
}

/// Where the archive decoder is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Version 2: the 8-byte header. Version 1: the `archive` event.
    Header,
    /// The next directory record.
    Record,
    /// The oddities of the record just read, one event each.
    Warnings,
    /// The entry's first bytes, then the `entry` event.
    Sniff,
    /// The inner decoder reads the entry.
    Entry,
    /// The entry's result is reported.
    EntryEnd(Option<Error>),
    /// Every record was read.
    Done,
}

#[derive(Clone, Copy, Debug)]
enum State {
    Running,
    Failed(Error),
    Finished,
}

/// The directory record being handled.
#[derive(Clone, Copy, Debug)]
struct Current {
    record: [u8; RECORD_SIZE as usize],
    name: [u8; ENTRY_NAME_SIZE],
    name_len: u8,
    offset: u64,
    size: u64,
    declared: u64,
    /// Warnings of the record not yet reported, one bit per [`ArchiveWarningKind::ALL`].
    warnings: u8,
}

impl Current {
    const EMPTY: Current = Current {
        record: [0; RECORD_SIZE as usize],
        name: [0; ENTRY_NAME_SIZE],
        name_len: 0,
        offset: 0,
        size: 0,
        declared: 0,
        warnings: 0,
    };
}

/// A push decoder for IMG archives (see the module documentation).
///
/// ```
/// use gtastream::archive::{ArchiveDecoder, ArchiveVisitor, Choice, Entry};
/// use gtastream::{Flow, Visitor};
///
/// #[derive(Default)]
/// struct Animations(u32);
/// impl Visitor for Animations {
///     fn animation(&mut self, _: &gtastream::AnimationInfo<'_>) -> Flow {
///         self.0 += 1;
///         Flow::Continue
///     }
/// }
/// impl ArchiveVisitor for Animations {
///     fn entry(&mut self, entry: &Entry<'_>) -> Choice {
///         if entry.format.is_some_and(|f| f.is_animation()) { Choice::Decode } else { Choice::Skip }
///     }
/// }
///
/// # let mut img = vec![0u8; 4096];
/// # img[..8].copy_from_slice(b"VER2\x01\0\0\0");
/// # img[8..16].copy_from_slice(&[1, 0, 0, 0, 1, 0, 0, 0]);
/// # img[16..24].copy_from_slice(b"demo.ifp");
/// # img[2048..2084].copy_from_slice(b"ANP3\x1c\0\0\0demo\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0");
/// let mut visitor = Animations::default();
/// ArchiveDecoder::new(img.len() as u64).decode_slice(&img, &mut visitor)?;
/// # Ok::<(), gtastream::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct ArchiveDecoder {
    inner: Decoder,
    version: ArchiveVersion,
    /// Bytes of the `.img` file.
    data_len: u64,
    /// Bytes of the `.dir` file (version 1).
    dir_len: u64,
    input: Input,
    /// Offset in `input` of the next byte wanted; the carried bytes lie just before it.
    position: u64,
    /// Records in the directory, and the index of the next one.
    count: u32,
    index: u32,
    phase: Phase,
    current: Current,
    /// A record or the first bytes of an entry, split between chunks.
    carry: [u8; RECORD_SIZE as usize],
    carried: u8,
    /// Bytes of entries given to the inner decoder: bounded by the archive's size.
    decoded: u64,
    state: State,
    options: Options,
}

impl ArchiveDecoder {
    /// A decoder for a version 2 archive (`VER2`) of `data_len` bytes, for a caller that can
    /// seek.
    pub const fn new(data_len: u64) -> Self {
        Self::build(ArchiveVersion::V2, 0, data_len, Options::DEFAULT)
    }

    /// A decoder for a version 1 archive: a `.dir` of `dir_len` bytes and an `.img` of
    /// `data_len` bytes. The first bytes it wants are the `.dir`'s ([`Input::Directory`]).
    pub const fn version1(dir_len: u64, data_len: u64) -> Self {
        Self::build(ArchiveVersion::V1, dir_len, data_len, Options::DEFAULT)
    }

    /// The same decoder for a caller with these abilities. Archives need seeks (to each
    /// entry and back to the directory): without, the first is an
    /// [`ErrorKind::SeekRequired`] error.
    pub fn with_options(mut self, options: Options) -> Self {
        self.options = options;
        self.inner = Decoder::with_options(options);
        self
    }

    const fn build(version: ArchiveVersion, dir_len: u64, data_len: u64, options: Options) -> Self {
        let (input, count) = match version {
            ArchiveVersion::V1 => (Input::Directory, records_in(dir_len)),
            ArchiveVersion::V2 => (Input::Data, 0),
        };
        ArchiveDecoder {
            inner: Decoder::with_options(options),
            version,
            data_len,
            dir_len,
            input,
            position: 0,
            count,
            index: 0,
            phase: Phase::Header,
            current: Current::EMPTY,
            carry: [0; RECORD_SIZE as usize],
            carried: 0,
            decoded: 0,
            state: State::Running,
            options,
        }
    }

    /// The archive's layout.
    pub fn version(&self) -> ArchiveVersion {
        self.version
    }

    /// The file the next bytes come from (version 1 switches between them, always with a
    /// [`Status::Seek`]).
    pub fn input(&self) -> Input {
        self.input
    }

    /// Offset, in [`input`](Self::input), of the next byte wanted.
    pub fn position(&self) -> u64 {
        self.position
    }

    /// At most how many bytes from the position are of use before the next seek: a record,
    /// an entry's first bytes, the rest of the entry being decoded. A reader reads no more
    /// (`None`: no bound known).
    pub fn wanted(&self) -> Option<u64> {
        let carried = u64::from(self.carried);
        match self.phase {
            Phase::Header => Some(HEADER_SIZE.saturating_sub(carried)),
            Phase::Record => Some(RECORD_SIZE.saturating_sub(carried)),
            Phase::Sniff => Some(
                self.current
                    .size
                    .min(SNIFF_SIZE as u64)
                    .saturating_sub(carried)
                    .max(1),
            ),
            Phase::Entry => {
                let end = self.current.offset + self.current.size;
                Some(end.saturating_sub(self.position).max(1))
            }
            _ => None,
        }
    }

    /// The error that stopped the archive, if any (an entry's error does not).
    pub fn error(&self) -> Option<Error> {
        match self.state {
            State::Failed(error) => Some(error),
            _ => None,
        }
    }

    /// Consumes `input` (bytes of [`input`](Self::input) from [`position`](Self::position)),
    /// reporting events, until it is used up, the visitor pauses, a seek is needed, or every
    /// record was read ([`Status::Done`]). Archive errors are sticky; an entry's are not.
    pub fn feed<V: ArchiveVisitor>(
        &mut self,
        input: &[u8],
        visitor: &mut V,
    ) -> Result<Progress, Error> {
        match self.state {
            State::Running => {}
            State::Failed(error) => return Err(error),
            State::Finished => return Err(Error::new(ErrorKind::Finished, self.position)),
        }
        let result = self.run(input, visitor);
        if let Err(error) = result {
            self.state = State::Failed(error);
        }
        result
    }

    /// Ends the input. Before every record was read, that is an [`ErrorKind::Truncated`]
    /// error at the position (the files were shorter than the lengths given).
    pub fn finish<V: ArchiveVisitor>(&mut self, visitor: &mut V) -> Result<(), Error> {
        let mut progress = self.feed(&[], visitor)?;
        // No input follows: a pause is not honoured.
        while progress.status == Status::Paused {
            progress = self.feed(&[], visitor)?;
        }
        let result = match (progress.status, self.phase) {
            (Status::Done, _) | (_, Phase::Done) => Ok(()),
            _ => Err(Error::new(ErrorKind::Truncated, self.position)),
        };
        self.state = match result {
            Ok(()) => State::Finished,
            Err(error) => State::Failed(error),
        };
        result
    }

    /// Decodes a version 2 archive held in memory (decoder made with
    /// [`new`](Self::new)`(data.len())`), following seeks and going on after pauses.
    pub fn decode_slice<V: ArchiveVisitor>(
        &mut self,
        data: &[u8],
        visitor: &mut V,
    ) -> Result<(), Error> {
        self.decode_slices(&[], data, visitor)
    }

    /// Decodes an archive held in memory: `dir` is the `.dir` of a version 1 archive (ignored
    /// for version 2), `data` the `.img`.
    pub fn decode_slices<V: ArchiveVisitor>(
        &mut self,
        dir: &[u8],
        data: &[u8],
        visitor: &mut V,
    ) -> Result<(), Error> {
        loop {
            let file = match self.input {
                Input::Directory => dir,
                Input::Data => data,
            };
            let at = usize::try_from(self.position).unwrap_or(usize::MAX);
            let progress = self.feed(file.get(at..).unwrap_or_default(), visitor)?;
            match progress.status {
                Status::Paused | Status::Seek(_) => {}
                Status::NeedInput | Status::Done => return self.finish(visitor),
            }
        }
    }

    fn run<V: ArchiveVisitor>(&mut self, input: &[u8], visitor: &mut V) -> Result<Progress, Error> {
        let mut rest = input;
        macro_rules! ret {
            ($status:expr) => {
                return Ok(Progress {
                    consumed: input.len() - rest.len(),
                    status: $status,
                })
            };
        }
        macro_rules! flow {
            ($flow:expr, $at:expr) => {
                match $flow {
                    Flow::Continue => {}
                    Flow::Pause => ret!(Status::Paused),
                    Flow::Abort => return Err(Error::new(ErrorKind::Aborted, $at)),
                }
            };
        }
        loop {
            match self.phase {
                Phase::Header => match self.version {
                    ArchiveVersion::V1 => {
                        self.phase = Phase::Record;
                        if !self.dir_len.is_multiple_of(RECORD_SIZE) {
                            self.current.warnings = bit(ArchiveWarningKind::DirectoryTruncated);
                        }
                        let info = ArchiveInfo {
                            version: self.version,
                            entry_count: self.count,
                        };
                        flow!(visitor.archive(&info), 0);
                    }
                    ArchiveVersion::V2 => {
                        if let Some(status) = self.goto(Input::Data, 0, &mut rest)? {
                            ret!(status);
                        }
                        let Some(header) = self.unit(HEADER_SIZE as usize, &mut rest) else {
                            ret!(Status::NeedInput);
                        };
                        if &header[..4] != b"VER2" {
                            // Another tool's or game's archive is named (it is not read).
                            let kind = foreign(&header).unwrap_or(ErrorKind::BadMagic);
                            return Err(Error::new(kind, 0));
                        }
                        let declared = le32(&header[4..8]);
                        let room = records_in(self.data_len.saturating_sub(HEADER_SIZE));
                        self.count = declared.min(room);
                        if declared > room {
                            self.current.warnings = bit(ArchiveWarningKind::DirectoryTruncated);
                        }
                        self.phase = Phase::Record;
                        let info = ArchiveInfo {
                            version: self.version,
                            entry_count: self.count,
                        };
                        flow!(visitor.archive(&info), 0);
                    }
                },
                Phase::Record => {
                    // A cut directory is reported once, where its first cut record starts.
                    if self.current.warnings != 0 {
                        let warning = ArchiveWarning {
                            kind: ArchiveWarningKind::DirectoryTruncated,
                            offset: self.record_offset(self.count),
                            index: self.count,
                        };
                        self.current.warnings = 0;
                        flow!(visitor.archive_warning(warning), warning.offset);
                    }
                    if self.index >= self.count {
                        self.phase = Phase::Done;
                        continue;
                    }
                    let (dir_input, at) = self.record_input();
                    if let Some(status) = self.goto(dir_input, at, &mut rest)? {
                        ret!(status);
                    }
                    let Some(record) = self.unit(RECORD_SIZE as usize, &mut rest) else {
                        ret!(Status::NeedInput);
                    };
                    self.read_record(&record);
                    self.phase = Phase::Warnings;
                }
                Phase::Warnings => {
                    let pending = self.current.warnings;
                    if pending == 0 {
                        self.phase = Phase::Sniff;
                        continue;
                    }
                    let which = pending.trailing_zeros() as usize;
                    self.current.warnings &= pending - 1;
                    let warning = ArchiveWarning {
                        kind: ArchiveWarningKind::ALL[which],
                        offset: self.record_offset(self.index),
                        index: self.index,
                    };
                    flow!(visitor.archive_warning(warning), warning.offset);
                }
                Phase::Sniff => {
                    let want = self.current.size.min(SNIFF_SIZE as u64) as usize;
                    let mut head = [0u8; SNIFF_SIZE];
                    if want > 0 {
                        if let Some(status) =
                            self.goto(Input::Data, self.current.offset, &mut rest)?
                        {
                            ret!(status);
                        }
                        // Peeked, not consumed: the inner decoder reads the same bytes. Split
                        // between chunks, they wait in the carry, where it reads them first.
                        if self.carried == 0 && rest.len() >= want {
                            head[..want].copy_from_slice(&rest[..want]);
                        } else {
                            let take = (want - usize::from(self.carried)).min(rest.len());
                            self.carry_extend(&rest[..take]);
                            rest = &rest[take..];
                            self.position += take as u64;
                            if usize::from(self.carried) < want {
                                ret!(Status::NeedInput);
                            }
                            head[..want].copy_from_slice(&self.carry[..want]);
                        }
                    }
                    let current = self.current;
                    let entry = Entry {
                        index: self.index,
                        name: &current.name[..usize::from(current.name_len)],
                        offset: current.offset,
                        size: current.size,
                        declared_size: current.declared,
                        format: entry_format(&head[..want]),
                        record: current.record,
                    };
                    match visitor.entry(&entry) {
                        Choice::Skip => self.next_record(),
                        Choice::Abort => {
                            return Err(Error::new(ErrorKind::Aborted, current.offset));
                        }
                        Choice::Decode => {
                            self.inner.reset();
                            let budget = REREAD_FACTOR
                                .saturating_mul(self.data_len)
                                .saturating_add(REREAD_SLACK);
                            self.decoded = self.decoded.saturating_add(current.size);
                            self.phase = if self.decoded > budget {
                                // Overlapping entries could make a small file cost without
                                // end: past this, entries fail instead of being read.
                                Phase::EntryEnd(Some(Error::new(ErrorKind::Limit, 0)))
                            } else {
                                Phase::Entry
                            };
                        }
                    }
                }
                Phase::Entry => {
                    if let Some(status) = self.entry_step(&mut rest, visitor)? {
                        ret!(status);
                    }
                }
                Phase::EntryEnd(error) => {
                    self.next_record();
                    let result = match error {
                        Some(error) => Err(error),
                        None => Ok(()),
                    };
                    flow!(visitor.entry_end(result), self.current.offset);
                }
                Phase::Done => {
                    self.carried = 0;
                    self.position += rest.len() as u64;
                    rest = &[];
                    ret!(Status::Done);
                }
            }
        }
    }

    /// Feeds the inner decoder what the input holds of the entry; `Some` to return from
    /// `feed` with that status, `None` once the phase moved on or more can be fed.
    fn entry_step<V: ArchiveVisitor>(
        &mut self,
        rest: &mut &[u8],
        visitor: &mut V,
    ) -> Result<Option<Status>, Error> {
        let entry = self.current;
        let relative = self.inner.position();
        if relative >= entry.size {
            // All of the entry was read (or the decoder wants beyond it): as for the extracted
            // file, the input ends here. A pause is honoured before the end.
            let progress = match self.inner.feed(&[], visitor) {
                Ok(progress) => progress,
                Err(error) => return self.entry_failed(error).map(|()| None),
            };
            match progress.status {
                Status::Paused => return Ok(Some(Status::Paused)),
                Status::Seek(to) if to < entry.size => return Ok(None),
                _ => {}
            }
            let result = self.inner.finish(visitor);
            match result {
                Ok(()) => self.phase = Phase::EntryEnd(None),
                Err(error) => self.entry_failed(error)?,
            }
            return Ok(None);
        }
        let target = entry.offset + relative;
        if let Some(status) = self.goto(Input::Data, target, rest)? {
            return Ok(Some(status));
        }
        let left = usize::try_from(entry.offset + entry.size - target).unwrap_or(usize::MAX);
        let from_carry = self.carried > 0;
        let bytes: &[u8] = if from_carry {
            &self.carry[..usize::from(self.carried)]
        } else {
            rest
        };
        let piece = &bytes[..bytes.len().min(left)];
        if piece.is_empty() {
            return Ok(Some(Status::NeedInput));
        }
        // The carry is copied out: the inner decoder borrows the visitor, not `self`.
        let mut held = [0u8; RECORD_SIZE as usize];
        let piece = if from_carry {
            held[..piece.len()].copy_from_slice(piece);
            &held[..piece.len()]
        } else {
            piece
        };
        let progress = match self.inner.feed(piece, visitor) {
            Ok(progress) => progress,
            Err(error) => {
                self.carried = 0;
                return self.entry_failed(error).map(|()| None);
            }
        };
        if from_carry {
            self.drop_carried(progress.consumed);
        } else {
            *rest = &rest[progress.consumed..];
            self.position += progress.consumed as u64;
        }
        match progress.status {
            Status::Paused => Ok(Some(Status::Paused)),
            Status::Seek(_) => {
                // The next loop goes to the entry's new position.
                self.carried = 0;
                Ok(None)
            }
            Status::NeedInput | Status::Done => Ok(None),
        }
    }

    /// An entry failed: reported, unless the visitor aborted, which stops the archive.
    fn entry_failed(&mut self, error: Error) -> Result<(), Error> {
        if error.kind == ErrorKind::Aborted {
            return Err(Error::new(
                ErrorKind::Aborted,
                self.current.offset + error.offset,
            ));
        }
        self.phase = Phase::EntryEnd(Some(error));
        Ok(())
    }

    fn next_record(&mut self) {
        self.index += 1;
        self.carried = 0;
        self.phase = Phase::Record;
    }

    /// Where record `index` lies.
    fn record_offset(&self, index: u32) -> u64 {
        let base = match self.version {
            ArchiveVersion::V1 => 0,
            ArchiveVersion::V2 => HEADER_SIZE,
        };
        base + u64::from(index) * RECORD_SIZE
    }

    fn record_input(&self) -> (Input, u64) {
        let input = match self.version {
            ArchiveVersion::V1 => Input::Directory,
            ArchiveVersion::V2 => Input::Data,
        };
        (input, self.record_offset(self.index))
    }

    /// Parses a directory record into `current`, with its oddities.
    fn read_record(&mut self, record: &[u8; RECORD_SIZE as usize]) {
        let sectors = le32(&record[0..4]);
        let size_sectors = match self.version {
            ArchiveVersion::V1 => le32(&record[4..8]),
            ArchiveVersion::V2 => {
                let size = u16::from_le_bytes([record[4], record[5]]);
                let size2 = u16::from_le_bytes([record[6], record[7]]);
                u32::from(if size != 0 { size } else { size2 })
            }
        };
        let mut name = [0u8; ENTRY_NAME_SIZE];
        name.copy_from_slice(&record[8..32]);
        let name_len = name.iter().position(|&b| b == 0);
        let offset = u64::from(sectors) * SECTOR;
        let declared = u64::from(size_sectors) * SECTOR;
        let size = declared.min(self.data_len.saturating_sub(offset));
        let directory_end = self.record_offset(self.count);
        let mut warnings = 0;
        if name_len.is_none() {
            warnings |= bit(ArchiveWarningKind::UnterminatedName);
        }
        if declared == 0 {
            warnings |= bit(ArchiveWarningKind::EmptyEntry);
        }
        if size < declared {
            warnings |= bit(ArchiveWarningKind::EntryPastEnd);
        }
        if self.version == ArchiveVersion::V2 && size > 0 && offset < directory_end {
            warnings |= bit(ArchiveWarningKind::EntryOverlapsDirectory);
        }
        self.current = Current {
            record: *record,
            name,
            name_len: name_len.unwrap_or(ENTRY_NAME_SIZE) as u8,
            offset,
            size,
            declared,
            warnings,
        };
    }

    /// Moves to `target` of `input` (from the start of the carried bytes): skips forward over
    /// the bytes at hand, or, for a caller that can seek, asks for a seek (always to change
    /// input). `None` once there.
    fn goto(
        &mut self,
        input: Input,
        target: u64,
        rest: &mut &[u8],
    ) -> Result<Option<Status>, Error> {
        let here = self.position - u64::from(self.carried);
        if input == self.input && target == here {
            return Ok(None);
        }
        let forward = input == self.input && target > here;
        if !self.options.can_seek && !forward {
            return Err(Error::new(ErrorKind::SeekRequired, target));
        }
        let gap = target.saturating_sub(here);
        let at_hand = u64::from(self.carried) + rest.len() as u64;
        if !forward || (self.options.can_seek && gap > at_hand) {
            self.input = input;
            self.position = target;
            self.carried = 0;
            return Ok(Some(Status::Seek(target)));
        }
        let dropped = u64::from(self.carried).min(gap);
        self.drop_carried(dropped as usize);
        let skipped = (rest.len() as u64).min(gap - dropped);
        *rest = &rest[skipped as usize..];
        self.position += skipped;
        Ok((self.position - u64::from(self.carried) < target).then_some(Status::NeedInput))
    }

    /// A unit of `size` bytes (at most 32) at the position: in place if the input holds it,
    /// else assembled in the carry. `None` if the input ran out first.
    fn unit(&mut self, size: usize, rest: &mut &[u8]) -> Option<[u8; RECORD_SIZE as usize]> {
        let mut unit = [0u8; RECORD_SIZE as usize];
        if self.carried == 0 && rest.len() >= size {
            unit[..size].copy_from_slice(&rest[..size]);
            *rest = &rest[size..];
            self.position += size as u64;
            return Some(unit);
        }
        let take = size
            .saturating_sub(usize::from(self.carried))
            .min(rest.len());
        self.carry_extend(&rest[..take]);
        *rest = &rest[take..];
        self.position += take as u64;
        if usize::from(self.carried) < size {
            return None;
        }
        unit[..size].copy_from_slice(&self.carry[..size]);
        self.carried = 0;
        Some(unit)
    }

    fn carry_extend(&mut self, bytes: &[u8]) {
        let at = usize::from(self.carried);
        let end = (at + bytes.len()).min(self.carry.len());
        self.carry[at..end].copy_from_slice(&bytes[..end - at]);
        self.carried = end as u8;
    }

    fn drop_carried(&mut self, n: usize) {
        let len = usize::from(self.carried);
        let n = n.min(len);
        self.carry.copy_within(n..len, 0);
        self.carried = (len - n) as u8;
    }
}

/// The format of an entry from its first bytes: the decoder's own sniffing rule, so that an
/// entry it would refuse (a collision file, a model, textures, anything else) is `None`.
fn entry_format(head: &[u8]) -> Option<Format> {
    sniff_format(head).ok()
}

/// Bytes of an entry's start that [`decoded_format`] reads to settle its format: the decoder
/// tells a text placement file from other text by its first [`SNIFF_LINES`] lines that are
/// neither blank nor comments, each at most [`MAX_LINE`] bytes (and its line break).
pub const FORMAT_HEAD_SIZE: usize = SNIFF_LINES * (MAX_LINE + 2);

/// The format of an entry that starts with `head` as the decoder finds it, the one answer for
/// every front end (a listing, a summary, the checker): [`Entry::format`] with text settled.
/// [`Entry::format`] sees [`SNIFF_SIZE`] bytes, so any printable start is text there; the
/// decoder refuses text that is no placement file (`bad_magic`, a `readme.txt`), and so does
/// this (`None`). `head` is the entry's first [`FORMAT_HEAD_SIZE`] bytes or more (`whole`:
/// the entry ends there). Text whose first lines are all blank or comments past `head` stays
/// text. No allocation.
pub fn decoded_format(head: &[u8], whole: bool) -> Option<Format> {
    /// Stops at the file event: the decoder has taken the input for its format (text: a
    /// text IPL or an IDE, §12.1).
    struct Recognised(Option<Format>);
    impl Visitor for Recognised {
        fn file(&mut self, info: &crate::FileInfo<'_>) -> Flow {
            self.0 = Some(info.format);
            Flow::Abort
        }
    }
    let sniffed = entry_format(head)?;
    if sniffed != Format::IplText {
        return Some(sniffed);
    }
    let mut decoder = Decoder::new();
    let mut recognised = Recognised(None);
    let fed = decoder.feed(head, &mut recognised);
    let result = match fed {
        Ok(_) if whole && recognised.0.is_none() => decoder.finish(&mut recognised),
        other => other.map(|_| ()),
    };
    match result {
        Err(error) if error.kind == ErrorKind::BadMagic => None,
        _ => Some(recognised.0.unwrap_or(sniffed)),
    }
}

const fn records_in(len: u64) -> u32 {
    let n = len / RECORD_SIZE;
    if n > u32::MAX as u64 {
        u32::MAX
    } else {
        n as u32
    }
}

fn le32(bytes: &[u8]) -> u32 {
    u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])
}

const fn bit(kind: ArchiveWarningKind) -> u8 {
    1 << kind as u8
}
