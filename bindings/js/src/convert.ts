// Conversion between formats: the library's decoder's events straight into its encoder, in the
// module, as `gtastream convert --to FORMAT` does.
import { DecodeError, EncodeError, wasm, withSink } from './wasm.js';

/** The formats the library writes, by the names the command-line tool prints. */
export type TargetFormat = 'ANP3' | 'ANP2' | 'ANPK' | 'bnry' | 'text';

export interface ConvertOptions {
  /** Round float keyframes to the packed form of ANP3/ANP2 instead of refusing them
   * (`convert --quantize`). */
  quantize?: boolean;
}

/**
 * The file converted to `format` (any case): the bytes `gtastream convert --to FORMAT` writes.
 * Throws a {@link DecodeError} where the input does not decode, an {@link EncodeError} where it
 * cannot be written in that format without loss (e.g. float keyframes to ANP3 without
 * `quantize`), a `RangeError` for a format the library does not write.
 */
export function convert(data: Uint8Array | ArrayBuffer, format: TargetFormat | string,
  options: ConvertOptions = {}): Uint8Array {
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
  const name = new TextEncoder().encode(format);
  const module = wasm();
  const ptr = module.gts_alloc(bytes.length + name.length);
  let output: Uint8Array | undefined;
  let failure: DecodeError | EncodeError | undefined;
  try {
    new Uint8Array(module.memory.buffer, ptr, bytes.length).set(bytes);
    new Uint8Array(module.memory.buffer, ptr + bytes.length, name.length).set(name);
    const rc = withSink(module, {
      output: (b) => (output = b),
      error: (e) => (failure = e),
      encodeError: (e) => (failure = e),
    }, () => module.gts_convert(ptr, bytes.length, ptr + bytes.length, name.length,
      options.quantize ? 1 : 0));
    if (failure) throw failure;
    if (rc === 2) {
      throw new RangeError(`gtastream: cannot write format ${format} (ANP3, ANP2, ANPK, bnry, text)`);
    }
    if (rc !== 0 || !output) throw new Error('gtastream: the conversion gave no output');
    return output;
  } finally {
    module.gts_free(ptr, bytes.length + name.length);
  }
}
