//! The DFF reader (issue 32) over a `gta3.img`-sized archive of models made in code
//! (testkit's model shapes: SA, VC and GTA III skins, cutscene peds with facial bones, vehicles,
//! peds without skeleton, animated objects), 16,000 entries whose geometry arrays (vertices,
//! triangles) vary in size and are skipped, as the reader skips them unless asked.
//!
//! - `archive_whole`: every entry through the archive decoder, the DFF records counted;
//! - `skeletons`: each entry's skeleton read from its bytes (`rig::read_skeleton`), as a tool
//!   that indexes an archive's skeletons would.
//!
//! Throughput is in bytes of the archive; entries per second are 16,000 over the time.
//!
//! `cargo bench --features alloc --bench dff`

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gtastream::archive::{ArchiveDecoder, ArchiveVisitor, Choice, Entry};
use gtastream::{Flow, Record, Visitor};
use testkit::img::Img;

const ENTRIES: usize = 16_000;

/// Counts the DFF records and sums a field, so nothing is optimised away.
#[derive(Default)]
struct Count {
    records: u64,
    sum: f32,
    entries: u32,
}

impl Visitor for Count {
    fn record(&mut self, record: &Record<'_>) -> Flow {
        self.records += 1;
        if let Record::DffFrame(frame) = record {
            self.sum += frame.position[1];
        }
        Flow::Continue
    }
}

impl ArchiveVisitor for Count {
    fn entry(&mut self, entry: &Entry<'_>) -> Choice {
        self.entries += 1;
        if entry.format.is_some() {
            Choice::Decode
        } else {
            Choice::Skip
        }
    }
}

/// The models: the shapes in turn, each geometry's arrays grown by an amount that varies
/// from entry to entry (vertices 24 to about 1,500: models of 2 KB to about 60 KB).
fn models() -> Vec<Vec<u8>> {
    let shapes = testkit::dff::shapes();
    (0..ENTRIES)
        .map(|i| {
            let mut model = shapes[i % shapes.len()].1.clone();
            let grow = (i * 7919) % 1500;
            for g in &mut model.geometries {
                g.vertices += grow as u32;
                // (A skin's weights follow the vertex count: the kit writes one per vertex.)
                g.triangles += (grow / 2) as u32;
            }
            model.padding = 0;
            model.bytes()
        })
        .collect()
}

/// A version 2 archive of `files`, in order, and each entry's (offset, size) in it.
fn archive(files: &[Vec<u8>]) -> (Vec<u8>, Vec<(usize, usize)>) {
    let named: Vec<(String, &[u8])> = (files.iter().enumerate())
        .map(|(i, file)| (format!("m{i:07}.dff"), file.as_slice()))
        .collect();
    let img = Img::in_order(&named);
    (img.v2(), img.places())
}

fn bench(c: &mut Criterion) {
    let (data, places) = archive(&models());
    let mut check = Count::default();
    ArchiveDecoder::new(data.len() as u64)
        .decode_slice(&data, &mut check)
        .unwrap();
    assert_eq!(check.entries as usize, ENTRIES);
    assert!(
        check.records > 10 * ENTRIES as u64,
        "the entries decode as models"
    );
    let skeletons = places
        .iter()
        .filter(|&&(at, size)| gtastream::rig::read_skeleton(&data[at..at + size]).is_ok())
        .count();
    assert_eq!(skeletons, ENTRIES, "every entry is a model");
    println!(
        "dff archive: {} entries, {} bytes, {} records",
        places.len(),
        data.len(),
        check.records
    );
    let mut group = c.benchmark_group("dff_archive");
    group.throughput(Throughput::Bytes(data.len() as u64));
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(5));
    group.bench_function("archive_whole", |b| {
        b.iter(|| {
            let mut count = Count::default();
            ArchiveDecoder::new(data.len() as u64)
                .decode_slice(black_box(&data), &mut count)
                .unwrap();
            black_box((count.records, count.sum))
        })
    });
    group.bench_function("skeletons", |b| {
        b.iter(|| {
            let mut frames = 0usize;
            for &(at, size) in &places {
                let skeleton = gtastream::rig::read_skeleton(black_box(&data[at..at + size]));
                frames += skeleton.map_or(0, |s| s.frames().len());
            }
            black_box(frames)
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
