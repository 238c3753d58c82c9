//! The standard ped skeletons of GTA III, Vice City and San Andreas: each bone's id, names and
//! parent, so that an animation's tracks bind to a skeleton without hand-written tables.
//!
//! One table ([`BONES`]) holds every standard bone once:
//!
//! - San Andreas and Vice City skin their peds with RenderWare HAnim: each bone has an id (the
//!   bone tag an IFP track stores). The ids and names are SA's `eBoneTag` (gta-reversed
//!   `Enums/eBoneTag.h`: Root 0, Pelvis 1, Spine 2, Spine1 3, Neck 4, Head 5, L/R Brow 6/7, Jaw
//!   8, R Clavicle..R Finger01 21..26, L 31..36, L Thigh..Toe0 41..44, R 51..54, Belly 201,
//!   R/L breast 301/302); Vice City has the subset of reVC's `BoneTag` (`animation/
//!   RpAnimBlend.cpp`, `ConvertBoneTag2BoneName`: 0..5, 21..25, 31..35, 41..43, 51..53), whose
//!   names are the same bones' (`R Forearm`, `R Fingers`).
//! - GTA III's peds are frame hierarchies bound by name (re3 `modelinfo/PedModelInfo.cpp`,
//!   `m_pPedIds`: `Smid`, `Shead`, `Supperarml`, ...): its bones have no id.
//!
//! The parents are the frame trees of the games' ped models. Besides the games' own spellings,
//! a bone lists the 3ds Max biped names exporters write (`Bip01 L Thigh`) and SA's `Normal`
//! for the root. Names are compared as [`name_matches`](crate::name_matches) does, trimmed and
//! ASCII case-insensitively (real files write ` Pelvis`, `NORMAL`): [`by_name`]. The Stories name keys ([`crate::bone_names`]) are made
//! from these names too.

use crate::Game;

/// A bone of a standard ped skeleton.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StandardBone {
    /// The HAnim bone id (the bone tag IFP tracks store): Vice City and San Andreas; `None`
    /// for GTA III's frames, which are bound by name.
    pub id: Option<u16>,
    /// The name the games use first, then the other spellings files use.
    pub names: &'static [&'static str],
    /// The parent's index in [`BONES`]; `None` for a skeleton's root.
    pub parent: Option<u8>,
    /// Which games' skeletons have the bone ([`StandardBone::in_game`]).
    games: u8,
}

const III: u8 = 1;
const VC: u8 = 2;
const SA: u8 = 4;

impl StandardBone {
    /// The name the games use.
    pub const fn name(&self) -> &'static str {
        self.names[0]
    }

    /// Whether `game`'s ped skeleton has the bone.
    pub const fn in_game(&self, game: Game) -> bool {
        let bit = match game {
            Game::Iii => III,
            Game::ViceCity => VC,
            Game::SanAndreas => SA,
        };
        self.games & bit != 0
    }

    /// The parent bone, if any.
    pub fn parent(&self) -> Option<&'static StandardBone> {
        BONES.get(usize::from(self.parent?))
    }
}

const fn bone(id: u16, names: &'static [&'static str], parent: u8, games: u8) -> StandardBone {
    StandardBone {
        id: Some(id),
        names,
        parent: Some(parent),
        games,
    }
}

const fn frame(names: &'static [&'static str], parent: u8) -> StandardBone {
    StandardBone {
        id: None,
        names,
        parent: Some(parent),
        games: III,
    }
}

const BOTH: u8 = VC | SA;

/// Every standard bone, at most 64 (an animation's bones are a `u64` mask over this table:
/// [`AnimationSummary::standard`](crate::AnimationSummary::standard)). Index 0 is the SA/VC
/// root, [`III_ROOT`] GTA III's.
pub const BONES: &[StandardBone] = &[
    // 0: San Andreas and Vice City.
    StandardBone {
        id: Some(0),
        names: &["Root", "Normal", "Bip01"],
        parent: None,
        games: BOTH,
    },
    bone(1, &["Pelvis", "Bip01 Pelvis"], 0, BOTH),
    bone(2, &["Spine", "Bip01 Spine"], 1, BOTH),
    bone(3, &["Spine1", "Bip01 Spine1"], 2, BOTH),
    bone(4, &["Neck", "Bip01 Neck"], 3, BOTH),
    bone(5, &["Head", "Bip01 Head"], 4, BOTH),
    bone(6, &["L Brow"], 5, SA),
    bone(7, &["R Brow"], 5, SA),
    bone(8, &["Jaw"], 5, SA),
    // 9: the right arm.
    bone(21, &["Bip01 R Clavicle"], 3, BOTH),
    bone(22, &["R UpperArm", "Bip01 R UpperArm"], 9, BOTH),
    bone(23, &["R ForeArm", "Bip01 R ForeArm"], 10, BOTH),
    bone(24, &["R Hand", "Bip01 R Hand"], 11, BOTH),
    bone(25, &["R Finger", "R Fingers", "Bip01 R Finger0"], 12, BOTH),
    bone(26, &["R Finger01"], 13, SA),
    // 15: the left arm.
    bone(31, &["Bip01 L Clavicle"], 3, BOTH),
    bone(32, &["L UpperArm", "Bip01 L UpperArm"], 15, BOTH),
    bone(33, &["L ForeArm", "Bip01 L ForeArm"], 16, BOTH),
    bone(34, &["L Hand", "Bip01 L Hand"], 17, BOTH),
    bone(35, &["L Finger", "L Fingers", "Bip01 L Finger0"], 18, BOTH),
    bone(36, &["L Finger01"], 19, SA),
    // 21: the legs.
    bone(41, &["L Thigh", "Bip01 L Thigh"], 1, BOTH),
    bone(42, &["L Calf", "Bip01 L Calf"], 21, BOTH),
    bone(43, &["L Foot", "Bip01 L Foot"], 22, BOTH),
    bone(44, &["L Toe0", "Bip01 L Toe0"], 23, SA),
    bone(51, &["R Thigh", "Bip01 R Thigh"], 1, BOTH),
    bone(52, &["R Calf", "Bip01 R Calf"], 25, BOTH),
    bone(53, &["R Foot", "Bip01 R Foot"], 26, BOTH),
    bone(54, &["R Toe0", "Bip01 R Toe0"], 27, SA),
    // 29: San Andreas' soft parts.
    bone(201, &["Belly"], 2, SA),
    bone(301, &["R breast"], 3, SA),
    bone(302, &["L breast"], 3, SA),
    // 32: GTA III.
    StandardBone {
        id: None,
        names: &["Swaist"],
        parent: None,
        games: III,
    },
    frame(&["Smid"], 32),
    frame(&["Storso"], 33),
    frame(&["Shead"], 34),
    frame(&["Supperarml"], 34),
    frame(&["Slowerarml"], 36),
    frame(&["SLhand"], 37),
    frame(&["Supperarmr"], 34),
    frame(&["Slowerarmr"], 39),
    frame(&["SRhand"], 40),
    frame(&["Supperlegl"], 32),
    frame(&["Slowerlegl"], 42),
    frame(&["Sfootl"], 43),
    frame(&["Supperlegr"], 32),
    frame(&["Slowerlegr"], 45),
    frame(&["Sfootr"], 46),
];

