//! `load()`: a whole file into `Package` (animations) or `Placement` (IPL), with numpy arrays
//! filled from the decoder's batches in Rust (no Python object per keyframe).

use gtastream::context::Context;
use gtastream::{
    name_matches, AnimationInfo, BoneInfo, Decoder, FileInfo, Flow, Format, FrameType, IplCar,
    Keyframes, Record, Unit, Visitor, Warning,
};
use numpy::ndarray::{Array1, Array2};
use numpy::{PyArray1, PyArray2};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

use crate::write::BlockData;
use crate::{decode_error, decode_failure, latin1, warning_dict, with_bytes};

/// What one decoding of a file gathered, before any Python object exists.
#[derive(Default)]
struct Collector {
    format: Option<Format>,
    name: Option<String>,
    files: u32,
    /// Where the decoder is: each warning's place.
    context: Context,
    warnings: Vec<(Warning, Context)>,
    animations: Vec<AnimationData>,
    instances: Instances,
    cars: Cars,
    lines: Vec<(String, String)>,
    /// The units as stored (docs/FORMATS.md §9.7): the file header, the bytes after the
    /// content.
    raw: Vec<u8>,
    trailing: Vec<u8>,
    /// An ANLF's blocks (each block's file event and its animations) and container size.
    blocks: Vec<BlockData>,
    container_size: Option<u32>,
    /// Input bytes not yet spent on reserving frames for declared counts.
    budget: usize,
}

struct AnimationData {
    name: String,
    frame_data_size: Option<u32>,
    flags: Option<u32>,
    duration: Option<f32>,
    bones: Vec<BoneData>,
    raw: Vec<u8>,
}

struct BoneData {
    name: Option<String>,
    bone_id: Option<i32>,
    bone_key: Option<u32>,
    frame_type: FrameType,
    raw: Vec<u8>,
    translation: bool,
    scale: bool,
    times: Vec<f32>,
    rotations: Vec<f32>,
    translations: Vec<f32>,
    scales: Vec<f32>,
}

#[derive(Default)]
struct Instances {
    position: Vec<f32>,
    rotation: Vec<f32>,
    model_id: Vec<i32>,
    interior: Vec<u32>,
    lod: Vec<i32>,
    model_name: Vec<Option<String>>,
    /// NaN rows for the instances without a scale; dropped when none has one.
    scale: Vec<f32>,
    any_scale: bool,
}

#[derive(Default)]
struct Cars {
    position: Vec<f32>,
    angle: Vec<f32>,
    /// The integer fields, as `IplCar::INT_FIELDS` names them.
    ints: [Vec<i32>; 8],
}

impl Collector {
    /// The open ANLF block holds the animations since it began (its `animations` held the
    /// count before it).
    fn end_block(&mut self) {
        if let Some(block) = self.blocks.last_mut() {
            block.animations = self.animations.len() - block.animations;
        }
    }

    fn bone(&mut self) -> Option<&mut BoneData> {
        self.animations.last_mut()?.bones.last_mut()
    }
}

impl Visitor for Collector {
    fn file(&mut self, info: &FileInfo<'_>) -> Flow {
        // An ANLF container's blocks make one package under the first block's name, as in the
        // JSON document.
        self.context.file();
        if self.files == 0 {
            self.format = Some(info.format);
            self.name = info.name.map(latin1);
            self.raw = info.raw.to_vec();
            self.container_size = info.container_size;
        }
        self.files += 1;
        // An ANLF block (an ANLF of no blocks has one file event, with no name): written back
        // in its container (docs/FORMATS.md §9.7).
        if let (Some(name), Some(_)) = (info.name, info.container_size) {
            self.end_block();
            self.blocks.push(BlockData {
                name: name.to_vec(),
                raw: info.raw.to_vec(),
                animations: self.animations.len(),
            });
        }
        Flow::Continue
    }

    fn animation(&mut self, info: &AnimationInfo<'_>) -> Flow {
        self.context.animation(info);
        self.animations.push(AnimationData {
            name: latin1(info.name),
            frame_data_size: info.frame_data_size,
            flags: info.flags,
            duration: info.duration,
            bones: Vec::new(),
            raw: info.raw.to_vec(),
        });
        Flow::Continue
    }

