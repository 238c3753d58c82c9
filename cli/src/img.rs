//! `gtastream img`: make and edit IMG archives (new, add, rm, rebuild, recover) through
//! `gtastream::archive::edit`, which writes beside, checks and renames. Ctrl-C (or SIGTERM)
//! stops a command before its commit point: its temporary files are removed and named.

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use clap::Subcommand;
use gtastream::archive::edit::{
    self, ArchivePaths, Count, EditError, EditReport, FileStep, NewEntry, Step,
};
use indicatif::{ProgressBar, ProgressStyle};

use crate::walk::progress;

pub const ABOUT: &str = "Make and edit IMG archives: new, add, rm, rebuild, recover";

pub const LONG_ABOUT: &str = "\
Make and edit IMG archives. Every command writes the new archive beside the old one
(NAME.gtastream-new), copying the other entries across a piece at a time, reads it back
and compares every entry with what it must hold, and only then renames it into place: the
old archive is never written to. Whatever the moment of a kill, readers see the old
archive or the new one, or refuse it naming the unfinished change.

Ctrl-C (or SIGTERM) before the rename stops the command: it removes its temporary files,
names them, and exits with status 130; the archive is as it was. Once the rename has begun,
the command finishes. A command killed outright leaves its temporary files; the next command
on that archive names them, and `recover` (or any other `img` command) removes them. A
version 1 pair (.img and .dir) is put in place by two renames, its new directory first named
NAME.dir.pending: a kill between them leaves that file, readers refuse the archive until
`recover` (or any other `img` command) completes the change.

Entry names are compared as the games compare them, ASCII case aside. A new entry is named
after its file: 1 to 23 bytes, with a `.` at index 20 at the latest (a name the games would
skip or cut is refused, naming it). A version 2 entry holds at most 65535 sectors (128 MiB).

Examples:
  gtastream img new custom.img walk.ifp map_stream0.ipl
  gtastream img new --v1 custom.img ped.ifp         # custom.img and custom.dir
  gtastream img add gta3.img ped.ifp                # replaces ped.ifp in its place
  gtastream img rm gta3.img old.ipl
  gtastream img rebuild gta3.img                    # drops holes and junk
  gtastream img recover gta3.img                    # after a command was killed";

