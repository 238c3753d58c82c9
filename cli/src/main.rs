//! `gtastream`: inspect GTA animation packages from the command line.

mod check;
mod convert;
mod dump;
mod extract;
mod gltf;
mod gltf_in;
mod img;
mod info;
mod json;
mod ls;
mod names;
mod output;
mod report;
mod sample;
mod source;
mod target;
mod walk;

use std::path::{Path, PathBuf};

use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use gtastream::encode::EncodeOptions;
use gtastream::Game;

use source::Access;

const ABOUT: &str = "Inspect GTA animation and placement files (IFP, Stories .anim, IPL), loose or inside IMG archives";

const LONG_ABOUT: &str = "\
Inspect GTA animation and placement files: San Andreas IFP (ANP3, ANP2), GTA III /
Vice City IFP (ANPK, ANLF), Liberty City / Vice City Stories .anim, and item placement
files (binary `bnry` and text IPL). The format is recognised from the file's first bytes,
whatever its name.

Every command takes an IMG archive wherever it takes a file: a San Andreas archive
(`VER2`), or a GTA III / Vice City one named by its .img or its .dir (the other file is
found beside it). `ARCHIVE:ENTRY` names one entry (its name in any case); an argument
that is an existing file is always that file. `-` as an input reads standard input (front
to back; a VER2 archive there is read into memory), and as an output (convert OUT,
extract -o) writes to standard output. Files are written whole or not at all (a temporary
file beside them, renamed at the end); extract never replaces a file without --force.

Examples:
  gtastream info samples/walk.ifp
  gtastream info --animations samples/walk.ifp
  gtastream dump --json samples/walk.ifp > walk.json
  gtastream info --no-seek FILE     # does FILE decode for a reader that cannot seek?
  gtastream ls models/gta3.img
  gtastream info --entries anim/anim.img
  gtastream dump --json models/gta3.img:countn2_stream0.ipl
  gtastream extract anim/cuts.img -o cuts/

A file that cannot be read or decoded gives one line on stderr,
`gtastream: FILE: REASON at offset N (PLACE; DECODED)` (PLACE: the animation and bone, or
the line; DECODED: what came before the error, `after 2 animations, 4 bones, 6 keyframes`),
and exit status 1 (after every other input and entry was reported). Usage errors exit with
status 2.";

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
Item placement files (IPL) show instances, car generators and other lines instead of
animations. Several inputs are reported one after the other; an archive gets totals over
its entries (entries per format, animations, bone tracks, keyframes, instances, cars,
warnings, entries that failed) and, with --entries, a line per entry, printed as the
archive is read. Every entry of a format gtastream decodes is decoded; each one that fails
gives a line on stderr. A file that fails is summarised as far as it decoded, with an
`error:` line. The status is 1 if any input or entry failed.

