//! Indexing an animation and sampling it (looped and not, every storage kind) never allocates;
//! nor does summarising a file while decoding it.

use std::hint::black_box;

use gtastream::{AnimationSummary, Decoder, Flow, Sampler, Summarize, Visitor};
use testkit::ifp2::*;
use testkit::stories::{self, Layout};

fn allocations(f: impl FnOnce()) -> usize {
    testkit::alloc_count::allocations(f).0
}

#[test]
fn sampling_allocates_nothing() {
    let files = [
        anp3_all_types().build(),
        anp3_packed().build(),
        stories::write(&stories::sample(), Layout::Backward, true, 0),
    ];
    for data in &files {
        let n = allocations(|| {
            let sampler = Sampler::<32>::by_index(data, 0).expect("an animation");
            let mut sum = 0.0f32;
            for step in 0..40 {
                let t = step as f32 * 0.05;
                for looped in [false, true] {
                    let _ = sampler.sample(t, looped, |pose| {
                        sum += pose.rotation[3] + pose.translation.map_or(0.0, |t| t[0]);
                    });
                }
            }
            black_box(sum);
        });
        assert_eq!(n, 0);
    }
}

#[derive(Default)]
struct Lengths(f32);

impl Visitor for Lengths {
    fn animation_summary(&mut self, summary: &AnimationSummary) -> Flow {
        self.0 += summary.length + summary.standard.count_ones() as f32;
        Flow::Continue
    }
}

#[test]
fn summarizing_allocates_nothing() {
    let data = anp3_all_types().build();
    let n = allocations(|| {
        let mut visitor = Summarize::new(Lengths::default());
        for chunk in [1, 7, 4096] {
            let mut decoder = Decoder::new();
            for piece in data.chunks(chunk) {
                decoder.feed(piece, &mut visitor).unwrap();
            }
            decoder.finish(&mut visitor).unwrap();
        }
        black_box(visitor.inner.0);
    });
    assert_eq!(n, 0);
}
