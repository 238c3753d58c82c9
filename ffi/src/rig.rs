//! Binding an animation's tracks to a model's skeleton for C (docs/SKELETON.md): one stateless
//! call over the caller's arrays (the skeleton's frames and node table, as a DFF's records give
//! them) and an animation file in memory. Allocates nothing.

use std::panic::{catch_unwind, AssertUnwindSafe};

use gtastream_core::check::Games;
use gtastream_core::record::Record;
use gtastream_core::record::{DffAtomic, DffFrame, DffFrameName, DffHAnim, DffHAnimNode, DffSkin};
use gtastream_core::rig::{bind_all, AnimationTracks, Binding, Host, SkeletonBuilder, Unbound};

use crate::bridge::error_status;
use crate::types::gts_status;

/// A frame of a model, as `gts_bind_animation` takes it (the fields of a `dff_frame` record,
/// with the frame's name and HAnim id).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct gts_skeleton_frame {
    /// The parent frame's index; -1 for a root.
    pub parent: i32,
    /// The rotation: right, up and at vectors.
    pub rotation: [f32; 9],
    /// The position relative to the parent.
    pub position: [f32; 3],
    /// The frame's HAnim node id; meaningful when `has_node_id` is 1.
    pub node_id: i32,
    /// 1 when the frame has an HAnim extension.
    pub has_node_id: u8,
    /// The name as stored (`name_len` bytes, no NUL needed); NULL for none.
    pub name: *const u8,
    /// Bytes at `name`.
    pub name_len: usize,
}

/// A node of the HAnim table, in table order (a `dff_hanim_node` record's id and flags).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct gts_skeleton_node {
    /// The node id.
    pub id: i32,
    /// 1 POP, 2 PUSH.
    pub flags: u32,
}

/// What a track does on the model, as `gts_bind_animation` writes it.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct gts_track_binding {
    /// The track's position in its animation.
    pub index: u32,
    /// The frame it drives; -1 for none.
    pub frame: i32,
    /// 0 when it drives `frame`; else why not: `GTS_UNBOUND_*`.
    pub unbound: u32,
    /// With `GTS_UNBOUND_OVERRIDDEN`: the later track that drives its frame.
    pub overridden_by: u32,
}

/// `gts_track_binding::unbound`: a later track binds to the same frame and wins.
pub const GTS_UNBOUND_OVERRIDDEN: u32 = 1;
/// `gts_track_binding::unbound`: first of the core's reasons; reason `r` of
/// `gtastream::rig::Unbound::ALL` (no_keys, no_name, no_such_id, id_out_of_range,
/// id_on_unskinned, name_not_in_table, no_such_name, no_table, node_without_frame) is
/// `GTS_UNBOUND_NO_KEYS + r`.
pub const GTS_UNBOUND_NO_KEYS: u32 = 2;

pub(crate) fn reason_code(reason: Unbound) -> u32 {
    let i = Unbound::ALL.iter().position(|&u| u == reason).unwrap_or(0);
    GTS_UNBOUND_NO_KEYS + i as u32
}

