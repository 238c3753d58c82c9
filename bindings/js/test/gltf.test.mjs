// toGltf() and fromGltf() against the command-line tool: the bytes `gtastream convert --to
// glb|gltf --skeleton` writes, for every DFF fixture (GTASTREAM_FIXTURES: the fuzz seeds,
// testkit's DFF shapes) and each game's binding, the tracks left out as the tool reports them;
// and back, the IFP `convert --to anp3|anpk IN.glb` writes; errors as the tool's.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { DecodeError, EncodeError, decode, fromGltf, toGltf } from '../dist/index.js';
import { allFixtures, cli, sampleAnp3 } from './fixtures.mjs';

const models = allFixtures().filter(([name]) => name.startsWith('dff-'));
const dir = mkdtempSync(join(tmpdir(), 'gtastream-gltf-'));
const tool = (...args) => spawnSync(cli(), args, { encoding: 'utf8', maxBuffer: 1 << 28 });
const ifp = sampleAnp3();
const animation = join(dir, 'ped.ifp');
writeFileSync(animation, ifp);

test('toGltf() writes the bytes of `convert --to glb|gltf --skeleton`, for each game', () => {
  assert.ok(models.length >= 5, 'GTASTREAM_FIXTURES holds the DFF seeds');
  let unwritten = 0;
  for (const [name, model] of models) {
    const path = join(dir, name);
    writeFileSync(path, model);
    for (const game of [undefined, 'sa', 'vc', 'iii', 'mta']) {
      for (const container of ['glb', 'gltf']) {
        const out = join(dir, `out.${container}`);
        const printed = tool('convert', '--to', container, '--skeleton', path,
          ...(game ? ['--game', game] : []), animation, out);
        assert.equal(printed.status, 0, `${name} ${game}: ${printed.stderr}`);
        const got = toGltf(ifp, model, { game, json: container === 'gltf' });
        assert.deepEqual(Buffer.from(got.bytes), readFileSync(out), `${name} ${game} ${container}`);
        // Each track left out is a line of the tool's report, and the count its last line.
        for (const u of got.unwritten) {
          assert.ok(printed.stderr.includes(`track ${u.track} `), `${name}: ${JSON.stringify(u)}`);
          assert.ok(printed.stderr.includes(u.message), `${name}: ${u.message}`);
        }
        assert.ok(printed.stderr.includes(
          `${got.animations} animations written, ${got.unwritten.length} tracks not written`),
        printed.stderr);
        unwritten += got.unwritten.length;
      }
    }
  }
  assert.ok(unwritten > 0, 'some fixture leaves a track out');
});

test('toGltf() writes the animations asked for, and its glb is the glTF the tool reads', () => {
  const [, model] = models.find(([name]) => name.includes('sa')) ?? models[0];
  const names = decode(ifp).animations.map((a) => a.name);
  const one = toGltf(ifp, model, { animations: [names[0].toUpperCase()] });
  assert.equal(one.animations + one.empty.length, 1);
  const json = toGltf(ifp, model, { animations: [names[0]], json: true });
  const document = JSON.parse(new TextDecoder().decode(json.bytes));
  assert.equal(document.asset.version, '2.0');
  assert.deepEqual(document.animations?.map((a) => a.name) ?? [], one.animations ? [names[0]] : []);
  // The glb's JSON chunk is the same document, the buffer in the binary chunk.
  const glb = Buffer.from(one.bytes);
  assert.equal(glb.toString('latin1', 0, 4), 'glTF');
  const chunk = JSON.parse(glb.toString('utf8', 20, 20 + glb.readUInt32LE(12)));
  assert.deepEqual(chunk.nodes, document.nodes);
});

test('toGltf() errors: an animation the file lacks, a file that is no model', () => {
  const [, model] = models[0];
  assert.throws(() => toGltf(ifp, model, { animations: ['no such animation'] }), (e) => {
    assert.ok(e instanceof DecodeError);
    assert.equal(e.kind, 'not_found');
    assert.equal(e.offset, 0);
    assert.match(e.message, /no animation named `no such animation`/);
    return true;
  });
  assert.throws(() => toGltf(ifp, ifp), (e) => e instanceof DecodeError && e.kind === 'not_model');
  assert.throws(() => toGltf(new Uint8Array([1, 2, 3]), model), DecodeError);
});

test('fromGltf() writes the bytes of `convert --to anp3|anpk IN.glb OUT.ifp`', () => {
  let written = 0;
  for (const [name, model] of models) {
    const path = join(dir, name);
    writeFileSync(path, model);
    const glb = toGltf(ifp, model).bytes;
    if (toGltf(ifp, model).animations === 0) continue;
    const input = join(dir, 'in.glb');
    writeFileSync(input, glb);
    for (const format of ['anp3', 'anpk']) {
      const out = join(dir, `back.${format}.ifp`);
      const printed = tool('convert', '--to', format, '--skeleton', path, '--block', 'ped',
        '--quantize', '--report', input, out);
      if (printed.status !== 0) {
        // The tool refused: so does fromGltf, with the same message.
        assert.throws(() => fromGltf(glb, { format, skeleton: model, quantize: true }),
          (e) => e instanceof EncodeError && printed.stderr.includes(e.message), printed.stderr);
        continue;
      }
      const got = fromGltf(glb, { format, skeleton: model, block: 'ped', quantize: true,
        report: true });
      assert.deepEqual(Buffer.from(got.bytes), readFileSync(out), `${name} ${format}`);
      assert.equal(got.animations, decode(got.bytes).animations.length);
      for (const row of got.report) {
        assert.ok(printed.stderr.includes(`bone ${JSON.stringify(row.bone)}`), printed.stderr);
      }
      written++;
    }
  }
  assert.ok(written > 0, 'some model takes the animations back');
});

test('fromGltf() errors: not glTF, an unknown format, a key the target cannot hold', () => {
  assert.throws(() => fromGltf(new TextEncoder().encode('{"asset": 3')),
    (e) => e instanceof EncodeError && e.kind === 'json');
  assert.throws(() => fromGltf(new Uint8Array([0x67, 0x6c, 0x54, 0x46, 2, 0, 0, 0])),
    (e) => e instanceof EncodeError && e.kind === 'glb');
  const [, model] = models.find(([name]) => name.includes('sa_skin')) ?? models[0];
  assert.throws(() => fromGltf(toGltf(ifp, model).bytes, { format: 'bnry' }), RangeError);
  assert.throws(() => fromGltf(toGltf(ifp, model).bytes, { skeleton: ifp }),
    (e) => e instanceof DecodeError && e.kind === 'not_model');
});
