//! An owned RenderWare model (feature `alloc`): the structure of a `.dff` the DFF reader
//! reports (docs/FORMATS.md §11), gathered from its records, and its JSON document, the one
//! `gtastream dump --json` prints and the bindings' `decode()` return for a model.

use alloc::vec::Vec;
use core::fmt::{self, Write};

use crate::record::{DffAtomic, DffGeometry, DffHAnimNode, Record, RwSection};
use crate::{Decoder, Error, FileInfo, Flow, Visitor};

/// A frame of the model, with its name and bone id from its extensions.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelFrame {
    /// Its index in the frame list.
    pub index: u32,
    /// The parent's index; −1 for a root.
    pub parent: i32,
    /// The node name, as stored.
    pub name: Option<Vec<u8>>,
    /// Right, up and at vectors.
    pub rotation: [f32; 9],
    /// Position relative to the parent.
    pub position: [f32; 3],
    /// The matrix flags as stored.
    pub flags: u32,
    /// The HAnim node id, where the frame has an HAnim extension.
    pub bone_id: Option<i32>,
}

/// The HAnim hierarchy: the node table on its root frame.
#[derive(Clone, Debug, PartialEq)]
pub struct Hierarchy {
    /// The frame that carries it.
    pub frame: u32,
    /// The hierarchy's flags.
    pub flags: u32,
    /// The key frame size.
    pub key_frame_size: u32,
    /// The nodes in table order.
    pub nodes: Vec<DffHAnimNode>,
}

/// A geometry's skin.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelSkin {
    /// The geometry's index.
    pub geometry: u32,
    /// Bones.
    pub bones: u32,
    /// Bones the vertices use, as stored.
    pub used_bones: u32,
    /// Weights per vertex at most, as stored.
    pub max_weights: u32,
    /// 0: the old layout; 1: the later one.
    pub layout: u32,
    /// Per bone, its inverse bind matrix (4 columns of 4).
    pub inverse_bind: Vec<[f32; 16]>,
}

/// A model: what the DFF reader reports of a clump.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Model {
    /// The clump's library id as stored ([`rw_version`](crate::rw_version) decodes it).
    pub rw_version: u32,
    /// The frames in frame-list order.
    pub frames: Vec<ModelFrame>,
    /// The first HAnim hierarchy (the games' models have at most one).
    pub hanim: Option<Hierarchy>,
    /// The first skinned geometry's skin (a ped's one geometry).
    pub skin: Option<ModelSkin>,
    /// The atomics.
    pub atomics: Vec<DffAtomic>,
    /// The geometries' counts.
    pub geometries: Vec<DffGeometry>,
    /// The sections skipped.
    pub sections: Vec<RwSection>,
}

impl Model {
    /// Reads a model from a whole file.
    pub fn from_bytes(data: &[u8]) -> Result<Model, Error> {
        let mut builder = ModelBuilder::default();
        Decoder::new().decode_slice(data, &mut builder)?;
        Ok(builder.model)
    }

    /// Whether a geometry has a skin.
    pub fn is_skinned(&self) -> bool {
        self.skin.is_some()
    }

    /// Frames with an HAnim node id (bones).
    pub fn bone_count(&self) -> usize {
        self.frames.iter().filter(|f| f.bone_id.is_some()).count()
    }

