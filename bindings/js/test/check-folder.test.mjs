// checkFolder(): `gtastream check DIR` from JavaScript, on folders built in code (test/folders.mjs)
// written to a temporary folder: the same JSON text as the command-line tool's, from the
// directory on disk and from the files in memory (and as Blobs read with FileReaderSync).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { test } from 'node:test';

import {
  checkFolder, checkFolderJson, folderFromDirectory, folderFromFiles, folderOver,
} from '../dist/index.js';
import { cli } from './fixtures.mjs';
import { iii, sanAndreas, saWithFindings, viceCity, writeFolder } from './folders.mjs';

/** `gtastream check --json ARGS DIR` (it exits 1 on error findings). */
function printed(args) {
  try {
    return execFileSync(cli(), ['check', '--json', ...args], { encoding: 'utf8' });
  } catch (e) {
    // 1: an error finding; 2: a file not read (the document is printed all the same).
    if (e.status !== 1 && e.status !== 2) throw e;
    return e.stdout;
  }
}

/** A folder source over `files` that counts opens, closes and the largest read. */
function counted(files) {
  const inner = folderFromFiles(files);
  const seen = { opened: 0, closed: 0, largestRead: 0 };
  return {
    seen,
    open(path) {
      const file = inner.open(path);
      if (!file) return null;
      seen.opened++;
      return {
        size: file.size,
        read(offset, length) {
          seen.largestRead = Math.max(seen.largestRead, length);
          return file.read(offset, length);
        },
        close: () => seen.closed++,
      };
    },
  };
}

const shapes = [
  ['clean San Andreas', sanAndreas],
  ['San Andreas with findings', saWithFindings],
  ['Vice City', viceCity],
  ['GTA III', iii],
];

