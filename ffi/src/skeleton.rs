//! A model's skeleton for C (docs/SKELETON.md, docs/C.md): `gts_skeleton`, caller-owned
//! storage that `gts_skeleton_read` fills from a DFF's bytes in one call; accessors for its
//! frames, HAnim nodes, skin and inverse bind matrices; and the calls that bind an
//! animation's tracks to it, pose it in model space at a time, and check an animation (or the
//! model itself) against it, findings by callback. Nothing allocates.
//!
//! The storage is kept by the one handle machinery (`handle.rs`); the skeleton is the core's
//! `rig::Skeleton`, read by `rig::read_skeleton`.

use core::ffi::{c_char, c_void, CStr};
use std::panic::{catch_unwind, AssertUnwindSafe};

use gtastream_core::check::{Finding, Games};
use gtastream_core::rig::{
    bind_all, check_file, check_skeleton, default_host, pose_animation, read_skeleton,
    AnimationTracks, Binding, Host, ReadError, Skeleton, MAX_TRACKS,
};
use gtastream_core::{Error, Sampler};

use crate::bridge::error_status;
use crate::check::{report, FindingFn};
use crate::handle::{Handle, Object};
use crate::rig::{gts_track_binding, reason_code, GTS_UNBOUND_OVERRIDDEN};
use crate::types::gts_status;

/// Number of 64-bit words of a `gts_skeleton`: the core's skeleton (256 frames with their
/// names and matrices, 256 nodes, 256 inverse bind matrices) and a tag word (the library
/// checks at compile time that it fits, on 32- and 64-bit targets).
pub const GTS_SKELETON_WORDS: usize = 6144;

/// Frames, nodes and skin bones a `gts_skeleton` holds (`GTS_ERR_LIMIT` past it).
pub const GTS_SKELETON_MAX_FRAMES: usize = 256;
const _: () = assert!(GTS_SKELETON_MAX_FRAMES == gtastream_core::rig::MAX_FRAMES);

/// Caller-owned storage of one model's skeleton (48 KiB): put it in static memory, on the
/// heap or on a large enough stack, and pass `sizeof` it to `gts_skeleton_read`. Its contents
/// are private; it needs no cleanup.
#[repr(C)]
pub struct gts_skeleton {
    /// Private storage; never read or written by the caller.
    pub opaque: [u64; GTS_SKELETON_WORDS],
}

/// A frame of a skeleton, as `gts_skeleton_frame_info` writes it.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct gts_frame_info {
    /// The parent frame's index; -1 for a root (or a parent that does not come before it,
    /// which the engine walks as a root).
    pub parent: i32,
    /// The rotation as stored: right, up and at vectors (the matrix's columns).
    pub rotation: [f32; 9],
    /// The position relative to the parent.
    pub position: [f32; 3],
    /// The matrix flags as stored.
    pub flags: u32,
    /// The HAnim node id; meaningful when `has_node_id` is 1.
    pub node_id: i32,
    /// 1 when the frame has an HAnim extension.
    pub has_node_id: u8,
    /// 1 when the frame has a name (the node name extension).
    pub has_name: u8,
    /// The name as stored (blanks kept), `name_len` bytes inside the skeleton's storage (valid
    /// while it is), no NUL; NULL without one.
    pub name: *const u8,
    /// Bytes at `name`.
    pub name_len: usize,
}

/// A node of the HAnim table the engine uses, in table order, as `gts_skeleton_node_info`
/// writes it.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct gts_node_info {
    /// The node id (the bone id tracks name).
    pub id: i32,
    /// The node index as stored.
    pub index: i32,
    /// 1 POP, 2 PUSH.
    pub flags: u32,
    /// The first frame whose HAnim id is the node's; -1 for none.
    pub frame: i32,
}

/// The model's skin as `gts_skeleton_skin` writes it: the skin of the geometry the model's
/// last atomic draws (the one the games test).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct gts_skin_info {
    /// The geometry's index.
    pub geometry: u32,
    /// Bones.
    pub bones: u32,
    /// Bones the vertices use.
    pub used_bones: u32,
    /// Weights per vertex (0 in the old layout).
    pub max_weights: u32,
    /// 0: the old layout (RenderWare 3.2 and before); 1: the later one.
    pub layout: u32,
}

