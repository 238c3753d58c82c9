// Compiled (not run) by `npm test`: the README's uses type-check against dist/*.d.ts.
import IFPReaderDefault from '../../dist/ifp-reader.js';
import {
  type ArchiveListing, type Callbacks, type CheckFolderDocument, type CheckFolderFinding,
  type CheckFolderInput, type CheckInput, checkFolder, checkFolderJson, DecodeError, Decoder, EncodeError,
  type GtaDocument, IFPReader, type DffFrame, type PoseOnModel, type Progress, check, convert,
  decode, decodeEntry, decodeStream, type FolderFile, folderFromDirectory, folderFromFiles,
  type FolderSource, type FromGltfResult, fromGltf, type GltfResult, ls, lsBlob, sample, toGltf,
  type UnreadableFile,
} from '../../dist/index.js';

/** A model and a skeleton: the DFF document, the record callbacks, sample and check on it. */
export function models(dff: Uint8Array, anim: Uint8Array): number {
  const doc = decode(dff);
  const bones = (doc.frames ?? []).filter((f) => f.bone_id !== null).length;
  const frames: DffFrame[] = [];
  const decoder = new Decoder({
    dffFrame: (f) => void frames.push(f),
    record: (kind, record) => (kind === 'dff_hanim' ? undefined : void record),
    sectionLine: (line) => void line.text.length,
  });
  decoder.feed(dff);
  decoder.finish();
  const pose: PoseOnModel = sample(anim, 'walk', 0.5, { skeleton: dff, game: 'sa' });
  const bound = pose.bones.filter((b) => b.frame !== null).length + pose.frames[0].matrix.length;
  const findings = check(anim, { skeleton: dff }).inputs[0].findings.length;
  const gltf: GltfResult = toGltf(anim, dff, { animations: ['walk'], game: 'vc', json: false });
  const left = gltf.unwritten.filter((u) => u.reason === 'no_such_id' && u.key === undefined);
  const back: FromGltfResult = fromGltf(gltf.bytes, { format: 'anpk', skeleton: dff,
    boneMap: 'mixamorig:Hips = Pelvis', resample: 60, games: ['vc'], report: true });
  void back.report.map((r) => r.angle + r.position);
  return gltf.bytes.length + left.length + bones + frames.length + bound + findings + (doc.skin?.bones ?? 0);
}

export async function usage(bytes: Uint8Array, file: Blob): Promise<number> {
  const doc: GtaDocument = decode(bytes, { canSeek: false });
  // A file's layout: its stored lines, an ANLF's blocks.
  const line: string | null | undefined = doc.stored?.find((s) => s.item === 'text')?.raw;
  const header: Uint8Array | null | undefined = doc.blocks?.[0]?.raw;
  void [line, header, doc.container_size ?? 0];
  const reader: IFPReader = new IFPReaderDefault(bytes);
  const walk = reader.getAnimation('WALK_player');
  const q: [number, number, number, number] | undefined = walk?.bones[0]?.frames[0]?.quaternion;
  const callbacks: Callbacks = {
    bone: (b) => (b.frame_count > 1000 ? 'pause' : undefined),
    keyframes: (frames) => void frames[0]?.translation?.[0],
    warning: (w) => console.warn(w.kind, w.offset),
  };
  const decoder = new Decoder(callbacks, { canSeek: true });
  const progress: Progress = decoder.feed(bytes);
  if (typeof progress.status === 'object') return progress.status.seek;
  decoder.finish();
  await decodeStream(file, callbacks);
  await decodeStream(file.stream(), {});
  try {
    decode(bytes);
  } catch (e) {
    if (e instanceof DecodeError) return e.offset + e.kind.length + e.reason.length;
  }
  const listing: ArchiveListing = ls(bytes, bytes.subarray(0, 32));
  const streamed: ArchiveListing = await lsBlob(file);
  const converted: Uint8Array = convert(bytes, 'ANPK', { quantize: false });
  if (streamed.entries.length > converted.length) throw new EncodeError('kind', 'message');
  // The check of a version 1 archive: the verdict by game, one group per rule.
  const checked: CheckInput | undefined = check(bytes, { name: 'gta3.img', dir: bytes }).inputs[0];
  const vcErrors: number = checked?.summary.games.vc.errors ?? 0;
  const spread: string = checked?.groups[0]?.spread ?? '';
  if (checked?.games_from === 'file' && vcErrors + spread.length > 0) return vcErrors;
  const first = listing.entries[0];
  const entry: GtaDocument | undefined = first && decodeEntry(bytes, first.name);
  return (entry?.animations?.length ?? 0) + (first?.size ?? 0) + (doc.animations?.length ?? 0)
    + (q?.[3] ?? 0) + reader.packageName.length;
}

/** A game or mod folder (`check DIR`): from a directory in Node, from a worker's dropped files,
 * and from a source of one's own. */
export async function folders(root: string, dropped: [string, File][]): Promise<number> {
  const fromDisk: CheckFolderDocument = checkFolder(await folderFromDirectory(root), { game: 'sa' });
  const input: CheckFolderInput | undefined = fromDisk.inputs[0];
  const finding: CheckFolderFinding | undefined = input?.findings[0];
  const where = `${finding?.path}:${finding?.line ?? finding?.entry ?? ''} ${finding?.other ?? ''}`;
  const unreadable: UnreadableFile[] = input?.unreadable ?? [];
  const text: string = checkFolderJson(folderFromFiles(dropped), { name: 'mod' });
  const bytes = new Uint8Array(8);
  const own: FolderSource = {
    open: (path: string): FolderFile | null => (path === 'data/gta.dat'
      ? { size: bytes.length, read: (offset, length) => bytes.subarray(offset, offset + length) }
      : null),
  };
  const loads = checkFolder(own).inputs[0]?.verdict === 'loads';
  return where.length + unreadable.length + text.length + (loads ? 1 : 0) + (input?.entries ?? 0);
}
