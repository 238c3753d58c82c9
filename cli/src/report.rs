//! `gtastream info` over several inputs: files, standard input, archives (totals, and with
//! `--entries` a line per entry) and archive entries. Archives are reported as they are read,
//! entry by entry, so memory stays small whatever their size.

use std::io::Write;

use gtastream::archive::{ArchiveInfo, ArchiveVisitor, ArchiveWarning, Choice, Entry};
use gtastream::context::{self, Context, Tracked};
use gtastream::io::ReadError;
use gtastream::{Error, Flow, Format};
use indicatif::ProgressBar;

use crate::info::{self, Summary};
use crate::json::JsonWriter;
use crate::names::latin1;
use crate::source::{self, Access, Failure};
use crate::target::{self, Archive, EntryFormats, Target};
use crate::walk::{progress, Only};

/// How `info` reports.
#[derive(Clone, Copy)]
pub struct Options {
    pub json: bool,
    pub entries: bool,
    pub animations: bool,
    pub access: Access,
}

/// Reports every input, in order; `Ok(false)` if any input or entry failed.
pub fn run(inputs: &[String], options: Options) -> Result<bool, String> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut ok = true;
    let bar = if inputs.len() > 1 {
        progress(inputs.len() as u64)
    } else {
        ProgressBar::hidden()
    };
    for input in inputs {
        bar.inc(1);
        let single = inputs.len() == 1;
        ok &= match target::resolve(input) {
            Err(error) => {
                bar.suspend(|| eprintln!("gtastream: {input}: {error}"));
                if options.json {
                    write_file_json(&mut out, &Summary::new(false), Some(&io_error(error)))?;
                }
                false
            }
            Ok(Target::Archive(archive)) => archive_report(&mut out, &archive, options, single)?,
            Ok(target) => file_report(&mut out, input, target, options, &bar)?,
        };
        out.flush().map_err(crate::write_error)?;
    }
    bar.finish_and_clear();
    Ok(ok)
}

fn io_error(error: std::io::Error) -> Failure {
    Failure::Read(ReadError::Io(error))
}

/// A file, standard input or one entry of an archive.
fn file_report(
    out: &mut impl Write,
    input: &str,
    target: Target,
    options: Options,
    bar: &ProgressBar,
) -> Result<bool, String> {
    let mut summary = Summary::new(options.animations);
    let result = match target {
        Target::Stdin(ref head) => source::decode_stdin(head, options.access.game, &mut summary),
        Target::File(ref path) => source::decode(path, options.access, &mut summary),
        Target::Entry(ref archive, ref name) => {
            let mut only = Only::new(name, summary);
            let result = archive.decode(&mut only);
            let outcome = only.outcome(result.map(|_| 0));
            summary = only.inner.inner;
            outcome.map(|()| 0)
        }
        Target::Archive(_) => unreachable!("archives are reported by archive_report"),
    };
    if options.json {
        write_file_json(out, &summary, result.as_ref().err())?;
    }
    match result {
        Ok(seeks) => {
            if !options.json {
                // A text file's warnings name their lines, found by a second read of the file.
                let lines = match &target {
                    Target::File(path) if summary.is_text() => {
                        source::line_numbers(path, &summary.warning_offsets())
                            .map_err(|e| crate::failed(input, e))?
                    }
                    _ => Vec::new(),
                };
                let text = info::report(input, &summary, seeks, &lines);
                out.write_all(text.as_bytes()).map_err(crate::write_error)?;
            }
            Ok(true)
        }
        Err(failure) => {
            bar.suspend(|| eprintln!("gtastream: {input}: {failure}"));
            // A file cut short (or broken further on): what was decoded before the error.
            if let (false, Some(failure)) = (options.json, failure.decode_error()) {
                if !failure.decoded.is_empty() {
                    let mut text = info::report(input, &summary, 0, &[]);
                    text.push_str(&format!("  error:       {failure}\n"));
                    out.write_all(text.as_bytes()).map_err(crate::write_error)?;
                }
            }
            Ok(false)
        }
    }
}

