//! Files shaped like the ones the games ship, built in code (never copied from a game): what
//! the readability tests of `check` run on.

use crate::ifp2::{p3, p4, AnimSpec, BoneSpec, FileSpec};

/// San Andreas' bones (name, id) that the stock-shaped animations move.
const BONES: [(&str, i32); 8] = [
    ("Root", 0),
    ("Pelvis", 1),
    ("Spine", 2),
    ("Spine1", 3),
    ("Neck", 4),
    ("Head", 5),
    ("L Brow", 6),
    ("R Brow", 7),
];

/// Animations of the stock-shaped `ped.ifp`.
pub const SA_PED_ANIMATIONS: usize = 330;

/// Bones whose keys share a time, in animation `i` of [`sa_ped`] (2 or 3 each, 770 in all).
pub fn sa_ped_repeats(i: usize) -> usize {
    2 + usize::from(i.is_multiple_of(3))
}

/// An ANP3 `ped` block shaped like San Andreas' stock `ped.ifp`: [`SA_PED_ANIMATIONS`]
/// animations of eight packed bones (the root with translation), where in each animation
/// [`sa_ped_repeats`] bones have two keys at one time, as the stock file's exporter left them.
pub fn sa_ped() -> FileSpec {
    let identity = [0, 0, 0, 4096];
    let animations = (0..SA_PED_ANIMATIONS)
        .map(|i| {
            let repeats = sa_ped_repeats(i);
            let bones = BONES
                .iter()
                .enumerate()
                .map(|(b, &(name, id))| {
                    // The repeated key: two keys at tick 30.
                    let times: &[i16] = if b >= 1 && b <= repeats {
                        &[0, 30, 30, 60]
                    } else {
                        &[0, 30, 60]
                    };
                    if b == 0 {
                        let frames = times
                            .iter()
                            .map(|&t| p4(identity, t, [0, 0, 512]))
                            .collect();
                        BoneSpec::new(name, 4, id, frames)
                    } else {
                        let frames = times.iter().map(|&t| p3(identity, t)).collect();
                        BoneSpec::new(name, 3, id, frames)
                    }
                })
                .collect();
            AnimSpec::new(&format!("anim_{i:03}"), bones)
        })
        .collect();
    FileSpec::anp3("ped", animations)
}

/// A San Andreas stream IPL (`lae_stream0.ipl` and the like, cut from `gta3.img`): a binary
/// IPL of `n` instances in the map, each pointing at its LOD in the parent text IPL (index
/// `i`, or -1 for every fourth), valid model ids, and two car generators (one of a random
/// model, -1). Its LOD indexes are right only under a name that holds `_stream`.
pub fn sa_stream_ipl(n: usize) -> Vec<u8> {
    use crate::ipl::{Car, Inst};
    let instances: Vec<Inst> = (0..n)
        .map(|i| {
            let f = i as f32;
            let lod = if i % 4 == 3 { -1 } else { i as i32 };
            let position = [1200.0 + f * 3.5, -1500.0 - f, 12.25];
            Inst::binary(position, [0.0, 0.0, 0.6, 0.8], 4000 + i as i32, 0, lod)
        })
        .collect();
    let mut cars = [Car::sample(1), Car::sample(2)];
    cars[1].model_id = -1;
    let inst_at = 0x4C;
    let car_at = inst_at + 40 * n as u32;
    crate::ipl::bnry(&instances, inst_at, &cars, car_at)
}

/// Names of San Andreas stream IPLs, short as the game ships them and as long as a modder's
/// copy may be (over the 32 bytes a context name holds).
pub const SA_STREAM_NAMES: [&str; 3] = [
    "lae_stream0.ipl",
    "lae_stream0_copied_from_gta3_img_with_a_long_name.ipl",
    "countrye_stream12.ipl",
];

/// Animations of the Vice City-shaped `ped.ifp`.
pub const VC_PED_ANIMATIONS: usize = 269;

/// An ANPK `ped` block shaped like Vice City's `ped.ifp`: [`VC_PED_ANIMATIONS`] animations of
/// three bones in 44-byte `ANIM` chunks (with bone ids), rotation keys and a root with
/// translation.
#[cfg(feature = "alloc")]
pub fn vc_ped() -> Vec<u8> {
    anpk_ped(VC_PED_ANIMATIONS, Some)
}

/// Animations of the GTA III-shaped `ped.ifp`.
pub const III_PED_ANIMATIONS: usize = 200;

/// An ANPK `ped` block shaped like GTA III's `ped.ifp`: [`III_PED_ANIMATIONS`] animations in
/// 48-byte `ANIM` chunks (no bone ids).
#[cfg(feature = "alloc")]
pub fn iii_ped() -> Vec<u8> {
    anpk_ped(III_PED_ANIMATIONS, |_| None)
}

