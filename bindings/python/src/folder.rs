//! `check_folder`: a game or mod folder checked as the game loads it, the document
//! `gtastream check --json DIR` prints. The walk and the document are the core's
//! (`check::json::write_folder_document`); this module only reaches the files: a folder on
//! disk (the core's `DirFiles`), or a host's own files (a mapping of relative paths to bytes,
//! or a callable that opens a path) through `ModFiles`.

use std::collections::HashMap;
use std::path::PathBuf;

use gtastream::check::folder::DirFiles;
use gtastream::check::json::{write_folder_document, FolderDocumentError};
use gtastream::check::walk::{ModFiles, WalkError};
use gtastream::check::Games;
use gtastream::Game;
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyNotADirectoryError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyMapping, PyString};

use crate::{bytes_of, latin1};

create_exception!(
    gtastream,
    FolderError,
    PyException,
    "A folder cannot be checked at all. `kind` is why: `no_game` (no data/gta.dat, \
     data/gta_vc.dat or data/gta3.dat), `several_games` (the level files of several games are \
     there: name the game), `no_level_file` (the named game's level file is not there); \
     `reason` the core's words, which the message (`NAME: reason`) repeats."
);

fn folder_error(py: Python<'_>, name: &str, error: WalkError) -> PyErr {
    let kind = match error {
        WalkError::NoGame => "no_game",
        WalkError::SeveralGames => "several_games",
        WalkError::NoLevelFile(_) => "no_level_file",
        _ => "walk",
    };
    let reason = error.to_string();
    let err = FolderError::new_err(format!("{name}: {reason}"));
    let value = err.value(py);
    // Setting attributes on a fresh exception instance does not fail.
    let _ = value.setattr("kind", kind);
    let _ = value.setattr("reason", reason);
    err
}

/// A path as the games resolve it: any case, either slash, empty and `.` parts dropped.
fn folded(path: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(path.len());
    for part in path
        .split(|&b| b == b'/' || b == b'\\')
        .filter(|p| !p.is_empty() && *p != b".")
    {
        if !out.is_empty() {
            out.push(b'/');
        }
        out.extend(part.iter().map(u8::to_ascii_lowercase));
    }
    out
}

/// A mapping key's bytes: Latin-1 (one byte per character, as the package names stored
/// bytes), or UTF-8 past it; a bytes key as it is.
fn key_bytes(key: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(bytes) = key.cast::<PyBytes>() {
        return Ok(bytes.as_bytes().to_vec());
    }
    let text: String = key.extract().map_err(|_| {
        PyTypeError::new_err("a folder mapping's keys are relative paths (str or bytes)")
    })?;
    Ok(text
        .chars()
        .map(|c| u8::try_from(c).ok())
        .collect::<Option<Vec<u8>>>()
        .unwrap_or_else(|| text.into_bytes()))
}

/// How a host hands its files over.
enum Opener<'py> {
    /// A mapping of relative paths to bytes, its keys folded ([`folded`]); a value is read
    /// only when the walk opens its file (a lazy mapping over a zip reads only those).
    Mapping {
        mapping: Bound<'py, PyMapping>,
        keys: HashMap<Vec<u8>, Bound<'py, PyAny>>,
    },
    /// `opener(path)`: the path as the level file writes it; bytes, or None for no file.
    Callable(Bound<'py, PyAny>),
}

/// A host's files. An exception the host raises ends the reading (every later file is
/// missing) and is raised once the walk returns.
struct HostFiles<'py> {
    opener: Opener<'py>,
    raised: Option<PyErr>,
}

