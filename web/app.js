// The inspector page: hands the file to the worker (worker.js decodes it with the gtastream
// package), shows what comes back, and draws the plots on canvases.
import { showModel } from './model.js';

const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
/** Resolves when the worker has loaded the package: a message it got while still loading would
 * find no handler and be lost. */
const workerReady = new Promise((resolve) => {
  worker.addEventListener('message', function ready({ data }) {
    if (data.type === 'unloaded') unloaded(data.message);
    if (data.type !== 'ready') return;
    worker.removeEventListener('message', ready);
    if (!document.body.dataset.state) status('No file yet.');
    resolve();
  });
});
/** The worker or its package's WebAssembly did not load (web/gtastream/ not built, or the page
 * not served over HTTP): what to do, in place of a page that does nothing. */
function unloaded(reason) {
  status(`The decoder did not load${reason ? ` (${reason})` : ''}. Build the package (npm run `
    + 'build in bindings/js copies it to web/gtastream/) and serve web/ over HTTP: python3 -m '
    + 'http.server -d web 8000 from the repository, then open http://localhost:8000/.', true);
  document.body.dataset.state = 'unserved';
}
worker.addEventListener('error', (event) => {
  event.preventDefault();
  unloaded(event.message);
});
/** Posts to the worker once it is ready. */
function send(message) {
  workerReady.then(() => worker.postMessage(message));
}
const $ = (id) => document.getElementById(id);
let result = null;
/** The archive listed last, shown again by "Back to the archive" (from one of its entries, or
 * after another file failed to open: what failed does not take the archive away). */
let archiveResult = null;
/** Entries of the archive ticked for removal (their indices in its listing). */
const ticked = new Set();
let selected = { animation: -1, bone: -1 };
/** The pose player: the time shown, whether it plays, and one pose request at a time. */
const player = { time: 0, length: 0, playing: false, pending: false, dirty: false, last: 0 };
/** The model the animations play on in 3D (its name; the worker keeps its bytes), the 3D view
 * of the file shown (viewer.js; also `window.gtastreamView`, for the tests and the console),
 * and what its glTF left out. */
const model = { name: null, view: null, report: null };

function cell(row, text) {
  const td = document.createElement('td');
  td.textContent = text;
  row.appendChild(td);
}

/** Rows of `values`; `onPick(index)` on a click; `indices` the index each row stands for
 * (default its position). */
function fill(table, rows, onPick, indices) {
  const body = table.tBodies[0];
  body.replaceChildren();
  rows.forEach((values, position) => {
    const index = indices ? indices[position] : position;
    const row = document.createElement('tr');
    values.forEach((v) => cell(row, v));
    if (onPick) row.addEventListener('click', () => onPick(index));
    body.appendChild(row);
  });
}

/** The filter box's text, lower case (ASCII letters: names are compared as the games do). */
const filterText = () => $('filter').value.trim().replace(/[A-Z]+/g, (s) => s.toLowerCase());
const matches = (name) => (name ?? '').replace(/[A-Z]+/g, (s) => s.toLowerCase()).includes(filterText());

function mark(table, index) {
  [...table.tBodies[0].rows].forEach((row, i) => row.classList.toggle('selected', i === index));
}

