//! The archive decoder never allocates: the kit's counting allocator counts the allocations
//! made on the decoding thread while it decodes a whole archive of every format, in one piece
//! and in small chunks.
#![cfg(feature = "alloc")]

#[path = "../../benches/inputs/mod.rs"]
mod inputs;

use gtastream::archive::{ArchiveDecoder, ArchiveVisitor, ArchiveWarning, Choice, Entry, Input};
use gtastream::{Error, Flow, Keyframes, Status, Visitor, Warning};
use testkit::img::Img;

/// Allocations (and frees) made by `f` on this thread.
fn allocations(f: impl FnOnce()) -> usize {
    testkit::alloc_count::allocations(f).0
}

/// Counts without allocating.
#[derive(Default)]
struct Counts {
    entries: u32,
    ok: u32,
    failed: u32,
    frames: usize,
    warnings: usize,
}

impl Visitor for Counts {
    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        self.frames += frames.len();
        Flow::Continue
    }
    fn warning(&mut self, _: Warning) -> Flow {
        self.warnings += 1;
        Flow::Continue
    }
}

impl ArchiveVisitor for Counts {
    fn entry(&mut self, _: &Entry<'_>) -> Choice {
        self.entries += 1;
        Choice::Decode
    }
    fn entry_end(&mut self, result: Result<(), Error>) -> Flow {
        match result {
            Ok(()) => self.ok += 1,
            Err(_) => self.failed += 1,
        }
        Flow::Continue
    }
    fn archive_warning(&mut self, _: ArchiveWarning) -> Flow {
        self.warnings += 1;
        Flow::Continue
    }
}

/// A version 2 archive of `files` (and their `.dir`/`.img` as version 1).
fn archive(files: &[Vec<u8>]) -> (Vec<u8>, Vec<u8>, Vec<u8>) {
    let named: Vec<(String, Vec<u8>)> = files
        .iter()
        .enumerate()
        .map(|(i, file)| (format!("e{i:04}"), file.clone()))
        .collect();
    let img = Img::in_order(&named);
    let (dir, data) = img.v1();
    (img.v2(), dir, data)
}

fn chunked(
    archive: &mut ArchiveDecoder,
    dir: &[u8],
    data: &[u8],
    counts: &mut Counts,
    size: usize,
) {
    loop {
        let file = match archive.input() {
            Input::Directory => dir,
            Input::Data => data,
        };
        let at = archive.position() as usize;
        let piece = file.get(at..).unwrap_or_default();
        let piece = &piece[..piece.len().min(size)];
        if piece.is_empty() {
            archive.finish(counts).unwrap();
            return;
        }
        let progress = archive.feed(piece, counts).unwrap();
        if progress.status == Status::Done {
            archive.finish(counts).unwrap();
            return;
        }
    }
}

#[test]
fn decoding_an_archive_allocates_nothing() {
    let mut broken = inputs::anp3(3000, 5).bytes;
    broken.truncate(100);
    let files = vec![
        inputs::anp3(3000, 1).bytes,
        inputs::anpk(3000, 2).bytes,
        inputs::stories(3000, 3).bytes,
        inputs::ipl_binary(3000, 4).bytes,
        broken,
        vec![0xEE; 700],
    ];
    let (v2, dir, data) = archive(&files);
    for size in [usize::MAX, 1, 7, 4096] {
        let mut counts = Counts::default();
        let mut decoder = ArchiveDecoder::new(v2.len() as u64);
        let n = allocations(|| chunked(&mut decoder, &[], &v2, &mut counts, size));
        assert_eq!(n, 0, "version 2, chunks of {size}");
        assert_eq!((counts.entries, counts.ok, counts.failed), (6, 4, 2));
        assert!(counts.frames > 0);
        let mut counts = Counts::default();
        let mut decoder = ArchiveDecoder::version1(dir.len() as u64, data.len() as u64);
        let n = allocations(|| chunked(&mut decoder, &dir, &data, &mut counts, size));
        assert_eq!(n, 0, "version 1, chunks of {size}");
        assert_eq!((counts.entries, counts.ok, counts.failed), (6, 4, 2));
    }
}

#[test]
fn the_state_is_small_and_fixed() {
    // Memory constant in the archive's size: the same value decodes 10 or 2000 entries.
    let small: Vec<Vec<u8>> = (0..10).map(|i| inputs::anp3(600, i).bytes).collect();
    let many: Vec<Vec<u8>> = (0..2000).map(|i| inputs::anp3(600, i).bytes).collect();
    for files in [small, many] {
        let (v2, _, _) = archive(&files);
        let mut counts = Counts::default();
        let mut decoder = ArchiveDecoder::new(v2.len() as u64);
        let n = allocations(|| chunked(&mut decoder, &[], &v2, &mut counts, 4096));
        assert_eq!(n, 0);
        assert_eq!(counts.ok as usize, files.len());
    }
}

/// The archive writer never allocates either: both versions into caller buffers.
#[test]
fn writing_an_archive_does_not_allocate() {
    use gtastream::archive::{ArchiveVersion, ArchiveWriter, SplitSink};
    use gtastream::encode::SliceSink;

    let data = [0x5Au8; 5000];
    let mut img = vec![0u8; 8 * 2048];
    let mut dir = vec![0u8; 64];
    let mut v2 = vec![0u8; 8 * 2048];
    let count = allocations(|| {
        let mut sink = SliceSink::new(&mut v2);
        let mut writer = ArchiveWriter::new(ArchiveVersion::V2, 2);
        for entry in [&b"a.ifp"[..], b"b.ipl"] {
            writer.begin_entry(&mut sink, entry).unwrap();
            for piece in data.chunks(333) {
                writer.write(&mut sink, piece).unwrap();
            }
            writer.end_entry(&mut sink).unwrap();
        }
        writer.finish(&mut sink).unwrap();
        let mut pair = SplitSink {
            img: SliceSink::new(&mut img),
            dir: SliceSink::new(&mut dir),
        };
        let mut writer = ArchiveWriter::new(ArchiveVersion::V1, 0);
        for entry in [&b"a.ifp"[..], b"b.ipl"] {
            writer.begin_entry(&mut pair, entry).unwrap();
            writer.write(&mut pair, &data).unwrap();
            writer.end_entry(&mut pair).unwrap();
        }
        writer.finish(&mut pair).unwrap();
    });
    assert_eq!(count, 0);
    assert_eq!(&v2[..4], b"VER2");
    assert_eq!(&dir[8..13], b"a.ifp");
}
