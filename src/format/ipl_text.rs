//! Text item placement files of GTA III, Vice City and San Andreas (docs/FORMATS.md §4).
//!
//! Decoded line by line, each line a unit of at most [`MAX_LINE`] bytes, read as the games
//! read it: commas and control characters are blanks; a line whose first non-blank is `#` is
//! a comment; sections open with their name on a line and close with a line starting with
//! `end`. A line that is one bare word ([`is_bare_word`]: lower-case letters, digits and `_`,
//! a letter first, at most [`MAX_SECTION_NAME`] bytes, not `end...`) opens a section the games
//! do not know (a mod's `wanted`), which a section name ends as the games see it. `inst` and
//! `cars` lines are scanned field by field with `sscanf` semantics (see [`Scanner`]) and become
//! instance and car events; the lines of other sections, known or not, are passed through as
//! [`SectionLine`]s, and so is a record line the game cannot read (with a
//! [`WarningKind::MalformedLine`]) and a line outside any section (with a
//! [`WarningKind::LineOutsideSection`], section `""`).
//!
//! Before the first event the machine makes sure the text is a placement file: within its
//! first [`SNIFF_LINES`] lines that are neither blank nor comments, one must be a section
//! keyword, a bare word or scan as a placement record; otherwise the input is
//! [`ErrorKind::BadMagic`] (a `Cargo.toml`'s `[package]`, a README's prose and capitalised
//! headings are none). The lines looked at before that are remembered by their offsets only
//! (for their warnings; their text is not passed through), so the state stays fixed.

use super::fields::{is_blank, line_fields as fields, SECTIONS};
use super::ide;
use super::protocol::{Step, Stepped, Want};
use super::text::{content, starts_with_ignore_case, Scanner};
use crate::decoder::Game;
use crate::limits::{MAX_LINE, MAX_SECTION_NAME, SNIFF_LINES};
use crate::{
    Error, ErrorKind, FileInfo, Flow, Format, IdeObject, IplCar, IplInstance, Record, SectionLine,
    Unit, UnitKind, Visitor, Warning, WarningKind,
};

const INST: u8 = 0;
const CARS: u8 = 6;
/// The open section is one the games do not know, named by a bare word.
const UNKNOWN: u8 = u8::MAX;

/// An `inst` line in the layout of `game` (docs/FORMATS.md §4):
/// San Andreas `"%d %s %d %f %f %f %f %f %f %f %d"` (id, model, interior, pos×3, rot×4, lod);
/// Vice City `id, model, interior, pos×3, scale×3, rot×4`;
/// GTA III `id, model, pos×3, scale×3, rot×4`.
fn instance<'a>(s: &mut Scanner<'a>, game: Game) -> Option<IplInstance<'a>> {
    let model_id = s.int()?;
    let model_name = Some(s.word()?);
    let interior = match game {
        Game::Iii => 0,
        Game::ViceCity | Game::SanAndreas => s.int()? as u32,
    };
    let position = s.floats::<3>()?;
    let (scale, rotation, lod) = match game {
        Game::SanAndreas => (None, s.floats::<4>()?, s.int()?),
        Game::Iii | Game::ViceCity => (Some(s.floats::<3>()?), s.floats::<4>()?, -1),
    };
    Some(IplInstance {
        position,
        rotation,
        model_id,
        interior,
        lod,
        model_name,
        scale,
        raw: &[],
    })
}

/// A `cars` line, `"%f %f %f %f %d %d %d %d %d %d %d %d"`: pos×3, angle, model, colour×2,
/// flags, alarm, door lock, min/max delay.
fn car<'a>(s: &mut Scanner<'a>) -> Option<IplCar<'a>> {
    let [x, y, z, angle] = s.floats::<4>()?;
    let mut ints = [0; 8];
    for value in &mut ints {
        *value = s.int()?;
    }
    let mut car = IplCar {
        position: [x, y, z],
        angle,
        ..IplCar::default()
    };
    car.set_ints(ints);
    Some(car)
}

