//! `check`: the checker over any file never panics; its findings (rules, games, offsets,
//! contexts) are the same whole and cut into the plan's pieces; a failed decode ends with the
//! finding for it. The same bytes are also checked as a version 2 archive. The input is a
//! small plan (`harness::Plan::parse`, as for `chunking`), then the file.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &[u8]| {
    if let Some((plan, data)) = gtastream_fuzz::harness::Plan::parse(input) {
        gtastream_fuzz::harness::check_findings(&plan, data);
    }
});
