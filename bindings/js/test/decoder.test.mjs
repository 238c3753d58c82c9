import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { DecodeError, Decoder, decode, decodeStream } from '../dist/index.js';
import { wasm } from '../dist/wasm.js';
import { gather, random, sameDocument } from './events.mjs';
import { allFixtures, bigAnp3, sampleAnp3, sampleTextIpl } from './fixtures.mjs';

/** Feeds `bytes` as a seekable caller would, cutting it with `cut(remaining)`; follows seeks. */
function feedAll(decoder, bytes, cut) {
  let at = 0;
  for (;;) {
    const chunk = bytes.subarray(at, at + cut(bytes.length - at));
    const progress = decoder.feed(chunk);
    assert.ok(progress.consumed <= chunk.length);
    if (typeof progress.status === 'object') {
      at = progress.status.seek;
    } else {
      at += progress.consumed;
      if (progress.status !== 'paused' && at >= bytes.length) break;
    }
  }
  decoder.finish();
}

function expected(bytes) {
  try {
    return { doc: decode(bytes) };
  } catch (error) {
    return { error };
  }
}

test('the events rebuild the decode() document however the file is cut (every fixture)', () => {
  const next = random(17);
  for (const [name, bytes] of allFixtures()) {
    const want = expected(bytes);
    const cuts = [() => bytes.length + 1, () => 1, (rest) => 1 + next(Math.max(1, rest)),
      () => 1 + next(64), () => 70000 + next(70000)];
    for (const cut of cuts) {
      const { doc, callbacks } = gather();
      const decoder = new Decoder(callbacks);
      try {
        feedAll(decoder, bytes, cut);
      } catch (error) {
        assert.ok(want.error, `${name}: ${error}`);
        assert.ok(error instanceof DecodeError);
        assert.deepEqual([error.kind, error.offset], [want.error.kind, want.error.offset], name);
        continue;
      } finally {
        decoder.free();
      }
      assert.ok(!want.error, `${name}: decoded, but decode() throws ${want.error}`);
      assert.ok(callbacks.ended, name);
      sameDocument(doc, want.doc, name);
    }
  }
});

test('pause: feed returns paused with the bytes consumed, and resumes at the next byte', () => {
  const bytes = sampleAnp3();
  let pauses = 0;
  const { doc, callbacks } = gather();
  const bone = callbacks.bone;
  callbacks.bone = (info) => {
    bone(info);
    return 'pause';
  };
  const decoder = new Decoder(callbacks);
  let at = 0;
  for (;;) {
    const progress = decoder.feed(bytes.subarray(at));
    at += progress.consumed;
    if (progress.status !== 'paused') {
      assert.equal(progress.status, 'done');
      break;
    }
    pauses++;
    // The decoder stopped right after the bone's header: 36 bytes of it are consumed last.
    assert.equal(decoder.position, at);
  }
  decoder.finish();
  assert.equal(pauses, 4);
  sameDocument(doc, decode(bytes));
});

test("'abort' stops with the aborted error; a throwing callback's exception comes back", () => {
  const bytes = sampleAnp3();
  const aborting = new Decoder({ bone: () => 'abort' });
  assert.throws(() => aborting.feed(bytes), { name: 'DecodeError', kind: 'aborted', offset: 72 });
  // Errors are sticky.
  assert.throws(() => aborting.finish(), { kind: 'aborted' });
  const oops = new Error('oops');
  const throwing = new Decoder({ animation: () => { throw oops; } });
  assert.throws(() => throwing.feed(bytes), (e) => e === oops);
  // The module is usable afterwards.
  assert.equal(decode(bytes).format, 'ANP3');
});

test('a callback cannot call into the module (calls do not nest)', () => {
  const bytes = sampleAnp3();
  let inner;
  const decoder = new Decoder({
    file() {
      try {
        decode(bytes);
      } catch (e) {
        inner = e;
      }
    },
  });
  decoder.feed(bytes);
  decoder.finish();
  assert.match(String(inner), /already running/);
});

test('status done after the content; trailing bytes give the warning; finish reports end', () => {
  const bytes = sampleAnp3({ trailing: [7, 7, 7, 7] });
  const { doc, callbacks } = gather();
  const decoder = new Decoder(callbacks);
  const progress = decoder.feed(bytes);
  assert.equal(progress.status, 'done');
  decoder.finish();
  assert.ok(callbacks.ended);
  assert.deepEqual(doc.warnings.map((w) => w.kind), decode(bytes).warnings.map((w) => w.kind));
  assert.throws(() => decoder.feed(bytes), { kind: 'finished' });
});

