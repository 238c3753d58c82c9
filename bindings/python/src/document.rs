//! `decode()`: the document of `gtastream dump --json` built as Python objects in one pass of
//! the decoder, with no JSON text between (what goes where is that of `gtastream::json`; every
//! number is what `json.loads` reads from its text: `gtastream::json::number`).

use gtastream::{
    AnimationInfo, BoneInfo, FileInfo, Flow, Format, IplCar, IplInstance, Keyframes, SectionLine,
    Visitor, Warning,
};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyInt, PyList, PyString};
use pyo3::{intern, IntoPyObjectExt};

use crate::{latin1, warning_dict};

/// Slots of the memo of numbers: keyframes repeat few values (the packed formats store 16-bit
/// integers), and one Python object per distinct value is faster and smaller than one per use.
const MEMO_SLOTS: usize = 1 << 16;

/// The document being built; the first Python error stops the decoding and is kept.
pub struct Document<'py> {
    py: Python<'py>,
    memo: Vec<Option<(u32, Py<PyAny>)>>,
    error: Option<PyErr>,
    format: Option<Format>,
    name: Option<Py<PyAny>>,
    files: u32,
    warnings: Bound<'py, PyList>,
    animations: Bound<'py, PyList>,
    instances: Bound<'py, PyList>,
    cars: Bound<'py, PyList>,
    lines: Bound<'py, PyList>,
    /// The open animation's bones, the open bone's frames and what they hold.
    bones: Option<Bound<'py, PyList>>,
    frames: Option<Bound<'py, PyList>>,
    translation: bool,
    scale: bool,
    keys: Keys<'py>,
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
            py,
            memo: (0..MEMO_SLOTS).map(|_| None).collect(),
            error: None,
            format: None,
            name: None,
            files: 0,
            warnings: PyList::empty(py),
            animations: PyList::empty(py),
            instances: PyList::empty(py),
            cars: PyList::empty(py),
            lines: PyList::empty(py),
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
        }
    }

    /// The Python error that stopped the decoding, if one did.
    pub fn take_error(&mut self) -> Option<PyErr> {
        self.error.take()
    }

    /// The finished document, or the Python error that stopped it.
    pub fn finish(self) -> PyResult<Py<PyAny>> {
        if let Some(error) = self.error {
            return Err(error);
        }
        let py = self.py;
        let doc = PyDict::new(py);
        doc.set_item(intern!(py, "format"), self.format.map(|f| f.name()))?;
        doc.set_item(intern!(py, "name"), self.name)?;
        doc.set_item(intern!(py, "warnings"), self.warnings)?;
        if self.format.is_some_and(|f| !f.is_animation()) {
            doc.set_item(intern!(py, "instances"), self.instances)?;
            doc.set_item(intern!(py, "cars"), self.cars)?;
            doc.set_item(intern!(py, "section_lines"), self.lines)?;
        } else {
            doc.set_item(intern!(py, "animations"), self.animations)?;
        }
        Ok(doc.into_any().unbind())
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

    /// A float as `json.loads` reads the document's text of it: None for NaN and infinities,
    /// an int for a whole number (the text has no point), else the float.
    fn number(&mut self, value: f32) -> PyResult<Py<PyAny>> {
        let bits = value.to_bits();
        let slot = (bits.wrapping_mul(0x9E37_79B1) >> 16) as usize;
        if let Some((key, object)) = &self.memo[slot] {
            if *key == bits {
                return Ok(object.clone_ref(self.py));
            }
        }
        let object = number_object(self.py, value)?;
        self.memo[slot] = Some((bits, object.clone_ref(self.py)));
        Ok(object)
    }

    fn numbers<const N: usize>(&mut self, values: &[f32; N]) -> PyResult<Bound<'py, PyList>> {
        let py = self.py;
        let mut failure = None;
        let objects = values.map(|v| {
            self.number(v).unwrap_or_else(|e| {
                failure.get_or_insert(e);
                py.None()
            })
        });
        match failure {
            Some(e) => Err(e),
            None => PyList::new(py, objects),
        }
    }
}

fn number_object(py: Python<'_>, value: f32) -> PyResult<Py<PyAny>> {
    let Some(number) = gtastream::json::number(value) else {
        return Ok(py.None());
    };
    if number.fract() != 0.0 {
        return number.into_py_any(py);
    }
    // Below 2^53 the f64 is the text's integer exactly; above, the text's digits are read.
    if number.abs() < 9_007_199_254_740_992.0 {
        return (number as i64).into_py_any(py);
    }
    Ok(py.get_type::<PyInt>().call1((value.to_string(),))?.unbind())
}

