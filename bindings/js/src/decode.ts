import type { DecodeOptions, GtaDocument, Keyframe } from './types.js';
import { type Buffers, buffersOf, keyframes, toDocument } from './view.js';
import { DecodeError, type Sink, wasm, withSink } from './wasm.js';

/**
 * Decodes a whole file into the document `gtastream dump --json` prints: the module decodes
 * it into compact buffers, turned into objects here (no JSON text in between). Throws a
 * {@link DecodeError} where the tool would fail.
 */
export function decode(data: Uint8Array | ArrayBuffer, options: DecodeOptions = {}): GtaDocument {
  const bones: Keyframe[][] = [];
  const buffers = documentBuffers(data, options.canSeek !== false, false, (memory, ptr, count,
    contents) => bones.push(keyframes(new Float64Array(memory, ptr, count), contents)));
  return toDocument(buffers, bones);
}

/** The document's buffers, `bone` taking each bone's values: f32 (`raw`) or the document's
 * f64. */
export function documentBuffers(data: Uint8Array | ArrayBuffer, canSeek: boolean,
  raw: boolean, bone: Sink['boneValues']): Buffers {
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
  const module = wasm();
  const len = bytes.length;
  const ptr = module.gts_alloc(len);
  try {
    new Uint8Array(module.memory.buffer, ptr, len).set(bytes);
    return buffersOf(module, () => module.gts_document(ptr, len, canSeek ? 1 : 0, raw ? 1 : 0),
      bone);
  } finally {
    module.gts_free(ptr, len);
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
