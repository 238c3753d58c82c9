//! `decode()`: the document of `gtastream dump --json` built as Python objects in one pass of
//! the decoder, with no JSON text between (what goes where is that of `gtastream::json`; every
//! number is what `json.loads` reads from its text: `gtastream::json::number`).

use gtastream::context::Context;
use gtastream::model::ModelBuilder;
use gtastream::{
    AnimationInfo, BoneInfo, FileInfo, Flow, Format, Keyframes, Record, Unit, Visitor, Warning,
};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};
use pyo3::{intern, IntoPyObjectExt};

use crate::numbers::Numbers;
use crate::{latin1, warning_dict};

/// The document being built; the first Python error stops the decoding and is kept.
pub struct Document<'py> {
    /// First, so that it is dropped (settled) before the containers holding its references.
    numbers: Numbers,
    py: Python<'py>,
    /// `json.loads`, for the animations' summaries.
    loads: Option<Bound<'py, PyAny>>,
    /// A model (DFF): gathered from its records; its document is the library's own text
    /// (`Model::write_json`), read by `json.loads` as the command's output is.
    model: Option<ModelBuilder>,
    error: Option<PyErr>,
    format: Option<Format>,
    name: Option<Py<PyAny>>,
    /// The units as stored (docs/FORMATS.md §9.7): the file header, the bytes after the
    /// content, and the open animation's header (its key comes after the summary).
    raw: Option<Py<PyAny>>,
    trailing: Vec<u8>,
    animation_raw: Option<Py<PyAny>>,
    files: u32,
    /// Where the decoder is, for the warnings' place.
    context: Context,
    warnings: Bound<'py, PyList>,
    animations: Bound<'py, PyList>,
    instances: Bound<'py, PyList>,
    cars: Bound<'py, PyList>,
    lines: Bound<'py, PyList>,
    /// IDE files: the model definitions.
    objects: Bound<'py, PyList>,
    /// Placement files: the lines and records in file order (docs/FORMATS.md §10); a binary
    /// IPL's only from its first instance after a car (before, the lists are the file).
    stored: Option<Bound<'py, PyList>>,
    /// ANLF: its blocks, the animations before the open one, and the container's size.
    blocks: Option<Bound<'py, PyList>>,
    block_start: usize,
    container_size: Option<u32>,
    /// The open animation's bones, the open bone's frames and what they hold.
    bones: Option<Bound<'py, PyList>>,
    frames: Option<Bound<'py, PyList>>,
    translation: bool,
    scale: bool,
    keys: Keys<'py>,
    /// The open animation's dict, and its summary so far (the library's `Summarizer`).
    animation: Option<Bound<'py, PyDict>>,
    summary: gtastream::Summarizer,
}

/// The keys of a keyframe's dict, made once.
struct Keys<'py> {
    time: Bound<'py, PyString>,
    rotation: Bound<'py, PyString>,
    translation: Bound<'py, PyString>,
    scale: Bound<'py, PyString>,
}

impl<'py> Document<'py> {
    pub fn new(py: Python<'py>) -> Self {
        Document {
            numbers: Numbers::new(),
            py,
            loads: None,
            model: None,
            error: None,
            format: None,
            name: None,
            raw: None,
            trailing: Vec::new(),
            animation_raw: None,
            files: 0,
            context: Context::default(),
            warnings: PyList::empty(py),
            animations: PyList::empty(py),
            instances: PyList::empty(py),
            cars: PyList::empty(py),
            lines: PyList::empty(py),
            objects: PyList::empty(py),
            stored: None,
            blocks: None,
            block_start: 0,
            container_size: None,
            bones: None,
            frames: None,
            translation: false,
            scale: false,
            keys: Keys {
                time: PyString::intern(py, "time"),
                rotation: PyString::intern(py, "rotation"),
                translation: PyString::intern(py, "translation"),
                scale: PyString::intern(py, "scale"),
            },
            animation: None,
            summary: gtastream::Summarizer::new(),
        }
    }

    /// The Python error that stopped the decoding, if one did.
    pub fn take_error(&mut self) -> Option<PyErr> {
        self.error.take()
    }

