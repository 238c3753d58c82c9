//! glTF 2.0 and the games' animations on a model's skeleton (feature `gltf`; docs/ANIMATION.md,
//! "glTF"). [`export`] writes an IFP's animations as glTF animations on the nodes of a DFF's
//! frames; the reading side maps a glTF's channels back to bones.
//!
//! The layout both ways share, defined here once:
//! - node [`ROOT_NODE`] (0) is the scene's only root, named [`ROOT_NAME`]: its rotation
//!   [`Z_UP_TO_Y_UP`] turns RenderWare's Z-up into glTF's Y-up, so the frames' own values stay
//!   unchanged beneath it;
//! - frame `i` of the DFF is node [`frame_node`]`(i)`, named as the frame, a child of its parent
//!   frame's node (a root frame: of the root node), its bind pose as its local TRS
//!   ([`bind_trs`]), and `extras` [`NodeExtras`]: `{"gtastream": {"frame": i, "bone_id":
//!   id|null}}`;
//! - a step (two keys at one time) is written with the second key's time raised to the next
//!   `f32` ([`step_time`]) and the key's index listed in its sampler's `extras`
//!   ([`SamplerExtras`]: `{"gtastream": {"steps": [k, ...]}}`), so that reading restores the
//!   stored time exactly;
//! - where the games' slerp jumps to the next key (packed keys whose dot product reaches 1),
//!   a key is inserted just after the jump's start, or key 0 takes key 1's rotation, listed in
//!   the same `extras` (`"jumps"`, `"first"`), so that reading drops and restores them.

use serde_json::{json, Value};

use crate::rig::{rotation_quaternion, Frame};

pub mod export;
pub mod import;

/// The key of gtastream's object in a glTF `extras`.
pub const EXTRAS_KEY: &str = "gtastream";

/// The node that turns Z-up into Y-up: the scene's only root node.
pub const ROOT_NODE: usize = 0;

/// The name of [`ROOT_NODE`].
pub const ROOT_NAME: &str = "RenderWare Z-up";

/// The rotation of [`ROOT_NODE`], `x, y, z, w`: −90° about X, taking RenderWare's up (+Z)
/// to glTF's up (+Y) and RenderWare's forward (+Y) to glTF's −Z.
pub const Z_UP_TO_Y_UP: [f32; 4] = [
    -core::f32::consts::FRAC_1_SQRT_2,
    0.0,
    0.0,
    core::f32::consts::FRAC_1_SQRT_2,
];

/// The node of DFF frame `frame`.
pub fn frame_node(frame: u16) -> usize {
    usize::from(frame) + 1
}

/// What gtastream writes in a frame node's `extras`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NodeExtras {
    /// The frame's index in the DFF's frame list.
    pub frame: u16,
    /// The frame's HAnim node id, where it has one (the bone id tracks name).
    pub bone_id: Option<i32>,
}

impl NodeExtras {
    /// `{"gtastream": {"frame": i, "bone_id": id|null}}`.
    pub fn to_json(&self) -> Value {
        json!({ EXTRAS_KEY: { "frame": self.frame, "bone_id": self.bone_id } })
    }

    /// The extras of a node's `extras` value, where it holds gtastream's object with a frame
    /// index that fits (a `bone_id` missing or not an `i32` is `None`).
    pub fn from_json(extras: &Value) -> Option<NodeExtras> {
        let ours = extras.get(EXTRAS_KEY)?;
        let frame = u16::try_from(ours.get("frame")?.as_u64()?).ok()?;
        let bone_id = ours
            .get("bone_id")
            .and_then(Value::as_i64)
            .and_then(|id| i32::try_from(id).ok());
        Some(NodeExtras { frame, bone_id })
    }
}