for (const [label, make] of shapes) {
  test(`checkFolder: ${label}, as \`gtastream check --json DIR\` prints it`, async () => {
    const files = make();
    const root = writeFolder(files, 'check-folder');
    try {
      const expected = printed([root]);
      assert.equal(checkFolderJson(await folderFromDirectory(root), { name: root }), expected,
        'from the directory');
      const source = counted(files);
      assert.equal(checkFolderJson(source, { name: root }), expected, 'from memory');
      // Every file opened is closed; the module reads pieces, never a whole archive.
      assert.equal(source.seen.closed, source.seen.opened);
      assert.ok(source.seen.largestRead <= 16 * 1024, `${source.seen.largestRead}`);
      const doc = checkFolder(folderFromFiles(files), { name: root });
      assert.deepEqual(doc, JSON.parse(expected));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
}

test('folderOver: a mod folder over its game, as `gtastream check --base GAME MOD`', async () => {
  // The mod: its own gta.dat naming a new IDE and archive; the rest is the game's.
  const game = sanAndreas();
  const mod = new Map([
    ['data/gta.dat', new TextEncoder().encode(
      'IMG MODELS\\MOD.IMG\r\nIDE DATA\\MAPS\\MOD.IDE\r\nIDE DATA\\MAPS\\LA\\LAE.IDE\r\n'
      + 'IPL DATA\\MAPS\\LA\\LAE.IPL\r\n')],
    ['data/maps/mod.ide', new TextEncoder().encode('objs\r\n4000, twice, twice, 100, 0\r\nend\r\n')],
    ['models/mod.img', game.get('models/gta_int.img')],
  ]);
  const [gameRoot, modRoot] = [writeFolder(game, 'over-game'), writeFolder(mod, 'over-mod')];
  try {
    const expected = printed(['--base', gameRoot, modRoot]);
    const doc = JSON.parse(expected);
    assert.ok(doc.inputs[0].findings.some((f) => f.rule === 'mod.ide.duplicate_id'), expected);
    const over = folderOver(folderFromFiles(mod), folderFromFiles(game));
    assert.equal(checkFolderJson(over, { name: modRoot }), expected, 'from memory');
    const onDisk = folderOver(await folderFromDirectory(modRoot),
      await folderFromDirectory(gameRoot));
    assert.equal(checkFolderJson(onDisk, { name: modRoot }), expected, 'from the directories');
  } finally {
    rmSync(gameRoot, { recursive: true, force: true });
    rmSync(modRoot, { recursive: true, force: true });
  }
});

test('checkFolder: the findings name their file, line, entry and other file', () => {
  const [input] = checkFolder(folderFromFiles(saWithFindings()), { name: 'mod' }).inputs;
  assert.deepEqual([input.file, input.format, input.game, input.verdict, input.games_from],
    ['mod', 'DIR', 'sa', 'fails', 'file']);
  const rules = new Set(input.findings.map((f) => f.rule));
  for (const rule of ['mod.name.shadowed', 'mod.stream.lod_range', 'mod.file.missing',
    'mod.archive.missing', 'ifp.time.duplicate']) {
    assert.ok(rules.has(rule), `${rule} in ${[...rules]}`);
  }
  const shadowed = input.findings.find((f) => f.rule === 'mod.name.shadowed');
  assert.deepEqual([shadowed.path, shadowed.entry, shadowed.other, shadowed.line],
    ['MODELS\\MOD.IMG', 'lae_road.dff', 'models/gta3.img', null]);
  const missing = input.findings.find((f) => f.rule === 'mod.file.missing');
  assert.deepEqual([missing.path, missing.line], ['data/gta.dat', 5]);
  assert.deepEqual(input.unreadable, [{ path: 'MODELS\\OLD.IMG',
    reason: 'no .dir beside the version 1 archive' }]);
  assert.ok(input.groups.some((g) => g.rule === 'mod.stream.lod_range' && g.severity === 'error'));
  assert.ok(input.files > 0 && input.entries > 0);
});

test('checkFolder: a file whose read fails is unreadable, with the source\'s message', () => {
  const inner = folderFromFiles(sanAndreas());
  const source = {
    open(path) {
      const file = inner.open(path);
      if (!file || !/gta_int/i.test(path)) return file;
      return { size: file.size, read() { throw new Error('the disk went away'); } };
    },
  };
  const [input] = checkFolder(source).inputs;
  assert.deepEqual(input.unreadable, [{ path: 'models/gta_int.img',
    reason: 'read error: the disk went away' }]);
  // Its IDE's models are nowhere now: the folder still gets every other finding.
  assert.equal(input.verdict, checkFolder(folderFromFiles(sanAndreas())).inputs[0].verdict);
});

test('checkFolder: no level file, or those of several games, throw an Error', async () => {
  assert.throws(() => checkFolder(folderFromFiles([['readme.txt', new Uint8Array(1)]])),
    (e) => e instanceof Error && /^folder: no data\/gta\.dat/.test(e.message));
  const several = sanAndreas();
  several.set('data/gta3.dat', new Uint8Array(0));
  assert.throws(() => checkFolder(folderFromFiles(several), { name: 'both' }),
    /^Error: both: the level files of several games are here/);
  // Named, the game decides, as `--game sa`.
  const root = writeFolder(several, 'check-folder-game');
  try {
    assert.equal(checkFolderJson(await folderFromDirectory(root), { name: root, game: 'sa' }),
      printed(['--game', 'sa', root]));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  assert.throws(() => checkFolder(folderFromFiles(several), { game: 'mta' }), /sa, vc or iii/);
});

test('folderFromFiles: paths in any case with either slash; Blobs need FileReaderSync', () => {
  const files = [['Data\\GTA.DAT', new Uint8Array([1])], ['./models/x.img', new Uint8Array([2, 3])]];
  const folder = folderFromFiles(files);
  assert.deepEqual(folder.open('data/gta.dat').read(0, 4), new Uint8Array([1]));
  assert.deepEqual(folder.open('MODELS\\X.IMG').read(1, 4), new Uint8Array([3]));
  assert.equal(folder.open('models/y.img'), null);
  assert.throws(() => folderFromFiles([['a', new Blob([])]]), /FileReaderSync/);
});

test('folderFromFiles: Blobs read in slices with FileReaderSync, as in a worker', () => {
  // Node has no FileReaderSync: one that reads the slices' bytes, kept beside them.
  class Slice extends Blob {
    constructor(bytes) {
      super([bytes]);
      this.bytes = bytes;
    }
    slice(start, end) {
      return new Slice(this.bytes.subarray(start, end));
    }
  }
  let largest = 0;
  globalThis.FileReaderSync = class {
    readAsArrayBuffer(blob) {
      largest = Math.max(largest, blob.size);
      return blob.bytes.slice().buffer;
    }
  };
  try {
    const files = saWithFindings();
    // An archive over the read-ahead (1 MiB): read in slices, not whole.
    const big = new Uint8Array(3 << 20);
    big.set(files.get('models/gta_int.img'));
    files.set('models/gta_int.img', big);
    const blobs = [...files].map(([path, bytes]) => [path, new Slice(bytes)]);
    assert.equal(checkFolderJson(folderFromFiles(blobs)), checkFolderJson(folderFromFiles(files)));
    assert.ok(largest <= 1 << 20, `${largest}`);
  } finally {
    delete globalThis.FileReaderSync;
  }
});