    /// The finished document, or the Python error that stopped it.
    pub fn finish(mut self) -> PyResult<Py<PyAny>> {
        self.numbers.settle();
        if self.error.is_none() {
            if let Err(error) = self.end_block() {
                self.error = Some(error);
            }
        }
        if let Some(error) = self.error {
            return Err(error);
        }
        let py = self.py;
        if let Some(model) = self.model {
            let mut text = String::new();
            // Writing to a String does not fail.
            let _ = model.model.write_json(&mut text);
            let loads = py
                .import(intern!(py, "json"))?
                .getattr(intern!(py, "loads"))?;
            return Ok(loads.call1((text,))?.unbind());
        }
        let doc = PyDict::new(py);
        doc.set_item(intern!(py, "format"), self.format.map(|f| f.name()))?;
        doc.set_item(intern!(py, "name"), self.name)?;
        doc.set_item(intern!(py, "warnings"), self.warnings)?;
        if self.format == Some(Format::Ide) {
            doc.set_item(intern!(py, "objects"), self.objects)?;
            doc.set_item(intern!(py, "section_lines"), self.lines)?;
        } else if self.format.is_some_and(|f| !f.is_animation()) {
            doc.set_item(intern!(py, "instances"), self.instances)?;
            doc.set_item(intern!(py, "cars"), self.cars)?;
            doc.set_item(intern!(py, "section_lines"), self.lines)?;
        } else {
            doc.set_item(intern!(py, "animations"), self.animations)?;
        }
        doc.set_item(intern!(py, "raw"), self.raw)?;
        doc.set_item(intern!(py, "trailing"), stored(py, &self.trailing))?;
        if self.format.is_some_and(|f| !f.is_animation()) {
            // Only a binary IPL of instances then cars has None (a text IPL always a list).
            let stored = match self.stored {
                None if matches!(self.format, Some(Format::IplText | Format::Ide)) => {
                    Some(PyList::empty(py))
                }
                stored => stored,
            };
            doc.set_item(intern!(py, "stored"), stored)?;
        } else {
            doc.set_item(intern!(py, "blocks"), self.blocks)?;
            doc.set_item(intern!(py, "container_size"), self.container_size)?;
        }
        Ok(doc.into_any().unbind())
    }

    /// The open ANLF block holds the animations since it began.
    fn end_block(&mut self) -> PyResult<()> {
        let Some(blocks) = &self.blocks else {
            return Ok(());
        };
        let Some(last) = blocks.len().checked_sub(1) else {
            return Ok(());
        };
        let block = blocks.get_item(last)?;
        let animations = self.animations.len() - self.block_start;
        block.set_item(intern!(self.py, "animations"), animations)
    }

    /// A line or record of the file as stored: `index` into its list (None: a text line).
    fn stored(&mut self, item: &str, index: Option<usize>, raw: &[u8]) -> PyResult<()> {
        let py = self.py;
        // A binary IPL of instances then cars keeps none: its lists are the file.
        if self.format == Some(Format::IplBinary) && self.stored.is_none() {
            let cars_first = item == "instance" && !self.cars.is_empty();
            if !cars_first {
                return Ok(());
            }
            // The records so far, in their sections' order.
            let list = PyList::empty(py);
            for (kind, n) in [("instance", index.unwrap_or(0)), ("car", self.cars.len())] {
                for i in 0..n {
                    list.append(stored_item(py, kind, Some(i), &[])?)?;
                }
            }
            self.stored = Some(list);
        }
        let entry = stored_item(py, item, index, raw)?;
        self.stored
            .get_or_insert_with(|| PyList::empty(py))
            .append(entry)
    }

    /// Runs `f`; its error is kept and stops the decoding.
    fn run(&mut self, f: impl FnOnce(&mut Self) -> PyResult<()>) -> Flow {
        match f(self) {
            Ok(()) => Flow::Continue,
            Err(error) => {
                self.error = Some(error);
                Flow::Abort
            }
        }
    }

    /// The object of a float, as `json.loads` reads the document's text of it.
    fn number(&mut self, value: f32) -> PyResult<Py<PyAny>> {
        Ok(self.numbers.owned(self.py, value)?.unbind())
    }

