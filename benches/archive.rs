//! IMG archives (issue 12): decoding every entry of an archive through the archive decoder,
//! against decoding the same entries as loose files (each its own slice and `Decoder`).
//!
//! Two version 2 archives made in code from `benches/inputs/mod.rs`: `mixed` (~5 MiB: ANP3 and
//! ANPK packages of ~128 KiB, binary IPLs of ~32 KiB) and `small` (1000 binary IPLs and ANP3
//! packages of 2–6 KiB: the per-entry cost shows). Each is decoded whole (`decode_slice`) and
//! in 64 KiB reads following the decoder's seeks, as a file reader would; the loose runs
//! decode each entry's bytes (whole sectors) whole, or in 64 KiB reads.
//!
//! `cargo bench --features alloc --bench archive`

mod inputs;

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gtastream::archive::{ArchiveDecoder, ArchiveVisitor, Choice, Entry, Input};
use gtastream::{Decoder, Flow, Keyframes, Record, Status, Visitor};
use testkit::img::Img;

const READ: usize = 64 << 10;

/// Counts keyframes and records, and sums a component of each, so nothing is optimised away.
#[derive(Default)]
struct Count {
    items: u64,
    sum: f32,
    entries: u32,
}

impl Visitor for Count {
    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        self.items += frames.len() as u64;
        for frame in frames.iter() {
            self.sum += frame.rotation[3];
        }
        Flow::Continue
    }
    fn record(&mut self, record: &Record<'_>) -> Flow {
        match record {
            Record::Instance(instance) => {
                self.items += 1;
                self.sum += instance.position[0];
                Flow::Continue
            }
            Record::Car(car) => {
                self.items += 1;
                self.sum += car.angle;
                Flow::Continue
            }
            _ => Flow::Continue,
        }
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

/// A version 2 archive of `files`, in order, and each entry's (offset, size) in it.
fn archive(files: &[Vec<u8>]) -> (Vec<u8>, Vec<(usize, usize)>) {
    let named: Vec<(String, &[u8])> = (files.iter().enumerate())
        .map(|(i, file)| (format!("e{i:07}"), file.as_slice()))
        .collect();
    let img = Img::in_order(&named);
    (img.v2(), img.places())
}

fn mixed() -> Vec<Vec<u8>> {
    let mut files = Vec::new();
    for i in 0..24 {
        files.push(inputs::anp3(128 << 10, i).bytes);
    }
    for i in 0..8 {
        files.push(inputs::anpk(128 << 10, 100 + i).bytes);
    }
    for i in 0..32 {
        files.push(inputs::ipl_binary(32 << 10, 200 + i).bytes);
    }
    files
}

fn small() -> Vec<Vec<u8>> {
    (0..1000u64)
        .map(|i| {
            let size = 2048 + (i as usize * 37) % 4096;
            if i % 2 == 0 {
                inputs::ipl_binary(size, i).bytes
            } else {
                inputs::anp3(size, i).bytes
            }
        })
        .collect()
}

/// The archive in `READ`-byte reads from the offsets it asks for.
fn archive_in_reads(data: &[u8], visitor: &mut Count) {
    let mut archive = ArchiveDecoder::new(data.len() as u64);
    loop {
        debug_assert_eq!(archive.input(), Input::Data);
        let at = archive.position() as usize;
        let end = data.len().min(at + READ);
        let piece = data.get(at..end).unwrap_or_default();
        if piece.is_empty() {
            archive.finish(visitor).unwrap();
            return;
        }
        let progress = archive.feed(piece, visitor).unwrap();
        if progress.status == Status::Done {
            archive.finish(visitor).unwrap();
            return;
        }
    }
}

/// A loose file in `READ`-byte reads.
fn loose_in_reads(data: &[u8], visitor: &mut Count) {
    let mut decoder = Decoder::new();
    loop {
        let at = decoder.position() as usize;
        let end = data.len().min(at + READ);
        let piece = data.get(at..end).unwrap_or_default();
        if piece.is_empty() {
            decoder.finish(visitor).unwrap();
            return;
        }
        if decoder.feed(piece, visitor).unwrap().status == Status::Done {
            decoder.finish(visitor).unwrap();
            return;
        }
    }
}

fn bench(c: &mut Criterion) {
    for (name, files) in [("mixed", mixed()), ("small", small())] {
        let (data, places) = archive(&files);
        let mut check = Count::default();
        ArchiveDecoder::new(data.len() as u64)
            .decode_slice(&data, &mut check)
            .unwrap();
        println!(
            "{name}: {} entries, {} bytes, {} keyframes and records",
            places.len(),
            data.len(),
            check.items
        );
        let mut group = c.benchmark_group(format!("archive_{name}"));
        group.throughput(Throughput::Bytes(data.len() as u64));
        group.sample_size(20);
        group.measurement_time(Duration::from_secs(3));
        group.bench_function("archive_whole", |b| {
            b.iter(|| {
                let mut count = Count::default();
                ArchiveDecoder::new(data.len() as u64)
                    .decode_slice(black_box(&data), &mut count)
                    .unwrap();
                black_box((count.items, count.sum))
            })
        });
        group.bench_function("loose_whole", |b| {
            b.iter(|| {
                let mut count = Count::default();
                for &(at, size) in &places {
                    Decoder::new()
                        .decode_slice(black_box(&data[at..at + size]), &mut count)
                        .unwrap();
                }
                black_box((count.items, count.sum))
            })
        });
        group.bench_function("archive_64k_reads", |b| {
            b.iter(|| {
                let mut count = Count::default();
                archive_in_reads(black_box(&data), &mut count);
                black_box((count.items, count.sum))
            })
        });
        group.bench_function("loose_64k_reads", |b| {
            b.iter(|| {
                let mut count = Count::default();
                for &(at, size) in &places {
                    loose_in_reads(black_box(&data[at..at + size]), &mut count);
                }
                black_box((count.items, count.sum))
            })
        });
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
