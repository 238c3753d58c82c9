//! `to_gltf()`: an animation file's animations as glTF 2.0 on a model's skeleton, the bytes
//! `gtastream convert --to glb|gltf --skeleton MODEL` writes (`gtastream::gltf::export`).

use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::sample::host;
use crate::{decode_error, with_bytes};

/// The animations of `data` (an IFP or Stories file, or an archive entry's bytes) as glTF 2.0
/// on the skeleton of `skeleton` (a model's DFF bytes), bound as `game` ("iii", "vc", "sa",
/// "mta"; None: the files' default) binds; only the `animations` named (any case; None: all).
///
/// Returns {"bytes": the .glb (with `json`, the .gltf), "animations": how many it holds,
/// "empty": the animations left out (no track to write), "unwritten": [{"animation", "track",
/// "name", "bone_id", "reason", "message", "key"?, "by"?}]}: the object JavaScript's
/// `toGltf` gives. Raises DecodeError where a file does not decode ("not_found" for an
/// animation the file lacks), ValueError where `skeleton` is no model.
#[pyfunction]
#[pyo3(signature = (data, skeleton, animations = None, game = None, json = false))]
pub(crate) fn to_gltf(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    skeleton: &Bound<'_, PyAny>,
    animations: Option<Vec<String>>,
    game: Option<&str>,
    json: bool,
) -> PyResult<Py<PyAny>> {
    use gtastream::gltf::export::{export, ExportError, Options};
    let options = Options {
        host: game.map(host).transpose()?,
        animations: animations.unwrap_or_default(),
    };
    let skeleton = crate::model_skeleton(py, skeleton)?;
    let written = with_bytes(data, |bytes| match export(bytes, &skeleton, &options) {
        Ok(written) => Ok(written),
        Err(ExportError::Decode(e)) => Err(decode_error(py, e)),
        // As the sampler reports a name it lacks: `not_found` at offset 0, the name in the
        // message.
        Err(missing @ ExportError::NoAnimation(_)) => {
            let kind = gtastream::ErrorKind::NotFound;
            let err = decode_error(py, gtastream::Error { kind, offset: 0 });
            let message = crate::DecodeError::new_err(missing.to_string());
            for attribute in ["kind", "reason", "offset", "animation", "bone", "line"] {
                let value = err.value(py).getattr(attribute)?;
                message.value(py).setattr(attribute, value)?;
            }
            Err(message)
        }
    })?;
    let file = if json {
        written.to_gltf()
    } else {
        written.to_glb()
    };
    let report = written.report().to_string();
    let result = py.import("json")?.getattr("loads")?.call1((report,))?;
    result.set_item("bytes", PyBytes::new(py, &file))?;
    Ok(result.unbind())
}

/// The `EncodeError` for an import that failed: its kind (`glb`, `json`, `key`, `unmapped`,
/// `check`, ...) and the message naming the animation, node or key.
fn import_error(py: Python<'_>, error: gtastream::gltf::import::ImportError) -> PyErr {
    let err = crate::write::EncodeError::new_err(error.to_string());
    let value = err.value(py);
    // Setting attributes on a fresh exception instance does not fail.
    let _ = value.setattr("kind", error.kind.name());
    let _ = value.setattr("reason", error.message.clone());
    err
}

/// A `.glb` (or a `.gltf` with its buffers embedded) written as an IFP, as `gtastream convert
/// --to FORMAT IN.glb OUT.ifp` writes it (docs/ANIMATION.md, "From glTF"); returns {"bytes",
/// "animations", "notes", "report"}, the object JavaScript's `fromGltf` gives.
#[pyfunction]
#[pyo3(signature = (data, format = "anp3", block = "ped", animations = None, skeleton = None,
    bone_map = None, resample = None, quantize = false, games = None, report = false))]
#[allow(clippy::too_many_arguments)] // the options of `convert`, by keyword
pub(crate) fn from_gltf(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    format: &str,
    block: &str,
    animations: Option<Vec<String>>,
    skeleton: Option<&Bound<'_, PyAny>>,
    bone_map: Option<&str>,
    resample: Option<u32>,
    quantize: bool,
    games: Option<Vec<String>>,
    report: bool,
) -> PyResult<Py<PyAny>> {
    use gtastream::check::Games;
    use gtastream::gltf::import::{import, read, BoneMap, ImportOptions};
    use gtastream::Format;
    use pyo3::exceptions::PyValueError;
    let target = Format::named(format.as_bytes())
        .filter(|f| matches!(f, Format::Anp3 | Format::Anp2 | Format::Anpk))
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "from_gltf writes anp3, anp2 or anpk, not {format:?}"
            ))
        })?;
    let skeleton = skeleton.map(|m| crate::model_skeleton(py, m)).transpose()?;
    let bone_map = (bone_map.map(BoneMap::parse).transpose()).map_err(|e| import_error(py, e))?;
    let games = match games {
        None => None,
        Some(names) => Some(names.iter().try_fold(Games::NONE, |all, name| {
            Games::from_name(name)
                .map(|g| all.union(g))
                .ok_or_else(|| PyValueError::new_err(format!("{name:?} is not a game")))
        })?),
    };
    let mut options = ImportOptions::new(target, block);
    options.animations = animations.unwrap_or_default();
    options.skeleton = skeleton.as_deref();
    options.bone_map = bone_map.as_ref();
    options.resample = resample;
    options.quantize = quantize;
    options.games = games;
    options.report = report;
    let imported = with_bytes(data, |bytes| {
        let mut beside = |uri: &str| {
            Err(format!(
                "`{uri}`: a buffer beside the file is not read here (give a .glb, or a .gltf \
                 with its buffers embedded)"
            ))
        };
        let gltf = read(bytes, &mut beside).map_err(|e| import_error(py, e))?;
        import(&gltf, &options).map_err(|e| import_error(py, e))
    })?;
    let summary = imported.summary().to_string();
    let result = py.import("json")?.getattr("loads")?.call1((summary,))?;
    result.set_item("bytes", PyBytes::new(py, &imported.bytes))?;
    Ok(result.unbind())
}
