// Skeletons from JavaScript against the command-line tool: decode() of every model fixture is
// `dump --json` (compare-cli.mjs and decode.test.mjs), sample() on a model is `sample --skeleton`,
// check() with a model is `check --skeleton`, and check() of a model alone its skeleton report.
// The models are the DFF fixtures (GTASTREAM_FIXTURES: the fuzz seeds, testkit's DFF shapes).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { check, checkJson, DecodeError, decode, sample } from '../dist/index.js';
import { allFixtures, cli, sampleAnp3 } from './fixtures.mjs';

const models = allFixtures().filter(([name]) => name.startsWith('dff-'));
const dir = mkdtempSync(join(tmpdir(), 'gtastream-skeleton-'));
const tool = (...args) => spawnSync(cli(), args, { encoding: 'utf8', maxBuffer: 1 << 28 });
const animation = join(dir, 'ped.ifp');
writeFileSync(animation, sampleAnp3());

test('the DFF fixtures are there, each a model with frames', () => {
  assert.ok(models.length >= 5, 'GTASTREAM_FIXTURES holds the DFF seeds');
  for (const [name, bytes] of models) {
    const doc = decode(bytes);
    assert.equal(doc.format, 'dff', name);
    assert.ok(doc.frames.length > 0, name);
  }
});

test('sample() on a model is `gtastream sample --skeleton --json`, for each game', () => {
  let bound = 0;
  for (const [name, bytes] of models) {
    const model = join(dir, name);
    writeFileSync(model, bytes);
    for (const game of [undefined, 'sa', 'vc', 'iii', 'mta']) {
      for (const time of [0, 0.25]) {
        const args = ['sample', '--json', '--skeleton', model, '--animation', 'WALK_player',
          '--time', String(time), ...(game ? ['--game', game] : []), animation];
        const printed = tool(...args);
        assert.equal(printed.status, 0, `${name} ${game}: ${printed.stderr}`);
        const pose = sample(sampleAnp3(), 'WALK_player', time, { skeleton: bytes, game });
        assert.deepEqual(pose, JSON.parse(printed.stdout), `${name} ${game} ${time}`);
        assert.equal(pose.frames.length, decode(bytes).frames.length);
        bound += pose.bones.filter((b) => b.frame !== null).length;
      }
    }
  }
  // Some tracks bind (the SA skins have Root, Pelvis and R Thigh), some do not.
  assert.ok(bound > 0);
});

test('check() with a model is `gtastream check --skeleton --json`; a model alone its report', () => {
  const rules = new Set();
  for (const [name, bytes] of models) {
    const model = join(dir, name);
    writeFileSync(model, bytes);
    const printed = tool('check', '--json', '--skeleton', model, animation);
    assert.equal(checkJson(sampleAnp3(), { name: animation, skeleton: bytes }), printed.stdout,
      name);
    const alone = tool('check', '--json', model);
    assert.equal(checkJson(bytes, { name: model }), alone.stdout, `${name} alone`);
    const doc = check(sampleAnp3(), { name: animation, skeleton: bytes });
    for (const f of doc.inputs[0].findings) rules.add(f.rule);
  }
  assert.ok([...rules].some((r) => r.startsWith('skel.')), [...rules].join(' '));
});

test('a skeleton that is no model: DecodeError, as the tool refuses it', () => {
  assert.throws(() => sample(sampleAnp3(), 'WALK_player', 0, { skeleton: sampleAnp3() }),
    (e) => e instanceof DecodeError && e.kind === 'not_model');
  const cut = models[0][1].subarray(0, 40);
  assert.throws(() => check(sampleAnp3(), { skeleton: cut }), (e) => e instanceof DecodeError);
});
