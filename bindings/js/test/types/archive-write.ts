// Compiled (not run) by `npm test`: docs/JS.md's archive writing type-checks against dist/*.d.ts.
import {
  addEntries, addEntriesBlob, ArchiveError, type EditReport, type NewEntry, removeEntries,
  removeEntriesBlob, writeArchive, type WrittenArchive, type WrittenArchiveBlob,
} from '../../dist/index.js';

export async function archiveWriting(bytes: Uint8Array, file: File, dir?: File): Promise<number> {
  const entries: NewEntry[] = [{ name: 'walk.ifp', data: bytes }, { name: 'x.dff', data: new ArrayBuffer(8) }];
  const sa: WrittenArchive = writeArchive(entries);
  const vc: WrittenArchive = writeArchive(entries, { version: 1 });
  const dirBytes: Uint8Array | null = vc.dir;
  try {
    removeEntries(sa.img, ['missing.ifp']);
  } catch (e) {
    if (e instanceof ArchiveError) return e.index + e.kind.length + e.entry.length;
  }
  const report: EditReport = addEntries(vc.img, entries, dirBytes ?? undefined).report;
  const edited: WrittenArchiveBlob = await addEntriesBlob(file, [{ name: file.name, data: file }], dir);
  const smaller = await removeEntriesBlob(edited.img, ['walk.ifp'], edited.dir ?? undefined);
  return report.replaced + report.img_len + smaller.img.size + (smaller.dir?.size ?? 0);
}