    /// Writes the model's JSON document (docs/FORMATS.md §11), ending with a newline.
    pub fn write_json(&self, out: &mut impl Write) -> fmt::Result {
        use crate::json::{floats, opt_number, opt_string};
        write!(
            out,
            "{{\n  \"format\": \"dff\",\n  \"rw_version\": \"0x{:08X}\",\n  \"frames\": [",
            self.rw_version
        )?;
        for (i, f) in self.frames.iter().enumerate() {
            out.write_str(if i == 0 { "\n    " } else { ",\n    " })?;
            write!(
                out,
                "{{\"index\": {}, \"parent\": {}, \"name\": ",
                f.index, f.parent
            )?;
            opt_string(out, f.name.as_deref())?;
            out.write_str(", \"rotation\": ")?;
            floats(out, &f.rotation)?;
            out.write_str(", \"position\": ")?;
            floats(out, &f.position)?;
            out.write_str(", \"bone_id\": ")?;
            opt_number(out, f.bone_id)?;
            out.write_char('}')?;
        }
        close(out, !self.frames.is_empty())?;
        out.write_str(",\n  \"hanim\": ")?;
        match &self.hanim {
            None => out.write_str("null")?,
            Some(h) => {
                write!(out, "{{\"flags\": {}, \"nodes\": [", h.flags)?;
                for (i, n) in h.nodes.iter().enumerate() {
                    out.write_str(if i == 0 { "\n    " } else { ",\n    " })?;
                    write!(
                        out,
                        "{{\"id\": {}, \"index\": {}, \"flags\": {}}}",
                        n.node_id, n.node_index, n.flags
                    )?;
                }
                close(out, !h.nodes.is_empty())?;
                out.write_char('}')?;
            }
        }
        out.write_str(",\n  \"skin\": ")?;
        match &self.skin {
            None => out.write_str("null")?,
            Some(s) => {
                write!(
                    out,
                    "{{\"bones\": {}, \"used_bones\": {}, \"max_weights\": {}, \"inverse_bind\": [",
                    s.bones, s.used_bones, s.max_weights
                )?;
                for (i, m) in s.inverse_bind.iter().enumerate() {
                    out.write_str(if i == 0 { "\n    " } else { ",\n    " })?;
                    floats(out, m)?;
                }
                close(out, !s.inverse_bind.is_empty())?;
                out.write_char('}')?;
            }
        }
        out.write_str(",\n  \"atomics\": [")?;
        for (i, a) in self.atomics.iter().enumerate() {
            out.write_str(if i == 0 { "\n    " } else { ",\n    " })?;
            write!(
                out,
                "{{\"frame\": {}, \"geometry\": {}}}",
                a.frame, a.geometry
            )?;
        }
        close(out, !self.atomics.is_empty())?;
        out.write_str(",\n  \"geometries\": [")?;
        for (i, g) in self.geometries.iter().enumerate() {
            out.write_str(if i == 0 { "\n    " } else { ",\n    " })?;
            write!(
                out,
                "{{\"vertices\": {}, \"triangles\": {}, \"materials\": {}}}",
                g.vertices, g.triangles, g.materials
            )?;
        }
        close(out, !self.geometries.is_empty())?;
        out.write_str("\n}\n")
    }
}

fn close(out: &mut impl Write, items: bool) -> fmt::Result {
    out.write_str(if items { "\n  ]" } else { "]" })
}

/// Gathers a [`Model`] from the DFF reader's events.
#[derive(Clone, Debug, Default)]
pub struct ModelBuilder {
    /// The model so far.
    pub model: Model,
}

impl ModelBuilder {
    fn frame(&mut self, index: u32) -> Option<&mut ModelFrame> {
        self.model.frames.get_mut(index as usize)
    }
}

impl Visitor for ModelBuilder {
    fn file(&mut self, info: &FileInfo<'_>) -> Flow {
        self.model.rw_version = info.rw_version.unwrap_or(0);
        Flow::Continue
    }

    fn record(&mut self, record: &Record<'_>) -> Flow {
        match record {
            Record::DffFrame(f) => self.model.frames.push(ModelFrame {
                index: f.index,
                parent: f.parent,
                name: None,
                rotation: f.rotation,
                position: f.position,
                flags: f.flags,
                bone_id: None,
            }),
            Record::DffFrameName(n) => {
                if let Some(frame) = self.frame(n.frame) {
                    frame.name = Some(n.name.to_vec());
                }
            }
            Record::DffHAnim(h) => {
                if let Some(frame) = self.frame(h.frame) {
                    frame.bone_id = Some(h.node_id);
                }
                if let (Some(flags), None) = (h.flags, &self.model.hanim) {
                    self.model.hanim = Some(Hierarchy {
                        frame: h.frame,
                        flags,
                        key_frame_size: h.key_frame_size.unwrap_or(0),
                        nodes: Vec::new(),
                    });
                }
            }
            Record::DffHAnimNode(n) => {
                if let Some(h) = self.model.hanim.as_mut().filter(|h| h.frame == n.frame) {
                    h.nodes.push(*n);
                }
            }
            Record::DffGeometry(g) => self.model.geometries.push(*g),
            Record::DffSkin(s) if self.model.skin.is_none() => {
                self.model.skin = Some(ModelSkin {
                    geometry: s.geometry,
                    bones: s.bones,
                    used_bones: s.used_bones,
                    max_weights: s.max_weights,
                    layout: s.layout,
                    inverse_bind: Vec::new(),
                });
            }
            Record::DffSkinBone(b) => {
                if let Some(s) = self
                    .model
                    .skin
                    .as_mut()
                    .filter(|s| s.geometry == b.geometry)
                {
                    s.inverse_bind.push(b.inverse_bind);
                }
            }
            Record::DffAtomic(a) => self.model.atomics.push(*a),
            Record::RwSection(s) => self.model.sections.push(*s),
            _ => {}
        }
        Flow::Continue
    }
}

