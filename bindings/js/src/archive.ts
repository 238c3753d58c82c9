// IMG archives held in memory: the listing of `gtastream ls --json` and the document of one
// entry (`gtastream dump --json ARCHIVE:ENTRY`), both written by the module.
import type { ArchiveListing, Format, GtaDocument, Keyframe, ModelCounts } from './types.js';
import { type Buffers, buffersOf, keyframes, newTimes, toDocument, toListing } from './view.js';
import { DecodeError, type Exports, type Sink, wasm, withSink } from './wasm.js';

type Bytes = Uint8Array | ArrayBuffer;
type Call = (module: Exports, img: number, imgLen: number, dir: number, dirLen: number,
  hasDir: number) => number;

/** Copies the archive into the module's memory and runs `use` with its pointers. */
function withArchive<T>(img: Bytes, dir: Bytes | undefined,
  use: (module: Exports, call: (c: Call) => number) => T): T {
  const module = wasm();
  const held: [number, number][] = [];
  const copy = (data: Bytes): [number, number] => {
    const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
    const ptr = module.gts_alloc(bytes.length);
    held.push([ptr, bytes.length]);
    new Uint8Array(module.memory.buffer, ptr, bytes.length).set(bytes);
    return [ptr, bytes.length];
  };
  try {
    const [imgPtr, imgLen] = copy(img);
    const [dirPtr, dirLen] = dir === undefined ? [0, 0] : copy(dir);
    return use(module, (c) => c(module, imgPtr, imgLen, dirPtr, dirLen, dir === undefined ? 0 : 1));
  } finally {
    for (const [ptr, len] of held) {
      module.gts_free(ptr, len);
    }
  }
}

/** The buffers of an archive's listing, or of one entry's document. */
function archiveBuffers(img: Bytes, dir: Bytes | undefined, call: Call,
  bone?: Sink['boneValues']): Buffers {
  return withArchive(img, dir, (module, run) => buffersOf(module, () => run(call), bone));
}

/** Runs `call` with the UTF-8 bytes of `name` in the module's memory. */
function withName(module: Exports, name: string, call: (ptr: number, len: number) => number): number {
  const utf8 = new TextEncoder().encode(name);
  const ptr = module.gts_alloc(utf8.length);
  try {
    new Uint8Array(module.memory.buffer, ptr, utf8.length).set(utf8);
    return call(ptr, utf8.length);
  } finally {
    module.gts_free(ptr, utf8.length);
  }
}

/** Runs `call` on the archive, collects the text the module hands over and throws the error it
 * reports. */
function run(img: Bytes, dir: Bytes | undefined, call: Call): string {
  return withArchive(img, dir, (module, run) => {
    const pieces: string[] = [];
    let failure: DecodeError | undefined;
    const rc = withSink(module,
      { text: (piece) => pieces.push(piece), error: (e) => (failure = e) }, () => run(call));
    if (failure) {
      throw failure;
    }
    if (rc !== 0) {
      throw new Error('gtastream: the document could not be written');
    }
    return pieces.join('');
  });
}

/**
 * Lists the entries of an IMG archive: a San Andreas `VER2` `.img`, or a GTA III / Vice City
 * `.img` with its `.dir` as `dir`. The same as `gtastream ls --json`; throws a
 * {@link DecodeError} where the tool would fail.
 */
export function ls(img: Bytes, dir?: Bytes): ArchiveListing {
  // The tool's own listing text: a model's counts and text settled as `ls --json` gives them.
  return JSON.parse(lsJson(img, dir)) as ArchiveListing;
}

/** The same listing as JSON text, exactly as `gtastream ls --json` prints it. */
export function lsJson(img: Bytes, dir?: Bytes): string {
  return run(img, dir, (m, i, il, d, dl, hd) => m.gts_ls(i, il, d, dl, hd));
}

/**
 * Decodes the archive entry called `name` (ASCII case ignored) into the document
 * `gtastream dump --json ARCHIVE:ENTRY` prints, the same as `decode()` of the extracted entry.
 * Throws a {@link DecodeError}: the entry's own error, or kind `no_such_entry`.
 */
export function decodeEntry(img: Bytes, name: string, dir?: Bytes): GtaDocument {
  const bones: Keyframe[][] = [];
  const times = newTimes();
  const buffers = archiveBuffers(img, dir, (m, i, il, d, dl, hd) =>
    withName(m, name, (ptr, len) => m.gts_entry_document(i, il, d, dl, hd, ptr, len, 0)),
  (memory, ptr, count, contents) =>
    bones.push(keyframes(new Float64Array(memory, ptr, count), contents, times)));
  return toDocument(buffers, bones);
}

/** The same document as JSON text, exactly as `gtastream dump --json ARCHIVE:ENTRY` prints it. */
export function decodeEntryJson(img: Bytes, name: string, dir?: Bytes): string {
  return run(img, dir, (m, i, il, d, dl, hd) =>
    withName(m, name, (ptr, len) => m.gts_entry_json(i, il, d, dl, hd, ptr, len)));
}

