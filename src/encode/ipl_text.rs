//! Text IPL (docs/FORMATS.md §4.5, §9.3, §9.7): one line per event, written as it comes; a
//! section is opened by its name and closed by `end` when the events move to another.
//!
//! Stored lines (the events' `raw`, and [`Visitor::text_line`](crate::Visitor::text_line) for
//! the lines without an event) are written as they are while they read as the event's values;
//! the encoder follows the sections they open and close as a reader would (`src`), and where
//! it wrote a line of its own in another section (`out`), it returns to the source's section
//! before the next stored line.

use core::fmt::{self, Write};

use super::{Dropped, EncodeError, Lost, Out, Sink};
use crate::decoder::Game;
use crate::format::fields::{line_fields, SECTIONS};
use crate::format::ide;
use crate::format::ipl_text::{is_bare_word, is_record, keyword, read_car, read_instance};
use crate::format::text::{content, starts_with_ignore_case};
use crate::format::{is_text, MAGIC_SIZE};
use crate::{IdeObject, IplCar, IplInstance, MAX_LINE, MAX_SECTION_NAME};

/// IDE sections whose lines pass through as text (the others define models).
const IDE_PASSED: [&str; 4] = ["path", "2dfx", "txdp", "tanm"];

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

    /// Ends the line with `eol`; the decoder takes at most `MAX_LINE` bytes with the line
    /// break.
    fn finish<S: Sink>(&mut self, out: &mut Out<S>, eol: &[u8]) -> Result<(), EncodeError> {
        self.bytes(eol)?;
        out.put(&self.buf[..self.len])
    }
}

/// The name of a section: a known one (lower case), or the bare word of one the games do not
/// know.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

    /// A section the games do not know (`ide`: in an IDE file).
    fn is_unknown(&self, ide: bool) -> bool {
        section_of(ide, self.as_bytes()).is_none()
    }
}

/// The section the line `text` (a line's content) opens, by name: text IPL's sections
/// (`ide`: an IDE file's), read as the decoder reads their names.
fn section_of(ide: bool, text: &[u8]) -> Option<&'static str> {
    match ide {
        false => keyword(text).map(|k| SECTIONS[usize::from(k)]),
        true => ide::keyword(text).map(|k| ide::SECTIONS[usize::from(k)]),
    }
}

/// Whether the line `text` closes a section (`ide`: in an IDE file).
fn is_end(ide: bool, text: &[u8]) -> bool {
    match ide {
        false => starts_with_ignore_case(text, "end"),
        true => ide::is_end(text),
    }
}

/// The section a reader is in after the line `raw`, from `section` (docs/FORMATS.md §4.6): a
/// section name opens its section outside any (or in one the games do not know), a bare word
/// outside any opens an unknown one, `end...` closes. Other lines leave it.
fn after(ide: bool, section: Option<Name>, raw: &[u8]) -> Option<Name> {
    let text = content(raw);
    if text.is_empty() {
        return section;
    }
    let open = section_of(ide, text).map(|name| Name::new(name.as_bytes()));
    match section {
        None if open.is_some() => open,
        None if is_bare_word(text) => Some(Name::new(line_fields(text).next().unwrap_or_default())),
        Some(name) if name.is_unknown(ide) && open.is_some() => open,
        Some(_) if is_end(ide, text) => None,
        other => other,
    }
}

/// A stored line the encoder may write as it is: one line (a line break only at its end), no
/// NUL (which ends a text), within `MAX_LINE`.
fn is_line(raw: &[u8]) -> bool {
    let body = raw.strip_suffix(b"\n").unwrap_or(raw);
    !raw.is_empty() && raw.len() <= MAX_LINE && !body.iter().any(|&b| b == b'\n' || b == 0)
}

/// The line break of a stored line (none for a last line without one).
fn eol_of(raw: &[u8]) -> &'static [u8] {
    if raw.ends_with(b"\r\n") {
        b"\r\n"
    } else if raw.ends_with(b"\n") {
        b"\n"
    } else {
        b""
    }
}

