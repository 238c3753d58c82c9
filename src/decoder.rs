//! The push decoder: framing of the caller's chunks into whole units, and the carry buffer.

use crate::error::{Error, ErrorKind, Warning, WarningKind};
use crate::event::{Flow, Visitor};
use crate::format::protocol::{batch_bytes, line_end, whole, Stepped, Want};
use crate::format::Machine;
use crate::limits::{MAX_DECODER_SIZE, MAX_UNIT, REREAD_FACTOR, REREAD_SLACK};

/// Size of a [`Decoder`] in bytes. C callers reserve this much (see the C API).
pub const DECODER_SIZE: usize = core::mem::size_of::<Decoder>();

/// The decoder must fit where a C host puts it: on a small stack or in static memory.
const _: () = assert!(
    DECODER_SIZE <= MAX_DECODER_SIZE,
    "the decoder must stay within MAX_DECODER_SIZE bytes"
);

/// Why `feed` returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Every byte was consumed; feed more (or call [`Decoder::finish`] at the end of input).
    NeedInput,
    /// The visitor paused; feed the unconsumed rest (or more input) to resume.
    Paused,
    /// The file's content is complete; later bytes are trailing data. Call `finish`.
    Done,
    /// The next unit lies behind what was fed (Stories files point anywhere): feed bytes from
    /// this absolute offset on, dropping the rest of the chunk. Only with [`Options::can_seek`].
    Seek(u64),
}

/// How the caller feeds the decoder, and what it knows about the file.
///
/// Build it from the default so that later fields keep their defaults:
/// `Options { can_seek: false, ..Options::default() }`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// The caller can restart the input at an earlier offset when `feed` returns
    /// [`Status::Seek`]. Without it, a unit behind the current position is an
    /// [`ErrorKind::SeekRequired`] error naming that offset.
    pub can_seek: bool,
    /// Text IPL: the game the file is for, which fixes the layout of its `inst` lines. `None`
    /// (the default): the first `inst` line that scans whole under the layout of its field
    /// count decides, once for the file (docs/FORMATS.md §4).
    pub game: Option<Game>,
}

impl Options {
    /// The defaults: a caller that can seek, the game told by the file.
    pub const DEFAULT: Options = Options {
        can_seek: true,
        game: None,
    };
}

impl Default for Options {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// A game, for the layout of text IPL `inst` lines (docs/FORMATS.md §4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Game {
    /// GTA III: `id name x y z sx sy sz rx ry rz rw` (12 fields).
    Iii,
    /// Vice City: `id name interior x y z sx sy sz rx ry rz rw` (13 fields).
    ViceCity,
    /// San Andreas: `id name interior x y z rx ry rz rw lod` (11 fields).
    SanAndreas,
}

/// What one `feed` did: how many bytes of the chunk it consumed, and why it returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Bytes of the chunk consumed; with [`Status::Paused`], feed the rest again later.
    pub consumed: usize,
    /// Why `feed` returned.
    pub status: Status,
}

#[derive(Clone, Debug)]
enum State {
    Running,
    Failed(Error),
    Finished,
}

/// A push decoder for every supported format, sniffed from the magic.
///
/// Feed it the file in chunks of any size; it parses every unit that lies whole in a chunk in
/// place, and copies only a unit split between two chunks into a small carry buffer. Records
/// (keyframes, placements) are taken in place by the batch; a chunk that holds fewer has them
/// gathered in the carry buffer, across chunks, until they make a batch of the buffer's size
/// (or the bone's last ones): small chunks cost one event per batch, not one per chunk. An
/// empty chunk, and `finish`, deliver what is gathered. It never allocates, and the events are
/// the same however the same bytes are cut (keyframe batches aside, which follow the cuts; a
/// warning about trailing data needs the trailing bytes fed).
///
/// ```
/// use gtastream::{Decoder, Status, Visitor};
///
/// struct Count(usize);
/// impl Visitor for Count {
///     fn keyframes(&mut self, frames: gtastream::Keyframes<'_>) -> gtastream::Flow {
///         self.0 += frames.len();
///         gtastream::Flow::Continue
///     }
/// }
///
/// # let file: &[u8] = b"ANP3\x1c\0\0\0demo\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0";
/// let mut decoder = Decoder::new();
/// let mut count = Count(0);
/// for chunk in file.chunks(4096) {
///     decoder.feed(chunk, &mut count)?;
/// }
/// decoder.finish(&mut count)?;
/// # Ok::<(), gtastream::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Decoder {
    /// Absolute offset of the next byte wanted; the carried bytes lie just before it.
    position: u64,
    /// The unit being assembled (its length in a `u16`: the decoder's size matters to hosts).
    carry: Carry,
    /// Bytes the carried unit (or batch of records) still waits for in all, when the last feed
    /// ended waiting for them (else 0): a piece that does not complete it is only appended.
    need: u16,
    machine: Machine,
    state: State,
    trailing_seen: bool,
    /// The furthest offset parsed, and the bytes parsed in all: re-reading after seeks is
    /// bounded by the input ([`REREAD_FACTOR`]).
    furthest: u64,
    parsed: u64,
    options: Options,
}