struct SkeletonState {
    skeleton: Skeleton,
}

impl Object for SkeletonState {
    type Storage = gts_skeleton;
    /// "gtsskl" and the version of this layout.
    const TAG: u64 = 0x6774_7373_6b6c_0001;
}

/// Writes `offset` to `*error_offset` when it is not NULL.
fn tell(error_offset: *mut u64, offset: u64) {
    if !error_offset.is_null() {
        // SAFETY: non-null; the caller's contract makes it writable.
        unsafe { error_offset.write_unaligned(offset) };
    }
}

/// `len` bytes at `data` as a slice; `None` for NULL with bytes, or a length no slice has.
///
/// # Safety
/// `data` is NULL or points to `len` readable bytes that do not change during the call.
unsafe fn bytes<'a>(data: *const u8, len: usize) -> Option<&'a [u8]> {
    if len == 0 {
        return Some(&[]);
    }
    if data.is_null() || len > isize::MAX as usize {
        return None;
    }
    // SAFETY: non-null, at most isize::MAX bytes, readable by the caller's contract.
    Some(unsafe { core::slice::from_raw_parts(data, len) })
}

/// Reads the skeleton of the DFF (a RenderWare clump) of `len` bytes at `data` into
/// `*skeleton` (`size_of_skeleton` must be `sizeof *skeleton`), replacing what it held: the
/// frames with their names, HAnim ids and matrices, the HAnim node table, the skin of the
/// last atomic's geometry and its inverse bind matrices (docs/SKELETON.md). The bytes are
/// not kept. A skeleton needs no cleanup.
///
/// Returns `GTS_OK`; a decoding error (`*error_offset` then says where, when not NULL);
/// `GTS_ERR_BAD_MAGIC` for a file of another format (offset 0); `GTS_ERR_LIMIT` for more than
/// `GTS_SKELETON_MAX_FRAMES` frames, nodes or bones; `GTS_ERR_INVALID_ARGUMENT`,
/// `GTS_ERR_SIZE_MISMATCH`, `GTS_ERR_REENTRANT` or `GTS_ERR_PANIC`.
///
/// Pointers: `skeleton` is NULL or points to `size_of_skeleton` writable bytes; `data` to `len`
/// readable bytes (NULL when 0), outside `*skeleton`; `error_offset` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn gts_skeleton_read(
    skeleton: *mut gts_skeleton,
    size_of_skeleton: usize,
    data: *const u8,
    len: usize,
    error_offset: *mut u64,
) -> gts_status {
    // SAFETY: the caller's contract.
    let Some(data) = (unsafe { bytes(data, len) }) else {
        return gts_status::GTS_ERR_INVALID_ARGUMENT;
    };
    if crate::handle::overlaps(skeleton.cast_const(), data.as_ptr(), data.len()) {
        return gts_status::GTS_ERR_INVALID_ARGUMENT;
    }
    let read = catch_unwind(AssertUnwindSafe(|| read_skeleton(data)));
    let read = match read {
        Ok(Ok(s)) => s,
        Ok(Err(ReadError::Decode(e))) => {
            tell(error_offset, e.offset);
            return error_status(e.kind);
        }
        Ok(Err(ReadError::NotModel(_))) => {
            tell(error_offset, 0);
            return gts_status::GTS_ERR_BAD_MAGIC;
        }
        Ok(Err(ReadError::Limit(_))) => return gts_status::GTS_ERR_LIMIT,
        Err(_) => return gts_status::GTS_ERR_PANIC,
    };
    // SAFETY: `skeleton` is NULL or points to `size_of_skeleton` writable bytes.
    unsafe {
        Handle::init(skeleton, size_of_skeleton, || {
            Ok(SkeletonState { skeleton: read })
        })
    }
}

