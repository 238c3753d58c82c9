// The installed package against the command-line tool: for every file in DIR, decode() must give
// the document `gtastream dump --json` prints (decodeJson() its exact text), and throw a
// DecodeError with the tool's message where the tool fails; the same with `--no-seek` and
// canSeek: false. check() and checkJson() must give what `gtastream check --json` prints
// (findings, groups, summary, the games read from the file). Run from a folder where the packed package is installed:
//   node compare-cli.mjs path/to/gtastream DIR
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { check, checkJson, DecodeError, decode, decodeJson } from 'gtastream';
import IFPReader from 'gtastream/ifp-reader';

/** decode()'s document in the JSON text's terms: stored units (Uint8Array) as hex strings.
 * (This file is copied to the packed package's folder alone: test/events.mjs is not there.) */
function asJson(doc) {
  const copy = (value) => {
    if (value instanceof Uint8Array) return Buffer.from(value).toString('hex');
    if (Array.isArray(value)) return value.map(copy);
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copy(v)]));
    }
    return value;
  };
  return copy(doc);
}

const [cli, dir] = process.argv.slice(2);
const formats = new Set();
let compared = 0;
let failures = 0;
for (const name of readdirSync(dir).sort()) {
  const path = join(dir, name);
  const bytes = new Uint8Array(readFileSync(path));
  for (const noSeek of [false, true]) {
    const args = ['dump', '--json', ...(noSeek ? ['--no-seek'] : []), path];
    const tool = spawnSync(cli, args, { encoding: 'utf8', maxBuffer: 1 << 30 });
    const options = { canSeek: !noSeek };
    const label = `${name}${noSeek ? ' (no seek)' : ''}`;
    if (tool.status === 0) {
      assert.equal(decodeJson(bytes, options), tool.stdout, `${label}: text differs`);
      const doc = decode(bytes, options);
      // Stored units are Uint8Array in JS, hex strings in the JSON text.
      assert.deepEqual(asJson(doc), JSON.parse(tool.stdout), label);
      formats.add(doc.format);
      if (doc.animations && !noSeek) {
        const ifp = new IFPReader(bytes);
        assert.deepEqual(ifp.animations.map((a) => [a.name, a.bones.length]),
          doc.animations.map((a) => [a.name, a.bones.length]), label);
      }
    } else {
      assert.throws(() => decode(bytes, options), (e) => {
        assert.ok(e instanceof DecodeError, `${label}: ${e}`);
        assert.ok(tool.stderr.includes(`: ${e.message}`), `${label}: ${tool.stderr} / ${e.message}`);
        return true;
      }, label);
      failures++;
    }
    compared++;
  }
}
console.log(`${compared} decodes equal to the tool's (${failures} failing alike); formats: ${[...formats].sort().join(' ')}`);
for (const format of ['ANIM', 'ANP2', 'ANP3', 'ANPK', 'bnry', 'text', 'dff']) {
  assert.ok(formats.has(format), `no fixture of format ${format}`);
}

// check(): the games from the file (no games named), then San Andreas named.
let checked = 0;
for (const name of readdirSync(dir).sort()) {
  const path = join(dir, name);
  const bytes = new Uint8Array(readFileSync(path));
  for (const games of [undefined, ['sa']]) {
    const flags = games ? ['--game', 'sa'] : [];
    const tool = spawnSync(cli, ['check', '--json', ...flags, path], { encoding: 'utf8', maxBuffer: 1 << 30 });
    if (tool.status !== 0 && tool.status !== 1) continue;
    const options = games ? { name: path, games } : { name: path };
    assert.equal(checkJson(bytes, options), tool.stdout, `check ${name} ${games}: text differs`);
    const [input] = check(bytes, options).inputs;
    assert.equal(input.games_from, games ? 'caller' : 'file', name);
    checked++;
  }
}
console.log(`${checked} checks equal to the tool's`);
assert.ok(checked > 0, 'no file checked');
