// Writing files: a file converted between formats (the library's decoder's events straight into
// its encoder, in the module, as `gtastream convert --to FORMAT` does), and a document (from
// `decode()`, perhaps edited) written by the same encoder.
import { RECORD_KINDS, type RecordKind, type RecordTypes } from './records.js';
import type { GtaDocument, Keyframe } from './types.js';
import { DecodeError, EncodeError, type Exports, wasm, withSink } from './wasm.js';

/** The formats the library writes, by the names the command-line tool prints. */
export type TargetFormat = 'ANP3' | 'ANP2' | 'ANPK' | 'bnry' | 'text';

export interface ConvertOptions {
  /** Round float keyframes to the packed form of ANP3/ANP2 instead of refusing them
   * (`convert --quantize`). */
  quantize?: boolean;
  /** Write a clean file (`convert --normalise`): zeroed name tails, every size, `frameDataSize`
   * and `flags` computed, nothing after the content. By default a file written to its own
   * format keeps what its exporter stored around the values: unedited, it comes back byte for
   * byte (docs/FORMATS.md §9.7). */
  normalise?: boolean;
}

export interface WriteOptions extends ConvertOptions {
  /** The format to write (any case); by default the document's own. */
  format?: TargetFormat | string;
}

const writable = 'ANP3, ANP2, ANPK, bnry, text';

/** Runs one writing call of the module: its output, or the error it reported. */
function written(module: Exports, call: () => number, format: string): Uint8Array {
  let output: Uint8Array | undefined;
  let failure: DecodeError | EncodeError | undefined;
  const rc = withSink(module, {
    output: (b) => (output = b),
    error: (e) => (failure = e),
    encodeError: (e) => (failure = e),
  }, call);
  if (failure) throw failure;
  if (rc === 2) throw new RangeError(`gtastream: cannot write format ${format} (${writable})`);
  if (rc !== 0 || !output) throw new Error('gtastream: the module gave no output');
  return output;
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
  try {
    new Uint8Array(module.memory.buffer, ptr, bytes.length).set(bytes);
    new Uint8Array(module.memory.buffer, ptr + bytes.length, name.length).set(name);
    return written(module, () => module.gts_convert(ptr, bytes.length, ptr + bytes.length,
      name.length, options.quantize ? 1 : 0, options.normalise ? 1 : 0), format);
  } finally {
    module.gts_free(ptr, bytes.length + name.length);
  }
}

/** A document in the buffers `gts_write` reads (wasm/src/document.rs): numbers, the bytes of
 * names and stored units, keyframe floats. */
class Buffers {
  records: number[] = [];
  chunks: Uint8Array[] = [];
  size = 0;
  values: Float32Array;
  valueAt = 0;

  constructor(values: number) {
    this.values = new Float32Array(values);
  }

  /** `bytes`' start and length (-1: none). */
  bytes(bytes: Uint8Array | null | undefined): void {
    if (!bytes) {
      this.records.push(0, -1);
      return;
    }
    this.records.push(this.size, bytes.length);
    this.chunks.push(bytes);
    this.size += bytes.length;
  }

  /** A name, one byte per character (Latin-1, as decode() reads them); length -2 for one that
   * is not Latin-1, refused by the encoder. */
  name(name: string | null | undefined): void {
    if (name === null || name === undefined) {
      this.records.push(0, -1);
      return;
    }
    const bytes = new Uint8Array(name.length);
    for (let i = 0; i < name.length; i++) {
      const c = name.charCodeAt(i);
      if (c > 0xff) {
        this.records.push(0, -2);
        return;
      }
      bytes[i] = c;
    }
    this.bytes(bytes);
  }

  /** A number as the document has it; null (NaN or an infinity in the file) is NaN. */
  number(value: number | null | undefined): void {
    this.records.push(value ?? NaN);
  }

  value(v: number | null | undefined): void {
    this.values[this.valueAt++] = v ?? NaN;
  }

  three(v: (number | null)[] | undefined): void {
    this.value(v?.[0]);
    this.value(v?.[1]);
    this.value(v?.[2]);
  }

  joined(): Uint8Array {
    const out = new Uint8Array(this.size);
    let at = 0;
    for (const chunk of this.chunks) {
      out.set(chunk, at);
      at += chunk.length;
    }
    return out;
  }
}

/** A stored line's item by the number `gts_write` reads. */
const items = ['instance', 'car', 'section_line', 'text', 'ide_object'];

/** Each kind's fields by its name (records.ts, generated from the core's declarations). */
const FIELDS = new Map(RECORD_KINDS);

/** A count, then each record as the module reads any record: its fields in declared order, an
 * optional one after 0 (null) or 1; n floats in `values` (f32). */
function writeRecords<K extends RecordKind>(w: Buffers, kind: K, records: RecordTypes[K][]): void {
  const fields = FIELDS.get(kind) ?? [];
  w.number(records.length);
  for (const record of records) {
    const values = record as unknown as Record<string, unknown>;
    for (const [name, code, optional] of fields) {
      const value = values[name];
      if (optional) {
        w.number(value === null || value === undefined ? 0 : 1);
        if (value === null || value === undefined) continue;
      }
      if (code === 'text') w.name(value as string | null | undefined);
      else if (typeof code === 'number') {
        // n floats go with the keyframes' f32 values, after them.
        for (let i = 0; i < code; i++) w.value((value as (number | null)[] | undefined)?.[i]);
      } else w.number(value as number | null | undefined);
    }
  }
}