/// Reads the skeleton of a `gts_skeleton` (`None`: not a read skeleton, NULL, or busy).
///
/// # Safety
/// `skeleton` is NULL or points to a readable `gts_skeleton`.
unsafe fn with<R>(skeleton: *const gts_skeleton, f: impl FnOnce(&Skeleton) -> R) -> Option<R> {
    // SAFETY: the caller's contract.
    let handle: Handle<SkeletonState> = unsafe { Handle::new(skeleton) }.ok()?;
    Some(handle.read(|s| f(&s.skeleton)))
}

/// Frames of the skeleton (0 when `skeleton` is not one `gts_skeleton_read` filled).
///
/// Pointers: `skeleton` is NULL or points to a readable `gts_skeleton`.
#[no_mangle]
pub unsafe extern "C" fn gts_skeleton_frame_count(skeleton: *const gts_skeleton) -> usize {
    // SAFETY: the caller's contract.
    unsafe { with(skeleton, |s| s.frames().len()) }.unwrap_or(0)
}

/// The frame at `index` (frame list order) into `*out`. Returns `GTS_OK`,
/// `GTS_ERR_NOT_FOUND` (no such frame), `GTS_ERR_NOT_INITIALIZED` or
/// `GTS_ERR_INVALID_ARGUMENT`.
///
/// Pointers: `skeleton` is NULL or points to a readable `gts_skeleton`; `out` to a writable
/// `gts_frame_info`.
#[no_mangle]
pub unsafe extern "C" fn gts_skeleton_frame_info(
    skeleton: *const gts_skeleton,
    index: usize,
    out: *mut gts_frame_info,
) -> gts_status {
    if out.is_null() {
        return gts_status::GTS_ERR_INVALID_ARGUMENT;
    }
    // SAFETY: the caller's contract.
    let Ok(handle) = (unsafe { Handle::<SkeletonState>::new(skeleton) }) else {
        return gts_status::GTS_ERR_NOT_INITIALIZED;
    };
    handle.read(|s| {
        let s = &s.skeleton;
        let Some(frame) = s.frames().get(index) else {
            return gts_status::GTS_ERR_NOT_FOUND;
        };
        let (name, name_len) = match &frame.name {
            Some(n) => (n.as_bytes().as_ptr(), n.as_bytes().len()),
            None => (core::ptr::null(), 0),
        };
        let info = gts_frame_info {
            parent: s.parent_of(index).map_or(-1, |p| p as i32),
            rotation: frame.rotation,
            position: frame.position,
            flags: frame.flags,
            node_id: frame.node_id.unwrap_or(-1),
            has_node_id: u8::from(frame.node_id.is_some()),
            has_name: u8::from(frame.name.is_some()),
            name,
            name_len,
        };
        // SAFETY: non-null; the caller's contract makes it writable.
        unsafe { out.write_unaligned(info) };
        gts_status::GTS_OK
    })
}

/// Nodes of the HAnim table the engine uses (0 without one, or when `skeleton` is not one
/// `gts_skeleton_read` filled).
///
/// Pointers: `skeleton` is NULL or points to a readable `gts_skeleton`.
#[no_mangle]
pub unsafe extern "C" fn gts_skeleton_node_count(skeleton: *const gts_skeleton) -> usize {
    // SAFETY: the caller's contract.
    unsafe { with(skeleton, |s| s.nodes().len()) }.unwrap_or(0)
}

/// The node at `index` (table order: the bone index the skin uses) into `*out`. Returns
/// `GTS_OK`, `GTS_ERR_NOT_FOUND`, `GTS_ERR_NOT_INITIALIZED` or `GTS_ERR_INVALID_ARGUMENT`.
///
/// Pointers: `skeleton` is NULL or points to a readable `gts_skeleton`; `out` to a writable
/// `gts_node_info`.
#[no_mangle]
pub unsafe extern "C" fn gts_skeleton_node_info(
    skeleton: *const gts_skeleton,
    index: usize,
    out: *mut gts_node_info,
) -> gts_status {
    if out.is_null() {
        return gts_status::GTS_ERR_INVALID_ARGUMENT;
    }
    // SAFETY: the caller's contract.
    let found = unsafe {
        with(skeleton, |s| {
            s.nodes().get(index).map(|n| gts_node_info {
                id: n.id,
                index: n.index,
                flags: n.flags,
                frame: n.frame.map_or(-1, i32::from),
            })
        })
    };
    // SAFETY: `out` is non-null; the caller's contract makes it writable.
    unsafe { deliver(found, out) }
}