const seconds = (s) => (s === null || s === undefined || Number.isNaN(s) ? '–' : s.toFixed(3));
const number = (v) => (v === null || v === undefined ? '–' : v.toFixed(2));
const bytes = (n) => (n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1048576).toFixed(2)} MiB`);

function status(text, isError = false) {
  $('status').textContent = text;
  $('status').classList.toggle('error', isError);
}

/** The archive tools' own line: an edit's error (or nothing) beside the control that caused it,
 * as well as in the status line. */
function archiveMessage(text = '') {
  $('archive-message').textContent = text;
  $('archive-message').classList.toggle('error', text !== '');
}

/** The controls follow what is shown (`result`): "Back to the archive" on an entry of the
 * archive listed, "Save as" the formats the package writes for a decoded file (an archive is
 * not saved). Nothing stays from a file before, or from one that failed. */
function setControls() {
  const r = result;
  // (With nothing shown: once the file opened after the archive failed, not while it decodes.)
  const failed = document.body.dataset.state === 'failed';
  $('back').hidden = !(archiveResult && (r === null ? failed : r.entry));
  const targets = !r || r.entries || r.input ? [] : ['bnry', 'text'].includes(r.format) ? ['bnry', 'text']
    : r.format === 'ide' ? ['ide']
    : r.format === null || r.model ? [] : ['ANP3', 'ANP2', 'ANPK'];
  $('save-tools').hidden = targets.length === 0;
  $('save-format').replaceChildren(...targets.map((t) => new Option(t, t)));
}

/** Opens the first file, or an IMG archive's `.img` and `.dir` given together. */
function open(fileList) {
  let files = [...(fileList ?? [])];
  // A model given with other files is the one their animations play on in 3D.
  const dff = files.length > 1 ? files.find((f) => /\.dff$/i.test(f.name)) : undefined;
  if (dff) {
    files = files.filter((f) => f !== dff);
    useModel(dff.name, { type: 'model-file', file: dff });
  }
  const file = files.find((f) => !/\.dir$/i.test(f.name)) ?? files[0];
  if (!file) return;
  status(`Decoding ${file.name}…`);
  document.body.dataset.state = 'decoding';
  stopPlayer();
  result = null;
  for (const id of SECTIONS) $(id).hidden = true;
  $('file-name').textContent = file.name;
  ticked.clear();
  archiveMessage();
  setControls();
  closeView();
  send({ type: 'open', files: files.length > 1 ? files : [file] });
}

/** The sections of a file or folder shown, hidden while another one is read. */
const SECTIONS = ['summary', 'verdict-section', 'warnings-section', 'findings-section',
  'animation-section', 'placement-section', 'definition-section', 'archive-section',
  'model-section', 'folder-section'];

/** Checks a game or mod folder (`gtastream check DIR`): `files` its files as [path under it,
 * File], `name` its own name. */
function openFolder(files, name) {
  status(`Checking the folder ${name}…`);
  document.body.dataset.state = 'decoding';
  stopPlayer();
  result = null;
  archiveResult = null;
  for (const id of SECTIONS) $(id).hidden = true;
  $('file-name').textContent = name;
  ticked.clear();
  archiveMessage();
  setControls();
  closeView();
  send({ type: 'folder', files, name });
}

/** A picked folder's files (`webkitRelativePath`: its name, then the path under it). */
function pickedFolder(fileList) {
  const files = [...(fileList ?? [])];
  if (!files.length) return;
  const name = files[0].webkitRelativePath.split('/')[0] || 'folder';
  openFolder(files.map((f) => [f.webkitRelativePath.split('/').slice(1).join('/') || f.name, f]),
    name);
}

/** Every file under a dropped folder's entry, as [path under it, File]. */
async function folderFiles(directory, prefix = '') {
  const files = [];
  const reader = directory.createReader();
  // readEntries gives the entries in batches, until an empty one.
  for (;;) {
    const batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
    if (!batch.length) return files;
    for (const entry of batch) {
      const path = `${prefix}${entry.name}`;
      if (entry.isDirectory) files.push(...await folderFiles(entry, `${path}/`));
      else files.push([path, await new Promise((resolve, reject) => entry.file(resolve, reject))]);
    }
  }
}

/** Opens entry `index` of the archive shown. */
function openEntry(index) {
  const entry = archiveResult?.entries[index];
  if (!entry) return;
  status(`Decoding ${entry.name}…`);
  document.body.dataset.state = 'decoding';
  stopPlayer();
  closeView();
  send({ type: 'entry', index });
}

worker.onmessage = ({ data }) => {
  if (data.type === 'opened') {
    show(data.result);
  } else if (data.type === 'folder-checked') {
    showFolder(data.result);
  } else if (data.type === 'failed' && data.folder) {
    status(`Cannot check the folder: ${data.error.message}`, true);
    result = null;
    document.body.dataset.state = 'failed';
    setControls();
  } else if (data.type === 'failed') {
    const e = data.error;
    const img = /\.img$/i.test($('file-name').textContent)
      ? ' (a version 1 archive: open its .img and .dir together)' : '';
    status(e.kind ? `Cannot decode: ${e.reason} (${e.kind}) at offset ${e.offset}${img}`
      : `Cannot decode: ${e.message}`, true);
    // An archive's entry that fails leaves the archive's listing shown (and its controls).
    result = data.entry && archiveResult ? archiveResult : null;
    document.body.dataset.state = 'failed';
    setControls();
  } else if (data.type === 'converted') {
    // A download of the converted bytes, named after the file with the format's extension.
    const base = ($('entry-name').textContent !== '–' ? $('entry-name').textContent
      : $('file-name').textContent).replace(/\.[^.]*$/, '');
    const extension = { ANP3: 'ifp', ANP2: 'ifp', ANPK: 'ifp', bnry: 'ipl', text: 'ipl', ide: 'ide' }[data.format];
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([data.bytes], { type: 'application/octet-stream' }));
    link.download = `${base}.${data.format.toLowerCase()}.${extension}`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 60000);
    status(`Saved as ${data.format} (${data.bytes.length} bytes).`);
  } else if (data.type === 'edit-failed') {
    status(`Cannot edit the archive: ${data.message}`, true);
    archiveMessage(`Cannot edit the archive: ${data.message}`);
    document.body.dataset.state = 'failed';
  } else if (data.type === 'archive-saved') {
    // One download per file: the .img, and the .dir of a version 1 archive.
    for (const { name, blob } of data.files) {
      const link = document.createElement('a');
      link.href = URL.createObjectURL(blob);
      link.download = name;
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 60000);
    }
    status(`Saved a copy: ${data.files.map((f) => `${f.name} (${f.blob.size} bytes)`).join(', ')}.`);
  } else if (data.type === 'convert-failed') {
    status(`Cannot save: ${data.message}`, true);
  } else if (data.type === 'pose') {
    player.pending = false;
    if (data.animation === selected.animation) showPose(data);
    if (player.dirty) requestPose();
  } else if (data.type === 'gltf') {
    showView(data);
  } else if (data.type === 'gltf-failed') {
    document.body.dataset.view = 'failed';
    $('unbound').textContent = `Cannot play on ${model.name}: ${data.message}`;
    $('unbound').classList.add('error');
  } else if (data.type === 'gltf-saved') {
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([data.bytes], { type: 'model/gltf-binary' }));
    link.download = `${data.animation}.glb`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 60000);
    status(`Saved ${data.animation}.glb (${data.bytes.length} bytes).`);
  } else if (data.type === 'bone' && data.animation === selected.animation
    && data.bone === selected.bone) {
    plotBone(data.frames, data.translation);
  }
};

function show(r) {
  result = r;
  if (r.entries) {
    if (archiveResult !== r) ticked.clear();
    archiveResult = r;
  } else if (!r.entry) {
    archiveResult = null;
  }
  $('file-name').textContent = r.file;
  const e = r.edited;
  status(e ? `Edited: ${e.added} added, ${e.replaced} replaced, ${e.removed} removed (not saved:`
    + ' "Save a copy" downloads it).' : 'Decoded.');
  archiveMessage();
  for (const id of ['animation-section', 'placement-section', 'definition-section',
    'archive-section', 'model-section', 'folder-section']) {
    $(id).hidden = true;
  }
  $('entry-name').textContent = r.entry ?? '–';
  setControls();
  $('summary').hidden = false;
  $('format').textContent = r.format;
  $('package').textContent = r.name ?? '–';
  $('size').textContent = `${bytes(r.size)} (${r.size} bytes)`;
  $('time').textContent = `${(r.seconds * 1000).toFixed(0)} ms`;
  $('warnings-section').hidden = r.warnings.length === 0;
  fill($('warnings'), r.warnings.map((w) => [w.kind, w.reason,
    `${w.offset} (0x${w.offset.toString(16)})`]));
  // What the games do with the file (`gtastream check`): the verdict before the contents, the
  // findings after them.
  showVerdict(r.check);
  showFindings(r.check);
  const animated = !['bnry', 'text', 'ide'].includes(r.format);
  if (r.entries) {
    showArchive(r);
  } else if (r.model) {
    showModel(r.model);
  } else if (animated) {
    $('animation-section').hidden = false;
    showAnimations(r);
    if (model.name) {
      document.body.dataset.view = 'loading';
      send({ type: 'gltf' });
    }
  } else if (r.format === 'ide') {
    showDefinitions(r);
  } else {
    showPlacements(r);
  }
  document.body.dataset.state = 'done';
}

/** A folder checked (`gtastream check DIR`): the verdict for its game, the counts, the findings
 * per rule with their file, line or entry and the other file, the files not read. */
function showFolder(r) {
  result = r;
  const input = r.input;
  for (const id of SECTIONS) $(id).hidden = true;
  $('file-name').textContent = r.name;
  $('entry-name').textContent = '–';
  setControls();
  $('summary').hidden = false;
  $('format').textContent = 'DIR';
  $('package').textContent = '–';
  $('size').textContent = `${r.given} files given`;
  $('time').textContent = `${(r.seconds * 1000).toFixed(0)} ms`;
  showVerdict(input);
  showFindings(input);
  $('folder-section').hidden = false;
  $('folder-counts').textContent = `${GAME_NAMES[input.game] ?? input.game}: `
    + `${plural(input.files, 'file')} and ${input.entries} archive `
    + `${input.entries === 1 ? 'entry' : 'entries'} read, `
    + `${plural(input.unreadable.length, 'file')} not read`;
  $('unreadable-section').hidden = input.unreadable.length === 0;
  fill($('unreadable'), input.unreadable.map((u) => [u.path, u.reason]));
  status('Checked.');
  document.body.dataset.state = 'done';
}

/** Where a finding in a folder is: its file, then its line or archive entry. */
const place = (f) => `${f.path}${f.line !== null ? `:${f.line}` : ''}${f.entry ? `:${f.entry}` : ''}`;

const GAME_NAMES = { iii: 'GTA III', vc: 'Vice City', sa: 'San Andreas', mta: 'MTA' };
const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The check's verdict (its `summary`): errors, warnings and notes overall and for each game
 * checked, and whether those games came from the file. */
function showVerdict(checked) {
  const verdict = $('verdict');
  $('verdict-section').hidden = false;
  $('verdict-games').hidden = !checked;
  if (!checked) {
    // The check reads the file into memory: the worker leaves the largest files to the tool.
    verdict.textContent = 'Not checked here (over 256 MiB): gtastream check FILE checks it.';
    verdict.className = '';
    fill($('verdict-games'), []);
    return;
  }
  const s = checked.summary;
  const games = checked.games.map((g) => GAME_NAMES[g] ?? g).join(', ') || 'no game';
  const folder = checked.format === 'DIR';
  const whence = folder ? (checked.games_from === 'file' ? 'the game of the folder\'s level file'
    : 'the game chosen')
    : checked.games_from === 'file' ? 'the games this file is for, as it says'
      : 'the games chosen';
  const counts = `${plural(s.errors, 'error')}, ${plural(s.warnings, 'warning')}, `
    + `${plural(s.notes, 'note')}`;
  // A folder's verdict is the tool's: an error finding fails the game.
  verdict.textContent = folder ? `${checked.verdict === 'fails'
    ? 'Fails: an error finding crashes the game or corrupts its memory'
    : 'Loads: no error finding'} (${counts}). Checked for ${games} (${whence}).`
    : s.errors > 0 ? `Errors: ${counts}. Checked for ${games} (${whence}).`
    : s.warnings > 0 ? `Loads, with warnings: ${counts}. Checked for ${games} (${whence}).`
      : `Loads: ${counts}. Checked for ${games} (${whence}).`;
  verdict.className = s.errors > 0 ? 'errors' : s.warnings > 0 ? 'warnings' : 'clean';
  fill($('verdict-games'), checked.games.map((g) => {
    const c = s.games[g];
    return [GAME_NAMES[g] ?? g, c.errors, c.warnings, c.notes];
  }));
}

/** The findings, one line per rule (its count and spread, its first finding), collapsed: a
 * rule's findings are listed when it is opened. */
function showFindings(checked) {
  const groups = checked?.groups ?? [];
  $('findings-section').hidden = groups.length === 0;
  const list = $('findings');
  list.replaceChildren(...groups.map((g) => {
    const group = document.createElement('details');
    group.className = 'group';
    group.dataset.rule = g.rule;
    const line = document.createElement('summary');
    const level = document.createElement('span');
    level.className = `level-${g.severity}`;
    level.textContent = g.severity;
    const rule = document.createElement('code');
    rule.textContent = g.rule;
    const first = checked.findings[g.first];
    const folder = checked.format === 'DIR';
    const where = folder ? `${place(first)}: ` : first.entry ? `${first.entry}: ` : '';
    line.append(level, ' ', rule, ` (${g.games.join(', ')}) ${g.spread}`
      + `${g.count === 1 ? ': ' : '; first: '}${where}${first.message}`);
    group.appendChild(line);
    // Rows made on first opening: a rule may have thousands of findings.
    group.addEventListener('toggle', () => {
      if (!group.open || group.querySelector('table')) return;
      const table = document.createElement('table');
      const found = checked.findings.filter((f) => f.rule === g.rule);
      const offset = (f) => `${f.offset} (0x${f.offset.toString(16)})`;
      if (folder) {
        table.innerHTML = '<thead><tr><th>File</th><th>Offset</th><th>Where and why</th>'
          + '<th>Other file</th></tr></thead><tbody></tbody>';
        fill(table, found.map((f) => [place(f), offset(f), f.message, f.other ?? '']));
      } else {
        table.innerHTML = '<thead><tr><th>Offset</th><th>Entry</th><th>Where and why</th></tr>'
          + '</thead><tbody></tbody>';
        fill(table, found.map((f) => [offset(f), f.entry ?? '', f.message]));
      }
      group.appendChild(table);
    });
    return group;
  }));
}

/** The animations whose names match the filter. */
function showAnimations(r) {
  const shown = r.animations.map((_, i) => i).filter((i) => matches(r.animations[i].name));
  fill($('animations'), shown.map((i) => {
    const a = r.animations[i];
    // The library's summary (docs/ANIMATION.md): the games' length, the standard bones moved,
    // how the bones are stored.
    const s = r.summaries?.[i];
    const storage = s ? `${s.mixed ? 'mixed: ' : ''}${[s.storage.packed && `${s.storage.packed} packed`,
      s.storage.float && `${s.storage.float} float`].filter(Boolean).join(', ')}` : '–';
    return [i, a.name, a.bones.length, a.frames, seconds(a.duration),
      s ? seconds(s.length) : '–', s ? s.standard_bones.length : '–', storage];
  }), pickAnimation, shown);
  pickAnimation(shown[0] ?? -1);
}

function pickAnimation(index) {
  const a = result.animations[index];
  selected = { animation: index, bone: -1 };
  [...$('animations').tBodies[0].rows].forEach((row) =>
    row.classList.toggle('selected', row.cells[0].textContent === String(index)));
  if (!a) {
    fill($('bones'), []);
    clearPlot('No animations.');
    return;
  }
  $('bones-title').textContent = `Bones of ${a.name}`;
  player.length = a.duration ?? 0;
  player.time = 0;
  $('pose-time').max = String(player.length);
  $('pose-time').value = '0';
  requestPose();
  fill($('bones'), a.bones.map((b, i) => [i, b.name ?? '–', b.id ?? b.key ?? '–', b.type,
    b.frames, seconds(b.duration)]), (bone) => pickBone(index, bone));
  markUnbound();
  pickBone(index, 0);
}

function pickBone(animation, bone) {
  selected = { animation, bone };
  mark($('bones'), bone);
  const b = result.animations[animation].bones[bone];
  if (!b) {
    clearPlot('No bones.');
    return;
  }
  $('plot-title').textContent = `${result.animations[animation].name} / ${b.name ?? `bone ${bone}`}`;
  send({ type: 'bone', animation, bone });
}

/** [min, max] of the finite values (no spreading: files have more values than arguments fit). */
function extent(values) {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (Number.isFinite(v)) {
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  }
  return [lo, hi];
}

const COLORS = ['#d62728', '#2ca02c', '#1f77b4', '#9467bd'];

function clearPlot(text) {
  const canvas = $('plot');
  const g = canvas.getContext('2d');
  g.clearRect(0, 0, canvas.width, canvas.height);
  g.fillStyle = '#666';
  g.font = '14px system-ui';
  g.fillText(text, 20, 30);
  canvas.dataset.points = '0';
}

/** One panel: `series` of [label, values] against `times`, in the box x, y, w, h. */
function panel(g, box, title, times, series) {
  const [x, y, w, h] = box;
  let [lo, hi] = extent(series.flatMap(([, v]) => v));
  lo = Math.min(lo, 0);
  hi = Math.max(hi, 0);
  if (hi - lo < 1e-6) {
    lo -= 1;
    hi += 1;
  }
  const end = Math.max(times[times.length - 1] ?? 0, 1e-3);
  const px = (t) => x + (t / end) * w;
  const py = (v) => y + h - ((v - lo) / (hi - lo)) * h;
  g.strokeStyle = '#999';
  g.lineWidth = 1;
  g.strokeRect(x, y, w, h);
  g.fillStyle = '#333';
  g.font = '12px system-ui';
  g.fillText(title, x, y - 6);
  g.fillText(hi.toFixed(2), x - 44, y + 10);
  g.fillText(lo.toFixed(2), x - 44, y + h);
  g.fillText('0 s', x, y + h + 14);
  g.fillText(`${end.toFixed(2)} s`, x + w - 40, y + h + 14);
  if (lo < 0 && hi > 0) {
    g.strokeStyle = '#ddd';
    g.beginPath();
    g.moveTo(x, py(0));
    g.lineTo(x + w, py(0));
    g.stroke();
  }
  let points = 0;
  series.forEach(([label, values], s) => {
    g.strokeStyle = COLORS[s];
    g.fillStyle = COLORS[s];
    g.lineWidth = 1.5;
    g.beginPath();
    values.forEach((v, i) => {
      if (!Number.isFinite(v)) return;
      if (i === 0) g.moveTo(px(times[i]), py(v));
      else g.lineTo(px(times[i]), py(v));
      points++;
    });
    g.stroke();
    if (values.length < 80) {
      values.forEach((v, i) => Number.isFinite(v) && g.fillRect(px(times[i]) - 1.5, py(v) - 1.5, 3, 3));
    }
    g.fillText(label, x + w + 10, y + 14 + s * 16);
  });
  return points;
}

function plotBone(frames, translation) {
  const canvas = $('plot');
  const g = canvas.getContext('2d');
  g.clearRect(0, 0, canvas.width, canvas.height);
  const count = frames.length / 8;
  const column = (k) => Array.from({ length: count }, (_, i) => frames[i * 8 + k]);
  const times = column(0);
  const w = canvas.width - 120;
  let points = panel(g, [60, 24, w, translation ? 170 : 370], 'Rotation (quaternion)', times,
    [['x', column(1)], ['y', column(2)], ['z', column(3)], ['w', column(4)]]);
  if (translation) {
    points += panel(g, [60, 244, w, 170], 'Translation', times,
      [['x', column(5)], ['y', column(6)], ['z', column(7)]]);
  }
  canvas.dataset.points = String(points);
}

const SHOWN_ROWS = 1000;

/** The entries whose names match the filter (the first SHOWN_ROWS); a click opens one, its box
 * ticks it for removal. */
function showArchive(r) {
  $('archive-section').hidden = false;
  const shown = r.entries.map((_, i) => i).filter((i) => matches(r.entries[i].name));
  $('archive-count').textContent = `${r.entries.length} entries`
    + (shown.length < r.entries.length ? `, ${shown.length} match the filter` : '')
    + (shown.length > SHOWN_ROWS ? `, first ${SHOWN_ROWS} shown` : '')
    + '; click one to open it';
  const first = shown.slice(0, SHOWN_ROWS);
  fill($('entries'), first.map((i) => {
    const e = r.entries[i];
    return [e.name, e.offset, e.size, e.format ?? '–'];
  }), openEntry, first);
  [...$('entries').tBodies[0].rows].forEach((row, position) => {
    const index = first[position];
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.checked = ticked.has(index);
    box.setAttribute('aria-label', `Select ${r.entries[index].name}`);
    box.addEventListener('click', (event) => event.stopPropagation());
    box.addEventListener('change', () => {
      if (box.checked) ticked.add(index);
      else ticked.delete(index);
      $('archive-remove').disabled = ticked.size === 0;
    });
    const td = document.createElement('td');
    td.appendChild(box);
    td.addEventListener('click', (event) => event.stopPropagation());
    row.appendChild(td);
  });
  $('archive-remove').disabled = ticked.size === 0;
}

/** Sends an edit of the archive shown to the worker, which lists the result. */
function editArchive(message, what) {
  if (!archiveResult) return;
  status(`${what}…`);
  document.body.dataset.state = 'decoding';
  send(message);
}

/** An IDE: its sections (definitions and other lines in each) and its definitions. */
function showDefinitions(r) {
  $('definition-section').hidden = false;
  const sections = Object.entries(r.sections);
  $('definition-counts').textContent = `${plural(r.objects.length, 'definition')}`
    + (sections.length ? ` in ${sections.map(([s, n]) => `${s || '(outside)'} (${n})`).join(', ')}` : '');
  fill($('definitions'), r.objects.slice(0, SHOWN_ROWS));
  $('definitions-more').textContent = r.objects.length > SHOWN_ROWS
    ? `First ${SHOWN_ROWS} of ${r.objects.length} shown.` : '';
}

function showPlacements(r) {
  $('placement-section').hidden = false;
  $('placement-counts').textContent = `${r.instances.length} instances, ${r.cars.length} car generators`
    + (r.lines ? `, ${r.lines} other section lines` : '');
  fill($('instances'), r.instances.slice(0, SHOWN_ROWS).map(([id, name, interior, x, y, z, lod]) =>
    [id, name ?? '–', interior, number(x), number(y), number(z), lod]));
  $('instances-more').textContent = r.instances.length > SHOWN_ROWS
    ? `First ${SHOWN_ROWS} of ${r.instances.length} shown.` : '';
  drawMap(r);
}

/** Top-down scatter of the instances (x east, y north) and car generators. */
function drawMap(r) {
  const canvas = $('map');
  const g = canvas.getContext('2d');
  g.clearRect(0, 0, canvas.width, canvas.height);
  const points = [...r.instances.map((i) => [i[3], i[4]]), ...r.cars.map((c) => [c[1], c[2]])]
    .filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y));
  if (!points.length) {
    canvas.dataset.points = '0';
    return;
  }
  let [x0, x1] = extent(points.map((p) => p[0]));
  let [y0, y1] = extent(points.map((p) => p[1]));
  const span = Math.max(x1 - x0, y1 - y0, 1) * 1.1;
  const [cx, cy] = [(x0 + x1) / 2, (y0 + y1) / 2];
  [x0, y0] = [cx - span / 2, cy - span / 2];
  const size = canvas.width;
  const px = (x) => ((x - x0) / span) * size;
  const py = (y) => size - ((y - y0) / span) * size;
  // Few points are drawn larger, so that a small file is still readable.
  const dot = points.length < 500 ? 6 : 3;
  const instanceColor = 'rgba(31, 119, 180, 0.7)';
  g.fillStyle = instanceColor;
  for (const i of r.instances) g.fillRect(px(i[3]) - dot / 2, py(i[4]) - dot / 2, dot, dot);
  g.fillStyle = '#d62728';
  for (const c of r.cars) g.fillRect(px(c[1]) - dot, py(c[2]) - dot, dot * 2, dot * 2);
  g.fillStyle = '#333';
  g.font = '12px system-ui';
  g.fillText(`x ${x0.toFixed(0)} … ${(x0 + span).toFixed(0)}, y ${y0.toFixed(0)} … ${(y0 + span).toFixed(0)}`, 6, 14);
  g.fillStyle = instanceColor;
  g.fillText('■ instances', 6, size - 22);
  g.fillStyle = '#d62728';
  g.fillText('■ car generators', 6, size - 8);
  canvas.dataset.points = String(points.length);
}

$('file').addEventListener('change', (e) => open(e.target.files));
$('folder').addEventListener('change', (e) => pickedFolder(e.target.files));
$('back').addEventListener('click', () => archiveResult && show(archiveResult));
$('save').addEventListener('click', () => {
  status(`Converting to ${$('save-format').value}…`);
  send({ type: 'convert', format: $('save-format').value });
});
$('archive-add').addEventListener('change', (e) => {
  const files = [...e.target.files];
  e.target.value = '';
  if (files.length) editArchive({ type: 'archive-add', files }, `Adding ${files.length} files`);
});
$('archive-remove').addEventListener('click', () => {
  const names = [...ticked].map((i) => archiveResult.entries[i].name);
  if (names.length) editArchive({ type: 'archive-remove', names }, `Removing ${names.length} entries`);
});
$('archive-save').addEventListener('click', () => send({ type: 'archive-save' }));
$('filter').addEventListener('input', () => {
  if (!result) return;
  if (result.entries) showArchive(result);
  else if (result.animations && !$('animation-section').hidden) showAnimations(result);
});
document.addEventListener('dragover', (e) => {
  e.preventDefault();
  document.body.classList.add('dragging');
});
document.addEventListener('dragleave', () => document.body.classList.remove('dragging'));
document.addEventListener('drop', (e) => {
  e.preventDefault();
  document.body.classList.remove('dragging');
  // A dropped folder is walked (its entries are to be taken now, during the event).
  const folder = [...(e.dataTransfer.items ?? [])].map((item) => item.webkitGetAsEntry?.())
    .find((entry) => entry?.isDirectory);
  if (folder) {
    status(`Reading the folder ${folder.name}…`);
    folderFiles(folder).then((files) => openFolder(files, folder.name),
      (error) => status(`Cannot read the folder ${folder.name}: ${error.message}`, true));
    return;
  }
  open(e.dataTransfer.files);
});

/** Asks the worker for the pose at the player's time (one request at a time; a newer time
 * waits for the answer), and poses the 3D view at once. */
function requestPose() {
  if (selected.animation < 0) return;
  showInView();
  if (player.pending) {
    player.dirty = true;
    return;
  }
  player.pending = true;
  player.dirty = false;
  send({ type: 'pose', animation: selected.animation, time: player.time,
    loop: $('pose-loop').checked });
}

/** The 3D view at the player's time. Looped, the length itself is the start again, as the
 * sampler wraps it (each bone on its own keys there; the glTF's channels only by the
 * animation's length, docs/ANIMATION.md). */
function showInView() {
  const a = result?.animations?.[selected.animation];
  if (!model.view || !a) return;
  const wrapped = $('pose-loop').checked && player.length > 0 && player.time >= player.length
    ? player.time % player.length : player.time;
  model.view.show(a.name, wrapped);
}

function showPose({ animation, time, pose, error }) {
  $('pose-at').textContent = `${time.toFixed(3)} s`;
  const table = $('pose');
  if (error) {
    $('pose-title').textContent = `Pose of ${result?.animations?.[animation]?.name ?? ''}`;
    fill(table, [[`Cannot sample: ${error}`]]);
    table.dataset.time = '';
    return;
  }
  const four = (v) => (v === null ? '–' : v.toFixed(4));
  fill(table, pose.bones.map((b) => [b.name ?? '–', b.bone_id ?? '–', ...b.rotation.map(four),
    b.translation ? b.translation.map(four).join(' ') : '–']));
  $('pose-title').textContent = `Pose of ${pose.animation} at ${time.toFixed(3)} s`;
  table.dataset.time = String(time);
}

function tick(now) {
  if (!player.playing) return;
  const step = ((now - player.last) / 1000) * Number($('pose-speed').value);
  player.last = now;
  let t = player.time + step;
  if (t >= player.length) {
    if ($('pose-loop').checked && player.length > 0) {
      t %= player.length;
    } else {
      t = player.length;
      setPlaying(false);
    }
  }
  player.time = t;
  $('pose-time').value = String(t);
  requestPose();
  requestAnimationFrame(tick);
}

/** No pose is asked for the file shown before (it plays no more, its animation is unpicked). */
function stopPlayer() {
  setPlaying(false);
  selected = { animation: -1, bone: -1 };
}

function setPlaying(playing) {
  player.playing = playing;
  $('play').textContent = playing ? 'Pause' : 'Play';
  if (playing) {
    player.last = performance.now();
    requestAnimationFrame(tick);
  }
}

$('play').addEventListener('click', () => setPlaying(!player.playing));
$('pose-time').addEventListener('input', () => {
  player.time = Number($('pose-time').value);
  requestPose();
});
$('pose-loop').addEventListener('change', requestPose);

/** Makes `name` the model animations play on (`message` hands its bytes to the worker). */
function useModel(name, message) {
  model.name = name;
  send(message);
  $('model-name').textContent = `on ${name}`;
}

/** The 3D view of the file shown: created from the glTF the worker wrote (three.js is loaded
 * the first time), or the reason it cannot be. */
async function showView({ bytes, report }) {
  closeView();
  try {
    const { createViewer } = await import('./viewer.js');
    const view = await createViewer($('view3d'), bytes);
    model.view = view;
    model.report = report;
    window.gtastreamView = view;
    $('view3d').hidden = !view.drawn;
    $('save-glb').hidden = false;
    const left = report.unwritten.length;
    $('unbound').textContent = `${report.animations} animations on ${model.name}`
      + (left ? `; ${left} tracks bind to no frame of it (marked in red in the bones table)` : '')
      + (view.drawn ? '' : '; this browser has no WebGL: nothing is drawn');
    markUnbound();
    showInView();
    document.body.dataset.view = 'ready';
  } catch (e) {
    $('unbound').textContent = `Cannot show in 3D: ${e.message}`;
    $('unbound').classList.add('error');
    document.body.dataset.view = 'failed';
  }
}

/** No 3D view (another file is opened). */
function closeView() {
  model.view?.dispose();
  model.view = null;
  model.report = null;
  window.gtastreamView = null;
  $('view3d').hidden = true;
  $('save-glb').hidden = true;
  $('unbound').textContent = '';
  $('unbound').classList.remove('error');
  delete document.body.dataset.view;
}

/** Marks the rows of the bones table whose track binds to no frame of the model. */
function markUnbound() {
  const a = result?.animations?.[selected.animation];
  const left = (model.report?.unwritten ?? []).filter((u) => a && u.animation === a.name);
  [...$('bones').tBodies[0].rows].forEach((row, i) => {
    const u = left.find((x) => x.track === i);
    row.classList.toggle('unbound', u !== undefined);
    row.title = u ? u.message : '';
  });
}

$('model-file').addEventListener('change', (e) => {
  const file = e.target.files[0];
  if (!file) return;
  useModel(file.name, { type: 'model-file', file });
  document.body.dataset.view = 'loading';
  send({ type: 'gltf' });
});
$('model-use').addEventListener('click', () => {
  useModel($('entry-name').textContent !== '–' ? $('entry-name').textContent
    : $('file-name').textContent, { type: 'model-use' });
  status(`${model.name} is the model animations play on.`);
});
$('save-glb').addEventListener('click', () => {
  if (selected.animation >= 0) send({ type: 'gltf-save', animation: selected.animation });
});
