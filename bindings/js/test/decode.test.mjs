import assert from 'node:assert/strict';
import { test } from 'node:test';

import { DecodeError, IFPReader, convert, decode, decodeJson } from '../dist/index.js';
import { asJson, sameDocument } from './events.mjs';
import {
  allFixtures, anlf, anp3, carsFirst, sampleAnp3, sampleBnry, sampleTextIpl, textIpl,
} from './fixtures.mjs';

test('an ANP3 package: names, ids, frame types and the conversions of docs/FORMATS.md §2.2', () => {
  const doc = decode(sampleAnp3({ garbage: '=C:=C:\\3dsmax5' }));
  assert.equal(doc.format, 'ANP3');
  assert.equal(doc.name, 'ped');
  assert.deepEqual(doc.warnings, []);
  assert.deepEqual(doc.animations.map((a) => a.name), ['WALK_player', 'IDLE_stance']);
  const [root, pelvis, thigh] = doc.animations[0].bones;
  assert.deepEqual([root.name, root.bone_id, root.frame_type], ['Root', 0, 'ifp2_packed_rot_trans']);
  assert.equal(pelvis.name, ' Pelvis');
  assert.deepEqual([thigh.bone_id, thigh.frame_type, thigh.frames.length], [51, 'ifp2_packed_rot', 20]);
  // Frame 3 of the root: q = (30, -60, 103, 4093) / 4096, t = 6 / 60 s, tr = (192, -3, 1024) / 1024.
  sameDocument(root.frames[3], {
    time: 6 / 60, rotation: [30 / 4096, -60 / 4096, 103 / 4096, 4093 / 4096],
    translation: [192 / 1024, -3 / 1024, 1024 / 1024],
  });
  assert.equal('translation' in thigh.frames[0], false);
  assert.equal(doc.animations[0].frame_data_size, 37 * 16 * 2 + 20 * 10);
});

test('decodeJson is the text decode() parses, ending with a newline', () => {
  const text = decodeJson(sampleAnp3());
  assert.ok(text.startsWith('{\n  "format": "ANP3"'));
  assert.ok(text.endsWith('\n}\n'));
  assert.deepEqual(JSON.parse(text), asJson(decode(sampleAnp3())));
});

test('warnings carry kind, reason, offset and where: animation, bone, line', () => {
  const good = sampleAnp3();
  const doc = decode(sampleAnp3({ trailing: [9, 9, 9] }));
  assert.deepEqual(doc.warnings, [{ kind: 'trailing_data', reason: 'bytes after the last record',
    offset: good.length, animation: null, bone: null, line: null }]);
  // A time going back in bone 1 of animation 1 (packed times: ticks of 1/60 s).
  const still = (t) => ({ q: [0, 0, 0, 4096], t });
  const backwards = anp3('p', [
    { name: 'a', bones: [{ name: 'b0', type: 3, id: 0, frames: [still(0)] }] },
    { name: 'c', bones: [{ name: 'x', type: 3, id: 0, frames: [still(0)] },
      { name: 'y', type: 3, id: 1, frames: [still(5), still(2)] }] },
  ]);
  const [warning] = decode(backwards).warnings;
  assert.deepEqual([warning.kind, warning.animation, warning.bone, warning.line],
    ['time_backwards', 1, 1, null]);
  // The fourth line of a text IPL is not a record.
  const text = decode(textIpl(['1337, box01, 0, 10.5, -20.0, 3.0, 0, 0, 0, 1, -1', '1, 2']));
  const malformed = text.warnings.find((w) => w.kind === 'malformed_line');
  assert.deepEqual([malformed.animation, malformed.bone, malformed.line], [null, null, 4]);
  // A line between sections: its section's name is empty (and its bytes start where the
  // text's do).
  const stray = decode(new TextEncoder().encode('inst\nend\nstray line\ninst\nend\n'));
  assert.deepEqual(stray.section_lines, [{ section: '', text: 'stray line' }]);
  assert.deepEqual(stray.warnings.map((w) => [w.kind, w.line]), [['line_outside_section', 3]]);
  // The same as the library's JSON document.
  for (const file of [backwards, textIpl(['1, 2'])]) {
    assert.deepEqual(decode(file).warnings, JSON.parse(decodeJson(file)).warnings);
  }
});