/** What the listing of an archive read in pieces wants next: bytes `start` to `end` of the `.img`
 * (`img`) or of the `.dir`. */
interface Wanted {
  img: boolean;
  start: number;
  end: number;
}

/** The library's listing of an archive read in pieces: yields the bytes it wants next, is sent
 * them, and returns the listing. */
function* listingOf(imgSize: number, dirSize: number | undefined):
  Generator<Wanted, ArchiveListing, Uint8Array> {
  const module = wasm();
  const version1 = dirSize !== undefined;
  const stream = module.gts_listing_new(version1 ? 1 : 0, dirSize ?? 0, imgSize);
  const input = module.gts_input();
  const size = module.gts_input_size();
  try {
    for (;;) {
      const img = module.gts_listing_input(stream) === 1;
      const position = module.gts_listing_position(stream);
      const wanted = module.gts_listing_wanted(stream);
      const len = Math.min(size, wanted < 0 ? size : wanted,
        (img ? imgSize : dirSize ?? 0) - position);
      if (len <= 0) break;
      const bytes = yield { img, start: position, end: position + len };
      let status = 0;
      let failure: DecodeError | undefined;
      new Uint8Array(module.memory.buffer, input, bytes.length).set(bytes);
      withSink(module, {
        progress: (_consumed, s) => (status = s),
        error: (e) => (failure = e),
      }, () => module.gts_listing_feed(stream, bytes.length));
      if (failure) throw failure;
      // 2: every record read. Otherwise the decoder's position says where to read next.
      if (status === 2) break;
    }
    return toListing(buffersOf(module, () => module.gts_listing_finish(stream)));
  } finally {
    module.gts_listing_free(stream);
  }
}

/** Windows held: one for the run of directory records, one for the entries' first bytes. */
const WINDOWS = 2;
/** Bytes a read takes past the range wanted, at most: the size of a window. */
const READ_AHEAD = 8 << 20;
/** The read ahead of a run's second read; each later one reads twice as far, to READ_AHEAD. */
const FIRST_AHEAD = 64 << 10;
/** A gap between wanted ranges cheaper to read across than to slice again. In Chromium a
 * slice of a `File` on disk costs about a millisecond whatever its size, the time of reading
 * half a MiB (a listing of 16000 entries spread over 788 MiB: 31 s in two slices an entry,
 * 1.4 s through these windows). */
const NEAR = 512 << 10;

/** Bytes of a Blob held from `start`; `served` ends the last range served from them, `ahead`
 * says how far past the range wanted they were read. */
interface Window {
  blob: Blob;
  start: number;
  bytes: Uint8Array;
  served: number;
  ahead: number;
}

/**
 * The ranges the listing wants, read through {@link WINDOWS} windows: at most 16 MiB of the
 * archive held, whatever its size (a window is at most {@link READ_AHEAD} bytes, a range at
 * most the module's 64 KiB input buffer). The listing alternates between the directory's
 * records, one after the other, and the entries' first bytes, often packed; each run keeps a
 * window. A range starting at most {@link NEAR} bytes past where a window's last one ended
 * goes on with that run and is read ahead: twice as far as that window was, from FIRST_AHEAD
 * up to READ_AHEAD. Any other range starts a run and reads only what is wanted, so entries
 * far apart cost a slice each, and a read ahead is at most about twice the bytes just read in
 * sequence. Every slice is of a range the listing wants that no window holds.
 */
class Windows {
  /** Most recently used first. */
  private readonly windows: Window[] = [];

  /** Bytes `start` to `end` of `blob` if a window holds them. */
  held(blob: Blob, start: number, end: number): Uint8Array | undefined {
    const at = this.windows.findIndex((w) =>
      w.blob === blob && start >= w.start && end <= w.start + w.bytes.length);
    if (at < 0) return undefined;
    const [window] = this.windows.splice(at, 1);
    this.windows.unshift(window);
    window.served = end;
    return window.bytes.subarray(start - window.start, end - window.start);
  }

  /** Reads bytes `start` to `end` of `blob` into a window, with what may be wanted next. It
   * replaces the window of the run it goes on with, else the least recently used. */
  async read(blob: Blob, start: number, end: number): Promise<Uint8Array> {
    const run = this.runTo(blob, start);
    const ahead = run ? Math.min(READ_AHEAD, Math.max(FIRST_AHEAD, 2 * run.ahead)) : 0;
    const stop = Math.min(blob.size, Math.max(end, start + ahead));
    const bytes = new Uint8Array(await blob.slice(start, stop).arrayBuffer());
    if (run) this.windows.splice(this.windows.indexOf(run), 1);
    this.windows.unshift({ blob, start, bytes, served: end, ahead });
    this.windows.splice(WINDOWS);
    return bytes.subarray(0, end - start);
  }

  /** The window whose last range ended closest before `start`, at most NEAR bytes before. */
  private runTo(blob: Blob, start: number): Window | undefined {
    let run: Window | undefined;
    for (const w of this.windows) {
      const gap = start - w.served;
      if (w.blob === blob && gap >= 0 && gap <= NEAR && !(run && run.served > w.served)) run = w;
    }
    return run;
  }
}

