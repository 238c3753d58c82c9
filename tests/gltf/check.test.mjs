// The glTF that `gtastream convert --to gltf|glb --skeleton` writes, checked (issue 33):
// - the Khronos validator (npm gltf-validator) finds no error in the .gltf nor the .glb;
// - three.js loads the .glb (GLTFLoader.parse) and plays each animation (AnimationMixer, once,
//   clamped at the end): at each time of the case, every frame node's matrix below the Z-up
//   root equals the frame's model-space matrix of `gtastream sample --skeleton --json`
//   (within 1e-5).
// Inputs: GTASTREAM_CLI (the gtastream binary) and GLTF_FIXTURES (the folder that
// `cargo run --features gltf --example gltf_fixtures -- DIR` writes, with cases.json).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import validator from 'gltf-validator';
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';

const cli = process.env.GTASTREAM_CLI;
const fixtures = process.env.GLTF_FIXTURES;
if (!cli || !fixtures) {
  throw new Error('set GTASTREAM_CLI (the gtastream binary) and GLTF_FIXTURES (gltf_fixtures output)');
}
const TOLERANCE = 1e-5;
const cases = JSON.parse(fs.readFileSync(path.join(fixtures, 'cases.json'), 'utf8'));
const out = fs.mkdtempSync(path.join(os.tmpdir(), 'gtastream-gltf-'));

function gtastream(args) {
  return execFileSync(cli, args, { cwd: fixtures, maxBuffer: 1 << 26, stdio: ['ignore', 'pipe', 'pipe'] });
}

function convert(c, to) {
  const file = path.join(out, `${c.name}.${to}`);
  gtastream(['convert', '--to', to, '--skeleton', c.model, c.animation, file]);
  return fs.readFileSync(file);
}

async function load(bytes) {
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  return new Promise((resolve, reject) => new GLTFLoader().parse(buffer, '', resolve, reject));
}

/// Every object carrying a frame index, by index; and the Z-up root.
function frames(scene) {
  const byFrame = new Map();
  let root = null;
  scene.traverse((o) => {
    const ours = o.userData?.gtastream;
    if (ours && Number.isInteger(ours.frame)) byFrame.set(ours.frame, o);
    if (o.parent === scene) root = o;
  });
  return { byFrame, root };
}

for (const c of cases) {
  test(`${c.name}: the Khronos validator finds no error (.gltf and .glb)`, async () => {
    for (const to of ['gltf', 'glb']) {
      const report = await validator.validateBytes(new Uint8Array(convert(c, to)), {
        uri: `${c.name}.${to}`,
        maxIssues: 100,
      });
      const errors = report.issues.messages.filter((m) => m.severity === 0);
      assert.equal(report.issues.numErrors, 0, `${c.name}.${to}: ${JSON.stringify(errors)}`);
    }
  });

  test(`${c.name}: three.js plays every animation as gtastream sample --skeleton poses it`, async (t) => {
    const glb = convert(c, 'glb');
    let compared = 0;
    for (const name of c.animations) {
      // Packed keys are not unit: the games slerp them as stored and normalise the result,
      // glTF holds them normalised (docs/ANIMATION.md, "glTF"): equal at the keys, close
      // between them.
      const tolerance = c.tolerance?.[name] ?? TOLERANCE;
      let largest = 0;
      // A fresh scene for each animation: every node starts at its bind pose, and the nodes
      // the clip does not animate keep it.
      const gltf = await load(glb);
      const clip = gltf.animations.find((a) => a.name === name);
      assert.ok(clip, `${c.name}: no glTF animation named ${name}`);
      const mixer = new THREE.AnimationMixer(gltf.scene);
      const action = mixer.clipAction(clip);
      action.setLoop(THREE.LoopOnce, 1);
      action.clampWhenFinished = true;
      action.play();
      const { byFrame, root } = frames(gltf.scene);
      for (const time of c.times) {
        // Played once, clamped at the end (as the games hold the last keys when not looped).
        action.enabled = true;
        action.paused = false;
        action.time = time;
        mixer.update(0);
        gltf.scene.updateMatrixWorld(true);
        const below = new THREE.Matrix4().copy(root.matrixWorld).invert();
        const doc = JSON.parse(
          gtastream(['sample', '--json', '--skeleton', c.model, '--animation', name, '--time', String(time), c.animation]),
        );
        assert.equal(byFrame.size, doc.frames.length, `${c.name}: a node per frame`);
        for (const frame of doc.frames) {
          const object = byFrame.get(frame.index);
          const m = new THREE.Matrix4().multiplyMatrices(below, object.matrixWorld).elements;
          for (let i = 0; i < 16; i++) {
            const diff = Math.abs(m[i] - frame.matrix[i]);
            largest = Math.max(largest, diff);
            assert.ok(
              diff <= tolerance,
              `${c.name} ${name} t=${time} frame ${frame.index} (${frame.name}) element ${i}: three.js ${m[i]}, gtastream ${frame.matrix[i]}`,
            );
          }
          compared++;
        }
      }
      t.diagnostic(`${name}: largest difference ${largest.toExponential(2)} (tolerance ${tolerance})`);
    }
    assert.ok(compared > 0);
  });
}

test('the tracks that bind to nothing are reported on stderr, not written', () => {
  for (const c of cases) {
    const file = path.join(out, `${c.name}-report.gltf`);
    const run = spawnSync(cli, ['convert', '--to', 'gltf', '--skeleton', c.model, c.animation, file], {
      cwd: fixtures,
      encoding: 'utf8',
    });
    assert.equal(run.status, 0, run.stderr);
    for (const [animation, track] of c.unwritten) {
      assert.match(run.stderr, new RegExp(`animation "${animation}": track ${track} .*not written`));
    }
    const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
    const names = doc.animations.map((a) => a.name);
    for (const name of c.animations) assert.ok(names.includes(name), name);
    // No channel targets a node twice with one path, and every target is a frame node.
    for (const a of doc.animations) {
      const targets = a.channels.map((ch) => `${ch.target.node}/${ch.target.path}`);
      assert.equal(new Set(targets).size, targets.length);
      for (const ch of a.channels) assert.ok(doc.nodes[ch.target.node].extras.gtastream);
    }
  }
});