/// The model's skin into `*out`: `GTS_OK` when the games treat the model as skinned,
/// `GTS_ERR_NOT_FOUND` when not (an unskinned model binds tracks by frame name),
/// `GTS_ERR_NOT_INITIALIZED` or `GTS_ERR_INVALID_ARGUMENT`.
///
/// Pointers: `skeleton` is NULL or points to a readable `gts_skeleton`; `out` to a writable
/// `gts_skin_info`.
#[no_mangle]
pub unsafe extern "C" fn gts_skeleton_skin(
    skeleton: *const gts_skeleton,
    out: *mut gts_skin_info,
) -> gts_status {
    if out.is_null() {
        return gts_status::GTS_ERR_INVALID_ARGUMENT;
    }
    // SAFETY: the caller's contract.
    let found = unsafe {
        with(skeleton, |s| {
            s.skin().map(|k| gts_skin_info {
                geometry: k.geometry,
                bones: k.bones,
                used_bones: k.used_bones,
                max_weights: k.max_weights,
                layout: k.layout,
            })
        })
    };
    // SAFETY: `out` is non-null; the caller's contract makes it writable.
    unsafe { deliver(found, out) }
}

/// The inverse bind matrix (model to bone space, column-major 4x4) of skin bone `bone` into
/// `out[0..16]`. Returns `GTS_OK`, `GTS_ERR_NOT_FOUND` (no such bone, or no skin),
/// `GTS_ERR_NOT_INITIALIZED` or `GTS_ERR_INVALID_ARGUMENT`.
///
/// Pointers: `skeleton` is NULL or points to a readable `gts_skeleton`; `out` to 16 writable
/// floats.
#[no_mangle]
pub unsafe extern "C" fn gts_skeleton_inverse_bind(
    skeleton: *const gts_skeleton,
    bone: usize,
    out: *mut f32,
) -> gts_status {
    if out.is_null() {
        return gts_status::GTS_ERR_INVALID_ARGUMENT;
    }
    // SAFETY: the caller's contract.
    let found = unsafe { with(skeleton, |s| s.inverse_binds().get(bone).copied()) };
    match found {
        None => gts_status::GTS_ERR_NOT_INITIALIZED,
        Some(None) => gts_status::GTS_ERR_NOT_FOUND,
        Some(Some(m)) => {
            // SAFETY: non-null; the caller's contract gives 16 writable floats.
            unsafe { out.cast::<[f32; 16]>().write_unaligned(m) };
            gts_status::GTS_OK
        }
    }
}

/// The host of a `GTS_CHECK_*` bit (0: the library's default for the file and model).
fn host_of(game: u32, format: gtastream_core::Format, skeleton: &Skeleton) -> Option<Host> {
    if game == 0 {
        return Some(default_host(format, skeleton));
    }
    Host::from_games(Games::from_bits(u8::try_from(game).ok()?))
}

/// Runs `f` on the skeleton with the animation `data` holds, catching panics; a decoding
/// error's offset goes to `*error_offset`.
///
/// # Safety
/// `skeleton` is NULL or points to a readable `gts_skeleton`; `error_offset` NULL or writable.
unsafe fn on_animation(
    skeleton: *const gts_skeleton,
    error_offset: *mut u64,
    f: impl FnOnce(&Skeleton) -> Result<(), Result<Error, gts_status>>,
) -> gts_status {
    // SAFETY: the caller's contract.
    let Ok(handle) = (unsafe { Handle::<SkeletonState>::new(skeleton) }) else {
        return gts_status::GTS_ERR_NOT_INITIALIZED;
    };
    let result = catch_unwind(AssertUnwindSafe(|| handle.read(|s| f(&s.skeleton))));
    match result {
        Ok(Ok(())) => gts_status::GTS_OK,
        Ok(Err(Ok(error))) => {
            tell(error_offset, error.offset);
            error_status(error.kind)
        }
        Ok(Err(Err(status))) => status,
        Err(_) => gts_status::GTS_ERR_PANIC,
    }
}

