//! Shared pieces of the archive commands: a progress bar on stderr (only when stderr is a
//! terminal), and the visitor that decodes one entry.

use std::io::IsTerminal;

use gtastream::context::{self, Tracked};
use indicatif::{ProgressBar, ProgressStyle};

use crate::source::Failure;

/// A bar over `len` steps (entries of an archive, or inputs), drawn on stderr when stderr is
/// a terminal; hidden otherwise, so that logs and pipes get no control characters.
pub fn progress(len: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} {wide_msg}") {
        bar.set_style(style);
    }
    bar
}

/// A spinner with a message (the file being read), drawn on stderr when stderr is a
/// terminal; hidden otherwise.
pub fn spinner() -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new_spinner();
    if let Ok(style) = ProgressStyle::with_template("{spinner} {elapsed} {wide_msg}") {
        bar.set_style(style);
    }
    // Turning while one big archive is read.
    bar.enable_steady_tick(std::time::Duration::from_millis(120));
    bar
}

/// Decodes only the first entry named `wanted` (without case) into `inner`, then stops. The
/// entry is tracked as a file of its own (its offsets count from its first byte, as in the
/// extracted file), so that its error says where it happened.
pub struct Only<V> {
    wanted: String,
    pub inner: Tracked<V>,
    pub state: OnlyState,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnlyState {
    Looking,
    Inside,
    Done(Result<(), context::Failure>),
}

impl<V> Only<V> {
    pub fn new(wanted: &str, inner: V) -> Self {
        Only {
            wanted: wanted.to_string(),
            inner: Tracked::new(inner),
            state: OnlyState::Looking,
        }
    }

    fn target(&mut self) -> Option<&mut Tracked<V>> {
        (self.state == OnlyState::Inside).then_some(&mut self.inner)
    }

    /// The entry's result once the archive was read: not found is a failure too.
    pub fn outcome(&self, archive_result: Result<u64, Failure>) -> Result<(), Failure> {
        match self.state {
            OnlyState::Done(Ok(())) => Ok(()),
            OnlyState::Done(Err(failure)) => Err(Failure::Decode(Box::new(failure))),
            _ => match archive_result {
                Err(failure) => Err(failure),
                Ok(_) => Err(Failure::Other(format!("no entry named {:?}", self.wanted))),
            },
        }
    }
}

gtastream::forward_visitor!([V: gtastream::Visitor] Only<V>, |this| this.target());

impl<V> gtastream::archive::ArchiveVisitor for Only<V>
where
    Only<V>: gtastream::Visitor,
{
    fn entry(&mut self, entry: &gtastream::archive::Entry<'_>) -> gtastream::archive::Choice {
        if self.state == OnlyState::Looking && crate::target::same_name(entry.name, &self.wanted) {
            self.state = OnlyState::Inside;
            gtastream::archive::Choice::Decode
        } else {
            gtastream::archive::Choice::Skip
        }
    }

    fn entry_end(&mut self, result: Result<(), gtastream::Error>) -> gtastream::Flow {
        self.state = OnlyState::Done(result.map_err(|e| self.inner.failure(e)));
        // The entry is all that was wanted: the rest of the directory is not read.
        gtastream::Flow::Abort
    }
}
