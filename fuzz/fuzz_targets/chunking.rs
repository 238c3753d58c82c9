//! The same bytes decoded whole and cut into fuzzer-chosen pieces, with pauses at
//! fuzzer-chosen events (and an optional abort), give identical event logs, warnings, errors,
//! offsets and seeks. The input is a small plan (`harness::Plan::parse`), then the file.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &[u8]| {
    if let Some((plan, data)) = gtastream_fuzz::harness::Plan::parse(input) {
        gtastream_fuzz::harness::check_chunking(&plan, data);
    }
});
