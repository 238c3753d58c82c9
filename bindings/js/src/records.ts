// Generated from the core's record declarations (src/record.rs, `for_each_record!`) by
// tests/decode/record_types.rs: do not edit. Each kind's object, as the document and the
// events have it, and its fields in order for the module's generic record buffers.

/**
 * A placed object: a binary IPL instance or a text IPL `inst` line. (`Default`
 * gives zeros and no name or scale: other crates cannot name every field of a
 * `#[non_exhaustive]` struct, so an encoder's caller starts from it.)
 */
export interface Instance {
  /** The object's model id. */
  model_id: number;
  /** Text IPL: the model name. */
  model_name: string | null;
  /** Low 8 bits: the area code (13 = visible everywhere); bits 8..12: flags. 0 where the line has no interior (GTA III). */
  interior: number;
  /** World position. */
  position: (number | null)[];
  /** Quaternion `x, y, z, w` as stored. */
  rotation: (number | null)[];
  /** Text IPL of GTA III and Vice City: the scale. */
  scale: (number | null)[] | null;
  /** Index of the LOD instance in the companion text IPL; −1 = none (and where absent). */
  lod: number;
}

/**
 * A car generator: a binary IPL car record or a text IPL `cars` line (`Default`:
 * zeros).
 */
export interface Car {
  /** World position. */
  position: (number | null)[];
  /** Heading in radians. */
  angle: number | null;
  /** Vehicle model id; −1 = random. */
  model_id: number;
  /** −1 = random. */
  primary_color: number;
  /** −1 = random. */
  secondary_color: number;
  /** Bit 0: force spawn; bit 1: ignore the population limit. */
  flags: number;
  /** Percent. */
  alarm_chance: number;
  /** Percent. */
  door_lock_chance: number;
  /** Minimum delay. */
  min_delay: number;
  /** Maximum delay. */
  max_delay: number;
}

/**
 * A line of a text IPL section the decoder does not interpret (`cull`, `path`,
 * `enex`, ...), passed through for tools.
 */
export interface SectionLine {
  /** The section's name, lower case (`cull`, `grge`, ...; a section the games do not know: the bare word that opened it, `wanted`); `""` for a line outside any section. */
  section: string;
  /** The line without its line break and surrounding blanks. */
  text: string;
}

/**
 * An object definition: a line of an IDE section that defines a model (`objs`,
 * `tobj`, `anim`, `weap`, `hier`, `cars`, `peds`), with the fields every front end
 * needs by name; the others are in its text (docs/FORMATS.md §12).
 */
export interface IdeObject {
  /** The section's name (`objs`, `tobj`, `anim`, `weap`, `hier`, `cars`, `peds`). */
  section: string;
  /** The model id. */
  id: number;
  /** The model's name (its `.dff` without the extension). */
  model_name: string;
  /** The texture dictionary's name (its `.txd` without the extension). */
  txd_name: string;
  /** `objs`, `tobj`: the number of meshes of the layout that states it (every game); absent in San Andreas' short layout. */
  mesh_count: number | null;
  /** `objs`, `tobj`, `anim`, `weap`: the draw distance (the first, with several meshes). */
  draw_distance: number | null;
  /** `objs`, `tobj`, `anim`: the flags. */
  flags: number | null;
  /** `tobj`: the hour the object appears. */
  time_on: number | null;
  /** `tobj`: the hour it disappears. */
  time_off: number | null;
  /** `anim`: the animation block (`.ifp`) it uses; `weap`: its animation. */
  animation: string | null;
  /** The line without its line break and surrounding blanks. */
  text: string;
}

/**
 * RenderWare: a section the reader does not interpret, skipped (its id, library
 * version and size as stored).
 */
export interface RwSection {
  /** Absolute offset of the section's 12-byte header. */
  offset: number;
  /** The section id (`0x0253F2FE`: node name, ...). */
  id: number;
  /** Bytes after the header, as stored. */
  size: number;
  /** The library id (version and build) as stored. */
  version: number;
  /** The id of the section it lies in (0 at the top level). */
  parent: number;
}

