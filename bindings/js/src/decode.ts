import type { DecodeOptions, GtaDocument } from './types.js';
import { DecodeError, wasm, withSink } from './wasm.js';

/**
 * Decodes a whole file into the document `gtastream dump --json` prints (the library writes it,
 * the module hands it over as text). Throws a {@link DecodeError} where the tool would fail.
 */
export function decode(data: Uint8Array | ArrayBuffer, options: DecodeOptions = {}): GtaDocument {
  return JSON.parse(decodeJson(data, options)) as GtaDocument;
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