/// The keys of a file's (or an entry's) JSON object after its name.
/// `base`: the entry's offset in the `.img` for an entry of a whole archive (0 for a file):
/// every offset counts from the first byte of the input named (docs/FORMATS.md §0).
fn counts_json(
    w: &mut JsonWriter,
    summary: &Summary,
    base: u64,
    extra: &[ArchiveWarning],
    error: Option<&Failure>,
) {
    let counts = summary.counts();
    w.key("format");
    w.opt_string(counts.format.map(Format::name));
    for (key, value) in [
        ("animations", counts.animations),
        ("bones", counts.bones),
        ("keyframes", counts.keyframes),
        ("instances", counts.instances),
        ("cars", counts.cars),
    ] {
        w.key(key);
        w.uint(value);
    }
    if counts.format == Some(Format::Dff) {
        let m = &summary.model;
        w.key("model");
        w.begin_object(false);
        w.key("rw_version");
        w.string(&format!("0x{:08X}", m.rw_version));
        for (key, value) in [
            ("frames", m.frames),
            ("bones", m.bones),
            ("geometries", m.geometries),
            ("atomics", m.atomics),
        ] {
            w.key(key);
            w.uint(u64::from(value));
        }
        w.key("skinned");
        w.bool(m.skin_bones.is_some());
        w.end();
    }
    w.key("warnings");
    w.begin_array(true);
    for warning in extra {
        warning_json(
            w,
            warning.kind.name(),
            warning.kind.reason(),
            warning.offset,
        );
        place_json(w, &Context::default());
        w.end();
    }
    for (warning, place) in counts.warnings.iter().zip(counts.places) {
        warning_json(
            w,
            warning.kind.name(),
            warning.kind.reason(),
            base + warning.offset,
        );
        place_json(w, place);
        w.end();
    }
    w.end();
    w.key("error");
    match error {
        None => w.null(),
        Some(failure) => {
            w.begin_object(true);
            match failure {
                Failure::Decode(failure) => {
                    let error = failure.error;
                    w.key("kind");
                    w.string(error.kind.name());
                    w.key("reason");
                    w.string(error.kind.reason());
                    w.key("offset");
                    w.uint(failure.offset());
                    place_json(w, &failure.context);
                    w.key("message");
                    w.string(&failure.to_string());
                }
                other => {
                    w.key("kind");
                    w.string("io");
                    w.key("reason");
                    w.string(&other.to_string());
                    w.key("offset");
                    w.null();
                }
            }
            w.end();
        }
    }
}

/// A warning's object, left open (its place follows, or `end`).
fn warning_json(w: &mut JsonWriter, kind: &str, reason: &str, offset: u64) {
    w.begin_object(true);
    w.key("kind");
    w.string(kind);
    w.key("reason");
    w.string(reason);
    w.key("offset");
    w.uint(offset);
}

/// Where a warning or an error was reported, as `dump --json` gives it: the animation's and
/// bone's indices and the text line.
fn place_json(w: &mut JsonWriter, place: &Context) {
    for (key, value) in [
        ("animation", place.animation.map(|a| a.index)),
        ("bone", place.bone.map(|b| b.index)),
        ("line", place.line),
    ] {
        w.key(key);
        match value {
            Some(value) => w.uint(value.into()),
            None => w.null(),
        }
    }
}

fn write_file_json(
    out: &mut impl Write,
    summary: &Summary,
    error: Option<&Failure>,
) -> Result<(), String> {
    let mut w = JsonWriter::new();
    w.begin_object(false);
    counts_json(&mut w, summary, 0, &[], error);
    w.end();
    out.write_all(w.finish().as_bytes())
        .map_err(crate::write_error)
}

