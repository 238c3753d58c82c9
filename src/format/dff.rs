//! RenderWare models, `.dff`: a clump stream (docs/FORMATS.md §11).
//!
//! A RenderWare stream is a tree of sections, each a 12-byte header (id, size, library id)
//! and its body. The reader walks the clump's tree: the sections it knows it enters or reads,
//! every other one it skips whole and reports as an [`RwSection`]. What it reads: the clump's
//! counts, the frame list (matrices, parents, then per frame its name and HAnim extension),
//! each geometry's counts (its arrays skipped), its skin (header and inverse bind matrices,
//! in both layouts: §11), and the atomics. State is a stack of the open sections
//! ([`MAX_DEPTH`] deep: the deepest section read lies four levels down) and a few counters.

use super::fields::c_name;
use super::protocol::{Step, Stepped, Want};
use crate::error::{Error, ErrorKind, WarningKind};
use crate::limits::{MAX_FILE_SIZE, MAX_NAME};
use crate::record::{
    DffAtomic, DffClump, DffFrame, DffFrameName, DffGeometry, DffHAnim, DffHAnimNode, DffSkin,
    DffSkinBone, Record, RwSection,
};
use crate::{FileInfo, Flow, Format, Unit, UnitKind, Visitor, Warning};

/// Section ids (docs/FORMATS.md §11).
pub(crate) mod id {
    pub const STRUCT: u32 = 0x01;
    pub const EXTENSION: u32 = 0x03;
    pub const MATERIAL_LIST: u32 = 0x08;
    pub const FRAME_LIST: u32 = 0x0E;
    pub const GEOMETRY: u32 = 0x0F;
    pub const CLUMP: u32 = 0x10;
    pub const ATOMIC: u32 = 0x14;
    pub const GEOMETRY_LIST: u32 = 0x1A;
    pub const SKIN: u32 = 0x0116;
    pub const HANIM: u32 = 0x011E;
    pub const NODE_NAME: u32 = 0x0253_F2FE;
}

/// A section header: id, size, library id.
const HEADER: usize = 12;
/// A frame of the frame list: rotation (9 floats), position (3), parent, flags.
const FRAME: usize = 56;
/// An HAnim extension's head (version, node id, node count), the table's head (flags, key
/// frame size) and a node (id, index, flags).
const HANIM_HEAD: usize = 12;
const HANIM_TABLE: usize = 8;
const HANIM_NODE: usize = 12;
/// A geometry struct's counts: format flags, triangles, vertices, morph targets.
const GEOMETRY_COUNTS: usize = 16;
/// The geometry format flag of a platform's native geometry (its skin is native too).
const NATIVE: u32 = 0x0100_0000;
/// A material list's struct header and its count.
const MATERIAL_LIST_HEAD: usize = HEADER + 4;
/// The skin's header (bones, used bones, weights per vertex, padding), then per vertex 4
/// bone indices and 4 weights.
const SKIN_HEAD: usize = 4;
const SKIN_VERTEX: u64 = 4 + 16;
/// An inverse bind matrix; the old layout puts a marker (`0xDEADDEAD`) before each.
const MATRIX: usize = 64;
const OLD_MATRIX: usize = 4 + MATRIX;
/// An atomic's struct: frame, geometry, flags (and an unused word).
const ATOMIC_STRUCT: usize = 12;

/// Sections open at once at the most: clump, geometry list, geometry, extension (the skin is
/// read as a leaf inside).
pub(crate) const MAX_DEPTH: usize = 4;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// The clump's header (the file's first 12 bytes).
    Clump,
    /// A section header inside the open section, or its end.
    Header,
    /// Bytes left in the open section too few for a header: passed over to its end.
    Padding,
    /// After the clump: another top-level section, or the end.
    After,
    ClumpStruct,
    FrameCount,
    Frame,
    NodeName,
    HAnim,
    HAnimTable,
    HAnimNode,
    GeometryCounts,
    MaterialList,
    SkinHead,
    SkinBone,
    AtomicStruct,
    /// On to `skip_to` (the end of a section, or the skin's matrices).
    Skip,
    Done,
}

