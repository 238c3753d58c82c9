//! IFP to glTF 2.0 on a model's skeleton (docs/ANIMATION.md, "glTF"): the layout of
//! [`super`], one glTF animation per IFP animation, each bound track a rotation channel (and a
//! translation channel where it has translation) with its keys as stored, the values as the
//! games play them (flips removed as at load; ANPK's and Stories' quaternions conjugated at
//! decode). Nothing is resampled.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde_json::{json, Map, Value};

use super::{bind_trs, frame_node, step_time, NodeExtras, SamplerExtras, ROOT_NAME, Z_UP_TO_Y_UP};
use crate::rig::{default_host, Binder, Binding, Host, Skeleton, Track, Unbound};
use crate::{name_matches, Animation, Error, Keyframe, Package};

/// What to export.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The game whose binding applies; `None`: [`default_host`] (San Andreas for ANP3 and
    /// ANP2, the model's game for ANPK).
    pub host: Option<Host>,
    /// The animations to write, by name (compared as the games look them up); empty: all.
    pub animations: Vec<String>,
}

/// Why a track (or a whole animation) was not written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The track drives no frame of the model.
    Unbound(Unbound),
    /// The track binds to a frame a later track of the animation holds (the games pose the
    /// later one).
    Overridden {
        /// The winning track's index.
        by: u32,
    },
    /// Key `key`'s time is below the key before it: glTF's times must increase (the games
    /// play it, `ifp.time.decreasing`).
    DecreasingTime {
        /// The key's index in the track.
        key: u32,
    },
    /// Key `key`'s time collides with the times raised for the steps before it.
    StepCollision {
        /// The key's index in the track.
        key: u32,
    },
    /// Key `key` holds a value or time that is not finite (`ifp.value.nan`).
    NotFinite {
        /// The key's index in the track.
        key: u32,
    },
}

impl Reason {
    /// A short stable name (`no_such_id`, `overridden`, `decreasing_time`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Reason::Unbound(u) => u.name(),
            Reason::Overridden { .. } => "overridden",
            Reason::DecreasingTime { .. } => "decreasing_time",
            Reason::StepCollision { .. } => "step_collision",
            Reason::NotFinite { .. } => "not_finite",
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Unbound(u) => write!(f, "binds to nothing ({})", u.name()),
            Reason::Overridden { by } => write!(f, "overridden by track {by} on its frame"),
            Reason::DecreasingTime { key } => {
                write!(f, "key {key}: time below the key before it")
            }
            Reason::StepCollision { key } => {
                write!(f, "key {key}: time collides with the raised step before it")
            }
            Reason::NotFinite { key } => write!(f, "key {key}: a value that is not finite"),
        }
    }
}

/// A track that was not written.
#[derive(Clone, Debug, PartialEq)]
pub struct Unwritten {
    /// The animation's name as stored.
    pub animation: String,
    /// The track's position in the animation.
    pub track: u32,
    /// The track's name as stored.
    pub name: Option<String>,
    /// The track's bone id as stored.
    pub bone_id: Option<i32>,
    /// Why.
    pub reason: Reason,
}

/// The glTF of an export: the document and its binary buffer, and what was left out.
#[derive(Clone, Debug)]
pub struct Export {
    /// The glTF JSON document; its only buffer (index 0) has no `uri` yet:
    /// [`to_gltf`](Self::to_gltf) embeds it, [`to_glb`](Self::to_glb) makes it the binary
    /// chunk.
    pub document: Value,
    /// The binary buffer.
    pub buffer: Vec<u8>,
    /// The tracks not written, in file order.
    pub unwritten: Vec<Unwritten>,
    /// Animations written.
    pub animations: u32,
    /// Animations with no track to write (glTF animations need a channel), by name.
    pub empty: Vec<String>,
}

/// Why nothing was exported.
#[derive(Clone, Debug, PartialEq)]
pub enum ExportError {
    /// The animation file does not decode.
    Decode(Error),
    /// An animation asked for is not in the file.
    NoAnimation(String),
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExportError::Decode(e) => write!(f, "{e}"),
            ExportError::NoAnimation(name) => write!(f, "no animation named `{name}`"),
        }
    }
}

