//! The skeleton of a model, built from the DFF records ([`SkeletonBuilder`]).

use crate::context::Name;
use crate::record::Record;
use crate::{Flow, Visitor};

/// Frames a [`Skeleton`] holds; past it, [`SkeletonBuilder::build`] fails. San Andreas' skin
/// code keeps at most 256 bone matrices in its scratch buffer and 64 bones per ped
/// (docs/SKELETON.md §1), and the largest real models (cutscene peds with facial bones,
/// vehicles) have a few dozen to about 150 frames: 256 covers every model the games draw,
/// at a fixed size (about 45 KB with the node table and the inverse bind matrices).
pub const MAX_FRAMES: usize = 256;

/// Nodes of an HAnim table, and bones of a skin, a [`Skeleton`] holds (as [`MAX_FRAMES`]).
pub const MAX_NODES: usize = MAX_FRAMES;

/// HAnim node flag: the next node's parent is the one before this branch.
pub const NODE_POP: u32 = 1;
/// HAnim node flag: this node's parent is kept for the next branch.
pub const NODE_PUSH: u32 = 2;

/// A frame of the model's frame list.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    /// The parent frame's index; `None` for a root.
    pub parent: Option<u16>,
    /// The name as stored (blanks kept), where the frame has the node name extension.
    pub name: Option<Name>,
    /// The rotation matrix as stored: right, up and at vectors (the columns of the frame's
    /// rotation), 3 floats each.
    pub rotation: [f32; 9],
    /// The position relative to the parent.
    pub position: [f32; 3],
    /// The matrix flags as stored.
    pub flags: u32,
    /// The node id of its HAnim extension, where it has one.
    pub node_id: Option<i32>,
}

impl Frame {
    const EMPTY: Frame = Frame {
        parent: None,
        name: None,
        rotation: [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0],
        position: [0.0; 3],
        flags: 0,
        node_id: None,
    };

    /// The frame's matrix relative to its parent, column-major 4x4 (as glTF).
    pub fn local_matrix(&self) -> [f32; 16] {
        let r = &self.rotation;
        let p = &self.position;
        [
            r[0], r[1], r[2], 0.0, r[3], r[4], r[5], 0.0, r[6], r[7], r[8], 0.0, p[0], p[1], p[2],
            1.0,
        ]
    }
}

/// A node of the HAnim table, in table order (the bone index the skin and the engine use).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Node {
    /// The node id (the bone id tracks name).
    pub id: i32,
    /// The node index as stored (the engine never reads it).
    pub index: i32,
    /// [`NODE_POP`], [`NODE_PUSH`] as stored.
    pub flags: u32,
    /// The first frame whose HAnim id is the node's, where one is.
    pub frame: Option<u16>,
}

/// The HAnim table's header: the frame that carries it and its fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hierarchy {
    /// The frame whose extension holds the table.
    pub frame: u16,
    /// The hierarchy flags as stored.
    pub flags: u32,
    /// The key frame size as stored.
    pub key_frame_size: u32,
    /// The node count as stored.
    pub node_count: u32,
}

/// A geometry's skin (the header of its `0x0116` extension).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skin {
    /// The geometry's index.
    pub geometry: u32,
    /// Bones.
    pub bones: u32,
    /// Bones the vertices use.
    pub used_bones: u32,
    /// Weights per vertex (0 in the old layout).
    pub max_weights: u32,
    /// 0: the old layout; 1: the later one.
    pub layout: u32,
}

/// The skeleton of a model as the games see it: the frame list with names, HAnim ids and
/// matrices, the HAnim node table, and whether the model is skinned. Fixed size, no
/// allocation ([`MAX_FRAMES`]). Built by [`SkeletonBuilder`] from a DFF's records.
#[derive(Clone, Debug)]
pub struct Skeleton {
    frames: heapless::Vec<Frame, MAX_FRAMES>,
    nodes: heapless::Vec<Node, MAX_NODES>,
    hierarchy: Option<Hierarchy>,
    tables: u16,
    skin: Option<Skin>,
    inverse_binds: heapless::Vec<[f32; 16], MAX_NODES>,
    atomics: u32,
    rw_version: Option<u32>,
}

