//! Text item placement files of GTA III, Vice City and San Andreas (FORMATS.md §4).
//!
//! Decoded line by line, each line a unit of at most [`MAX_LINE`] bytes. Sections open with
//! their name on a line and close with a line starting with `end`; `#` starts a comment;
//! commas and blanks separate fields. `inst` and `cars` lines become instance and car events,
//! lines of other sections are passed through as [`SectionLine`]s.

use heapless::Vec;

use super::protocol::{Step, Stepped, Want};
use crate::limits::MAX_LINE;
use crate::{
    Error, ErrorKind, FileInfo, Flow, Format, IplCar, IplInstance, SectionLine, Visitor, Warning,
    WarningKind,
};

/// Most fields any interpreted line has (a Vice City `inst` line).
const MAX_FIELDS: usize = 13;

/// The sections of text IPL files.
const SECTIONS: [&str; 13] = [
    "inst", "cull", "path", "grge", "enex", "pick", "cars", "jump", "tcyc", "auzo", "mult", "occl",
    "zone",
];

/// The fields of a line: runs of bytes between commas and blanks.
pub(crate) fn fields(text: &[u8]) -> impl Iterator<Item = &[u8]> {
    text.split(|b| matches!(b, b' ' | b'\t' | b','))
        .filter(|field| !field.is_empty())
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    Start,
    Lines,
    Done,
}

#[derive(Clone, Debug)]
pub(crate) struct IplText {
    stage: Stage,
    /// The open section, an index into [`SECTIONS`].
    section: Option<u8>,
    /// Lines decoded so far.
    line: u32,
}

fn float(field: &[u8]) -> Option<f32> {
    core::str::from_utf8(field).ok()?.parse().ok()
}

fn int(field: &[u8]) -> Option<i32> {
    core::str::from_utf8(field).ok()?.parse().ok()
}

fn floats<const N: usize>(fields: &[&[u8]]) -> Option<[f32; N]> {
    let mut out = [0.0; N];
    for (value, field) in out.iter_mut().zip(fields) {
        *value = float(field)?;
    }
    Some(out)
}

/// An `inst` line in one of its three layouts, told apart by the field count:
/// San Andreas `id, model, interior, pos×3, rot×4, lod` (11);
/// Vice City `id, model, interior, pos×3, scale×3, rot×4` (13);
/// GTA III `id, model, pos×3, scale×3, rot×4` (12).
fn instance<'a>(f: &[&'a [u8]]) -> Option<IplInstance<'a>> {
    if !matches!(f.len(), 11..=13) {
        return None;
    }
    let model_id = int(f[0])?;
    let model_name = Some(f[1]);
    let (interior, rest) = match f.len() {
        12 => (0, &f[2..]),
        _ => (int(f[2])? as u32, &f[3..]),
    };
    let position = floats::<3>(&rest[..3])?;
    let (scale, rotation, lod) = if f.len() == 11 {
        (None, floats::<4>(&rest[3..7])?, int(rest[7])?)
    } else {
        (
            Some(floats::<3>(&rest[3..6])?),
            floats::<4>(&rest[6..10])?,
            -1,
        )
    };
    Some(IplInstance {
        position,
        rotation,
        model_id,
        interior,
        lod,
        model_name,
        scale,
    })
}

/// A `cars` line: `pos×3, angle, model, colour×2, flags, alarm, door lock, min/max delay`.
fn car(f: &[&[u8]]) -> Option<IplCar> {
    if f.len() != 12 {
        return None;
    }
    let [x, y, z, angle] = floats::<4>(&f[..4])?;
    let mut ints = [0; 8];
    for (value, field) in ints.iter_mut().zip(&f[4..]) {
        *value = int(field)?;
    }
    let [model_id, primary_color, secondary_color, flags, alarm_chance, door_lock_chance, min_delay, max_delay] =
        ints;
    Some(IplCar {
        position: [x, y, z],
        angle,
        model_id,
        primary_color,
        secondary_color,
        flags,
        alarm_chance,
        door_lock_chance,
        min_delay,
        max_delay,
    })
}

fn starts_with_ignore_case(text: &[u8], prefix: &str) -> bool {
    text.get(..prefix.len())
        .is_some_and(|head| head.eq_ignore_ascii_case(prefix.as_bytes()))
}

impl IplText {
    pub(crate) fn new() -> Self {
        IplText {
            stage: Stage::Start,
            section: None,
            line: 0,
        }
    }

    /// The number (from 1) of the line being decoded, or that failed.
    pub(crate) fn line(&self) -> u32 {
        self.line + 1
    }

    fn line_event<V: Visitor>(
        &mut self,
        text: &[u8],
        at: u64,
        visitor: &mut V,
    ) -> Result<Flow, Error> {
        if text.is_empty() || text.starts_with(b"#") {
            return Ok(Flow::Continue);
        }
        let Some(section) = self.section else {
            let name = fields(text).next().unwrap_or_default();
            self.section = SECTIONS
                .iter()
                .position(|s| name.eq_ignore_ascii_case(s.as_bytes()))
                .map(|i| i as u8);
            return Ok(match self.section {
                Some(_) => Flow::Continue,
                None => visitor.warning(Warning {
                    kind: WarningKind::LineOutsideSection,
                    offset: at,
                }),
            });
        };
        if starts_with_ignore_case(text, "end") {
            self.section = None;
            return Ok(Flow::Continue);
        }
        let name = SECTIONS[usize::from(section)];
        let malformed = Error::new(ErrorKind::Malformed, at);
        match name {
            "inst" | "cars" => {
                let mut list: Vec<&[u8], MAX_FIELDS> = Vec::new();
                for field in fields(text) {
                    list.push(field).map_err(|_| malformed)?;
                }
                if name == "inst" {
                    Ok(visitor.instance(&instance(&list).ok_or(malformed)?))
                } else {
                    Ok(visitor.car(&car(&list).ok_or(malformed)?))
                }
            }
            _ => Ok(visitor.section_line(&SectionLine {
                section: name,
                text,
            })),
        }
    }
}

impl Step for IplText {
    fn want(&self) -> Want {
        match self.stage {
            Stage::Start => Want::Unit(0),
            Stage::Lines => Want::Line(MAX_LINE),
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
        let flow = match self.stage {
            Stage::Start => {
                self.stage = Stage::Lines;
                visitor.file(&FileInfo {
                    format: Format::IplText,
                    name: None,
                    animation_count: 0,
                    instance_count: None,
                    car_count: None,
                })
            }
            Stage::Lines if unit.is_empty() => {
                self.stage = Stage::Done;
                match self.section {
                    Some(_) => visitor.warning(Warning {
                        kind: WarningKind::UnclosedSection,
                        offset: at,
                    }),
                    None => Flow::Continue,
                }
            }
            Stage::Lines => {
                let flow = self.line_event(unit.trim_ascii(), at, visitor)?;
                self.line += 1;
                flow
            }
            Stage::Done => Flow::Continue,
        };
        Ok(Stepped::new(unit.len(), flow))
    }
}
