//! `write()` and `convert()`: files written by the core's streaming encoder (docs/FORMATS.md
//! §9). `write` feeds it the events of a loaded `Package` or `Placement`, rebuilt from their
//! arrays; `convert` feeds it a decoder's events, as `gtastream convert` does. Every format
//! rule (what fits, what is lossless, which frame type) is the encoder's.

use gtastream::encode::{
    BoneHeader, EncodeError as CoreError, EncodeOptions, EncodeWarnings, Encoder, Lookahead, Sink,
    SinkError,
};
use gtastream::{Decoder, ErrorKind, Format, FrameType, IplCar, IplInstance, Keyframe};
use numpy::{PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyUserWarning, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString};

use crate::load::{Animation, Bone, Package, Placement};
use crate::{decode_failure, with_bytes};

create_exception!(
    gtastream,
    EncodeError,
    PyException,
    "The file cannot be written as asked, because that would lose or change something. `kind` \
     is the error's stable name (`name_too_long`, `not_representable`, `unsupported_format`, \
     ...: the core's EncodeErrorKind), `reason` its short description; the message says what \
     cannot be written, as `gtastream convert` does."
);

/// The `EncodeError` for an encoding error of the core: its kind, reason and message.
pub(crate) fn encode_error(py: Python<'_>, error: CoreError) -> PyErr {
    let err = EncodeError::new_err(error.to_string());
    let value = err.value(py);
    // Setting attributes on a fresh exception instance does not fail.
    let _ = value.setattr("kind", error.kind().name());
    let _ = value.setattr("reason", error.kind().reason());
    err
}

/// A target format from its name, in any case (the names `gtastream convert --to` takes).
fn parse_format(name: &str) -> PyResult<Format> {
    Format::named(name.as_bytes())
        .filter(|f| f.is_writable())
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "`{name}` is not a format gtastream writes (anp3, anp2, anpk, bnry, text)"
            ))
        })
}

/// What the encoder dropped on purpose (an ANPK scale written to ANP3) becomes a UserWarning.
fn warn(py: Python<'_>, warnings: EncodeWarnings) -> PyResult<()> {
    let Some(first) = warnings.first else {
        return Ok(());
    };
    let more = match warnings.count {
        1 => String::new(),
        n => format!(" ({} more)", n - 1),
    };
    let message = format!(
        "{} in the output at offset {}{more}",
        first.kind.reason(),
        first.offset
    );
    let category = py.get_type::<PyUserWarning>();
    PyErr::warn(py, &category, &std::ffi::CString::new(message)?, 1)
}

/// The bytes of a name held as a Latin-1 string (one character per byte, as `load` gives it).
pub(crate) fn latin1(name: &str) -> Result<Vec<u8>, CoreError> {
    name.chars()
        .map(|c| u8::try_from(u32::from(c)).map_err(|_| CoreError::BadName))
        .collect()
}

/// Takes bytes and forgets them: the encoder run on one bone only to learn whether it accepts
/// the bone packed.
struct Discard;

impl Sink for Discard {
    fn write(&mut self, _: &[u8]) -> Result<(), SinkError> {
        Ok(())
    }
    fn patch(&mut self, _: u64, _: &[u8]) -> Result<(), SinkError> {
        Ok(())
    }
}

/// Whether the encoder writes these float frames packed without changing a value: what
/// `gtastream convert` learns by reading one bone ahead (`Lookahead`), asked of the encoder
/// itself. A bone without frames stays as the encoder decides.
fn packable(format: Format, header: &BoneHeader<'_>, frames: &[Keyframe]) -> bool {
    let Ok(mut probe) = Encoder::new(format, Discard, EncodeOptions::default()) else {
        return false;
    };
    let header = BoneHeader {
        name: None,
        bone_id: None,
        bone_key: None,
        ..*header
    };
    !frames.is_empty()
        && probe.file(None).is_ok()
        && probe.animation(b"").is_ok()
        && probe.bone_packable(&header).is_ok()
        && frames.iter().all(|frame| probe.keyframe(frame).is_ok())
        && probe.bone_end().is_ok()
}

fn shape_error(what: &str) -> PyErr {
    PyValueError::new_err(format!("{what} does not have one row per keyframe"))
}

