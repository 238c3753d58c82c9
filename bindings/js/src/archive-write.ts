// Writing IMG archives in memory: a new archive of entries, and an archive edited (entries added
// or replaced, removed, or the whole rebuilt). Every rule is the library's: the edit's plan
// (gtastream::archive::plan: which entries, from where, in what order, the name checks) and
// the bytes (its ArchiveWriter); this file only carries bytes to the module and back.
//
// Memory: the module keeps the new archive's directory and one 1 MiB piece; the rest of the new
// `.img` comes back to JavaScript piece by piece (then joined into one Uint8Array, or kept as the
// parts of a Blob by the *Blob functions, which also read the old archive by slices). The
// archive format reaches 4 GiB; a Uint8Array result must also fit one ArrayBuffer.
import { lsBlob, lsSlices } from './archive.js';
import type { ArchiveEntry } from './types.js';
import { type Exports, wasm, withSink } from './wasm.js';

type Bytes = Uint8Array | ArrayBuffer;

/** An entry's name: a string is taken one character per byte (Latin-1, as listings give names
 * out), or the bytes themselves. */
export type EntryName = string | Uint8Array;

/** An entry to put into an archive. */
export interface NewEntry {
  /** 1 to 23 bytes with a `.` the games accept (`docs/FORMATS.md` §5.4). */
  name: EntryName;
  data: Bytes;
}

/** An entry to put into an archive, its bytes possibly a `Blob` (a `File`), read by slices. */
export interface NewEntryBlob {
  name: EntryName;
  data: Bytes | Blob;
}

/** Options of `writeArchive()`. */
export interface WriteArchiveOptions {
  /** 2 (default): a San Andreas `VER2` `.img`. 1: a GTA III / Vice City `.img` and `.dir`. */
  version?: 1 | 2;
}

/** What a write or an edit did: the same fields as Python's and the command-line tool's report. */
export interface EditReport {
  /** Entries of the new archive. */
  entries: number;
  /** Entries copied unchanged from the old archive. */
  kept: number;
  /** Entries replaced in their place. */
  replaced: number;
  /** Entries appended. */
  added: number;
  /** Entries removed. */
  removed: number;
  /** Bytes of the new `.img`. */
  img_len: number;
}

/** A new archive in memory. */
export interface WrittenArchive {
  img: Uint8Array;
  /** The `.dir` of a version 1 archive; null for version 2. */
  dir: Uint8Array | null;
  report: EditReport;
}

/** A new archive as Blobs (to download, or to open again by slices). */
export interface WrittenArchiveBlob {
  img: Blob;
  dir: Blob | null;
  report: EditReport;
}

/**
 * An archive cannot be written as asked; the input is untouched. `kind` is the library's stable
 * name: `empty_name`, `name_too_long`, `invalid_name`, `duplicate_name`, `entry_too_large`,
 * `archive_too_large`, `too_many_entries` (its ArchiveWriteErrorKind), or `no_such_entry` (a name
 * to remove that the archive does not hold).
 */
export class ArchiveError extends Error {
  readonly kind: string;
  /** The entry concerned: for the name checks and `no_such_entry`, its index among the entries
   * (or names) given; for sizes, its index in the new archive. */
  readonly index: number;
  /** The entry's name, one character per byte ('' when none). */
  readonly entry: string;

  constructor(kind: string, message: string, index: number, entry: string) {
    super(message);
    this.name = 'ArchiveError';
    this.kind = kind;
    this.index = index;
    this.entry = entry;
  }
}

/** The module's edits (`gts_archive_new`'s `op`). */
const Op = { Create: 0, Add: 1, Remove: 2, Rebuild: 3 } as const;
type Op = (typeof Op)[keyof typeof Op];

/** Bytes read from a Blob at a time (then fed to the module in its input buffer's pieces). */
const BLOB_READ = 4 << 20;

function nameBytes(name: EntryName): Uint8Array {
  if (name instanceof Uint8Array) return name;
  const bytes = new Uint8Array(name.length);
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i);
    if (code > 0xff) {
      throw new RangeError(`${JSON.stringify(name)}: an entry name is Latin-1 text`);
    }
    bytes[i] = code;
  }
  return bytes;
}

const asBytes = (data: Bytes): Uint8Array => (data instanceof Uint8Array ? data : new Uint8Array(data));

/** One archive being written by the module: the library's plan carried out, entry by entry. */
class Writing {
  private readonly module: Exports;
  private readonly handle: number;
  private readonly version1: boolean;
  private readonly pieces: Uint8Array[] = [];
  private failure: ArchiveError | undefined;