impl Default for Decoder {
    fn default() -> Self {
        Self::new()
    }
}

impl Decoder {
    /// A decoder waiting for the first byte of a file of any supported format, for a caller
    /// that can seek (see [`Options`]).
    pub const fn new() -> Self {
        Self::with_options(Options::DEFAULT)
    }

    /// A decoder for a caller with these abilities.
    pub const fn with_options(options: Options) -> Self {
        Decoder {
            position: 0,
            carry: Carry::new(),
            need: 0,
            machine: Machine::Sniff(options.game, false),
            state: State::Running,
            trailing_seen: false,
            furthest: 0,
            parsed: 0,
            options,
        }
    }

    /// From now on, reads through gaps and fails where a seek back is needed.
    #[cfg(feature = "std")]
    pub(crate) fn stop_seeking(&mut self) {
        self.options.can_seek = false;
    }

    /// Forgets everything but the options, ready for a new file.
    pub fn reset(&mut self) {
        *self = Self::with_options(self.options);
    }

    /// Absolute offset of the next byte the decoder wants.
    pub fn position(&self) -> u64 {
        self.position
    }

    /// Text formats: the number (from 1) of the line being decoded, or that failed.
    pub fn line(&self) -> Option<u32> {
        self.machine.line()
    }

    /// Bytes the decoder has parsed, re-reads after seeks included (skipped bytes not): at a
    /// seek back, at most [`REREAD_FACTOR`] times the furthest offset reached, plus
    /// [`REREAD_SLACK`].
    pub fn parsed(&self) -> u64 {
        self.parsed
    }

    /// The error that stopped the decoder, if any.
    pub fn error(&self) -> Option<Error> {
        match self.state {
            State::Failed(error) => Some(error),
            _ => None,
        }
    }

    /// Consumes `input`, reporting events to `visitor`, until the input is used up, the visitor
    /// pauses, or the content is complete. Errors are sticky: every later call returns them.
    #[inline]
    pub fn feed<V: Visitor>(&mut self, input: &[u8], visitor: &mut V) -> Result<Progress, Error> {
        self.check_running()?;
        if let Some(progress) = self.append(input) {
            return Ok(progress);
        }
        let result = self.run(input, visitor);
        if let Err(error) = result {
            self.state = State::Failed(error);
        }
        result
    }

    /// [`feed`](Self::feed) for a piece that cannot complete the unit the decoder waits for: the
    /// piece is kept, no event can come (so no visitor is needed), and the progress is what
    /// `feed` would return. `None`, with nothing done, for any other piece and for a decoder
    /// that stopped: give that piece to `feed`. For hosts whose visitor costs something to set
    /// up for each call (the C library's callbacks and panic boundary).
    #[inline]
    pub fn feed_buffered(&mut self, input: &[u8]) -> Option<Progress> {
        match self.state {
            State::Running => self.append(input),
            State::Failed(_) | State::Finished => None,
        }
    }

    /// Ends the input: runs the steps that need no more bytes, then reports `end`.
    /// A unit cut short is a [`ErrorKind::Truncated`] error at its offset; a record behind the
    /// position that a `feed` would have asked to seek to is [`ErrorKind::SeekRequired`] (after
    /// [`Status::Paused`], feed the rest, even empty, before finishing). Since no input
    /// follows, a pause requested here is not honoured.
    pub fn finish<V: Visitor>(&mut self, visitor: &mut V) -> Result<(), Error> {
        self.check_running()?;
        let result = self.finish_input(visitor);
        self.state = match result {
            Ok(()) => State::Finished,
            Err(error) => State::Failed(error),
        };
        result
    }

