//! Writes an input of the C benchmark (`c-examples/bench/`, see PERFORMANCE.md), of at least
//! MIB MiB (default 32), made by the project's own benchmark generator (`benches/inputs/mod.rs`,
//! the same as the criterion benchmarks use). The same arguments always give the same bytes.
//!
//! - `anp3` (the default): an ANP3 package of packed keyframes, types 3 and 4, written by the
//!   project's encoder (`gtastream::encode::ifp2`);
//! - `bnry`: a San Andreas binary IPL (docs/FORMATS.md §4), its bytes written directly: the
//!   76-byte header, 40-byte instance records, then one 48-byte car record for every 16
//!   instances, with varied positions, rotations, model ids, interiors and car fields.
//!
//! ```text
//! cargo run --release --features alloc --example bench_file -- OUT [MIB [anp3|bnry]]
//! ```

#[path = "../benches/inputs/mod.rs"]
mod inputs;

use std::process::ExitCode;

/// The seed of the C benchmark's input.
const SEED: u64 = 0x6774_7331_7373_7565;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (path, mib, format) = match args.as_slice() {
        [path] => (path, Some(32), "anp3"),
        [path, mib] => (path, mib_of(mib), "anp3"),
        [path, mib, format] => (path, mib_of(mib), format.as_str()),
        _ => return usage(),
    };
    let Some(mib) = mib else {
        return usage();
    };
    let (input, unit) = match format {
        "anp3" => (inputs::anp3(mib << 20, SEED), "keyframes"),
        "bnry" => (inputs::ipl_binary(mib << 20, SEED), "records"),
        _ => return usage(),
    };
    if let Err(e) = std::fs::write(path, &input.bytes) {
        eprintln!("bench_file: {path}: {e}");
        return ExitCode::FAILURE;
    }
    println!(
        "{path}: {} bytes ({:.1} MiB), {} {unit}",
        input.bytes.len(),
        input.bytes.len() as f64 / (1 << 20) as f64,
        input.items
    );
    ExitCode::SUCCESS
}

/// MIB, if it is a size this generator makes.
fn mib_of(text: &str) -> Option<usize> {
    text.parse::<usize>()
        .ok()
        .filter(|mib| (1..=1024).contains(mib))
}

fn usage() -> ExitCode {
    eprintln!(
        "usage: bench_file OUT [MIB [FORMAT]]   (MIB: 1 to 1024, default 32; \
         FORMAT: anp3 (default) or bnry)"
    );
    ExitCode::from(2)
}