test('one feed of a chunk larger than the module\'s input buffer takes it all', () => {
  const bytes = bigAnp3(1);
  const { doc, callbacks } = gather();
  const decoder = new Decoder(callbacks);
  assert.deepEqual(decoder.feed(bytes), { consumed: bytes.length, status: 'done' });
  decoder.finish();
  sameDocument(doc, decode(bytes));
});

test('finish inside a unit: truncated at the unit offset', () => {
  const decoder = new Decoder();
  assert.equal(decoder.feed(sampleTextIpl().subarray(0, 3)).status, 'need_input');
  const bytes = sampleAnp3();
  const other = new Decoder();
  assert.deepEqual(other.feed(bytes.subarray(0, 50)), { consumed: 50, status: 'need_input' });
  assert.throws(() => other.finish(), { kind: 'truncated', offset: 36 });
  assert.ok(Decoder.SIZE > 0 && Decoder.SIZE <= 512);
});

test('decodeStream: Blob (seekable), ReadableStream, a fetch Response and an opener function', async () => {
  for (const [name, bytes] of allFixtures()) {
    const want = expected(bytes);
    const sources = [
      ['blob', () => new Blob([bytes])],
      ['stream', () => new Blob([bytes]).stream()],
      ['response', () => new Response(bytes)],
      ['opener', () => (offset) => new Blob([bytes.subarray(offset)]).stream()],
    ];
    for (const [kind, make] of sources) {
      const { doc, callbacks } = gather();
      try {
        await decodeStream(make(), callbacks);
      } catch (error) {
        assert.ok(error instanceof DecodeError, `${name} ${kind}: ${error}`);
        if (want.error) {
          assert.equal(error.kind, want.error.kind, `${name} ${kind}`);
        } else {
          // Read once, a Stories file that points back cannot be decoded.
          assert.ok(kind === 'stream' || kind === 'response', `${name} ${kind}: ${error}`);
          assert.equal(error.kind, 'seek_required', `${name} ${kind}`);
        }
        continue;
      }
      assert.ok(!want.error, `${name} ${kind}: decodes, but decode() throws ${want.error}`);
      sameDocument(doc, want.doc, `${name} ${kind}`);
    }
  }
});

test('decodeStream: a pause lets other tasks run, then decoding goes on', async () => {
  const bytes = sampleAnp3();
  let ticks = 0;
  const timer = setInterval(() => ticks++, 0);
  const { doc, callbacks } = gather();
  const animation = callbacks.animation;
  callbacks.animation = (info) => {
    animation(info);
    return 'pause';
  };
  let paused = 0;
  await decodeStream(new Blob([bytes]), callbacks, {
    onPause: () => {
      paused++;
      return new Promise((resolve) => setTimeout(resolve, 5));
    },
  });
  clearInterval(timer);
  assert.equal(paused, 2);
  assert.ok(ticks > 0);
  sameDocument(doc, decode(bytes));
});

test('streaming takes constant memory: a 16 MiB file does not grow the module', async () => {
  const bytes = bigAnp3(16);
  // Warm up (the module's first allocations), then measure.
  await decodeStream(new Blob([sampleAnp3()]), {});
  const before = wasm().memory.buffer.byteLength;
  let frames = 0;
  await decodeStream(new Blob([bytes]), { keyframes: (f) => void (frames += f.length) });
  assert.equal(wasm().memory.buffer.byteLength, before);
  assert.ok(before < bytes.length, `module memory ${before} bytes`);
  assert.equal(frames, Math.ceil((16 * 1024 * 1024) / (200 * 16 + 36)) * 200);
});

test('init() loading the module again: decoders made before go on in their own instance', async () => {
  const { init } = await import('../dist/index.js');
  const bytes = sampleAnp3();
  const { doc, callbacks } = gather();
  const before = new Decoder(callbacks);
  before.feed(bytes.subarray(0, 500));
  await init(readFileSync(new URL('../dist/gtastream.wasm', import.meta.url)));
  // The new instance works, and its memory is not the old decoder's.
  assert.equal(decode(bytes).format, 'ANP3');
  before.feed(bytes.subarray(500));
  before.finish();
  before.free();
  sameDocument(doc, decode(bytes));
});

test('without a keyframes callback the other events are the same (keyframes are skipped)', () => {
  for (const [name, bytes] of allFixtures()) {
    const want = expected(bytes);
    if (want.error) continue;
    const { doc, callbacks } = gather();
    delete callbacks.keyframes;
    const decoder = new Decoder(callbacks);
    feedAll(decoder, bytes, () => 4096);
    for (const a of want.doc.animations ?? []) {
      for (const b of a.bones) b.frames = [];
    }
    sameDocument(doc, want.doc, name);
  }
});
