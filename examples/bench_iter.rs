//! The cost of a `for` loop over [`Keyframes::iter`] against `for_each`, for instruction
//! counts (PERFORMANCE.md, issue 21): decodes FILE (an input of `bench_file`) whole, once with
//! each visitor; each visitor's `keyframes` sums every component of every keyframe into its
//! own lanes. Under callgrind, count each way by its visitor:
//!
//! ```text
//! cargo run --release --features alloc --example bench_file -- target/bench-1mib.ifp 1
//! cargo build --release --example bench_iter
//! valgrind --tool=callgrind --toggle-collect='*SumFor as*keyframes*' \
//!     target/release/examples/bench_iter target/bench-1mib.ifp
//! valgrind --tool=callgrind --toggle-collect='*SumForEach as*keyframes*' \
//!     target/release/examples/bench_iter target/bench-1mib.ifp
//! ```

use std::hint::black_box;
use std::process::ExitCode;

use gtastream::{Decoder, Flow, Keyframe, Keyframes, Visitor};

/// Adds every component of `frame` to its lane.
#[inline(always)]
fn add(l: &mut [f32; 11], frame: &Keyframe) {
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
}

/// Sums through a `for` loop (`KeyframeIter::next`).
#[derive(Default)]
struct SumFor([f32; 11]);

impl Visitor for SumFor {
    #[inline(never)]
    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        for frame in frames.iter() {
            add(&mut self.0, &frame);
        }
        Flow::Continue
    }
}

/// Sums through `for_each` (`KeyframeIter::fold`).
#[derive(Default)]
struct SumForEach([f32; 11]);

impl Visitor for SumForEach {
    #[inline(never)]
    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        let lanes = &mut self.0;
        frames.iter().for_each(|frame| add(lanes, &frame));
        Flow::Continue
    }
}

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: bench_iter FILE");
        return ExitCode::FAILURE;
    };
    let data = match std::fs::read(&path) {
        Ok(data) => data,
        Err(e) => {
            eprintln!("bench_iter: {path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut by_for = SumFor::default();
    let mut by_for_each = SumForEach::default();
    let decoded = Decoder::new().decode_slice(black_box(&data), &mut by_for);
    let decoded = decoded.and(Decoder::new().decode_slice(black_box(&data), &mut by_for_each));
    if let Err(e) = decoded {
        eprintln!("bench_iter: {path}: {e}");
        return ExitCode::FAILURE;
    }
    let bits = |lanes: &[f32; 11]| lanes.map(f32::to_bits);
    if bits(&by_for.0) != bits(&by_for_each.0) {
        eprintln!("bench_iter: the two ways give different sums");
        return ExitCode::FAILURE;
    }
    println!("sums equal: {:?}", black_box(by_for.0));
    ExitCode::SUCCESS
}
