// The loader of gtastream.wasm (built from bindings/js/wasm/, see its src/lib.rs): plain exports
// and imports, no generated glue. The module tells JavaScript everything through the imports of
// module "gts", which hand it to whoever is listening at the time (the `sink`): one call of the
// module runs at a time, and every call sets its own sink.

import { RECORD_KINDS, type RecordKind } from './records.js';

/** Where a decoding error happened (docs/FORMATS.md §7.5), where the library tracked it. */
export interface ErrorContext {
  /** 0-based index of the animation being decoded, else null. */
  animation: number | null;
  /** 0-based index of the bone in that animation, else null. */
  bone: number | null;
  /** Text IPL: the line (from 1), else null. */
  line: number | null;
  /** The library's message: the error at its offset, then the place and what was decoded
   * before it. */
  message: string;
}

/** Something went wrong where the command-line tool would fail: the file does not decode. */
export class DecodeError extends Error {
  /** The kind's stable name (`truncated`, `bad_magic`, ... ; docs/FORMATS.md §7). */
  readonly kind: string;
  /** What the kind means, in words. */
  readonly reason: string;
  /** Absolute byte offset of the unit that failed. */
  readonly offset: number;
  /** The animation (0-based index) being decoded, null outside one or where not tracked. */
  readonly animation: number | null;
  /** The bone (0-based index in its animation) being decoded, else null. */
  readonly bone: number | null;
  /** Text IPL: the line (from 1), else null. */
  readonly line: number | null;

  constructor(kind: string, reason: string, offset: number, context?: ErrorContext) {
    super(context?.message ?? `${reason} at offset ${offset}`);
    this.name = 'DecodeError';
    this.kind = kind;
    this.reason = reason;
    this.offset = offset;
    this.animation = context?.animation ?? null;
    this.bone = context?.bone ?? null;
    this.line = context?.line ?? null;
  }
}

/** A file could not be written in the format asked for (`convert`): `kind` is the encoder
 * error's stable name (`not_representable`, `cannot_convert`, ...). */
export class EncodeError extends Error {
  readonly kind: string;

  constructor(kind: string, message: string) {
    super(message);
    this.name = 'EncodeError';
    this.kind = kind;
  }
}

/** The module's exports (names and signatures as in wasm/src/lib.rs). */
export interface Exports {
  memory: WebAssembly.Memory;
  gts_alloc(len: number): number;
  gts_format_head_size(): number;
  gts_text_format(ptr: number, len: number, whole: number): number;
  gts_model_counts_json(ptr: number, len: number): number;
  gts_free(ptr: number, len: number): void;
  gts_json(ptr: number, len: number, canSeek: number): number;
  gts_check_json(
    ptr: number, len: number, dir: number, dirLen: number, hasDir: number, name: number,
    nameLen: number, games: number,
  ): number;
  gts_sample_skeleton_json(ptr: number, len: number, name: number, nameLen: number,
    model: number, modelLen: number, time: number, looped: number, game: number): number;
  gts_check_folder_json(name: number, nameLen: number, game: number): number;
  gts_check_skeleton_json(ptr: number, len: number, name: number, nameLen: number, games: number,
    model: number, modelLen: number): number;
  gts_gltf(ptr: number, len: number, model: number, modelLen: number, names: number,
    namesLen: number, game: number, glb: number): number;
  gts_from_gltf(ptr: number, len: number, format: number, formatLen: number, block: number,
    blockLen: number, names: number, namesLen: number, model: number, modelLen: number,
    map: number, mapLen: number, resample: number, quantize: number, games: number,
    report: number): number;
  gts_sample_json(ptr: number, len: number, name: number, nameLen: number, time: number,
    looped: number): number;
  gts_summaries_json(ptr: number, len: number): number;
  gts_decoder_size(): number;
  gts_input(): number;
  gts_input_size(): number;
  gts_decoder_new(canSeek: number): number;
  gts_decoder_free(decoder: number): void;
  gts_feed(decoder: number, len: number, keyframes: number): number;
  gts_finish(decoder: number, keyframes: number): number;
  gts_position(decoder: number): number;
  gts_archive_new(version1: number, op: number, names: number, lens: number, oldCount: number,
    newCount: number): number;
  gts_archive_free(out: number): void;
  gts_archive_next(out: number): number;
  gts_archive_source(out: number): number;
  gts_archive_write(out: number, len: number): number;
  gts_archive_finish(out: number): number;
  gts_archive_head(out: number): number;
  gts_archive_head_len(out: number): number;
  gts_archive_dir(out: number): number;
  gts_archive_dir_len(out: number): number;
  gts_archive_report(out: number): number;
  gts_ls(img: number, imgLen: number, dir: number, dirLen: number, hasDir: number): number;
  gts_entry_json(img: number, imgLen: number, dir: number, dirLen: number, hasDir: number,
    name: number, nameLen: number): number;
  gts_entry_document(img: number, imgLen: number, dir: number, dirLen: number, hasDir: number,
    name: number, nameLen: number, raw: number): number;
  gts_listing_new(version1: number, dirLen: number, imgLen: number): number;
  gts_listing_free(stream: number): void;
  gts_listing_input(stream: number): number;
  gts_listing_position(stream: number): number;
  gts_listing_wanted(stream: number): number;
  gts_listing_feed(stream: number, len: number): number;
  gts_listing_finish(stream: number): number;
  gts_convert(ptr: number, len: number, format: number, formatLen: number, quantize: number,
    normalise: number): number;
  gts_document_new(canSeek: number, raw: number): number;
  gts_document_free(stream: number): void;
  gts_document_feed(stream: number, len: number): number;
  gts_document_finish(stream: number): number;
  gts_write(records: number, recordsLen: number, bytes: number, bytesLen: number, values: number,
    valuesLen: number, format: number, formatLen: number, quantize: number,
    normalise: number): number;
}

