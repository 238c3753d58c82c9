// write(): a decode() document written back by the library's encoder. Unedited it gives the
// file's own bytes whatever its exporter left in it (docs/FORMATS.md §9.7: the stored units
// travel in `raw` and `trailing`); an edited value changes only its own bytes; `normalise`
// writes the clean file. The sloppy files are built here.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { EncodeError, convert, decode, write } from '../dist/index.js';
import { allFixtures, anlf, anp3, carsFirst, sampleAnp3, sampleBnry } from './fixtures.mjs';

const latin1 = (text) => Uint8Array.from(text, (c) => c.charCodeAt(0));

/** An ANP2 package (header 36 bytes, animation 28, bone 36; float frames, types 1 and 2). */
function anp2(packageName, animations, { garbage = '', trailing = [] } = {}) {
  const parts = [];
  const u32 = (v) => parts.push(...new Uint8Array(new Uint32Array([v]).buffer));
  const f32 = (v) => parts.push(...new Uint8Array(new Float32Array([v]).buffer));
  const name = (text) => {
    const field = new Uint8Array(24);
    field.set(latin1(text));
    if (garbage) field.set(latin1(garbage).subarray(0, 23 - text.length), text.length + 1);
    parts.push(...field);
  };
  parts.push(...latin1('ANP2'));
  u32(0);
  name(packageName);
  u32(animations.length);
  for (const a of animations) {
    name(a.name);
    u32(a.bones.length);
    for (const b of a.bones) {
      name(b.name);
      u32(b.type);
      u32(b.frames.length);
      u32(b.id);
      for (const f of b.frames) {
        [...f.q, f.t, ...(b.type === 2 ? f.tr : [])].forEach(f32);
      }
    }
  }
  const bytes = Uint8Array.from(parts);
  new DataView(bytes.buffer).setUint32(4, bytes.length - 8, true);
  return Uint8Array.from([...bytes, ...trailing]);
}

const sampleAnp2 = (options) => anp2('anp2', [{ name: 'idle', bones: [
  { name: 'Root', type: 2, id: 0, frames: [0, 1, 2].map((i) => ({ q: [0.1 * i, 0, 0, 1], t: i / 30,
    tr: [i, 2 * i, 0.25] })) },
  { name: 'Head', type: 1, id: 5, frames: [{ q: [0, 0.3, 0, 0.95], t: 0.1 }] },
] }], options);

/** The ANPK that convert() writes of the sample ANP3, made sloppy: garbage in the padding after
 * the package name, the DGAN INFO second field set (GTA III exporters leave it), bytes after
 * the content. Returns it and its clean form. */
function sloppyAnpk() {
  const clean = convert(sampleAnp3(), 'ANPK');
  const bytes = Uint8Array.from([...clean, 0xde, 0xad]);
  const view = new DataView(bytes.buffer);
  const text = new TextDecoder('latin1').decode(bytes);
  // ANPK size INFO size count name: "ped" NUL, then padding to 4 bytes.
  assert.equal(text.slice(20, 23), 'ped');
  bytes[23] = 0;
  const dgan = text.indexOf('DGAN');
  assert.equal(text.slice(dgan + 8, dgan + 12), 'INFO');
  view.setUint32(dgan + 20, 0x1234, true);
  return { bytes, clean };
}

/** A bnry whose header has a value in a field of the sections the game never reads, and
 * bytes after the records. */
function sloppyBnry() {
  const clean = sampleBnry();
  const bytes = Uint8Array.from([...clean, 7, 7, 7]);
  new DataView(bytes.buffer).setUint32(44, 0x5151, true);
  return { bytes, clean };
}

const sloppy = () => ({
  ANP3: { bytes: sampleAnp3({ garbage: '=C:\\3dsmax5', trailing: [1, 2, 3] }), clean: sampleAnp3() },
  ANP2: { bytes: sampleAnp2({ garbage: 'zz:garbage', trailing: [9] }), clean: sampleAnp2() },
  ANPK: sloppyAnpk(),
  bnry: sloppyBnry(),
});

/** The offsets where `a` and `b` (of one length) differ. */
function differences(a, b) {
  assert.equal(a.length, b.length);
  const out = [];
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) out.push(i);
  return out;
}

