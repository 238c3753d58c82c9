// Test files built in code (no game files): layouts from the seed reader's README (ANP3) and
// docs/FORMATS.md §4 (binary and text IPL). More files of every format can be added with
// GTASTREAM_FIXTURES=DIR (CI passes the fuzz seeds: fuzz/examples/seeds.rs).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repo = new URL('../../../', import.meta.url);

let tool;
/** The command-line tool the tests compare with: $GTASTREAM_CLI, else target/release/gtastream,
 * built first (cargo does nothing when it is fresh; a stale tool would compare with old code). */
export function cli() {
  if (process.env.GTASTREAM_CLI) return process.env.GTASTREAM_CLI;
  if (!tool) {
    const root = fileURLToPath(repo);
    execFileSync('cargo', ['build', '--release', '--quiet', '-p', 'gtastream-cli'],
      { cwd: root, stdio: 'inherit' });
    tool = join(root, 'target', 'release', 'gtastream');
  }
  return tool;
}

class Writer {
  constructor() {
    this.bytes = [];
  }
  u8s(values) {
    this.bytes.push(...values);
    return this;
  }
  u32(value) {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(value >>> 0);
    return this.u8s(b);
  }
  i32(value) {
    const b = Buffer.alloc(4);
    b.writeInt32LE(value);
    return this.u8s(b);
  }
  i16(value) {
    const b = Buffer.alloc(2);
    b.writeInt16LE(value);
    return this.u8s(b);
  }
  f32(value) {
    const b = Buffer.alloc(4);
    b.writeFloatLE(value);
    return this.u8s(b);
  }
  /** char[size]: the text, a NUL, then `garbage` bytes (as the game's tools leave), zeros. */
  name(text, size = 24, garbage = '') {
    const b = Buffer.alloc(size);
    b.write(text, 'latin1');
    if (garbage) b.write(garbage, text.length + 1, 'latin1');
    return this.u8s(b);
  }
  done() {
    return Uint8Array.from(this.bytes);
  }
}

/**
 * An ANP3 package. `animations`: [{name, bones: [{name, type: 1|2|3|4, id, frames: [{q:
 * [x,y,z,w], t, tr: [x,y,z]}]}]}] with the raw i16 values (types 3, 4) or the f32 values (1, 2);
 * `trailing`: bytes appended after the data.
 */
export function anp3(packageName, animations, { trailing = [], garbage = '' } = {}) {
  const w = new Writer();
  w.u8s(Buffer.from('ANP3')).u32(0).name(packageName, 24, garbage).u32(animations.length);
  for (const a of animations) {
    const size = { 1: 20, 2: 32, 3: 10, 4: 16 };
    const frameBytes = a.bones.reduce((n, b) => n + b.frames.length * (size[b.type] ?? 10), 0);
    w.name(a.name, 24, garbage).u32(a.bones.length).u32(frameBytes).u32(1);
    for (const b of a.bones) {
      w.name(b.name, 24, garbage).u32(b.type).u32(b.frames.length).i32(b.id);
      const put = b.type <= 2 ? (v) => w.f32(v) : (v) => w.i16(v);
      for (const f of b.frames) {
        f.q.forEach(put);
        put(f.t);
        if (b.type === 4 || b.type === 2) f.tr.forEach(put);
      }
    }
  }
  const bytes = w.done();
  new DataView(bytes.buffer).setUint32(4, bytes.length - 8, true);
  return Uint8Array.from([...bytes, ...trailing]);
}

/** A walk-like package: two animations, rotation-only and rotation+translation bones. */
export function sampleAnp3(options) {
  const frames = (n, withTr) => Array.from({ length: n }, (_, i) => ({
    q: [i * 10, -i * 20, 100 + i, 4096 - i], t: i * 2, tr: withTr ? [i * 64, -i, 1024] : undefined,
  }));
  return anp3('ped', [
    { name: 'WALK_player', bones: [
      { name: 'Root', type: 4, id: 0, frames: frames(37, true) },
      { name: ' Pelvis', type: 4, id: 1, frames: frames(37, true) },
      { name: 'R Thigh', type: 3, id: 51, frames: frames(20, false) },
    ] },
    { name: 'IDLE_stance', bones: [{ name: 'Spine', type: 3, id: 2, frames: frames(5, false) }] },
  ], options);
}

/** A big ANP3 (about `mib` MiB; 32 bones of 200 rotation+translation frames per animation),
 * written straight into one buffer (the Writer is too slow at this size). */
