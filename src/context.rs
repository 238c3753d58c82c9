//! Where the decoder is: the archive entry, the animation and bone (index and name) or the
//! text line, and the offset of the unit being read. [`Context`] follows the events;
//! [`Tracked`] is a visitor adaptor that keeps one for the visitor it wraps, so that every
//! warning, error and finding can say "animation 3 "walk", bone 2 "Pelvis"" or "line 12".
//!
//! Names are copied into fixed-capacity buffers ([`CONTEXT_NAME`] bytes; longer names are
//! cut and marked), so tracking never allocates.

use core::fmt;

use crate::archive::{ArchiveInfo, ArchiveVisitor, ArchiveWarning, Choice, Entry};
use crate::{
    AnimationInfo, BoneInfo, Error, FileInfo, Flow, IplCar, IplInstance, Keyframes, SectionLine,
    Unit, Visitor, Warning,
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

/// A visitor adaptor that keeps the [`Context`] of the events it passes to `inner`: read
/// `context` from the wrapped visitor's side (for example after a warning or an error) to say
/// where it happened.
#[derive(Clone, Debug, Default)]
pub struct Tracked<V> {
    /// Where the decoder is.
    pub context: Context,
    /// The visitor the events go to.
    pub inner: V,
}

impl<V> Tracked<V> {
    /// Wraps `inner`.
    pub fn new(inner: V) -> Self {
        Tracked {
            context: Context::default(),
            inner,
        }
    }
}

impl<V: Visitor> Visitor for Tracked<V> {
    fn file(&mut self, info: &FileInfo<'_>) -> Flow {
        self.context.file();
        self.inner.file(info)
    }
    fn animation(&mut self, info: &AnimationInfo<'_>) -> Flow {
        self.context.animation(info);
        self.inner.animation(info)
    }
    fn bone(&mut self, info: &BoneInfo<'_>) -> Flow {
        self.context.bone(info);
        self.inner.bone(info)
    }
    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
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
    fn instance(&mut self, instance: &IplInstance<'_>) -> Flow {
        self.inner.instance(instance)
    }
    fn car(&mut self, car: &IplCar) -> Flow {
        self.inner.car(car)
    }
    fn section_line(&mut self, line: &SectionLine<'_>) -> Flow {
        self.inner.section_line(line)
    }
    fn text_line(&mut self, raw: &[u8]) -> Flow {
        self.inner.text_line(raw)
    }
    fn warning(&mut self, warning: Warning) -> Flow {
        self.inner.warning(warning)
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
