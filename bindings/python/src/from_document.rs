//! `write()` of a `decode()` document: its dicts read back into the encoder's events, with the
//! units as stored (`raw`, `trailing`) that bring an unedited file back byte for byte
//! (docs/FORMATS.md §9.7). Every format rule stays the encoder's; this only reads the dicts.

use gtastream::encode::{EncodeOptions, EncodeWarnings, Encoder};
use gtastream::{Format, FrameType, IplCar, IplInstance, Keyframe};
use pyo3::exceptions::PyValueError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString};

use crate::write::{
    encode_animations, encode_error, encode_placement_with, latin1, AnimationData, BoneData,
    FileData,
};

/// The formats by their names in the document (`Format::name`).
const FORMATS: [Format; 6] = [
    Format::Anp3,
    Format::Anp2,
    Format::Anpk,
    Format::Anim,
    Format::IplBinary,
    Format::IplText,
];

/// The frame types by their names in the document (`FrameType::name`).
const FRAME_TYPES: [FrameType; 9] = [
    FrameType::Ifp2Rot,
    FrameType::Ifp2RotTrans,
    FrameType::Ifp2PackedRot,
    FrameType::Ifp2PackedRotTrans,
    FrameType::Kr00,
    FrameType::Krt0,
    FrameType::Krts,
    FrameType::StoriesRot,
    FrameType::StoriesRotTrans,
];

fn invalid(what: String) -> PyErr {
    PyValueError::new_err(format!("not a decode() document: {what}"))
}

/// `dict[key]`, which the document must have.
fn item<'py>(dict: &Bound<'py, PyAny>, key: &Bound<'py, PyString>) -> PyResult<Bound<'py, PyAny>> {
    let dict = dict
        .cast::<PyDict>()
        .map_err(|_| invalid(format!("a dict was expected where {key} is")))?;
    dict.get_item(key)?
        .ok_or_else(|| invalid(format!("{key:?} is missing")))
}

/// A number of the document: None (NaN or an infinity in the file) is written as NaN.
fn float(value: &Bound<'_, PyAny>) -> PyResult<f32> {
    if value.is_none() {
        return Ok(f32::NAN);
    }
    Ok(value.extract::<f64>()? as f32)
}