#[derive(Subcommand)]
pub enum Command {
    /// Make a new archive of the files given (refused if the archive exists).
    New {
        /// Make a GTA III / Vice City archive: OUT.img and OUT.dir (default: San Andreas VER2).
        #[arg(long)]
        v1: bool,
        /// The archive to make (.img; with --v1 the .dir is made beside it).
        archive: PathBuf,
        /// The files to put in, in this order, each named after its file.
        files: Vec<PathBuf>,
    },
    /// Put files into an archive: a name already there is replaced in its place, a new one
    /// appended.
    Add {
        /// The archive (a VER2 .img, or a version 1 .img or .dir).
        archive: String,
        /// The files to put in, each named after its file.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Remove entries by name (in any case).
    Rm {
        /// The archive (a VER2 .img, or a version 1 .img or .dir).
        archive: String,
        /// The names of the entries to remove.
        #[arg(required = true)]
        names: Vec<String>,
    },
    /// Write the archive anew, entries in their order, without holes and junk.
    Rebuild {
        /// The archive (a VER2 .img, or a version 1 .img or .dir).
        archive: String,
    },
    /// Complete the change a killed command left unfinished, or remove the temporary files
    /// of one killed before its commit (every other `img` command does this first).
    Recover {
        /// The archive (a VER2 .img, or a version 1 .img or .dir).
        archive: String,
    },
}

pub fn run(command: &Command) -> Result<(), String> {
    let stop = stop_on_signals();
    let (shown, result) = match command {
        Command::New { v1, archive, files } => {
            let entries: Vec<NewEntry> = files.iter().map(NewEntry::from_path).collect();
            let paths = ArchivePaths {
                img: archive.clone(),
                dir: v1.then(|| archive.with_extension("dir")),
            };
            let shown = archive.display().to_string();
            let result = with_steps(&shown, &stop, |p| edit::create(&paths, &entries, p));
            (shown, result)
        }
        Command::Add { archive, files } => {
            let entries: Vec<NewEntry> = files.iter().map(NewEntry::from_path).collect();
            let paths = paths_of(archive)?;
            let result = with_steps(archive, &stop, |p| edit::add(&paths, &entries, p));
            (archive.clone(), result)
        }
        Command::Rm { archive, names } => {
            let paths = paths_of(archive)?;
            let names: Vec<&[u8]> = names.iter().map(|n| n.as_bytes()).collect();
            let result = with_steps(archive, &stop, |p| edit::remove(&paths, &names, p));
            (archive.clone(), result)
        }
        Command::Rebuild { archive } => {
            let paths = paths_of(archive)?;
            let result = with_steps(archive, &stop, |p| edit::rebuild(&paths, p));
            (archive.clone(), result)
        }
        Command::Recover { archive } => {
            let paths = paths_of(archive)?;
            let found = with_steps(archive, &stop, |p| edit::recover(&paths, p))
                .map_err(|error| format!("{archive}: {error}"))?;
            if found.is_empty() {
                eprintln!("{archive}: nothing to recover");
            }
            return Ok(());
        }
    };
    let report = match result {
        Ok(report) => report,
        Err(EditError::Interrupted(removed)) => {
            let what = match command {
                Command::New { .. } => "no archive made",
                _ => "the archive is as it was",
            };
            let removed: Vec<String> = removed.iter().map(|p| p.display().to_string()).collect();
            let removed = if removed.is_empty() {
                String::new()
            } else {
                format!("; removed {}", removed.join(" and "))
            };
            eprintln!("gtastream: {shown}: interrupted: {what}{removed}");
            std::process::exit(INTERRUPTED);
        }
        Err(EditError::Source(path, error)) => {
            return Err(format!("{}: {error} ({shown} unchanged)", path.display()))
        }
        Err(error) => return Err(format!("{shown}: {error}")),
    };
    eprintln!("{shown}: {}", summary(&report));
    if stop.load(Ordering::SeqCst) {
        eprintln!(
            "{shown}: the interrupt came once the change was being put in place: it is complete"
        );
    }
    Ok(())
}

/// The exit status of a command stopped by a signal (128 + SIGINT, as shells report it).
const INTERRUPTED: i32 = 130;

/// A flag that Ctrl-C and the other signals that ask a program to end set, instead of ending
/// it at once: the command stops at its next step, before its commit point, and removes its
/// temporary files. (Left as it is where the handler cannot be installed.)
fn stop_on_signals() -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    for &signal in signal_hook::consts::TERM_SIGNALS {
        let _ = signal_hook::flag::register(signal, Arc::clone(&stop));
    }
    stop
}

/// The archive's files, for an archive that exists.
fn paths_of(argument: &str) -> Result<ArchivePaths, String> {
    match ArchivePaths::find(Path::new(argument)) {
        Ok(Some(paths)) => Ok(paths),
        Ok(None) => Err(format!(
            "{argument}: {}",
            crate::target::not_an_archive(Path::new(argument))
        )),
        Err(error) => Err(format!("{argument}: {error}")),
    }
}

