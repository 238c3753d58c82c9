import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { check, checkJson } from '../dist/index.js';
import { allFixtures, anp3, anpk, cli, imgVer1, imgVer2, sampleAnp3, textIpl } from './fixtures.mjs';

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
function cliCheckPath(target) {
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
  assert.equal(printed, cliCheckPath(path));
  const [input] = JSON.parse(printed).inputs;
  assert.equal(input.format, 'VER1');
  assert.ok(input.findings.some((f) => f.entry === 'spraycan.ifp'));
});

test('check: an entry checked under its name finds what `gtastream check ARCHIVE:ENTRY` finds', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gtastream-check-'));
  const path = join(dir, 'gta3.img');
  writeFileSync(path, imgVer2(entries));
  const { findings } = check(spraycan, { name: 'spraycan.ifp' }).inputs[0];
  assert.deepEqual(findings, JSON.parse(cliCheckPath(`${path}:spraycan.ifp`)).inputs[0].findings);
  assert.ok(!findings.some((f) => f.rule === 'ifp.block.name_mismatch_file'));
  // Without the name, the block's name is compared with none.
  assert.ok(check(spraycan).inputs[0].findings.some((f) => f.rule === 'ifp.block.name_mismatch_file'));
});

/** `gtastream check --json FILE` on `bytes` written as `name` in a fresh folder: the path and
 * the printed text (exit 1 on errors is no failure here). */
function cliCheck(name, bytes, args = []) {
  const path = join(mkdtempSync(join(tmpdir(), 'gtastream-check-')), name);
  writeFileSync(path, bytes);
  try {
    return [path, execFileSync(cli(), ['check', '--json', ...args, path], { encoding: 'utf8' })];
  } catch (e) {
    return [path, e.stdout];
  }
}

const GAME_FLAG = (games) => games.flatMap((g) => ['--game', g]);

// Groups, summary and the games checked: the structure of the command line's JSON, on the
// fixtures of every format, with and without games named.
test('check: groups, summary and games are those of `check --json` on every fixture', () => {
  let compared = 0;
  // A Vice City text IPL: named games fix its layout (`--game sa` reads it as San Andreas does).
  const vcIpl = textIpl(['1, name, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1']);
  for (const [name, bytes] of [...allFixtures(), ['vc.ipl', vcIpl]]) {
    const file = name.split('/').pop();
    for (const games of [undefined, ['sa'], ['iii', 'vc']]) {
      const [path, printed] = cliCheck(file, bytes, games ? GAME_FLAG(games) : []);
      const options = games ? { name: path, games } : { name: path };
      const doc = check(bytes, options);
      assert.deepEqual(doc, JSON.parse(printed), `${name} ${games}`);
      const [input] = doc.inputs;
      assert.equal(input.games_from, games ? 'caller' : 'file', name);
      const levels = { error: 0, warning: 0, note: 0 };
      for (const f of input.findings) levels[f.severity]++;
      assert.deepEqual(
        [input.summary.errors, input.summary.warnings, input.summary.notes],
        [levels.error, levels.warning, levels.note], name);
      assert.equal(input.groups.reduce((n, g) => n + g.count, 0), input.findings.length, name);
      compared++;
    }
  }
  assert.ok(compared >= 15, `${compared}`);
});

test('check: the games come from the file unless named', () => {
  const games = (bytes, name, options = {}) => {
    const [input] = check(bytes, { name, ...options }).inputs;
    return [input.games, input.games_from];
  };
  // ANP3: San Andreas and MTA.
  assert.deepEqual(games(sampleAnp3(), 'ped.ifp'), [['sa', 'mta'], 'file']);
  // ANPK of 48-byte ANIM chunks: GTA III.
  assert.deepEqual(games(anpk('demo', ['walk'], { anim48: true }), 'demo.ifp'), [['iii'], 'file']);
  // Named: the caller's, among those that load the file.
  assert.deepEqual(games(sampleAnp3(), 'ped.ifp', { games: ['sa', 'vc'] }), [['sa'], 'caller']);
  // A Vice City ped.ifp of 269 animations: no error by default; III's limit when asked for III.
  const names = Array.from({ length: 269 }, (_, i) => `anim${i}`);
  const vcPed = anpk('ped', names);
  const [vc] = check(vcPed, { name: 'ped.ifp' }).inputs;
  assert.deepEqual(vc.findings.filter((f) => f.severity === 'error'), []);
  assert.equal(vc.summary.errors, 0);
  assert.ok(!vc.games.includes('iii'), `${vc.games}`);
  const [iii] = check(vcPed, { name: 'ped.ifp', games: ['iii'] }).inputs;
  assert.deepEqual(iii.games, ['iii']);
  const over = iii.groups.find((g) => g.rule === 'ifp.anims.total_over_limit');
  assert.ok(over, JSON.stringify(iii.groups));
  assert.deepEqual([over.severity, over.games], ['error', ['iii']]);
  assert.equal(iii.summary.games.iii.errors, iii.summary.errors);
  const [, printed] = cliCheck('ped.ifp', vcPed, GAME_FLAG(['iii']));
  assert.deepEqual(iii.groups, JSON.parse(printed).inputs[0].groups);
});
