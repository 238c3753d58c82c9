//! Keyframes: how each format stores them ([`FrameType`]), and their decoding into
//! [`Keyframe`]s with the conversions of FORMATS.md.

use core::slice::ChunksExact;

/// How a bone's keyframes are stored. The numeric values of the IFP version 2 types are the
/// `frameType` field as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
#[repr(u8)]
pub enum FrameType {
    /// IFP2 type 1: `f32` quaternion, `f32` time (20 bytes).
    Ifp2Rot = 1,
    /// IFP2 type 2: `f32` quaternion, `f32` time, `f32` translation (32 bytes).
    Ifp2RotTrans = 2,
    /// IFP2 type 3: `i16` quaternion / 4096, `i16` time / 60 (10 bytes).
    Ifp2PackedRot = 3,
    /// IFP2 type 4: as type 3, then `i16` translation / 1024 (16 bytes).
    Ifp2PackedRotTrans = 4,
    /// ANPK `KR00`: `f32` quaternion (stored conjugated), `f32` time (20 bytes).
    Kr00 = 10,
    /// ANPK `KRT0`: `f32` quaternion, translation, time (32 bytes).
    Krt0 = 11,
    /// ANPK `KRTS`: `f32` quaternion, translation, scale, time (44 bytes).
    Krts = 12,
    /// Stories: half-float quaternion (stored conjugated), half-float time delta (10 bytes).
    StoriesRot = 20,
    /// Stories: as [`StoriesRot`](Self::StoriesRot), then a half-float translation (16 bytes).
    StoriesRotTrans = 21,
}

impl FrameType {
    /// The IFP version 2 frame type for a stored `frameType` value.
    pub const fn from_ifp2(value: u32) -> Option<Self> {
        match value {
            1 => Some(FrameType::Ifp2Rot),
            2 => Some(FrameType::Ifp2RotTrans),
            3 => Some(FrameType::Ifp2PackedRot),
            4 => Some(FrameType::Ifp2PackedRotTrans),
            _ => None,
        }
    }

    /// The ANPK frame type named by a keyframe chunk's tag.
    pub fn from_anpk_tag(tag: &[u8]) -> Option<Self> {
        match tag {
            b"KR00" => Some(FrameType::Kr00),
            b"KRT0" => Some(FrameType::Krt0),
            b"KRTS" => Some(FrameType::Krts),
            _ => None,
        }
    }

    /// The stored `frameType` of an IFP version 2 frame type.
    pub const fn ifp2_type(self) -> Option<u32> {
        match self {
            FrameType::Ifp2Rot
            | FrameType::Ifp2RotTrans
            | FrameType::Ifp2PackedRot
            | FrameType::Ifp2PackedRotTrans => Some(self as u32),
            _ => None,
        }
    }

    /// A stable short name, for tools that print frame types.
    pub const fn name(self) -> &'static str {
        match self {
            FrameType::Ifp2Rot => "ifp2_rot",
            FrameType::Ifp2RotTrans => "ifp2_rot_trans",
            FrameType::Ifp2PackedRot => "ifp2_packed_rot",
            FrameType::Ifp2PackedRotTrans => "ifp2_packed_rot_trans",
            FrameType::Kr00 => "kr00",
            FrameType::Krt0 => "krt0",
            FrameType::Krts => "krts",
            FrameType::StoriesRot => "stories_rot",
            FrameType::StoriesRotTrans => "stories_rot_trans",
        }
    }

    /// Bytes one stored keyframe takes.
    pub const fn size(self) -> usize {
        match self {
            FrameType::Ifp2Rot | FrameType::Kr00 => 20,
            FrameType::Ifp2RotTrans | FrameType::Krt0 => 32,
            FrameType::Ifp2PackedRot | FrameType::StoriesRot => 10,
            FrameType::Ifp2PackedRotTrans | FrameType::StoriesRotTrans => 16,
            FrameType::Krts => 44,
        }
    }

    /// Whether keyframes of this type carry a translation.
    pub const fn has_translation(self) -> bool {
        matches!(
            self,
            FrameType::Ifp2RotTrans
                | FrameType::Ifp2PackedRotTrans
                | FrameType::Krt0
                | FrameType::Krts
                | FrameType::StoriesRotTrans
        )
    }

    /// Whether keyframes of this type carry a scale.
    pub const fn has_scale(self) -> bool {
        matches!(self, FrameType::Krts)
    }

    /// Whether keyframes of this type are IFP2 fixed-point integers ([`RawFrame`]).
    pub const fn is_packed(self) -> bool {
        matches!(
            self,
            FrameType::Ifp2PackedRot | FrameType::Ifp2PackedRotTrans
        )
    }

    fn encoding(self) -> Encoding {
        match self {
            FrameType::Ifp2Rot | FrameType::Ifp2RotTrans => Encoding::Ifp2Float,
            FrameType::Ifp2PackedRot | FrameType::Ifp2PackedRotTrans => Encoding::Ifp2Packed,
            FrameType::Kr00 | FrameType::Krt0 | FrameType::Krts => Encoding::Anpk,
            FrameType::StoriesRot | FrameType::StoriesRotTrans => Encoding::Stories,
        }
    }
}

