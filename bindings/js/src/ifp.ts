// IFPReader: the API of the TypeScript reader this package replaces (@majesticfudgie/ifp-reader),
// for every animation format the library reads (ANP3, ANP2, ANPK, Stories .anim), built on the
// decode() document: fields are renamed, nothing is parsed here.

import { decode } from './decode.js';
import type { Animation, Format, Warning } from './types.js';

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

// The JSON document writes non-finite floats as null and others as the shortest text of the
// f32; the reader gives the f32 values themselves (a quaternion component is raw / 4096 exactly).
const num = (value: number | null): number => (value === null ? Number.NaN : Math.fround(value));

function animation(a: Animation): IFPAnimation {
  let latest = 0;
  for (const b of a.bones) {
    for (const f of b.frames) latest = Math.max(latest, f.time ?? 0);
  }
  return {
    name: a.name,
    duration: a.duration ?? latest,
    bones: a.bones.map((b) => ({
      boneId: b.bone_id,
      boneName: b.name ?? '',
      boneKey: b.bone_key,
      frameType: b.frame_type,
      frames: b.frames.map((f) => {
        const frame: IFPFrame = {
          time: num(f.time),
          quaternion: f.rotation.map(num) as IFPFrame['quaternion'],
        };
        if (f.translation) frame.translation = f.translation.map(num) as IFPFrame['translation'];
        if (f.scale) frame.scale = f.scale.map(num) as IFPFrame['scale'];
        return frame;
      }),
    })),
  };
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
  /** What the library found odd but read anyway, with offsets. */
  readonly warnings: Warning[];
  #byName = new Map<string, IFPAnimation>();

  constructor(data: Uint8Array | ArrayBuffer) {
    const document = decode(data);
    if (!document.animations || document.format === null) {
      throw new Error(`gtastream: not an animation file (format ${document.format})`);
    }
    this.format = document.format;
    this.packageName = document.name ?? '';
    this.warnings = document.warnings;
    this.animations = document.animations.map(animation);
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
