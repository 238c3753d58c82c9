//! Where the decoder is: the archive entry, the animation and bone (index and name) or the
//! text line, and the offset of the unit being read. [`Context`] follows the events;
//! [`Tracked`] is a visitor adaptor that keeps one for the visitor it wraps, so that every
//! warning, error and finding can say "animation 3 "walk", bone 2 "Pelvis"" or "line 12".
//!
//! Names are copied into fixed-capacity buffers ([`CONTEXT_NAME`] bytes; longer names are
//! cut and marked), so tracking never allocates.
//!
//! [`Tracked`] also counts what was decoded ([`Decoded`]), so that an error becomes a
//! [`Failure`]: the error, where it happened and what came before it. A file cut short says
//! what was decoded before the cut:
//!
//! ```
//! struct Ignore;
//! impl gtastream::Visitor for Ignore {}
//!
//! let file = include_bytes!("../samples/walk.ifp");
//! let mut decoder = gtastream::Decoder::new();
//! let failure = gtastream::context::decode_slice(&mut decoder, &file[..1500], &mut Ignore)
//!     .unwrap_err();
//! assert_eq!(failure.error.kind, gtastream::ErrorKind::Truncated);
//! assert_eq!(failure.decoded.animations, 2);
//! assert_eq!(
//!     failure.to_string(),
//!     "file cut short: it ends before the data at offset 1498 is complete (animation 1 \"run\", bone 0 \"Root\"; \
//!      after 2 animations, 7 bones, 103 keyframes)"
//! );
//! ```

// A `Failure` holds three names (about 200 bytes) and the core does not allocate, so it is
// returned by value: once, when decoding stops.
#![allow(clippy::result_large_err)]

use core::fmt;

use crate::archive::{ArchiveInfo, ArchiveVisitor, ArchiveWarning, Choice, Entry};
use crate::{
    AnimationInfo, AnimationSummary, BoneInfo, Decoder, Error, FileInfo, Flow, Keyframes, Progress,
    Record, Unit, Visitor, Warning,
};

/// Bytes of a name a [`Context`] keeps (archive entry names are 24; IFP2 names 24; ANPK
/// object names 28).
pub const CONTEXT_NAME: usize = 32;

/// A name copied into a fixed buffer: the first [`CONTEXT_NAME`] bytes.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Name {
    bytes: [u8; CONTEXT_NAME],
    len: u8,
    cut: bool,
}

impl Name {
    /// The empty name.
    pub const EMPTY: Name = Name {
        bytes: [0; CONTEXT_NAME],
        len: 0,
        cut: false,
    };

    /// A copy of `name` (cut to [`CONTEXT_NAME`] bytes).
    pub fn new(name: &[u8]) -> Name {
        let len = name.len().min(CONTEXT_NAME);
        let mut bytes = [0; CONTEXT_NAME];
        bytes[..len].copy_from_slice(&name[..len]);
        Name {
            bytes,
            len: len as u8,
            cut: name.len() > CONTEXT_NAME,
        }
    }

    /// The bytes kept.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }

    /// Whether the name was longer than what is kept.
    pub fn is_cut(&self) -> bool {
        self.cut
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for Name {
    /// The bytes as Latin-1 characters, quotes and backslashes escaped, `...` if cut.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write;
        for &b in self.as_bytes() {
            match b {
                b'"' | b'\\' => {
                    f.write_char('\\')?;
                    f.write_char(char::from(b))?;
                }
                0x20..=0x7e => f.write_char(char::from(b))?,
                _ => write!(f, "\\x{b:02x}")?,
            }
        }
        if self.cut {
            f.write_str("...")?;
        }
        Ok(())
    }
}

/// An item by its index and name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Item {
    /// 0-based position (animation in the file, bone in its animation, entry in the directory).
    pub index: u32,
    /// The name (empty where the format stores none).
    pub name: Name,
}

