// IMG archives built here from the fixtures, against the command-line tool: ls() must give what
// `gtastream ls --json` prints, decodeEntry() what `dump --json ARCHIVE:ENTRY` prints and what
// decode() gives for the extracted entry. The tool: fixtures.mjs `cli()`.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';

import {
  DecodeError, decode, decodeEntry, decodeEntryJson, ls, lsBlob, lsJson,
} from '../dist/index.js';
import { lsSlices } from '../dist/archive.js';
import { allFixtures, cli, imgVer1 as ver1, imgVer2 as ver2, sampleAnp3 } from './fixtures.mjs';

const SECTOR = 2048;

/** The entries: every fixture, one that fails to decode, one of no known format, a Latin-1 name. */
function entries() {
  // Models (DFF fixtures) among them: `ls --json` gives each its "model" counts.
  const list = allFixtures().map(([name, bytes]) => [name.split('/').pop(), bytes]);
  list.push(['cut.ifp', sampleAnp3().subarray(0, 36 + 36 + 10)]);
  list.push(['model.dff', Uint8Array.from([0x10, 0, 0, 0, 1, 2, 3, 4])]);
  list.push(['caf\u00e9.ifp', sampleAnp3()]);
  // Names fit the 24-byte field and differ in any case (a lookup finds the first).
  const seen = new Set();
  return list.filter(([name]) => {
    const key = name.toLowerCase();
    const fits = name.length < 24 && !seen.has(key);
    seen.add(key);
    return fits;
  });
}

const work = mkdtempSync(join(tmpdir(), 'gtastream-archive-'));
after(() => rmSync(work, { recursive: true, force: true }));

const list = entries();
const v2 = ver2(list);
const v1 = ver1(list);
const v2Path = join(work, 'sa.img');
const v1Path = join(work, 'vc.img');
writeFileSync(v2Path, v2);
writeFileSync(v1Path, v1.img);
writeFileSync(join(work, 'vc.dir'), v1.dir);
const archives = [['VER2', v2Path, v2, undefined], ['VER1', v1Path, v1.img, v1.dir]];
const empty = ver2([]);
const emptyPath = join(work, 'empty.img');
writeFileSync(emptyPath, empty);

const tool = (...args) => spawnSync(cli(), args, { encoding: 'utf8', maxBuffer: 1 << 30 });

test('ls() lists a VER2 archive and a version 1 pair as `gtastream ls --json` does', () => {
  for (const [format, path, img, dir] of archives) {
    const printed = tool('ls', '--json', path);
    assert.equal(printed.status, 0, printed.stderr);
    assert.equal(lsJson(img, dir), printed.stdout, format);
    const listing = ls(img, dir);
    assert.deepEqual(listing, JSON.parse(printed.stdout), format);
    assert.equal(listing.format, format);
    assert.deepEqual(listing.entries.map((e) => e.name), list.map(([name]) => name));
    assert.deepEqual(listing.entries.find((e) => e.name === 'model.dff').format, null);
    assert.equal(listing.entries.find((e) => e.name === 'sample.anp3').format, 'ANP3');
    const models = listing.entries.filter((e) => e.format === 'dff');
    assert.ok(models.length > 0 && models.every((e) => e.model?.frames > 0), format);
  }
  const printed = tool('ls', '--json', emptyPath);
  assert.equal(lsJson(empty), printed.stdout);
  assert.deepEqual(ls(empty), { format: 'VER2', entries: [] });
});

test('decodeEntry() is decode() of the extracted entry and `dump --json ARCHIVE:ENTRY`', () => {
  const failed = new Set();
  for (const [format, path, img, dir] of archives) {
    for (const entry of ls(img, dir).entries) {
      // Any case finds the entry (ASCII letters only, as the tool).
      const asked = entry.name.replace(/[a-z]/g, (c) => c.toUpperCase());
      const label = `${format} ${entry.name}`;
      const printed = tool('dump', '--json', `${path}:${asked}`);
      const extracted = img.subarray(entry.offset, entry.offset + entry.size);
      assert.equal(extracted.length % SECTOR, 0, label);
      if (printed.status === 0) {
        assert.equal(decodeEntryJson(img, asked, dir), printed.stdout, label);
        assert.deepEqual(decodeEntry(img, asked, dir), decode(extracted), label);
      } else {
        failed.add(entry.name);
        assert.throws(() => decodeEntry(img, asked, dir), (e) => {
          assert.ok(e instanceof DecodeError, `${label}: ${e}`);
          assert.ok(printed.stderr.includes(`: ${e.message}`), `${label}: ${printed.stderr} / ${e.message}`);
          // Offsets count from the entry's first byte: the extracted entry fails alike, at the
          // same animation and bone, with the same message.
          const { kind, offset, animation, bone, line, message } = e;
          assert.throws(() => decode(extracted), { kind, offset, animation, bone, line, message },
            label);
          if (entry.name === 'cut.ifp') assert.equal(animation, 0, `${label}: ${message}`);
          return true;
        }, label);
      }
    }
  }
  // The cut entry and the model fail; the built-in fixtures decode.
  assert.ok(failed.has('cut.ifp') && failed.has('model.dff'), [...failed].join(' '));
  for (const name of ['walk.ifp', 'sample.anp3', 'sample.bnry', 'sample.ipl', 'caf\u00e9.ifp']) {
    assert.ok(!failed.has(name), name);
  }
});

