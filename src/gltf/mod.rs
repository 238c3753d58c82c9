//! glTF 2.0 (feature `gltf`): animations to and from glTF (docs/ANIMATION.md).

pub mod import;

/// The key of gtastream's object in a node's `extras` (`{"gtastream": {"frame": i,
/// "bone_id": id|null}}`).
pub const EXTRAS_KEY: &str = "gtastream";
