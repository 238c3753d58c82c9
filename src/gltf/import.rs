//! glTF 2.0 → IFP: the animations of a `.gltf` (JSON, its buffers in data URIs or files beside
//! it) or `.glb` written as `ANP3`, `ANP2` or `ANPK` through the streaming encoder, checked for
//! the target games before they are handed back (docs/ANIMATION.md, "From glTF").
//!
//! [`read`] parses the file whole (glTF is not a streaming format) within fixed caps
//! ([`MAX_FILE`], the accessors inside their buffers, [`MAX_RESAMPLED_KEYS`]): hostile input is
//! an [`ImportError`] naming what and where, never a panic or unbounded work. [`import`] maps
//! each channel's node to a bone, keeps the keys where the target holds them exactly (else an
//! error naming the first key that it cannot hold, unless resampling or quantizing is asked
//! for), writes the file with [`Encoder`] (no format logic here), and checks it with
//! [`Checker`].

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;

use core::fmt;

use serde::Deserialize;
use serde_json::Value;

use super::{step_time, NodeExtras, SamplerExtras};
use crate::check::{games_of, Checker, Finding, Games, Level};
use crate::encode::{on_packed_steps, BoneHeader, EncodeError, EncodeOptions, Encoder};
use crate::rig::{frame_by_name, Skeleton, SA_BONE_NAMES, VC_BONE_NAMES};
use crate::skeleton::{by_id, by_name, BONES};
use crate::{name_matches, Decoder, Format, FrameType, Keyframe, Package};

/// Bytes a `.gltf`, a `.glb` or one buffer may have (a stock-sized package of 330 animations
/// exported with its skeleton is a few MB).
pub const MAX_FILE: usize = 256 << 20;
/// Keys a resampled track may have (18 minutes at 60 Hz): a clip's end time read from the
/// file cannot make the work unbounded.
pub const MAX_RESAMPLED_KEYS: usize = 1 << 16;
/// Values (floats) an import reads from accessors in all, and keyframes it writes in all
/// (2²⁵, 2²² — a stock `ped.ifp` holds about 10⁵ keys): memory stays bounded however often
/// channels share an accessor or how many tracks are resampled.
pub const MAX_VALUES: usize = 1 << 25;
/// See [`MAX_VALUES`].
pub const MAX_KEYS: usize = 1 << 22;
/// Bone poses `--report` computes in all, each a walk over a bone's keys (2²⁴).
pub const MAX_REPORT_WORK: u64 = 1 << 24;
/// The highest `--resample` rate, in keys a second.
pub const MAX_RESAMPLE_RATE: u32 = 1000;

/// What went wrong, as a kind (for programs) with a message naming the place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ImportErrorKind {
    /// The GLB container (header, chunks) is malformed.
    Glb,
    /// The JSON does not parse, or a field has the wrong type.
    Json,
    /// A buffer's URI cannot be read (bad data URI, the loader refused it).
    Uri,
    /// An index or range points outside what the file holds.
    Range,
    /// Valid glTF this importer does not read (sparse accessors, compressed buffers, ...).
    Unsupported,
    /// A size above the caps ([`MAX_FILE`], [`MAX_RESAMPLED_KEYS`]).
    Limit,
    /// A channel's node maps to no bone, or two nodes to one.
    Unmapped,
    /// A key the target cannot hold (time, value, interpolation), or one glTF forbids.
    Key,
    /// A line of a bone map file does not read.
    BoneMap,
    /// No animation of a requested name, or none to write.
    NotFound,
    /// The encoder refused the output (a name too long for its field, ...).
    Encode,
    /// The checker found an error in the output for the target games.
    Check,
}

impl ImportErrorKind {
    /// A stable short name.
    pub const fn name(self) -> &'static str {
        match self {
            ImportErrorKind::Glb => "glb",
            ImportErrorKind::Json => "json",
            ImportErrorKind::Uri => "uri",
            ImportErrorKind::Range => "range",
            ImportErrorKind::Unsupported => "unsupported",
            ImportErrorKind::Limit => "limit",
            ImportErrorKind::Unmapped => "unmapped",
            ImportErrorKind::Key => "key",
            ImportErrorKind::BoneMap => "bone_map",
            ImportErrorKind::NotFound => "not_found",
            ImportErrorKind::Encode => "encode",
            ImportErrorKind::Check => "check",
        }
    }
}

/// An import that failed: its kind, the byte offset in the input where there is one (GLB
/// chunks, JSON errors), and a message that names the animation, channel, node or key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportError {
    /// What went wrong.
    pub kind: ImportErrorKind,
    /// The absolute byte offset in the `.gltf`/`.glb`, where the error has one.
    pub offset: Option<u64>,
    /// Where and what, in words.
    pub message: String,
}

impl ImportError {
    fn new(kind: ImportErrorKind, message: impl Into<String>) -> Self {
        ImportError {
            kind,
            offset: None,
            message: message.into(),
        }
    }

    fn at(kind: ImportErrorKind, offset: usize, message: impl Into<String>) -> Self {
        ImportError {
            kind,
            offset: Some(offset as u64),
            message: message.into(),
        }
    }
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind.name(), self.message)?;
        if let Some(offset) = self.offset {
            write!(f, " (offset {offset})")?;
        }
        Ok(())
    }
}

impl core::error::Error for ImportError {}

fn fail<T>(kind: ImportErrorKind, message: impl Into<String>) -> Result<T, ImportError> {
    Err(ImportError::new(kind, message))
}