test('an entry that is not there, and an archive that is not one, throw DecodeError', () => {
  for (const [format, , img, dir] of archives) {
    assert.throws(() => decodeEntry(img, 'missing.ifp', dir), (e) => {
      assert.ok(e instanceof DecodeError, `${format}: ${e}`);
      assert.equal(e.kind, 'no_such_entry');
      assert.match(e.message, /no entry named "missing\.ifp"/);
      return true;
    });
    assert.throws(() => decodeEntry(img, 'caf\u00c9.ifp', dir), { kind: 'no_such_entry' },
      'only ASCII letters match in any case');
  }
  const notArchive = sampleAnp3();
  assert.throws(() => ls(notArchive), { name: 'DecodeError', kind: 'bad_magic', offset: 0 });
  assert.throws(() => decodeEntry(notArchive, 'sample.anp3'), { kind: 'bad_magic', offset: 0 });
});

/** A Blob of `bytes` whose slices are recorded in `read` as [start, end]. */
function spied(bytes, read) {
  const blob = new Blob([bytes]);
  return {
    size: blob.size,
    slice: (start, end) => {
      read.push([start, end]);
      return blob.slice(start, end);
    },
  };
}

/** lsBlob of the archive through spied Blobs, checked against ls() and lsSlices(): the reads. */
async function listedBySlices(label, img, dir) {
  const read = [];
  const listing = await lsBlob(spied(img, read), dir && spied(dir, read));
  const whole = ls(img, dir);
  assert.deepEqual(listing, whole, label);
  assert.deepEqual(lsSlices(img, dir), whole, label);
  return { listing, read, bytes: read.reduce((n, [start, end]) => n + end - start, 0) };
}

/** The VER2 archive and the version 1 pair of the entries. */
const bothVersions = (entries) =>
  [['VER2', ver2(entries), undefined], ['VER1', ver1(entries).img, ver1(entries).dir]];

/** `count` entries of a sector or less, the fixtures among them, packed one after another. */
function tinyEntries(count) {
  const fixtures = list.filter(([, bytes]) => bytes.length <= SECTOR);
  return Array.from({ length: count }, (_, i) => {
    const [name, bytes] = fixtures[i % fixtures.length];
    return [`${i}${name}`.slice(0, 23), i % 3 ? bytes : bytes.subarray(0, i % 40)];
  });
}

test('lsBlob() reads the archive in pieces and lists what ls() lists', async () => {
  for (const [format, , img, dir] of archives) {
    await listedBySlices(format, img, dir);
  }
  assert.deepEqual(await lsBlob(new Blob([empty])), { format: 'VER2', entries: [] });
  await assert.rejects(lsBlob(new Blob([sampleAnp3()])), { kind: 'bad_magic', offset: 0 });
});

test('lsBlob() of many tiny entries reads the archive in far fewer slices than entries', async () => {
  const count = 5000;
  for (const [format, img, dir] of bothVersions(tinyEntries(count))) {
    const { listing, read } = await listedBySlices(format, img, dir);
    assert.equal(listing.entries.length, count, format);
    assert.ok(listing.entries.some((e) => e.format === 'ANP3'), format);
    // Each slice serves many records and entries' first bytes (once two per entry).
    assert.ok(read.length < count / 50, `${format}: ${read.length} slices`);
    assert.ok(read.every(([start, end]) => end - start <= 8 << 20), `${format}: a slice over 8 MiB`);
  }
});

test('lsBlob() of entries far apart reads only their first bytes', async () => {
  // The fixtures followed by zeros to 1 MiB: each entry lies further than a window reads
  // across (512 KiB) from the one before.
  // (Models are read whole for their counts, as `ls` reads them: left out here.)
  const entries = list.filter(([name]) => !name.startsWith('dff-')).map(([name, bytes]) => {
    const padded = new Uint8Array(1 << 20);
    padded.set(bytes);
    return [name, padded];
  });
  for (const [format, img, dir] of bothVersions(entries)) {
    const { listing, read, bytes } = await listedBySlices(format, img, dir);
    assert.equal(listing.entries.length, entries.length, format);
    assert.ok(bytes < img.length / 100, `${format}: ${bytes} of ${img.length} bytes read`);
    // A slice for each entry's first bytes, and few for the directory; text entries get a second
    // for their first lines (a placement, item definitions or neither, as the tool settles
    // them), models one for their counts (formats null may have been text).
    const second = listing.entries.filter((e) => ['text', 'ide', 'dff', null].includes(e.format))
      .length;
    assert.ok(read.length <= entries.length + second + 3, `${format}: ${read.length} slices`);
  }
});

test('lsBlob() lists a directory in another order than the entries lie', async () => {
  // The records reversed: the entries are read from the end of the file back to its start.
  const entries = tinyEntries(600);
  const img = ver2(entries);
  const records = img.subarray(8, 8 + 32 * entries.length);
  const reversed = Array.from({ length: entries.length }, (_, i) =>
    records.slice(32 * i, 32 * i + 32)).reverse();
  reversed.forEach((record, i) => records.set(record, 32 * i));
  const { listing } = await listedBySlices('reversed', img);
  assert.deepEqual(listing.entries.map((e) => e.name), entries.map(([name]) => name).reverse());
});