/** Flow codes the event imports return. */
export const CONTINUE = 0;
export const PAUSE = 1;
export const ABORT = 2;

/** Receives what one call of the module reports. Event methods return a flow code. */
export interface Sink {
  text?(piece: string): void;
  error?(error: DecodeError): void;
  progress?(consumed: number, status: number, seek: number): void;
  file?(format: string, name: string | null, animationCount: number,
    instanceCount: number | null, carCount: number | null, rwVersion: number | null): number;
  animation?(index: number, name: string, boneCount: number, frameDataSize: number | null,
    flags: number | null, duration: number | null): number;
  bone?(index: number, name: string | null, boneId: number | null, boneKey: number | null,
    frameType: string, frameCount: number, hasTranslation: boolean, hasScale: boolean): number;
  /** `floats`: `count` keyframes of 11 floats (time, rotation 4, translation 3, scale 3), a
   * view of the module's memory valid during the call only. */
  keyframes?(floats: Float32Array, count: number): number;
  boneEnd?(): number;
  animationEnd?(): number;
  /** A record of any kind, as its object (floats as decoded: NaN stays NaN). */
  record?(kind: RecordKind, record: Record<string, unknown>): number;
  warning?(kind: string, reason: string, offset: number): number;
  end?(): number;
  /** A document or listing in buffers (wasm/src/document.rs), copied out of the module's
   * memory. */
  document?(records: Float64Array, names: Uint8Array): void;
  /** A finished animation's records and the names since the last part, which the
   * `document` then follows (its records before theirs, its names after). */
  documentPart?(records: Float64Array, names: Uint8Array): void;
  /** One bone's keyframe floats (f32 or f64 as asked for), as the bone ends: `ptr` and
   * `count` in the module's memory, valid during the call only; `contents` bit 0 translation,
   * bit 1 scale. */
  boneValues?(memory: ArrayBuffer, ptr: number, count: number, contents: number): void;
  /** A conversion's bytes, copied out of the module's memory. */
  output?(bytes: Uint8Array): void;
  encodeError?(error: EncodeError): void;
  /** An archive cannot be written as asked: the kind's stable name, the message, the entry's
   * index and its name (one character per byte). */
  archiveError?(kind: string, message: string, index: number, entry: string): void;
  /** The folder a check walks (`gts_check_folder_json`): opens the file at `path` (as a level
   * file writes it: UTF-8 bytes, either slash, any case), a handle or -1 when there is none. */
  folderOpen?(path: Uint8Array): number;
  /** The open file's length; -1 when it cannot be told (`folderWhy` then says why). */
  folderLen?(handle: number): number;
  /** Reads at most `into.length` bytes at `offset` into `into` (a view of the module's
   * memory, valid during the call only): how many (0 only at the end), or -1 on failure. */
  folderReadAt?(handle: number, offset: number, into: Uint8Array): number;
  folderClose?(handle: number): void;
  /** Why the last length or read failed. */
  folderWhy?(): string;
  /** The folder cannot be checked at all: why (the library's message). */
  folderFailed?(message: string): void;
}

let instance: Exports | undefined;
let initError: unknown;
let sink: Sink = {};
let busy = false;
/** The instance whose call is running: the imports read its memory. After `init()` loads the
 * module again, decoders made before keep using the instance they were made in. */
