//! The record kinds in C: the helpers of the generated conversions (`records.rs`, written by
//! `build.rs` from the core's declaration) and the functions that describe the kinds to a
//! generic host (`gts_record_kind_name`, `gts_record_field_info`, ...).

use core::ffi::{c_char, c_int, CStr};

use gtastream_core::record::{FieldType, Record, RecordKind, Value};

use crate::encoder::bytes;
use crate::records::{gts_record_kind, KINDS, KIND_NUMBERS};
use crate::types::gts_status;

/// A `gts_record_kind` as the caller passes it in: any `int` (an invalid Rust enum value would
/// be undefined behaviour). The header calls it `gts_record_kind` (cbindgen.toml renames it).
pub(crate) type RecordKindArg = c_int;

/// A kind's C side: its core kind, its name, its struct's size and per field the offsets of
/// its value, its length (text) and its `has_` flag (optional), 0 where it has none.
pub(crate) struct KindTable {
    pub(crate) kind: RecordKind,
    pub(crate) name: &'static CStr,
    pub(crate) size: usize,
    pub(crate) align: usize,
    pub(crate) fields: &'static [(&'static CStr, usize, usize, usize)],
}

/// No such member: a length or a flag always follows its value, so none lies at offset 0.
pub(crate) const NO_OFFSET: usize = 0;

/// The kind a caller's number names.
pub(crate) fn kind_of(kind: RecordKindArg) -> Option<gts_record_kind> {
    KIND_NUMBERS.get(usize::try_from(kind).ok()?).copied()
}

// From a core field's value to its C member (the generated code passes each field's value).

#[inline]
pub(crate) fn c_i32(v: Value<'_>) -> i32 {
    if let Value::I32(v) = v {
        v
    } else {
        0
    }
}
#[inline]
pub(crate) fn c_u32(v: Value<'_>) -> u32 {
    if let Value::U32(v) = v {
        v
    } else {
        0
    }
}
#[inline]
pub(crate) fn c_u64(v: Value<'_>) -> u64 {
    if let Value::U64(v) = v {
        v
    } else {
        0
    }
}
#[inline]
pub(crate) fn c_f32(v: Value<'_>) -> f32 {
    if let Value::F32(v) = v {
        v
    } else {
        0.0
    }
}
/// Zeros when absent.
#[inline]
pub(crate) fn c_floats<const N: usize>(v: Value<'_>) -> [f32; N] {
    match v {
        Value::Floats(v) => v.try_into().unwrap_or([0.0; N]),
        _ => [0.0; N],
    }
}
/// Text: never NULL when given (an empty text points to a static empty string); NULL when
/// absent.
#[inline]
pub(crate) fn c_text(v: Value<'_>) -> *const c_char {
    match v {
        Value::Text([]) => c"".as_ptr(),
        Value::Text(t) => t.as_ptr().cast(),
        _ => core::ptr::null(),
    }
}
#[inline]
pub(crate) fn c_len(v: Value<'_>) -> usize {
    match v {
        Value::Text(t) => t.len(),
        _ => 0,
    }
}
#[inline]
pub(crate) fn c_has(v: Value<'_>) -> bool {
    !matches!(v, Value::Null)
}
/// Stored bytes: NULL where none were kept.
#[inline]
pub(crate) fn raw_ptr(b: &[u8]) -> *const u8 {
    if b.is_empty() {
        core::ptr::null()
    } else {
        b.as_ptr()
    }
}

// From a C struct back to the core's record.

/// `len` bytes at `ptr` (NULL only with 0).
///
/// # Safety
/// `ptr` points to `len` readable bytes valid for `'a`, or `len` is 0.
#[inline]
pub(crate) unsafe fn text<'a>(ptr: *const c_char, len: usize) -> Result<&'a [u8], gts_status> {
    // SAFETY: the caller's contract.
    unsafe { bytes(ptr, len) }
}

/// Sets field `i` to `value`, or to absent when `given` is false. A value the field cannot
/// hold (a section name that is not ASCII) is not representable.
#[inline]
pub(crate) fn set<'a>(
    record: &mut Record<'a>,
    i: usize,
    given: bool,
    value: Value<'a>,
) -> Result<(), gts_status> {
    let value = if given { value } else { Value::Null };
    record
        .set(i, value)
        .map_err(|_| gts_status::GTS_ERR_NOT_REPRESENTABLE)
}

#[inline]
pub(crate) fn set_raw<'a>(record: &mut Record<'a>, raw: &'a [u8]) {
    record.set_raw(raw);
}

