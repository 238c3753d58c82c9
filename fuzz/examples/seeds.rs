//! Writes the seed corpora: `cargo run --example seeds -- DIR` makes `DIR/decode/` and
//! `DIR/chunking/`, ... (one directory per target) (CI uses `fuzz/corpus/ci`; git ignores `fuzz/corpus`: corpora are not committed).

use std::path::PathBuf;

use gtastream_fuzz::seeds;
use testkit::img::Img;

fn main() -> std::io::Result<()> {
    let dir = PathBuf::from(
        std::env::args_os()
            .nth(1)
            .unwrap_or_else(|| "corpus".into()),
    );
    let targets = [
        // Models too: the JS and Python tests compare every file here with the command line.
        ("decode", [seeds::files(), seeds::dff_seeds()].concat()),
        ("chunking", seeds::chunking_inputs()),
        ("capi", capi_inputs()),
        ("archive", archive_inputs()),
        ("roundtrip", roundtrip_inputs()),
        ("dff", seeds::dff_inputs()),
        ("gltf", gltf_inputs()),
        ("walk", testkit::folder::walk_inputs()),
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

/// The `roundtrip` target reads a byte of options, then a file: each file for every target
/// format, whole and in pieces, with and without quantize.
fn roundtrip_inputs() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for (name, file) in seeds::files() {
        for options in [0u8, 1, 2, 3, 4, 0x19, 0x2A, 0x13, 0x34] {
            let mut input = vec![options];
            input.extend_from_slice(&file);
            out.push((format!("{name}-{options:02x}"), input));
        }
    }
    out
}

/// The `archive` target: the `decode` seeds inside archives, as version 2 and as version 1
/// (flags byte, chunk byte, for version 1 the `.dir`'s length, then the bytes).
fn archive_inputs() -> Vec<(String, Vec<u8>)> {
    let files: Vec<(String, Vec<u8>)> = seeds::files()
        .into_iter()
        .enumerate()
        .map(|(i, (_, bytes))| (format!("e{i}.bin"), bytes))
        .collect();
    let img = Img::in_order(&files);
    let (v2, (dir, data)) = (img.v2(), img.v1());
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

/// The `gltf` target: the export's glTF and GLB of a San Andreas package on an SA skin and of
/// a Vice City one on a VC ped (the shapes the import reads back), and a three.js-like glTF of
/// a Mixamo-named rig whose buffer is a file beside it.
fn gltf_inputs() -> Vec<(String, Vec<u8>)> {
    use gtastream::gltf::export::{export, Options};
    use gtastream::rig::read_skeleton;
    let mut out = Vec::new();
    let pairs = [
        (
            "sa",
            testkit::ifp2::anp3_packed().build(),
            testkit::dff::sa_skin().bytes(),
        ),
        (
            "sa_all",
            testkit::ifp2::anp3_all_types().build(),
            testkit::dff::sa_skin().bytes(),
        ),
    ];
    for (name, ifp, model) in pairs {
        let Ok(skeleton) = read_skeleton(&model) else {
            continue;
        };
        if let Ok(export) = export(&ifp, &skeleton, &Options::default()) {
            out.push((format!("{name}.gltf"), export.to_gltf()));
            out.push((format!("{name}.glb"), export.to_glb()));
        }
    }
    let three = br#"{"asset":{"version":"2.0","generator":"THREE.GLTFExporter"},
"nodes":[{"name":"mixamorig:Hips","children":[1]},{"name":"mixamorig:LeftUpLeg"}],
"buffers":[{"byteLength":48,"uri":"walk.bin"}],
"bufferViews":[{"buffer":0,"byteLength":8},{"buffer":0,"byteOffset":8,"byteLength":32}],
"accessors":[{"bufferView":0,"componentType":5126,"count":2,"type":"SCALAR"},
{"bufferView":1,"componentType":5126,"count":2,"type":"VEC4"}],
"animations":[{"name":"Walk","channels":[{"sampler":0,"target":{"node":0,"path":"rotation"}},
{"sampler":1,"target":{"node":1,"path":"rotation"}}],
"samplers":[{"input":0,"output":1},{"input":0,"output":1,"interpolation":"STEP"}]}]}"#;
    out.push(("three_mixamo.gltf".into(), three.to_vec()));
    out
}
