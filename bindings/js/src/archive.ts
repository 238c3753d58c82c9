// IMG archives held in memory: the listing of `gtastream ls --json` and the document of one
// entry (`gtastream dump --json ARCHIVE:ENTRY`), both written by the module.
import type { ArchiveListing, GtaDocument } from './types.js';
import { DecodeError, type Exports, wasm, withSink } from './wasm.js';

type Bytes = Uint8Array | ArrayBuffer;

/** Copies the archive into the module's memory, runs `call` with its pointers, collects the
 * text the module hands over and throws the error it reports. */
function run(img: Bytes, dir: Bytes | undefined,
  call: (module: Exports, img: number, imgLen: number, dir: number, dirLen: number,
    hasDir: number) => number): string {
  const module = wasm();
  const held: [number, number][] = [];
  const copy = (data: Bytes): [number, number] => {
    const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
    const ptr = module.gts_alloc(bytes.length);
    held.push([ptr, bytes.length]);
    new Uint8Array(module.memory.buffer, ptr, bytes.length).set(bytes);
    return [ptr, bytes.length];
  };
  const pieces: string[] = [];
  let failure: DecodeError | undefined;
  try {
    const [imgPtr, imgLen] = copy(img);
    const [dirPtr, dirLen] = dir === undefined ? [0, 0] : copy(dir);
    const rc = withSink(
      module,
      { text: (piece) => pieces.push(piece), error: (e) => (failure = e) },
      () => call(module, imgPtr, imgLen, dirPtr, dirLen, dir === undefined ? 0 : 1),
    );
    if (failure) {
      throw failure;
    }
    if (rc !== 0) {
      throw new Error('gtastream: the document could not be written');
    }
  } finally {
    for (const [ptr, len] of held) {
      module.gts_free(ptr, len);
    }
  }
  return pieces.join('');
}

/**
 * Lists the entries of an IMG archive: a San Andreas `VER2` `.img`, or a GTA III / Vice City
 * `.img` with its `.dir` as `dir`. The same as `gtastream ls --json`; throws a
 * {@link DecodeError} where the tool would fail.
 */
export function ls(img: Bytes, dir?: Bytes): ArchiveListing {
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
  return JSON.parse(decodeEntryJson(img, name, dir)) as GtaDocument;
}

/** The same document as JSON text, exactly as `gtastream dump --json ARCHIVE:ENTRY` prints it. */
export function decodeEntryJson(img: Bytes, name: string, dir?: Bytes): string {
  const utf8 = new TextEncoder().encode(name);
  return run(img, dir, (m, i, il, d, dl, hd) => {
    // The name goes in last: a failure above leaves nothing of it to free.
    const ptr = m.gts_alloc(utf8.length);
    try {
      new Uint8Array(m.memory.buffer, ptr, utf8.length).set(utf8);
      return m.gts_entry_json(i, il, d, dl, hd, ptr, utf8.length);
    } finally {
      m.gts_free(ptr, utf8.length);
    }
  });
}
