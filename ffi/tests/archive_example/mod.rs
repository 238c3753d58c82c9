//! The `img_walk` example (c-examples/img_walk.c): IMG archives of both versions, holding every
//! test file (good, damaged and junk, data out of directory order), walked from the C side
//! with fopen/fseek; its output must be what the core's archive decoder reports.

use gtastream::Record;
use std::fmt::Write as _;
use std::path::Path;

use gtastream_core::archive::{
    ArchiveDecoder, ArchiveInfo, ArchiveVersion, ArchiveVisitor, ArchiveWarning, Choice, Entry,
};
use gtastream_core::{AnimationInfo, Error, Flow, Keyframes, Visitor, Warning};

const SECTOR: usize = 2048;

/// The `.img` data (entries in reverse order, after room for the directory), the version 2
/// file and the version 1 `.dir`.
fn archives(files: &[(String, Vec<u8>)]) -> (Vec<u8>, Vec<u8>, Vec<u8>) {
    let first = (8 + 32 * files.len()).div_ceil(SECTOR);
    let total: usize = files.iter().map(|(_, b)| b.len().div_ceil(SECTOR)).sum();
    let mut data = vec![0u8; (first + total) * SECTOR];
    let mut at = first + total;
    let mut dir = Vec::new();
    let mut v2_records = Vec::new();
    for (name, bytes) in files {
        let sectors = bytes.len().div_ceil(SECTOR);
        at -= sectors;
        data[at * SECTOR..at * SECTOR + bytes.len()].copy_from_slice(bytes);
        let mut field = [0u8; 24];
        field[..name.len()].copy_from_slice(name.as_bytes());
        dir.extend_from_slice(&(at as u32).to_le_bytes());
        dir.extend_from_slice(&(sectors as u32).to_le_bytes());
        dir.extend_from_slice(&field);
        v2_records.extend_from_slice(&(at as u32).to_le_bytes());
        v2_records.extend_from_slice(&(sectors as u16).to_le_bytes());
        v2_records.extend_from_slice(&[0, 0]);
        v2_records.extend_from_slice(&field);
    }
    let mut v2 = data.clone();
    v2[..4].copy_from_slice(b"VER2");
    v2[4..8].copy_from_slice(&(files.len() as u32).to_le_bytes());
    v2[8..8 + v2_records.len()].copy_from_slice(&v2_records);
    (data, v2, dir)
}

/// The program's output, from the core: the same text for the same events.
#[derive(Default)]
struct Expected {
    out: String,
    counts: [u64; 5],
    decoded: u64,
    failed: u64,
}

impl Visitor for Expected {
    fn animation(&mut self, _: &AnimationInfo<'_>) -> Flow {
        self.counts[0] += 1;
        Flow::Continue
    }
    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        self.counts[1] += frames.len() as u64;
        Flow::Continue
    }
    fn record(&mut self, record: &Record<'_>) -> Flow {
        match record {
            Record::Instance(_) => {
                self.counts[2] += 1;
                Flow::Continue
            }
            Record::Car(_) => {
                self.counts[3] += 1;
                Flow::Continue
            }
            _ => Flow::Continue,
        }
    }
    fn warning(&mut self, _: Warning) -> Flow {
        self.counts[4] += 1;
        Flow::Continue
    }
}

impl ArchiveVisitor for Expected {
    fn archive(&mut self, info: &ArchiveInfo) -> Flow {
        let version = if info.version == ArchiveVersion::V1 {
            1
        } else {
            2
        };
        let _ = writeln!(
            self.out,
            "archive VER{version}, {} entries",
            info.entry_count
        );
        Flow::Continue
    }
    fn entry(&mut self, entry: &Entry<'_>) -> Choice {
        let _ = writeln!(
            self.out,
            "entry {} {}: offset {}, {} bytes, {}",
            entry.index,
            String::from_utf8_lossy(entry.name),
            entry.offset,
            entry.size,
            entry.format.map_or("-", |f| f.name())
        );
        self.counts = [0; 5];
        if entry.format.is_some() {
            Choice::Decode
        } else {
            Choice::Skip
        }
    }
    fn entry_end(&mut self, result: Result<(), Error>) -> Flow {
        match result {
            Ok(()) => {
                self.decoded += 1;
                let [a, k, i, c, w] = self.counts;
                let _ = writeln!(
                    self.out,
                    "  {a} animations, {k} keyframes, {i} instances, {c} cars, {w} warnings"
                );
            }
            Err(e) => {
                self.failed += 1;
                let status = format!("GTS_ERR_{}", e.kind.name().to_uppercase());
                let _ = writeln!(self.out, "  failed: {status} at offset {}", e.offset);
            }
        }
        Flow::Continue
    }
    fn archive_warning(&mut self, w: ArchiveWarning) -> Flow {
        let _ = writeln!(
            self.out,
            "warning {}: record at offset {} (entry {})",
            w.kind.name(),
            w.offset,
            w.index
        );
        Flow::Continue
    }
}

/// Runs `img_walk` (through `run(program, args)`) on both versions of an archive of `files`,
/// written into `dir`.
pub fn check(
    files: &[(String, Vec<u8>)],
    dir: &Path,
    run: impl Fn(&str, &[&Path]) -> (i32, String, String),
) {
    let (data, v2, v1_dir) = archives(files);
    let v2_path = dir.join("test.img");
    let img_path = dir.join("old.img");
    let dir_path = dir.join("old.dir");
    std::fs::write(&v2_path, &v2).unwrap();
    std::fs::write(&img_path, &data).unwrap();
    std::fs::write(&dir_path, &v1_dir).unwrap();

    let mut expected = Expected::default();
    ArchiveDecoder::new(v2.len() as u64)
        .decode_slice(&v2, &mut expected)
        .unwrap();
    let _ = writeln!(
        expected.out,
        "done: {} decoded, {} failed",
        expected.decoded, expected.failed
    );
    assert!(
        expected.failed > 0 && expected.decoded > 0,
        "{}",
        expected.out
    );
    let (code, out, err) = run("img_walk", &[&v2_path]);
    assert_eq!(code, 0, "img_walk: {err}");
    assert_eq!(out, expected.out, "img_walk VER2");

    let mut expected = Expected::default();
    ArchiveDecoder::version1(v1_dir.len() as u64, data.len() as u64)
        .decode_slices(&v1_dir, &data, &mut expected)
        .unwrap();
    let _ = writeln!(
        expected.out,
        "done: {} decoded, {} failed",
        expected.decoded, expected.failed
    );
    let (code, out, err) = run("img_walk", &[&dir_path, &img_path]);
    assert_eq!(code, 0, "img_walk (VER1): {err}");
    assert_eq!(out, expected.out, "img_walk VER1");

    // Not an archive: a clear error, status 1.
    let (code, _, err) = run("img_walk", &[&dir_path]);
    assert_eq!(code, 1);
    assert!(err.contains("GTS_ERR_BAD_MAGIC"), "{err}");
}
