//! The format state machines, and the sniffing that picks one.
//!
//! Each machine says what it wants next ([`Want`]) and consumes it in [`Machine::step`],
//! emitting at most one event per step. One event per step is what makes a pause exact: when
//! the visitor pauses, the step has completed and the machine already points past it.

pub(crate) mod anpk;
pub(crate) mod bnry;
pub(crate) mod bones;
pub(crate) mod ifp2;
pub(crate) mod ipl_text;
pub(crate) mod stories;
pub(crate) mod track;

use crate::decoder::Game;
use crate::error::{Error, ErrorKind, Warning, WarningKind};
use crate::event::{Flow, Visitor};

/// Longest name field the decoder delivers whole (ANPK names have a 32-bit length): 255 bytes
/// and the NUL. A longer one is an [`ErrorKind::Limit`] error.
pub const MAX_NAME: usize = 256;

/// Largest unit any machine asks for as one piece, the size of the decoder's carry buffer:
/// an ANPK animation name with the DGAN and INFO headers that follow it.
pub(crate) const MAX_UNIT: usize = MAX_NAME + 20;

const _: () = assert!(
    ipl_text::MAX_LINE <= MAX_UNIT,
    "a line must fit the carry buffer"
);

/// Files of these formats address their contents with 32-bit sizes and offsets.
const MAX_FILE_SIZE: u64 = 1 << 32;

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
    /// A line: the bytes up to and including the next `\n`, at most this many. At the end of
    /// input the step gets the last line without one, then an empty unit.
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

/// The outcome of [`Machine::run_whole`]: input bytes used by the steps taken, the visitor's
/// answer to the last event, and the offset of the unit that gave it (for an abort).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ran {
    pub consumed: usize,
    pub flow: Flow,
    pub at: u64,
    /// The error of the unit at `at`, after `consumed` bytes of steps that went well.
    pub error: Option<Error>,
}

/// The machine of the format in use.
#[derive(Clone, Debug)]
pub(crate) enum Machine {
    /// Waiting for the magic; text IPL: the game the caller named.
    Sniff(Option<Game>),
    Ifp2(ifp2::Ifp2),
    Anpk(anpk::Anpk),
    Stories(stories::Stories),
    Bnry(bnry::Bnry),
    IplText(ipl_text::IplText),
}

const MAGIC_SIZE: usize = 4;

impl Machine {
    /// Text formats: the number of the current line.
    pub(crate) fn line(&self) -> Option<u32> {
        match self {
            Machine::IplText(m) => Some(m.line()),
            _ => None,
        }
    }

    /// The error for a line longer than the machine's bound (only line machines ask for lines).
    pub(crate) fn too_long(&self, at: u64) -> Error {
        match self {
            Machine::IplText(m) => m.too_long(at),
            _ => Error::new(ErrorKind::Limit, at),
        }
    }

    #[inline(always)]
    pub(crate) fn want(&self) -> Want {
        match self {
            // A text file may be shorter than a magic: at the end of input, sniff what there is.
            Machine::Sniff(_) => Want::Peek(MAGIC_SIZE),
            Machine::Ifp2(m) => m.want(),
            Machine::Anpk(m) => m.want(),
            Machine::Stories(m) => m.want(),
            Machine::Bnry(m) => m.want(),
            Machine::IplText(m) => m.want(),
        }
    }

    /// Takes, in one loop, the steps whose units lie whole at the start of `input` (which
    /// starts at absolute offset `at`), exactly as [`step`](Self::step) would take them one at
    /// a time from the decoder's framing; stops where a unit does not fit, where the machine
    /// wants something else than a unit or records, or at an event the visitor pauses or
    /// aborts. The framing calls it when nothing is carried: a fast path for the bulk of a
    /// file (IFP2 only; the other machines take no step here).
    #[inline]
    pub(crate) fn run_whole<V: Visitor>(&mut self, input: &[u8], at: u64, visitor: &mut V) -> Ran {
        match self {
            Machine::Ifp2(m) => m.run_whole(input, at, visitor),
            _ => Ran {
                consumed: 0,
                flow: Flow::Continue,
                at,
                error: None,
            },
        }
    }

    /// Runs one step on `unit`, which starts at absolute offset `at` and is exactly what
    /// [`want`](Self::want) asked for (for `Records`, one or more whole records).
    #[inline]
    pub(crate) fn step<V: Visitor>(
        &mut self,
        unit: &[u8],
        at: u64,
        visitor: &mut V,
    ) -> Result<Stepped, Error> {
        match self {
            Machine::Sniff(game) => {
                // At the end of input: nothing at all has no format; the start of a binary
                // magic is a binary file cut short.
                if unit.is_empty() {
                    return Err(Error::new(ErrorKind::Empty, at));
                }
                if unit.len() < MAGIC_SIZE && BINARY_MAGICS.iter().any(|m| m.starts_with(unit)) {
                    return Err(Error::new(ErrorKind::Truncated, at));
                }
                *self = sniff(unit, *game).ok_or(Error::new(ErrorKind::BadMagic, at))?;
                // The machine reads its header, magic included, as its own first unit.
                Ok(Stepped::new(0, Flow::Continue))
            }
            Machine::Ifp2(m) => m.step(unit, at, visitor),
            Machine::Anpk(m) => m.step(unit, at, visitor),
            Machine::Stories(m) => m.step(unit, at, visitor),
            Machine::Bnry(m) => m.step(unit, at, visitor),
            Machine::IplText(m) => m.step(unit, at, visitor),
        }
    }
}

