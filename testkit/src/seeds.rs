//! Seed inputs for the fuzz targets, made by the project's own code: ANP3/ANP2 by
//! `encode::ifp2`, ANPK by `encode::anpk`, Stories by [`crate::stories`], binary and text IPL
//! by hand. Small files that reach every unit of every format (and its odd, accepted forms).

use gtastream::encode;
use gtastream::{Animation, Bone, Format, FrameType, Keyframe, Package};

use crate::driver::Plan;
use crate::stories::{self, Layout};

fn keyframe(i: usize, translation: bool) -> Keyframe {
    let s = (i as f32 * 0.3).sin() * 0.5;
    Keyframe {
        time: i as f32 / 30.0,
        rotation: [s, -s * 0.5, 0.25, 0.75],
        translation: if translation {
            [s, 1.0, -0.5]
        } else {
            [0.0; 3]
        },
        scale: [0.0; 3],
    }
}

fn bone(name: &str, id: Option<i32>, frame_type: FrameType, frames: usize) -> Bone {
    let translation = frame_type.has_translation();
    Bone {
        name: Some(name.into()),
        bone_id: id,
        bone_key: None,
        frame_type,
        frames: (0..frames)
            .map(|i| {
                let mut k = keyframe(i, translation);
                if frame_type.has_scale() {
                    k.scale = [1.0, 1.0, 1.5];
                }
                k
            })
            .collect(),
        raw: Vec::new(),
    }
}

fn package(format: Format, bones: &[(FrameType, Option<i32>)]) -> Package {
    let animation = |name: &str, frames: usize| Animation {
        name: name.into(),
        frame_data_size: None,
        flags: None,
        duration: None,
        bones: bones
            .iter()
            .enumerate()
            .map(|(i, &(t, id))| bone(&format!("bone{i}"), id, t, frames))
            .collect(),
        raw: Vec::new(),
    };
    Package {
        format,
        name: Some("seed".into()),
        animations: vec![animation("walk", 4), animation("idle", 2)],
        warnings: Vec::new(),
        raw: Vec::new(),
        trailing: Vec::new(),
    }
}

fn put_u32(bytes: &mut [u8], at: usize, value: u32) {
    bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
}