impl Visitor for Document<'_> {
    fn file(&mut self, info: &FileInfo<'_>) -> Flow {
        // An ANLF container's blocks are one package, under the first one's name (as json).
        self.files += 1;
        if self.files > 1 {
            return Flow::Continue;
        }
        self.format = Some(info.format);
        self.run(|d| {
            d.name = info.name.map(|n| latin1(n).into_py_any(d.py)).transpose()?;
            Ok(())
        })
    }

    fn animation(&mut self, info: &AnimationInfo<'_>) -> Flow {
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
            d.animations.append(animation)?;
            d.bones = Some(bones);
            Ok(())
        })
    }

    fn bone(&mut self, info: &BoneInfo<'_>) -> Flow {
        self.run(|d| {
            let py = d.py;
            let bone = PyDict::new(py);
            bone.set_item(intern!(py, "name"), info.name.map(latin1))?;
            bone.set_item(intern!(py, "bone_id"), info.bone_id)?;
            bone.set_item(intern!(py, "bone_key"), info.bone_key)?;
            bone.set_item(intern!(py, "frame_type"), info.frame_type.name())?;
            let frames = PyList::empty(py);
            bone.set_item(intern!(py, "frames"), &frames)?;
            if let Some(bones) = &d.bones {
                bones.append(bone)?;
            }
            d.frames = Some(frames);
            d.translation = info.frame_type.has_translation();
            d.scale = info.frame_type.has_scale();
            Ok(())
        })
    }

    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        self.run(|d| {
            let py = d.py;
            let Some(list) = d.frames.clone() else {
                return Ok(());
            };
            for f in frames.iter() {
                let frame = PyDict::new(py);
                let time = d.number(f.time)?;
                frame.set_item(&d.keys.time, time)?;
                let rotation = d.numbers(&f.rotation)?;
                frame.set_item(&d.keys.rotation, rotation)?;
                if d.translation {
                    let translation = d.numbers(&f.translation)?;
                    frame.set_item(&d.keys.translation, translation)?;
                }
                if d.scale {
                    let scale = d.numbers(&f.scale)?;
                    frame.set_item(&d.keys.scale, scale)?;
                }
                list.append(frame)?;
            }
            Ok(())
        })
    }

    fn instance(&mut self, i: &IplInstance<'_>) -> Flow {
        self.run(|d| {
            let py = d.py;
            let instance = PyDict::new(py);
            instance.set_item(intern!(py, "model_id"), i.model_id)?;
            instance.set_item(intern!(py, "model_name"), i.model_name.map(latin1))?;
            instance.set_item(intern!(py, "interior"), i.interior)?;
            instance.set_item(intern!(py, "position"), d.numbers(&i.position)?)?;
            instance.set_item(intern!(py, "rotation"), d.numbers(&i.rotation)?)?;
            let scale = match &i.scale {
                Some(scale) => d.numbers(scale)?.into_any().unbind(),
                None => py.None(),
            };
            instance.set_item(intern!(py, "scale"), scale)?;
            instance.set_item(intern!(py, "lod"), i.lod)?;
            d.instances.append(instance)?;
            Ok(())
        })
    }

    fn car(&mut self, c: &IplCar) -> Flow {
        self.run(|d| {
            let py = d.py;
            let car = PyDict::new(py);
            car.set_item(intern!(py, "position"), d.numbers(&c.position)?)?;
            car.set_item(intern!(py, "angle"), d.number(c.angle)?)?;
            for (key, value) in [
                (intern!(py, "model_id"), c.model_id),
                (intern!(py, "primary_color"), c.primary_color),
                (intern!(py, "secondary_color"), c.secondary_color),
                (intern!(py, "flags"), c.flags),
                (intern!(py, "alarm_chance"), c.alarm_chance),
                (intern!(py, "door_lock_chance"), c.door_lock_chance),
                (intern!(py, "min_delay"), c.min_delay),
                (intern!(py, "max_delay"), c.max_delay),
            ] {
                car.set_item(key, value)?;
            }
            d.cars.append(car)?;
            Ok(())
        })
    }

    fn section_line(&mut self, line: &SectionLine<'_>) -> Flow {
        self.run(|d| {
            let py = d.py;
            let entry = PyDict::new(py);
            entry.set_item(intern!(py, "section"), line.section)?;
            entry.set_item(intern!(py, "text"), latin1(line.text))?;
            d.lines.append(entry)?;
            Ok(())
        })
    }

    fn warning(&mut self, w: Warning) -> Flow {
        self.run(|d| {
            let warning = warning_dict(d.py, &w)?;
            d.warnings.append(warning)?;
            Ok(())
        })
    }
}