/// Binds the tracks of the animation at `animation` (0-based) of the file of `len` bytes at
/// `data` to the skeleton, as the game `game` binds them (one `GTS_CHECK_*` bit; 0: San
/// Andreas, or for an ANPK the game of the model's RenderWare version). Writes each track's
/// binding, in file order, to `out[0..min(count, capacity))` and their number to `*count`,
/// as `gts_bind_animation` does.
///
/// Returns `GTS_OK`; `GTS_ERR_NOT_FOUND` (no such animation), a decoding error
/// (`*error_offset` then says where, when not NULL), `GTS_ERR_NOT_INITIALIZED`,
/// `GTS_ERR_INVALID_ARGUMENT` (a bad pointer, or `game` not one game) or `GTS_ERR_PANIC`.
///
/// Pointers: `skeleton` is NULL or points to a readable `gts_skeleton`; `data` to `len`
/// readable bytes (NULL when 0); `out` to `capacity` writable bindings (NULL when 0); `count`
/// writable; `error_offset` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn gts_skeleton_bind(
    skeleton: *const gts_skeleton,
    data: *const u8,
    len: usize,
    animation: u32,
    game: u32,
    out: *mut gts_track_binding,
    capacity: usize,
    count: *mut usize,
    error_offset: *mut u64,
) -> gts_status {
    // SAFETY: the caller's contract.
    let Some(data) = (unsafe { bytes(data, len) }) else {
        return gts_status::GTS_ERR_INVALID_ARGUMENT;
    };
    if count.is_null() || (out.is_null() && capacity > 0) {
        return gts_status::GTS_ERR_INVALID_ARGUMENT;
    }
    let work = |s: &Skeleton| {
        let tracks = AnimationTracks::find(data, None, animation).map_err(Ok)?;
        let host =
            host_of(game, tracks.format(), s).ok_or(Err(gts_status::GTS_ERR_INVALID_ARGUMENT))?;
        let mut n = 0usize;
        bind_all(s, host, tracks.tracks(), |t, b| {
            if n < capacity {
                // SAFETY: n < capacity, and `out` holds `capacity` writable bindings.
                unsafe { out.add(n).write_unaligned(binding(t.index, b)) };
            }
            n += 1;
        });
        // SAFETY: checked non-null; the caller's contract makes it writable.
        unsafe { count.write_unaligned(n) };
        Ok(())
    };
    // SAFETY: the caller's contract.
    unsafe { on_animation(skeleton, error_offset, work) }
}

/// A track's binding as C gets it.
pub(crate) fn binding(index: u32, b: Binding) -> gts_track_binding {
    match b {
        Binding::Drives(f) => gts_track_binding {
            index,
            frame: i32::from(f),
            unbound: 0,
            overridden_by: 0,
        },
        Binding::Overridden { by, .. } => gts_track_binding {
            index,
            frame: -1,
            unbound: GTS_UNBOUND_OVERRIDDEN,
            overridden_by: by,
        },
        Binding::Unbound(reason) => gts_track_binding {
            index,
            frame: -1,
            unbound: reason_code(reason),
            overridden_by: 0,
        },
    }
}

