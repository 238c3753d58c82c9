//! Names for Stories bone keys (docs/FORMATS.md §3.7). A Stories file stores, for each bone,
//! the CRC-32 of its name in upper case (reflected polynomial 0xEDB88320, initial value
//! 0xFFFFFFFF, no final xor). The keys of the standard ped and vehicle skeletons are computed
//! here at compile time, so that decoded bones carry their names where they are known.

/// The standard skeleton names: the San Andreas ped skeleton, the Vice City / GTA III `Bip01`
/// forms of the same bones, the GTA III ped frames, and the vehicle dummies that animations
/// move. Names that differ only in case have the same key: one spelling is kept.
const NAMES: &[&str] = &[
    // San Andreas ped skeleton (HAnim ids 0 to 302).
    "Root",
    "Pelvis",
    "Spine",
    "Spine1",
    "Neck",
    "Head",
    "Jaw",
    "L Brow",
    "R Brow",
    "Bip01 L Clavicle",
    "L UpperArm",
    "L ForeArm",
    "L Hand",
    "L Fingers",
    "L Finger",
    "L Finger01",
    "Bip01 R Clavicle",
    "R UpperArm",
    "R ForeArm",
    "R Hand",
    "R Fingers",
    "R Finger",
    "R Finger01",
    "L Thigh",
    "L Calf",
    "L Foot",
    "L Toe0",
    "R Thigh",
    "R Calf",
    "R Foot",
    "R Toe0",
    "Belly",
    "L breast",
    "R breast",
    // Vice City and 3ds Max biped names.
    "Bip01",
    "Bip01 Pelvis",
    "Bip01 Spine",
    "Bip01 Spine1",
    "Bip01 Spine2",
    "Bip01 Neck",
    "Bip01 Head",
    "Bip01 L UpperArm",
    "Bip01 L ForeArm",
    "Bip01 L Hand",
    "Bip01 L Finger0",
    "Bip01 R UpperArm",
    "Bip01 R ForeArm",
    "Bip01 R Hand",
    "Bip01 R Finger0",
    "Bip01 L Thigh",
    "Bip01 L Calf",
    "Bip01 L Foot",
    "Bip01 L Toe0",
    "Bip01 R Thigh",
    "Bip01 R Calf",
    "Bip01 R Foot",
    "Bip01 R Toe0",
    // GTA III ped frames.
    "Swaist",
    "Smid",
    "Storso",
    "Shead",
    "Supperarml",
    "Supperarmr",
    "Slowerarml",
    "Slowerarmr",
    "SLhand",
    "SRhand",
    "Supperlegl",
    "Supperlegr",
    "Slowerlegl",
    "Slowerlegr",
    "Sfootl",
    "Sfootr",
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
