//! The format state machines, and the sniffing that picks one from the magic.
//!
//! The framing protocol they follow is in [`protocol`], the field helpers they share in
//! [`fields`], the keyframe track of every animation format in [`track`].

pub(crate) mod anpk;
pub(crate) mod bones;
pub(crate) mod fields;
pub(crate) mod ifp2;
pub(crate) mod ipl_binary;
#[cfg(feature = "ipl-text")]
pub(crate) mod ipl_text;
pub(crate) mod protocol;
pub(crate) mod stories;
pub(crate) mod track;

use self::protocol::{Ran, Step, Stepped, Want};
use crate::decoder::Game;
use crate::error::{Error, ErrorKind};
use crate::event::{Flow, Format, Visitor};

/// The machine of the format in use.
#[derive(Clone, Debug)]
pub(crate) enum Machine {
    /// Waiting for the magic; text IPL: the game the caller named.
    Sniff(Option<Game>),
    Ifp2(ifp2::Ifp2),
    Anpk(anpk::Anpk),
    Stories(stories::Stories),
    IplBinary(ipl_binary::IplBinary),
    #[cfg(feature = "ipl-text")]
    IplText(ipl_text::IplText),
}

/// Calls `$call` on the machine of the format in use; `$sniff` while sniffing.
macro_rules! dispatch {
    ($machine:expr, $m:ident => $call:expr, Sniff($game:pat) => $sniff:expr) => {
        match $machine {
            Machine::Sniff($game) => $sniff,
            Machine::Ifp2($m) => $call,
            Machine::Anpk($m) => $call,
            Machine::Stories($m) => $call,
            Machine::IplBinary($m) => $call,
            #[cfg(feature = "ipl-text")]
            Machine::IplText($m) => $call,
        }
    };
}

const MAGIC_SIZE: usize = 4;

/// The magics of the binary formats.
const BINARY_MAGICS: [&[u8; 4]; 6] = [b"ANP3", b"ANP2", b"ANPK", b"ANLF", b"mina", b"bnry"];

impl Machine {
    /// Text formats: the number of the current line.
    pub(crate) fn line(&self) -> Option<u32> {
        match self {
            #[cfg(feature = "ipl-text")]
            Machine::IplText(m) => Some(m.line()),
            _ => None,
        }
    }

    /// The error for a line longer than the machine's bound (only line machines ask for lines).
    pub(crate) fn too_long(&self, at: u64) -> Error {
        match self {
            #[cfg(feature = "ipl-text")]
            Machine::IplText(m) => m.too_long(at),
            _ => Error::new(ErrorKind::Limit, at),
        }
    }

    /// What the machine wants next; while sniffing, the magic (a text file may be shorter than
    /// one: at the end of input, what there is).
    #[inline(always)]
    pub(crate) fn want(&self) -> Want {
        dispatch!(self, m => m.want(), Sniff(_) => Want::Peek(MAGIC_SIZE))
    }

    /// The machine's fast path over the units that lie whole in `input`
    /// ([`Step::run_whole`]).
    #[inline]
    pub(crate) fn run_whole<V: Visitor>(&mut self, input: &[u8], at: u64, visitor: &mut V) -> Ran {
        let idle = Ran {
            consumed: 0,
            flow: Flow::Continue,
            at,
            error: None,
        };
        dispatch!(self, m => m.run_whole(input, at, visitor), Sniff(_) => idle)
    }

    /// Runs one step on `unit`, which starts at absolute offset `at` and is exactly what
    /// [`want`](Self::want) asked for. Sniffing replaces the machine by the format's.
    #[inline]
    pub(crate) fn step<V: Visitor>(
        &mut self,
        unit: &[u8],
        at: u64,
        visitor: &mut V,
    ) -> Result<Stepped, Error> {
        dispatch!(self, m => m.step(unit, at, visitor), Sniff(game) => {
            // At the end of input: nothing at all has no format; the start of a binary magic
            // is a binary file cut short.
            if unit.is_empty() {
                return Err(Error::new(ErrorKind::Empty, at));
            }
            if unit.len() < MAGIC_SIZE && BINARY_MAGICS.iter().any(|m| m.starts_with(unit)) {
                return Err(Error::new(ErrorKind::Truncated, at));
            }
            *self = sniff(unit, *game).map_err(|kind| Error::new(kind, at))?;
            // The machine reads its header, magic included, as its own first unit.
            Ok(Stepped::new(0, Flow::Continue))
        })
    }
}

/// The machine of the file that starts with `magic`: `BadMagic` for no known format,
/// `Unsupported` for text when text IPL is not built in.
#[inline]
fn sniff(magic: &[u8], game: Option<Game>) -> Result<Machine, ErrorKind> {
    Ok(match magic {
        b"ANP3" => Machine::Ifp2(ifp2::Ifp2::new(ifp2::Version::Anp3)),
        b"ANP2" => Machine::Ifp2(ifp2::Ifp2::new(ifp2::Version::Anp2)),
        b"ANPK" => Machine::Anpk(anpk::Anpk::new(false)),
        b"ANLF" => Machine::Anpk(anpk::Anpk::new(true)),
        b"mina" => Machine::Stories(stories::Stories::new()),
        b"bnry" => Machine::IplBinary(ipl_binary::IplBinary::new()),
        _ if !magic.is_empty() && magic.iter().all(|&b| is_text(b)) => return text(game),
        _ => return Err(ErrorKind::BadMagic),
    })
}

#[cfg(feature = "ipl-text")]
fn text(game: Option<Game>) -> Result<Machine, ErrorKind> {
    Ok(Machine::IplText(ipl_text::IplText::new(game)))
}

#[cfg(not(feature = "ipl-text"))]
fn text(_: Option<Game>) -> Result<Machine, ErrorKind> {
    Err(ErrorKind::Unsupported)
}

/// The format the decoder would pick for a file that starts with `magic` (the archive layer
/// names its entries with it, so both sniff alike), whether or not it is built in.
pub(crate) fn sniff_format(magic: &[u8]) -> Option<Format> {
    match sniff(magic, None) {
        Ok(Machine::Ifp2(m)) => Some(m.format()),
        Ok(Machine::Anpk(_)) => Some(Format::Anpk),
        Ok(Machine::Stories(_)) => Some(Format::Anim),
        Ok(Machine::IplBinary(_)) => Some(Format::IplBinary),
        #[cfg(feature = "ipl-text")]
        Ok(Machine::IplText(_)) => Some(Format::IplText),
        Err(ErrorKind::Unsupported) => Some(Format::IplText),
        Ok(Machine::Sniff(_)) | Err(_) => None,
    }
}

/// Bytes a text file starts with: printable ASCII and line breaks.
#[inline]
fn is_text(byte: u8) -> bool {
    matches!(byte, b'\t' | b'\n' | b'\r' | 0x20..=0x7e)
}