impl core::error::Error for ExportError {}

/// The animations of an animation file held in memory (ANP3, ANP2, ANPK, Stories; an
/// archive entry's bytes) as glTF on `skeleton`.
pub fn export(ifp: &[u8], skeleton: &Skeleton, options: &Options) -> Result<Export, ExportError> {
    let package = Package::parse(ifp).map_err(ExportError::Decode)?;
    export_package(&package, skeleton, options)
}

/// [`export`] of a decoded package.
pub fn export_package(
    package: &Package,
    skeleton: &Skeleton,
    options: &Options,
) -> Result<Export, ExportError> {
    for wanted in &options.animations {
        if !package
            .animations
            .iter()
            .any(|a| name_matches(wanted.as_bytes(), &bytes(&a.name)))
        {
            return Err(ExportError::NoAnimation(wanted.clone()));
        }
    }
    let host = options
        .host
        .unwrap_or_else(|| default_host(package.format, skeleton));
    let mut out = Writer::default();
    let mut export = Export {
        document: Value::Null,
        buffer: Vec::new(),
        unwritten: Vec::new(),
        animations: 0,
        empty: Vec::new(),
    };
    let mut animations = Vec::new();
    for animation in &package.animations {
        let name = bytes(&animation.name);
        if !options.animations.is_empty()
            && !options
                .animations
                .iter()
                .any(|w| name_matches(w.as_bytes(), &name))
        {
            continue;
        }
        match write_animation(&mut out, animation, package, skeleton, host, &mut export) {
            Some(a) => {
                animations.push(a);
                export.animations += 1;
            }
            None => export.empty.push(animation.name.clone()),
        }
    }
    let mut document = Map::new();
    document.insert(
        "asset".into(),
        json!({"version": "2.0", "generator": concat!("gtastream ", env!("CARGO_PKG_VERSION"))}),
    );
    document.insert("scene".into(), json!(0));
    document.insert("scenes".into(), json!([{ "nodes": [super::ROOT_NODE] }]));
    document.insert("nodes".into(), Value::Array(nodes(skeleton)));
    if let Some(skin) = skin(&mut out, skeleton) {
        document.insert("skins".into(), json!([skin]));
    }
    if !animations.is_empty() {
        document.insert("animations".into(), Value::Array(animations));
    }
    if !out.accessors.is_empty() {
        document.insert("accessors".into(), Value::Array(out.accessors));
        document.insert("bufferViews".into(), Value::Array(out.views));
        document.insert(
            "buffers".into(),
            json!([{ "byteLength": out.buffer.len() }]),
        );
    }
    export.document = Value::Object(document);
    export.buffer = out.buffer;
    Ok(export)
}

/// The bytes of a name held one character per byte (Latin-1, as [`Package`] holds names).
fn bytes(name: &str) -> Vec<u8> {
    name.chars().map(|c| u32::from(c) as u8).collect()
}

fn latin1(name: &[u8]) -> String {
    name.iter().map(|&b| char::from(b)).collect()
}

/// The root node, then a node per frame.
fn nodes(skeleton: &Skeleton) -> Vec<Value> {
    let frames = skeleton.frames();
    let mut nodes = Vec::with_capacity(frames.len() + 1);
    let roots: Vec<usize> = (0..frames.len())
        .filter(|&i| skeleton.parent_of(i).is_none())
        .map(|i| frame_node(i as u16))
        .collect();
    let mut root = Map::new();
    root.insert("name".into(), json!(ROOT_NAME));
    root.insert("rotation".into(), json!(Z_UP_TO_Y_UP));
    if !roots.is_empty() {
        root.insert("children".into(), json!(roots));
    }
    nodes.push(Value::Object(root));
    for (i, frame) in frames.iter().enumerate() {
        let mut node = Map::new();
        if let Some(name) = &frame.name {
            node.insert("name".into(), json!(latin1(name.as_bytes())));
        }
        let children: Vec<usize> = (i + 1..frames.len())
            .filter(|&c| skeleton.parent_of(c) == Some(i))
            .map(|c| frame_node(c as u16))
            .collect();
        if !children.is_empty() {
            node.insert("children".into(), json!(children));
        }
        let (translation, rotation, scale) = bind_trs(frame);
        // A part that is not finite (a hostile frame) is left at glTF's default: JSON has no
        // NaN, and a document with `null` there is no glTF.
        let finite = |v: &[f32]| v.iter().all(|c| c.is_finite());
        if translation != [0.0; 3] && finite(&translation) {
            node.insert("translation".into(), json!(translation));
        }
        if rotation != [0.0, 0.0, 0.0, 1.0] && finite(&rotation) {
            node.insert("rotation".into(), json!(rotation));
        }
        if scale != [1.0; 3] && finite(&scale) {
            node.insert("scale".into(), json!(scale));
        }
        let extras = NodeExtras {
            frame: i as u16,
            bone_id: frame.node_id,
        };
        node.insert("extras".into(), extras.to_json());
        nodes.push(Value::Object(node));
    }
    nodes
}

