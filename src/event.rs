//! The event model: what the decoder reports, and the [`Visitor`] that receives it.
//!
//! Events come in this order: `file`, then per animation `animation`, per bone `bone`,
//! `keyframes` (zero or more batches), `bone_end`, then `animation_end`; `end` last (from
//! [`Decoder::finish`](crate::Decoder::finish)). `warning` may come anywhere.

use crate::error::Warning;

/// What a visitor wants after an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Flow {
    /// Go on decoding.
    #[default]
    Continue,
    /// Return from `feed` now; the next `feed` resumes at the exact next byte.
    Pause,
    /// Stop with [`ErrorKind::Aborted`](crate::ErrorKind::Aborted) (sticky, like any error).
    Abort,
}

/// The file formats the decoder recognises by their magic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Format {
    /// GTA III / Vice City animation package, IFP version 1 (also each block of an `ANLF`).
    Anpk,
    /// San Andreas animation package, IFP version 2 with `frameDataSize` and `flags`.
    Anp3,
    /// San Andreas animation package, IFP version 2 without them.
    Anp2,
}

impl Format {
    /// The magic as text, as the command-line tool prints it.
    pub const fn name(self) -> &'static str {
        match self {
            Format::Anpk => "ANPK",
            Format::Anp3 => "ANP3",
            Format::Anp2 => "ANP2",
        }
    }
}

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

    /// Bytes one stored keyframe takes.
    pub const fn size(self) -> usize {
        match self {
            FrameType::Ifp2Rot | FrameType::Kr00 => 20,
            FrameType::Ifp2RotTrans | FrameType::Krt0 => 32,
            FrameType::Ifp2PackedRot => 10,
            FrameType::Ifp2PackedRotTrans => 16,
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
        )
    }

    /// Whether keyframes of this type carry a scale.
    pub const fn has_scale(self) -> bool {
        matches!(self, FrameType::Krts)
    }

    /// Whether keyframes of this type are stored as fixed-point integers ([`RawFrame`]).
    pub const fn is_packed(self) -> bool {
        matches!(
            self,
            FrameType::Ifp2PackedRot | FrameType::Ifp2PackedRotTrans
        )
    }

    /// Whether the file stores the conjugate of the engine's quaternion (ANPK).
    const fn is_conjugated(self) -> bool {
        matches!(self, FrameType::Kr00 | FrameType::Krt0 | FrameType::Krts)
    }

    /// Index of the time among the record's 32-bit fields: IFP2 stores it after the
    /// quaternion, ANPK last.
    const fn time_index(self) -> usize {
        if self.is_conjugated() {
            self.size() / 4 - 1
        } else {
            4
        }
    }
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
}

impl<'a> Keyframes<'a> {
    /// `bytes` must hold whole frames of `frame_type`.
    pub(crate) fn new(frame_type: FrameType, bytes: &'a [u8]) -> Self {
        debug_assert_eq!(bytes.len() % frame_type.size(), 0);
        Keyframes { frame_type, bytes }
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
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Keyframe> + 'a {
        let frame_type = self.frame_type;
        self.bytes
            .chunks_exact(frame_type.size())
            .map(move |record| decode(frame_type, record))
    }

    /// The stored integers of packed keyframes; `None` for float frame types.
    pub fn raw(&self) -> Option<impl ExactSizeIterator<Item = RawFrame> + 'a> {
        let frame_type = self.frame_type;
        frame_type.is_packed().then(|| {
            self.bytes
                .chunks_exact(frame_type.size())
                .map(move |record| raw(frame_type, record))
        })
    }
}

fn f32_at(record: &[u8], i: usize) -> f32 {
    let b = &record[4 * i..4 * i + 4];
    f32::from_le_bytes([b[0], b[1], b[2], b[3]])
}