/** The document in buffers, in the order `gts_write` reads it. */
function toBuffers(doc: GtaDocument): Buffers {
  const animations = doc.animations ?? [];
  // Each bone's frames store what its first frame has.
  const contents = (frames: Keyframe[]) =>
    (frames[0]?.translation ? 1 : 0) | (frames[0]?.scale ? 2 : 0);
  let floats = 0;
  for (const a of animations) {
    for (const b of a.bones) {
      const c = contents(b.frames);
      floats += b.frames.length * (5 + (c & 1 ? 3 : 0) + (c & 2 ? 3 : 0));
    }
  }
  // The records' float fields go in the same f32 values.
  for (const [kind, list] of [['instance', doc.instances], ['car', doc.cars],
    ['section_line', doc.section_lines], ['ide_object', doc.objects]] as const) {
    for (const record of list ?? []) {
      const values = record as unknown as Record<string, unknown>;
      for (const [name, code, optional] of FIELDS.get(kind) ?? []) {
        const present = values[name] !== null && values[name] !== undefined;
        if (typeof code === 'number' && (present || !optional)) floats += code;
      }
    }
  }
  const w = new Buffers(floats);
  w.name(doc.format);
  w.name(doc.name);
  w.bytes(doc.raw);
  w.bytes(doc.trailing);
  // -1: null.
  const blocks = doc.blocks ?? null;
  w.number(blocks ? blocks.length : -1);
  for (const b of blocks ?? []) {
    w.name(b.name);
    w.bytes(b.raw);
    w.number(b.animations);
  }
  w.number(doc.container_size);
  w.number(animations.length);
  for (const a of animations) {
    w.name(a.name);
    w.bytes(a.raw);
    w.number(a.bones.length);
    for (const b of a.bones) {
      const c = contents(b.frames);
      w.name(b.name);
      w.number(b.bone_id);
      w.number(b.bone_key);
      w.name(b.frame_type);
      w.bytes(b.raw);
      w.number(c);
      w.number(b.frames.length);
      for (const f of b.frames) {
        w.value(f.time);
        const q = f.rotation;
        w.value(q[0]);
        w.value(q[1]);
        w.value(q[2]);
        w.value(q[3]);
        if (c & 1) w.three(f.translation);
        if (c & 2) w.three(f.scale);
      }
    }
  }
  writeRecords(w, 'instance', doc.instances ?? []);
  writeRecords(w, 'car', doc.cars ?? []);
  writeRecords(w, 'section_line', doc.section_lines ?? []);
  writeRecords(w, 'ide_object', doc.objects ?? []);
  const stored = doc.stored ?? null;
  w.number(stored ? stored.length : -1);
  for (const s of stored ?? []) {
    w.number(items.indexOf(s.item));
    w.number(s.index);
    w.name(s.raw);
  }
  return w;
}

/**
 * The document (from {@link decode}, perhaps edited) written as a file by the library's
 * encoder: in its own format unless `options.format` says another. Unedited, a file comes back
 * byte for byte (the `raw` and `trailing` fields keep what its exporter stored around the
 * values, docs/FORMATS.md §9.7); an edited value is written the format's usual way, everything
 * around it kept; `normalise` writes a clean file. Each bone keeps its frame type where the
 * format has it. Throws an {@link EncodeError} where the document cannot be written so (a name
 * too long, a value the format cannot hold), a `RangeError` for a format the library does not
 * write.
 */
export function write(doc: GtaDocument, options: WriteOptions = {}): Uint8Array {
  const w = toBuffers(doc);
  const records = Float64Array.from(w.records);
  const bytes = w.joined();
  const format = new TextEncoder().encode(options.format ?? '');
  const module = wasm();
  const sizes = [records.byteLength, bytes.length, w.values.byteLength, format.length];
  const total = sizes.reduce((a, b) => a + b, 0) + 16;
  const base = module.gts_alloc(total);
  try {
    // Each buffer at an offset aligned for its numbers.
    const at = [0, 0, 0, 0];
    let end = base;
    for (let i = 0; i < 4; i++) {
      end = Math.ceil(end / 8) * 8;
      at[i] = end;
      end += sizes[i];
    }
    const memory = module.memory.buffer;
    new Float64Array(memory, at[0], records.length).set(records);
    new Uint8Array(memory, at[1], bytes.length).set(bytes);
    new Float32Array(memory, at[2], w.values.length).set(w.values);
    new Uint8Array(memory, at[3], format.length).set(format);
    return written(module, () => module.gts_write(at[0], records.length, at[1], bytes.length,
      at[2], w.values.length, at[3], format.length, options.quantize ? 1 : 0,
      options.normalise ? 1 : 0), options.format ?? String(doc.format));
  } finally {
    module.gts_free(base, total);
  }
}
