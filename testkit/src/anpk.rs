//! ANPK fixtures built in code (feature `alloc`): packages written by `encode::anpk`, then
//! patched the ways real files differ (zero tags, wrong sizes, empty keyframe chunks, long
//! names, negative counts, `ANLF` containers). Patch offsets come from the reference decoder's
//! map of the file ([`crate::anpk_stories`]).

use gtastream::encode;
use gtastream::{Animation, Bone, Format, FrameType, Keyframe, Package};

use crate::anpk_stories::*;

pub fn kf(time: f32, rotation: [f32; 4], translation: [f32; 3], scale: [f32; 3]) -> Keyframe {
    Keyframe {
        time,
        rotation,
        translation,
        scale,
    }
}

/// `n` frames of type `t` with values that are not round (parts `t` does not store are 0).
pub fn frames(t: FrameType, n: usize, seed: f32) -> Vec<Keyframe> {
    (0..n)
        .map(|i| {
            let x = seed + i as f32;
            let mut k = kf(
                0.1 * i as f32,
                [0.1 * x, -0.2 * x, 0.3, 0.9 - 0.01 * x],
                [0.0; 3],
                [0.0; 3],
            );
            if t.has_translation() {
                k.translation = [x, -x * 0.5, 100.25];
            }
            if t.has_scale() {
                k.scale = [1.0, 1.5 + x, 0.125];
            }
            k
        })
        .collect()
}

pub fn bone(
    name: &str,
    bone_id: Option<i32>,
    frame_type: FrameType,
    frames: Vec<Keyframe>,
) -> Bone {
    Bone {
        name: Some(name.into()),
        bone_id,
        bone_key: None,
        frame_type,
        frames,
        raw: Vec::new(),
    }
}

pub fn anim(name: &str, bones: Vec<Bone>) -> Animation {
    Animation {
        name: name.into(),
        frame_data_size: None,
        flags: None,
        duration: None,
        bones,
        raw: Vec::new(),
    }
}

pub fn package(name: &str, animations: Vec<Animation>) -> Package {
    Package {
        format: Format::Anpk,
        name: Some(name.into()),
        animations,
        warnings: Vec::new(),
        raw: Vec::new(),
        trailing: Vec::new(),
    }
}

/// Every frame type, 44- and 48-byte ANIM chunks mixed, objects without frames first, in the
/// middle and last (also last of the file), an animation without objects.
pub fn mixed() -> Package {
    use FrameType::{Kr00, Krt0, Krts};
    package(
        "ped",
        vec![
            anim(
                "walk_civi",
                vec![
                    bone("Root", Some(0), Krt0, frames(Krt0, 3, 1.0)),
                    bone("Spine", None, Kr00, frames(Kr00, 2, 2.0)),
                    bone("Empty", Some(7), Kr00, vec![]),
                    bone("Head", Some(5), Krts, frames(Krts, 2, 3.0)),
                ],
            ),
            anim("none", vec![]),
            anim(
                "idle_stance",
                vec![
                    bone("Bip01", None, Kr00, vec![]),
                    bone("R Hand", Some(-1), Kr00, frames(Kr00, 1, 4.0)),
                    bone("Last", None, Kr00, vec![]),
                ],
            ),
        ],
    )
}

/// Vice City's `ped.ifp` has an animation with two `Root` objects: here a repeat without
/// frames and one with frames, in another case; the next animation may use the names again.
pub fn duplicate_bones() -> Package {
    use FrameType::{Kr00, Krt0};
    package(
        "ped",
        vec![
            anim(
                "run_dup",
                vec![
                    bone("Root", Some(0), Krt0, frames(Krt0, 2, 1.0)),
                    bone("Spine", None, Kr00, frames(Kr00, 1, 2.0)),
                    bone("Root", None, Kr00, vec![]),
                    bone("Head", Some(5), Kr00, frames(Kr00, 1, 3.0)),
                    bone("ROOT", Some(0), Krt0, frames(Krt0, 1, 4.0)),
                ],
            ),
            anim(
                "again",
                vec![
                    bone("Root", Some(0), Kr00, frames(Kr00, 1, 5.0)),
                    bone("Spine", None, Kr00, vec![]),
                ],
            ),
        ],
    )
}