/// The same floats, bit for bit.
fn same_floats(a: &[f32], b: &[f32]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

/// The same values, bit for bit (a stored line is kept only while it reads as the event).
fn same_instance(a: &IplInstance<'_>, b: &IplInstance<'_>) -> bool {
    let scale = match (a.scale, b.scale) {
        (Some(p), Some(q)) => same_floats(&p, &q),
        (p, q) => p.is_none() && q.is_none(),
    };
    scale
        && same_floats(&a.position, &b.position)
        && same_floats(&a.rotation, &b.rotation)
        && a.model_id == b.model_id
        && a.interior == b.interior
        && a.lod == b.lod
        && a.model_name == b.model_name
}

fn same_car(a: &IplCar<'_>, b: &IplCar<'_>) -> bool {
    same_floats(&a.position, &b.position)
        && a.angle.to_bits() == b.angle.to_bits()
        && a.ints() == b.ints()
}

/// The same definition, field by field (floats bit for bit; the line's text aside).
fn same_object(a: &IdeObject<'_>, b: &IdeObject<'_>) -> bool {
    let bits = |d: Option<f32>| d.map(f32::to_bits);
    a.section == b.section
        && a.id == b.id
        && a.model_name == b.model_name
        && a.txd_name == b.txd_name
        && a.mesh_count == b.mesh_count
        && bits(a.draw_distance) == bits(b.draw_distance)
        && a.flags == b.flags
        && a.time_on == b.time_on
        && a.time_off == b.time_off
        && a.animation == b.animation
}

#[derive(Debug)]
pub(crate) struct Text {
    /// Writes an IDE file (else a text IPL).
    ide: bool,
    started: bool,
    /// The section a reader of the output is in.
    out: Option<Name>,
    /// The section a reader of the source was in, as its stored lines say.
    src: Option<Name>,
    /// A line that makes the output a placement file for a reader (a section name or a record)
    /// was written: lines outside any section before it would be skipped unread (§4.6).
    decided: bool,
    /// The `inst` layout of the output, once a line decided it (§6.4: one layout per file).
    layout: Option<Game>,
    /// The output ends inside a line (a stored last line without a line break).
    unterminated: bool,
    /// The line break of the source's lines (for the lines the encoder writes): CRLF.
    crlf: bool,
    /// Lines written so far (an error names the line it would have written).
    lines: u32,
    /// Lines the decoder reported outside any section without their text, dropped on request.
    pub(crate) dropped: Dropped,
}

impl Text {
    pub(crate) fn new(ide: bool) -> Self {
        Text {
            ide,
            started: false,
            out: None,
            src: None,
            decided: false,
            layout: None,
            unterminated: false,
            crlf: false,
            lines: 0,
            dropped: Dropped::default(),
        }
    }

    /// Whether the encoder writes an IDE file.
    pub(crate) fn is_ide(&self) -> bool {
        self.ide
    }

    pub(crate) fn file(&mut self) -> Result<(), EncodeError> {
        if self.started {
            return Err(EncodeError::OutOfOrder);
        }
        self.started = true;
        Ok(())
    }

    /// The line break of a line the encoder writes.
    fn eol(&self) -> &'static [u8] {
        if self.crlf {
            b"\r\n"
        } else {
            b"\n"
        }
    }

    /// Writes a line of the encoder's own (a section name, `end`), after a stored last line
    /// without a line break, if one was written.
    fn own_line<S: Sink>(&mut self, out: &mut Out<S>, text: &[u8]) -> Result<(), EncodeError> {
        self.break_line(out)?;
        out.put(text)?;
        out.put(self.eol())?;
        self.lines += 1;
        Ok(())
    }

    fn break_line<S: Sink>(&mut self, out: &mut Out<S>) -> Result<(), EncodeError> {
        if core::mem::take(&mut self.unterminated) {
            out.put(self.eol())?;
        }
        Ok(())
    }

    /// Makes the reader of the output be in `section` (`None`: outside any): closes the open
    /// one, opens `section`.
    fn enter<S: Sink>(
        &mut self,
        out: &mut Out<S>,
        section: Option<Name>,
    ) -> Result<(), EncodeError> {
        if !self.started {
            return Err(EncodeError::OutOfOrder);
        }
        if self.out == section {
            return Ok(());
        }
        if self.out.take().is_some() {
            self.own_line(out, b"end")?;
        }
        if let Some(name) = section {
            self.own_line(out, name.as_bytes())?;
            self.decided = true;
        }
        self.out = section;
        Ok(())
    }

    fn open<S: Sink>(&mut self, out: &mut Out<S>, section: &[u8]) -> Result<(), EncodeError> {
        self.enter(out, Some(Name::new(section)))
    }

    /// A stored line, written as it is, in the section the source had it in.
    fn stored<S: Sink>(&mut self, out: &mut Out<S>, raw: &[u8]) -> Result<(), EncodeError> {
        let src = self.src;
        // Back to the source's section, after a line of the encoder's own (which needed the
        // file event: stored lines before it find the two alike).
        if self.out != src {
            self.enter(out, src)?;
        }
        self.break_line(out)?;
        check_head(out, raw)?;
        out.put(raw)?;
        self.lines += 1;
        self.unterminated = !raw.ends_with(b"\n");
        self.crlf = raw.ends_with(b"\r\n") || (self.crlf && self.unterminated);
        self.src = after(self.ide, src, raw);
        self.out = self.src;
        if !self.decided {
            let text = content(raw);
            self.decided = !text.is_empty()
                && match self.ide {
                    false => keyword(text).is_some() || is_bare_word(text) || is_record(text),
                    true => ide::keyword(text).is_some() || ide::is_definition(text),
                };
        }
        Ok(())
    }

    /// A line of the source that brought no event (a blank line, a comment, a section name,
    /// `end`): written as stored. It may come before the file event (§4.6).
    pub(crate) fn text_line<S: Sink>(
        &mut self,
        out: &mut Out<S>,
        raw: &[u8],
    ) -> Result<(), EncodeError> {
        if raw.is_empty() {
            return Ok(());
        }
        if !is_line(raw) {
            return Err(EncodeError::NotRepresentable(Lost::Line));
        }
        self.stored(out, raw)
    }

    /// Whether the source's reader is in `section` (`""`: outside any).
    fn in_source(&self, section: &[u8]) -> bool {
        self.src.as_ref().map_or(&b""[..], Name::as_bytes) == section
    }

    pub(crate) fn instance<S: Sink>(
        &mut self,
        out: &mut Out<S>,
        instance: &IplInstance<'_>,
    ) -> Result<(), EncodeError> {
        let raw = instance.raw;
        if is_line(raw) && self.in_source(b"inst") {
            let mut layout = self.layout;
            if read_instance(&mut layout, raw).is_some_and(|read| same_instance(&read, instance)) {
                self.layout = layout;
                return self.stored(out, raw);
            }
        }
        let layout = match (self.layout, instance.scale) {
            (Some(layout), _) => layout,
            (None, None) => Game::SanAndreas,
            (None, Some(_)) => Game::ViceCity,
        };
        let fits = match layout {
            Game::SanAndreas => instance.scale.is_none(),
            Game::ViceCity => instance.scale.is_some() && instance.lod == -1,
            Game::Iii => instance.scale.is_some() && instance.lod == -1 && instance.interior == 0,
        };
        if !fits {
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
        if layout != Game::Iii {
            // The interior is read back as a signed integer.
            line.int(instance.interior as i32)?;
        }
        line.floats(&instance.position)?;
        match instance.scale {
            Some(scale) => {
                line.floats(&scale)?;
                line.floats(&instance.rotation)?;
            }
            None => {
                line.floats(&instance.rotation)?;
                line.int(instance.lod)?;
            }
        }
        self.open(out, b"inst")?;
        // The line decides the layout for a reader, if nothing did before.
        self.layout = Some(layout);
        self.put(out, &mut line, raw)
    }

    pub(crate) fn car<S: Sink>(
        &mut self,
        out: &mut Out<S>,
        car: &IplCar<'_>,
    ) -> Result<(), EncodeError> {
        let raw = car.raw;
        if is_line(raw)
            && self.in_source(b"cars")
            && read_car(raw).is_some_and(|r| same_car(&r, car))
        {
            return self.stored(out, raw);
        }
        let mut line = Line::new();
        line.floats(&car.position)?;
        line.float(car.angle)?;
        for value in car.ints() {
            line.int(value)?;
        }
        self.open(out, b"cars")?;
        self.put(out, &mut line, raw)
    }

    /// An IDE model definition: as stored while its line still reads as it; else written from
    /// its fields, with the fields its line has that the record does not name (a car's
    /// handling, a second draw distance) taken from its text, and refused unless the line
    /// written reads back as the record.
    pub(crate) fn object<S: Sink>(
        &mut self,
        out: &mut Out<S>,
        object: &IdeObject<'_>,
    ) -> Result<(), EncodeError> {
        // Read back as San Andreas reads, which takes every game's layouts.
        let game = None;
        let section = ide::keyword(object.section.as_bytes())
            .filter(|&k| ide::SECTIONS[usize::from(k)] == object.section)
            .filter(|&k| ide::defines_models(k))
            .ok_or(EncodeError::NotRepresentable(Lost::Line))?;
        let raw = object.raw;
        if is_line(raw)
            && raw.trim_ascii() == object.text
            && self.in_source(object.section.as_bytes())
            && ide::object(section, content(raw), game).is_some_and(|r| same_object(&r, object))
        {
            return self.stored(out, raw);
        }
        let lost = EncodeError::NotRepresentable(Lost::Line);
        let plain = |name: &[u8]| {
            !name.is_empty() && name.iter().all(|&b| b > b' ' && b != b',' && b != 0x7f)
        };
        if !plain(object.model_name)
            || !plain(object.txd_name)
            || !object.animation.is_none_or(plain)
        {
            return Err(EncodeError::NotRepresentable(Lost::ModelName));
        }
        let stored: [&[u8]; 24] = {
            let mut fields = [&[][..]; 24];
            for (slot, field) in fields.iter_mut().zip(line_fields(object.text)) {
                *slot = field;
            }
            fields
        };
        let stored_count = line_fields(object.text).count().min(stored.len());
        let mut line = Line::new();
        line.int(object.id)?;
        line.sep()?;
        line.bytes(object.model_name)?;
        line.sep()?;
        line.bytes(object.txd_name)?;
        // The index of the first stored field the record does not replace.
        let mut rest = 3;
        match object.section {
            "objs" | "tobj" => {
                let distance = object.draw_distance.ok_or(lost)?;
                match object.mesh_count {
                    Some(meshes) => {
                        line.int(meshes)?;
                        line.float(distance)?;
                        // Further distances as the line had them (else the first again).
                        for i in 1..meshes.clamp(1, 3) as usize {
                            match stored.get(4 + i).filter(|_| 4 + i < stored_count) {
                                Some(field) => {
                                    line.sep()?;
                                    line.bytes(field)?;
                                }
                                None => line.float(distance)?,
                            }
                        }
                        rest = 5 + meshes.clamp(1, 3) as usize;
                    }
                    None => {
                        line.float(distance)?;
                        rest = 4;
                    }
                }
                line.int(object.flags.ok_or(lost)? as i32)?;
                rest += 1;
                if object.section == "tobj" {
                    line.int(object.time_on.ok_or(lost)?)?;
                    line.int(object.time_off.ok_or(lost)?)?;
                    rest += 2;
                }
            }
            "anim" => {
                line.sep()?;
                line.bytes(object.animation.ok_or(lost)?)?;
                line.float(object.draw_distance.ok_or(lost)?)?;
                line.int(object.flags.ok_or(lost)? as i32)?;
                rest = 6;
            }
            "weap" => {
                line.sep()?;
                line.bytes(object.animation.ok_or(lost)?)?;
                match stored.get(4).filter(|_| stored_count > 4) {
                    Some(field) => {
                        line.sep()?;
                        line.bytes(field)?;
                    }
                    None => line.int(1)?,
                }
                line.float(object.draw_distance.ok_or(lost)?)?;
                rest = 6;
            }
            _ => {}
        }
        for field in stored.iter().take(stored_count).skip(rest) {
            line.sep()?;
            line.bytes(field)?;
        }
        let written = &line.buf[..line.len];
        if !ide::object(section, written, game).is_some_and(|r| same_object(&r, object)) {
            return Err(lost);
        }
        self.open(out, object.section.as_bytes())?;
        self.decided = true;
        self.put(out, &mut line, raw)
    }

    /// A line of a passed-through section: as stored (`raw`) while it holds `text` in the
    /// source's section; else written as given. Either way it must read back as the same line
    /// of the same section (a stored line is no exception: it is refused where the text would
    /// be). A section the games do not know is named by a bare word (§4.6); `""` is
    /// a line outside any section.
    pub(crate) fn section_line<S: Sink>(
        &mut self,
        out: &mut Out<S>,
        section: &str,
        text: &[u8],
        raw: &[u8],
    ) -> Result<(), EncodeError> {
        if !self.started {
            return Err(EncodeError::OutOfOrder);
        }
        let ide = self.ide;
        let name = section.as_bytes();
        let outside = name.is_empty();
        let unknown = !outside && section_of(ide, name).is_none();
        let opens = section_of(ide, text).is_some();
        let decides = match ide {
            false => is_record(text),
            true => ide::is_definition(text),
        };
        let changed = text.is_empty()
            || text.trim_ascii().len() != text.len()
            || text.starts_with(b"#")
            || (!outside && is_end(ide, text))
            || text.iter().any(|&b| b == b'\n' || b == b'\r')
            // Outside a section: a line that would open one, or that a reader would skip
            // before knowing the text is a placement file.
            || (outside && (opens || is_bare_word(text)))
            // In a section the games do not know, a section name opens its section.
            || (unknown && opens)
            || (outside && !self.decided && !decides);
        if changed {
            // Refused with or without a stored line: one that holds this text would read back
            // as something else too (a section header, an `end`, a comment), not as this line.
            return Err(EncodeError::NotRepresentable(Lost::Line));
        }
        if is_line(raw) && raw.trim_ascii() == text && self.in_source(section.as_bytes()) {
            return self.stored(out, raw);
        }
        // Written from its text: only in a section passed through (a record section's line
        // that is no record comes back only as stored).
        let passed: &[&str] = match ide {
            false => &PASSED,
            true => &IDE_PASSED,
        };
        let name = match passed.iter().find(|s| s.eq_ignore_ascii_case(section)) {
            Some(known) => known.as_bytes(),
            None if outside || (unknown && is_bare_word(name)) => name,
            None => return Err(EncodeError::NotRepresentable(Lost::Line)),
        };
        // A NUL ends the text for the decoder (archive padding): every later line would be
        // lost on reading. The error names the line it would have been, after the `end` and
        // the section name it needs.
        if text.contains(&0) {
            let open = self.out.as_ref().map(Name::as_bytes);
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
            self.enter(out, None)?;
            // A record before any section name makes a reader take the text for placements.
            self.decided = true;
        } else {
            self.open(out, name)?;
        }
        self.put(out, &mut line, raw)
    }

    /// Writes a line of the encoder's own, in place of the stored line `raw` if any (with its
    /// line break), else with the source's line break.
    fn put<S: Sink>(
        &mut self,
        out: &mut Out<S>,
        line: &mut Line,
        raw: &[u8],
    ) -> Result<(), EncodeError> {
        self.break_line(out)?;
        let eol = if is_line(raw) {
            eol_of(raw)
        } else {
            self.eol()
        };
        check_head(out, &line.buf[..line.len])?;
        line.finish(out, eol)?;
        self.unterminated = eol.is_empty();
        self.lines += 1;
        Ok(())
    }

    /// Bytes after the text (from its NUL on), as the source had them.
    pub(crate) fn trailing<S: Sink>(
        &mut self,
        out: &mut Out<S>,
        bytes: &[u8],
    ) -> Result<(), EncodeError> {
        out.put(bytes)
    }

    pub(crate) fn end<S: Sink>(&mut self, out: &mut Out<S>) -> Result<(), EncodeError> {
        if !self.started {
            return Err(EncodeError::OutOfOrder);
        }
        if self.out.is_some() && self.out != self.src {
            self.enter(out, None)?;
        } else if out.pos == 0 {
            // An empty input is not a text file (§8.1): a comment makes it one.
            out.put(match self.ide {
                false => b"# no placements\n",
                true => b"# no definitions\n",
            })?;
        }
        Ok(())
    }
}

/// A reader takes the output for text by its first bytes (§8.1): a line that would put
/// another byte among them (a Latin-1 name) would not read back.
fn check_head<S: Sink>(out: &Out<S>, line: &[u8]) -> Result<(), EncodeError> {
    let head = MAGIC_SIZE.saturating_sub(usize::try_from(out.pos).unwrap_or(usize::MAX));
    if line[..line.len().min(head)].iter().any(|&b| !is_text(b)) {
        return Err(EncodeError::NotRepresentable(Lost::Line));
    }
    Ok(())
}
