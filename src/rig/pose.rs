//! Posing a skeleton in model space (docs/SKELETON.md §3).

use super::bind::{Binder, Host, Unbound};
use super::model::{Skeleton, MAX_FRAMES};
use super::tracks::{AnimationTracks, MAX_TRACKS};
use crate::{Error, Sampler};

/// What a track sets on the frame it drives.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LocalPose {
    /// The quaternion `x, y, z, w` as the games hold it (ANPK's conjugated on load, as the
    /// decoder reports it); normalised here, as the games normalise before the matrix.
    pub rotation: [f32; 4],
    /// The translation, where the track has one: it replaces the frame's position.
    pub translation: Option<[f32; 3]>,
}

/// `CQuaternion::Normalise`: scaled to length 1; a quaternion of length 0 becomes the
/// identity.
pub fn normalise(q: [f32; 4]) -> [f32; 4] {
    let len2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
    if len2 == 0.0 {
        return [0.0, 0.0, 0.0, 1.0];
    }
    let inv = 1.0 / libm::sqrtf(len2);
    [q[0] * inv, q[1] * inv, q[2] * inv, q[3] * inv]
}

/// The rotation of a (normalised) quaternion as the frame matrix's right, up and at vectors
/// (its columns), 3 floats each: the convention of [`Frame::rotation`](super::Frame).
pub fn rotation_matrix(q: [f32; 4]) -> [f32; 9] {
    let [x, y, z, w] = q;
    [
        // right
        1.0 - 2.0 * (y * y + z * z),
        2.0 * (x * y + z * w),
        2.0 * (x * z - y * w),
        // up
        2.0 * (x * y - z * w),
        1.0 - 2.0 * (x * x + z * z),
        2.0 * (y * z + x * w),
        // at
        2.0 * (x * z + y * w),
        2.0 * (y * z - x * w),
        1.0 - 2.0 * (x * x + y * y),
    ]
}

/// The quaternion of a rotation matrix (right, up, at), the inverse of [`rotation_matrix`]
/// (for bind poses and tests).
pub fn rotation_quaternion(m: [f32; 9]) -> [f32; 4] {
    // Columns: right = m[0..3], up = m[3..6], at = m[6..9]; element (row r, column c) is
    // m[3c + r].
    let e = |r: usize, c: usize| m[3 * c + r];
    let trace = e(0, 0) + e(1, 1) + e(2, 2);
    let q = if trace > 0.0 {
        let s = libm::sqrtf(trace + 1.0) * 2.0;
        [
            (e(2, 1) - e(1, 2)) / s,
            (e(0, 2) - e(2, 0)) / s,
            (e(1, 0) - e(0, 1)) / s,
            0.25 * s,
        ]
    } else if e(0, 0) > e(1, 1) && e(0, 0) > e(2, 2) {
        let s = libm::sqrtf(1.0 + e(0, 0) - e(1, 1) - e(2, 2)) * 2.0;
        [
            0.25 * s,
            (e(0, 1) + e(1, 0)) / s,
            (e(0, 2) + e(2, 0)) / s,
            (e(2, 1) - e(1, 2)) / s,
        ]
    } else if e(1, 1) > e(2, 2) {
        let s = libm::sqrtf(1.0 + e(1, 1) - e(0, 0) - e(2, 2)) * 2.0;
        [
            (e(0, 1) + e(1, 0)) / s,
            0.25 * s,
            (e(1, 2) + e(2, 1)) / s,
            (e(0, 2) - e(2, 0)) / s,
        ]
    } else {
        let s = libm::sqrtf(1.0 + e(2, 2) - e(0, 0) - e(1, 1)) * 2.0;
        [
            (e(0, 2) + e(2, 0)) / s,
            (e(1, 2) + e(2, 1)) / s,
            0.25 * s,
            (e(1, 0) - e(0, 1)) / s,
        ]
    };
    normalise(q)
}

/// `a · b` of two column-major 4x4 matrices.
pub fn multiply(a: &[f32; 16], b: &[f32; 16]) -> [f32; 16] {
    let mut out = [0.0; 16];
    for c in 0..4 {
        for r in 0..4 {
            out[4 * c + r] = (0..4).map(|k| a[4 * k + r] * b[4 * c + k]).sum();
        }
    }
    out
}

/// Every frame's model-space matrix (column-major 4x4, as glTF) into `out` (its first
/// `skeleton.frames().len()` entries; fewer if `out` is shorter): a frame's matrix is its
/// parent's times its local one. The local matrix is the bind pose (the frame as stored)
/// where `local` gives nothing for the frame; else the track's rotation, normalised,
/// replacing the frame's, and its translation, where it has one, replacing the frame's
/// position. Allocation-free. Returns the number of matrices written.
pub fn model_matrices(
    skeleton: &Skeleton,
    mut local: impl FnMut(u16) -> Option<LocalPose>,
    out: &mut [[f32; 16]],
) -> usize {
    let n = skeleton.frames().len().min(out.len()).min(MAX_FRAMES);
    for i in 0..n {
        let frame = &skeleton.frames()[i];
        let mut m = frame.local_matrix();
        if let Some(pose) = local(i as u16) {
            let r = rotation_matrix(normalise(pose.rotation));
            m[0..3].copy_from_slice(&r[0..3]);
            m[4..7].copy_from_slice(&r[3..6]);
            m[8..11].copy_from_slice(&r[6..9]);
            if let Some(t) = pose.translation {
                m[12..15].copy_from_slice(&t);
            }
        }
        // Parents come first in the list (a parent after its child is walked as a root).
        out[i] = match skeleton.parent_of(i) {
            Some(p) => multiply(&out[p], &m),
            None => m,
        };
    }
    n
}

/// The model-space matrices of `skeleton` posed by an animation at `time` (as
/// [`Sampler::sample`](crate::Sampler::sample) takes it): its tracks (`tracks`, the same
/// animation as `sampler`'s) bound as `host` binds them, each frame a track drives posed by
/// that track, the others at rest ([`model_matrices`]). `frame_of_track`, where given, gets
/// for each track (by its index in the animation) the frame it drives. Allocation-free.
#[allow(clippy::too_many_arguments)] // the pose's inputs, and where it goes
pub fn pose_animation<const BONES: usize>(
    skeleton: &Skeleton,
    host: Host,
    tracks: &AnimationTracks,
    sampler: &Sampler<'_, BONES>,
    time: f32,
    looped: bool,
    out: &mut [[f32; 16]],
    mut frame_of_track: impl FnMut(u32, Option<u16>),
) -> Result<usize, Error> {
    let mut binder = Binder::new(skeleton, host);
    let mut raw = [Err(Unbound::NoKeys); MAX_TRACKS];
    for (t, track) in tracks.tracks().enumerate().take(MAX_TRACKS) {
        raw[t] = binder.bind(&track);
    }
    let mut local: [Option<LocalPose>; MAX_FRAMES] = [None; MAX_FRAMES];
    let mut drives = [None; MAX_TRACKS];
    for (t, info) in tracks.infos().iter().enumerate().take(MAX_TRACKS) {
        let frame = binder.binding(info.index, raw[t]).frame();
        drives[t] = frame;
        frame_of_track(info.index, frame);
    }
    sampler.sample(time, looped, |pose| {
        let t = tracks.infos().iter().position(|i| i.index == pose.index);
        if let Some(frame) = t.and_then(|t| drives[t]) {
            local[usize::from(frame)] = Some(LocalPose {
                rotation: pose.rotation,
                translation: pose.translation,
            });
        }
    })?;
    Ok(model_matrices(skeleton, |f| local[usize::from(f)], out))
}