#[derive(Clone, Debug)]
pub(crate) struct Dff {
    stage: Stage,
    /// The clump's library id.
    version: u32,
    /// Where the next unit begins.
    pos: u64,
    /// The open sections: ids and where they end.
    ids: [u32; MAX_DEPTH],
    ends: [u64; MAX_DEPTH],
    depth: u8,
    /// The section being read (leaf): its header's offset and end.
    leaf_at: u64,
    leaf_size: u32,
    skip_to: u64,
    /// Where reading goes on after a skip.
    then: Stage,
    /// Frames the frame list declares, and the next one to read.
    frames: u32,
    frame: u32,
    /// Frame extensions seen: the frame the open one belongs to.
    frame_extensions: u32,
    extension_frame: u32,
    /// The HAnim table being read.
    hanim_nodes: u32,
    hanim_node: u32,
    hanim_version: u32,
    hanim_id: i32,
    /// Geometries seen; the open one's index, vertex count and format flags.
    geometries: u32,
    geometry: DffGeometry,
    /// The open geometry's record is still to come (it waits for the material count).
    geometry_pending: bool,
    /// The skin being read: bones, the next one, its layout (`true`: old).
    bones: u32,
    bone: u32,
    old_skin: bool,
    atomics: u32,
}

/// A record of the unit at `at`.
#[inline]
fn emit<V: Visitor>(visitor: &mut V, at: u64, record: &Record<'_>) -> Flow {
    visitor.unit(&Unit::at(UnitKind::Record, at));
    visitor.record(record)
}

#[inline]
fn header(unit: &[u8]) -> (u32, u32, u32) {
    let word = |i: usize| u32::from_le_bytes([unit[i], unit[i + 1], unit[i + 2], unit[i + 3]]);
    (word(0), word(4), word(8))
}

/// The RenderWare version a library id stands for, as `0x3VVRR` (3.6.0.3 is `0x36003`), and
/// its build: an unstamped 3.0–3.3 id is the version shifted (`0x310` is 3.1.0.0, build 0);
/// a stamped one packs the version's middle digits, its last digit and a 16-bit build.
pub fn rw_version(library_id: u32) -> (u32, u32) {
    if library_id & 0xFFFF_0000 == 0 {
        (library_id << 8, 0)
    } else {
        let version = (((library_id >> 14) & 0x3_FF00) + 0x3_0000) | ((library_id >> 16) & 0x3F);
        (version, library_id & 0xFFFF)
    }
}

/// Whether a word is a RenderWare 3 library id (docs/FORMATS.md §8.1).
#[inline]
pub(crate) fn is_library_id(id: u32) -> bool {
    (0x300..=0x3FF).contains(&id) || (0x10..=0x7F).contains(&(id >> 22))
}

impl Dff {
    pub(crate) fn new() -> Self {
        Dff {
            stage: Stage::Clump,
            version: 0,
            pos: 0,
            ids: [0; MAX_DEPTH],
            ends: [0; MAX_DEPTH],
            depth: 0,
            leaf_at: 0,
            leaf_size: 0,
            skip_to: 0,
            then: Stage::Header,
            frames: 0,
            frame: 0,
            frame_extensions: 0,
            extension_frame: 0,
            hanim_nodes: 0,
            hanim_node: 0,
            hanim_version: 0,
            hanim_id: 0,
            geometries: 0,
            geometry: DffGeometry::default(),
            geometry_pending: false,
            bones: 0,
            bone: 0,
            old_skin: false,
            atomics: 0,
        }
    }

    /// The open section's id and end (the file's for none).
    #[inline]
    fn top(&self) -> (u32, u64) {
        match usize::from(self.depth).checked_sub(1) {
            Some(i) => (self.ids[i], self.ends[i]),
            None => (0, MAX_FILE_SIZE),
        }
    }

    /// The id of the section that holds the open one.
    #[inline]
    fn grandparent(&self) -> u32 {
        match usize::from(self.depth).checked_sub(2) {
            Some(i) => self.ids[i],
            None => 0,
        }
    }

    fn push(&mut self, id: u32, end: u64, at: u64) -> Result<(), Error> {
        let i = usize::from(self.depth);
        if i >= MAX_DEPTH {
            return Err(Error::new(ErrorKind::Limit, at));
        }
        self.ids[i] = id;
        self.ends[i] = end;
        self.depth += 1;
        Ok(())
    }

