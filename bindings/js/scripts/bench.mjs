// Decode throughput in Node: node scripts/bench.mjs FILE [ROUNDS]. Prints MB/s (10^6 bytes of
// input per second, best of ROUNDS) for the JSON document (decodeJson), decode() (the document
// parsed), and the streaming Decoder without and with a keyframes callback.
import { readFileSync } from 'node:fs';

import { Decoder, decode, decodeJson } from '../dist/index.js';

const [file, rounds = '5'] = process.argv.slice(2);
const bytes = new Uint8Array(readFileSync(file));

function best(label, run) {
  let fastest = Infinity;
  for (let i = 0; i < Number(rounds); i++) {
    const started = performance.now();
    run();
    fastest = Math.min(fastest, performance.now() - started);
  }
  const rate = bytes.length / 1e6 / (fastest / 1000);
  console.log(`${label.padEnd(44)} ${fastest.toFixed(1).padStart(8)} ms ${rate.toFixed(1).padStart(8)} MB/s`);
}

function stream(callbacks) {
  const decoder = new Decoder(callbacks);
  for (let at = 0; at < bytes.length; at += 65536) decoder.feed(bytes.subarray(at, at + 65536));
  decoder.finish();
  decoder.free();
}

console.log(`${file}: ${bytes.length} bytes`);
best('Decoder, no callbacks (64 KiB feeds)', () => stream({}));
let frames = 0;
best('Decoder, keyframes callback (frame objects)', () => stream({ keyframes: (f) => void (frames += f.length) }));
best('decodeJson (the dump --json text)', () => decodeJson(bytes));
best('decode (the document, JSON.parse included)', () => decode(bytes));