/// What gtastream writes in an animation sampler's `extras` (docs/ANIMATION.md, "glTF"): the
/// keys whose time was raised by [`step_time`] because the stored time equals the key before
/// it, the keys inserted where the games' slerp jumps to the next key, and key 0's stored
/// rotation where the first interval jumps.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SamplerExtras {
    /// Indices (into the sampler's keys, ascending, each ≥ 1) of the raised keys: key `k`'s
    /// stored time is key `k − 1`'s.
    pub steps: alloc::vec::Vec<u32>,
    /// Indices (into the sampler's keys, ascending, each ≥ 2) of the keys written after a key
    /// B whose interval to the next stored key A jumps (the games show q_A from just after
    /// t_B): at [`step_time`]`(t_B)`, with A's rotation and B's translation. They are no
    /// stored key; reading drops them.
    pub jumps: alloc::vec::Vec<u32>,
    /// Key 0's stored rotation (`x, y, z, w`, normalised as written) where the first
    /// interval jumps: the sampler's key 0 holds key 1's rotation, which the games show there.
    pub first: Option<[f32; 4]>,
}

impl SamplerExtras {
    /// `{"gtastream": {"steps": [k, ...], "jumps": [k, ...], "first": [x, y, z, w]}}`, each
    /// part only where it has something; `None` when none has (nothing to write).
    pub fn to_json(&self) -> Option<Value> {
        let mut ours = serde_json::Map::new();
        if !self.steps.is_empty() {
            ours.insert("steps".into(), json!(self.steps));
        }
        if !self.jumps.is_empty() {
            ours.insert("jumps".into(), json!(self.jumps));
        }
        if let Some(first) = self.first {
            ours.insert("first".into(), json!(first));
        }
        if ours.is_empty() {
            return None;
        }
        Some(json!({ EXTRAS_KEY: ours }))
    }

    /// The extras of a sampler's `extras` (empty where it holds no gtastream object; a `first`
    /// that is not four numbers is `None`).
    pub fn from_json(extras: &Value) -> SamplerExtras {
        let ours = extras.get(EXTRAS_KEY);
        let indices = |name: &str| -> alloc::vec::Vec<u32> {
            ours.and_then(|o| o.get(name))
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(Value::as_u64)
                        .filter_map(|k| u32::try_from(k).ok())
                        .collect()
                })
                .unwrap_or_default()
        };
        let first = ours
            .and_then(|o| o.get("first"))
            .and_then(Value::as_array)
            .filter(|a| a.len() == 4)
            .and_then(|a| {
                let mut q = [0.0f32; 4];
                for (c, v) in q.iter_mut().zip(a) {
                    *c = v.as_f64()? as f32;
                }
                Some(q)
            });
        SamplerExtras {
            steps: indices("steps"),
            jumps: indices("jumps"),
            first,
        }
    }
}

/// The smallest `f32` above `t` (for a finite `t`): the time a step's second key is written
/// at, glTF requiring strictly increasing key times.
pub fn step_time(t: f32) -> f32 {
    if t.is_nan() || t == f32::INFINITY {
        return t;
    }
    if t == 0.0 {
        return f32::from_bits(1);
    }
    let bits = t.to_bits();
    f32::from_bits(if t > 0.0 { bits + 1 } else { bits - 1 })
}

/// A frame's bind pose as glTF's local translation, rotation (`x, y, z, w`) and scale. The
/// rotation's columns are normalised into the scale; a mirrored frame (negative determinant)
/// gets a negative X scale.
pub fn bind_trs(frame: &Frame) -> ([f32; 3], [f32; 4], [f32; 3]) {
    let r = frame.rotation;
    let len = |c: usize| {
        libm::sqrtf(r[3 * c] * r[3 * c] + r[3 * c + 1] * r[3 * c + 1] + r[3 * c + 2] * r[3 * c + 2])
    };
    let mut scale = [len(0), len(1), len(2)];
    let det = r[0] * (r[4] * r[8] - r[5] * r[7]) - r[3] * (r[1] * r[8] - r[2] * r[7])
        + r[6] * (r[1] * r[5] - r[2] * r[4]);
    if det < 0.0 {
        scale[0] = -scale[0];
    }
    let mut unit = r;
    for c in 0..3 {
        let s = if scale[c] == 0.0 { 1.0 } else { scale[c] };
        for k in 0..3 {
            unit[3 * c + k] /= s;
        }
    }
    // A frame whose rotation is already unit to f32 precision keeps scale 1 exactly.
    for s in scale.iter_mut() {
        if (s.abs() - 1.0).abs() < 1e-5 {
            *s = s.signum();
        }
    }
    (frame.position, rotation_quaternion(unit), scale)
}