fn i16_at(record: &[u8], i: usize) -> i16 {
    let b = &record[2 * i..2 * i + 2];
    i16::from_le_bytes([b[0], b[1]])
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

/// Decodes one stored keyframe; `record` is exactly `frame_type.size()` bytes.
pub(crate) fn decode(frame_type: FrameType, record: &[u8]) -> Keyframe {
    let mut frame = Keyframe::default();
    if frame_type.is_packed() {
        let r = raw(frame_type, record);
        frame.rotation = r.rotation.map(|q| f32::from(q) / PACKED_ROTATION_SCALE);
        frame.time = f32::from(r.time) / PACKED_TIME_SCALE;
        frame.translation = r
            .translation
            .map(|t| f32::from(t) / PACKED_TRANSLATION_SCALE);
    } else if frame_type.is_conjugated() {
        let [x, y, z, w] = [0, 1, 2, 3].map(|i| f32_at(record, i));
        frame.rotation = [-x, -y, -z, w];
        frame.time = f32_at(record, frame_type.time_index());
        if frame_type.has_translation() {
            frame.translation = [4, 5, 6].map(|i| f32_at(record, i));
        }
        if frame_type.has_scale() {
            frame.scale = [7, 8, 9].map(|i| f32_at(record, i));
        }
    } else {
        frame.rotation = [0, 1, 2, 3].map(|i| f32_at(record, i));
        frame.time = f32_at(record, 4);
        if frame_type.has_translation() {
            frame.translation = [5, 6, 7].map(|i| f32_at(record, i));
        }
    }
    frame
}

/// The time of one stored keyframe, in the file's own unit (enough to compare two frames).
pub(crate) fn stored_time(frame_type: FrameType, record: &[u8]) -> f32 {
    if frame_type.is_packed() {
        f32::from(i16_at(record, 4))
    } else {
        f32_at(record, frame_type.time_index())
    }
}

/// The file was recognised.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct FileInfo<'a> {
    /// The format, from the magic.
    pub format: Format,
    /// The package name (bytes up to the first NUL), where the format stores one.
    pub name: Option<&'a [u8]>,
    /// Animations the file declares.
    pub animation_count: u32,
}

/// An animation begins.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct AnimationInfo<'a> {
    /// 0-based position in the file.
    pub index: u32,
    /// Bytes up to the first NUL.
    pub name: &'a [u8],
    /// Bones the animation declares.
    pub bone_count: u32,
    /// ANP3 only: declared bytes of all the animation's keyframes.
    pub frame_data_size: Option<u32>,
    /// ANP3 only: bit 0 = compressed.
    pub flags: Option<u32>,
}

/// A bone (animated object) of the current animation begins.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct BoneInfo<'a> {
    /// 0-based position in its animation.
    pub index: u32,
    /// Bytes up to the first NUL, where the format stores a name.
    pub name: Option<&'a [u8]>,
    /// The bone id as stored (IFP2 keeps −1 for "match by name").
    pub bone_id: Option<i32>,
    /// How the bone's keyframes are stored.
    pub frame_type: FrameType,
    /// Keyframes the bone declares.
    pub frame_count: u32,
}

impl BoneInfo<'_> {
    /// Whether the keyframes carry a translation.
    pub fn has_translation(&self) -> bool {
        self.frame_type.has_translation()
    }

    /// Whether the keyframes carry a scale.
    pub fn has_scale(&self) -> bool {
        self.frame_type.has_scale()
    }
}

/// Receives the decoder's events. Every method defaults to [`Flow::Continue`].
pub trait Visitor {
    /// The file was recognised; always the first event.
    fn file(&mut self, _info: &FileInfo<'_>) -> Flow {
        Flow::Continue
    }
    /// An animation begins.
    fn animation(&mut self, _info: &AnimationInfo<'_>) -> Flow {
        Flow::Continue
    }
    /// A bone of the current animation begins.
    fn bone(&mut self, _info: &BoneInfo<'_>) -> Flow {
        Flow::Continue
    }
    /// Consecutive keyframes of the current bone (never empty).
    fn keyframes(&mut self, _frames: Keyframes<'_>) -> Flow {
        Flow::Continue
    }
    /// The current bone has no more keyframes.
    fn bone_end(&mut self) -> Flow {
        Flow::Continue
    }
    /// The current animation has no more bones.
    fn animation_end(&mut self) -> Flow {
        Flow::Continue
    }
    /// Something the games accept but the format disagrees with; decoding goes on.
    fn warning(&mut self, _warning: Warning) -> Flow {
        Flow::Continue
    }
    /// The input ended cleanly (reported by [`Decoder::finish`](crate::Decoder::finish)).
    fn end(&mut self) -> Flow {
        Flow::Continue
    }
}

impl<V: Visitor + ?Sized> Visitor for &mut V {
    fn file(&mut self, info: &FileInfo<'_>) -> Flow {
        (**self).file(info)
    }
    fn animation(&mut self, info: &AnimationInfo<'_>) -> Flow {
        (**self).animation(info)
    }
    fn bone(&mut self, info: &BoneInfo<'_>) -> Flow {
        (**self).bone(info)
    }
    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        (**self).keyframes(frames)
    }
    fn bone_end(&mut self) -> Flow {
        (**self).bone_end()
    }
    fn animation_end(&mut self) -> Flow {
        (**self).animation_end()
    }
    fn warning(&mut self, warning: Warning) -> Flow {
        (**self).warning(warning)
    }
    fn end(&mut self) -> Flow {
        (**self).end()
    }
}
