// IMG archives held in memory: the listing of `gtastream ls --json` and the document of one
// entry (`gtastream dump --json ARCHIVE:ENTRY`), both written by the module.
import type { ArchiveListing, GtaDocument, Keyframe } from './types.js';
import { type Buffers, buffersOf, keyframes, toDocument, toListing } from './view.js';
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
  return toListing(archiveBuffers(img, dir, (m, i, il, d, dl, hd) => m.gts_listing(i, il, d, dl, hd)));
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
  const buffers = archiveBuffers(img, dir, (m, i, il, d, dl, hd) =>
    withName(m, name, (ptr, len) => m.gts_entry_document(i, il, d, dl, hd, ptr, len, 0)),
  (memory, ptr, count, contents) =>
    bones.push(keyframes(new Float64Array(memory, ptr, count), contents)));
  return toDocument(buffers, bones);
}

/** The same document as JSON text, exactly as `gtastream dump --json ARCHIVE:ENTRY` prints it. */
export function decodeEntryJson(img: Bytes, name: string, dir?: Bytes): string {
  return run(img, dir, (m, i, il, d, dl, hd) =>
    withName(m, name, (ptr, len) => m.gts_entry_json(i, il, d, dl, hd, ptr, len)));
}