/// Totals over an archive's entries.
#[derive(Default)]
struct Totals {
    entries: u64,
    /// Entries per format name ("other" for those not decoded), in order of appearance.
    formats: Vec<(&'static str, u64)>,
    animations: u64,
    bones: u64,
    keyframes: u64,
    instances: u64,
    cars: u64,
    warnings: u64,
    failed: u64,
    /// The entries whose content had warnings and how many, in directory order (the summary
    /// names them: a count alone does not tell where to look).
    warned: Vec<(String, u64)>,
    /// The warnings of entries' directory records, with the entry's name: `info
    /// ARCHIVE:ENTRY` decodes the entry alone and does not show them, so the summary lists
    /// them itself.
    records: Vec<(String, ArchiveWarning)>,
}

/// The entry being decoded: its name, format, its record's warnings, and summary.
type Current = (
    String,
    Option<Format>,
    Vec<ArchiveWarning>,
    Tracked<Summary>,
);

/// Reads an archive, decoding every entry of a known format, reporting each as it ends.
struct ArchiveReport<'a, W: Write> {
    out: &'a mut W,
    shown: &'a str,
    options: Options,
    json: Option<JsonWriter>,
    bar: ProgressBar,
    totals: Totals,
    /// Each entry's format, as `ls` and `check` see it.
    formats: EntryFormats,
    /// The warnings of the coming entry, and those of the directory as a whole.
    pending: Vec<ArchiveWarning>,
    directory: Vec<ArchiveWarning>,
    current: Option<Current>,
    failed: Option<String>,
}

gtastream::forward_visitor!(
    [] ArchiveReport<'_, std::io::BufWriter<std::io::StdoutLock<'_>>>,
    |this| this.current.as_mut().map(|c| &mut c.3)
);

impl<W: Write> ArchiveReport<'_, W> {
    fn write(&mut self, text: &str) -> Flow {
        if self.failed.is_none() {
            if let Err(error) = self.out.write_all(text.as_bytes()) {
                self.failed = Some(crate::write_error(error));
            }
        }
        if self.failed.is_some() {
            Flow::Abort
        } else {
            Flow::Continue
        }
    }

    /// Counts an entry that ended (decoded or not) and prints its line or object.
    fn entry_done(
        &mut self,
        name: &str,
        format: Option<Format>,
        warnings: &[ArchiveWarning],
        summary: &Summary,
        base: u64,
        error: Option<context::Failure>,
    ) -> Flow {
        let counts = summary.counts();
        let t = &mut self.totals;
        t.entries += 1;
        let key = format.map_or("other", Format::name);
        match t.formats.iter_mut().find(|(k, _)| *k == key) {
            Some((_, n)) => *n += 1,
            None => t.formats.push((key, 1)),
        }
        t.animations += counts.animations;
        t.bones += counts.bones;
        t.keyframes += counts.keyframes;
        t.instances += counts.instances;
        t.cars += counts.cars;
        let content_warnings = counts.warnings.len() as u64;
        t.warnings += content_warnings + warnings.len() as u64;
        if content_warnings > 0 {
            t.warned.push((name.to_string(), content_warnings));
        }
        t.records
            .extend(warnings.iter().map(|w| (name.to_string(), *w)));
        t.failed += u64::from(error.is_some());
        if let Some(error) = error {
            let shown = self.shown;
            self.bar
                .suspend(|| eprintln!("gtastream: {shown}:{name}: {error}"));
        }
        let failure = error.map(|e| Failure::Decode(Box::new(e)));
        let text = match self.json.as_mut() {
            Some(w) => {
                w.begin_object(true);
                w.key("name");
                w.string(name);
                counts_json(w, summary, base, warnings, failure.as_ref());
                w.end();
                w.take()
            }
            None if self.options.entries => entry_line(name, format, warnings, summary, error),
            None => String::new(),
        };
        self.write(&text)
    }
}

