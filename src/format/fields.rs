//! Field helpers the format machines share: running a nom parser on a unit, checking that a
//! count fits the file, warnings checked before a unit's event, and fixed `char[N]` names.

use super::protocol::Stepped;
use crate::error::{Error, ErrorKind, Warning, WarningKind};
use crate::event::Visitor;
use crate::limits::MAX_FILE_SIZE;

/// The sections of text IPL files (here, not with the text decoder: the encoder counts the
/// lines it drops per section without text IPL too).
pub(crate) const SECTIONS: [&str; 13] = [
    "inst", "cull", "path", "grge", "enex", "pick", "cars", "jump", "tcyc", "auzo", "mult", "occl",
    "zone",
];

/// The `i`th 32-bit little-endian word of a fixed-size record: records on the hot path are
/// read at their fixed offsets, without parser combinators (whose calls a build without
/// cross-crate inlining keeps).
#[inline(always)]
pub(crate) fn u32_at<const N: usize>(record: &[u8; N], i: usize) -> u32 {
    u32::from_le_bytes([
        record[4 * i],
        record[4 * i + 1],
        record[4 * i + 2],
        record[4 * i + 3],
    ])
}

/// The `i`th 32-bit little-endian float of a fixed-size record (see [`u32_at`]).
#[inline(always)]
pub(crate) fn f32_at<const N: usize>(record: &[u8; N], i: usize) -> f32 {
    f32::from_bits(u32_at(record, i))
}

/// A unit as the fixed-size record the framing was asked for. The framing guarantees the size,
/// so a failure would be a bug; it still becomes an error, never a panic.
#[inline]
pub(crate) fn record<const N: usize>(unit: &[u8], at: u64) -> Result<&[u8; N], Error> {
    unit.first_chunk()
        .ok_or(Error::new(ErrorKind::Malformed, at))
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
#[inline]
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

/// The index of the first NUL in `bytes` (its length if none).
#[inline]
fn first_nul(bytes: &[u8]) -> usize {
    first_of(bytes, 0, 0).unwrap_or(bytes.len())
}

/// The index of the first byte of `bytes` equal to `a` or `b`, eight bytes at a time: in a
/// word, `(w - 0x01…01) & !w & 0x80…80` marks its zero bytes exactly up to the first one (a
/// borrow only runs upwards from a zero byte), so in `w ^ a…a` and `w ^ b…b` the lowest mark of
/// either is the first byte equal to `a` or `b`.
#[inline]
pub(crate) fn first_of(bytes: &[u8], a: u8, b: u8) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let zeros = |w: u64| w.wrapping_sub(ONES) & !w & HIGHS;
    let (wa, wb) = (ONES * u64::from(a), ONES * u64::from(b));
    let (words, tail) = bytes.as_chunks::<8>();
    for (i, word) in words.iter().enumerate() {
        let w = u64::from_le_bytes(*word);
        let marks = zeros(w ^ wa) | zeros(w ^ wb);
        if marks != 0 {
            return Some(8 * i + (marks.trailing_zeros() / 8) as usize);
        }
    }
    let done = 8 * words.len();
    tail.iter()
        .position(|&t| t == a || t == b)
        .map(|i| done + i)
}

/// A blank for the games' text line reader: every control character and comma becomes a space.
#[inline(always)]
pub(crate) fn is_blank(b: u8) -> bool {
    b <= b' ' || b == b','
}

/// The fields of a text line: runs of bytes between blanks (commas and control characters too).
pub(crate) fn line_fields(text: &[u8]) -> impl Iterator<Item = &[u8]> {
    text.split(|&b| is_blank(b))
        .filter(|field| !field.is_empty())
}

#[cfg(test)]
mod tests {
    use super::{c_name, first_of};

    /// The search for either of two bytes agrees with a byte-by-byte one, for a match at every
    /// position, around bytes that could fool a word test.
    #[test]
    fn first_of_finds_the_first_match() {
        for len in 0..40 {
            for at in 0..=len {
                for filler in [b'a', 0x01, 0x0b, 0x80, 0xFF] {
                    for (a, b, put) in [(b'\n', 0, b'\n'), (b'\n', 0, 0), (b'x', b'x', b'x')] {
                        let mut bytes = [filler; 40];
                        let bytes = &mut bytes[..len];
                        if at < len {
                            bytes[at] = put;
                        }
                        let expected = bytes.iter().position(|&t| t == a || t == b);
                        assert_eq!(first_of(bytes, a, b), expected, "{len} {at} {filler}");
                    }
                }
            }
        }
    }

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
