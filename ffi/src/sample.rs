//! The sampler and the per-animation summary (docs/ANIMATION.md) for C: stateless calls over a
//! file the caller holds in memory, results into the caller's structs. Each call walks the file
//! with the core's decoder (about 5 µs for a ped animation) and allocates nothing.
//!
//! (These are plain functions, not an object on the handle machinery: the sampler borrows the
//! caller's buffer, and re-indexing per call keeps every call independent of the last.)

use std::panic::{catch_unwind, AssertUnwindSafe};

use gtastream_core::{AnimationSummary, Decoder, Error, Flow, Sampler, Summarize, Visitor};

use crate::bridge::error_status;
use crate::types::gts_status;

/// Most bones `gts_sample` samples in one animation (`GTS_ERR_LIMIT` beyond).
pub const GTS_SAMPLE_MAX_BONES: usize = 128;

/// The pose of one bone, as `gts_sample` writes it.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct gts_bone_pose {
    /// The bone's 0-based position in its animation (bones without keys are skipped).
    pub index: u32,
    /// The bone id as stored; meaningful when `has_bone_id` is 1.
    pub bone_id: i32,
    /// 1 when the format stores a bone id.
    pub has_bone_id: u8,
    /// 1 when the bone's keys carry a translation (else `translation` is zeros).
    pub has_translation: u8,
    /// Quaternion x, y, z, w, of unit length (normalised as the games normalise it before
    /// use), unless the keys hold NaN or infinity.
    pub rotation: [f32; 4],
    /// Translation x, y, z.
    pub translation: [f32; 3],
}

/// An animation's summary, as `gts_summarize_animation` writes it (the fields of the core's
/// `AnimationSummary`; docs/ANIMATION.md).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct gts_animation_summary {
    /// Seconds, as the games compute it: the largest last-key time over the bones.
    pub length: f32,
    /// Bones stored, bones without keys.
    pub bones: u32,
    /// Bones without keys (the games play none).
    pub empty: u32,
    /// Keyframes over all bones.
    pub keyframes: u64,
    /// Bit i: the animation defines standard bone i (the core's `skeleton::BONES`).
    pub standard: u64,
    /// Bones that store an id (not -1).
    pub with_id: u32,
    /// Bones bound by name.
    pub without_id: u32,
    /// Bones that match no standard bone.
    pub unmatched: u32,
    /// Bones stored packed (IFP2 types 3, 4).
    pub packed: u32,
    /// Bones stored as floats.
    pub float_bones: u32,
    /// Bones with translation.
    pub translation: u32,
    /// Bones with scale.
    pub scale: u32,
    /// 1 when packed and float bones are mixed.
    pub mixed: u8,
}

impl From<&AnimationSummary> for gts_animation_summary {
    fn from(s: &AnimationSummary) -> Self {
        gts_animation_summary {
            length: s.length,
            bones: s.bones,
            empty: s.empty,
            keyframes: s.keyframes,
            standard: s.standard,
            with_id: s.with_id,
            without_id: s.without_id,
            unmatched: s.unmatched,
            packed: s.packed,
            float_bones: s.float,
            translation: s.translation,
            scale: s.scale,
            mixed: u8::from(s.is_mixed()),
        }
    }
}

/// The caller's buffer as a slice, or `None` for a bad pointer.
///
/// # Safety
/// `data` is NULL or points to `len` readable bytes.
unsafe fn slice<'a>(data: *const u8, len: usize) -> Option<&'a [u8]> {
    if len == 0 {
        return Some(&[]);
    }
    // A slice over isize::MAX bytes is undefined behaviour even unread: refused first.
    if data.is_null() || len > isize::MAX as usize {
        return None;
    }
    // SAFETY: non-null, and the caller's contract gives `len` readable bytes for the call.
    Some(unsafe { core::slice::from_raw_parts(data, len) })
}