    fn bone(&mut self, info: &BoneInfo<'_>) -> Flow {
        // Capacity taken from the declared count comes out of a budget of the input's size: a
        // count that lies costs no more memory than the file's bytes.
        self.context.bone(info);
        let frames = (info.frame_count as usize).min(self.budget / info.frame_type.size());
        self.budget -= frames * info.frame_type.size();
        let (translation, scale) = (info.has_translation(), info.has_scale());
        let data = BoneData {
            name: info.name.map(latin1),
            bone_id: info.bone_id,
            bone_key: info.bone_key,
            frame_type: info.frame_type,
            raw: info.raw.to_vec(),
            translation,
            scale,
            times: Vec::with_capacity(frames),
            rotations: Vec::with_capacity(frames * 4),
            translations: Vec::with_capacity(if translation { frames * 3 } else { 0 }),
            scales: Vec::with_capacity(if scale { frames * 3 } else { 0 }),
        };
        if let Some(animation) = self.animations.last_mut() {
            animation.bones.push(data);
        }
        Flow::Continue
    }

    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        let Some(bone) = self.bone() else {
            return Flow::Continue;
        };
        let (translation, scale) = (bone.translation, bone.scale);
        // `for_each` takes the core's per-frame-type loop over whole records.
        frames.iter().for_each(|frame| {
            bone.times.push(frame.time);
            bone.rotations.extend_from_slice(&frame.rotation);
            if translation {
                bone.translations.extend_from_slice(&frame.translation);
            }
            if scale {
                bone.scales.extend_from_slice(&frame.scale);
            }
        });
        Flow::Continue
    }

    fn record(&mut self, record: &Record<'_>) -> Flow {
        match record {
            Record::Instance(instance) => {
                let columns = &mut self.instances;
                columns.position.extend_from_slice(&instance.position);
                columns.rotation.extend_from_slice(&instance.rotation);
                columns.model_id.push(instance.model_id);
                columns.interior.push(instance.interior);
                columns.lod.push(instance.lod);
                columns.model_name.push(instance.model_name.map(latin1));
                columns.any_scale |= instance.scale.is_some();
                columns
                    .scale
                    .extend_from_slice(&instance.scale.unwrap_or([f32::NAN; 3]));
                Flow::Continue
            }
            Record::Car(car) => {
                let columns = &mut self.cars;
                columns.position.extend_from_slice(&car.position);
                columns.angle.push(car.angle);
                for (column, value) in columns.ints.iter_mut().zip(car.ints()) {
                    column.push(value);
                }
                Flow::Continue
            }
            Record::SectionLine(line) => {
                self.lines
                    .push((line.section.to_owned(), latin1(line.text)));
                Flow::Continue
            }
            _ => Flow::Continue,
        }
    }

    fn warning(&mut self, warning: Warning) -> Flow {
        self.warnings.push((warning, self.context));
        Flow::Continue
    }

    fn bone_end(&mut self) -> Flow {
        self.context.bone_end();
        Flow::Continue
    }

    fn animation_end(&mut self) -> Flow {
        self.context.animation_end();
        Flow::Continue
    }

    fn unit(&mut self, unit: &Unit<'_>) {
        self.context.unit(unit);
    }

    fn trailing(&mut self, bytes: &[u8]) -> Flow {
        self.trailing.extend_from_slice(bytes);
        Flow::Continue
    }
}

/// A `(rows, width)` float32 array that takes over `values` (no copy).
fn matrix<'py>(py: Python<'py>, values: Vec<f32>, width: usize) -> Bound<'py, PyArray2<f32>> {
    let rows = values.len() / width;
    let array =
        Array2::from_shape_vec((rows, width), values).expect("the collector pushes whole rows");
    PyArray2::from_owned_array(py, array)
}

fn vector<'py, T: numpy::Element>(py: Python<'py>, values: Vec<T>) -> Bound<'py, PyArray1<T>> {
    PyArray1::from_owned_array(py, Array1::from_vec(values))
}

