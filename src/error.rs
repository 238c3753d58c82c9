//! Errors and warnings: what went wrong or looked odd, and the absolute byte offset where.

use core::fmt;

/// Why decoding stopped. Every kind comes with the absolute offset of the unit that failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input starts with neither the magic of a supported binary format nor text.
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