/// Runs `f`, turning a panic into `GTS_ERR_OTHER`.
fn guarded(f: impl FnOnce() -> Result<(), Error>, error_offset: *mut u64) -> gts_status {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => gts_status::GTS_OK,
        Ok(Err(error)) => {
            if !error_offset.is_null() {
                // SAFETY: non-null; the caller's contract makes it writable.
                unsafe { error_offset.write_unaligned(error.offset) };
            }
            error_status(error.kind)
        }
        Err(_) => gts_status::GTS_ERR_OTHER,
    }
}

/// The pose at `time` seconds of the animation named by the `name_len` bytes at `name`
/// (compared ASCII case-insensitively, trimmed) in the file of `len` bytes at `data`, as the
/// games compute it (docs/ANIMATION.md); with `looped` non-zero the time wraps by the
/// animation's length, each bone on its own keys. `time` is any finite number of seconds from
/// 0 (`GTS_ERR_BAD_TIME` for NaN, an infinity or a negative time: the games never play below
/// 0); each rotation is a unit quaternion unless the file's keys hold NaN or infinity.
///
/// Writes the poses of the bones that have keys, in file order, to `out[0..min(count,
/// capacity))`, and their number to `*count` (which may exceed `capacity`: call again with a
/// larger array). Returns `GTS_OK`; `GTS_ERR_NOT_FOUND` (no such animation),
/// `GTS_ERR_ENDLESS` (a looped animation the games would play for ever), `GTS_ERR_BAD_TIME`, `GTS_ERR_LIMIT` (more
/// than `GTS_SAMPLE_MAX_BONES` bones), a decoding error (`*error_offset` then says where, when
/// `error_offset` is not NULL), or `GTS_ERR_INVALID_ARGUMENT`.
///
/// Pointers: `data` points to `len` readable bytes (NULL when `len` is 0), `name` to `name_len`;
/// `out` to `capacity` writable `gts_bone_pose` (NULL when `capacity` is 0); `count` to a
/// writable `size_t`; `error_offset` is NULL or points to a writable `uint64_t`.
#[no_mangle]
pub unsafe extern "C" fn gts_sample(
    data: *const u8,
    len: usize,
    name: *const u8,
    name_len: usize,
    time: f32,
    looped: i32,
    out: *mut gts_bone_pose,
    capacity: usize,
    count: *mut usize,
    error_offset: *mut u64,
) -> gts_status {
    // SAFETY: the caller's contract for `data` and `name`.
    let (Some(data), Some(name)) = (unsafe { slice(data, len) }, unsafe {
        slice(name, name_len)
    }) else {
        return gts_status::GTS_ERR_INVALID_ARGUMENT;
    };
    if count.is_null() || (out.is_null() && capacity > 0) {
        return gts_status::GTS_ERR_INVALID_ARGUMENT;
    }
    guarded(
        || {
            let sampler = Sampler::<GTS_SAMPLE_MAX_BONES>::new(data, name)?;
            let mut n = 0usize;
            sampler.sample(time, looped != 0, |pose| {
                if n < capacity {
                    let c = gts_bone_pose {
                        index: pose.index,
                        bone_id: pose.bone_id.unwrap_or(-1),
                        has_bone_id: u8::from(pose.bone_id.is_some()),
                        has_translation: u8::from(pose.translation.is_some()),
                        rotation: pose.rotation,
                        translation: pose.translation.unwrap_or_default(),
                    };
                    // SAFETY: n < capacity, and `out` holds `capacity` writable poses.
                    unsafe { out.add(n).write_unaligned(c) };
                }
                n += 1;
            })?;
            // SAFETY: checked non-null; the caller's contract makes it writable.
            unsafe { count.write_unaligned(n) };
            Ok(())
        },
        error_offset,
    )
}

/// Finds one animation's summary while the decoder runs.
struct Pick {
    index: u32,
    found: Option<AnimationSummary>,
}

