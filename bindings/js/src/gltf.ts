// glTF 2.0 on a model's skeleton (docs/ANIMATION.md, "glTF"): an animation file's animations
// written by the library as `gtastream convert --to glb|gltf --skeleton MODEL` writes them.
import { GAME_BITS, type CheckGame } from './check.js';
import { GAME_NUMBERS } from './decode.js';
import type { SampleOptions } from './types.js';
import { DecodeError, EncodeError, wasm, withSink } from './wasm.js';

export interface GltfOptions {
  /** The animations to write, by name (as the games look names up); by default all. */
  animations?: string[];
  /** The game whose binding applies (`--game`); by default San Andreas for its formats, for an
   * ANPK the game the model is for. */
  game?: SampleOptions['game'];
  /** Write a `.gltf` (JSON, the buffer embedded) instead of a binary `.glb`. */
  json?: boolean;
}

/** A track the glTF leaves out, and why (`gtastream::gltf::export::Unwritten`). */
export interface GltfUnwritten {
  animation: string;
  /** The track's position in its animation. */
  track: number;
  name: string | null;
  bone_id: number | null;
  /** A stable name: the binding's reason (`no_such_id`, ...), `overridden`,
   * `decreasing_time`, `step_collision` or `not_finite`. */
  reason: string;
  message: string;
  /** The key that could not be written. */
  key?: number;
  /** The later track that holds the same frame. */
  by?: number;
}

/** What {@link toGltf} wrote (`Export::report`, the same object in Python's `to_gltf`). */
export interface GltfReport {
  /** Animations written. */
  animations: number;
  /** Animations left out: no track to write. */
  empty: string[];
  unwritten: GltfUnwritten[];
}

export interface GltfResult extends GltfReport {
  /** The `.glb` (or, with `json`, `.gltf`) file. */
  bytes: Uint8Array;
}

/**
 * The animations of `data` (an IFP or Stories file, or an archive entry's bytes) as glTF on the
 * skeleton of `model` (a DFF): a node per frame, a skin where the model has one, an animation
 * per IFP animation with its keys as stored. Throws a {@link DecodeError} where either file does
 * not decode (kind `not_found`, as `sample()`'s, for an animation the file lacks).
 */
export function toGltf(data: Uint8Array | ArrayBuffer, model: Uint8Array | ArrayBuffer,
  options: GltfOptions = {}): GltfResult {
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
  const dff = model instanceof Uint8Array ? model : new Uint8Array(model);
  const names = new TextEncoder().encode((options.animations ?? []).map((n) => `${n}\0`).join(''));
  const module = wasm();
  const size = bytes.length + dff.length + names.length;
  const ptr = module.gts_alloc(size);
  let output: Uint8Array | undefined;
  const pieces: string[] = [];
  let failure: DecodeError | undefined;
  try {
    const memory = () => new Uint8Array(module.memory.buffer);
    memory().set(bytes, ptr);
    memory().set(dff, ptr + bytes.length);
    memory().set(names, ptr + bytes.length + dff.length);
    const rc = withSink(module, {
      output: (b) => (output = b),
      text: (piece) => pieces.push(piece),
      error: (e) => (failure = e),
    }, () => module.gts_gltf(ptr, bytes.length, ptr + bytes.length, dff.length,
      ptr + bytes.length + dff.length, names.length,
      options.game ? GAME_NUMBERS[options.game] : 0, options.json ? 0 : 1));
    if (failure) throw failure;
    if (rc !== 0 || !output) throw new Error('gtastream: the module gave no glTF');
  } finally {
    module.gts_free(ptr, size);
  }
  const report = JSON.parse(pieces.join('')) as GltfReport;
  return { bytes: output, ...report };
}

