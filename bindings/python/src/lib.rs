//! `gtastream._native`: the Rust half of the `gtastream` Python package.
//!
//! Every format decision stays in the core crate: `decode` returns the document the core's
//! `json` module writes (the one `gtastream dump --json` prints), `load` copies the decoder's
//! events into numpy arrays, `events` hands the events over one at a time, and `write` /
//! `convert` drive the core's streaming encoder.

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyMemoryView};

mod archive;
mod document;
mod events;
mod folder;
mod from_document;
mod gltf;
mod load;
mod numbers;
mod records;
mod sample;
mod write;

create_exception!(
    gtastream,
    DecodeError,
    PyException,
    "The file did not decode. `kind` is the error's stable name (`truncated`, `bad_magic`, ...), \
     `reason` a short description, `offset` the absolute byte offset of the unit that failed, \
     `animation`, `bone` (0-based) and `line` (from 1) the place it failed in (None outside one); \
     the message is the command-line tool's: the place by index and name, and what was decoded \
     before the error."
);

/// The `DecodeError` for a decoding error of the core, with where it happened and what was
/// decoded before it (the message is the core's).
pub(crate) fn decode_failure(py: Python<'_>, failure: &gtastream::context::Failure) -> PyErr {
    let err = DecodeError::new_err(failure.to_string());
    let value = err.value(py);
    let (kind, context) = (failure.error.kind, &failure.context);
    // Setting attributes on a fresh exception instance does not fail.
    let _ = value.setattr("kind", kind.name());
    let _ = value.setattr("reason", kind.reason());
    let _ = value.setattr("offset", failure.offset());
    let _ = value.setattr("animation", context.animation.map(|a| a.index));
    let _ = value.setattr("bone", context.bone.map(|b| b.index));
    let _ = value.setattr("line", context.line);
    err
}

/// The `DecodeError` for a decoding error of the core where its place is not tracked.
pub(crate) fn decode_error(py: Python<'_>, error: gtastream::Error) -> PyErr {
    decode_failure(
        py,
        &gtastream::context::Failure {
            error,
            context: Default::default(),
            decoded: Default::default(),
        },
    )
}

/// Names are the stored bytes, one character per byte (Latin-1, docs/FORMATS.md §0).
pub(crate) fn latin1(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| char::from(b)).collect()
}

/// A warning as the JSON document has it: `{"kind", "reason", "offset", "animation", "bone",
/// "line"}`, the place from `context` (where the decoder was when it warned; the event
/// stream, whose events say the place, has none).
pub(crate) fn warning_dict<'py>(
    py: Python<'py>,
    warning: &gtastream::Warning,
    context: Option<&gtastream::context::Context>,
) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item(pyo3::intern!(py, "kind"), warning.kind.name())?;
    dict.set_item(pyo3::intern!(py, "reason"), warning.kind.reason())?;
    dict.set_item(pyo3::intern!(py, "offset"), warning.offset)?;
    let Some(context) = context else {
        return Ok(dict);
    };
    dict.set_item(
        pyo3::intern!(py, "animation"),
        context.animation.map(|a| a.index),
    )?;
    dict.set_item(pyo3::intern!(py, "bone"), context.bone.map(|b| b.index))?;
    dict.set_item(pyo3::intern!(py, "line"), context.line)?;
    Ok(dict)
}

/// Runs `f` on the bytes of a bytes-like object: `bytes` as they are, anything else with the
/// buffer protocol (bytearray, memoryview, mmap, array) through one copy. (`bytes(obj)` would
/// also take an int or an iterable; `memoryview(obj)` takes only buffers.)
pub(crate) fn with_bytes<R>(
    data: &Bound<'_, PyAny>,
    f: impl FnOnce(&[u8]) -> PyResult<R>,
) -> PyResult<R> {
    f(bytes_of(data)?.as_bytes())
}

/// A bytes-like object as `bytes`: itself, or one copy of its buffer (see [`with_bytes`]).
pub(crate) fn bytes_of<'py>(data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
    if let Ok(bytes) = data.cast::<PyBytes>() {
        return Ok(bytes.clone());
    }
    let view = data
        .py()
        .get_type::<PyMemoryView>()
        .call1((data,))
        .map_err(|_| {
            PyTypeError::new_err(format!(
                "expected a bytes-like object, not {}",
                data.get_type()
                    .name()
                    .map_or_else(|_| "?".to_string(), |n| n.to_string())
            ))
        })?;
    Ok(view
        .call_method0(pyo3::intern!(data.py(), "tobytes"))?
        .cast_into::<PyBytes>()?)
}

