//! Writes the sample package `samples/walk.ifp` (ANP3, package "demo": walk, run, idle).
//!
//! ```text
//! cargo run --example make_sample --features alloc            # writes samples/walk.ifp
//! cargo run --example make_sample --features alloc -- OUT.ifp # writes elsewhere
//! ```
//!
//! The file is procedural (see `sample/demo.rs`) and encoded by `gtastream::encode::ifp2`;
//! `tests/decode/samples.rs` checks that the committed copy is byte-identical to what this makes.

#[path = "sample/demo.rs"]
mod demo;

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let path = match std::env::args_os().nth(1) {
        Some(path) => PathBuf::from(path),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(demo::SAMPLE_PATH),
    };
    let bytes = demo::bytes();
    if let Err(error) = std::fs::write(&path, &bytes) {
        eprintln!("make_sample: {}: {error}", path.display());
        return ExitCode::FAILURE;
    }
    println!("wrote {} ({} bytes)", path.display(), bytes.len());
    ExitCode::SUCCESS
}
