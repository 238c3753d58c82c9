//! IFP to glTF (feature `gltf`, docs/ANIMATION.md "glTF"): the document's layout, the keys
//! as written, steps, what is reported, the `.glb` container, and the conventions proved: a
//! stock-shaped idle (every bone holding its rest rotation) evaluated from the glTF alone, with
//! the glTF spec's quaternion-to-matrix formula written here, gives the model's bind pose
//! (matrices from Rodrigues' formula, not the crate's quaternion code) below the Z-up root.

use gtastream::gltf::export::{export, Options, Reason};
use gtastream::gltf::{
    bind_trs, frame_node, step_time, NodeExtras, SamplerExtras, ROOT_NODE, Z_UP_TO_Y_UP,
};
use gtastream::rig::{Skeleton, Unbound};
use serde_json::{json, Value};
use testkit::anpk::{anim, bone, kf, package};
use testkit::ifp2::{f1, f2, p3, AnimSpec, BoneSpec, FileSpec};
use testkit::rig::{mul, quaternion, rest_axis_angle, sa_ped, ModelSpec};

// ------------------------------------------------------------------------------------------
// A glTF evaluator written from the spec (independent of the crate's code).

struct Gltf {
    doc: Value,
    buffer: Vec<u8>,
}

impl Gltf {
    fn accessor(&self, index: &Value) -> Vec<f32> {
        let a = &self.doc["accessors"][index.as_u64().unwrap() as usize];
        let view = &self.doc["bufferViews"][a["bufferView"].as_u64().unwrap() as usize];
        assert_eq!(a["componentType"], 5126);
        let start = view["byteOffset"].as_u64().unwrap_or(0) as usize;
        let len = view["byteLength"].as_u64().unwrap() as usize;
        let width = match a["type"].as_str().unwrap() {
            "SCALAR" => 1,
            "VEC3" => 3,
            "VEC4" => 4,
            "MAT4" => 16,
            t => panic!("{t}"),
        };
        assert_eq!(len, a["count"].as_u64().unwrap() as usize * width * 4);
        self.buffer[start..start + len]
            .chunks(4)
            .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
            .collect()
    }

    fn animation(&self, name: &str) -> &Value {
        self.doc["animations"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["name"] == name)
            .unwrap_or_else(|| panic!("no animation {name}"))
    }

    /// Each node's local TRS at `time` of animation `name` (LINEAR; times within the keys).
    fn local(&self, name: Option<&str>, time: f32) -> Vec<([f64; 3], [f64; 4], [f64; 3])> {
        let f = |v: &Value, d: &[f64]| -> Vec<f64> {
            v.as_array()
                .map(|a| a.iter().map(|x| x.as_f64().unwrap()).collect())
                .unwrap_or_else(|| d.to_vec())
        };
        let mut out: Vec<_> = self.doc["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| {
                let t = f(&n["translation"], &[0.0; 3]);
                let r = f(&n["rotation"], &[0.0, 0.0, 0.0, 1.0]);
                let s = f(&n["scale"], &[1.0; 3]);
                (
                    [t[0], t[1], t[2]],
                    [r[0], r[1], r[2], r[3]],
                    [s[0], s[1], s[2]],
                )
            })
            .collect();
        let Some(name) = name else { return out };
        let a = self.animation(name);
        for ch in a["channels"].as_array().unwrap() {
            let s = &a["samplers"][ch["sampler"].as_u64().unwrap() as usize];
            assert_eq!(s["interpolation"], "LINEAR");
            let times = self.accessor(&s["input"]);
            let values = self.accessor(&s["output"]);
            let width = values.len() / times.len();
            let k = times.iter().rposition(|&t| t <= time).unwrap_or(0);
            let next = (k + 1).min(times.len() - 1);
            let u = if next == k {
                0.0
            } else {
                f64::from((time - times[k]) / (times[next] - times[k]))
            };
            let at = |i: usize| -> Vec<f64> {
                (0..width)
                    .map(|c| f64::from(values[i * width + c]))
                    .collect()
            };
            let (a, b) = (at(k), at(next));
            let v: Vec<f64> = if width == 4 {
                slerp(&a, &b, u)
            } else {
                a.iter().zip(&b).map(|(a, b)| a + (b - a) * u).collect()
            };
            let node = &mut out[ch["target"]["node"].as_u64().unwrap() as usize];
            match ch["target"]["path"].as_str().unwrap() {
                "rotation" => node.1 = [v[0], v[1], v[2], v[3]],
                "translation" => node.0 = [v[0], v[1], v[2]],
                p => panic!("{p}"),
            }
        }
        out
    }

    /// Every node's matrix relative to the scene (column-major).
    fn world(&self, name: Option<&str>, time: f32) -> Vec<[f64; 16]> {
        let local = self.local(name, time);
        let nodes = self.doc["nodes"].as_array().unwrap();
        let mut parent = vec![None; nodes.len()];
        for (i, n) in nodes.iter().enumerate() {
            for c in n["children"].as_array().into_iter().flatten() {
                parent[c.as_u64().unwrap() as usize] = Some(i);
            }
        }
        let mut world = vec![None; nodes.len()];
        fn resolve(
            i: usize,
            parent: &[Option<usize>],
            local: &[([f64; 3], [f64; 4], [f64; 3])],
            world: &mut Vec<Option<[f64; 16]>>,
        ) -> [f64; 16] {
            if let Some(m) = world[i] {
                return m;
            }
            let (t, r, s) = local[i];
            let m = trs(t, r, s);
            let m = match parent[i] {
                Some(p) => mul64(&resolve(p, parent, local, world), &m),
                None => m,
            };
            world[i] = Some(m);
            m
        }
        (0..nodes.len())
            .map(|i| resolve(i, &parent, &local, &mut world))
            .collect()
    }
}

