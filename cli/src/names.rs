//! Text for the library's enums. They are `non_exhaustive`: formats still to come add variants,
//! and these fall back to the variant's name for any the tool does not know yet.

use gtastream::{FrameType, WarningKind};

/// The frame type's name in the library, as `dump --json` writes it (`"Ifp2PackedRot"`).
pub fn frame_type(frame_type: FrameType) -> String {
    format!("{frame_type:?}")
}

/// The value an IFP version 2 file stores for this frame type.
fn ifp2_value(frame_type: FrameType) -> Option<u32> {
    match frame_type {
        FrameType::Ifp2Rot => Some(1),
        FrameType::Ifp2RotTrans => Some(2),
        FrameType::Ifp2PackedRot => Some(3),
        FrameType::Ifp2PackedRotTrans => Some(4),
        _ => None,
    }
}

/// A description for people: `type 4 (packed rotation + translation, 16 bytes)`.
pub fn frame_type_label(frame_type: FrameType) -> String {
    let mut parts = String::from(if frame_type.is_packed() {
        "packed rotation"
    } else {
        "rotation"
    });
    if frame_type.has_translation() {
        parts.push_str(" + translation");
    }
    if frame_type.has_scale() {
        parts.push_str(" + scale");
    }
    let id = match ifp2_value(frame_type) {
        Some(value) => format!("type {value}"),
        None => format!("{frame_type:?}"),
    };
    format!("{id} ({parts}, {} bytes)", frame_type.size())
}

/// The warning kind's name in the library (`"SizeMismatch"`), as `dump --json` writes it.
pub fn warning_kind(kind: WarningKind) -> String {
    format!("{kind:?}")
}

/// Bytes as text, one character per byte (Latin-1), as FORMATS.md says tools print names.
pub fn latin1(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| char::from(b)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels() {
        assert_eq!(frame_type(FrameType::Ifp2PackedRot), "Ifp2PackedRot");
        assert_eq!(
            frame_type_label(FrameType::Ifp2PackedRotTrans),
            "type 4 (packed rotation + translation, 16 bytes)"
        );
        assert_eq!(
            frame_type_label(FrameType::Ifp2Rot),
            "type 1 (rotation, 20 bytes)"
        );
        assert_eq!(warning_kind(WarningKind::TrailingData), "TrailingData");
        assert_eq!(latin1(b"a\xe9\xff"), "a\u{e9}\u{ff}");
    }
}
