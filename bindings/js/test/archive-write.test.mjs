// Writing IMG archives in memory (writeArchive, addEntries, removeEntries, rebuildArchive and
// their Blob forms): the bytes are those `gtastream img new/add/rm/rebuild` writes to disk, the
// listings say what was asked, untouched entries keep their bytes, refusals throw the library's
// kind and leave the input as it was. The tool: fixtures.mjs `cli()`.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';

import {
  addEntries, addEntriesBlob, ArchiveError, decodeEntry, ls, rebuildArchive, rebuildArchiveBlob,
  removeEntries, removeEntriesBlob, writeArchive,
} from '../dist/index.js';
import { wasm } from '../dist/wasm.js';
import { allFixtures, cli, sampleAnp3, sampleBnry } from './fixtures.mjs';

const SECTOR = 2048;

const work = mkdtempSync(join(tmpdir(), 'gtastream-archive-write-'));
after(() => rmSync(work, { recursive: true, force: true }));

function tool(...args) {
  const run = spawnSync(cli(), args, { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
}

/** The entries: every fixture (distinct names ASCII case aside) and a model. (ASCII names: the
 * tool names an entry after its file, a Latin-1 name would reach it as UTF-8.) */
const entries = (() => {
  const seen = new Set();
  // The games skip an entry whose name has no '.': fixtures named without one get an extension.
  const entryName = (base) => (base.includes('.') ? base : `${base}.dat`);
  const list = allFixtures().map(([name, data]) => ({ name: entryName(name.split('/').pop()), data }))
    .filter(({ name }) => name.length < 24 && !seen.has(name.toLowerCase())
      && seen.add(name.toLowerCase()));
  list.push({ name: 'model.dff', data: Uint8Array.from({ length: 5000 }, (_, i) => i * 7) });
  return list;
})();

/** Files named after the entries in a folder of their own, for the command-line tool. */
function files(list, folder) {
  const dir = join(work, folder);
  mkdirSync(dir, { recursive: true });
  return list.map(({ name, data }) => {
    const path = join(dir, name);
    writeFileSync(path, data);
    return path;
  });
}

/** The bytes of each entry of an archive, by name, as its listing places them. */
function contents(img, dir) {
  return new Map(ls(img, dir).entries.map((e) => [e.name, img.subarray(e.offset, e.offset + e.size)]));
}

/** `data` as an archive stores it: padded with zeros to whole sectors. */
function padded(data) {
  const out = new Uint8Array(Math.ceil(data.length / SECTOR) * SECTOR);
  out.set(data);
  return out;
}

const read = (path) => new Uint8Array(readFileSync(path));
const blobBytes = async (blob) => new Uint8Array(await blob.arrayBuffer());

// First, while the module's memory is small: it never shrinks.
test('the module holds the directory and a piece, not the archive: its memory stays flat', () => {
  const MiB = 1 << 20;
  const memory = () => wasm().memory.buffer.byteLength;
  const before = memory();
  const big = [0, 1, 2].map((i) => ({ name: `big${i}.dat`, data: new Uint8Array(32 * MiB).fill(i + 1) }));
  const written = writeArchive(big);
  const edited = addEntries(written.img, [{ name: 'BIG1.DAT', data: Uint8Array.of(7) }]);
  const removed = removeEntries(edited.img, ['big0.dat']);
  assert.equal(removed.img.length, SECTOR + 32 * MiB + SECTOR);
  assert.ok(memory() - before <= 4 * MiB, `the module grew by ${(memory() - before) / MiB} MiB`);
  assert.deepEqual(contents(removed.img).get('big2.dat'), big[2].data);
});

for (const version of [2, 1]) {
  const tag = `version ${version}`;
  /** The archive of `entries` as `gtastream img new` writes it (img, dir paths). */
  function made(name) {
    const img = join(work, `${name}-v${version}.img`);
    tool('img', 'new', ...(version === 1 ? ['--v1'] : []), img, ...files(entries, 'new'));
    return { img, dir: version === 1 ? img.replace(/\.img$/, '.dir') : undefined };
  }

  test(`${tag}: writeArchive() writes what \`img new\` writes, and ls() reads it back`, () => {
    const written = writeArchive(entries, { version });
    const paths = made('new');
    assert.deepEqual(written.img, read(paths.img), tag);
    assert.deepEqual(written.dir, version === 1 ? read(paths.dir) : null, tag);
    const listing = ls(written.img, written.dir ?? undefined);
    assert.equal(listing.format, version === 1 ? 'VER1' : 'VER2');
    assert.deepEqual(listing.entries.map((e) => e.name), entries.map((e) => e.name));
    const stored = contents(written.img, written.dir ?? undefined);
    for (const { name, data } of entries) assert.deepEqual(stored.get(name), padded(data), name);
    assert.deepEqual(decodeEntry(written.img, 'SAMPLE.ANP3', written.dir ?? undefined).name, 'ped');
    // A name is Latin-1: one byte per character, as ls() gives it back.
    const latin = writeArchive([{ name: 'caf\u00e9.ifp', data: sampleAnp3() }], { version });
    assert.deepEqual(ls(latin.img, latin.dir ?? undefined).entries.map((e) => e.name), ['caf\u00e9.ifp']);
    const record = version === 1 ? latin.dir : latin.img.subarray(8);
    assert.equal(record[8 + 3], 0xe9);
    assert.deepEqual(written.report, { entries: entries.length, kept: 0, replaced: 0,
      added: entries.length, removed: 0, img_len: written.img.length });
  });

  test(`${tag}: addEntries() replaces in place (ASCII case aside) and appends, as \`img add\``, () => {
    const old = writeArchive(entries, { version });
    const before = old.img.slice();
    const added = [{ name: 'SAMPLE.BNRY', data: sampleBnry().subarray(0, 40) },
      { name: 'new.ipl', data: new TextEncoder().encode('inst\nend\n') }];
    const result = addEntries(old.img, added, old.dir ?? undefined);
    assert.deepEqual(old.img, before, 'the input is untouched');
    const paths = made('add');
    tool('img', 'add', paths.img, ...files(added, 'add'));
    assert.deepEqual(result.img, read(paths.img), tag);
    if (version === 1) assert.deepEqual(result.dir, read(paths.dir));
    const names = ls(result.img, result.dir ?? undefined).entries.map((e) => e.name);
    const at = entries.findIndex((e) => e.name === 'sample.bnry');
    assert.equal(names[at], 'SAMPLE.BNRY', 'replaced in its place, under the name given');
    assert.equal(names.at(-1), 'new.ipl');
    assert.equal(names.length, entries.length + 1);
    const was = contents(old.img, old.dir ?? undefined);
    const now = contents(result.img, result.dir ?? undefined);
    assert.deepEqual(now.get('SAMPLE.BNRY'), padded(added[0].data));
    for (const { name } of entries.filter((e) => e.name !== 'sample.bnry')) {
      assert.deepEqual(now.get(name), was.get(name), `${name} kept byte for byte`);
    }
    assert.deepEqual(result.report, { entries: entries.length + 1, kept: entries.length - 1,
      replaced: 1, added: 1, removed: 0, img_len: result.img.length });
  });

  test(`${tag}: removeEntries() and rebuildArchive() write what \`img rm\` and \`img rebuild\` write`, () => {
    const old = writeArchive(entries, { version });
    const result = removeEntries(old.img, ['MODEL.DFF', 'Sample.Anp3'], old.dir ?? undefined);
    const paths = made('rm');
    tool('img', 'rm', paths.img, 'MODEL.DFF', 'Sample.Anp3');
    assert.deepEqual(result.img, read(paths.img), tag);
    if (version === 1) assert.deepEqual(result.dir, read(paths.dir));
    assert.deepEqual(ls(result.img, result.dir ?? undefined).entries.map((e) => e.name),
      entries.map((e) => e.name).filter((n) => n !== 'model.dff' && n !== 'sample.anp3'));
    assert.equal(result.report.removed, 2);
    const rebuilt = rebuildArchive(result.img, result.dir ?? undefined);
    tool('img', 'rebuild', paths.img);
    assert.deepEqual(rebuilt.img, read(paths.img));
    // Already packed: the same bytes again.
    assert.deepEqual(rebuilt.img, result.img);
  });

  test(`${tag}: the Blob forms give the bytes of the in-memory ones`, async () => {
    const old = writeArchive(entries, { version });
    const dir = old.dir ? new Blob([old.dir]) : undefined;
    const added = [{ name: 'walk.ifp', data: new Blob([sampleAnp3()]) },
      { name: 'x.col', data: new Uint8Array(3 * SECTOR + 1) }];
    const inMemory = addEntries(old.img, added.map((e, i) => (i === 0
      ? { name: e.name, data: sampleAnp3() } : e)), old.dir ?? undefined);
    const asBlobs = await addEntriesBlob(new Blob([old.img]), added, dir);
    assert.deepEqual(await blobBytes(asBlobs.img), inMemory.img);
    assert.deepEqual(asBlobs.dir && await blobBytes(asBlobs.dir), inMemory.dir);
    assert.deepEqual(asBlobs.report, inMemory.report);
    const removed = await removeEntriesBlob(new Blob([old.img]), ['walk.ifp'], dir);
    assert.deepEqual(await blobBytes(removed.img),
      removeEntries(old.img, ['walk.ifp'], old.dir ?? undefined).img);
    const rebuilt = await rebuildArchiveBlob(new Blob([old.img]), dir);
    assert.deepEqual(await blobBytes(rebuilt.img), old.img);
  });
}

test('rebuildArchive() drops holes, junk and unused directory room, and keeps the order', () => {
  // A VER2 archive by hand: room for 100 records, entry b before a in the data, junk between.
  const a = sampleAnp3();
  const b = Uint8Array.from({ length: 3000 }, (_, i) => i % 251);
  const img = new Uint8Array(20 * SECTOR).fill(0xee);
  const view = new DataView(img.buffer);
  img.fill(0, 0, 2 * SECTOR);
  img.set(new TextEncoder().encode('VER2'));
  view.setUint32(4, 2, true);
  const record = (i, sector, data, name) => {
    view.setUint32(8 + 32 * i, sector, true);
    view.setUint16(12 + 32 * i, Math.ceil(data.length / SECTOR), true);
    img.set(new TextEncoder().encode(name), 16 + 32 * i);
    img.set(data, sector * SECTOR);
  };
  record(0, 12, a, 'a.ifp');
  record(1, 4, b, 'b.dat');
  const before = img.slice();
  const rebuilt = rebuildArchive(img);
  assert.deepEqual(img, before);
  assert.deepEqual(rebuilt.img, writeArchive([
    { name: 'a.ifp', data: img.subarray(12 * SECTOR, (12 + Math.ceil(a.length / SECTOR)) * SECTOR) },
    { name: 'b.dat', data: img.subarray(4 * SECTOR, 6 * SECTOR) },
  ]).img);
  assert.deepEqual(ls(rebuilt.img).entries.map((e) => [e.name, e.offset]),
    [['a.ifp', SECTOR], ['b.dat', SECTOR + Math.ceil(a.length / SECTOR) * SECTOR]]);
  assert.deepEqual(rebuilt.report, { entries: 2, kept: 2, replaced: 0, added: 0, removed: 0,
    img_len: rebuilt.img.length });
});

/** Asserts `run` throws an ArchiveError of `kind` about entry `index` named `entry`. */
function refuses(run, kind, index, entry) {
  assert.throws(run, (e) => {
    assert.ok(e instanceof ArchiveError, String(e));
    assert.deepEqual([e.kind, e.index, e.entry], [kind, index, entry]);
    assert.equal(e.name, 'ArchiveError');
    return true;
  }, kind);
}

test('refusals throw the library kind, naming the entry, and leave the input untouched', () => {
  const data = Uint8Array.of(1, 2, 3);
  const one = (name) => [{ name: 'ok.txt', data }, { name, data }];
  refuses(() => writeArchive(one('')), 'empty_name', 1, '');
  refuses(() => writeArchive(one('a'.repeat(20) + '.txt')), 'name_too_long', 1, `${'a'.repeat(20)}.txt`);
  refuses(() => writeArchive(one('noextension')), 'invalid_name', 1, 'noextension');
  refuses(() => writeArchive(one('dir/a.txt')), 'invalid_name', 1, 'dir/a.txt');
  refuses(() => writeArchive(one('OK.TXT')), 'duplicate_name', 1, 'OK.TXT');
  refuses(() => writeArchive(one('ok.txt'), { version: 1 }), 'duplicate_name', 1, 'ok.txt');
  assert.throws(() => writeArchive(one('\u0100.txt')), RangeError);
  assert.throws(() => writeArchive([], { version: 3 }), RangeError);

  const old = writeArchive([{ name: 'a.ifp', data: sampleAnp3() }, { name: 'b.ipl', data: sampleBnry() }]);
  const before = old.img.slice();
  refuses(() => addEntries(old.img, [{ name: 'c.txt', data }, { name: 'C.txt', data }]),
    'duplicate_name', 1, 'C.txt');
  refuses(() => addEntries(old.img, [{ name: 'bad', data }]), 'invalid_name', 0, 'bad');
  refuses(() => removeEntries(old.img, ['a.ifp', 'missing.dff']), 'no_such_entry', 1, 'missing.dff');
  // A version 2 entry holds 65535 sectors at most (its size field is 16 bits): the index is the
  // entry's in the new archive.
  const huge = new Uint8Array(65535 * SECTOR + 1);
  refuses(() => addEntries(old.img, [{ name: 'huge.img', data: huge }]), 'entry_too_large', 2,
    'huge.img');
  refuses(() => writeArchive([{ name: 'huge.img', data: huge }]), 'entry_too_large', 0, 'huge.img');
  assert.deepEqual(old.img, before, 'the input is untouched');
  assert.equal(huge.every((b) => b === 0), true);
  // Exactly 65535 sectors fit; version 1 has no such limit.
  assert.equal(writeArchive([{ name: 'big.img', data: huge.subarray(1) }]).report.entries, 1);
  const v1 = writeArchive([{ name: 'huge.img', data: huge }], { version: 1 });
  assert.equal(ls(v1.img, v1.dir).entries[0].size, 65536 * SECTOR);
});

test('an archive that does not read throws its DecodeError, and the module stays usable', () => {
  assert.throws(() => addEntries(Uint8Array.of(1, 2, 3), []), { name: 'DecodeError' });
  assert.equal(writeArchive([]).img.length, SECTOR);
  assert.deepEqual(ls(writeArchive([]).img).entries, []);
});
