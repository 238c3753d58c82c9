// The documents the module hands over in buffers (wasm/src/document.rs), turned into objects:
// `records` is read front to back in the order the module writes it, names and stored units
// are byte ranges of `names`, and each bone's keyframe floats come as the bone ends. No JSON
// text, and nothing of the file's format here: the module has already decoded everything.

import type {
  Animation, AnimationSummary, ArchiveListing, Block, Bone, DocumentWarning, GtaDocument,
  Keyframe, ModelDocument, StoredLine,
} from './types.js';
import { RECORD_KINDS, type RecordKind, type RecordTypes } from './records.js';
import { DecodeError, type Exports, type Sink, withSink } from './wasm.js';

/** The buffers of one document, in the parts the module handed them over: the records of
 * the document's head, then those of each animation, read one after the other; the names of
 * each animation, then the head's, one sequence of bytes (no name spans two parts). */
export interface Buffers {
  records: Float64Array[];
  names: Uint8Array[];
}

/** Runs `call` and returns the buffers it handed over (the animations' parts, then the rest),
 * `bone` taking each bone's values and `progress` what each feed did; throws the error it
 * reported. */
export function buffersOf(module: Exports, call: () => number,
  bone?: Sink['boneValues'], progress?: Sink['progress']): Buffers {
  let buffers: Buffers | undefined;
  let failure: DecodeError | undefined;
  const records: Float64Array[] = [];
  const names: Uint8Array[] = [];
  const rc = withSink(module, {
    documentPart: (r, n) => {
      records.push(r);
      names.push(n);
    },
    document: (r, n) => (buffers = { records: [r, ...records], names: [...names, n] }),
    boneValues: bone,
    progress,
    error: (e) => (failure = e),
  }, call);
  if (failure) throw failure;
  if (rc !== 0 || !buffers) throw new Error('gtastream: the module gave no document');
  return buffers;
}

/** Bytes as text one character per byte (Latin-1), as the library reads names. */
function latin1(bytes: Uint8Array, start: number, len: number): string {
  if (len <= 64) {
    let text = '';
    for (let i = start; i < start + len; i++) text += String.fromCharCode(bytes[i]);
    return text;
  }
  let text = '';
  for (let i = start; i < start + len; i += 8192) {
    const end = Math.min(i + 8192, start + len);
    text += String.fromCharCode.apply(null, bytes.subarray(i, end) as unknown as number[]);
  }
  return text;
}

/** Reads `records` in order. */
export class Reader {
  #parts: Float64Array[];
  #part = 0;
  #records: Float64Array;
  #names: Uint8Array[];
  /** Where each part of `names` begins in the sequence of their bytes. */
  #bases: number[] = [];
  #at = 0;
  /** The frame types' names made so far, by where their bytes start (the module writes each
   * once: one string for all the bones of that type). */
  #frameTypes = new Map<number, string>();

  constructor({ records, names }: Buffers) {
    this.#parts = records;
    this.#records = records[0];
    this.#names = names;
    let base = 0;
    for (const part of names) {
      this.#bases.push(base);
      base += part.length;
    }
  }

  number(): number {
    while (this.#at === this.#records.length && this.#part + 1 < this.#parts.length) {
      this.#records = this.#parts[++this.#part];
      this.#at = 0;
    }
    return this.#records[this.#at++];
  }

