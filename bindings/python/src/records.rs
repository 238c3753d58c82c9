//! Records of every kind as Python dicts and back, walked from the core's declaration
//! (`gtastream::record`: each kind's schema names its fields and their types). No kind is
//! named here: a kind declared in `for_each_record!` reaches `decode()`, `events()` and
//! `write()` without code of its own (its TypedDict in `_native.pyi` is generated from the
//! same declaration: `cargo run --example record_types -- python`).

use gtastream::record::{FieldType, Record, RecordKind, Value};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use pyo3::IntoPyObjectExt;

use crate::latin1;

/// The dict of a record: the fields the document has, by name, in their declared order;
/// `number` makes a float's object (the document's: as `json.loads` reads its text).
pub(crate) fn record_dict<'py>(
    py: Python<'py>,
    record: &Record<'_>,
    mut number: impl FnMut(f32) -> PyResult<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let schema = record.kind().schema();
    let dict = PyDict::new(py);
    for (i, field) in schema.fields.iter().enumerate() {
        if !field.in_document {
            continue;
        }
        let value = match record.value(i) {
            Value::Null => py.None().into_bound(py),
            Value::I32(v) => v.into_bound_py_any(py)?,
            Value::U32(v) => v.into_bound_py_any(py)?,
            Value::U64(v) => v.into_bound_py_any(py)?,
            Value::F32(v) => number(v)?,
            Value::Floats(values) => {
                let items = values
                    .iter()
                    .map(|&v| number(v))
                    .collect::<PyResult<Vec<_>>>()?;
                PyList::new(py, items)?.into_any()
            }
            Value::Text(bytes) => latin1(bytes).into_bound_py_any(py)?,
        };
        dict.set_item(PyString::intern(py, field.name), value)?;
    }
    Ok(dict)
}

/// A field's value read from a dict, owned until the record borrows it.
enum Owned {
    Null,
    I32(i32),
    U32(u32),
    U64(u64),
    F32(f32),
    Floats(Vec<f32>),
    Text(Vec<u8>),
}

fn invalid(what: String) -> PyErr {
    PyValueError::new_err(format!("not a decode() document: {what}"))
}

/// A number of the document: None (NaN or an infinity in the file) is NaN.
fn float(value: &Bound<'_, PyAny>) -> PyResult<f32> {
    if value.is_none() {
        return Ok(f32::NAN);
    }
    Ok(value.extract::<f64>()? as f32)
}

/// A record of `kind` from its dict, its bytes as stored `raw`, handed to `f` (the record
/// borrows the values read from the dict).
pub(crate) fn with_record<R>(
    kind: RecordKind,
    dict: &Bound<'_, PyAny>,
    raw: &[u8],
    f: impl FnOnce(&Record<'_>) -> PyResult<R>,
) -> PyResult<R> {
    let schema = kind.schema();
    let dict = dict
        .cast::<PyDict>()
        .map_err(|_| invalid(format!("a dict was expected for a {}", schema.name)))?;
    let mut values = Vec::with_capacity(schema.fields.len());
    for field in schema.fields {
        let value = match dict.get_item(field.name)? {
            Some(value) if field.in_document => value,
            // A field the document leaves out (a line's number) starts from zero.
            _ if !field.in_document => {
                values.push(None);
                continue;
            }
            _ => {
                return Err(invalid(format!(
                    "{}.{} is missing",
                    schema.name, field.name
                )))
            }
        };
        let owned = if value.is_none() && field.optional {
            Owned::Null
        } else {
            match field.ty {
                FieldType::I32 => Owned::I32(value.extract()?),
                FieldType::U32 => Owned::U32(value.extract()?),
                FieldType::U64 => Owned::U64(value.extract()?),
                FieldType::F32 => Owned::F32(float(&value)?),
                FieldType::Floats(n) => {
                    let items: Vec<Bound<'_, PyAny>> = value.extract()?;
                    if items.len() != n {
                        let what = format!("{}.{}: {n} numbers", schema.name, field.name);
                        return Err(invalid(what));
                    }
                    Owned::Floats(items.iter().map(float).collect::<PyResult<_>>()?)
                }
                FieldType::Text => {
                    let text: String = value.extract()?;
                    let bytes = text
                        .chars()
                        .map(|c| u8::try_from(u32::from(c)))
                        .collect::<Result<Vec<u8>, _>>()
                        .map_err(|_| {
                            let what = format!("{}.{}", schema.name, field.name);
                            PyValueError::new_err(format!(
                                "{what}: a character beyond Latin-1 (names are bytes)"
                            ))
                        })?;
                    Owned::Text(bytes)
                }
            }
        };
        values.push(Some(owned));
    }
    let mut record = Record::new(kind);
    for (i, value) in values.iter().enumerate() {
        let value = match value {
            None => continue,
            Some(Owned::Null) => Value::Null,
            Some(Owned::I32(v)) => Value::I32(*v),
            Some(Owned::U32(v)) => Value::U32(*v),
            Some(Owned::U64(v)) => Value::U64(*v),
            Some(Owned::F32(v)) => Value::F32(*v),
            Some(Owned::Floats(v)) => Value::Floats(v),
            Some(Owned::Text(v)) => Value::Text(v),
        };
        record.set(i, value).map_err(|_| {
            let field = schema.fields[i].name;
            invalid(format!("{}.{field} is not of its type", schema.name))
        })?;
    }
    record.set_raw(raw);
    f(&record)
}
