//! Decoding throughput of the push decoder.
//!
//! The input is an ANP3 package built in code (`gtastream::encode::ifp2` of a procedurally made
//! [`Package`]): many animations of ~30 bones with 30–60 packed keyframes each, the root bone and
//! some others with translations (type 4), the rest rotation only (type 3), as in `ped.ifp`.
//!
//! Groups:
//! - `decode_16mib`: the ~16 MiB file through [`Decoder::feed`], whole and cut into chunks of
//!   64 B, 4 KiB and 64 KiB, with a visitor that sums every keyframe component; the framing cost
//!   alone (a visitor that only counts [`Keyframes::len`]); and [`Package::parse`]. Two
//!   references for the keyframe decoding: the packed integers through [`Keyframes::raw`], and
//!   the same sums computed by hand from [`Keyframes::as_bytes`] (what `iter` could reach).
//! - `decode_1mib`: a ~1 MiB file, whole and fed one byte at a time (every unit goes through the
//!   carry buffer), so the two can be compared directly.
//!
//! Every group reports bytes per second; the sizes and keyframe counts are printed first, so the
//! time per keyframe is the reported time divided by the printed keyframe count.
//!
//! The benchmark needs the `alloc` feature (for the encoder): `cargo bench --features alloc`.
//! The default run is kept short (10 samples, a few seconds per benchmark). For steadier numbers:
//! `cargo bench --features alloc --bench decode -- --sample-size 50 --measurement-time 10`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{
    criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode, Throughput,
};
use gtastream::{
    Animation, Bone, Decoder, Flow, Format, FrameType, Keyframe, Keyframes, Package, Visitor,
    DECODER_SIZE,
};

const LARGE: usize = 16 << 20;
const SMALL: usize = 1 << 20;

/// Bone names and ids of a San Andreas ped skeleton; about a quarter of stock bones store −1.
const SKELETON: &[(&str, i32)] = &[
    ("Root", 0),
    ("Pelvis", 1),
    ("Spine", 2),
    ("Spine1", 3),
    ("Neck", 4),
    ("Head", 5),
    ("Jaw", 8),
    ("L Brow", 6),
    ("R Brow", 7),
    ("Bip01 L Clavicle", 31),
    ("L UpperArm", 32),
    ("L ForeArm", 33),
    ("L Hand", 34),
    ("L Finger", 35),
    ("L Finger01", 36),
    ("Bip01 R Clavicle", 21),
    ("R UpperArm", 22),
    ("R ForeArm", 23),
    ("R Hand", 24),
    ("R Finger", 25),
    ("R Finger01", 26),
    ("L Thigh", 41),
    ("L Calf", 42),
    ("L Foot", 43),
    ("L Toe0", 2000),
    ("R Thigh", 51),
    ("R Calf", 52),
    ("R Foot", 53),
    ("R Toe0", 2001),
    ("L breast", 302),
    ("R breast", 301),
    ("Belly", 201),
    ("Tail", -1),
    ("Extra", -1),
];

/// A small deterministic generator (SplitMix64), so every run decodes the same bytes.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `lo..=hi`.
    fn range(&mut self, lo: i32, hi: i32) -> i32 {
        let span = (hi - lo + 1) as u64;
        lo + (self.next() % span) as i32
    }

    /// True with probability `percent` / 100.
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// Keyframes whose values are exact multiples of the packed units, so the encoder stores them
/// without loss and the decoder sees realistic integers.
fn bone(rng: &mut Rng, name: &str, bone_id: i32, frame_type: FrameType) -> Bone {
    let count = rng.range(30, 60);
    let mut tick = 0;
    let frames = (0..count)
        .map(|_| {
            let frame = Keyframe {
                time: tick as f32 / 60.0,
                rotation: [0; 4].map(|_| rng.range(-4096, 4096) as f32 / 4096.0),
                translation: if frame_type.has_translation() {
                    [0; 3].map(|_| rng.range(-2048, 2048) as f32 / 1024.0)
                } else {
                    [0.0; 3]
                },
                scale: [0.0; 3],
            };
            tick += rng.range(1, 4);
            frame
        })
        .collect();
    Bone {
        name: Some(name.into()),
        bone_id: Some(bone_id),
        bone_key: None,
        frame_type,
        frames,
    }
}

fn animation(rng: &mut Rng, index: usize) -> Animation {
    let bone_count = rng.range(26, SKELETON.len() as i32) as usize;
    let bones = SKELETON[..bone_count]
        .iter()
        .enumerate()
        .map(|(i, &(name, id))| {
            let translated = i == 0 || rng.chance(15);
            let frame_type = if translated {
                FrameType::Ifp2PackedRotTrans
            } else {
                FrameType::Ifp2PackedRot
            };
            let id = if rng.chance(25) { -1 } else { id };
            bone(rng, name, id, frame_type)
        })
        .collect();
    Animation {
        name: format!("bench_anim_{index:05}"),
        frame_data_size: None,
        flags: None,
        duration: None,
        bones,
    }
}