test('a truncated file throws DecodeError with kind, offset, where and what decoded before', () => {
  const file = sampleAnp3();
  // Cut inside the first bone header (file header 36 + animation header 36 + 10 bytes).
  assert.throws(() => decode(file.subarray(0, 36 + 36 + 10)), (e) => {
    assert.ok(e instanceof DecodeError && e instanceof Error);
    assert.equal(e.name, 'DecodeError');
    assert.equal(e.kind, 'truncated');
    assert.equal(e.reason, 'file cut short');
    assert.equal(e.offset, 72);
    assert.deepEqual([e.animation, e.bone, e.line], [0, null, null]);
    assert.equal(e.message, 'file cut short: it ends before the data at offset 72 is complete (animation 0 "WALK_player"; ' +
      'after 1 animation, 0 bones, 0 keyframes)');
    return true;
  });
  // Inside the keyframes of bone 2 ("R Thigh", 36-byte header, packed rotations of 10 bytes)
  // of the first animation: two bones of 37 frames of 16 bytes before it.
  const third = 36 + 36 + 2 * (36 + 37 * 16) + 36;
  assert.throws(() => decode(file.subarray(0, third + 25)), {
    name: 'DecodeError', kind: 'truncated', animation: 0, bone: 2, line: null,
    message: /^file cut short: it ends before the data at offset \d+ is complete \(animation 0 "WALK_player", bone 2 "R Thigh"; after 1 animation, 3 bones, 7\d keyframes\)$/,
  });
  // The same message as decodeJson, IFPReader and the tool.
  assert.throws(() => decodeJson(file.subarray(0, 82)), { message: /\(animation 0 "WALK_player"; after/ });
  assert.throws(() => new IFPReader(file.subarray(0, 82)), { animation: 0, bone: null });
  // A placement file: the line.
  const cut = new TextEncoder().encode(`inst\n${'x'.repeat(600)}`);
  assert.throws(() => decode(cut), (e) => e instanceof DecodeError && e.line !== null);
});

test('unknown magic and an unknown frame type are errors at their offsets', () => {
  assert.throws(() => decode(Uint8Array.from([0x7f, 1, 2, 3, 0, 0, 0, 0, 0xff])),
    { name: 'DecodeError', kind: 'bad_magic', offset: 0 });
  const bad = anp3('p', [{ name: 'a', bones: [{ name: 'b', type: 9, id: 0, frames: [] }] }]);
  assert.throws(() => decode(bad), { kind: 'unknown_frame_type', offset: 72 });
});

test('placement files: binary and text IPL instances and cars', () => {
  const bin = decode(sampleBnry());
  assert.equal(bin.format, 'bnry');
  assert.equal(bin.animations, undefined);
  assert.deepEqual(bin.instances[0], { model_id: 1337, model_name: null, interior: 13,
    position: [100.5, -200.25, 10], rotation: [0, 0, 0.5, 1], scale: null, lod: -1 });
  assert.equal(bin.instances[1].lod, 4);
  assert.deepEqual(bin.cars, [{ position: [1, 2, 3], angle: 1.5, model_id: 400,
    primary_color: -1, secondary_color: -1, flags: 3, alarm_chance: 0, door_lock_chance: 100,
    min_delay: 0, max_delay: 0 }]);
  const text = decode(sampleTextIpl());
  assert.equal(text.format, 'text');
  assert.deepEqual(text.instances.map((i) => [i.model_id, i.model_name, i.position]),
    [[1337, 'box01', [10.5, -20, 3]], [615, 'veg_tree3', [-100, 250, 1]]]);
  assert.equal(text.cars.length, 1);
});

test('accepts an ArrayBuffer and the canSeek option; every fixture decodes or throws DecodeError', () => {
  const file = sampleAnp3();
  assert.deepEqual(decode(file.slice().buffer), decode(file));
  for (const [name, bytes] of allFixtures()) {
    let seekable;
    try {
      seekable = decode(bytes);
    } catch (e) {
      assert.ok(e instanceof DecodeError, `${name}: ${e}`);
      continue;
    }
    assert.ok(seekable.format, name);
    try {
      const stream = decode(bytes, { canSeek: false });
      // Only Stories files point anywhere; others read the same without seeking.
      if (seekable.format !== 'ANIM') assert.deepEqual(stream, seekable, name);
    } catch (e) {
      assert.ok(e instanceof DecodeError, `${name}: ${e}`);
      assert.equal(seekable.format, 'ANIM', `${name}: only Stories files need seeks`);
      assert.equal(e.kind, 'seek_required', name);
    }
  }
});

test('names are read one character per byte (Latin-1)', () => {
  const doc = decode(anp3('caf\u00e9', [{ name: 'd\u00e9j\u00e0', bones: [] }]));
  assert.equal(doc.name, 'caf\u00e9');
  assert.equal(doc.animations[0].name, 'd\u00e9j\u00e0');
});

test('float keyframes: NaN and infinities are null, other values as the JSON text reads them', () => {
  const odd = [Number.NaN, Infinity, -Infinity, -0, 1e-40, 0.1, 3.4e38, 16384, 1 / 3];
  const frames = odd.map((v, i) => ({ q: [v, odd[(i + 1) % 9], 0.5, 1], t: i === 2 ? v : i / 30,
    tr: [v, -v, odd[(i + 4) % 9]] }));
  const file = anp3('f', [{ name: 'odd', bones: [
    { name: 'a', type: 2, id: 0, frames }, { name: 'b', type: 1, id: 1, frames },
  ] }]);
  const doc = decode(file);
  // decodeJson is the library's JSON text: decode() must be that text parsed, value for value.
  assert.deepEqual(asJson(doc), JSON.parse(decodeJson(file)));
  const first = doc.animations[0].bones[0].frames[0];
  assert.deepEqual(first.rotation, [null, null, 0.5, 1]);
  assert.deepEqual(first.translation, [null, null, 1e-40]);
  assert.ok(Object.is(doc.animations[0].bones[0].frames[3].rotation[0], -0));
  assert.equal(doc.animations[0].bones[1].frames[2].time, null);
  assert.equal('translation' in doc.animations[0].bones[1].frames[0], false);
  assert.equal(doc.animations[0].bones[0].frames[5].rotation[0], 0.1);
});

test('the layout keys are the JSON text\'s: a text IPL, a bnry of cars first, an ANLF', () => {
  const text = new TextEncoder().encode('# a\r\ninst\r\n1, a, 0, 1.50, 0, 0, 0, 0, 0, 1, -1\r\n\r\nend\n');
  const stock = sampleBnry();
  const cars = carsFirst(stock, 2, 1);
  const block = convert(sampleAnp3(), 'ANPK');
  const container = anlf([block, block]);
  for (const [file, key] of [[text, 'stored'], [cars, 'stored'], [stock, 'stored'], [container, 'blocks']]) {
    const doc = decode(file);
    const json = JSON.parse(decodeJson(file));
    assert.ok(key in json, key);
    assert.deepEqual(asJson(doc), json, `${doc.format} ${key}`);
  }
  assert.equal(decode(stock).stored, null);
  assert.equal(decode(cars).stored.length, 3);
  assert.equal(decode(container).blocks.length, 2);
});