/// The skin over the HAnim table's bones (those a frame carries), in table order: the DFF
/// skin's inverse bind matrices where it has one per bone, else the inverses of the bones'
/// bind poses in model space.
fn skin(out: &mut Writer, skeleton: &Skeleton) -> Option<Value> {
    let nodes = skeleton.nodes();
    let frames: Vec<u16> = nodes.iter().filter_map(|n| n.frame).collect();
    if frames.is_empty() {
        return None;
    }
    let from_dff = skeleton.inverse_binds().len() == nodes.len() && frames.len() == nodes.len();
    let matrices: Vec<[f32; 16]> = if from_dff {
        skeleton.inverse_binds().to_vec()
    } else {
        let mut model = alloc::vec![[0.0f32; 16]; skeleton.frames().len()];
        crate::rig::model_matrices(skeleton, |_| None, &mut model);
        frames
            .iter()
            .map(|&f| invert_affine(&model[usize::from(f)]))
            .collect()
    };
    let mut values = Vec::with_capacity(matrices.len() * 16);
    for m in &matrices {
        let mut m = *m;
        // RenderWare keeps flags and padding in the fourth row; glTF's matrices are affine.
        m[3] = 0.0;
        m[7] = 0.0;
        m[11] = 0.0;
        m[15] = 1.0;
        values.extend_from_slice(&m);
    }
    let accessor = out.floats(&values, "MAT4", false);
    let joints: Vec<usize> = frames.iter().map(|&f| frame_node(f)).collect();
    Some(json!({
        "name": "HAnim",
        "joints": joints,
        "inverseBindMatrices": accessor,
        "extras": { super::EXTRAS_KEY: { "inverse_binds": if from_dff { "dff" } else { "bind_pose" } } },
    }))
}

/// The inverse of an affine column-major matrix (the rotation part inverted in general).
fn invert_affine(m: &[f32; 16]) -> [f32; 16] {
    let a = |r: usize, c: usize| f64::from(m[4 * c + r]);
    let det = a(0, 0) * (a(1, 1) * a(2, 2) - a(1, 2) * a(2, 1))
        - a(0, 1) * (a(1, 0) * a(2, 2) - a(1, 2) * a(2, 0))
        + a(0, 2) * (a(1, 0) * a(2, 1) - a(1, 1) * a(2, 0));
    let inv_det = if det == 0.0 { 0.0 } else { 1.0 / det };
    // Inverse of the 3x3 by cofactors: inv(r, c) = cofactor(c, r) / det.
    let cof = |r: usize, c: usize| {
        let (r1, r2) = ((r + 1) % 3, (r + 2) % 3);
        let (c1, c2) = ((c + 1) % 3, (c + 2) % 3);
        a(r1, c1) * a(r2, c2) - a(r1, c2) * a(r2, c1)
    };
    let mut out = [0.0f32; 16];
    for r in 0..3 {
        for c in 0..3 {
            out[4 * c + r] = (cof(c, r) * inv_det) as f32;
        }
    }
    for r in 0..3 {
        let t: f64 = (0..3).map(|k| f64::from(out[4 * k + r]) * a(k, 3)).sum();
        out[12 + r] = -t as f32;
    }
    out[15] = 1.0;
    out
}

