//! Errors and warnings: what went wrong or looked odd, and the absolute byte offset where.

use core::fmt;

/// Defines a kind enum from one table: each variant with its stable name, its reason and its
/// number in the C API. The enum, [`ALL`](ErrorKind::ALL), `name()`, `reason()`, `code()` and
/// `from_code()` all come from the table; the C bridge and the fuzz target take them from here,
/// and a test holds the C header's numbers to them (docs/FORMATS.md §7).
macro_rules! kinds {
    (
        $(#[$meta:meta])*
        pub enum $kind:ident {
            $($(#[$doc:meta])* $variant:ident = $code:literal, $name:literal, $reason:literal;)*
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum $kind {
            $($(#[$doc])* $variant,)*
        }

        impl $kind {
            /// Every kind, in the order of their numbers.
            pub const ALL: &'static [$kind] = &[$($kind::$variant),*];

            /// A stable short name (`snake_case`), for tools and logs.
            pub const fn name(self) -> &'static str {
                match self {
                    $($kind::$variant => $name,)*
                }
            }

            /// A short, static, human-readable description.
            pub const fn reason(self) -> &'static str {
                match self {
                    $($kind::$variant => $reason,)*
                }
            }

            /// The kind's stable number, its value in the C API.
            pub const fn code(self) -> u32 {
                match self {
                    $($kind::$variant => $code,)*
                }
            }

            /// The kind of a number from [`code`](Self::code).
            pub const fn from_code(code: u32) -> Option<$kind> {
                match code {
                    $($code => Some($kind::$variant),)*
                    _ => None,
                }
            }
        }
    };
}
pub(crate) use kinds;

kinds! {
    /// Why decoding stopped. Every kind comes with the absolute offset of the unit that failed.
    pub enum ErrorKind {
        /// The input starts with neither the magic of a supported binary format nor text, or
        /// is text that is no placement file (no section keyword and no placement record among
        /// its first lines: docs/FORMATS.md §4).
        BadMagic = 100, "bad_magic", "unknown file magic";
        /// The input ended inside a unit (`finish` was called too early): the file is cut
        /// short. Displayed as `file cut short: it ends before the data at offset N is
        /// complete`, N the unit's offset.
        Truncated = 101, "truncated", "file cut short";
        /// A bone declares a keyframe type the format does not define.
        UnknownFrameType = 102, "unknown_frame_type", "unknown keyframe type";
        /// A count whose records cannot fit in a file these formats can address (4 GiB),
        /// or a negative count.
        CountTooLarge = 103, "count_too_large", "count too large for the file";
        /// A field holds a value the format forbids.
        Malformed = 104, "malformed", "malformed field";
        /// A unit lies behind the current position, and the caller said it cannot seek
        /// ([`Options::can_seek`](crate::Options::can_seek)), or ended the input (`finish`)
        /// where `feed` would have asked for a seek; the offset is the unit's.
        SeekRequired = 105, "seek_required",
            "record lies behind the current position (cannot seek)";
        /// A visitor returned [`Flow::Abort`](crate::Flow::Abort).
        Aborted = 106, "aborted", "aborted by the visitor";
        /// The file exceeds a documented bound of the decoder: a name longer than
        /// [`MAX_NAME`](crate::MAX_NAME), a line longer than [`MAX_LINE`](crate::MAX_LINE), or
        /// seeks re-reading more than [`REREAD_FACTOR`](crate::REREAD_FACTOR) times the input.
        Limit = 107, "limit", "exceeds a bound of the decoder";
        /// `feed` or `finish` was called after `finish` had already ended the input.
        Finished = 108, "finished", "input already finished";
        /// The input is empty (`finish` before any byte): there is nothing to tell the format
        /// by.
        Empty = 109, "empty", "empty input";
        /// The input is a collision file (`COLL`, `COL2`, `COL3`, `COL4`): not a format the
        /// decoder reads (docs/FORMATS.md §8.1 names each foreign format by its first bytes).
        CollisionFile = 110, "collision_file",
            "collision file (COLL/COL2/COL3/COL4, .col): not a format gtastream reads";
        /// The input is a RenderWare model (`.dff`: a clump chunk). No longer returned: the
        /// decoder reads a clump as [`Format::Dff`](crate::Format::Dff); the number stays.
        RenderwareModel = 111, "renderware_model",
            "RenderWare model (.dff): not a format gtastream reads";
        /// The input is a RenderWare texture dictionary (`.txd`).
        TextureDictionary = 112, "texture_dictionary",
            "RenderWare texture dictionary (.txd): not a format gtastream reads";
        /// The input is a Fastman92 IMG archive (`VERF`), whose directory is encrypted with
        /// keys that are not public.
        Fastman92Img = 113, "fastman92_img",
            "Fastman92 IMG archive (VERF): not supported, its directory is encrypted";
        /// The input is a GTA IV IMG archive (version 3).
        Gta4Img = 114, "gta4_img", "GTA IV IMG archive: not supported";
        /// The input is text, and this build of the library leaves text IPL out (the core's
        /// cargo feature `ipl-text`, on by default, is off).
        Unsupported = 115, "unsupported", "format not built in (text IPL: feature ipl-text)";
        /// Sampling: the file has no animation of the name or index asked for.
        NotFound = 116, "not_found", "no such animation";
        /// Sampling a looped animation that the games would play for ever without getting
        /// to the time asked for (length 0, or a bone whose keys never advance: the games hang
        /// there, `ifp.time.zero_duration`, `ifp.time.seq_nonpositive_span`). The offset is the
        /// bone's first keyframe (0 for the animation's length).
        Endless = 117, "endless", "looped playback never reaches the time (the games hang)";
        /// Sampling at a time that is not finite or is negative: the games start an animation
        /// at 0 and only move its time forward (docs/ANIMATION.md, the time domain). Offset 0.
        BadTime = 118, "bad_time", "time to sample is not finite or is negative";
    }
}

impl ErrorKind {
    /// Whether the kind names a file of a format the decoder does not read (a collision file,
    /// a model, textures, an archive of another game or tool), told by its first bytes.
    pub const fn is_foreign(self) -> bool {
        matches!(
            self,
            ErrorKind::CollisionFile
                | ErrorKind::RenderwareModel
                | ErrorKind::TextureDictionary
                | ErrorKind::Fastman92Img
                | ErrorKind::Gta4Img
        )
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
        if self.kind.is_foreign() && self.offset == 0 {
            // The whole file is of that format: its first bytes tell.
            return f.write_str(self.kind.reason());
        }
        if self.kind == ErrorKind::Truncated {
            // In a modder's words: the offset is where the incomplete data begins, not the cut.
            return write!(
                f,
                "{}: it ends before the data at offset {} is complete",
                self.kind.reason(),
                self.offset
            );
        }
        write!(f, "{} at offset {}", self.kind.reason(), self.offset)
    }
}

impl core::error::Error for Error {}

kinds! {
    /// Something the games accept but that disagrees with the format: decoding goes on.
    pub enum WarningKind {
        /// The header's `size` field disagrees with where the data really ends.
        SizeMismatch = 1, "size_mismatch", "size field disagrees with the data";
        /// Bytes follow the last declared record; they are skipped, not parsed.
        TrailingData = 2, "trailing_data", "bytes after the last record";
        /// An ANP3 animation's `frameDataSize` disagrees with the keyframes that follow.
        FrameDataSizeMismatch = 3, "frame_data_size_mismatch",
            "frameDataSize disagrees with the keyframes";
        /// An ANP3 animation's `flags` bit 0 is clear although its keyframes are compressed.
        CompressedFlagClear = 4, "compressed_flag_clear",
            "compressed flag clear on compressed keyframes";
        /// Binary IPL: a section the game never reads declares records.
        UnknownSection = 5, "unknown_section", "unknown section declares records";
        /// Text IPL: a line outside any section (the game skips it).
        LineOutsideSection = 6, "line_outside_section", "line outside any section";
        /// Text IPL: the input ends inside a section (no `end` line).
        UnclosedSection = 7, "unclosed_section", "section not closed by end";
        /// A chunk tag is not the one expected there (ANPK: the engines do not check it).
        UnexpectedTag = 8, "unexpected_tag", "unexpected chunk tag";
        /// A keyframe's time is earlier than the previous one of the same bone (reported once a
        /// bone).
        TimeBackwards = 9, "time_backwards", "keyframe time goes backwards";
        /// Text IPL: a conversion of the line failed (too few fields, a number that is none),
        /// so the game reads stale values; no record is reported, the line is passed through
        /// as a [`SectionLine`](crate::SectionLine). The offset is the line's.
        MalformedLine = 10, "malformed_line", "line the game cannot read, skipped";
        /// Text IPL: text after the last field of a record that is not a comment; the game
        /// ignores it (the record is reported as the game reads it). The offset is the text's.
        TrailingText = 11, "trailing_text", "text after the last field, ignored";
        /// Animation: a bone has the name of an earlier bone of the same animation (name
        /// lookups find only one). The offset is the second bone's.
        DuplicateBone = 12, "duplicate_bone", "bone name repeated in the animation";
        /// Writing: a bone's scale (`KRTS`) was dropped, the target format has none (the
        /// offset is the bone's in the output).
        ScaleDropped = 13, "scale_dropped", "scale dropped: the output format has none";
        /// Writing a binary IPL: an instance's model name was dropped (the format stores the
        /// model id only; the offset is the record's in the output).
        ModelNameDropped = 14, "model_name_dropped",
            "model name dropped: a binary IPL stores the model id only";
        /// Writing a text IPL: an instance without a model name (from a binary IPL) was
        /// written as `dummy` (the games find the model by its id).
        ModelNameMissing = 15, "model_name_missing",
            "no model name: written as dummy (the games find the model by its id)";
        /// Writing a binary IPL with `drop_text_sections`: a line of a text-only section was
        /// dropped (the offset is where the output stood).
        SectionLineDropped = 16, "section_line_dropped",
            "line of a text-only section dropped: a binary IPL has no place for it";
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

#[cfg(test)]
mod tests {
    use super::{ErrorKind, WarningKind};

    /// Numbers and names identify a kind: each is unique, and a number leads back to its kind.
    #[test]
    fn codes_and_names_are_unique() {
        fn check<K: Copy + PartialEq + core::fmt::Debug>(
            all: &[K],
            code: fn(K) -> u32,
            name: fn(K) -> &'static str,
            from_code: fn(u32) -> Option<K>,
        ) {
            for (i, &a) in all.iter().enumerate() {
                assert_eq!(from_code(code(a)), Some(a));
                for &b in &all[i + 1..] {
                    assert!(
                        code(a) < code(b),
                        "{a:?} {b:?}: numbers rise in table order"
                    );
                    assert_ne!(name(a), name(b));
                }
            }
        }
        check(
            ErrorKind::ALL,
            ErrorKind::code,
            ErrorKind::name,
            ErrorKind::from_code,
        );
        check(
            WarningKind::ALL,
            WarningKind::code,
            WarningKind::name,
            WarningKind::from_code,
        );
        check(
            crate::encode::EncodeErrorKind::ALL,
            crate::encode::EncodeErrorKind::code,
            crate::encode::EncodeErrorKind::name,
            crate::encode::EncodeErrorKind::from_code,
        );
        check(
            crate::archive::ArchiveWarningKind::ALL,
            crate::archive::ArchiveWarningKind::code,
            crate::archive::ArchiveWarningKind::name,
            crate::archive::ArchiveWarningKind::from_code,
        );
        assert_eq!(ErrorKind::from_code(0), None);
        assert_eq!(WarningKind::from_code(0), None);
    }
}