/// The magics of the binary formats.
const BINARY_MAGICS: [&[u8; 4]; 6] = [b"ANP3", b"ANP2", b"ANPK", b"ANLF", b"mina", b"bnry"];

fn sniff(magic: &[u8], game: Option<Game>) -> Option<Machine> {
    match magic {
        b"ANP3" => Some(Machine::Ifp2(ifp2::Ifp2::new(ifp2::Version::Anp3))),
        b"ANP2" => Some(Machine::Ifp2(ifp2::Ifp2::new(ifp2::Version::Anp2))),
        b"ANPK" => Some(Machine::Anpk(anpk::Anpk::new(false))),
        b"ANLF" => Some(Machine::Anpk(anpk::Anpk::new(true))),
        b"mina" => Some(Machine::Stories(stories::Stories::new())),
        b"bnry" => Some(Machine::Bnry(bnry::Bnry::new())),
        _ if !magic.is_empty() && magic.iter().all(|&b| is_text(b)) => {
            Some(Machine::IplText(ipl_text::IplText::new(game)))
        }
        _ => None,
    }
}

/// Bytes a text file starts with: printable ASCII and line breaks.
fn is_text(byte: u8) -> bool {
    matches!(byte, b'\t' | b'\n' | b'\r' | 0x20..=0x7e)
}

/// Runs a nom parser on a unit of exactly the size it reads. The framing guarantees the size,
/// so a failure would be a bug; it still becomes an error, never a panic.
pub(crate) fn parse<'a, T>(
    parser: impl Fn(&'a [u8]) -> nom::IResult<&'a [u8], T>,
    unit: &'a [u8],
    at: u64,
) -> Result<T, Error> {
    parser(unit)
        .map(|(_, value)| value)
        .map_err(|_| Error::new(ErrorKind::Malformed, at))
}

/// Fails with `CountTooLarge` (at `unit_at`) unless `count` records of `record_size` bytes,
/// starting at `from`, fit in a file these formats can address.
pub(crate) fn check_fits(
    from: u64,
    count: u32,
    record_size: u64,
    unit_at: u64,
) -> Result<(), Error> {
    if from + u64::from(count) * record_size > MAX_FILE_SIZE {
        return Err(Error::new(ErrorKind::CountTooLarge, unit_at));
    }
    Ok(())
}

/// A check on a unit: if `failed`, a warning of `kind` at `offset`.
pub(crate) type Check = (bool, WarningKind, u64);

/// Reports the failed checks of a unit before the unit's own event, one per step: the step
/// consumes nothing until all are reported, so a pause resumes at the right one.
#[derive(Clone, Debug)]
pub(crate) struct Checks {
    reported: u8,
}

impl Checks {
    pub(crate) const fn new() -> Self {
        Checks { reported: 0 }
    }

    /// The step for the next failed check not yet reported; `None` once all are.
    pub(crate) fn report<V: Visitor>(
        &mut self,
        checks: &[Check],
        visitor: &mut V,
    ) -> Option<Stepped> {
        while let Some(&(failed, kind, offset)) = checks.get(usize::from(self.reported)) {
            self.reported += 1;
            if failed {
                return Some(Stepped::new(0, visitor.warning(Warning { kind, offset })));
            }
        }
        self.reported = 0;
        None
    }
}

/// The bytes of a fixed `char[N]` field up to its first NUL; what follows is never data.
#[inline]
pub(crate) fn c_name(field: &[u8]) -> &[u8] {
    &field[..first_nul(field)]
}

/// The index of the first NUL in `bytes` (its length if none), eight bytes at a time: in a
/// word, `(w - 0x01…01) & !w & 0x80…80` marks its zero bytes, exactly up to the first one
/// (a borrow only runs upwards from a zero byte), and that one is the lowest mark.
#[inline]
fn first_nul(bytes: &[u8]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let (words, tail) = bytes.as_chunks::<8>();
    for (i, word) in words.iter().enumerate() {
        let w = u64::from_le_bytes(*word);
        let zeros = w.wrapping_sub(ONES) & !w & HIGHS;
        if zeros != 0 {
            return 8 * i + (zeros.trailing_zeros() / 8) as usize;
        }
    }
    let done = 8 * words.len();
    tail.iter()
        .position(|&b| b == 0)
        .map_or(bytes.len(), |i| done + i)
}

#[cfg(test)]
mod tests {
    use super::c_name;

    /// The word-at-a-time search agrees with a byte-by-byte one, for a NUL at every position
    /// of fields of every length up to 40, with and without bytes (0x01, 0x80, 0xFF) that
    /// could fool a word test around it.
    #[test]
    fn c_name_finds_the_first_nul() {
        for len in 0..40 {
            for nul in 0..=len {
                for filler in [b'a', 0x01, 0x80, 0xFF] {
                    let mut field = [filler; 40];
                    let field = &mut field[..len];
                    if nul < len {
                        field[nul] = 0;
                        // Bytes after the first NUL are garbage, zeros among them.
                        if nul + 2 < len {
                            field[nul + 2] = 0;
                        }
                    }
                    let expected = field.iter().position(|&b| b == 0).unwrap_or(len);
                    assert_eq!(c_name(field).len(), expected, "{len} {nul} {filler}");
                }
            }
        }
    }
}