/// Runs `operation`, following its steps: a progress bar on a terminal (entries and bytes, in
/// binary units), a line for each thing an interrupted command left that it deals with, and
/// the stop asked for by a signal.
fn with_steps<T>(
    shown: &str,
    stop: &AtomicBool,
    operation: impl FnOnce(edit::Progress<'_>) -> T,
) -> T {
    let bar = progress(0);
    // A bar of 20 leaves the longest text (`writing 1201 of 1201 entries, 894.5 MiB of 894.5
    // MiB`) whole on an 80-column terminal.
    if let Ok(style) = ProgressStyle::with_template("{bar:20} {wide_msg}") {
        bar.set_style(style);
    }
    let mut hook = TestHook::from_env();
    let mut on_step = |step: Step<'_>| {
        hook.step();
        match step {
            Step::Write(count) => show(&bar, "writing", count),
            Step::Check(count) => show(&bar, "checking", count),
            Step::Recover(file_step) => {
                if let Some(line) = recovered(file_step) {
                    bar.suspend(|| eprintln!("{shown}: {line}"));
                }
            }
            _ => {}
        }
        if stop.load(Ordering::SeqCst) {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    };
    let result = operation(&mut on_step);
    bar.finish_and_clear();
    result
}

fn show(bar: &ProgressBar, doing: &str, count: Count) {
    bar.set_length(count.total_bytes);
    bar.set_position(count.bytes);
    bar.set_message(progress_text(doing, count));
}

/// `writing 3 of 120 entries, 12.5 MiB of 600.0 MiB`.
fn progress_text(doing: &str, count: Count) -> String {
    format!(
        "{doing} {} of {} entries, {} of {}",
        count.entries,
        count.total_entries,
        human(count.bytes),
        human(count.total_bytes)
    )
}

/// Bytes in binary units: `512 B`, `1.5 KiB`, `600.0 MiB`, `1.2 GiB`.
fn human(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    // 1023.96 KiB would be shown as 1024.0 KiB: that is 1.0 MiB.
    while value >= 1023.95 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

/// What a step of recovering from an interrupted command did (a sync says nothing).
fn recovered(step: FileStep<'_>) -> Option<String> {
    Some(match step {
        FileStep::Removed(path) => format!(
            "removed {}, left by an interrupted `gtastream img` command",
            path.display()
        ),
        FileStep::Renamed { from, to } => format!(
            "completed the change an interrupted `gtastream img` command left: {} is now {}",
            from.display(),
            to.display()
        ),
        _ => return None,
    })
}

/// For the tests that stop the tool at each step: `GTASTREAM_TEST_RAISE=SIGNAL@N` (SIGNAL one
/// of KILL, INT, TERM) raises that signal at the operation's Nth step, so that a kill or an
/// interrupt lands exactly between two changes on disk.
struct TestHook {
    raise: Option<(i32, u64)>,
    seen: u64,
}

impl TestHook {
    fn from_env() -> Self {
        let raise = std::env::var("GTASTREAM_TEST_RAISE")
            .ok()
            .and_then(|value| {
                let (name, at) = value.split_once('@')?;
                let signal = match name {
                    #[cfg(unix)]
                    "KILL" => signal_hook::consts::SIGKILL,
                    "INT" => signal_hook::consts::SIGINT,
                    "TERM" => signal_hook::consts::SIGTERM,
                    _ => return None,
                };
                Some((signal, at.parse().ok()?))
            });
        TestHook { raise, seen: 0 }
    }

    fn step(&mut self) {
        self.seen += 1;
        if let Some((signal, at)) = self.raise {
            if self.seen == at {
                let _ = signal_hook::low_level::raise(signal);
            }
        }
    }
}

fn summary(report: &EditReport) -> String {
    let mut parts = vec![format!("{} entries", report.entries)];
    for (n, what) in [
        (report.added, "added"),
        (report.replaced, "replaced"),
        (report.removed, "removed"),
        (report.kept, "kept"),
    ] {
        if n > 0 {
            parts.push(format!("{n} {what}"));
        }
    }
    parts.push(format!(
        "{} bytes ({})",
        report.img_len,
        human(report.img_len)
    ));
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_is_in_entries_and_binary_units() {
        let count = Count {
            entries: 3,
            total_entries: 120,
            bytes: 12 * (1 << 20) + (1 << 19),
            total_bytes: 600 << 20,
        };
        assert_eq!(
            progress_text("writing", count),
            "writing 3 of 120 entries, 12.5 MiB of 600.0 MiB"
        );
        for (bytes, text) in [
            (0, "0 B"),
            (1023, "1023 B"),
            (1024, "1.0 KiB"),
            (1536, "1.5 KiB"),
            ((1 << 20) - 1, "1.0 MiB"),
            (1_022_976, "999.0 KiB"),
            (1 << 20, "1.0 MiB"),
            (5 << 30, "5.0 GiB"),
        ] {
            assert_eq!(human(bytes), text, "{bytes}");
        }
    }
}