  constructor(version1: boolean, op: Op, old: EntryName[], given: EntryName[]) {
    this.module = wasm();
    this.version1 = version1;
    const names = [...old, ...given].map(nameBytes);
    const total = names.reduce((n, b) => n + b.length, 0);
    const m = this.module;
    // Never 0 bytes asked of the allocator (whose blocks are 8-byte aligned: a Uint32Array fits).
    const lensPtr = m.gts_alloc(names.length * 4 || 1);
    const namesPtr = m.gts_alloc(total || 1);
    try {
      const lens = new Uint32Array(m.memory.buffer, lensPtr, names.length);
      let at = namesPtr;
      names.forEach((name, i) => {
        lens[i] = name.length;
        new Uint8Array(m.memory.buffer, at, name.length).set(name);
        at += name.length;
      });
      this.handle = this.call(() => m.gts_archive_new(version1 ? 1 : 0, op, namesPtr, lensPtr,
        old.length, given.length));
    } finally {
      m.gts_free(namesPtr, total || 1);
      m.gts_free(lensPtr, names.length * 4 || 1);
    }
    if (this.handle === 0) this.throw();
  }

  /** Runs one call of the module, keeping the pieces of the `.img` and the error it reports. */
  private call(run: () => number): number {
    return withSink(this.module, {
      output: (bytes) => this.pieces.push(bytes),
      archiveError: (kind, message, index, entry) => {
        this.failure = new ArchiveError(kind, message, index, entry);
      },
    }, run);
  }

  private throw(): never {
    throw this.failure ?? new Error('gtastream: the archive could not be written');
  }

  /** Begins the next entry: where its bytes come from, or null once every entry is begun. */
  next(): { old: boolean; index: number } | null {
    const code = this.call(() => this.module.gts_archive_next(this.handle));
    if (code === 3) this.throw();
    if (code === 0) return null;
    return { old: code === 1, index: this.module.gts_archive_source(this.handle) };
  }

  /** Appends bytes to the entry begun. */
  write(bytes: Uint8Array): void {
    const m = this.module;
    const input = m.gts_input();
    const size = m.gts_input_size();
    for (let at = 0; at < bytes.length; at += size) {
      const piece = bytes.subarray(at, at + size);
      new Uint8Array(m.memory.buffer, input, piece.length).set(piece);
      if (this.call(() => m.gts_archive_write(this.handle, piece.length)) !== 0) this.throw();
    }
  }

  /** Ends the archive: its `.img` as parts in order, its `.dir`, the report. */
  finish(): { img: Uint8Array[]; dir: Uint8Array | null; report: EditReport } {
    const m = this.module;
    if (this.call(() => m.gts_archive_finish(this.handle)) !== 0) this.throw();
    const copy = (ptr: number, len: number) => new Uint8Array(m.memory.buffer.slice(ptr, ptr + len));
    const head = copy(m.gts_archive_head(this.handle), m.gts_archive_head_len(this.handle));
    const [entries, kept, replaced, added, removed, img_len] =
      new Float64Array(m.memory.buffer, m.gts_archive_report(this.handle), 6);
    const dirLen = m.gts_archive_dir_len(this.handle);
    return {
      img: [head, ...this.pieces],
      dir: this.version1 ? copy(m.gts_archive_dir(this.handle), dirLen) : null,
      report: { entries, kept, replaced, added, removed, img_len },
    };
  }

  free(): void {
    this.module.gts_archive_free(this.handle);
  }
}

type Parts = ReturnType<Writing['finish']>;

/** Feeds each entry the plan asks for, from `old` (an index in the old archive's listing) or
 * `given` (an index among the new entries). */
function runSync(writing: Writing, old: (index: number) => Uint8Array,
  given: (index: number) => Uint8Array): Parts {
  try {
    for (let source = writing.next(); source; source = writing.next()) {
      writing.write(source.old ? old(source.index) : given(source.index));
    }
    return writing.finish();
  } finally {
    writing.free();
  }
}

/** As `runSync`, the bytes possibly to wait for, or a Blob read by slices of BLOB_READ bytes. */
async function runAsync(writing: Writing, old: (index: number) => Promise<Bytes | Blob>,
  given: (index: number) => Bytes | Blob): Promise<Parts> {
  try {
    for (let source = writing.next(); source; source = writing.next()) {
      const data = source.old ? await old(source.index) : given(source.index);
      if (!(data instanceof Blob)) {
        writing.write(asBytes(data));
        continue;
      }
      for (let at = 0; at < data.size; at += BLOB_READ) {
        writing.write(new Uint8Array(await data.slice(at, at + BLOB_READ).arrayBuffer()));
      }
    }
    return writing.finish();
  } finally {
    writing.free();
  }
}

/** The old entries of an archive in a Blob, read with neighbours: one read covers the entry and
 * the ones after it in the directory that follow it in the file, up to BLOB_READ bytes (an
 * archive holds thousands of small entries, mostly in directory order). */
function entryReader(img: Blob, entries: ArchiveEntry[]): (index: number) => Promise<Bytes | Blob> {
  let start = 0;
  let held = new Uint8Array(0);
  return async (i) => {
    const { offset, size } = entries[i];
    if (size > BLOB_READ) return img.slice(offset, offset + size);
    if (offset < start || offset + size > start + held.length) {
      let end = offset + size;
      for (let j = i + 1; j < entries.length && entries[j].offset === end
        && end + entries[j].size - offset <= BLOB_READ; j++) {
        end += entries[j].size;
      }
      start = offset;
      held = new Uint8Array(await img.slice(offset, end).arrayBuffer());
    }
    return held.subarray(offset - start, offset - start + size);
  };
}

