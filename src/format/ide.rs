//! Item definition files (`.ide`) of GTA III, Vice City and San Andreas (docs/FORMATS.md §12).
//!
//! Read by the text line machine of [`ipl_text`](super::ipl_text) (the games read both with
//! the same line loader): this module has what differs, the section names and the layouts of
//! the lines that define a model, read as each game's `sscanf` reads them.

use super::fields::line_fields;
use super::text::Scanner;
use crate::decoder::Game;
use crate::IdeObject;

/// The sections of IDE files: the union of the games' (`weap` from Vice City, `anim` and
/// `txdp` from San Andreas; `tanm` is named by no PC game's loader, its lines pass through).
pub(crate) const SECTIONS: [&str; 11] = [
    "objs", "tobj", "anim", "weap", "cars", "peds", "path", "2dfx", "txdp", "hier", "tanm",
];

/// The indexes into [`SECTIONS`] of the sections that define models.
const OBJS: u8 = 0;
const TOBJ: u8 = 1;
const ANIM: u8 = 2;
const WEAP: u8 = 3;
const CARS: u8 = 4;
const PEDS: u8 = 5;
const HIER: u8 = 9;

/// Sections that both text IPL and IDE files have: their name alone does not tell the file's
/// format.
pub(crate) const SHARED: [&str; 2] = ["cars", "path"];

/// The section a line opens, as the games test it: the line's content starts with the
/// section's name, in lower case (`LoadObjectTypes`: re3 `isLine4`, gta-reversed
/// `LineBeginsWith`).
pub(crate) fn keyword(text: &[u8]) -> Option<u8> {
    SECTIONS
        .iter()
        .position(|s| text.starts_with(s.as_bytes()))
        .map(|i| i as u8)
}

/// Whether a line closes its section: its content starts with `end` (lower case, as the games
/// test it).
pub(crate) fn is_end(text: &[u8]) -> bool {
    text.starts_with(b"end")
}

/// Whether the line's content looks like a model's definition and not like a placement: a
/// number, then two fields that are names, not numbers (an IPL `inst` line's third field is
/// its interior or a coordinate; every field of an IPL `cars` or `path` line is a number).
pub(crate) fn is_definition(text: &[u8]) -> bool {
    let mut fields = line_fields(text);
    let number = |f: &[u8]| {
        let mut s = Scanner::new(f);
        s.float().is_some()
    };
    let Some(first) = fields.next() else {
        return false;
    };
    let id = Scanner::new(first).int().is_some() && first.iter().all(u8::is_ascii_digit);
    id && fields.next().is_some_and(|f| !number(f)) && fields.next().is_some_and(|f| !number(f))
}

/// Whether the first line of a section both formats have (`cars`, `path`) is an IDE's: its
/// third field is a name (a car's texture dictionary, a path group's model), where every field
/// of a text IPL's `cars` and `path` lines is a number.
pub(crate) fn is_shared_section_line(text: &[u8]) -> bool {
    line_fields(text)
        .nth(2)
        .is_some_and(|f| Scanner::new(f).float().is_none())
}

/// Whether section `section` (an index into [`SECTIONS`]) defines models.
pub(crate) fn defines_models(section: u8) -> bool {
    matches!(section, OBJS | TOBJ | ANIM | WEAP | CARS | PEDS | HIER)
}

/// The definition a game reads from a line of a section that defines models, or `None` where
/// it reads none (the conversions it needs fail). `game`: the layouts of that game; `None`:
/// San Andreas', which also read the older files' layouts.
pub(crate) fn object(section: u8, text: &[u8], game: Option<Game>) -> Option<IdeObject<'_>> {
    let mut s = Scanner::new(text);
    let id = s.int()?;
    let model_name = s.word()?;
    let txd_name = s.word()?;
    let mut object = IdeObject {
        section: SECTIONS[usize::from(section)],
        id,
        model_name,
        txd_name,
        text,
        ..IdeObject::default()
    };
    let sa = matches!(game, None | Some(Game::SanAndreas));
    match section {
        OBJS | TOBJ => {
            let timed = section == TOBJ;
            // San Andreas first reads the short layout (`"%d %s %s %f %d"`, with `" %d %d"` for
            // `tobj`), and takes it if every conversion succeeds and the distance is at least
            // 4 (gta-reversed FileLoader.cpp `LoadObject`, `LoadTimeObject`).
            if sa {
                let mut short = Scanner::new(text);
                short.int()?;
                short.word()?;
                short.word()?;
                let read = (|| {
                    let distance = short.float()?;
                    let flags = short.int()?;
                    let times = match timed {
                        true => Some((short.int()?, short.int()?)),
                        false => None,
                    };
                    Some((distance, flags, times))
                })();
                if let Some((distance, flags, times)) = read.filter(|r| r.0 >= 4.0) {
                    object.draw_distance = Some(distance);
                    object.flags = Some(flags as u32);
                    object.time_on = times.map(|t| t.0);
                    object.time_off = times.map(|t| t.1);
                    return Some(object);
                }
            }
            // Every game: `"%d %s %s %d"`, a mesh count of 1 to 3, as many distances, the
            // flags (re3 / reVC FileLoader.cpp `LoadObject`, `LoadTimeObject`).
            let meshes = s.int()?;
            if !(1..=3).contains(&meshes) {
                return None;
            }
            object.mesh_count = Some(meshes);
            object.draw_distance = Some(s.float()?);
            for _ in 1..meshes {
                s.float()?;
            }
            object.flags = Some(s.int()? as u32);
            if timed {
                object.time_on = Some(s.int()?);
                object.time_off = Some(s.int()?);
            }
        }
        // San Andreas `"%d %s %s %s %f %d"` (gta-reversed `LoadAnimatedClumpObject`).
        ANIM => {
            object.animation = Some(s.word()?);
            object.draw_distance = Some(s.float()?);
            object.flags = Some(s.int()? as u32);
        }
        // Vice City and San Andreas `"%d %s %s %s %d %f"` (reVC, gta-reversed
        // `LoadWeaponObject`): animation, mesh count (San Andreas: unused), distance.
        WEAP => {
            object.animation = Some(s.word()?);
            s.int()?;
            object.draw_distance = Some(s.float()?);
        }
        // GTA III reads a pedestrian only if all seven conversions of `"%d %s %s %s %s %s %x"`
        // succeed (re3 `LoadPedObject`); the later games take any line.
        PEDS if game == Some(Game::Iii) => {
            for _ in 0..3 {
                s.word()?;
            }
            s.word()
                .filter(|w| w.first().is_some_and(u8::is_ascii_hexdigit))?;
        }
        // `hier`: `"%d %s %s"`; `cars`, `peds`: the rest is in the line's text.
        _ => {}
    }
    Some(object)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_are_lower_case_prefixes() {
        assert_eq!(keyword(b"objs"), Some(OBJS));
        assert_eq!(keyword(b"objsx"), Some(OBJS));
        assert_eq!(keyword(b"OBJS"), None);
        assert_eq!(keyword(b"2dfx"), Some(7));
        assert!(is_end(b"end") && is_end(b"endx") && !is_end(b"END"));
    }

    #[test]
    fn definitions_are_told_from_placements() {
        assert!(is_definition(b"1337, box, generic, 100, 0"));
        assert!(!is_definition(
            b"1337, box, 0, 1.0, 2.0, 3.0, 0, 0, 0, 1, -1"
        ));
        assert!(!is_definition(b"1.0 2.0 3.0 0 400 -1 -1 0 0 0 0 0"));
        assert!(!is_definition(b"box generic 1"));
    }
}
