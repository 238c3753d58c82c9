// Decodes the file (or lists the IMG archive, or checks a folder) off the page's thread with
// the package's streaming decoders (constant memory; a File is read in pieces with Blob.slice,
// seeks included), and keeps what the page shows: summaries are posted at once, a bone's
// keyframes when the page asks for them. An archive's entry is opened as a slice of the archive: nothing else of it is read.
// An archive is edited (entries added or replaced, removed) into new Blobs, read by slices from
// the one opened: the file opened is never changed; "save a copy" downloads the new Blobs.
import {
  addEntriesBlob, ArchiveError, check, checkFolder, DecodeError, EncodeError, convert, decode,
  decodeStream, folderFromFiles, init,
  lsBlob, removeEntriesBlob, sample, summaries, toGltf,
} from './gtastream/index.js';

let animations = [];
/** The archive last listed: its `.img` and `.dir` (Blobs: the files opened, or an edit of
 * them), their names, its entries, and the edits made since it was opened. */
let archive = null;
/** The edits of the archive and its saving, one after the other: each edit starts from the
 * archive the one before made. */
let edits = Promise.resolve();
/** The file (or entry) last decoded, for "save as" and the poses. */
let opened = null;
/** Its bytes, once a pose is asked for (the sampler reads the file from memory). */
let openedBytes = null;
/** The model the animations play on in 3D: its bytes (a promise: read as it is given). */
let model = null;

/** Files up to this size are also checked against the games' loading rules (the check reads
 * the file into memory; the decoding above does not). */
const CHECKED_SIZE = 256 << 20;

/** What `gtastream check NAME` says of the file (one input of its JSON document: findings,
 * groups, summary, games checked), or null when it is too large to check. `name` is the file's
 * name (an archive entry's own name: its stem is the block name the game expects); `dir` the
 * `.dir` of a version 1 archive whose `.img` `file` is. */
async function checked(file, { name, dir } = {}) {
  if (file.size + (dir?.size ?? 0) > CHECKED_SIZE) return null;
  const data = new Uint8Array(await file.arrayBuffer());
  const options = { name: name ?? file.name };
  if (dir) options.dir = new Uint8Array(await dir.arrayBuffer());
  return check(data, options).inputs[0];
}

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

/** An IMG archive: a VER2 `.img`, or a version 1 `.img` opened together with its `.dir`. Only
 * its directory (and each entry's first bytes) is read. Null for any other file. */
async function listing(files) {
  const dir = files.find((f) => /\.dir$/i.test(f.name));
  const img = files.find((f) => f !== dir);
  if (!img) return null;
  const magic = new TextDecoder().decode(await img.slice(0, 4).arrayBuffer());
  if (magic !== 'VER2' && !dir) return null;
  const opening = { img, dir: magic === 'VER2' ? undefined : dir,
    names: { img: img.name, dir: dir?.name }, entries: [], edited: null };
  // The archive before stays the one entries are opened from until this one lists.
  const listed = await listArchive(opening);
  archive = opening;
  return listed;
}

/** The listing of the archive as it stands (opened, or edited). */
async function listArchive(target = archive) {
  const started = performance.now();
  const list = await lsBlob(target.img, target.dir);
  target.entries = list.entries;
  // As `gtastream check ARCHIVE` (a version 1 archive with its .dir).
  const found = await checked(target.img, { name: target.names.img, dir: target.dir });
  return { file: target.names.img, format: list.format, name: null, size: target.img.size,
    warnings: [], entries: list.entries, check: found, edited: target.edited,
    seconds: (performance.now() - started) / 1000 };
}

/** Edits the archive (`edit(img, dir)` gives the new Blobs), and lists the result; null when
 * another archive was opened meanwhile (the edit was asked of the one before). */
async function editArchive(target, edit) {
  if (!target) throw new Error('no archive is open');
  if (archive !== target) return null;
  const { img, dir, report } = await edit(archive.img, archive.dir);
  if (archive !== target) return null;
  const total = archive.edited ?? { added: 0, replaced: 0, removed: 0 };
  archive.img = img;
  archive.dir = dir ?? undefined;
  archive.edited = { added: total.added + report.added, replaced: total.replaced + report.replaced,
    removed: total.removed + report.removed };
  return listArchive();
}

async function open(files) {
  const listed = await listing(files);
  if (listed) return listed;
  return decodeFile(files[0]);
}

/** The entry `index` of the archive last listed, decoded from its slice of the `.img`. */
async function openEntry(index) {
  const entry = archive?.entries[index];
  if (!entry) throw new Error(`no entry ${index}`);
  // Checked under the entry's name, as `gtastream check ARCHIVE:ENTRY`.
  const result = await decodeFile(archive.img.slice(entry.offset, entry.offset + entry.size),
    entry.name);
  return { ...result, file: archive.names.img, entry: entry.name };
}

