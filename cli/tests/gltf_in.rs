//! `gtastream convert --to anp3|anp2|anpk IN.gltf|IN.glb OUT.ifp`: a three.js-like glTF of a
//! Mixamo-named rig with its buffer in a file beside it, a map file, the block name from OUT's
//! stem or `--block`, errors naming the key with OUT left as it was, the buffer read from the
//! glTF's folder only.

#[allow(dead_code)]
mod support;

use std::path::{Path, PathBuf};

use gtastream::{Format, FrameType, Package};
use support::{run, stderr};

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("gltf-in-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// `walk.gltf` and `walk.bin` in `dir`: hips and left thigh turning, keys at `times`, the
/// thigh's channel interpolated as `interpolation`; `uri` names the buffer.
fn walk(dir: &Path, times: [f32; 3], interpolation: &str, uri: &str) -> PathBuf {
    let (s, c) = (0.25f32 / 2.0).sin_cos();
    let mut bin = Vec::new();
    for v in times
        .into_iter()
        .chain([0.0, 0.0, 0.0, 1.0, 0.0, s, 0.0, c, 0.0, 0.0, 0.0, 1.0])
    {
        bin.extend_from_slice(&v.to_le_bytes());
    }
    std::fs::write(dir.join("walk.bin"), &bin).unwrap();
    let json = format!(
        r#"{{"asset":{{"version":"2.0","generator":"THREE.GLTFExporter"}},
"scenes":[{{"nodes":[0]}}],
"nodes":[{{"name":"mixamorig:Hips","children":[1]}},{{"name":"mixamorig:LeftUpLeg"}}],
"buffers":[{{"byteLength":60,"uri":"{uri}"}}],
"bufferViews":[{{"buffer":0,"byteLength":12}},{{"buffer":0,"byteOffset":12,"byteLength":48}}],
"accessors":[{{"bufferView":0,"componentType":5126,"count":3,"type":"SCALAR"}},
{{"bufferView":1,"componentType":5126,"count":3,"type":"VEC4"}}],
"animations":[{{"name":"Walk","channels":[{{"sampler":0,"target":{{"node":0,"path":"rotation"}}}},
{{"sampler":1,"target":{{"node":1,"path":"rotation"}}}}],
"samplers":[{{"input":0,"output":1}},{{"input":0,"output":1,"interpolation":"{interpolation}"}}]}}]}}"#
    );
    let path = dir.join("walk.gltf");
    std::fs::write(&path, json).unwrap();
    std::fs::write(
        dir.join("mixamo.txt"),
        "# Mixamo\nmixamorig:Hips = Pelvis\nmixamorig:LeftUpLeg = 41\n",
    )
    .unwrap();
    path
}

#[test]
fn a_mixamo_gltf_with_a_map_comes_in_as_a_checked_anp3() {
    let dir = scratch("mixamo");
    let input = walk(&dir, [0.0, 0.5, 1.0], "LINEAR", "walk.bin");
    let map = dir.join("mixamo.txt");
    let out = dir.join("dance.ifp");
    let quantize = [
        "convert",
        "--to",
        "anp3",
        "--bone-map",
        s(&map),
        "--quantize",
    ];
    let output = run(&[&quantize[..], &["--report", s(&input), s(&out)]].concat());
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stderr(&output).contains("bone \"L Thigh\" (node \"mixamorig:LeftUpLeg\")"));
    let package = Package::parse(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(
        (package.format, package.name.as_deref()),
        (Format::Anp3, Some("dance"))
    );
    let bones: Vec<_> = package.animations[0]
        .bones
        .iter()
        .map(|b| (b.name.as_deref().unwrap(), b.bone_id, b.frame_type))
        .collect();
    assert_eq!(
        bones,
        [
            ("Pelvis", Some(1), FrameType::Ifp2PackedRot),
            ("L Thigh", Some(41), FrameType::Ifp2PackedRot)
        ]
    );
    // --block names the block; ANPK holds the floats as they are.
    let out = dir.join("other.ifp");
    let output = run(&[
        "convert",
        "--to",
        "anpk",
        "--bone-map",
        s(&map),
        "--block",
        "walks",
        s(&input),
        s(&out),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let package = Package::parse(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(package.name.as_deref(), Some("walks"));
}

#[test]
fn a_key_the_target_cannot_hold_is_named_and_nothing_is_written() {
    let dir = scratch("refused");
    let input = walk(&dir, [0.0, 0.5, 1.0], "CUBICSPLINE", "walk.bin");
    let map = dir.join("mixamo.txt");
    let out = dir.join("ped.ifp");
    std::fs::write(&out, b"before").unwrap();
    let output = run(&[
        "convert",
        "--to",
        "anpk",
        "--bone-map",
        s(&map),
        s(&input),
        s(&out),
    ]);
    assert!(!output.status.success());
    // CUBICSPLINE needs three values a key: the channel's counts name it.
    assert!(
        stderr(&output).contains("node 1 (mixamorig:LeftUpLeg)"),
        "{}",
        stderr(&output)
    );
    assert_eq!(std::fs::read(&out).unwrap(), b"before");

    let input = walk(&dir, [0.0, 0.5, 1.0], "STEP", "walk.bin");
    let output = run(&[
        "convert",
        "--to",
        "anpk",
        "--bone-map",
        s(&map),
        s(&input),
        s(&out),
    ]);
    assert!(stderr(&output).contains("STEP") && stderr(&output).contains("--resample 60"));
    assert_eq!(std::fs::read(&out).unwrap(), b"before");
    let output = run(&[
        "convert",
        "--to",
        "anpk",
        "--bone-map",
        s(&map),
        "--resample",
        "60",
        s(&input),
        s(&out),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let package = Package::parse(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(package.animations[0].bones[1].frames.len(), 61);
}

#[test]
fn a_buffer_outside_the_gltfs_folder_is_not_read() {
    let dir = scratch("outside");
    let input = walk(
        &dir,
        [0.0, 0.5, 1.0],
        "LINEAR",
        "../gltf-in-outside/walk.bin",
    );
    let out = dir.join("ped.ifp");
    let output = run(&["convert", "--to", "anpk", s(&input), s(&out)]);
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("only a file beside the glTF"),
        "{}",
        stderr(&output)
    );
}