/// The index of GTA III's root frame in [`BONES`].
pub const III_ROOT: usize = 32;

const _: () = assert!(BONES.len() <= 64, "a u64 mask covers the table");

/// Every name and alias of the table, in table order (for the Stories keys).
pub(crate) const NAME_COUNT: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < BONES.len() {
        n += BONES[i].names.len();
        i += 1;
    }
    n
};

/// The index in [`BONES`] of the bone with HAnim id `id`.
pub fn by_id(id: i32) -> Option<usize> {
    BONES
        .iter()
        .position(|b| b.id.is_some_and(|i| i32::from(i) == id))
}

/// The index in [`BONES`] of the bone one of whose names is `name`, compared as
/// [`name_matches`](crate::name_matches) does: ASCII case and surrounding blanks aside.
pub fn by_name(name: &[u8]) -> Option<usize> {
    BONES.iter().position(|b| {
        b.names
            .iter()
            .any(|n| crate::name_matches(name, n.as_bytes()))
    })
}

/// The standard bone a track binds to, as San Andreas binds it: by its id when it stores one
/// (not −1), else by name.
pub fn find(bone_id: Option<i32>, name: Option<&[u8]>) -> Option<usize> {
    match bone_id {
        Some(id) if id >= 0 => by_id(id),
        _ => by_name(name?),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Parents come before their children, and each skeleton is one tree rooted at its root.
    #[test]
    fn parents_form_trees() {
        for (i, bone) in BONES.iter().enumerate() {
            match bone.parent {
                Some(p) => {
                    let p = usize::from(p);
                    assert!(p < i, "{}", bone.name());
                    assert_eq!(BONES[p].games & bone.games, bone.games, "{}", bone.name());
                }
                None => assert!(i == 0 || i == III_ROOT, "{}", bone.name()),
            }
        }
    }

    /// Hand-checked bones of each skeleton (gta-reversed eBoneTag, re3 m_pPedIds).
    #[test]
    fn known_bones() {
        let named = |name: &[u8]| BONES[by_name(name).expect("standard")];
        assert_eq!(named(b" Pelvis").id, Some(1));
        assert_eq!(named(b"NORMAL").id, Some(0));
        assert_eq!(named(b"bip01 l calf ").id, Some(42));
        assert_eq!(
            named(b"L Calf").parent().map(StandardBone::name),
            Some("L Thigh")
        );
        assert_eq!(named(b"R Forearm").id, Some(23));
        assert_eq!(BONES[by_id(302).unwrap()].name(), "L breast");
        assert_eq!(BONES[by_id(54).unwrap()].parent().unwrap().id, Some(53));
        assert!(!BONES[by_id(54).unwrap()].in_game(Game::ViceCity));
        assert!(BONES[by_id(53).unwrap()].in_game(Game::ViceCity));
        assert_eq!(by_id(9), None);
        assert_eq!(by_id(-1), None);
        let shead = named(b"shead");
        assert!(shead.in_game(Game::Iii) && shead.id.is_none());
        assert_eq!(shead.parent().unwrap().name(), "Storso");
        assert_eq!(find(Some(-1), Some(b"Head")), by_id(5));
        assert_eq!(find(Some(5), Some(b"Jaw")), by_id(5));
        assert_eq!(find(None, None), None);
    }

    /// No two names (aliases included) are equal case-insensitively: each name binds once.
    #[test]
    fn names_are_unique() {
        let names = || BONES.iter().flat_map(|b| b.names.iter().copied());
        for (i, a) in names().enumerate() {
            for b in names().skip(i + 1) {
                assert!(!a.eq_ignore_ascii_case(b), "{a} / {b}");
            }
        }
        assert_eq!(names().count(), NAME_COUNT);
    }
}
