//! RenderWare models (`.dff`), written from docs/FORMATS.md §11: a [`Model`] describes a
//! clump (frames, their names and HAnim data, geometries with their skins, atomics, extra
//! sections) and writes it as a RenderWare stream; [`Model::expected`] is the event log a
//! correct reader gives for it, built from the description (not by the crate). The shapes of
//! real files ([`sa_skin`], [`cutscene_ped`], [`vc_ped`], [`gta3_skinned_head`],
//! [`gta3_vehicle`], [`animated_object`], ...) are built here, never read from game files.

use gtastream::record::{
    DffAtomic, DffClump, DffFrame, DffFrameName, DffGeometry, DffHAnim, DffHAnimNode, DffSkin,
    DffSkinBone, Record, RwSection,
};
use gtastream::Format;

use crate::bytes::Writer;
use crate::log::Ev;

/// Library ids: San Andreas (3.6.0.3), Vice City (3.4.0.3 and 3.3.0.2), GTA III (3.2.0.0,
/// 3.1.0.1) and an unstamped 3.1 id.
pub const SA: u32 = 0x1803_FFFF;
pub const VC: u32 = 0x1003_FFFF;
pub const VC_OLD: u32 = 0x0C02_FFFF;
pub const III: u32 = 0x0800_FFFF;
pub const III_OLD: u32 = 0x0401_FFFF;
pub const UNSTAMPED: u32 = 0x310;

pub const STRUCT: u32 = 0x01;
pub const STRING: u32 = 0x02;
pub const EXTENSION: u32 = 0x03;
pub const TEXTURE: u32 = 0x06;
pub const MATERIAL: u32 = 0x07;
pub const MATERIAL_LIST: u32 = 0x08;
pub const FRAME_LIST: u32 = 0x0E;
pub const GEOMETRY: u32 = 0x0F;
pub const CLUMP: u32 = 0x10;
pub const ATOMIC: u32 = 0x14;
pub const GEOMETRY_LIST: u32 = 0x1A;
pub const RIGHT_TO_RENDER: u32 = 0x1F;
pub const SKIN: u32 = 0x116;
pub const HANIM: u32 = 0x11E;
pub const MATERIAL_EFFECTS: u32 = 0x120;
pub const BIN_MESH: u32 = 0x50E;
pub const TWO_DFX: u32 = 0x0253_F2F8;
pub const COLLISION: u32 = 0x0253_F2FA;
pub const NODE_NAME: u32 = 0x0253_F2FE;
/// HAnim node flags.
pub const POP: u32 = 1;
pub const PUSH: u32 = 2;

/// A section the reader does not interpret: its id and body.
#[derive(Clone, Debug)]
pub struct Extra {
    pub id: u32,
    pub body: Vec<u8>,
}

impl Extra {
    pub fn new(id: u32, len: usize) -> Extra {
        Extra {
            id,
            body: (0..len).map(|i| (i * 7 + 3) as u8).collect(),
        }
    }
}

/// An HAnim node table: flags, key frame size, nodes (id, index, flags).
pub type Table = (u32, u32, Vec<(i32, i32, u32)>);

#[derive(Clone, Debug)]
pub struct HAnim {
    pub version: u32,
    pub node_id: i32,
    /// On the hierarchy's root: flags, key frame size, nodes (id, index, flags).
    pub table: Option<Table>,
}

#[derive(Clone, Debug)]
pub struct Frame {
    pub rotation: [f32; 9],
    pub position: [f32; 3],
    pub parent: i32,
    pub flags: u32,
    pub name: Option<Vec<u8>>,
    pub hanim: Option<HAnim>,
    /// The name extension before the HAnim one (exporters differ).
    pub name_first: bool,
    /// Other sections of the frame's extension, after the known ones.
    pub extras: Vec<Extra>,
}

impl Frame {
    /// A frame turned by `k` (a quarter turn per unit about z, so every matrix differs), at
    /// `position`, under `parent`.
    pub fn new(k: usize, parent: i32, position: [f32; 3]) -> Frame {
        let (s, c) = ((k as f32) * 0.25).sin_cos();
        Frame {
            rotation: [c, s, 0.0, -s, c, 0.0, 0.0, 0.0, 1.0],
            position,
            parent,
            flags: 3,
            name: None,
            hanim: None,
            name_first: false,
            extras: Vec::new(),
        }
    }

