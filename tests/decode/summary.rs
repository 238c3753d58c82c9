//! The per-animation summary: hand-computed values on a fixture of every storage class, the
//! same under every cut of the input (the kit's `feed_cut`), and the same from `Package`.
#![cfg(feature = "alloc")]

use gtastream::{AnimationSummary, Flow, Package, Summarize, Visitor};
use testkit::driver::{feed_cut, Cut};
use testkit::ifp2::*;
use testkit::stories::{self, Layout};

#[derive(Default)]
struct Summaries(Vec<AnimationSummary>);

impl Visitor for Summaries {
    fn animation_summary(&mut self, summary: &AnimationSummary) -> Flow {
        self.0.push(*summary);
        Flow::Continue
    }
}

fn summaries(data: &[u8], cut: &Cut) -> Vec<AnimationSummary> {
    let mut visitor = Summarize::new(Summaries::default());
    feed_cut(data, cut, &mut visitor).expect("decodes");
    visitor.into_inner().0
}

/// A packed root, a float bone bound by its blank-padded name, a float bone of no standard
/// name, and a bone without frames; then an animation whose longest bone is not the first.
fn mixed() -> FileSpec {
    FileSpec::anp3(
        "mixed",
        vec![
            AnimSpec::new(
                "a",
                vec![
                    BoneSpec::new(
                        "Root",
                        4,
                        0,
                        vec![
                            p4([0, 0, 0, 4096], 0, [0; 3]),
                            p4([0, 0, 0, 4096], 30, [0; 3]),
                        ],
                    ),
                    BoneSpec::new(
                        " Pelvis",
                        2,
                        -1,
                        vec![f2([0.0, 0.0, 0.0, 1.0], 0.75, [0.0; 3])],
                    ),
                    BoneSpec::new("Tail", 1, -1, vec![f1([0.0, 0.0, 0.0, 1.0], 0.25)]),
                    BoneSpec::new("Jaw", 1, 8, vec![]),
                ],
            )
            .flags(1),
            AnimSpec::new(
                "b",
                vec![
                    BoneSpec::new("Head", 1, 5, vec![f1([0.0, 0.0, 0.0, 1.0], 0.5)]),
                    BoneSpec::new(
                        "L Calf",
                        1,
                        42,
                        (0..100)
                            .map(|i| f1([0.0, 0.0, 0.0, 1.0], i as f32 * 0.03))
                            .collect(),
                    ),
                ],
            ),
        ],
    )
}

#[test]
fn summary_by_hand() {
    let data = mixed().build();
    let got = summaries(&data, &Cut::Whole);
    assert_eq!(got.len(), 2);
    let a = got[0];
    assert_eq!(a.index, 0);
    // The games' length: the largest last key (Pelvis at 0.75), not the first bone's (0.5).
    assert_eq!(a.length, 0.75);
    assert_eq!((a.bones, a.empty, a.keyframes), (4, 1, 4));
    assert_eq!((a.with_id, a.without_id, a.unmatched), (2, 2, 1));
    let names: Vec<&str> = a.standard_bones().map(|b| b.name()).collect();
    assert_eq!(names, ["Root", "Pelvis", "Jaw"]);
    assert_eq!((a.packed, a.float, a.translation, a.scale), (1, 3, 2, 0));
    assert!(a.is_mixed());
    let b = got[1];
    assert_eq!(b.index, 1);
    assert_eq!(b.length, 99.0 * 0.03);
    assert_eq!(b.keyframes, 101);
    assert!(!b.is_mixed());
    let names: Vec<&str> = b.standard_bones().map(|b| b.name()).collect();
    assert_eq!(names, ["Head", "L Calf"]);

    // Package computes the same from owned values.
    let package = Package::parse(&data).unwrap();
    assert_eq!(package.summaries().collect::<Vec<_>>(), got);
    assert_eq!(package.animations[1].length(), b.length);
}

/// Every split of the input, byte by byte and odd chunk sizes give the same summaries (keyframe
/// batches follow the cuts; the last key of a bone does not).
#[test]
fn summary_is_chunk_invariant() {
    let files = [
        mixed().build(),
        anp3_all_types().build(),
        stories::write(&stories::sample(), Layout::Backward, false, 0),
    ];
    for data in &files {
        let whole = summaries(data, &Cut::Whole);
        assert!(!whole.is_empty());
        for cut in
            Cut::every_split(data.len()).chain([Cut::bytewise(), Cut::Sizes(vec![7, 0, 13, 1])])
        {
            assert_eq!(summaries(data, &cut), whole, "{cut:?}");
        }
    }
}

/// Stories: times are the running sums of the deltas, and bones bind by their id.
#[test]
fn stories_summary() {
    let anims = stories::sample();
    let data = stories::write(&anims, Layout::Grouped, true, 0);
    let got = summaries(&data, &Cut::Whole);
    assert_eq!(got.len(), anims.len());
    // walk_player's first bone: deltas 0, 0.5, 0.5.
    assert_eq!(got[0].length, 1.0);
    assert_eq!(got[0].packed, 0);
}
