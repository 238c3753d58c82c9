import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { check, checkJson } from '../dist/index.js';
import { anp3, cli, imgVer1, imgVer2, sampleAnp3 } from './fixtures.mjs';

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

/** `gtastream check --json ARGS`, parsed (it exits 1 on error-level findings). */
function cliCheck(target) {
  try {
    return execFileSync(cli(), ['check', '--json', target], { encoding: 'utf8' });
  } catch (e) {
    return e.stdout;
  }
}

const spraycan = anp3('spraycan', [{ name: 'spray', bones: [{ name: 'Root', type: 3, id: 0,
  frames: [{ q: [0, 0, 0, 4096], t: 0 }, { q: [0, 0, 0, 4096], t: 0 }] }] }]);
const entries = [['spraycan.ifp', spraycan], ['ped.ifp', sampleAnp3()]];

test('check: a version 1 archive with its .dir is what `gtastream check NAME.img` prints', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gtastream-check-'));
  const vc = imgVer1(entries);
  const path = join(dir, 'gta3.img');
  writeFileSync(path, vc.img);
  writeFileSync(join(dir, 'gta3.dir'), vc.dir);
  const printed = checkJson(vc.img, { name: path, dir: vc.dir });
  assert.equal(printed, cliCheck(path));
  const [input] = JSON.parse(printed).inputs;
  assert.equal(input.format, 'VER1');
  assert.ok(input.findings.some((f) => f.entry === 'spraycan.ifp'));
});

test('check: an entry checked under its name finds what `gtastream check ARCHIVE:ENTRY` finds', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gtastream-check-'));
  const path = join(dir, 'gta3.img');
  writeFileSync(path, imgVer2(entries));
  const { findings } = check(spraycan, { name: 'spraycan.ifp' }).inputs[0];
  assert.deepEqual(findings, JSON.parse(cliCheck(`${path}:spraycan.ifp`)).inputs[0].findings);
  assert.ok(!findings.some((f) => f.rule === 'ifp.block.name_mismatch_file'));
  // Without the name, the block's name is compared with none.
  assert.ok(check(spraycan).inputs[0].findings.some((f) => f.rule === 'ifp.block.name_mismatch_file'));
});
