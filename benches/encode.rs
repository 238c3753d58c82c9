//! Writing throughput of the streaming encoder (docs/FORMATS.md §9), in bytes written per
//! second, for every target.
//!
//! Inputs are the decode benchmark's (`benches/inputs/mod.rs`). Two measures per target:
//! - `convert`: a decoder fed the whole source feeds an encoder directly (the conversion the
//!   CLI runs), into a caller's buffer ([`SliceSink`]: no allocation, no I/O);
//!   `anpk_to_anp3_lookahead`: an ANPK made from the ANP3 input, back to ANP3 through
//!   [`Lookahead`] (a second decoder one bone ahead; float bones on the steps packed again);
//! - `encode`: the encoder alone, replaying the events of a decoded package from memory.
//!
//! `cargo bench --features alloc --bench encode`. The encoder's size is printed first.

mod inputs;

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode, Throughput};
use gtastream::encode::{BoneHeader, EncodeOptions, Encoder, Lookahead, SliceSink};
use gtastream::{Decoder, Format, Package};

const SIZE: usize = 4 << 20;

/// Decodes `source` straight into an encoder for `to`; returns the bytes written.
fn convert(source: &[u8], to: Format, quantize: bool, out: &mut [u8]) -> usize {
    let options = EncodeOptions::quantize(quantize);
    let mut encoder = Encoder::new(to, SliceSink::new(out), options).unwrap();
    Decoder::new().decode_slice(source, &mut encoder).unwrap();
    assert!(encoder.is_finished());
    encoder.written() as usize
}

/// Writes a decoded package's events into an encoder for `to`.
fn encode(package: &Package, to: Format, out: &mut [u8]) -> usize {
    let mut e = Encoder::new(to, SliceSink::new(out), EncodeOptions::default()).unwrap();
    e.file(package.name.as_deref().map(str::as_bytes)).unwrap();
    for a in &package.animations {
        e.animation(a.name.as_bytes()).unwrap();
        for b in &a.bones {
            e.bone(&BoneHeader {
                name: b.name.as_deref().map(str::as_bytes),
                bone_id: b.bone_id,
                bone_key: b.bone_key,
                frame_type: b.frame_type,
            })
            .unwrap();
            for k in &b.frames {
                e.keyframe(k).unwrap();
            }
            e.bone_end().unwrap();
        }
        e.animation_end().unwrap();
    }
    e.end().unwrap();
    e.written() as usize
}

fn benches(c: &mut Criterion) {
    println!(
        "Encoder<SliceSink>: {} bytes",
        std::mem::size_of::<Encoder<SliceSink<'static>>>()
    );
    let anp3 = inputs::anp3(SIZE, 1);
    let anpk = inputs::anpk(SIZE, 2);
    let bnry = inputs::ipl_binary(SIZE, 4);
    let text = inputs::ipl_text(SIZE, 5);
    let mut out = vec![0u8; 64 << 20];
    let conversions: [(&str, &[u8], Format, bool); 8] = [
        ("anp3_to_anp3", &anp3.bytes, Format::Anp3, false),
        ("anp3_to_anpk", &anp3.bytes, Format::Anpk, false),
        ("anpk_to_anp3", &anpk.bytes, Format::Anp3, false),
        ("anpk_to_anp3_quantize", &anpk.bytes, Format::Anp3, true),
        ("anpk_to_anpk", &anpk.bytes, Format::Anpk, false),
        ("bnry_to_text", &bnry.bytes, Format::IplText, false),
        ("text_to_bnry", &text.bytes, Format::IplBinary, false),
        ("text_to_text", &text.bytes, Format::IplText, false),
    ];
    let mut group = c.benchmark_group("convert");
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_millis(500));
    for (name, source, to, quantize) in conversions {
        let written = convert(source, to, quantize, &mut out);
        println!("{name}: {} bytes in, {written} bytes out", source.len());
        group.throughput(Throughput::Bytes(written as u64));
        group.bench_function(name, |b| b.iter(|| convert(source, to, quantize, &mut out)));
    }
    // ANP3 → ANPK → ANP3 through the reading-ahead adapter (float bones packed again).
    let anpk_of_anp3 = {
        let n = convert(&anp3.bytes, Format::Anpk, false, &mut out);
        out[..n].to_vec()
    };
    let ahead = |out: &mut [u8]| -> usize {
        let mut e =
            Encoder::new(Format::Anp3, SliceSink::new(out), EncodeOptions::default()).unwrap();
        let source: &[u8] = &anpk_of_anp3;
        Decoder::new()
            .decode_slice(source, &mut Lookahead::new(&mut e, source))
            .unwrap();
        assert!(e.is_finished());
        e.written() as usize
    };
    let written = ahead(&mut out);
    println!(
        "anpk_to_anp3_lookahead: {} bytes in, {written} bytes out",
        anpk_of_anp3.len()
    );
    group.throughput(Throughput::Bytes(written as u64));
    group.bench_function("anpk_to_anp3_lookahead", |b| b.iter(|| ahead(&mut out)));
    group.finish();

    let mut group = c.benchmark_group("encode");
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_millis(500));
    for (name, source, to) in [
        ("anp3_packed", &anp3.bytes, Format::Anp3),
        ("anpk_float", &anpk.bytes, Format::Anpk),
    ] {
        let package = Package::parse(source).unwrap();
        let written = encode(&package, to, &mut out);
        group.throughput(Throughput::Bytes(written as u64));
        group.bench_function(name, |b| b.iter(|| encode(&package, to, &mut out)));
    }
    group.finish();
}

criterion_group!(encode_benches, benches);
criterion_main!(encode_benches);
