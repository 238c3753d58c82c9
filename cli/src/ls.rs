//! `gtastream ls`: one line per entry of an archive (name, offset, size, format), printed as
//! the directory is read, so memory stays small for archives of any size. Models are read
//! (their structure only) to say what they hold: frames, bones, skinned.

use std::io::Write;

use gtastream::archive::{ArchiveInfo, ArchiveVisitor, ArchiveWarning, Choice, Entry};
use gtastream::model::ModelCounts;
use gtastream::{Error, FileInfo, Flow, Format, Record};
use indicatif::ProgressBar;

use crate::json::JsonWriter;
use crate::names::latin1;
use crate::target::{Archive, EntryFormats};
use crate::walk::progress;

struct Lister<'a, W: Write> {
    out: W,
    json: Option<JsonWriter>,
    shown: &'a str,
    formats: EntryFormats,
    bar: ProgressBar,
    /// The first write error (a closed pipe): the rest is not written.
    failed: Option<std::io::Error>,
    /// A model being read: its entry's name, offset and size, and its counts so far.
    model: Option<(String, u64, u64, ModelCounts)>,
}

impl<W: Write> Lister<'_, W> {
    fn write(&mut self, text: &str) -> Flow {
        if self.failed.is_none() {
            if let Err(error) = self.out.write_all(text.as_bytes()) {
                self.failed = Some(error);
            }
        }
        if self.failed.is_some() {
            Flow::Abort
        } else {
            Flow::Continue
        }
    }

    fn flush_json(&mut self) -> Flow {
        let text = self.json.as_mut().map(JsonWriter::take).unwrap_or_default();
        self.write(&text)
    }
}

impl<W: Write> gtastream::Visitor for Lister<'_, W> {
    fn file(&mut self, info: &FileInfo<'_>) -> Flow {
        if let Some((.., counts)) = self.model.as_mut() {
            counts.file(info);
        }
        Flow::Continue
    }

    fn record(&mut self, record: &Record<'_>) -> Flow {
        if let Some((.., counts)) = self.model.as_mut() {
            counts.record(record);
        }
        Flow::Continue
    }
}

impl<W: Write> Lister<'_, W> {
    /// An entry's line or object; `model`: what a model holds, or why it could not be read.
    fn line(
        &mut self,
        name: &str,
        offset: u64,
        size: u64,
        format: Option<Format>,
        model: Option<Result<ModelCounts, Error>>,
    ) -> Flow {
        match self.json.as_mut() {
            Some(w) => {
                w.begin_object(true);
                w.key("name");
                w.string(name);
                w.key("offset");
                w.uint(offset);
                w.key("size");
                w.uint(size);
                w.key("format");
                w.opt_string(format.map(|f| f.name()));
                if let Some(model) = model {
                    w.key("model");
                    match model {
                        Ok(m) => {
                            let mut json = String::new();
                            let _ = m.write_json(&mut json);
                            w.raw(&json);
                        }
                        Err(_) => w.null(),
                    }
                }
                w.end();
                self.flush_json()
            }
            None => {
                let mut format = format.map_or("-", |f| f.name()).to_string();
                match model {
                    Some(Ok(m)) => {
                        format.push_str("  ");
                        let _ = m.describe(&mut format);
                    }
                    Some(Err(e)) => format.push_str(&format!("  (unreadable: {e})")),
                    None => {}
                }
                let line = format!("{name:<24} {offset:>12} {size:>10} {format}\n");
                self.write(&line)
            }
        }
    }
}

impl<W: Write> ArchiveVisitor for Lister<'_, W> {
    fn archive(&mut self, info: &ArchiveInfo) -> Flow {
        self.bar.set_length(u64::from(info.entry_count));
        if let Some(w) = self.json.as_mut() {
            w.begin_object(false);
            w.key("format");
            w.string(info.version.name());
            w.key("entries");
            w.begin_array(false);
        }
        self.flush_json()
    }

    fn entry(&mut self, entry: &Entry<'_>) -> Choice {
        self.bar.inc(1);
        let name = latin1(entry.name);
        let format = self.formats.of(entry);
        if format == Some(Format::Dff) {
            // Read, and listed at its end.
            self.model = Some((name, entry.offset, entry.size, ModelCounts::default()));
            return Choice::Decode;
        }
        let flow = self.line(&name, entry.offset, entry.size, format, None);
        if flow == Flow::Abort {
            Choice::Abort
        } else {
            Choice::Skip
        }
    }

    fn entry_end(&mut self, result: Result<(), Error>) -> Flow {
        match self.model.take() {
            Some((name, offset, size, counts)) => {
                let model = result.map(|()| counts);
                self.line(&name, offset, size, Some(Format::Dff), Some(model))
            }
            None => Flow::Continue,
        }
    }

    fn archive_warning(&mut self, warning: ArchiveWarning) -> Flow {
        let shown = self.shown;
        self.bar.suspend(|| {
            eprintln!(
                "gtastream: {shown}: warning: {warning} ({}, entry {})",
                warning.kind.name(),
                warning.index
            )
        });
        Flow::Continue
    }
}

/// Lists the archive on stdout; the message of a failure.
pub fn run(archive: &Archive, json: bool) -> Result<(), String> {
    let stdout = std::io::stdout().lock();
    let mut lister = Lister {
        out: std::io::BufWriter::new(stdout),
        json: json.then(JsonWriter::new),
        shown: &archive.shown,
        formats: EntryFormats::new(archive),
        bar: progress(0),
        failed: None,
        model: None,
    };
    let result = archive.decode(&mut lister);
    lister.bar.finish_and_clear();
    // The JSON stays a whole document even after an error.
    if let Some(mut w) = lister.json.take() {
        if w.depth() > 0 {
            w.end();
            w.end();
            let text = w.finish();
            lister.write(&text);
        }
    }
    if let Some(error) = lister.failed.take() {
        return Err(crate::write_error(error));
    }
    if let Err(error) = lister.out.flush() {
        return Err(crate::write_error(error));
    }
    result
        .map(|_| ())
        .map_err(|e| format!("{}: {e}", archive.shown))
}