let active: Exports | undefined;

const utf8 = new TextDecoder();

function bytes(ptr: number, len: number): Uint8Array {
  return new Uint8Array(active!.memory.buffer, ptr, len);
}

/** Bytes as text one character per byte (Latin-1), as the library's JSON document reads names. */
function latin1(ptr: number, len: number): string {
  const view = bytes(ptr, len);
  let text = '';
  for (let i = 0; i < len; i += 8192) {
    text += String.fromCharCode.apply(null, view.subarray(i, i + 8192) as unknown as number[]);
  }
  return text;
}

function optName(ptr: number, len: number): string | null {
  return len < 0 ? null : latin1(ptr, len);
}

function optNumber(value: number): number | null {
  return Number.isNaN(value) ? null : value;
}

function floats(ptr: number, count: number): number[] {
  return Array.from(new Float32Array(active!.memory.buffer, ptr, count));
}

const imports = {
  gts: {
    text(ptr: number, len: number) {
      sink.text?.(utf8.decode(bytes(ptr, len)));
    },
    error(name: number, nameLen: number, reason: number, reasonLen: number, offset: number) {
      sink.error?.(new DecodeError(latin1(name, nameLen), latin1(reason, reasonLen), offset));
    },
    failure(name: number, nameLen: number, reason: number, reasonLen: number, offset: number,
      animation: number, bone: number, line: number, message: number, messageLen: number) {
      sink.error?.(new DecodeError(latin1(name, nameLen), latin1(reason, reasonLen), offset, {
        animation: optNumber(animation), bone: optNumber(bone), line: optNumber(line),
        message: latin1(message, messageLen),
      }));
    },
    progress(consumed: number, status: number, seek: number) {
      sink.progress?.(consumed, status, seek);
    },
    file(format: number, formatLen: number, name: number, nameLen: number, animations: number,
      instances: number, cars: number, rwVersion: number) {
      return sink.file?.(latin1(format, formatLen), optName(name, nameLen), animations,
        optNumber(instances), optNumber(cars), optNumber(rwVersion)) ?? CONTINUE;
    },
    animation(index: number, name: number, nameLen: number, boneCount: number, size: number,
      flags: number, duration: number, hasDuration: number) {
      return sink.animation?.(index, latin1(name, nameLen), boneCount, optNumber(size),
        optNumber(flags), hasDuration ? duration : null) ?? CONTINUE;
    },
    bone(index: number, name: number, nameLen: number, boneId: number, boneKey: number,
      frameType: number, frameTypeLen: number, frameCount: number, contents: number) {
      return sink.bone?.(index, optName(name, nameLen), optNumber(boneId), optNumber(boneKey),
        latin1(frameType, frameTypeLen), frameCount, (contents & 1) !== 0,
        (contents & 2) !== 0) ?? CONTINUE;
    },
    keyframes(ptr: number, count: number) {
      return sink.keyframes?.(new Float32Array(active!.memory.buffer, ptr, count * 11), count)
        ?? CONTINUE;
    },
    bone_end() {
      return sink.boneEnd?.() ?? CONTINUE;
    },
    animation_end() {
      return sink.animationEnd?.() ?? CONTINUE;
    },
    record(kind: number, ptr: number, count: number, text: number, _textLen: number) {
      if (!sink.record) return CONTINUE;
      const values = new Float64Array(active!.memory.buffer, ptr, count);
      const [name, fields] = RECORD_KINDS[kind];
      const record: Record<string, unknown> = {};
      let at = 0;
      for (const [field, code, optional] of fields) {
        if (optional && values[at++] === 0) record[field] = null;
        else if (code === 'text') {
          record[field] = latin1(text + values[at], values[at + 1]);
          at += 2;
        } else if (typeof code === 'number') {
          record[field] = Array.from(values.subarray(at, at + code));
          at += code;
        } else record[field] = values[at++];
      }
      return sink.record(name, record);
    },
    warning(name: number, nameLen: number, reason: number, reasonLen: number, offset: number) {
      return sink.warning?.(latin1(name, nameLen), latin1(reason, reasonLen), offset) ?? CONTINUE;
    },
    end() {
      return sink.end?.() ?? CONTINUE;
    },
    document(records: number, recordsLen: number, names: number, namesLen: number) {
      const buffer = active!.memory.buffer;
      sink.document?.(new Float64Array(buffer.slice(records, records + recordsLen * 8)),
        new Uint8Array(buffer.slice(names, names + namesLen)));
    },
    document_part(records: number, recordsLen: number, names: number, namesLen: number) {
      const buffer = active!.memory.buffer;
      sink.documentPart?.(new Float64Array(buffer.slice(records, records + recordsLen * 8)),
        new Uint8Array(buffer.slice(names, names + namesLen)));
    },
    bone_values(ptr: number, count: number, contents: number) {
      sink.boneValues?.(active!.memory.buffer, ptr, count, contents);
    },
    output(ptr: number, len: number) {
      sink.output?.(new Uint8Array(active!.memory.buffer.slice(ptr, ptr + len)));
    },
    encode_error(kind: number, kindLen: number, message: number, messageLen: number) {
      sink.encodeError?.(new EncodeError(latin1(kind, kindLen), utf8.decode(bytes(message, messageLen))));
    },
    archive_error(kind: number, kindLen: number, message: number, messageLen: number,
      index: number, entry: number, entryLen: number) {
      sink.archiveError?.(latin1(kind, kindLen), utf8.decode(bytes(message, messageLen)), index,
        latin1(entry, entryLen));
    },
    folder_open(path: number, len: number) {
      return sink.folderOpen?.(bytes(path, len).slice()) ?? -1;
    },
    folder_len(handle: number) {
      return sink.folderLen?.(handle) ?? -1;
    },
    folder_read_at(handle: number, offset: number, ptr: number, len: number) {
      // The sink runs nothing of the module: its memory stays where the view is.
      return sink.folderReadAt?.(handle, offset, bytes(ptr, len)) ?? -1;
    },
    folder_close(handle: number) {
      sink.folderClose?.(handle);
    },
    folder_why(ptr: number, len: number) {
      const why = sink.folderWhy?.() ?? 'no folder is being read';
      return new TextEncoder().encodeInto(why, bytes(ptr, len)).written;
    },
    folder_failed(message: number, len: number) {
      sink.folderFailed?.(utf8.decode(bytes(message, len)));
    },
  },
};