/// glTF's LINEAR rotation: the spherical interpolation from `a` to `b` at `u`.
fn slerp(a: &[f64], b: &[f64], u: f64) -> Vec<f64> {
    let dot: f64 = a.iter().zip(b).map(|(x, y)| x * y).sum();
    let theta = dot.clamp(-1.0, 1.0).acos();
    let (wa, wb) = if theta.abs() < 1e-12 {
        (1.0 - u, u)
    } else {
        (
            ((1.0 - u) * theta).sin() / theta.sin(),
            (u * theta).sin() / theta.sin(),
        )
    };
    let q: Vec<f64> = a.iter().zip(b).map(|(x, y)| wa * x + wb * y).collect();
    let len = q.iter().map(|c| c * c).sum::<f64>().sqrt();
    q.iter().map(|c| c / len).collect()
}

/// The glTF spec's node matrix T · R · S, R from a unit quaternion (x, y, z, w).
fn trs(t: [f64; 3], q: [f64; 4], s: [f64; 3]) -> [f64; 16] {
    let [x, y, z, w] = q;
    let r = [
        [
            1.0 - 2.0 * (y * y + z * z),
            2.0 * (x * y - z * w),
            2.0 * (x * z + y * w),
        ],
        [
            2.0 * (x * y + z * w),
            1.0 - 2.0 * (x * x + z * z),
            2.0 * (y * z - x * w),
        ],
        [
            2.0 * (x * z - y * w),
            2.0 * (y * z + x * w),
            1.0 - 2.0 * (x * x + y * y),
        ],
    ];
    let mut m = [0.0; 16];
    for c in 0..3 {
        for row in 0..3 {
            m[4 * c + row] = r[row][c] * s[c];
        }
    }
    m[12..15].copy_from_slice(&t);
    m[15] = 1.0;
    m
}

fn mul64(a: &[f64; 16], b: &[f64; 16]) -> [f64; 16] {
    let mut o = [0.0; 16];
    for c in 0..4 {
        for r in 0..4 {
            for k in 0..4 {
                o[4 * c + r] += a[4 * k + r] * b[4 * c + k];
            }
        }
    }
    o
}

fn close(a: &[f64; 16], b: &[f32; 16], eps: f64) -> bool {
    a.iter()
        .zip(b)
        .all(|(x, y)| (x - f64::from(*y)).abs() <= eps)
}

fn gltf(ifp: &[u8], skeleton: &Skeleton) -> (Gltf, gtastream::gltf::export::Export) {
    let e = export(ifp, skeleton, &Options::default()).expect("exports");
    let g = Gltf {
        doc: e.document.clone(),
        buffer: e.buffer.clone(),
    };
    (g, e)
}

// ------------------------------------------------------------------------------------------
// The conventions, proved.

/// The rest rotation of bone frame `f` (≥ 1) of `sa_ped`, as the quaternion of its axis and
/// angle.
fn rest(f: usize) -> [f32; 4] {
    let (axis, angle) = rest_axis_angle(f - 1);
    quaternion(axis, angle)
}

/// A stock-shaped idle on `model`: every bone (by id, named with the SA skins' blank) holds
/// its rest rotation at 0 and 1 s; the root also its bind position (type 2). `conjugate`
/// writes the conjugate instead (what a wrong convention would be).
fn idle(model: &ModelSpec, conjugate: bool) -> Vec<u8> {
    let bones = model
        .frames
        .iter()
        .enumerate()
        .skip(1)
        .map(|(f, frame)| {
            let mut q = rest(f);
            if conjugate {
                q = [-q[0], -q[1], -q[2], q[3]];
            }
            let name = String::from_utf8(frame.name.clone().unwrap()).unwrap();
            let id = frame.node_id.unwrap();
            if f == 1 {
                let p = frame.position;
                BoneSpec::new(&name, 2, id, vec![f2(q, 0.0, p), f2(q, 1.0, p)])
            } else {
                BoneSpec::new(&name, 1, id, vec![f1(q, 0.0), f1(q, 1.0)])
            }
        })
        .collect();
    FileSpec::anp3("ped", vec![AnimSpec::new("idle_stance", bones)]).build()
}

/// The Z-up root's matrix: −90° about X, written out.
fn z_up() -> [f64; 16] {
    [
        1.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0,
    ]
}

