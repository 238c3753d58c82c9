//! `gtastream`: inspect GTA animation packages from the command line.

mod convert;
mod dump;
mod info;
mod json;
mod names;
mod source;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use source::Access;

const ABOUT: &str = "Inspect GTA animation files: IFP (ANP3, ANP2, ANPK, ANLF) and Stories .anim";

const LONG_ABOUT: &str = "\
Inspect GTA animation files: San Andreas IFP (ANP3, ANP2), GTA III / Vice City IFP
(ANPK, ANLF) and Liberty City / Vice City Stories .anim. The format is recognised from
the file's first bytes, whatever its name.

Examples:
  gtastream info samples/walk.ifp
  gtastream info --animations samples/walk.ifp
  gtastream dump --json samples/walk.ifp > walk.json
  gtastream info --no-seek FILE     # does FILE decode for a reader that cannot seek?

A file that cannot be read or decoded gives one line on stderr,
`gtastream: FILE: REASON at offset N`, and exit status 1. Usage errors exit with status 2.";

const INFO_ABOUT: &str =
    "Summarise a file: format, package name, counts, frame types, seeks and every warning";

const INFO_LONG_ABOUT: &str = "\
Summarise a file: format, package name, counts, frame types, seeks and every warning.

The file is decoded by the streaming decoder, read a piece at a time, so memory stays
small whatever the file's size. Stories files reach their records through file offsets,
in any order: the decoder asks to seek, and `seeks` counts how often it did (0 for the
IFP formats, which are read front to back). Warnings are things the games accept
although the file disagrees with its format (a wrong size field, stale bytes after the
last animation, ...); each is listed with its byte offset and the kind's stable name.
Item placement files (IPL, in progress) show instances, car generators and other lines
instead of animations. A decoding error ends the command with status 1.";

const DUMP_ABOUT: &str = "Print the whole decoded file on stdout";

const DUMP_LONG_ABOUT: &str = "\
Print the whole decoded file on stdout.

JSON layout:
  {\"format\": \"ANP3\" | \"ANP2\" | \"ANPK\" | \"ANIM\", \"name\": \"demo\",
   \"warnings\": [{\"kind\": \"size_mismatch\", \"reason\": \"...\", \"offset\": 4}],
   \"animations\": [{\"name\": \"walk\", \"frame_data_size\": 1122, \"flags\": 1,
     \"duration\": null,
     \"bones\": [{\"name\": \"Root\", \"bone_id\": 0, \"bone_key\": null,
       \"frame_type\": \"ifp2_packed_rot_trans\",
       \"frames\": [{\"time\": 0.5, \"rotation\": [x, y, z, w],
                   \"translation\": [x, y, z], \"scale\": [x, y, z]}]}]}]}

\"translation\" and \"scale\" appear only when the bone's frame type stores them.
Times are seconds from the start of the clip, rotations quaternions in the engine
convention, translations metres. Bone ids are as stored (-1: match the bone by name).
Names are the stored bytes up to the first NUL, one character per byte (Latin-1).
A name, id or field the format does not store is null, and so is a NaN or infinity:
\"frame_data_size\" and \"flags\" are ANP3's, \"duration\" (seconds) and \"bone_key\"
(unsigned 32-bit) are Stories', whose files store no names. An ANLF container's
animations are listed together, under the first block's package name.
\"kind\" and \"frame_type\" are the library's stable names. Item placement files (IPL,
in progress) have \"instances\", \"cars\" and \"section_lines\" instead of \"animations\".

Nothing is printed unless the whole file decodes.";

const NO_SEEK_HELP: &str = "Read the file front to back only, as a reader that cannot seek would: \
     a file that needs a seek (every Stories file) fails with the offset it needs";

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
        #[arg(long, help = NO_SEEK_HELP)]
        no_seek: bool,
        /// The file to read.
        file: PathBuf,
    },
    #[command(about = DUMP_ABOUT, long_about = DUMP_LONG_ABOUT)]
    Dump {
        /// Write JSON (the only output format so far).
        #[arg(long, required = true)]
        json: bool,
        #[arg(long, help = NO_SEEK_HELP)]
        no_seek: bool,
        /// The file to read.
        file: PathBuf,
    },
    #[command(about = convert::ABOUT, long_about = convert::LONG_ABOUT)]
    Convert {
        /// The output format: anp3, anp2, anpk, bnry or text (any case).
        #[arg(long, value_parser = convert::parse_format)]
        to: gtastream::Format,
        /// ANP3/ANP2: write every bone packed, rounding values to the packed steps.
        #[arg(long)]
        quantize: bool,
        /// The file to read.
        input: PathBuf,
        /// The file to write (replaced only once complete).
        output: PathBuf,
    },
}

fn access(no_seek: bool) -> Access {
    if no_seek {
        Access::Stream
    } else {
        Access::Seekable
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Info {
            animations,
            no_seek,
            file,
        } => info(file, *animations, access(*no_seek)),
        Command::Dump {
            json: _,
            no_seek,
            file,
        } => dump(file, access(*no_seek)),
        Command::Convert {
            to,
            quantize,
            input,
            output,
        } => convert::run(input, output, *to, *quantize).map(|warnings| {
            eprint!("{warnings}");
            String::new()
        }),
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

fn info(path: &Path, list_animations: bool, access: Access) -> Result<String, String> {
    let mut summary = info::Summary::new(list_animations);
    let seeks = source::decode(path, access, &mut summary).map_err(|e| failed(path, e))?;
    Ok(info::report(&path.display().to_string(), &summary, seeks))
}

fn dump(path: &Path, access: Access) -> Result<String, String> {
    let mut document = dump::Document::default();
    source::decode(path, access, &mut document).map_err(|e| failed(path, e))?;
    Ok(document.json())
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
