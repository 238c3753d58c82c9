//! Names for Stories bone keys (docs/FORMATS.md §3.7). A Stories file stores, for each bone,
//! the CRC-32 of its name in upper case (reflected polynomial 0xEDB88320, initial value
//! 0xFFFFFFFF, no final xor). The keys of the standard ped and vehicle skeletons are computed
//! here at compile time, so that decoded bones carry their names where they are known.

/// Names that are no standard ped bone ([`crate::skeleton`]): a biped bone the games' skins
/// lack, and the vehicle dummies that animations move.
const OTHER_NAMES: &[&str] = &[
    "Bip01 Spine2",
    // Vehicle dummies.
    "chassis_dummy",
    "chassis",
    "door_lf_dummy",
    "door_rf_dummy",
    "door_lr_dummy",
    "door_rr_dummy",
    "bonnet_dummy",
    "boot_dummy",
    "bump_front_dummy",
    "bump_rear_dummy",
    "windscreen_dummy",
    "wheel_lf_dummy",
    "wheel_rf_dummy",
    "wheel_lm_dummy",
    "wheel_rm_dummy",
    "wheel_lb_dummy",
    "wheel_rb_dummy",
    "misc_a",
    "misc_b",
    "misc_c",
    "ped_frontseat",
    "ped_backseat",
];

/// The standard skeleton names (every spelling of [`crate::skeleton::BONES`]: the San Andreas
/// and Vice City ped bones with their biped forms, the GTA III ped frames), then
/// [`OTHER_NAMES`]. Names that differ only in case have the same key: one spelling is kept.
const NAMES: [&str; crate::skeleton::NAME_COUNT + OTHER_NAMES.len()] = {
    let mut names = [""; crate::skeleton::NAME_COUNT + OTHER_NAMES.len()];
    let mut n = 0;
    let mut i = 0;
    while i < crate::skeleton::BONES.len() {
        let spellings = crate::skeleton::BONES[i].names;
        let mut j = 0;
        while j < spellings.len() {
            names[n] = spellings[j];
            n += 1;
            j += 1;
        }
        i += 1;
    }
    let mut k = 0;
    while k < OTHER_NAMES.len() {
        names[n] = OTHER_NAMES[k];
        n += 1;
        k += 1;
    }
    names
};

/// CRC-32 of `name` in ASCII upper case, as Stories bone keys are made.
pub const fn stories_bone_key(name: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    let mut i = 0;
    while i < name.len() {
        crc ^= name[i].to_ascii_uppercase() as u32;
        let mut bit = 0;
        while bit < 8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
            bit += 1;
        }
        i += 1;
    }
    crc
}

const KEYS: [u32; NAMES.len()] = {
    let mut keys = [0; NAMES.len()];
    let mut i = 0;
    while i < NAMES.len() {
        keys[i] = stories_bone_key(NAMES[i].as_bytes());
        i += 1;
    }
    keys
};

/// The standard name whose key is `key`. With `low_is_id` (bone-row flag 0x10, whose key
/// holds the bone id in its low 16 bits) only the high 16 bits are compared, and a name is
/// given only when one name alone matches.
pub fn stories_bone_name(key: u32, low_is_id: bool) -> Option<&'static [u8]> {
    let mask = if low_is_id { 0xFFFF_0000 } else { u32::MAX };
    let mut found = None;
    for (name, k) in NAMES.iter().zip(KEYS) {
        if k & mask == key & mask {
            if found.is_some() {
                return None;
            }
            found = Some(name.as_bytes());
        }
    }
    found
}

/// Every standard name with its key (for tools and tests).
pub fn standard_bone_names() -> impl Iterator<Item = (&'static str, u32)> {
    NAMES.iter().copied().zip(KEYS)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The standard CRC-32 of "123456789" is 0xCBF43926; without the final xor it is the
    /// complement.
    #[test]
    fn key_is_crc32_without_final_xor() {
        assert_eq!(stories_bone_key(b"123456789"), !0xCBF4_3926);
        assert_eq!(stories_bone_key(b"root"), stories_bone_key(b"ROOT"));
    }

    #[test]
    fn keys_are_unique_and_found() {
        for (i, (name, key)) in standard_bone_names().enumerate() {
            for (other, k) in standard_bone_names().skip(i + 1) {
                assert_ne!(key, k, "{name} and {other}");
            }
            assert_eq!(stories_bone_name(key, false), Some(name.as_bytes()));
        }
        assert_eq!(stories_bone_name(0x1234_5678, false), None);
    }
}
