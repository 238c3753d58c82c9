//! `gtastream check`: the engines' rules applied to files and archives (docs/CHECKS.md).

use std::io::Write;

use gtastream::check::group::Grouping;
use gtastream::check::{json::Document, Checker, Finding, Games, Level};
use gtastream::io::ReadError;
use gtastream::rig::{check_file, read_skeleton, Skeleton};

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

A model (DFF) gets its skeleton report (rules skel.dff.*: the HAnim node table against the
frames, PUSH/POP parents, standard bones missing, names with blanks), for the games of its
RenderWare version (3.6: SA and MTA; 3.3-3.5: VC; older: III) or those named.
--skeleton MODEL (a DFF, or ARCHIVE:ENTRY) also checks each animation against that model as
each game binds it (rules skel.track.* and skel.model.*: tracks that bind to nothing, names
the engine's table lacks, ids on an unskinned model, two tracks on one bone, translation off
the root, root motion on the pelvis, bones no track moves). docs/SKELETON.md explains them.

A folder (a game's, or a mod's shaped like one) is checked as the game loads it: its
data/gta.dat (SA), gta_vc.dat (VC) or gta3.dat (III), after data/default.dat, line by line,
paths in any case with either slash, the archives opened when the game reads them, every file
and entry checked as above, and the rules across files (mod.*: missing files, IMG lines past
the slots or after the first IPL, names two archives hold, streaming slots, stream IPL LODs
against their parent, IDE ids out of range or defined twice, IPL instances of undefined ids).
Each finding names the file and its line or entry, and the other file involved; then a line
per rule, the summary and the verdict for the game. --game names the game when the folder
holds several level files; --base DIR checks a mod folder against an installed game (paths
are looked up in the mod folder first). JSON: each finding has \"path\", \"line\" and
\"other\", the input \"verdict\".

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

/// The model of `--skeleton`: a DFF file or `ARCHIVE:ENTRY`.
pub fn read_model(argument: &str) -> Result<Box<Skeleton>, String> {
    let bytes = target::read_bytes(argument).map_err(|e| format!("{argument}: {e}"))?;
    read_skeleton(&bytes)
        .map(Box::new)
        .map_err(|e| format!("{argument}: {e}"))
}

/// How folder inputs are checked.
pub struct Folders {
    /// The game folder a mod folder is checked against (`--base`).
    pub base: Option<std::path::PathBuf>,
}

pub fn run(
    inputs: &[String],
    games: Option<Games>,
    json: bool,
    shown: Shown,
    skeleton: Option<&Skeleton>,
    folders: &Folders,
) -> Result<Outcome, String> {
    let mut outcome = Outcome {
        errors: false,
        unreadable: false,
    };
    let mut text = String::new();
    let mut document = Document::new(&mut text).map_err(|e| e.to_string())?;
    let mut lines = String::new();
    for input in inputs {
        if std::path::Path::new(input).is_dir() {
            match crate::check_dir::check(input, games, folders.base.as_deref()) {
                Ok(checked) => {
                    outcome.errors |= checked.errors();
                    outcome.unreadable |= !checked.report.unreadable.is_empty();
                    if json {
                        checked
                            .write_json(&mut document)
                            .map_err(|e| e.to_string())?;
                    } else {
                        checked.write_text(&mut lines, shown);
                    }
                }
                Err(message) => {
                    outcome.unreadable = true;
                    eprintln!("gtastream: {input}: {message}");
                }
            }
            continue;
        }
        match check_input(input, games, skeleton) {
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

/// The first word of a RenderWare clump (a model's first section id).
const CLUMP: [u8; 4] = [0x10, 0, 0, 0];

/// The bytes of an input the library checks in memory (`gtastream::rig::check_file`): a
/// model (its skeleton report), or any file when a skeleton is given; `None` for the others,
/// which are decoded as they are read.
fn in_memory(target: &mut Target, skeleton: bool) -> Result<Option<Vec<u8>>, String> {
    use std::io::Read;
    match target {
        Target::Archive(_) => Ok(None),
        Target::Stdin(head) if skeleton || head.as_slice() == CLUMP => {
            let mut bytes = std::mem::take(head);
            std::io::stdin()
                .lock()
                .read_to_end(&mut bytes)
                .map_err(|e| e.to_string())?;
            Ok(Some(bytes))
        }
        Target::Stdin(_) => Ok(None),
        Target::File(path) => {
            let mut head = [0u8; 4];
            let is_model = std::fs::File::open(&*path)
                .and_then(|mut f| f.read_exact(&mut head))
                .is_ok_and(|()| head == CLUMP);
            if !(skeleton || is_model) {
                return Ok(None);
            }
            std::fs::read(&*path).map(Some).map_err(|e| e.to_string())
        }
        Target::Entry(archive, entry) => {
            let bytes = archive.entry_bytes(entry).map_err(|e| e.to_string())?;
            Ok((skeleton || bytes.starts_with(&CLUMP)).then_some(bytes))
        }
    }
}

/// The findings of one input; `Err` when it cannot be read.
fn check_input(
    input: &str,
    games: Option<Games>,
    skeleton: Option<&Skeleton>,
) -> Result<Checked, String> {
    let mut findings = Vec::new();
    let mut format = None;
    let mut target = target::resolve(input).map_err(|e| e.to_string())?;
    if let Some(bytes) = in_memory(&mut target, skeleton.is_some())? {
        let name = match &target {
            Target::File(path) => path.file_name().map(|n| n.to_string_lossy().into_owned()),
            Target::Entry(_, entry) => Some(entry.clone()),
            _ => None,
        };
        let checked = check_file(
            &bytes,
            name.unwrap_or_default().as_bytes(),
            games,
            skeleton,
            |f| findings.push(*f),
        );
        return Ok(Checked {
            format: checked.format.map(|f| f.name()),
            findings,
            games: checked.games,
            from_file: checked.from_file,
        });
    }
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
                checker.set_archive_name(archive_name(archive).as_bytes());
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
            format = Some(if archive.dir.is_some() {
                "VER1"
            } else {
                "VER2"
            });
            checker.set_archive_name(archive_name(archive).as_bytes());
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

/// The archive's file name (`cuts.img` holds cutscenes, checked by the cutscene loader's rules).
fn archive_name(archive: &target::Archive) -> String {
    let shown = std::path::Path::new(&archive.shown);
    shown
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
}
