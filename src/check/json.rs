//! The JSON document of `check` (`gtastream check --json`, the bindings' `check()`), written
//! by one piece of code so that every front end gives the same structure:
//!
//! `{"inputs": [{"file": PATH, "format": FORMAT, "findings": [{"rule": ID, "severity":
//! "error"|"warning"|"note", "games": ["sa", ...], "offset": N, "entry": NAME|null,
//! "animation": INDEX|null, "bone": INDEX|null, "message": TEXT}], "groups": [{"rule": ID,
//! "severity": LEVEL, "games": [...], "count": N, "animations": N, "entries": N, "first":
//! INDEX, "listed": BOOL, "spread": TEXT}], "summary": {"errors": N, "warnings": N, "notes": N,
//! "games": {"iii": {"errors": N, "warnings": N, "notes": N}, "vc": ..., "sa": ..., "mta":
//! ...}}, "games": ["sa", ...], "games_from": "file"|"caller"}]}`
//!
//! `games` are the games the input was checked for: those the file is for (`"file"`), or
//! those the caller named that load it (`"caller"`).
//!
//! `groups` and `summary` are [`super::group`]'s: one group per rule (in the order of its
//! first finding, `first` its index in `findings`); `listed` groups are shown finding by
//! finding, the others as one line with their `spread` ("769 times in 330 animations").
//!
//! Written as the findings come, never built in memory: [`Document`] opens the document,
//! each input and each finding, and closes what is open.

use core::fmt::{self, Write};

use super::group::{Counts, Grouping};
use super::{Checker, Finding, Games};
use crate::archive::ArchiveDecoder;
use crate::rig::{check_file, Skeleton};

/// The whole document of one file (or version 2 archive, `VER2`) held in memory, named
/// `name` (its stem is the block name the game expects), for `games` (`None`: the games the
/// file is for, [`Checker::with_games`](super::Checker::with_games)): what the bindings'
/// `check()` return. A model (DFF) gets its skeleton report (rules `skel.dff.*`). The bytes
/// are checked twice, once for the format, once for the findings, so nothing is gathered in
/// memory.
pub fn write_document(
    out: &mut impl Write,
    data: &[u8],
    name: &str,
    games: Option<Games>,
) -> fmt::Result {
    write_document_on(out, data, name, games, None)
}

/// [`write_document`] with the animations of the file also checked against `skeleton`
/// (`check --skeleton MODEL.dff ANIM.ifp`, rules `skel.track.*` and `skel.model.*`;
/// [`check_file`]).
pub fn write_document_on(
    out: &mut impl Write,
    data: &[u8],
    name: &str,
    games: Option<Games>,
    skeleton: Option<&Skeleton>,
) -> fmt::Result {
    let archive = data.starts_with(b"VER2");
    let first = check_file(data, name.as_bytes(), games, skeleton, |_| {});
    let format = match archive {
        true => Some("VER2"),
        false => first.format.map(|f| f.name()),
    };
    let mut document = Document::new(out)?;
    document.input(name, format)?;
    let mut result = Ok(());
    let checked = check_file(data, name.as_bytes(), games, skeleton, |f| {
        if result.is_ok() {
            result = document.finding(f);
        }
    });
    result?;
    document.checked(checked.games, checked.from_file);
    document.end()
}

/// [`write_document`] of a version 1 archive held in memory: `dir` its `.dir`, `img` its
/// `.img` (format `VER1`, as `gtastream check NAME.img` names it when the `.dir` lies beside).
pub fn write_v1_document(
    out: &mut impl Write,
    dir: &[u8],
    img: &[u8],
    name: &str,
    games: Option<Games>,
) -> fmt::Result {
    let run =
        |sink: &mut dyn FnMut(&Finding)| {
            let mut checker = Checker::with_games(games, |f: &Finding| sink(f));
            // An archive's name says whether it holds cutscenes (`cuts.img`).
            checker.set_archive_name(name.as_bytes());
            let failed = ArchiveDecoder::version1(dir.len() as u64, img.len() as u64)
                .decode_slices(dir, img, &mut checker);
            if let Err(error) = failed {
                checker.failed(error);
            }
            checker.finish();
            (checker.games(), checker.games_from_file())
        };
    let mut document = Document::new(out)?;
    document.input(name, Some("VER1"))?;
    let mut result = Ok(());
    let (checked, from_file) = run(&mut |f| {
        if result.is_ok() {
            result = document.finding(f);
        }
    });
    result?;
    document.checked(checked, from_file);
    document.end()
}