impl Visitor for Pick {
    fn animation_summary(&mut self, summary: &AnimationSummary) -> Flow {
        if summary.index == self.index {
            self.found = Some(*summary);
            return Flow::Abort;
        }
        Flow::Continue
    }
}

/// The summary of the animation at `index` (0-based, file order) of the file of `len` bytes at
/// `data`, into `*out`. Returns `GTS_OK`, `GTS_ERR_NOT_FOUND` (fewer animations), a decoding
/// error (`*error_offset` says where, when not NULL), or `GTS_ERR_INVALID_ARGUMENT`.
///
/// Pointers: `data` points to `len` readable bytes (NULL when `len` is 0); `out` to a writable
/// `gts_animation_summary`; `error_offset` is NULL or points to a writable `uint64_t`.
#[no_mangle]
pub unsafe extern "C" fn gts_summarize_animation(
    data: *const u8,
    len: usize,
    index: u32,
    out: *mut gts_animation_summary,
    error_offset: *mut u64,
) -> gts_status {
    // SAFETY: the caller's contract for `data`.
    let Some(data) = (unsafe { slice(data, len) }) else {
        return gts_status::GTS_ERR_INVALID_ARGUMENT;
    };
    if out.is_null() {
        return gts_status::GTS_ERR_INVALID_ARGUMENT;
    }
    guarded(
        || {
            let mut pick = Summarize::new(Pick { index, found: None });
            let result = Decoder::new().decode_slice(data, &mut pick);
            match (pick.inner.found, result) {
                (Some(summary), _) => {
                    // SAFETY: checked non-null; the caller's contract makes it writable.
                    unsafe { out.write_unaligned(gts_animation_summary::from(&summary)) };
                    Ok(())
                }
                (None, Err(error)) => Err(error),
                (None, Ok(())) => Err(Error {
                    kind: gtastream_core::ErrorKind::NotFound,
                    offset: 0,
                }),
            }
        },
        error_offset,
    )
}

#[cfg(test)]
mod tests {
    use core::ptr::{null, null_mut};

    use testkit::ifp2::*;

    use super::*;

    /// Root: identity at 0 s, 180° about z at 2 s, translation to (2, 0, -2); Head: one key.
    fn file() -> Vec<u8> {
        FileSpec::anp3(
            "c",
            vec![AnimSpec::new(
                "walk",
                vec![
                    BoneSpec::new(
                        "Root",
                        2,
                        0,
                        vec![
                            f2([0.0, 0.0, 0.0, 1.0], 0.0, [0.0; 3]),
                            f2([0.0, 0.0, 1.0, 0.0], 2.0, [2.0, 0.0, -2.0]),
                        ],
                    ),
                    BoneSpec::new("Head", 1, -1, vec![f1([0.5; 4], 0.0)]),
                ],
            )],
        )
        .build()
    }

