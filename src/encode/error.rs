//! Why a file cannot be written (docs/FORMATS.md §9.4).

use core::fmt;

use crate::{Format, FrameType};

/// A name that does not fit its field: up to its first 32 bytes, its length and the most the
/// field holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NameTooLong {
    shown: [u8; 32],
    /// The name's length in bytes.
    pub len: usize,
    /// The most bytes the target field holds (before its NUL).
    pub max: usize,
}

impl NameTooLong {
    pub(crate) fn new(name: &[u8], max: usize) -> Self {
        let mut shown = [0; 32];
        let n = name.len().min(32);
        shown[..n].copy_from_slice(&name[..n]);
        NameTooLong {
            shown,
            len: name.len(),
            max,
        }
    }

    /// The name's first bytes (all of it up to 32 bytes).
    pub fn name(&self) -> &[u8] {
        &self.shown[..self.len.min(32)]
    }
}

/// What a value lost would have been.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Lost {
    /// A keyframe value of a packed bone that is not a multiple of its step (§2.2).
    PackedValue,
    /// A text IPL float that is NaN or infinite.
    NonFinite,
    /// A text IPL model name that is empty or holds a blank, comma or control byte.
    ModelName,
    /// A text IPL line that would be longer than `MAX_LINE`, or a section line that would
    /// read back as something else.
    Line,
    /// Binary IPL: an instance scale other than 1 (the format has none).
    Scale,
    /// Binary IPL: a line of a text-only section (`cull`, `path`, ...).
    SectionLine,
    /// Text IPL: an instance whose layout (with or without scale) differs from the first
    /// one's, or a LOD index in the scaled layout, which has none.
    Layout,
    /// Binary IPL written back: the source's sections lay elsewhere than one after the other
    /// behind the header (a gap, bytes between them, overlapping sections), which a streaming
    /// writer does not reproduce (docs/FORMATS.md §9.7; `normalise` writes the stock layout).
    SectionOffset,
}

impl Lost {
    const fn text(self) -> &'static str {
        match self {
            Lost::PackedValue => {
                "keyframe value not exactly representable in packed form (use quantize)"
            }
            Lost::NonFinite => "NaN or infinite value cannot be written as text",
            Lost::ModelName => "model name cannot be written as one text field",
            Lost::Line => "line cannot be written as text without changing it",
            Lost::Scale => "binary IPL has no instance scale",
            Lost::SectionLine => "binary IPL has no text-only sections",
            Lost::Layout => "instance does not fit the text layout of the file's first instance",
            Lost::SectionOffset => {
                "binary IPL section at an offset the streaming writer does not reproduce (use normalise)"
            }
        }
    }
}

/// A line of the source that the output has no place for: its section (empty: outside any
/// section) and line number, or where that is not known (0), its offset in the source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineAt {
    /// The section, lower case; empty for a line outside any section.
    pub section: &'static str,
    /// The line number (from 1); 0 where not known.
    pub line: u32,
    /// The line's offset in the source, where the line number is not known.
    pub offset: u64,
}