    pub fn named(mut self, name: &[u8]) -> Frame {
        self.name = Some(name.to_vec());
        self
    }

    pub fn bone(mut self, node_id: i32) -> Frame {
        self.hanim = Some(HAnim {
            version: 0x100,
            node_id,
            table: None,
        });
        self
    }
}

#[derive(Clone, Debug)]
pub struct Skin {
    pub bones: u8,
    pub used: Vec<u8>,
    pub max_weights: u8,
    /// The old layout: no used bones, a `0xDEADDEAD` marker before each matrix.
    pub old: bool,
    /// Bytes after the matrices (the new layout's split data: 12 zero bytes).
    pub tail: usize,
}

impl Skin {
    pub fn matrix(bone: u32) -> [f32; 16] {
        core::array::from_fn(|i| match i {
            0 | 5 | 10 | 15 => 1.0,
            12..=14 => bone as f32 * 0.125 - (i as f32),
            _ => 0.0,
        })
    }
}

#[derive(Clone, Debug)]
pub struct Geometry {
    pub flags: u32,
    pub triangles: u32,
    pub vertices: u32,
    pub morph_targets: u32,
    pub materials: u32,
    pub skin: Option<Skin>,
    /// Sections of its extension before the skin (a bin mesh, a 2dFX).
    pub extras: Vec<Extra>,
}

impl Geometry {
    pub fn new(vertices: u32, triangles: u32, materials: u32) -> Geometry {
        Geometry {
            flags: 0x0001_0077,
            triangles,
            vertices,
            morph_targets: 1,
            materials,
            skin: None,
            extras: vec![Extra::new(BIN_MESH, 12 + 8 * materials as usize)],
        }
    }
}

#[derive(Clone, Debug)]
pub struct Model {
    pub version: u32,
    pub frames: Vec<Frame>,
    pub geometries: Vec<Geometry>,
    /// Frame, geometry, flags.
    pub atomics: Vec<(u32, u32, u32)>,
    /// Sections of the atomics' extensions.
    pub atomic_extras: Vec<Extra>,
    /// Sections of the clump's extension.
    pub clump_extras: Vec<Extra>,
    /// Whole sections after the clump (exporters append some).
    pub after: Vec<Extra>,
    /// Zero bytes after everything (an archive's sector padding).
    pub padding: usize,
}

fn section(w: &mut Writer, id: u32, version: u32, body: &[u8]) {
    w.u32(id).u32(body.len() as u32).u32(version).bytes(body);
}

impl Model {
    pub fn new(version: u32) -> Model {
        Model {
            version,
            frames: Vec::new(),
            geometries: Vec::new(),
            atomics: Vec::new(),
            atomic_extras: Vec::new(),
            clump_extras: Vec::new(),
            after: Vec::new(),
            padding: 0,
        }
    }

    fn clump_struct_len(&self) -> usize {
        if self.version >= 0x0C00_0000 {
            12
        } else {
            4
        }
    }

    fn extension(&self, parts: &[(u32, Vec<u8>)]) -> Vec<u8> {
        let mut w = Writer::new();
        for (id, body) in parts {
            section(&mut w, *id, self.version, body);
        }
        w.out
    }

    fn frame_extension(&self, frame: &Frame) -> Vec<u8> {
        let mut parts = Vec::new();
        let name = frame.name.as_ref().map(|n| (NODE_NAME, n.clone()));
        let hanim = frame.hanim.as_ref().map(|h| {
            let mut w = Writer::new();
            w.u32(h.version).i32(h.node_id);
            match &h.table {
                None => {
                    w.u32(0);
                }
                Some((flags, size, nodes)) => {
                    w.u32(nodes.len() as u32).u32(*flags).u32(*size);
                    for (id, index, flags) in nodes {
                        w.i32(*id).i32(*index).u32(*flags);
                    }
                }
            }
            (HANIM, w.out)
        });
        if frame.name_first {
            parts.extend(name);
            parts.extend(hanim);
        } else {
            parts.extend(hanim);
            parts.extend(name);
        }
        parts.extend(frame.extras.iter().map(|e| (e.id, e.body.clone())));
        self.extension(&parts)
    }