#[test]
fn a_stock_shaped_idle_in_gltf_is_the_models_bind_pose_below_the_z_up_root() {
    let model = sa_ped();
    let skeleton = model.skeleton();
    let bind = model.model_matrices();
    let (g, e) = gltf(&idle(&model, false), &skeleton);
    assert!(e.unwritten.is_empty(), "{:?}", e.unwritten);
    let root = g.world(None, 0.0)[ROOT_NODE];
    assert!(close(&root, &z_up().map(|v| v as f32), 1e-6), "{root:?}");
    let to_model = |m: &[f64; 16]| mul64(&z_up_inverse(), m);
    // At rest (no animation) and at two times of the idle: the bind pose.
    for (name, time) in [
        (None, 0.0),
        (Some("idle_stance"), 0.0),
        (Some("idle_stance"), 0.5),
    ] {
        let world = g.world(name, time);
        for (f, expected) in bind.iter().enumerate() {
            let got = to_model(&world[frame_node(f as u16)]);
            assert!(
                close(&got, expected, 1e-5),
                "{name:?} {time} frame {f}: {got:?} {expected:?}"
            );
            // The same in glTF's Y-up: the root applied to the model-space matrix.
            let up = mul64(&z_up(), &expected.map(f64::from));
            assert!(close(
                &world[frame_node(f as u16)],
                &up.map(|v| v as f32),
                1e-5
            ));
        }
    }
    // The conjugate (the other quaternion convention) is not the bind pose.
    let (g, _) = gltf(&idle(&model, true), &skeleton);
    let world = g.world(Some("idle_stance"), 0.0);
    assert!(bind.iter().enumerate().skip(2).all(|(f, b)| !close(
        &to_model(&world[frame_node(f as u16)]),
        b,
        1e-3
    )));
}

fn z_up_inverse() -> [f64; 16] {
    [
        1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0,
    ]
}

#[test]
fn the_root_rotation_takes_z_up_to_y_up() {
    let m = trs([0.0; 3], Z_UP_TO_Y_UP.map(f64::from), [1.0; 3]);
    let z = [m[8], m[9], m[10]];
    let y = [m[4], m[5], m[6]];
    assert!(
        (z[1] - 1.0).abs() < 1e-7 && z[0].abs() < 1e-7 && z[2].abs() < 1e-7,
        "{z:?}"
    );
    assert!((y[2] + 1.0).abs() < 1e-7, "{y:?}");
}

/// ANPK's quaternions are stored conjugated and played conjugated back (docs/FORMATS.md):
/// an ANPK idle written with the rest rotations (the encoder stores their conjugates) is the
/// bind pose too.
#[test]
fn an_anpk_idle_is_the_bind_pose() {
    let model = sa_ped();
    let skeleton = model.skeleton();
    let bones = (1..model.frames.len())
        .map(|f| {
            let id = model.frames[f].node_id;
            let keys = [0.0, 1.0]
                .map(|t| kf(t, rest(f), [0.0; 3], [1.0; 3]))
                .to_vec();
            bone(&format!("b{f}"), id, gtastream::FrameType::Kr00, keys)
        })
        .collect();
    let ifp = testkit::anpk::bytes(&package("ped", vec![anim("idle", bones)]));
    let stored: [f32; 4] = {
        // The first KR00 key's quaternion as stored: the conjugate.
        let at = ifp.windows(4).position(|w| w == b"KR00").unwrap() + 8;
        core::array::from_fn(|i| {
            f32::from_le_bytes(ifp[at + 4 * i..at + 4 * i + 4].try_into().unwrap())
        })
    };
    let r = rest(1);
    assert_eq!(stored, [-r[0], -r[1], -r[2], r[3]]);
    let e = export(
        &ifp,
        &skeleton,
        &Options {
            host: Some(gtastream::rig::Host::SanAndreas),
            ..Options::default()
        },
    )
    .unwrap();
    let g = Gltf {
        doc: e.document,
        buffer: e.buffer,
    };
    let world = g.world(Some("idle"), 0.25);
    for (f, expected) in model.model_matrices().iter().enumerate() {
        let got = mul64(&z_up_inverse(), &world[frame_node(f as u16)]);
        assert!(close(&got, expected, 1e-5), "frame {f}");
    }
}

// ------------------------------------------------------------------------------------------
// Layout.

