//! `write()` of a `decode()` document: its dicts read back into the encoder's events, with the
//! units as stored (`raw`, `trailing`) that bring an unedited file back byte for byte
//! (docs/FORMATS.md §9.7). Every format rule stays the encoder's; this only reads the dicts.

use gtastream::encode::{EncodeOptions, EncodeWarnings, Encoder};
use gtastream::record::RecordKind;
use gtastream::{Format, FrameType, Keyframe};
use pyo3::exceptions::PyValueError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString};

use crate::write::{
    encode_animations, encode_error, encode_placement_with, latin1, AnimationData, BlockData,
    BoneData, FileData,
};

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

/// Encodes a `decode()` document in `format` (None: its own).
pub fn encode_document(
    py: Python<'_>,
    doc: &Bound<'_, PyAny>,
    format: Option<Format>,
    options: EncodeOptions,
) -> PyResult<(Vec<u8>, EncodeWarnings)> {
    let source: String = item(doc, intern!(py, "format"))?.extract()?;
    let source = Format::named(source.as_bytes())
        .ok_or_else(|| invalid(format!("{source:?} is not a format")))?;
    let formats = (source, format.unwrap_or(source));
    let mut file = FileData {
        name: name(py, &item(doc, intern!(py, "name"))?)?,
        raw: stored(optional(doc, intern!(py, "raw"))?)?,
        trailing: stored(optional(doc, intern!(py, "trailing"))?)?,
        ..FileData::default()
    };
    if source.is_animation() {
        // An ANLF: its blocks, each its own file event (docs/FORMATS.md §10).
        let size = optional(doc, intern!(py, "container_size"))?.filter(|s| !s.is_none());
        file.container_size = size.map(|s| s.extract()).transpose()?;
        if let Some(blocks) = optional(doc, intern!(py, "blocks"))?.filter(|b| !b.is_none()) {
            file.blocks = blocks
                .try_iter()?
                .map(|block| self::block(py, &block?))
                .collect::<PyResult<_>>()?;
        }
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

fn block(py: Python<'_>, block: &Bound<'_, PyAny>) -> PyResult<BlockData> {
    Ok(BlockData {
        name: name(py, &item(block, intern!(py, "name"))?)?.unwrap_or_default(),
        raw: stored(optional(block, intern!(py, "raw"))?)?,
        animations: item(block, intern!(py, "animations"))?.extract()?,
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
    let frame_type = FrameType::named(frame_type.as_bytes())
        .ok_or_else(|| invalid(format!("{frame_type:?} is not a frame type")))?;
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

/// A placement document's records and lines, into the encoder: in the order of its `stored`
/// items, each with its line as stored, as the decoder gave them (the encoder keeps the lines
/// where it keeps stored bytes: docs/FORMATS.md §9.7), then those no item names, in the lists'
/// order (added since).
fn placements(
    py: Python<'_>,
    doc: &Bound<'_, PyAny>,
    encoder: &mut Encoder<Vec<u8>>,
) -> PyResult<()> {
    let fail = |error| encode_error(py, error);
    // The lists of the document's records (an IDE's: objects and section lines), by the name
    // of their stored items.
    const LISTS: [(&str, &str, RecordKind); 4] = [
        ("instance", "instances", RecordKind::Instance),
        ("car", "cars", RecordKind::Car),
        ("ide_object", "objects", RecordKind::IdeObject),
        ("section_line", "section_lines", RecordKind::SectionLine),
    ];
    let mut lists = Vec::with_capacity(LISTS.len());
    for (_, key, _) in LISTS {
        let items = match optional(doc, &PyString::new(py, key))?.filter(|l| !l.is_none()) {
            Some(l) => l.try_iter()?.collect::<PyResult<Vec<_>>>()?,
            None => Vec::new(),
        };
        lists.push(items);
    }
    // The next of each list that no stored item has named.
    let mut next = [0; LISTS.len()];
    let stored_items = optional(doc, intern!(py, "stored"))?.filter(|s| !s.is_none());
    if let Some(items) = stored_items {
        for entry in items.try_iter()? {
            let entry = entry?;
            let kind: String = item(&entry, intern!(py, "item"))?.extract()?;
            let index: Option<usize> = item(&entry, intern!(py, "index"))?.extract()?;
            let raw = name(py, &item(&entry, intern!(py, "raw"))?)?.unwrap_or_default();
            if kind == "text" {
                encoder.text_line(&raw).map_err(fail)?;
                continue;
            }
            let Some(l) = LISTS.iter().position(|&(item, _, _)| item == kind) else {
                return Err(invalid(format!("{kind:?} is not a stored item")));
            };
            // A record or line removed since has no item left.
            if let Some(i) = index.filter(|&i| i < lists[l].len()) {
                record(py, LISTS[l].2, &lists[l][i], &raw, encoder)?;
                next[l] = next[l].max(i + 1);
            }
        }
    }
    for (l, items) in lists.iter().enumerate() {
        for r in &items[next[l]..] {
            record(py, LISTS[l].2, r, &[], encoder)?;
        }
    }
    Ok(())
}

/// A record's dict into the encoder, with its line as stored.
fn record(
    py: Python<'_>,
    kind: RecordKind,
    dict: &Bound<'_, PyAny>,
    raw: &[u8],
    encoder: &mut Encoder<Vec<u8>>,
) -> PyResult<()> {
    crate::records::with_record(kind, dict, raw, |record| {
        encoder
            .record(record)
            .map_err(|error| encode_error(py, error))
    })
}