/// Decodes a whole file held in memory into the structure `gtastream dump --json` prints.
///
/// Returns a dict with "format", "name", "warnings" and either "animations" (animation
/// files) or "instances", "cars" and "section_lines" (placement files) or "objects" and
/// "section_lines" (item definitions, IDE), then the units as stored: "raw", "trailing",
/// and "stored" (placement and IDE files) or "blocks" and
/// "container_size" (an ANLF's: docs/FORMATS.md §10). NaN and infinities
/// are None; numbers are as JSON reads them (a whole-number float such as a time of 1.0
/// comes as the int 1, as `json.loads` gives it for the command's output). Raises
/// DecodeError where the command would fail. The objects are built in Rust as the file is
/// decoded, with no JSON text between.
#[pyfunction]
fn decode(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    // The document is millions of dicts and lists, none in a cycle: the cyclic collector,
    // which would scan the growing document again and again as they are made (six times the
    // decoding's own time on a 4 MiB package), is paused meanwhile.
    let gc = py.import("gc")?;
    let collecting = gc.call_method0("isenabled")?.is_truthy()?;
    gc.call_method0("disable")?;
    let result = with_bytes(data, |bytes| {
        let mut doc = document::Document::new(py);
        let mut decoder = gtastream::Decoder::with_options(gtastream::Options::default());
        match gtastream::context::decode_slice(&mut decoder, bytes, &mut doc) {
            Ok(()) => doc.finish(),
            // A Python error (out of memory) aborts the decoding: it is the one to raise.
            Err(failure) => Err(doc
                .take_error()
                .unwrap_or_else(|| decode_failure(py, &failure))),
        }
    });
    if collecting {
        gc.call_method0("enable")?;
    }
    result
}

/// Checks a file (or a version 2 IMG archive) held in memory against the games' loading rules
/// (docs/CHECKS.md): the structure `gtastream check --json NAME` prints, as a dict. `name`
/// is the file's name (its stem is the block name the game expects); `games` a list of "iii",
/// "vc", "sa", "mta" (every game that loads the format if None). A file that does not decode
/// is a finding, not an exception. `skeleton` (a model's DFF bytes): the file's animations are
/// also checked against its skeleton, as `check --skeleton MODEL` does (rules `skel.*`); a DFF
/// checked alone gets its skeleton report without it. `dir` (a version 1 archive's `.dir`
/// bytes): `data` is then its `.img`, checked as `gtastream check NAME.img` with the `.dir`
/// beside (format `VER1`).
#[pyfunction]
#[pyo3(signature = (data, name = None, games = None, skeleton = None, dir = None))]
fn check(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    name: Option<&str>,
    games: Option<Vec<String>>,
    skeleton: Option<&Bound<'_, PyAny>>,
    dir: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    use gtastream::check::Games;
    let games = match games {
        None => None,
        Some(names) => Some(names.iter().try_fold(Games::NONE, |set, name| {
            Games::from_name(name).map(|g| set.union(g)).ok_or_else(|| {
                pyo3::exceptions::PyValueError::new_err(format!(
                    "{name:?} is not a game (iii, vc, sa, mta)"
                ))
            })
        })?),
    };
    let name = name.unwrap_or("");
    if dir.is_some() && skeleton.is_some() {
        return Err(pyo3::exceptions::PyValueError::new_err(
            "a skeleton checks animation files, not a version 1 archive: give one of them",
        ));
    }
    let skeleton = skeleton
        .map(|model| model_skeleton(py, model))
        .transpose()?;
    let dir = dir.map(|d| with_bytes(d, |b| Ok(b.to_vec()))).transpose()?;
    let text = with_bytes(data, |bytes| {
        Ok(py.detach(|| {
            let mut text = String::new();
            // A String accepts all text.
            let _ = match &dir {
                Some(dir) => {
                    gtastream::check::json::write_v1_document(&mut text, dir, bytes, name, games)
                }
                None => gtastream::check::json::write_document_on(
                    &mut text,
                    bytes,
                    name,
                    games,
                    skeleton.as_deref(),
                ),
            };
            text
        }))
    })?;
    let loads = py.import("json")?.getattr("loads")?;
    Ok(loads.call1((text,))?.unbind())
}

/// The skeleton of a model's DFF bytes: DecodeError where they do not decode, ValueError where
/// they are another format or a model past the skeleton's bounds.
pub(crate) fn model_skeleton(
    py: Python<'_>,
    model: &Bound<'_, PyAny>,
) -> PyResult<Box<gtastream::rig::Skeleton>> {
    use gtastream::rig::ReadError;
    with_bytes(model, |bytes| match gtastream::rig::read_skeleton(bytes) {
        Ok(skeleton) => Ok(Box::new(skeleton)),
        Err(ReadError::Decode(e)) => Err(decode_error(py, e)),
        Err(other) => Err(pyo3::exceptions::PyValueError::new_err(format!(
            "skeleton: {other}"
        ))),
    })
}

/// The native module; the `gtastream` package re-exports it.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("DecodeError", py.get_type::<DecodeError>())?;
    m.add("EncodeError", py.get_type::<write::EncodeError>())?;
    m.add_function(wrap_pyfunction!(decode, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(load::load, m)?)?;
    m.add_function(wrap_pyfunction!(events::events, m)?)?;
    m.add_function(wrap_pyfunction!(write::write, m)?)?;
    m.add_function(wrap_pyfunction!(write::convert, m)?)?;
    m.add_function(wrap_pyfunction!(sample::sample, m)?)?;
    m.add_function(wrap_pyfunction!(gltf::to_gltf, m)?)?;
    m.add_function(wrap_pyfunction!(gltf::from_gltf, m)?)?;
    m.add_class::<load::Package>()?;
    m.add_class::<load::Animation>()?;
    m.add_class::<load::Bone>()?;
    m.add_class::<load::Placement>()?;
    m.add_class::<events::EventReader>()?;
    archive::register(m)?;
    folder::register(m)?;
    m.add("DECODER_SIZE", gtastream::DECODER_SIZE)?;
    Ok(())
}