/// The layout a line of `count` fields has, if any.
fn layout_of(count: usize) -> Option<Game> {
    match count {
        11 => Some(Game::SanAndreas),
        12 => Some(Game::Iii),
        13 => Some(Game::ViceCity),
        _ => None,
    }
}

/// Whether `text` scans whole (every conversion a whole field, nothing after the last) as an
/// `inst` line of `game`.
fn inst_scans_whole(text: &[u8], game: Game) -> bool {
    let mut s = Scanner::new(text);
    instance(&mut s, game).is_some() && s.whole && s.rest(false).is_none()
}

/// Whether `text` scans whole as a placement record: an `inst` line of its field count's
/// layout, or a `cars` line.
pub(crate) fn is_record(text: &[u8]) -> bool {
    let count = fields(text).take(14).count();
    if layout_of(count).is_some_and(|game| inst_scans_whole(text, game)) {
        return true;
    }
    let mut s = Scanner::new(text);
    count == 12 && car(&mut s).is_some() && s.whole
}

/// The section a keyword line opens, as an index into [`SECTIONS`].
pub(crate) fn keyword(text: &[u8]) -> Option<u8> {
    let name = fields(text).next().unwrap_or_default();
    SECTIONS
        .iter()
        .position(|s| name.eq_ignore_ascii_case(s.as_bytes()))
        .map(|i| i as u8)
}

/// Whether `field` names a section (any case), as the decoder reads section headers.
pub(crate) fn is_keyword(field: &[u8]) -> bool {
    SECTIONS
        .iter()
        .any(|s| field.eq_ignore_ascii_case(s.as_bytes()))
}

/// Whether `text` (a line's content) is a bare word that opens a section the games do not
/// know (a mod's `wanted`): the whole content is one word of lower-case ASCII letters, digits
/// and `_`, starting with a letter, at most [`MAX_SECTION_NAME`] bytes, and not starting with
/// `end` (which closes a section). A section name is matched first (any case).
pub(crate) fn is_bare_word(text: &[u8]) -> bool {
    let word = match text.iter().position(|&b| is_blank(b)) {
        Some(end) if text[end..].iter().all(|&b| is_blank(b)) => &text[..end],
        Some(_) => return false,
        None => text,
    };
    matches!(word.first(), Some(b'a'..=b'z'))
        && word.len() <= MAX_SECTION_NAME
        && word
            .iter()
            .all(|&b| matches!(b, b'a'..=b'z' | b'0'..=b'9' | b'_'))
        && !word.starts_with(b"end")
}

/// The text formats the line machine reads: they share the games' line loader, sections and
/// `end`, and differ in their sections' names and lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dialect {
    /// Item placement (text IPL).
    Ipl,
    /// Item definitions (IDE).
    Ide,
}

impl Dialect {
    fn format(self) -> Format {
        match self {
            Dialect::Ipl => Format::IplText,
            Dialect::Ide => Format::Ide,
        }
    }

    fn sections(self) -> &'static [&'static str] {
        match self {
            Dialect::Ipl => &SECTIONS,
            Dialect::Ide => &ide::SECTIONS,
        }
    }

    /// The section a line opens: text IPL's reader takes the first field in any case, the
    /// games' IDE loaders a lower-case prefix.
    fn keyword(self, text: &[u8]) -> Option<u8> {
        match self {
            Dialect::Ipl => keyword(text),
            Dialect::Ide => ide::keyword(text),
        }
    }

    fn is_end(self, text: &[u8]) -> bool {
        match self {
            Dialect::Ipl => starts_with_ignore_case(text, "end"),
            Dialect::Ide => ide::is_end(text),
        }
    }
}

