// Game and mod folders built in code (the shapes of testkit/src/folder.rs: the level files, text
// IPLs, IDEs and IMG archives of a San Andreas, Vice City or GTA III install, upper-case paths
// written with `\` in the level files, files on disk in other cases), as [path, bytes] lists.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { anp3, bnry, imgVer1, imgVer2 } from './fixtures.mjs';

const text = (s) => new TextEncoder().encode(s);

/** A San Andreas IDE of one `objs` section defining `ids`. */
function saIde(ids) {
  return text(`# built in code\r\nobjs\r\n${ids.map((id) => `${id}, lae_m${id}, lae_txd, 100, 0\r\n`)
    .join('')}end\r\n`);
}

/** A San Andreas text IPL of one `inst` section: [id, name, lod]. */
function saTextIpl(instances) {
  return text(`# built in code\r\ninst\r\n${instances.map(([id, name, lod], i) =>
    `${id}, ${name}, 0, ${i * 10}.5, -20.25, 10, 0, 0, 0, 1, ${lod}\r\n`).join('')}end\r\ncull\r\nend\r\n`);
}

/** A binary stream IPL of `lods.length` instances of model `id`, with these LOD indexes. */
export function streamIpl(id, lods) {
  return bnry(lods.map((lod, i) => ({ position: [i, 2, 3], rotation: [0, 0, 0, 1], model_id: id,
    interior: 0, lod })), []);
}

/** A San Andreas folder in the shape the game ships, small (testkit's `san_andreas`): `extra`
 * lines in gta.dat before its first IPL line. A Map of path → bytes (set or delete to vary). */
export function sanAndreas(extra = '') {
  const files = new Map();
  files.set('data/default.dat', text('# default\r\nIDE DATA\\DEFAULT.IDE\r\n'));
  files.set('data/default.ide', text('objs\r\nend\r\n'));
  files.set('data/gta.dat', text(`# gta.dat\r\n${extra}IDE DATA\\MAPS\\LA\\LAE.IDE\r\n`
    + 'COLFILE 0 DATA\\MAPS\\GENERIC.COL\r\nIPL DATA\\MAPS\\LA\\LAE.IPL\r\nEXIT\r\n'
    + 'IPL DATA\\MAPS\\NOT_READ.IPL\r\n'));
  files.set('data/maps/la/lae.ide', saIde([4000, 4001, 4002, 4003]));
  files.set('data/maps/generic.col', text('COLL'));
  files.set('data/maps/la/LAe.ipl', saTextIpl([[4000, 'lae_road', -1], [4001, 'lae_roadlod', -1],
    [4002, 'x', -1], [4003, 'y', -1]]));
  files.set('models/gta3.img', imgVer2([['lae_road.dff', [0x10, 0, 0, 0, 0, 0, 0, 0]],
    ['lae.col', text('COL3')], ['lae_stream0.ipl', streamIpl(4000, [0, 3, -1])],
    ['lae_stream1.ipl', streamIpl(4000, [-1])]]));
  const int = [['interior.dff', [0x10, 0, 0, 0]], ['lae_txd.txd', [0x16, 0, 0, 0]]];
  for (let id = 4000; id < 4004; id++) int.push([`lae_m${id}.dff`, [0x10, 0, 0, 0]]);
  files.set('models/gta_int.img', imgVer2(int));
  return files;
}

/** San Andreas with findings of several rules across files and of single files: a mod archive
 * shadowing a name of gta3.img and holding a package of repeated key times, a stream IPL's LOD index past its parent's instances, a missing
 * IDE and archive, and a version 1 archive without its `.dir` (unreadable). */
export function saWithFindings() {
  const files = sanAndreas('IMG MODELS\\MOD.IMG\r\nIMG MODELS\\OLD.IMG\r\nIMG MODELS\\NOWHERE.IMG\r\n'
    + 'IDE DATA\\MAPS\\NOWHERE.IDE\r\n');
  // An animation package whose keys repeat a time: its own rules' findings, in the archive.
  const still = [{ q: [0, 0, 0, 4096], t: 0 }, { q: [0, 0, 0, 4096], t: 0 }];
  files.set('models/mod.img', imgVer2([['lae_road.dff', text('x')],
    ['spraycan.ifp', anp3('spraycan', [{ name: 'spray', bones: [{ name: 'Root', type: 3, id: 0,
      frames: still }] }])]]));
  files.set('models/gta3.img', imgVer2([['lae_stream0.ipl', streamIpl(4000, [7])],
    ['lae_road.dff', text('d')]]));
  files.set('models/old.img', imgVer1([['old.dff', text('o')]]).img);
  return files;
}

/** Vice City: gta_vc.dat, CDIMAGE lines (one after the first IPL line), version 1 archives. */
export function viceCity() {
  const files = new Map();
  files.set('data/default.dat', text('IDE DATA\\DEFAULT.IDE\r\n'));
  files.set('data/default.ide', text('objs\r\nend\r\n'));
  files.set('data/gta_vc.dat', text('CDIMAGE MODELS\\EXTRA.IMG\r\nIDE DATA\\MAPS\\A.IDE\r\n'
    + 'IPL DATA\\MAPS\\A.IPL\r\nCDIMAGE MODELS\\LATE.IMG\r\n'));
  files.set('data/maps/a.ide', text('objs\r\n100, a, a, 1, 100, 0\r\nend\r\n'));
  files.set('data/maps/a.ipl', text('inst\r\n100, a, 0, 1, 2, 3, 1, 1, 1, 0, 0, 0, 1\r\nend\r\n'));
  const gta3 = imgVer1([['a.dff', text('x')], ['a.txd', text('t')]]);
  files.set('models/gta3.dir', gta3.dir).set('models/gta3.img', gta3.img);
  const b = imgVer1([['b.dff', text('x')]]);
  files.set('models/extra.dir', b.dir).set('models/extra.img', b.img);
  files.set('models/late.dir', b.dir).set('models/late.img', b.img);
  return files;
}

/** GTA III: gta3.dat, a late CDIMAGE whose names shadow gta3.img's. */
export function iii() {
  const files = new Map();
  files.set('data/gta3.dat', text('IDE DATA\\MAPS\\A.IDE\r\nIPL DATA\\MAPS\\A.IPL\r\n'
    + 'CDIMAGE MODELS\\LATE.IMG\r\n'));
  files.set('data/maps/a.ide', text('objs\r\n100, a, a, 1, 100, 0\r\nend\r\n'));
  files.set('data/maps/a.ipl', text('inst\r\n100, a, 1, 2, 3, 1, 1, 1, 0, 0, 0, 1\r\nend\r\n'));
  const a = imgVer1([['a.dff', text('x')]]);
  files.set('models/gta3.dir', a.dir).set('models/gta3.img', a.img);
  files.set('models/late.dir', a.dir).set('models/late.img', a.img);
  return files;
}

/** Writes the files under a new temporary folder: its path. */
export function writeFolder(files, name = 'folder') {
  const root = mkdtempSync(join(tmpdir(), `gtastream-${name}-`));
  for (const [path, bytes] of files) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), bytes);
  }
  return root;
}