/// Binds the tracks of the animation at `animation` (0-based) of the file of `len` bytes at
/// `data` to the model described by `frames` (`frame_count`, frame-list order) and `nodes`
/// (`node_count`, the HAnim table; 0 for none; `skinned` non-zero when the model's last atomic
/// has a skin), as the game `game` binds them (one bit of `gts_check_memory`'s games: 1 III, 2
/// VC, 4 SA, 8 MTA). Writes each track's binding, in file order, to `out[0..min(count,
/// capacity))` and their number to `*count`.
///
/// Returns `GTS_OK`; `GTS_ERR_NOT_FOUND` (no such animation), `GTS_ERR_LIMIT` (more than 256
/// frames or nodes), a decoding error (`*error_offset` then says where, when not NULL), or
/// `GTS_ERR_INVALID_ARGUMENT` (a bad pointer, or `game` not one game).
///
/// Pointers: `frames` to `frame_count` readable frames (NULL when 0), each `name` NULL or to
/// `name_len` bytes; `nodes` to `node_count` (NULL when 0); `data` to `len` bytes; `out` to
/// `capacity` writable bindings (NULL when 0); `count` writable; `error_offset` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn gts_bind_animation(
    frames: *const gts_skeleton_frame,
    frame_count: usize,
    nodes: *const gts_skeleton_node,
    node_count: usize,
    skinned: i32,
    data: *const u8,
    len: usize,
    animation: u32,
    game: u32,
    out: *mut gts_track_binding,
    capacity: usize,
    count: *mut usize,
    error_offset: *mut u64,
) -> gts_status {
    let bad = |p: bool, n: usize| p && n > 0;
    if bad(frames.is_null(), frame_count)
        || bad(nodes.is_null(), node_count)
        || bad(data.is_null(), len)
        || len > isize::MAX as usize
        || frame_count > isize::MAX as usize / core::mem::size_of::<gts_skeleton_frame>()
        || node_count > isize::MAX as usize / core::mem::size_of::<gts_skeleton_node>()
        || bad(out.is_null(), capacity)
        || count.is_null()
    {
        return gts_status::GTS_ERR_INVALID_ARGUMENT;
    }
    let Some(host) = u8::try_from(game)
        .ok()
        .and_then(|g| Host::from_games(Games::from_bits(g)))
    else {
        return gts_status::GTS_ERR_INVALID_ARGUMENT;
    };
    let run = || -> Result<(), gts_status> {
        let frames: &[gts_skeleton_frame] = if frame_count == 0 {
            &[]
        } else {
            // SAFETY: non-null when a count is given; the caller's contract gives the elements.
            unsafe { core::slice::from_raw_parts(frames, frame_count) }
        };
        let nodes: &[gts_skeleton_node] = if node_count == 0 {
            &[]
        } else {
            // SAFETY: non-null when a count is given; the caller's contract gives the elements.
            unsafe { core::slice::from_raw_parts(nodes, node_count) }
        };
        let data: &[u8] = if len == 0 {
            &[]
        } else {
            // SAFETY: non-null when a length is given; the caller's contract gives the bytes.
            unsafe { core::slice::from_raw_parts(data, len) }
        };
        let mut builder = SkeletonBuilder::new();
        for (i, f) in frames.iter().enumerate() {
            let mut r = DffFrame::default();
            r.index = i as u32;
            r.parent = f.parent;
            r.rotation = f.rotation;
            r.position = f.position;
            builder.take(&Record::DffFrame(r));
            if !f.name.is_null() {
                if f.name_len > isize::MAX as usize {
                    return Err(gts_status::GTS_ERR_INVALID_ARGUMENT);
                }
                // SAFETY: the caller's contract gives `name_len` bytes at a non-null `name`.
                let name = unsafe { core::slice::from_raw_parts(f.name, f.name_len) };
                let mut r = DffFrameName::default();
                r.frame = i as u32;
                r.name = name;
                builder.take(&Record::DffFrameName(r));
            }
            if f.has_node_id != 0 {
                let mut r = DffHAnim::default();
                r.frame = i as u32;
                r.version = 0x100;
                r.node_id = f.node_id;
                // The table goes on the first frame with an id.
                if !nodes.is_empty() && !frames[..i].iter().any(|g| g.has_node_id != 0) {
                    r.node_count = nodes.len() as u32;
                    r.flags = Some(0);
                    r.key_frame_size = Some(36);
                    builder.take(&Record::DffHAnim(r));
                    for (n, node) in nodes.iter().enumerate() {
                        let mut r = DffHAnimNode::default();
                        r.frame = i as u32;
                        r.index = n as u32;
                        r.node_id = node.id;
                        r.node_index = n as i32;
                        r.flags = node.flags;
                        builder.take(&Record::DffHAnimNode(r));
                    }
                    continue;
                }
                builder.take(&Record::DffHAnim(r));
            }
        }
        if skinned != 0 {
            let mut skin = DffSkin::default();
            skin.bones = nodes.len() as u32;
            builder.take(&Record::DffSkin(skin));
        }
        builder.take(&Record::DffAtomic(DffAtomic::default()));
        let skeleton = builder.build().map_err(|_| gts_status::GTS_ERR_LIMIT)?;
        let tracks = AnimationTracks::find(data, None, animation).map_err(|e| {
            if !error_offset.is_null() {
                // SAFETY: non-null; the caller's contract makes it writable.
                unsafe { error_offset.write_unaligned(e.offset) };
            }
            error_status(e.kind)
        })?;
        let mut n = 0usize;
        bind_all(&skeleton, host, tracks.tracks(), |t, b| {
            if n < capacity {
                let (frame, unbound, by) = match b {
                    Binding::Drives(f) => (i32::from(f), 0, 0),
                    Binding::Overridden { frame, by } => {
                        (i32::from(frame), GTS_UNBOUND_OVERRIDDEN, by)
                    }
                    Binding::Unbound(reason) => (-1, reason_code(reason), 0),
                };
                let c = gts_track_binding {
                    index: t.index,
                    frame: if unbound == 0 { frame } else { -1 },
                    unbound,
                    overridden_by: by,
                };
                // SAFETY: n < capacity, and `out` holds `capacity` writable bindings.
                unsafe { out.add(n).write_unaligned(c) };
            }
            n += 1;
        });
        // SAFETY: checked non-null; the caller's contract makes it writable.
        unsafe { count.write_unaligned(n) };
        Ok(())
    };
    match catch_unwind(AssertUnwindSafe(run)) {
        Ok(Ok(())) => gts_status::GTS_OK,
        Ok(Err(status)) => status,
        Err(_) => gts_status::GTS_ERR_OTHER,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A model of a root and one bone with id 5, skinned; an ANP3 of three tracks: id 5,
    /// an unknown id, and a name the table has (Head) after the first.
    #[test]
    fn binds_as_the_core_does() {
        let frames = [
            gts_skeleton_frame {
                parent: -1,
                rotation: [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0],
                position: [0.0; 3],
                node_id: 0,
                has_node_id: 0,
                name: core::ptr::null(),
                name_len: 0,
            },
            gts_skeleton_frame {
                parent: 0,
                rotation: [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0],
                position: [0.0, 0.0, 1.0],
                node_id: 5,
                has_node_id: 1,
                name: b" Head".as_ptr(),
                name_len: 5,
            },
        ];
        let nodes = [gts_skeleton_node { id: 5, flags: 1 }];
        use testkit::ifp2::{f1, AnimSpec, BoneSpec, FileSpec};
        let q = [0.0, 0.0, 0.0, 1.0];
        let keys = || vec![f1(q, 0.0), f1(q, 1.0)];
        let file = FileSpec::anp3(
            "t",
            vec![AnimSpec::new(
                "a",
                vec![
                    BoneSpec::new("x", 1, 5, keys()),
                    BoneSpec::new("y", 1, 77, keys()),
                    BoneSpec::new("Head", 1, -1, keys()),
                ],
            )],
        )
        .build();
        let mut out = [gts_track_binding::default(); 4];
        let mut count = 0;
        // SAFETY: every pointer is to a live array of the given length.
        let status = unsafe {
            gts_bind_animation(
                frames.as_ptr(),
                2,
                nodes.as_ptr(),
                1,
                1,
                file.as_ptr(),
                file.len(),
                0,
                4,
                out.as_mut_ptr(),
                4,
                &mut count,
                core::ptr::null_mut(),
            )
        };
        assert_eq!(status, gts_status::GTS_OK);
        assert_eq!(count, 3);
        assert_eq!(
            out[0],
            gts_track_binding {
                index: 0,
                frame: -1,
                unbound: GTS_UNBOUND_OVERRIDDEN,
                overridden_by: 2
            }
        );
        assert_eq!(out[1].unbound, reason_code(Unbound::NoSuchId));
        assert_eq!((out[2].frame, out[2].unbound), (1, 0));
        // Two games at once: refused.
        // SAFETY: as above.
        let status = unsafe {
            gts_bind_animation(
                frames.as_ptr(),
                2,
                nodes.as_ptr(),
                1,
                1,
                file.as_ptr(),
                file.len(),
                0,
                12,
                out.as_mut_ptr(),
                4,
                &mut count,
                core::ptr::null_mut(),
            )
        };
        assert_eq!(status, gts_status::GTS_ERR_INVALID_ARGUMENT);
    }
}
