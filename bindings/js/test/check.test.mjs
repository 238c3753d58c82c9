import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { check, checkJson } from '../dist/index.js';
import { cli, sampleAnp3 } from './fixtures.mjs';

const ipl = new TextEncoder().encode('inst\n20000, x, 0, 0, 0, 0, 0, 0, 0, 1, -1\nend\n');

test('check: the findings of a text IPL, with their rule, games, offset and line', () => {
  const doc = check(ipl, { name: 'x.ipl' });
  assert.equal(doc.inputs.length, 1);
  const [input] = doc.inputs;
  assert.deepEqual([input.file, input.format], ['x.ipl', 'text']);
  const finding = input.findings.find((f) => f.rule === 'iplsa.inst.id_range');
  assert.deepEqual(
    [finding.severity, finding.games, finding.offset, finding.entry, finding.animation, finding.bone],
    ['error', ['sa'], 5, null, null, null],
  );
  assert.ok(finding.message.startsWith('line 2: a model id'));
  // A game that does not load text IPLs has nothing to say.
  assert.deepEqual(check(ipl, { name: 'x.ipl', games: ['mta'] }).inputs[0].findings, []);
});

test('check: a package in the shape the games ship gives no error', () => {
  const findings = check(sampleAnp3(), { name: 'ped.ifp' }).inputs[0].findings;
  assert.deepEqual(findings.filter((f) => f.severity === 'error'), []);
});

// The same document as the command line's, byte for byte.
test('checkJson is what `gtastream check --json` prints', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gtastream-check-'));
  for (const [name, bytes] of [['x.ipl', ipl], ['ped.ifp', sampleAnp3()]]) {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    let printed;
    try {
      printed = execFileSync(cli(), ['check', '--json', path], { encoding: 'utf8' });
    } catch (e) {
      printed = e.stdout;
    }
    assert.equal(checkJson(bytes, { name: path }), printed);
  }
});
