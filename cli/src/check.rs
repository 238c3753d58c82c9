//! `gtastream check`: the engines' rules applied to files and archives (docs/CHECKS.md).

use std::io::Write;
use std::path::Path;

use gtastream::check::group::Grouping;
use gtastream::check::{json::Document, Checker, Finding, Games, Level};
use gtastream::io::ReadError;

use crate::source::{self, Access, Failure};
use crate::target::{self, Target};

pub const ABOUT: &str = "Check files and archives against the games' own loading rules";

pub const LONG_ABOUT: &str = "\
Check files and archives against what GTA III, Vice City and San Andreas (and MTA:SA) do
when they load them: each finding names a rule (docs/CHECKS.md lists them), its level
(error: the game crashes or corrupts memory; warning: it loads the file but not as meant;
note: it skips something), the games concerned, the absolute offset, and the archive
entry, animation and bone, or line.

Without --game, each file is checked for the games it is for, read from the file itself
(ANP3: SA and MTA; an ANPK by its chunks: III, or VC, SA and MTA; an IMG by its version);
--game checks for the games named, among those that load the format.

Text output: one line per finding,
  FILE[:ENTRY]: LEVEL RULE (GAMES) at OFFSET, animation N \"NAME\", bone M \"NAME\": reason
except that a rule found more than 3 times in an input is one line with its count and its
first finding (--all lists every finding),
  FILE[:ENTRY]: LEVEL RULE (GAMES) 769 times in 330 animations, first at OFFSET, ...: reason
then a summary line per input, by level and by game, and whence the games came:
  FILE: 0 errors, 1 warning, 769 notes (sa: 0 errors, 1 warning, 769 notes; mta: ...), games from the file