test('an unedited document is written back byte for byte (ANP3, ANP2, ANPK, bnry)', () => {
  for (const [format, { bytes, clean }] of Object.entries(sloppy())) {
    assert.notDeepEqual(bytes, clean, `${format}: the test file is sloppy`);
    const doc = decode(bytes);
    assert.equal(doc.format, format);
    assert.ok(doc.raw instanceof Uint8Array, format);
    assert.ok(doc.trailing instanceof Uint8Array, format);
    assert.deepEqual(write(doc), bytes, format);
    assert.deepEqual(write(doc, { format }), bytes, format);
    // The same as the decoder's events straight into the encoder.
    assert.deepEqual(convert(bytes, format), bytes, format);
  }
});

test('the stored units are views: the file, an animation and a bone header as stored', () => {
  const bytes = sampleAnp3({ garbage: 'xyz' });
  const doc = decode(bytes);
  assert.deepEqual(doc.raw, bytes.subarray(0, 36));
  const walk = doc.animations[0];
  assert.deepEqual(walk.raw, bytes.subarray(36, 72));
  assert.deepEqual(walk.bones[0].raw, bytes.subarray(72, 108));
  assert.equal(walk.raw.buffer, walk.bones[0].raw.buffer);
  assert.equal(doc.trailing, null);
  // A text IPL keeps no units.
  const text = decode(new TextEncoder().encode('inst\n1, a, 0, 0, 0, 0, 0, 0, 0, 1, -1\nend\n'));
  assert.equal(text.raw, null);
});

test('an edited value is written the usual way, only its bytes change', () => {
  const files = sloppy();
  // ANP3: a renamed animation gets its new name with a zeroed tail.
  const { bytes } = files.ANP3;
  const doc = decode(bytes);
  doc.animations[0].name = 'RUN';
  let out = write(doc);
  const field = out.subarray(36, 60);
  assert.deepEqual(field, Uint8Array.from([...latin1('RUN'), ...new Array(21).fill(0)]));
  assert.ok(differences(out, bytes).every((i) => i >= 36 && i < 60));
  // A moved keyframe changes its own two bytes (packed: rotation x of frame 3 of the root).
  const moved = decode(bytes);
  moved.animations[0].bones[0].frames[3].rotation[0] = 31 / 4096;
  out = write(moved);
  const frame3 = 36 + 36 + 36 + 3 * 16;
  assert.deepEqual(differences(out, bytes), [frame3]);
  assert.equal(new DataView(out.buffer).getInt16(frame3, true), 31);
  // One keyframe fewer: its bone's count, the animation's frameDataSize and the file size.
  const cut = decode(bytes);
  cut.animations[1].bones[0].frames.pop();
  out = write(cut);
  const again = decode(out);
  assert.equal(again.animations[1].bones[0].frames.length, 4);
  assert.equal(again.animations[1].frame_data_size, 4 * 10);
  assert.equal(new DataView(out.buffer).getUint32(4, true), out.length - 8 - 3);
  assert.deepEqual(again.trailing, Uint8Array.from([1, 2, 3]));
  // bnry: a model id, its four bytes.
  const placement = decode(files.bnry.bytes);
  placement.instances[1].model_id = 616;
  out = write(placement);
  assert.deepEqual(differences(out, files.bnry.bytes), [76 + 40 + 28]);
  // ANPK: a keyframe's float, its own bytes only.
  const anpk = decode(files.ANPK.bytes);
  anpk.animations[1].bones[0].frames[2].rotation[3] = 0.5;
  out = write(anpk);
  const changed = differences(out, files.ANPK.bytes);
  assert.ok(changed.length >= 1 && changed.length <= 4, `${changed}`);
  assert.equal(decode(out).animations[1].bones[0].frames[2].rotation[3], 0.5);
});

test('normalise writes the clean file, from a document and in convert()', () => {
  for (const [format, { bytes, clean }] of Object.entries(sloppy())) {
    // The encoder's clean form of the clean file: the file itself, but for the offsets of the
    // bnry's empty sections, which the builder leaves 0.
    const expected = convert(clean, format, { normalise: true });
    if (format !== 'bnry') assert.deepEqual(expected, clean, format);
    assert.deepEqual(write(decode(bytes), { normalise: true }), expected, format);
    assert.deepEqual(write(decode(clean), { normalise: true }), expected, format);
    assert.deepEqual(convert(bytes, format, { normalise: true }), expected, format);
  }
});