/// A document being written to `out`.
pub struct Document<'a, W> {
    out: &'a mut W,
    inputs: u32,
    findings: u32,
    /// The open input's groups and counts, written when it closes.
    grouping: Grouping,
    /// The games the open input was checked for, and whether they came from the file.
    checked: Games,
    from_file: bool,
    /// A folder's verdict.
    verdict: Option<&'static str>,
    /// The open input was closed ([`Document::folder_end`]).
    closed: bool,
}

/// What `check DIR` adds to its input's object: `"game"`, `"verdict"` (`"loads"`: no error
/// finding, `"fails"`), `"files"` and `"entries"` read, and `"unreadable"`: the files named
/// that could not be read, `[{"path": PATH, "reason": TEXT}]`.
#[derive(Clone, Copy, Debug)]
pub struct FolderTail<U> {
    /// The game checked.
    pub game: crate::Game,
    /// Whether an error finding was made.
    pub errors: bool,
    /// Files numbered by the walk.
    pub files: u32,
    /// Archive entries read.
    pub entries: u64,
    /// `(path, reason)` of each file that could not be read.
    pub unreadable: U,
}

impl<'a, W: Write> Document<'a, W> {
    /// Opens the document.
    pub fn new(out: &'a mut W) -> Result<Self, fmt::Error> {
        out.write_str("{\"inputs\": [")?;
        Ok(Document {
            out,
            inputs: 0,
            findings: 0,
            grouping: Grouping::new(),
            checked: Games::NONE,
            from_file: false,
            verdict: None,
            closed: false,
        })
    }

    /// Opens an input (closing the one before): its path and format (`None`: not known).
    pub fn input(&mut self, file: &str, format: Option<&str>) -> fmt::Result {
        self.close_input()?;
        let sep = if self.inputs == 0 { "\n  " } else { ",\n  " };
        self.out.write_str(sep)?;
        self.out.write_str("{\"file\": ")?;
        string(self.out, file.chars())?;
        self.out.write_str(", \"format\": ")?;
        match format {
            Some(format) => string(self.out, format.chars())?,
            None => self.out.write_str("null")?,
        }
        self.out.write_str(", \"findings\": [")?;
        self.inputs += 1;
        self.closed = false;
        self.findings = 0;
        self.grouping.clear();
        Ok(())
    }

    /// The games the open input was checked for ([`Checker::games`](super::Checker::games)) and whether they came
    /// from the file ([`Checker::games_from_file`](super::Checker::games_from_file)).
    pub fn checked(&mut self, games: Games, from_file: bool) {
        self.checked = games;
        self.from_file = from_file;
    }

    /// A finding of the open input.
    pub fn finding(&mut self, f: &Finding) -> fmt::Result {
        self.finding_at(f, None)
    }

    /// A finding of the open input when the input is a folder (`check DIR`): `at` is the
    /// file it is in (as the level files name it) and the other file involved, written as
    /// the extra fields `"path"`, `"line"` and `"other"`.
    pub fn finding_in(&mut self, f: &Finding, path: &str, other: Option<&str>) -> fmt::Result {
        self.finding_at(f, Some((path, other)))
    }