/// The format a line outside any section tells (docs/FORMATS.md §12.1), if any: a section
/// name of one format only, a bare word or a placement record (text IPL), a model's definition
/// (IDE). Sections both have are told by their first line.
fn dialect_of(text: &[u8]) -> Option<Dialect> {
    if keyword(text).is_some() {
        Some(Dialect::Ipl)
    } else if ide::keyword(text).is_some() {
        Some(Dialect::Ide)
    } else if is_bare_word(text) || is_record(text) {
        Some(Dialect::Ipl)
    } else if ide::is_definition(text) {
        Some(Dialect::Ide)
    } else {
        None
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// Not yet known to be a placement file: no event so far.
    Sniff,
    /// Known: reporting the warnings of the lines the sniff passed over (then the line that
    /// decided, from the start).
    Replay,
    Lines,
    Done,
}

/// What one line gives: an event after which the line is done, a warning before it, or no
/// event (the line then reaches [`Visitor::text_line`]).
enum Outcome {
    Event(Flow),
    Warning(Flow),
    Silent,
}

#[derive(Clone, Debug)]
pub(crate) struct IplText {
    stage: Stage,
    /// The format the text is read as (decided by the sniff).
    dialect: Dialect,
    /// The open section, an index into the dialect's sections ([`SECTIONS`],
    /// [`ide::SECTIONS`]), or [`UNKNOWN`]. While sniffing: an index into [`ide::SHARED`], a
    /// section both formats have, opened before the format was told.
    section: Option<u8>,
    /// The name of an open unknown section (a bare word: ASCII).
    unknown: [u8; MAX_SECTION_NAME],
    unknown_len: u8,
    /// Lines decoded so far.
    line: u32,
    /// The layout of `inst` lines, once decided (or named by the caller).
    layout: Option<Game>,
    /// The current line's warning was reported; its event comes next.
    warned: bool,
    /// Sniff: the lines outside any section seen so far, by offset (each one's warning is
    /// reported once the text is known to be a placement file).
    strays: [u64; SNIFF_LINES - 1],
    stray_count: u8,
    replayed: u8,
}

impl IplText {
    pub(crate) fn new(game: Option<Game>) -> Self {
        IplText {
            stage: Stage::Sniff,
            dialect: Dialect::Ipl,
            section: None,
            unknown: [0; MAX_SECTION_NAME],
            unknown_len: 0,
            line: 0,
            layout: game,
            warned: false,
            strays: [0; SNIFF_LINES - 1],
            stray_count: 0,
            replayed: 0,
        }
    }

    /// The number (from 1) of the line being decoded, or that failed.
    pub(crate) fn line(&self) -> u32 {
        self.line + 1
    }

    /// A line longer than [`MAX_LINE`] at `at`: no placement file has one.
    pub(crate) fn too_long(&self, at: u64) -> Error {
        match self.stage {
            // After a section name both formats have, the text is one of them.
            Stage::Sniff if self.section.is_none() => Error::new(ErrorKind::BadMagic, 0),
            _ => Error::new(ErrorKind::Limit, at),
        }
    }

    /// Before any event: blank lines and comments pass; a section keyword or a record line
    /// makes the text a placement file (the file event; the line is then decoded from the
    /// start); another line is remembered, and the [`SNIFF_LINES`]th such is not one. So is
    /// text that ends with only such lines; text of blank lines and comments alone is an empty
    /// placement file (the games load one).
    fn sniff<V: Visitor>(
        &mut self,
        unit: &[u8],
        at: u64,
        visitor: &mut V,
    ) -> Result<Stepped, Error> {
        let text = content(unit);
        let dialect = if unit.is_empty() {
            // The end of input (a section both formats have, left open, is text IPL's).
            if let Some(shared) = self.section {
                let name = ide::SHARED[usize::from(shared)];
                self.section = SECTIONS.iter().position(|&s| s == name).map(|i| i as u8);
            }
            (self.stray_count == 0).then_some(self.dialect)
        } else if text.is_empty() {
            self.line += 1;
            return Ok(Stepped::new(unit.len(), visitor.text_line(unit)));
        } else if let Some(shared) = self.section {
            // The first line of a section both formats have tells them apart (an empty one
            // does not).
            if starts_with_ignore_case(text, "end") {
                self.section = None;
                self.line += 1;
                return Ok(Stepped::new(unit.len(), visitor.text_line(unit)));
            }
            let dialect = match ide::is_shared_section_line(text) {
                true => Dialect::Ide,
                false => Dialect::Ipl,
            };
            let name = ide::SHARED[usize::from(shared)];
            self.section = dialect
                .sections()
                .iter()
                .position(|&s| s == name)
                .map(|i| i as u8);
            Some(dialect)
        } else {
            // Undecided only where both formats read the line as that section: its first word
            // is the name in lower case. Text IPL alone reads `PATH` (any case, the whole
            // word); an IDE alone reads `pathinst` (a lower-case prefix): those decide.
            let shared = ide::SHARED.iter().position(|&name| {
                fields(text).next() == Some(name.as_bytes()) && text.starts_with(name.as_bytes())
            });
            if let Some(shared) = shared {
                self.section = Some(shared as u8);
                self.line += 1;
                return Ok(Stepped::new(unit.len(), visitor.text_line(unit)));
            }
            dialect_of(text)
        };
        let is_placement = dialect.is_some();
        if let Some(dialect) = dialect {
            self.dialect = dialect;
        }
        if is_placement {
            self.stage = Stage::Replay;
            let flow = visitor.file(&FileInfo {
                container_size: None,
                rw_version: None,
                format: self.dialect.format(),
                name: None,
                animation_count: 0,
                instance_count: None,
                car_count: None,
                info_size: None,
                raw: &[],
            });
            return Ok(Stepped::new(0, flow));
        }
        let count = usize::from(self.stray_count);
        if unit.is_empty() || count == self.strays.len() {
            return Err(Error::new(ErrorKind::BadMagic, 0));
        }
        self.strays[count] = at;
        self.stray_count += 1;
        self.line += 1;
        Ok(Stepped::new(unit.len(), visitor.text_line(unit)))
    }

    fn line_event<V: Visitor>(&mut self, unit: &[u8], at: u64, visitor: &mut V) -> Outcome {
        let text = content(unit);
        if text.is_empty() {
            return Outcome::Silent;
        }
        visitor.unit(&Unit {
            kind: UnitKind::Line,
            offset: at,
            line: Some(self.line + 1),
            bytes: unit.trim_ascii_end(),
        });
        let Some(section) = self.section else {
            return self.outside(unit, text, at, visitor);
        };
        // A section the games do not know is none to them: a section name opens its section.
        if section == UNKNOWN && self.dialect.keyword(text).is_some() {
            self.section = None;
            return self.outside(unit, text, at, visitor);
        }
        if self.dialect.is_end(text) {
            self.section = None;
            return Outcome::Silent;
        }
        let number = self.line();
        let line = |section| SectionLine {
            section,
            text: unit.trim_ascii(),
            line: number,
            raw: unit,
        };
        if self.dialect == Dialect::Ide {
            return self.definition(section, unit, at, visitor);
        }
        // The scanner reads the line from its first non-blank byte (where `text` starts).
        let text_at = at + (unit.len() - text.len()) as u64;
        let mut s = Scanner::new(text);
        match section {
            INST => {
                let game = self.inst_layout(text);
                match instance(&mut s, game) {
                    Some(inst) => self.record(&mut s, text_at, visitor, |v| {
                        v.record(&Record::Instance(IplInstance { raw: unit, ..inst }))
                    }),
                    None => self.malformed(&line("inst"), at, visitor),
                }
            }
            CARS => match car(&mut s) {
                Some(car) => self.record(&mut s, text_at, visitor, |v| {
                    v.record(&Record::Car(IplCar { raw: unit, ..car }))
                }),
                None => self.malformed(&line("cars"), at, visitor),
            },
            UNKNOWN => {
                let name = &self.unknown[..usize::from(self.unknown_len)];
                // A bare word: ASCII.
                let name = core::str::from_utf8(name).unwrap_or_default();
                Outcome::Event(visitor.record(&Record::SectionLine(line(name))))
            }
            known => {
                let name = SECTIONS[usize::from(known)];
                Outcome::Event(visitor.record(&Record::SectionLine(line(name))))
            }
        }
    }

    /// A line of an open IDE section: a model's definition in a section that defines models
    /// (a line the game cannot read: a warning, then the line passed through), any other line
    /// passed through.
    fn definition<V: Visitor>(
        &self,
        section: u8,
        unit: &'_ [u8],
        at: u64,
        visitor: &mut V,
    ) -> Outcome {
        let number = self.line();
        let text = unit.trim_ascii();
        let name = match section {
            UNKNOWN => {
                // A bare word: ASCII.
                core::str::from_utf8(&self.unknown[..usize::from(self.unknown_len)])
                    .unwrap_or_default()
            }
            known => ide::SECTIONS[usize::from(known)],
        };
        let line = SectionLine {
            section: name,
            text,
            line: number,
            raw: unit,
        };
        if section == UNKNOWN || !ide::defines_models(section) {
            return Outcome::Event(visitor.record(&Record::SectionLine(line)));
        }
        match ide::object(section, content(unit), self.layout) {
            Some(object) => Outcome::Event(visitor.record(&Record::IdeObject(IdeObject {
                text,
                line: number,
                offset: at,
                raw: unit,
                ..object
            }))),
            None => self.malformed(&line, at, visitor),
        }
    }

    /// A line outside any section: a section name or a bare word opens a section (no event);
    /// any other line is skipped by the game: a warning, then the line passed through with
    /// no section name (`""`).
    fn outside<V: Visitor>(
        &mut self,
        unit: &[u8],
        text: &[u8],
        at: u64,
        visitor: &mut V,
    ) -> Outcome {
        if let Some(known) = self.dialect.keyword(text) {
            self.section = Some(known);
            return Outcome::Silent;
        }
        if is_bare_word(text) {
            let word = fields(text).next().unwrap_or_default();
            self.unknown[..word.len()].copy_from_slice(word);
            self.unknown_len = word.len() as u8;
            self.section = Some(UNKNOWN);
            return Outcome::Silent;
        }
        if self.warned {
            let line = SectionLine {
                section: "",
                text: unit.trim_ascii(),
                line: self.line(),
                raw: unit,
            };
            return Outcome::Event(visitor.record(&Record::SectionLine(line)));
        }
        Outcome::Warning(visitor.warning(Warning {
            kind: WarningKind::LineOutsideSection,
            offset: at,
        }))
    }

    /// A record scanned: first a warning for text after its last field that is no comment
    /// (at that text), then the record's event.
    fn record<V: Visitor>(
        &self,
        s: &mut Scanner<'_>,
        text_at: u64,
        visitor: &mut V,
        event: impl FnOnce(&mut V) -> Flow,
    ) -> Outcome {
        match s.rest(true) {
            Some(i) if !self.warned => Outcome::Warning(visitor.warning(Warning {
                kind: WarningKind::TrailingText,
                offset: text_at + i as u64,
            })),
            _ => Outcome::Event(event(visitor)),
        }
    }

    /// A conversion failed: the game reads stale values, so no record; a warning at the line,
    /// then the line passed through.
    fn malformed<V: Visitor>(&self, line: &SectionLine<'_>, at: u64, visitor: &mut V) -> Outcome {
        if self.warned {
            Outcome::Event(visitor.record(&Record::SectionLine(*line)))
        } else {
            Outcome::Warning(visitor.warning(Warning {
                kind: WarningKind::MalformedLine,
                offset: at,
            }))
        }
    }

    /// The layout of an `inst` line: the file's once decided (or named); else this line's, if
    /// it has 11, 12 or 13 fields and scans whole under that layout (which decides for the
    /// file); else a guess for this line alone.
    fn inst_layout(&mut self, text: &[u8]) -> Game {
        inst_layout(&mut self.layout, text)
    }
}

/// The layout under which a reader takes the `inst` line `text` (its content), given the
/// file's layout so far, `layout`, which the line may decide (§6.4).
fn inst_layout(layout: &mut Option<Game>, text: &[u8]) -> Game {
    if let Some(game) = *layout {
        return game;
    }
    let count = fields(text).take(14).count();
    if let Some(game) = layout_of(count).filter(|&game| inst_scans_whole(text, game)) {
        *layout = Some(game);
        return game;
    }
    guess(text)
}

/// The instance a reader takes from the stored `inst` line `raw` (with its line break), given
/// the file's layout so far (which the line may decide); `None` for a line it cannot read. For
/// an encoder that writes a line back only while it reads as the event's values.
pub(crate) fn read_instance<'a>(
    layout: &mut Option<Game>,
    raw: &'a [u8],
) -> Option<IplInstance<'a>> {
    let text = content(raw);
    let game = inst_layout(layout, text);
    instance(&mut Scanner::new(text), game)
}

