//! `dff`: the DFF reader over any bytes never panics and reports the same events whole and
//! cut; the skeleton built from the cut file's records is the one read whole; the skeleton
//! report, binding, posing and the checks against the skeleton never panic
//! (`harness::check_model`). The input is a small plan (`harness::Plan::parse`), then the file.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &[u8]| {
    if let Some((plan, data)) = gtastream_fuzz::harness::Plan::parse(input) {
        gtastream_fuzz::harness::check_model(&plan, data);
    }
});