/// Poses the skeleton by the animation at `animation` (0-based) of the file of `len` bytes at
/// `data` at `time` seconds (`looped` non-zero: the time wraps, as `gts_sample`), its tracks
/// bound as `game` binds them (as `gts_skeleton_bind`): writes every frame's model-space
/// matrix (column-major 4x4, as glTF; 16 floats a frame, frame list order) to
/// `out[0..16 * min(frames, capacity))` and the number of frames to `*count`. A frame no
/// track drives keeps its bind pose; a driven frame takes the track's rotation (normalised)
/// and, where the track has one, its translation (docs/SKELETON.md §3).
///
/// Returns `GTS_OK`; `GTS_ERR_NOT_FOUND`, `GTS_ERR_ENDLESS`, `GTS_ERR_BAD_TIME`,
/// `GTS_ERR_LIMIT` (more than 256 tracks with keys), a decoding error (`*error_offset` then
/// says where), `GTS_ERR_NOT_INITIALIZED`, `GTS_ERR_INVALID_ARGUMENT` or `GTS_ERR_PANIC`.
///
/// Pointers: `skeleton` is NULL or points to a readable `gts_skeleton`; `data` to `len`
/// readable bytes (NULL when 0); `out` to `16 * capacity` writable floats (NULL when 0);
/// `count` writable; `error_offset` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn gts_pose_model(
    skeleton: *const gts_skeleton,
    data: *const u8,
    len: usize,
    animation: u32,
    game: u32,
    time: f32,
    looped: i32,
    out: *mut f32,
    capacity: usize,
    count: *mut usize,
    error_offset: *mut u64,
) -> gts_status {
    // SAFETY: the caller's contract.
    let Some(data) = (unsafe { bytes(data, len) }) else {
        return gts_status::GTS_ERR_INVALID_ARGUMENT;
    };
    if count.is_null() || (out.is_null() && capacity > 0) || capacity > isize::MAX as usize / 64 {
        return gts_status::GTS_ERR_INVALID_ARGUMENT;
    }
    let work = |s: &Skeleton| {
        let tracks = AnimationTracks::find(data, None, animation).map_err(Ok)?;
        let host =
            host_of(game, tracks.format(), s).ok_or(Err(gts_status::GTS_ERR_INVALID_ARGUMENT))?;
        let sampler = Sampler::<MAX_TRACKS>::by_index(data, animation).map_err(Ok)?;
        let frames = s.frames().len();
        let matrices: &mut [[f32; 16]] = if capacity == 0 {
            &mut []
        } else {
            // SAFETY: non-null, `16 * capacity` writable floats by the contract (an array of
            // floats has a float's alignment), not aliased during the call.
            unsafe {
                core::slice::from_raw_parts_mut(out.cast::<[f32; 16]>(), capacity.min(frames))
            }
        };
        pose_animation(
            s,
            host,
            &tracks,
            &sampler,
            time,
            looped != 0,
            matrices,
            |_, _| {},
        )
        .map_err(Ok)?;
        // SAFETY: checked non-null; the caller's contract makes it writable.
        unsafe { count.write_unaligned(frames) };
        Ok(())
    };
    // SAFETY: the caller's contract.
    unsafe { on_animation(skeleton, error_offset, work) }
}

/// Checks the file of `len` bytes at `data` (named `name`, NUL-terminated, may be NULL) as
/// `gts_check_memory` does, and each of its animations against the skeleton (rules
/// `skel.track.*`, `skel.model.*`; docs/CHECKS.md), for the `games` (`GTS_CHECK_*` bits; 0:
/// the games the file is for). Each finding goes to `on_finding(user, finding)` (NULL: only
/// counted); `*errors` (if not NULL) receives how many were errors.
///
/// Returns `GTS_OK`, `GTS_ERR_NOT_INITIALIZED`, `GTS_ERR_INVALID_ARGUMENT` or `GTS_ERR_PANIC`.
///
/// Pointers: `skeleton` is NULL or points to a writable `gts_skeleton` (marked busy while
/// the callbacks run, so one that calls back in on it is refused); `data` to `len`
/// readable bytes (NULL when 0); `name` NULL or NUL-terminated; `errors` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn gts_skeleton_check(
    skeleton: *mut gts_skeleton,
    data: *const u8,
    len: usize,
    name: *const c_char,
    games: u8,
    on_finding: Option<unsafe extern "C" fn(user: *mut c_void, finding: *const crate::gts_finding)>,
    user: *mut c_void,
    errors: *mut u32,
) -> gts_status {
    // SAFETY: the caller's contract.
    let Some(data) = (unsafe { bytes(data, len) }) else {
        return gts_status::GTS_ERR_INVALID_ARGUMENT;
    };
    if games & !0x0f != 0 {
        return gts_status::GTS_ERR_INVALID_ARGUMENT;
    }
    let name: &[u8] = if name.is_null() {
        &[]
    } else {
        // SAFETY: NUL-terminated by the contract.
        unsafe { CStr::from_ptr(name) }.to_bytes()
    };
    let games = (games != 0).then(|| Games::from_bits(games));
    // SAFETY: the caller's contract.
    unsafe {
        counted(skeleton, on_finding, user, errors, |s, sink| {
            check_file(data, name, games, Some(s), sink);
        })
    }
}