export interface FromGltfOptions {
  /** The IFP format to write: `anp3` (the default), `anp2` or `anpk` (any case). */
  format?: string;
  /** The package (block) name written; by default `ped`. Name it as the file the games load. */
  block?: string;
  /** The glTF animations to take, by name; by default all. */
  animations?: string[];
  /** A model's DFF bytes: nodes are mapped by its frame names (`--skeleton`). */
  skeleton?: Uint8Array | ArrayBuffer;
  /** A bone map's text, one `glTF-name = GTA name|id` a line (`--bone-map`; docs/ANIMATION.md
   * has maps for common rigs). */
  boneMap?: string;
  /** Resample every track at this many keys a second (`--resample`). */
  resample?: number;
  /** IFP2: round every value to the packed steps (`--quantize`). */
  quantize?: boolean;
  /** The games the output is checked for (`--game`); by default every game that loads it. */
  games?: CheckGame[];
  /** Measure each bone's largest difference between the glTF and the file (`--report`). */
  report?: boolean;
}

/** A bone's largest difference between the glTF's pose and the written file's. */
export interface GltfBoneReport {
  animation: string;
  bone: string;
  node: string;
  /** Degrees. */
  angle: number;
  /** Metres. */
  position: number;
}

/** What {@link fromGltf} wrote (`Imported::summary`, the same object in Python's
 * `from_gltf`). */
export interface FromGltfResult {
  /** The IFP file. */
  bytes: Uint8Array;
  /** Animations written. */
  animations: number;
  /** What was skipped or changed (a channel on a node no bone maps to, scale dropped), a
   * line each. */
  notes: string[];
  /** With `report`: per bone. */
  report: GltfBoneReport[];
}

/**
 * A `.glb` (or a `.gltf` with its buffers embedded) written as an IFP, as `gtastream convert
 * --to anp3 IN.glb OUT.ifp` writes it (docs/ANIMATION.md, "From glTF"): each channel's node
 * mapped to a bone (the bone map, gtastream's node extras, the model's frame names, the standard
 * bone names), keys kept exactly unless `resample` or `quantize`, the output checked for the
 * games before it is given. Throws an {@link EncodeError} whose `kind` is the import's (`glb`,
 * `json`, `key`, `unmapped`, `check`, ...) with a message naming the animation, node or key; a
 * {@link DecodeError} when `skeleton` is no model; a `RangeError` for another format.
 */
export function fromGltf(data: Uint8Array | ArrayBuffer,
  options: FromGltfOptions = {}): FromGltfResult {
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
  const encoder = new TextEncoder();
  const format = encoder.encode(options.format ?? 'anp3');
  const block = encoder.encode(options.block ?? 'ped');
  const names = encoder.encode((options.animations ?? []).map((n) => `${n}\0`).join(''));
  const model = options.skeleton === undefined ? new Uint8Array(0)
    : options.skeleton instanceof Uint8Array ? options.skeleton : new Uint8Array(options.skeleton);
  const map = encoder.encode(options.boneMap ?? '');
  const parts = [bytes, format, block, names, model, map];
  const module = wasm();
  const size = parts.reduce((n, p) => n + p.length, 0);
  const ptr = module.gts_alloc(size);
  let output: Uint8Array | undefined;
  const pieces: string[] = [];
  let failure: DecodeError | EncodeError | undefined;
  try {
    const at: number[] = [];
    let offset = ptr;
    for (const part of parts) {
      new Uint8Array(module.memory.buffer, offset, part.length).set(part);
      at.push(offset);
      offset += part.length;
    }
    const games = (options.games ?? []).reduce((bits, g) => bits | GAME_BITS[g], 0);
    const rc = withSink(module, {
      output: (b) => (output = b),
      text: (piece) => pieces.push(piece),
      error: (e) => (failure = e),
      encodeError: (e) => (failure = e),
    }, () => module.gts_from_gltf(at[0], bytes.length, at[1], format.length, at[2], block.length,
      at[3], names.length, at[4], model.length, at[5], map.length, options.resample ?? 0,
      options.quantize ? 1 : 0, games, options.report ? 1 : 0));
    if (failure) throw failure;
    if (rc === 2) {
      throw new RangeError(`gtastream: fromGltf writes anp3, anp2 or anpk, not ${options.format}`);
    }
    if (rc !== 0 || !output) throw new Error('gtastream: the module gave no file');
  } finally {
    module.gts_free(ptr, size);
  }
  const summary = JSON.parse(pieces.join('')) as Omit<FromGltfResult, 'bytes'>;
  return { bytes: output, ...summary };
}
