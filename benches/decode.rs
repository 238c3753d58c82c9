//! Decoding throughput of the push decoder, for every format, whole and in chunks.
//!
//! The inputs are made in code by `benches/inputs/mod.rs` (deterministic, seeded): an `ANP3`
//! package like `ped.ifp` (animations of 26–34 bones with 30–60 packed keyframes, the root and
//! ~15 % of the bones with translations: types 3 and 4), an `ANPK` package (`KR00`, `KRT0`), a
//! Stories `.anim` file (half floats, one seek per bone), a binary `bnry` and a text placement
//! file.
//!
//! Groups (each reports bytes per second; sizes and item counts are printed first, so the time
//! per keyframe is the reported time divided by the printed count):
//! - `anp3_16mib`: a ~16 MiB ANP3 file through [`Decoder::feed`], whole and cut into chunks of
//!   64 B, 4 KiB and 64 KiB, with a visitor that sums every component of every decoded keyframe
//!   (`sum`: a `for` loop over [`Keyframes::iter`], whose decoding inlines into the visitor's
//!   loop); the same with `for_each` (`sum_for_each`: one loop per frame type); the same sums
//!   decoded by hand from [`Keyframes::as_bytes`] (`sum_as_bytes`: what `iter` could reach); the packed integers through [`Keyframes::raw`]; the framing cost alone (`count`,
//!   a visitor that only adds [`Keyframes::len`]); and [`Package::parse`].
//! - `anp3_1mib`: a ~1 MiB ANP3 file, whole and fed one byte at a time (every unit goes through
//!   the carry buffer).
//! - `anpk_4mib`, `stories_1mib`, `ipl_binary_4mib`, `ipl_text_4mib`: whole and in chunks of
//!   64 B, 4 KiB and 64 KiB, with a visitor that sums what it gets. (Stories files need seeks:
//!   the chunked runs feed from each offset the decoder asks for, as a file reader would.)
//!
//! The benchmark needs the `alloc` feature (for the encoder): `cargo bench --features alloc`.
//! The default run takes about three minutes on two cores (10 samples, 2 s per benchmark). For
//! steadier numbers: `cargo bench --features alloc --bench decode -- --sample-size 50
//! --measurement-time 10`. The C benchmark (`c-examples/bench/`, see PERFORMANCE.md) compares
//! the C API with a hand-written C loop.

mod inputs;

use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{
    criterion_group, criterion_main, BenchmarkGroup, BenchmarkId, Criterion, SamplingMode,
    Throughput,
};
use gtastream::{Decoder, Flow, Keyframes, Package, Record, Status, Visitor, DECODER_SIZE};

use inputs::Input;

const LARGE: usize = 16 << 20;
const MEDIUM: usize = 4 << 20;
const SMALL: usize = 1 << 20;
const CHUNKS: [usize; 3] = [64, 4 << 10, 64 << 10];

/// Sums every component of every keyframe, one accumulator per component so that the additions
/// do not form a single dependency chain; and every instance and car field of placements.
#[derive(Default)]
struct Sum {
    lanes: [f32; 11],
    items: u64,
}

impl Visitor for Sum {
    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        self.items += frames.len() as u64;
        for frame in frames.iter() {
            let [qx, qy, qz, qw] = frame.rotation;
            let [tx, ty, tz] = frame.translation;
            let [sx, sy, sz] = frame.scale;
            let l = &mut self.lanes;
            l[0] += frame.time;
            l[1] += qx;
            l[2] += qy;
            l[3] += qz;
            l[4] += qw;
            l[5] += tx;
            l[6] += ty;
            l[7] += tz;
            l[8] += sx;
            l[9] += sy;
            l[10] += sz;
        }
        Flow::Continue
    }

    fn record(&mut self, record: &Record<'_>) -> Flow {
        match record {
            Record::Instance(instance) => {
                self.items += 1;
                let l = &mut self.lanes;
                for (lane, value) in l
                    .iter_mut()
                    .zip(instance.position.iter().chain(&instance.rotation))
                {
                    *lane += value;
                }
                l[7] += instance.model_id as f32;
                l[8] += instance.lod as f32;
                l[9] += instance.interior as f32;
                l[10] += instance.model_name.map_or(0, <[u8]>::len) as f32;
                Flow::Continue
            }
            Record::Car(car) => {
                self.items += 1;
                let l = &mut self.lanes;
                for (lane, value) in l.iter_mut().zip(&car.position) {
                    *lane += value;
                }
                l[3] += car.angle;
                l[4] += (car.model_id + car.primary_color + car.secondary_color) as f32;
                l[5] += (car.flags + car.alarm_chance + car.door_lock_chance) as f32;
                l[6] += (car.min_delay + car.max_delay) as f32;
                Flow::Continue
            }
            Record::SectionLine(line) => {
                self.lanes[10] += line.text.len() as f32;
                Flow::Continue
            }
            _ => Flow::Continue,
        }
    }
}