/**
 * Lists an archive read in pieces (`Blob.slice`: a `File` of any size): the directory, and
 * each entry's first bytes, as the library's archive decoder asks for them. The same listing
 * as {@link ls}; a version 1 archive needs its `.dir` as `dir`. The directory is read in
 * pieces of up to 8 MiB, and so are entries less than 512 KiB apart (one piece serves many of
 * them: a slice costs more than the bytes); at most 16 MiB of the archive is held at once.
 */
export async function lsBlob(img: Blob, dir?: Blob): Promise<ArchiveListing> {
  const windows = new Windows();
  const listing = listingOf(img.size, dir?.size);
  try {
    for (let step = listing.next(); ; ) {
      if (step.done) {
        // In file order, one after the other: a window read for one serves its neighbours.
        const read = async (ranges: [number, number][]) => {
          const out: Uint8Array[] = new Array(ranges.length);
          const order = ranges.map((_, i) => i).sort((a, b) => ranges[a][0] - ranges[b][0]);
          for (const i of order) {
            const [start, end] = ranges[i];
            out[i] = windows.held(img, start, end) ?? await windows.read(img, start, end);
          }
          return out;
        };
        const heads = await read(textHeads(step.value));
        const models = await read(modelRanges(step.value));
        return settleModels(settleText(step.value, heads), models);
      }
      const { img: fromImg, start, end } = step.value;
      const file = fromImg ? img : dir!;
      step = listing.next(windows.held(file, start, end) ?? await windows.read(file, start, end));
    }
  } finally {
    listing.return(undefined as never);
  }
}

/** {@link ls} reading the archive in pieces as {@link lsBlob} does: the module's memory holds
 * the pieces, not the archive. */
export function lsSlices(img: Uint8Array, dir?: Uint8Array): ArchiveListing {
  const listing = listingOf(img.length, dir?.length);
  try {
    for (let step = listing.next(); ; ) {
      if (step.done) {
        const slice = ([s, e]: [number, number]) => img.subarray(s, e);
        const text = settleText(step.value, textHeads(step.value).map(slice));
        return settleModels(text, modelRanges(step.value).map(slice));
      }
      const { img: fromImg, start, end } = step.value;
      step = listing.next((fromImg ? img : dir!).subarray(start, end));
    }
  } finally {
    listing.return(undefined as never);
  }
}

/** The `.img` ranges of the text entries' first bytes, which settle their format. */
function textHeads(listing: ArchiveListing): [number, number][] {
  const size = wasm().gts_format_head_size();
  return listing.entries.filter((e) => e.format === 'text')
    .map((e) => [e.offset, e.offset + Math.min(e.size, size)]);
}

/** The listing with its text entries settled from their first bytes (`heads`, in the order of
 * {@link textHeads}) as {@link ls} and the command-line tool settle them: a text IPL stays
 * `text`, an item definition file is `ide`, text the decoder does not read (a readme) has no
 * format. */
function settleText(listing: ArchiveListing, heads: Uint8Array[]): ArchiveListing {
  const module = wasm();
  const size = module.gts_format_head_size();
  let at = 0;
  for (const entry of listing.entries.filter((e) => e.format === 'text')) {
    const head = heads[at++];
    const ptr = module.gts_alloc(head.length);
    try {
      new Uint8Array(module.memory.buffer, ptr, head.length).set(head);
      const whole = entry.size <= size && head.length === entry.size ? 1 : 0;
      let format: Format | null = null;
      withSink(module, { text: (name) => (format = name as Format) },
        () => module.gts_text_format(ptr, head.length, whole));
      entry.format = format;
    } finally {
      module.gts_free(ptr, head.length);
    }
  }
  return listing;
}

/** The `.img` ranges of the models (DFF entries), read whole for their counts. */
function modelRanges(listing: ArchiveListing): [number, number][] {
  return listing.entries.filter((e) => e.format === 'dff').map((e) => [e.offset, e.offset + e.size]);
}

/** The listing with each model's counts (`model`, as `gtastream ls --json` gives them) from its
 * bytes (`models`, in the order of {@link modelRanges}). */
function settleModels(listing: ArchiveListing, models: Uint8Array[]): ArchiveListing {
  const module = wasm();
  let at = 0;
  for (const entry of listing.entries.filter((e) => e.format === 'dff')) {
    const bytes = models[at++];
    const ptr = module.gts_alloc(bytes.length);
    const pieces: string[] = [];
    try {
      new Uint8Array(module.memory.buffer, ptr, bytes.length).set(bytes);
      withSink(module, { text: (piece) => pieces.push(piece), error: () => undefined },
        () => module.gts_model_counts_json(ptr, bytes.length));
    } finally {
      module.gts_free(ptr, bytes.length);
    }
    entry.model = JSON.parse(pieces.join('')) as ModelCounts | null;
  }
  return listing;
}