    /// Skip to `end`, then go on with `then`.
    #[inline]
    fn skip(&mut self, end: u64, then: Stage) {
        self.skip_to = end;
        self.then = then;
        self.stage = Stage::Skip;
    }

    /// Reads a leaf section's body: `stage` now, then on from its end.
    #[inline]
    fn leaf(&mut self, stage: Stage, at: u64, size: u32) {
        self.leaf_at = at;
        self.leaf_size = size;
        self.skip_to = self.leaf_end();
        self.then = Stage::Header;
        self.stage = stage;
    }

    #[inline]
    fn leaf_end(&self) -> u64 {
        self.leaf_at + HEADER as u64 + u64::from(self.leaf_size)
    }

    /// Done with the leaf's fields: on to its end.
    #[inline]
    fn leaf_done(&mut self) {
        self.skip(self.leaf_end(), Stage::Header);
    }

    /// A section that is too small for what it must hold.
    #[inline]
    fn too_small(&self, need: u64) -> Result<(), Error> {
        if need > u64::from(self.leaf_size) {
            return Err(Error::new(ErrorKind::Malformed, self.leaf_at));
        }
        Ok(())
    }

    fn emit_geometry<V: Visitor>(&mut self, visitor: &mut V) -> Flow {
        self.geometry_pending = false;
        visitor.record(&Record::DffGeometry(self.geometry))
    }

    fn clump<V: Visitor>(&mut self, unit: &[u8], at: u64, visitor: &mut V) -> Result<Flow, Error> {
        let (section, size, version) = header(unit);
        if section != id::CLUMP || !is_library_id(version) {
            return Err(Error::new(ErrorKind::BadMagic, at));
        }
        self.version = version;
        self.push(id::CLUMP, at + HEADER as u64 + u64::from(size), at)?;
        self.stage = Stage::Header;
        Ok(visitor.file(&FileInfo {
            container_size: None,
            format: Format::Dff,
            name: None,
            animation_count: 0,
            instance_count: None,
            car_count: None,
            info_size: None,
            rw_version: Some(version),
            raw: unit,
        }))
    }

    /// The open section ends here: closed (a geometry's record comes first if still due).
    fn close<V: Visitor>(&mut self, visitor: &mut V) -> Flow {
        let (open, _) = self.top();
        let flow = if open == id::GEOMETRY && self.geometry_pending {
            self.emit_geometry(visitor)
        } else {
            Flow::Continue
        };
        self.depth -= 1;
        if self.depth == 0 {
            self.stage = Stage::After;
        }
        flow
    }

