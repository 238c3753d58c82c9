// `gtastream check DIR` from JavaScript: a game or mod folder walked as the game loads it, by the
// library (its `check::walk` and `write_folder_document`, wasm/src/lib.rs
// `gts_check_folder_json`), through files the caller serves synchronously: the module asks for a
// file by the path a level file writes and reads it in pieces, so no archive is read whole.

import type { CheckDocument, CheckFinding, CheckInput } from './check.js';
import { wasm, withSink } from './wasm.js';

/** An open file of a folder. */
export interface FolderFile {
  /** Its length in bytes. */
  readonly size: number;
  /** At most `length` bytes from `offset` (fewer only at the end; none past it). */
  read(offset: number, length: number): Uint8Array;
  /** Called once the check no longer reads it. */
  close?(): void;
}

/** A folder the check reads, served synchronously (a worker's `FileReaderSync`, Node's
 * `fs.readSync`, bytes in memory). */
export interface FolderSource {
  /**
   * The file at `path` as a level file writes it (`DATA\MAPS\LA\LAE.IDE`, `models/gta3.img`:
   * either slash, any case, relative to the game's folder, as the games on Windows resolve
   * it), or null when the folder has no such file (a throw counts as none). A throw from the
   * file's `read` makes the file unreadable (listed in the document's `unreadable` with the
   * message), not the check fail.
   */
  open(path: string): FolderFile | null;
}

/** A game a folder is checked for. */
export type FolderGame = 'sa' | 'vc' | 'iii';

/** Options of {@link checkFolder}. */
export interface CheckFolderOptions {
  /** The game; none: the one whose level file the folder holds (`data/gta.dat` San Andreas,
   * `data/gta_vc.dat` Vice City, `data/gta3.dat` GTA III). Needed when it holds several. */
  game?: FolderGame;
  /** The folder's name in the document (`file`), as `gtastream check --json DIR` names it
   * after its argument. */
  name?: string;
}

/** A finding in a folder: where it is and the other file involved. */
export interface CheckFolderFinding extends CheckFinding {
  /** The file it is in, as the level file writes it (or as the game names it:
   * `models/gta3.img`). */
  path: string;
  /** Its line in that file (level files, text IPLs, IDEs), else null. */
  line: number | null;
  /** The other file involved (the archive that holds a name too, the parent IPL), else null. */
  other: string | null;
}

/** A file the level files name that was there but could not be read. */
export interface UnreadableFile {
  path: string;
  reason: string;
}

/** The folder as `gtastream check --json DIR` prints it: one input of format `DIR`. */
export interface CheckFolderInput extends CheckInput {
  findings: CheckFolderFinding[];
  /** The game checked. */
  game: FolderGame;
  /** `fails` when a finding is an error (the game crashes or corrupts its memory). */
  verdict: 'loads' | 'fails';
  /** Files read, and archive entries read. */
  files: number;
  entries: number;
  unreadable: UnreadableFile[];
}

/** What `gtastream check --json DIR` prints. */
export interface CheckFolderDocument extends CheckDocument {
  inputs: CheckFolderInput[];
}

/** The module's numbers of the games (wasm/src/lib.rs `gts_check_folder_json`). */
const GAME_NUMBERS: Record<FolderGame, number> = { iii: 1, vc: 2, sa: 3 };

/**
 * Checks a game or mod folder as the game loads it (rules `mod.*` across files, and every
 * file's and archive entry's own rules): the document `gtastream check --json DIR` prints,
 * written by the library. Throws an `Error` where the folder cannot be checked at all (no level
 * file of any game, those of several games and no `options.game`).
 */
export function checkFolder(folder: FolderSource, options: CheckFolderOptions = {})
  : CheckFolderDocument {
  return JSON.parse(checkFolderJson(folder, options)) as CheckFolderDocument;
}

/** The same document as JSON text, exactly as `gtastream check --json DIR` prints it. */
export function checkFolderJson(folder: FolderSource, options: CheckFolderOptions = {}): string {
  let game = 0;
  if (options.game !== undefined) {
    game = GAME_NUMBERS[options.game];
    if (!game) throw new Error(`gtastream: a folder is checked for sa, vc or iii, not ${options.game}`);
  }
  const name = new TextEncoder().encode(options.name ?? '');
  const paths = new TextDecoder();
  const open = new Map<number, FolderFile>();
  let next = 0;
  let why = '';
  let failed: string | undefined;
  const pieces: string[] = [];
  const failure = (e: unknown) => {
    why = e instanceof Error ? e.message : String(e);
    return -1;
  };
  const module = wasm();
  const namePtr = module.gts_alloc(name.length);
  try {
    new Uint8Array(module.memory.buffer, namePtr, name.length).set(name);
    withSink(module, {
      text: (piece) => pieces.push(piece),
      folderOpen(path) {
        let file: FolderFile | null;
        try {
          file = folder.open(paths.decode(path));
        } catch (e) {
          // A file that cannot even be opened is one the game would not find either.
          failure(e);
          return -1;
        }
        if (!file) return -1;
        open.set(next, file);
        return next++;
      },
      folderLen(handle) {
        try {
          return open.get(handle)!.size;
        } catch (e) {
          return failure(e);
        }
      },
      folderReadAt(handle, offset, into) {
        try {
          const bytes = open.get(handle)!.read(offset, into.length);
          const len = Math.min(bytes.length, into.length);
          into.set(len === bytes.length ? bytes : bytes.subarray(0, len));
          return len;
        } catch (e) {
          return failure(e);
        }
      },
      folderClose(handle) {
        const file = open.get(handle);
        open.delete(handle);
        file?.close?.();
      },
      folderWhy: () => why,
      folderFailed: (message) => (failed = message),
    }, () => module.gts_check_folder_json(namePtr, name.length, game));
  } finally {
    module.gts_free(namePtr, name.length);
    // Files the walk still held (a throw above): closed all the same.
    for (const file of open.values()) file.close?.();
  }
  if (failed !== undefined) {
    throw new Error(`${options.name || 'folder'}: ${failed}`);
  }
  return pieces.join('');
}