/// One animation's glTF object, or `None` when no track is written.
fn write_animation(
    out: &mut Writer,
    animation: &Animation,
    package: &Package,
    skeleton: &Skeleton,
    host: Host,
    export: &mut Export,
) -> Option<Value> {
    let names: Vec<Vec<u8>> = animation
        .bones
        .iter()
        .map(|b| b.name.as_deref().map(bytes).unwrap_or_default())
        .collect();
    let tracks: Vec<Track<'_>> = animation
        .bones
        .iter()
        .enumerate()
        .map(|(i, bone)| Track {
            index: i as u32,
            name: bone.name.as_ref().map(|_| names[i].as_slice()),
            bone_id: bone.bone_id,
            frame_count: bone.frames.len() as u32,
            translation: bone.frame_type.has_translation(),
            format: package.format,
        })
        .collect();
    let mut binder = Binder::new(skeleton, host);
    let results: Vec<_> = tracks.iter().map(|t| binder.bind(t)).collect();
    let mut channels = Vec::new();
    let mut samplers = Vec::new();
    for (i, bone) in animation.bones.iter().enumerate() {
        let mut unwritten = |reason| {
            export.unwritten.push(Unwritten {
                animation: animation.name.clone(),
                track: i as u32,
                name: bone.name.clone(),
                bone_id: bone.bone_id,
                reason,
            })
        };
        let frame = match binder.binding(i as u32, results[i]) {
            Binding::Drives(frame) => frame,
            Binding::Overridden { by, .. } => {
                unwritten(Reason::Overridden { by });
                continue;
            }
            Binding::Unbound(u) => {
                unwritten(Reason::Unbound(u));
                continue;
            }
        };
        // Flips removed as at load; each key normalised as the games normalise a pose (the
        // sampler's rule: packed keys are not unit, a unit key keeps its bits).
        let keys: Vec<Keyframe> = crate::sample::unflipped(bone.frames.iter().copied())
            .map(|mut k| {
                k.rotation = crate::sample::normalised(k.rotation);
                k
            })
            .collect();
        let (times, steps) = match key_times(&keys) {
            Ok(t) => t,
            Err(reason) => {
                unwritten(reason);
                continue;
            }
        };
        let has_translation = bone.frame_type.has_translation();
        if let Some(key) = keys.iter().position(|k| {
            !k.rotation.iter().all(|v| v.is_finite())
                || (has_translation && !k.translation.iter().all(|v| v.is_finite()))
        }) {
            unwritten(Reason::NotFinite { key: key as u32 });
            continue;
        }
        let stored: Vec<Keyframe> = crate::sample::unflipped(bone.frames.iter().copied()).collect();
        let (written, times, extras) = with_jumps(&stored, &keys, &times, &steps);
        let input = out.floats(&times, "SCALAR", true);
        let rotations: Vec<f32> = written.iter().flat_map(|k| k.rotation).collect();
        let node = frame_node(frame);
        let sampler = |output: usize, extras: Option<Value>| {
            let mut s = Map::new();
            s.insert("input".into(), json!(input));
            s.insert("output".into(), json!(output));
            s.insert("interpolation".into(), json!("LINEAR"));
            if let Some(extras) = extras {
                s.insert("extras".into(), extras);
            }
            Value::Object(s)
        };
        let output = out.floats(&rotations, "VEC4", false);
        channels
            .push(json!({"sampler": samplers.len(), "target": {"node": node, "path": "rotation"}}));
        samplers.push(sampler(output, extras.to_json()));
        if has_translation {
            let translations: Vec<f32> = written.iter().flat_map(|k| k.translation).collect();
            let output = out.floats(&translations, "VEC3", false);
            channels.push(
                json!({"sampler": samplers.len(), "target": {"node": node, "path": "translation"}}),
            );
            // The same keys (one input): the jumps listed, key 0's rotation none of its business.
            let extras = SamplerExtras {
                first: None,
                ..extras
            };
            samplers.push(sampler(output, extras.to_json()));
        }
    }
    if channels.is_empty() {
        return None;
    }
    Some(json!({"name": animation.name, "channels": channels, "samplers": samplers}))
}