/// Bytes `animation` takes in an ANP3 file.
fn encoded_size(animation: &Animation) -> usize {
    36 + animation
        .bones
        .iter()
        .map(|b| 36 + b.frames.len() * b.frame_type.size())
        .sum::<usize>()
}

/// An ANP3 file of at least `target` bytes, and its keyframe count.
fn package_file(target: usize, seed: u64) -> (Vec<u8>, u64) {
    let mut rng = Rng(seed);
    let mut animations = Vec::new();
    let mut size = 36;
    while size < target {
        let animation = animation(&mut rng, animations.len());
        size += encoded_size(&animation);
        animations.push(animation);
    }
    let keyframes = animations
        .iter()
        .flat_map(|a| &a.bones)
        .map(|b| b.frames.len() as u64)
        .sum();
    let package = Package {
        format: Format::Anp3,
        name: Some("bench".into()),
        animations,
        warnings: Vec::new(),
    };
    let file = gtastream::encode::ifp2(&package).expect("benchmark package encodes");
    assert_eq!(file.len(), size);
    let bones: usize = package.animations.iter().map(|a| a.bones.len()).sum();
    eprintln!(
        "input: {} bytes ({:.2} MiB), {} animations, {} bones, {} keyframes; DECODER_SIZE = {} bytes",
        file.len(),
        file.len() as f64 / (1 << 20) as f64,
        package.animations.len(),
        bones,
        keyframes,
        DECODER_SIZE,
    );
    (file, keyframes)
}

/// Sums every component of every keyframe, one accumulator per component so that the additions
/// do not form a single dependency chain.
#[derive(Default)]
struct Sum {
    lanes: [f32; 11],
    frames: u64,
}

impl Visitor for Sum {
    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        self.frames += frames.len() as u64;
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
            let [qx, qy, qz, qw] = frame.rotation.map(i32::from);
            let [tx, ty, tz] = frame.translation.map(i32::from);
            let l = &mut self.lanes;
            l[0] += i32::from(frame.time);
            l[1] += qx;
            l[2] += qy;
            l[3] += qz;
            l[4] += qw;
            l[5] += tx;
            l[6] += ty;
            l[7] += tz;
        }
        Flow::Continue
    }
}

/// A reference point for [`Keyframes::iter`]: the same sums as [`Sum`], decoded here straight
/// from [`Keyframes::as_bytes`] (packed types only, which is all the benchmark input holds).
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

/// Feeds `data` in chunks of `chunk` bytes, then finishes.
fn decode<V: Visitor>(data: &[u8], chunk: usize, visitor: &mut V) {
    let mut decoder = Decoder::new();
    for piece in data.chunks(chunk) {
        let progress = decoder
            .feed(piece, &mut *visitor)
            .expect("benchmark input decodes");
        debug_assert_eq!(progress.consumed, piece.len());
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

fn large(c: &mut Criterion) {
    let (file, keyframes) = package_file(LARGE, 0x6774_6173_7472_6561);
    // The work measured is the work wanted: every frame seen, whatever the chunking.
    assert_eq!(sum(&file, 64).frames, keyframes);
    assert_eq!(count(&file, file.len()), keyframes);
    assert_eq!(sum_bytes(&file), sum(&file, file.len()).lanes);

    let mut group = c.benchmark_group("decode_16mib");
    group
        .throughput(Throughput::Bytes(file.len() as u64))
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sampling_mode(SamplingMode::Flat);

    group.bench_function("sum/whole", |b| b.iter(|| sum(&file, file.len())));
    for chunk in [64, 4 << 10, 64 << 10] {
        group.bench_with_input(
            BenchmarkId::new("sum", chunk_label(chunk)),
            &chunk,
            |b, &chunk| b.iter(|| sum(&file, chunk)),
        );
    }
    group.bench_function("sum_raw/whole", |b| b.iter(|| sum_raw(&file)));
    group.bench_function("sum_as_bytes/whole", |b| b.iter(|| sum_bytes(&file)));
    group.bench_function("count/whole", |b| b.iter(|| count(&file, file.len())));
    group.bench_function("count/64KiB", |b| b.iter(|| count(&file, 64 << 10)));
    group.bench_function("package_parse", |b| {
        b.iter(|| Package::parse(black_box(&file)).expect("benchmark input parses"))
    });
    group.finish();
}

fn small(c: &mut Criterion) {
    let (file, keyframes) = package_file(SMALL, 0x736d_616c_6c21);
    assert_eq!(sum(&file, 1).frames, keyframes);

    let mut group = c.benchmark_group("decode_1mib");
    group
        .throughput(Throughput::Bytes(file.len() as u64))
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sampling_mode(SamplingMode::Flat);

    group.bench_function("sum/whole", |b| b.iter(|| sum(&file, file.len())));
    group.bench_function("sum/1B", |b| b.iter(|| sum(&file, 1)));
    group.bench_function("count/1B", |b| b.iter(|| count(&file, 1)));
    group.finish();
}

criterion_group!(benches, large, small);
criterion_main!(benches);
