//! The bone names of the current animation, for [`WarningKind::DuplicateBone`].
//!
//! Fixed space: the names of the first `K` bones of an animation are kept as 32-bit hashes
//! (FNV-1a of the name with ASCII letters folded to one case, as the games look bones up), and
//! every later bone is checked against them. So a bone repeating one of the first `K` names is
//! always reported; a repeat among later bones only is not; and two different names share a
//! hash with a chance of 2^-32 per pair (for an animation of 32 bones, about 1 in 10^7).
//! Empty names are never compared: nothing is looked up by them.
//!
//! [`WarningKind::DuplicateBone`]: crate::WarningKind::DuplicateBone

#[derive(Clone, Debug)]
pub(crate) struct BoneNames<const K: usize> {
    hashes: [u32; K],
    len: u8,
}

/// FNV-1a, case-folded.
fn hash(name: &[u8]) -> u32 {
    name.iter().fold(0x811c_9dc5, |h, &b| {
        (h ^ u32::from(b.to_ascii_lowercase())).wrapping_mul(0x0100_0193)
    })
}

impl<const K: usize> BoneNames<K> {
    pub(crate) const fn new() -> Self {
        BoneNames {
            hashes: [0; K],
            len: 0,
        }
    }

    /// A new animation begins.
    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }

    /// Whether `name` is (by its hash) one of the names kept.
    pub(crate) fn contains(&self, name: &[u8]) -> bool {
        !name.is_empty() && self.hashes[..usize::from(self.len)].contains(&hash(name))
    }

    /// Whether `name` is one of the names kept; a new one is kept (while there is room). One
    /// hash of the name for both.
    pub(crate) fn seen(&mut self, name: &[u8]) -> bool {
        if name.is_empty() {
            return false;
        }
        let h = hash(name);
        let len = usize::from(self.len);
        if self.hashes[..len].contains(&h) {
            return true;
        }
        if len < K {
            self.hashes[len] = h;
            self.len += 1;
        }
        false
    }

    /// Keeps `name`, while there is room.
    pub(crate) fn insert(&mut self, name: &[u8]) {
        let len = usize::from(self.len);
        if len < K && !name.is_empty() {
            self.hashes[len] = hash(name);
            self.len += 1;
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
}
