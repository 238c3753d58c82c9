//! Models built in code for the skeleton tests: frames, names, HAnim ids and table, skin, as
//! the DFF records ([`gtastream::record`]) a reader reports them. Rotations come from
//! axis-angle pairs through Rodrigues' formula (not the crate's quaternion code), the node
//! flags from the tree (PUSH on a node with a later sibling, POP on a leaf), the inverse
//! binds from the frames' model matrices.

use gtastream::record::{
    DffAtomic, DffFrame, DffFrameName, DffHAnim, DffHAnimNode, DffSkin, DffSkinBone, Record,
};
use gtastream::rig::{Skeleton, SkeletonBuilder};
use gtastream::skeleton::BONES;
use gtastream::Game;

/// A frame of a model.
#[derive(Clone, Debug)]
pub struct FrameSpec {
    pub name: Option<Vec<u8>>,
    pub parent: i32,
    /// Right, up, at.
    pub rotation: [f32; 9],
    pub position: [f32; 3],
    pub node_id: Option<i32>,
}

/// A model: frames, an optional node table on one frame, an optional skin.
#[derive(Clone, Debug)]
pub struct ModelSpec {
    pub frames: Vec<FrameSpec>,
    /// The frame carrying the node table, and the nodes (id, flags) in table order.
    pub table: Option<(u32, Vec<(i32, u32)>)>,
    /// Skinned: the inverse binds of the table's nodes (one per node).
    pub skin: Option<Vec<[f32; 16]>>,
}

/// Rodrigues: the rotation of `angle` radians about `axis` (normalised here), as right, up,
/// at columns.
pub fn axis_angle(axis: [f32; 3], angle: f32) -> [f32; 9] {
    let len = (axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]).sqrt();
    let [x, y, z] = [axis[0] / len, axis[1] / len, axis[2] / len];
    let (s, c) = angle.sin_cos();
    let t = 1.0 - c;
    // Row-major R, then its columns.
    let r = [
        [t * x * x + c, t * x * y - s * z, t * x * z + s * y],
        [t * x * y + s * z, t * y * y + c, t * y * z - s * x],
        [t * x * z - s * y, t * y * z + s * x, t * z * z + c],
    ];
    [
        r[0][0], r[1][0], r[2][0], r[0][1], r[1][1], r[2][1], r[0][2], r[1][2], r[2][2],
    ]
}

pub const IDENTITY: [f32; 9] = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];

/// Column-major 4x4 of a rotation (right, up, at) and a position.
pub fn matrix(rotation: [f32; 9], position: [f32; 3]) -> [f32; 16] {
    let r = rotation;
    let p = position;
    [
        r[0], r[1], r[2], 0.0, r[3], r[4], r[5], 0.0, r[6], r[7], r[8], 0.0, p[0], p[1], p[2], 1.0,
    ]
}

pub fn mul(a: &[f32; 16], b: &[f32; 16]) -> [f32; 16] {
    let mut o = [0.0; 16];
    for c in 0..4 {
        for r in 0..4 {
            for k in 0..4 {
                o[4 * c + r] += a[4 * k + r] * b[4 * c + k];
            }
        }
    }
    o
}

/// The inverse of a rigid matrix.
pub fn inverse_rigid(m: &[f32; 16]) -> [f32; 16] {
    let mut o = [0.0; 16];
    for c in 0..3 {
        for r in 0..3 {
            o[4 * c + r] = m[4 * r + c];
        }
    }
    for r in 0..3 {
        o[12 + r] = -(0..3).map(|k| o[4 * k + r] * m[12 + k]).sum::<f32>();
    }
    o[15] = 1.0;
    o
}

impl ModelSpec {
    /// The model matrix of every frame (parents before children).
    pub fn model_matrices(&self) -> Vec<[f32; 16]> {
        let mut out: Vec<[f32; 16]> = Vec::new();
        for f in &self.frames {
            let local = matrix(f.rotation, f.position);
            let m = if f.parent >= 0 {
                mul(&out[f.parent as usize], &local)
            } else {
                local
            };
            out.push(m);
        }
        out
    }