// ---------------------------------------------------------------------------------------------
// The JSON: only what animations need is read; everything else is skipped unparsed.

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct Root {
    asset: Option<Asset>,
    extensions_required: Vec<String>,
    buffers: Vec<BufferDef>,
    buffer_views: Vec<ViewDef>,
    accessors: Vec<AccessorDef>,
    nodes: Vec<NodeDef>,
    animations: Vec<AnimationDef>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Asset {
    version: String,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct BufferDef {
    uri: Option<String>,
    byte_length: u64,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct ViewDef {
    buffer: u64,
    byte_offset: u64,
    byte_length: u64,
    byte_stride: Option<u64>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct AccessorDef {
    buffer_view: Option<u64>,
    byte_offset: u64,
    component_type: u32,
    normalized: bool,
    count: u64,
    #[serde(rename = "type")]
    kind: String,
    sparse: Option<Value>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct NodeDef {
    name: Option<String>,
    rotation: Option<[f32; 4]>,
    translation: Option<[f32; 3]>,
    extras: Option<Value>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct AnimationDef {
    name: Option<String>,
    channels: Vec<ChannelDef>,
    samplers: Vec<SamplerDef>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct ChannelDef {
    sampler: u64,
    target: TargetDef,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct TargetDef {
    node: Option<u64>,
    path: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct SamplerDef {
    input: u64,
    output: u64,
    interpolation: Option<String>,
    extras: Option<Value>,
}

/// A glTF file read whole: its JSON and its buffers.
pub struct Gltf {
    root: Root,
    buffers: Vec<Vec<u8>>,
    /// Values read from accessors by the running import (channels may share an accessor, so
    /// the buffers alone do not bound it): at most [`MAX_VALUES`].
    values_read: core::cell::Cell<usize>,
}

const GLB_MAGIC: &[u8; 4] = b"glTF";
const CHUNK_JSON: u32 = 0x4E4F_534A;
const CHUNK_BIN: u32 = 0x004E_4942;

fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    let field = bytes.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes([field[0], field[1], field[2], field[3]]))
}

/// The JSON chunk and the BIN chunk (if any) of a GLB, with the JSON's offset.
/// A GLB's JSON chunk, its offset, and its BIN chunk if any.
type Chunks<'a> = (&'a [u8], usize, Option<&'a [u8]>);

fn glb_chunks(bytes: &[u8]) -> Result<Chunks<'_>, ImportError> {
    use ImportErrorKind::Glb;
    let version = u32_at(bytes, 4).ok_or(ImportError::at(Glb, 0, "header cut short"))?;
    if version != 2 {
        return Err(ImportError::at(
            Glb,
            4,
            format!("container version {version}, not 2"),
        ));
    }
    let length = u32_at(bytes, 8).ok_or(ImportError::at(Glb, 8, "header cut short"))? as usize;
    if length > bytes.len() {
        return Err(ImportError::at(
            Glb,
            8,
            format!("declares {length} bytes but the file has {}", bytes.len()),
        ));
    }
    let bytes = &bytes[..length];
    let mut at = 12;
    let mut json = None;
    let mut bin = None;
    while at < bytes.len() {
        let (Some(size), Some(kind)) = (u32_at(bytes, at), u32_at(bytes, at + 4)) else {
            return Err(ImportError::at(Glb, at, "chunk header cut short"));
        };
        let start = at + 8;
        let end = start
            .checked_add(size as usize)
            .filter(|&e| e <= bytes.len())
            .ok_or(ImportError::at(
                Glb,
                at,
                format!("chunk of {size} bytes runs past the end"),
            ))?;
        match (kind, json.is_none()) {
            (CHUNK_JSON, true) => json = Some((&bytes[start..end], start)),
            (_, true) => return Err(ImportError::at(Glb, at, "the first chunk is not JSON")),
            (CHUNK_BIN, false) if bin.is_none() => bin = Some(&bytes[start..end]),
            // Chunks of unknown types are skipped (the specification's rule).
            _ => {}
        }
        // Chunks are padded to 4 bytes.
        at = end.div_ceil(4) * 4;
    }
    let (json, offset) = json.ok_or(ImportError::at(Glb, 12, "no JSON chunk"))?;
    Ok((json, offset, bin))
}

/// The bytes of a base64 text (standard alphabet, `=` padding optional).
fn base64(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() / 4 * 3 + 3);
    let (mut acc, mut bits) = (0u32, 0u32);
    for c in text.bytes().take_while(|&c| c != b'=') {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

/// A URI's `%XX` escapes decoded (file names with blanks are written `%20`).
fn percent_decode(uri: &str) -> String {
    let bytes = uri.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Reads a `.gltf` or `.glb` held in memory. `load` reads a buffer that the file names by a
/// relative URI (the file beside it); it should refuse what it will not read (absolute paths,
/// `..`) and files above [`MAX_FILE`].
pub fn read(
    bytes: &[u8],
    load: &mut dyn FnMut(&str) -> Result<Vec<u8>, String>,
) -> Result<Gltf, ImportError> {
    if bytes.len() > MAX_FILE {
        return Err(ImportError::at(
            ImportErrorKind::Limit,
            0,
            format!("{} bytes, above the {MAX_FILE} read", bytes.len()),
        ));
    }
    let (json, json_offset, bin) = if bytes.starts_with(GLB_MAGIC) {
        glb_chunks(bytes)?
    } else {
        (bytes, 0, None)
    };
    let root: Root = serde_json::from_slice(json).map_err(|e| {
        // serde_json counts lines and columns; the offset is the line's start.
        let line_start: usize = json
            .split(|&b| b == b'\n')
            .take(e.line().saturating_sub(1))
            .map(|l| l.len() + 1)
            .sum();
        ImportError::at(
            ImportErrorKind::Json,
            json_offset + line_start + e.column().saturating_sub(1),
            e.to_string(),
        )
    })?;
    match root.asset.as_ref().map(|a| a.version.as_str()) {
        Some(v) if v.starts_with("2.") => {}
        Some(v) => return fail(ImportErrorKind::Unsupported, format!("glTF version {v}")),
        None => return fail(ImportErrorKind::Json, "no `asset` (not a glTF file)"),
    }
    if let Some(ext) = root
        .extensions_required
        .iter()
        .find(|e| e.as_str() == "EXT_meshopt_compression")
    {
        return fail(
            ImportErrorKind::Unsupported,
            format!("the required extension {ext} (compressed buffers)"),
        );
    }
    let mut buffers = Vec::with_capacity(root.buffers.len().min(1024));
    let mut total = 0usize;
    for (i, buffer) in root.buffers.iter().enumerate() {
        let data = match (&buffer.uri, i, bin) {
            (None, 0, Some(bin)) => bin.to_vec(),
            (None, _, _) => {
                return fail(
                    ImportErrorKind::Uri,
                    format!("buffer {i} has no URI and is not the GLB's BIN chunk"),
                )
            }
            (Some(uri), _, _) if uri.starts_with("data:") => {
                let payload = uri.split_once(";base64,").map(|(_, p)| p).ok_or_else(|| {
                    ImportError::new(
                        ImportErrorKind::Uri,
                        format!("buffer {i}: a data URI that is not base64"),
                    )
                })?;
                base64(payload).ok_or_else(|| {
                    ImportError::new(
                        ImportErrorKind::Uri,
                        format!("buffer {i}: the data URI's base64 does not decode"),
                    )
                })?
            }
            (Some(uri), _, _) => load(&percent_decode(uri)).map_err(|e| {
                ImportError::new(ImportErrorKind::Uri, format!("buffer {i} ({uri}): {e}"))
            })?,
        };
        if (data.len() as u64) < buffer.byte_length {
            return fail(
                ImportErrorKind::Range,
                format!(
                    "buffer {i} declares {} bytes but holds {}",
                    buffer.byte_length,
                    data.len()
                ),
            );
        }
        total = total.saturating_add(data.len());
        if total > MAX_FILE {
            return fail(
                ImportErrorKind::Limit,
                format!("the buffers hold more than {MAX_FILE} bytes"),
            );
        }
        buffers.push(data);
    }
    Ok(Gltf {
        root,
        buffers,
        values_read: core::cell::Cell::new(0),
    })
}

impl Gltf {
    /// The animations' names, in file order (an unnamed one is `animation_N`).
    pub fn animation_names(&self) -> Vec<String> {
        (0..self.root.animations.len())
            .map(|i| self.animation_name(i))
            .collect()
    }

    fn animation_name(&self, i: usize) -> String {
        self.root.animations[i]
            .name
            .clone()
            .unwrap_or_else(|| format!("animation_{i}"))
    }

    fn node_name(&self, node: usize) -> String {
        self.root.nodes[node]
            .name
            .clone()
            .unwrap_or_else(|| format!("node_{node}"))
    }

    /// An accessor's elements as `f32`s (`components` each): floats, or the normalised
    /// integers glTF allows for animation outputs.
    fn accessor(&self, index: u64, what: &dyn Fn() -> String) -> Result<Accessor, ImportError> {
        use ImportErrorKind::{Range, Unsupported};
        let a =
            self.root.accessors.get(index as usize).ok_or_else(|| {
                ImportError::new(Range, format!("{}: no accessor {index}", what()))
            })?;
        let components = match a.kind.as_str() {
            "SCALAR" => 1,
            "VEC3" => 3,
            "VEC4" => 4,
            other => {
                return fail(
                    Unsupported,
                    format!("{}: accessor {index} of type {other}", what()),
                )
            }
        };
        if a.sparse.is_some() {
            return fail(
                Unsupported,
                format!("{}: accessor {index} is sparse", what()),
            );
        }
        let size = match (a.component_type, a.normalized) {
            (5126, _) => 4,
            (5120 | 5121, true) => 1,
            (5122 | 5123, true) => 2,
            (other, _) => {
                return fail(
                    Unsupported,
                    format!(
                        "{}: accessor {index} has component type {other}{} (animations use floats or normalised integers)",
                        what(),
                        if a.normalized { "" } else { " not normalised" }
                    ),
                )
            }
        };
        let view_index = a.buffer_view.ok_or_else(|| {
            ImportError::new(
                Unsupported,
                format!("{}: accessor {index} has no buffer view", what()),
            )
        })?;
        let view = self
            .root
            .buffer_views
            .get(view_index as usize)
            .ok_or_else(|| {
                ImportError::new(Range, format!("{}: no buffer view {view_index}", what()))
            })?;
        let buffer = self.buffers.get(view.buffer as usize).ok_or_else(|| {
            ImportError::new(
                Range,
                format!(
                    "{}: buffer view {view_index}: no buffer {}",
                    what(),
                    view.buffer
                ),
            )
        })?;
        let element = components * size;
        let stride = view.byte_stride.unwrap_or(element as u64);
        let out_of_range = || {
            ImportError::new(
                Range,
                format!(
                    "{}: accessor {index} ({} elements) runs outside its buffer view or buffer",
                    what(),
                    a.count
                ),
            )
        };
        if stride < element as u64 || a.count == 0 {
            return Err(out_of_range());
        }
        let view_end = view
            .byte_offset
            .checked_add(view.byte_length)
            .filter(|&e| e <= buffer.len() as u64)
            .ok_or_else(out_of_range)?;
        let start = view
            .byte_offset
            .checked_add(a.byte_offset)
            .ok_or_else(out_of_range)?;
        // The last element ends inside the view: the count is bounded by the buffer's bytes.
        (a.count - 1)
            .checked_mul(stride)
            .and_then(|s| s.checked_add(start))
            .and_then(|s| s.checked_add(element as u64))
            .filter(|&e| e <= view_end)
            .ok_or_else(out_of_range)?;
        let count = a.count as usize;
        let read = self.values_read.get().saturating_add(count * components);
        if read > MAX_VALUES {
            return fail(
                ImportErrorKind::Limit,
                format!(
                    "{}: the channels read more than {MAX_VALUES} values in all",
                    what()
                ),
            );
        }
        self.values_read.set(read);
        let mut values = Vec::with_capacity(count * components);
        for e in 0..count {
            let at = start as usize + e * stride as usize;
            for c in 0..components {
                let p = at + c * size;
                let v = match a.component_type {
                    5126 => {
                        f32::from_le_bytes([buffer[p], buffer[p + 1], buffer[p + 2], buffer[p + 3]])
                    }
                    5120 => (f32::from(buffer[p] as i8) / 127.0).max(-1.0),
                    5121 => f32::from(buffer[p]) / 255.0,
                    5122 => (f32::from(i16::from_le_bytes([buffer[p], buffer[p + 1]])) / 32767.0)
                        .max(-1.0),
                    _ => f32::from(u16::from_le_bytes([buffer[p], buffer[p + 1]])) / 65535.0,
                };
                values.push(v);
            }
        }
        Ok(Accessor { components, values })
    }
}

struct Accessor {
    components: usize,
    values: Vec<f32>,
}

// ---------------------------------------------------------------------------------------------
// Bones.

/// A bone of the output: the name written, and the id where the target binds by id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoneTarget {
    /// The name written.
    pub name: String,
    /// The bone id (HAnim tag), where known.
    pub bone_id: Option<i32>,
}

/// A user's map of glTF node names to bones: one `glTF-name = GTA name|id` a line; blank
/// lines and lines starting with `#` are skipped (docs/ANIMATION.md has maps for common rigs).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BoneMap {
    entries: Vec<(String, MapTo)>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum MapTo {
    Name(String),
    Id(i32),
}

impl BoneMap {
    /// Reads a map file's text; an error names the line.
    pub fn parse(text: &str) -> Result<BoneMap, ImportError> {
        let mut entries = Vec::new();
        for (number, line) in (1..).zip(text.lines()) {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let Some((from, to)) = line.split_once('=') else {
                return fail(
                    ImportErrorKind::BoneMap,
                    format!("line {number}: `{line}` is not `glTF-name = GTA name|id`"),
                );
            };
            let (from, to) = (from.trim(), to.trim());
            if from.is_empty() || to.is_empty() {
                return fail(
                    ImportErrorKind::BoneMap,
                    format!("line {number}: an empty name in `{line}`"),
                );
            }
            let to = match to.parse::<i32>() {
                Ok(id) => MapTo::Id(id),
                Err(_) => MapTo::Name(to.to_string()),
            };
            entries.push((from.to_string(), to));
        }
        Ok(BoneMap { entries })
    }

    /// The entry for a node: its name as written, in any case, or as three.js's loaders
    /// rename nodes (a Mixamo rig's `mixamorig:Hips` comes out of three.js as `mixamorigHips`).
    fn get(&self, name: &str) -> Option<&MapTo> {
        let exact = self.entries.iter().find(|(n, _)| n == name);
        exact
            .or_else(|| {
                self.entries
                    .iter()
                    .find(|(n, _)| n.eq_ignore_ascii_case(name))
            })
            .or_else(|| {
                let wanted = three_js_name(name);
                (self.entries.iter()).find(|(n, _)| three_js_name(n).eq_ignore_ascii_case(&wanted))
            })
            .map(|(_, to)| to)
    }
}

/// A node's name as three.js's loaders give it (`PropertyBinding.sanitizeNodeName`): blanks
/// become `_`, and `[ ] . : /` (its track path syntax) are removed.
fn three_js_name(name: &str) -> String {
    (name.chars())
        .filter(|c| !matches!(c, '[' | ']' | '.' | ':' | '/'))
        .map(|c| if c.is_whitespace() { '_' } else { c })
        .collect()
}

/// The name a target writes for a bone id: the engine's table name (San Andreas' for IFP2,
/// Vice City's for ANPK), else the standard table's first name.
fn name_for_id(format: Format, id: i32) -> Option<String> {
    let table = if format == Format::Anpk {
        VC_BONE_NAMES
    } else {
        SA_BONE_NAMES
    };
    table
        .iter()
        .find(|(i, _)| *i == id)
        .map(|(_, n)| n.to_string())
        .or_else(|| by_id(id).map(|b| BONES[b].name().to_string()))
}

/// A bone of the standard tables by name: its id and the target's name for it.
fn standard_by_name(format: Format, name: &str) -> Option<BoneTarget> {
    let bone = &BONES[by_name(name.as_bytes())?];
    Some(match bone.id {
        Some(id) => BoneTarget {
            name: name_for_id(format, i32::from(id)).unwrap_or_else(|| bone.name().to_string()),
            bone_id: Some(i32::from(id)),
        },
        None => BoneTarget {
            name: bone.name().to_string(),
            bone_id: None,
        },
    })
}

/// The bone a node drives: by the user's map, the node's `extras.gtastream.bone_id`, the
/// skeleton's frame names, or the standard bone-name table, in that order.
fn map_node(
    gltf: &Gltf,
    node: usize,
    options: &ImportOptions<'_>,
) -> Result<Option<BoneTarget>, ImportError> {
    let format = options.format;
    let name = gltf.node_name(node);
    if let Some(to) = options.bone_map.and_then(|m| m.get(&name)) {
        let target = match to {
            MapTo::Id(id) => BoneTarget {
                name: name_for_id(format, *id).unwrap_or_else(|| name.clone()),
                bone_id: Some(*id),
            },
            MapTo::Name(to) => skeleton_frame(options.skeleton, format, to)
                .or_else(|| standard_by_name(format, to))
                .unwrap_or(BoneTarget {
                    name: to.clone(),
                    bone_id: None,
                }),
        };
        return Ok(Some(target));
    }
    let ours = gltf.root.nodes[node]
        .extras
        .as_ref()
        .and_then(NodeExtras::from_json);
    if let Some(ours) = ours {
        let target = match ours.bone_id {
            Some(id) => BoneTarget {
                name: name_for_id(format, id).unwrap_or_else(|| name.clone()),
                bone_id: Some(id),
            },
            // A frame without an id (GTA III): bound by its name.
            None => BoneTarget {
                name: name.clone(),
                bone_id: None,
            },
        };
        return Ok(Some(target));
    }
    if let Some(target) = skeleton_frame(options.skeleton, format, &name) {
        return Ok(Some(target));
    }
    Ok(standard_by_name(format, &name))
}

/// The frame of that name in the skeleton: its name, and its HAnim id where it has one.
fn skeleton_frame(skeleton: Option<&Skeleton>, format: Format, name: &str) -> Option<BoneTarget> {
    let skeleton = skeleton?;
    // The engine's own match first (case aside); then blanks aside too, as tools that strip
    // the leading space of SA's ` Pelvis` write it.
    let index = frame_by_name(skeleton, name.as_bytes())
        .map(usize::from)
        .or_else(|| {
            skeleton.frames().iter().position(|f| {
                f.name
                    .as_ref()
                    .is_some_and(|n| name_matches(n.as_bytes(), name.as_bytes()))
            })
        })?;
    let frame = &skeleton.frames()[index];
    let stored = frame.name.as_ref().map_or_else(
        || name.to_string(),
        |n| String::from_utf8_lossy(n.as_bytes()).trim().to_string(),
    );
    Some(BoneTarget {
        name: frame
            .node_id
            .and_then(|id| name_for_id(format, id))
            .unwrap_or(stored),
        bone_id: frame.node_id,
    })
}

// ---------------------------------------------------------------------------------------------
// Channels and their sampling.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Interpolation {
    Linear,
    Step,
    CubicSpline,
}

impl Interpolation {
    fn name(self) -> &'static str {
        match self {
            Interpolation::Linear => "LINEAR",
            Interpolation::Step => "STEP",
            Interpolation::CubicSpline => "CUBICSPLINE",
        }
    }
}

/// One channel read: its key times and values (`components` each; CUBICSPLINE keeps the
/// in-tangent, value, out-tangent triples).
struct Curve {
    interpolation: Interpolation,
    /// The key times written: a marked step's second key back at its first key's time.
    times: Vec<f32>,
    /// The key times as the glTF holds them (strictly increasing), for sampling it.
    gltf_times: Vec<f32>,
    /// The glTF key of each key in `times`: the keys the export inserted where the games'
    /// slerp jumps are left out.
    stored: Vec<usize>,
    /// Key 0's stored rotation, where the export wrote key 1's there (a jump at key 0).
    first: Option<Vec<f32>>,
    values: Vec<f32>,
    components: usize,
}

impl Curve {
    /// The value of key `k`.
    fn key(&self, k: usize) -> &[f32] {
        let n = self.components;
        let at = match self.interpolation {
            Interpolation::CubicSpline => (3 * k + 1) * n,
            _ => k * n,
        };
        &self.values[at..at + n]
    }

    /// The value of stored key `k` (key `k` of `times`).
    fn stored_key(&self, k: usize) -> Vec<f32> {
        match &self.first {
            Some(first) if k == 0 => first.clone(),
            _ => self.key(self.stored[k]).to_vec(),
        }
    }

    /// The value at `t` as glTF defines it (clamped outside the keys); rotations slerped
    /// (LINEAR) or normalised (CUBICSPLINE).
    fn sample(&self, t: f32, rotation: bool) -> Vec<f32> {
        let last = self.gltf_times.len() - 1;
        if t <= self.gltf_times[0] {
            return self.key(0).to_vec();
        }
        if t >= self.gltf_times[last] {
            return self.key(last).to_vec();
        }
        // The interval [k, k + 1] holding t.
        let k = self.gltf_times.partition_point(|&x| x <= t) - 1;
        let (t0, t1) = (self.gltf_times[k], self.gltf_times[k + 1]);
        let dt = t1 - t0;
        let f = if dt > 0.0 { (t - t0) / dt } else { 0.0 };
        match self.interpolation {
            Interpolation::Step => self.key(k).to_vec(),
            Interpolation::Linear if rotation => slerp(self.key(k), self.key(k + 1), f),
            Interpolation::Linear => {
                let (a, b) = (self.key(k), self.key(k + 1));
                a.iter().zip(b).map(|(a, b)| a + (b - a) * f).collect()
            }
            Interpolation::CubicSpline => {
                let n = self.components;
                let v0 = self.key(k);
                let b0 = &self.values[(3 * k + 2) * n..(3 * k + 3) * n];
                let a1 = &self.values[(3 * (k + 1)) * n..(3 * (k + 1) + 1) * n];
                let v1 = self.key(k + 1);
                let (f2, f3) = (f * f, f * f * f);
                let h00 = 2.0 * f3 - 3.0 * f2 + 1.0;
                let h10 = f3 - 2.0 * f2 + f;
                let h01 = -2.0 * f3 + 3.0 * f2;
                let h11 = f3 - f2;
                let v: Vec<f32> = (0..n)
                    .map(|c| h00 * v0[c] + h10 * dt * b0[c] + h01 * v1[c] + h11 * dt * a1[c])
                    .collect();
                if rotation {
                    normalised(&v)
                } else {
                    v
                }
            }
        }
    }
}

fn normalised(q: &[f32]) -> Vec<f32> {
    let len = libm::sqrtf(q.iter().map(|c| c * c).sum::<f32>());
    if len == 0.0 {
        return vec![0.0, 0.0, 0.0, 1.0];
    }
    q.iter().map(|c| c / len).collect()
}

/// glTF's spherical interpolation of unit quaternions (the shorter way).
fn slerp(a: &[f32], b: &[f32], f: f32) -> Vec<f32> {
    let mut dot: f32 = a.iter().zip(b).map(|(a, b)| a * b).sum();
    let sign = if dot < 0.0 { -1.0 } else { 1.0 };
    dot *= sign;
    let (wa, wb) = if dot > 0.9995 {
        (1.0 - f, f)
    } else {
        let theta = libm::acosf(dot.min(1.0));
        let s = libm::sinf(theta);
        (libm::sinf((1.0 - f) * theta) / s, libm::sinf(f * theta) / s)
    };
    let q: Vec<f32> = a
        .iter()
        .zip(b)
        .map(|(a, b)| wa * a + wb * sign * b)
        .collect();
    normalised(&q)
}

// ---------------------------------------------------------------------------------------------
// The import.

/// What [`import`] writes and how.
#[derive(Clone, Debug)]
pub struct ImportOptions<'a> {
    /// `ANP3`, `ANP2` or `ANPK`.
    pub format: Format,
    /// The package (block) name written.
    pub block: String,
    /// The animations taken, by name (glTF names compared exactly); empty: all.
    pub animations: Vec<String>,
    /// The model the animation is for: nodes are mapped by its frame names.
    pub skeleton: Option<&'a Skeleton>,
    /// The user's node-name map.
    pub bone_map: Option<&'a BoneMap>,
    /// Resample every track to this many keys a second (LINEAR, from any interpolation).
    pub resample: Option<u32>,
    /// IFP2: write every bone packed, each value rounded to the packed steps.
    pub quantize: bool,
    /// The games the output is checked for; `None`: every game that loads the format.
    pub games: Option<Games>,
    /// The output file's name (its stem is the block name the games expect), for the checker.
    pub file_name: Option<String>,
    /// Measure each bone's largest difference between the glTF and the written file.
    pub report: bool,
}

impl<'a> ImportOptions<'a> {
    /// The defaults: all animations, keys kept as they are, checked for every game that
    /// loads `format`.
    pub fn new(format: Format, block: &str) -> Self {
        ImportOptions {
            format,
            block: block.to_string(),
            animations: Vec::new(),
            skeleton: None,
            bone_map: None,
            resample: None,
            quantize: false,
            games: None,
            file_name: None,
            report: false,
        }
    }
}

/// A bone's largest difference over its clip between the glTF's pose and the written file's
/// (as the games sample it), at every glTF key time and every 1/60 s.
#[derive(Clone, Debug, PartialEq)]
pub struct BoneReport {
    /// The animation.
    pub animation: String,
    /// The bone's name as written.
    pub bone: String,
    /// The glTF node it came from.
    pub node: String,
    /// The largest rotation difference, in degrees.
    pub angle: f32,
    /// The largest translation difference, in metres (0 without translation).
    pub position: f32,
}

/// The result of [`import`].
#[derive(Debug)]
pub struct Imported {
    /// The file written.
    pub bytes: Vec<u8>,
    /// The file decoded back.
    pub package: Package,
    /// What was skipped or changed (channels on unmapped nodes, scale dropped, ...), a line
    /// each.
    pub notes: Vec<String>,
    /// The checker's findings on the output (none of level error: those refuse it).
    pub findings: Vec<Finding>,
    /// The games checked, and whether the file decided them.
    pub games: (Games, bool),
    /// Per bone, with [`ImportOptions::report`].
    pub report: Vec<BoneReport>,
}

/// Each track of an animation with its keyframes.
type Keyed<'t> = Vec<(&'t Track, Vec<Keyframe>)>;

/// A bone's tracks in an animation, before writing.
struct Track {
    node: usize,
    target: BoneTarget,
    rotation: Option<Curve>,
    translation: Option<Curve>,
}

/// Converts the chosen animations of `gltf` to `options.format`. See the module documentation.
pub fn import(gltf: &Gltf, options: &ImportOptions<'_>) -> Result<Imported, ImportError> {
    if !matches!(options.format, Format::Anp3 | Format::Anp2 | Format::Anpk) {
        return fail(
            ImportErrorKind::Unsupported,
            format!(
                "glTF is written to anp3, anp2 or anpk, not {}",
                options.format.name()
            ),
        );
    }
    if let Some(rate) = options.resample {
        if rate == 0 || rate > MAX_RESAMPLE_RATE {
            return fail(
                ImportErrorKind::Limit,
                format!("resample rate {rate}: from 1 to {MAX_RESAMPLE_RATE} keys a second"),
            );
        }
    }
    let names = gltf.animation_names();
    let chosen: Vec<usize> = if options.animations.is_empty() {
        (0..names.len()).collect()
    } else {
        let mut chosen = Vec::new();
        for wanted in &options.animations {
            let i = names.iter().position(|n| n == wanted).ok_or_else(|| {
                ImportError::new(
                    ImportErrorKind::NotFound,
                    format!(
                        "no animation `{wanted}` (the file has: {})",
                        names.join(", ")
                    ),
                )
            })?;
            chosen.push(i);
        }
        chosen
    };
    if chosen.is_empty() {
        return fail(ImportErrorKind::NotFound, "the file has no animation");
    }
    let games = options.games.unwrap_or(games_of(options.format));
    gltf.values_read.set(0);
    let mut notes = Vec::new();
    let mut animations = Vec::with_capacity(chosen.len());
    for &a in &chosen {
        let tracks = tracks(gltf, a, options, &mut notes)?;
        animations.push((a, tracks));
    }

    let mut encoder = Encoder::new(
        options.format,
        Vec::new(),
        EncodeOptions::quantize(options.quantize),
    )
    .map_err(|e| encode_error(&e, "the file"))?;
    encoder
        .file(Some(options.block.as_bytes()))
        .map_err(|e| encode_error(&e, &format!("block `{}`", options.block)))?;
    let mut written = Vec::new();
    let mut keys = 0;
    let iii_only = options.format == Format::Anpk && games == Games::III;
    for (a, tracks) in &animations {
        let name = &names[*a];
        let keyed = keyframes(gltf, name, tracks, options, &mut keys)?;
        // IFP2: packed where every value of the animation lies on the steps (San Andreas
        // reads one class of frames per animation: ifp.ifp2.mixed_frame_classes); floats
        // otherwise, which MTA misreads (mta.ifp.float_frames): refused for it.
        let packed = options.format != Format::Anpk
            && (options.quantize
                || keyed.iter().all(|(t, frames)| {
                    frames
                        .iter()
                        .all(|k| on_packed_steps(k, t.translation.is_some()))
                }));
        if options.format != Format::Anpk && !packed && games.contains(Games::MTA) {
            let (track, k, frame) = keyed
                .iter()
                .find_map(|(t, frames)| {
                    frames
                        .iter()
                        .position(|k| !on_packed_steps(k, t.translation.is_some()))
                        .map(|i| (t, i, frames[i]))
                })
                .expect("an animation that is not packable has such a key");
            return fail(
                ImportErrorKind::Key,
                format!(
                    "animation `{name}`, node {} ({}) → bone `{}`, key {k} (time {}, rotation {:?}{}): not on the packed steps of {} (1/60 s, 1/4096, 1/1024 m), and float frames crash MTA: --quantize rounds to the steps, --resample 60 puts the times on them, or --game sa writes floats",
                    track.node,
                    gltf.node_name(track.node),
                    track.target.name,
                    frame.time,
                    frame.rotation,
                    if track.translation.is_some() { format!(", translation {:?}", frame.translation) } else { String::new() },
                    options.format.name()
                ),
            );
        }
        let at = |t: &Track| {
            format!(
                "animation `{name}`, node {} ({}) → bone `{}`",
                t.node,
                gltf.node_name(t.node),
                t.target.name
            )
        };
        encoder
            .animation(name.as_bytes())
            .map_err(|e| encode_error(&e, &format!("animation `{name}`")))?;
        for (track, frames) in &keyed {
            let header = BoneHeader {
                name: Some(track.target.name.as_bytes()),
                // GTA III binds by name and reads the 48-byte ANIM chunk of bones without id.
                bone_id: track.target.bone_id.filter(|_| !iii_only),
                bone_key: None,
                frame_type: if track.translation.is_some() {
                    FrameType::Ifp2RotTrans
                } else {
                    FrameType::Ifp2Rot
                },
            };
            let begun = if packed {
                encoder.bone_packable(&header)
            } else {
                encoder.bone(&header)
            };
            begun.map_err(|e| encode_error(&e, &at(track)))?;
            for (k, frame) in frames.iter().enumerate() {
                encoder
                    .keyframe(frame)
                    .map_err(|e| encode_error(&e, &format!("{}, key {k}", at(track))))?;
            }
            encoder
                .bone_end()
                .map_err(|e| encode_error(&e, &at(track)))?;
        }
        encoder
            .animation_end()
            .map_err(|e| encode_error(&e, &format!("animation `{name}`")))?;
        written.push((name.clone(), keyed));
    }
    encoder.end().map_err(|e| encode_error(&e, "the file"))?;
    let bytes = encoder.into_sink();

    // The checker's rules, on the bytes written.
    let mut findings = Vec::new();
    let (checked, errors) = {
        let mut checker = Checker::with_games(options.games, |f: &Finding| findings.push(*f));
        if let Some(file) = &options.file_name {
            checker.set_file_name(file.as_bytes());
        }
        if let Err(e) = Decoder::new().decode_slice(&bytes, &mut checker) {
            return fail(
                ImportErrorKind::Encode,
                format!("the output does not read back: {e}"),
            );
        }
        checker.finish();
        (
            (checker.games(), checker.games_from_file()),
            checker.errors(),
        )
    };
    if errors > 0 {
        let first = findings
            .iter()
            .find(|f| f.level() == Level::Error)
            .map(|f| {
                let mut line = String::new();
                let _ = f.write_line(&mut line, "output");
                line
            })
            .unwrap_or_default();
        return fail(
            ImportErrorKind::Check,
            format!(
                "{errors} error finding(s) for the games checked; the first: {}",
                first.trim_end()
            ),
        );
    }
    let package = Package::parse(&bytes).map_err(|e| {
        ImportError::new(
            ImportErrorKind::Encode,
            format!("the output does not read back: {e}"),
        )
    })?;
    let report = if options.report {
        report(gltf, &package, &written)?
    } else {
        Vec::new()
    };
    Ok(Imported {
        bytes,
        package,
        notes,
        findings,
        games: checked,
        report,
    })
}

fn encode_error(error: &EncodeError, at: &str) -> ImportError {
    ImportError::new(ImportErrorKind::Encode, format!("{at}: {error}"))
}

/// The tracks of animation `a`: each channel's node mapped to a bone, channels grouped per
/// bone, in the order of each bone's first channel.
fn tracks(
    gltf: &Gltf,
    a: usize,
    options: &ImportOptions<'_>,
    notes: &mut Vec<String>,
) -> Result<Vec<Track>, ImportError> {
    let animation = &gltf.root.animations[a];
    let name = gltf.animation_name(a);
    let mut by_node: BTreeMap<usize, Track> = BTreeMap::new();
    // The bones in the order of their first channel (an export's track order).
    let mut order = Vec::new();
    let mut unmapped = Vec::new();
    for (c, channel) in animation.channels.iter().enumerate() {
        let at = || format!("animation `{name}`, channel {c}");
        let Some(node) = channel.target.node else {
            continue;
        };
        let node = usize::try_from(node)
            .ok()
            .filter(|&n| n < gltf.root.nodes.len())
            .ok_or_else(|| {
                ImportError::new(ImportErrorKind::Range, format!("{}: no node {node}", at()))
            })?;
        let rotation = match channel.target.path.as_str() {
            "rotation" => true,
            "translation" => false,
            path => {
                notes.push(format!(
                    "{}: the {path} channel of node {node} ({}) is not written (IFP holds rotations and translations)",
                    at(),
                    gltf.node_name(node)
                ));
                continue;
            }
        };
        if let alloc::collections::btree_map::Entry::Vacant(slot) = by_node.entry(node) {
            let Some(target) = map_node(gltf, node, options)? else {
                if !unmapped.contains(&node) {
                    unmapped.push(node);
                }
                continue;
            };
            order.push(node);
            slot.insert(Track {
                node,
                target,
                rotation: None,
                translation: None,
            });
        }
        let curve = curve(gltf, animation, channel.sampler, rotation, &|| {
            format!(
                "{}, node {node} ({}), {}",
                at(),
                gltf.node_name(node),
                channel.target.path
            )
        })?;
        let track = by_node.get_mut(&node).expect("inserted above");
        let slot = if rotation {
            &mut track.rotation
        } else {
            &mut track.translation
        };
        if slot.is_some() {
            return fail(
                ImportErrorKind::Key,
                format!(
                    "{}: node {node} ({}) has two {} channels",
                    at(),
                    gltf.node_name(node),
                    channel.target.path
                ),
            );
        }
        *slot = Some(curve);
    }
    for node in unmapped {
        notes.push(format!(
            "animation `{name}`: node {node} ({}) maps to no bone: its channels are not written (--bone-map names it)",
            gltf.node_name(node)
        ));
    }
    let tracks: Vec<Track> = order
        .iter()
        .filter_map(|node| by_node.remove(node))
        .collect();
    for (i, t) in tracks.iter().enumerate() {
        if let Some(other) = tracks[..i].iter().find(|o| same_bone(&o.target, &t.target)) {
            return fail(
                ImportErrorKind::Unmapped,
                format!(
                    "animation `{name}`: nodes {} ({}) and {} ({}) both map to bone `{}`",
                    other.node,
                    gltf.node_name(other.node),
                    t.node,
                    gltf.node_name(t.node),
                    t.target.name
                ),
            );
        }
    }
    if tracks.is_empty() {
        return fail(
            ImportErrorKind::Unmapped,
            format!(
                "animation `{name}`: no channel's node maps to a bone (--bone-map, --skeleton)"
            ),
        );
    }
    Ok(tracks)
}

fn same_bone(a: &BoneTarget, b: &BoneTarget) -> bool {
    match (a.bone_id, b.bone_id) {
        (Some(x), Some(y)) => x == y,
        _ => a.name.eq_ignore_ascii_case(&b.name),
    }
}

/// A channel's sampler read and checked: times finite, from 0, strictly increasing; values
/// finite; as many as the times.
fn curve(
    gltf: &Gltf,
    animation: &AnimationDef,
    sampler: u64,
    rotation: bool,
    at: &dyn Fn() -> String,
) -> Result<Curve, ImportError> {
    let s = animation.samplers.get(sampler as usize).ok_or_else(|| {
        ImportError::new(
            ImportErrorKind::Range,
            format!("{}: no sampler {sampler}", at()),
        )
    })?;
    let interpolation = match s.interpolation.as_deref().unwrap_or("LINEAR") {
        "LINEAR" => Interpolation::Linear,
        "STEP" => Interpolation::Step,
        "CUBICSPLINE" => Interpolation::CubicSpline,
        other => {
            return fail(
                ImportErrorKind::Unsupported,
                format!("{}: interpolation `{other}`", at()),
            )
        }
    };
    let input = gltf.accessor(s.input, &|| format!("{}, input", at()))?;
    let output = gltf.accessor(s.output, &|| format!("{}, output", at()))?;
    if input.components != 1 {
        return fail(
            ImportErrorKind::Key,
            format!("{}: the times are not scalars", at()),
        );
    }
    let components = if rotation { 4 } else { 3 };
    if output.components != components {
        return fail(
            ImportErrorKind::Key,
            format!(
                "{}: the values have {} components, not {components}",
                at(),
                output.components
            ),
        );
    }
    let per_key = if interpolation == Interpolation::CubicSpline {
        3
    } else {
        1
    };
    let keys = input.values.len();
    if output.values.len() != keys * per_key * components {
        return fail(
            ImportErrorKind::Key,
            format!(
                "{}: {keys} times but {} values",
                at(),
                output.values.len() / components
            ),
        );
    }
    // The steps the export marked: their stored time is the key before's; the keys it
    // inserted where the games' slerp jumps, and key 0's stored rotation (mod.rs).
    let SamplerExtras {
        steps,
        jumps,
        first,
    } = s
        .extras
        .as_ref()
        .map(SamplerExtras::from_json)
        .unwrap_or_default();
    let gltf_times = input.values.clone();
    let mut times = input.values;
    for k in 0..times.len() {
        let t = times[k];
        if !t.is_finite() || t < 0.0 {
            return fail(
                ImportErrorKind::Key,
                format!("{}: key {k} has time {t}", at()),
            );
        }
        if k > 0 && steps.contains(&(k as u32)) {
            // Raised one f32 step above the key before as written (a run of keys at one
            // time climbs one step each).
            if t != step_time(gltf_times[k - 1]) {
                return fail(
                    ImportErrorKind::Key,
                    format!(
                        "{}: key {k} is marked a step but its time {t} s is not the one after key {}'s {} s",
                        at(),
                        k - 1,
                        gltf_times[k - 1]
                    ),
                );
            }
            times[k] = times[k - 1];
            continue;
        }
        if k > 0 && t <= times[k - 1] {
            return fail(
                ImportErrorKind::Key,
                format!(
                    "{}: key {k} at {t} s does not come after key {} at {} s (glTF's times increase strictly)",
                    at(),
                    k - 1,
                    times[k - 1]
                ),
            );
        }
    }
    if let Some(i) = output.values.iter().position(|v| !v.is_finite()) {
        return fail(
            ImportErrorKind::Key,
            format!(
                "{}: key {} holds the value {}",
                at(),
                i / components / per_key,
                output.values[i]
            ),
        );
    }
    // The jump keys are no stored key (a LINEAR curve's only: the export writes no other).
    let linear = interpolation == Interpolation::Linear;
    let stored: Vec<usize> = (0..keys)
        .filter(|&k| !(linear && k >= 2 && jumps.contains(&(k as u32))))
        .collect();
    let times = stored.iter().map(|&k| times[k]).collect();
    let first = first.filter(|_| rotation && linear).map(|q| q.to_vec());
    Ok(Curve {
        interpolation,
        times,
        gltf_times,
        stored,
        first,
        values: output.values,
        components,
    })
}

/// The keyframes of each track: the glTF keys as they are (LINEAR, the rotation and
/// translation keys at the same times), or resampled.
fn keyframes<'t>(
    gltf: &Gltf,
    animation: &str,
    tracks: &'t [Track],
    options: &ImportOptions<'_>,
    keys: &mut usize,
) -> Result<Keyed<'t>, ImportError> {
    let end = tracks
        .iter()
        .flat_map(|t| [&t.rotation, &t.translation])
        .flatten()
        .map(|c| *c.times.last().expect("a curve has keys"))
        .fold(0.0f32, f32::max);
    let mut out = Vec::with_capacity(tracks.len());
    for track in tracks {
        let at = || {
            format!(
                "animation `{animation}`, node {} ({}) → bone `{}`",
                track.node,
                gltf.node_name(track.node),
                track.target.name
            )
        };
        let node = &gltf.root.nodes[track.node];
        let rest = node.rotation.unwrap_or([0.0, 0.0, 0.0, 1.0]);
        let frames: Vec<Keyframe> = match options.resample {
            Some(rate) => {
                // Every key on the rate's grid, up to the first at or past the clip's end.
                let steps = libm::ceil(f64::from(end) * f64::from(rate));
                if steps + 1.0 > MAX_RESAMPLED_KEYS as f64 {
                    return fail(
                        ImportErrorKind::Limit,
                        format!(
                            "{}: the clip ends at {end} s: more than {MAX_RESAMPLED_KEYS} keys at {rate} a second",
                            at()
                        ),
                    );
                }
                (0..=steps as u32)
                    .map(|k| {
                        let time = k as f32 / rate as f32;
                        key(track, time, rest, |c, t| c.sample(t, c.components == 4))
                    })
                    .collect()
            }
            None => {
                for (curve, what) in [
                    (&track.rotation, "rotation"),
                    (&track.translation, "translation"),
                ] {
                    if let Some(c) = curve {
                        if c.interpolation != Interpolation::Linear {
                            return fail(
                                ImportErrorKind::Key,
                                format!(
                                    "{}: the {what} channel is {}, which IFP cannot hold (it plays keys linearly): --resample 60 samples it to LINEAR",
                                    at(),
                                    c.interpolation.name()
                                ),
                            );
                        }
                    }
                }
                let times = match (&track.rotation, &track.translation) {
                    (Some(r), Some(t)) => {
                        if r.times != t.times {
                            let k = r
                                .times
                                .iter()
                                .zip(&t.times)
                                .position(|(a, b)| a != b)
                                .unwrap_or(r.times.len().min(t.times.len()));
                            return fail(
                                ImportErrorKind::Key,
                                format!(
                                    "{}: key {k}: the rotation keys ({} at {:?} s) and translation keys ({} at {:?} s) differ, and an IFP key holds both: --resample 60 samples them on one grid",
                                    at(),
                                    r.times.len(),
                                    r.times.get(k),
                                    t.times.len(),
                                    t.times.get(k)
                                ),
                            );
                        }
                        &r.times
                    }
                    (Some(r), None) => &r.times,
                    (None, Some(t)) => &t.times,
                    (None, None) => unreachable!("a track has a channel"),
                };
                (0..times.len())
                    .map(|k| key(track, times[k], rest, |c, _| c.stored_key(k)))
                    .collect()
            }
        };
        *keys = keys.saturating_add(frames.len());
        if *keys > MAX_KEYS {
            return fail(
                ImportErrorKind::Limit,
                format!("{}: more than {MAX_KEYS} keys in all", at()),
            );
        }
        out.push((track, frames));
    }
    Ok(out)
}

/// The keyframe of `track` at `time`, each channel's value from `value`; a track without a
/// rotation channel keeps the node's rest rotation.
fn key(
    track: &Track,
    time: f32,
    rest: [f32; 4],
    value: impl Fn(&Curve, f32) -> Vec<f32>,
) -> Keyframe {
    let mut frame = Keyframe {
        time,
        rotation: rest,
        ..Keyframe::default()
    };
    if let Some(r) = &track.rotation {
        frame.rotation.copy_from_slice(&value(r, time));
    }
    if let Some(t) = &track.translation {
        frame.translation.copy_from_slice(&value(t, time));
    }
    frame
}

/// Each written bone's largest difference from the glTF, sampling both at every glTF key time
/// and every 1/60 s of the clip.
fn report(
    gltf: &Gltf,
    package: &Package,
    written: &[(String, Keyed<'_>)],
) -> Result<Vec<BoneReport>, ImportError> {
    let mut out = Vec::new();
    for (animation, tracks) in written {
        let Some(decoded) = package.animations.iter().find(|a| a.name == *animation) else {
            continue;
        };
        let end = tracks
            .iter()
            .flat_map(|(t, _)| [&t.rotation, &t.translation])
            .flatten()
            .map(|c| *c.times.last().expect("a curve has keys"))
            .fold(0.0f32, f32::max);
        let mut times: Vec<f32> = tracks
            .iter()
            .flat_map(|(t, _)| [&t.rotation, &t.translation])
            .flatten()
            .flat_map(|c| c.times.iter().copied())
            .collect();
        let grid = (libm::ceilf(end * 60.0) as usize).min(MAX_RESAMPLED_KEYS);
        times.extend((0..=grid).map(|k| k as f32 / 60.0));
        times.sort_by(f32::total_cmp);
        times.dedup();
        let keys: usize = tracks.iter().map(|(_, frames)| frames.len()).sum();
        if times.len() as u64 * keys as u64 > MAX_REPORT_WORK {
            return fail(
                ImportErrorKind::Limit,
                format!(
                    "--report: animation `{animation}` has {keys} keys sampled at {} times, above {MAX_REPORT_WORK} steps",
                    times.len()
                ),
            );
        }
        let mut rows: Vec<BoneReport> = tracks
            .iter()
            .map(|(t, _)| BoneReport {
                animation: animation.clone(),
                bone: t.target.name.clone(),
                node: gltf.node_name(t.node),
                angle: 0.0,
                position: 0.0,
            })
            .collect();
        for &time in &times {
            decoded
                .sample(time, false, |pose| {
                    let i = pose.index as usize;
                    let Some((track, _)) = tracks.get(i) else {
                        return;
                    };
                    let rest = gltf.root.nodes[track.node]
                        .rotation
                        .unwrap_or([0.0, 0.0, 0.0, 1.0]);
                    let want = key(track, time, rest, |c, t| c.sample(t, c.components == 4));
                    let q = normalised(&want.rotation);
                    let angle = angle_between(&q, &pose.rotation);
                    rows[i].angle = rows[i].angle.max(angle);
                    if let (Some(t), Some(_)) = (pose.translation, &track.translation) {
                        let d = libm::sqrtf(
                            (0..3)
                                .map(|c| (t[c] - want.translation[c]) * (t[c] - want.translation[c]))
                                .sum::<f32>(),
                        );
                        rows[i].position = rows[i].position.max(d);
                    }
                })
                .map_err(|e| {
                    ImportError::new(
                        ImportErrorKind::Key,
                        format!("animation `{animation}`: the written file does not sample at {time} s: {e}"),
                    )
                })?;
        }
        out.extend(rows);
    }
    Ok(out)
}

/// The angle in degrees between two rotations given as unit quaternions, from the chord
/// between them (exact near 0, where `acos` of the dot product is not).
fn angle_between(a: &[f32], b: &[f32; 4]) -> f32 {
    let dot: f64 = a
        .iter()
        .zip(b)
        .map(|(x, y)| f64::from(*x) * f64::from(*y))
        .sum();
    let sign = if dot < 0.0 { -1.0 } else { 1.0 };
    let chord = libm::sqrt(
        a.iter()
            .zip(b)
            .map(|(x, y)| f64::from(*x) - sign * f64::from(*y))
            .map(|d| d * d)
            .sum::<f64>(),
    );
    (4.0 * libm::asin((chord / 2.0).min(1.0))).to_degrees() as f32
}

impl Imported {
    /// What was written besides the bytes, as the front ends hand it over (the JavaScript and
    /// Python `fromGltf`/`from_gltf` results): `{"animations": n, "notes": [line, ...],
    /// "report": [{"animation", "bone", "node", "angle", "position"}, ...]}`.
    pub fn summary(&self) -> serde_json::Value {
        let report: Vec<serde_json::Value> = (self.report.iter())
            .map(|r| {
                serde_json::json!({
                    "animation": r.animation, "bone": r.bone, "node": r.node,
                    "angle": r.angle, "position": r.position,
                })
            })
            .collect();
        serde_json::json!({
            "animations": self.package.animations.len(),
            "notes": self.notes,
            "report": report,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_by_hand() {
        assert_eq!(base64("TWFu").unwrap(), b"Man");
        assert_eq!(base64("TWE=").unwrap(), b"Ma");
        assert_eq!(base64("TQ==").unwrap(), b"M");
        assert_eq!(base64("TQ").unwrap(), b"M");
        assert_eq!(base64("-_8=").unwrap(), [0xFB, 0xFF]);
        assert_eq!(base64(""), Some(Vec::new()));
        assert_eq!(base64("TW*u"), None);
    }

    #[test]
    fn percent_escapes_by_hand() {
        assert_eq!(percent_decode("walk%20cycle.bin"), "walk cycle.bin");
        assert_eq!(percent_decode("a%2"), "a%2");
        assert_eq!(percent_decode("a%zz"), "a%zz");
        assert_eq!(percent_decode("%41%42"), "AB");
    }

    /// A GLB of `chunks` (size, type, bytes), its declared length `length`.
    fn glb(length: u32, chunks: &[(u32, u32, &[u8])]) -> Vec<u8> {
        let mut out = b"glTF".to_vec();
        out.extend_from_slice(&2u32.to_le_bytes());
        out.extend_from_slice(&length.to_le_bytes());
        for &(size, kind, bytes) in chunks {
            out.extend_from_slice(&size.to_le_bytes());
            out.extend_from_slice(&kind.to_le_bytes());
            out.extend_from_slice(bytes);
        }
        out
    }

    #[test]
    fn glb_chunks_by_hand() {
        let json = b"{}  ";
        let file = glb(
            12 + 8 + 4 + 8 + 4,
            &[(4, CHUNK_JSON, json), (4, CHUNK_BIN, &[1, 2, 3, 4])],
        );
        let (text, at, bin) = glb_chunks(&file).unwrap();
        assert_eq!((text, at, bin), (&json[..], 20, Some(&[1u8, 2, 3, 4][..])));
        // Version 1 (the header's field at 4).
        let mut v1 = file.clone();
        v1[4] = 1;
        assert_eq!(glb_chunks(&v1).unwrap_err().offset, Some(4));
        // The declared length past the end (the field at 8).
        let long = glb(1000, &[(4, CHUNK_JSON, json)]);
        assert_eq!(glb_chunks(&long).unwrap_err().offset, Some(8));
        // A chunk running past the end: its header's offset.
        let cut = glb(12 + 8 + 4, &[(8, CHUNK_JSON, json)]);
        assert_eq!(glb_chunks(&cut).unwrap_err().offset, Some(12));
        // BIN first.
        let bin_first = glb(12 + 8 + 4, &[(4, CHUNK_BIN, json)]);
        let error = glb_chunks(&bin_first).unwrap_err();
        assert_eq!((error.kind, error.offset), (ImportErrorKind::Glb, Some(12)));
        // An unknown chunk after the JSON is skipped.
        let odd = glb(
            12 + 8 + 4 + 8 + 4,
            &[(4, CHUNK_JSON, json), (4, 7, &[0; 4])],
        );
        assert_eq!(glb_chunks(&odd).unwrap().2, None);
    }
}
