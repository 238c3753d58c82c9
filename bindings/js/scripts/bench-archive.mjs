// Speed of writing IMG archives in Node: node scripts/bench-archive.mjs [ROUNDS] [ls]. Two
// archives built here: 256 entries of 1 MiB (256 MiB), and 16000 entries of 4 KB (the entry
// count of a stock gta3.img). Each call is timed (best of ROUNDS, in this process) beside
// copying the archive's bytes, and the module's memory is reported (it must not grow with the
// archive). Then lsBlob of both as VER2 and as a version 1 pair, with the Blob.slice calls it
// made and the bytes they read; `ls` runs only that part.
import {
  addEntries, addEntriesBlob, lsBlob, removeEntries, writeArchive,
} from '../dist/index.js';
import { wasm } from '../dist/wasm.js';

const rounds = Number(process.argv[2] ?? 3);
const onlyListing = process.argv[3] === 'ls';
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

const shapes = [[256, MiB - 100], [16000, 4000]];
const entriesOf = (count, size) => Array.from({ length: count }, (_, i) =>
  ({ name: `e${i}.dat`, data: new Uint8Array(size).fill(i & 0xff) }));

for (const [count, size] of onlyListing ? [] : shapes) {
  const entries = entriesOf(count, size);
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

/** A Blob of `bytes` that counts the slices read from it and their bytes. */
function counted(bytes, reads) {
  const blob = new Blob([bytes]);
  return {
    size: blob.size,
    slice(start, end) {
      reads.slices += 1;
      reads.bytes += end - start;
      return blob.slice(start, end);
    },
  };
}

for (const [count, size] of shapes) {
  const entries = entriesOf(count, size);
  for (const version of [2, 1]) {
    const { img, dir } = writeArchive(entries, { version });
    const blobs = [new Blob([img]), dir ? new Blob([dir]) : undefined];
    const reads = { slices: 0, bytes: 0 };
    await lsBlob(counted(img, reads), dir ? counted(dir, reads) : undefined);
    const read = `${reads.slices} slices, ${(reads.bytes / MiB).toFixed(1)} MiB read`;
    console.log(`${await best(() => lsBlob(...blobs))}  lsBlob, ${count} entries of ${size} bytes, `
      + `version ${version} (${read})`);
  }
}
console.log(`the module's memory: ${(wasm().memory.buffer.byteLength / MiB).toFixed(2)} MiB`);
