//! `gtastream convert`: decode a file and write it in another format through the streaming
//! encoder, in constant memory. The output goes to a temporary file beside OUT that is renamed
//! over OUT only once complete, so a failure leaves nothing half-written.

use std::fs::{self, File};
use std::io::{BufWriter, Cursor, Read, Seek, Write};
use std::path::{Path, PathBuf};

use gtastream::encode::{EncodeOptions, Encoder, IoSink, Lookahead, ReadAt};
use gtastream::io::{decode_reader, ReadError};
use gtastream::{Decoder, ErrorKind, Format};

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

IN may be an entry of an IMG archive (ARCHIVE:ENTRY, name in any case) or - for standard
input; those are read into memory.

Examples:
  gtastream convert --to anp3 ped.ifp ped_sa.ifp
  gtastream convert --to text gta3.img:countn2_stream0.ipl countn2.ipl
  gtastream convert --to text sector_stream0.ipl sector.ipl";

/// A target format from its name, in any case.
pub fn parse_format(name: &str) -> Result<Format, String> {
    match name.to_ascii_lowercase().as_str() {
        "anp3" => Ok(Format::Anp3),
        "anp2" => Ok(Format::Anp2),
        "anpk" => Ok(Format::Anpk),
        "bnry" => Ok(Format::IplBinary),
        "text" => Ok(Format::IplText),
        _ => Err(format!(
            "`{name}` is not a format gtastream writes (anp3, anp2, anpk, bnry, text)"
        )),
    }
}

/// Removes the temporary file unless it was renamed.
struct Temp(Option<PathBuf>);

impl Drop for Temp {
    fn drop(&mut self) {
        if let Some(path) = self.0.take() {
            let _ = fs::remove_file(path);
        }
    }
}

fn temp_beside(output: &Path) -> PathBuf {
    let name = output
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let pid = std::process::id();
    output.with_file_name(format!(".{name}.{pid}.gtastream-tmp"))
}

/// Converts `input` (a file, `ARCHIVE:ENTRY` or `-`) to `to` in `output`; returns the warnings
/// to print (one line each).
pub fn run(
    input: &str,
    output: &Path,
    to: Format,
    options: EncodeOptions,
) -> Result<String, String> {
    let at_input = |what: &dyn std::fmt::Display| format!("{input}: {what}");
    match target::resolve(input).map_err(|e| at_input(&e))? {
        Target::File(path) => {
            let reader = File::open(&path).map_err(|e| at_input(&e))?;
            // A second handle reads one bone ahead (see `convert`).
            let ahead = File::open(&path).map_err(|e| at_input(&e))?;
            convert(reader, ahead, input, output, to, options)
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
            )
        }
        Target::Stdin => {
            let mut bytes = Vec::new();
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
            )
        }
        Target::Archive(_) => Err(at_input(
            &"an IMG archive: name one entry (ARCHIVE:ENTRY), or see `gtastream ls`",
        )),
    }
}

/// Converts what `reader` holds (`ahead` reads the same bytes) to `to` in `output`.
fn convert(
    mut reader: impl Read + Seek,
    ahead: impl ReadAt,
    input: &str,
    output: &Path,
    to: Format,
    options: EncodeOptions,
) -> Result<String, String> {
    let at_input = |what: &dyn std::fmt::Display| format!("{input}: {what}");
    let temp_path = temp_beside(output);
    let file = File::create(&temp_path).map_err(|e| format!("{}: {e}", temp_path.display()))?;
    let mut temp = Temp(Some(temp_path.clone()));
    let sink =
        IoSink::new(BufWriter::new(file)).map_err(|e| format!("{}: {e}", output.display()))?;
    let mut encoder = Encoder::new(to, sink, options).map_err(|e| at_input(&e))?;
    // `ahead` reads one bone ahead, so float keyframes that lie exactly on the packed steps are
    // written packed (docs/FORMATS.md §9.2).
    let mut visitor = Lookahead::new(&mut encoder, ahead);
    let decoded = decode_reader(&mut Decoder::new(), &mut reader, &mut visitor);
    let write_failed = |encoder: &Encoder<IoSink<BufWriter<File>>>| match encoder.sink().error() {
        Some(e) => format!("{}: {e}", output.display()),
        None => at_input(&encoder.error().map_or(String::new(), |e| e.to_string())),
    };
    match decoded {
        Ok(()) => {}
        Err(ReadError::Decode(e)) if e.kind == ErrorKind::Aborted && encoder.error().is_some() => {
            return Err(write_failed(&encoder));
        }
        Err(e) => return Err(at_input(&e)),
    }
    if !encoder.is_finished() {
        return Err(write_failed(&encoder));
    }
    let warnings = encoder.warnings();
    let mut writer = encoder.into_sink().into_inner();
    writer
        .flush()
        .and_then(|()| writer.get_ref().sync_all())
        .map_err(|e| format!("{}: {e}", output.display()))?;
    drop(writer);
    fs::rename(&temp_path, output).map_err(|e| format!("{}: {e}", output.display()))?;
    temp.0 = None;
    Ok(match warnings.first {
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
    })
}
