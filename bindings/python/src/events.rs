//! `events()`: the decoder's events over a binary file object, one at a time, in constant
//! memory. Rust holds the decoder and pulls chunks with `f.read(n)`; it seeks the file where the
//! decoder asks (Stories files) when the file is seekable, and otherwise decodes front to back
//! (a file that needs a seek back then fails with `seek_required`), as `gtastream::io` does.

use std::collections::VecDeque;

use gtastream::context::{Context, Decoded, Tracked};

use gtastream::{
    AnimationInfo, BoneInfo, Decoder, FileInfo, Flow, Keyframes, Options, Record, Status, Visitor,
    Warning,
};
use numpy::ndarray::Array2;
use numpy::PyArray2;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString, PyTuple};
use pyo3::{intern, IntoPyObjectExt};

use crate::{decode_failure, latin1, warning_dict, with_bytes};

/// Streams the events of the binary file object `f` (anything with `read(n)` returning bytes).
///
/// Yields `(name, payload)` tuples in the decoder's order (see the type stubs for each
/// payload). If `f` has `seekable()` returning True, the reader seeks it where the format
/// needs (Stories files), relative to `f.tell()` at the start; otherwise it reads front to
/// back only. Raises DecodeError, after the events before the failure, where the file fails.
#[pyfunction]
#[pyo3(signature = (f, chunk_size = 65536))]
pub fn events(py: Python<'_>, f: Py<PyAny>, chunk_size: usize) -> PyResult<EventReader> {
    if chunk_size == 0 {
        return Err(pyo3::exceptions::PyValueError::new_err(
            "chunk_size must be positive",
        ));
    }
    let file = f.bind(py);
    let seekable = match file.getattr_opt(intern!(py, "seekable"))? {
        Some(method) => method.call0()?.is_truthy()?,
        None => false,
    };
    let base = if seekable {
        file.call_method0(intern!(py, "tell"))?.extract()?
    } else {
        0
    };
    Ok(EventReader {
        file: f,
        decoder: Decoder::with_options(Options {
            can_seek: seekable,
            ..Options::DEFAULT
        }),
        seekable,
        base,
        chunk_size,
        chunk: None,
        at: 0,
        queue: VecDeque::new(),
        failed: None,
        state: State::Running,
        context: Context::default(),
        decoded: Decoded::default(),
    })
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Running,
    /// The input ended (`end` queued) or the decoding failed (raised once).
    Over,
}

/// The iterator `events()` returns.
#[pyclass(module = "gtastream")]
pub struct EventReader {
    file: Py<PyAny>,
    decoder: Decoder,
    seekable: bool,
    /// The file's position when reading began: the decoder's offsets count from there.
    base: u64,
    chunk_size: usize,
    /// The chunk being decoded and how much of it the decoder consumed.
    chunk: Option<Py<PyBytes>>,
    at: usize,
    /// Events decoded but not yet handed out: the decoder pauses after each event, so this
    /// holds one or two (`finish` cannot pause).
    queue: VecDeque<Py<PyAny>>,
    /// An error raised once the events queued before it are handed out (the decoder can report
    /// a batch of keyframes and then fail in the same call).
    failed: Option<PyErr>,
    state: State,
    /// Where the decoder is and what it reported, kept between steps: an error's place.
    context: Context,
    decoded: Decoded,
}

#[pymethods]
impl EventReader {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        loop {
            if let Some(event) = self.queue.pop_front() {
                return Ok(Some(event));
            }
            if let Some(error) = self.failed.take() {
                return Err(error);
            }
            if self.state == State::Over {
                return Ok(None);
            }
            if let Err(error) = self.step(py) {
                self.state = State::Over;
                self.chunk = None;
                self.failed = Some(error);
            }
        }
    }

    /// Absolute offset (from where reading began) of the next byte the decoder wants.
    #[getter]
    fn position(&self) -> u64 {
        self.decoder.position()
    }
}