    /// A list of floats whose references the memo counts at its next settling.
    fn counted_list<const N: usize>(&mut self, values: &[f32; N]) -> PyResult<Bound<'py, PyList>> {
        let py = self.py;
        // SAFETY: a new list of N empty slots, each filled once with a reference it takes.
        unsafe {
            let list = ffi::PyList_New(N as ffi::Py_ssize_t);
            if list.is_null() {
                return Err(self.fail());
            }
            let list = Bound::from_owned_ptr(py, list).cast_into_unchecked::<PyList>();
            for (i, &value) in values.iter().enumerate() {
                let object = self.numbers.counted(py, value)?;
                ffi::PyList_SetItem(list.as_ptr(), i as ffi::Py_ssize_t, object);
            }
            Ok(list)
        }
    }

    /// The pending Python error, after settling the memo: what holds its uncounted
    /// references may be released from here on.
    fn fail(&mut self) -> PyErr {
        self.numbers.settle();
        PyErr::fetch(self.py)
    }

    /// Sets `dict[key] = value` (the value's reference is taken).
    /// `key`: one of `self.keys`, which hold it.
    fn put(
        &mut self,
        dict: &Bound<'py, PyDict>,
        key: *mut ffi::PyObject,
        value: Bound<'py, PyAny>,
    ) -> PyResult<()> {
        // SAFETY: valid objects; PyDict_SetItem adds its own reference to the value.
        if unsafe { ffi::PyDict_SetItem(dict.as_ptr(), key, value.as_ptr()) } < 0 {
            return Err(self.fail());
        }
        Ok(())
    }

    /// A keyframe's dict: `time`, `rotation`, and `translation`, `scale` where the bone's
    /// frame type stores them.
    /// Asks for the memo's sets of a keyframe's values ahead of their lookups.
    fn prefetch(&self, f: &gtastream::Keyframe) {
        let values = [
            f.time,
            f.rotation[0],
            f.rotation[1],
            f.rotation[2],
            f.rotation[3],
            f.translation[0],
            f.translation[1],
            f.translation[2],
        ];
        let stored = if self.translation { 8 } else { 5 };
        self.numbers.prefetch(&values[..stored]);
        if self.scale {
            self.numbers.prefetch(&f.scale);
        }
    }

    fn keyframe(&mut self, f: &gtastream::Keyframe) -> PyResult<Bound<'py, PyDict>> {
        let py = self.py;
        // SAFETY: a new dict, owned.
        let frame = unsafe {
            let dict = ffi::PyDict_New();
            if dict.is_null() {
                return Err(self.fail());
            }
            Bound::from_owned_ptr(py, dict).cast_into_unchecked::<PyDict>()
        };
        // The dict adds its own reference to the time.
        let time = self.numbers.borrowed(py, f.time)?;
        // SAFETY: the memo holds the object.
        let time = unsafe { Bound::from_borrowed_ptr(py, time) };
        self.put(&frame, self.keys.time.as_ptr(), time)?;
        let rotation = self.counted_list(&f.rotation)?;
        self.put(&frame, self.keys.rotation.as_ptr(), rotation.into_any())?;
        if self.translation {
            let translation = self.counted_list(&f.translation)?;
            self.put(
                &frame,
                self.keys.translation.as_ptr(),
                translation.into_any(),
            )?;
        }
        if self.scale {
            let scale = self.counted_list(&f.scale)?;
            self.put(&frame, self.keys.scale.as_ptr(), scale.into_any())?;
        }
        Ok(frame)
    }
}