/** Where the module is, or the module itself. */
export type WasmSource = URL | string | Response | BufferSource | WebAssembly.Module;

async function load(source: WasmSource): Promise<WebAssembly.Instance> {
  if (source instanceof WebAssembly.Module) {
    return WebAssembly.instantiate(source, imports);
  }
  if (typeof source === 'string' || source instanceof URL) {
    const url = new URL(source, import.meta.url);
    if (url.protocol === 'file:') {
      // Node (and Deno, Bun) read the file; a computed name keeps bundlers from following it.
      const name = 'node:fs/promises';
      const fs = (await import(/* webpackIgnore: true */ /* @vite-ignore */ name)) as {
        readFile(path: URL): Promise<Uint8Array>;
      };
      source = await fs.readFile(url);
    } else {
      source = await fetch(url);
    }
  }
  if (typeof Response !== 'undefined' && source instanceof Response) {
    if (!source.ok) {
      throw new Error(`gtastream: cannot load the WebAssembly module (HTTP ${source.status})`);
    }
    source = await source.arrayBuffer();
  }
  const result = await WebAssembly.instantiate(source as BufferSource, imports);
  return result.instance;
}

/**
 * Loads the WebAssembly module. Importing the package already loads `gtastream.wasm` from next
 * to it; call this only when the module lives elsewhere (a bundler moved it): pass its URL, a
 * `fetch` response, its bytes or a compiled module.
 */
export async function init(source?: WasmSource): Promise<void> {
  if (source === undefined && instance) {
    return;
  }
  try {
    const loaded = await load(source ?? new URL('./gtastream.wasm', import.meta.url));
    instance = loaded.exports as unknown as Exports;
    initError = undefined;
  } catch (e) {
    initError = e;
    throw e;
  }
}

/** The module's exports; throws when it could not be loaded. */
export function wasm(): Exports {
  if (!instance) {
    throw initError ?? new Error('gtastream: the WebAssembly module is not loaded (await init())');
  }
  return instance;
}

/** Runs `call` (a call of `module`) with `listener` receiving the module's reports. Calls do
 * not nest: a callback that calls into the module (another decoder's feed, decode()) gets an
 * error. */
export function withSink<T>(module: Exports, listener: Sink, call: () => T): T {
  if (busy) {
    throw new Error('gtastream: a decoding call is already running (called from a callback?)');
  }
  busy = true;
  sink = listener;
  active = module;
  try {
    return call();
  } finally {
    sink = {};
    active = undefined;
    busy = false;
  }
}

/** Loaded at import time; a failure is kept and reported by the first call needing the module. */
export async function autoInit(): Promise<void> {
  try {
    await init();
  } catch {
    // Kept in initError.
  }
}
