// IFPReader: the API of the TypeScript reader this package replaces (@majesticfudgie/ifp-reader),
// for every animation format the library reads (ANP3, ANP2, ANPK, Stories .anim), over the
// module's buffers (wasm/src/document.rs): each bone's keyframes stay in one Float32Array, its
// `frames` are made when first asked for, and each frame reads its floats when asked.

import { documentBuffers } from './decode.js';
import type { DocumentWarning, Format } from './types.js';
import { type BoneHead, Reader, readBlocks, readBone, readHead, stride } from './view.js';

export interface IFPFrame {
  /** Seconds from the start of the clip. */
  time: number;
  /** Rotation quaternion `[x, y, z, w]`. */
  quaternion: [number, number, number, number];
  /** `[x, y, z]` in game units, only when the bone stores translations. */
  translation?: [number, number, number];
  /** `[x, y, z]`, only when the bone stores scales (ANPK `KRTS`). */
  scale?: [number, number, number];
}

export interface IFPBone {
  /** The bone's id (the DFF's HAnim node id) where the file stores one, else null. */
  boneId: number | null;
  /** The stored name; empty when the file stores none (Stories .anim). */
  boneName: string;
  /** Stories .anim: the bone's key where the file stores one, else null. */
  boneKey: number | null;
  /** The library's name of the keyframe type (`ifp2_packed_rot_trans`, `krt0`, ...). */
  frameType: string;
  frames: IFPFrame[];
}

export interface IFPAnimation {
  name: string;
  /** Seconds: the duration the file stores (Stories .anim), else the latest keyframe time. */
  duration: number;
  bones: IFPBone[];
}

/** A frame of a bone storing rotations only: its floats are read from the package's values
 * when asked for (each `quaternion` read gives a new array). */
class RotationFrame implements IFPFrame {
  #values: Float32Array;
  #at: number;

  constructor(values: Float32Array, at: number) {
    this.#values = values;
    this.#at = at;
  }

  get time(): number {
    return this.#values[this.#at];
  }

  get quaternion(): [number, number, number, number] {
    const v = this.#values;
    const at = this.#at;
    return [v[at + 1], v[at + 2], v[at + 3], v[at + 4]];
  }

  /** Three floats from the frame's `from`-th on. */
  protected three(from: number): [number, number, number] {
    const v = this.#values;
    const at = this.#at + from;
    return [v[at], v[at + 1], v[at + 2]];
  }

  toJSON(): IFPFrame {
    return { time: this.time, quaternion: this.quaternion };
  }
}

class TranslationFrame extends RotationFrame {
  get translation(): [number, number, number] {
    return this.three(5);
  }

  override toJSON(): IFPFrame {
    return { time: this.time, quaternion: this.quaternion, translation: this.translation };
  }
}

/** ANPK `KRTS`: translation and scale. */
class ScaleFrame extends TranslationFrame {
  get scale(): [number, number, number] {
    return this.three(8);
  }

  override toJSON(): IFPFrame {
    return { ...super.toJSON(), scale: this.scale };
  }
}

class Bone implements IFPBone {
  readonly boneId: number | null;
  readonly boneName: string;
  readonly boneKey: number | null;
  readonly frameType: string;
  #values: Float32Array;
  #head: BoneHead;
  #frames: IFPFrame[] | undefined;

  constructor(head: BoneHead, values: Float32Array) {
    this.boneId = head.boneId;
    this.boneName = head.name ?? '';
    this.boneKey = head.boneKey;
    this.frameType = head.frameType;
    this.#values = values;
    this.#head = head;
  }

  get frames(): IFPFrame[] {
    if (!this.#frames) {
      const { frameCount, translation, scale } = this.#head;
      const Frame = scale ? ScaleFrame : translation ? TranslationFrame : RotationFrame;
      const step = stride(this.#head);
      const values = this.#values;
      const frames = new Array<IFPFrame>(frameCount);
      for (let i = 0, at = 0; i < frameCount; i++, at += step) {
        frames[i] = new Frame(values, at);
      }
      this.#frames = frames;
    }
    return this.#frames;
  }

  toJSON(): IFPBone {
    const { boneId, boneName, boneKey, frameType, frames } = this;
    return { boneId, boneName, boneKey, frameType, frames };
  }
}

// The key names are compared by: the core's rule (gtastream::name_matches), ASCII letters in any
// case and ASCII whitespace around the name ignored, since real San Andreas files pad names
// (` Pelvis`). Other characters compare as they are (`toLowerCase` would fold Latin-1 too).
const nameKey = (name: string): string =>
  name.replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, '').replace(/[A-Z]+/g, (s) => s.toLowerCase());

/** An animation package read whole: `new IFPReader(bytes)`. Throws a `DecodeError` where the
 * file does not decode, and an `Error` for a placement file. */
export class IFPReader {
  /** The package's name (empty when the file stores none). */
  readonly packageName: string;
  readonly animations: IFPAnimation[];
  /** `ANP3`, `ANP2`, `ANPK` or `ANIM`. */
  readonly format: Format;
  /** What the library found odd but read anyway, with offsets and where (animation, bone). */
  readonly warnings: DocumentWarning[];
  #byName = new Map<string, IFPAnimation>();

  constructor(data: Uint8Array | ArrayBuffer) {
    // Each bone's floats, copied out of the module's memory as the bone ends.
    const values: Float32Array[] = [];
    const buffers = documentBuffers(data, true, true, (memory, ptr, count) =>
      values.push(new Float32Array(memory.slice(ptr, ptr + 4 * count))));
    const r = new Reader(buffers);
    const { placement, doc } = readHead(r);
    if (placement || doc.format === null || doc.format === 'dff') {
      throw new Error(`gtastream: not an animation file (format ${doc.format})`);
    }
    this.format = doc.format;
    this.packageName = doc.name ?? '';
    this.warnings = doc.warnings;
    readBlocks(r); // an ANLF's blocks: one package here
    const animations: IFPAnimation[] = [];
    let bone = 0;
    for (let n = r.number(); n > 0; n--) {
      const name = r.string();
      r.number(); // frame_data_size
      r.number(); // flags
      const stored = r.number();
      r.bytes(); // raw: decode()'s
      const bones: IFPBone[] = [];
      for (let m = r.number(); m > 0; m--) {
        bones.push(new Bone(readBone(r), values[bone++]));
      }
      r.name(); // no summary: made for decode() only
      // The duration the file stores, else the latest finite keyframe time.
      const latest = r.number();
      animations.push({ name, duration: stored === stored ? Math.fround(stored) : latest, bones });
    }
    this.animations = animations;
    for (const a of this.animations) {
      // The first of equal names wins, as a linear search would find it.
      const key = nameKey(a.name);
      if (!this.#byName.has(key)) this.#byName.set(key, a);
    }
  }

  /** The first animation of that name, compared as the game does: ASCII case aside (and ASCII
   * whitespace around either name ignored). */
  getAnimation(name: string): IFPAnimation | undefined {
    return this.#byName.get(nameKey(name));
  }
}

export default IFPReader;
