//! Text IPL (docs/FORMATS.md §4.5, §9.3): one line per event, written as it comes; a section
//! is opened by its name and closed by `end` when the events move to another.

use core::fmt::{self, Write};

use super::{Dropped, EncodeError, Lost, Out, Sink};
use crate::format::ipl_text::{is_bare_word, is_record, keyword};
use crate::format::{is_text, MAGIC_SIZE};
use crate::{IplCar, IplInstance, MAX_LINE, MAX_SECTION_NAME};

/// Sections whose lines pass through as text (`inst` and `cars` have events of their own).
const PASSED: [&str; 11] = [
    "cull", "path", "grge", "enex", "pick", "jump", "tcyc", "auzo", "mult", "occl", "zone",
];

/// The model name written for an instance that has none (a binary IPL's): the games find the
/// model by its id.
const NO_NAME: &[u8] = b"dummy";

/// A line being built, at most `MAX_LINE` bytes with its line break.
struct Line {
    buf: [u8; MAX_LINE],
    len: usize,
}

impl Write for Line {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        self.buf
            .get_mut(self.len..end)
            .ok_or(fmt::Error)?
            .copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// A float's text, at most 64 bytes.
struct Number {
    buf: [u8; 64],
    len: usize,
}

impl Write for Number {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        self.buf
            .get_mut(self.len..end)
            .ok_or(fmt::Error)?
            .copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

impl Line {
    fn new() -> Self {
        Line {
            buf: [0; MAX_LINE],
            len: 0,
        }
    }

    fn sep(&mut self) -> Result<(), EncodeError> {
        if self.len > 0 {
            self.bytes(b", ")?;
        }
        Ok(())
    }

    fn bytes(&mut self, bytes: &[u8]) -> Result<(), EncodeError> {
        let end = self.len + bytes.len();
        self.buf
            .get_mut(self.len..end)
            .ok_or(EncodeError::NotRepresentable(Lost::Line))?
            .copy_from_slice(bytes);
        self.len = end;
        Ok(())
    }

    fn int(&mut self, value: i32) -> Result<(), EncodeError> {
        self.sep()?;
        write!(self, "{value}").map_err(|_| EncodeError::NotRepresentable(Lost::Line))
    }

    /// Text that reads back as the same `f32`: Rust's `Display` and `LowerExp` both print the
    /// shortest round-trip digits. Plain decimals for magnitudes from 1e-4 to 1e7 (map
    /// coordinates and quaternions: at most 16 characters); outside, `Display` spells out every
    /// zero of 1e-30, so the shorter of the two is taken.
    fn float(&mut self, value: f32) -> Result<(), EncodeError> {
        if !value.is_finite() {
            return Err(EncodeError::NotRepresentable(Lost::NonFinite));
        }
        self.sep()?;
        let lost = |_| EncodeError::NotRepresentable(Lost::Line);
        let magnitude = value.abs();
        if magnitude == 0.0 || (1e-4..1e7).contains(&magnitude) {
            return write!(self, "{value}").map_err(lost);
        }
        let mut plain = Number {
            buf: [0; 64],
            len: 0,
        };
        let mut exp = Number {
            buf: [0; 64],
            len: 0,
        };
        write!(plain, "{value}").map_err(lost)?;
        write!(exp, "{value:e}").map_err(lost)?;
        let best = if exp.len < plain.len { &exp } else { &plain };
        self.bytes(&best.buf[..best.len])
    }

    fn floats(&mut self, values: &[f32]) -> Result<(), EncodeError> {
        values.iter().try_for_each(|&v| self.float(v))
    }

