// IFPReader against the seed reader's README (@majesticfudgie/ifp-reader): its usage example and
// API section, with one correction the README gets wrong (translations are raw / 1024,
// docs/FORMATS.md §2.2). Unlike the seed, every animation format is read.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import IFPReaderDefault, { IFPReader as IFPReaderNamed } from '../dist/ifp-reader.js';
import { DecodeError, IFPReader, decode } from '../dist/index.js';
import { allFixtures, anp3, repo, sampleAnp3, sampleBnry } from './fixtures.mjs';

test("the README's import shapes: default export of gtastream/ifp-reader, and named", () => {
  assert.equal(IFPReaderDefault, IFPReader);
  assert.equal(IFPReaderNamed, IFPReader);
});

test("the README's usage: animations, case-insensitive getAnimation, bones, frames", () => {
  const data = new Uint8Array(sampleAnp3({ garbage: '=C:=C:\\3dsmax5' }));
  const ifp = new IFPReader(data);
  assert.equal(ifp.packageName, 'ped'); // Garbage after the NUL is not part of the name.
  assert.equal(ifp.animations.length, 2);
  const walk = ifp.getAnimation('walk_PLAYER');
  assert.equal(walk, ifp.getAnimation('WALK_player'));
  assert.equal(walk.name, 'WALK_player');
  assert.equal(walk.bones.length, 3);
  assert.equal(ifp.getAnimation('no such animation'), undefined);
  assert.deepEqual(walk.bones.map((b) => [b.boneId, b.boneName, b.frames.length]),
    [[0, 'Root', 37], [1, ' Pelvis', 37], [51, 'R Thigh', 20]]);
  const frame = walk.bones[0].frames[36];
  // Time raw / 60 s: raw 72 over 37 frames is the README's 1.2 s walk cycle.
  assert.equal(Math.fround(frame.time), Math.fround(72 / 60));
  assert.deepEqual(frame.quaternion, [360 / 4096, -720 / 4096, 136 / 4096, 4060 / 4096]);
  assert.deepEqual(frame.translation, [36 * 64 / 1024, -36 / 1024, 1]);
  assert.equal(Math.fround(walk.duration), Math.fround(1.2));
  // Type 3 (rotation only): no translation at all.
  assert.equal('translation' in walk.bones[2].frames[0], false);
  assert.equal(walk.bones[2].frameType, 'ifp2_packed_rot');
});

test('getAnimation finds the names of a real ped.ifp: ASCII case and surrounding whitespace aside', () => {
  // Shaped like a stock San Andreas ped.ifp: the root bone is `Normal`, the others start with a
  // space, bone ids are the SA skeleton's, one bone has id -1.
  const rotation = [{ q: [0, 0, 0, 4096], t: 0 }, { q: [0, 0, 1, 4096], t: 30 }];
  const bones = [
    { name: 'Normal', type: 4, id: 0, frames: [{ q: [0, 0, 0, 4096], t: 0, tr: [0, 0, 1024] }] },
    { name: ' Pelvis', type: 3, id: 1, frames: rotation },
    { name: ' L Thigh', type: 3, id: 41, frames: rotation },
    { name: ' L Finger', type: 3, id: -1, frames: rotation },
  ];
  const ifp = new IFPReader(anp3('ped', [
    { name: 'WALK_player', bones }, { name: 'walk_civi', bones }, { name: 'caf\xe9', bones },
  ]));
  const walk = ifp.getAnimation('WALK_CIVI');
  assert.equal(walk?.name, 'walk_civi');
  assert.equal(ifp.getAnimation(' walk_player\t')?.name, 'WALK_player');
  assert.equal(ifp.getAnimation('walk civi'), undefined);
  assert.equal(ifp.getAnimation('\xa0walk_civi'), undefined); // only ASCII whitespace is ignored
  assert.equal(ifp.getAnimation('CAF\xe9')?.name, 'caf\xe9');
  assert.equal(ifp.getAnimation('caf\xc9'), undefined); // Latin-1 letters compare as they are
  // Bones: by id, or by the trimmed name; the stored names are kept as they are.
  assert.deepEqual(walk.bones.map((b) => [b.boneId, b.boneName]),
    [[0, 'Normal'], [1, ' Pelvis'], [41, ' L Thigh'], [-1, ' L Finger']]);
  assert.equal(walk.bones.find((b) => b.boneName.trim().toLowerCase() === 'pelvis')?.boneId, 1);
});

test('quaternions of a real-looking clip are unit length (the README\'s check of / 4096)', () => {
  const ifp = new IFPReader(new Uint8Array(readFileSync(new URL('samples/walk.ifp', repo))));
  let frames = 0;
  for (const a of ifp.animations) {
    for (const b of a.bones) {
      for (const f of b.frames) {
        assert.ok(Math.abs(Math.hypot(...f.quaternion) - 1) < 0.01, `${a.name} ${b.boneName}`);
        frames++;
      }
    }
  }
  assert.ok(frames > 100);
});

test('not an animation file, or a broken one: errors instead of a partial result', () => {
  assert.throws(() => new IFPReader(sampleBnry()), /not an animation file/);
  const broken = sampleAnp3().subarray(0, 200);
  assert.throws(() => new IFPReader(broken), (e) => e instanceof DecodeError && e.kind === 'truncated');
  const unknownType = anp3('p', [{ name: 'a', bones: [{ name: 'b', type: 7, id: 0, frames: [] }] }]);
  assert.throws(() => new IFPReader(unknownType), { kind: 'unknown_frame_type' });
});

test('every animation fixture reads (ANP3, ANP2, ANPK, ANIM): same animations as decode()', () => {
  const formats = new Set();
  for (const [name, bytes] of allFixtures()) {
    let doc;
    try {
      doc = decode(bytes);
    } catch {
      continue;
    }
    if (!doc.animations) continue;
    const ifp = new IFPReader(bytes);
    formats.add(ifp.format);
    assert.equal(ifp.animations.length, doc.animations.length, name);
    ifp.animations.forEach((a, i) => {
      const d = doc.animations[i];
      assert.equal(a.name, d.name);
      assert.deepEqual(a.bones.map((b) => [b.boneId, b.boneName, b.frames.length]),
        d.bones.map((b) => [b.bone_id, b.name ?? '', b.frames.length]), name);
      // ASCII letters in upper case find the first animation that differs from it only so.
      const upper = a.name.replace(/[a-z]+/g, (s) => s.toUpperCase());
      const first = ifp.animations.find((b) => b.name.replace(/[a-z]+/g, (s) => s.toUpperCase()) === upper);
      assert.equal(ifp.getAnimation(upper), first, name);
    });
  }
  if (process.env.GTASTREAM_FIXTURES) {
    assert.deepEqual([...formats].sort(), ['ANIM', 'ANP2', 'ANP3', 'ANPK']);
  }
});
