// A glTF written by another tool comes in as an IFP the games load (issue 33): three.js's
// GLTFExporter writes a walk on a Mixamo rig named as three.js's loaders name it
// (`mixamorigHips`, ...); `gtastream convert --to anp3 --bone-map MAP --quantize` with the
// Mixamo → San Andreas map of docs/ANIMATION.md writes an IFP that `gtastream check --game sa`
// accepts, each mapped bone carrying the glTF's rotations.
// Input: GTASTREAM_CLI (the gtastream binary).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import * as THREE from 'three';
import { GLTFExporter } from 'three/examples/jsm/exporters/GLTFExporter.js';

const cli = process.env.GTASTREAM_CLI;
if (!cli) throw new Error('set GTASTREAM_CLI (the gtastream binary)');
const here = path.dirname(fileURLToPath(import.meta.url));
const out = fs.mkdtempSync(path.join(os.tmpdir(), 'gtastream-exporter-'));

// The exporter reads its Blobs with the browser's FileReader, which Node lacks.
globalThis.FileReader ??= class {
  readAsArrayBuffer(blob) {
    blob.arrayBuffer().then((b) => { this.result = b; this.onloadend?.(); });
  }
  readAsDataURL(blob) {
    blob.arrayBuffer().then((b) => {
      this.result = `data:application/octet-stream;base64,${Buffer.from(b).toString('base64')}`;
      this.onloadend?.();
    });
  }
};

/** The map of docs/ANIMATION.md for Mixamo to San Andreas, as the docs print it. */
function docsMap() {
  const docs = fs.readFileSync(path.join(here, '..', '..', 'docs', 'ANIMATION.md'), 'utf8');
  const start = docs.indexOf('# Mixamo (mixamorig:) to San Andreas');
  assert.ok(start > 0, 'docs/ANIMATION.md has the Mixamo map');
  return docs.slice(start, docs.indexOf('```', start));
}

/** A Mixamo-shaped rig (names as three.js's loaders give them) and a 1 s walk at 30 keys a
 * second: each bone swings about its own axis; the hips also move. */
function walk() {
  const rig = {
    Hips: [null, [0, 1, 0]], Spine: ['Hips', [0, 0.1, 0]], Spine1: ['Spine', [0, 0.12, 0]],
    Neck: ['Spine1', [0, 0.15, 0]], Head: ['Neck', [0, 0.1, 0]],
    LeftShoulder: ['Spine1', [0.05, 0.12, 0]], LeftArm: ['LeftShoulder', [0.1, 0, 0]],
    LeftForeArm: ['LeftArm', [0.25, 0, 0]], LeftHand: ['LeftForeArm', [0.25, 0, 0]],
    RightShoulder: ['Spine1', [-0.05, 0.12, 0]], RightArm: ['RightShoulder', [-0.1, 0, 0]],
    RightForeArm: ['RightArm', [-0.25, 0, 0]], RightHand: ['RightForeArm', [-0.25, 0, 0]],
    LeftUpLeg: ['Hips', [0.09, -0.05, 0]], LeftLeg: ['LeftUpLeg', [0, -0.4, 0]],
    LeftFoot: ['LeftLeg', [0, -0.4, 0]], RightUpLeg: ['Hips', [-0.09, -0.05, 0]],
    RightLeg: ['RightUpLeg', [0, -0.4, 0]], RightFoot: ['RightLeg', [0, -0.4, 0]],
    // Mixamo bones San Andreas has no bone for: left out of the map, left out of the file.
    Spine2: ['Spine1', [0, 0.05, 0]],
  };
  const bones = {};
  const scene = new THREE.Scene();
  for (const [name, [parent, at]] of Object.entries(rig)) {
    const bone = new THREE.Bone();
    bone.name = `mixamorig${name}`;
    bone.position.fromArray(at);
    (parent ? bones[parent] : scene).add(bone);
    bones[name] = bone;
  }
  const times = Array.from({ length: 31 }, (_, k) => k / 30);
  const tracks = Object.keys(rig).map((name, i) => {
    const axis = new THREE.Vector3(i % 3 === 0 ? 1 : 0, i % 3 === 1 ? 1 : 0, i % 3 === 2 ? 1 : 0);
    const values = times.flatMap((t) => new THREE.Quaternion()
      .setFromAxisAngle(axis, 0.4 * Math.sin(2 * Math.PI * t + i)).toArray());
    return new THREE.QuaternionKeyframeTrack(`mixamorig${name}.quaternion`, times, values);
  });
  tracks.push(new THREE.VectorKeyframeTrack('mixamorigHips.position', times,
    times.flatMap((t) => [0.02 * Math.sin(2 * Math.PI * t), 1 + 0.03 * Math.cos(4 * Math.PI * t), 0])));
  return { scene, clip: new THREE.AnimationClip('walk_mixamo', 1, tracks) };
}

function run(...args) {
  return spawnSync(cli, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
}

test("three.js's GLTFExporter walk on a Mixamo rig comes in with the docs' map and loads in SA", async () => {
  const { scene, clip } = walk();
  const glb = await new GLTFExporter().parseAsync(scene, { binary: true, animations: [clip] });
  const input = path.join(out, 'walk.glb');
  fs.writeFileSync(input, Buffer.from(glb));
  const map = path.join(out, 'mixamo-sa.txt');
  fs.writeFileSync(map, docsMap());
  const ifp = path.join(out, 'walk_mixamo.ifp');
  const converted = run('convert', '--to', 'anp3', '--bone-map', map, '--quantize', input, ifp);
  assert.equal(converted.status, 0, converted.stderr);
  // Spine2 has no San Andreas bone: left out, and said so.
  assert.match(converted.stderr, /mixamorigSpine2/);
  const checked = run('check', '--game', 'sa', ifp);
  assert.equal(checked.status, 0, checked.stdout + checked.stderr);
  assert.match(checked.stdout, /: 0 errors, /);
  // Every mapped bone is in the file, with the exporter's rotations (to the packed steps).
  const dumped = JSON.parse(run('dump', '--json', ifp).stdout);
  const [animation] = dumped.animations;
  assert.equal(animation.name, 'walk_mixamo');
  const mapped = docsMap().split('\n').filter((l) => l.includes(' = ')).map((l) => l.split(' = '));
  const ours = mapped.filter(([from]) => scene.getObjectByName(from.replace(':', '')));
  assert.equal(animation.bones.length, ours.length);
  for (const [from, to] of ours) {
    // Written under the engine's own spelling of the name (and its id), in any case the map's.
    const bone = animation.bones.find((b) => b.name.toLowerCase() === to.toLowerCase());
    assert.ok(bone, `${to} (from ${from}) is written`);
    const track = clip.tracks.find((t) => t.name === `${from.replace(':', '')}.quaternion`);
    assert.equal(bone.frames.length, track.times.length);
    bone.frames.forEach((f, k) => {
      assert.ok(Math.abs(f.time - track.times[k]) < 1e-6);
      for (let c = 0; c < 4; c++) {
        assert.ok(Math.abs(f.rotation[c] - track.values[k * 4 + c]) <= 1 / 4096, `${to} key ${k}`);
      }
    });
  }
});