fn entry_line(
    name: &str,
    format: Option<Format>,
    warnings: &[ArchiveWarning],
    summary: &Summary,
    error: Option<context::Failure>,
) -> String {
    let counts = summary.counts();
    let what = match format {
        None => "not decoded".to_string(),
        Some(f) if f.is_animation() => format!(
            "{} animations, {} bones, {} keyframes",
            counts.animations, counts.bones, counts.keyframes
        ),
        Some(Format::Dff) => {
            let mut text = String::new();
            let _ = summary.model.describe(&mut text);
            text
        }
        Some(_) => format!("{} instances, {} cars", counts.instances, counts.cars),
    };
    let mut line = format!(
        "    {name:<24} {:<5} {what}",
        format.map_or("-", Format::name)
    );
    let n = warnings.len() + counts.warnings.len();
    if n > 0 {
        let noun = if n == 1 { "warning" } else { "warnings" };
        line.push_str(&format!(", {n} {noun}"));
    }
    // The record's own warnings, which `info ARCHIVE:ENTRY` does not show.
    for warning in warnings {
        line.push_str(&format!(
            "; its directory record: {warning} ({})",
            warning.kind.name()
        ));
    }
    if let Some(error) = error {
        line.push_str(&format!(", failed: {error}"));
    }
    line.push('\n');
    line
}

impl<W: Write> ArchiveVisitor for ArchiveReport<'_, W>
where
    Self: gtastream::Visitor,
{
    fn archive(&mut self, info: &ArchiveInfo) -> Flow {
        self.bar.set_length(u64::from(info.entry_count));
        let text = match self.json.as_mut() {
            Some(w) => {
                w.begin_object(false);
                w.key("format");
                w.string(info.version.name());
                w.key("entries");
                w.begin_array(false);
                w.take()
            }
            None => {
                let mut text = format!("{}\n  archive:     {}\n", self.shown, info.version.name());
                if self.options.entries {
                    text.push_str("  per entry:\n");
                }
                text
            }
        };
        self.write(&text)
    }

    fn entry(&mut self, entry: &Entry<'_>) -> Choice {
        self.bar.inc(1);
        let name = latin1(entry.name);
        let warnings = std::mem::take(&mut self.pending);
        let format = self.formats.of(entry);
        if format.is_some() {
            // Offsets of a whole archive count from the .img's first byte (docs/FORMATS.md §0):
            // the context adds the entry's offset, and names the entry.
            let mut summary = Tracked::new(Summary::new(false));
            summary.context.entry(entry);
            self.current = Some((name, format, warnings, summary));
            return Choice::Decode;
        }
        match self.entry_done(&name, None, &warnings, &Summary::new(false), 0, None) {
            Flow::Abort => Choice::Abort,
            _ => Choice::Skip,
        }
    }

    fn entry_end(&mut self, result: Result<(), Error>) -> Flow {
        let Some((name, format, warnings, summary)) = self.current.take() else {
            return Flow::Continue;
        };
        let failure = result.err().map(|e| summary.failure(e));
        self.entry_done(
            &name,
            format,
            &warnings,
            &summary.inner,
            summary.context.base,
            failure,
        )
    }

    fn archive_warning(&mut self, warning: ArchiveWarning) -> Flow {
        if warning.kind == gtastream::archive::ArchiveWarningKind::DirectoryTruncated {
            self.directory.push(warning);
        } else {
            self.pending.push(warning);
        }
        Flow::Continue
    }
}

/// Entries listed under the warnings count of an archive's summary, at most this many.
const WARNED_SHOWN: usize = 20;

/// The entries whose warnings the summary counts: those of their directory records, each
/// listed, then the entries whose content had warnings, each with how many and the command
/// that lists them; past [`WARNED_SHOWN`] of either, how many more and the command that shows
/// them.
fn warned_entries(
    archive: &str,
    records: &[(String, ArchiveWarning)],
    warned: &[(String, u64)],
) -> String {
    let mut text = String::new();
    for (name, warning) in records.iter().take(WARNED_SHOWN) {
        text.push_str(&format!(
            "    {name}: {warning} ({}, its directory record)\n",
            warning.kind.name()
        ));
    }
    if records.len() > WARNED_SHOWN {
        text.push_str(&format!(
            "    and {} more warnings of directory records (gtastream ls {archive})\n",
            records.len() - WARNED_SHOWN
        ));
    }
    for (name, n) in warned.iter().take(WARNED_SHOWN) {
        let noun = if *n == 1 { "warning" } else { "warnings" };
        text.push_str(&format!(
            "    {name}: {n} {noun} (gtastream info {archive}:{name})\n"
        ));
    }
    if warned.len() > WARNED_SHOWN {
        text.push_str(&format!(
            "    and {} more entries with warnings (gtastream info --entries {archive})\n",
            warned.len() - WARNED_SHOWN
        ));
    }
    text
}