    /// At 1 s both slerp weights are sin(π/4); the translation is halfway; Head holds its key.
    #[test]
    fn sample_by_hand() {
        let data = file();
        let mut out = [gts_bone_pose::default(); 4];
        let mut count = 0;
        let name = b"WALK";
        // SAFETY: every pointer points to what the contract asks.
        let status = unsafe {
            gts_sample(
                data.as_ptr(),
                data.len(),
                name.as_ptr(),
                name.len(),
                1.0,
                0,
                out.as_mut_ptr(),
                out.len(),
                &mut count,
                null_mut(),
            )
        };
        assert_eq!((status, count), (gts_status::GTS_OK, 2));
        let half = core::f32::consts::FRAC_1_SQRT_2;
        assert_eq!(out[0].index, 0);
        assert_eq!(
            (out[0].bone_id, out[0].has_bone_id, out[0].has_translation),
            (0, 1, 1)
        );
        for (got, want) in out[0].rotation.iter().zip([0.0, 0.0, half, half]) {
            assert!((got - want).abs() < 1e-6);
        }
        assert_eq!(out[0].translation, [1.0, 0.0, -1.0]);
        assert_eq!((out[1].bone_id, out[1].has_translation), (-1, 0));
        assert_eq!(out[1].rotation, [0.5; 4]);
        // A short array: the count says how many there are.
        let mut one = [gts_bone_pose::default(); 1];
        // SAFETY: as above.
        let status = unsafe {
            gts_sample(
                data.as_ptr(),
                data.len(),
                name.as_ptr(),
                4,
                1.0,
                0,
                one.as_mut_ptr(),
                1,
                &mut count,
                null_mut(),
            )
        };
        assert_eq!((status, count, one[0]), (gts_status::GTS_OK, 2, out[0]));
        let mut offset = 7;
        // SAFETY: as above.
        let status = unsafe {
            gts_sample(
                data.as_ptr(),
                data.len(),
                b"run".as_ptr(),
                3,
                0.0,
                0,
                null_mut(),
                0,
                &mut count,
                &mut offset,
            )
        };
        assert_eq!((status, offset), (gts_status::GTS_ERR_NOT_FOUND, 0));
        // SAFETY: a NULL count is refused before any access.
        let status = unsafe {
            gts_sample(
                data.as_ptr(),
                data.len(),
                null(),
                0,
                0.0,
                0,
                null_mut(),
                0,
                null_mut(),
                null_mut(),
            )
        };
        assert_eq!(status, gts_status::GTS_ERR_INVALID_ARGUMENT);
    }

    #[test]
    fn summary_by_hand() {
        let data = file();
        let mut out = gts_animation_summary::default();
        // SAFETY: valid pointers.
        let status =
            unsafe { gts_summarize_animation(data.as_ptr(), data.len(), 0, &mut out, null_mut()) };
        assert_eq!(status, gts_status::GTS_OK);
        assert_eq!((out.length, out.bones, out.keyframes), (2.0, 2, 3));
        assert_eq!(
            (
                out.with_id,
                out.without_id,
                out.float_bones,
                out.translation
            ),
            (1, 1, 2, 1)
        );
        // Root (0) and Head (5) of the standard table: bits 0 and 5.
        assert_eq!(out.standard, 1 | 1 << 5);
        // SAFETY: valid pointers.
        let status =
            unsafe { gts_summarize_animation(data.as_ptr(), data.len(), 1, &mut out, null_mut()) };
        assert_eq!(status, gts_status::GTS_ERR_NOT_FOUND);
    }

    /// Times outside the sampler's domain are `GTS_ERR_BAD_TIME`; a looped time far past the
    /// length is a pose.
    #[test]
    fn sample_time_domain() {
        let data = file();
        let mut out = [gts_bone_pose::default(); 4];
        let mut count = 0;
        let mut offset = 7;
        let sample = |time: f32,
                      looped: i32,
                      out: &mut [gts_bone_pose; 4],
                      count: &mut usize,
                      offset: &mut u64| {
            // SAFETY: every pointer points to what the contract asks.
            unsafe {
                gts_sample(
                    data.as_ptr(),
                    data.len(),
                    b"walk".as_ptr(),
                    4,
                    time,
                    looped,
                    out.as_mut_ptr(),
                    4,
                    count,
                    offset,
                )
            }
        };
        for time in [-1.0, f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            let status = sample(time, 1, &mut out, &mut count, &mut offset);
            assert_eq!(
                (status, offset),
                (gts_status::GTS_ERR_BAD_TIME, 0),
                "{time}"
            );
        }
        let status = sample(1e9, 1, &mut out, &mut count, &mut offset);
        assert_eq!((status, count), (gts_status::GTS_OK, 2));
        // 1e9 is 5e8 laps of 2 s: the pose at 0.
        assert_eq!(out[0].rotation, [0.0, 0.0, 0.0, 1.0]);
    }
}
