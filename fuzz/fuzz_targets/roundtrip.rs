//! Decode → encode → decode through the streaming encoder (fuzz/src/roundtrip.rs): the input
//! is a byte of options (target format, quantize, piece size), then the file.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &[u8]| {
    gtastream_fuzz::roundtrip::check(input);
});
