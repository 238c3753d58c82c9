// Test helpers: the decode() document rebuilt from the streaming decoder's events (test code
// only; the package itself never builds documents), and a comparison of floats at f32 precision.

/** Callbacks that gather the events into the structure of the decode() document. */
export function gather() {
  const doc = { format: null, name: null, warnings: [] };
  let files = 0;
  let animation;
  let bone;
  const model = {};
  const callbacks = {
    file(info) {
      if (files++ === 0) {
        doc.format = info.format;
        doc.name = info.name;
        if (info.format === 'dff') {
          // A model's document: what the core's ModelBuilder gathers from the records.
          delete doc.name;
          delete doc.warnings;
          const hex = (info.rw_version >>> 0).toString(16).toUpperCase().padStart(8, '0');
          Object.assign(doc, { rw_version: `0x${hex}`, frames: [], hanim: null, skin: null,
            atomics: [], geometries: [] });
        } else if (info.format === 'bnry' || info.format === 'text') {
          Object.assign(doc, { instances: [], cars: [], section_lines: [] });
        } else if (info.format === 'ide') {
          Object.assign(doc, { objects: [], section_lines: [] });
        } else {
          doc.animations = [];
        }
      }
    },
    animation(info) {
      animation = { name: info.name, frame_data_size: info.frame_data_size, flags: info.flags,
        duration: info.duration, bones: [] };
      doc.animations.push(animation);
    },
    bone(info) {
      bone = { name: info.name, bone_id: info.bone_id, bone_key: info.bone_key,
        frame_type: info.frame_type, frames: [] };
      animation.bones.push(bone);
    },
    keyframes(frames) {
      bone.frames.push(...frames);
    },
    instance(instance) {
      doc.instances.push(instance);
    },
    dffFrame(f) {
      doc.frames.push({ index: f.index, parent: f.parent, name: null, rotation: f.rotation,
        position: f.position, bone_id: null });
    },
    dffFrameName(n) {
      if (doc.frames[n.frame]) doc.frames[n.frame].name = n.name;
    },
    dffHanim(h) {
      if (doc.frames[h.frame]) doc.frames[h.frame].bone_id = h.node_id;
      if (h.flags !== null && !doc.hanim) {
        doc.hanim = { flags: h.flags, nodes: [] };
        model.hanimFrame = h.frame;
      }
    },
    dffHanimNode(n) {
      if (doc.hanim && model.hanimFrame === n.frame) {
        doc.hanim.nodes.push({ id: n.node_id, index: n.node_index, flags: n.flags });
      }
    },
    dffGeometry(g) {
      doc.geometries.push({ vertices: g.vertices, triangles: g.triangles, materials: g.materials });
    },
    dffSkin(s) {
      if (doc.skin) return;
      doc.skin = { bones: s.bones, used_bones: s.used_bones, max_weights: s.max_weights,
        inverse_bind: [] };
      model.skinGeometry = s.geometry;
    },
    dffSkinBone(b) {
      if (doc.skin && model.skinGeometry === b.geometry) doc.skin.inverse_bind.push(b.inverse_bind);
    },
    dffAtomic(a) {
      doc.atomics.push({ frame: a.frame, geometry: a.geometry });
    },
    car(car) {
      doc.cars.push(car);
    },
    sectionLine(line) {
      doc.section_lines.push(line);
    },
    ideObject(object) {
      doc.objects.push(object);
    },
    warning(warning) {
      doc.warnings.push(warning);
    },
    end() {
      callbacks.ended = true;
    },
  };
  return { doc, callbacks };
}

/** `actual` equals `expected` (a decode() document), numbers compared as f32 (the document
 * prints the shortest text of each f32; NaN and infinities print as null). */
export function sameDocument(actual, expected, path = '$') {
  if (typeof expected === 'number' || (expected === null && typeof actual === 'number')) {
    if (expected === null ? Number.isFinite(actual) : Math.fround(actual) !== Math.fround(expected)) {
      throw new Error(`${path}: ${actual} != ${expected}`);
    }
    return;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) {
      throw new Error(`${path}: length ${actual?.length} != ${expected.length}`);
    }
    expected.forEach((e, i) => sameDocument(actual[i], e, `${path}[${i}]`));
    return;
  }
  if (expected && typeof expected === 'object') {
    // The events carry no summary (the `Summarize` adaptor computes it from them; the
    // summary is checked in sample.test.mjs) and the callbacks no stored units (decode()'s
    // `raw`, `trailing`, `stored`, `blocks` and `container_size`, checked in write.test.mjs)
    // nor a warning's place (its animation, bone and line): a document rebuilt from events has
    // none.
    const optional = ['summary', 'raw', 'trailing', 'animation', 'bone', 'line', 'stored', 'blocks',
      'container_size'];
    const keys = Object.keys(expected).filter((k) => !optional.includes(k) || k in actual);
    const extra = Object.keys(actual).filter((k) => !keys.includes(k));
    if (extra.length) throw new Error(`${path}: unexpected ${extra}`);
    for (const k of keys) sameDocument(actual[k], expected[k], `${path}.${k}`);
    return;
  }
  if (actual !== expected) throw new Error(`${path}: ${actual} != ${expected}`);
}

/** A reproducible random source (tests cut files differently, but the same on every run). */
export function random(seed) {
  let state = seed >>> 0 || 1;
  return (n) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % n;
  };
}

/** Bytes as the JSON document writes stored units: lower-case hex. */
export const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/** The decode() document `doc` in the JSON document's terms: its stored units (`raw`,
 * `trailing`: Uint8Array or null) as hex strings. */
export function asJson(doc) {
  const copy = (value) => {
    if (value instanceof Uint8Array) return hex(value);
    if (Array.isArray(value)) return value.map(copy);
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copy(v)]));
    }
    return value;
  };
  return copy(doc);
}