/// [`Sum`]'s keyframe sums through [`Iterator::for_each`], which runs
/// [`KeyframeIter::fold`](gtastream::KeyframeIter): one loop per frame type, where a `for`
/// loop (`next`) matches the frame type at every keyframe.
#[derive(Default)]
struct SumForEach {
    lanes: [f32; 11],
}

impl Visitor for SumForEach {
    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        let l = &mut self.lanes;
        frames.iter().for_each(|frame| {
            let [qx, qy, qz, qw] = frame.rotation;
            let [tx, ty, tz] = frame.translation;
            let [sx, sy, sz] = frame.scale;
            l[0] += frame.time;
            l[1] += qx;
            l[2] += qy;
            l[3] += qz;
            l[4] += qw;
            l[5] += tx;
            l[6] += ty;
            l[7] += tz;
            l[8] += sx;
            l[9] += sy;
            l[10] += sz;
        });
        Flow::Continue
    }
}

/// Sums the stored integers of packed keyframes ([`Keyframes::raw`]), as a host that keeps
/// frames packed would read them.
#[derive(Default)]
struct SumRaw {
    lanes: [i32; 8],
}

impl Visitor for SumRaw {
    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        let Some(raw) = frames.raw() else {
            return Flow::Abort;
        };
        for frame in raw {
            // (No `array::map` here: without LTO it stays a call per element.)
            let [qx, qy, qz, qw] = frame.rotation;
            let [tx, ty, tz] = frame.translation;
            let l = &mut self.lanes;
            l[0] += i32::from(frame.time);
            l[1] += i32::from(qx);
            l[2] += i32::from(qy);
            l[3] += i32::from(qz);
            l[4] += i32::from(qw);
            l[5] += i32::from(tx);
            l[6] += i32::from(ty);
            l[7] += i32::from(tz);
        }
        Flow::Continue
    }
}

/// A reference point for [`Keyframes::iter`]: the same sums as [`Sum`], decoded here straight
/// from [`Keyframes::as_bytes`] (packed types only, which is all the ANP3 input holds).
#[derive(Default)]
struct SumBytes {
    lanes: [f32; 11],
}

impl Visitor for SumBytes {
    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        let frame_type = frames.frame_type();
        if !frame_type.is_packed() {
            return Flow::Abort;
        }
        let translated = frame_type.has_translation();
        for record in frames.as_bytes().chunks_exact(frame_type.size()) {
            let at = |i: usize| f32::from(i16::from_le_bytes([record[2 * i], record[2 * i + 1]]));
            let l = &mut self.lanes;
            l[0] += at(4) / 60.0;
            l[1] += at(0) / 4096.0;
            l[2] += at(1) / 4096.0;
            l[3] += at(2) / 4096.0;
            l[4] += at(3) / 4096.0;
            if translated {
                l[5] += at(5) / 1024.0;
                l[6] += at(6) / 1024.0;
                l[7] += at(7) / 1024.0;
            }
        }
        Flow::Continue
    }
}

/// Counts keyframes without decoding them: the decoder's framing cost.
#[derive(Default)]
struct Count {
    frames: u64,
}

impl Visitor for Count {
    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        self.frames += frames.len() as u64;
        Flow::Continue
    }
}

/// Feeds `data` in chunks of `chunk` bytes, following seeks (Stories), then finishes.
fn decode<V: Visitor>(data: &[u8], chunk: usize, visitor: &mut V) {
    let mut decoder = Decoder::new();
    let mut at = 0;
    while at < data.len() {
        let piece = &data[at..data.len().min(at + chunk)];
        let progress = decoder
            .feed(piece, &mut *visitor)
            .expect("benchmark input decodes");
        at = match progress.status {
            Status::Seek(to) => to as usize,
            _ => at + piece.len(),
        };
    }
    decoder
        .finish(visitor)
        .expect("benchmark input is complete");
}

fn sum(data: &[u8], chunk: usize) -> Sum {
    let mut visitor = Sum::default();
    decode(black_box(data), chunk, &mut visitor);
    black_box(visitor)
}

fn sum_raw(data: &[u8]) -> [i32; 8] {
    let mut visitor = SumRaw::default();
    decode(black_box(data), data.len(), &mut visitor);
    black_box(visitor.lanes)
}

fn sum_for_each(data: &[u8], chunk: usize) -> [f32; 11] {
    let mut visitor = SumForEach::default();
    decode(black_box(data), chunk, &mut visitor);
    black_box(visitor.lanes)
}

