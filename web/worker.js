// Decodes the file (or lists the IMG archive) off the page's thread with the package's streaming decoder (constant memory
// for decoding; a File is read in pieces, seeks included), and keeps what the page shows:
// summaries are posted at once, a bone's keyframes when the page asks for them.
import { DecodeError, decodeStream, ls, sample } from './gtastream/index.js';

/** The open animation file, and its bytes once a pose is asked for (the sampler reads the
 * file from memory). */
let source = null;
let sourceBytes = null;

let animations = [];

/** A growable list of keyframes as floats: time, rotation x y z w, translation x y z. */
class Frames {
  constructor(capacity) {
    this.data = new Float32Array(Math.max(capacity, 1) * 8);
    this.count = 0;
  }
  push(frame) {
    if ((this.count + 1) * 8 > this.data.length) {
      const grown = new Float32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    const at = this.count++ * 8;
    this.data[at] = frame.time;
    this.data.set(frame.rotation, at + 1);
    if (frame.translation) this.data.set(frame.translation, at + 5);
  }
}

/** An IMG archive: a VER2 `.img`, or a version 1 `.img` opened together with its `.dir`. Its
 * entries are listed from memory (the archive is read whole). Null for any other file. */
async function listing(files) {
  const dir = files.find((f) => /\.dir$/i.test(f.name));
  const img = files.find((f) => f !== dir);
  if (!img) return null;
  const magic = new TextDecoder().decode(await img.slice(0, 4).arrayBuffer());
  if (magic !== 'VER2' && !dir) return null;
  const started = performance.now();
  const read = async (f) => new Uint8Array(await f.arrayBuffer());
  const list = ls(await read(img), magic === 'VER2' ? undefined : await read(dir));
  return { format: list.format, name: null, size: img.size, warnings: [], entries: list.entries,
    seconds: (performance.now() - started) / 1000 };
}

async function open(files) {
  const archive = await listing(files);
  if (archive) return archive;
  const file = files[0];
  source = file;
  sourceBytes = null;
  const started = performance.now();
  const result = { format: null, name: null, size: file.size, warnings: [], animations: [],
    instances: [], cars: [], lines: 0 };
  animations = [];
  let animation;
  let bone;
  await decodeStream(file, {
    file(info) {
      if (result.format === null) {
        result.format = info.format;
        result.name = info.name;
      }
    },
    animation(info) {
      animation = { name: info.name, duration: info.duration, bones: [] };
      animations.push(animation);
    },
    bone(info) {
      bone = { name: info.name, id: info.bone_id, key: info.bone_key, type: info.frame_type,
        translation: info.has_translation, frames: new Frames(info.frame_count) };
      animation.bones.push(bone);
    },
    keyframes(frames) {
      for (const frame of frames) bone.frames.push(frame);
    },
    instance(i) {
      result.instances.push([i.model_id, i.model_name, i.interior, ...i.position, i.lod]);
    },
    car(c) {
      result.cars.push([c.model_id, ...c.position, c.angle]);
    },
    sectionLine() {
      result.lines++;
    },
    warning(w) {
      result.warnings.push(w);
    },
  });
  result.animations = animations.map((a) => {
    const bones = a.bones.map((b) => {
      let last = 0;
      for (let i = 0; i < b.frames.count; i++) last = Math.max(last, b.frames.data[i * 8]);
      return { name: b.name, id: b.id, key: b.key, type: b.type, frames: b.frames.count,
        duration: last };
    });
    const latest = bones.reduce((t, b) => Math.max(t, b.duration), 0);
    return { name: a.name, duration: a.duration ?? latest,
      frames: bones.reduce((n, b) => n + b.frames, 0), bones };
  });
  result.seconds = (performance.now() - started) / 1000;
  return result;
}

self.onmessage = async ({ data }) => {
  if (data.type === 'open') {
    try {
      self.postMessage({ type: 'opened', result: await open(data.files) });
    } catch (e) {
      const error = e instanceof DecodeError
        ? { kind: e.kind, reason: e.reason, offset: e.offset, message: e.message }
        : { message: String(e && e.message ? e.message : e) };
      self.postMessage({ type: 'failed', error });
    }
  } else if (data.type === 'pose') {
    const a = animations[data.animation];
    if (!a || !source) return;
    try {
      sourceBytes ??= new Uint8Array(await source.arrayBuffer());
      const pose = sample(sourceBytes, a.name, data.time, { loop: data.loop });
      self.postMessage({ type: 'pose', animation: data.animation, time: data.time, pose });
    } catch (e) {
      self.postMessage({ type: 'pose', animation: data.animation, time: data.time,
        error: e instanceof DecodeError ? `${e.reason} (${e.kind})` : String(e) });
    }
  } else if (data.type === 'bone') {
    const b = animations[data.animation]?.bones[data.bone];
    if (!b) return;
    const frames = b.frames.data.slice(0, b.frames.count * 8);
    self.postMessage({ type: 'bone', animation: data.animation, bone: data.bone,
      translation: b.translation, frames }, [frames.buffer]);
  }
};