/// Where the decoder is (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Context {
    /// The archive entry being decoded.
    pub entry: Option<Item>,
    /// Absolute offset of that entry's first byte in the `.img` (0 outside an archive):
    /// added to the entry's own offsets.
    pub base: u64,
    /// The animation being decoded.
    pub animation: Option<Item>,
    /// The bone being decoded.
    pub bone: Option<Item>,
    /// Text formats: the line being decoded.
    pub line: Option<u32>,
    /// Absolute offset of the last unit reported (in the `.img` for an entry).
    pub offset: u64,
}

impl Context {
    /// A new file (or entry) begins: its animation, bone and line are forgotten.
    pub fn file(&mut self) {
        self.animation = None;
        self.bone = None;
        self.line = None;
    }

    /// The decoder reads `unit`.
    pub fn unit(&mut self, unit: &Unit<'_>) {
        self.offset = self.base + unit.offset;
        if unit.line.is_some() {
            self.line = unit.line;
        }
    }

    /// An animation begins.
    pub fn animation(&mut self, info: &AnimationInfo<'_>) {
        self.animation = Some(Item {
            index: info.index,
            name: Name::new(info.name),
        });
        self.bone = None;
    }

    /// A bone begins.
    pub fn bone(&mut self, info: &BoneInfo<'_>) {
        self.bone = Some(Item {
            index: info.index,
            name: Name::new(info.name.unwrap_or_default()),
        });
    }

    /// The bone ended.
    pub fn bone_end(&mut self) {
        self.bone = None;
    }

    /// The animation ended.
    pub fn animation_end(&mut self) {
        self.animation = None;
        self.bone = None;
    }

    /// An archive entry is decoded: offsets from here count from its first byte.
    pub fn entry(&mut self, entry: &Entry<'_>) {
        self.file();
        self.entry = Some(Item {
            index: entry.index,
            name: Name::new(entry.name),
        });
        self.base = entry.offset;
        self.offset = entry.offset;
    }

    /// The entry ended.
    pub fn entry_end(&mut self) {
        self.file();
        self.entry = None;
        self.base = 0;
    }

    /// An offset the decoder reports (relative to the entry inside an archive) as absolute.
    pub fn absolute(&self, offset: u64) -> u64 {
        self.base + offset
    }
}

impl fmt::Display for Context {
    /// `animation 3 "walk", bone 2 "Pelvis"`, or `line 12`; empty where there is neither.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut sep = "";
        if let Some(a) = &self.animation {
            write!(f, "animation {} \"{}\"", a.index, a.name)?;
            sep = ", ";
        }
        if let Some(b) = &self.bone {
            write!(f, "{sep}bone {} \"{}\"", b.index, b.name)?;
            sep = ", ";
        }
        if self.animation.is_none() {
            if let Some(line) = self.line {
                write!(f, "{sep}line {line}")?;
            }
        }
        Ok(())
    }
}

/// What the decoder reported before an error, counted as the events came (the animation and
/// bone being decoded included): what [`Failure`] says was decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Decoded {
    /// Animations begun.
    pub animations: u32,
    /// Bones begun, in all animations.
    pub bones: u32,
    /// Keyframes reported.
    pub keyframes: u64,
    /// Placed objects.
    pub instances: u32,
    /// Car generators.
    pub cars: u32,
    /// Text IPL lines reported as section lines.
    pub lines: u32,
}

impl Decoded {
    /// Whether nothing was reported.
    pub fn is_empty(&self) -> bool {
        *self == Decoded::default()
    }
}

impl fmt::Display for Decoded {
    /// `after 2 animations, 17 bones, 104 keyframes`, `after 3 instances, 1 car, 0 lines`,
    /// or `nothing decoded`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let counted = |f: &mut fmt::Formatter<'_>, n: u64, one: &str, many: &str| {
            write!(f, "{n} {}", if n == 1 { one } else { many })
        };
        if self.animations > 0 || self.bones > 0 || self.keyframes > 0 {
            f.write_str("after ")?;
            counted(f, self.animations.into(), "animation", "animations")?;
            f.write_str(", ")?;
            counted(f, self.bones.into(), "bone", "bones")?;
            f.write_str(", ")?;
            counted(f, self.keyframes, "keyframe", "keyframes")
        } else if self.instances > 0 || self.cars > 0 || self.lines > 0 {
            f.write_str("after ")?;
            counted(f, self.instances.into(), "instance", "instances")?;
            f.write_str(", ")?;
            counted(f, self.cars.into(), "car", "cars")?;
            f.write_str(", ")?;
            counted(f, self.lines.into(), "line", "lines")
        } else {
            f.write_str("nothing decoded")
        }
    }
}

