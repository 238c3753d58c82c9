// Speed and memory in Node: node scripts/bench.mjs FILE [ROUNDS]. A large real-shaped package:
//   cargo run --release --features alloc --example bench_file -- FILE 4   (an ANP3, ped.ifp-like)
// Every way reads every keyframe once. Time: ROUNDS rounds, each running every way once in turn
// (paired alternation: a loaded machine slows the ways of one round alike), in this process,
// each from a collected heap;
// the median ms of each way, and the median of its round-by-round ratio to the baseline. Peak
// memory: each way in a process of its own (`--expose-gc`), in turn, 3 times: the median of its
// peak resident set, less that of a process that only loads the package and the file.
//
// The baseline, `plain JS`, is a reader written the way @majesticfudgie/ifp-reader describes
// itself: an eager parse of ANP3 with a DataView, one object per keyframe. The goals (issue 26):
// IFPReader plus the read no slower than it, decode() within 2x of it, peak memory no more.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { Decoder, IFPReader, decode, decodeStream } from '../dist/index.js';

const args = process.argv.slice(2);
const memoryOf = args[0] === '--memory' ? args.splice(0, 2)[1] : undefined;
const [file, rounds = '11'] = args;
const bytes = new Uint8Array(readFileSync(file));

/** The baseline: ANP3 read eagerly with a DataView, one object per keyframe. */
function plainRead(data) {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const name = (at) => {
    let text = '';
    for (let i = at; i < at + 24 && data[i] !== 0; i++) text += String.fromCharCode(data[i]);
    return text;
  };
  if (name(0).slice(0, 4) !== 'ANP3') throw new Error('plain JS reads ANP3 only');
  let at = 8;
  const packageName = name(at);
  const count = view.getUint32(at + 24, true);
  at += 28;
  const animations = [];
  for (let a = 0; a < count; a++) {
    const animation = { name: name(at), bones: [] };
    const bones = view.getUint32(at + 24, true);
    at += 36;
    for (let b = 0; b < bones; b++) {
      const bone = { boneName: name(at), boneId: view.getInt32(at + 32, true), frames: [] };
      const type = view.getUint32(at + 24, true);
      const frames = view.getUint32(at + 28, true);
      at += 36;
      for (let f = 0; f < frames; f++) {
        let frame;
        if (type >= 3) {
          const q = (i) => view.getInt16(at + 2 * i, true) / 4096;
          frame = { time: view.getInt16(at + 8, true) / 60, quaternion: [q(0), q(1), q(2), q(3)] };
          at += 10;
          if (type === 4) {
            const t = (i) => view.getInt16(at + 2 * i, true) / 1024;
            frame.translation = [t(0), t(1), t(2)];
            at += 6;
          }
        } else {
          const q = (i) => view.getFloat32(at + 4 * i, true);
          frame = { time: q(4), quaternion: [q(0), q(1), q(2), q(3)] };
          at += 20;
          if (type === 2) {
            frame.translation = [q(5), q(6), q(7)];
            at += 12;
          }
        }
        bone.frames.push(frame);
      }
      animation.bones.push(bone);
    }
    animations.push(animation);
  }
  return { packageName, animations };
}

/** Reads every keyframe once, as the seed's API has them. */
function readAll(reader, rotation = 'quaternion') {
  let sum = 0;
  for (const a of reader.animations) {
    for (const b of a.bones) {
      for (const f of b.frames) {
        const q = f[rotation];
        sum += f.time + q[0] + q[3];
        const t = f.translation;
        if (t) sum += t[0] + t[2];
      }
    }
  }
  return sum;
}

function stream() {
  let frames = 0;
  const decoder = new Decoder({ keyframes: (f) => void (frames += f.length) });
  for (let at = 0; at < bytes.length; at += 65536) decoder.feed(bytes.subarray(at, at + 65536));
  decoder.finish();
  decoder.free();
  return frames;
}

// Each returns what it read, kept alive until memory is measured.
const ways = {
  'plain JS (DataView, an object per keyframe)': () => {
    const r = plainRead(bytes);
    readAll(r);
    return r;
  },
  'IFPReader + every keyframe read': () => {
    const r = new IFPReader(bytes);
    readAll(r);
    return r;
  },
  'decode() + every keyframe read': () => {
    const d = decode(bytes);
    readAll(d, 'rotation');
    return d;
  },
  'Decoder, keyframes callback (64 KiB feeds)': stream,
  'decodeStream(Blob), keyframes callback': async () => {
    let frames = 0;
    await decodeStream(new Blob([bytes]), { keyframes: (f) => void (frames += f.length) });
    return frames;
  },
  none: () => 0,
};

/** Bytes: this process's peak resident set (Linux's VmHWM, which, unlike maxRSS, does not
 * start from the parent's peak when a child process is started). */
function peakResident() {
  try {
    const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    if (hwm) return Number(hwm[1]) * 1024;
  } catch {
    // Not Linux.
  }
  return process.resourceUsage().maxRSS * 1024;
}

if (!globalThis.gc) {
  // Run again with the collector exposed.
  const self = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), ...args],
    { stdio: 'inherit' });
  process.exit(self.status ?? 1);
}

if (memoryOf !== undefined) {
  const kept = await ways[memoryOf]();
  globalThis.gc();
  const usage = process.memoryUsage();
  console.log(JSON.stringify({
    peak: peakResident(),
    retained: usage.heapUsed + usage.external + usage.arrayBuffers,
    kept: typeof kept,
  }));
  process.exit(0);
}

function measure(label) {
  const child = spawnSync(process.execPath,
    ['--expose-gc', fileURLToPath(import.meta.url), '--memory', label, file], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(child.stderr);
  return JSON.parse(child.stdout);
}

const MB = 1e6;
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
};
const labels = Object.keys(ways).filter((label) => label !== 'none');
const base = labels[0];
console.log(`${file}: ${bytes.length} bytes, ${rounds} rounds`);
const times = Object.fromEntries(labels.map((label) => [label, []]));
for (let round = 0; round < Number(rounds); round++) {
  for (const label of labels) {
    // Each way starts on a collected heap: the garbage of the way before is not its cost.
    globalThis.gc();
    const started = performance.now();
    await ways[label]();
    times[label].push(performance.now() - started);
  }
}
const peaks = Object.fromEntries([...labels, 'none'].map((label) => [label, []]));
for (let run = 0; run < 3; run++) {
  for (const label of [...labels, 'none']) peaks[label].push(measure(label).peak);
}
const idle = median(peaks.none);
const results = {};
for (const label of labels) {
  const ms = median(times[label]);
  const ratio = median(times[label].map((t, i) => t / times[base][i]));
  const peak = (median(peaks[label]) - idle) / MB;
  results[label] = { ms, ratio, peak };
  console.log(`${label.padEnd(44)} ${ms.toFixed(1).padStart(8)} ms ${ratio.toFixed(2).padStart(6)}x ` +
    `${peak.toFixed(1).padStart(7)} MB peak`);
}
const ifp = results['IFPReader + every keyframe read'];
const doc = results['decode() + every keyframe read'];
const basePeak = results[base].peak;
console.log(`goals: IFPReader ${ifp.ratio.toFixed(2)}x the time (<= 1), ` +
  `decode() ${doc.ratio.toFixed(2)}x (<= 2); peak memory IFPReader ` +
  `${(ifp.peak / basePeak).toFixed(2)}x, decode() ${(doc.peak / basePeak).toFixed(2)}x (<= 1)`);