impl<'py> HostFiles<'py> {
    fn new(source: &Bound<'py, PyAny>) -> PyResult<Self> {
        let opener = if let Ok(mapping) = source.cast::<PyMapping>() {
            let mut keys = HashMap::new();
            for key in mapping.keys()?.iter() {
                keys.insert(folded(&key_bytes(&key)?), key);
            }
            Opener::Mapping {
                mapping: mapping.clone(),
                keys,
            }
        } else if source.is_callable() {
            Opener::Callable(source.clone())
        } else {
            return Err(PyTypeError::new_err(format!(
                "a folder is a path, a mapping of relative paths to bytes, or a callable that \
                 opens a path, not {}",
                source
                    .get_type()
                    .name()
                    .map_or_else(|_| "?".to_string(), |n| n.to_string())
            )));
        };
        Ok(HostFiles {
            opener,
            raised: None,
        })
    }

    fn try_open(&self, path: &[u8]) -> PyResult<Option<Bound<'py, PyBytes>>> {
        let value = match &self.opener {
            Opener::Mapping { mapping, keys } => match keys.get(&folded(path)) {
                Some(key) => mapping.get_item(key)?,
                None => return Ok(None),
            },
            Opener::Callable(opener) => opener.call1((latin1(path),))?,
        };
        if value.is_none() {
            return Ok(None);
        }
        bytes_of(&value).map(Some)
    }

    fn open(&mut self, path: &[u8]) -> Option<Bound<'py, PyBytes>> {
        if self.raised.is_some() {
            return None;
        }
        self.try_open(path).unwrap_or_else(|error| {
            self.raised = Some(error);
            None
        })
    }
}

/// A file the walk opened: on disk (with the number of the layer that opened it) or the
/// host's bytes.
enum Open<'py> {
    Disk(usize, std::fs::File),
    Bytes(Bound<'py, PyBytes>),
}

/// Where files are looked up: a folder on disk or a host's files.
enum Layer<'py> {
    Disk(DirFiles),
    Host(HostFiles<'py>),
}

/// The folder checked, then the base it is checked against: a path is looked up in the
/// first layer that has it. Used when a host's files are among them (a walk over folders on
/// disk alone goes through `DirFiles` without holding the GIL).
struct Layers<'py>(Vec<Layer<'py>>);

impl<'py> ModFiles for Layers<'py> {
    type File = Open<'py>;
    type Error = std::io::Error;

    fn open(&mut self, path: &[u8]) -> Option<Open<'py>> {
        self.0
            .iter_mut()
            .enumerate()
            .find_map(|(at, layer)| match layer {
                Layer::Disk(dir) => dir.open(path).map(|file| Open::Disk(at, file)),
                Layer::Host(host) => host.open(path).map(Open::Bytes),
            })
    }

    fn len(&mut self, file: &mut Open<'py>) -> std::io::Result<u64> {
        match file {
            Open::Disk(_, file) => Ok(file.metadata()?.len()),
            Open::Bytes(bytes) => Ok(bytes.as_bytes().len() as u64),
        }
    }

    fn read_at(
        &mut self,
        file: &mut Open<'py>,
        offset: u64,
        buf: &mut [u8],
    ) -> std::io::Result<usize> {
        match file {
            Open::Disk(at, file) => match &mut self.0[*at] {
                Layer::Disk(dir) => dir.read_at(file, offset, buf),
                // Not reached: only a folder's layer opens files on disk.
                Layer::Host(_) => Err(std::io::Error::other("not a folder's file")),
            },
            Open::Bytes(bytes) => {
                let bytes = bytes.as_bytes();
                let from = usize::try_from(offset).map_or(bytes.len(), |o| o.min(bytes.len()));
                let len = buf.len().min(bytes.len() - from);
                buf[..len].copy_from_slice(&bytes[from..from + len]);
                Ok(len)
            }
        }
    }
}

/// A folder argument: a path (str or os.PathLike) to a directory, else a host's files.
enum Source<'py> {
    Path(PathBuf),
    Host(HostFiles<'py>),
}