fn floats<const N: usize>(value: &Bound<'_, PyAny>) -> PyResult<[f32; N]> {
    let values: Vec<Bound<'_, PyAny>> = value.extract()?;
    let values: [Bound<'_, PyAny>; N] = values
        .try_into()
        .map_err(|_| invalid(format!("a list of {N} numbers was expected")))?;
    let mut out = [0.0; N];
    for (out, value) in out.iter_mut().zip(&values) {
        *out = float(value)?;
    }
    Ok(out)
}

/// A name (str, one character per byte) or None.
fn name(py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<Option<Vec<u8>>> {
    let name: Option<String> = value.extract()?;
    name.as_deref()
        .map(latin1)
        .transpose()
        .map_err(|error| encode_error(py, error))
}

/// Stored bytes (bytes) or None: none kept.
fn stored(value: Option<Bound<'_, PyAny>>) -> PyResult<Vec<u8>> {
    match value {
        Some(value) if !value.is_none() => Ok(value.cast::<PyBytes>()?.as_bytes().to_vec()),
        _ => Ok(Vec::new()),
    }
}

/// An optional key's value: a document from before the stored units has none.
fn optional<'py>(
    dict: &Bound<'py, PyAny>,
    key: &Bound<'py, PyString>,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    dict.cast::<PyDict>()?.get_item(key)
}

fn named<T: Copy>(
    table: &[T],
    name: &str,
    what: &str,
    of: impl Fn(T) -> &'static str,
) -> PyResult<T> {
    table
        .iter()
        .copied()
        .find(|&t| of(t) == name)
        .ok_or_else(|| invalid(format!("{name:?} is not a {what}")))
}

/// Encodes a `decode()` document in `format` (None: its own).
pub fn encode_document(
    py: Python<'_>,
    doc: &Bound<'_, PyAny>,
    format: Option<Format>,
    options: EncodeOptions,
) -> PyResult<(Vec<u8>, EncodeWarnings)> {
    let source: String = item(doc, intern!(py, "format"))?.extract()?;
    let source = named(&FORMATS, &source, "format", Format::name)?;
    let formats = (source, format.unwrap_or(source));
    let file = FileData {
        name: name(py, &item(doc, intern!(py, "name"))?)?,
        raw: stored(optional(doc, intern!(py, "raw"))?)?,
        trailing: stored(optional(doc, intern!(py, "trailing"))?)?,
    };
    if source.is_animation() {
        let animations = item(doc, intern!(py, "animations"))?;
        let animations = animations
            .try_iter()?
            .map(|animation| self::animation(py, &animation?));
        return encode_animations(py, formats, options, &file, animations);
    }
    encode_placement_with(py, formats, options, &file, |encoder| {
        placements(py, doc, encoder)
    })
}

fn animation(py: Python<'_>, animation: &Bound<'_, PyAny>) -> PyResult<AnimationData> {
    let bones = item(animation, intern!(py, "bones"))?
        .try_iter()?
        .map(|bone| self::bone(py, &bone?))
        .collect::<PyResult<_>>()?;
    Ok(AnimationData {
        name: name(py, &item(animation, intern!(py, "name"))?)?.unwrap_or_default(),
        raw: stored(optional(animation, intern!(py, "raw"))?)?,
        bones,
    })
}

fn bone(py: Python<'_>, bone: &Bound<'_, PyAny>) -> PyResult<BoneData> {
    let frame_type: String = item(bone, intern!(py, "frame_type"))?.extract()?;
    let frame_type = named(&FRAME_TYPES, &frame_type, "frame type", FrameType::name)?;
    let frames = item(bone, intern!(py, "frames"))?
        .try_iter()?
        .map(|frame| keyframe(py, &frame?, frame_type))
        .collect::<PyResult<_>>()?;
    Ok(BoneData {
        name: name(py, &item(bone, intern!(py, "name"))?)?,
        bone_id: item(bone, intern!(py, "bone_id"))?.extract()?,
        bone_key: item(bone, intern!(py, "bone_key"))?.extract()?,
        frame_type,
        raw: stored(optional(bone, intern!(py, "raw"))?)?,
        frames,
    })
}

fn keyframe(py: Python<'_>, frame: &Bound<'_, PyAny>, frame_type: FrameType) -> PyResult<Keyframe> {
    let mut keyframe = Keyframe {
        time: float(&item(frame, intern!(py, "time"))?)?,
        rotation: floats(&item(frame, intern!(py, "rotation"))?)?,
        ..Keyframe::default()
    };
    if frame_type.has_translation() {
        keyframe.translation = floats(&item(frame, intern!(py, "translation"))?)?;
    }
    if frame_type.has_scale() {
        keyframe.scale = floats(&item(frame, intern!(py, "scale"))?)?;
    }
    Ok(keyframe)
}

/// A placement document's instances, cars and section lines, into the encoder.
fn placements(
    py: Python<'_>,
    doc: &Bound<'_, PyAny>,
    encoder: &mut Encoder<Vec<u8>>,
) -> PyResult<()> {
    let fail = |error| encode_error(py, error);
    for instance in item(doc, intern!(py, "instances"))?.try_iter()? {
        let i = instance?;
        let model_name = name(py, &item(&i, intern!(py, "model_name"))?)?;
        let scale = item(&i, intern!(py, "scale"))?;
        let mut instance = IplInstance::default();
        instance.position = floats(&item(&i, intern!(py, "position"))?)?;
        instance.rotation = floats(&item(&i, intern!(py, "rotation"))?)?;
        instance.model_id = item(&i, intern!(py, "model_id"))?.extract()?;
        instance.interior = item(&i, intern!(py, "interior"))?.extract()?;
        instance.lod = item(&i, intern!(py, "lod"))?.extract()?;
        instance.model_name = model_name.as_deref();
        instance.scale = (!scale.is_none()).then(|| floats(&scale)).transpose()?;
        encoder.instance(&instance).map_err(fail)?;
    }
    for car in item(doc, intern!(py, "cars"))?.try_iter()? {
        let c = car?;
        let int = |key: &Bound<'_, PyString>| item(&c, key)?.extract::<i32>();
        let mut car = IplCar::default();
        car.position = floats(&item(&c, intern!(py, "position"))?)?;
        car.angle = float(&item(&c, intern!(py, "angle"))?)?;
        car.model_id = int(intern!(py, "model_id"))?;
        car.primary_color = int(intern!(py, "primary_color"))?;
        car.secondary_color = int(intern!(py, "secondary_color"))?;
        car.flags = int(intern!(py, "flags"))?;
        car.alarm_chance = int(intern!(py, "alarm_chance"))?;
        car.door_lock_chance = int(intern!(py, "door_lock_chance"))?;
        car.min_delay = int(intern!(py, "min_delay"))?;
        car.max_delay = int(intern!(py, "max_delay"))?;
        encoder.car(&car).map_err(fail)?;
    }
    for line in item(doc, intern!(py, "section_lines"))?.try_iter()? {
        let line = line?;
        let section: String = item(&line, intern!(py, "section"))?.extract()?;
        let text = name(py, &item(&line, intern!(py, "text"))?)?.unwrap_or_default();
        encoder.section_line(&section, &text).map_err(fail)?;
    }
    Ok(())
}