test('to another format the stored units are not used; errors are EncodeErrors', () => {
  const { bytes } = sloppy().ANP3;
  assert.deepEqual(write(decode(bytes), { format: 'anpk' }), convert(sampleAnp3(), 'ANPK'));
  assert.throws(() => write(decode(bytes), { format: 'bnry' }),
    { name: 'EncodeError', kind: 'unsupported_format', message: 'cannot convert ANP3 to bnry' });
  const doc = decode(bytes);
  doc.animations[0].name = 'x'.repeat(30);
  assert.throws(() => write(doc), { name: 'EncodeError', kind: 'name_too_long',
    message: /"x{30}" \(30 bytes\) does not fit its field/ });
  doc.animations[0].name = 'caf\u0101';
  assert.throws(() => write(doc), { name: 'EncodeError', message: /not Latin-1/ });
  assert.throws(() => write(decode(bytes), { format: 'ANIM' }), RangeError);
  // Latin-1 names are written one byte per character.
  const named = decode(anp3('caf\u00e9', [{ name: 'x', bones: [] }]));
  assert.equal(decode(write(named)).name, 'caf\u00e9');
});

test('every fixture that convert() writes back byte for byte, write(decode()) does too', () => {
  let exact = 0;
  const kinds = new Set();
  for (const [name, bytes] of allFixtures()) {
    let doc;
    let again;
    try {
      doc = decode(bytes);
      again = convert(bytes, doc.format);
    } catch {
      continue; // not decoded, or not written (Stories, a line text cannot hold)
    }
    // Every one: the document holds a text IPL's stored lines, a binary IPL's order and an
    // ANLF's blocks (`stored`, `blocks`, `container_size`).
    if (!Buffer.from(again).equals(Buffer.from(bytes))) continue;
    assert.deepEqual(write(doc), bytes, name);
    kinds.add(doc.blocks ? 'ANLF' : doc.format);
    exact++;
  }
  assert.ok(exact >= 3, `${exact} files written back`);
  // The seeds (GTASTREAM_FIXTURES, as .ci/run sets) hold ANLF containers and bnry layouts.
  const seeds = process.env.GTASTREAM_FIXTURES ? ['ANLF'] : [];
  for (const kind of ['ANP3', 'bnry', 'text', ...seeds]) {
    assert.ok(kinds.has(kind), `no ${kind} written back (${[...kinds].join(' ')})`);
  }
});

/** Lines of a text, each with its line break. */
const linesOf = (bytes) => Buffer.from(bytes).toString('latin1').split(/(?<=\n)/);

test('a text IPL: its lines as stored, in file order; an edit changes only its own line', () => {
  const source = '# made in code\r\ninst\r\n1337,  box01, 0, 10.50, -20.0, 3.0, 0, 0, 0, 1, -1 # one\r\n'
    + '\r\n615, veg_tree3, 0, -100, 250, 1, 0, 0, 0.7071, 0.7071, 0\r\nEND\r\ncull\r\n'
    + '1, 2, 3\r\nend\n';
  const bytes = latin1(source);
  const doc = decode(bytes);
  assert.deepEqual(doc.stored, [
    { item: 'text', index: null, raw: '# made in code\r\n' },
    { item: 'text', index: null, raw: 'inst\r\n' },
    { item: 'instance', index: 0, raw: '1337,  box01, 0, 10.50, -20.0, 3.0, 0, 0, 0, 1, -1 # one\r\n' },
    { item: 'text', index: null, raw: '\r\n' },
    { item: 'instance', index: 1, raw: '615, veg_tree3, 0, -100, 250, 1, 0, 0, 0.7071, 0.7071, 0\r\n' },
    { item: 'text', index: null, raw: 'END\r\n' },
    { item: 'text', index: null, raw: 'cull\r\n' },
    { item: 'section_line', index: 0, raw: '1, 2, 3\r\n' },
    { item: 'text', index: null, raw: 'end\n' },
  ]);
  assert.deepEqual(doc.stored.map((s) => s.raw).join(''), source);
  assert.deepEqual(write(doc), bytes);
  assert.deepEqual(write(doc, { format: 'text' }), bytes);
  // Moved, the second instance is written anew; every other line stays as stored.
  doc.instances[1].position[0] = -99;
  const edited = linesOf(write(doc));
  const before = linesOf(bytes);
  assert.equal(edited.length, before.length);
  const changed = edited.flatMap((line, i) => (line === before[i] ? [] : [i]));
  assert.deepEqual(changed, [4]);
  assert.equal(decode(write(doc)).instances[1].position[0], -99);
  // Normalised, or without the stored lines, the file is written clean.
  const clean = convert(bytes, 'text', { normalise: true });
  assert.notDeepEqual(clean, bytes);
  doc.instances[1].position[0] = -100;
  assert.deepEqual(write(doc, { normalise: true }), clean);
  assert.deepEqual(write({ ...doc, stored: null }), clean);
  // An instance added beyond the stored lines follows them; one removed is skipped.
  const added = decode(write({ ...doc, instances: [...doc.instances, doc.instances[0]] }));
  assert.equal(added.instances.length, 3);
  const removed = decode(write({ ...doc, instances: doc.instances.slice(0, 1) }));
  assert.deepEqual(removed.instances, doc.instances.slice(0, 1));
  assert.throws(() => write({ ...doc, stored: [{ item: 'text', index: null, raw: 'caf\u0101\n' }] }),
    { name: 'EncodeError', message: /not Latin-1/ });
});