    /// Closes the open input, a folder (`check DIR`), with the fields of [`FolderTail`].
    pub fn folder_end<'t, U: Iterator<Item = (&'t str, &'t str)>>(
        &mut self,
        tail: FolderTail<U>,
    ) -> fmt::Result {
        self.verdict = Some(if tail.errors { "fails" } else { "loads" });
        self.close_open(|out| {
            write!(
                out,
                ", \"game\": \"{}\", \"files\": {}, \"entries\": {}, \"unreadable\": [",
                super::walk::games_of(tail.game)
                    .names()
                    .next()
                    .unwrap_or(""),
                tail.files,
                tail.entries
            )?;
            for (i, (path, reason)) in tail.unreadable.enumerate() {
                out.write_str(if i == 0 {
                    "{\"path\": "
                } else {
                    ", {\"path\": "
                })?;
                string(out, path.chars())?;
                out.write_str(", \"reason\": ")?;
                string(out, reason.chars())?;
                out.write_char('}')?;
            }
            out.write_char(']')
        })?;
        Ok(())
    }

    fn finding_at(&mut self, f: &Finding, at: Option<(&str, Option<&str>)>) -> fmt::Result {
        self.grouping.add(f);
        let out = &mut *self.out;
        out.write_str(if self.findings == 0 {
            "\n    "
        } else {
            ",\n    "
        })?;
        self.findings += 1;
        write!(
            out,
            "{{\"rule\": \"{}\", \"severity\": \"{}\", \"games\": ",
            f.rule.id(),
            f.level().name()
        )?;
        games(out, f.games)?;
        write!(out, ", \"offset\": {}, \"entry\": ", f.offset)?;
        match &f.context.entry {
            Some(entry) => string(out, entry.name.as_bytes().iter().map(|&b| char::from(b)))?,
            None => out.write_str("null")?,
        }
        let index = |out: &mut W, item: Option<u32>| match item {
            Some(i) => write!(out, "{i}"),
            None => out.write_str("null"),
        };
        out.write_str(", \"animation\": ")?;
        index(out, f.context.animation.map(|a| a.index))?;
        out.write_str(", \"bone\": ")?;
        index(out, f.context.bone.map(|b| b.index))?;
        out.write_str(", \"message\": ")?;
        let mut text = Escaped(out);
        text.0.write_char('"')?;
        write!(text, "{}", Message(f))?;
        text.0.write_char('"')?;
        if let Some((path, other)) = at {
            out.write_str(", \"path\": ")?;
            string(out, path.chars())?;
            out.write_str(", \"line\": ")?;
            index(out, f.context.line)?;
            out.write_str(", \"other\": ")?;
            match other {
                Some(other) => string(out, other.chars())?,
                None => out.write_str("null")?,
            }
        }
        out.write_char('}')
    }

    /// Closes the open input and the document, with a final newline.
    pub fn end(mut self) -> fmt::Result {
        self.close_input()?;
        self.out
            .write_str(if self.inputs == 0 { "]}\n" } else { "\n]}\n" })
    }

    fn close_input(&mut self) -> fmt::Result {
        self.close_open(|_| Ok(()))
    }

    /// Closes the open input (once), with `extra` fields before its closing brace.
    fn close_open(&mut self, extra: impl FnOnce(&mut W) -> fmt::Result) -> fmt::Result {
        if self.inputs == 0 || self.closed {
            return Ok(());
        }
        self.closed = true;
        let out = &mut *self.out;
        out.write_str(if self.findings == 0 { "]" } else { "\n  ]" })?;
        out.write_str(", \"groups\": [")?;
        for (i, g) in self.grouping.groups().enumerate() {
            out.write_str(if i == 0 { "\n    " } else { ",\n    " })?;
            write!(
                out,
                "{{\"rule\": \"{}\", \"severity\": \"{}\", \"games\": ",
                g.rule.id(),
                g.level().name()
            )?;
            games(out, g.games)?;
            write!(
                out,
                ", \"count\": {}, \"animations\": {}, \"entries\": {}, \"first\": {}, \
                 \"listed\": {}, \"spread\": \"{}\"}}",
                g.count,
                g.animations,
                g.entries,
                g.first_index,
                g.listed(),
                g.spread()
            )?;
        }
        let tally = *self.grouping.tally();
        out.write_str(if tally.all.total() == 0 { "]" } else { "\n  ]" })?;
        out.write_str(", \"summary\": ")?;
        counts(out, &tally.all, true)?;
        out.write_str(", \"games\": {")?;
        for (i, (name, c)) in tally.by_game(Games::ALL).enumerate() {
            write!(out, "{}\"{name}\": ", if i == 0 { "" } else { ", " })?;
            counts(out, &c, false)?;
        }
        out.write_str("}}, \"games\": ")?;
        games(out, self.checked)?;
        let from = if self.from_file { "file" } else { "caller" };
        write!(out, ", \"games_from\": \"{from}\"")?;
        if let Some(verdict) = self.verdict.take() {
            write!(out, ", \"verdict\": \"{verdict}\"")?;
        }
        extra(out)?;
        out.write_char('}')?;
        self.findings = 0;
        self.checked = Games::NONE;
        self.from_file = false;
        self.grouping.clear();
        Ok(())
    }
}

/// `{"errors": N, "warnings": N, "notes": N}` (left open when `open`).
fn counts(out: &mut impl Write, c: &Counts, open: bool) -> fmt::Result {
    write!(
        out,
        "{{\"errors\": {}, \"warnings\": {}, \"notes\": {}",
        c.errors, c.warnings, c.notes
    )?;
    if !open {
        out.write_char('}')?;
    }
    Ok(())
}

/// `["iii", "sa", ...]`.
fn games(out: &mut impl Write, games: Games) -> fmt::Result {
    out.write_char('[')?;
    for (i, game) in games.names().enumerate() {
        out.write_str(if i == 0 { "\"" } else { ", \"" })?;
        out.write_str(game)?;
        out.write_char('"')?;
    }
    out.write_char(']')
}

/// Writes a finding's message as the JSON document gives it (before escaping): the place
/// (animation and bone names, or the line) and the reason.
pub fn write_message(out: &mut impl Write, f: &Finding) -> fmt::Result {
    write!(out, "{}", Message(f))
}

/// The message: the place (animation and bone names, or the line) and the reason.
struct Message<'a>(&'a Finding);

