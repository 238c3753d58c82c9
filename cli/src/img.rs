//! `gtastream img`: make and edit IMG archives (new, add, rm, rebuild) through
//! `gtastream::archive::edit`, which writes beside, checks and renames.

use std::path::{Path, PathBuf};

use clap::Subcommand;
use gtastream::archive::edit::{self, ArchivePaths, EditReport, NewEntry};

use crate::walk::progress;

pub const ABOUT: &str = "Make and edit IMG archives: new, add, rm, rebuild";

pub const LONG_ABOUT: &str = "\
Make and edit IMG archives. Every command writes the new archive beside the old one,
copying the other entries across a piece at a time, reads it back and compares every
entry with what it must hold, and only then renames it into place: the old archive is
never written to, and a kill at any moment leaves the old archive or the new one. (A
version 1 pair is put in place by two renames; a kill between them leaves NAME.dir.pending,
and the next `gtastream img` command on that archive completes the change.)

Entry names are compared as the games compare them, ASCII case aside. A new entry is named
after its file: 1 to 23 bytes, with a `.` at index 20 at the latest (a name the games would
skip or cut is refused, naming it). A version 2 entry holds at most 65535 sectors (128 MiB).

Examples:
  gtastream img new custom.img walk.ifp map_stream0.ipl
  gtastream img new --v1 custom.img ped.ifp         # custom.img and custom.dir
  gtastream img add gta3.img ped.ifp                # replaces ped.ifp in its place
  gtastream img rm gta3.img old.ipl
  gtastream img rebuild gta3.img                    # drops holes and junk";

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
}

pub fn run(command: &Command) -> Result<(), String> {
    let (shown, result) = match command {
        Command::New { v1, archive, files } => {
            let entries: Vec<NewEntry> = files.iter().map(NewEntry::from_path).collect();
            let paths = ArchivePaths {
                img: archive.clone(),
                dir: v1.then(|| archive.with_extension("dir")),
            };
            (
                archive.display().to_string(),
                with_progress(|p| edit::create(&paths, &entries, p)),
            )
        }
        Command::Add { archive, files } => {
            let entries: Vec<NewEntry> = files.iter().map(NewEntry::from_path).collect();
            let paths = paths_of(archive)?;
            (
                archive.clone(),
                with_progress(|p| edit::add(&paths, &entries, p)),
            )
        }
        Command::Rm { archive, names } => {
            let paths = paths_of(archive)?;
            let names: Vec<&[u8]> = names.iter().map(|n| n.as_bytes()).collect();
            (
                archive.clone(),
                with_progress(|p| edit::remove(&paths, &names, p)),
            )
        }
        Command::Rebuild { archive } => {
            let paths = paths_of(archive)?;
            (archive.clone(), with_progress(|p| edit::rebuild(&paths, p)))
        }
    };
    let report = result.map_err(|error| format!("{shown}: {error}"))?;
    eprintln!("{shown}: {}", summary(&report));
    Ok(())
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

/// Runs `operation` with a progress bar on a terminal (bytes copied).
fn with_progress<T>(operation: impl FnOnce(edit::Progress<'_>) -> T) -> T {
    let bar = progress(0);
    let mut report = |done: u64, total: u64| {
        bar.set_length(total);
        bar.set_position(done);
    };
    let result = operation(&mut report);
    bar.finish_and_clear();
    result
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
    parts.push(format!("{} bytes", report.img_len));
    parts.join(", ")
}