/**
 * DFF: the clump's counts (its struct).
 */
export interface DffClump {
  /** Atomics. */
  atomics: number;
  /** Lights (RenderWare 3.3 and later). */
  lights: number | null;
  /** Cameras (RenderWare 3.3 and later). */
  cameras: number | null;
}

/**
 * DFF: a frame of the clump's frame list (its matrix as stored; its name and bone
 * id come in [`DffFrameName`] and [`DffHAnim`] records after the list).
 */
export interface DffFrame {
  /** Its index in the frame list. */
  index: number;
  /** The rotation matrix: right, up and at vectors, 3 floats each. */
  rotation: (number | null)[];
  /** The position relative to the parent. */
  position: (number | null)[];
  /** The parent frame's index; −1 for a root. */
  parent: number;
  /** The matrix flags as stored. */
  flags: number;
}

/**
 * DFF: a frame's name (the node name extension, `0x0253F2FE`).
 */
export interface DffFrameName {
  /** The frame's index. */
  frame: number;
  /** The name as stored (no NUL). */
  name: string;
}

/**
 * DFF: a frame's HAnim extension (`0x011E`): its node id and, on the root of a
 * hierarchy, the node table's header ([`DffHAnimNode`] records follow).
 */
export interface DffHanim {
  /** The frame's index. */
  frame: number;
  /** The extension's version (`0x100`). */
  version: number;
  /** The frame's node id (the bone id an animation's track names). */
  node_id: number;
  /** Nodes of the table this frame carries (0 on a frame that only has an id). */
  node_count: number;
  /** The hierarchy's flags (with a table). */
  flags: number | null;
  /** The key frame size (with a table). */
  key_frame_size: number | null;
}

/**
 * DFF: a node of an HAnim hierarchy's table, in table order.
 */
export interface DffHanimNode {
  /** The frame that carries the table. */
  frame: number;
  /** The node's position in the table (the index the engine binds by). */
  index: number;
  /** The node id. */
  node_id: number;
  /** The node index as stored (the engine never reads it). */
  node_index: number;
  /** Bit 0: POP (the next node's parent is the one before this branch); bit 1: PUSH (this node's parent is kept for the next branch). */
  flags: number;
}

/**
 * DFF: a geometry of the clump's geometry list: its counts, its arrays skipped.
 */
export interface DffGeometry {
  /** Its index in the geometry list. */
  index: number;
  /** The format flags as stored. */
  flags: number;
  /** Triangles. */
  triangles: number;
  /** Vertices. */
  vertices: number;
  /** Morph targets. */
  morph_targets: number;
  /** Materials of its material list. */
  materials: number;
}

/**
 * DFF: a geometry's skin (`0x0116`): the bones its vertices are weighted to
 * ([`DffSkinBone`] records follow with the inverse bind matrices).
 */
export interface DffSkin {
  /** The geometry's index. */
  geometry: number;
  /** Bones. */
  bones: number;
  /** Bones the vertices use. */
  used_bones: number;
  /** Weights per vertex at most (0 in the old layout: then computed). */
  max_weights: number;
  /** 0: the old layout (RenderWare 3.2 and before: a 4-byte marker before each matrix); 1: the later one. */
  layout: number;
}

/**
 * DFF: a bone of a skin: its inverse bind matrix.
 */
export interface DffSkinBone {
  /** The geometry's index. */
  geometry: number;
  /** The bone's index (in the HAnim table's order). */
  bone: number;
  /** The matrix from the model to the bone, 4 columns of 4 floats as stored. */
  inverse_bind: (number | null)[];
}

/**
 * DFF: an atomic: a geometry hung on a frame.
 */
export interface DffAtomic {
  /** Its index in the clump. */
  index: number;
  /** The frame's index. */
  frame: number;
  /** The geometry's index. */
  geometry: number;
  /** The flags as stored. */
  flags: number;
}