fn u32s(values: &[u32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

fn f32s(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

fn ifp2_seeds() -> Vec<(String, Vec<u8>)> {
    let types = [
        (FrameType::Ifp2PackedRotTrans, Some(0)),
        (FrameType::Ifp2PackedRot, Some(-1)),
        (FrameType::Ifp2Rot, Some(2)),
        (FrameType::Ifp2RotTrans, Some(3)),
    ];
    let anp3 = encode::ifp2(&package(Format::Anp3, &types)).expect("encodable");
    let anp2 = encode::ifp2(&package(Format::Anp2, &types)).expect("encodable");
    // The sloppy forms real files have: size, frameDataSize and flags wrong, stale bytes after
    // the content, a bone without keyframes, time going backwards, a full-width name.
    let mut sloppy = encode::ifp2(&package(
        Format::Anp3,
        &[(FrameType::Ifp2PackedRot, Some(1))],
    ))
    .expect("encodable");
    put_u32(&mut sloppy, 4, 12);
    put_u32(&mut sloppy, 36 + 28, 999);
    put_u32(&mut sloppy, 36 + 32, 0);
    sloppy[8..32].copy_from_slice(b"abcdefghijklmnopqrstuvwx");
    let frames_at = 36 + 36 + 36;
    sloppy.swap(frames_at + 8, frames_at + 18);
    sloppy.extend_from_slice(b"stale data from an editor");
    let empty = encode::ifp2(&Package {
        animations: vec![Animation {
            name: "none".into(),
            frame_data_size: None,
            flags: None,
            duration: None,
            bones: vec![bone("b", Some(5), FrameType::Ifp2PackedRotTrans, 0)],
            raw: Vec::new(),
        }],
        ..package(Format::Anp3, &[])
    })
    .expect("encodable");
    vec![
        ("anp3".into(), anp3),
        ("anp2".into(), anp2),
        ("anp3-sloppy".into(), sloppy),
        ("anp3-empty-bone".into(), empty),
    ]
}

/// A small ANPK written by hand: a GTA III (48-byte ANIM) object without keyframes followed
/// by the empty `K000` chunk one exporter writes, zero tags, and wrong sizes.
fn anpk_by_hand() -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(b"ANPK");
    out.extend_from_slice(&u32s(&[0]));
    out.extend_from_slice(b"INFO");
    out.extend_from_slice(&u32s(&[9, 1]));
    out.extend_from_slice(b"hand\0\0\0\0");
    out.extend_from_slice(b"NAME");
    out.extend_from_slice(&u32s(&[3]));
    out.extend_from_slice(b"go\0\0");
    out.extend_from_slice(&[0; 4]); // a zero DGAN tag
    out.extend_from_slice(&u32s(&[0]));
    out.extend_from_slice(b"INFO");
    out.extend_from_slice(&u32s(&[8, 2, 7]));
    for (frames, anim_size) in [(0u32, 48u32), (1, 44)] {
        out.extend_from_slice(b"CPAN");
        out.extend_from_slice(&u32s(&[0]));
        out.extend_from_slice(b"ANIM");
        out.extend_from_slice(&u32s(&[anim_size]));
        let mut name = [0xCDu8; 28];
        name[..5].copy_from_slice(b"Root\0");
        out.extend_from_slice(&name);
        out.extend_from_slice(&u32s(&[frames, 0, frames.wrapping_sub(1)]));
        out.extend_from_slice(&u32s(&vec![0; (anim_size as usize - 40) / 4]));
        if frames == 0 {
            out.extend_from_slice(b"K000");
            out.extend_from_slice(&u32s(&[0]));
        } else {
            out.extend_from_slice(b"KRTS");
            out.extend_from_slice(&u32s(&[44]));
            let f = [0.0, 0.0, 0.0, 1.0, 1.0, 2.0, 3.0, 1.0, 1.0, 1.0, 0.0];
            out.extend_from_slice(&f32s(&f));
        }
    }
    out
}

fn anpk_seeds() -> Vec<(String, Vec<u8>)> {
    let vc = encode::anpk(&package(
        Format::Anpk,
        &[
            (FrameType::Krt0, Some(0)),
            (FrameType::Kr00, Some(2)),
            (FrameType::Krts, Some(3)),
        ],
    ))
    .expect("encodable");
    let gta3 = encode::anpk(&package(
        Format::Anpk,
        &[(FrameType::Kr00, None), (FrameType::Krt0, None)],
    ))
    .expect("encodable");
    let mut anlf = b"ANLF".to_vec();
    anlf.extend_from_slice(&u32s(&[(4 + vc.len() + gta3.len()) as u32, 2]));
    anlf.extend_from_slice(&vc);
    anlf.extend_from_slice(&gta3);
    vec![
        ("anpk-vc".into(), vc),
        ("anpk-gta3".into(), gta3),
        ("anpk-hand".into(), anpk_by_hand()),
        ("anlf".into(), anlf),
    ]
}

fn stories_seeds() -> Vec<(String, Vec<u8>)> {
    let mut clips = stories::shaped(2, 4, 3);
    clips.push(stories::Anim {
        name: "abcdefghijklmnopqrstuvwx",
        duration: 0.0,
        bones: Vec::new(),
    });
    let mut seeds = Vec::new();
    for (layout, name) in [
        (Layout::DepthFirst, "depth-first"),
        (Layout::Grouped, "grouped"),
        (Layout::Backward, "backward"),
    ] {
        for vcs in [false, true] {
            let written = stories::write(&clips, layout, vcs, 0);
            let game = if vcs { "vcs" } else { "lcs" };
            seeds.push((format!("stories-{name}-{game}"), written));
        }
    }
    // Sector padding after fileEnd.
    let mut padded = stories::write(&clips, Layout::Grouped, false, 0);
    padded.resize(padded.len().next_multiple_of(2048), 0);
    seeds.push(("stories-padded".into(), padded));
    seeds
}

fn bnry(instances: &[[u32; 10]], cars: &[[u32; 12]], cars_first: bool, odd: bool) -> Vec<u8> {
    let inst_bytes = 40 * instances.len() as u32;
    let car_bytes = 48 * cars.len() as u32;
    let (inst_at, car_at) = if cars_first {
        (76 + car_bytes, 76)
    } else {
        (76, 76 + inst_bytes)
    };
    let mut header = vec![0u8; 76];
    header[..4].copy_from_slice(b"bnry");
    put_u32(&mut header, 0x04, instances.len() as u32);
    put_u32(&mut header, 0x14, cars.len() as u32);
    put_u32(&mut header, 0x1C, inst_at);
    put_u32(&mut header, 0x20, inst_bytes);
    put_u32(&mut header, 0x3C, car_at);
    put_u32(&mut header, 0x40, car_bytes);
    if odd {
        put_u32(&mut header, 0x0C, 3);
        put_u32(&mut header, 0x20, 1);
    }
    let inst: Vec<u8> = instances.iter().flat_map(|i| u32s(i)).collect();
    let car: Vec<u8> = cars.iter().flat_map(|c| u32s(c)).collect();
    let mut out = header;
    if cars_first {
        out.extend_from_slice(&car);
        out.extend_from_slice(&inst);
    } else {
        out.extend_from_slice(&inst);
        out.extend_from_slice(&car);
    }
    out
}

fn bnry_seeds() -> Vec<(String, Vec<u8>)> {
    let f = |v: f32| v.to_bits();
    let instance = |id: u32| {
        [
            f(1.0),
            f(-2.5),
            f(10.0),
            f(0.0),
            f(0.0),
            f(std::f32::consts::FRAC_1_SQRT_2),
            f(std::f32::consts::FRAC_1_SQRT_2),
            id,
            13 | 0x100,
            u32::MAX,
        ]
    };
    let car = [
        f(5.0),
        f(6.0),
        f(7.0),
        f(1.57),
        u32::MAX,
        3,
        u32::MAX,
        1,
        50,
        10,
        0,
        100,
    ];
    let instances = [instance(1337), instance(615)];
    let mut padded = bnry(&instances, &[car], false, false);
    padded.resize(2048, 0);
    vec![
        ("bnry".into(), bnry(&instances, &[car], false, false)),
        (
            "bnry-cars-first".into(),
            bnry(&instances, &[car], true, false),
        ),
        (
            "bnry-odd".into(),
            bnry(&instances, &[car, car], false, true),
        ),
        ("bnry-padded".into(), padded),
    ]
}

fn text_seeds() -> Vec<(String, Vec<u8>)> {
    let sa = "# San Andreas\ninst\n1337, object, 0, 1.5, -2.0, 10.0, 0, 0, 0.7071, 0.7071, -1\n\
              615, veg_tree3, 13, 1, 2, 3, 0, 0, 0, 1, 4\nend\n\
              cars\n100.0, 200.0, 10.5, 1.57, -1, -1, -1, 0, 0, 0, 0, 10000\nend\n\
              cull\n1, 2, 3, 4, 5, 6\nend\n";
    let vc = "inst\r\n100, lamp, 0, 1, 2, 3, 1, 1, 1, 0, 0, 0, 1\r\nend\r\nzone\r\nz, 0\r\nend\r\n";
    let gta3 = "inst\n200\tbench\t1 2 3\t1 1 1\t0 0 0 1\nend\nstray line\ninst\n";
    // What real files do to the line scanner: a locale decimal comma, a trailing comment,
    // a broken float, a line cut short, a bad `cars` line, MSVC exponents and NaN.
    let quirks: &[u8] = b"inst\r\n1, a, 0, 1.0, 2.0, 3.0, 0, 0, 0, 1, -1\r\n\
        2, comma, 0, 2225.2, -1185.7, 2499,8149, 0.0, 0.0, 1.0, 1.62921e-007, -1\r\n\
        3, c, 0, 1.5, 2.5, 3.5, 0, 0, 0, 1.0, -1   #### Aavts3_crb6qm11\r\n\
        4, broken, 0, 2\xb550.66, 1, 2, 0, 0, 0, 1, -1\r\n\
        5, cut, 0, 1.0, 2.0\r\n\
        6, e, 13, -8.742277657e-08, 2.173596769e-008, 1e, +.5, -0., 0, 1, 2147483648\r\nend\r\n\
        cars\r\n1.0, 2.0, 3.0, 1.#QNAN, 400, -1, -1, 0, 0, 0, 0, 0\r\n1 2 3 4 5 6 7\r\nend";
    // Lines before any section, and text that is no placement file.
    let strays = "a\nb\nc\nd\ne\nf\ng\n1 2 3 4 5 6 7 8 9 10 11 12\n";
    let markdown = "# Title\n\nSome prose, with commas.\n\n## More\n\n- a list\n";
    vec![
        ("ipl-sa".into(), sa.as_bytes().to_vec()),
        ("ipl-vc".into(), vc.as_bytes().to_vec()),
        ("ipl-gta3".into(), gta3.as_bytes().to_vec()),
        ("ipl-quirks".into(), quirks.to_vec()),
        ("ipl-strays".into(), strays.as_bytes().to_vec()),
        ("not-ipl".into(), markdown.as_bytes().to_vec()),
        ("empty".into(), Vec::new()),
    ]
}

/// Every seed file, named.
pub fn files() -> Vec<(String, Vec<u8>)> {
    let mut all = ifp2_seeds();
    all.extend(anpk_seeds());
    all.extend(stories_seeds());
    all.extend(bnry_seeds());
    all.extend(text_seeds());
    all.extend(ide_seeds());
    all
}

/// IDE files of every shape of [`crate::ide::shapes`].
fn ide_seeds() -> Vec<(String, Vec<u8>)> {
    crate::ide::shapes()
        .into_iter()
        .map(|(name, file)| (format!("ide-{name}"), file))
        .collect()
}

/// Models: every DFF shape of [`crate::dff::shapes`] (skins of each layout, peds and vehicles
/// without a skeleton, animated objects, duplicates), as files: among the `decode` seeds the
/// bindings' tests compare with the command line (kept out of [`files`], whose users are the
/// animation and placement checks).
pub fn dff_seeds() -> Vec<(String, Vec<u8>)> {
    crate::dff::shapes()
        .into_iter()
        .map(|(name, model)| (format!("dff-{name}"), model.bytes()))
        .collect()
}

/// Plans the `chunking` seeds start from: 1-byte feeds; mixed sizes with empty feeds and
/// pauses; an abort; a caller that cannot seek.
pub fn plans() -> Vec<(&'static str, Plan)> {
    let plan = |sizes: &[usize], pause_mask, abort_at, can_seek| Plan {
        sizes: sizes.to_vec(),
        pause_mask,
        abort_at,
        can_seek,
        game: None,
    };
    vec![
        ("bytes", plan(&[1], 0, None, true)),
        ("mixed", plan(&[7, 0, 3, 64, 1], 0b1010_0101, None, true)),
        ("abort", plan(&[5, 256], 0b0001_0000, Some(6), true)),
        ("stream", plan(&[13], 0b0100_0000, None, false)),
        (
            "sa",
            Plan {
                game: Some(gtastream::Game::SanAndreas),
                ..plan(&[9, 2], 0b0010_0100, None, true)
            },
        ),
    ]
}

/// The `chunking` seeds: each file behind each plan's prefix.
pub fn chunking_inputs() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for (name, file) in files() {
        for (plan_name, plan) in plans() {
            let mut input = plan.to_prefix();
            input.extend_from_slice(&file);
            out.push((format!("{name}-{plan_name}"), input));
        }
    }
    out
}

/// The `dff` fuzz target's seeds: every model shape of [`crate::dff::shapes`] behind each
/// plan's prefix.
pub fn dff_inputs() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for (name, model) in crate::dff::shapes() {
        let file = model.bytes();
        for (plan_name, plan) in plans() {
            let mut input = plan.to_prefix();
            input.extend_from_slice(&file);
            out.push((format!("dff-{name}-{plan_name}"), input));
        }
    }
    out
}