impl fmt::Display for Message<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut place = self.0.context;
        place.entry = None;
        let place_text = Placed(&place);
        write!(f, "{place_text}{}", self.0)
    }
}

struct Placed<'a>(&'a crate::context::Context);

impl fmt::Display for Placed<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = self.0;
        if c.animation.is_some() || c.line.is_some() {
            write!(f, "{c}: ")?;
        }
        Ok(())
    }
}

/// Writes text as the inside of a JSON string.
struct Escaped<'a, W>(&'a mut W);

impl<W: Write> Write for Escaped<'_, W> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        for c in s.chars() {
            escape(self.0, c)?;
        }
        Ok(())
    }
}

fn escape(out: &mut impl Write, c: char) -> fmt::Result {
    match c {
        '"' => out.write_str("\\\""),
        '\\' => out.write_str("\\\\"),
        c if (c as u32) < 0x20 => write!(out, "\\u{:04x}", c as u32),
        c => out.write_char(c),
    }
}

fn string(out: &mut impl Write, text: impl Iterator<Item = char>) -> fmt::Result {
    out.write_char('"')?;
    for c in text {
        escape(out, c)?;
    }
    out.write_char('"')
}

/// Why [`write_folder_document`] wrote nothing.
#[cfg(feature = "alloc")]
#[derive(Debug)]
pub enum FolderDocumentError {
    /// The folder cannot be walked (no level file, or several games').
    Walk(super::walk::WalkError),
    /// The output failed.
    Write(fmt::Error),
}

#[cfg(feature = "alloc")]
impl fmt::Display for FolderDocumentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FolderDocumentError::Walk(error) => error.fmt(f),
            FolderDocumentError::Write(error) => error.fmt(f),
        }
    }
}

/// The document of `check DIR` for the folder `files` holds (feature `alloc`: the walk's
/// tables, 1 MiB of names and the game's model ids, and the paths that name the findings'
/// files are on the heap): one input named `name`, format `"DIR"`, each finding with
/// `"path"`, `"line"` and `"other"`, and the [`FolderTail`] fields. `game`: `None` to take
/// the game from the folder's level file ([`find_game`](super::walk::find_game)). What
/// `gtastream check --json DIR` prints, and the bindings' folder checks return.
#[cfg(feature = "alloc")]
pub fn write_folder_document<F: super::walk::ModFiles>(
    out: &mut impl Write,
    files: &mut F,
    name: &str,
    game: Option<crate::Game>,
) -> Result<(), FolderDocumentError> {
    use alloc::string::{String, ToString};
    use alloc::vec;
    use alloc::vec::Vec;

    use super::mods::{model_ids, IdSlot, NameSlot, NAME_SLOTS};
    use super::walk::{find_game, games_of, walk, WalkEvent};

    let from_folder = game.is_none();
    let game = match game {
        Some(game) => game,
        None => find_game(files).map_err(FolderDocumentError::Walk)?,
    };
    let mut names = vec![NameSlot::EMPTY; NAME_SLOTS];
    let mut ids = vec![IdSlot::EMPTY; model_ids(game)];
    let mut document = Document::new(out).map_err(FolderDocumentError::Write)?;
    document
        .input(name, Some("DIR"))
        .map_err(FolderDocumentError::Write)?;
    let mut paths: Vec<String> = Vec::new();
    let mut unreadable: Vec<(u32, String)> = Vec::new();
    let mut written = Ok(());
    let summary = walk(files, game, &mut names, &mut ids, |event| match event {
        WalkEvent::File { path, .. } => paths.push(String::from_utf8_lossy(path).into_owned()),
        WalkEvent::Finding(f) if written.is_ok() => {
            let path = paths.get(f.file as usize).map_or("?", String::as_str);
            let other = f
                .other
                .and_then(|o| paths.get(o as usize))
                .map(String::as_str);
            written = document.finding_in(&f.finding, path, other);
        }
        WalkEvent::Unreadable { file, reason } => unreadable.push((file, reason.to_string())),
        _ => {}
    })
    .map_err(FolderDocumentError::Walk)?;
    written.map_err(FolderDocumentError::Write)?;
    document.checked(games_of(game), from_folder);
    let unreadable = unreadable.iter().map(|(file, reason)| {
        let path = paths.get(*file as usize).map_or("?", String::as_str);
        (path, reason.as_str())
    });
    document
        .folder_end(FolderTail {
            game,
            errors: summary.errors > 0,
            files: summary.files,
            entries: summary.entries,
            unreadable,
        })
        .map_err(FolderDocumentError::Write)?;
    document.end().map_err(FolderDocumentError::Write)
}