--level error|warning|note: the least level listed (the summary counts every finding).
--json prints one document (every finding, whatever --level says; with the same groups and
counts as the text):
  {\"inputs\": [{\"file\", \"format\", \"findings\": [{\"rule\", \"severity\", \"games\",
   \"offset\", \"entry\", \"animation\", \"bone\", \"message\"}], \"groups\": [{\"rule\",
   \"severity\", \"games\", \"count\", \"animations\", \"entries\", \"first\", \"listed\",
   \"spread\"}], \"summary\": {\"errors\", \"warnings\", \"notes\", \"games\": {GAME: {...}}},
   \"games\": [GAME, ...], \"games_from\": \"file\"|\"caller\"}]}

Exit status: 0 when no finding is an error, 1 when one is, 2 when an input cannot be read.";

/// What the run found: whether any finding was an error, any input unreadable.
pub struct Outcome {
    pub errors: bool,
    pub unreadable: bool,
}

/// What the text output lists.
#[derive(Clone, Copy)]
pub struct Shown {
    /// The least level listed.
    pub least: Level,
    /// Every finding, not one line per rule found more than [`LISTED`](gtastream::check::group::LISTED) times.
    pub all: bool,
}

/// Writes the text report of one input: its findings at `shown.least` or above, grouped (one
/// line per rule found many times) unless `shown.all`, then the summary line for the games
/// that load it among `games`, saying whence they came (`from_file`: read from the file, else
/// named with `--game`). Each line starts with `prefix`.
pub fn write_text(
    out: &mut String,
    prefix: &str,
    file: &str,
    findings: &[Finding],
    (games, from_file): (Games, bool),
    shown: Shown,
) {
    let mut grouping = Grouping::new();
    for finding in findings {
        grouping.add(finding);
    }
    let line = |out: &mut String, write: &dyn Fn(&mut String) -> std::fmt::Result| {
        out.push_str(prefix);
        let _ = write(out);
        out.push('\n');
    };
    if shown.all {
        for f in findings.iter().filter(|f| f.level() >= shown.least) {
            line(out, &|out| f.write_line(out, file));
        }
    } else {
        for group in grouping.groups().filter(|g| g.level() >= shown.least) {
            if group.listed() {
                for f in findings.iter().filter(|f| f.rule == group.rule) {
                    line(out, &|out| f.write_line(out, file));
                }
            } else {
                line(out, &|out| group.write_line(out, file));
            }
        }
    }
    line(out, &|out| {
        grouping.tally().write_line(out, file, games)?;
        out.push_str(if from_file {
            ", games from the file"
        } else {
            ", games named"
        });
        Ok(())
    });
}

pub fn run(
    inputs: &[String],
    games: Option<Games>,
    json: bool,
    shown: Shown,
) -> Result<Outcome, String> {
    let mut outcome = Outcome {
        errors: false,
        unreadable: false,
    };
    let mut text = String::new();
    let mut document = Document::new(&mut text).map_err(|e| e.to_string())?;
    let mut lines = String::new();
    for input in inputs {
        match check_input(input, games) {
            Ok(Checked {
                format,
                findings,
                games,
                from_file,
            }) => {
                outcome.errors |= findings
                    .iter()
                    .any(|f| f.level() == gtastream::check::Level::Error);
                if json {
                    document.input(input, format).map_err(|e| e.to_string())?;
                    for finding in &findings {
                        document.finding(finding).map_err(|e| e.to_string())?;
                    }
                    document.checked(games, from_file);
                } else {
                    write_text(&mut lines, "", input, &findings, (games, from_file), shown);
                }
            }
            Err(message) => {
                outcome.unreadable = true;
                eprintln!("gtastream: {input}: {message}");
            }
        }
    }
    document.end().map_err(|e| e.to_string())?;
    let out = if json { text } else { lines };
    std::io::stdout()
        .write_all(out.as_bytes())
        .map_err(crate::write_error)?;
    Ok(outcome)
}

/// What was found in one input.
struct Checked {
    /// The format's name (`None`: not known).
    format: Option<&'static str>,
    findings: Vec<Finding>,
    /// The games it was checked for, and whether they came from the file.
    games: Games,
    from_file: bool,
}

/// The findings of one input; `Err` when it cannot be read.
fn check_input(input: &str, games: Option<Games>) -> Result<Checked, String> {
    let mut findings = Vec::new();
    let mut format = None;
    let target = target::resolve(input).map_err(|e| e.to_string())?;
    // Text IPL: a single game named fixes the layout of inst lines.
    let game = games.and_then(Games::layout);
    let access = Access { seek: true, game };
    let mut checker = Checker::with_games(games, |f: &Finding| findings.push(*f));
    let result = match &target {
        Target::Stdin(head) => source::decode_stdin(head, game, &mut checker),
        Target::File(path) => {
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
            checker.set_file_name(name.unwrap_or_default().as_bytes());
            source::decode(path, access, &mut checker)
        }
        Target::Entry(archive, entry) => match archive.entry_bytes(entry) {
            Ok(bytes) => {
                checker.set_file_name(entry.as_bytes());
                let mut decoder = gtastream::Decoder::with_options(gtastream::Options {
                    game,
                    ..gtastream::Options::default()
                });
                decoder
                    .decode_slice(&bytes, &mut checker)
                    .map(|()| 0)
                    .map_err(|e| Failure::Read(ReadError::Decode(e)))
            }
            Err(failure) => Err(failure),
        },
        Target::Archive(archive) => {
            // `cuts.img` is a cutscene archive: its IFPs get the cutscene loader's rule.
            let name = Path::new(&archive.shown).file_name();
            checker.set_archive_name(name.unwrap_or_default().as_encoded_bytes());
            format = Some(if archive.dir.is_some() {
                "VER1"
            } else {
                "VER2"
            });
            archive.decode(&mut checker)
        }
    };
    let unreadable = match result {
        Ok(_) => None,
        Err(Failure::Read(ReadError::Decode(error))) => {
            checker.failed(error);
            None
        }
        Err(Failure::Decode(failure)) => {
            checker.failed(failure.error);
            None
        }
        Err(failure) => Some(failure.to_string()),
    };
    checker.finish();
    if format.is_none() {
        format = checker.format().map(|f| f.name());
    }
    let (games, from_file) = (checker.games(), checker.games_from_file());
    match unreadable {
        Some(message) => Err(message),
        None => Ok(Checked {
            format,
            findings,
            games,
            from_file,
        }),
    }
}