/// The key times to write, and the keys raised as steps (docs/ANIMATION.md, "glTF").
fn key_times(keys: &[Keyframe]) -> Result<(Vec<f32>, Vec<u32>), Reason> {
    let mut times = Vec::with_capacity(keys.len());
    let mut steps = Vec::new();
    for (k, key) in keys.iter().enumerate() {
        if !key.time.is_finite() {
            return Err(Reason::NotFinite { key: k as u32 });
        }
        let Some(&written) = times.last() else {
            times.push(key.time);
            continue;
        };
        let stored_before = keys[k - 1].time;
        if key.time < stored_before {
            return Err(Reason::DecreasingTime { key: k as u32 });
        }
        if key.time == stored_before {
            times.push(step_time(written));
            steps.push(k as u32);
        } else if key.time <= written {
            return Err(Reason::StepCollision { key: k as u32 });
        } else {
            times.push(key.time);
        }
    }
    Ok((times, steps))
}

/// The keys to write, their times and the sampler's extras, where the games' slerp jumps
/// (docs/ANIMATION.md, "glTF"): over an interval B → A whose stored keys' slerp returns q_A
/// ([`crate::sample::slerp_returns_second`]), the games show q_A from just after t_B (at t_B
/// itself the interval before ends on q_B). For B ≥ 1 a key with q_A's rotation (and B's
/// translation, where the games still are) is inserted at [`step_time`]`(t_B)`; for B = 0,
/// where f = 0 at t_0 gives q_A too, key 0 takes q_A's rotation and its own goes to `first`.
/// Nothing is written where the values are already equal, nor in an interval without a time
/// strictly between its keys (a step: never sampled inside).
///
/// `stored`: the keys flip-free as the sampler slerps them; `keys`: the same normalised (the
/// values written); `times`, `steps`: [`key_times`]'.
fn with_jumps(
    stored: &[Keyframe],
    keys: &[Keyframe],
    times: &[f32],
    steps: &[u32],
) -> (Vec<Keyframe>, Vec<f32>, SamplerExtras) {
    let mut written = Vec::with_capacity(keys.len());
    let mut written_times = Vec::with_capacity(keys.len());
    let mut extras = SamplerExtras::default();
    for (k, key) in keys.iter().enumerate() {
        if steps.contains(&(k as u32)) {
            extras.steps.push(written.len() as u32);
        }
        written.push(*key);
        written_times.push(times[k]);
        let Some(next) = keys.get(k + 1) else {
            continue;
        };
        if next.rotation == key.rotation
            || !crate::sample::slerp_returns_second(stored[k].rotation, stored[k + 1].rotation)
        {
            continue;
        }
        if k == 0 {
            extras.first = Some(key.rotation);
            written[0].rotation = next.rotation;
        } else if step_time(times[k]) < times[k + 1] {
            extras.jumps.push(written.len() as u32);
            written.push(Keyframe {
                rotation: next.rotation,
                ..*key
            });
            written_times.push(step_time(times[k]));
        }
    }
    (written, written_times, extras)
}

/// The accessors, buffer views and buffer being written.
#[derive(Default)]
struct Writer {
    accessors: Vec<Value>,
    views: Vec<Value>,
    buffer: Vec<u8>,
}

impl Writer {
    /// An accessor of `f32`s of `kind` (`SCALAR`, `VEC3`, `VEC4`, `MAT4`) over a buffer view of
    /// its own; with its `min` and `max` where `bounds` (animation inputs need them).
    fn floats(&mut self, values: &[f32], kind: &str, bounds: bool) -> usize {
        let offset = self.buffer.len();
        for v in values {
            self.buffer.extend_from_slice(&v.to_le_bytes());
        }
        let width = match kind {
            "SCALAR" => 1,
            "VEC3" => 3,
            "VEC4" => 4,
            _ => 16,
        };
        self.views.push(json!({
            "buffer": 0,
            "byteOffset": offset,
            "byteLength": values.len() * 4,
        }));
        let mut accessor = Map::new();
        accessor.insert("bufferView".into(), json!(self.views.len() - 1));
        accessor.insert("componentType".into(), json!(5126));
        accessor.insert("count".into(), json!(values.len() / width));
        accessor.insert("type".into(), json!(kind));
        if bounds {
            let min = values.iter().copied().fold(f32::INFINITY, f32::min);
            let max = values.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            accessor.insert("min".into(), json!([min]));
            accessor.insert("max".into(), json!([max]));
        }
        self.accessors.push(Value::Object(accessor));
        self.accessors.len() - 1
    }
}