    /// A section header inside the open section: entered, read, or skipped and reported.
    /// Returns the bytes used (0 when a due geometry record goes first).
    fn section<V: Visitor>(
        &mut self,
        unit: &[u8],
        at: u64,
        visitor: &mut V,
    ) -> Result<Stepped, Error> {
        let (section, size, version) = header(unit);
        let (parent, parent_end) = self.top();
        let end = at + HEADER as u64 + u64::from(size);
        if end > parent_end {
            return Err(Error::new(ErrorKind::Malformed, at));
        }
        let used = |flow| Ok(Stepped::new(HEADER, flow));
        // The geometry's counts are complete before its extension (or its end).
        if parent == id::GEOMETRY
            && section != id::STRUCT
            && section != id::MATERIAL_LIST
            && self.geometry_pending
        {
            return Ok(Stepped::new(0, self.emit_geometry(visitor)));
        }
        let in_extension_of = |of: u32| parent == id::EXTENSION && self.grandparent() == of;
        match (parent, section) {
            (id::CLUMP, id::STRUCT) => self.leaf(Stage::ClumpStruct, at, size),
            (id::CLUMP, id::FRAME_LIST)
            | (id::CLUMP, id::GEOMETRY_LIST)
            | (id::CLUMP, id::ATOMIC)
            | (id::CLUMP, id::EXTENSION)
            | (id::GEOMETRY_LIST, id::GEOMETRY)
            | (id::GEOMETRY, id::EXTENSION)
            | (id::ATOMIC, id::EXTENSION)
            | (id::FRAME_LIST, id::EXTENSION) => {
                self.push(section, end, at)?;
                if section == id::GEOMETRY {
                    self.geometry = DffGeometry {
                        index: self.geometries,
                        ..DffGeometry::default()
                    };
                    self.geometries += 1;
                    self.geometry_pending = true;
                } else if parent == id::FRAME_LIST {
                    self.extension_frame = self.frame_extensions;
                    self.frame_extensions += 1;
                }
            }
            (id::FRAME_LIST, id::STRUCT) => self.leaf(Stage::FrameCount, at, size),
            // The geometry count: each geometry is read as it comes.
            (id::GEOMETRY_LIST, id::STRUCT) => self.skip(end, Stage::Header),
            (id::GEOMETRY, id::STRUCT) => self.leaf(Stage::GeometryCounts, at, size),
            (id::GEOMETRY, id::MATERIAL_LIST) => self.leaf(Stage::MaterialList, at, size),
            (id::ATOMIC, id::STRUCT) => self.leaf(Stage::AtomicStruct, at, size),
            (_, id::NODE_NAME) if in_extension_of(id::FRAME_LIST) => {
                if size as usize > MAX_NAME {
                    return Err(Error::new(ErrorKind::Limit, at));
                }
                self.leaf(Stage::NodeName, at, size);
            }
            (_, id::HANIM) if in_extension_of(id::FRAME_LIST) => self.leaf(Stage::HAnim, at, size),
            (_, id::SKIN) if in_extension_of(id::GEOMETRY) && self.geometry.flags & NATIVE == 0 => {
                self.leaf(Stage::SkinHead, at, size)
            }
            _ => {
                // Not read here: passed over whole, and reported.
                self.skip(end, Stage::Header);
                visitor.unit(&Unit::at(UnitKind::Record, at));
                return used(visitor.record(&Record::RwSection(RwSection {
                    offset: at,
                    id: section,
                    size,
                    version,
                    parent,
                })));
            }
        }
        used(Flow::Continue)
    }

