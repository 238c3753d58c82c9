//! Generates the C header `include/gtastream.h` from this crate's source with cbindgen, using
//! the repository's `cbindgen.toml`. The header is committed; CI rebuilds and diffs it. Before
//! that it writes `src/records.rs`, the C structs of the record kinds, from the core's record
//! declaration (`build_records.rs`), committed too.

use std::path::{Path, PathBuf};
use std::{env, fs};

#[path = "build_records.rs"]
mod records;

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

    // The record kinds' C structs, from the core's declaration, before cbindgen reads them.
    println!("cargo:rerun-if-changed=build_records.rs");
    write_if_changed(
        &crate_dir.join("src/records.rs"),
        records::source().as_bytes(),
    );

    let mut config = cbindgen::Config::from_file(&config_path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", config_path.display()));
    config.after_includes = Some(preamble());
    // The record kinds' structs: no signature names them (`on_record` passes `const void *`).
    config.export.include.extend(records::struct_names());
    let bindings = cbindgen::Builder::new()
        .with_config(config)
        .with_src(crate_dir.join("src/lib.rs"))
        .generate()
        .unwrap_or_else(|e| panic!("cbindgen: {e}"));
    let mut header = Vec::new();
    bindings.write(&mut header);
    let header =
        with_calling_convention(&String::from_utf8(header).expect("cbindgen writes UTF-8"));
    let header = header.into_bytes();

    let out = PathBuf::from(env::var("OUT_DIR").expect("set by cargo")).join("gtastream.h");
    fs::write(&out, &header).unwrap_or_else(|e| panic!("writing {}: {e}", out.display()));
    write_if_changed(&root.join("include/gtastream.h"), &header);

    // The shared library's SONAME carries the major version (0.x: the minor one too would be
    // the Cargo convention, but the C ABI is versioned by GTS_ABI_VERSION, checked at run time),
    // so that installed copies are versioned libgtastream.so.MAJOR.MINOR.PATCH files.
    if env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        let major = env::var("CARGO_PKG_VERSION_MAJOR").expect("set by cargo");
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libgtastream.so.{major}");
    }
}

/// The header's own macros, after the includes: the calling convention and the version.
fn preamble() -> String {
    let version = |part: &str| env::var(format!("CARGO_PKG_VERSION_{part}")).expect("set by cargo");
    format!(
        "
/*
 * The calling convention of every function and callback type: cdecl on 32-bit Windows, where a
 * project may compile with another default (/Gz, /Gr, /Gv), and the platform's C convention
 * elsewhere. Predefine GTS_CALL to override (only to spell __cdecl for another compiler).
 */
#ifndef GTS_CALL
#if defined(_WIN32) && !defined(_WIN64)
#define GTS_CALL __cdecl
#else
#define GTS_CALL
#endif
#endif

/* The version of the library this header comes with (gts_version() gives the library's). */
#define GTS_VERSION_MAJOR {}
#define GTS_VERSION_MINOR {}
#define GTS_VERSION_PATCH {}",
        version("MAJOR"),
        version("MINOR"),
        version("PATCH")
    )
}

/// Puts `GTS_CALL` into every function declaration and function pointer of cbindgen's output
/// (cbindgen has no option for it): `T name(` becomes `T GTS_CALL name(` for the `gts_`
/// functions, declared at the start of a line, and `(*name)(` becomes `(GTS_CALL *name)(`.
/// Comments are left alone.
fn with_calling_convention(header: &str) -> String {
    let mut out = String::with_capacity(header.len() + 4096);
    let mut functions = 0;
    let mut continued = false;
    for line in header.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let comment =
            trimmed.starts_with("/*") || trimmed.starts_with('*') || trimmed.starts_with("//");
        if comment || trimmed.starts_with('#') {
            out.push_str(line);
            continue;
        }
        let line = line.replace("(*", "(GTS_CALL *");
        // A function declaration: at column 0, `... gts_name(` before any other parenthesis.
        let at_column_0 = !line.starts_with(' ') && !line.starts_with("typedef");
        let declaration = line.find('(').filter(|_| at_column_0).and_then(|paren| {
            let head = &line[..paren];
            let name_at = head.rfind([' ', '*'])? + 1;
            head[name_at..].starts_with("gts_").then_some(name_at)
        });
        match declaration {
            Some(name_at) => {
                functions += 1;
                out.push_str(&line[..name_at]);
                out.push_str("GTS_CALL ");
                out.push_str(&line[name_at..]);
                continued = !line.trim_end().ends_with(';');
            }
            // The arguments of a declaration on the next lines stay aligned with its first.
            None if continued => {
                out.push_str("         ");
                out.push_str(&line);
                continued = !line.trim_end().ends_with(';');
            }
            None => out.push_str(&line),
        }
    }
    assert!(
        functions > 0,
        "no function declaration found to mark GTS_CALL"
    );
    out
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
