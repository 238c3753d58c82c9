//! The format state machines, and the sniffing that picks one from the magic.
//!
//! The framing protocol they follow is in [`protocol`], the field helpers they share in
//! [`fields`], the keyframe track of every animation format in [`track`].

pub(crate) mod anpk;
pub(crate) mod bones;
pub(crate) mod dff;
pub(crate) mod fields;
#[cfg(feature = "ipl-text")]
pub(crate) mod ide;
pub(crate) mod ifp2;
pub(crate) mod ipl_binary;
#[cfg(feature = "ipl-text")]
pub(crate) mod ipl_text;
pub(crate) mod protocol;
pub(crate) mod stories;
// The numbers of `data/ped.dat` (`level::PedDat`) are read with it in every build.
#[cfg_attr(not(feature = "ipl-text"), allow(dead_code))]
pub(crate) mod text;
pub(crate) mod track;

use self::protocol::{Ran, Step, Stepped, Want};
use crate::decoder::Game;
use crate::error::{Error, ErrorKind};
use crate::event::{Flow, Format, Visitor};

/// The machine of the format in use.
#[derive(Clone, Debug)]
pub(crate) enum Machine {
    /// Waiting for the magic (with `true`: for a RenderWare chunk header, whose first word
    /// came); text IPL: the game the caller named.
    Sniff(Option<Game>, bool),
    Ifp2(ifp2::Ifp2),
    Anpk(anpk::Anpk),
    Stories(stories::Stories),
    IplBinary(ipl_binary::IplBinary),
    #[cfg(feature = "ipl-text")]
    IplText(ipl_text::IplText),
    Dff(dff::Dff),
}

/// Calls `$call` on the machine of the format in use; `$sniff` while sniffing.
macro_rules! dispatch {
    ($machine:expr, $m:ident => $call:expr, Sniff($game:pat, $long:pat) => $sniff:expr) => {
        match $machine {
            Machine::Sniff($game, $long) => $sniff,
            Machine::Ifp2($m) => $call,
            Machine::Anpk($m) => $call,
            Machine::Stories($m) => $call,
            Machine::IplBinary($m) => $call,
            #[cfg(feature = "ipl-text")]
            Machine::IplText($m) => $call,
            Machine::Dff($m) => $call,
        }
    };
}

/// Bytes that tell a file's format: a binary magic, or four text bytes.
pub(crate) const MAGIC_SIZE: usize = 4;

/// RenderWare chunk ids (u32 LE, the high bytes 0) of a model (clump) and a texture dictionary.
const CLUMP: u8 = 0x10;
const TEXTURE_DICTIONARY: u8 = 0x16;

/// Bytes a file is sniffed by (fewer if it is shorter): a magic, or a RenderWare chunk header
/// (id, size, version).
pub(crate) const SNIFF_SIZE: usize = 12;

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

    /// What the machine wants next; while sniffing, the magic, then for a word that may begin
    /// a RenderWare chunk its header (a text file may be shorter than either: at the end of
    /// input, what there is). Every other file is told by its first four bytes.
    #[inline(always)]
    pub(crate) fn want(&self) -> Want {
        dispatch!(self, m => m.want(), Sniff(_, long) => match long {
            true => Want::Peek(SNIFF_SIZE),
            false => Want::Peek(MAGIC_SIZE),
        })
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
        dispatch!(self, m => m.run_whole(input, at, visitor), Sniff(_, _) => idle)
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
        dispatch!(self, m => m.step(unit, at, visitor), Sniff(game, long) => {
            if !*long && unit.len() == MAGIC_SIZE && may_begin_chunk(unit) {
                *long = true;
                return Ok(Stepped::new(0, Flow::Continue));
            }
            *self = machine(unit, *game).map_err(|kind| Error::new(kind, at))?;
            // The machine reads its header, magic included, as its own first unit.
            Ok(Stepped::new(0, Flow::Continue))
        })
    }
}

