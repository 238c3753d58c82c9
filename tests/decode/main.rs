//! The decoding tests of gtastream, one binary (linking one is much faster than thirty), one
//! module per topic. The shared support is the test kit (`testkit/`).

mod anpk_bytes;
mod anpk_oddities;
mod anpk_package;
mod anpk_streaming;
mod archive;
mod archive_plan;
mod archive_write;
mod bounded_work;
mod checks;
mod chunking;
mod context;
mod dff;
mod encode_roundtrip;
mod errors;
#[cfg(feature = "gltf")]
mod gltf;
mod hostile_counts;
mod hostile_markers;
mod hostile_offsets;
mod hostile_replay;
mod hostile_truncation;
// IDE is read by the text machine; its tests write files back too.
#[cfg(all(feature = "ipl-text", feature = "alloc"))]
mod ide;
mod ifp2_bytes;
mod ifp2_sloppy;
mod ipl_binary;
mod ipl_chunking;
mod ipl_placement;
#[cfg(feature = "ipl-text")]
mod ipl_text;
mod ipl_truncation;
#[cfg(feature = "std")]
mod mod_folder;
mod package;
mod pause;
mod record_types;
mod rewrite;
mod rig;
mod sample;
mod samples;
mod stories_bytes;
mod stories_layouts;
mod stories_package;
mod stories_table;
mod summary;
mod truncation;

/// The error text input gives: `kind` when text IPL is built in (the core's default feature
/// `ipl-text`), else `Unsupported` whatever the text.
fn text_error(kind: gtastream::ErrorKind) -> gtastream::ErrorKind {
    if cfg!(feature = "ipl-text") {
        kind
    } else {
        gtastream::ErrorKind::Unsupported
    }
}