test('a binary IPL: stored is null in the stock order, the records in file order otherwise', () => {
  const stock = sampleBnry();
  assert.equal(decode(stock).stored, null);
  const bytes = carsFirst(stock, 2, 1);
  assert.deepEqual(convert(bytes, 'bnry'), bytes);
  const doc = decode(bytes);
  assert.deepEqual(doc.instances, decode(stock).instances);
  assert.deepEqual(doc.stored, [
    { item: 'car', index: 0, raw: null },
    { item: 'instance', index: 0, raw: null },
    { item: 'instance', index: 1, raw: null },
  ]);
  assert.deepEqual(write(doc), bytes);
  // Without the order, its header does not fit the stock one: refused, or written clean.
  assert.throws(() => write({ ...doc, stored: null }), { name: 'EncodeError' });
  assert.deepEqual(write({ ...doc, stored: null }, { normalise: true }),
    convert(stock, 'bnry', { normalise: true }));
});

test('an ANLF: its blocks and size; written back as it is, each block with its animations', () => {
  const first = convert(sampleAnp3(), 'ANPK');
  const second = convert(anp3('second', [{ name: 'wave', bones: [{ name: 'arm', type: 3, id: 2,
    frames: [{ q: [0, 0, 0, 4096], t: 0 }] }] }]), 'ANPK');
  // The container's size is off by 8: kept as stored.
  const bytes = anlf([first, second], 4 + first.length + second.length + 8);
  assert.deepEqual(convert(bytes, 'ANPK'), bytes);
  const doc = decode(bytes);
  assert.equal(doc.name, decode(sampleAnp3()).name);
  assert.equal(doc.animations.length, 3);
  assert.deepEqual(doc.blocks.map((b) => [b.name, b.animations]),
    [[doc.name, 2], ['second', 1]]);
  assert.deepEqual(doc.blocks[0].raw, doc.raw);
  assert.deepEqual(doc.blocks[1].raw, second.subarray(0, doc.blocks[1].raw.length));
  assert.equal(doc.container_size, 4 + first.length + second.length + 8);
  assert.deepEqual(write(doc), bytes);
  // A renamed animation of the second block: that block's and the container's sizes follow.
  doc.animations[2].name = 'wave_longer_name';
  const renamed = decode(write(doc));
  assert.deepEqual(renamed.blocks.map((b) => [b.name, b.animations]),
    [[doc.name, 2], ['second', 1]]);
  assert.equal(renamed.animations[2].name, 'wave_longer_name');
  // Normalised, as convert() writes it; without blocks, one package.
  assert.deepEqual(write(doc, { normalise: true }),
    convert(write(doc), 'ANPK', { normalise: true }));
  const merged = decode(write({ ...doc, blocks: null, container_size: null }));
  assert.equal(merged.blocks, null);
  assert.equal(merged.animations.length, 3);
  // Other files have none.
  assert.equal(decode(sampleAnp3()).blocks, null);
  assert.equal(decode(sampleAnp3()).container_size, null);
});

test('an IDE: decode() lists its definitions, write() brings it back and writes an edited one anew', () => {
  const text = 'objs\r\n1337, box, generic, 100, 0\r\n1338, box2, generic, 1, 30, 4\r\nend\r\n'
    + 'txdp\r\ngeneric, parent\r\nend\r\n';
  const bytes = new TextEncoder().encode(text);
  const doc = decode(bytes);
  assert.equal(doc.format, 'ide');
  assert.deepEqual(doc.objects.map((o) => [o.section, o.id, o.model_name, o.txd_name, o.mesh_count,
    o.draw_distance, o.flags]), [['objs', 1337, 'box', 'generic', null, 100, 0],
    ['objs', 1338, 'box2', 'generic', 1, 30, 4]]);
  assert.deepEqual(doc.section_lines.map((l) => [l.section, l.text]), [['txdp', 'generic, parent']]);
  assert.deepEqual(write(doc), bytes);
  doc.objects[1].id = 1400;
  assert.equal(new TextDecoder().decode(write(doc)),
    text.replace('1338, box2, generic, 1, 30, 4', '1400, box2, generic, 1, 30, 4'));
});
