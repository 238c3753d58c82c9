// The streaming decoder: the library's push decoder living in the module's memory, its events
// handed to JavaScript callbacks as they happen. Memory stays constant: each chunk is copied
// into the module's fixed input buffer piece by piece, and nothing is kept between events.

import { RECORD_KINDS, type RecordKind, type RecordTypes } from './records.js';
import type { Keyframe, Warning } from './types.js';
import {
  ABORT, CONTINUE, DecodeError, type Exports, PAUSE, type Sink, wasm, withSink,
} from './wasm.js';

/** What a callback wants next: nothing (or `'continue'`) goes on, `'pause'` makes `feed`
 * return with status `'paused'`, `'abort'` (or `false`) stops with the `aborted` error. */
export type Flow = void | undefined | boolean | 'continue' | 'pause' | 'abort';

export interface FileInfo {
  format: string;
  name: string | null;
  animation_count: number;
  instance_count: number | null;
  car_count: number | null;
  /** A RenderWare file (DFF): the library id as stored (`0x1803FFFF`: 3.6.0.3), else null. */
  rw_version: number | null;
}

export interface AnimationInfo {
  index: number;
  name: string;
  bone_count: number;
  frame_data_size: number | null;
  flags: number | null;
  /** Seconds; NaN or infinite as stored (the JSON document writes those as null). */
  duration: number | null;
}

export interface BoneInfo {
  index: number;
  name: string | null;
  bone_id: number | null;
  bone_key: number | null;
  frame_type: string;
  frame_count: number;
  has_translation: boolean;
  has_scale: boolean;
}

/** `dff_frame` → `dffFrame`. */
type Camel<S extends string> = S extends `${infer H}_${infer T}` ? `${H}${Capitalize<Camel<T>>}` : S;

/** A callback per record kind, named after it in camel case (`instance`, `car`, `sectionLine`,
 * `dffFrame`, `dffHanim`...: every kind of records.ts), taking its object. */
export type RecordCallbacks = {
  [K in RecordKind as Camel<K>]?: (record: RecordTypes[K]) => Flow;
};

/** The events, in the library's order: `file`, per animation `animation`, per bone `bone`,
 * `keyframes` (batches), `boneEnd`, then `animationEnd`; placement files report `instance`,
 * `car` and `sectionLine`; `warning` may come anywhere; `end` last (from `finish`). Fields are
 * named as in the `decode()` document. A callback that throws aborts the decoding and its
 * exception is rethrown by `feed`/`finish`. */
export interface Callbacks extends RecordCallbacks {
  file?(info: FileInfo): Flow;
  animation?(info: AnimationInfo): Flow;
  bone?(info: BoneInfo): Flow;
  /** A batch of the current bone's keyframes (`translation`/`scale` when the bone stores them). */
  keyframes?(frames: Keyframe[]): Flow;
  boneEnd?(): Flow;
  animationEnd?(): Flow;
  /** A record of any kind (`instance`, `car`, `section_line`, `dff_frame`, ...), before the
   * callback named after its kind. */
  record?<K extends RecordKind>(kind: K, record: RecordTypes[K]): Flow;
  warning?(warning: Warning): Flow;
  end?(): Flow;
}

export type Status = 'need_input' | 'paused' | 'done' | { seek: number };

/** What one `feed` did: bytes of the chunk consumed, and why it returned. */
export interface Progress {
  consumed: number;
  /** `need_input`: all consumed, feed more or `finish()`. `paused`: a callback paused, feed the
   * rest later. `done`: the content is complete (later bytes are trailing data), `finish()`.
   * `{seek}`: feed bytes from this absolute offset on (only with `canSeek`). */
  status: Status;
}

export interface DecoderOptions {
  /** The caller can restart the input at an earlier offset when `feed` asks (default true). */
  canSeek?: boolean;
}

const STATUS: Status[] = ['need_input', 'paused', 'done'];

function flowCode(flow: Flow): number {
  if (flow === 'pause') return PAUSE;
  if (flow === 'abort' || flow === false) return ABORT;
  return CONTINUE;
}

// A decoder that is garbage collected gives its memory back to the instance it was made in.
const release = typeof FinalizationRegistry === 'undefined'
  ? undefined
  : new FinalizationRegistry<{ module: Exports; ptr: number }>(({ module, ptr }) =>
    module.gts_decoder_free(ptr));

