//! The push decoder: framing of the caller's chunks into whole units, and the carry buffer.

use heapless::Vec;

use crate::error::{Error, ErrorKind, Warning, WarningKind};
use crate::event::{Flow, Visitor};
use crate::format::{Machine, Stepped, Want, MAX_UNIT};

/// Size of a [`Decoder`] in bytes. C callers reserve this much (see the C API).
pub const DECODER_SIZE: usize = core::mem::size_of::<Decoder>();

/// The decoder must fit where a C host puts it: on a small stack or in static memory.
const _: () = assert!(
    DECODER_SIZE <= 512,
    "the decoder must stay within 512 bytes"
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
/// place, and copies only a unit split between two chunks into a small carry buffer. It never
/// allocates, and the events are the same however the input is cut.
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
    carry: Vec<u8, MAX_UNIT>,
    machine: Machine,
    state: State,
    trailing_seen: bool,
}

impl Default for Decoder {
    fn default() -> Self {
        Self::new()
    }
}

impl Decoder {
    /// A decoder waiting for the first byte of a file of any supported format.
    pub const fn new() -> Self {
        Decoder {
            position: 0,
            carry: Vec::new(),
            machine: Machine::Sniff,
            state: State::Running,
            trailing_seen: false,
        }
    }

    /// Forgets everything, ready for a new file.
    pub fn reset(&mut self) {
        *self = Self::new();
    }

    /// Absolute offset of the next byte the decoder wants.
    pub fn position(&self) -> u64 {
        self.position
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
    pub fn feed<V: Visitor>(&mut self, input: &[u8], visitor: &mut V) -> Result<Progress, Error> {
        self.check_running()?;
        let result = self.run(input, visitor);
        if let Err(error) = result {
            self.state = State::Failed(error);
        }
        result
    }

    /// Ends the input: runs the steps that need no more bytes, then reports `end`.
    /// A unit cut short is a [`ErrorKind::Truncated`] error at its offset. Since no input follows,
    /// a pause requested here is not honoured.
    pub fn finish<V: Visitor>(&mut self, visitor: &mut V) -> Result<(), Error> {
        self.check_running()?;
        let result = self.finish_input(visitor);
        self.state = match result {
            Ok(()) => State::Finished,
            Err(error) => State::Failed(error),
        };
        result
    }

    fn finish_input<V: Visitor>(&mut self, visitor: &mut V) -> Result<(), Error> {
        loop {
            if self.run(&[], visitor)?.status == Status::Paused {
                continue;
            }
            match self.machine.want() {
                Want::Done => break,
                // A unit that may be missing: the machine sees the shorter rest and declines it.
                Want::Peek(_) => {
                    let at = self.unit_offset();
                    let stepped = self.machine.step(&self.carry, at, visitor)?;
                    self.after_event(stepped, at, 0)?;
                }
                _ => return Err(Error::new(ErrorKind::Truncated, self.unit_offset())),
            }
        }
        match visitor.end() {
            Flow::Abort => Err(Error::new(ErrorKind::Aborted, self.position)),
            Flow::Continue | Flow::Pause => Ok(()),
        }
    }

    fn check_running(&self) -> Result<(), Error> {
        match self.state {
            State::Running => Ok(()),
            State::Failed(error) => Err(error),
            State::Finished => Err(Error::new(ErrorKind::Finished, self.position)),
        }
    }

    /// Offset of the unit being assembled: the carried bytes precede `position`.
    fn unit_offset(&self) -> u64 {
        self.position - self.carry.len() as u64
    }

    fn run<V: Visitor>(&mut self, input: &[u8], visitor: &mut V) -> Result<Progress, Error> {
        let mut rest = input;
        loop {
            // The smallest piece the step accepts, and the most it may be given at once.
            let (size, max) = match self.machine.want() {
                Want::Done => return self.trailing(input, rest, visitor),
                Want::Unit(size) | Want::Peek(size) => (size, size),
                Want::Records { size, count } => (size, size.saturating_mul(count as usize)),
                Want::Skip(bytes) => (1, bytes as usize),
            };
            let at = self.unit_offset();
            let stepped = if self.carry.is_empty() && rest.len() >= size {
                let unit = &rest[..whole(rest.len().min(max), size)];
                let stepped = self.machine.step(unit, at, visitor)?;
                rest = &rest[stepped.consumed..];
                self.position += stepped.consumed as u64;
                stepped
            } else {
                // A unit split between chunks is assembled in the carry buffer. The carry may
                // also hold bytes a peek declined: they begin the next unit.
                let missing = size.saturating_sub(self.carry.len());
                let (head, tail) = rest.split_at(missing.min(rest.len()));
                // Cannot fail: no unit is larger than the carry buffer.
                let _ = self.carry.extend_from_slice(head);
                rest = tail;
                self.position += head.len() as u64;
                if self.carry.len() < size {
                    return Ok(Progress {
                        consumed: input.len(),
                        status: Status::NeedInput,
                    });
                }
                let unit = &self.carry[..whole(self.carry.len().min(max), size)];
                let stepped = self.machine.step(unit, at, visitor)?;
                let left = self.carry.len() - stepped.consumed;
                self.carry.copy_within(stepped.consumed.., 0);
                self.carry.truncate(left);
                stepped
            };
            if let Some(progress) = self.after_event(stepped, at, input.len() - rest.len())? {
                return Ok(progress);
            }
        }
    }

    /// Bytes after the content (and any a peek declined): reported once, then skipped.
    fn trailing<V: Visitor>(
        &mut self,
        input: &[u8],
        rest: &[u8],
        visitor: &mut V,
    ) -> Result<Progress, Error> {
        let used = input.len() - rest.len();
        let at = self.unit_offset();
        let trailing = !rest.is_empty() || !self.carry.is_empty();
        if trailing && !self.trailing_seen {
            self.trailing_seen = true;
            let warning = Warning {
                kind: WarningKind::TrailingData,
                offset: at,
            };
            let stepped = Stepped::new(0, visitor.warning(warning));
            if let Some(progress) = self.after_event(stepped, at, used)? {
                return Ok(progress);
            }
        }
        self.carry.clear();
        self.position += rest.len() as u64;
        Ok(Progress {
            consumed: input.len(),
            status: Status::Done,
        })
    }

    /// Ends `feed` after an event that paused (or, as an error, aborted).
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

/// The longest prefix of `len` bytes that holds whole pieces of `size` (all of it for size 0).
fn whole(len: usize, size: usize) -> usize {
    match size {
        0 => 0,
        _ => len - len % size,
    }
}