impl Visitor for Document<'_> {
    fn file(&mut self, info: &FileInfo<'_>) -> Flow {
        // An ANLF container's blocks are one package, under the first one's name (as json).
        self.context.file();
        self.files += 1;
        let first = self.files == 1;
        if first {
            self.format = Some(info.format);
            if info.format == Format::Dff {
                self.model = Some(ModelBuilder::default());
            }
        }
        if let Some(model) = &mut self.model {
            return model.file(info);
        }
        self.run(|d| {
            let py = d.py;
            if first {
                d.name = info.name.map(|n| latin1(n).into_py_any(py)).transpose()?;
                d.raw = stored(py, info.raw);
                d.container_size = info.container_size;
                if info.container_size.is_some() {
                    d.blocks = Some(PyList::empty(py));
                }
            }
            // An ANLF block (an ANLF of no blocks has one file event, with no name).
            let (Some(name), Some(_)) = (info.name, info.container_size) else {
                return Ok(());
            };
            d.end_block()?;
            d.block_start = d.animations.len();
            let block = PyDict::new(py);
            block.set_item(intern!(py, "name"), latin1(name))?;
            block.set_item(intern!(py, "raw"), stored(py, info.raw))?;
            block.set_item(intern!(py, "animations"), 0)?;
            if let Some(blocks) = &d.blocks {
                blocks.append(block)?;
            }
            Ok(())
        })
    }

    fn animation(&mut self, info: &AnimationInfo<'_>) -> Flow {
        self.context.animation(info);
        self.run(|d| {
            let py = d.py;
            let animation = PyDict::new(py);
            animation.set_item(intern!(py, "name"), latin1(info.name))?;
            animation.set_item(intern!(py, "frame_data_size"), info.frame_data_size)?;
            animation.set_item(intern!(py, "flags"), info.flags)?;
            let duration = match info.duration {
                Some(duration) => d.number(duration)?,
                None => py.None(),
            };
            animation.set_item(intern!(py, "duration"), duration)?;
            let bones = PyList::empty(py);
            animation.set_item(intern!(py, "bones"), &bones)?;
            d.animations.append(&animation)?;
            d.animation = Some(animation);
            d.animation_raw = stored(py, info.raw);
            d.bones = Some(bones);
            d.summary.animation(info);
            Ok(())
        })
    }

    fn bone(&mut self, info: &BoneInfo<'_>) -> Flow {
        self.context.bone(info);
        self.run(|d| {
            let py = d.py;
            let bone = PyDict::new(py);
            bone.set_item(intern!(py, "name"), info.name.map(latin1))?;
            bone.set_item(intern!(py, "bone_id"), info.bone_id)?;
            bone.set_item(intern!(py, "bone_key"), info.bone_key)?;
            bone.set_item(intern!(py, "frame_type"), info.frame_type.name())?;
            let frames = PyList::empty(py);
            bone.set_item(intern!(py, "frames"), &frames)?;
            bone.set_item(intern!(py, "raw"), stored(py, info.raw))?;
            if let Some(bones) = &d.bones {
                bones.append(bone)?;
            }
            d.frames = Some(frames);
            d.translation = info.frame_type.has_translation();
            d.scale = info.frame_type.has_scale();
            d.summary.bone(info);
            Ok(())
        })
    }

    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        self.run(|d| {
            d.summary.keyframes(frames);
            let Some(list) = d.frames.clone() else {
                return Ok(());
            };
            // Each keyframe's sets are asked for one keyframe ahead.
            let mut frames = frames.iter();
            let mut next = frames.next();
            if let Some(f) = &next {
                d.prefetch(f);
            }
            while let Some(f) = next {
                next = frames.next();
                if let Some(ahead) = &next {
                    d.prefetch(ahead);
                }
                let frame = d.keyframe(&f)?;
                // SAFETY: valid objects; the list adds its own reference.
                if unsafe { ffi::PyList_Append(list.as_ptr(), frame.as_ptr()) } < 0 {
                    return Err(d.fail());
                }
            }
            Ok(())
        })
    }

    /// The animation's summary, the dict the document's text of it reads as (the library
    /// writes that text; a few small objects an animation).
    fn bone_end(&mut self) -> Flow {
        self.context.bone_end();
        Flow::Continue
    }

    fn animation_end(&mut self) -> Flow {
        self.context.animation_end();
        self.run(|d| {
            let summary = d.summary.animation_end();
            let Some(animation) = d.animation.take() else {
                return Ok(());
            };
            let mut text = String::new();
            // A String takes all text.
            let _ = gtastream::json::write_summary(&mut text, &summary);
            let loads = match &d.loads {
                Some(loads) => loads.clone(),
                None => {
                    let loads =
                        d.py.import(intern!(d.py, "json"))?
                            .getattr(intern!(d.py, "loads"))?;
                    d.loads.insert(loads).clone()
                }
            };
            animation.set_item(intern!(d.py, "summary"), loads.call1((text,))?)?;
            animation.set_item(intern!(d.py, "raw"), d.animation_raw.take())?;
            Ok(())
        })
    }

    fn record(&mut self, record: &Record<'_>) -> Flow {
        if let Some(model) = &mut self.model {
            return model.record(record);
        }
        match record {
            Record::Instance(_)
            | Record::Car(_)
            | Record::SectionLine(_)
            | Record::IdeObject(_) => self.run(|d| {
                let py = d.py;
                let numbers = &mut d.numbers;
                let dict = crate::records::record_dict(py, record, |v| numbers.owned(py, v))?;
                let (name, list) = match record {
                    Record::Instance(_) => ("instance", &d.instances),
                    Record::Car(_) => ("car", &d.cars),
                    Record::IdeObject(_) => ("ide_object", &d.objects),
                    _ => ("section_line", &d.lines),
                };
                list.append(dict)?;
                let index = list.len() - 1;
                d.stored(name, Some(index), record.raw())
            }),
            _ => Flow::Continue,
        }
    }

    fn text_line(&mut self, raw: &[u8]) -> Flow {
        self.run(|d| d.stored("text", None, raw))
    }

    fn unit(&mut self, unit: &Unit<'_>) {
        self.context.unit(unit);
    }

    fn trailing(&mut self, bytes: &[u8]) -> Flow {
        self.trailing.extend_from_slice(bytes);
        Flow::Continue
    }

    fn warning(&mut self, w: Warning) -> Flow {
        self.run(|d| {
            let warning = warning_dict(d.py, &w, Some(&d.context))?;
            d.warnings.append(warning)?;
            Ok(())
        })
    }
}

/// An item of `stored`: `{"item", "index", "raw"}`, the line as a str (None: none kept).
fn stored_item<'py>(
    py: Python<'py>,
    item: &str,
    index: Option<usize>,
    raw: &[u8],
) -> PyResult<Bound<'py, PyDict>> {
    let entry = PyDict::new(py);
    entry.set_item(intern!(py, "item"), item)?;
    entry.set_item(intern!(py, "index"), index)?;
    entry.set_item(intern!(py, "raw"), (!raw.is_empty()).then(|| latin1(raw)))?;
    Ok(entry)
}

/// A unit as stored, as `bytes`; None where none is kept (the document's `null`).
fn stored(py: Python<'_>, bytes: &[u8]) -> Option<Py<PyAny>> {
    (!bytes.is_empty()).then(|| PyBytes::new(py, bytes).into_any().unbind())
}
