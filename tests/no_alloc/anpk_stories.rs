//! `feed` and `finish` never allocate while decoding ANPK, ANLF and Stories files: the kit's counting
//! allocator counts the allocations made on the decoding thread
//! while the decoder runs, following seeks, pausing, failing. (Feature `alloc`: the fixtures
//! are built with the encoder before counting starts.)
#![cfg(feature = "alloc")]

use std::hint::black_box;

use gtastream::{
    AnimationInfo, BoneInfo, Decoder, FileInfo, Flow, Keyframes, Options, Status, Visitor, Warning,
};
use testkit::anpk::fixtures;

use testkit::alloc_count::allocations;

/// Uses every event without allocating: counts, and sums of the decoded values.
#[derive(Default)]
struct Sums {
    events: usize,
    frames: usize,
    warnings: usize,
    name_bytes: usize,
    sum: f64,
    pause: bool,
}

impl Sums {
    fn flow(&mut self) -> Flow {
        self.events += 1;
        if self.pause {
            Flow::Pause
        } else {
            Flow::Continue
        }
    }
}

impl Visitor for Sums {
    fn file(&mut self, info: &FileInfo<'_>) -> Flow {
        self.name_bytes += info.name.map_or(0, <[u8]>::len);
        self.flow()
    }
    fn animation(&mut self, info: &AnimationInfo<'_>) -> Flow {
        self.name_bytes += info.name.len();
        self.sum += f64::from(info.duration.unwrap_or(0.0));
        self.flow()
    }
    fn bone(&mut self, info: &BoneInfo<'_>) -> Flow {
        self.name_bytes += info.name.map_or(0, <[u8]>::len);
        self.sum += f64::from(info.bone_id.unwrap_or(0)) + f64::from(info.bone_key.unwrap_or(0));
        self.flow()
    }
    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        for k in frames.iter() {
            self.frames += 1;
            let parts = k.rotation.iter().chain(&k.translation).chain(&k.scale);
            self.sum += f64::from(k.time) + parts.map(|&v| f64::from(v)).sum::<f64>();
        }
        self.flow()
    }
    fn bone_end(&mut self) -> Flow {
        self.flow()
    }
    fn animation_end(&mut self) -> Flow {
        self.flow()
    }
    fn warning(&mut self, _: Warning) -> Flow {
        self.warnings += 1;
        self.flow()
    }
    fn end(&mut self) -> Flow {
        self.flow()
    }
}

/// Decodes `data` from memory in chunks of `chunk` bytes, following seeks (with `can_seek`)
/// and re-feeding after pauses; returns whether it ended cleanly.
fn run(data: &[u8], chunk: usize, can_seek: bool, sums: &mut Sums) -> bool {
    let mut decoder = Decoder::with_options(Options {
        can_seek,
        ..Options::DEFAULT
    });
    let mut pos = 0;
    let mut paused = false;
    while pos < data.len() || paused {
        let end = (pos + chunk).min(data.len());
        match decoder.feed(&data[pos..end], sums) {
            Err(_) => return false,
            Ok(p) => {
                paused = p.status == Status::Paused;
                pos = match p.status {
                    Status::Seek(to) => to as usize,
                    Status::Paused => pos + p.consumed,
                    Status::NeedInput | Status::Done => end,
                };
            }
        }
    }
    decoder.finish(sums).is_ok()
}

fn inputs() -> Vec<(String, Vec<u8>)> {
    use testkit::stories::*;
    let mut out = fixtures();
    for layout in [Layout::DepthFirst, Layout::Grouped, Layout::Backward] {
        for vcs in [false, true] {
            out.push((
                format!("{layout:?} {vcs}"),
                write(&sample(), layout, vcs, 4),
            ));
        }
        out.push((format!("big {layout:?}"), big(layout)));
    }
    out
}

#[test]
fn decoding_never_allocates() {
    let inputs = inputs();
    let mut decoded = 0;
    for (name, file) in &inputs {
        for chunk in [1, 7, 64, 4096, usize::MAX / 2] {
            if chunk == 1 && file.len() > 10_000 {
                continue;
            }
            for pause in [false, true] {
                let mut sums = Sums {
                    pause,
                    ..Sums::default()
                };
                let (count, ok) = allocations(|| run(file, chunk, true, &mut sums));
                assert_eq!(count, 0, "{name}: chunks of {chunk}, pause {pause}");
                decoded += usize::from(ok);
                black_box(&sums);
            }
        }
    }
    assert!(decoded > inputs.len(), "most inputs decode");
}

#[test]
fn failing_never_allocates() {
    for (name, file) in inputs() {
        // Truncations (with seeks), and a caller that cannot seek.
        for cut in (0..file.len()).step_by((file.len() / 40).max(1)) {
            let mut sums = Sums::default();
            let (count, _) = allocations(|| run(&file[..cut], 7, true, &mut sums));
            assert_eq!(count, 0, "{name}: cut at {cut}");
            black_box(&sums);
        }
        let mut sums = Sums::default();
        let (count, _) = allocations(|| run(&file, 64, false, &mut sums));
        assert_eq!(count, 0, "{name}: no seek");
        black_box(&sums);
    }
}

#[test]
fn the_counter_counts() {
    // The allocator does see allocations made while armed.
    let (count, v) = allocations(|| black_box(vec![1u8; 100]));
    assert!(count >= 1);
    drop(v);
}
