//! Arbitrary bytes through every entry point of the Rust API: `Decoder::feed` and `finish`
//! (seeking and not), `Decoder::decode_slice`, `Package::parse`, `Placement::parse`. The format
//! is sniffed from the magic, so one target covers all of them. See `harness::check_decode`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    gtastream_fuzz::harness::check_decode(data);
});
