//! Field helpers the format machines share: running a nom parser on a unit, checking that a
//! count fits the file, warnings checked before a unit's event, and fixed `char[N]` names.

use super::protocol::Stepped;
use crate::error::{Error, ErrorKind, Warning, WarningKind};
use crate::event::Visitor;
use crate::limits::MAX_FILE_SIZE;

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
