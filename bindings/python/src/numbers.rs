//! The memo of the document's numbers: one Python object per distinct value (keyframes repeat
//! few values: the packed formats store 16-bit integers), which is faster and smaller than one
//! object per use.
//!
//! The hot path ([`Numbers::counted`]) hands out references whose reference count it only
//! tallies: building a million lists then never touches the number objects themselves, which
//! lie scattered over the heap (a cache miss each). The tallies are added to the objects by
//! [`Numbers::settle`], which must run before any reference handed out so is released: the
//! document settles when it is finished and when it is dropped, and every error of the hot
//! path settles before it returns.

use std::ptr;

use pyo3::ffi;
use pyo3::prelude::*;

/// Sets of the memo, two slots each.
const SETS: usize = 1 << 15;

#[derive(Clone, Copy)]
struct Slot {
    bits: u32,
    /// References handed out and not yet added to the object's count.
    uses: u32,
    /// One reference the memo owns; null: the slot is empty.
    object: *mut ffi::PyObject,
}

const EMPTY: Slot = Slot {
    bits: 0,
    uses: 0,
    object: ptr::null_mut(),
};

impl Slot {
    /// Adds the tallied uses to the object's reference count.
    fn settle(&mut self) {
        for _ in 0..self.uses {
            // SAFETY: the memo owns a reference, so the object is alive.
            unsafe { ffi::Py_IncRef(self.object) };
        }
        self.uses = 0;
    }
}

pub struct Numbers {
    sets: Box<[[Slot; 2]]>,
}

impl Numbers {
    pub fn new() -> Self {
        Numbers {
            sets: vec![[EMPTY; 2]; SETS].into_boxed_slice(),
        }
    }

    /// A reference to the object of `value`, as `json.loads` reads the document's text of it,
    /// counted at the next [`settle`](Self::settle): it must go into a container at once and
    /// not be released before then. On error the memo is settled.
    pub fn counted(&mut self, py: Python<'_>, value: f32) -> PyResult<*mut ffi::PyObject> {
        let slot = self.slot(py, value)?;
        if slot.uses == u32::MAX {
            slot.settle();
        }
        slot.uses += 1;
        Ok(slot.object)
    }

    /// The object of `value`, borrowed from the memo: valid until the next lookup.
    pub fn borrowed(&mut self, py: Python<'_>, value: f32) -> PyResult<*mut ffi::PyObject> {
        Ok(self.slot(py, value)?.object)
    }

    /// Asks the processor to load the sets of `values`, so that their cache misses overlap
    /// (the lookups come between calls into Python, which keep them apart).
    pub fn prefetch(&self, values: &[f32]) {
        #[cfg(target_arch = "x86_64")]
        for value in values {
            let set = &self.sets[set_of(value.to_bits())];
            // SAFETY: a hint only; the address is that of a live element.
            unsafe {
                use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
                _mm_prefetch::<_MM_HINT_T0>(set.as_ptr().cast());
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = values;
    }

    /// The slot of `value`, made if it is new (the older of its set makes way).
    fn slot(&mut self, py: Python<'_>, value: f32) -> PyResult<&mut Slot> {
        let bits = value.to_bits();
        let index = set_of(bits);
        let hit = |slot: &Slot| !slot.object.is_null() && slot.bits == bits;
        let set = &self.sets[index];
        let way = if hit(&set[0]) {
            0
        } else if hit(&set[1]) {
            1
        } else {
            let object = match number_object(py, value) {
                Ok(object) => object.into_ptr(),
                Err(error) => {
                    self.settle();
                    return Err(error);
                }
            };
            // The older slot makes way; its object lives on in the document.
            let [newer, older] = &mut self.sets[index];
            older.settle();
            if !older.object.is_null() {
                // SAFETY: the memo's own reference, given up.
                unsafe { ffi::Py_DecRef(older.object) };
            }
            *older = *newer;
            *newer = Slot {
                bits,
                uses: 0,
                object,
            };
            0
        };
        Ok(&mut self.sets[index][way])
    }

    /// A reference of its own to the object of `value` (counted now).
    pub fn owned<'py>(&mut self, py: Python<'py>, value: f32) -> PyResult<Bound<'py, PyAny>> {
        let object = self.borrowed(py, value)?;
        // SAFETY: the memo holds the object; the reference taken is the caller's.
        Ok(unsafe { Bound::from_borrowed_ptr(py, object) })
    }

    /// Adds every tallied use to its object's reference count.
    pub fn settle(&mut self) {
        for slot in self.sets.iter_mut().flatten() {
            if slot.uses > 0 {
                slot.settle();
            }
        }
    }
}

/// The set of a value's bits.
fn set_of(bits: u32) -> usize {
    (bits.wrapping_mul(0x9E37_79B1) >> (32 - SETS.trailing_zeros())) as usize
}

impl Drop for Numbers {
    fn drop(&mut self) {
        self.settle();
        for slot in self.sets.iter().flatten() {
            if !slot.object.is_null() {
                // SAFETY: the memo's own reference.
                unsafe { ffi::Py_DecRef(slot.object) };
            }
        }
    }
}

/// A float as `json.loads` reads the document's text of it: None for NaN and infinities,
/// an int for a whole number (the text has no point), else the float.
fn number_object(py: Python<'_>, value: f32) -> PyResult<Py<PyAny>> {
    use pyo3::types::PyInt;
    use pyo3::IntoPyObjectExt;
    let Some(number) = gtastream::json::number(value) else {
        return Ok(py.None());
    };
    // -0.0 stays a float: the int 0 the text `-0` reads as has no sign, and the file could
    // not be written back (it equals 0 all the same).
    if number.fract() != 0.0 || number.to_bits() == (-0.0f64).to_bits() {
        return number.into_py_any(py);
    }
    // Below 2^53 the f64 is the text's integer exactly; above, the text's digits are read.
    if number.abs() < 9_007_199_254_740_992.0 {
        return (number as i64).into_py_any(py);
    }
    Ok(py.get_type::<PyInt>().call1((value.to_string(),))?.unbind())
}