pub fn bytes(p: &Package) -> Vec<u8> {
    encode::anpk(p).expect("encodable")
}

pub fn map(file: &[u8]) -> AnpkMap {
    anpk_reference(file).map
}

/// Every object of a map with the size fields that enclose it (CPAN, DGAN, ANPK), in order.
pub fn objects(m: &AnpkMap) -> Vec<(ObjMap, [u64; 3])> {
    let mut out = Vec::new();
    for b in &m.blocks {
        for a in &b.animations {
            for o in &a.objects {
                out.push((o.clone(), [o.cpan + 4, a.dgan + 4, b.at + 4]));
            }
        }
    }
    out
}

/// Inserts `extra` at `at`; adds its length to the size fields at `sizes` (all before `at`).
pub fn insert(file: &mut Vec<u8>, at: u64, extra: &[u8], sizes: &[u64]) {
    for &s in sizes {
        assert!(s < at);
        bump_u32(file, s, extra.len() as i64);
    }
    let at = at as usize;
    file.splice(at..at, extra.iter().copied());
}

/// `mixed` with an empty keyframe chunk of this tag after every object without frames; the
/// sizes fixed if `fix_sizes`.
pub fn with_empty_chunks(tag: &[u8; 4], fix_sizes: bool) -> Vec<u8> {
    let mut file = bytes(&mixed());
    let m = map(&file);
    let mut chunk = tag.to_vec();
    chunk.extend_from_slice(&[0; 4]);
    // From the end, so that earlier offsets stay valid.
    for (o, sizes) in objects(&m).into_iter().rev() {
        if o.frame_count == 0 {
            let sizes: &[u64] = if fix_sizes { &sizes } else { &[] };
            insert(&mut file, o.end, &chunk, sizes);
        }
    }
    file
}

/// Fills the bytes of the field `at..end` after its first NUL with `byte`.
fn fill_tail(file: &mut [u8], at: u64, end: u64, byte: u8) {
    let field = &mut file[at as usize..end as usize];
    if let Some(nul) = field.iter().position(|&b| b == 0) {
        field[nul + 1..].fill(byte);
    }
}

/// `mixed` as exporters leave it: garbage after every name's NUL (package, animation and
/// object names), the `INFO` field after each object count and the `ANIM` field after each
/// frame count not 0, the 48-byte form's last two fields (GTA III's links) set, a stale last
/// frame index.
pub fn exported() -> Vec<u8> {
    let mut file = bytes(&mixed());
    let m = map(&file);
    let block = &m.blocks[0];
    fill_tail(
        &mut file,
        block.name_field,
        block.animations[0].name_chunk,
        0xCD,
    );
    for (a, anim) in block.animations.iter().enumerate() {
        fill_tail(&mut file, anim.name_field, anim.dgan, b'x');
        put_u32(&mut file, anim.info + 12, 0x5EED_0000 + a as u32);
        for (o, object) in anim.objects.iter().enumerate() {
            fill_tail(&mut file, object.body, object.body + 28, 0xFE);
            put_u32(&mut file, object.body + 32, 7);
            if u32_at(&file, object.anim as usize + 4) == 48 {
                put_u32(&mut file, object.body + 40, 0xAAAA_0000 + o as u32);
                put_u32(&mut file, object.body + 44, 0xBBBB_0000 + o as u32);
            }
            if o == 0 {
                bump_u32(&mut file, object.body + 36, 5);
            }
        }
    }
    file
}

/// An `ANLF` container of these ANPK blocks, its size correct.
pub fn anlf(blocks: &[Vec<u8>]) -> Vec<u8> {
    let mut file = b"ANLF".to_vec();
    let body: usize = blocks.iter().map(Vec::len).sum();
    file.extend_from_slice(&((body + 4) as u32).to_le_bytes());
    file.extend_from_slice(&(blocks.len() as i32).to_le_bytes());
    for b in blocks {
        file.extend_from_slice(b);
    }
    file
}