/// A bone's keyframes from its arrays (as they are now: numpy arrays can be changed in place).
fn frames(py: Python<'_>, bone: &Bone) -> PyResult<Vec<Keyframe>> {
    let times = bone.times.bind(py).readonly();
    let times = times.as_array();
    let rotations = bone.rotations.bind(py).readonly();
    let rotations = rotations.as_array();
    let n = times.len();
    if rotations.shape() != [n, 4] {
        return Err(shape_error("rotations"));
    }
    let optional = |array: &Option<Py<numpy::PyArray2<f32>>>, what| {
        array
            .as_ref()
            .map(|a| {
                let a = a.bind(py).readonly();
                if a.as_array().shape() != [n, 3] {
                    return Err(shape_error(what));
                }
                Ok(a)
            })
            .transpose()
    };
    let translations = optional(&bone.translations, "translations")?;
    let scales = optional(&bone.scales, "scales")?;
    let row3 = |a: &Option<PyReadonlyArray2<'_, f32>>, i: usize| {
        a.as_ref().map_or([0.0; 3], |a| {
            let a = a.as_array();
            [a[[i, 0]], a[[i, 1]], a[[i, 2]]]
        })
    };
    Ok((0..n)
        .map(|i| Keyframe {
            time: times[i],
            rotation: [
                rotations[[i, 0]],
                rotations[[i, 1]],
                rotations[[i, 2]],
                rotations[[i, 3]],
            ],
            translation: row3(&translations, i),
            scale: row3(&scales, i),
        })
        .collect())
}

/// A bone to write: its header, its header as stored (empty: none) and its keyframes.
pub(crate) struct BoneData {
    pub name: Option<Vec<u8>>,
    pub bone_id: Option<i32>,
    pub bone_key: Option<u32>,
    pub frame_type: FrameType,
    pub raw: Vec<u8>,
    pub frames: Vec<Keyframe>,
}

/// An animation to write: its name, its header as stored (empty: none) and its bones.
pub(crate) struct AnimationData {
    pub name: Vec<u8>,
    pub raw: Vec<u8>,
    pub bones: Vec<BoneData>,
}

/// The file around the animations: its name, header as stored and the bytes after it; an
/// ANLF's blocks and the container's stored size.
#[derive(Default)]
pub(crate) struct FileData {
    pub name: Option<Vec<u8>>,
    pub raw: Vec<u8>,
    pub trailing: Vec<u8>,
    pub blocks: Vec<BlockData>,
    pub container_size: Option<u32>,
}

/// An ANLF block: its `file` event (name, header as stored) and how many of the animations,
/// in order, it holds.
#[derive(Clone)]
pub(crate) struct BlockData {
    pub name: Vec<u8>,
    pub raw: Vec<u8>,
    pub animations: usize,
}

/// Opens the file, or an ANLF block (None: the container's one file event of no blocks), as
/// the decoder's `file` events gave them. The first block is the file's name and header (as
/// edited), the others their own.
fn open_file(
    encoder: &mut Encoder<Vec<u8>>,
    file: &FileData,
    block: Option<&BlockData>,
    first: bool,
) -> Result<(), CoreError> {
    match (file.container_size, block) {
        (None, _) => encoder.file_raw(file.name.as_deref(), &file.raw),
        (Some(size), Some(_)) if first => {
            let name = file.name.as_deref().unwrap_or_default();
            encoder.file_in_container(Some(name), &file.raw, size)
        }
        (Some(size), Some(block)) => encoder.file_in_container(Some(&block.name), &block.raw, size),
        (Some(size), None) => encoder.file_in_container(None, &[], size),
    }
}

