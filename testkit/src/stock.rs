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