/** A push decoder for every supported format (sniffed from the magic). */
export class Decoder {
  /** Bytes of the module's memory a decoder takes (the library's DECODER_SIZE). */
  static get SIZE(): number {
    return wasm().gts_decoder_size();
  }

  #module: Exports;
  #ptr: number;
  #callbacks: Callbacks;
  #sink: Sink;
  #thrown: { error: unknown } | undefined;
  /** 1 when the callbacks take keyframes: the module converts them only then. */
  #keyframes: number;
  #translation = false;
  #scale = false;

  constructor(callbacks: Callbacks = {}, options: DecoderOptions = {}) {
    this.#module = wasm();
    this.#ptr = this.#module.gts_decoder_new(options.canSeek === false ? 0 : 1);
    this.#callbacks = callbacks;
    this.#keyframes = callbacks.keyframes ? 1 : 0;
    this.#sink = this.#makeSink();
    release?.register(this, { module: this.#module, ptr: this.#ptr }, this);
  }

  /** Absolute offset of the next byte the decoder wants. */
  get position(): number {
    return this.#module.gts_position(this.#live());
  }

  /** Consumes `chunk`, calling the callbacks, until it is used up, a callback pauses, the content
   * is complete, or the decoder asks for a seek. Errors are sticky (thrown again by later calls). */
  feed(chunk: Uint8Array): Progress {
    const module = this.#module;
    const ptr = this.#live();
    const input = module.gts_input();
    const size = module.gts_input_size();
    let total = 0;
    for (;;) {
      const len = Math.min(chunk.length - total, size);
      new Uint8Array(module.memory.buffer, input, len).set(chunk.subarray(total, total + len));
      let consumed = 0;
      let status = 'need_input' as Status;
      this.#call(() => module.gts_feed(ptr, len, this.#keyframes), (c, s, seek) => {
        consumed = c;
        status = s === 3 ? { seek } : STATUS[s];
      });
      total += consumed;
      if (status !== 'need_input' || total >= chunk.length) {
        return { consumed: total, status };
      }
    }
  }

  /** Ends the input: decodes what needs no more bytes and reports `end`; a unit cut short
   * throws (`truncated`). */
  finish(): void {
    const module = this.#module;
    const ptr = this.#live();
    this.#call(() => module.gts_finish(ptr, this.#keyframes));
  }

  /** Gives the decoder's memory back now (otherwise when it is garbage collected). */
  free(): void {
    if (this.#ptr) {
      release?.unregister(this);
      this.#module.gts_decoder_free(this.#ptr);
      this.#ptr = 0;
    }
  }

