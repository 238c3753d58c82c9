// Speed of writing IMG archives in Node: node scripts/bench-archive.mjs [ROUNDS]. Two archives
// built here: 256 entries of 1 MiB (256 MiB), and 16000 entries of 4 KB (the entry count of a
// stock gta3.img). Each call is timed (best of ROUNDS, in this process) beside copying the
// archive's bytes, and the module's memory is reported (it must not grow with the archive).
import {
  addEntries, addEntriesBlob, lsBlob, removeEntries, writeArchive,
} from '../dist/index.js';
import { wasm } from '../dist/wasm.js';

const rounds = Number(process.argv[2] ?? 3);
const MiB = 1 << 20;

async function best(run) {
  let fastest = Infinity;
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    await run();
    fastest = Math.min(fastest, performance.now() - started);
  }
  return `${fastest.toFixed(0)} ms`.padStart(8);
}

for (const [count, size] of [[256, MiB - 100], [16000, 4000]]) {
  const entries = Array.from({ length: count }, (_, i) =>
    ({ name: `e${i}.dat`, data: new Uint8Array(size).fill(i & 0xff) }));
  const { img } = writeArchive(entries);
  const blob = new Blob([img]);
  const edit = [{ name: 'E5.DAT', data: new Uint8Array(10) }, { name: 'new.dat', data: new Uint8Array(5000) }];
  console.log(`${count} entries, ${(img.length / MiB).toFixed(0)} MiB:`);
  console.log(`${await best(() => img.slice())}  copying the bytes (Uint8Array.slice)`);
  console.log(`${await best(() => writeArchive(entries))}  writeArchive`);
  console.log(`${await best(() => addEntries(img, edit))}  addEntries (one replaced, one appended)`);
  console.log(`${await best(() => removeEntries(img, ['e1.dat']))}  removeEntries`);
  console.log(`${await best(() => lsBlob(blob))}  lsBlob (the listing the Blob edits start with)`);
  console.log(`${await best(() => addEntriesBlob(blob, edit))}  addEntriesBlob`);
}
console.log(`the module's memory: ${(wasm().memory.buffer.byteLength / MiB).toFixed(2)} MiB`);