impl EventReader {
    /// Decodes until at least one event is queued, the input ends, or an error.
    fn step(&mut self, py: Python<'_>) -> PyResult<()> {
        let Some(chunk) = &self.chunk else {
            let data = self
                .file
                .bind(py)
                .call_method1(intern!(py, "read"), (self.chunk_size,))?;
            // Bytes as they are; another buffer (a bytearray from a custom reader) copied.
            let data = match data.cast_into::<PyBytes>() {
                Ok(bytes) => bytes,
                Err(error) => {
                    let other = error.into_inner();
                    with_bytes(&other, |b| Ok(PyBytes::new(py, b))).map_err(|_| {
                        PyTypeError::new_err(
                            "events() needs a binary file: f.read(n) must return bytes",
                        )
                    })?
                }
            };
            if data.as_bytes().is_empty() {
                let mut sink = Tracked {
                    context: self.context,
                    decoded: self.decoded,
                    inner: Sink::new(py, &mut self.queue),
                };
                let result = sink.finish(&mut self.decoder);
                sink.inner.check()?;
                result.map_err(|failure| decode_failure(py, &failure))?;
                self.state = State::Over;
            } else {
                self.chunk = Some(data.unbind());
                self.at = 0;
            }
            return Ok(());
        };
        let chunk = chunk.clone_ref(py);
        let bytes = chunk.bind(py).as_bytes();
        let mut sink = Tracked {
            context: self.context,
            decoded: self.decoded,
            inner: Sink::new(py, &mut self.queue),
        };
        let result = sink.feed(&mut self.decoder, &bytes[self.at..]);
        (self.context, self.decoded) = (sink.context, sink.decoded);
        sink.inner.check()?;
        let progress = result.map_err(|failure| decode_failure(py, &failure))?;
        self.at += progress.consumed;
        match progress.status {
            Status::Paused => {}
            Status::Seek(offset) if self.seekable => {
                self.chunk = None;
                let target = self.base.saturating_add(offset);
                self.file
                    .bind(py)
                    .call_method1(intern!(py, "seek"), (target,))?;
            }
            // As `gtastream::io` reads: after the content is complete the rest of the chunk
            // is not fed, the reading goes on to the end (where `finish` reports `end`).
            Status::Seek(_) | Status::NeedInput | Status::Done => self.chunk = None,
        }
        Ok(())
    }
}

/// The visitor that turns events into Python objects, pausing the decoder after each one.
struct Sink<'a, 'py> {
    py: Python<'py>,
    queue: &'a mut VecDeque<Py<PyAny>>,
    /// A Python error while building an event (out of memory, ...): decoding aborts.
    error: Option<PyErr>,
}

impl<'a, 'py> Sink<'a, 'py> {
    fn new(py: Python<'py>, queue: &'a mut VecDeque<Py<PyAny>>) -> Self {
        Sink {
            py,
            queue,
            error: None,
        }
    }

    /// The Python error that aborted the decoding, if any (it wins over the `aborted`
    /// decoding error it caused).
    fn check(&mut self) -> PyResult<()> {
        self.error.take().map_or(Ok(()), Err)
    }

    fn push(&mut self, name: &str, payload: PyResult<Bound<'py, PyAny>>) -> Flow {
        let event = payload.and_then(|payload| {
            let name = PyString::intern(self.py, name);
            Ok(PyTuple::new(self.py, [name.into_any(), payload])?.into_any())
        });
        match event {
            Ok(event) => {
                self.queue.push_back(event.unbind());
                Flow::Pause
            }
            Err(error) => {
                self.error = Some(error);
                Flow::Abort
            }
        }
    }