  #live(): number {
    if (!this.#ptr) {
      throw new Error('gtastream: the decoder was freed');
    }
    return this.#ptr;
  }

  #call(run: () => number, progress?: Sink['progress']): void {
    let failure: DecodeError | undefined;
    this.#thrown = undefined;
    const sink = { ...this.#sink, progress, error: (e: DecodeError) => (failure = e) };
    withSink(this.#module, sink, run);
    const thrown = this.#thrown as { error: unknown } | undefined;
    if (thrown) {
      throw thrown.error;
    }
    if (failure) {
      throw failure;
    }
  }

  /** The module's reports turned into the callbacks' arguments. */
  #makeSink(): Sink {
    const cb = this.#callbacks;
    // An exception in a callback must not unwind through the module: kept, then rethrown.
    const guard = <A extends unknown[]>(f: (...args: A) => Flow) => (...args: A): number => {
      try {
        return flowCode(f(...args));
      } catch (error) {
        this.#thrown = { error };
        return ABORT;
      }
    };
    const sink: Sink = {};
    if (cb.file) {
      const f = cb.file.bind(cb);
      sink.file = guard((format, name, animation_count, instance_count, car_count,
        rw_version) => f({ format, name, animation_count, instance_count, car_count, rw_version }));
    }
    if (cb.animation) {
      const f = cb.animation.bind(cb);
      sink.animation = guard((index, name, bone_count, frame_data_size, flags, duration) =>
        f({ index, name, bone_count, frame_data_size, flags, duration }));
    }
    // The bone's contents decide which parts of its keyframes are passed on.
    const onBone = cb.bone?.bind(cb);
    sink.bone = guard((index, name, bone_id, bone_key, frame_type, frame_count,
      has_translation, has_scale) => {
      this.#translation = has_translation;
      this.#scale = has_scale;
      return onBone?.({ index, name, bone_id, bone_key, frame_type, frame_count,
        has_translation, has_scale });
    });
    if (cb.keyframes) {
      const f = cb.keyframes.bind(cb);
      sink.keyframes = guard((floats: Float32Array, count: number) => {
        const frames: Keyframe[] = new Array(count);
        for (let i = 0, at = 0; i < count; i++, at += 11) {
          const frame: Keyframe = {
            time: floats[at],
            rotation: [floats[at + 1], floats[at + 2], floats[at + 3], floats[at + 4]],
          };
          if (this.#translation) {
            frame.translation = [floats[at + 5], floats[at + 6], floats[at + 7]];
          }
          if (this.#scale) {
            frame.scale = [floats[at + 8], floats[at + 9], floats[at + 10]];
          }
          frames[i] = frame;
        }
        return f(frames);
      });
    }
    if (cb.boneEnd) sink.boneEnd = guard(cb.boneEnd.bind(cb));
    if (cb.animationEnd) sink.animationEnd = guard(cb.animationEnd.bind(cb));
    const byKind = cb as Record<string, ((record: unknown) => Flow) | undefined>;
    const named = RECORD_KINDS.map(([kind]) =>
      byKind[kind.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())]?.bind(cb));
    if (cb.record || named.some((f) => f)) {
      const all = cb.record?.bind(cb);
      sink.record = guard((kind: RecordKind, record: Record<string, unknown>) => {
        const typed = record as unknown as RecordTypes[RecordKind];
        const flow = all?.(kind, typed);
        if (flow === 'abort' || flow === false || flow === 'pause') return flow;
        return named[RECORD_KINDS.findIndex(([k]) => k === kind)]?.(typed);
      });
    }
    if (cb.warning) {
      const f = cb.warning.bind(cb);
      sink.warning = guard((kind, reason, offset) => f({ kind, reason, offset }));
    }
    if (cb.end) sink.end = guard(cb.end.bind(cb));
    return sink;
  }
}

/** Where `decodeStream` reads: a stream (read once, no seeking: a file that needs a seek back
 * fails with `seek_required`), a `fetch()` response, a `Blob`/`File` (seekable), or a function
 * opening a stream at an absolute offset (seekable; e.g. a `fetch` with a Range header). */
export type StreamSource =
  | ReadableStream<Uint8Array>
  | Response
  | Blob
  | ((offset: number) => ReadableStream<Uint8Array> | Promise<ReadableStream<Uint8Array>>);

export interface DecodeStreamOptions {
  /** Awaited when a callback pauses, before decoding goes on (default: one macrotask, so a page
   * stays responsive). */
  onPause?: () => Promise<void> | void;
}

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Decodes a whole file from a stream in constant memory, calling `callbacks` per event, and
 * following the decoder's seeks when the source can seek. Resolves after `end`; rejects with a
 * {@link DecodeError} where the file does not decode.
 */
export async function decodeStream(source: StreamSource, callbacks: Callbacks,
  options: DecodeStreamOptions = {}): Promise<void> {
  let open: ((offset: number) => Promise<ReadableStream<Uint8Array>>) | undefined;
  let stream: ReadableStream<Uint8Array>;
  if (typeof source === 'function') {
    open = async (offset) => source(offset);
    stream = await open(0);
  } else if (typeof Blob !== 'undefined' && source instanceof Blob) {
    const blob = source;
    open = async (offset) => blob.slice(offset).stream() as ReadableStream<Uint8Array>;
    stream = await open(0);
  } else if (typeof Response !== 'undefined' && source instanceof Response) {
    if (!source.body) throw new Error('gtastream: the response has no body');
    stream = source.body as ReadableStream<Uint8Array>;
  } else {
    stream = source as ReadableStream<Uint8Array>;
  }
  const decoder = new Decoder(callbacks, { canSeek: open !== undefined });
  let reader = stream.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) {
        decoder.finish();
        return;
      }
      let chunk = value;
      for (;;) {
        const progress = decoder.feed(chunk);
        chunk = chunk.subarray(progress.consumed);
        if (progress.status === 'paused') {
          await (options.onPause ?? nextTask)();
          continue;
        }
        if (typeof progress.status === 'object') {
          // Only a seekable source gets asked to seek.
          await reader.cancel();
          reader = (await open!(progress.status.seek)).getReader();
        }
        break;
      }
    }
  } finally {
    reader.releaseLock();
    decoder.free();
  }
}