    /// Decodes a whole file held in memory: feeds it, follows seeks, goes on after pauses, and
    /// finishes.
    pub fn decode_slice<V: Visitor>(&mut self, data: &[u8], visitor: &mut V) -> Result<(), Error> {
        let mut at = 0;
        loop {
            let rest = data.get(at..).unwrap_or_default();
            let progress = self.feed(rest, visitor)?;
            match progress.status {
                Status::Paused => at += progress.consumed,
                Status::Seek(offset) => at = usize::try_from(offset).unwrap_or(usize::MAX),
                Status::NeedInput | Status::Done => return self.finish(visitor),
            }
        }
    }

    fn finish_input<V: Visitor>(&mut self, visitor: &mut V) -> Result<(), Error> {
        // No input follows, so nothing can be sought: a record behind the position is
        // `seek_required` at once (the steps would otherwise move there and find no bytes).
        let can_seek = core::mem::replace(&mut self.options.can_seek, false);
        let result = self.finish_steps(visitor);
        self.options.can_seek = can_seek;
        result
    }

    fn finish_steps<V: Visitor>(&mut self, visitor: &mut V) -> Result<(), Error> {
        loop {
            if self.run(&[], visitor)?.status == Status::Paused {
                continue;
            }
            match self.machine.want() {
                Want::Done => break,
                // A unit that may be missing, or a last line without a line break: the machine
                // gets what there is (perhaps nothing).
                Want::Peek(_) | Want::Line(_) => {
                    let at = self.unit_offset();
                    let stepped = self.machine.step(self.carry.as_slice(), at, visitor)?;
                    self.drop_carried(stepped.consumed);
                    self.after_event(stepped, at, 0)?;
                }
                // The input ended where a record behind it was due: the caller did not seek.
                Want::Goto(target) if target < self.unit_offset() => {
                    return Err(Error::new(ErrorKind::SeekRequired, target));
                }
                Want::Goto(at) | Want::ReadTo(at) | Want::Skip { from: at, .. } => {
                    return Err(Error::new(ErrorKind::Truncated, at));
                }
                _ => return Err(Error::new(ErrorKind::Truncated, self.unit_offset())),
            }
        }
        match visitor.end() {
            Flow::Abort => Err(Error::new(ErrorKind::Aborted, self.position)),
            Flow::Continue | Flow::Pause => Ok(()),
        }
    }

    #[inline]
    fn check_running(&self) -> Result<(), Error> {
        match self.state {
            State::Running => Ok(()),
            State::Failed(error) => Err(error),
            State::Finished => Err(Error::new(ErrorKind::Finished, self.position)),
        }
    }

    /// Offset of the unit being assembled: the carried bytes precede `position`.
    #[inline]
    fn unit_offset(&self) -> u64 {
        self.position - self.carry.len() as u64
    }

    /// A piece that does not complete the unit the carry waits for is only appended: the cost
    /// of a small piece (a byte from a decompressor) is a copy, in the caller's `feed` (no
    /// call of `run`, no event).
    #[inline(always)]
    fn append(&mut self, input: &[u8]) -> Option<Progress> {
        if input.is_empty() || self.carry.len() + input.len() >= usize::from(self.need) {
            return None;
        }
        self.carry.extend(input);
        self.advance(input.len());
        Some(Progress {
            consumed: input.len(),
            status: Status::NeedInput,
        })
    }