    /// The frame whose HAnim id is `id`.
    pub fn frame_of(&self, id: i32) -> Option<usize> {
        self.frames.iter().position(|f| f.node_id == Some(id))
    }

    /// The frame named `name` exactly.
    pub fn frame_named(&self, name: &str) -> Option<usize> {
        self.frames
            .iter()
            .position(|f| f.name.as_deref() == Some(name.as_bytes()))
    }

    /// The records a DFF reader reports for the model, in file order: the frame list, the
    /// frames' extensions, the geometry's skin, one atomic on the last frame.
    pub fn records(&self) -> Vec<Record<'_>> {
        let mut out = Vec::new();
        for (i, f) in self.frames.iter().enumerate() {
            let mut r = DffFrame::default();
            r.index = i as u32;
            r.rotation = f.rotation;
            r.position = f.position;
            r.parent = f.parent;
            out.push(Record::DffFrame(r));
        }
        for (i, f) in self.frames.iter().enumerate() {
            if let Some(id) = f.node_id {
                let mut h = DffHAnim::default();
                h.frame = i as u32;
                h.version = 0x100;
                h.node_id = id;
                if let Some((frame, nodes)) = &self.table {
                    if *frame == i as u32 {
                        h.node_count = nodes.len() as u32;
                        h.flags = Some(0);
                        h.key_frame_size = Some(36);
                    }
                }
                out.push(Record::DffHAnim(h));
                if h.node_count > 0 {
                    let (_, nodes) = self.table.as_ref().unwrap();
                    for (n, &(id, flags)) in nodes.iter().enumerate() {
                        let mut r = DffHAnimNode::default();
                        r.frame = i as u32;
                        r.index = n as u32;
                        r.node_id = id;
                        r.node_index = n as i32;
                        r.flags = flags;
                        out.push(Record::DffHAnimNode(r));
                    }
                }
            }
            if let Some(name) = &f.name {
                let mut r = DffFrameName::default();
                r.frame = i as u32;
                r.name = name;
                out.push(Record::DffFrameName(r));
            }
        }
        if let Some(binds) = &self.skin {
            let mut s = DffSkin::default();
            s.geometry = 0;
            s.bones = binds.len() as u32;
            s.used_bones = binds.len() as u32;
            s.max_weights = 4;
            s.layout = 1;
            out.push(Record::DffSkin(s));
            for (b, m) in binds.iter().enumerate() {
                let mut r = DffSkinBone::default();
                r.geometry = 0;
                r.bone = b as u32;
                r.inverse_bind = *m;
                out.push(Record::DffSkinBone(r));
            }
        }
        let mut a = DffAtomic::default();
        a.frame = (self.frames.len() - 1) as u32;
        a.geometry = 0;
        out.push(Record::DffAtomic(a));
        out
    }

    /// The skeleton the crate builds from [`records`](Self::records).
    pub fn skeleton(&self) -> Skeleton {
        let mut builder = SkeletonBuilder::new();
        for r in self.records() {
            builder.take(&r);
        }
        builder.build().expect("the model fits")
    }

    /// The node flags of `order` (frames in table order) from the tree: PUSH on a node with
    /// a later sibling in the table, POP on a node with no child in it.
    pub fn tree_flags(&self, order: &[usize]) -> Vec<u32> {
        let parent = |f: usize| self.frames[f].parent;
        order
            .iter()
            .enumerate()
            .map(|(i, &f)| {
                let later_sibling = order[i + 1..]
                    .iter()
                    .any(|&g| parent(g) == parent(f) && g != f);
                let leaf = !order.iter().any(|&g| parent(g) == f as i32);
                (u32::from(later_sibling) * 2) | u32::from(leaf)
            })
            .collect()
    }
}

