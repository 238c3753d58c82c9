//! IMG archives from Python: `write_archive()` builds one in memory through the core's
//! `ArchiveWriter`; `img_new()`, `img_add()`, `img_remove()` and `img_rebuild()` make and edit
//! archives on disk through `gtastream::archive::edit` (written beside, read back and compared,
//! renamed), as `gtastream img` does. Every rule (names, sizes, layout) is the core's.

use std::ops::ControlFlow;
use std::path::PathBuf;

use gtastream::archive::edit::{self, ArchivePaths, EditError, EditReport, NewEntry, Step};
use gtastream::archive::{ArchiveVersion, ArchiveWriteError, ArchiveWriter, SplitSink};
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyTuple};

use crate::{decode_error, latin1, with_bytes};

create_exception!(
    gtastream,
    ArchiveError,
    PyException,
    "An archive cannot be written as asked; nothing was changed on disk. `kind` is the error's \
     stable name (`name_too_long`, `invalid_name`, `entry_too_large`, `duplicate_name`, \
     `no_such_entry`, ...: the core's ArchiveWriteErrorKind), `entry` the name concerned \
     (or None)."
);

fn archive_error(py: Python<'_>, kind: &str, entry: Option<String>, message: String) -> PyErr {
    let err = ArchiveError::new_err(message);
    let value = err.value(py);
    // Setting attributes on a fresh exception instance does not fail.
    let _ = value.setattr("kind", kind);
    let _ = value.setattr("entry", entry);
    err
}

fn write_error(py: Python<'_>, error: ArchiveWriteError) -> PyErr {
    archive_error(
        py,
        error.kind.name(),
        Some(latin1(error.name())),
        error.to_string(),
    )
}

fn edit_error(py: Python<'_>, error: EditError) -> PyErr {
    match error {
        EditError::Write(error) => write_error(py, error),
        EditError::NoSuchEntry(name) => archive_error(
            py,
            "no_such_entry",
            Some(name.clone()),
            format!("no entry named {name}"),
        ),
        EditError::Read(gtastream::io::ReadError::Decode(error)) => decode_error(py, error),
        EditError::Verify(what) => archive_error(py, "verify", None, what),
        EditError::Io(error) => PyErr::from(error),
        // The error of the file's kind (FileNotFoundError, IsADirectoryError, ...), naming it.
        EditError::Source(path, error) => PyErr::from(std::io::Error::new(
            error.kind(),
            format!("{}: {error}", path.display()),
        )),
        other => PyOSError::new_err(other.to_string()),
    }
}

/// A name as bytes: a str is taken one character per byte (Latin-1, as names are given out).
fn name_bytes(name: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(text) = name.extract::<String>() {
        return text
            .chars()
            .map(|c| u8::try_from(u32::from(c)))
            .collect::<Result<_, _>>()
            .map_err(|_| PyValueError::new_err(format!("{text:?}: a name is Latin-1 text")));
    }
    with_bytes(name, |bytes| Ok(bytes.to_vec()))
}

/// Builds an archive in memory of `entries`, a sequence of (name, data) pairs in order.
///
/// Returns the bytes of a San Andreas VER2 archive, or with `v1=True` the pair (img, dir) of
/// a GTA III / Vice City one. Names must be ones the games read (1 to 23 bytes with a `.`);
/// raises ArchiveError naming the entry otherwise.
#[pyfunction]
#[pyo3(signature = (entries, *, v1 = false))]
fn write_archive<'py>(
    py: Python<'py>,
    entries: &Bound<'py, PyAny>,
    v1: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let mut pairs = Vec::new();
    for item in entries.try_iter()? {
        let item = item?;
        let (name, data): (Bound<'_, PyAny>, Bound<'_, PyAny>) = item.extract()?;
        pairs.push((name_bytes(&name)?, with_bytes(&data, |b| Ok(b.to_vec()))?));
    }
    let version = if v1 {
        ArchiveVersion::V1
    } else {
        ArchiveVersion::V2
    };
    let mut writer = ArchiveWriter::new(version, pairs.len() as u32);
    let mut sink = SplitSink {
        img: Vec::new(),
        dir: Vec::new(),
    };
    let result = if v1 {
        write_all(&mut writer, &mut sink, &pairs)
    } else {
        write_all(&mut writer, &mut sink.img, &pairs)
    };
    result.map_err(|error| write_error(py, error))?;
    let img = PyBytes::new(py, &sink.img);
    Ok(if v1 {
        PyTuple::new(py, [img, PyBytes::new(py, &sink.dir)])?.into_any()
    } else {
        img.into_any()
    })
}