    /// Ends the line; the decoder takes at most `MAX_LINE` bytes with the line break.
    fn finish<S: Sink>(&mut self, out: &mut Out<S>) -> Result<(), EncodeError> {
        self.bytes(b"\n")?;
        out.put(&self.buf[..self.len])
    }
}

/// The `inst` layout of the file, set by its first instance (§6.4: one layout per file).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Layout {
    /// San Andreas: 11 fields, with the LOD index.
    SanAndreas,
    /// Vice City: 13 fields, with interior and scale.
    ViceCity,
}

/// The name of the open section: a known one, or the bare word of one the games do not know.
#[derive(Clone, Copy, Debug)]
struct Name {
    buf: [u8; MAX_SECTION_NAME],
    len: u8,
}

impl Name {
    /// `name`, at most [`MAX_SECTION_NAME`] bytes (every caller checks).
    fn new(name: &[u8]) -> Self {
        let mut buf = [0; MAX_SECTION_NAME];
        let len = name.len().min(MAX_SECTION_NAME);
        buf[..len].copy_from_slice(&name[..len]);
        Name {
            buf,
            len: len as u8,
        }
    }

    fn as_bytes(&self) -> &[u8] {
        &self.buf[..usize::from(self.len)]
    }
}

#[derive(Debug)]
pub(crate) struct Text {
    started: bool,
    section: Option<Name>,
    /// A line that makes the output a placement file for a reader (a section name or a record)
    /// was written: lines outside any section before it would be skipped unread (§4.6).
    decided: bool,
    layout: Option<Layout>,
    /// Lines written so far (an error names the line it would have written).
    lines: u32,
    /// Lines the decoder reported outside any section without their text, dropped on request.
    pub(crate) dropped: Dropped,
}

impl Text {
    pub(crate) fn new() -> Self {
        Text {
            started: false,
            section: None,
            decided: false,
            layout: None,
            lines: 0,
            dropped: Dropped::default(),
        }
    }

    pub(crate) fn file(&mut self) -> Result<(), EncodeError> {
        if self.started {
            return Err(EncodeError::OutOfOrder);
        }
        self.started = true;
        Ok(())
    }

    fn open<S: Sink>(&mut self, out: &mut Out<S>, section: &[u8]) -> Result<(), EncodeError> {
        if !self.started {
            return Err(EncodeError::OutOfOrder);
        }
        if self.section.as_ref().map(Name::as_bytes) != Some(section) {
            self.close(out)?;
            out.put(section)?;
            out.put(b"\n")?;
            self.lines += 1;
            self.section = Some(Name::new(section));
            self.decided = true;
        }
        Ok(())
    }

    /// Closes the open section, if any.
    fn close<S: Sink>(&mut self, out: &mut Out<S>) -> Result<(), EncodeError> {
        if self.section.take().is_some() {
            out.put(b"end\n")?;
            self.lines += 1;
        }
        Ok(())
    }

    pub(crate) fn instance<S: Sink>(
        &mut self,
        out: &mut Out<S>,
        instance: &IplInstance<'_>,
    ) -> Result<(), EncodeError> {
        let wanted = match instance.scale {
            None => Layout::SanAndreas,
            Some(_) => Layout::ViceCity,
        };
        let layout = *self.layout.get_or_insert(wanted);
        if layout != wanted || (layout == Layout::ViceCity && instance.lod != -1) {
            return Err(EncodeError::NotRepresentable(Lost::Layout));
        }
        let name = instance.model_name.unwrap_or(NO_NAME);
        // One field: no separator (blank, comma), no control byte; other bytes pass as they are.
        let plain = |b: &u8| *b > b' ' && *b != b',' && *b != 0x7f;
        if name.is_empty() || !name.iter().all(plain) {
            return Err(EncodeError::NotRepresentable(Lost::ModelName));
        }
        let mut line = Line::new();
        line.int(instance.model_id)?;
        line.sep()?;
        line.bytes(name)?;
        // The interior is read back as a signed integer.
        line.int(instance.interior as i32)?;
        line.floats(&instance.position)?;
        if let Some(scale) = instance.scale {
            line.floats(&scale)?;
            line.floats(&instance.rotation)?;
        } else {
            line.floats(&instance.rotation)?;
            line.int(instance.lod)?;
        }
        self.open(out, b"inst")?;
        self.put(out, &mut line)
    }