/// A decoded animation file: its animations, each bone's keyframes as numpy arrays.
#[pyclass(module = "gtastream", frozen)]
pub struct Package {
    /// The format: "ANP3", "ANP2", "ANPK" (also ANLF containers) or "ANIM" (Stories).
    #[pyo3(get)]
    format: &'static str,
    /// The package name, where the format stores one (None for Stories files).
    #[pyo3(get)]
    pub(crate) name: Option<String>,
    pub(crate) source: Format,
    pub(crate) animations: Vec<Py<Animation>>,
    warnings: Py<PyList>,
    /// The units as stored, for write() (docs/FORMATS.md §9.7).
    pub(crate) raw: Vec<u8>,
    pub(crate) trailing: Vec<u8>,
    pub(crate) blocks: Vec<BlockData>,
    pub(crate) container_size: Option<u32>,
}

#[pymethods]
impl Package {
    /// The animations, in file order (a new list each time).
    #[getter]
    fn animations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, &self.animations)
    }

    /// Everything odd the decoder noticed, in file order: dicts with "kind" (stable name),
    /// "reason", "offset" (absolute byte offset) and the place ("animation", "bone", "line"), as
    /// in decode()'s "warnings".
    #[getter]
    fn warnings(&self, py: Python<'_>) -> Py<PyList> {
        self.warnings.clone_ref(py)
    }

    /// The first animation of that name, compared as `gtastream::name_matches` does (ASCII
    /// case and the whitespace around the name aside); None when there is none.
    fn animation(&self, py: Python<'_>, name: &str) -> Option<Py<Animation>> {
        self.animations
            .iter()
            .find(|a| name_matches(a.get().name.as_bytes(), name.as_bytes()))
            .map(|a| a.clone_ref(py))
    }

    fn __len__(&self) -> usize {
        self.animations.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "<gtastream.Package {} {:?} with {} animations>",
            self.format,
            self.name.as_deref().unwrap_or(""),
            self.animations.len()
        )
    }
}

/// One animation (clip) of a package.
#[pyclass(module = "gtastream", frozen)]
pub struct Animation {
    /// The name as stored (one character per byte).
    #[pyo3(get)]
    pub(crate) name: String,
    /// ANP3 only: the declared bytes of all keyframes (else None).
    #[pyo3(get)]
    frame_data_size: Option<u32>,
    /// ANP3 only: bit 0 = compressed (else None).
    #[pyo3(get)]
    flags: Option<u32>,
    /// Stories only: the clip's length in seconds (else None).
    #[pyo3(get)]
    duration: Option<f32>,
    pub(crate) bones: Vec<Py<Bone>>,
    /// The header as stored, for write().
    pub(crate) raw: Vec<u8>,
}

#[pymethods]
impl Animation {
    /// The animated bones, in file order (a new list each time).
    #[getter]
    fn bones<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, &self.bones)
    }

    /// The first bone of that name, compared as `Package.animation` compares: `"pelvis"` finds
    /// the ` Pelvis` of a real San Andreas file; None when there is none.
    fn bone(&self, py: Python<'_>, name: &str) -> Option<Py<Bone>> {
        self.bones
            .iter()
            .find(|b| {
                b.get()
                    .name
                    .as_deref()
                    .is_some_and(|n| name_matches(n.as_bytes(), name.as_bytes()))
            })
            .map(|b| b.clone_ref(py))
    }

    /// The first bone with that id (the skin's node id: the reliable way to match a skeleton);
    /// None when there is none.
    fn bone_by_id(&self, py: Python<'_>, bone_id: i32) -> Option<Py<Bone>> {
        self.bones
            .iter()
            .find(|b| b.get().bone_id == Some(bone_id))
            .map(|b| b.clone_ref(py))
    }

    fn __len__(&self) -> usize {
        self.bones.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "<gtastream.Animation {:?} with {} bones>",
            self.name,
            self.bones.len()
        )
    }
}

/// One animated bone and its keyframes, one numpy array per field (row i is keyframe i).
#[pyclass(module = "gtastream", frozen)]
pub struct Bone {
    /// The name as stored, where the format stores one (None for Stories files).
    #[pyo3(get)]
    pub(crate) name: Option<String>,
    /// The bone id as stored (-1: match by name); None where the format has none.
    #[pyo3(get)]
    pub(crate) bone_id: Option<i32>,
    /// Stories only: the 32-bit bone key.
    #[pyo3(get)]
    pub(crate) bone_key: Option<u32>,
    /// How the keyframes were stored: "ifp2_rot", "krts", "stories_rot_trans", ...
    #[pyo3(get)]
    frame_type: &'static str,
    pub(crate) stored: FrameType,
    /// The header as stored, for write().
    pub(crate) raw: Vec<u8>,
    /// Seconds from the start of the clip: float32, shape (n,).
    #[pyo3(get)]
    pub(crate) times: Py<PyArray1<f32>>,
    /// Quaternions x, y, z, w in the engine convention: float32, shape (n, 4).
    #[pyo3(get)]
    pub(crate) rotations: Py<PyArray2<f32>>,
    /// Translations in metres: float32, shape (n, 3); None when the frame type has none.
    #[pyo3(get)]
    pub(crate) translations: Option<Py<PyArray2<f32>>>,
    /// Scales: float32, shape (n, 3); None when the frame type has none.
    #[pyo3(get)]
    pub(crate) scales: Option<Py<PyArray2<f32>>>,
}