    fn geometry(&self, g: &Geometry) -> Vec<u8> {
        let mut s = Writer::new();
        s.u32(g.flags)
            .u32(g.triangles)
            .u32(g.vertices)
            .u32(g.morph_targets);
        if self.version < 0x1000_0000 && self.version != UNSTAMPED {
            // Before 3.4: ambient, specular, diffuse.
            s.f32(1.0).f32(1.0).f32(1.0);
        }
        // Prelit colours, texture coordinates, triangles, then per morph target a bounding
        // sphere and the positions: filled, never read.
        let arrays = g.vertices as usize * 12 + g.triangles as usize * 8 + 24;
        s.bytes(&vec![0x5A; arrays]);
        let mut list = Writer::new();
        let mut count = Writer::new();
        count.u32(g.materials);
        for _ in 0..g.materials {
            count.i32(-1);
        }
        section(&mut list, STRUCT, self.version, &count.out);
        for m in 0..g.materials {
            let mut material = Writer::new();
            let mut body = Writer::new();
            body.u32(0)
                .u32(0xFFFF_FFFF)
                .u32(0)
                .u32(1)
                .f32(1.0)
                .f32(1.0)
                .f32(1.0);
            section(&mut material, STRUCT, self.version, &body.out);
            let mut texture = Writer::new();
            section(&mut texture, STRUCT, self.version, &[6, 0x11, 0, 0]);
            section(
                &mut texture,
                STRING,
                self.version,
                format!("tex{m}\0\0\0\0").as_bytes(),
            );
            section(&mut material, TEXTURE, self.version, &texture.out);
            section(&mut material, EXTENSION, self.version, &[]);
            section(&mut list, MATERIAL, self.version, &material.out);
        }
        let mut ext: Vec<(u32, Vec<u8>)> =
            g.extras.iter().map(|e| (e.id, e.body.clone())).collect();
        if let Some(skin) = &g.skin {
            let mut w = Writer::new();
            let used = if skin.old { 0 } else { skin.used.len() as u8 };
            let weights = if skin.old { 0 } else { skin.max_weights };
            w.bytes(&[skin.bones, used, weights, 0]);
            if !skin.old {
                w.bytes(&skin.used);
            }
            for v in 0..g.vertices {
                w.bytes(&[(v % 4) as u8, 0, 0, 0]);
            }
            for _ in 0..g.vertices {
                w.f32(1.0).f32(0.0).f32(0.0).f32(0.0);
            }
            for b in 0..u32::from(skin.bones) {
                if skin.old {
                    w.u32(0xDEAD_DEAD);
                }
                for x in Skin::matrix(b) {
                    w.f32(x);
                }
            }
            w.bytes(&vec![0; skin.tail]);
            ext.push((SKIN, w.out));
        }
        let mut w = Writer::new();
        section(&mut w, STRUCT, self.version, &s.out);
        section(&mut w, MATERIAL_LIST, self.version, &list.out);
        section(&mut w, EXTENSION, self.version, &self.extension(&ext));
        w.out
    }

    /// The file.
    pub fn bytes(&self) -> Vec<u8> {
        let v = self.version;
        let mut clump = Writer::new();
        let mut counts = Writer::new();
        counts.u32(self.atomics.len() as u32);
        if self.clump_struct_len() == 12 {
            counts.u32(0).u32(0);
        }
        section(&mut clump, STRUCT, v, &counts.out);

        let mut list = Writer::new();
        let mut frames = Writer::new();
        frames.u32(self.frames.len() as u32);
        for f in &self.frames {
            for x in f.rotation.iter().chain(&f.position) {
                frames.f32(*x);
            }
            frames.i32(f.parent).u32(f.flags);
        }
        section(&mut list, STRUCT, v, &frames.out);
        for f in &self.frames {
            section(&mut list, EXTENSION, v, &self.frame_extension(f));
        }
        section(&mut clump, FRAME_LIST, v, &list.out);

        let mut list = Writer::new();
        let mut count = Writer::new();
        count.u32(self.geometries.len() as u32);
        section(&mut list, STRUCT, v, &count.out);
        for g in &self.geometries {
            section(&mut list, GEOMETRY, v, &self.geometry(g));
        }
        section(&mut clump, GEOMETRY_LIST, v, &list.out);

        for &(frame, geometry, flags) in &self.atomics {
            let mut atomic = Writer::new();
            let mut body = Writer::new();
            body.u32(frame).u32(geometry).u32(flags).u32(0);
            section(&mut atomic, STRUCT, v, &body.out);
            let ext: Vec<_> = self
                .atomic_extras
                .iter()
                .map(|e| (e.id, e.body.clone()))
                .collect();
            section(&mut atomic, EXTENSION, v, &self.extension(&ext));
            section(&mut clump, ATOMIC, v, &atomic.out);
        }
        let ext: Vec<_> = self
            .clump_extras
            .iter()
            .map(|e| (e.id, e.body.clone()))
            .collect();
        section(&mut clump, EXTENSION, v, &self.extension(&ext));

        let mut file = Writer::new();
        section(&mut file, CLUMP, v, &clump.out);
        for e in &self.after {
            section(&mut file, e.id, v, &e.body);
        }
        file.bytes(&vec![0; self.padding]);
        file.out
    }

