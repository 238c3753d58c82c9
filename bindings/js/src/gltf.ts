// glTF 2.0 on a model's skeleton (docs/ANIMATION.md, "glTF"): an animation file's animations
// written by the library as `gtastream convert --to glb|gltf --skeleton MODEL` writes them.
import { GAME_NUMBERS } from './decode.js';
import type { SampleOptions } from './types.js';
import { DecodeError, wasm, withSink } from './wasm.js';

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
