//! `feed` and `finish` never allocate on ANP3/ANP2 files: the kit's counting allocator counts
//! the allocations made on the decoding thread while the decoder runs.

use std::hint::black_box;

use gtastream::{Decoder, Flow, Keyframes, Visitor, Warning, DECODER_SIZE};
use testkit::ifp2::*;

/// Allocations (and frees) made by `f` on this thread.
fn allocations(f: impl FnOnce()) -> usize {
    testkit::alloc_count::allocations(f).0
}

/// Uses every event without allocating: counts, and sums of the decoded values.
#[derive(Default)]
struct Sums {
    events: usize,
    frames: usize,
    warnings: usize,
    sum: f64,
    raw_sum: i64,
    ended: bool,
}

impl Visitor for Sums {
    fn file(&mut self, info: &gtastream::FileInfo<'_>) -> Flow {
        self.events += 1;
        self.sum += info.name.map_or(0, <[u8]>::len) as f64;
        Flow::Continue
    }
    fn animation(&mut self, info: &gtastream::AnimationInfo<'_>) -> Flow {
        self.events += 1;
        self.sum += info.name.len() as f64;
        Flow::Continue
    }
    fn bone(&mut self, info: &gtastream::BoneInfo<'_>) -> Flow {
        self.events += 1;
        self.sum += info.bone_id.unwrap_or(0) as f64;
        Flow::Continue
    }
    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        self.events += 1;
        self.frames += frames.len();
        for k in frames.iter() {
            self.sum += f64::from(k.time + k.rotation[3] + k.translation[0]);
        }
        if let Some(raw) = frames.raw() {
            for r in raw {
                self.raw_sum += i64::from(r.time) + i64::from(r.rotation[0]);
            }
        }
        self.sum += frames.as_bytes().len() as f64;
        Flow::Continue
    }
    fn bone_end(&mut self) -> Flow {
        self.events += 1;
        Flow::Continue
    }
    fn animation_end(&mut self) -> Flow {
        self.events += 1;
        Flow::Continue
    }
    fn warning(&mut self, _warning: Warning) -> Flow {
        self.events += 1;
        self.warnings += 1;
        Flow::Continue
    }
    fn end(&mut self) -> Flow {
        self.ended = true;
        Flow::Continue
    }
}

/// A multi-animation file with every frame type, warnings and trailing bytes.
fn big_fixture() -> Vec<u8> {
    let mut animations = Vec::new();
    for spec in [
        anp3_all_types(),
        anp3_multi(),
        time_backwards(),
        all_oddities(),
    ] {
        animations.extend(spec.animations);
    }
    FileSpec::anp3("big", animations)
        .size(7)
        .trailing(&[9; 33])
        .build()
}

#[test]
fn the_counter_sees_allocations() {
    // Without this the other tests could pass with a counter that counts nothing.
    let n = allocations(|| {
        black_box(Box::new(black_box(5u64)));
    });
    assert_eq!(n, 2, "one allocation and one free");
}

#[test]
fn decoding_allocates_nothing() {
    let file = big_fixture();
    let expected = log_whole(&file);
    let frames = keyframes(&expected).len();
    let warning_count = warnings(&expected).len();
    assert!(
        frames > 20 && warning_count >= 6,
        "the fixture exercises the decoder"
    );

    for chunk in [file.len(), 1, 7] {
        let mut decoder = Decoder::new();
        let mut sums = Sums::default();
        let mut result = Ok(());
        let n = allocations(|| {
            for piece in file.chunks(chunk) {
                if let Err(e) = decoder.feed(piece, &mut sums) {
                    result = Err(e);
                    return;
                }
            }
            result = decoder.finish(&mut sums);
        });
        assert_eq!(result, Ok(()));
        assert_eq!(n, 0, "chunks of {chunk}: {n} allocations");
        assert!(sums.ended);
        assert_eq!(sums.frames, frames);
        assert_eq!(sums.warnings, warning_count);
        black_box((sums.sum, sums.raw_sum, sums.events));
    }
}

/// Pauses on every keyframe batch, bone end and warning (the caller re-feeds the rest).
struct PauseAll(Sums);

impl Visitor for PauseAll {
    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        self.0.keyframes(frames);
        Flow::Pause
    }
    fn bone_end(&mut self) -> Flow {
        self.0.bone_end();
        Flow::Pause
    }
    fn warning(&mut self, w: Warning) -> Flow {
        self.0.warning(w);
        Flow::Pause
    }
    fn end(&mut self) -> Flow {
        self.0.end()
    }
}

#[test]
fn errors_pauses_and_truncation_allocate_nothing() {
    let file = big_fixture();
    let mut probes: Vec<Vec<u8>> = error_fixtures().into_iter().map(|(_, f)| f).collect();
    probes.push(file[..file.len() / 2].to_vec());
    probes.push(Vec::new());
    for probe in &probes {
        for chunk in [probe.len().max(1), 1, 7] {
            let mut decoder = Decoder::new();
            let mut sums = Sums::default();
            let n = allocations(|| {
                for piece in probe.chunks(chunk) {
                    if decoder.feed(piece, &mut sums).is_err() {
                        break;
                    }
                }
                let _ = decoder.finish(&mut sums);
                let _ = decoder.feed(b"more", &mut sums);
                decoder.reset();
            });
            assert_eq!(n, 0, "{} bytes in chunks of {chunk}", probe.len());
        }
    }

    let mut decoder = Decoder::new();
    let mut visitor = PauseAll(Sums::default());
    let mut pauses = 0;
    let n = allocations(|| {
        for piece in file.chunks(7) {
            let mut rest = piece;
            loop {
                let p = decoder.feed(rest, &mut visitor).unwrap();
                rest = &rest[p.consumed..];
                if p.status != gtastream::Status::Paused {
                    break;
                }
                pauses += 1;
            }
        }
        decoder.finish(&mut visitor).unwrap();
    });
    assert_eq!(n, 0);
    assert!(pauses > 20);
    assert_eq!(visitor.0.frames, keyframes(&log_whole(&file)).len());
}

#[test]
fn the_decoder_is_small() {
    const { assert!(DECODER_SIZE <= 512) };
    assert_eq!(DECODER_SIZE, std::mem::size_of::<Decoder>());
}
