//! The checker's cost against plain decoding (issue 23): the same files decoded with a visitor
//! that only counts keyframes, and through `check::Checker` (every rule, findings counted).
//!
//! Inputs from `benches/inputs/mod.rs`: a ~4 MiB `ANP3` package (packed frames), a ~4 MiB
//! `ANPK` package (float frames: the SA packing rules run on every key), a ~4 MiB text IPL.
//! The ratio checker / plain is the checker's cost. `cargo bench --features alloc --bench
//! check`.

mod inputs;

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gtastream::check::{Checker, Finding, Games};
use gtastream::{Decoder, Flow, Keyframes, Visitor};

const SIZE: usize = 4 << 20;

#[derive(Default)]
struct Count(u64);

impl Visitor for Count {
    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        self.0 += frames.len() as u64;
        Flow::Continue
    }
}

fn bench(c: &mut Criterion) {
    let files = [
        ("anp3", inputs::anp3(SIZE, 1).bytes),
        ("anpk", inputs::anpk(SIZE, 2).bytes),
        ("ipl_text", inputs::ipl_text(SIZE, 3).bytes),
    ];
    for (name, bytes) in &files {
        let mut group = c.benchmark_group(format!("check_{name}"));
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.sample_size(10);
        group.measurement_time(Duration::from_secs(2));
        group.bench_function("decode", |b| {
            b.iter(|| {
                let mut count = Count::default();
                Decoder::new()
                    .decode_slice(black_box(bytes), &mut count)
                    .unwrap();
                count.0
            })
        });
        group.bench_function("check", |b| {
            b.iter(|| {
                let mut findings = 0u64;
                let mut checker = Checker::new(Games::ALL, |_: &Finding| findings += 1);
                checker.set_file_name(b"bench.ifp");
                Decoder::new()
                    .decode_slice(black_box(bytes), &mut checker)
                    .unwrap();
                checker.finish();
                findings
            })
        });
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