#[pymethods]
impl Bone {
    /// Number of keyframes.
    fn __len__(&self, py: Python<'_>) -> usize {
        self.times.bind(py).len().unwrap_or(0)
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "<gtastream.Bone {:?} id {} {} with {} frames>",
            self.name.as_deref().unwrap_or(""),
            self.bone_id.map_or("None".to_string(), |id| id.to_string()),
            self.frame_type,
            self.__len__(py)
        )
    }
}

/// A decoded item placement file: instances and car generators as dicts of numpy columns.
#[pyclass(module = "gtastream", frozen)]
pub struct Placement {
    /// "bnry" (binary IPL) or "text".
    #[pyo3(get)]
    pub(crate) format: &'static str,
    pub(crate) source: Format,
    /// Dict of columns, row i is instance i: "position" float32 (n, 3), "rotation" float32
    /// (n, 4) x y z w as stored, "model_id" int32 (n,), "interior" uint32 (n,), "lod" int32
    /// (n,), "model_name" list of str or None (text IPL), "scale" float32 (n, 3) or None
    /// (GTA III / Vice City text lines have one; NaN rows for instances without).
    #[pyo3(get)]
    pub(crate) instances: Py<PyDict>,
    /// Dict of columns, row i is car generator i: "position" float32 (n, 3), "angle" float32
    /// (n,) radians, and int32 (n,) "model_id", "primary_color", "secondary_color", "flags",
    /// "alarm_chance", "door_lock_chance", "min_delay", "max_delay".
    #[pyo3(get)]
    pub(crate) cars: Py<PyDict>,
    /// Text IPL: the lines of the other sections as (section, text) tuples, in file order.
    #[pyo3(get)]
    pub(crate) section_lines: Py<PyList>,
    /// As Package.warnings.
    #[pyo3(get)]
    warnings: Py<PyList>,
}

#[pymethods]
impl Placement {
    fn __repr__(&self, py: Python<'_>) -> String {
        let rows = |columns: &Py<PyDict>| {
            columns
                .bind(py)
                .get_item("model_id")
                .ok()
                .flatten()
                .and_then(|c| c.len().ok())
                .unwrap_or(0)
        };
        format!(
            "<gtastream.Placement {} with {} instances, {} cars>",
            self.format,
            rows(&self.instances),
            rows(&self.cars)
        )
    }
}

/// Decodes a whole file into Package (animation files) or Placement (item placement files).
///
/// `source` is a path (str or os.PathLike) or the file's bytes (bytes-like). Raises
/// DecodeError where `gtastream dump --json` would fail; warnings are kept in `.warnings`.
#[pyfunction]
pub fn load(py: Python<'_>, source: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    let is_path =
        source.is_instance_of::<PyString>() || source.hasattr(pyo3::intern!(py, "__fspath__"))?;
    let collected = if is_path {
        let path: std::path::PathBuf = source.extract()?;
        let data = py.detach(|| std::fs::read(&path)).map_err(|error| {
            pyo3::exceptions::PyOSError::new_err(format!("{}: {error}", path.display()))
        })?;
        collect(py, &data)?
    } else {
        with_bytes(source, |data| collect(py, data))?
    };
    build(py, collected)
}

// The core's `Failure` (a few names), returned once when decoding stops.
#[allow(clippy::result_large_err)]
fn collect(py: Python<'_>, data: &[u8]) -> PyResult<Collector> {
    py.detach(|| {
        let mut collector = Collector {
            budget: data.len(),
            ..Collector::default()
        };
        gtastream::context::decode_slice(&mut Decoder::new(), data, &mut collector)
            .map(|()| collector)
    })
    .map_err(|failure| decode_failure(py, &failure))
}