/// The car generator a reader takes from the stored `cars` line `raw`.
pub(crate) fn read_car(raw: &[u8]) -> Option<IplCar<'_>> {
    car(&mut Scanner::new(content(raw)))
}

impl Step for IplText {
    fn want(&self) -> Want {
        match self.stage {
            Stage::Sniff | Stage::Replay | Stage::Lines => Want::Line(MAX_LINE),
            Stage::Done => Want::Done,
        }
    }

    /// Takes one line with its line break; at the end of input, the last line without one,
    /// then an empty unit.
    fn step<V: Visitor>(
        &mut self,
        unit: &[u8],
        at: u64,
        visitor: &mut V,
    ) -> Result<Stepped, Error> {
        // A NUL ends the text (archive entries are padded with zeros to their sector): the
        // bytes before it are the last line, and the input ends there; what follows is
        // trailing data (zeros: padding, reported by nobody).
        if let Some(nul) = unit.iter().position(|&b| b == 0) {
            let line = &unit[..nul];
            return self.step(line, at, visitor);
        }
        match self.stage {
            Stage::Sniff => self.sniff(unit, at, visitor),
            Stage::Replay => {
                let i = usize::from(self.replayed);
                if i < usize::from(self.stray_count) {
                    self.replayed += 1;
                    let flow = visitor.warning(Warning {
                        kind: WarningKind::LineOutsideSection,
                        offset: self.strays[i],
                    });
                    return Ok(Stepped::new(0, flow));
                }
                self.stage = Stage::Lines;
                self.step(unit, at, visitor)
            }
            Stage::Lines if unit.is_empty() => {
                self.stage = Stage::Done;
                let flow = match self.section {
                    Some(_) => visitor.warning(Warning {
                        kind: WarningKind::UnclosedSection,
                        offset: at,
                    }),
                    None => Flow::Continue,
                };
                Ok(Stepped::new(0, flow))
            }
            Stage::Lines => match self.line_event(unit, at, visitor) {
                Outcome::Warning(flow) => {
                    self.warned = true;
                    Ok(Stepped::new(0, flow))
                }
                Outcome::Event(flow) => {
                    self.warned = false;
                    self.line += 1;
                    Ok(Stepped::new(unit.len(), flow))
                }
                Outcome::Silent => {
                    self.line += 1;
                    Ok(Stepped::new(unit.len(), visitor.text_line(unit)))
                }
            },
            Stage::Done => Ok(Stepped::new(unit.len(), Flow::Continue)),
        }
    }
}

/// The layout of an `inst` line that does not decide the file's: the first that reads it with
/// nothing but a comment after the last field, the longest first (a line with a trailing
/// comment has more fields than its layout); else the first that reads it at all, San Andreas
/// first (whose files have such lines).
fn guess(text: &[u8]) -> Game {
    const LONGEST_FIRST: [Game; 3] = [Game::ViceCity, Game::Iii, Game::SanAndreas];
    let clean = |game| {
        let mut s = Scanner::new(text);
        instance(&mut s, game).is_some() && s.rest(true).is_none()
    };
    if let Some(game) = LONGEST_FIRST.into_iter().find(|&g| clean(g)) {
        return game;
    }
    [Game::SanAndreas, Game::ViceCity, Game::Iii]
        .into_iter()
        .find(|&game| instance(&mut Scanner::new(text), game).is_some())
        .unwrap_or(Game::SanAndreas)
}