#[test]
fn a_node_per_frame_named_as_the_frame_in_its_hierarchy_with_extras() {
    let model = sa_ped();
    let skeleton = model.skeleton();
    let (g, e) = gltf(&idle(&model, false), &skeleton);
    let nodes = g.doc["nodes"].as_array().unwrap();
    assert_eq!(nodes.len(), model.frames.len() + 1);
    assert_eq!(g.doc["scenes"], json!([{"nodes": [0]}]));
    assert_eq!(nodes[0]["name"], "RenderWare Z-up");
    assert_eq!(nodes[0]["children"], json!([1]));
    for (f, frame) in model.frames.iter().enumerate() {
        let node = &nodes[frame_node(f as u16)];
        assert_eq!(
            node["name"].as_str().unwrap().as_bytes(),
            frame.name.as_deref().unwrap(),
            "names as stored, blanks kept"
        );
        assert_eq!(
            NodeExtras::from_json(&node["extras"]),
            Some(NodeExtras {
                frame: f as u16,
                bone_id: frame.node_id
            })
        );
        assert_eq!(node["extras"]["gtastream"]["bone_id"], json!(frame.node_id));
        let children: Vec<usize> = (0..model.frames.len())
            .filter(|&c| model.frames[c].parent == f as i32)
            .map(|c| frame_node(c as u16))
            .collect();
        if children.is_empty() {
            assert!(node.get("children").is_none());
        } else {
            assert_eq!(node["children"], json!(children));
        }
    }
    // The skin: the table's bones in table order, the DFF's inverse binds.
    let skin = &g.doc["skins"][0];
    let joints: Vec<usize> = skin["joints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j.as_u64().unwrap() as usize)
        .collect();
    assert_eq!(joints, (2..=model.frames.len()).collect::<Vec<_>>());
    let ibm = g.accessor(&skin["inverseBindMatrices"]);
    let expected: Vec<f32> = model
        .skin
        .as_ref()
        .unwrap()
        .iter()
        .flatten()
        .copied()
        .collect();
    assert_eq!(ibm, expected);
    assert_eq!(skin["extras"]["gtastream"]["inverse_binds"], "dff");
    assert_eq!(e.animations, 1);
    assert_eq!(g.doc["asset"]["version"], "2.0");
    assert_eq!(
        g.doc["buffers"][0]["byteLength"].as_u64().unwrap() as usize,
        e.buffer.len()
    );
}

#[test]
fn channels_keep_the_keys_as_stored_flips_removed_and_steps_raised_by_one_ulp() {
    let model = sa_ped();
    let skeleton = model.skeleton();
    let q = [0.1f32, 0.2, 0.3, 0.9];
    let n = q.map(|c| -c);
    let bones = vec![
        BoneSpec::new(
            "Root",
            2,
            0,
            vec![f2(q, 0.0, [1.0, 2.0, 3.0]), f2(q, 0.5, [4.0, 5.0, 6.0])],
        ),
        // A step at 0.25 and a flipped last key.
        BoneSpec::new(
            " Pelvis",
            1,
            1,
            vec![
                f1(q, 0.0),
                f1(q, 0.25),
                f1([0.0, 0.0, 0.0, 1.0], 0.25),
                f1(n, 1.0),
            ],
        ),
        BoneSpec::new("Nobody", 1, 77, vec![f1(q, 0.0)]),
        // Decreasing times: the games play them, glTF cannot hold them.
        BoneSpec::new(" Spine", 1, 2, vec![f1(q, 0.5), f1(q, 0.25)]),
        BoneSpec::new(
            " Head",
            3,
            5,
            vec![p3([0, 0, 0, 4000], 0), p3([0, 0, 4000, 0], 60)],
        ),
        // Empty: not bound (no keys).
        BoneSpec::new(" Neck", 1, 4, vec![]),
    ];
    let ifp = FileSpec::anp3("ped", vec![AnimSpec::new("a", bones)]).build();
    let (g, e) = gltf(&ifp, &skeleton);
    let a = g.animation("a");
    let channels = a["channels"].as_array().unwrap();
    let targets: Vec<(usize, &str)> = channels
        .iter()
        .map(|c| {
            (
                c["target"]["node"].as_u64().unwrap() as usize,
                c["target"]["path"].as_str().unwrap(),
            )
        })
        .collect();
    let frame = |id| frame_node(model.frame_of(id).unwrap() as u16);
    assert_eq!(
        targets,
        [
            (frame(0), "rotation"),
            (frame(0), "translation"),
            (frame(1), "rotation"),
            (frame(5), "rotation"),
        ]
    );
    let sampler = |i: usize| &a["samplers"][channels[i]["sampler"].as_u64().unwrap() as usize];
    assert_eq!(g.accessor(&sampler(0)["input"]), [0.0, 0.5]);
    assert_eq!(
        g.accessor(&sampler(1)["output"]),
        [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    );
    // The step: the second 0.25 one f32 step above, listed in the sampler's extras.
    let step = sampler(2);
    assert_eq!(
        g.accessor(&step["input"]),
        [0.0, 0.25, f32::from_bits(0.25f32.to_bits() + 1), 1.0]
    );
    assert_eq!(
        SamplerExtras::from_json(&step["extras"]),
        SamplerExtras {
            steps: vec![2],
            ..SamplerExtras::default()
        }
    );
    assert_eq!(step["extras"], json!({"gtastream": {"steps": [2]}}));
    assert!(sampler(0).get("extras").is_none());
    // The flipped last key comes back negated (as at load).
    let rotations = g.accessor(&step["output"]);
    let length = q.iter().map(|c| c * c).sum::<f32>().sqrt();
    for (got, c) in rotations[12..16].iter().zip(q) {
        assert!((got - c / length).abs() < 1e-7, "{:?}", &rotations[12..16]);
    }
    let input = g.accessor(&step["input"]);
    assert_eq!(
        g.doc["accessors"][step["input"].as_u64().unwrap() as usize]["min"],
        json!([0.0])
    );
    assert_eq!(
        g.doc["accessors"][step["input"].as_u64().unwrap() as usize]["max"],
        json!([input[3]])
    );
    // Packed keys: ticks ÷ 60, quaternions ÷ 4096 then normalised as the games normalise.
    let head = sampler(3);
    assert_eq!(g.accessor(&head["input"]), [0.0, 1.0]);
    assert_eq!(
        g.accessor(&head["output"]),
        [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0]
    );
    // Reported, in track order.
    let reported: Vec<(u32, Reason)> = e.unwritten.iter().map(|u| (u.track, u.reason)).collect();
    assert_eq!(
        reported,
        [
            (2, Reason::Unbound(Unbound::NoSuchId)),
            (3, Reason::DecreasingTime { key: 1 }),
            (5, Reason::Unbound(Unbound::NoKeys)),
        ]
    );
    assert_eq!(e.unwritten[0].name.as_deref(), Some("Nobody"));
    assert_eq!(e.unwritten[0].bone_id, Some(77));
    assert_eq!(e.unwritten[0].animation, "a");
}

#[test]
fn an_animation_with_nothing_bound_is_left_out_and_names_select_animations() {
    let model = sa_ped();
    let skeleton = model.skeleton();
    let q = [0.0, 0.0, 0.0, 1.0];
    let ifp = FileSpec::anp3(
        "ped",
        vec![
            AnimSpec::new("none", vec![BoneSpec::new("x", 1, 999, vec![f1(q, 0.0)])]),
            AnimSpec::new("Walk", vec![BoneSpec::new("Root", 1, 0, vec![f1(q, 0.0)])]),
            AnimSpec::new("run", vec![BoneSpec::new("Root", 1, 0, vec![f1(q, 0.0)])]),
        ],
    )
    .build();
    let (g, e) = gltf(&ifp, &skeleton);
    assert_eq!(e.empty, ["none"]);
    assert_eq!(e.animations, 2);
    assert_eq!(g.doc["animations"].as_array().unwrap().len(), 2);
    let only = |names: &[&str]| {
        export(
            &ifp,
            &skeleton,
            &Options {
                animations: names.iter().map(|n| n.to_string()).collect(),
                ..Options::default()
            },
        )
    };
    let walk = only(&["WALK"]).unwrap();
    assert_eq!(walk.document["animations"][0]["name"], "Walk");
    assert_eq!(walk.document["animations"].as_array().unwrap().len(), 1);
    assert_eq!(
        only(&["sprint"]).unwrap_err(),
        gtastream::gltf::export::ExportError::NoAnimation("sprint".into())
    );
    // Not an animation file: the decoder's error.
    assert!(matches!(
        export(b"not an animation", &skeleton, &Options::default()),
        Err(gtastream::gltf::export::ExportError::Decode(_))
    ));
}

#[test]
fn glb_and_gltf_containers() {
    let model = sa_ped();
    let (_, e) = gltf(&idle(&model, false), &model.skeleton());
    let glb = e.to_glb();
    assert_eq!(&glb[0..4], b"glTF");
    assert_eq!(u32::from_le_bytes(glb[4..8].try_into().unwrap()), 2);
    assert_eq!(
        u32::from_le_bytes(glb[8..12].try_into().unwrap()) as usize,
        glb.len()
    );
    let json_len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    assert_eq!(&glb[16..20], b"JSON");
    assert_eq!(json_len % 4, 0);
    let json = &glb[20..20 + json_len];
    assert_eq!(
        json.trim_ascii_end(),
        serde_json::to_vec(&e.document).unwrap()
    );
    let bin = &glb[20 + json_len..];
    let bin_len = u32::from_le_bytes(bin[0..4].try_into().unwrap()) as usize;
    assert_eq!(&bin[4..8], b"BIN\0");
    assert_eq!(bin_len % 4, 0);
    assert_eq!(&bin[8..8 + e.buffer.len()], &e.buffer[..]);
    assert!(bin[8 + e.buffer.len()..].iter().all(|&b| b == 0));
    // The .gltf embeds the buffer as a base64 data URI.
    let text: Value = serde_json::from_slice(&e.to_gltf()).unwrap();
    let uri = text["buffers"][0]["uri"].as_str().unwrap();
    let b64 = uri
        .strip_prefix("data:application/octet-stream;base64,")
        .unwrap();
    assert_eq!(decode_base64(b64), e.buffer);
}

fn decode_base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("{c}"),
    };
    let mut out = Vec::new();
    for chunk in text.as_bytes().chunks(4) {
        let pad = chunk.iter().filter(|&&c| c == b'=').count();
        let n = chunk
            .iter()
            .map(|&c| if c == b'=' { 0 } else { u32::from(value(c)) })
            .fold(0u32, |acc, v| (acc << 6) | v);
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&bytes[..3 - pad]);
    }
    out
}