impl Default for Skeleton {
    fn default() -> Self {
        Skeleton::new()
    }
}

impl Skeleton {
    /// A skeleton of no frames.
    pub const fn new() -> Skeleton {
        Skeleton {
            frames: heapless::Vec::new(),
            nodes: heapless::Vec::new(),
            hierarchy: None,
            tables: 0,
            skin: None,
            inverse_binds: heapless::Vec::new(),
            atomics: 0,
            rw_version: None,
        }
    }

    /// The frames, in frame list order.
    pub fn frames(&self) -> &[Frame] {
        &self.frames
    }

    /// The HAnim node table the engine uses (the first found from the root), in table order;
    /// empty without one.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// The header of the node table in [`nodes`](Self::nodes).
    pub fn hierarchy(&self) -> Option<&Hierarchy> {
        self.hierarchy.as_ref()
    }

    /// Frames whose HAnim extension carries a node table (the engine uses one).
    pub fn table_count(&self) -> u16 {
        self.tables
    }

    /// The skin of the geometry the model's last atomic draws: the one the games test to
    /// treat the model as skinned (`GetFirstAtomic` returns the last atomic of the file).
    pub fn skin(&self) -> Option<&Skin> {
        self.skin.as_ref()
    }

    /// Whether the games treat the model as skinned ([`skin`](Self::skin)).
    pub fn is_skinned(&self) -> bool {
        self.skin.is_some()
    }

    /// The skin's inverse bind matrices (model to bone), column-major 4x4, in bone order.
    pub fn inverse_binds(&self) -> &[[f32; 16]] {
        &self.inverse_binds
    }

    /// Atomics of the model.
    pub fn atomic_count(&self) -> u32 {
        self.atomics
    }

    /// The file's RenderWare library id as stored (`0x1803FFFF`), when the skeleton was built
    /// from a decoded file ([`crate::rw_version`] decodes it).
    pub fn rw_version(&self) -> Option<u32> {
        self.rw_version
    }

    /// The frames in the order the engine walks them: depth first from each root, a frame's
    /// children newest first (RenderWare links a child in front of its siblings), calling
    /// `f` with each frame's index. A frame whose parent does not come before it in the list
    /// is walked as a root.
    pub fn walk(&self, mut f: impl FnMut(u16)) {
        // Depth-first without a stack: the next frame is the newest child not yet walked,
        // else the parent's next older child, climbing.
        let n = self.frames.len();
        for root in 0..n {
            if self.parent_of(root).is_some() {
                continue;
            }
            let mut at = root;
            f(at as u16);
            loop {
                if let Some(child) = self.child_before(at, n) {
                    at = child;
                    f(at as u16);
                    continue;
                }
                // Climb until a node has an older sibling.
                loop {
                    if at == root {
                        break;
                    }
                    let parent = self.parent_of(at).unwrap_or(root);
                    if let Some(sibling) = self.child_before(parent, at) {
                        at = sibling;
                        f(at as u16);
                        break;
                    }
                    at = parent;
                }
                if at == root {
                    break;
                }
            }
        }
    }

    /// The parent of frame `i` where it comes before `i` (else `None`: walked as a root).
    pub fn parent_of(&self, i: usize) -> Option<usize> {
        let parent = usize::from(self.frames.get(i)?.parent?);
        (parent < i).then_some(parent)
    }

    /// The child of `parent` with the largest index below `below`.
    fn child_before(&self, parent: usize, below: usize) -> Option<usize> {
        (parent + 1..below)
            .rev()
            .find(|&c| self.parent_of(c) == Some(parent))
    }

