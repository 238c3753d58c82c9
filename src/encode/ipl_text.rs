//! Text IPL (docs/FORMATS.md §4.5, §9.3): one line per event, written as it comes; a section
//! is opened by its name and closed by `end` when the events move to another.

use core::fmt::{self, Write};

use super::{Dropped, EncodeError, Lost, Out, Sink};
use crate::{IplCar, IplInstance, MAX_LINE};

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

#[derive(Debug)]
pub(crate) struct Text {
    started: bool,
    section: Option<&'static str>,
    layout: Option<Layout>,
    /// Lines outside any section dropped on request.
    pub(crate) dropped: Dropped,
}

impl Text {
    pub(crate) fn new() -> Self {
        Text {
            started: false,
            section: None,
            layout: None,
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

    fn open<S: Sink>(
        &mut self,
        out: &mut Out<S>,
        section: &'static str,
    ) -> Result<(), EncodeError> {
        if !self.started {
            return Err(EncodeError::OutOfOrder);
        }
        if self.section != Some(section) {
            if self.section.is_some() {
                out.put(b"end\n")?;
            }
            out.put(section.as_bytes())?;
            out.put(b"\n")?;
            self.section = Some(section);
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
        self.open(out, "inst")?;
        line.finish(out)
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
        self.open(out, "cars")?;
        line.finish(out)
    }

    /// A line of a passed-through section, written as given: it must read back as the same
    /// line of the same section.
    pub(crate) fn section_line<S: Sink>(
        &mut self,
        out: &mut Out<S>,
        section: &str,
        text: &[u8],
    ) -> Result<(), EncodeError> {
        let section = PASSED
            .iter()
            .copied()
            .find(|s| s.eq_ignore_ascii_case(section))
            .ok_or(EncodeError::NotRepresentable(Lost::Line))?;
        let changed = text.is_empty()
            || text.trim_ascii().len() != text.len()
            || text.starts_with(b"#")
            || text
                .get(..3)
                .is_some_and(|t| t.eq_ignore_ascii_case(b"end"))
            || text.iter().any(|&b| b == b'\n' || b == b'\r');
        if changed {
            return Err(EncodeError::NotRepresentable(Lost::Line));
        }
        let mut line = Line::new();
        line.bytes(text)?;
        self.open(out, section)?;
        line.finish(out)
    }

    pub(crate) fn end<S: Sink>(&mut self, out: &mut Out<S>) -> Result<(), EncodeError> {
        if !self.started {
            return Err(EncodeError::OutOfOrder);
        }
        if self.section.is_some() {
            out.put(b"end\n")?;
        } else if out.pos == 0 {
            // An empty input is not a text file (§8.1): a comment makes it one.
            out.put(b"# no placements\n")?;
        }
        Ok(())
    }
}