/// A second package for containers.
pub fn second() -> Package {
    use FrameType::{Kr00, Krts};
    package(
        "car",
        vec![anim(
            "door_open",
            vec![
                bone("door_lf", None, Krts, frames(Krts, 2, 9.0)),
                bone("wheel", Some(3), Kr00, vec![]),
            ],
        )],
    )
}

/// A package whose animation and package names have `n` characters.
pub fn named(n: usize) -> Package {
    let name: String = (0..n).map(|i| char::from(b'a' + (i % 26) as u8)).collect();
    let mut p = package(&name, vec![anim(&name, vec![])]);
    p.animations.push(anim(
        "next",
        vec![bone(
            "b",
            Some(1),
            FrameType::Kr00,
            frames(FrameType::Kr00, 1, 0.0),
        )],
    ));
    p
}

/// Named fixtures for the invariance and truncation tests: valid, sloppy and failing files.
pub fn fixtures() -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = Vec::new();
    let base = bytes(&mixed());
    let m = map(&base);
    out.push(("mixed".into(), base.clone()));
    out.push(("exported".into(), exported()));
    // Zero tags everywhere the engines do not look.
    let mut zero = base.clone();
    let block = &m.blocks[0];
    put_u32(&mut zero, block.info, 0);
    for a in &block.animations {
        for at in [a.name_chunk, a.dgan, a.info] {
            put_u32(&mut zero, at, 0);
        }
        for o in &a.objects {
            put_u32(&mut zero, o.cpan, 0);
            put_u32(&mut zero, o.anim, 0);
        }
    }
    out.push(("zero tags".into(), zero));
    // Wrong sizes.
    let mut sizes = base.clone();
    let a0 = &block.animations[0];
    bump_u32(&mut sizes, 4, 1);
    bump_u32(&mut sizes, a0.dgan + 4, -4);
    bump_u32(&mut sizes, a0.objects[1].cpan + 4, 100);
    put_u32(&mut sizes, a0.objects[0].keyframes.unwrap() + 4, 0);
    out.push(("wrong sizes".into(), sizes));
    // Empty keyframe chunks.
    out.push(("K000".into(), with_empty_chunks(b"K000", true)));
    out.push(("KRTS size 0".into(), with_empty_chunks(b"KRTS", true)));
    out.push((
        "K000, sizes not fixed".into(),
        with_empty_chunks(b"K000", false),
    ));
    // Names.
    for n in [0, 3, 4, 5, 255] {
        out.push((format!("names of {n}"), bytes(&named(n))));
    }
    out.push(("duplicate bones".into(), bytes(&duplicate_bones())));
    // Containers.
    let second = bytes(&second());
    out.push(("ANLF".into(), anlf(&[base.clone(), second.clone()])));
    let mut wrong = anlf(&[second.clone(), base.clone()]);
    bump_u32(&mut wrong, 4, 7);
    put_u32(&mut wrong, 12 + second.len() as u64, 0);
    out.push(("ANLF, wrong size, zero tag".into(), wrong));
    // Trailing bytes.
    let mut trailing = base.clone();
    trailing.extend_from_slice(&[0, 0, 0, 0, 0, 1, 2]);
    out.push(("trailing".into(), trailing));
    let mut two = base.clone();
    two.extend_from_slice(&second);
    out.push(("two blocks without ANLF".into(), two));
    // Errors.
    let mut neg = base.clone();
    put_i32(&mut neg, a0.info + 8, -1);
    out.push(("negative numObjects".into(), neg));
    let mut neg = base.clone();
    put_i32(&mut neg, a0.objects[3].body + 28, -2);
    out.push(("negative numFrames".into(), neg));
    let mut long = base.clone();
    put_u32(&mut long, block.animations[2].name_chunk + 4, 257);
    out.push(("name of 257".into(), long));
    let mut anim_size = base.clone();
    put_u32(&mut anim_size, a0.objects[1].anim + 4, 40);
    out.push(("ANIM of 40".into(), anim_size));
    let mut tag = base.clone();
    let k = block.animations[2].objects[1].keyframes.unwrap();
    tag[k as usize..k as usize + 4].copy_from_slice(b"KR01");
    out.push(("unknown keyframe tag".into(), tag));
    out
}