/// Encodes animations read from `source`: each bone in its stored frame type where the
/// target holds it (the encoder's `bone`), float bones of other formats packed into ANP3/ANP2
/// when that loses nothing, as `gtastream convert` does. The stored units are kept where the
/// encoder keeps them (written to their own format, not normalised: docs/FORMATS.md §9.7).
pub(crate) fn encode_animations(
    py: Python<'_>,
    (source, format): (Format, Format),
    options: EncodeOptions,
    file: &FileData,
    animations: impl Iterator<Item = PyResult<AnimationData>>,
) -> PyResult<(Vec<u8>, EncodeWarnings)> {
    let fail = |error| encode_error(py, error);
    let mut encoder = Encoder::new(format, Vec::new(), options).map_err(fail)?;
    if !format.is_animation() {
        return Err(fail(CoreError::CannotConvert(source, format)));
    }
    encoder.source(source);
    let ifp2 = matches!(format, Format::Anp3 | Format::Anp2);
    // Each ANLF block opens before its first animation; added animations join the last one.
    let mut blocks = file.blocks.iter();
    let mut left = match blocks.next() {
        Some(block) => {
            open_file(&mut encoder, file, Some(block), true).map_err(fail)?;
            block.animations
        }
        None => {
            open_file(&mut encoder, file, None, true).map_err(fail)?;
            usize::MAX
        }
    };
    for animation in animations {
        let animation = animation?;
        while left == 0 {
            match blocks.next() {
                Some(block) => {
                    open_file(&mut encoder, file, Some(block), false).map_err(fail)?;
                    left = block.animations;
                }
                None => left = usize::MAX,
            }
        }
        left -= 1;
        encoder
            .animation_raw(&animation.name, &animation.raw)
            .map_err(fail)?;
        for bone in &animation.bones {
            let header = BoneHeader {
                name: bone.name.as_deref(),
                bone_id: bone.bone_id,
                bone_key: bone.bone_key,
                frame_type: bone.frame_type,
            };
            // IFP2 float types are kept as they are; other formats' floats are packed only
            // where every value lies on the packed steps (docs/FORMATS.md §9.2).
            let pack = ifp2
                && !options.quantize
                && bone.frame_type.ifp2_type().is_none()
                && packable(format, &header, &bone.frames);
            if pack {
                encoder.bone_packable(&header)
            } else {
                encoder.bone_raw(&header, &bone.raw)
            }
            .map_err(fail)?;
            for frame in &bone.frames {
                encoder.keyframe(frame).map_err(fail)?;
            }
            encoder.bone_end().map_err(fail)?;
        }
        encoder.animation_end().map_err(fail)?;
    }
    for block in blocks {
        open_file(&mut encoder, file, Some(block), false).map_err(fail)?;
    }
    if !file.trailing.is_empty() {
        encoder.trailing(&file.trailing).map_err(fail)?;
    }
    encoder.end().map_err(fail)?;
    let warnings = encoder.warnings();
    Ok((encoder.into_sink(), warnings))
}

/// Encodes a loaded package, with the units it keeps as stored.
fn encode_package(
    py: Python<'_>,
    package: &Package,
    format: Format,
    options: EncodeOptions,
) -> PyResult<(Vec<u8>, EncodeWarnings)> {
    let fail = |error| encode_error(py, error);
    let name = package
        .name
        .as_deref()
        .map(latin1)
        .transpose()
        .map_err(fail)?;
    let file = FileData {
        name,
        raw: package.raw.clone(),
        trailing: package.trailing.clone(),
        blocks: package.blocks.clone(),
        container_size: package.container_size,
    };
    let animations = package.animations.iter().map(|animation| {
        let animation: &Animation = animation.get();
        let bones = animation
            .bones
            .iter()
            .map(|bone| {
                let bone: &Bone = bone.get();
                Ok(BoneData {
                    name: bone.name.as_deref().map(latin1).transpose().map_err(fail)?,
                    bone_id: bone.bone_id,
                    bone_key: bone.bone_key,
                    frame_type: bone.stored,
                    raw: bone.raw.clone(),
                    frames: frames(py, bone)?,
                })
            })
            .collect::<PyResult<_>>()?;
        Ok(AnimationData {
            name: latin1(&animation.name).map_err(fail)?,
            raw: animation.raw.clone(),
            bones,
        })
    });
    encode_animations(py, (package.source, format), options, &file, animations)
}

/// A column of a placement as a contiguous numpy array of `dtype` (lists are taken too).
fn column<'py>(
    columns: &Bound<'py, PyDict>,
    key: &str,
    dtype: &str,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    let py = columns.py();
    let Some(value) = columns.get_item(key)?.filter(|v| !v.is_none()) else {
        return Ok(None);
    };
    let array = py
        .import("numpy")?
        .call_method1("ascontiguousarray", (value, dtype))?;
    Ok(Some(array))
}

