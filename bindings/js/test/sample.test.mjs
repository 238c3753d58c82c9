import assert from 'node:assert/strict';
import { test } from 'node:test';

import { DecodeError, decode, sample } from '../dist/index.js';
import { anp3 } from './fixtures.mjs';

// Root: identity at 0 s, 180° about z at 2 s (120 ticks), translation (0,0,0) to (2,0,-2);
// Head: one key. At 1 s the games' slerp gives both weights sin(π/4): (0, 0, √½, √½).
const file = anp3('s', [{ name: 'walk', bones: [
  { name: 'Root', type: 4, id: 0, frames: [
    { q: [0, 0, 0, 4096], t: 0, tr: [0, 0, 0] },
    { q: [0, 0, 4096, 0], t: 120, tr: [2048, 0, -2048] },
  ] },
  { name: 'Head', type: 3, id: 5, frames: [{ q: [2048, 2048, 2048, 2048], t: 0 }] },
] }]);

test('sample(): the pose worked out by hand, as gtastream sample --json prints it', () => {
  const pose = sample(file, 'walk', 1);
  assert.deepEqual(pose, {
    animation: 'walk', time: 1, bones: [
      { name: 'Root', bone_id: 0, rotation: [0, 0, 0.70710677, 0.70710677], translation: [1, 0, -1] },
      { name: 'Head', bone_id: 5, rotation: [0.5, 0.5, 0.5, 0.5], translation: null },
    ],
  });
  // Looped, 5 s wraps by the length (2 s) to 1 s; names match in any case.
  assert.deepEqual(sample(file, ' WALK', 5, { loop: true }).bones, pose.bones);
  // The summary's length is the one the sampler wraps by.
  assert.equal(decode(file).animations[0].summary.length, 2);
});

test('sample() throws the library errors', () => {
  assert.throws(() => sample(file, 'run', 0), (e) => e instanceof DecodeError && e.kind === 'not_found');
});