    /// The events a correct reader reports for [`bytes`](Self::bytes), from the description:
    /// where each skipped section lies is found by walking the written file's layout again.
    pub fn expected(&self) -> Vec<Ev> {
        let ev = |r: Record<'_>| Ev::Model(format!("{r:?}"));
        let mut log = vec![Ev::File {
            format: Format::Dff,
            name: None,
            animation_count: 0,
            instance_count: None,
            car_count: None,
        }];
        let mut clump = DffClump::default();
        clump.atomics = self.atomics.len() as u32;
        if self.clump_struct_len() == 12 {
            clump.lights = Some(0);
            clump.cameras = Some(0);
        }
        log.push(ev(Record::DffClump(clump)));
        for (i, f) in self.frames.iter().enumerate() {
            let mut r = DffFrame::default();
            r.index = i as u32;
            r.rotation = f.rotation;
            r.position = f.position;
            r.parent = f.parent;
            r.flags = f.flags;
            log.push(ev(Record::DffFrame(r)));
        }
        // Offsets of skipped sections: walk the layout as written.
        let header = 12u64;
        let mut at = header; // the clump's body
        at += header + self.clump_struct_len() as u64;
        let frame_list_at = at;
        at += header + header + 4 + 56 * self.frames.len() as u64;
        for (i, f) in self.frames.iter().enumerate() {
            let ext_len = self.frame_extension(f).len() as u64;
            let mut inner = at + header;
            let mut parts: Vec<Ev> = Vec::new();
            let hanim = |parts: &mut Vec<Ev>, inner: &mut u64| {
                if let Some(h) = &f.hanim {
                    let mut r = DffHAnim::default();
                    r.frame = i as u32;
                    r.version = h.version;
                    r.node_id = h.node_id;
                    let mut len = 12;
                    if let Some((flags, size, nodes)) = &h.table {
                        r.node_count = nodes.len() as u32;
                        r.flags = Some(*flags);
                        r.key_frame_size = Some(*size);
                        len += 8 + 12 * nodes.len() as u64;
                    }
                    parts.push(ev(Record::DffHAnim(r)));
                    for (n, (id, index, flags)) in h.table.iter().flat_map(|t| &t.2).enumerate() {
                        let mut node = DffHAnimNode::default();
                        node.frame = i as u32;
                        node.index = n as u32;
                        node.node_id = *id;
                        node.node_index = *index;
                        node.flags = *flags;
                        parts.push(ev(Record::DffHAnimNode(node)));
                    }
                    *inner += header + len;
                }
            };
            let name = |parts: &mut Vec<Ev>, inner: &mut u64| {
                if let Some(n) = &f.name {
                    let mut r = DffFrameName::default();
                    r.frame = i as u32;
                    let end = n.iter().position(|&b| b == 0).unwrap_or(n.len());
                    r.name = &n[..end];
                    parts.push(ev(Record::DffFrameName(r)));
                    *inner += header + n.len() as u64;
                }
            };
            if f.name_first {
                name(&mut parts, &mut inner);
                hanim(&mut parts, &mut inner);
            } else {
                hanim(&mut parts, &mut inner);
                name(&mut parts, &mut inner);
            }
            for e in &f.extras {
                parts.push(skipped(inner, e, self.version, EXTENSION));
                inner += header + e.body.len() as u64;
            }
            log.extend(parts);
            at += header + ext_len;
        }
        let _ = frame_list_at;
        // The geometry list.
        at += header; // its header
        at += header + 4; // its struct
        for (i, g) in self.geometries.iter().enumerate() {
            let body = self.geometry(g);
            let mut r = DffGeometry::default();
            r.index = i as u32;
            r.flags = g.flags;
            r.triangles = g.triangles;
            r.vertices = g.vertices;
            r.morph_targets = g.morph_targets;
            r.materials = g.materials;
            log.push(ev(Record::DffGeometry(r)));
            // Within the geometry: struct, material list, extension.
            let struct_len = u32::from_le_bytes(body[4..8].try_into().unwrap()) as u64;
            let list_len =
                u32::from_le_bytes(body[16 + struct_len as usize..][..4].try_into().unwrap())
                    as u64;
            let mut inner = at + header + header + struct_len + header + list_len + header;
            for e in &g.extras {
                log.push(skipped(inner, e, self.version, EXTENSION));
                inner += header + e.body.len() as u64;
            }
            if let Some(skin) = &g.skin {
                let mut r = DffSkin::default();
                r.geometry = i as u32;
                r.bones = u32::from(skin.bones);
                r.used_bones = if skin.old { 0 } else { skin.used.len() as u32 };
                r.max_weights = if skin.old {
                    0
                } else {
                    u32::from(skin.max_weights)
                };
                r.layout = u32::from(!skin.old);
                log.push(ev(Record::DffSkin(r)));
                for b in 0..u32::from(skin.bones) {
                    let mut bone = DffSkinBone::default();
                    bone.geometry = i as u32;
                    bone.bone = b;
                    bone.inverse_bind = Skin::matrix(b);
                    log.push(ev(Record::DffSkinBone(bone)));
                }
            }
            at += header + body.len() as u64;
        }
        for (i, &(frame, geometry, flags)) in self.atomics.iter().enumerate() {
            let mut r = DffAtomic::default();
            r.index = i as u32;
            r.frame = frame;
            r.geometry = geometry;
            r.flags = flags;
            log.push(ev(Record::DffAtomic(r)));
            let mut inner = at + header + header + 16 + header;
            for e in &self.atomic_extras {
                log.push(skipped(inner, e, self.version, EXTENSION));
                inner += header + e.body.len() as u64;
            }
            at = inner;
        }
        let mut inner = at + header;
        for e in &self.clump_extras {
            log.push(skipped(inner, e, self.version, EXTENSION));
            inner += header + e.body.len() as u64;
        }
        at = inner;
        for e in &self.after {
            log.push(skipped(at, e, self.version, 0));
            at += header + e.body.len() as u64;
        }
        log.push(Ev::End);
        log
    }
}