/** A path as the games on Windows compare it: either slash, any case (ASCII), `.` and empty
 * parts left out. */
export function folderKey(path: string): string {
  return path.split(/[\\/]/).filter((p) => p !== '' && p !== '.').join('/')
    .replace(/[A-Z]+/g, (s) => s.toLowerCase());
}

/** Bytes a Blob is read ahead by: the walk reads 16 KiB at a time. */
const READ_AHEAD = 1 << 20;

interface SyncReader {
  readAsArrayBuffer(blob: Blob): ArrayBuffer;
}

/** A Blob read in slices with `FileReaderSync`, a slice of up to 1 MiB kept. */
function blobFile(blob: Blob, reader: SyncReader): FolderFile {
  let kept = new Uint8Array(0);
  let keptAt = 0;
  return {
    size: blob.size,
    read(offset, length) {
      if (offset < keptAt || offset + length > keptAt + kept.length) {
        const end = Math.min(blob.size, offset + Math.max(length, READ_AHEAD));
        kept = offset >= end ? new Uint8Array(0)
          : new Uint8Array(reader.readAsArrayBuffer(blob.slice(offset, end)));
        keptAt = offset;
      }
      return kept.subarray(offset - keptAt, offset - keptAt + length);
    },
  };
}

/**
 * A folder of the given files: `[relativePath, bytes or Blob]` (a dropped folder's files with
 * their paths under it, as `data/gta.dat`), matched in any case with either slash. A Blob (a
 * `File`) is read in slices with `FileReaderSync`, which workers have: never whole.
 */
export function folderFromFiles(files: Iterable<readonly [string, Uint8Array | Blob]>)
  : FolderSource {
  const byKey = new Map<string, Uint8Array | Blob>();
  let reader: SyncReader | undefined;
  for (const [path, data] of files) {
    const key = folderKey(path);
    if (!byKey.has(key)) byKey.set(key, data);
    if (!(data instanceof Uint8Array) && !reader) {
      const Reader = (globalThis as { FileReaderSync?: new () => SyncReader }).FileReaderSync;
      if (!Reader) {
        throw new Error('gtastream: a Blob is read with FileReaderSync, which only a worker has: '
          + 'check the folder in a worker, or pass the files\' bytes');
      }
      reader = new Reader();
    }
  }
  return {
    open(path) {
      const data = byKey.get(folderKey(path));
      if (data === undefined) return null;
      if (data instanceof Uint8Array) {
        return {
          size: data.length,
          read: (offset, length) => data.subarray(offset, offset + length),
        };
      }
      return blobFile(data, reader!);
    },
  };
}

/**
 * A mod folder over the game folder it is checked against (`gtastream check --base BASE
 * MOD`): each path is looked up in `mod` first, then in `base`.
 */
export function folderOver(mod: FolderSource, base: FolderSource): FolderSource {
  return { open: (path) => mod.open(path) ?? base.open(path) };
}

/** The parts of Node's `fs` and `path` read here. */
interface NodeFs {
  existsSync(path: string): boolean;
  readdirSync(path: string): string[];
  statSync(path: string): { isFile(): boolean };
  openSync(path: string, flags: string): number;
  fstatSync(fd: number): { size: number };
  readSync(fd: number, buffer: Uint8Array, offset: number, length: number,
    position: number): number;
  closeSync(fd: number): void;
}
interface NodePath {
  join(...parts: string[]): string;
}

/**
 * Node: the folder at `root` on disk, each path resolved as the games on Windows resolve it
 * (each part in any case, `\` or `/`), as `gtastream check DIR` does; a file is read with
 * `fs.readSync` in pieces, never whole. Async only to load `node:fs`; the source it gives is
 * synchronous.
 */
export async function folderFromDirectory(root: string): Promise<FolderSource> {
  // Computed names keep bundlers from following them into a browser build.
  const [fsName, pathName] = ['node:fs', 'node:path'];
  const fs = (await import(/* webpackIgnore: true */ /* @vite-ignore */ fsName)) as NodeFs;
  const path = (await import(/* webpackIgnore: true */ /* @vite-ignore */ pathName)) as NodePath;
  const resolve = (wanted: string): string | null => {
    let at = root;
    for (const part of wanted.split(/[\\/]/).filter((p) => p !== '' && p !== '.')) {
      const exact = path.join(at, part);
      if (fs.existsSync(exact)) {
        at = exact;
        continue;
      }
      const key = folderKey(part);
      let names: string[];
      try {
        names = fs.readdirSync(at);
      } catch {
        return null;
      }
      const found = names.find((n) => folderKey(n) === key);
      if (found === undefined) return null;
      at = path.join(at, found);
    }
    return at;
  };
  return {
    open(wanted) {
      const at = resolve(wanted);
      if (at === null || !fs.statSync(at).isFile()) return null;
      const fd = fs.openSync(at, 'r');
      return {
        size: fs.fstatSync(fd).size,
        read(offset, length) {
          const bytes = new Uint8Array(length);
          return bytes.subarray(0, fs.readSync(fd, bytes, 0, length, offset));
        },
        close: () => fs.closeSync(fd),
      };
    },
  };
}
