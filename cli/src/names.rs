//! Text for the library's enums, for people (`info`); `dump --json` uses their stable
//! `name()`s. The enums are `non_exhaustive`: a frame type this tool does not know yet is
//! still described from what the library says about it.

use gtastream::FrameType;

/// A description for people: `type 4 (packed rotation + translation, 16 bytes)` for the
/// IFP version 2 types (by their stored number), `krts (rotation + translation + scale,
/// 44 bytes)` for the others (by their stable name).
pub fn frame_type_label(frame_type: FrameType) -> String {
    let rotation = if frame_type.is_packed() {
        "packed rotation"
    } else if matches!(
        frame_type,
        FrameType::StoriesRot | FrameType::StoriesRotTrans
    ) {
        "half-float rotation"
    } else {
        "rotation"
    };
    let mut parts = String::from(rotation);
    if frame_type.has_translation() {
        parts.push_str(" + translation");
    }
    if frame_type.has_scale() {
        parts.push_str(" + scale");
    }
    let id = match frame_type.ifp2_type() {
        Some(value) => format!("type {value}"),
        None => frame_type.name().into(),
    };
    format!("{id} ({parts}, {} bytes)", frame_type.size())
}

/// Bytes as text, one character per byte (Latin-1), as docs/FORMATS.md says tools print names.
pub fn latin1(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| char::from(b)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels() {
        assert_eq!(
            frame_type_label(FrameType::Ifp2PackedRotTrans),
            "type 4 (packed rotation + translation, 16 bytes)"
        );
        assert_eq!(
            frame_type_label(FrameType::Ifp2Rot),
            "type 1 (rotation, 20 bytes)"
        );
        assert_eq!(
            frame_type_label(FrameType::Krts),
            "krts (rotation + translation + scale, 44 bytes)"
        );
        assert_eq!(
            frame_type_label(FrameType::StoriesRot),
            "stories_rot (half-float rotation, 10 bytes)"
        );
        assert_eq!(latin1(b"a\xe9\xff"), "a\u{e9}\u{ff}");
    }
}