fn required<'py>(
    columns: &Bound<'py, PyDict>,
    key: &str,
    dtype: &str,
) -> PyResult<Bound<'py, PyAny>> {
    column(columns, key, dtype)?
        .ok_or_else(|| PyValueError::new_err(format!("the column {key:?} is missing")))
}

fn rows2<'py>(
    array: &Bound<'py, PyAny>,
    key: &str,
    n: usize,
    width: usize,
) -> PyResult<PyReadonlyArray2<'py, f32>> {
    let array: PyReadonlyArray2<'py, f32> = array.extract()?;
    if array.as_array().shape() != [n, width] {
        return Err(PyValueError::new_err(format!(
            "the column {key:?} is not of shape ({n}, {width})"
        )));
    }
    Ok(array)
}

fn rows1<'py, T: numpy::Element>(
    array: &Bound<'py, PyAny>,
    key: &str,
    n: usize,
) -> PyResult<PyReadonlyArray1<'py, T>> {
    let array: PyReadonlyArray1<'py, T> = array.extract()?;
    if array.as_array().len() != n {
        return Err(PyValueError::new_err(format!(
            "the column {key:?} does not have {n} rows"
        )));
    }
    Ok(array)
}

/// Encodes a placement read from `source`: `feed` gives the encoder its records and lines (a
/// document's in their stored order, a Placement's instances, cars, then the other sections'
/// lines); the stored units are kept as [`encode_animations`] keeps them.
pub(crate) fn encode_placement_with(
    py: Python<'_>,
    (source, format): (Format, Format),
    options: EncodeOptions,
    file: &FileData,
    feed: impl FnOnce(&mut Encoder<Vec<u8>>) -> PyResult<()>,
) -> PyResult<(Vec<u8>, EncodeWarnings)> {
    let fail = |error| encode_error(py, error);
    let mut encoder = Encoder::new(format, Vec::new(), options).map_err(fail)?;
    if format.is_animation() {
        return Err(fail(CoreError::CannotConvert(source, format)));
    }
    encoder.source(source);
    encoder.file_raw(None, &file.raw).map_err(fail)?;
    feed(&mut encoder)?;
    if !file.trailing.is_empty() {
        encoder.trailing(&file.trailing).map_err(fail)?;
    }
    encoder.end().map_err(fail)?;
    let warnings = encoder.warnings();
    Ok((encoder.into_sink(), warnings))
}

/// Encodes a loaded placement (which keeps no stored units) from its columns.
fn encode_placement(
    py: Python<'_>,
    placement: &Placement,
    format: Format,
) -> PyResult<(Vec<u8>, EncodeWarnings)> {
    let formats = (placement.source, format);
    let file = FileData::default();
    encode_placement_with(py, formats, EncodeOptions::default(), &file, |encoder| {
        placement_events(py, placement, encoder)
    })
}

