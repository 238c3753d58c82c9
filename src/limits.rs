//! Every bound the decoder sets, in one place (docs/FORMATS.md §8.8). A file that
//! exceeds one is an [`ErrorKind::Limit`](crate::ErrorKind::Limit) error at the offset
//! concerned; none of them is reached by a file the games write.

/// Longest name field the decoder delivers whole (ANPK names have a 32-bit length): 255 bytes
/// and the NUL. A longer one is a `Limit` error.
pub const MAX_NAME: usize = 256;

/// Longest text line the decoder accepts, line break included (the games read lines of at most
/// 256 bytes); a longer one is a `Limit` error at the line's offset (before the text is known
/// to be a placement file, `BadMagic`).
pub const MAX_LINE: usize = 256;

/// Lines, other than blank lines and comments, within which a text file must show a section
/// keyword or a placement record to be taken for a placement file (else `BadMagic`).
pub const SNIFF_LINES: usize = 8;

/// Longest bare word that opens a text IPL section the games do not know (docs/FORMATS.md
/// §4.6); a longer word is a line outside any section.
pub const MAX_SECTION_NAME: usize = 16;

/// Most keyframes delivered in one batch.
pub const MAX_BATCH: usize = 64;

/// Seeks may make the decoder parse at most this many times the bytes up to the furthest
/// offset it reached (plus [`REREAD_SLACK`]); a seek back past that is a `Limit` error. Real
/// files re-read a few table entries and bone rows (gaps beyond the chunk at hand are seeks,
/// not reads); a Stories table of more than 512 entries (`STORIES_WINDOW`) takes a pass over its
/// relocation table per window.
pub const REREAD_FACTOR: u64 = 64;

/// Re-reading allowed on top of [`REREAD_FACTOR`], for small files.
pub const REREAD_SLACK: u64 = 1 << 20;

/// Largest unit any machine asks for as one piece, the size of the decoder's carry buffer:
/// an ANPK animation name with the DGAN and INFO headers that follow it.
pub(crate) const MAX_UNIT: usize = MAX_NAME + 20;

const _: () = assert!(MAX_LINE <= MAX_UNIT, "a line must fit the carry buffer");

/// Files of these formats address their contents with 32-bit sizes and offsets.
pub(crate) const MAX_FILE_SIZE: u64 = 1 << 32;

/// Stories table positions checked against the relocation table per pass (a bitmap of this
/// many bits lives in the decoder).
pub(crate) const STORIES_WINDOW: usize = 512;

/// The decoder must fit where a C host puts it: on a small stack or in static memory.
pub(crate) const MAX_DECODER_SIZE: usize = 512;