/// An error with where it happened and what was decoded before it (from [`Tracked`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The error, as the decoder reported it (inside an archive entry its offset counts from
    /// the entry's first byte: [`offset`](Self::offset) is absolute).
    pub error: Error,
    /// Where the decoder was: the archive entry, animation, bone or line.
    pub context: Context,
    /// What the decoder reported before the error.
    pub decoded: Decoded,
}

impl Failure {
    /// The error's absolute offset (in the `.img` for an archive entry).
    pub fn offset(&self) -> u64 {
        self.context.absolute(self.error.offset)
    }
}

impl fmt::Display for Failure {
    /// The error with its absolute offset, then in parentheses the entry, animation, bone or
    /// line and what was decoded: `file cut short: it ends before the data at offset 1498 is complete (animation 1
    /// "run", bone 0 "Root"; after 2 animations, 7 bones, 103 keyframes)`. Nothing is
    /// added for an error before anything was decoded (`unknown file magic at offset 0`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let error = Error {
            offset: self.offset(),
            ..self.error
        };
        write!(f, "{error}")?;
        let place = Place(&self.context);
        let has_place = self.context.entry.is_some()
            || self.context.animation.is_some()
            || self.context.bone.is_some()
            || self.context.line.is_some();
        match (has_place, self.decoded.is_empty()) {
            (false, true) => Ok(()),
            (true, true) => write!(f, " ({place})"),
            (false, false) => write!(f, " ({})", self.decoded),
            (true, false) => write!(f, " ({place}; {})", self.decoded),
        }
    }
}

/// The entry, then the [`Context`]'s own text.
struct Place<'a>(&'a Context);

impl fmt::Display for Place<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let context = self.0;
        if let Some(entry) = &context.entry {
            write!(f, "entry {} \"{}\"", entry.index, entry.name)?;
            if context.animation.is_some() || context.bone.is_some() || context.line.is_some() {
                f.write_str(", ")?;
            }
        }
        write!(f, "{context}")
    }
}

/// A visitor adaptor that keeps the [`Context`] of the events it passes to `inner`, and counts
/// what was [`Decoded`]: read `context` from the wrapped visitor's side (for example after a
/// warning or an error) to say where it happened, or turn an error into a [`Failure`].
#[derive(Clone, Debug, Default)]
pub struct Tracked<V> {
    /// Where the decoder is.
    pub context: Context,
    /// What was reported so far.
    pub decoded: Decoded,
    /// The visitor the events go to.
    pub inner: V,
}

impl<V> Tracked<V> {
    /// Wraps `inner`.
    pub fn new(inner: V) -> Self {
        Tracked {
            context: Context::default(),
            decoded: Decoded::default(),
            inner,
        }
    }

    /// `error` with where it happened and what came before it.
    pub fn failure(&self, error: Error) -> Failure {
        Failure {
            error,
            context: self.context,
            decoded: self.decoded,
        }
    }

    /// [`failure`](Self::failure) of an error `decoder` returned: in a text file, with the
    /// line that failed, which the events have not reached when the line itself cannot be read
    /// (lines read while the format is still being told are not named).
    pub fn failure_in(&self, decoder: &Decoder, error: Error) -> Failure {
        let mut failure = self.failure(error);
        if self.context.line.is_some() {
            failure.context.line = decoder.line().or(self.context.line);
        }
        failure
    }
}

impl<V: Visitor> Tracked<V> {
    /// [`Decoder::feed`], its error as a [`Failure`].
    pub fn feed(&mut self, decoder: &mut Decoder, input: &[u8]) -> Result<Progress, Failure> {
        decoder
            .feed(input, self)
            .map_err(|e| self.failure_in(decoder, e))
    }

