//! `gtastream ls`: one line per entry of an archive (name, offset, size, format), printed as
//! the directory is read, so memory stays small for archives of any size.

use std::io::Write;

use gtastream::archive::{ArchiveInfo, ArchiveVisitor, ArchiveWarning, Choice, Entry};
use gtastream::Flow;
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

impl<W: Write> gtastream::Visitor for Lister<'_, W> {}

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
        let flow = match self.json.as_mut() {
            Some(w) => {
                w.begin_object(true);
                w.key("name");
                w.string(&name);
                w.key("offset");
                w.uint(entry.offset);
                w.key("size");
                w.uint(entry.size);
                w.key("format");
                w.opt_string(format.map(|f| f.name()));
                w.end();
                self.flush_json()
            }
            None => {
                let format = format.map_or("-", |f| f.name());
                let line = format!(
                    "{name:<24} {:>12} {:>10} {format}\n",
                    entry.offset, entry.size
                );
                self.write(&line)
            }
        };
        if flow == Flow::Abort {
            Choice::Abort
        } else {
            Choice::Skip
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
