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
        ("capi", capi_inputs()),
        ("archive", archive_inputs()),
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

/// The `capi` target reads the `chunking` plan, with flags bit 1 meaning "move the decoder to
/// other storage between calls": each `chunking` seed as it is and with that bit set.
fn capi_inputs() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for (name, input) in seeds::chunking_inputs() {
        let flags = 1 + usize::from(input[0] & 7) + 1 + 2;
        let mut moved = input.clone();
        moved[flags] |= 2;
        out.push((name.clone(), input));
        out.push((format!("{name}-moved"), moved));
    }
    out
}

/// The `archive` target: the `decode` seeds inside archives, as version 2 and as version 1
/// (flags byte, chunk byte, for version 1 the `.dir`'s length, then the bytes).
fn archive_inputs() -> Vec<(String, Vec<u8>)> {
    let files = seeds::files();
    let first = (8 + 32 * files.len()).div_ceil(2048);
    let mut data = vec![0u8; first * 2048];
    let mut dir = Vec::new();
    for (i, (_, bytes)) in files.iter().enumerate() {
        let at = data.len() / 2048;
        let sectors = bytes.len().div_ceil(2048).max(1);
        data.extend_from_slice(bytes);
        data.resize((at + sectors) * 2048, 0);
        let mut name = [0u8; 24];
        let text = format!("e{i}.bin");
        name[..text.len()].copy_from_slice(text.as_bytes());
        dir.extend_from_slice(&(at as u32).to_le_bytes());
        dir.extend_from_slice(&(sectors as u32).to_le_bytes());
        dir.extend_from_slice(&name);
    }
    let mut v2 = data.clone();
    v2[..4].copy_from_slice(b"VER2");
    v2[4..8].copy_from_slice(&(files.len() as u32).to_le_bytes());
    for i in 0..files.len() {
        let record = &dir[32 * i..32 * i + 32];
        let at = 8 + 32 * i;
        v2[at..at + 4].copy_from_slice(&record[..4]);
        v2[at + 4..at + 6].copy_from_slice(&record[4..6]);
        v2[at + 8..at + 32].copy_from_slice(&record[8..]);
    }
    let mut out = Vec::new();
    for (flags, chunk) in [(0u8, 255u8), (4, 16), (2, 7)] {
        let mut input = vec![flags, chunk];
        input.extend_from_slice(&v2);
        out.push((format!("v2-{flags}-{chunk}"), input));
    }
    if dir.len() <= usize::from(u16::MAX) {
        let mut input = vec![1u8, 255];
        input.extend_from_slice(&(dir.len() as u16).to_le_bytes());
        input.extend_from_slice(&dir);
        input.extend_from_slice(&data);
        out.push(("v1".into(), input));
    }
    out
}
