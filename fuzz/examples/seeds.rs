//! Writes the seed corpora: `cargo run --example seeds -- DIR` makes `DIR/decode/` and
//! `DIR/chunking/` (CI uses `fuzz/corpus/ci`; git ignores `fuzz/corpus`: corpora are not committed).

use std::path::PathBuf;

use gtastream_fuzz::seeds;

fn main() -> std::io::Result<()> {
    let dir = PathBuf::from(
        std::env::args_os()
            .nth(1)
            .unwrap_or_else(|| "corpus".into()),
    );
    let targets = [
        ("decode", seeds::files()),
        ("chunking", seeds::chunking_inputs()),
    ];
    for (target, inputs) in targets {
        let out = dir.join(target);
        std::fs::create_dir_all(&out)?;
        for (name, bytes) in &inputs {
            std::fs::write(out.join(name), bytes)?;
        }
        println!("{}: {} seeds", out.display(), inputs.len());
    }
    Ok(())
}