function joined({ img, dir, report }: Parts): WrittenArchive {
  const out = new Uint8Array(img.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of img) {
    out.set(part, at);
    at += part.length;
  }
  return { img: out, dir, report };
}

function blobs({ img, dir, report }: Parts): WrittenArchiveBlob {
  const type = 'application/octet-stream';
  return { img: new Blob(img as BlobPart[], { type }),
    dir: dir && new Blob([dir as BlobPart], { type }), report };
}

/**
 * Builds an IMG archive in memory of `entries`, in their order: a San Andreas `VER2` `.img`, or
 * with `{ version: 1 }` a GTA III / Vice City `.img` and its `.dir`. The same bytes as
 * `gtastream img new` and Python's `write_archive()`. Throws an {@link ArchiveError} naming an
 * entry the games cannot read (its name, its size) or a name given twice (ASCII case aside).
 */
export function writeArchive(entries: NewEntry[], options: WriteArchiveOptions = {}): WrittenArchive {
  const version = options.version ?? 2;
  if (version !== 1 && version !== 2) {
    throw new RangeError(`gtastream: an archive is of version 1 or 2, not ${String(version)}`);
  }
  const writing = new Writing(version === 1, Op.Create, [], entries.map((e) => e.name));
  return joined(runSync(writing, () => new Uint8Array(), (k) => asBytes(entries[k].data)));
}

/** The old archive in memory: its listing, the slice of each entry, its version. */
function edited(img: Bytes, dir: Bytes | undefined, op: Op, given: EntryName[],
  data: (index: number) => Uint8Array): WrittenArchive {
  const bytes = asBytes(img);
  const listing = lsSlices(bytes, dir === undefined ? undefined : asBytes(dir));
  const old = listing.entries;
  const writing = new Writing(listing.format === 'VER1', op, old.map((e) => e.name), given);
  return joined(runSync(writing, (i) => bytes.subarray(old[i].offset, old[i].offset + old[i].size),
    data));
}

async function editedBlob(img: Blob, dir: Blob | undefined, op: Op, given: EntryName[],
  data: (index: number) => Bytes | Blob): Promise<WrittenArchiveBlob> {
  const listing = await lsBlob(img, dir);
  const old: ArchiveEntry[] = listing.entries;
  const writing = new Writing(listing.format === 'VER1', op, old.map((e) => e.name), given);
  return blobs(await runAsync(writing, entryReader(img, old), data));
}

/**
 * The archive (`img`, and `dir` for version 1) with `entries` put in, as `gtastream img add`
 * does: a name already there (ASCII case aside) is replaced in its place, a new one appended
 * after the last entry; every other entry is copied unchanged. The archive given is not
 * changed. Throws an {@link ArchiveError}, or a `DecodeError` when the archive does not read.
 */
export function addEntries(img: Bytes, entries: NewEntry[], dir?: Bytes): WrittenArchive {
  return edited(img, dir, Op.Add, entries.map((e) => e.name), (k) => asBytes(entries[k].data));
}

/**
 * The archive without every entry named by one of `names` (ASCII case aside), as
 * `gtastream img rm` does. A name the archive does not hold throws an {@link ArchiveError} of
 * kind `no_such_entry`.
 */
export function removeEntries(img: Bytes, names: EntryName[], dir?: Bytes): WrittenArchive {
  return edited(img, dir, Op.Remove, names, () => new Uint8Array());
}

/** The archive written anew, as `gtastream img rebuild` does: the entries in their order, packed,
 * without the holes, junk and unused directory room between them. */
export function rebuildArchive(img: Bytes, dir?: Bytes): WrittenArchive {
  return edited(img, dir, Op.Rebuild, [], () => new Uint8Array());
}

/** {@link addEntries} of an archive given as Blobs (a `File` of any size), read by slices; the
 * new entries' bytes may be Blobs too. The new archive comes as Blobs. */
export function addEntriesBlob(img: Blob, entries: NewEntryBlob[], dir?: Blob):
  Promise<WrittenArchiveBlob> {
  return editedBlob(img, dir, Op.Add, entries.map((e) => e.name), (k) => entries[k].data);
}

/** {@link removeEntries} of an archive given as Blobs, read by slices. */
export function removeEntriesBlob(img: Blob, names: EntryName[], dir?: Blob):
  Promise<WrittenArchiveBlob> {
  return editedBlob(img, dir, Op.Remove, names, () => new Uint8Array());
}

/** {@link rebuildArchive} of an archive given as Blobs, read by slices. */
export function rebuildArchiveBlob(img: Blob, dir?: Blob): Promise<WrittenArchiveBlob> {
  return editedBlob(img, dir, Op.Rebuild, [], () => new Uint8Array());
}