fn skipped(at: u64, e: &Extra, version: u32, parent: u32) -> Ev {
    let mut r = RwSection::default();
    r.offset = at;
    r.id = e.id;
    r.size = e.body.len() as u32;
    r.version = version;
    r.parent = parent;
    Ev::Model(format!("{:?}", Record::RwSection(r)))
}

/// San Andreas' ped bones: id, name, parent frame (frame order is node order).
pub const SA_BONES: [(i32, &str, i32); 32] = [
    (0, "Root", -1),
    (1, " Pelvis", 0),
    (2, " Spine", 1),
    (3, " Spine1", 2),
    (4, " Neck", 3),
    (5, " Head", 4),
    (8, "Jaw", 5),
    (6, " L Brow", 5),
    (7, " R Brow", 5),
    (31, "Bip01 R Clavicle", 3),
    (32, " R UpperArm", 9),
    (33, " R Forearm", 10),
    (34, " R Hand", 11),
    (35, " R Finger", 12),
    (36, "R Finger01", 13),
    (21, "Bip01 L Clavicle", 3),
    (22, " L UpperArm", 15),
    (23, " L Forearm", 16),
    (24, " L Hand", 17),
    (25, " L Finger", 18),
    (26, "L Finger01", 19),
    (41, " L Thigh", 1),
    (42, " L Calf", 21),
    (43, " L Foot", 22),
    (2000, " L Toe0", 23),
    (51, " R Thigh", 1),
    (52, " R Calf", 25),
    (53, " R Foot", 26),
    (2001, " R Toe0", 27),
    (201, "Bip01 L Breast", 3),
    (301, "Bip01 R Breast", 3),
    (302, "Belly", 1),
];