    fn fields<V: Visitor>(&mut self, unit: &[u8], at: u64, visitor: &mut V) -> Result<Flow, Error> {
        let word = |i: usize| {
            u32::from_le_bytes([
                unit[4 * i],
                unit[4 * i + 1],
                unit[4 * i + 2],
                unit[4 * i + 3],
            ])
        };
        let float = |i: usize| f32::from_bits(word(i));
        let record = |visitor: &mut V, record: Record<'_>| emit(visitor, at, &record);
        Ok(match self.stage {
            Stage::ClumpStruct => {
                let counts = |i: usize| (unit.len() >= 4 * (i + 1)).then(|| word(i));
                self.leaf_done();
                record(
                    visitor,
                    Record::DffClump(DffClump {
                        atomics: word(0),
                        lights: counts(1),
                        cameras: counts(2),
                    }),
                )
            }
            Stage::FrameCount => {
                self.frames = word(0);
                self.frame = 0;
                self.too_small(4 + u64::from(self.frames) * FRAME as u64)?;
                if self.frames == 0 {
                    self.leaf_done();
                } else {
                    self.stage = Stage::Frame;
                }
                Flow::Continue
            }
            Stage::Frame => {
                let frame = DffFrame {
                    index: self.frame,
                    rotation: core::array::from_fn(float),
                    position: [float(9), float(10), float(11)],
                    parent: word(12) as i32,
                    flags: word(13),
                };
                self.frame += 1;
                if self.frame == self.frames {
                    self.leaf_done();
                }
                record(visitor, Record::DffFrame(frame))
            }
            Stage::NodeName => {
                self.leaf_done();
                record(
                    visitor,
                    Record::DffFrameName(DffFrameName {
                        frame: self.extension_frame,
                        name: c_name(unit),
                    }),
                )
            }
            Stage::HAnim => {
                let nodes = word(2);
                let table = match nodes {
                    0 => 0,
                    n => HANIM_TABLE as u64 + u64::from(n) * HANIM_NODE as u64,
                };
                self.too_small(HANIM_HEAD as u64 + table)?;
                self.hanim_nodes = nodes;
                self.hanim_node = 0;
                if nodes == 0 {
                    self.leaf_done();
                    record(
                        visitor,
                        Record::DffHAnim(DffHAnim {
                            frame: self.extension_frame,
                            version: word(0),
                            node_id: word(1) as i32,
                            node_count: 0,
                            flags: None,
                            key_frame_size: None,
                        }),
                    )
                } else {
                    // The record waits for the table's head.
                    self.stage = Stage::HAnimTable;
                    self.hanim_version = word(0);
                    self.hanim_id = word(1) as i32;
                    Flow::Continue
                }
            }
            Stage::HAnimTable => {
                self.stage = Stage::HAnimNode;
                record(
                    visitor,
                    Record::DffHAnim(DffHAnim {
                        frame: self.extension_frame,
                        version: self.hanim_version,
                        node_id: self.hanim_id,
                        node_count: self.hanim_nodes,
                        flags: Some(word(0)),
                        key_frame_size: Some(word(1)),
                    }),
                )
            }
            Stage::HAnimNode => {
                let node = DffHAnimNode {
                    frame: self.extension_frame,
                    index: self.hanim_node,
                    node_id: word(0) as i32,
                    node_index: word(1) as i32,
                    flags: word(2),
                };
                self.hanim_node += 1;
                if self.hanim_node == self.hanim_nodes {
                    self.leaf_done();
                }
                record(visitor, Record::DffHAnimNode(node))
            }
            Stage::GeometryCounts => {
                self.geometry.flags = word(0);
                self.geometry.triangles = word(1);
                self.geometry.vertices = word(2);
                self.geometry.morph_targets = word(3);
                self.leaf_done();
                Flow::Continue
            }
            Stage::MaterialList => {
                let (section, size, _) = header(unit);
                if section != id::STRUCT
                    || size < 4
                    || u64::from(size) + 12 > u64::from(self.leaf_size)
                {
                    return Err(Error::new(ErrorKind::Malformed, at));
                }
                self.geometry.materials = word(3);
                self.leaf_done();
                if self.geometry_pending {
                    visitor.unit(&Unit::at(UnitKind::Record, self.leaf_at));
                    self.emit_geometry(visitor)
                } else {
                    Flow::Continue
                }
            }
            Stage::SkinHead => {
                let [bones, used, max_weights, _] = [unit[0], unit[1], unit[2], unit[3]];
                // As librw reads it: a header without a used-bone count is the old layout.
                let old = used == 0;
                let arrays = u64::from(used) + u64::from(self.geometry.vertices) * SKIN_VERTEX;
                let matrix = if old { OLD_MATRIX } else { MATRIX };
                self.too_small(SKIN_HEAD as u64 + arrays + u64::from(bones) * matrix as u64)?;
                self.bones = u32::from(bones);
                self.bone = 0;
                self.old_skin = old;
                if bones == 0 {
                    self.leaf_done();
                } else {
                    self.skip(at + SKIN_HEAD as u64 + arrays, Stage::SkinBone);
                }
                record(
                    visitor,
                    Record::DffSkin(DffSkin {
                        geometry: self.geometry.index,
                        bones: u32::from(bones),
                        used_bones: u32::from(used),
                        max_weights: u32::from(max_weights),
                        layout: u32::from(!old),
                    }),
                )
            }
            Stage::SkinBone => {
                let first = if self.old_skin { 1 } else { 0 };
                let bone = DffSkinBone {
                    geometry: self.geometry.index,
                    bone: self.bone,
                    inverse_bind: core::array::from_fn(|i| float(first + i)),
                };
                self.bone += 1;
                if self.bone == self.bones {
                    self.leaf_done();
                }
                record(visitor, Record::DffSkinBone(bone))
            }
            Stage::AtomicStruct => {
                let atomic = DffAtomic {
                    index: self.atomics,
                    frame: word(0),
                    geometry: word(1),
                    flags: word(2),
                };
                self.atomics += 1;
                self.leaf_done();
                record(visitor, Record::DffAtomic(atomic))
            }
            _ => Flow::Continue,
        })
    }

    /// The bytes the stage reads of its leaf (at most what the leaf holds: a short struct is
    /// an error, not a read into the next section).
    #[inline]
    fn need(&self, want: usize) -> Result<usize, usize> {
        if want as u64 <= u64::from(self.leaf_size) {
            Ok(want)
        } else {
            Err(want)
        }
    }
}

