import { type DecodeError, wasm, withSink } from './wasm.js';

/** A game `check` knows, as `gtastream check --game` names it. */
export type CheckGame = 'iii' | 'vc' | 'sa' | 'mta';

/** Options of {@link check}. */
export interface CheckOptions {
  /** The file's name: its stem is the block name the game expects (`ped.ifp` holds `ped`). */
  name?: string;
  /**
   * The games to check for (those of them that load the file). None: the games the file is for,
   * read from the file itself (ANP3 → SA and MTA, an ANPK of 48-byte ANIM chunks → III, ...).
   */
  games?: CheckGame[];
  /** The `.dir` of a version 1 archive: `data` is then its `.img` (format `VER1`). */
  dir?: Uint8Array | ArrayBuffer;
  /** A model's DFF bytes: the file's animations are also checked against its skeleton
   * (`check --skeleton MODEL`, rules `skel.*`, docs/SKELETON.md). A DFF checked alone gets its
   * skeleton report without this. */
  skeleton?: Uint8Array | ArrayBuffer;
}

/** A finding (docs/CHECKS.md lists the rules). */
export interface CheckFinding {
  rule: string;
  severity: 'error' | 'warning' | 'note';
  games: CheckGame[];
  offset: number;
  entry: string | null;
  animation: number | null;
  bone: number | null;
  message: string;
}

/**
 * One rule's findings in an input, as `check` prints them: `listed` groups finding by finding,
 * the others as one line with their `spread` ("769 times in 330 animations").
 */
export interface CheckGroup {
  rule: string;
  severity: 'error' | 'warning' | 'note';
  /** The games of its findings, together. */
  games: CheckGame[];
  /** Its findings, and in how many animations and archive entries they lie. */
  count: number;
  animations: number;
  entries: number;
  /** The index of its first finding in `findings`. */
  first: number;
  listed: boolean;
  spread: string;
}

/** Findings by level. */
export interface CheckCounts {
  errors: number;
  warnings: number;
  notes: number;
}

/** The summary line: findings by level, and by level for each game. */
export interface CheckSummary extends CheckCounts {
  games: Record<CheckGame, CheckCounts>;
}

/** One checked input (a file, an archive, an archive's entry). */
export interface CheckInput {
  file: string;
  format: string | null;
  findings: CheckFinding[];
  groups: CheckGroup[];
  summary: CheckSummary;
  /** The games it was checked for. */
  games: CheckGame[];
  /** Whence they came: the file itself (no games named), or the caller's `games`. */
  games_from: 'file' | 'caller';
}

/** What `gtastream check --json` prints. */
export interface CheckDocument {
  inputs: CheckInput[];
}

/** The module's bits of the games checked (wasm/src/lib.rs `gts_check_json`). */
export const GAME_BITS: Record<CheckGame, number> = { iii: 1, vc: 2, sa: 4, mta: 8 };

/**
 * Checks a file (or an IMG archive: version 2, or version 1's `.img` with `options.dir`) against the games' loading rules: the document
 * `gtastream check --json` prints, written by the library.
 */
export function check(data: Uint8Array | ArrayBuffer, options: CheckOptions = {}): CheckDocument {
  return JSON.parse(checkJson(data, options)) as CheckDocument;
}

/** The same document as JSON text, exactly as `gtastream check --json NAME` prints it. Throws a
 * {@link DecodeError} where `options.skeleton` is no model the tool reads. */
export function checkJson(data: Uint8Array | ArrayBuffer, options: CheckOptions = {}): string {
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
  const dir = options.dir === undefined ? null
    : options.dir instanceof Uint8Array ? options.dir : new Uint8Array(options.dir);
  const name = new TextEncoder().encode(options.name ?? '');
  const games = (options.games ?? []).reduce((bits, g) => bits | GAME_BITS[g], 0);
  const model = options.skeleton === undefined ? undefined
    : options.skeleton instanceof Uint8Array ? options.skeleton : new Uint8Array(options.skeleton);
  const module = wasm();
  const len = bytes.length;
  const ptr = module.gts_alloc(len);
  const namePtr = module.gts_alloc(name.length);
  const dirLen = dir?.length ?? 0;
  const dirPtr = module.gts_alloc(dirLen);
  const modelPtr = model ? module.gts_alloc(model.length) : 0;
  const pieces: string[] = [];
  let failure: DecodeError | undefined;
  try {
    new Uint8Array(module.memory.buffer, ptr, len).set(bytes);
    new Uint8Array(module.memory.buffer, namePtr, name.length).set(name);
    if (dir) new Uint8Array(module.memory.buffer, dirPtr, dirLen).set(dir);
    if (model) new Uint8Array(module.memory.buffer, modelPtr, model.length).set(model);
    withSink(
      module,
      { text: (piece) => pieces.push(piece), error: (e) => (failure = e) },
      () => (model
        ? module.gts_check_skeleton_json(ptr, len, namePtr, name.length, games, modelPtr,
          model.length)
        : module.gts_check_json(ptr, len, dirPtr, dirLen, dir ? 1 : 0, namePtr, name.length,
          games)),
    );
  } finally {
    module.gts_free(ptr, len);
    module.gts_free(namePtr, name.length);
    module.gts_free(dirPtr, dirLen);
    if (model) module.gts_free(modelPtr, model.length);
  }
  if (failure) throw failure;
  return pieces.join('');
}
