//! Tracking the context and turning an error into a `Failure` never allocates, whole and fed
//! byte by byte, for a file that decodes and for every cut of it.

use gtastream::context::{self, Tracked};
use gtastream::{Decoder, Visitor};
use testkit::ifp2::{AnimSpec, BoneSpec, FileSpec};

struct Ignore;
impl Visitor for Ignore {}

#[test]
fn tracking_does_not_allocate() {
    let bone = |times: &[i16]| BoneSpec::packed("Root", times);
    let file = FileSpec::anp3(
        "demo",
        vec![
            AnimSpec::new("walk", vec![bone(&[0, 1]), bone(&[1, 0])]),
            AnimSpec::new("run", vec![bone(&[0])]),
        ],
    )
    .build();
    let mut failures = 0;
    let (allocations, ()) = testkit::alloc_count::allocations(|| {
        for cut in 0..=file.len() {
            if context::decode_slice(&mut Decoder::new(), &file[..cut], &mut Ignore).is_err() {
                failures += 1;
            }
        }
        let mut decoder = Decoder::new();
        let mut tracked = Tracked::new(Ignore);
        for byte in file.chunks(1) {
            tracked.feed(&mut decoder, byte).unwrap();
        }
        tracked.finish(&mut decoder).unwrap();
    });
    assert_eq!(allocations, 0);
    assert_eq!(
        failures,
        file.len(),
        "every cut fails, the whole file decodes"
    );
}