/// The skeleton report of the model alone (rules `skel.dff.*`: the node table against the
/// frames, PUSH/POP parents, standard bones missing, names with blanks) for the `games`
/// (`GTS_CHECK_*` bits; 0: the games of the model's RenderWare version). Findings and errors
/// as `gts_skeleton_check`; their offsets are 0 and their bone is the frame.
///
/// Returns `GTS_OK`, `GTS_ERR_NOT_INITIALIZED`, `GTS_ERR_INVALID_ARGUMENT` or `GTS_ERR_PANIC`.
///
/// Pointers: `skeleton` is NULL or points to a writable `gts_skeleton` (marked busy while
/// the callbacks run, so one that calls back in on it is refused); `errors` NULL or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn gts_skeleton_report(
    skeleton: *mut gts_skeleton,
    games: u8,
    on_finding: Option<unsafe extern "C" fn(user: *mut c_void, finding: *const crate::gts_finding)>,
    user: *mut c_void,
    errors: *mut u32,
) -> gts_status {
    if games & !0x0f != 0 {
        return gts_status::GTS_ERR_INVALID_ARGUMENT;
    }
    // SAFETY: the caller's contract.
    unsafe {
        counted(skeleton, on_finding, user, errors, |s, sink| {
            let games = match games {
                0 => gtastream_core::rig::model_games(s.rw_version()),
                bits => Games::from_bits(bits),
            };
            check_skeleton(s, games, sink);
        })
    }
}

/// Runs a check on the skeleton, each finding to the callback, counting the errors.
///
/// # Safety
/// `skeleton` is NULL or points to a writable `gts_skeleton`; `errors` NULL or writable.
unsafe fn counted(
    skeleton: *mut gts_skeleton,
    on_finding: FindingFn,
    user: *mut c_void,
    errors: *mut u32,
    f: impl FnOnce(&Skeleton, &mut dyn FnMut(&Finding)),
) -> gts_status {
    // SAFETY: the caller's contract.
    let Ok(handle) = (unsafe { Handle::<SkeletonState>::new(skeleton) }) else {
        return gts_status::GTS_ERR_NOT_INITIALIZED;
    };
    let mut count = 0u32;
    // The callbacks run inside: the handle is marked busy, so one that calls back in on this
    // skeleton is refused.
    let result = handle.run(|s| {
        f(&s.skeleton, &mut |finding: &Finding| {
            count += u32::from(finding.level() == gtastream_core::check::Level::Error);
            report(finding, on_finding, user);
        });
    });
    match result {
        Ok(()) => {
            if !errors.is_null() {
                // SAFETY: non-null; the caller's contract makes it writable.
                unsafe { errors.write_unaligned(count) };
            }
            gts_status::GTS_OK
        }
        Err(status) => status,
    }
}

/// Writes what an accessor found to `out`: `GTS_OK`, or `GTS_ERR_NOT_INITIALIZED` (no
/// skeleton) or `GTS_ERR_NOT_FOUND` (no such item).
///
/// # Safety
/// `out` is non-null and writable.
unsafe fn deliver<T>(found: Option<Option<T>>, out: *mut T) -> gts_status {
    match found {
        None => gts_status::GTS_ERR_NOT_INITIALIZED,
        Some(None) => gts_status::GTS_ERR_NOT_FOUND,
        Some(Some(info)) => {
            // SAFETY: the caller's contract.
            unsafe { out.write_unaligned(info) };
            gts_status::GTS_OK
        }
    }
}