#[test]
fn base64_of_every_tail_length() {
    // RFC 4648 §10's vectors, through the .gltf writer's buffer.
    let model = sa_ped();
    let (_, mut e) = gltf(&idle(&model, false), &model.skeleton());
    for (input, expected) in [
        ("", ""),
        ("f", "Zg=="),
        ("fo", "Zm8="),
        ("foo", "Zm9v"),
        ("foob", "Zm9vYg=="),
        ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ] {
        e.buffer = input.as_bytes().to_vec();
        let text: Value = serde_json::from_slice(&e.to_gltf()).unwrap();
        assert_eq!(
            text["buffers"][0]["uri"],
            format!("data:application/octet-stream;base64,{expected}")
        );
    }
}

#[test]
fn step_times_and_extras() {
    assert_eq!(step_time(0.25), f32::from_bits(0.25f32.to_bits() + 1));
    assert_eq!(step_time(0.0), f32::from_bits(1));
    assert_eq!(step_time(-1.0), f32::from_bits((-1.0f32).to_bits() - 1));
    assert!(step_time(-1.0) > -1.0);
    assert_eq!(SamplerExtras::default().to_json(), None);
    assert_eq!(
        SamplerExtras::from_json(&json!({"other": 1})),
        SamplerExtras::default()
    );
    assert_eq!(
        NodeExtras::from_json(&json!({"gtastream": {"frame": 70000}})),
        None
    );
    assert_eq!(
        NodeExtras::from_json(&json!({"gtastream": {"frame": 3, "bone_id": null}})),
        Some(NodeExtras {
            frame: 3,
            bone_id: None
        })
    );
    let e = NodeExtras {
        frame: 7,
        bone_id: Some(-1),
    };
    assert_eq!(NodeExtras::from_json(&e.to_json()), Some(e));
}