/** Decodes `file` (a File, or an archive entry's slice named `name`). */
async function decodeFile(file, name = file.name) {
  opened = file;
  openedBytes = null;
  const started = performance.now();
  const result = { file: name, format: null, name: null, size: file.size, warnings: [],
    animations: [],
    instances: [], cars: [], lines: 0, objects: [], sections: {} };
  // An IDE: each section's definitions and other lines.
  const inSection = (section) => {
    result.sections[section] = (result.sections[section] ?? 0) + 1;
  };
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
    sectionLine(line) {
      result.lines++;
      inSection(line.section);
    },
    ideObject(o) {
      result.objects.push([o.section, o.id, o.model_name, o.txd_name]);
      inSection(o.section);
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
  // A model: its document from the library (a DFF is read whole: models are small).
  if (result.format === 'dff') {
    result.model = decode(new Uint8Array(await file.arrayBuffer()));
  }
  result.check = await checked(file, { name });
  // Each animation's summary, from the library (files small enough to read whole, as check).
  if (result.animations.length > 0 && file.size <= CHECKED_SIZE) {
    try {
      result.summaries = summaries(new Uint8Array(await file.arrayBuffer()));
    } catch {
      result.summaries = null;
    }
  }
  result.seconds = (performance.now() - started) / 1000;
  return result;
}

self.onmessage = async ({ data }) => {
  if (data.type === 'open' || data.type === 'entry') {
    try {
      const result = data.type === 'open' ? await open(data.files) : await openEntry(data.index);
      self.postMessage({ type: 'opened', result });
    } catch (e) {
      const error = e instanceof DecodeError
        ? { kind: e.kind, reason: e.reason, offset: e.offset, message: e.message }
        : { message: String(e && e.message ? e.message : e) };
      self.postMessage({ type: 'failed', error, entry: data.type === 'entry' });
    }
  } else if (data.type === 'folder') {
    // A game or mod folder (`gtastream check DIR`): its files ([path under it, File]) read in
    // slices with FileReaderSync as the walk asks for them, never an archive whole.
    try {
      const started = performance.now();
      const [input] = checkFolder(folderFromFiles(data.files), { name: data.name }).inputs;
      self.postMessage({ type: 'folder-checked', result: { name: data.name, input,
        given: data.files.length, seconds: (performance.now() - started) / 1000 } });
    } catch (e) {
      self.postMessage({ type: 'failed', folder: true,
        error: { message: String(e && e.message ? e.message : e) } });
    }
  } else if (data.type === 'archive-add' || data.type === 'archive-remove') {
    const edit = data.type === 'archive-add'
      ? (img, dir) => addEntriesBlob(img, data.files.map((f) => ({ name: f.name, data: f })), dir)
      : (img, dir) => removeEntriesBlob(img, data.names, dir);
    const target = archive;
    edits = edits.then(async () => {
      try {
        const result = await editArchive(target, edit);
        if (result) self.postMessage({ type: 'opened', result });
      } catch (e) {
        const kind = e instanceof ArchiveError || e instanceof DecodeError ? ` (${e.kind})` : '';
        self.postMessage({ type: 'edit-failed', message: `${e.message}${kind}` });
      }
    });
  } else if (data.type === 'archive-save') {
    edits = edits.then(() => {
      if (!archive) return;
      const files = [{ name: archive.names.img, blob: archive.img }];
      if (archive.dir) files.push({ name: archive.names.dir, blob: archive.dir });
      self.postMessage({ type: 'archive-saved', files });
    });
  } else if (data.type === 'convert') {
    try {
      const bytes = convert(new Uint8Array(await opened.arrayBuffer()), data.format);
      self.postMessage({ type: 'converted', format: data.format, bytes }, [bytes.buffer]);
    } catch (e) {
      const kind = e instanceof DecodeError || e instanceof EncodeError ? ` (${e.kind})` : '';
      self.postMessage({ type: 'convert-failed', message: `${e.message}${kind}` });
    }
  } else if (data.type === 'pose') {
    const a = animations[data.animation];
    if (!a || !opened) return;
    try {
      openedBytes ??= new Uint8Array(await opened.arrayBuffer());
      const pose = sample(openedBytes, a.name, data.time, { loop: data.loop });
      self.postMessage({ type: 'pose', animation: data.animation, time: data.time, pose });
    } catch (e) {
      self.postMessage({ type: 'pose', animation: data.animation, time: data.time,
        error: e instanceof DecodeError ? `${e.reason} (${e.kind})` : String(e) });
    }
  } else if (data.type === 'model-file') {
    model = data.file.arrayBuffer().then((b) => new Uint8Array(b));
  } else if (data.type === 'model-use') {
    model = opened.arrayBuffer().then((b) => new Uint8Array(b));
  } else if (data.type === 'gltf' || data.type === 'gltf-save') {
    if (!model || !opened) return;
    const a = animations[data.animation];
    try {
      openedBytes ??= new Uint8Array(await opened.arrayBuffer());
      const written = toGltf(openedBytes, await model,
        data.type === 'gltf-save' ? { animations: [a.name] } : {});
      const { bytes, ...report } = written;
      self.postMessage(data.type === 'gltf' ? { type: 'gltf', bytes, report }
        : { type: 'gltf-saved', bytes, animation: a.name }, [bytes.buffer]);
    } catch (e) {
      const kind = e instanceof DecodeError ? ` (${e.kind})` : '';
      self.postMessage({ type: 'gltf-failed', message: `${e.message}${kind}` });
    }
  } else if (data.type === 'bone') {
    const b = animations[data.animation]?.bones[data.bone];
    if (!b) return;
    const frames = b.frames.data.slice(0, b.frames.count * 8);
    self.postMessage({ type: 'bone', animation: data.animation, bone: data.bone,
      translation: b.translation, frames }, [frames.buffer]);
  }
};

// Loaded (the package's module included): the page may send now. A module that could not be
// fetched (the page not served over HTTP, or the package not built) is said at once, not at
// the first file.
try {
  await init();
  self.postMessage({ type: 'ready' });
} catch (e) {
  self.postMessage({ type: 'unloaded', message: String(e && e.message ? e.message : e) });
}