    pub(crate) fn car<S: Sink>(
        &mut self,
        out: &mut Out<S>,
        car: &IplCar,
    ) -> Result<(), EncodeError> {
        let mut line = Line::new();
        line.floats(&car.position)?;
        line.float(car.angle)?;
        for value in [
            car.model_id,
            car.primary_color,
            car.secondary_color,
            car.flags,
            car.alarm_chance,
            car.door_lock_chance,
            car.min_delay,
            car.max_delay,
        ] {
            line.int(value)?;
        }
        self.open(out, b"cars")?;
        self.put(out, &mut line)
    }

    /// A line of a passed-through section, written as given: it must read back as the same
    /// line of the same section. A section the games do not know is named by a bare word
    /// (§4.6); `""` is a line outside any section.
    pub(crate) fn section_line<S: Sink>(
        &mut self,
        out: &mut Out<S>,
        section: &str,
        text: &[u8],
    ) -> Result<(), EncodeError> {
        if !self.started {
            return Err(EncodeError::OutOfOrder);
        }
        let name = section.as_bytes();
        let name = match PASSED.iter().find(|s| s.eq_ignore_ascii_case(section)) {
            Some(known) => known.as_bytes(),
            None if name.is_empty() || (keyword(name).is_none() && is_bare_word(name)) => name,
            None => return Err(EncodeError::NotRepresentable(Lost::Line)),
        };
        let outside = name.is_empty();
        let unknown = !outside && keyword(name).is_none();
        let changed = text.is_empty()
            || text.trim_ascii().len() != text.len()
            || text.starts_with(b"#")
            || (!outside && text.get(..3).is_some_and(|t| t.eq_ignore_ascii_case(b"end")))
            || text.iter().any(|&b| b == b'\n' || b == b'\r')
            // Outside a section: a line that would open one, or that a reader would skip
            // before knowing the text is a placement file.
            || (outside && (keyword(text).is_some() || is_bare_word(text)))
            // In a section the games do not know, a section name opens its section.
            || (unknown && keyword(text).is_some())
            || (outside && !self.decided && !is_record(text));
        if changed {
            return Err(EncodeError::NotRepresentable(Lost::Line));
        }
        // A NUL ends the text for the decoder (archive padding): every later line would be
        // lost on reading. The error names the line it would have been, after the `end` and
        // the section name it needs.
        if text.contains(&0) {
            let open = self.section.as_ref().map(Name::as_bytes);
            let opening = match open {
                Some(open) if open == name => 0,
                Some(_) => 1 + usize::from(!outside),
                None => usize::from(!outside),
            };
            return Err(EncodeError::NulInLine(self.lines + opening as u32 + 1));
        }
        let mut line = Line::new();
        line.bytes(text)?;
        if outside {
            self.close(out)?;
            // A record before any section name makes a reader take the text for placements.
            self.decided = true;
        } else {
            self.open(out, name)?;
        }
        self.put(out, &mut line)
    }

    /// Writes a finished line. A reader takes the output for text by its first bytes (§8.1):
    /// a line that would put another byte among them (a Latin-1 name) would not read back.
    fn put<S: Sink>(&mut self, out: &mut Out<S>, line: &mut Line) -> Result<(), EncodeError> {
        let head = MAGIC_SIZE.saturating_sub(usize::try_from(out.pos).unwrap_or(usize::MAX));
        if line.buf[..line.len.min(head)].iter().any(|&b| !is_text(b)) {
            return Err(EncodeError::NotRepresentable(Lost::Line));
        }
        line.finish(out)?;
        self.lines += 1;
        Ok(())
    }

    pub(crate) fn end<S: Sink>(&mut self, out: &mut Out<S>) -> Result<(), EncodeError> {
        if !self.started {
            return Err(EncodeError::OutOfOrder);
        }
        if self.section.is_some() {
            self.close(out)?;
        } else if out.pos == 0 {
            // An empty input is not a text file (§8.1): a comment makes it one.
            out.put(b"# no placements\n")?;
        }
        Ok(())
    }
}