#[test]
fn bind_trs_of_scaled_and_mirrored_frames() {
    let mut frame = sa_ped().skeleton().frames()[3];
    let (t, r, s) = bind_trs(&frame);
    assert_eq!(t, frame.position);
    assert_eq!(s, [1.0; 3]);
    let m = trs([0.0; 3], r.map(f64::from), [1.0; 3]);
    for c in 0..3 {
        for k in 0..3 {
            assert!((m[4 * c + k] - f64::from(frame.rotation[3 * c + k])).abs() < 1e-6);
        }
    }
    // Scaled by 2 and mirrored (right negated): the TRS gives the same matrix back.
    for k in 0..3 {
        frame.rotation[k] *= -2.0;
    }
    let (t, r, s) = bind_trs(&frame);
    assert_eq!(s, [-2.0, 1.0, 1.0]);
    let m = trs(t.map(f64::from), r.map(f64::from), s.map(f64::from));
    let local = frame.local_matrix();
    assert!(close(&m, &local, 1e-5), "{m:?} {local:?}");
}

#[test]
fn models_without_a_skin_get_a_skin_from_the_bind_pose_or_none() {
    // GTA III shape: named frames, no HAnim: no skin; the frames are nodes all the same.
    let model = testkit::rig::iii_ped();
    let skeleton = model.skeleton();
    let q = [0.0, 0.0, 0.0, 1.0];
    let name = String::from_utf8(model.frames[2].name.clone().unwrap()).unwrap();
    let keys = vec![
        kf(0.0, q, [0.0; 3], [1.0; 3]),
        kf(1.0, q, [0.0; 3], [1.0; 3]),
    ];
    let ifp = testkit::anpk::bytes(&package(
        "ped",
        vec![anim(
            "a",
            vec![bone(&name, None, gtastream::FrameType::Kr00, keys)],
        )],
    ));
    let (g, e) = gltf(&ifp, &skeleton);
    assert!(g.doc.get("skins").is_none());
    assert!(e.unwritten.is_empty());
    assert_eq!(
        g.animation("a")["channels"][0]["target"]["node"],
        json!(frame_node(2))
    );
    // A table but no skin: the inverse binds are the bind pose's.
    let mut model = sa_ped();
    model.skin = None;
    let (g, _) = gltf(&idle(&model, false), &model.skeleton());
    let skin = &g.doc["skins"][0];
    assert_eq!(skin["extras"]["gtastream"]["inverse_binds"], "bind_pose");
    let ibm = g.accessor(&skin["inverseBindMatrices"]);
    let world = model.model_matrices();
    for (j, m) in ibm.chunks(16).enumerate() {
        let m: [f32; 16] = m.try_into().unwrap();
        let identity = mul(&world[j + 1], &m);
        for (i, v) in identity.iter().enumerate() {
            let want = if i % 5 == 0 { 1.0 } else { 0.0 };
            assert!((v - want).abs() < 1e-5, "joint {j}: {identity:?}");
        }
    }
}

