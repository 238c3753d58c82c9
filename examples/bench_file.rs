//! Writes the input of the C benchmark (`c-examples/bench/`, see PERFORMANCE.md): an ANP3
//! package of at least MIB MiB (default 32) of packed keyframes, types 3 and 4, made by the
//! project's own benchmark generator (`benches/inputs/mod.rs`, the same as the criterion
//! benchmarks use) and encoder (`gtastream::encode::ifp2`). The same arguments always give the
//! same bytes.
//!
//! ```text
//! cargo run --release --features alloc --example bench_file -- target/bench-32mib.ifp [MIB]
//! ```

#[path = "../benches/inputs/mod.rs"]
mod inputs;

use std::process::ExitCode;

/// The seed of the C benchmark's input.
const SEED: u64 = 0x6774_7331_7373_7565;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (path, mib) = match args.as_slice() {
        [path] => (path, 32),
        [path, mib] => match mib.parse::<usize>() {
            Ok(mib) if (1..=1024).contains(&mib) => (path, mib),
            _ => return usage(),
        },
        _ => return usage(),
    };
    let input = inputs::anp3(mib << 20, SEED);
    if let Err(e) = std::fs::write(path, &input.bytes) {
        eprintln!("bench_file: {path}: {e}");
        return ExitCode::FAILURE;
    }
    println!(
        "{path}: {} bytes ({:.1} MiB), {} keyframes",
        input.bytes.len(),
        input.bytes.len() as f64 / (1 << 20) as f64,
        input.items
    );
    ExitCode::SUCCESS
}

fn usage() -> ExitCode {
    eprintln!("usage: bench_file OUT [MIB]   (MIB: 1 to 1024, default 32)");
    ExitCode::from(2)
}