/** Each kind's object by its name. */
export interface RecordTypes {
  instance: Instance;
  car: Car;
  section_line: SectionLine;
  ide_object: IdeObject;
  rw_section: RwSection;
  dff_clump: DffClump;
  dff_frame: DffFrame;
  dff_frame_name: DffFrameName;
  dff_hanim: DffHanim;
  dff_hanim_node: DffHanimNode;
  dff_geometry: DffGeometry;
  dff_skin: DffSkin;
  dff_skin_bone: DffSkinBone;
  dff_atomic: DffAtomic;
}

/** A record kind's name (`instance`, `dff_frame`, ...). */
export type RecordKind = keyof RecordTypes;

/** A field's type: an integer, a float (NaN: null), n floats, or text (one character a
 * byte). */
export type FieldCode = 'i32' | 'u32' | 'u64' | 'f32' | 'text' | number;

/** The kinds in the core's order (the module's kind numbers), each with its document's
 * fields in order: name, type, whether it may be null. */
export const RECORD_KINDS: readonly (readonly [RecordKind, readonly (readonly [string, FieldCode, boolean])[]])[] = [
  ['instance', [['model_id', 'i32', false], ['model_name', 'text', true], ['interior', 'u32', false], ['position', 3, false], ['rotation', 4, false], ['scale', 3, true], ['lod', 'i32', false]]],
  ['car', [['position', 3, false], ['angle', 'f32', false], ['model_id', 'i32', false], ['primary_color', 'i32', false], ['secondary_color', 'i32', false], ['flags', 'i32', false], ['alarm_chance', 'i32', false], ['door_lock_chance', 'i32', false], ['min_delay', 'i32', false], ['max_delay', 'i32', false]]],
  ['section_line', [['section', 'text', false], ['text', 'text', false]]],
  ['ide_object', [['section', 'text', false], ['id', 'i32', false], ['model_name', 'text', false], ['txd_name', 'text', false], ['mesh_count', 'i32', true], ['draw_distance', 'f32', true], ['flags', 'u32', true], ['time_on', 'i32', true], ['time_off', 'i32', true], ['animation', 'text', true], ['text', 'text', false]]],
  ['rw_section', [['offset', 'u64', false], ['id', 'u32', false], ['size', 'u32', false], ['version', 'u32', false], ['parent', 'u32', false]]],
  ['dff_clump', [['atomics', 'u32', false], ['lights', 'u32', true], ['cameras', 'u32', true]]],
  ['dff_frame', [['index', 'u32', false], ['rotation', 9, false], ['position', 3, false], ['parent', 'i32', false], ['flags', 'u32', false]]],
  ['dff_frame_name', [['frame', 'u32', false], ['name', 'text', false]]],
  ['dff_hanim', [['frame', 'u32', false], ['version', 'u32', false], ['node_id', 'i32', false], ['node_count', 'u32', false], ['flags', 'u32', true], ['key_frame_size', 'u32', true]]],
  ['dff_hanim_node', [['frame', 'u32', false], ['index', 'u32', false], ['node_id', 'i32', false], ['node_index', 'i32', false], ['flags', 'u32', false]]],
  ['dff_geometry', [['index', 'u32', false], ['flags', 'u32', false], ['triangles', 'u32', false], ['vertices', 'u32', false], ['morph_targets', 'u32', false], ['materials', 'u32', false]]],
  ['dff_skin', [['geometry', 'u32', false], ['bones', 'u32', false], ['used_bones', 'u32', false], ['max_weights', 'u32', false], ['layout', 'u32', false]]],
  ['dff_skin_bone', [['geometry', 'u32', false], ['bone', 'u32', false], ['inverse_bind', 16, false]]],
  ['dff_atomic', [['index', 'u32', false], ['frame', 'u32', false], ['geometry', 'u32', false], ['flags', 'u32', false]]],
];