    /// [`Decoder::finish`], its error as a [`Failure`].
    pub fn finish(&mut self, decoder: &mut Decoder) -> Result<(), Failure> {
        decoder
            .finish(self)
            .map_err(|e| self.failure_in(decoder, e))
    }

    /// [`Decoder::decode_slice`], its error as a [`Failure`].
    pub fn decode_slice(&mut self, decoder: &mut Decoder, data: &[u8]) -> Result<(), Failure> {
        decoder
            .decode_slice(data, self)
            .map_err(|e| self.failure_in(decoder, e))
    }
}

/// Decodes a file held in memory like [`Decoder::decode_slice`], an error coming back as a
/// [`Failure`] (see the module documentation). Nothing is allocated: the tracking lives on the
/// stack. (From a reader: wrap the visitor in [`Tracked`], pass it to
/// `io::decode_reader` (feature `std`), and give a decoding error to [`Tracked::failure_in`].)
pub fn decode_slice<V: Visitor + ?Sized>(
    decoder: &mut Decoder,
    data: &[u8],
    visitor: &mut V,
) -> Result<(), Failure> {
    Tracked::new(visitor).decode_slice(decoder, data)
}

impl<V: Visitor> Visitor for Tracked<V> {
    fn file(&mut self, info: &FileInfo<'_>) -> Flow {
        self.context.file();
        self.inner.file(info)
    }
    fn animation(&mut self, info: &AnimationInfo<'_>) -> Flow {
        self.context.animation(info);
        self.decoded.animations += 1;
        self.inner.animation(info)
    }
    fn bone(&mut self, info: &BoneInfo<'_>) -> Flow {
        self.context.bone(info);
        self.decoded.bones += 1;
        self.inner.bone(info)
    }
    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        self.decoded.keyframes += frames.len() as u64;
        self.inner.keyframes(frames)
    }
    fn bone_end(&mut self) -> Flow {
        let flow = self.inner.bone_end();
        self.context.bone_end();
        flow
    }
    fn animation_end(&mut self) -> Flow {
        let flow = self.inner.animation_end();
        self.context.animation_end();
        flow
    }
    fn animation_summary(&mut self, summary: &AnimationSummary) -> Flow {
        self.inner.animation_summary(summary)
    }
    fn record(&mut self, record: &Record<'_>) -> Flow {
        match record {
            Record::Instance(_) => self.decoded.instances += 1,
            Record::Car(_) => self.decoded.cars += 1,
            Record::SectionLine(_) => self.decoded.lines += 1,
            _ => {}
        }
        self.inner.record(record)
    }
    fn text_line(&mut self, raw: &[u8]) -> Flow {
        self.inner.text_line(raw)
    }
    fn warning(&mut self, warning: Warning) -> Flow {
        self.inner.warning(warning)
    }
    fn trailing(&mut self, bytes: &[u8]) -> Flow {
        self.inner.trailing(bytes)
    }
    fn end(&mut self) -> Flow {
        self.inner.end()
    }
    fn unit(&mut self, unit: &Unit<'_>) {
        self.context.unit(unit);
        self.inner.unit(unit)
    }
}

impl<V: ArchiveVisitor> ArchiveVisitor for Tracked<V> {
    fn archive(&mut self, info: &ArchiveInfo) -> Flow {
        self.inner.archive(info)
    }
    fn entry(&mut self, entry: &Entry<'_>) -> Choice {
        let choice = self.inner.entry(entry);
        if choice == Choice::Decode {
            self.context.entry(entry);
            self.decoded = Decoded::default();
        }
        choice
    }
    fn entry_end(&mut self, result: Result<(), Error>) -> Flow {
        let flow = self.inner.entry_end(result);
        self.context.entry_end();
        flow
    }
    fn archive_warning(&mut self, warning: ArchiveWarning) -> Flow {
        self.inner.archive_warning(warning)
    }
}
