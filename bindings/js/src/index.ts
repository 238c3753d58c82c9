// gtastream for JavaScript: the Rust library compiled to WebAssembly (bindings/js/wasm/).
import { autoInit } from './wasm.js';

// Loaded once at import (top-level await), so that every call below is synchronous.
await autoInit();

export { decodeEntry, decodeEntryJson, ls, lsBlob, lsJson } from './archive.js';
export {
  type ConvertOptions, convert, type TargetFormat, write, type WriteOptions,
} from './convert.js';
export {
  check, type CheckCounts, type CheckDocument, type CheckFinding, type CheckGame, type CheckGroup,
  type CheckInput, checkJson, type CheckOptions, type CheckSummary,
} from './check.js';
export {
  checkFolder, type CheckFolderDocument, type CheckFolderFinding, type CheckFolderInput,
  checkFolderJson, type CheckFolderOptions, type FolderFile, type FolderGame, folderFromDirectory,
  folderFromFiles, folderKey, folderOver, type FolderSource, type UnreadableFile,
} from './folder.js';
export { decode, decodeJson, sample, summaries } from './decode.js';
export {
  fromGltf, type FromGltfOptions, type FromGltfResult, type GltfBoneReport, type GltfOptions,
  type GltfReport, type GltfResult, type GltfUnwritten, toGltf,
} from './gltf.js';
export {
  type AnimationInfo, type BoneInfo, type Callbacks, Decoder, type DecoderOptions,
  type DecodeStreamOptions, decodeStream, type FileInfo, type Flow, type Progress, type Status,
  type StreamSource,
} from './decoder.js';
export { type IFPAnimation, type IFPBone, type IFPFrame, IFPReader } from './ifp.js';
export {
  addEntries, addEntriesBlob, ArchiveError, type EditReport, type EntryName, type NewEntry,
  type NewEntryBlob, rebuildArchive, rebuildArchiveBlob, removeEntries, removeEntriesBlob,
  writeArchive, type WriteArchiveOptions, type WrittenArchive, type WrittenArchiveBlob,
} from './archive-write.js';
export type * from './types.js';
export { DecodeError, EncodeError, type ErrorContext, init, type WasmSource } from './wasm.js';
