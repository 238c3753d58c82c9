//! The framing protocol between the decoder and the format machines: what a machine wants
//! next ([`Want`]), what a step did ([`Stepped`]), and the one route by which every machine
//! takes the units that lie whole in a chunk ([`Step::run_whole`]).

use super::fields::first_of;
use crate::error::Error;
use crate::event::{Flow, Visitor};
use crate::limits::MAX_UNIT;

/// What a machine needs next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Want {
    /// A unit of exactly this many bytes (0: a step that only emits an event).
    Unit(usize),
    /// One to `count` consecutive records of `size` bytes, as many as the input holds.
    Records { size: usize, count: u32 },
    /// One to `left` bytes to pass over (the step is told how many it got), of a field that
    /// starts at `from`: a cut inside it is reported there.
    Skip { from: u64, left: u32 },
    /// A unit that may be missing at the end of the input: the step may decline it
    /// (consume nothing), and at the end of input it is given the shorter rest.
    Peek(usize),
    /// A line: the bytes up to and including the next `\n` (or NUL: see [`line_end`]), at most
    /// this many. At the end of input the step gets the last line without one, then an empty
    /// unit. (Only text IPL asks for lines.)
    #[cfg_attr(not(feature = "ipl-text"), allow(dead_code))]
    Line(usize),
    /// Move to this absolute offset, then take a step with no input: skipping forward over the
    /// bytes at hand; a seek, for a caller that can, backward or beyond the chunk.
    Goto(u64),
    /// Read up to this absolute offset through the input (never a seek: the file must really
    /// be that long), then take a step with no input. Already past it, nothing to do.
    ReadTo(u64),
    /// The content is complete; any further bytes are trailing data.
    Done,
}

/// The outcome of one step: input bytes used (0 is allowed) and the visitor's answer.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Stepped {
    pub consumed: usize,
    pub flow: Flow,
}

impl Stepped {
    pub(crate) const fn new(consumed: usize, flow: Flow) -> Self {
        Stepped { consumed, flow }
    }
}

/// The outcome of [`Step::run_whole`]: input bytes used by the steps taken, the visitor's
/// answer to the last event, and the offset of the unit that gave it (for an abort).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ran {
    pub consumed: usize,
    pub flow: Flow,
    pub at: u64,
    /// The error of the unit at `at`, after `consumed` bytes of steps that went well.
    pub error: Option<Error>,
}

/// A format's state machine. It says what it wants next and consumes it in [`step`], emitting
/// at most one event per step (or a second one after an event the visitor let go on, such as
/// a bone's end after its last keyframes): when the visitor pauses, the step has completed and
/// the machine already points past it, so a pause resumes at the exact byte.
///
/// [`step`]: Step::step
pub(crate) trait Step {
    /// What the next step needs.
    fn want(&self) -> Want;

    /// Runs one step on `unit`, which starts at absolute offset `at` and is exactly what
    /// [`want`](Self::want) asked for (for `Records`, one or more whole records; for `Line`,
    /// the line with its `\n`).
    fn step<V: Visitor>(&mut self, unit: &[u8], at: u64, visitor: &mut V)
        -> Result<Stepped, Error>;

    /// Takes, in one loop, the steps whose units lie whole at the start of `input` (which
    /// starts at absolute offset `at`), exactly as the decoder's framing would give them one at
    /// a time; stops where a unit does not fit, where the machine wants something else than a
    /// unit, records or a line, or at an event the visitor pauses or aborts. The framing calls
    /// it when nothing is carried: the bulk of every file goes this way, and the framing's
    /// general loop only sees cuts, skips, seeks and the end.
    #[inline]
    fn run_whole<V: Visitor>(&mut self, input: &[u8], at: u64, visitor: &mut V) -> Ran {
        run_units(self, input, at, visitor)
    }
}

/// [`Step::run_whole`] as every machine has it unless it has a faster loop of its own (which
/// may hand the units it does not take itself to this one).
#[inline]
pub(crate) fn run_units<M: Step + ?Sized, V: Visitor>(
    machine: &mut M,
    input: &[u8],
    at: u64,
    visitor: &mut V,
) -> Ran {
    let mut used = 0;
    loop {
        let rest = input.get(used..).unwrap_or_default();
        let len = match machine.want() {
            Want::Unit(size) if rest.len() >= size => size,
            Want::Records { size, count } if size > 0 && rest.len() >= batch_bytes(size, count) => {
                whole(rest.len(), size.saturating_mul(count as usize), size)
            }
            Want::Line(max) => match line_end(&rest[..rest.len().min(max)]) {
                Some(end) => end + 1,
                None => break,
            },
            _ => break,
        };
        let unit_at = at + used as u64;
        match machine.step(&rest[..len], unit_at, visitor) {
            Ok(stepped) => {
                used += stepped.consumed;
                if stepped.flow != Flow::Continue {
                    return Ran {
                        consumed: used,
                        flow: stepped.flow,
                        at: unit_at,
                        error: None,
                    };
                }
            }
            // What the steps before it used still counts: the error is at this unit.
            Err(error) => {
                return Ran {
                    consumed: used,
                    flow: Flow::Continue,
                    at: unit_at,
                    error: Some(error),
                }
            }
        }
    }
    Ran {
        consumed: used,
        flow: Flow::Continue,
        at,
        error: None,
    }
}

/// Where the line at the start of `bytes` ends: the index of its line break, or of a NUL, after
/// which a text has no more lines (archive entries are padded with zeros to their sector; the
/// step ends the text there).
#[inline]
pub(crate) fn line_end(bytes: &[u8]) -> Option<usize> {
    first_of(bytes, b'\n', 0)
}

/// The bytes of records a step is given at the least: all `count` records when the carry
/// buffer holds them, else as many as it holds. Records are taken in place from a piece that
/// holds that many; fewer are gathered in the carry, across pieces, into a batch of that size,
/// so that small pieces cost an event per batch rather than one per piece (the batches
/// follow the cuts; the records in them do not).
#[inline]
pub(crate) fn batch_bytes(size: usize, count: u32) -> usize {
    let all = size.saturating_mul(count as usize);
    if all <= MAX_UNIT {
        all
    } else {
        (MAX_UNIT - MAX_UNIT % size.max(1)).max(size)
    }
}

/// The longest prefix of `len` bytes, at most `max`, that holds whole pieces of `size` (all of
/// it for size 0). `max` is a multiple of `size`: when the bytes reach it (the common case, so
/// first), no division is needed.
#[inline]
pub(crate) fn whole(len: usize, max: usize, size: usize) -> usize {
    if len >= max {
        max
    } else if size == 0 {
        0
    } else {
        len - len % size
    }
}