/// The four ways the formats lay out and scale a keyframe.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Encoding {
    /// `f32` quaternion, time, translation.
    Ifp2Float,
    /// `i16` quaternion, time, translation, fixed-point.
    Ifp2Packed,
    /// `f32` conjugated quaternion, translation, scale, then the time.
    Anpk,
    /// Half-float conjugated quaternion, time delta, translation.
    Stories,
}

/// One decoded keyframe. Parts the bone's frame type does not carry are zero.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Keyframe {
    /// Seconds from the start of the clip.
    pub time: f32,
    /// Quaternion `x, y, z, w` in the engine convention (FORMATS.md).
    pub rotation: [f32; 4],
    /// Game units (metres).
    pub translation: [f32; 3],
    /// As stored.
    pub scale: [f32; 3],
}

/// The integers a packed (IFP2 type 3 or 4) keyframe stores, for hosts that keep frames packed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct RawFrame {
    /// Quaternion × 4096.
    pub rotation: [i16; 4],
    /// 60 Hz ticks from the start of the clip.
    pub time: i16,
    /// Translation × 1024 (zero for type 3).
    pub translation: [i16; 3],
}

/// Divisors of the packed IFP2 encoding (FORMATS.md §2).
pub(crate) const PACKED_ROTATION_SCALE: f32 = 4096.0;
pub(crate) const PACKED_TIME_SCALE: f32 = 60.0;
pub(crate) const PACKED_TRANSLATION_SCALE: f32 = 1024.0;

/// A batch of consecutive keyframes of one bone, as stored in the file.
///
/// Batches borrow the caller's input where it holds whole frames, so how the keyframes of a bone
/// are split into batches depends on how the input was cut; the frames, in order, do not.
#[derive(Clone, Copy, Debug)]
pub struct Keyframes<'a> {
    frame_type: FrameType,
    bytes: &'a [u8],
    /// Stories: the bone's time before the batch (the sum of the earlier deltas).
    start: f32,
}

impl<'a> Keyframes<'a> {
    /// `bytes` must hold whole frames of `frame_type`.
    pub(crate) fn new(frame_type: FrameType, bytes: &'a [u8], start: f32) -> Self {
        debug_assert_eq!(bytes.len() % frame_type.size(), 0);
        Keyframes {
            frame_type,
            bytes,
            start,
        }
    }

    /// How the batch's keyframes are stored.
    pub fn frame_type(&self) -> FrameType {
        self.frame_type
    }

    /// Number of keyframes in the batch.
    pub fn len(&self) -> usize {
        self.bytes.len() / self.frame_type.size()
    }

    /// Whether the batch holds no keyframe (the decoder never delivers an empty one).
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The stored bytes of the batch, unchanged (little-endian, as in the file).
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The keyframes, decoded.
    pub fn iter(&self) -> KeyframeIter<'a> {
        KeyframeIter {
            frame_type: self.frame_type,
            records: self.bytes.chunks_exact(self.frame_type.size()),
            clock: self.start,
        }
    }

    /// The stored integers of packed keyframes; `None` for other frame types.
    pub fn raw(&self) -> Option<impl ExactSizeIterator<Item = RawFrame> + 'a> {
        let frame_type = self.frame_type;
        frame_type.is_packed().then(|| {
            self.bytes
                .chunks_exact(frame_type.size())
                .map(move |r| raw(frame_type, r))
        })
    }
}

impl<'a> IntoIterator for Keyframes<'a> {
    type Item = Keyframe;
    type IntoIter = KeyframeIter<'a>;

    fn into_iter(self) -> KeyframeIter<'a> {
        self.iter()
    }
}

/// The decoded keyframes of a [`Keyframes`] batch.
#[derive(Clone, Debug)]
pub struct KeyframeIter<'a> {
    frame_type: FrameType,
    records: ChunksExact<'a, u8>,
    clock: f32,
}

