//! Where a command writes: a file, replaced only once complete (the bytes go to a temporary
//! file beside it, renamed over it at the end, so a failure leaves nothing half-written), or
//! standard output for `-`.

use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};

/// An output argument.
pub enum Destination<'a> {
    File(&'a Path),
    Stdout,
}

impl<'a> Destination<'a> {
    pub fn of(argument: &'a Path) -> Self {
        if argument == Path::new("-") {
            Destination::Stdout
        } else {
            Destination::File(argument)
        }
    }
}

/// A file being written: a temporary file beside its path, removed unless committed.
pub struct Pending {
    temp: PathBuf,
    path: PathBuf,
    committed: bool,
}

impl Pending {
    /// Creates the temporary file for `path`.
    pub fn create(path: &Path) -> Result<(Pending, File), String> {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let temp = path.with_file_name(format!(".{name}.{}.gtastream-tmp", std::process::id()));
        let file = File::create(&temp).map_err(|e| format!("{}: {e}", temp.display()))?;
        let pending = Pending {
            temp,
            path: path.to_path_buf(),
            committed: false,
        };
        Ok((pending, file))
    }

    /// The temporary file being written (read back by `convert`'s check).
    pub fn temp(&self) -> &Path {
        &self.temp
    }

    /// Makes the written `file` the one at the path (replacing what was there).
    pub fn commit(mut self, file: File) -> Result<(), String> {
        let at_path = |e: io::Error| format!("{}: {e}", self.path.display());
        file.sync_all().map_err(at_path)?;
        drop(file);
        fs::rename(&self.temp, &self.path).map_err(at_path)?;
        self.committed = true;
        Ok(())
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        if !self.committed {
            let _ = fs::remove_file(&self.temp);
        }
    }
}