/// A placement's instances, cars and section lines from its columns, into the encoder.
fn placement_events(
    py: Python<'_>,
    placement: &Placement,
    encoder: &mut Encoder<Vec<u8>>,
) -> PyResult<()> {
    let fail = |error| encode_error(py, error);

    let columns = placement.instances.bind(py);
    let model_id = required(columns, "model_id", "int32")?;
    let model_id = model_id.extract::<PyReadonlyArray1<'_, i32>>()?;
    let n = model_id.as_array().len();
    let position = required(columns, "position", "float32")?;
    let position = rows2(&position, "position", n, 3)?;
    let rotation = required(columns, "rotation", "float32")?;
    let rotation = rows2(&rotation, "rotation", n, 4)?;
    let interior = required(columns, "interior", "uint32")?;
    let interior = rows1::<u32>(&interior, "interior", n)?;
    let lod = required(columns, "lod", "int32")?;
    let lod = rows1::<i32>(&lod, "lod", n)?;
    let scale = column(columns, "scale", "float32")?;
    let scale = scale
        .as_ref()
        .map(|s| rows2(s, "scale", n, 3))
        .transpose()?;
    let names: Vec<Option<String>> = match columns.get_item("model_name")? {
        Some(names) if !names.is_none() => names.extract()?,
        _ => vec![None; n],
    };
    if names.len() != n {
        return Err(PyValueError::new_err(format!(
            "the column \"model_name\" does not have {n} rows"
        )));
    }
    let (position, rotation) = (position.as_array(), rotation.as_array());
    let (model_id, interior, lod) = (model_id.as_array(), interior.as_array(), lod.as_array());
    for (i, name) in names.iter().enumerate() {
        let name = name.as_deref().map(latin1).transpose().map_err(fail)?;
        let mut instance = IplInstance::default();
        instance.position = [position[[i, 0]], position[[i, 1]], position[[i, 2]]];
        instance.rotation = [
            rotation[[i, 0]],
            rotation[[i, 1]],
            rotation[[i, 2]],
            rotation[[i, 3]],
        ];
        instance.model_id = model_id[i];
        instance.interior = interior[i];
        instance.lod = lod[i];
        instance.model_name = name.as_deref();
        // A NaN row is an instance without a scale (load() fills them so).
        instance.scale = scale.as_ref().map(|s| s.as_array()).and_then(|s| {
            let row = [s[[i, 0]], s[[i, 1]], s[[i, 2]]];
            (!row.iter().any(|v| v.is_nan())).then_some(row)
        });
        encoder.instance(&instance).map_err(fail)?;
    }

    let columns = placement.cars.bind(py);
    let angle = required(columns, "angle", "float32")?;
    let angle = angle.extract::<PyReadonlyArray1<'_, f32>>()?;
    let cars = angle.as_array().len();
    let position = required(columns, "position", "float32")?;
    let position = rows2(&position, "position", cars, 3)?;
    let ints = IplCar::INT_FIELDS
        .iter()
        .map(|key| required(columns, key, "int32"))
        .collect::<PyResult<Vec<_>>>()?;
    let ints = ints
        .iter()
        .zip(IplCar::INT_FIELDS)
        .map(|(array, key)| rows1::<i32>(array, key, cars))
        .collect::<PyResult<Vec<_>>>()?;
    let (angle, position) = (angle.as_array(), position.as_array());
    for i in 0..cars {
        let value = |k: usize| ints[k].as_array()[i];
        let mut car = IplCar::default();
        car.position = [position[[i, 0]], position[[i, 1]], position[[i, 2]]];
        car.angle = angle[i];
        car.set_ints(core::array::from_fn(value));
        encoder.car(&car).map_err(fail)?;
    }

    let lines: Vec<(String, String)> = placement.section_lines.bind(py).extract()?;
    for (section, text) in &lines {
        let text = latin1(text).map_err(fail)?;
        encoder
            .section_line(&section.to_ascii_lowercase(), &text)
            .map_err(fail)?;
    }
    Ok(())
}