export function bigAnp3(mib) {
  const perBone = 200;
  const boneSize = 36 + perBone * 16;
  const bones = Math.ceil((mib * 1024 * 1024) / boneSize);
  const animations = Math.ceil(bones / 32);
  const bytes = new Uint8Array(36 + animations * 36 + bones * boneSize);
  const view = new DataView(bytes.buffer);
  const name = (at, text) => bytes.set(new TextEncoder().encode(text), at);
  name(0, 'ANP3');
  view.setUint32(4, bytes.length - 8, true);
  name(8, 'big');
  view.setUint32(32, animations, true);
  let at = 36;
  for (let a = 0; a < animations; a++) {
    const count = Math.min(32, bones - a * 32);
    name(at, `anim${a}`);
    view.setUint32(at + 24, count, true);
    view.setUint32(at + 28, count * perBone * 16, true);
    view.setUint32(at + 32, 1, true);
    at += 36;
    for (let b = 0; b < count; b++) {
      name(at, `bone${b}`);
      view.setUint32(at + 24, 4, true);
      view.setUint32(at + 28, perBone, true);
      view.setInt32(at + 32, b, true);
      at += 36;
      for (let f = 0; f < perBone; f++, at += 16) {
        for (const [i, v] of [f, b, a, 4096, f, f, -f, b].entries()) view.setInt16(at + 2 * i, v, true);
      }
    }
  }
  return bytes;
}

/** A binary IPL (docs/FORMATS.md §4.1-4.3). */
export function bnry(instances, cars) {
  const w = new Writer();
  const instOffset = 76;
  const carsOffset = instOffset + instances.length * 40;
  w.u8s(Buffer.from('bnry')).u32(instances.length).u32(0).u32(0).u32(0).u32(cars.length).u32(0);
  w.u32(instOffset).u32(0);
  for (let i = 0; i < 3; i++) w.u32(0).u32(0);
  w.u32(carsOffset).u32(0).u32(0).u32(0);
  for (const i of instances) {
    i.position.forEach((v) => w.f32(v));
    i.rotation.forEach((v) => w.f32(v));
    w.i32(i.model_id).u32(i.interior).i32(i.lod);
  }
  for (const c of cars) {
    c.position.forEach((v) => w.f32(v));
    w.f32(c.angle);
    for (const v of c.ints) w.i32(v);
  }
  return w.done();
}

/** `bytes` of a binary IPL (`bnry()`, instances then cars) with its cars first. */
export function carsFirst(bytes, instances, cars) {
  const out = new Uint8Array(bytes);
  const view = new DataView(out.buffer);
  const carsAt = 76 + instances * 40;
  out.set(bytes.subarray(carsAt, carsAt + cars * 48), 76);
  out.set(bytes.subarray(76, carsAt), 76 + cars * 48);
  view.setUint32(28, 76 + cars * 48, true);
  view.setUint32(60, 76, true);
  return out;
}

/** A San Andreas text IPL. */
export function textIpl(instanceLines, carLines = []) {
  return new TextEncoder().encode(['# made in code', 'inst', ...instanceLines, 'end', 'cars',
    ...carLines, 'end', ''].join('\r\n'));
}

export function sampleBnry() {
  return bnry([
    { position: [100.5, -200.25, 10], rotation: [0, 0, 0.5, 1], model_id: 1337, interior: 13, lod: -1 },
    { position: [-1500, 2500, 3.5], rotation: [0, 0, 0, 1], model_id: 615, interior: 0, lod: 4 },
  ], [{ position: [1, 2, 3], angle: 1.5, ints: [400, -1, -1, 3, 0, 100, 0, 0] }]);
}

export function sampleTextIpl() {
  return textIpl([
    '1337, box01, 0, 10.5, -20.0, 3.0, 0, 0, 0, 1, -1',
    '615, veg_tree3, 0, -100, 250, 1, 0, 0, 0.7071, 0.7071, 0',
  ], ['1.0, 2.0, 3.0, 90.0, 400, -1, -1, 0, 0, 0, 0, 0']);
}

/** An ANLF container of these ANPK blocks, its size field `size` (default: correct). */
export function anlf(blocks, size) {
  const length = blocks.reduce((n, b) => n + b.length, 0);
  const out = new Uint8Array(12 + length);
  out.set(Buffer.from('ANLF'));
  const view = new DataView(out.buffer);
  view.setUint32(4, size ?? 4 + length, true);
  view.setUint32(8, blocks.length, true);
  let at = 12;
  for (const b of blocks) {
    out.set(b, at);
    at += b.length;
  }
  return out;
}