fn archive_report(
    out: &mut std::io::BufWriter<std::io::StdoutLock<'_>>,
    archive: &Archive,
    options: Options,
    single: bool,
) -> Result<bool, String> {
    let mut report = ArchiveReport {
        out,
        shown: &archive.shown,
        options,
        json: options.json.then(JsonWriter::new),
        bar: if single {
            progress(0)
        } else {
            ProgressBar::hidden()
        },
        totals: Totals::default(),
        formats: EntryFormats::new(archive),
        pending: Vec::new(),
        directory: Vec::new(),
        current: None,
        failed: None,
    };
    let result = archive.decode(&mut report);
    report.bar.finish_and_clear();
    if let Some(error) = report.failed.take() {
        return Err(error);
    }
    let seeks = result.as_ref().map_or(0, |s| *s);
    let t = &report.totals;
    let directory_warnings = report.directory.len() as u64;
    let text = match report.json.take() {
        Some(mut w) => {
            if w.depth() == 0 {
                // The archive failed before its first event.
                w.begin_object(false);
                w.key("format");
                w.null();
                w.key("entries");
                w.begin_array(false);
            }
            w.end();
            w.key("warnings");
            w.begin_array(false);
            for warning in &report.directory {
                warning_json(
                    &mut w,
                    warning.kind.name(),
                    warning.kind.reason(),
                    warning.offset,
                );
                w.end();
            }
            w.end();
            w.key("totals");
            w.begin_object(false);
            w.key("entries");
            w.uint(t.entries);
            w.key("formats");
            w.begin_object(true);
            for (name, n) in &t.formats {
                w.key(name);
                w.uint(*n);
            }
            w.end();
            for (key, value) in [
                ("animations", t.animations),
                ("bones", t.bones),
                ("keyframes", t.keyframes),
                ("instances", t.instances),
                ("cars", t.cars),
                ("warnings", t.warnings + directory_warnings),
                ("failed", t.failed),
            ] {
                w.key(key);
                w.uint(value);
            }
            w.end();
            w.key("error");
            match &result {
                Ok(_) => w.null(),
                Err(failure) => {
                    w.begin_object(true);
                    w.key("reason");
                    w.string(&failure.to_string());
                    w.end();
                }
            }
            w.end();
            w.finish()
        }
        None if result.is_ok() || t.entries > 0 => {
            let formats: Vec<String> = t.formats.iter().map(|(k, n)| format!("{k} {n}")).collect();
            let mut text = String::new();
            text.push_str(&format!("  entries:     {}", t.entries));
            if !formats.is_empty() {
                text.push_str(&format!(" ({})", formats.join(", ")));
            }
            text.push('\n');
            for (key, value) in [
                ("animations", t.animations),
                ("bones", t.bones),
                ("keyframes", t.keyframes),
                ("instances", t.instances),
                ("cars", t.cars),
                ("seeks", seeks),
                ("warnings", t.warnings + directory_warnings),
                ("failed", t.failed),
            ] {
                text.push_str(&format!("  {:<12} {value}\n", format!("{key}:")));
                if key == "warnings" {
                    // What the count counts: the directory's warnings, then the entries'.
                    for warning in &report.directory {
                        text.push_str(&format!("    {warning} ({})\n", warning.kind.name()));
                    }
                    if !report.options.entries {
                        text.push_str(&warned_entries(
                            archive.shown.as_str(),
                            &t.records,
                            &t.warned,
                        ));
                    }
                }
            }
            text
        }
        None => String::new(),
    };
    report
        .out
        .write_all(text.as_bytes())
        .map_err(crate::write_error)?;
    if let Err(failure) = &result {
        eprintln!("gtastream: {}: {failure}", archive.shown);
    }
    Ok(result.is_ok() && report.totals.failed == 0)
}