fn source<'py>(value: &Bound<'py, PyAny>) -> PyResult<Source<'py>> {
    let is_path = value.is_instance_of::<PyString>()
        || value.hasattr(pyo3::intern!(value.py(), "__fspath__"))?;
    if !is_path {
        return HostFiles::new(value).map(Source::Host);
    }
    let path: PathBuf = value.extract()?;
    let metadata = std::fs::metadata(&path).map_err(|error| {
        pyo3::exceptions::PyOSError::new_err((
            error.raw_os_error().unwrap_or(0),
            error.to_string(),
            path.display().to_string(),
        ))
    })?;
    if !metadata.is_dir() {
        return Err(PyNotADirectoryError::new_err(format!(
            "{}: not a folder",
            path.display()
        )));
    }
    Ok(Source::Path(path))
}

impl<'py> Source<'py> {
    fn layer(self) -> Layer<'py> {
        match self {
            Source::Path(path) => Layer::Disk(DirFiles::new(&path, None)),
            Source::Host(host) => Layer::Host(host),
        }
    }
}

/// Checks a game or mod folder as the game loads it (docs/CHECKS.md, "Whole folders"): the
/// document `gtastream check --json DIR` prints, as a dict.
///
/// `folder`: a path to the folder, or the host's own files: a mapping of relative paths to
/// bytes (its keys matched as the games match paths: any case, either slash), or a callable
/// given each path as the level file writes it, returning its bytes or None. `game`: "sa",
/// "vc" or "iii" (None: the level file found decides); `base`: a game folder (the same kinds)
/// the folder is checked against, a path looked up in `folder` first; `name`: the input's
/// "file" (the path as given, "" for a host's files). Raises FolderError where the folder
/// cannot be checked at all, OSError where a path is not a folder, and what the host's
/// mapping or callable raised.
#[pyfunction]
#[pyo3(signature = (folder, *, game = None, base = None, name = None))]
pub fn check_folder(
    py: Python<'_>,
    folder: &Bound<'_, PyAny>,
    game: Option<&str>,
    base: Option<&Bound<'_, PyAny>>,
    name: Option<String>,
) -> PyResult<Py<PyAny>> {
    let game: Option<Game> = game
        .map(|g| {
            Games::from_name(g).and_then(Games::layout).ok_or_else(|| {
                PyValueError::new_err(format!(
                    "{g:?}: a folder is checked for one game: \"sa\", \"vc\" or \"iii\""
                ))
            })
        })
        .transpose()?;
    let top = source(folder)?;
    let base = base.map(source).transpose()?;
    let name = name.unwrap_or_else(|| match &top {
        Source::Path(path) => path.to_string_lossy().into_owned(),
        Source::Host(_) => String::new(),
    });
    let mut text = String::new();
    let written = match (top, base) {
        (Source::Path(root), None) => py.detach(|| {
            write_folder_document(&mut text, &mut DirFiles::new(&root, None), &name, game)
        }),
        (Source::Path(root), Some(Source::Path(base))) => py.detach(|| {
            let mut files = DirFiles::new(&root, Some(&base));
            write_folder_document(&mut text, &mut files, &name, game)
        }),
        (top, base) => {
            let mut layers = Layers(vec![top.layer()]);
            layers.0.extend(base.map(Source::layer));
            let written = write_folder_document(&mut text, &mut layers, &name, game);
            // What the host raised comes first: it may be why no level file was found.
            for layer in &mut layers.0 {
                if let Layer::Host(host) = layer {
                    if let Some(error) = host.raised.take() {
                        return Err(error);
                    }
                }
            }
            written
        }
    };
    match written {
        Ok(()) => {}
        Err(FolderDocumentError::Walk(error)) => return Err(folder_error(py, &name, error)),
        // A String accepts all text.
        Err(FolderDocumentError::Write(_)) => {}
    }
    let loads = py.import("json")?.getattr("loads")?;
    Ok(loads.call1((text,))?.unbind())
}

/// Adds `check_folder` and `FolderError` to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("FolderError", m.py().get_type::<FolderError>())?;
    m.add_function(wrap_pyfunction!(check_folder, m)?)
}