/// Every frame of the glTF, evaluated from the document alone, at many times over the clip, is
/// where the sampler and `rig::pose_animation` put it (float keys within 1e-5; packed keys,
/// normalised in the glTF and slerped as stored by the games, within 1e-4), for ANP3 float and
/// packed keys with a step and a flip, and ANPK with ids on a VC-bound skin.
#[test]
fn the_gltf_poses_every_frame_as_the_sampler_does() {
    use gtastream::rig::{pose_animation, AnimationTracks, Host};
    use gtastream::Sampler;
    let model = sa_ped();
    let skeleton = model.skeleton();
    let turn = |b: usize, k: usize| {
        quaternion(
            [
                1.0 + b as f32 * 0.4,
                0.5 - k as f32 * 0.3,
                0.25 + (b % 3) as f32,
            ],
            0.2 + 0.35 * k as f32 + 0.05 * b as f32,
        )
    };
    let packed = |b: usize, k: usize| turn(b, k).map(|c| (c * 4096.0).round() as i16);
    let float_bones = vec![
        BoneSpec::new(
            "Root",
            2,
            0,
            (0..4)
                .map(|k| f2(turn(0, k), 0.25 * k as f32, [0.1 * k as f32, 0.0, 1.0]))
                .collect(),
        ),
        BoneSpec::new(
            " Pelvis",
            1,
            1,
            vec![
                f1(turn(1, 0), 0.0),
                f1(turn(1, 1), 0.3),
                f1(turn(1, 2), 0.3),
                f1(turn(1, 3), 0.9),
            ],
        ),
        BoneSpec::new(
            " Spine",
            1,
            2,
            vec![
                f1(turn(2, 0), 0.0),
                f1(turn(2, 1).map(|c| -c), 0.5),
                f1(turn(2, 2), 1.0),
            ],
        ),
        BoneSpec::new(
            " Head",
            1,
            5,
            (0..3).map(|k| f1(turn(5, k), 0.4 * k as f32)).collect(),
        ),
    ];
    let packed_bones = vec![
        BoneSpec::new(
            "Root",
            4,
            0,
            (0..4)
                .map(|k| testkit::ifp2::p4(packed(0, k), 15 * k as i16, [100 * k as i16, 0, 512]))
                .collect(),
        ),
        BoneSpec::new(
            " Neck",
            3,
            4,
            (0..4).map(|k| p3(packed(4, k), 20 * k as i16)).collect(),
        ),
    ];
    let anp3 = FileSpec::anp3(
        "ped",
        vec![
            AnimSpec::new("float", float_bones),
            AnimSpec::new("packed", packed_bones),
        ],
    )
    .build();
    let anpk_bones = [(0, "Root"), (2, "Spine"), (5, "Head")]
        .iter()
        .enumerate()
        .map(|(b, &(id, name))| {
            let keys = (0..4)
                .map(|k| {
                    kf(
                        0.3 * k as f32,
                        turn(b + 6, k),
                        [0.05 * k as f32, 0.0, 0.9],
                        [1.0; 3],
                    )
                })
                .collect();
            let frame_type = if b == 0 {
                gtastream::FrameType::Krt0
            } else {
                gtastream::FrameType::Kr00
            };
            bone(name, Some(id), frame_type, keys)
        })
        .collect();
    let anpk = testkit::anpk::bytes(&package("ped", vec![anim("anpk", anpk_bones)]));
    let cases: [(&[u8], &str, Host, f64); 3] = [
        (&anp3, "float", Host::SanAndreas, 1e-5),
        (&anp3, "packed", Host::SanAndreas, 1e-4),
        (&anpk, "anpk", Host::ViceCity, 1e-5),
    ];
    for (file, name, host, tolerance) in cases {
        let e = export(
            file,
            &skeleton,
            &Options {
                host: Some(host),
                animations: vec![name.into()],
            },
        )
        .unwrap();
        assert!(e.unwritten.is_empty(), "{name}: {:?}", e.unwritten);
        let g = Gltf {
            doc: e.document,
            buffer: e.buffer,
        };
        let sampler = Sampler::<64>::new(file, name.as_bytes()).unwrap();
        let tracks = AnimationTracks::find(file, Some(name.as_bytes()), 0).unwrap();
        let mut poses = 0;
        for step in 0..=25 {
            let time = step as f32 * 0.05;
            // The step's own time is left out: there the games and a viewer may take either
            // side of the jump.
            if name == "float" && step == 6 {
                continue;
            }
            let mut expected = vec![[0.0f32; 16]; skeleton.frames().len()];
            pose_animation(
                &skeleton,
                host,
                &tracks,
                &sampler,
                time,
                false,
                &mut expected,
                |_, _| {},
            )
            .unwrap();
            let world = g.world(Some(name), time);
            for (f, want) in expected.iter().enumerate() {
                let got = mul64(&z_up_inverse(), &world[frame_node(f as u16)]);
                assert!(
                    close(&got, want, tolerance),
                    "{name} t={time} frame {f}: {got:?} {want:?}"
                );
            }
            poses += 1;
        }
        assert!(poses > 20);
    }
}

/// What glTF cannot hold is reported with the key: a stored time equal to a raised step's, a
/// value that is not finite.
#[test]
fn step_collisions_and_values_that_are_not_finite_are_reported() {
    let model = sa_ped();
    let q = [0.0, 0.0, 0.0, 1.0];
    let raised = step_time(0.25);
    let bones = vec![
        BoneSpec::new(
            " Pelvis",
            1,
            1,
            vec![f1(q, 0.0), f1(q, 0.25), f1(q, 0.25), f1(q, raised)],
        ),
        BoneSpec::new(
            " Spine",
            1,
            2,
            vec![f1(q, 0.0), f1([f32::NAN, 0.0, 0.0, 1.0], 1.0)],
        ),
        BoneSpec::new(" Head", 1, 5, vec![f1(q, 0.0), f1(q, f32::INFINITY)]),
        BoneSpec::new("Root", 1, 0, vec![f1(q, 0.0), f1(q, 1.0)]),
    ];
    let ifp = FileSpec::anp3("ped", vec![AnimSpec::new("a", bones)]).build();
    let (g, e) = gltf(&ifp, &model.skeleton());
    let reported: Vec<(u32, Reason)> = e.unwritten.iter().map(|u| (u.track, u.reason)).collect();
    assert_eq!(
        reported,
        [
            (0, Reason::StepCollision { key: 3 }),
            (1, Reason::NotFinite { key: 1 }),
            (2, Reason::NotFinite { key: 1 }),
        ]
    );
    assert_eq!(g.animation("a")["channels"].as_array().unwrap().len(), 1);
    assert_eq!(Reason::StepCollision { key: 3 }.name(), "step_collision");
    assert_eq!(
        Reason::StepCollision { key: 3 }.to_string(),
        "key 3: time collides with the raised step before it"
    );
}

/// A frame whose matrix is not finite (a hostile model) leaves its node at glTF's defaults:
/// the document stays JSON numbers only.
#[test]
fn a_frame_that_is_not_finite_keeps_the_defaults() {
    let mut model = sa_ped();
    model.frames[2].position = [f32::NAN, 0.0, 1.0];
    model.frames[3].rotation[0] = f32::INFINITY;
    let (g, _) = gltf(&idle(&model, false), &model.skeleton());
    let nodes = g.doc["nodes"].as_array().unwrap();
    assert!(nodes[frame_node(2)].get("translation").is_none());
    assert!(nodes[frame_node(2)].get("rotation").is_some());
    assert!(nodes[frame_node(3)].get("rotation").is_none());
    for node in nodes {
        for part in ["translation", "rotation", "scale"] {
            if let Some(values) = node.get(part) {
                assert!(
                    values.as_array().unwrap().iter().all(Value::is_number),
                    "{node}"
                );
            }
        }
    }
}

