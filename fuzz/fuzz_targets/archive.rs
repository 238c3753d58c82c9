//! IMG archives: the archive decoder over arbitrary bytes, as a version 2 `.img` or as a
//! version 1 `.dir`/`.img` pair, never panics or hangs, and gives the same events, entry
//! results and archive result whole and cut into fuzzer-chosen pieces (with pauses at every
//! event when asked). The input: a flags byte (bit 0: version 1; bit 1: pause at every event),
//! a chunk-size byte, for version 1 two bytes of the `.dir`'s length, then the bytes.
#![no_main]

use gtastream::archive::{ArchiveDecoder, Choice, Entry};
use libfuzzer_sys::fuzz_target;
use testkit::img::feed_in_pieces;
use testkit::log::{Policy, Recorder};

fn new_decoder(v1: bool, dir: &[u8], img: &[u8]) -> ArchiveDecoder {
    if v1 {
        ArchiveDecoder::version1(dir.len() as u64, img.len() as u64)
    } else {
        ArchiveDecoder::new(img.len() as u64)
    }
}

/// Every other entry is decoded, whatever its format.
fn every_other(entry: &Entry<'_>) -> Choice {
    if entry.index.is_multiple_of(2) {
        Choice::Decode
    } else {
        Choice::Skip
    }
}

/// The kit's log, exact: every event, keyframes one by one (batches follow the cuts), every
/// float by its bits.
fn recorder(policy: Policy) -> Recorder {
    Recorder::new(policy).exact().choosing(every_other)
}

fuzz_target!(|input: &[u8]| {
    let [flags, chunk, rest @ ..] = input else {
        return;
    };
    let v1 = flags & 1 != 0;
    let (dir, img) = if v1 {
        let [a, b, rest @ ..] = rest else {
            return;
        };
        let split = usize::from(u16::from_le_bytes([*a, *b])).min(rest.len());
        rest.split_at(split)
    } else {
        (&[][..], rest)
    };
    let chunk = usize::from(*chunk).max(1) * if flags & 4 != 0 { 64 } else { 1 };

    let mut whole = recorder(Policy::Continue);
    let whole_result = new_decoder(v1, dir, img).decode_slices(dir, img, &mut whole);
    let policy = if flags & 2 != 0 {
        Policy::PauseEvery
    } else {
        Policy::Continue
    };
    let mut cut = recorder(policy);
    let cut_result = feed_in_pieces(&mut new_decoder(v1, dir, img), dir, img, chunk, &mut cut);
    assert_eq!(whole_result, cut_result);
    assert_eq!(whole.events, cut.events);
});