/// PUSH/POP flags of a node table in depth-first order, from each node's parent: a node
/// with more children to come is pushed; a node with no child pops.
pub fn push_pop(parents: &[i32]) -> Vec<u32> {
    let n = parents.len();
    (0..n)
        .map(|i| {
            let has_child = parents.contains(&(i as i32));
            let mut flags = if has_child { 0 } else { POP };
            // A sibling after this node's subtree: its parent stays on the stack.
            let later_sibling = parents[i] >= 0
                && parents
                    .iter()
                    .enumerate()
                    .skip(i + 1)
                    .any(|(_, &p)| p == parents[i]);
            if later_sibling {
                flags |= PUSH;
            }
            flags
        })
        .collect()
}

/// A skinned model: a dummy root frame holding the clump, then the bones (frame order =
/// node order unless `order` says otherwise), one skinned geometry on the root.
pub fn skinned(version: u32, bones: &[(i32, &str, i32)], old_skin: bool) -> Model {
    let mut m = Model::new(version);
    m.frames.push(Frame::new(0, -1, [0.0; 3]).named(b"model"));
    let parents: Vec<i32> = bones.iter().map(|b| b.2).collect();
    let flags = push_pop(&parents);
    for (i, &(id, name, parent)) in bones.iter().enumerate() {
        let frame_parent = parent + 1; // after the dummy root
        let frame = Frame::new(i + 1, frame_parent.max(0), [0.0, 0.1 * i as f32, 0.05])
            .named(name.as_bytes())
            .bone(id);
        m.frames.push(frame);
    }
    let nodes = bones
        .iter()
        .zip(&flags)
        .enumerate()
        .map(|(i, (b, f))| (b.0, i as i32, *f))
        .collect();
    if let Some(h) = m.frames[1].hanim.as_mut() {
        h.table = Some((0, 36, nodes));
    }
    let mut g = Geometry::new(24, 16, 2);
    g.skin = Some(Skin {
        bones: bones.len() as u8,
        used: (0..bones.len() as u8).collect(),
        max_weights: 4,
        old: old_skin,
        tail: if old_skin { 0 } else { 12 },
    });
    m.geometries.push(g);
    m.atomics.push((0, 0, 5));
    m.atomic_extras = vec![Extra::new(RIGHT_TO_RENDER, 8)];
    m
}

/// A San Andreas skin as an exporter writes it: a 2dFX in the geometry's extension, material
/// effects on the atomic, a section after the clump and sector padding.
pub fn sa_skin() -> Model {
    let mut m = skinned(SA, &SA_BONES, false);
    m.geometries[0].extras.push(Extra::new(TWO_DFX, 4));
    m.atomic_extras.push(Extra::new(MATERIAL_EFFECTS, 4));
    m.after.push(Extra::new(0x0253_F2F3, 16));
    m.padding = 2048 - m.bytes().len() % 2048;
    m
}

/// Another exporter's San Andreas skin: names before HAnim data, a frame extension section
/// it adds, no padding.
pub fn sa_skin_other_exporter() -> Model {
    let mut m = skinned(SA, &SA_BONES, false);
    for f in &mut m.frames {
        f.name_first = true;
    }
    m.frames[3].extras.push(Extra::new(0x0253_F2FD, 8));
    m.clump_extras.push(Extra::new(COLLISION, 40));
    m
}

/// A cutscene ped: the standard bones and 22 facial bones (ids 5001–5022) under the head.
pub fn cutscene_ped() -> Model {
    let mut bones: Vec<(i32, String, i32)> = SA_BONES
        .iter()
        .map(|&(id, name, parent)| (id, name.to_owned(), parent))
        .collect();
    for k in 0..22 {
        bones.push((5001 + k, format!("face{k:02}"), 5));
    }
    let borrowed: Vec<(i32, &str, i32)> =
        bones.iter().map(|(i, n, p)| (*i, n.as_str(), *p)).collect();
    skinned(SA, &borrowed, false)
}