--json prints one document per input. A file (or ARCHIVE:ENTRY):
  {\"format\", \"animations\", \"bones\", \"keyframes\", \"instances\", \"cars\",
   \"warnings\": [{\"kind\", \"reason\", \"offset\", \"animation\", \"bone\", \"line\"}],
   \"error\": null | {\"kind\", \"reason\", \"offset\", \"animation\", \"bone\", \"line\", \"message\"}}
(\"animation\" and \"bone\": 0-based indices, or null; \"line\": the text line, or null.)
An archive:
  {\"format\": \"VER2\" | \"VER1\", \"entries\": [{\"name\", ...the keys of a file...}],
   \"warnings\": [...directory warnings...], \"totals\": {\"entries\", \"formats\": {\"ANP3\": n, ...},
   \"animations\", \"bones\", \"keyframes\", \"instances\", \"cars\", \"warnings\", \"failed\"},
   \"error\": null | {\"reason\"}}
Offsets count from the first byte of the input named: an archive's from the .img's (an
entry's: its offset in the entry plus the entry's offset that `ls` lists), ARCHIVE:ENTRY's
from the entry's (as in the extracted file); the directory's warnings name the offset of
their record (in the .dir for a version 1 archive).";

const DUMP_ABOUT: &str = "Print the whole decoded file on stdout";

const DUMP_LONG_ABOUT: &str = "\
Print the whole decoded file on stdout.

JSON layout:
  {\"format\": \"ANP3\" | \"ANP2\" | \"ANPK\" | \"ANIM\", \"name\": \"demo\",
   \"warnings\": [{\"kind\": \"size_mismatch\", \"reason\": \"...\", \"offset\": 4,
     \"animation\": null, \"bone\": null, \"line\": null}],
   \"animations\": [{\"name\": \"walk\", \"frame_data_size\": 1122, \"flags\": 1,
     \"duration\": null,
     \"bones\": [{\"name\": \"Root\", \"bone_id\": 0, \"bone_key\": null,
       \"frame_type\": \"ifp2_packed_rot_trans\",
       \"frames\": [{\"time\": 0.5, \"rotation\": [x, y, z, w],
                   \"translation\": [x, y, z], \"scale\": [x, y, z]}], \"raw\": \"526f...\"}],
     \"summary\": {\"length\": 0.5, \"bones\": 1, ...see docs/ANIMATION.md}, \"raw\": \"7761...\"}],
   \"raw\": \"414e...\", \"trailing\": null, \"blocks\": null, \"container_size\": null}

\"translation\" and \"scale\" appear only when the bone's frame type stores them.
Times are seconds from the start of the clip, rotations quaternions in the engine
convention, translations metres. Bone ids are as stored (-1: match the bone by name).
Names are the stored bytes up to the first NUL, one character per byte (Latin-1).
A name, id or field the format does not store is null, and so is a NaN or infinity:
\"frame_data_size\" and \"flags\" are ANP3's, \"duration\" (seconds) and \"bone_key\"
(unsigned 32-bit) are Stories', whose files store no names. An ANLF container's
animations are listed together, under the first block's package name.
\"kind\" and \"frame_type\" are the library's stable names. Item placement files (IPL,
format \"bnry\" or \"text\") have \"instances\", \"cars\" and \"section_lines\" instead of
\"animations\"; a RenderWare model (\"dff\") has its frames, HAnim table, skin, atomics and
geometries (docs/FORMATS.md section 11).
A warning's \"animation\" and \"bone\" are 0-based indices into \"animations\" and its
\"bones\" (null outside one), \"line\" a text IPL's line. \"raw\" (the file, animation and
bone headers) and \"trailing\" (bytes after the content) are the bytes as stored, in hex,
null where none are kept: what writes an unedited file back byte for byte. So are
\"blocks\" (an ANLF's: each block's \"name\", \"raw\" header and number of \"animations\"),
\"container_size\" (its stored size) and, in placement files, \"stored\": their lines and
records in file order, {\"item\", \"index\", \"raw\" line}, null for a binary IPL of
instances then cars (docs/FORMATS.md section 10).
An archive's entry, ARCHIVE:ENTRY, prints exactly what the extracted entry prints.

Nothing is printed unless the whole file decodes.";

const SAMPLE_ABOUT: &str = "Print the pose of an animation at a time, as the games compute it";

const SAMPLE_LONG_ABOUT: &str = "\
Print the pose of an animation at a time, as the games compute it: every bone that has
keys, in the file's order, with its rotation (a unit quaternion x, y, z, w; flips removed
as at load, the games' slerp, normalised as the games do before use) and its translation
where its keys carry one. Playback starts at each bone's first key; a bone past its last
key holds it; with --loop the time wraps by the animation's length (the largest last-key
time over its bones) and each bone wraps on its own keys. The time is any finite number of
seconds from 0: the games never play below 0, so a negative time (or NaN, inf) is refused.
docs/ANIMATION.md gives the rules.

--json prints
  {\"animation\": NAME, \"time\": T, \"bones\": [{\"name\": NAME, \"bone_id\": ID | null,
   \"rotation\": [x, y, z, w], \"translation\": [x, y, z] | null}]}

--skeleton MODEL (a DFF, or ARCHIVE:ENTRY) poses that model: each track is bound to a frame
as the game binds it (--game sa|vc|iii|mta; default sa, or for an ANPK the game of the
model's RenderWare version), and every frame of the model gets its model-space matrix at that
time (the bind pose where no track drives it). The text lists each track's frame (or why
none) and each frame's position in model space; --json adds to each bone
  \"frame\": INDEX | null, \"unbound\": REASON | \"overridden\" | null
and to the document \"game\" and
  \"frames\": [{\"index\", \"name\", \"matrix\": [16 numbers, column-major as glTF]}].
docs/SKELETON.md gives the binding and posing rules.

A looped animation the games would play for ever without reaching the time (length 0, or
a bone whose keys never advance) fails with `looped playback never reaches the time`.";

const LS_ABOUT: &str = "List an IMG archive's entries: name, offset, size and format";

const LS_LONG_ABOUT: &str = "\
List an IMG archive's entries: name, offset, size (bytes) and format, one line each, as
the directory is read. The format is the one gtastream finds in the entry's first bytes
(ANP3, ANPK, ANIM, bnry, text, dff, ...), `-` (null in JSON) for content it does not
decode: textures, collisions, empty entries. A RenderWare model (dff) adds its frames,
bones, skin and RenderWare version.

--json prints {\"format\": \"VER2\" | \"VER1\", \"entries\": [{\"name\", \"offset\", \"size\",
\"format\"}]} (a model's entry adds \"model\": {\"rw_version\", \"frames\", \"bones\",
\"skinned\"}). Oddities of the directory (entries of no sectors, entries past the end of
the file, ...) are warnings on stderr.";

const EXTRACT_ABOUT: &str = "Copy entries out of an IMG archive (all, or those named)";

const EXTRACT_LONG_ABOUT: &str = "\
Copy entries out of an IMG archive (all, or those named, by name in any case) into a folder,
each as the bytes the archive holds for it (whole sectors), under its own name; each path
written is printed. A name no file system takes is changed (path separators and the like
become `_`), and a later entry of an earlier entry's name is skipped with a note.

An existing file is never replaced without --force: if any would be, nothing is extracted
and each one is named on stderr (status 1). Each file is written whole or not at all (to a
temporary file beside it, renamed at the end).

-o - writes the one entry named to standard output. An archive on standard input (-) is
read into memory (its entries are reached by seeks); only a VER2 archive can come from a
pipe (a version 1 archive is two files).

Examples:
  gtastream extract anim/cuts.img -o cuts/
  gtastream extract models/gta3.img countn2_stream0.ipl -o - | gtastream info -";
const GAME_HELP: &str = "Text IPL: the game the file is for, which fixes the layout of its inst \
     lines (sa: 11 fields, vc: 13, iii: 12). Without it, the first inst line that has 11, 12 or \
     13 fields and reads whole in that layout decides";

/// The games, as `--game` names them.
#[derive(Clone, Copy, ValueEnum)]
enum GameArg {
    Sa,
    Vc,
    Iii,
}

impl GameArg {
    fn game(self) -> Game {
        match self {
            GameArg::Sa => Game::SanAndreas,
            GameArg::Vc => Game::ViceCity,
            GameArg::Iii => Game::Iii,
        }
    }
}

const NO_SEEK_HELP: &str = "Read the file front to back only, as a reader that cannot seek would: \
     a file that needs a seek (every Stories file) fails with the offset it needs";

/// The least level `check` shows, as `--level` names them.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum LevelArg {
    Error,
    Warning,
    Note,
}

impl LevelArg {
    fn level(self) -> gtastream::check::Level {
        use gtastream::check::Level;
        match self {
            LevelArg::Error => Level::Error,
            LevelArg::Warning => Level::Warning,
            LevelArg::Note => Level::Note,
        }
    }
}

/// The games `check` knows, as `--game` names them.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum CheckGame {
    Sa,
    Vc,
    Iii,
    Mta,
}

impl CheckGame {
    /// The game whose binding applies (`sample --skeleton`).
    fn host(self) -> gtastream::rig::Host {
        use gtastream::rig::Host;
        match self {
            CheckGame::Sa => Host::SanAndreas,
            CheckGame::Vc => Host::ViceCity,
            CheckGame::Iii => Host::Iii,
            CheckGame::Mta => Host::Mta,
        }
    }
}

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
        /// Archives: also a line per entry.
        #[arg(short, long)]
        entries: bool,
        /// Print JSON (one document per input).
        #[arg(long)]
        json: bool,
        #[arg(long, help = NO_SEEK_HELP)]
        no_seek: bool,
        #[arg(long, value_enum, help = GAME_HELP)]
        game: Option<GameArg>,
        /// Files, archives, ARCHIVE:ENTRY, or - for standard input.
        #[arg(required = true)]
        inputs: Vec<String>,
    },
    #[command(about = DUMP_ABOUT, long_about = DUMP_LONG_ABOUT)]
    Dump {
        /// Write JSON (the only output format so far).
        #[arg(long, required = true)]
        json: bool,
        #[arg(long, help = NO_SEEK_HELP)]
        no_seek: bool,
        #[arg(long, value_enum, help = GAME_HELP)]
        game: Option<GameArg>,
        /// The file, ARCHIVE:ENTRY, or - for standard input.
        file: String,
    },
    #[command(about = LS_ABOUT, long_about = LS_LONG_ABOUT)]
    Ls {
        /// Print JSON.
        #[arg(long)]
        json: bool,
        /// The archive (a VER2 .img, or a version 1 .img or .dir), or - for standard input.
        archive: String,
    },
    #[command(about = EXTRACT_ABOUT, long_about = EXTRACT_LONG_ABOUT)]
    Extract {
        /// The archive (a VER2 .img, or a version 1 .img or .dir), or - for standard input.
        archive: String,
        /// Entries to extract, by name in any case (all if none).
        entries: Vec<String>,
        /// The folder to write to (made if missing), or - to write the one entry named to
        /// standard output.
        #[arg(short, long, default_value = ".")]
        output: PathBuf,
        /// Replace files that already exist (otherwise nothing is extracted).
        #[arg(short, long)]
        force: bool,
    },
    #[command(about = img::ABOUT, long_about = img::LONG_ABOUT)]
    Img {
        #[command(subcommand)]
        command: img::Command,
    },
    #[command(about = check::ABOUT, long_about = check::LONG_ABOUT)]
    Check {
        /// The games to check for (repeat for several); all that load the format if none.
        #[arg(long, value_enum)]
        game: Vec<CheckGame>,
        /// Print one JSON document (every finding, whatever --level says).
        #[arg(long)]
        json: bool,
        /// Text: list every finding, not one line per rule that fires more than 3 times.
        #[arg(long)]
        all: bool,
        /// Text: the least level shown (the summary line counts every finding).
        #[arg(long, value_enum, default_value = "note")]
        level: LevelArg,
        /// Also check each animation against this model (a DFF file or ARCHIVE:ENTRY): the
        /// skel.track.* and skel.model.* rules.
        #[arg(long, value_name = "MODEL")]
        skeleton: Option<String>,
        /// Files, archives, ARCHIVE:ENTRY, or - for standard input.
        #[arg(required = true)]
        inputs: Vec<String>,
    },
    #[command(about = SAMPLE_ABOUT, long_about = SAMPLE_LONG_ABOUT)]
    Sample {
        /// Print JSON.
        #[arg(long)]
        json: bool,
        /// The animation, by name (any case; surrounding blanks ignored).
        #[arg(long)]
        animation: String,
        /// Seconds from the start: finite, 0 or more.
        #[arg(long, allow_negative_numbers = true)]
        time: f32,
        /// Play looped: the time wraps by the animation's length, each bone on its own keys.
        #[arg(long = "loop")]
        looped: bool,
        /// Pose this model (a DFF file or ARCHIVE:ENTRY): each bone's frame, every frame in
        /// model space.
        #[arg(long, value_name = "MODEL")]
        skeleton: Option<String>,
        /// With --skeleton: the game whose binding applies (default: sa, or for an ANPK the
        /// game of the model's RenderWare version).
        #[arg(long, value_enum, requires = "skeleton")]
        game: Option<CheckGame>,
        /// The animation file (ANP3, ANP2, ANPK, Stories .anim), ARCHIVE:ENTRY, or - for
        /// standard input.
        file: String,
    },
    #[command(about = convert::ABOUT, long_about = convert::LONG_ABOUT)]
    Convert {
        /// The output format: anp3, anp2, anpk, bnry, text, or gltf / glb (glTF 2.0 on the
        /// model of --skeleton) (any case).
        #[arg(long, value_parser = convert::parse_target)]
        to: convert::To,
        /// To gltf/glb: the model whose skeleton the animations play on; from glTF: the
        /// model whose frame names map the glTF's nodes (a DFF file or ARCHIVE:ENTRY).
        #[arg(long, value_name = "MODEL")]
        skeleton: Option<String>,
        /// To gltf/glb, or from glTF: an animation to write, by name (repeat for several;
        /// default: all).
        #[arg(long, value_name = "NAME")]
        animation: Vec<String>,
        /// From glTF: the block (package) name written; default OUT's stem.
        #[arg(long, value_name = "NAME")]
        block: Option<String>,
        /// From glTF: a map of node names to bones, one `glTF-name = GTA name|id` a line.
        #[arg(long, value_name = "FILE")]
        bone_map: Option<PathBuf>,
        /// From glTF: sample every track at this many keys a second (LINEAR; STEP and
        /// CUBICSPLINE channels need it, and so do rotation and translation keys at
        /// different times).
        #[arg(long, value_name = "RATE")]
        resample: Option<u32>,
        /// From glTF: per bone, the largest angle and position difference between the glTF's
        /// pose and the written file's over the clip.
        #[arg(long)]
        report: bool,
        /// ANP3/ANP2: write every bone packed, rounding values to the packed steps.
        #[arg(long)]
        quantize: bool,
        /// Write a clean file: zeroed name tails, sizes and flags computed, nothing after the
        /// content (else a file written back to its own format is kept byte for byte).
        #[arg(long)]
        normalise: bool,
        /// To bnry: write the instances and car generators and drop the lines of text-only
        /// sections and lines outside any section, reporting how many of which.
        #[arg(long)]
        drop_text_sections: bool,
        /// Refuse the output when the checker finds an error in it for the games checked.
        #[arg(long)]
        check: bool,
        /// The games the output is checked for (repeat for several); all that load it if none.
        #[arg(long, value_enum)]
        game: Vec<CheckGame>,
        /// The file to read, ARCHIVE:ENTRY, or - for standard input.
        input: String,
        /// The file to write (replaced only once complete), or - for standard output.
        output: PathBuf,
    },
}

