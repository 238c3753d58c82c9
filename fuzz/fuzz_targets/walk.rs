//! `walk`: a game or mod folder from any bytes (`testkit::folder::MemFiles::from_bytes`: level
//! files, IDEs, IPLs, archives, `animgrp.dat`, `ped.ifp` by path) walked as `check DIR` walks
//! it, for a game the first byte chooses: no panic, the same events in the host's short reads
//! as whole, every finding naming files already numbered (`testkit::folder::check_walk`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &[u8]| {
    // Bounded work: the walk reads every byte a few times.
    if input.len() <= 64 * 1024 {
        testkit::folder::check_walk(input);
    }
});