/// The axis and angle of the rest rotation of the `k`-th bone frame of [`sa_ped`] and
/// [`iii_ped`] (frame `k + 1`): different axes and angles per bone.
pub fn rest_axis_angle(k: usize) -> ([f32; 3], f32) {
    (
        [
            1.0 + k as f32 * 0.3,
            2.0 - k as f32 * 0.1,
            0.5 + (k % 3) as f32,
        ],
        0.2 + 0.07 * k as f32,
    )
}

/// The unit quaternion `x, y, z, w` of an axis-angle rotation (axis normalised here).
pub fn quaternion(axis: [f32; 3], angle: f32) -> [f32; 4] {
    let len = (axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]).sqrt();
    let (s, c) = (angle / 2.0).sin_cos();
    [axis[0] / len * s, axis[1] / len * s, axis[2] / len * s, c]
}

fn some_rotation(k: usize) -> [f32; 9] {
    let (axis, angle) = rest_axis_angle(k);
    axis_angle(axis, angle)
}

/// A San Andreas ped: frame 0 the clump's frame, then the standard SA bones of
/// [`gtastream::skeleton::BONES`] depth first with their ids, named as SA skins name them (a blank
/// before every name but `Root`), the node table on the `Root` frame, skinned.
pub fn sa_ped() -> ModelSpec {
    // The bones in depth-first order (children in table order), as a node table lists them.
    fn preorder(at: usize, out: &mut Vec<usize>) {
        out.push(at);
        for (i, bone) in BONES.iter().enumerate() {
            if bone.parent == Some(at as u8) && bone.in_game(Game::SanAndreas) {
                preorder(i, out);
            }
        }
    }
    let mut sa = Vec::new();
    preorder(0, &mut sa);
    let mut frames = vec![FrameSpec {
        name: Some(b"ped".to_vec()),
        parent: -1,
        rotation: IDENTITY,
        position: [0.0; 3],
        node_id: None,
    }];
    for (k, &i) in sa.iter().enumerate() {
        let bone = &BONES[i];
        let parent = match bone.parent {
            Some(p) => 1 + sa.iter().position(|&j| j == usize::from(p)).unwrap() as i32,
            None => 0,
        };
        let name = if k == 0 {
            b"Root".to_vec()
        } else {
            format!(" {}", bone.name()).into_bytes()
        };
        frames.push(FrameSpec {
            name: Some(name),
            parent,
            rotation: some_rotation(k),
            position: [0.02 * k as f32, 0.1, 0.05 + 0.01 * k as f32],
            node_id: bone.id.map(i32::from),
        });
    }
    let mut model = ModelSpec {
        frames,
        table: None,
        skin: None,
    };
    let order: Vec<usize> = (1..model.frames.len()).collect();
    let flags = model.tree_flags(&order);
    let nodes = order
        .iter()
        .zip(flags)
        .map(|(&f, fl)| (model.frames[f].node_id.unwrap(), fl))
        .collect();
    model.table = Some((1, nodes));
    let world = model.model_matrices();
    model.skin = Some(order.iter().map(|&f| inverse_rigid(&world[f])).collect());
    model
}

/// A GTA III ped: frame 0 the clump's frame, then GTA III's named frames, no ids, no skin.
pub fn iii_ped() -> ModelSpec {
    let iii: Vec<usize> = (0..BONES.len())
        .filter(|&i| BONES[i].in_game(Game::Iii))
        .collect();
    let mut frames = vec![FrameSpec {
        name: Some(b"player".to_vec()),
        parent: -1,
        rotation: IDENTITY,
        position: [0.0; 3],
        node_id: None,
    }];
    for (k, &i) in iii.iter().enumerate() {
        let bone = &BONES[i];
        let parent = match bone.parent {
            Some(p) => 1 + iii.iter().position(|&j| j == usize::from(p)).unwrap() as i32,
            None => 0,
        };
        frames.push(FrameSpec {
            name: Some(bone.name().as_bytes().to_vec()),
            parent,
            rotation: some_rotation(k),
            position: [0.0, 0.1 * k as f32, 0.2],
            node_id: None,
        });
    }
    ModelSpec {
        frames,
        table: None,
        skin: None,
    }
}