/// A Vice City ped whose frame list is not in node order: the frames are reversed (after
/// the root), the node table keeps the hierarchy's order.
pub fn vc_ped() -> Model {
    let mut m = skinned(VC, &SA_BONES[..20], false);
    let table = m.frames[1].hanim.as_mut().unwrap().table.take();
    let n = m.frames.len();
    let mut frames = m.frames.clone();
    // Frame i (1..n) moves to n - i; parents follow.
    for (i, f) in m.frames.iter().enumerate().skip(1) {
        let mut f = f.clone();
        if f.parent >= 1 {
            f.parent = (n - f.parent as usize) as i32;
        }
        frames[n - i] = f;
    }
    frames[n - 1].hanim.as_mut().unwrap().table = table;
    m.frames = frames;
    m
}

/// A GTA III skinned head (RenderWare 3.2): the old skin layout.
pub fn gta3_skinned_head() -> Model {
    skinned(III, &SA_BONES[..7], true)
}

/// A GTA III vehicle: named frames, no HAnim, several geometries, collision in the clump's
/// extension.
pub fn gta3_vehicle() -> Model {
    let mut m = Model::new(III);
    let names: [&[u8]; 6] = [
        b"chassis_dummy",
        b"wheel_rf_dummy",
        b"wheel_lf_dummy",
        b"door_lf_dummy",
        b"chassis_hi",
        b"door_lf_hi_ok",
    ];
    for (i, name) in names.iter().enumerate() {
        let parent = match i {
            0 => -1,
            4 => 0,
            5 => 3,
            _ => 0,
        };
        m.frames
            .push(Frame::new(i, parent, [i as f32, 0.5, 0.0]).named(name));
    }
    m.geometries.push(Geometry::new(100, 80, 3));
    m.geometries.push(Geometry::new(30, 20, 1));
    m.atomics = vec![(4, 0, 5), (5, 1, 5)];
    m.clump_extras.push(Extra::new(COLLISION, 64));
    m
}

/// A GTA III ped: named frames, one unskinned geometry per part, no skeleton.
pub fn gta3_ped() -> Model {
    let mut m = Model::new(III_OLD);
    for (i, &(_, name, parent)) in SA_BONES[..8].iter().enumerate() {
        m.frames
            .push(Frame::new(i, parent, [0.0, 0.0, 0.1 * i as f32]).named(name.as_bytes()));
    }
    m.geometries.push(Geometry::new(60, 40, 1));
    m.atomics.push((1, 0, 5));
    m
}

/// An animated object: unskinned, several named frames, each with its geometry.
pub fn animated_object() -> Model {
    let mut m = Model::new(VC_OLD);
    for i in 0..4 {
        m.frames.push(
            Frame::new(i, i as i32 - 1, [0.0, i as f32, 0.0]).named(format!("part{i}").as_bytes()),
        );
        m.geometries.push(Geometry::new(8 + i as u32, 12, 1));
        m.atomics.push((i as u32, i as u32, 5));
    }
    m
}

/// Every frame carries an empty HAnim (id −1, no table).
pub fn empty_hanims() -> Model {
    let mut m = animated_object();
    for f in &mut m.frames {
        f.hanim = Some(HAnim {
            version: 0x100,
            node_id: -1,
            table: None,
        });
    }
    m
}

/// Two frames with one name, and a node id used twice.
pub fn duplicates() -> Model {
    let mut bones = SA_BONES[..6].to_vec();
    bones[4].1 = " Spine";
    bones[5].0 = 3;
    skinned(SA, &bones, false)
}

/// Every shape above, named.
pub fn shapes() -> Vec<(&'static str, Model)> {
    vec![
        ("sa_skin", sa_skin()),
        ("sa_skin_other_exporter", sa_skin_other_exporter()),
        ("cutscene_ped", cutscene_ped()),
        ("vc_ped", vc_ped()),
        ("gta3_skinned_head", gta3_skinned_head()),
        ("gta3_vehicle", gta3_vehicle()),
        ("gta3_ped", gta3_ped()),
        ("animated_object", animated_object()),
        ("empty_hanims", empty_hanims()),
        ("duplicates", duplicates()),
    ]
}
