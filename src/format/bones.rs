//! The bone names of the current animation, for [`WarningKind::DuplicateBone`].
//!
//! Fixed space: the names of the first `K` bones of an animation are kept as 32-bit hashes
//! (of the name with ASCII letters folded to one case, as the games look bones up, eight bytes
//! at a time), and every later bone is checked against them; a 32-bit mask of the hashes' low
//! five bits skips the scan for most new names. So a bone repeating one of the first `K` names is
//! always reported; a repeat among later bones only is not; and two different names share a
//! hash with a chance of 2^-32 per pair (for an animation of 32 bones, about 1 in 10^7).
//! Empty names are never compared: nothing is looked up by them.
//!
//! [`WarningKind::DuplicateBone`]: crate::WarningKind::DuplicateBone

#[derive(Clone, Debug)]
pub(crate) struct BoneNames<const K: usize> {
    hashes: [u32; K],
    /// Bit `h % 32` of every hash kept: a name whose bit is clear is not among them.
    mask: u32,
    len: u8,
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// The bytes of `word` with ASCII capitals made small (as `to_ascii_lowercase`), all at once:
/// bit 7 of a byte's low seven bits plus `0x80 - c` is set when they are at least `c`.
#[inline(always)]
fn fold_case(word: u64) -> u64 {
    let low = word & !HIGH;
    let from_a = low + ONES * (0x80 - u64::from(b'A'));
    let past_z = low + ONES * (0x80 - u64::from(b'Z') - 1);
    let capital = from_a & !past_z & !word & HIGH;
    word | (capital >> 2)
}

/// One word of the name into the hash.
#[inline(always)]
fn mix(hash: u64, word: u64) -> u64 {
    (hash.rotate_left(26) ^ fold_case(word)).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// The little-endian word of `n` bytes (1 to 8) at the start of `bytes`, read as two
/// overlapping halves (or three bytes for fewer than four): every byte counts, for a given `n`.
#[inline(always)]
fn short_word(bytes: &[u8]) -> u64 {
    let n = bytes.len();
    let u32_at = |i: usize| {
        u64::from(u32::from_le_bytes([
            bytes[i],
            bytes[i + 1],
            bytes[i + 2],
            bytes[i + 3],
        ]))
    };
    if n >= 4 {
        u32_at(0) | (u32_at(n - 4) << 32)
    } else if n > 0 {
        u64::from(bytes[0]) | (u64::from(bytes[n / 2]) << 8) | (u64::from(bytes[n - 1]) << 16)
    } else {
        0
    }
}

/// A 32-bit hash of the case-folded name, eight bytes at a time (the length is hashed too, so
/// that the overlapping reads of the last bytes tell names apart).
#[inline]
fn hash(name: &[u8]) -> u32 {
    let (words, tail) = name.as_chunks::<8>();
    let mut hash = mix(0, name.len() as u64);
    for word in words {
        hash = mix(hash, u64::from_le_bytes(*word));
    }
    if !tail.is_empty() {
        hash = mix(hash, short_word(tail));
    }
    (hash >> 32) as u32
}

impl<const K: usize> BoneNames<K> {
    pub(crate) const fn new() -> Self {
        BoneNames {
            hashes: [0; K],
            mask: 0,
            len: 0,
        }
    }

    /// A new animation begins.
    pub(crate) fn clear(&mut self) {
        self.len = 0;
        self.mask = 0;
    }

    #[inline]
    fn holds(&self, hash: u32) -> bool {
        self.mask & (1 << (hash % 32)) != 0 && self.hashes[..usize::from(self.len)].contains(&hash)
    }

    #[inline]
    fn keep(&mut self, hash: u32) {
        let len = usize::from(self.len);
        if len < K {
            self.hashes[len] = hash;
            self.mask |= 1 << (hash % 32);
            self.len += 1;
        }
    }

    /// Whether `name` is (by its hash) one of the names kept.
    pub(crate) fn contains(&self, name: &[u8]) -> bool {
        !name.is_empty() && self.holds(hash(name))
    }

    /// Whether `name` is one of the names kept; a new one is kept (while there is room). One
    /// hash of the name for both. Inlined into the bone step (once per format): a call cost a
    /// tenth of the check.
    #[inline(always)]
    pub(crate) fn seen(&mut self, name: &[u8]) -> bool {
        if name.is_empty() {
            return false;
        }
        let hash = hash(name);
        if self.holds(hash) {
            return true;
        }
        self.keep(hash);
        false
    }

    /// Keeps `name`, while there is room.
    pub(crate) fn insert(&mut self, name: &[u8]) {
        if !name.is_empty() {
            self.keep(hash(name));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::BoneNames;

    #[test]
    fn repeats_of_the_first_names_are_found_in_any_case() {
        let mut names = BoneNames::<2>::new();
        assert!(!names.contains(b"Root"));
        names.insert(b"Root");
        names.insert(b"Pelvis");
        names.insert(b"Spine");
        assert!(names.contains(b"root"));
        assert!(names.contains(b"PELVIS"));
        // Beyond the room kept.
        assert!(!names.contains(b"Spine"));
        assert!(!names.contains(b"Roo"));
        assert!(!names.contains(b""));
        names.clear();
        assert!(!names.contains(b"Root"));
        // `seen` keeps what it has not seen, while there is room.
        assert!(!names.seen(b"Root"));
        assert!(names.seen(b"ROOT"));
        assert!(!names.seen(b"Pelvis"));
        assert!(!names.seen(b"Spine"));
        assert!(!names.seen(b"Spine"));
        assert!(!names.seen(b""));
    }

    /// Folding matches `to_ascii_lowercase` on every byte value, wherever it sits in a word.
    #[test]
    fn words_fold_case_as_bytes_do() {
        for b in 0..=255u8 {
            for lane in 0..8 {
                let word =
                    u64::from(b) << (8 * lane) | 0x4161_7a5a_405b_60c1 & !(0xff << (8 * lane));
                let bytes = word.to_le_bytes().map(|c| c.to_ascii_lowercase());
                assert_eq!(
                    super::fold_case(word),
                    u64::from_le_bytes(bytes),
                    "{b:#x} {lane}"
                );
            }
        }
    }

    /// Names that differ in one byte, or only in length, or only in case, hash as they should:
    /// apart, apart, alike (for every length across the word boundaries).
    #[test]
    fn hashes_tell_names_apart_but_not_their_case() {
        use super::hash;
        let base = *b"Bip01 L Forearm Twist 01 and more";
        for len in 1..=base.len() {
            let name = &base[..len];
            let upper = name.to_ascii_uppercase();
            assert_eq!(hash(name), hash(&upper), "{len}");
            assert_ne!(hash(name), hash(&base[..len - 1]), "{len}");
            for i in 0..len {
                let mut other = name.to_vec();
                other[i] ^= 0x01;
                if other[i].eq_ignore_ascii_case(&name[i]) {
                    continue;
                }
                assert_ne!(hash(name), hash(&other), "{len} {i}");
            }
        }
    }
}