impl Export {
    /// The document as a `.gltf` file: JSON with the buffer embedded as a base64 data URI.
    pub fn to_gltf(&self) -> Vec<u8> {
        let mut document = self.document.clone();
        if let Some(buffer) = document
            .get_mut("buffers")
            .and_then(|b| b.get_mut(0))
            .and_then(Value::as_object_mut)
        {
            let mut uri = String::from("data:application/octet-stream;base64,");
            base64(&self.buffer, &mut uri);
            buffer.insert("uri".into(), json!(uri));
        }
        let mut text = serde_json::to_vec(&document).unwrap_or_default();
        text.push(b'\n');
        text
    }

    /// The document as a `.glb` file: the JSON chunk, then the buffer as the binary chunk.
    pub fn to_glb(&self) -> Vec<u8> {
        let mut json = serde_json::to_vec(&self.document).unwrap_or_default();
        while !json.len().is_multiple_of(4) {
            json.push(b' ');
        }
        let mut bin = self.buffer.clone();
        while !bin.len().is_multiple_of(4) {
            bin.push(0);
        }
        let has_bin = !self.buffer.is_empty();
        let total = 12 + 8 + json.len() + if has_bin { 8 + bin.len() } else { 0 };
        let mut out = Vec::with_capacity(total);
        out.extend_from_slice(b"glTF");
        out.extend_from_slice(&2u32.to_le_bytes());
        out.extend_from_slice(&(total as u32).to_le_bytes());
        out.extend_from_slice(&(json.len() as u32).to_le_bytes());
        out.extend_from_slice(b"JSON");
        out.extend_from_slice(&json);
        if has_bin {
            out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
            out.extend_from_slice(b"BIN\0");
            out.extend_from_slice(&bin);
        }
        out
    }
}

/// Standard base64 (RFC 4648, padded) of `data`, appended to `out`.
fn base64(data: &[u8], out: &mut String) {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for chunk in data.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i)) as usize & 63]));
            } else {
                out.push('=');
            }
        }
    }
}

impl Export {
    /// What was written and left out, as the front ends hand it over (the JavaScript and
    /// Python `toGltf`/`to_gltf` results): `{"animations": n, "empty": [name, ...],
    /// "unwritten": [{"animation", "track", "name", "bone_id", "reason", "message", "key"?,
    /// "by"?}, ...]}`, `reason` the stable [`Reason::name`].
    pub fn report(&self) -> Value {
        let unwritten: Vec<Value> = self
            .unwritten
            .iter()
            .map(|u| {
                let mut entry = Map::new();
                entry.insert("animation".into(), json!(u.animation));
                entry.insert("track".into(), json!(u.track));
                entry.insert("name".into(), json!(u.name));
                entry.insert("bone_id".into(), json!(u.bone_id));
                entry.insert("reason".into(), json!(u.reason.name()));
                entry.insert("message".into(), json!(alloc::format!("{}", u.reason)));
                match u.reason {
                    Reason::Overridden { by } => {
                        entry.insert("by".into(), json!(by));
                    }
                    Reason::DecreasingTime { key }
                    | Reason::StepCollision { key }
                    | Reason::NotFinite { key } => {
                        entry.insert("key".into(), json!(key));
                    }
                    Reason::Unbound(_) => {}
                }
                Value::Object(entry)
            })
            .collect();
        json!({
            "animations": self.animations,
            "empty": self.empty,
            "unwritten": unwritten,
        })
    }
}
