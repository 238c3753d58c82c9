// The structure of the document `decode()` returns: what `gtastream dump --json` prints, written
// by the library (gtastream::json). Floats that are NaN or infinite in the file are `null`.

// The record kinds' objects (Instance, Car, SectionLine, the DFF records, ...) follow from the
// core's declarations: records.ts is generated (tests/decode/record_types.rs).
import type { Car, IdeObject, Instance, SectionLine } from './records.js';

export type * from './records.js';

/** The file formats, by the name the command-line tool prints. */
export type Format = 'ANP3' | 'ANP2' | 'ANPK' | 'ANIM' | 'bnry' | 'text' | 'dff' | 'ide';

export interface Warning {
  /** Stable name (`size_mismatch`, `trailing_data`, ...). */
  kind: string;
  reason: string;
  /** Absolute byte offset of the field or record concerned. */
  offset: number;
}

/** A warning of a document (`decode()`, `IFPReader`) with where it was reported. */
export interface DocumentWarning extends Warning {
  /** Where it was reported (docs/FORMATS.md §7.5): the animation's 0-based index, null
   * between animations. */
  animation: number | null;
  /** The bone's 0-based index in that animation, null between bones. */
  bone: number | null;
  /** Text IPL: the line (from 1), else null. */
  line: number | null;
}

export interface Keyframe {
  /** Seconds from the start of the clip. */
  time: number | null;
  /** Quaternion x, y, z, w. */
  rotation: (number | null)[];
  /** Present when the bone's frame type stores one. */
  translation?: (number | null)[];
  scale?: (number | null)[];
}

export interface Bone {
  name: string | null;
  bone_id: number | null;
  bone_key: number | null;
  /** `ifp2_rot`, `ifp2_rot_trans`, `ifp2_packed_rot`, `ifp2_packed_rot_trans`, `kr00`, `krt0`,
   * `krts`, `stories_rot`, `stories_rot_trans`. */
  frame_type: string;
  frames: Keyframe[];
  /** The bone's header as stored (docs/FORMATS.md §9.7), null where the format keeps none:
   * `write()` keeps what the values do not fix. */
  raw: Uint8Array | null;
}

export interface Animation {
  name: string;
  frame_data_size: number | null;
  flags: number | null;
  duration: number | null;
  bones: Bone[];
  /** What the animation is (docs/ANIMATION.md): its length by the games' rule, the bones it
   * defines, how they are stored. */
  summary: AnimationSummary;
  /** The animation's header as stored, null where the format keeps none. */
  raw: Uint8Array | null;
}

export interface AnimationSummary {
  length: number | null;
  bones: number;
  empty_bones: number;
  keyframes: number;
  bones_with_id: number;
  bones_without_id: number;
  unmatched_bones: number;
  /** Names of the standard skeleton bones it defines (gtastream::skeleton). */
  standard_bones: string[];
  storage: { packed: number; float: number; translation: number; scale: number };
  mixed: boolean;
}

/** A line or record of a placement file as stored (docs/FORMATS.md §10). */
export interface StoredLine {
  item: 'instance' | 'car' | 'section_line' | 'text' | 'ide_object';
  /** Its index in `instances`, `cars`, `section_lines` or `objects`; null for `text` (a blank line, a
   * comment, a section name, `end`). */
  index: number | null;
  /** A text IPL's line as stored, with its line break, one character per byte (Latin-1);
   * null for a binary record. */
  raw: string | null;
}

/** A block of an `ANLF` container. */
export interface Block {
  /** Its package name. */
  name: string | null;
  /** Its `ANPK` header as stored (a view, as `raw`). */
  raw: Uint8Array | null;
  /** How many of the document's animations, in order, it holds. */
  animations: number;
}

/** A frame of a model (DFF) in frame-list order (docs/FORMATS.md §12). */
export interface ModelFrame {
  index: number;
  /** The parent frame's index; -1 for a root. */
  parent: number;
  /** The node name extension's name as stored, null where the frame has none. */
  name: string | null;
  /** The rotation: right, up and at vectors, 3 numbers each. */
  rotation: (number | null)[];
  position: (number | null)[];
  /** The HAnim node id (the bone id an animation's track names), null where none. */
  bone_id: number | null;
}

/** A model's parts (`format` `dff`): what `dump --json` prints of a DFF. */
export interface ModelParts {
  /** The clump's library id, `0x` and 8 hex digits (`0x1803FFFF`). */
  rw_version?: string;
  frames?: ModelFrame[];
  /** The HAnim hierarchy's node table in table order (id, index as stored, flags: 1 POP,
   * 2 PUSH), null where the model has none. */
  hanim?: { flags: number; nodes: { id: number; index: number; flags: number }[] } | null;
  /** The first skinned geometry's skin, null where none: the inverse bind matrices, 16
   * numbers each (4 columns of 4). */
  skin?: { bones: number; used_bones: number; max_weights: number;
    inverse_bind: (number | null)[][] } | null;
  /** Which frame each atomic's geometry hangs on. */
  atomics?: { frame: number; geometry: number }[];
  geometries?: { vertices: number; triangles: number; materials: number }[];
}