/** Every test file: [name, bytes]. */
export function allFixtures() {
  const files = [
    ['samples/walk.ifp', new Uint8Array(readFileSync(new URL('samples/walk.ifp', repo)))],
    ['sample.anp3', sampleAnp3()],
    ['trailing.anp3', sampleAnp3({ trailing: [1, 2, 3, 4, 5] })],
    ['sample.bnry', sampleBnry()],
    ['sample.ipl', sampleTextIpl()],
  ];
  const dir = process.env.GTASTREAM_FIXTURES;
  if (dir) {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isFile()) files.push([name, new Uint8Array(readFileSync(path))]);
    }
  }
  return files;
}

const SECTOR = 2048;

function name24(record, at, name) {
  record.set(Buffer.from(name, 'latin1'), at);
}

/** Data of each entry at its own sectors, from `first` on; the directory records. */
function layout(list, first) {
  let sector = first;
  const records = [];
  const parts = [];
  for (const [name, bytes] of list) {
    const sectors = Math.ceil(bytes.length / SECTOR);
    records.push({ name, sector, sectors });
    const padded = new Uint8Array(sectors * SECTOR);
    padded.set(bytes);
    parts.push(padded);
    sector += sectors;
  }
  return { records, data: Buffer.concat(parts) };
}

/** A VER2 archive (San Andreas) of the [name, bytes] entries, each at whole sectors. */
export function imgVer2(list) {
  const dirSectors = Math.ceil((8 + 32 * list.length) / SECTOR);
  const { records, data } = layout(list, dirSectors);
  const img = new Uint8Array(dirSectors * SECTOR + data.length);
  const view = new DataView(img.buffer);
  img.set(Buffer.from('VER2'), 0);
  view.setUint32(4, list.length, true);
  records.forEach((r, i) => {
    view.setUint32(8 + 32 * i, r.sector, true);
    view.setUint16(8 + 32 * i + 4, r.sectors, true);
    name24(img, 8 + 32 * i + 8, r.name);
  });
  img.set(data, dirSectors * SECTOR);
  return img;
}

/** A version 1 archive (GTA III, Vice City): { img, dir }. */
export function imgVer1(list) {
  const { records, data } = layout(list, 0);
  const dir = new Uint8Array(32 * list.length);
  const view = new DataView(dir.buffer);
  records.forEach((r, i) => {
    view.setUint32(32 * i, r.sector, true);
    view.setUint32(32 * i + 4, r.sectors, true);
    name24(dir, 32 * i + 8, r.name);
  });
  return { img: new Uint8Array(data), dir };
}

/** A chunk (docs/FORMATS.md §1): tag, size, payload padded to 4 bytes. */
function chunk(tag, payload) {
  const pad = (4 - (payload.length % 4)) % 4;
  return new Writer().u8s(Buffer.from(tag)).u32(payload.length).u8s(payload).u8s(Array(pad).fill(0))
    .done();
}

/**
 * An ANPK package (docs/FORMATS.md §1) of the named animations, each one KR00 bone of two keys
 * (0 s and 1 s). `anim48`: the GTA III form of the ANIM chunk (48 bytes, no bone id); else
 * Vice City's (44 bytes, bone id 0).
 */
export function anpk(packageName, names, { anim48 = false } = {}) {
  const info = chunk('INFO', new Writer().i32(names.length).u8s(Buffer.from(`${packageName}\0`))
    .done());
  const parts = [info];
  for (const name of names) {
    const anim = new Writer().name('Root', 28).i32(2).i32(0).i32(1).i32(0);
    if (anim48) anim.i32(0);
    const keys = new Writer();
    for (const t of [0, 1]) keys.f32(0).f32(0).f32(0).f32(1).f32(t);
    const cpan = chunk('CPAN', Uint8Array.from([...chunk('ANIM', anim.done()),
      ...chunk('KR00', keys.done())]));
    const dgan = chunk('DGAN', Uint8Array.from([...chunk('INFO', new Writer().i32(1).i32(0).done()),
      ...cpan]));
    parts.push(chunk('NAME', Buffer.from(`${name}\0`)), dgan);
  }
  return chunk('ANPK', Uint8Array.from(parts.flatMap((p) => [...p])));
}