fn write_all(
    writer: &mut ArchiveWriter,
    out: &mut impl gtastream::archive::ArchiveSink,
    pairs: &[(Vec<u8>, Vec<u8>)],
) -> Result<(), ArchiveWriteError> {
    for (name, data) in pairs {
        writer.begin_entry(out, name)?;
        writer.write(out, data)?;
        writer.end_entry(out)?;
    }
    writer.finish(out).map(drop)
}

/// The archive at `path`: a VER2 .img, or a version 1 .img or .dir (the other file beside it).
fn existing(path: PathBuf) -> PyResult<ArchivePaths> {
    match ArchivePaths::find(&path) {
        Ok(Some(paths)) => Ok(paths),
        Ok(None) => Err(PyValueError::new_err(format!(
            "{}: not an IMG archive (no VER2 magic, no .dir beside it)",
            path.display()
        ))),
        Err(error) => Err(PyOSError::new_err(format!("{}: {error}", path.display()))),
    }
}

/// What an operation did, as a dict: entries, kept, replaced, added, removed, img_len.
fn report(py: Python<'_>, report: EditReport) -> PyResult<Bound<'_, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("entries", report.entries)?;
    dict.set_item("kept", report.kept)?;
    dict.set_item("replaced", report.replaced)?;
    dict.set_item("added", report.added)?;
    dict.set_item("removed", report.removed)?;
    dict.set_item("img_len", report.img_len)?;
    Ok(dict)
}

fn run<'py>(
    py: Python<'py>,
    operation: impl FnOnce() -> Result<EditReport, EditError> + Send,
) -> PyResult<Bound<'py, PyDict>> {
    let result = py.detach(operation);
    report(py, result.map_err(|error| edit_error(py, error))?)
}

/// The progress of an edit, unwatched: it always goes on.
fn go_on(_: Step<'_>) -> ControlFlow<()> {
    ControlFlow::Continue(())
}

fn new_entries(files: Vec<PathBuf>) -> Vec<NewEntry> {
    files.into_iter().map(NewEntry::from_path).collect()
}

/// Makes a new archive at `path` of `files` (each named after its file), refusing to replace
/// an existing one; `v1=True` makes a GTA III / Vice City pair (the .dir beside the .img).
#[pyfunction]
#[pyo3(signature = (path, files, *, v1 = false))]
fn img_new(
    py: Python<'_>,
    path: PathBuf,
    files: Vec<PathBuf>,
    v1: bool,
) -> PyResult<Bound<'_, PyDict>> {
    let paths = ArchivePaths {
        dir: v1.then(|| path.with_extension("dir")),
        img: path,
    };
    let entries = new_entries(files);
    run(py, || edit::create(&paths, &entries, &mut go_on))
}

/// Puts `files` into the archive: a name already there (ASCII case aside) is replaced in its
/// place, a new one appended.
#[pyfunction]
fn img_add(py: Python<'_>, path: PathBuf, files: Vec<PathBuf>) -> PyResult<Bound<'_, PyDict>> {
    let paths = existing(path)?;
    let entries = new_entries(files);
    run(py, || edit::add(&paths, &entries, &mut go_on))
}

/// Removes the entries named `names` (ASCII case aside).
#[pyfunction]
fn img_remove<'py>(
    py: Python<'py>,
    path: PathBuf,
    names: Vec<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let paths = existing(path)?;
    let names = names.iter().map(name_bytes).collect::<PyResult<Vec<_>>>()?;
    let names: Vec<&[u8]> = names.iter().map(Vec::as_slice).collect();
    run(py, || edit::remove(&paths, &names, &mut go_on))
}

/// Writes the archive anew, entries in their order, without holes and junk.
#[pyfunction]
fn img_rebuild(py: Python<'_>, path: PathBuf) -> PyResult<Bound<'_, PyDict>> {
    let paths = existing(path)?;
    run(py, || edit::rebuild(&paths, &mut go_on))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("ArchiveError", m.py().get_type::<ArchiveError>())?;
    m.add_function(wrap_pyfunction!(write_archive, m)?)?;
    m.add_function(wrap_pyfunction!(img_new, m)?)?;
    m.add_function(wrap_pyfunction!(img_add, m)?)?;
    m.add_function(wrap_pyfunction!(img_remove, m)?)?;
    m.add_function(wrap_pyfunction!(img_rebuild, m)?)?;
    Ok(())
}