/** The document of a model alone (`format` `dff`). */
export interface ModelDocument extends Required<ModelParts> {
  format: 'dff';
}

/** The whole decoded file. A model (`format` `dff`) has only the keys of {@link ModelParts}
 * (see {@link ModelDocument}: no `warnings`, `raw` or `trailing`). Animation files have `animations` (and an `ANLF`'s `blocks` and
 * `container_size`); placement files `instances`, `cars`, `section_lines` (the lines of
 * sections kept as text) and `stored` (the file's order); IDE files (`format` `ide`)
 * `objects`, `section_lines` and `stored`. */
export interface GtaDocument extends ModelParts {
  format: Format | null;
  name: string | null;
  warnings: DocumentWarning[];
  /** The file's header as stored (docs/FORMATS.md §9.7), null where the format keeps none.
   * This, `trailing` and the `raw` of animations and bones are views of the buffers the
   * document's names came in (one an animation, one for the rest). */
  raw: Uint8Array | null;
  /** Bytes after the file's content, null where there are none. */
  trailing: Uint8Array | null;
  animations?: Animation[];
  instances?: Instance[];
  cars?: Car[];
  section_lines?: SectionLine[];
  /** An IDE file's model definitions (docs/FORMATS.md §12). */
  objects?: IdeObject[];
  /** A placement file's lines and records in file order, for writing it back as it is: null
   * where the lists in their order are the file (a binary IPL, instances before cars). Records
   * beyond it are written after it; an entry whose record is gone is skipped. */
  stored?: StoredLine[] | null;
  /** An `ANLF`'s blocks in order (null for any other file; none for an `ANLF` of no blocks).
   * The first block is written with the document's `name` and `raw` (its own, unless edited). */
  blocks?: Block[] | null;
  /** An `ANLF`'s `size` field as stored (null for any other file). */
  container_size?: number | null;
}

export interface DecodeOptions {
  /** The input can be re-read from an earlier offset (default true, as `dump` without
   * `--no-seek`); false decodes as a stream would (`dump --no-seek`). */
  canSeek?: boolean;
}

/** One entry of an IMG archive, as `gtastream ls --json` lists it. */
export interface ArchiveEntry {
  /** The name in the directory, one character per byte (Latin-1). */
  name: string;
  /** Absolute offset of the entry's first byte in the `.img`. */
  offset: number;
  /** Bytes of the entry the `.img` holds: its whole sectors, cut at the end of the file. */
  size: number;
  /** The format found in the entry's first bytes; null for content gtastream does not decode
   * (models, textures, collisions, empty entries). */
  format: Format | null;
  /** A model's counts (DFF entries only): null when it cannot be read. */
  model?: ModelCounts | null;
}

/** What a model holds, as an archive listing gives it (`gtastream ls --json`). */
export interface ModelCounts {
  /** The clump's RenderWare library id, `0x1803FFFF`. */
  rw_version: string;
  frames: number;
  /** Nodes of the HAnim tables (the bones an animation can bind by id). */
  bones: number;
  skinned: boolean;
}

/** An IMG archive's directory: what `gtastream ls --json` prints. */
export interface ArchiveListing {
  /** `VER2` (San Andreas, one `.img`) or `VER1` (GTA III and Vice City, `.img` and `.dir`). */
  format: 'VER2' | 'VER1';
  entries: ArchiveEntry[];
}

/** Options of `sample()`. */
export interface SampleOptions {
  /** Play looped: the time wraps by the animation's length, each bone on its own keys. */
  loop?: boolean;
  /** A model's DFF bytes: pose it (`sample --skeleton MODEL`), giving a {@link PoseOnModel}. */
  skeleton?: Uint8Array | ArrayBuffer;
  /** The game whose binding applies (`--game`); by default San Andreas for its formats, for
   * an ANPK the game the model is for. */
  game?: 'iii' | 'vc' | 'sa' | 'mta';
}

/** The pose on a model (`gtastream sample --skeleton MODEL --json`, docs/SKELETON.md §3). */
export interface PoseOnModel {
  animation: string;
  time: number | null;
  /** The game whose binding was applied (`iii`, `vc`, `sa`, `mta`). */
  game: string;
  bones: (Pose['bones'][number] & {
    /** The model's frame the track drives, null where it drives none. */
    frame: number | null;
    /** Why it drives none (`no_such_id`, `name_not_in_table`, `overridden`, ...), else null. */
    unbound: string | null;
  })[];
  /** Every frame of the model, in model space at that time: 16 numbers, column-major. */
  frames: { index: number; name: string | null; matrix: (number | null)[] }[];
}

/** The pose of one animation at a time (`gtastream sample --json`). */
export interface Pose {
  animation: string;
  time: number | null;
  bones: {
    name: string | null;
    bone_id: number | null;
    rotation: (number | null)[];
    translation: (number | null)[] | null;
  }[];
}