  /** The `len` bytes at `start` of the names' bytes: a view of the part holding them. */
  #bytes(start: number, len: number): Uint8Array {
    const bases = this.#bases;
    let low = 0;
    let high = bases.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (bases[mid] <= start) low = mid;
      else high = mid - 1;
    }
    const at = start - bases[low];
    return this.#names[low].subarray(at, at + len);
  }

  /** A number, null where the document has none (NaN). */
  optNumber(): number | null {
    const value = this.number();
    return value !== value ? null : value;
  }

  /** A name, null where the file stores none. */
  name(): string | null {
    const start = this.number();
    const len = this.number();
    return len < 0 ? null : latin1(this.#bytes(start, len), 0, len);
  }

  /** A frame type's name. */
  frameType(): string {
    const start = this.number();
    const len = this.number();
    let name = this.#frameTypes.get(start);
    if (name === undefined) {
      name = latin1(this.#bytes(start, len), 0, len);
      this.#frameTypes.set(start, name);
    }
    return name;
  }

  string(): string {
    return this.name() ?? '';
  }

  /** Bytes as stored (a view of `names`), null where the module keeps none. */
  bytes(): Uint8Array | null {
    const start = this.number();
    const len = this.number();
    return len < 0 ? null : this.#bytes(start, len);
  }

  /** `count` floats as the document has them (NaN and infinities null). */
  floats(count: number): (number | null)[] {
    const out = new Array<number | null>(count);
    for (let i = 0; i < count; i++) out[i] = this.optNumber();
    return out;
  }
}

/** The head of a document: whether it is a placement file, format, name, the stored header
 * and trailing bytes, and warnings. */
export function readHead(r: Reader): { placement: boolean; doc: GtaDocument } {
  const kind = r.number();
  // A model (DFF): the library's document, whole (`Model::write_json`).
  if (kind === 2) return { placement: false, doc: JSON.parse(r.string()) as ModelDocument as unknown as GtaDocument };
  const placement = kind === 1;
  const format = r.name() as GtaDocument['format'];
  const name = r.name();
  const raw = r.bytes();
  const trailing = r.bytes();
  const warnings: DocumentWarning[] = [];
  for (let n = r.number(); n > 0; n--) {
    warnings.push({ kind: r.string(), reason: r.string(), offset: r.number(),
      animation: r.optNumber(), bone: r.optNumber(), line: r.optNumber() });
  }
  return { placement, doc: { format, name, warnings, raw, trailing } };
}

/** An ANLF's blocks and stored size (null for another file): in the records before the
 * animations (which the module hands over as they end), though after them in the document. */
export function readBlocks(r: Reader): { blocks: Block[] | null; container_size: number | null } {
  let blocks: Block[] | null = null;
  const count = r.number();
  if (count >= 0) {
    blocks = [];
    for (let n = count; n > 0; n--) {
      blocks.push({ name: r.name(), raw: r.bytes(), animations: r.number() });
    }
  }
  return { blocks, container_size: r.optNumber() };
}

/** One bone's header as the module writes it, before its frames. */
export interface BoneHead {
  name: string | null;
  boneId: number | null;
  boneKey: number | null;
  frameType: string;
  raw: Uint8Array | null;
  translation: boolean;
  scale: boolean;
  frameCount: number;
}

export function readBone(r: Reader): BoneHead {
  const name = r.name();
  const boneId = r.optNumber();
  const boneKey = r.optNumber();
  const frameType = r.frameType();
  const raw = r.bytes();
  const contents = r.number();
  return {
    name, boneId, boneKey, frameType, raw, translation: (contents & 1) !== 0,
    scale: (contents & 2) !== 0, frameCount: r.number(),
  };
}

/** Floats per keyframe in `values`: time and rotation, then what the bone stores. */
export const stride = (b: Contents): number => 5 + (b.translation ? 3 : 0) + (b.scale ? 3 : 0);

const nul = (value: number): number | null => (value !== value ? null : value);

/** Which of translation and scale a bone's frames have (bit 0 and bit 1 of `contents`). */
interface Contents {
  translation: boolean;
  scale: boolean;
}

export const contentsOf = (contents: number): Contents =>
  ({ translation: (contents & 1) !== 0, scale: (contents & 2) !== 0 });

/**
 * The document's distinct keyframe times, by the index the module gives each (0: none, `null`),
 * each held once: the frames of one time share it. An array of references (it begins with
 * null) hands out the number itself rather than a copy, and V8 keeps a frame's `time` as a
 * reference rather than as a double of the frame's own once a frame of that shape has had a
 * null time, as those below have (16 bytes less a frame).
 */
export type Times = (number | null)[];

export const newTimes = (): Times => [null];

// The shapes `frames` makes, each once with a null time (and arrays of doubles, as it makes).
void [{ time: null, rotation: [0.5] }, { time: null, rotation: [0.5], translation: [0.5] },
  { time: null, rotation: [0.5], scale: [0.5] },
  { time: null, rotation: [0.5], translation: [0.5], scale: [0.5] }];

/** A bone's keyframes, as the document has them (NaN and infinities null). */
function framesWithNulls(values: Float64Array, from: number, b: Contents, times: Times):
  Keyframe[] {
  const step = stride(b);
  const out = new Array<Keyframe>((values.length - from) / step);
  const three = (at: number) => [nul(values[at]), nul(values[at + 1]), nul(values[at + 2])];
  for (let i = 0, at = from; i < out.length; i++, at += step) {
    const frame: Keyframe = {
      time: times[values[at]],
      rotation: [nul(values[at + 1]), nul(values[at + 2]), nul(values[at + 3]), nul(values[at + 4])],
    };
    if (b.translation) frame.translation = three(at + 5);
    if (b.scale) frame.scale = three(at + (b.translation ? 8 : 5));
    out[i] = frame;
  }
  return out;
}

/** The same where every value is finite: arrays of plain doubles, which V8 stores unboxed
 * (an array that may hold null boxes each number), in the shape of the bone's frames. */
function frames(values: Float64Array, from: number, b: Contents, times: Times): Keyframe[] {
  const step = stride(b);
  const out = new Array<Keyframe>((values.length - from) / step);
  for (let i = 0, at = from; i < out.length; i++, at += step) {
    const time = times[values[at]];
    const rotation = [values[at + 1], values[at + 2], values[at + 3], values[at + 4]];
    if (b.translation && b.scale) {
      out[i] = {
        time, rotation, translation: [values[at + 5], values[at + 6], values[at + 7]],
        scale: [values[at + 8], values[at + 9], values[at + 10]],
      };
    } else if (b.translation) {
      out[i] = { time, rotation, translation: [values[at + 5], values[at + 6], values[at + 7]] };
    } else if (b.scale) {
      out[i] = { time, rotation, scale: [values[at + 5], values[at + 6], values[at + 7]] };
    } else {
      out[i] = { time, rotation };
    }
  }
  return out;
}

function finite(values: Float64Array, from: number): boolean {
  for (let i = from; i < values.length; i++) {
    if (values[i] !== values[i]) return false;
  }
  return true;
}

/** A bone's keyframes from its values as the module hands them over (f64, the document's
 * numbers; first the times new to `times`), as the document has them. */
export function keyframes(values: Float64Array, contents: number, times: Times): Keyframe[] {
  const b = contentsOf(contents);
  const fresh = values[0];
  for (let i = 1; i <= fresh; i++) times.push(values[i]);
  const from = 1 + fresh;
  return finite(values, from)
    ? frames(values, from, b, times)
    : framesWithNulls(values, from, b, times);
}

/** The document `gtastream dump --json` prints, from buffers and the bones' keyframes. */
export function toDocument(buffers: Buffers, boneFrames: Keyframe[][]): GtaDocument {
  const r = new Reader(buffers);
  const { placement, doc } = readHead(r);
  if (doc.format === 'dff') return doc;
  if (!placement) {
    const { blocks, container_size } = readBlocks(r);
    const animations: Animation[] = [];
    let bone = 0;
    for (let n = r.number(); n > 0; n--) {
      const name = r.string();
      const frame_data_size = r.optNumber();
      const flags = r.optNumber();
      const duration = r.optNumber();
      const raw = r.bytes();
      const bones: Bone[] = [];
      for (let m = r.number(); m > 0; m--) {
        const b = readBone(r);
        bones.push({ name: b.name, bone_id: b.boneId, bone_key: b.boneKey, frame_type: b.frameType,
          frames: boneFrames[bone++], raw: b.raw });
      }
      // The summary, as the library's document writes it.
      const summary = JSON.parse(r.string()) as AnimationSummary;
      r.number(); // the latest keyframe time: IFPReader's
      animations.push({ name, frame_data_size, flags, duration, bones, summary, raw });
    }
    return Object.assign(doc, { animations, blocks, container_size });
  }
  const readStored = (): StoredLine[] | null => {
    const count = r.number();
    if (count < 0) return null;
    const stored = new Array<StoredLine>(count);
    for (let i = 0; i < count; i++) {
      const item = items[r.number()];
      stored[i] = { item, index: r.optNumber(), raw: r.name() };
    }
    return stored;
  };
  if (doc.format === 'ide') {
    const objects = readRecords(r, 'ide_object');
    const section_lines = readRecords(r, 'section_line');
    return Object.assign(doc, { objects, section_lines, stored: readStored() });
  }
  const instances = readRecords(r, 'instance');
  const cars = readRecords(r, 'car');
  const section_lines = readRecords(r, 'section_line');
  return Object.assign(doc, { instances, cars, section_lines, stored: readStored() });
}

/** Each kind's fields by its name (records.ts, generated from the core's declarations). */
const FIELDS = new Map(RECORD_KINDS);

/** A count, then that many records of `kind`, each as the module writes any record: its
 * fields in declared order, an optional one after 0 (null) or 1. */
export function readRecords<K extends RecordKind>(r: Reader, kind: K): RecordTypes[K][] {
  const fields = FIELDS.get(kind) ?? [];
  const out: RecordTypes[K][] = [];
  for (let n = r.number(); n > 0; n--) {
    const record: Record<string, unknown> = {};
    for (const [name, code, optional] of fields) {
      if (optional && r.number() === 0) record[name] = null;
      else if (code === 'text') record[name] = r.string();
      else if (code === 'f32') record[name] = r.optNumber();
      else if (typeof code === 'number') record[name] = r.floats(code);
      else record[name] = r.number();
    }
    out.push(record as unknown as RecordTypes[K]);
  }
  return out;
}

/** A stored line's item by the module's number for it. */
const items: StoredLine['item'][] = ['instance', 'car', 'section_line', 'text', 'ide_object'];

/** The listing `gtastream ls --json` prints. */
export function toListing(buffers: Buffers): ArchiveListing {
  const r = new Reader(buffers);
  const format = r.string() as ArchiveListing['format'];
  const entries: ArchiveListing['entries'] = [];
  for (let n = r.number(); n > 0; n--) {
    const name = r.string();
    const offset = r.number();
    const size = r.number();
    entries.push({ name, offset, size, format: r.name() as ArchiveListing['entries'][0]['format'] });
  }
  return { format, entries };
}