fn access(no_seek: bool, game: Option<GameArg>) -> Access {
    Access {
        seek: !no_seek,
        game: game.map(GameArg::game),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Info {
            animations,
            entries,
            json,
            no_seek,
            game,
            inputs,
        } => {
            let options = report::Options {
                json: *json,
                entries: *entries,
                animations: *animations,
                access: access(*no_seek, *game),
            };
            match report::run(inputs, options) {
                Ok(true) => return ExitCode::SUCCESS,
                Ok(false) => return ExitCode::FAILURE,
                Err(message) => Err(message),
            }
        }
        Command::Dump {
            json: _,
            no_seek,
            game,
            file,
        } => dump::run(file, access(*no_seek, *game)),
        Command::Ls { json, archive } => {
            open_archive(archive).and_then(|archive| ls::run(&archive, *json))
        }
        Command::Extract {
            archive,
            entries,
            output,
            force,
        } => open_archive(archive)
            .and_then(|archive| extract::run(&archive, entries, output, *force)),
        Command::Img { command } => img::run(command),
        Command::Check {
            game,
            json,
            all,
            level,
            skeleton,
            inputs,
        } => {
            let shown = check::Shown {
                least: level.level(),
                all: *all,
            };
            let model = match skeleton.as_deref().map(check::read_model).transpose() {
                Ok(model) => model,
                Err(message) => {
                    eprintln!("gtastream: {message}");
                    return ExitCode::from(2);
                }
            };
            match check::run(inputs, check_games(game), *json, shown, model.as_deref()) {
                Ok(outcome) if outcome.unreadable => return ExitCode::from(2),
                Ok(outcome) if outcome.errors => return ExitCode::FAILURE,
                Ok(_) => return ExitCode::SUCCESS,
                Err(message) => Err(message),
            }
        }
        Command::Sample {
            json,
            animation,
            time,
            looped,
            skeleton,
            game,
            file,
        } => {
            let on = skeleton.as_deref().map(|model| sample::OnModel {
                model,
                host: game.map(CheckGame::host),
            });
            sample::run(file, animation, *time, *looped, *json, on)
        }
        Command::Convert {
            to: convert::To::Gltf(container),
            skeleton,
            animation,
            game,
            input,
            output,
            ..
        } => convert_gltf(
            *container,
            skeleton.as_deref(),
            animation,
            game,
            input,
            output,
        ),
        Command::Convert {
            to: convert::To::Format(to),
            skeleton,
            animation,
            block,
            bone_map,
            resample,
            report,
            quantize,
            normalise,
            drop_text_sections,
            check,
            game,
            input,
            output,
        } => {
            let options = EncodeOptions::quantize(*quantize)
                .with_normalise(*normalise)
                .with_drop_text_sections(*drop_text_sections);
            let check = convert::Check {
                games: check_games(game),
                refuse: *check,
            };
            if gltf_in::is_gltf(input) {
                if *normalise || *drop_text_sections {
                    Err("--normalise and --drop-text-sections do not apply to a glTF input".into())
                } else {
                    // The output is always checked: an error finding refuses it.
                    let request = gltf_in::Request {
                        to: *to,
                        skeleton: skeleton.as_deref(),
                        animations: animation,
                        block: block.as_deref(),
                        bone_map: bone_map.as_deref(),
                        resample: *resample,
                        quantize: *quantize,
                        games: check_games(game),
                        report: *report,
                    };
                    gltf_in::run(input, output, request).map(|lines| eprint!("{lines}"))
                }
            } else if skeleton.is_some() || !animation.is_empty() {
                Err("--skeleton and --animation go with --to gltf or glb, or a glTF input".into())
            } else if block.is_some() || bone_map.is_some() || resample.is_some() || *report {
                Err("--block, --bone-map, --resample and --report go with a glTF input".into())
            } else {
                convert::run(input, output, *to, options, check)
                    .map(|warnings| eprint!("{warnings}"))
            }
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            if !message.is_empty() {
                eprintln!("gtastream: {message}");
            }
            ExitCode::FAILURE
        }
    }
}

