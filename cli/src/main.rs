//! `gtastream`: inspect GTA animation packages from the command line.

mod dump;
mod info;
mod json;
mod names;

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

const ABOUT: &str = "Inspect GTA animation packages (San Andreas IFP: ANP3, ANP2)";

const LONG_ABOUT: &str = "\
Inspect GTA animation packages (San Andreas IFP: ANP3, ANP2).

Examples:
  gtastream info samples/walk.ifp
  gtastream info --animations samples/walk.ifp
  gtastream dump --json samples/walk.ifp > walk.json

A file that cannot be read or decoded gives one line on stderr,
`gtastream: FILE: REASON at offset N`, and exit status 1. Usage errors exit with status 2.";

const INFO_ABOUT: &str =
    "Summarise a file: format, package name, counts, frame types and every warning";

const INFO_LONG_ABOUT: &str = "\
Summarise a file: format, package name, counts, frame types and every warning.

The file is decoded by the streaming decoder, read 64 KiB at a time, so memory stays
small whatever the file's size. Warnings are things the games accept although the file
disagrees with its format (a wrong size field, bytes after the last animation, ...);
each is listed with its byte offset. A decoding error ends the command with status 1.";

const DUMP_ABOUT: &str = "Print the whole decoded file on stdout";

const DUMP_LONG_ABOUT: &str = "\
Print the whole decoded file on stdout.

JSON layout:
  {\"format\": \"ANP3\" | \"ANP2\", \"name\": \"demo\",
   \"warnings\": [{\"kind\": \"SizeMismatch\", \"reason\": \"...\", \"offset\": 4}],
   \"animations\": [{\"name\": \"walk\", \"frame_data_size\": 1122, \"flags\": 1,
     \"bones\": [{\"name\": \"Root\", \"bone_id\": 0, \"frame_type\": \"Ifp2PackedRotTrans\",
       \"frames\": [{\"time\": 0.5, \"rotation\": [x, y, z, w],
                   \"translation\": [x, y, z], \"scale\": [x, y, z]}]}]}]}

\"translation\" and \"scale\" appear only when the bone's frame type stores them.
Times are seconds from the start of the clip, rotations quaternions in the engine
convention, translations metres. Bone ids are as stored (-1: match the bone by name).
Names are the stored bytes up to the first NUL, one character per byte (Latin-1).
A name, id or field the format does not store is null, and so is a NaN or infinity.

Nothing is printed unless the whole file decodes.";

#[derive(Parser)]
#[command(name = "gtastream", version, about = ABOUT, long_about = LONG_ABOUT)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    #[command(about = INFO_ABOUT, long_about = INFO_LONG_ABOUT)]
    Info {
        /// Also list each animation: name, bones, keyframes and duration in seconds.
        #[arg(short, long)]
        animations: bool,
        /// The file to read.
        file: PathBuf,
    },
    #[command(about = DUMP_ABOUT, long_about = DUMP_LONG_ABOUT)]
    Dump {
        /// Write JSON (the only output format so far).
        #[arg(long, required = true)]
        json: bool,
        /// The file to read.
        file: PathBuf,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Info { animations, file } => info(file, *animations),
        Command::Dump { json: _, file } => dump(file),
    };
    match result.and_then(|text| print(&text)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            if !message.is_empty() {
                eprintln!("gtastream: {message}");
            }
            ExitCode::FAILURE
        }
    }
}

/// The message for a failure concerning `path`.
fn failed(path: &Path, what: impl std::fmt::Display) -> String {
    format!("{}: {what}", path.display())
}

fn info(path: &Path, list_animations: bool) -> Result<String, String> {
    let file = File::open(path).map_err(|e| failed(path, e))?;
    let mut summary = info::Summary::new(list_animations);
    info::decode(file, &mut summary).map_err(|failure| match failure {
        info::Failure::Read(e) => failed(path, e),
        info::Failure::Decode(e) => failed(path, e),
    })?;
    Ok(info::report(&path.display().to_string(), &summary))
}

fn dump(path: &Path) -> Result<String, String> {
    let data = std::fs::read(path).map_err(|e| failed(path, e))?;
    let package = gtastream::Package::parse(&data).map_err(|e| failed(path, e))?;
    Ok(dump::json(&package))
}

/// Writes the finished output. A closed pipe (`gtastream dump … | head`) is not an error
/// worth a message, but still a failure.
fn print(text: &str) -> Result<(), String> {
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Err(String::new()),
        Err(e) => Err(format!("stdout: {e}")),
    }
}