fn build(py: Python<'_>, mut collected: Collector) -> PyResult<Py<PyAny>> {
    collected.end_block();
    let Collector {
        format,
        name,
        warnings,
        animations,
        instances,
        cars,
        lines,
        raw,
        trailing,
        blocks,
        container_size,
        ..
    } = collected;
    let warnings = PyList::new(
        py,
        warnings
            .iter()
            .map(|(warning, context)| warning_dict(py, warning, Some(context)))
            .collect::<PyResult<Vec<_>>>()?,
    )?
    .unbind();
    // A successful decode always saw the file event; an empty input is a truncated file.
    let Some(format) = format else {
        let error = gtastream::Error {
            kind: gtastream::ErrorKind::Truncated,
            offset: 0,
        };
        return Err(decode_error(py, error));
    };
    if format == gtastream::Format::Dff {
        return Err(pyo3::exceptions::PyValueError::new_err(
            "a model (DFF): load() reads animation and placement files; decode() gives a \
             model's document",
        ));
    }
    if format == gtastream::Format::Ide {
        return Err(pyo3::exceptions::PyValueError::new_err(
            "item definitions (IDE): load() reads animation and placement files; decode() \
             gives an IDE's document",
        ));
    }
    if format.is_animation() {
        let animations = animations
            .into_iter()
            .map(|animation| build_animation(py, animation))
            .collect::<PyResult<Vec<_>>>()?;
        return Ok(Py::new(
            py,
            Package {
                format: format.name(),
                name,
                source: format,
                animations,
                warnings,
                raw,
                trailing,
                blocks,
                container_size,
            },
        )?
        .into_any());
    }

    let columns = PyDict::new(py);
    columns.set_item("position", matrix(py, instances.position, 3))?;
    columns.set_item("rotation", matrix(py, instances.rotation, 4))?;
    columns.set_item("model_id", vector(py, instances.model_id))?;
    columns.set_item("interior", vector(py, instances.interior))?;
    columns.set_item("lod", vector(py, instances.lod))?;
    columns.set_item("model_name", PyList::new(py, instances.model_name)?)?;
    if instances.any_scale {
        columns.set_item("scale", matrix(py, instances.scale, 3))?;
    } else {
        columns.set_item("scale", py.None())?;
    }
    let car_columns = PyDict::new(py);
    car_columns.set_item("position", matrix(py, cars.position, 3))?;
    car_columns.set_item("angle", vector(py, cars.angle))?;
    for (key, values) in IplCar::INT_FIELDS.into_iter().zip(cars.ints) {
        car_columns.set_item(key, vector(py, values))?;
    }
    let section_lines = PyList::new(
        py,
        lines
            .into_iter()
            .map(|(section, text)| PyTuple::new(py, [section, text]))
            .collect::<PyResult<Vec<_>>>()?,
    )?;
    Ok(Py::new(
        py,
        Placement {
            format: format.name(),
            source: format,
            instances: columns.unbind(),
            cars: car_columns.unbind(),
            section_lines: section_lines.unbind(),
            warnings,
        },
    )?
    .into_any())
}

fn build_animation(py: Python<'_>, animation: AnimationData) -> PyResult<Py<Animation>> {
    let bones = animation
        .bones
        .into_iter()
        .map(|bone| {
            let translations = bone
                .translation
                .then(|| matrix(py, bone.translations, 3).unbind());
            let scales = bone.scale.then(|| matrix(py, bone.scales, 3).unbind());
            Py::new(
                py,
                Bone {
                    name: bone.name,
                    bone_id: bone.bone_id,
                    bone_key: bone.bone_key,
                    frame_type: bone.frame_type.name(),
                    stored: bone.frame_type,
                    raw: bone.raw,
                    times: vector(py, bone.times).unbind(),
                    rotations: matrix(py, bone.rotations, 4).unbind(),
                    translations,
                    scales,
                },
            )
        })
        .collect::<PyResult<Vec<_>>>()?;
    Py::new(
        py,
        Animation {
            name: animation.name,
            frame_data_size: animation.frame_data_size,
            flags: animation.flags,
            duration: animation.duration,
            bones,
            raw: animation.raw,
        },
    )
}
