//! Generates the C header `include/gtastream.h` from this crate's source with cbindgen, using
//! the repository's `cbindgen.toml`. The header is committed; CI rebuilds and diffs it.

use std::path::{Path, PathBuf};
use std::{env, fs};

fn main() {
    let crate_dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let root = crate_dir.parent().expect("ffi/ lies in the repository");
    let config_path = root.join("cbindgen.toml");
    println!("cargo:rerun-if-changed=src");
    // The tests build the C library for the target they run on (see tests/c_examples.rs).
    for var in ["TARGET", "HOST"] {
        println!(
            "cargo:rustc-env=GTS_BUILD_{var}={}",
            env::var(var).expect("set by cargo")
        );
    }
    println!("cargo:rerun-if-changed={}", config_path.display());

    let config = cbindgen::Config::from_file(&config_path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", config_path.display()));
    let bindings = cbindgen::Builder::new()
        .with_config(config)
        .with_src(crate_dir.join("src/lib.rs"))
        .generate()
        .unwrap_or_else(|e| panic!("cbindgen: {e}"));
    let mut header = Vec::new();
    bindings.write(&mut header);

    let out = PathBuf::from(env::var("OUT_DIR").expect("set by cargo")).join("gtastream.h");
    fs::write(&out, &header).unwrap_or_else(|e| panic!("writing {}: {e}", out.display()));
    write_if_changed(&root.join("include/gtastream.h"), &header);
}

/// Writes the committed header only when its content changes, so that builds do not touch it
/// needlessly. A read-only source tree gets a warning, not a failed build (the copy in OUT_DIR
/// is still there).
fn write_if_changed(path: &Path, content: &[u8]) {
    if fs::read(path).is_ok_and(|old| old == content) {
        return;
    }
    let written = path
        .parent()
        .map_or(Ok(()), fs::create_dir_all)
        .and_then(|()| fs::write(path, content));
    if let Err(e) = written {
        println!("cargo:warning=could not write {}: {e}", path.display());
    }
}