/// Why a file cannot be written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EncodeError {
    /// The writer does not produce this format (Stories `.anim`; text IPL when the core's
    /// `ipl-text` feature is off).
    UnsupportedFormat(Format),
    /// A name with a character above U+00FF (whole-file API: names are Latin-1 strings).
    BadName,
    /// A name longer than its field holds (with its NUL), or holding a NUL byte.
    NameTooLong(NameTooLong),
    /// A frame type the target format cannot store.
    UnsupportedFrameType(FrameType),
    /// A packed value outside the range of `i16`.
    OutOfRange,
    /// A value the target cannot hold exactly.
    NotRepresentable(Lost),
    /// More records or bytes than the format's 32-bit fields hold.
    TooMany,
    /// An event where the format has no place for it (or after `end`).
    OutOfOrder,
    /// The sink failed.
    Sink,
    /// An animation file converted to a placement format, or the reverse.
    CannotConvert(Format, Format),
    /// A line the output would lose (a text-only section's, to a binary IPL; one outside any
    /// section, which the decoder does not pass on): unless `drop_text_sections` drops it.
    LineLost(LineAt),
    /// Text IPL: a line holding a NUL byte, which ends the text for a reader (every later
    /// line would be lost). The number, from 1, of the line in the output.
    NulInLine(u32),
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodeError::UnsupportedFormat(format) => write!(f, "cannot write {}", format.name()),
            EncodeError::BadName => f.write_str("name is not Latin-1"),
            EncodeError::NameTooLong(name) => {
                f.write_str("name \"")?;
                for &b in name.name() {
                    if b.is_ascii_graphic() || b == b' ' {
                        write!(f, "{}", char::from(b))?;
                    } else {
                        write!(f, "\\x{b:02x}")?;
                    }
                }
                if name.len > 32 {
                    f.write_str("...")?;
                }
                write!(
                    f,
                    "\" ({} bytes) does not fit its field ({} bytes and the NUL)",
                    name.len, name.max
                )
            }
            EncodeError::UnsupportedFrameType(t) => {
                write!(f, "frame type {} cannot be written", t.name())
            }
            EncodeError::OutOfRange => f.write_str("packed keyframe value out of range"),
            EncodeError::NotRepresentable(lost) => f.write_str(lost.text()),
            EncodeError::TooMany => f.write_str("count or size does not fit 32 bits"),
            EncodeError::OutOfOrder => f.write_str("event has no place in the output format"),
            EncodeError::Sink => f.write_str("the output failed"),
            EncodeError::CannotConvert(from, to) => {
                write!(f, "cannot convert {} to {}", from.name(), to.name())
            }
            EncodeError::LineLost(at) if at.section.is_empty() && at.line == 0 => write!(
                f,
                "the line outside any section at offset {} would be lost (the games skip it; \
                 drop_text_sections drops such lines)",
                at.offset
            ),
            EncodeError::LineLost(at) if at.section.is_empty() => write!(
                f,
                "line {} (outside any section) has no place in a binary IPL (the games skip \
                 it; drop_text_sections drops such lines)",
                at.line
            ),
            EncodeError::LineLost(at) => write!(
                f,
                "line {} (section {}) has no place in a binary IPL (drop_text_sections writes \
                 the instances and car generators and drops such lines)",
                at.line, at.section
            ),
            EncodeError::NulInLine(line) => write!(
                f,
                "line {line} holds a NUL byte: reading would end the text there"
            ),
        }
    }
}

impl core::error::Error for EncodeError {}

crate::error::kinds! {
    /// The kind of an [`EncodeError`]: its stable name and number (the C status), whatever
    /// the details the error carries.
    pub enum EncodeErrorKind {
        /// The format cannot be written, or not from these events (animations to a placement
        /// format or the reverse).
        UnsupportedFormat = 300, "unsupported_format", "cannot write this format from these events";
        /// A name does not fit its field with its NUL, or is not Latin-1.
        NameTooLong = 301, "name_too_long", "name does not fit its field";
        /// A frame type the target format cannot store.
        UnsupportedFrameType = 302, "unsupported_frame_type", "frame type cannot be written";
        /// A packed value outside the range of `i16`.
        OutOfRange = 303, "out_of_range", "packed keyframe value out of range";
        /// A value the target cannot hold exactly.
        NotRepresentable = 304, "not_representable", "value cannot be written exactly";
        /// More records or bytes than the format's 32-bit fields hold.
        TooMany = 305, "too_many", "count or size does not fit 32 bits";
        /// An event where the format has no place for it (or after `end`).
        OutOfOrder = 306, "out_of_order", "event has no place in the output format";
        /// The sink failed.
        Write = 307, "write", "the sink failed";
    }
}

impl EncodeError {
    /// The error's kind: its stable name and number.
    pub const fn kind(&self) -> EncodeErrorKind {
        match self {
            EncodeError::UnsupportedFormat(_) | EncodeError::CannotConvert(..) => {
                EncodeErrorKind::UnsupportedFormat
            }
            EncodeError::NameTooLong(_) | EncodeError::BadName => EncodeErrorKind::NameTooLong,
            EncodeError::UnsupportedFrameType(_) => EncodeErrorKind::UnsupportedFrameType,
            EncodeError::OutOfRange => EncodeErrorKind::OutOfRange,
            EncodeError::NotRepresentable(_)
            | EncodeError::LineLost(_)
            | EncodeError::NulInLine(_) => EncodeErrorKind::NotRepresentable,
            EncodeError::TooMany => EncodeErrorKind::TooMany,
            EncodeError::OutOfOrder => EncodeErrorKind::OutOfOrder,
            EncodeError::Sink => EncodeErrorKind::Write,
        }
    }
}
