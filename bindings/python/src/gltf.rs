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