fn sum_bytes(data: &[u8]) -> [f32; 11] {
    let mut visitor = SumBytes::default();
    decode(black_box(data), data.len(), &mut visitor);
    black_box(visitor.lanes)
}

fn count(data: &[u8], chunk: usize) -> u64 {
    let mut visitor = Count::default();
    decode(black_box(data), chunk, &mut visitor);
    black_box(visitor.frames)
}

fn chunk_label(chunk: usize) -> String {
    match chunk {
        c if c >= 1 << 10 && c % (1 << 10) == 0 => format!("{}KiB", c >> 10),
        c => format!("{c}B"),
    }
}

fn describe(what: &str, input: &Input) {
    eprintln!(
        "{what}: {} bytes ({:.2} MiB), {} items; DECODER_SIZE = {DECODER_SIZE} bytes",
        input.bytes.len(),
        input.bytes.len() as f64 / (1 << 20) as f64,
        input.items,
    );
}

fn new_group<'a>(c: &'a mut Criterion, name: &str, input: &Input) -> BenchmarkGroup<'a, WallTime> {
    let mut group = c.benchmark_group(name);
    group
        .throughput(Throughput::Bytes(input.bytes.len() as u64))
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sampling_mode(SamplingMode::Flat);
    group
}

/// `sum` whole and in every chunk size of [`CHUNKS`].
fn whole_and_chunked(group: &mut BenchmarkGroup<'_, WallTime>, file: &[u8]) {
    group.bench_function("sum/whole", |b| b.iter(|| sum(file, file.len())));
    for chunk in CHUNKS {
        group.bench_with_input(
            BenchmarkId::new("sum", chunk_label(chunk)),
            &chunk,
            |b, &chunk| b.iter(|| sum(file, chunk)),
        );
    }
}

fn anp3(c: &mut Criterion) {
    let input = inputs::anp3(LARGE, 0x6774_6173_7472_6561);
    describe("anp3", &input);
    let file = &input.bytes;
    // The work measured is the work wanted: every frame seen, whatever the chunking.
    assert_eq!(sum(file, 64).items, input.items);
    assert_eq!(count(file, file.len()), input.items);
    assert_eq!(sum_bytes(file), sum(file, file.len()).lanes);
    assert_eq!(sum_for_each(file, 4 << 10), sum(file, file.len()).lanes);

    let mut group = new_group(c, "anp3_16mib", &input);
    whole_and_chunked(&mut group, file);
    group.bench_function("sum_for_each/whole", |b| {
        b.iter(|| sum_for_each(file, file.len()))
    });
    group.bench_function("sum_for_each/4KiB", |b| {
        b.iter(|| sum_for_each(file, 4 << 10))
    });
    group.bench_function("sum_as_bytes/whole", |b| b.iter(|| sum_bytes(file)));
    group.bench_function("sum_raw/whole", |b| b.iter(|| sum_raw(file)));
    group.bench_function("count/whole", |b| b.iter(|| count(file, file.len())));
    group.bench_function("count/4KiB", |b| b.iter(|| count(file, 4 << 10)));
    group.bench_function("package_parse", |b| {
        b.iter(|| Package::parse(black_box(file)).expect("benchmark input parses"))
    });
    group.finish();

    let input = inputs::anp3(SMALL, 0x736d_616c_6c21);
    describe("anp3 (small)", &input);
    let file = &input.bytes;
    assert_eq!(sum(file, 1).items, input.items);
    let mut group = new_group(c, "anp3_1mib", &input);
    group.bench_function("sum/whole", |b| b.iter(|| sum(file, file.len())));
    group.bench_function("sum/1B", |b| b.iter(|| sum(file, 1)));
    group.bench_function("count/1B", |b| b.iter(|| count(file, 1)));
    group.finish();
}

fn other_formats(c: &mut Criterion) {
    // Stories files are small (the decoder re-reads the offset table after each animation,
    // and bounds re-reading by the file's size): 1 MiB.
    type Make = fn(usize, u64) -> Input;
    let formats: [(&str, Make, usize); 4] = [
        ("anpk_4mib", inputs::anpk, MEDIUM),
        ("stories_1mib", inputs::stories, SMALL),
        ("ipl_binary_4mib", inputs::ipl_binary, MEDIUM),
        ("ipl_text_4mib", inputs::ipl_text, MEDIUM),
    ];
    for (name, make, size) in formats {
        let input = make(size, 0x6f74_6865_7273);
        describe(name, &input);
        let file = &input.bytes;
        let whole = sum(file, file.len());
        assert_eq!(whole.items, input.items, "{name}");
        assert_eq!(sum(file, 64).lanes, whole.lanes, "{name}");
        let mut group = new_group(c, name, &input);
        whole_and_chunked(&mut group, file);
        group.finish();
    }
}

criterion_group!(benches, anp3, other_formats);
criterion_main!(benches);