    fn dict(&self, items: &[(&str, Bound<'py, PyAny>)]) -> PyResult<Bound<'py, PyAny>> {
        let dict = PyDict::new(self.py);
        for (key, value) in items {
            dict.set_item(PyString::intern(self.py, key), value)?;
        }
        Ok(dict.into_any())
    }

    fn value(&self, value: impl IntoPyObjectExt<'py>) -> Bound<'py, PyAny> {
        // Numbers, strings, None and small tuples convert without failing.
        value
            .into_bound_py_any(self.py)
            .unwrap_or_else(|_| self.py.None().into_bound(self.py))
    }

    fn name(&self, bytes: Option<&[u8]>) -> Bound<'py, PyAny> {
        self.value(bytes.map(latin1))
    }
}

impl Visitor for Sink<'_, '_> {
    fn file(&mut self, info: &FileInfo<'_>) -> Flow {
        let payload = self.dict(&[
            ("format", self.value(info.format.name())),
            ("name", self.name(info.name)),
            ("animation_count", self.value(info.animation_count)),
            ("instance_count", self.value(info.instance_count)),
            ("car_count", self.value(info.car_count)),
            ("rw_version", self.value(info.rw_version)),
        ]);
        self.push("file", payload)
    }

    fn animation(&mut self, info: &AnimationInfo<'_>) -> Flow {
        let payload = self.dict(&[
            ("index", self.value(info.index)),
            ("name", self.name(Some(info.name))),
            ("bone_count", self.value(info.bone_count)),
            ("frame_data_size", self.value(info.frame_data_size)),
            ("flags", self.value(info.flags)),
            ("duration", self.value(info.duration)),
        ]);
        self.push("animation", payload)
    }

    fn bone(&mut self, info: &BoneInfo<'_>) -> Flow {
        let payload = self.dict(&[
            ("index", self.value(info.index)),
            ("name", self.name(info.name)),
            ("bone_id", self.value(info.bone_id)),
            ("bone_key", self.value(info.bone_key)),
            ("frame_type", self.value(info.frame_type.name())),
            ("frame_count", self.value(info.frame_count)),
            ("has_translation", self.value(info.has_translation())),
            ("has_scale", self.value(info.has_scale())),
        ]);
        self.push("bone", payload)
    }

    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        // One float32 row per keyframe: time, rotation x y z w, then translation and scale
        // where the frame type stores them (5, 8 or 11 columns).
        let frame_type = frames.frame_type();
        let (translation, scale) = (frame_type.has_translation(), frame_type.has_scale());
        let width = 5 + 3 * usize::from(translation) + 3 * usize::from(scale);
        let mut values = Vec::with_capacity(frames.len() * width);
        frames.iter().for_each(|frame| {
            values.push(frame.time);
            values.extend_from_slice(&frame.rotation);
            if translation {
                values.extend_from_slice(&frame.translation);
            }
            if scale {
                values.extend_from_slice(&frame.scale);
            }
        });
        let rows = frames.len();
        let array = Array2::from_shape_vec((rows, width), values)
            .expect("each keyframe pushed one whole row");
        let payload = Ok(PyArray2::from_owned_array(self.py, array).into_any());
        self.push("keyframes", payload)
    }

    fn bone_end(&mut self) -> Flow {
        self.push("bone_end", Ok(self.py.None().into_bound(self.py)))
    }

    fn animation_end(&mut self) -> Flow {
        self.push("animation_end", Ok(self.py.None().into_bound(self.py)))
    }

    /// Every kind alike: `(kind name, dict of its fields)`, from the core's declaration.
    fn record(&mut self, record: &Record<'_>) -> Flow {
        let py = self.py;
        let payload = crate::records::record_dict(py, record, |v| v.into_bound_py_any(py));
        self.push(record.kind().schema().name, payload.map(Bound::into_any))
    }

    fn warning(&mut self, warning: Warning) -> Flow {
        let payload = warning_dict(self.py, &warning, None).map(Bound::into_any);
        self.push("warning", payload)
    }

    fn end(&mut self) -> Flow {
        self.push("end", Ok(self.py.None().into_bound(self.py)))
    }
}