    /// Whether frame `i` lies below frame `ancestor`.
    pub fn is_below(&self, mut i: usize, ancestor: usize) -> bool {
        while let Some(p) = self.parent_of(i) {
            if p == ancestor {
                return true;
            }
            i = p;
        }
        false
    }
}

/// What a skeleton could not hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SkeletonError {
    /// A frame index at or past [`MAX_FRAMES`].
    TooManyFrames(u32),
    /// A node position at or past [`MAX_NODES`].
    TooManyNodes(u32),
    /// A skin bone at or past [`MAX_NODES`].
    TooManyBones(u32),
}

impl core::fmt::Display for SkeletonError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            SkeletonError::TooManyFrames(i) => {
                write!(
                    f,
                    "frame {i}: more frames than a skeleton holds ({MAX_FRAMES})"
                )
            }
            SkeletonError::TooManyNodes(i) => {
                write!(
                    f,
                    "node {i}: more nodes than a skeleton holds ({MAX_NODES})"
                )
            }
            SkeletonError::TooManyBones(i) => {
                write!(
                    f,
                    "bone {i}: more skin bones than a skeleton holds ({MAX_NODES})"
                )
            }
        }
    }
}

/// A skin seen in the file (the last atomic's geometry decides which one counts).
#[derive(Clone, Copy, Debug)]
struct SeenSkin {
    skin: Skin,
}

/// Skins remembered before the atomics say which geometry counts.
const SKINS: usize = 16;

/// Builds a [`Skeleton`] from a DFF's records: a [`Visitor`] to give the DFF decoder, or to
/// feed [`record`](Visitor::record) by hand. Allocation-free.
///
/// ```
/// use gtastream::record::{DffFrame, Record};
/// use gtastream::rig::SkeletonBuilder;
/// use gtastream::Visitor;
///
/// let mut builder = SkeletonBuilder::new();
/// let mut root = DffFrame::default();
/// root.parent = -1;
/// root.rotation = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
/// builder.record(&Record::DffFrame(root));
/// let skeleton = builder.build().expect("one frame fits");
/// assert_eq!(skeleton.frames().len(), 1);
/// assert!(!skeleton.is_skinned());
/// ```
#[derive(Clone, Debug, Default)]
pub struct SkeletonBuilder {
    skeleton: Skeleton,
    /// Frames' HAnim ids and tables, in the order of the records.
    table_frame: Option<u16>,
    skins: heapless::Vec<SeenSkin, SKINS>,
    /// The geometry whose inverse binds are kept.
    binds_of: Option<u32>,
    last_atomic_geometry: Option<u32>,
    error: Option<SkeletonError>,
}

impl SkeletonBuilder {
    /// An empty builder.
    pub fn new() -> SkeletonBuilder {
        SkeletonBuilder::default()
    }

    fn frame_mut(&mut self, index: u32) -> Option<&mut Frame> {
        let i = usize::try_from(index).ok().filter(|&i| i < MAX_FRAMES);
        let Some(i) = i else {
            self.error
                .get_or_insert(SkeletonError::TooManyFrames(index));
            return None;
        };
        while self.skeleton.frames.len() <= i {
            // Capacity checked above.
            let _ = self.skeleton.frames.push(Frame::EMPTY);
        }
        self.skeleton.frames.get_mut(i)
    }