/// The largest component difference between two rotations (either sign of the quaternion).
fn rotation_distance(a: [f64; 4], b: [f32; 4]) -> f64 {
    let d = |sign: f64| {
        (0..4)
            .map(|i| (a[i] - sign * f64::from(b[i])).abs())
            .fold(0.0, f64::max)
    };
    d(1.0).min(d(-1.0))
}

#[test]
fn slerp_jumps_are_written_as_steps_and_key_zero_as_the_next_key() {
    use gtastream::Sampler;
    let model = sa_ped();
    let skeleton = model.skeleton();
    let ifp = testkit::stock::packed_jumps("ped", "walk", ("Neck", 4));
    let (g, e) = gltf(&ifp, &skeleton);
    assert!(e.unwritten.is_empty(), "{:?}", e.unwritten);
    let a = g.animation("walk");
    let channels = a["channels"].as_array().unwrap();
    let sampler = |i: usize| &a["samplers"][channels[i]["sampler"].as_u64().unwrap() as usize];
    let after = |ticks: f32| step_time(ticks / 60.0);
    // The Root: key 0 holds key 1's rotation, a key after key 1 (index 2) holds key 2's, the
    // step (stored key 4, written 5) raised; its translation sampler lists the same keys.
    let root = SamplerExtras::from_json(&sampler(0)["extras"]);
    assert_eq!(root.steps, [5]);
    assert_eq!(root.jumps, [2]);
    assert_eq!(root.first, Some([0.0, 0.0, 0.0, 1.0]));
    assert_eq!(
        g.accessor(&sampler(0)["input"]),
        [
            0.0,
            10.0 / 60.0,
            after(10.0),
            20.0 / 60.0,
            40.0 / 60.0,
            after(40.0),
            1.0
        ]
    );
    let rotations = g.accessor(&sampler(0)["output"]);
    assert_eq!(rotations[0..4], rotations[4..8]);
    assert_eq!(rotations[8..12], rotations[12..16]);
    assert_ne!(rotations[4..8], rotations[8..12]);
    // The inserted key keeps key 1's translation (the games' f is 0 there).
    let translations = g.accessor(&sampler(1)["output"]);
    assert_eq!(translations[3..6], translations[6..9]);
    assert_eq!(
        SamplerExtras::from_json(&sampler(1)["extras"]),
        SamplerExtras {
            first: None,
            ..root
        }
    );
    // The Neck: key 0 as key 1, a key after key 2 (index 3) with key 3's rotation.
    assert_eq!(
        sampler(2)["extras"],
        json!({"gtastream": {"jumps": [3], "first": [0.0, 0.0, 0.0, 1.0]}})
    );
    let neck = g.accessor(&sampler(2)["output"]);
    assert_eq!(neck[0..4], neck[4..8]);
    assert_eq!(neck[12..16], neck[16..20]);

    // Evaluated as glTF LINEAR, each channel is the sampler's pose: at 0, at each key's time,
    // one f32 after it, a little after it, and on a grid. (Without the jumps written: 1.0e-2.)
    let sampled = Sampler::<8>::new(&ifp, b"walk").unwrap();
    let mut times: Vec<f32> = (0..=120).map(|i| i as f32 / 120.0).collect();
    for ticks in [0.0f32, 10.0, 20.0, 30.0, 40.0, 60.0] {
        let t = ticks / 60.0;
        times.extend([t, step_time(t), t + 1e-4]);
    }
    // The keys' own non-unit slerp, normalised afterwards, stays (a few 1e-6 here).
    let mut worst = 0.0f64;
    for &time in times.iter().filter(|&&t| t <= 1.0) {
        let local = g.local(Some("walk"), time);
        for (bone, id) in [(0usize, 0), (1, 4)] {
            let pose = sampled.bone_pose(bone, time, false).unwrap().unwrap();
            let node = frame_node(model.frame_of(id).unwrap() as u16);
            let d = rotation_distance(local[node].1, pose.rotation);
            worst = worst.max(d);
            assert!(
                d <= 1e-5,
                "bone {bone} t={time}: {:?} {:?}",
                local[node].1,
                pose.rotation
            );
            if let Some(t) = pose.translation {
                for (got, want) in local[node].0.iter().zip(t) {
                    assert!((got - f64::from(want)).abs() <= 1e-5, "t={time}");
                }
            }
        }
    }
    eprintln!("packed jumps: largest rotation difference glTF vs sampler {worst:e}");
}

#[test]
fn packed_jumps_come_back_from_gltf_as_stored() {
    use gtastream::gltf::import::{import, read, ImportOptions};
    let ifp = testkit::stock::packed_jumps("ped", "walk", ("Neck", 4));
    let skeleton = sa_ped().skeleton();
    let e = export(&ifp, &skeleton, &Options::default()).unwrap();
    let document = read(&e.to_glb(), &mut |uri: &str| Err(format!("no file {uri}"))).unwrap();
    // The export normalises each key as the games do: --quantize rounds them back to the
    // integers stored (key 0's too, restored from `first`).
    let mut options = ImportOptions::new(gtastream::Format::Anp3, "ped");
    options.quantize = true;
    let out = import(&document, &options).unwrap();
    let mut clean = gtastream::Package::parse(&ifp).unwrap();
    clean.normalise();
    assert_eq!(out.bytes, gtastream::encode::write(&clean).unwrap());
}