/// What a model holds, counted as the reader reports it (no allocation): for listings
/// (`gtastream info`, `ls`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ModelCounts {
    /// The clump's library id.
    pub rw_version: u32,
    /// Frames.
    pub frames: u32,
    /// Nodes of the HAnim tables (the bones an animation can bind by id).
    pub bones: u32,
    /// Frames with a name.
    pub named_frames: u32,
    /// Geometries.
    pub geometries: u32,
    /// Atomics.
    pub atomics: u32,
    /// Bones of the first skin; `None` for a model without one.
    pub skin_bones: Option<u32>,
    /// Sections skipped.
    pub skipped_sections: u32,
}

impl ModelCounts {
    /// What the model in `bytes` (a whole DFF) holds, or why it cannot be read.
    pub fn read(bytes: &[u8]) -> Result<ModelCounts, Error> {
        let mut counts = ModelCounts::default();
        Decoder::new().decode_slice(bytes, &mut counts)?;
        Ok(counts)
    }

    /// The counts as an archive listing gives them (`gtastream ls --json`, the bindings'
    /// `ls()`): `{"rw_version": "0x1803FFFF", "frames": N, "bones": N, "skinned": BOOL}`.
    pub fn write_json(&self, out: &mut impl Write) -> fmt::Result {
        write!(
            out,
            "{{\"rw_version\": \"0x{:08X}\", \"frames\": {}, \"bones\": {}, \"skinned\": {}}}",
            self.rw_version,
            self.frames,
            self.bones,
            self.skin_bones.is_some()
        )
    }

    /// A short description: `33 frames, 32 bones, skinned (3.6.0.3)`.
    pub fn describe(&self, out: &mut impl Write) -> fmt::Result {
        write!(out, "{} frames, {} bones", self.frames, self.bones)?;
        if self.skin_bones.is_some() {
            out.write_str(", skinned")?;
        }
        out.write_str(" (")?;
        write_version(out, self.rw_version)?;
        out.write_char(')')
    }
}

/// A library id as its version, `3.6.0.3`.
pub fn write_version(out: &mut impl Write, library_id: u32) -> fmt::Result {
    let (v, _) = crate::rw_version(library_id);
    write!(
        out,
        "{}.{}.{}.{}",
        v >> 16,
        (v >> 12) & 0xF,
        (v >> 8) & 0xF,
        v & 0xFF
    )
}

impl Visitor for ModelCounts {
    fn file(&mut self, info: &FileInfo<'_>) -> Flow {
        self.rw_version = info.rw_version.unwrap_or(0);
        Flow::Continue
    }

    fn record(&mut self, record: &Record<'_>) -> Flow {
        match record {
            Record::DffFrame(_) => self.frames += 1,
            Record::DffFrameName(_) => self.named_frames += 1,
            Record::DffHAnim(h) => self.bones += h.node_count,
            Record::DffGeometry(_) => self.geometries += 1,
            Record::DffAtomic(_) => self.atomics += 1,
            Record::DffSkin(s) => {
                self.skin_bones.get_or_insert(s.bones);
            }
            Record::RwSection(_) => self.skipped_sections += 1,
            _ => {}
        }
        Flow::Continue
    }
}