/// The machine for a file that starts with `head` (its first [`SNIFF_SIZE`] bytes, or all of
/// a shorter file), or the error kind of its refusal. The one sniffing rule: the decoder picks
/// its machine by it, and the archive layer names its entries by it (docs/FORMATS.md §8.1).
#[inline]
fn machine(head: &[u8], game: Option<Game>) -> Result<Machine, ErrorKind> {
    let magic = head.get(..MAGIC_SIZE).unwrap_or(head);
    let ours = match magic {
        b"ANP3" => Machine::Ifp2(ifp2::Ifp2::new(ifp2::Version::Anp3)),
        b"ANP2" => Machine::Ifp2(ifp2::Ifp2::new(ifp2::Version::Anp2)),
        b"ANPK" => Machine::Anpk(anpk::Anpk::new(false)),
        b"ANLF" => Machine::Anpk(anpk::Anpk::new(true)),
        b"mina" => Machine::Stories(stories::Stories::new()),
        b"bnry" => Machine::IplBinary(ipl_binary::IplBinary::new()),
        _ => Machine::Sniff(game, false),
    };
    if !matches!(ours, Machine::Sniff(..)) {
        Ok(ours)
    } else if magic.is_empty() {
        // Nothing at all has no format.
        Err(ErrorKind::Empty)
    } else if magic.len() < MAGIC_SIZE && BINARY_MAGICS.iter().any(|m| m.starts_with(magic)) {
        // The start of a binary magic is a binary file cut short.
        Err(ErrorKind::Truncated)
    } else if let Some(kind) = foreign(head) {
        // A clump is a model, ours; before text: a collision file's magic is printable.
        match kind {
            ErrorKind::RenderwareModel => Ok(Machine::Dff(dff::Dff::new())),
            kind => Err(kind),
        }
    } else if magic.iter().all(|&b| is_text(b)) {
        text(game)
    } else {
        Err(ErrorKind::BadMagic)
    }
}

/// The format the decoder reads in a file that starts with `head`, or the kind of error it
/// refuses the file with.
pub(crate) fn sniff_format(head: &[u8]) -> Result<Format, ErrorKind> {
    Ok(match machine(head, None)? {
        Machine::Ifp2(m) => m.format(),
        Machine::Anpk(_) => Format::Anpk,
        Machine::Stories(_) => Format::Anim,
        Machine::IplBinary(_) => Format::IplBinary,
        #[cfg(feature = "ipl-text")]
        Machine::IplText(_) => Format::IplText,
        Machine::Dff(_) => Format::Dff,
        Machine::Sniff(..) => return Err(ErrorKind::BadMagic),
    })
}

#[cfg(feature = "ipl-text")]
fn text(game: Option<Game>) -> Result<Machine, ErrorKind> {
    Ok(Machine::IplText(ipl_text::IplText::new(game)))
}

/// Text IPL is not built in: text is `Unsupported`.
#[cfg(not(feature = "ipl-text"))]
fn text(_: Option<Game>) -> Result<Machine, ErrorKind> {
    Err(ErrorKind::Unsupported)
}

/// The kind of error naming a file of a format that is not ours, by its first bytes
/// (docs/FORMATS.md §8.1).
pub(crate) fn foreign(head: &[u8]) -> Option<ErrorKind> {
    /// GTA IV IMG (version 3), the first word of its unencrypted header.
    const GTA4_IMG: u32 = 0xA94E_2A52;
    let word = |i: usize| {
        head.get(i * 4..i * 4 + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    match head.get(..MAGIC_SIZE)? {
        b"COLL" | b"COL2" | b"COL3" | b"COL4" => return Some(ErrorKind::CollisionFile),
        b"VERF" => return Some(ErrorKind::Fastman92Img),
        _ => {}
    }
    match word(0)? {
        GTA4_IMG => Some(ErrorKind::Gta4Img),
        id if id == u32::from(CLUMP) && word(2).is_some_and(is_renderware_version) => {
            Some(ErrorKind::RenderwareModel)
        }
        id if id == u32::from(TEXTURE_DICTIONARY) && word(2).is_some_and(is_renderware_version) => {
            Some(ErrorKind::TextureDictionary)
        }
        _ => None,
    }
}

/// Whether `magic` is the id of a RenderWare chunk that [`foreign`] names.
fn may_begin_chunk(magic: &[u8]) -> bool {
    matches!(magic, [CLUMP | TEXTURE_DICTIONARY, 0, 0, 0])
}

/// Whether a chunk header's third word is a RenderWare 3 library id, so that the id before it
/// is a chunk's and not random data: an unstamped 3.0 version (`0x300..=0x3FF`), or a stamped
/// one, `(version - 0x30000 & 0x3FF00) << 14 | (version & 0x3F) << 16 | build`, of a version
/// from 3.1 to 3.7 (the games' files are 3.1 to 3.6).
fn is_renderware_version(id: u32) -> bool {
    dff::is_library_id(id)
}
/// Bytes a text file starts with: printable ASCII and line breaks.
#[inline]
pub(crate) fn is_text(byte: u8) -> bool {
    matches!(byte, b'\t' | b'\n' | b'\r' | 0x20..=0x7e)
}