    fn run<V: Visitor>(&mut self, input: &[u8], visitor: &mut V) -> Result<Progress, Error> {
        // Set again when the carry waits for a unit (see `append`).
        self.need = 0;
        let mut rest = input;
        loop {
            // The units that lie whole in the input, in one loop (the bulk of a file).
            if self.carry.is_empty() {
                let ran = self.machine.run_whole(rest, self.position, visitor);
                rest = &rest[ran.consumed..];
                self.advance(ran.consumed);
                if let Some(error) = ran.error {
                    return Err(error);
                }
                let stepped = Stepped::new(ran.consumed, ran.flow);
                if let Some(progress) =
                    self.after_event(stepped, ran.at, input.len() - rest.len())?
                {
                    return Ok(progress);
                }
            }
            // The smallest piece the step accepts, the most it may be given at once, and what
            // it waits for: records are gathered into a batch (see `batch_bytes`).
            let want = self.machine.want();
            let (size, max, hold) = match want {
                Want::Done => return self.trailing(input, rest, visitor),
                Want::Goto(target) | Want::ReadTo(target) => {
                    let seek_ahead = matches!(want, Want::Goto(_));
                    if let Some(status) = self.goto(target, seek_ahead, &mut rest)? {
                        let consumed = input.len() - rest.len();
                        return Ok(Progress { consumed, status });
                    }
                    (0, 0, 0)
                }
                Want::Unit(size) | Want::Peek(size) => (size, size, size),
                Want::Records { size, count } => (
                    size,
                    size.saturating_mul(count as usize),
                    batch_bytes(size, count),
                ),
                Want::Line(max) => {
                    let (size, max) = self.line_unit(rest, max)?;
                    (size, max, size)
                }
                Want::Skip { left, .. } => (1, left as usize, 1),
            };
            let at = self.unit_offset();
            let stepped = if self.carry.is_empty() && rest.len() >= hold {
                let unit = &rest[..whole(rest.len(), max, size)];
                let stepped = self.machine.step(unit, at, visitor)?;
                rest = &rest[stepped.consumed..];
                self.advance(stepped.consumed);
                stepped
            } else {
                // A unit split between pieces is assembled in the carry buffer, and records
                // are gathered there up to a batch, across pieces. The carry may also hold
                // bytes a peek declined: they begin the next unit.
                let take = hold.saturating_sub(self.carry.len()).min(rest.len());
                let (head, tail) = rest.split_at(take);
                // No unit or batch is larger than the carry buffer.
                self.carry.extend(head);
                rest = tail;
                self.advance(head.len());
                // An empty feed (and the end of input) delivers the records gathered so far.
                let flush = input.is_empty() && self.carry.len() >= size;
                if self.carry.len() < hold && !flush {
                    if matches!(want, Want::Unit(_) | Want::Peek(_) | Want::Records { .. }) {
                        self.need = hold as u16;
                    }
                    return Ok(Progress {
                        consumed: input.len(),
                        status: Status::NeedInput,
                    });
                }
                // A full batch is `hold` bytes, a multiple of `size`: no division needed.
                let len = if self.carry.len() >= hold {
                    hold
                } else {
                    whole(self.carry.len(), max, size)
                };
                let unit = self.carry.as_slice().get(..len).unwrap_or_default();
                let stepped = self.machine.step(unit, at, visitor)?;
                self.drop_carried(stepped.consumed);
                stepped
            };
            if let Some(progress) = self.after_event(stepped, at, input.len() - rest.len())? {
                return Ok(progress);
            }
        }
    }

    /// The next line's size: through its `\n`, which may already be among the carried bytes.
    /// A size beyond what is here makes the carry take everything and wait for input.
    #[inline]
    fn line_unit(&self, rest: &[u8], max: usize) -> Result<(usize, usize), Error> {
        let carried = self.carry.as_slice();
        let here = carried.len() + rest.len();
        let end = line_end(&carried[..carried.len().min(max)]).or_else(|| {
            let room = max.saturating_sub(carried.len());
            line_end(&rest[..rest.len().min(room)]).map(|i| carried.len() + i)
        });
        match end {
            Some(i) => Ok((i + 1, i + 1)),
            None if here >= max => Err(self.machine.too_long(self.unit_offset())),
            None => Ok((here + 1, 0)),
        }
    }

    /// Consumes `n` bytes of input that a step parses (skipped bytes cost no work).
    #[inline]
    fn advance(&mut self, n: usize) {
        self.position += n as u64;
        self.parsed += n as u64;
        self.furthest = self.furthest.max(self.position);
    }

    /// Moves to `target` (from the start of the carried bytes). Forward, it skips what is
    /// here; for a caller that can seek, a target beyond this chunk (with `seek_ahead`) or
    /// behind it is a seek. `None` once there.
    #[inline]
    fn goto(
        &mut self,
        target: u64,
        seek_ahead: bool,
        rest: &mut &[u8],
    ) -> Result<Option<Status>, Error> {
        let here = self.unit_offset();
        if target < here {
            if !seek_ahead {
                // Reading up to an offset already passed: nothing to do.
                return Ok(None);
            }
            if !self.options.can_seek {
                return Err(Error::new(ErrorKind::SeekRequired, target));
            }
            // Hostile offsets could send a seeking caller round the same bytes for ever. (Both
            // counts follow the units parsed, so the check falls alike for any chunking.)
            if self.parsed > REREAD_FACTOR * self.furthest + REREAD_SLACK {
                return Err(Error::new(ErrorKind::Limit, target));
            }
            return Ok(Some(self.seek(target)));
        }
        let gap = target - here;
        if seek_ahead && self.options.can_seek && gap > (self.carry.len() + rest.len()) as u64 {
            return Ok(Some(self.seek(target)));
        }
        let dropped = self.carry.len().min(gap as usize);
        self.drop_carried(dropped);
        let skipped = rest
            .len()
            .min(usize::try_from(gap - dropped as u64).unwrap_or(usize::MAX));
        *rest = &rest[skipped..];
        self.position += skipped as u64;
        Ok((self.unit_offset() < target).then_some(Status::NeedInput))
    }