#[cfg(feature = "alloc")]
fn anpk_ped(animations: usize, id: fn(i32) -> Option<i32>) -> Vec<u8> {
    use crate::anpk::{anim, bone, kf, package};
    use gtastream::FrameType::{Kr00, Krt0};
    let rotation = |t: f32| kf(t, [0.0, 0.0, 0.0, 1.0], [0.0; 3], [1.0; 3]);
    let moved = |t: f32| kf(t, [0.0, 0.0, 0.0, 1.0], [0.0, 0.0, t], [1.0; 3]);
    let anims = (0..animations)
        .map(|i| {
            let times = [0.0, 0.5, 1.0];
            anim(
                &format!("anim_{i:03}"),
                vec![
                    bone(
                        "Root",
                        id(0),
                        Krt0,
                        times.iter().map(|&t| moved(t)).collect(),
                    ),
                    bone(
                        "Spine",
                        id(2),
                        Kr00,
                        times.iter().map(|&t| rotation(t)).collect(),
                    ),
                    bone(
                        "Head",
                        id(5),
                        Kr00,
                        times.iter().map(|&t| rotation(t)).collect(),
                    ),
                ],
            )
        })
        .collect();
    crate::anpk::bytes(&package("ped", anims))
}

/// A San Andreas `gta3.img`-shaped version 2 archive: the stock-shaped `ped.ifp`, stream IPLs
/// and records the game skips, as real archives hold them (a name without its `.`, a record of
/// no sectors, whose data is not an IFP at all).
pub fn sa_gta3_img() -> Vec<u8> {
    let mut img = crate::img::Img::default();
    img.add("ped.ifp", &sa_ped().build());
    img.add("lae_stream0.ipl", &sa_stream_ipl(40));
    img.add("countrye_stream12.ipl", &sa_stream_ipl(8));
    // Skipped by the game: no '.' in the name (its bytes are garbage to the decoder) ...
    img.add("lae2_stream0ipl", b"ANP3\xff\xff\xff\xffnot an ifp");
    // ... and no sectors, over the data of an entry.
    let mut skipped = img.records[1].clone();
    skipped.size = 0;
    skipped.name = crate::img::name("empty.ifp");
    img.records.push(skipped);
    img.v2()
}

/// A cutscene archive's shape (`cuts.img`): each cutscene's IFP, whose block is named after
/// it, of float-framed bones (the cutscene loader takes them as they are) with its camera
/// and object data beside it.
pub fn cuts_img() -> Vec<u8> {
    use crate::ifp2::f1;
    let mut img = crate::img::Img::default();
    for cutscene in ["intro1", "ryder2", "sweet1b"] {
        let bones = BONES
            .iter()
            .map(|&(name, id)| {
                let frames = (0..4)
                    .map(|k| f1([0.0, 0.0, 0.0, 1.0], k as f32 / 30.0))
                    .collect();
                BoneSpec::new(name, 1, id, frames)
            })
            .collect();
        let animation = AnimSpec::new(cutscene, bones).flags(0);
        let block = FileSpec::anp3(&cutscene.to_uppercase(), vec![animation]);
        img.add(&format!("{cutscene}.ifp"), &block.build());
        img.add(&format!("{cutscene}.dat"), b"1\n0.0 0.0 0.0\n");
    }
    img.v2()
}

/// Packed keys shaped as the stock `walk` (types 3/4, w exactly 4096 on consecutive keys):
/// divided by 4096 their dot product reaches 1 although they are about 1° apart, so the games'
/// slerp returns the next key over the whole interval: from key 0 (the Root and the `second`
/// bone, name and id) and later (the Root's keys 1→2, the second's 2→3), with a step (the
/// Root's 3→4 at 40 ticks) and a tail of keys ~10° apart. One animation in one package.
pub fn packed_jumps(package: &str, animation: &str, second: (&str, i32)) -> Vec<u8> {
    let root = vec![
        p4([0, 0, 0, 4096], 0, [0, 0, 1024]),
        p4([20, 0, 0, 4096], 10, [100, 0, 1024]),
        p4([40, 0, 0, 4096], 20, [200, 50, 1024]),
        p4([400, 0, 0, 4076], 40, [300, 50, 1000]),
        p4([400, 0, 300, 4065], 40, [300, 60, 1000]),
        p4([300, 0, 500, 4054], 60, [0, 60, 1000]),
    ];
    let other = vec![
        p3([0, 0, 0, 4096], 0),
        p3([0, 0, 41, 4096], 10),
        p3([0, 0, -50, 4096], 20),
        p3([0, 0, -60, 4096], 30),
        p3([0, 0, -300, 4085], 60),
    ];
    let bones = vec![
        BoneSpec::new("Root", 4, 0, root),
        BoneSpec::new(second.0, 3, second.1, other),
    ];
    FileSpec::anp3(package, vec![AnimSpec::new(animation, bones)]).build()
}
