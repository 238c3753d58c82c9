//! `gtastream check DIR`: a game or mod folder as the game loads it (rules `mod.*` across
//! files, and every file's own rules), through `gtastream::check::folder`.

use std::fmt::Write as _;
use std::path::Path;

use gtastream::check::folder::{check_folder, FolderOptions, FolderReport};
use gtastream::check::group::Grouping;
use gtastream::check::json::{Document, FolderTail};
use gtastream::check::mods::ModFinding;
use gtastream::check::{Games, Level};
use gtastream::Game;

use crate::check::Shown;

/// A folder checked.
pub struct Checked {
    /// The folder as named on the command line.
    pub input: String,
    pub report: FolderReport,
    /// The game came from the folder (its level file), not `--game`.
    pub from_folder: bool,
}

/// Checks the folder `input` for the one game `games` names (or the game its level file
/// shows), against `base` if given. Progress (the file being read, the archive entries so
/// far) goes to stderr when it is a terminal.
pub fn check(input: &str, games: Option<Games>, base: Option<&Path>) -> Result<Checked, String> {
    let game = match games {
        None => None,
        Some(games) => Some(
            games
                .layout()
                .ok_or("a folder is checked for one game: name one of --game sa, vc or iii")?,
        ),
    };
    let options = FolderOptions {
        game,
        base: base.map(Path::to_path_buf),
    };
    let bar = crate::walk::spinner();
    let mut progress = |file: &str, entries: u64| {
        bar.set_message(format!("{entries} entries; {file}"));
        bar.tick();
    };
    let report =
        check_folder(Path::new(input), &options, &mut progress).map_err(|e| e.to_string())?;
    bar.finish_and_clear();
    Ok(Checked {
        input: input.to_string(),
        report,
        from_folder: game.is_none(),
    })
}

fn games_of(game: Game) -> Games {
    match game {
        Game::Iii => Games::III,
        Game::ViceCity => Games::VC,
        Game::SanAndreas => Games::SA,
    }
}

fn game_name(game: Game) -> &'static str {
    games_of(game).names().next().unwrap_or("")
}

impl Checked {
    /// Whether a finding is an error.
    pub fn errors(&self) -> bool {
        self.report
            .findings
            .iter()
            .any(|f| f.finding.level() == Level::Error)
    }

    /// `DIR/FILE`: where a finding is, as the folder's files are named.
    fn path(&self, file: u32) -> String {
        let name = self
            .report
            .files
            .get(file as usize)
            .map_or("?", String::as_str);
        format!("{}/{}", self.input.trim_end_matches('/'), name)
    }

    fn line(&self, out: &mut String, f: &ModFinding) {
        let _ = f.finding.write_line(out, &self.path(f.file));
        if let Some(other) = f.other {
            let _ = write!(out, "; other file: {}", self.path(other));
        }
        out.push('\n');
    }

    /// The text report: the findings (grouped per rule as `check FILE` groups them), a
    /// summary line per rule, the counts and the verdict for the game.
    pub fn write_text(&self, out: &mut String, shown: Shown) {
        let findings = &self.report.findings;
        let mut grouping = Grouping::new();
        for f in findings {
            grouping.add(&f.finding);
        }
        if shown.all {
            for f in findings.iter().filter(|f| f.finding.level() >= shown.least) {
                self.line(out, f);
            }
        } else {
            for group in grouping.groups().filter(|g| g.level() >= shown.least) {
                if group.listed() {
                    for f in findings.iter().filter(|f| f.finding.rule == group.rule) {
                        self.line(out, f);
                    }
                } else {
                    let first = &findings[group.first_index as usize];
                    let _ = group.write_line(out, &self.path(first.file));
                    out.push('\n');
                }
            }
        }
        for (path, why) in &self.report.unreadable {
            let _ = writeln!(out, "{}/{path}: not read: {why}", self.input);
        }
        let input = &self.input;
        for group in grouping.groups() {
            let _ = writeln!(
                out,
                "{input}: {} {}: {} ({})",
                group.rule.id(),
                group.level().name(),
                group.count,
                group.spread()
            );
        }
        let game = self.report.game;
        let _ = grouping.tally().write_line(out, input, games_of(game));
        let _ = write!(
            out,
            ", {} files, {} archive entries, game {}",
            self.report.files.len(),
            self.report.entries,
            if self.from_folder {
                "from the folder"
            } else {
                "named"
            }
        );
        out.push('\n');
        let _ = writeln!(out, "{input}: {}: {}", game_name(game), self.verdict_text());
    }

    fn verdict_text(&self) -> &'static str {
        if self.errors() {
            "fails: an error finding crashes the game or corrupts its memory"
        } else {
            "loads: no error finding"
        }
    }

    /// The folder as one input of the JSON document (format `"DIR"`), each finding with its
    /// `"path"`, `"line"` and `"other"`, and the `"verdict"`.
    pub fn write_json<W: std::fmt::Write>(
        &self,
        document: &mut Document<'_, W>,
    ) -> std::fmt::Result {
        document.input(&self.input, Some("DIR"))?;
        for f in &self.report.findings {
            let path = self
                .report
                .files
                .get(f.file as usize)
                .map_or("?", String::as_str);
            let other = f
                .other
                .and_then(|o| self.report.files.get(o as usize))
                .map(String::as_str);
            document.finding_in(&f.finding, path, other)?;
        }
        document.checked(games_of(self.report.game), self.from_folder);
        document.folder_end(FolderTail {
            game: self.report.game,
            errors: self.errors(),
            files: self.report.files.len() as u32,
            entries: self.report.entries,
            unreadable: self
                .report
                .unreadable
                .iter()
                .map(|(path, why)| (path.as_str(), why.as_str())),
        })
    }
}
