// convert() against `gtastream convert --to FORMAT` (the tool: fixtures.mjs `cli()`): the same
// bytes, and errors where it fails.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';

import { DecodeError, EncodeError, convert, decode } from '../dist/index.js';
import { anp3, cli, sampleAnp3, sampleBnry, sampleTextIpl } from './fixtures.mjs';

const work = mkdtempSync(join(tmpdir(), 'gtastream-convert-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** The tool's bytes, or null where it fails. */
function tool(bytes, format, quantize = false) {
  const input = join(work, 'in');
  const output = join(work, `out.${format}`);
  rmSync(output, { force: true });
  writeFileSync(input, bytes);
  const run = spawnSync(cli(), ['convert', '--to', format.toLowerCase(),
    ...(quantize ? ['--quantize'] : []), input, output], { encoding: 'utf8' });
  return run.status === 0 ? new Uint8Array(readFileSync(output)) : null;
}

const floats = anp3('f', [{ name: 'float', bones: [{ name: 'b', type: 2, id: 0,
  frames: [{ q: [0.1, 0.2, 0.3, 0.9], t: 0.5, tr: [1.1, 2.2, 3.3] }] }] }]);

test('animation and placement files convert to the bytes `gtastream convert` writes', () => {
  const cases = [
    [sampleAnp3(), ['ANP3', 'ANP2', 'ANPK']],
    [floats, ['ANPK']],
    [sampleBnry(), ['bnry', 'text']],
    [sampleTextIpl(), ['text']],
  ];
  for (const [bytes, formats] of cases) {
    for (const format of formats) {
      const expected = tool(bytes, format);
      assert.ok(expected, `the tool converts to ${format}`);
      assert.deepEqual(convert(bytes, format), expected, format);
      assert.deepEqual(convert(bytes, format.toLowerCase()), expected, `${format}, lower case`);
    }
  }
  // The converted file reads back as the same animations.
  const anpk = convert(sampleAnp3(), 'ANPK');
  assert.deepEqual(decode(anpk).animations.map((a) => a.name),
    decode(sampleAnp3()).animations.map((a) => a.name));
});

test('what cannot be written is an EncodeError; quantize rounds as the tool does', () => {
  // Animations do not become placements.
  assert.equal(tool(sampleAnp3(), 'bnry'), null);
  assert.throws(() => convert(sampleAnp3(), 'bnry'), (e) => {
    assert.ok(e instanceof EncodeError && e.name === 'EncodeError', String(e));
    assert.match(e.kind, /^[a-z_]+$/);
    assert.ok(e.message.length > 0);
    return true;
  });
  const quantized = tool(floats, 'ANP3', true);
  assert.ok(quantized);
  assert.deepEqual(convert(floats, 'ANP3', { quantize: true }), quantized);
  assert.notDeepEqual(convert(floats, 'ANP3'), quantized);
  assert.throws(() => convert(sampleAnp3(), 'ANIM'), RangeError);
  assert.throws(() => convert(sampleAnp3().subarray(0, 80), 'ANPK'),
    (e) => e instanceof DecodeError && e.kind === 'truncated');
});