impl Iterator for KeyframeIter<'_> {
    type Item = Keyframe;

    #[inline]
    fn next(&mut self) -> Option<Keyframe> {
        let record = self.records.next()?;
        Some(decode(self.frame_type, record, &mut self.clock))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.records.size_hint()
    }
}

impl ExactSizeIterator for KeyframeIter<'_> {}

fn f32_at(record: &[u8], i: usize) -> f32 {
    let b = &record[4 * i..4 * i + 4];
    f32::from_le_bytes([b[0], b[1], b[2], b[3]])
}

fn u16_at(record: &[u8], i: usize) -> u16 {
    let b = &record[2 * i..2 * i + 2];
    u16::from_le_bytes([b[0], b[1]])
}

fn i16_at(record: &[u8], i: usize) -> i16 {
    u16_at(record, i) as i16
}

fn half_at(record: &[u8], i: usize) -> f32 {
    half_to_f32(u16_at(record, i))
}

/// IEEE 754 binary16 to binary32, exactly (every half value is an `f32`).
pub(crate) fn half_to_f32(bits: u16) -> f32 {
    let sign = u32::from(bits & 0x8000) << 16;
    let exponent = u32::from(bits >> 10) & 0x1f;
    let mantissa = u32::from(bits) & 0x3ff;
    let magnitude = match exponent {
        // Zero and subnormals: mantissa × 2^-24, exact in f32.
        0 => (mantissa as f32 * (1.0 / 16_777_216.0)).to_bits(),
        // Infinity and NaN keep their mantissa.
        0x1f => 0x7f80_0000 | (mantissa << 13),
        _ => ((exponent + 127 - 15) << 23) | (mantissa << 13),
    };
    f32::from_bits(sign | magnitude)
}

fn raw(frame_type: FrameType, record: &[u8]) -> RawFrame {
    let mut frame = RawFrame {
        rotation: [0, 1, 2, 3].map(|i| i16_at(record, i)),
        time: i16_at(record, 4),
        translation: [0; 3],
    };
    if frame_type.has_translation() {
        frame.translation = [5, 6, 7].map(|i| i16_at(record, i));
    }
    frame
}

/// Decodes one stored keyframe; `record` is exactly `frame_type.size()` bytes. `clock` is the
/// bone's running time, which Stories frames advance by their delta.
#[inline]
pub(crate) fn decode(frame_type: FrameType, record: &[u8], clock: &mut f32) -> Keyframe {
    let mut frame = Keyframe::default();
    match frame_type.encoding() {
        Encoding::Ifp2Float => {
            frame.rotation = [0, 1, 2, 3].map(|i| f32_at(record, i));
            frame.time = f32_at(record, 4);
            if frame_type.has_translation() {
                frame.translation = [5, 6, 7].map(|i| f32_at(record, i));
            }
        }
        Encoding::Ifp2Packed => {
            let r = raw(frame_type, record);
            frame.rotation = r.rotation.map(|q| f32::from(q) / PACKED_ROTATION_SCALE);
            frame.time = f32::from(r.time) / PACKED_TIME_SCALE;
            frame.translation = r
                .translation
                .map(|t| f32::from(t) / PACKED_TRANSLATION_SCALE);
        }
        Encoding::Anpk => {
            let [x, y, z, w] = [0, 1, 2, 3].map(|i| f32_at(record, i));
            frame.rotation = [-x, -y, -z, w];
            frame.time = f32_at(record, frame_type.size() / 4 - 1);
            if frame_type.has_translation() {
                frame.translation = [4, 5, 6].map(|i| f32_at(record, i));
            }
            if frame_type.has_scale() {
                frame.scale = [7, 8, 9].map(|i| f32_at(record, i));
            }
        }
        Encoding::Stories => {
            let [x, y, z, w] = [0, 1, 2, 3].map(|i| half_at(record, i));
            frame.rotation = [-x, -y, -z, w];
            *clock += half_at(record, 4);
            frame.time = *clock;
            if frame_type.has_translation() {
                frame.translation = [5, 6, 7].map(|i| half_at(record, i));
            }
        }
    }
    frame
}

/// The time of one stored keyframe in the file's own unit, enough to compare two frames of a
/// bone (Stories: the running sum, advancing `clock`).
pub(crate) fn stored_time(frame_type: FrameType, record: &[u8], clock: &mut f32) -> f32 {
    match frame_type.encoding() {
        Encoding::Ifp2Float => f32_at(record, 4),
        Encoding::Ifp2Packed => f32::from(i16_at(record, 4)),
        Encoding::Anpk => f32_at(record, frame_type.size() / 4 - 1),
        Encoding::Stories => {
            *clock += half_at(record, 4);
            *clock
        }
    }
}