/// The type of a record's field, as `gts_record_field_info` describes it.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum gts_field_type {
    /// `int32_t`.
    GTS_FIELD_I32 = 0,
    /// `uint32_t`.
    GTS_FIELD_U32 = 1,
    /// `uint64_t`.
    GTS_FIELD_U64 = 2,
    /// `float`.
    GTS_FIELD_F32 = 3,
    /// `float[count]`.
    GTS_FIELD_FLOATS = 4,
    /// `const char *` and a `size_t` length (at `len_offset`), not NUL-terminated; one
    /// character per byte (Latin-1).
    GTS_FIELD_TEXT = 5,
}

/// A field of a record kind's struct, for hosts that read any kind generically (a binding, a
/// table view): its name and type and where its members lie in `gts_record_NAME`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct gts_record_field {
    /// Its name (the member's and the JSON document's key), static and NUL-terminated.
    pub name: *const c_char,
    /// Its type.
    pub field_type: gts_field_type,
    /// Floats in a `GTS_FIELD_FLOATS` field; 1 for the others.
    pub count: usize,
    /// Offset of its value in the struct.
    pub offset: usize,
    /// `GTS_FIELD_TEXT`: the offset of its `size_t` length; 0 for the other types.
    pub len_offset: usize,
    /// An optional field: the offset of its `bool has_NAME` (false: absent, its value zero or
    /// NULL); 0 for a field always given.
    pub has_offset: usize,
}

/// Record kinds there are: `gts_record_kind` numbers them from 0 to this count less one.
#[no_mangle]
pub extern "C" fn gts_record_kind_count() -> usize {
    KINDS.len()
}

/// A record kind's name (`instance`, `car`, `section_line`, `dff_frame`, ...: the struct is
/// `gts_record_` and the name), static and NUL-terminated; NULL for a number that names no kind.
#[no_mangle]
pub extern "C" fn gts_record_kind_name(kind: RecordKindArg) -> *const c_char {
    match kind_of(kind) {
        Some(kind) => KINDS[kind as usize].name.as_ptr(),
        None => core::ptr::null(),
    }
}

/// `sizeof` a record kind's struct as the library knows it; 0 for a number that names no kind.
#[no_mangle]
pub extern "C" fn gts_record_size(kind: RecordKindArg) -> usize {
    kind_of(kind).map_or(0, |kind| KINDS[kind as usize].size)
}

/// Fields of a record kind (the `raw` bytes of the kinds that keep them are not a field); 0
/// for a number that names no kind.
#[no_mangle]
pub extern "C" fn gts_record_field_count(kind: RecordKindArg) -> usize {
    kind_of(kind).map_or(0, |kind| KINDS[kind as usize].fields.len())
}

/// Field `index` (from 0, in the JSON document's order) of a record kind into `*field`.
/// `GTS_ERR_INVALID_ARGUMENT` for a kind or index out of range or a NULL `field`.
///
/// Pointers: `field` is NULL or points to a writable `gts_record_field`.
#[no_mangle]
pub unsafe extern "C" fn gts_record_field_info(
    kind: RecordKindArg,
    index: usize,
    field: *mut gts_record_field,
) -> gts_status {
    let Some(kind) = kind_of(kind) else {
        return gts_status::GTS_ERR_INVALID_ARGUMENT;
    };
    let table = &KINDS[kind as usize];
    let (Some(&(name, offset, len_offset, has_offset)), Some(declared)) = (
        table.fields.get(index),
        table.kind.schema().fields.get(index),
    ) else {
        return gts_status::GTS_ERR_INVALID_ARGUMENT;
    };
    if field.is_null() || !field.is_aligned() {
        return gts_status::GTS_ERR_INVALID_ARGUMENT;
    }
    let (field_type, count) = match declared.ty {
        FieldType::I32 => (gts_field_type::GTS_FIELD_I32, 1),
        FieldType::U32 => (gts_field_type::GTS_FIELD_U32, 1),
        FieldType::U64 => (gts_field_type::GTS_FIELD_U64, 1),
        FieldType::F32 => (gts_field_type::GTS_FIELD_F32, 1),
        FieldType::Floats(n) => (gts_field_type::GTS_FIELD_FLOATS, n),
        FieldType::Text => (gts_field_type::GTS_FIELD_TEXT, 1),
    };
    let info = gts_record_field {
        name: name.as_ptr(),
        field_type,
        count,
        offset,
        len_offset,
        has_offset,
    };
    // SAFETY: non-NULL and aligned, writable (the caller's contract).
    unsafe { field.write(info) };
    gts_status::GTS_OK
}
