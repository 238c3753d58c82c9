//! `sample()`: the games' pose of one animation, by the core's `Sampler` (docs/ANIMATION.md).
//! One time gives the document `gtastream sample --json` prints; many times give numpy arrays.

use numpy::ndarray::Array2;
use numpy::{PyArray2, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{IntoPyDict, PyDict, PyList};

use crate::{decode_error, latin1, with_bytes};

/// A game's binding by the name `check --game` takes.
pub(crate) fn host(game: &str) -> PyResult<gtastream::rig::Host> {
    use gtastream::rig::Host;
    match game {
        "iii" => Ok(Host::Iii),
        "vc" => Ok(Host::ViceCity),
        "sa" => Ok(Host::SanAndreas),
        "mta" => Ok(Host::Mta),
        _ => Err(PyValueError::new_err(format!(
            "{game:?} is not a game (iii, vc, sa, mta)"
        ))),
    }
}

/// Most bones of one sampled animation.
const BONES: usize = 256;

/// The pose of the animation named `animation` (any case, trimmed) at `time` seconds, as the
/// games compute it.
///
/// `time` a number: the dict `gtastream sample --json` prints, {"animation", "time", "bones":
/// [{"name", "bone_id", "rotation": [x, y, z, w], "translation": [x, y, z] | None}]}.
/// `time` a sequence or numpy array of T times: {"animation", "times": float32 array (T,),
/// "bones": [{"name", "bone_id", "rotation": float32 array (T, 4), "translation": (T, 3) |
/// None}]}. With `loop`, times wrap by the animation's length, each bone on its own keys.
/// With `skeleton` (a model's DFF bytes) and one time: the dict `gtastream sample --skeleton
/// MODEL --json` prints (docs/SKELETON.md §3), each bone's "frame" and "unbound" and every
/// frame of the model in model space, bound as `game` ("iii", "vc", "sa", "mta"; None: the
/// default for the files) binds.
/// Raises DecodeError (kind "not_found", "endless", "bad_time", or a decoding error).
#[pyfunction]
#[pyo3(signature = (data, animation, time, r#loop = false, skeleton = None, game = None))]
pub(crate) fn sample(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    animation: &str,
    time: &Bound<'_, PyAny>,
    r#loop: bool,
    skeleton: Option<&Bound<'_, PyAny>>,
    game: Option<&str>,
) -> PyResult<Py<PyAny>> {
    let name: Vec<u8> = animation.chars().map(|c| c as u32 as u8).collect();
    if let Some(model) = skeleton {
        let host = match game {
            None => None,
            Some(game) => Some(host(game)?),
        };
        let t: f64 = time.extract().map_err(|_| {
            PyValueError::new_err("sample() on a skeleton takes one time (a number)")
        })?;
        let skeleton = crate::model_skeleton(py, model)?;
        let text = with_bytes(data, |bytes| {
            let mut text = String::new();
            let written = gtastream::json::write_pose_document_on(
                &mut text, bytes, &name, &skeleton, host, t as f32, r#loop,
            );
            match written {
                Ok(()) => Ok(text),
                Err(gtastream::json::JsonError::Decode(e)) => Err(decode_error(py, e)),
                Err(gtastream::json::JsonError::Write) => unreachable!("a String takes all text"),
            }
        })?;
        let loads = py.import("json")?.getattr("loads")?;
        return Ok(loads.call1((text,))?.unbind());
    }
    with_bytes(data, |bytes| {
        let sampler = gtastream::Sampler::<BONES>::new(bytes, &name)
            .map_err(|error| decode_error(py, error))?;
        if let Ok(t) = time.extract::<f64>() {
            let mut text = String::new();
            match gtastream::json::write_pose(&mut text, &sampler, t as f32, r#loop) {
                Ok(()) => {}
                Err(gtastream::json::JsonError::Decode(e)) => return Err(decode_error(py, e)),
                Err(gtastream::json::JsonError::Write) => unreachable!("a String takes all text"),
            }
            let loads = py.import("json")?.getattr("loads")?;
            return Ok(loads.call1((text,))?.unbind());
        }
        let times = py
            .import("numpy")?
            .getattr("asarray")?
            .call((time,), Some(&[("dtype", "float32")].into_py_dict(py)?))?
            .call_method0("ravel")?;
        let times: PyReadonlyArray1<'_, f32> = times.extract()?;
        let times = times.as_slice()?.to_vec();
        many(py, &sampler, &times, r#loop)
    })
}

fn many(
    py: Python<'_>,
    sampler: &gtastream::Sampler<'_, BONES>,
    times: &[f32],
    looped: bool,
) -> PyResult<Py<PyAny>> {
    let bones = sampler.bone_count();
    let mut rotations = vec![Vec::with_capacity(times.len() * 4); bones];
    let mut translations: Vec<Option<Vec<f32>>> = vec![None; bones];
    let mut heads: Vec<(Option<String>, Option<i32>)> = Vec::with_capacity(bones);
    for (step, &t) in times.iter().enumerate() {
        let mut i = 0;
        sampler
            .sample(t, looped, |pose| {
                if step == 0 {
                    heads.push((pose.name.map(latin1), pose.bone_id));
                }
                rotations[i].extend_from_slice(&pose.rotation);
                if let Some(tr) = pose.translation {
                    translations[i]
                        .get_or_insert_with(|| Vec::with_capacity(times.len() * 3))
                        .extend_from_slice(&tr);
                }
                i += 1;
            })
            .map_err(|error| decode_error(py, error))?;
    }
    if times.is_empty() {
        // No time: the bones and which have a translation, with no rows.
        for (i, translation) in translations.iter_mut().enumerate() {
            if let Some(Ok(pose)) = sampler.bone_pose(i, 0.0, false) {
                heads.push((pose.name.map(latin1), pose.bone_id));
                if pose.translation.is_some() {
                    *translation = Some(Vec::new());
                }
            }
        }
    }
    let matrix = |values: Vec<f32>, width: usize| -> PyResult<Bound<'_, PyArray2<f32>>> {
        let rows = values.len() / width;
        let array = Array2::from_shape_vec((rows, width), values)
            .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
        Ok(PyArray2::from_owned_array(py, array))
    };
    let list = PyList::empty(py);
    for ((head, rotation), translation) in heads.into_iter().zip(rotations).zip(translations) {
        let bone = PyDict::new(py);
        bone.set_item("name", head.0)?;
        bone.set_item("bone_id", head.1)?;
        bone.set_item("rotation", matrix(rotation, 4)?)?;
        match translation {
            Some(values) => bone.set_item("translation", matrix(values, 3)?)?,
            None => bone.set_item("translation", py.None())?,
        }
        list.append(bone)?;
    }
    let out = PyDict::new(py);
    out.set_item("animation", latin1(sampler.name()))?;
    out.set_item("times", numpy::PyArray1::from_vec(py, times.to_vec()))?;
    out.set_item("bones", list)?;
    Ok(out.into_any().unbind())
}