impl Step for Dff {
    #[inline]
    fn want(&self) -> Want {
        let fixed = |n: usize| match self.need(n) {
            Ok(n) => Want::Unit(n),
            // Too small: a step with nothing, which fails.
            Err(_) => Want::Unit(0),
        };
        match self.stage {
            Stage::Clump => Want::Unit(HEADER),
            Stage::Header => {
                let (_, end) = self.top();
                match end.saturating_sub(self.pos) {
                    0 => Want::Unit(0),
                    n if n < HEADER as u64 => Want::Unit(0),
                    _ => Want::Unit(HEADER),
                }
            }
            Stage::Padding => Want::ReadTo(self.top().1),
            Stage::After => Want::Peek(HEADER),
            Stage::ClumpStruct => fixed(4.max(self.leaf_size.min(12) as usize & !3)),
            Stage::FrameCount => fixed(4),
            Stage::Frame => Want::Unit(FRAME),
            Stage::NodeName => Want::Unit(self.leaf_size as usize),
            Stage::HAnim => fixed(HANIM_HEAD),
            Stage::HAnimTable => Want::Unit(HANIM_TABLE),
            Stage::HAnimNode => Want::Unit(HANIM_NODE),
            Stage::GeometryCounts => fixed(GEOMETRY_COUNTS),
            Stage::MaterialList => fixed(MATERIAL_LIST_HEAD),
            Stage::SkinHead => fixed(SKIN_HEAD),
            Stage::SkinBone if self.old_skin => Want::Unit(OLD_MATRIX),
            Stage::SkinBone => Want::Unit(MATRIX),
            Stage::AtomicStruct => fixed(ATOMIC_STRUCT),
            // Never a seek: a file cut inside a skipped section is truncated.
            Stage::Skip => Want::ReadTo(self.skip_to),
            Stage::Done => Want::Done,
        }
    }

    fn step<V: Visitor>(
        &mut self,
        unit: &[u8],
        at: u64,
        visitor: &mut V,
    ) -> Result<Stepped, Error> {
        self.pos = at;
        let stepped = match self.stage {
            Stage::Clump => Stepped::new(unit.len(), self.clump(unit, at, visitor)?),
            Stage::Header if unit.is_empty() => {
                let (_, end) = self.top();
                if at < end {
                    // Fewer bytes than a header before the section's end: padding.
                    self.stage = Stage::Padding;
                    Stepped::new(
                        0,
                        visitor.warning(Warning {
                            kind: WarningKind::TrailingData,
                            offset: at,
                        }),
                    )
                } else {
                    Stepped::new(0, self.close(visitor))
                }
            }
            Stage::Header => self.section(unit, at, visitor)?,
            Stage::Padding => {
                self.stage = Stage::Header;
                Stepped::new(0, Flow::Continue)
            }
            Stage::After => {
                let (section, size, version) = match unit.len() {
                    HEADER => header(unit),
                    _ => (0, 0, 0),
                };
                if section == 0 || !is_library_id(version) {
                    // Padding or other bytes: trailing data.
                    self.stage = Stage::Done;
                    return Ok(Stepped::new(0, Flow::Continue));
                }
                let end = at + HEADER as u64 + u64::from(size);
                self.skip(end, Stage::After);
                visitor.unit(&Unit::at(UnitKind::Record, at));
                let flow = visitor.record(&Record::RwSection(RwSection {
                    offset: at,
                    id: section,
                    size,
                    version,
                    parent: 0,
                }));
                Stepped::new(HEADER, flow)
            }
            Stage::Skip => {
                self.stage = self.then;
                Stepped::new(0, Flow::Continue)
            }
            Stage::Done => Stepped::new(unit.len(), Flow::Continue),
            _ => {
                if self.need(unit.len()).is_err() || unit.len() < 4 && self.stage != Stage::NodeName
                {
                    return Err(Error::new(ErrorKind::Malformed, self.leaf_at));
                }
                Stepped::new(unit.len(), self.fields(unit, at, visitor)?)
            }
        };
        self.pos = at + stepped.consumed as u64;
        Ok(stepped)
    }
}
