//! `gtastream convert`: decode a file and write it in another format through the streaming
//! encoder, in constant memory. The output goes to a temporary file beside OUT that is renamed
//! over OUT only once complete, so a failure leaves nothing half-written; `-` writes to
//! standard output, once the whole output is made (nothing is written on a failure).

use std::fs::File;
use std::io::{BufWriter, Cursor, Read, Seek, Write};
use std::path::Path;

use gtastream::check::{Checker, Finding, Games, Level};
use gtastream::context::Tracked;
use gtastream::encode::{
    EncodeError, EncodeOptions, EncodeWarnings, Encoder, IoSink, Lookahead, ReadAt, Sink,
};
use gtastream::io::decode_reader;
use gtastream::{Decoder, ErrorKind, Format};

use crate::output::{Destination, Pending};
use crate::source::Failure;
use crate::target::{self, Target};

pub const ABOUT: &str = "Write a file in another format (lossless unless --quantize)";

pub const LONG_ABOUT: &str = "\
Write a file in another format: ANP3, ANP2 or ANPK for animations (from any animation
format, Stories .anim included), bnry or text for item placements (from either). Format
names may be given in any case.

Nothing is rounded or cut: a name too long for its field, a value the target cannot hold
exactly, a placement line the target has no place for, ends the command with one line on
stderr and status 1, and OUT is left as it was (the output is written beside it and renamed
at the end). In ANP3/ANP2, packed keyframes stay packed, and so do float keyframes whose
every value of the bone lies exactly on the packed steps (a converted ANP3 comes back as it
was); other bones are written as floats.
--quantize writes every ANP3/ANP2 bone packed, rounding each value to its step (1/4096,
1/60 s, 1/1024 m). A scale (ANPK KRTS) written to ANP3/ANP2 is dropped with a warning.
Stories bones are named from their keys (standard skeleton names, else bone_XXXXXXXX).

A file written to its own format with nothing changed comes out byte for byte: the bytes
after each name's NUL, stale size fields, `flags` and the bytes after the content are kept.
--normalise writes a clean file instead (zeroed name tails, sizes and flags computed, nothing
after the content).
The output is checked against the games' loading rules (as `gtastream check`, for the games
given with --game, else every game that loads the format): its error and warning findings
are lines on stderr, grouped as `check` groups them, then its summary line (notes are only
counted there; `gtastream check OUT` lists them). A finding names the way out where there is
one (an ANP3 of float frames crashes MTA: --quantize; packed frames in ANP2 are misread by
San Andreas: write ANP3). --check refuses
the output when a finding is an error: OUT is left as it was and the status is 1.