/// The games named with `--game`; all if none.
/// The games `--game` names; `None` (none named): the games each file is for.
fn check_games(named: &[CheckGame]) -> Option<gtastream::check::Games> {
    use gtastream::check::Games;
    if named.is_empty() {
        return None;
    }
    let games = named.iter().fold(Games::NONE, |set, g| {
        set.union(match g {
            CheckGame::Sa => Games::SA,
            CheckGame::Vc => Games::VC,
            CheckGame::Iii => Games::III,
            CheckGame::Mta => Games::MTA,
        })
    });
    Some(games)
}

/// The message for a failure concerning `path`.
/// `convert --to gltf|glb`: a model is needed, and at most one game (the binding's).
fn convert_gltf(
    container: gltf::Container,
    skeleton: Option<&str>,
    animations: &[String],
    games: &[CheckGame],
    input: &str,
    output: &Path,
) -> Result<(), String> {
    let Some(skeleton) = skeleton else {
        return Err("--to gltf/glb needs --skeleton MODEL.dff (the model to play on)".into());
    };
    if games.len() > 1 {
        return Err("--to gltf/glb takes one --game (the game whose binding applies)".into());
    }
    let request = gltf::Request {
        container,
        skeleton,
        animations,
        host: games.first().map(|g| g.host()),
    };
    gltf::run(input, output, request).map(|lines| eprint!("{lines}"))
}

fn failed(path: &str, what: impl std::fmt::Display) -> String {
    format!("{path}: {what}")
}

/// The archive an argument names, or why it is none.
fn open_archive(argument: &str) -> Result<target::Archive, String> {
    if argument == "-" {
        return match target::resolve(argument) {
            Ok(target::Target::Archive(archive)) => Ok(archive),
            Ok(_) => Err(failed(
                "-",
                "standard input is not a VER2 archive (a version 1 archive is two files: name its .dir)",
            )),
            Err(error) => Err(failed(argument, error)),
        };
    }
    match target::archive_at(Path::new(argument), argument) {
        Ok(Some(archive)) => Ok(archive),
        Ok(None) => Err(failed(
            argument,
            target::not_an_archive(Path::new(argument)),
        )),
        Err(error) => Err(failed(argument, error)),
    }
}

/// The message for an output error: none for a closed pipe (`gtastream … | head`), which
/// is still a failure.
fn write_error(error: std::io::Error) -> String {
    if error.kind() == std::io::ErrorKind::BrokenPipe {
        String::new()
    } else {
        format!("stdout: {error}")
    }
}