    /// Asks the caller to go on from `target`; what was carried or is left of the chunk is
    /// dropped.
    #[inline]
    fn seek(&mut self, target: u64) -> Status {
        self.carry.clear();
        self.position = target;
        Status::Seek(target)
    }

    /// Drops `n` bytes from the front of the carry buffer.
    #[inline]
    fn drop_carried(&mut self, n: usize) {
        self.carry.drop_front(n);
    }

    /// Bytes after the content (and any a peek declined) are skipped. Zeros are archive
    /// padding; the first other byte is reported once, as stale data.
    fn trailing<V: Visitor>(
        &mut self,
        input: &[u8],
        rest: &[u8],
        visitor: &mut V,
    ) -> Result<Progress, Error> {
        if !self.trailing_seen {
            let carried = self
                .carry
                .as_slice()
                .iter()
                .position(|&b| b != 0)
                .map(|i| self.unit_offset() + i as u64);
            let fed = || {
                rest.iter()
                    .position(|&b| b != 0)
                    .map(|i| self.position + i as u64)
            };
            if let Some(at) = carried.or_else(fed) {
                self.trailing_seen = true;
                let warning = Warning {
                    kind: WarningKind::TrailingData,
                    offset: at,
                };
                let stepped = Stepped::new(0, visitor.warning(warning));
                if let Some(progress) = self.after_event(stepped, at, input.len() - rest.len())? {
                    return Ok(progress);
                }
            }
        }
        // The bytes themselves, for a writer that keeps them: the carried ones, then the fed.
        let mut flow = Flow::Continue;
        for piece in [self.carry.as_slice(), rest] {
            if !piece.is_empty() && flow == Flow::Continue {
                flow = visitor.trailing(piece);
            }
        }
        let at = self.unit_offset();
        self.carry.clear();
        self.position += rest.len() as u64;
        // Everything is consumed: a pause resumes after it.
        let stepped = Stepped::new(0, flow);
        if let Some(progress) = self.after_event(stepped, at, input.len())? {
            return Ok(progress);
        }
        Ok(Progress {
            consumed: input.len(),
            status: Status::Done,
        })
    }

    /// Ends `feed` after an event that paused (or, as an error, aborted).
    #[inline]
    fn after_event(
        &self,
        stepped: Stepped,
        at: u64,
        consumed: usize,
    ) -> Result<Option<Progress>, Error> {
        match stepped.flow {
            Flow::Continue => Ok(None),
            Flow::Pause => Ok(Some(Progress {
                consumed,
                status: Status::Paused,
            })),
            Flow::Abort => Err(Error::new(ErrorKind::Aborted, at)),
        }
    }
}

/// The carry buffer: the start of a unit split between chunks (and bytes a peek declined),
/// at most [`MAX_UNIT`] bytes.
#[derive(Clone, Debug)]
struct Carry(heapless::Vec<u8, MAX_UNIT>);

impl Carry {
    const fn new() -> Self {
        Carry(heapless::Vec::new())
    }

    #[inline]
    fn len(&self) -> usize {
        self.0.len()
    }

    #[inline]
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    #[inline]
    fn as_slice(&self) -> &[u8] {
        &self.0
    }

    /// Appends `bytes`, which the framing never lets exceed the capacity (what would is
    /// dropped, and the unit then never completes).
    #[inline]
    fn extend(&mut self, bytes: &[u8]) {
        // A byte or two (small pieces) are pushed: cheaper than a call to copy them.
        if let [byte] = bytes {
            let _ = self.0.push(*byte);
        } else {
            let _ = self.0.extend_from_slice(bytes);
        }
    }

    #[inline]
    fn clear(&mut self) {
        self.0.clear();
    }

    /// Drops `n` bytes (at most the length) from the front.
    #[inline]
    fn drop_front(&mut self, n: usize) {
        let len = self.0.len();
        if n >= len {
            // The common case (a unit or batch taken whole): no call to move nothing.
            self.0.clear();
            return;
        }
        self.0.copy_within(n..len, 0);
        self.0.truncate(len - n);
    }
}