--to gltf or glb writes the animations as glTF 2.0 on the skeleton of the model named
with --skeleton (a DFF, or ARCHIVE:ENTRY): a node per frame, a channel per track that drives
a frame, keys as stored (docs/ANIMATION.md, \"glTF\"); --animation NAME (repeatable) picks
animations; --game (one) the game whose binding applies. The tracks that bind to nothing are
lines on stderr, not written.

IN may be an entry of an IMG archive (ARCHIVE:ENTRY, name in any case) or - for standard
input; those are read into memory. OUT - writes to standard output (once the whole output
is made: nothing is written on a failure).

Examples:
  gtastream convert --to anp3 ped.ifp ped_sa.ifp
  gtastream convert --to anp3 ped.ifp - | xxd | head
  gtastream convert --to text gta3.img:countn2_stream0.ipl countn2.ipl
  gtastream convert --to text sector_stream0.ipl sector.ipl
  gtastream convert --to glb --skeleton player.dff ped.ifp ped.glb";

/// What `convert` writes: a format of the encoder, or glTF on a model.
#[derive(Clone, Copy, Debug)]
pub enum To {
    Format(Format),
    Gltf(crate::gltf::Container),
}

/// The target of `--to`, in any case.
pub fn parse_target(name: &str) -> Result<To, String> {
    match name.to_ascii_lowercase().as_str() {
        "gltf" => Ok(To::Gltf(crate::gltf::Container::Gltf)),
        "glb" => Ok(To::Gltf(crate::gltf::Container::Glb)),
        _ => parse_format(name).map(To::Format),
    }
}

/// A target format from its name, in any case.
pub fn parse_format(name: &str) -> Result<Format, String> {
    Format::named(name.as_bytes())
        .filter(|f| f.is_writable())
        .ok_or_else(|| {
            format!("`{name}` is not a format gtastream writes (anp3, anp2, anpk, bnry, text, gltf, glb)")
        })
}

/// What is checked of the output: for these games; refused at an error finding if `refuse`.
#[derive(Clone, Copy)]
pub struct Check {
    /// `None`: the games the output is for.
    pub games: Option<Games>,
    pub refuse: bool,
}

/// Converts `input` (a file, `ARCHIVE:ENTRY` or `-`) to `to` in `output`; returns the warnings
/// to print (one line each).
pub fn run(
    input: &str,
    output: &Path,
    to: Format,
    options: EncodeOptions,
    check: Check,
) -> Result<String, String> {
    let at_input = |what: &dyn std::fmt::Display| format!("{input}: {what}");
    match target::resolve(input).map_err(|e| at_input(&e))? {
        Target::File(path) => {
            let reader = File::open(&path).map_err(|e| at_input(&e))?;
            // A second handle reads one bone ahead (see `convert`).
            let ahead = File::open(&path).map_err(|e| at_input(&e))?;
            convert(reader, ahead, input, output, to, options, check)
        }
        // An entry, or standard input (which cannot be read twice), is read into memory.
        Target::Entry(archive, name) => {
            let bytes = archive.entry_bytes(&name).map_err(|e| at_input(&e))?;
            convert(
                Cursor::new(&bytes[..]),
                &bytes[..],
                input,
                output,
                to,
                options,
                check,
            )
        }
        Target::Stdin(head) => {
            let mut bytes = head;
            std::io::stdin()
                .lock()
                .read_to_end(&mut bytes)
                .map_err(|e| at_input(&e))?;
            convert(
                Cursor::new(&bytes[..]),
                &bytes[..],
                input,
                output,
                to,
                options,
                check,
            )
        }
        Target::Archive(_) => Err(at_input(
            &"an IMG archive: name one entry (ARCHIVE:ENTRY), or see `gtastream ls`",
        )),
    }
}

/// Converts what `reader` holds (`ahead` reads the same bytes) to `to` in `output`.
fn convert(
    reader: impl Read + Seek,
    ahead: impl ReadAt,
    input: &str,
    output: &Path,
    to: Format,
    options: EncodeOptions,
    check: Check,
) -> Result<String, String> {
    let at_output = |e: &dyn std::fmt::Display| format!("{}: {e}", output.display());
    let refused = |findings: &str, errors: u32| {
        format!(
            "{findings}gtastream: {}: refused (--check): {errors} error finding(s) for the games checked",
            output.display()
        )
    };
    let (findings, warnings) = match Destination::of(output) {
        Destination::File(path) => {
            let (pending, file) = Pending::create(path)?;
            let sink = IoSink::new(BufWriter::new(file)).map_err(|e| at_output(&e))?;
            let io_error = |s: &IoSink<_>| s.error().map(|e| at_output(e));
            let (sink, warnings) = encode(reader, ahead, input, to, options, sink, io_error)?;
            let mut file = sink.into_inner().into_inner().map_err(|e| at_output(&e))?;
            file.flush().map_err(|e| at_output(&e))?;
            let written = std::fs::read(pending.temp()).map_err(|e| at_output(&e))?;
            let (findings, errors) = check_output(&written, output, check.games)?;
            if check.refuse && errors > 0 {
                // The pending file is removed: OUT stays as it was.
                return Err(refused(&findings, errors));
            }
            pending.commit(file)?;
            (findings, warnings)
        }
        Destination::Stdout => {
            let (bytes, warnings) =
                encode(reader, ahead, input, to, options, Vec::new(), |_| None)?;
            let (findings, errors) = check_output(&bytes, output, check.games)?;
            if check.refuse && errors > 0 {
                return Err(refused(&findings, errors));
            }
            let mut stdout = std::io::stdout().lock();
            stdout
                .write_all(&bytes)
                .and_then(|()| stdout.flush())
                .map_err(crate::write_error)?;
            (findings, warnings)
        }
    };
    Ok(findings + &warnings)
}

/// The lines to print after a conversion: the first warning with the count of the others, and
/// the lines dropped per section.
fn report<S: Sink>(input: &str, encoder: &Encoder<S>) -> String {
    let warnings: EncodeWarnings = encoder.warnings();
    let mut report = match warnings.first {
        None => String::new(),
        Some(first) => {
            let more = match warnings.count {
                1 => String::new(),
                n => format!(" ({} more)", n - 1),
            };
            format!(
                "gtastream: {input}: warning: {} in the output at offset {}{more}\n",
                first.kind.reason(),
                first.offset
            )
        }
    };
    let dropped: Vec<String> = encoder
        .dropped_lines()
        .map(|(section, n)| match section {
            "" => format!("{n} outside any section"),
            _ => format!("{n} of {section}"),
        })
        .collect();
    if !dropped.is_empty() {
        report += &format!(
            "gtastream: {input}: dropped lines (--drop-text-sections): {}\n",
            dropped.join(", ")
        );
    }
    report
}

/// The checker's report on the written bytes (its error and warning lines, grouped as
/// `check` groups them, and the summary line; nothing when nothing is found), and how many
/// findings are errors.
pub(crate) fn check_output(
    written: &[u8],
    output: &Path,
    games: Option<Games>,
) -> Result<(String, u32), String> {
    let shown = output.display().to_string();
    let mut findings = Vec::new();
    let mut checker = Checker::with_games(games, |f: &Finding| findings.push(*f));
    if let Err(error) = Decoder::new().decode_slice(written, &mut checker) {
        return Err(format!("{shown}: the output does not read back: {error}"));
    }
    checker.finish();
    let errors = checker.errors();
    let games = (checker.games(), checker.games_from_file());
    let mut lines = String::new();
    if findings.is_empty() {
        // A clean output: nothing to say.
        return Ok((lines, errors));
    }
    let listed = crate::check::Shown {
        least: Level::Warning,
        all: false,
    };
    crate::check::write_text(&mut lines, "gtastream: ", &shown, &findings, games, listed);
    Ok((lines, errors))
}

/// The encoder's refusal in the command's words: a line lost names the flag that drops such
/// lines, `--drop-text-sections` (the library's message names its option).
fn encode_error(error: &EncodeError) -> String {
    const DROP: &str = "--drop-text-sections writes the instances and car generators and drops \
                        such lines";
    match error {
        EncodeError::LineLost(at) if at.section.is_empty() && at.line == 0 => format!(
            "the line outside any section at offset {} would be lost in a binary IPL (the games \
             skip it; {DROP})",
            at.offset
        ),
        EncodeError::LineLost(at) if at.section.is_empty() => format!(
            "line {} (outside any section) has no place in a binary IPL (the games skip it; \
             {DROP})",
            at.line
        ),
        EncodeError::LineLost(at) => format!(
            "line {} (section {}) has no place in a binary IPL ({DROP})",
            at.line, at.section
        ),
        other => other.to_string(),
    }
}

/// Decodes `reader` into an encoder for `to` writing to `sink`; the sink once finished.
/// `sink_error` says why the sink failed, if it did.
fn encode<S: Sink>(
    mut reader: impl Read + Seek,
    ahead: impl ReadAt,
    input: &str,
    to: Format,
    options: EncodeOptions,
    sink: S,
    sink_error: impl Fn(&S) -> Option<String>,
) -> Result<(S, String), String> {
    let at_input = |what: &dyn std::fmt::Display| format!("{input}: {what}");
    let mut encoder = Encoder::new(to, sink, options).map_err(|e| at_input(&e))?;
    // `ahead` reads one bone ahead, so float keyframes that lie exactly on the packed steps are
    // written packed (docs/FORMATS.md §9.2).
    let mut visitor = Tracked::new(Lookahead::new(&mut encoder, ahead));
    let mut decoder = Decoder::new();
    let decoded = decode_reader(&mut decoder, &mut reader, &mut visitor)
        .map_err(|e| Failure::of(e, &decoder, &visitor));
    // Where the input was when the encoder refused an event: its animation and bone (the
    // placement encoders name the line themselves).
    let place = visitor.context;
    let write_failed = |encoder: &Encoder<S>| match sink_error(encoder.sink()) {
        Some(message) => message,
        None => {
            let error = encoder.error().map_or(String::new(), |e| encode_error(&e));
            match place.animation {
                Some(_) => at_input(&format!("{error} ({place} of the input)")),
                None => at_input(&error),
            }
        }
    };
    match decoded {
        Ok(()) => {}
        Err(Failure::Decode(f))
            if f.error.kind == ErrorKind::Aborted && encoder.error().is_some() =>
        {
            return Err(write_failed(&encoder));
        }
        Err(e) => return Err(at_input(&e)),
    }
    if !encoder.is_finished() {
        return Err(write_failed(&encoder));
    }
    let report = report(input, &encoder);
    Ok((encoder.into_sink(), report))
}
