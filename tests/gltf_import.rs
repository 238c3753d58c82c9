//! glTF → IFP (`gtastream::gltf::import`): glTFs built here, shaped as three.js's exporter
//! writes them (a Mixamo-named rig, times at 30 Hz, one data-URI buffer), come in as IFPs that
//! the checker accepts for their game; each error names its key or node.

use gtastream::check::{Checker, Finding, Games, Level};
use gtastream::gltf::import::{import, read, BoneMap, ImportErrorKind, ImportOptions};
use gtastream::{Decoder, Format, FrameType, Package};
use serde_json::{json, Value};

/// A glTF under construction: one binary buffer, written as a data URI or a GLB chunk.
#[derive(Default)]
struct Builder {
    bin: Vec<u8>,
    views: Vec<Value>,
    accessors: Vec<Value>,
    nodes: Vec<Value>,
    channels: Vec<Value>,
    samplers: Vec<Value>,
    sampler_extras: Vec<(usize, Value)>,
}

impl Builder {
    /// An accessor of floats (`kind`: SCALAR, VEC3, VEC4).
    fn floats(&mut self, values: &[f32], kind: &str, per: usize) -> usize {
        let offset = self.bin.len();
        for v in values {
            self.bin.extend_from_slice(&v.to_le_bytes());
        }
        self.views
            .push(json!({"buffer": 0, "byteOffset": offset, "byteLength": values.len() * 4}));
        self.accessors.push(json!({
            "bufferView": self.views.len() - 1, "componentType": 5126,
            "count": values.len() / per, "type": kind
        }));
        self.accessors.len() - 1
    }

    fn node(&mut self, name: &str) -> usize {
        self.nodes.push(json!({ "name": name }));
        self.nodes.len() - 1
    }

    /// A channel on `node`'s `path` with its own sampler.
    fn channel(&mut self, node: usize, path: &str, input: usize, output: usize, interp: &str) {
        self.samplers
            .push(json!({"input": input, "output": output, "interpolation": interp}));
        self.channels.push(
            json!({"sampler": self.samplers.len() - 1, "target": {"node": node, "path": path}}),
        );
    }

    fn json(&self, name: &str) -> Value {
        let mut samplers = self.samplers.clone();
        for (s, extras) in &self.sampler_extras {
            samplers[*s]["extras"] = extras.clone();
        }
        json!({
            "asset": {"version": "2.0", "generator": "THREE.GLTFExporter"},
            "scene": 0,
            "scenes": [{"nodes": [0]}],
            "nodes": self.nodes,
            "buffers": [{"byteLength": self.bin.len(), "uri": format!("data:application/octet-stream;base64,{}", base64(&self.bin))}],
            "bufferViews": self.views,
            "accessors": self.accessors,
            "animations": [{"name": name, "channels": self.channels, "samplers": samplers}],
        })
    }

    fn gltf(&self, name: &str) -> Vec<u8> {
        serde_json::to_vec(&self.json(name)).unwrap()
    }

    /// The same as a GLB: the JSON chunk, then the BIN chunk.
    fn glb(&self, name: &str) -> Vec<u8> {
        let mut json = self.json(name);
        json["buffers"] = json!([{"byteLength": self.bin.len()}]);
        let mut text = serde_json::to_vec(&json).unwrap();
        while !text.len().is_multiple_of(4) {
            text.push(b' ');
        }
        let mut bin = self.bin.clone();
        while !bin.len().is_multiple_of(4) {
            bin.push(0);
        }
        let mut out = Vec::new();
        out.extend_from_slice(b"glTF");
        out.extend_from_slice(&2u32.to_le_bytes());
        out.extend_from_slice(&((12 + 8 + text.len() + 8 + bin.len()) as u32).to_le_bytes());
        out.extend_from_slice(&(text.len() as u32).to_le_bytes());
        out.extend_from_slice(b"JSON");
        out.extend_from_slice(&text);
        out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
        out.extend_from_slice(b"BIN\0");
        out.extend_from_slice(&bin);
        out
    }
}

fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(A[(n >> (18 - 6 * i)) as usize & 63] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// A rotation of `angle` radians about the unit axis `axis`.
fn quat(axis: [f32; 3], angle: f32) -> [f32; 4] {
    let (s, c) = (angle / 2.0).sin_cos();
    [axis[0] * s, axis[1] * s, axis[2] * s, c]
}

/// The Mixamo map of docs/ANIMATION.md, as a user would save it.
fn mixamo_map() -> BoneMap {
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/ANIMATION.md")).unwrap();
    let start = doc
        .find("# Mixamo (mixamorig:) to San Andreas")
        .expect("the map in the doc");
    let block = &doc[start..];
    let block = &block[..block.find("```").unwrap()];
    BoneMap::parse(block).unwrap()
}

/// A walk as three.js exports a Mixamo character: hips rotating and moving, a thigh swinging,
/// a bone GTA lacks (Spine2), a scale track; keys every 1/30 s.
fn three_js_walk() -> Builder {
    let mut b = Builder::default();
    let armature = b.node("Armature");
    let hips = b.node("mixamorig:Hips");
    let thigh = b.node("mixamorig:LeftUpLeg");
    let spine2 = b.node("mixamorig:Spine2");
    b.nodes[armature]["children"] = json!([hips]);
    b.nodes[hips]["children"] = json!([thigh, spine2]);
    let times: Vec<f32> = (0..31).map(|k| k as f32 / 30.0).collect();
    let input = b.floats(&times, "SCALAR", 1);
    let rot: Vec<f32> = times
        .iter()
        .flat_map(|t| quat([0.0, 1.0, 0.0], 0.2 * (t * 6.0).sin()))
        .collect();
    let swing: Vec<f32> = times
        .iter()
        .flat_map(|t| quat([1.0, 0.0, 0.0], 0.6 * (t * 6.0).sin()))
        .collect();
    let moved: Vec<f32> = times.iter().flat_map(|t| [0.0, 1.0, 1.4 * t]).collect();
    let scale: Vec<f32> = times.iter().flat_map(|_| [1.0, 1.0, 1.0]).collect();
    let (rot, swing, moved, scale) = (
        b.floats(&rot, "VEC4", 4),
        b.floats(&swing, "VEC4", 4),
        b.floats(&moved, "VEC3", 3),
        b.floats(&scale, "VEC3", 3),
    );
    b.channel(hips, "rotation", input, rot, "LINEAR");
    b.channel(hips, "translation", input, moved, "LINEAR");
    b.channel(thigh, "rotation", input, swing, "LINEAR");
    b.channel(spine2, "rotation", input, swing, "LINEAR");
    b.channel(hips, "scale", input, scale, "LINEAR");
    b
}

fn no_files(uri: &str) -> Result<Vec<u8>, String> {
    Err(format!("no file {uri} here"))
}

/// The errors of `check` on `bytes` for `games` (the file's games if `None`).
fn check_errors(bytes: &[u8], games: Option<Games>) -> Vec<Finding> {
    let mut findings = Vec::new();
    {
        let mut checker = Checker::with_games(games, |f: &Finding| findings.push(*f));
        checker.set_file_name(b"walk.ifp");
        Decoder::new().decode_slice(bytes, &mut checker).unwrap();
        checker.finish();
    }
    findings.retain(|f| f.level() == Level::Error);
    findings
}

#[test]
fn three_js_mixamo_walk_comes_in_as_an_anp3_that_check_accepts() {
    let map = mixamo_map();
    let gltf = read(&three_js_walk().gltf("Walk"), &mut no_files).unwrap();
    let mut options = ImportOptions::new(Format::Anp3, "walk");
    options.bone_map = Some(&map);
    options.quantize = true;
    options.report = true;
    let out = import(&gltf, &options).unwrap();
    assert!(check_errors(&out.bytes, None).is_empty());
    let package = Package::parse(&out.bytes).unwrap();
    assert_eq!(package.format, Format::Anp3);
    assert_eq!(package.name.as_deref(), Some("walk"));
    let walk = package.animation("Walk").unwrap();
    // Hips → Pelvis (id 1) with its translation, the thigh → L Thigh (41); Spine2 maps to
    // nothing and the scale track has no place: both are noted, not written.
    let bones: Vec<_> = walk
        .bones
        .iter()
        .map(|b| (b.name.clone().unwrap(), b.bone_id, b.frame_type))
        .collect();
    assert_eq!(
        bones,
        [
            ("Pelvis".to_string(), Some(1), FrameType::Ifp2PackedRotTrans),
            ("L Thigh".to_string(), Some(41), FrameType::Ifp2PackedRot),
        ]
    );
    assert!(
        out.notes.iter().any(|n| n.contains("mixamorig:Spine2")),
        "{:?}",
        out.notes
    );
    assert!(
        out.notes.iter().any(|n| n.contains("scale")),
        "{:?}",
        out.notes
    );
    // Quantized: each value within half a step of the glTF's.
    let pelvis = &walk.bones[0];
    assert_eq!(pelvis.frames.len(), 31);
    assert_eq!(pelvis.frames[30].time, 1.0);
    assert!((pelvis.frames[30].translation[2] - 1.4).abs() <= 0.5 / 1024.0);
    // The report measures the rounding (under a millimetre) and the games' snaps: where two
    // keys' rotations are so close that their dot product rounds to 1 in f32, the games jump
    // to the next key (docs/ANIMATION.md), a couple of degrees on this slow swing.
    assert_eq!(out.report.len(), 2);
    for row in &out.report {
        assert!(row.angle < 3.0 && row.position < 0.001, "{row:?}");
    }
}

#[test]
fn the_same_walk_as_a_glb_gives_the_same_file() {
    let map = mixamo_map();
    let b = three_js_walk();
    let mut options = ImportOptions::new(Format::Anp3, "walk");
    options.bone_map = Some(&map);
    options.quantize = true;
    let from_gltf = import(&read(&b.gltf("Walk"), &mut no_files).unwrap(), &options).unwrap();
    let from_glb = import(&read(&b.glb("Walk"), &mut no_files).unwrap(), &options).unwrap();
    assert_eq!(from_gltf.bytes, from_glb.bytes);
}

#[test]
fn keys_off_the_packed_steps_are_refused_naming_the_key() {
    let map = mixamo_map();
    let gltf = read(&three_js_walk().gltf("Walk"), &mut no_files).unwrap();
    let mut options = ImportOptions::new(Format::Anp3, "walk");
    options.bone_map = Some(&map);
    let error = import(&gltf, &options).unwrap_err();
    assert_eq!(error.kind, ImportErrorKind::Key);
    // Key 0 (time 0, the identity) lies on the steps; key 1 does not.
    assert!(error.message.contains("node 1 (mixamorig:Hips)"), "{error}");
    assert!(error.message.contains("key 1 "), "{error}");
    assert!(error.message.contains("--quantize"), "{error}");
    // ANP2 is refused the same way; with --quantize it is packed and checked too.
    let mut anp2 = ImportOptions::new(Format::Anp2, "walk");
    anp2.bone_map = Some(&map);
    assert_eq!(import(&gltf, &anp2).unwrap_err().kind, ImportErrorKind::Key);
    anp2.quantize = true;
    let out = import(&gltf, &anp2).unwrap();
    assert!(check_errors(&out.bytes, None).is_empty());
    assert_eq!(Package::parse(&out.bytes).unwrap().format, Format::Anp2);
    // For GTA III alone, ANPK bones carry no id (its 48-byte ANIM chunks).
    let mut iii = ImportOptions::new(Format::Anpk, "walk");
    iii.bone_map = Some(&map);
    iii.games = Some(Games::III);
    let out = import(&gltf, &iii).unwrap();
    let ids: Vec<_> = out.package.animations[0]
        .bones
        .iter()
        .map(|b| b.bone_id)
        .collect();
    assert_eq!(ids, [None, None]);
    // For San Andreas alone, float frames hold the keys exactly.
    options.games = Some(Games::SA);
    let out = import(&gltf, &options).unwrap();
    let package = Package::parse(&out.bytes).unwrap();
    let pelvis = &package.animations[0].bones[0];
    assert_eq!(pelvis.frame_type, FrameType::Ifp2RotTrans);
    assert_eq!(pelvis.frames[1].time, 1.0 / 30.0);
}

#[test]
fn anpk_holds_every_float_exactly_and_marked_steps_come_back() {
    let mut b = Builder::default();
    let root = b.node("Root");
    let spine = b.node("Spine");
    b.nodes[root]["children"] = json!([spine]);
    // The export's extras: frame 2, bone id 2.
    b.nodes[spine]["extras"] = json!({"gtastream": {"frame": 2, "bone_id": 2}});
    let step = f32::from_bits(0.5f32.to_bits() + 1);
    let input = b.floats(&[0.0, 0.5, step, 1.0], "SCALAR", 1);
    let q = [
        quat([0.0, 0.0, 1.0], 0.1),
        quat([0.0, 0.0, 1.0], 0.3),
        quat([0.0, 0.0, 1.0], 0.7),
        quat([0.0, 0.0, 1.0], 0.9),
    ];
    let values: Vec<f32> = q.iter().flatten().copied().collect();
    let output = b.floats(&values, "VEC4", 4);
    b.channel(spine, "rotation", input, output, "LINEAR");
    b.sampler_extras
        .push((0, json!({"gtastream": {"steps": [2]}})));
    let gltf = read(&b.gltf("idle"), &mut no_files).unwrap();
    let out = import(&gltf, &ImportOptions::new(Format::Anpk, "idle")).unwrap();
    assert!(check_errors(&out.bytes, None).is_empty());
    let package = Package::parse(&out.bytes).unwrap();
    let bone = &package.animations[0].bones[0];
    assert_eq!(
        (bone.name.as_deref(), bone.bone_id),
        (Some("Spine"), Some(2))
    );
    assert_eq!(bone.frame_type, FrameType::Kr00);
    let times: Vec<f32> = bone.frames.iter().map(|k| k.time).collect();
    assert_eq!(times, [0.0, 0.5, 0.5, 1.0]);
    for (k, frame) in bone.frames.iter().enumerate() {
        assert_eq!(frame.rotation, q[k], "key {k}: ANPK's conjugation undone");
    }
}

#[test]
fn step_and_cubic_channels_need_resample_and_then_land_on_60_hz() {
    let mut b = Builder::default();
    let pelvis = b.node("Bip01 Pelvis");
    let input = b.floats(&[0.0, 0.25, 0.5], "SCALAR", 1);
    let q: Vec<f32> = [0.0, 0.4, 0.8]
        .iter()
        .flat_map(|&a| quat([0.0, 0.0, 1.0], a))
        .collect();
    let output = b.floats(&q, "VEC4", 4);
    b.channel(pelvis, "rotation", input, output, "STEP");
    let gltf = read(&b.gltf("step"), &mut no_files).unwrap();
    let mut options = ImportOptions::new(Format::Anp3, "step");
    options.games = Some(Games::SA);
    let error = import(&gltf, &options).unwrap_err();
    assert_eq!(error.kind, ImportErrorKind::Key);
    assert!(error.message.contains("node 0 (Bip01 Pelvis)"), "{error}");
    assert!(
        error.message.contains("STEP") && error.message.contains("--resample 60"),
        "{error}"
    );
    options.resample = Some(60);
    options.quantize = true;
    let out = import(&gltf, &options).unwrap();
    let package = Package::parse(&out.bytes).unwrap();
    let bone = &package.animations[0].bones[0];
    assert_eq!(bone.name.as_deref(), Some("Pelvis"));
    assert_eq!(bone.frames.len(), 31);
    assert_eq!(bone.frames[15].time, 0.25);
    // STEP holds the first value up to the second key.
    assert_eq!(bone.frames[14].rotation, [0.0, 0.0, 0.0, 1.0]);
}

#[test]
fn rotation_and_translation_keys_at_different_times_name_the_first_that_differs() {
    let mut b = Builder::default();
    let root = b.node("Root");
    let t1 = b.floats(&[0.0, 0.5, 1.0], "SCALAR", 1);
    let t2 = b.floats(&[0.0, 0.5, 0.75], "SCALAR", 1);
    let q = b.floats(&[0.0, 0.0, 0.0, 1.0].repeat(3), "VEC4", 4);
    let p = b.floats(&[0.0; 9], "VEC3", 3);
    b.channel(root, "rotation", t1, q, "LINEAR");
    b.channel(root, "translation", t2, p, "LINEAR");
    let gltf = read(&b.gltf("a"), &mut no_files).unwrap();
    let error = import(&gltf, &ImportOptions::new(Format::Anpk, "a")).unwrap_err();
    assert_eq!(error.kind, ImportErrorKind::Key);
    assert!(
        error.message.contains("node 0 (Root)") && error.message.contains("key 2"),
        "{error}"
    );
}

#[test]
fn times_that_do_not_increase_name_the_key() {
    let mut b = Builder::default();
    let root = b.node("Root");
    let t = b.floats(&[0.0, 0.5, 0.5], "SCALAR", 1);
    let q = b.floats(&[0.0, 0.0, 0.0, 1.0].repeat(3), "VEC4", 4);
    b.channel(root, "rotation", t, q, "LINEAR");
    let gltf = read(&b.gltf("a"), &mut no_files).unwrap();
    let error = import(&gltf, &ImportOptions::new(Format::Anpk, "a")).unwrap_err();
    assert_eq!(error.kind, ImportErrorKind::Key);
    assert!(
        error.message.contains("node 0 (Root)") && error.message.contains("key 2 at 0.5 s"),
        "{error}"
    );
}

#[test]
fn a_rig_that_maps_to_nothing_and_two_nodes_on_one_bone_are_errors() {
    let mut b = Builder::default();
    let a = b.node("mixamorig:Hips");
    let t = b.floats(&[0.0], "SCALAR", 1);
    let q = b.floats(&[0.0, 0.0, 0.0, 1.0], "VEC4", 4);
    b.channel(a, "rotation", t, q, "LINEAR");
    let gltf = read(&b.gltf("a"), &mut no_files).unwrap();
    let error = import(&gltf, &ImportOptions::new(Format::Anpk, "a")).unwrap_err();
    assert_eq!(error.kind, ImportErrorKind::Unmapped);
    assert!(error.message.contains("--bone-map"), "{error}");

    let c = b.node("Bip01 Pelvis");
    b.channel(c, "rotation", t, q, "LINEAR");
    let map = BoneMap::parse("mixamorig:Hips = 1\n").unwrap();
    let gltf = read(&b.gltf("a"), &mut no_files).unwrap();
    let mut options = ImportOptions::new(Format::Anpk, "a");
    options.bone_map = Some(&map);
    let error = import(&gltf, &options).unwrap_err();
    assert_eq!(error.kind, ImportErrorKind::Unmapped);
    assert!(
        error.message.contains("0 (mixamorig:Hips)") && error.message.contains("1 (Bip01 Pelvis)"),
        "{error}"
    );
}

#[test]
fn bone_map_lines_that_do_not_read_name_their_line() {
    let error = BoneMap::parse("# a comment\nmixamorig:Hips = Pelvis\nmixamorig:Spine Spine\n")
        .unwrap_err();
    assert_eq!(error.kind, ImportErrorKind::BoneMap);
    assert!(error.message.starts_with("line 3:"), "{error}");
}

#[test]
fn hostile_containers_and_json_are_clear_errors() {
    // GLB declaring more bytes than it has.
    let mut glb = three_js_walk().glb("Walk");
    glb[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
    let error = read(&glb, &mut no_files).err().unwrap();
    assert_eq!((error.kind, error.offset), (ImportErrorKind::Glb, Some(8)));
    // A chunk running past the end.
    let mut glb = three_js_walk().glb("Walk");
    glb[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
    let error = read(&glb, &mut no_files).err().unwrap();
    assert_eq!((error.kind, error.offset), (ImportErrorKind::Glb, Some(12)));
    // JSON cut short: the offset is in the text.
    let text = three_js_walk().gltf("Walk");
    let error = read(&text[..40], &mut no_files).err().unwrap();
    assert_eq!(error.kind, ImportErrorKind::Json);
    assert!(error.offset.unwrap() <= 40);
    // Not glTF at all.
    let error = read(b"{\"nodes\": []}", &mut no_files).err().unwrap();
    assert_eq!(error.kind, ImportErrorKind::Json);
    // An accessor past its buffer.
    let mut json: Value = serde_json::from_slice(&text).unwrap();
    json["accessors"][0]["count"] = json!(1u64 << 40);
    let gltf = read(&serde_json::to_vec(&json).unwrap(), &mut no_files).unwrap();
    let map = mixamo_map();
    let mut options = ImportOptions::new(Format::Anpk, "walk");
    options.bone_map = Some(&map);
    let error = import(&gltf, &options).unwrap_err();
    assert_eq!(error.kind, ImportErrorKind::Range);
    assert!(error.message.contains("accessor 0"), "{error}");
    // An external buffer the loader refuses.
    json["buffers"][0]["uri"] = json!("../../etc/passwd");
    let error = read(&serde_json::to_vec(&json).unwrap(), &mut no_files)
        .err()
        .unwrap();
    assert_eq!(error.kind, ImportErrorKind::Uri);
}

/// IFP → glTF (the export) → IFP: a rotation per bone `b` and key `k`.
fn turn(b: usize, k: usize) -> [f32; 4] {
    testkit::rig::quaternion(
        [
            1.0 + b as f32 * 0.4,
            0.5 - k as f32 * 0.3,
            0.25 + (b % 3) as f32,
        ],
        0.15 + 0.3 * k as f32 + 0.05 * b as f32,
    )
}

/// `ifp` exported on `model`, as a GLB, read back.
fn exported(ifp: &[u8], model: &[u8]) -> gtastream::gltf::import::Gltf {
    let skeleton = gtastream::rig::read_skeleton(model).unwrap();
    let export = gtastream::gltf::export::export(
        ifp,
        &skeleton,
        &gtastream::gltf::export::Options::default(),
    )
    .unwrap();
    assert!(export.unwritten.is_empty());
    read(&export.to_glb(), &mut no_files).unwrap()
}

#[test]
fn sa_packed_round_trip_through_gltf_gives_the_same_bytes() {
    use testkit::ifp2::{p3, p4, AnimSpec, BoneSpec, FileSpec};
    let packed = |b: usize, k: usize| turn(b, k).map(|c| (c * 4096.0).round() as i16);
    let ticks = [0i16, 15, 18, 18, 60];
    let root = ticks
        .iter()
        .enumerate()
        .map(|(k, &t)| p4(packed(0, k), t, [100 * k as i16, -50, 1024]))
        .collect();
    let mut bones = vec![BoneSpec::new("Root", 4, 0, root)];
    for (b, (name, id)) in [
        ("Pelvis", 1),
        ("Spine", 2),
        ("Head", 5),
        ("R UpperArm", 22),
        ("L Thigh", 41),
    ]
    .into_iter()
    .enumerate()
    {
        let frames = ticks
            .iter()
            .enumerate()
            .map(|(k, &t)| p3(packed(b + 1, k), t))
            .collect();
        bones.push(BoneSpec::new(name, 3, id, frames));
    }
    let ifp = FileSpec::anp3("ped", vec![AnimSpec::new("walk", bones)]).build();
    let gltf = exported(&ifp, &testkit::dff::sa_skin().bytes());
    // The export normalises each key as the games do, off the packed steps: --quantize rounds
    // them back to the very integers stored.
    let mut options = ImportOptions::new(Format::Anp3, "ped");
    options.quantize = true;
    let out = import(&gltf, &options).unwrap();
    // The same file written clean (the test kit fills name tails with 0xCD).
    let mut clean = Package::parse(&ifp).unwrap();
    clean.normalise();
    assert_eq!(out.bytes, gtastream::encode::write(&clean).unwrap());
}

#[test]
fn vc_float_round_trip_through_gltf_gives_the_same_bytes() {
    use testkit::anpk::{anim, bone, bytes, kf, package};
    let times = [0.0, 0.4, 0.7, 0.7, 1.2];
    let bones = [("Root", 0), ("Spine", 2), ("Head", 5), ("R UpperArm", 22)]
        .iter()
        .enumerate()
        .map(|(b, &(name, id))| {
            let moves = b == 0;
            let keys = times
                .iter()
                .enumerate()
                .map(|(k, &t)| {
                    let at = if moves {
                        [0.2 * k as f32, 0.0, 0.9]
                    } else {
                        [0.0; 3]
                    };
                    kf(t, turn(b, k), at, [1.0; 3])
                })
                .collect();
            bone(
                name,
                Some(id),
                if moves {
                    FrameType::Krt0
                } else {
                    FrameType::Kr00
                },
                keys,
            )
        })
        .collect();
    let ifp = bytes(&package("ped", vec![anim("run", bones)]));
    let gltf = exported(&ifp, &testkit::dff::vc_ped().bytes());
    let out = import(&gltf, &ImportOptions::new(Format::Anpk, "ped")).unwrap();
    assert_eq!(
        Package::parse(&out.bytes).unwrap(),
        Package::parse(&ifp).unwrap()
    );
    assert_eq!(out.bytes, ifp);
}

/// What the fuzz target (fuzz/fuzz_targets/gltf.rs) runs, over an exported GLB cut at every
/// length and with bytes changed: errors, never a panic.
#[test]
fn cut_and_changed_glbs_are_errors_not_panics() {
    let ifp = testkit::ifp2::anp3_packed().build();
    let skeleton = gtastream::rig::read_skeleton(&testkit::dff::sa_skin().bytes()).unwrap();
    let export = gtastream::gltf::export::export(
        &ifp,
        &skeleton,
        &gtastream::gltf::export::Options::default(),
    )
    .unwrap();
    let glb = export.to_glb();
    let run = |bytes: &[u8]| {
        if let Ok(gltf) = read(bytes, &mut no_files) {
            for format in [Format::Anp3, Format::Anpk] {
                let mut options = ImportOptions::new(format, "fuzz");
                options.quantize = true;
                options.resample = Some(60);
                options.report = true;
                let _ = import(&gltf, &options);
            }
        }
    };
    for len in (0..glb.len()).step_by(7) {
        run(&glb[..len]);
    }
    let mut changed = glb.clone();
    for at in (0..glb.len()).step_by(17) {
        let old = changed[at];
        for new in [b'9', 0xFF] {
            changed[at] = new;
            run(&changed);
        }
        changed[at] = old;
    }
}

/// The conversion speed on a stock-sized package (330 animations of the SA skin's 32 bones, 31
/// packed keys each, the root moving: about 330 000 keys), both ways. Run in release:
/// `cargo test --release --features gltf --test gltf_import -- --ignored --nocapture speed`.
#[test]
#[ignore]
fn speed_on_a_stock_sized_package() {
    use std::time::Instant;
    use testkit::ifp2::{p3, p4, AnimSpec, BoneSpec, FileSpec};
    let ids: Vec<i32> = testkit::dff::SA_BONES.iter().map(|b| b.0).collect();
    let animations = (0..330)
        .map(|a| {
            let bones = ids
                .iter()
                .enumerate()
                .map(|(b, &id)| {
                    let frames = (0..31)
                        .map(|k| {
                            let q = turn(b + a % 7, k % 5).map(|c| (c * 4096.0).round() as i16);
                            let t = 2 * k as i16;
                            if b == 0 {
                                p4(q, t, [10 * k as i16, 0, 1024])
                            } else {
                                p3(q, t)
                            }
                        })
                        .collect();
                    let name = testkit::dff::SA_BONES[b].1.trim();
                    BoneSpec::new(name, if b == 0 { 4 } else { 3 }, id, frames)
                })
                .collect();
            AnimSpec::new(&format!("anim_{a:03}"), bones)
        })
        .collect();
    let ifp = FileSpec::anp3("ped", animations).build();
    let skeleton = gtastream::rig::read_skeleton(&testkit::dff::sa_skin().bytes()).unwrap();
    let options = gtastream::gltf::export::Options::default();
    let start = Instant::now();
    let export = gtastream::gltf::export::export(&ifp, &skeleton, &options).unwrap();
    let glb = export.to_glb();
    let to_gltf = start.elapsed();
    let start = Instant::now();
    let gltf = read(&glb, &mut no_files).unwrap();
    let mut import_options = ImportOptions::new(Format::Anp3, "ped");
    import_options.quantize = true;
    let out = import(&gltf, &import_options).unwrap();
    let from_gltf = start.elapsed();
    assert_eq!(out.package.animations.len(), 330);
    println!(
        "{} bytes of ANP3 ({} keys) -> {} bytes of GLB in {:?}; back to ANP3 (checked) in {:?}",
        ifp.len(),
        330 * 32 * 31,
        glb.len(),
        to_gltf,
        from_gltf
    );
}

#[test]
fn skeleton_frame_names_map_nodes_the_tables_do_not_know() {
    // A cutscene ped's facial bones (ids 5001..) are known to the model only.
    let model = testkit::dff::cutscene_ped().bytes();
    let skeleton = gtastream::rig::read_skeleton(&model).unwrap();
    let mut b = Builder::default();
    let face = b.node("FACE03");
    let pelvis = b.node("Pelvis");
    let t = b.floats(&[0.0, 0.5], "SCALAR", 1);
    let q = b.floats(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0], "VEC4", 4);
    b.channel(face, "rotation", t, q, "LINEAR");
    b.channel(pelvis, "rotation", t, q, "LINEAR");
    let gltf = read(&b.gltf("talk"), &mut no_files).unwrap();
    let without = import(&gltf, &ImportOptions::new(Format::Anp3, "talk")).unwrap();
    assert!(without.notes.iter().any(|n| n.contains("node 0 (FACE03)")));
    let mut options = ImportOptions::new(Format::Anp3, "talk");
    options.skeleton = Some(&skeleton);
    let out = import(&gltf, &options).unwrap();
    let bones: Vec<_> = out.package.animations[0]
        .bones
        .iter()
        .map(|b| (b.name.clone().unwrap(), b.bone_id))
        .collect();
    // The frame's HAnim id; ` Pelvis` matched with its blank aside, named as SA names id 1.
    assert_eq!(
        bones,
        [
            ("face03".to_string(), Some(5004)),
            ("Pelvis".to_string(), Some(1))
        ]
    );
}

#[test]
fn the_stock_shaped_ped_comes_back_byte_for_byte_steps_included() {
    // 330 animations, 770 bones with two keys at one time (testkit::stock).
    let ifp = testkit::stock::sa_ped().build();
    let gltf = exported(&ifp, &testkit::dff::sa_skin().bytes());
    let out = import(&gltf, &ImportOptions::new(Format::Anp3, "ped")).unwrap();
    let mut clean = Package::parse(&ifp).unwrap();
    clean.normalise();
    assert_eq!(out.bytes, gtastream::encode::write(&clean).unwrap());
}
