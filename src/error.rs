//! Errors and warnings: what went wrong or looked odd, and the absolute byte offset where.

use core::fmt;

/// Why decoding stopped. Every kind comes with the absolute offset of the unit that failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input starts with neither the magic of a supported binary format nor text, or is
    /// text that is no placement file (no section keyword and no placement record among its
    /// first lines: docs/FORMATS.md §4).
    BadMagic,
    /// The input ended inside a unit (`finish` was called too early).
    Truncated,
    /// A bone declares a keyframe type the format does not define.
    UnknownFrameType,
    /// A count whose records cannot fit in a file these formats can address (4 GiB),
    /// or a negative count.
    CountTooLarge,
    /// A field holds a value the format forbids.
    Malformed,
    /// A unit lies behind the current position, and the caller said it cannot seek
    /// ([`Options::can_seek`](crate::Options::can_seek)), or ended the input (`finish`)
    /// where `feed` would have asked for a seek; the offset is the unit's.
    SeekRequired,
    /// A visitor returned [`Flow::Abort`](crate::Flow::Abort).
    Aborted,
    /// The file exceeds a documented bound of the decoder: a name longer than
    /// [`MAX_NAME`](crate::MAX_NAME), a line longer than [`MAX_LINE`](crate::MAX_LINE), or
    /// seeks re-reading more than [`REREAD_FACTOR`](crate::REREAD_FACTOR) times the input.
    Limit,
    /// `feed` or `finish` was called after `finish` had already ended the input.
    Finished,
    /// The input is empty (`finish` before any byte): there is nothing to tell the format by.
    Empty,
}

impl ErrorKind {
    /// A stable short name (`snake_case`), for tools and logs.
    pub const fn name(self) -> &'static str {
        match self {
            ErrorKind::BadMagic => "bad_magic",
            ErrorKind::Truncated => "truncated",
            ErrorKind::UnknownFrameType => "unknown_frame_type",
            ErrorKind::CountTooLarge => "count_too_large",
            ErrorKind::Malformed => "malformed",
            ErrorKind::SeekRequired => "seek_required",
            ErrorKind::Aborted => "aborted",
            ErrorKind::Limit => "limit",
            ErrorKind::Finished => "finished",
            ErrorKind::Empty => "empty",
        }
    }

    /// A short, static, human-readable description.
    pub const fn reason(self) -> &'static str {
        match self {
            ErrorKind::BadMagic => "unknown file magic",
            ErrorKind::Truncated => "input ends inside a unit",
            ErrorKind::UnknownFrameType => "unknown keyframe type",
            ErrorKind::CountTooLarge => "count too large for the file",
            ErrorKind::Malformed => "malformed field",
            ErrorKind::Limit => "exceeds a bound of the decoder",
            ErrorKind::SeekRequired => "record lies behind the current position (cannot seek)",
            ErrorKind::Aborted => "aborted by the visitor",
            ErrorKind::Finished => "input already finished",
            ErrorKind::Empty => "empty input",
        }
    }
}

/// A decoding error: its kind and the absolute byte offset of the unit that failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Error {
    /// What went wrong.
    pub kind: ErrorKind,
    /// Absolute byte offset of the unit that failed.
    pub offset: u64,
}

impl Error {
    pub(crate) const fn new(kind: ErrorKind, offset: u64) -> Self {
        Error { kind, offset }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at offset {}", self.kind.reason(), self.offset)
    }
}

impl core::error::Error for Error {}

/// Something the games accept but that disagrees with the format: decoding goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum WarningKind {
    /// The header's `size` field disagrees with where the data really ends.
    SizeMismatch,
    /// Bytes follow the last declared record; they are skipped, not parsed.
    TrailingData,
    /// An ANP3 animation's `frameDataSize` disagrees with the keyframes that follow.
    FrameDataSizeMismatch,
    /// An ANP3 animation's `flags` bit 0 is clear although its keyframes are compressed.
    CompressedFlagClear,
    /// Binary IPL: a section the game never reads declares records.
    UnknownSection,
    /// Text IPL: a line outside any section (the game skips it).
    LineOutsideSection,
    /// Text IPL: the input ends inside a section (no `end` line).
    UnclosedSection,
    /// A chunk tag is not the one expected there (ANPK: the engines do not check it).
    UnexpectedTag,
    /// A keyframe's time is earlier than the previous one of the same bone (reported once a bone).
    TimeBackwards,
    /// Text IPL: a conversion of the line failed (too few fields, a number that is none), so
    /// the game reads stale values; no record is reported, the line is passed through as a
    /// [`SectionLine`](crate::SectionLine). The offset is the line's.
    MalformedLine,
    /// Text IPL: text after the last field of a record that is not a comment; the game
    /// ignores it (the record is reported as the game reads it). The offset is the text's.
    TrailingText,
    /// Animation: a bone has the name of an earlier bone of the same animation (name lookups
    /// find only one). The offset is the second bone's.
    DuplicateBone,
}

impl WarningKind {
    /// A stable short name (`snake_case`), for tools and logs.
    pub const fn name(self) -> &'static str {
        match self {
            WarningKind::SizeMismatch => "size_mismatch",
            WarningKind::TrailingData => "trailing_data",
            WarningKind::FrameDataSizeMismatch => "frame_data_size_mismatch",
            WarningKind::CompressedFlagClear => "compressed_flag_clear",
            WarningKind::UnexpectedTag => "unexpected_tag",
            WarningKind::UnknownSection => "unknown_section",
            WarningKind::LineOutsideSection => "line_outside_section",
            WarningKind::UnclosedSection => "unclosed_section",
            WarningKind::TimeBackwards => "time_backwards",
            WarningKind::MalformedLine => "malformed_line",
            WarningKind::TrailingText => "trailing_text",
            WarningKind::DuplicateBone => "duplicate_bone",
        }
    }

    /// A short, static, human-readable description.
    pub const fn reason(self) -> &'static str {
        match self {
            WarningKind::SizeMismatch => "size field disagrees with the data",
            WarningKind::TrailingData => "bytes after the last record",
            WarningKind::FrameDataSizeMismatch => "frameDataSize disagrees with the keyframes",
            WarningKind::CompressedFlagClear => "compressed flag clear on compressed keyframes",
            WarningKind::UnexpectedTag => "unexpected chunk tag",
            WarningKind::UnknownSection => "unknown section declares records",
            WarningKind::LineOutsideSection => "line outside any section",
            WarningKind::UnclosedSection => "section not closed by end",
            WarningKind::TimeBackwards => "keyframe time goes backwards",
            WarningKind::MalformedLine => "line the game cannot read, skipped",
            WarningKind::TrailingText => "text after the last field, ignored",
            WarningKind::DuplicateBone => "bone name repeated in the animation",
        }
    }
}

/// A warning: its kind and the absolute byte offset of the field or record concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Warning {
    /// What looked odd.
    pub kind: WarningKind,
    /// Absolute byte offset of the field or record concerned.
    pub offset: u64,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at offset {}", self.kind.reason(), self.offset)
    }
}