    /// Takes one record (others than the DFF kinds are ignored).
    pub fn take(&mut self, record: &Record<'_>) {
        match record {
            Record::DffFrame(r) => {
                if let Some(frame) = self.frame_mut(r.index) {
                    frame.rotation = r.rotation;
                    frame.position = r.position;
                    frame.flags = r.flags;
                    frame.parent = u16::try_from(r.parent).ok();
                }
            }
            Record::DffFrameName(r) => {
                if let Some(frame) = self.frame_mut(r.frame) {
                    frame.name = Some(Name::new(r.name));
                }
            }
            Record::DffHAnim(r) => {
                let Some(frame) = self.frame_mut(r.frame) else {
                    return;
                };
                frame.node_id = Some(r.node_id);
                if r.node_count > 0 {
                    self.skeleton.tables = self.skeleton.tables.saturating_add(1);
                    if self.table_frame.is_none() {
                        // The first table of the file is kept: the engine takes the first
                        // found depth first from the root, which is the same one in the
                        // files exporters write (a second table is reported).
                        self.table_frame = Some(r.frame as u16);
                        self.skeleton.hierarchy = Some(Hierarchy {
                            frame: r.frame as u16,
                            flags: r.flags.unwrap_or(0),
                            key_frame_size: r.key_frame_size.unwrap_or(0),
                            node_count: r.node_count,
                        });
                    }
                }
            }
            Record::DffHAnimNode(r) => {
                if self.table_frame != Some(r.frame as u16) {
                    return;
                }
                let i = r.index as usize;
                if i >= MAX_NODES {
                    self.error
                        .get_or_insert(SkeletonError::TooManyNodes(r.index));
                    return;
                }
                let nodes = &mut self.skeleton.nodes;
                while nodes.len() <= i {
                    let _ = nodes.push(Node {
                        id: -1,
                        index: -1,
                        flags: 0,
                        frame: None,
                    });
                }
                nodes[i] = Node {
                    id: r.node_id,
                    index: r.node_index,
                    flags: r.flags,
                    frame: None,
                };
            }
            Record::DffSkin(r) => {
                let skin = Skin {
                    geometry: r.geometry,
                    bones: r.bones,
                    used_bones: r.used_bones,
                    max_weights: r.max_weights,
                    layout: r.layout,
                };
                if let Some(seen) = self
                    .skins
                    .iter_mut()
                    .find(|s| s.skin.geometry == r.geometry)
                {
                    seen.skin = skin;
                } else {
                    let _ = self.skins.push(SeenSkin { skin });
                }
                if self.binds_of.is_none() {
                    self.binds_of = Some(r.geometry);
                }
            }
            Record::DffSkinBone(r) => {
                if self.binds_of != Some(r.geometry) {
                    return;
                }
                let i = r.bone as usize;
                if i >= MAX_NODES {
                    self.error
                        .get_or_insert(SkeletonError::TooManyBones(r.bone));
                    return;
                }
                let binds = &mut self.skeleton.inverse_binds;
                while binds.len() <= i {
                    let _ = binds.push([0.0; 16]);
                }
                binds[i] = r.inverse_bind;
            }
            Record::DffAtomic(r) => {
                self.skeleton.atomics = self.skeleton.atomics.saturating_add(1);
                self.last_atomic_geometry = Some(r.geometry);
            }
            _ => {}
        }
    }

    /// The skeleton, or what it could not hold.
    pub fn build(mut self) -> Result<Skeleton, SkeletonError> {
        if let Some(error) = self.error {
            return Err(error);
        }
        let skeleton = &mut self.skeleton;
        skeleton.skin = self.last_atomic_geometry.and_then(|g| {
            self.skins
                .iter()
                .find(|s| s.skin.geometry == g)
                .map(|s| s.skin)
        });
        if skeleton.skin.map(|s| s.geometry) != self.binds_of {
            skeleton.inverse_binds.clear();
        }
        let frames = &skeleton.frames;
        for node in skeleton.nodes.iter_mut() {
            node.frame = frames
                .iter()
                .position(|f| f.node_id == Some(node.id))
                .map(|i| i as u16);
        }
        Ok(self.skeleton)
    }
}

impl Visitor for SkeletonBuilder {
    fn file(&mut self, info: &crate::FileInfo<'_>) -> Flow {
        self.skeleton.rw_version = info.rw_version;
        Flow::Continue
    }

    fn record(&mut self, record: &Record<'_>) -> Flow {
        self.take(record);
        Flow::Continue
    }
}