/// Writes a decode() document, a Package (animations) or a Placement (item placements), as
/// load() gave it, in `format`: "anp3", "anp2" or "anpk" for animations, "bnry" or "text" for
/// placements (any case; None: the format it was decoded or loaded from).
///
/// A decode() document keeps the units as stored (its "raw" and "trailing" bytes, a text
/// IPL's lines and a bnry's order in "stored", an ANLF's "blocks"): written back to its own
/// format unedited, it gives the file byte for byte; an edited value is written in the
/// format's usual way, everything around it as it was (docs/FORMATS.md §9.7).
/// `normalise=True` writes the clean file instead (zeroed name tails, sizes computed, nothing
/// after the content). A None number (NaN or an infinity in the file) is written as NaN. A
/// Package keeps the units too (an ANLF its blocks; its arrays edited, only their values'
/// bytes change); a Placement keeps none: it is written clean.
///
/// Lossless: a name too long for its field, a value the target cannot hold exactly, ... raise
/// EncodeError and nothing is written. Each bone keeps its stored frame type where the target
/// has it; float bones of other formats are written packed to ANP3/ANP2 when every value lies
/// on the packed steps. `quantize=True` writes every ANP3/ANP2 bone packed, rounding. A scale
/// written to ANP3/ANP2 is dropped with a UserWarning. A document's placements are written in
/// their stored order (added ones after), a Placement's as its instances, its car generators,
/// then (text) the other sections' lines.
///
/// With `path` (str or os.PathLike) the file is written there and None returned; with None,
/// the bytes are returned.
#[pyfunction]
#[pyo3(signature = (obj, path=None, format=None, quantize=false, normalise=false))]
pub fn write(
    py: Python<'_>,
    obj: &Bound<'_, PyAny>,
    path: Option<&Bound<'_, PyAny>>,
    format: Option<&str>,
    quantize: bool,
    normalise: bool,
) -> PyResult<Option<Py<PyBytes>>> {
    let format = format.map(parse_format).transpose()?;
    let options = EncodeOptions::quantize(quantize).with_normalise(normalise);
    let (bytes, warnings) = if obj.is_instance_of::<PyDict>() {
        crate::from_document::encode_document(py, obj, format, options)?
    } else if let Ok(package) = obj.cast::<Package>() {
        let package = package.get();
        encode_package(py, package, format.unwrap_or(package.source), options)?
    } else if let Ok(placement) = obj.cast::<Placement>() {
        let placement = placement.get();
        encode_placement(py, placement, format.unwrap_or(placement.source))?
    } else {
        return Err(pyo3::exceptions::PyTypeError::new_err(
            "write() takes a decode() document, or a Package or a Placement (from load())",
        ));
    };
    warn(py, warnings)?;
    match path {
        None => Ok(Some(PyBytes::new(py, &bytes).unbind())),
        Some(path) => {
            let is_path = path.is_instance_of::<PyString>()
                || path.hasattr(pyo3::intern!(py, "__fspath__"))?;
            if !is_path {
                return Err(pyo3::exceptions::PyTypeError::new_err(
                    "path must be a str, an os.PathLike or None",
                ));
            }
            let path: std::path::PathBuf = path.extract()?;
            py.detach(|| std::fs::write(&path, &bytes))
                .map_err(|error| {
                    pyo3::exceptions::PyOSError::new_err(format!("{}: {error}", path.display()))
                })?;
            Ok(None)
        }
    }
}

/// Converts a whole file held in memory (bytes-like) to `format` ("anp3", "anp2", "anpk",
/// "bnry", "text", "ide"), the decoder's events straight into the encoder: the bytes
/// `gtastream convert --to FORMAT [--quantize] [--normalise]` writes. To its own format an
/// unedited file comes back byte for byte (docs/FORMATS.md §9.7) unless `normalise=True`,
/// which writes the clean file; `drop_text_sections=True` drops the lines a binary IPL has no
/// place for (each a UserWarning) instead of raising EncodeError. Raises DecodeError where the input does not decode,
/// EncodeError where it cannot be written losslessly (see write()).
#[pyfunction]
// The core's `Failure` (a few names), returned once when decoding stops.
#[allow(clippy::result_large_err)]
#[pyo3(signature = (data, format, quantize=false, normalise=false, drop_text_sections=false))]
pub fn convert(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    format: &str,
    quantize: bool,
    normalise: bool,
    drop_text_sections: bool,
) -> PyResult<Py<PyBytes>> {
    let format = parse_format(format)?;
    let options = EncodeOptions::quantize(quantize)
        .with_normalise(normalise)
        .with_drop_text_sections(drop_text_sections);
    let (bytes, warnings) = with_bytes(data, |data| {
        let mut encoder =
            Encoder::new(format, Vec::new(), options).map_err(|error| encode_error(py, error))?;
        // The same bytes read a second time, one bone ahead, as the command does.
        let decoded = py.detach(|| {
            let mut visitor = Lookahead::new(&mut encoder, data);
            gtastream::context::decode_slice(&mut Decoder::new(), data, &mut visitor)
        });
        match decoded {
            Err(failure)
                if failure.error.kind == ErrorKind::Aborted && encoder.error().is_some() => {}
            Err(failure) => return Err(decode_failure(py, &failure)),
            Ok(()) => {}
        }
        if !encoder.is_finished() {
            let error = encoder.error().unwrap_or(CoreError::OutOfOrder);
            return Err(encode_error(py, error));
        }
        let warnings = encoder.warnings();
        Ok((encoder.into_sink(), warnings))
    })?;
    warn(py, warnings)?;
    Ok(PyBytes::new(py, &bytes).unbind())
}
