import type {
  AnimationSummary, DecodeOptions, GtaDocument, Keyframe, Pose, PoseOnModel, SampleOptions,
} from './types.js';
import { type Buffers, buffersOf, keyframes, newTimes, toDocument } from './view.js';
import { DecodeError, type Sink, wasm, withSink } from './wasm.js';

/**
 * Decodes a whole file into the document `gtastream dump --json` prints: the module decodes
 * it into compact buffers, turned into objects here (no JSON text in between). Throws a
 * {@link DecodeError} where the tool would fail.
 */
export function decode(data: Uint8Array | ArrayBuffer, options: DecodeOptions = {}): GtaDocument {
  const bones: Keyframe[][] = [];
  const times = newTimes();
  const buffers = documentBuffers(data, options.canSeek !== false, false, (memory, ptr, count,
    contents) => bones.push(keyframes(new Float64Array(memory, ptr, count), contents, times)));
  return toDocument(buffers, bones);
}

/** The document's buffers, `bone` taking each bone's values: f32 (`raw`) or the document's
 * f64. The module decodes the file from pieces copied into its input buffer, following its
 * seeks: it never holds the whole file (its memory, once grown, stays). */
export function documentBuffers(data: Uint8Array | ArrayBuffer, canSeek: boolean,
  raw: boolean, bone: Sink['boneValues']): Buffers {
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
  const module = wasm();
  const stream = module.gts_document_new(canSeek ? 1 : 0, raw ? 1 : 0);
  const input = module.gts_input();
  const size = module.gts_input_size();
  let status = 0;
  let next = 0;
  const progress: Sink['progress'] = (consumed, s, seek) => {
    status = s;
    next = s === 3 ? seek : next + consumed;
  };
  try {
    return buffersOf(module, () => {
      for (;;) {
        const at = next;
        const len = Math.max(0, Math.min(size, bytes.length - at));
        // The memory's buffer changes when it grows: a new view each time.
        new Uint8Array(module.memory.buffer, input, len).set(bytes.subarray(at, at + len));
        if (module.gts_document_feed(stream, len) !== 0) return 1;
        // 0: more input wanted, 1: paused, 2: done, 3: seek (`next` is where to).
        if (status === 2 || (status === 0 && next >= bytes.length)) break;
      }
      return module.gts_document_finish(stream);
    }, bone, progress);
  } finally {
    module.gts_document_free(stream);
  }
}

/** The same document as JSON text, exactly as `gtastream dump --json` prints it. */
export function decodeJson(data: Uint8Array | ArrayBuffer, options: DecodeOptions = {}): string {
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
  const module = wasm();
  const len = bytes.length;
  const ptr = module.gts_alloc(len);
  const pieces: string[] = [];
  let failure: DecodeError | undefined;
  try {
    new Uint8Array(module.memory.buffer, ptr, len).set(bytes);
    const rc = withSink(
      module,
      { text: (piece) => pieces.push(piece), error: (e) => (failure = e) },
      () => module.gts_json(ptr, len, options.canSeek === false ? 0 : 1),
    );
    if (failure) {
      throw failure;
    }
    if (rc !== 0) {
      throw new Error('gtastream: the document could not be written');
    }
  } finally {
    module.gts_free(ptr, len);
  }
  return pieces.join('');
}

/**
 * The pose of the animation `animation` (any case, trimmed) at `time` seconds, as the games
 * compute it: the document `gtastream sample --json` prints (docs/ANIMATION.md). With
 * `options.skeleton` (a model's DFF bytes), the document of `sample --skeleton` (docs/SKELETON.md
 * §3): each bone's frame and every frame of the model in model space. Throws a
 * {@link DecodeError} (`not_found`, `endless`, `bad_time`, `not_model`, or a decoding error)
 * where the tool would fail.
 */
export function sample(data: Uint8Array | ArrayBuffer, animation: string, time: number,
  options: SampleOptions & { skeleton: Uint8Array | ArrayBuffer }): PoseOnModel;
export function sample(data: Uint8Array | ArrayBuffer, animation: string, time: number,
  options?: SampleOptions): Pose;
export function sample(data: Uint8Array | ArrayBuffer, animation: string, time: number,
  options: SampleOptions = {}): Pose | PoseOnModel {
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
  // Names are bytes, one character per byte.
  const name = Uint8Array.from(animation, (c) => c.charCodeAt(0) & 0xff);
  const model = options.skeleton === undefined ? undefined
    : options.skeleton instanceof Uint8Array ? options.skeleton : new Uint8Array(options.skeleton);
  const module = wasm();
  const size = bytes.length + name.length + (model?.length ?? 0);
  const ptr = module.gts_alloc(size);
  const pieces: string[] = [];
  let failure: DecodeError | undefined;
  try {
    new Uint8Array(module.memory.buffer, ptr, bytes.length).set(bytes);
    new Uint8Array(module.memory.buffer, ptr + bytes.length, name.length).set(name);
    const at = ptr + bytes.length + name.length;
    if (model) new Uint8Array(module.memory.buffer, at, model.length).set(model);
    const looped = options.loop ? 1 : 0;
    const rc = withSink(
      module,
      { text: (piece) => pieces.push(piece), error: (e) => (failure = e) },
      () => (model
        ? module.gts_sample_skeleton_json(ptr, bytes.length, ptr + bytes.length, name.length, at,
          model.length, time, looped, options.game ? GAME_NUMBERS[options.game] : 0)
        : module.gts_sample_json(ptr, bytes.length, ptr + bytes.length, name.length, time,
          looped)),
    );
    if (failure) {
      throw failure;
    }
    if (rc !== 0) {
      throw new Error('gtastream: the pose could not be written');
    }
  } finally {
    module.gts_free(ptr, size);
  }
  return JSON.parse(pieces.join('')) as Pose | PoseOnModel;
}

/** The games' numbers of the module's binding (`--game` of `sample --skeleton`). */
/** The module's numbers of the games whose binding applies (wasm/src/lib.rs `host`). */
export const GAME_NUMBERS = { iii: 1, vc: 2, sa: 3, mta: 4 } as const;

/**
 * Each animation's summary, in the file's order: its length by the games' rule, the bones it
 * defines, their storage (the `summary` of each animation in {@link decode}'s document, without
 * building the rest of it; docs/ANIMATION.md). Throws a {@link DecodeError} where
 * `gtastream dump` would fail.
 */
export function summaries(data: Uint8Array | ArrayBuffer): AnimationSummary[] {
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
  const module = wasm();
  const ptr = module.gts_alloc(bytes.length);
  const pieces: string[] = [];
  let failure: DecodeError | undefined;
  try {
    new Uint8Array(module.memory.buffer, ptr, bytes.length).set(bytes);
    const rc = withSink(
      module,
      { text: (piece) => pieces.push(piece), error: (e) => (failure = e) },
      () => module.gts_summaries_json(ptr, bytes.length),
    );
    if (failure) {
      throw failure;
    }
    if (rc !== 0) {
      throw new Error('gtastream: the summaries could not be written');
    }
  } finally {
    module.gts_free(ptr, bytes.length);
  }
  return JSON.parse(pieces.join('')) as AnimationSummary[];
}
