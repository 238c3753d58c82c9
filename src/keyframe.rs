//! Keyframes: how each format stores them ([`FrameType`]), and their decoding into
//! [`Keyframe`]s with the conversions of docs/FORMATS.md.

use crate::format::fields::f32_at;

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

    /// Every frame type, in the order of the enum.
    pub const ALL: [FrameType; 9] = [
        FrameType::Ifp2Rot,
        FrameType::Ifp2RotTrans,
        FrameType::Ifp2PackedRot,
        FrameType::Ifp2PackedRotTrans,
        FrameType::Kr00,
        FrameType::Krt0,
        FrameType::Krts,
        FrameType::StoriesRot,
        FrameType::StoriesRotTrans,
    ];

    /// The frame type of a [`name`](Self::name) (exactly as it prints).
    pub fn named(name: &[u8]) -> Option<FrameType> {
        FrameType::ALL
            .into_iter()
            .find(|t| t.name().as_bytes() == name)
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
    #[inline]
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
    #[inline]
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
    #[inline]
    pub const fn has_scale(self) -> bool {
        matches!(self, FrameType::Krts)
    }

    /// Whether keyframes of this type are IFP2 fixed-point integers ([`RawFrame`]).
    #[inline]
    pub const fn is_packed(self) -> bool {
        matches!(
            self,
            FrameType::Ifp2PackedRot | FrameType::Ifp2PackedRotTrans
        )
    }
}

/// One decoded keyframe. Parts the bone's frame type does not carry are zero.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Keyframe {
    /// Seconds from the start of the clip.
    pub time: f32,
    /// Quaternion `x, y, z, w` in the engine convention (docs/FORMATS.md).
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

/// Divisors of the packed IFP2 encoding (docs/FORMATS.md §2).
pub(crate) const PACKED_ROTATION_SCALE: f32 = 4096.0;
pub(crate) const PACKED_TIME_SCALE: f32 = 60.0;
pub(crate) const PACKED_TRANSLATION_SCALE: f32 = 1024.0;

/// A batch of consecutive keyframes of one bone, as stored in the file.
///
/// Batches borrow the caller's input where it holds whole frames (after a frame split between
/// two chunks, the batch that completes it holds copies of the frames that follow it, from the
/// decoder's buffer), so how the keyframes of a bone are split into batches depends on how the
/// input was cut; the frames, in order, do not.
#[derive(Clone, Copy, Debug)]
pub struct Keyframes<'a> {
    frame_type: FrameType,
    bytes: &'a [u8],
    /// Stories: the bone's time before the batch (the sum of the earlier deltas).
    start: f32,
}

impl<'a> Keyframes<'a> {
    /// `bytes` must hold whole frames of `frame_type`.
    #[inline]
    pub(crate) fn new(frame_type: FrameType, bytes: &'a [u8], start: f32) -> Self {
        debug_assert_eq!(bytes.len() % frame_type.size(), 0);
        Keyframes {
            frame_type,
            bytes,
            start,
        }
    }

    /// How the batch's keyframes are stored.
    #[inline]
    pub fn frame_type(&self) -> FrameType {
        self.frame_type
    }

    /// Number of keyframes in the batch.
    #[inline]
    pub fn len(&self) -> usize {
        self.bytes.len() / self.frame_type.size()
    }

    /// Whether the batch holds no keyframe (the decoder never delivers an empty one).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The stored bytes of the batch, unchanged (little-endian, as in the file).
    #[inline]
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The keyframes, decoded.
    ///
    /// Consuming the iterator whole (`for_each`, `fold`, `sum`, `collect` into a type that
    /// folds) runs one loop per frame type over fixed-size records; `next` decodes one frame.
    #[inline]
    pub fn iter(&self) -> KeyframeIter<'a> {
        KeyframeIter {
            frame_type: self.frame_type,
            bytes: self.bytes,
            clock: self.start,
        }
    }

    /// The batch's last keyframe, decoding only what it needs (Stories: the deltas before it).
    pub(crate) fn last(&self) -> Option<Keyframe> {
        let size = self.frame_type.size();
        let head = self.bytes.len().checked_sub(size)?;
        let (before, record) = self.bytes.split_at(head);
        let mut clock = self.start;
        advance(self.frame_type, before, &mut clock);
        Keyframes::new(self.frame_type, record, clock).iter().next()
    }

    /// The stored integers of packed keyframes; `None` for other frame types.
    #[inline]
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

    #[inline]
    fn into_iter(self) -> KeyframeIter<'a> {
        self.iter()
    }
}

/// The decoded keyframes of a [`Keyframes`] batch.
#[derive(Clone, Debug)]
pub struct KeyframeIter<'a> {
    frame_type: FrameType,
    /// The records not yet decoded (whole records).
    bytes: &'a [u8],
    clock: f32,
}

impl Iterator for KeyframeIter<'_> {
    type Item = Keyframe;

    /// Two-way tests of the frame type, which stays the same for the whole batch: an optimiser
    /// takes them out of a caller's `for` loop (one loop per packed type, as `fold` runs;
    /// instruction counts in PERFORMANCE.md). A nine-way match is too large for that and cost
    /// a dispatch per frame. The other types are decoded out of line.
    #[inline(always)]
    fn next(&mut self) -> Option<Keyframe> {
        if self.frame_type.is_packed() {
            if self.frame_type == FrameType::Ifp2PackedRotTrans {
                let (record, rest) = self.bytes.split_first_chunk()?;
                self.bytes = rest;
                Some(packed_rot_trans(record))
            } else {
                let (record, rest) = self.bytes.split_first_chunk()?;
                self.bytes = rest;
                Some(packed_rot(record))
            }
        } else {
            let (frame, rest, clock) = next_unpacked(self.frame_type, self.bytes, self.clock);
            self.bytes = rest;
            self.clock = clock;
            frame
        }
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let len = self.bytes.len() / self.frame_type.size();
        (len, Some(len))
    }

    /// One loop per frame type over fixed-size records: the type is matched once per batch,
    /// and the compiler sees every field's offset (no bounds checks).
    #[inline]
    fn fold<B, F>(self, init: B, mut f: F) -> B
    where
        F: FnMut(B, Keyframe) -> B,
    {
        let bytes = self.bytes;
        let mut clock = self.clock;
        match self.frame_type {
            FrameType::Ifp2PackedRot => fold_records(bytes, init, |acc, r| f(acc, packed_rot(r))),
            FrameType::Ifp2PackedRotTrans => {
                fold_records(bytes, init, |acc, r| f(acc, packed_rot_trans(r)))
            }
            FrameType::Ifp2Rot => fold_records(bytes, init, |acc, r| f(acc, ifp2_rot(r))),
            FrameType::Ifp2RotTrans => {
                fold_records(bytes, init, |acc, r| f(acc, ifp2_rot_trans(r)))
            }
            FrameType::Kr00 => fold_records(bytes, init, |acc, r| f(acc, kr00(r))),
            FrameType::Krt0 => fold_records(bytes, init, |acc, r| f(acc, krt0(r))),
            FrameType::Krts => fold_records(bytes, init, |acc, r| f(acc, krts(r))),
            FrameType::StoriesRot => {
                fold_records(bytes, init, |acc, r| f(acc, stories_rot(r, &mut clock)))
            }
            FrameType::StoriesRotTrans => fold_records(bytes, init, |acc, r| {
                f(acc, stories_rot_trans(r, &mut clock))
            }),
        }
    }
}

impl ExactSizeIterator for KeyframeIter<'_> {}

/// [`KeyframeIter::next`] for every frame type (called for the unpacked ones): the first frame
/// of `bytes`, the records after it and the clock after it. The state passes by value, so that
/// the caller's loop keeps its own in registers.
#[inline(never)]
fn next_unpacked(
    frame_type: FrameType,
    bytes: &[u8],
    mut clock: f32,
) -> (Option<Keyframe>, &[u8], f32) {
    macro_rules! take {
        ($t:ident, $decode:expr) => {
            match bytes.split_first_chunk::<{ FrameType::$t.size() }>() {
                Some((record, rest)) => (Some($decode(record)), rest, clock),
                None => (None, bytes, clock),
            }
        };
    }
    match frame_type {
        FrameType::Ifp2PackedRot => take!(Ifp2PackedRot, packed_rot),
        FrameType::Ifp2PackedRotTrans => take!(Ifp2PackedRotTrans, packed_rot_trans),
        FrameType::Ifp2Rot => take!(Ifp2Rot, ifp2_rot),
        FrameType::Ifp2RotTrans => take!(Ifp2RotTrans, ifp2_rot_trans),
        FrameType::Kr00 => take!(Kr00, kr00),
        FrameType::Krt0 => take!(Krt0, krt0),
        FrameType::Krts => take!(Krts, krts),
        FrameType::StoriesRot => take!(StoriesRot, |r| stories_rot(r, &mut clock)),
        FrameType::StoriesRotTrans => take!(StoriesRotTrans, |r| stories_rot_trans(r, &mut clock)),
    }
}

/// Folds over the whole `N`-byte records of `bytes`.
#[inline(always)]
fn fold_records<const N: usize, B>(bytes: &[u8], init: B, f: impl FnMut(B, &[u8; N]) -> B) -> B {
    bytes.as_chunks::<N>().0.iter().fold(init, f)
}

// Fields of fixed-size records: with `N` and `i` known, the compiler checks no bounds.

/// Four consecutive fields from `first` (an array literal: `array::map` is not always
/// inlined, and then costs a call per element).
#[inline(always)]
fn four<T>(first: usize, field: impl Fn(usize) -> T) -> [T; 4] {
    [
        field(first),
        field(first + 1),
        field(first + 2),
        field(first + 3),
    ]
}

/// Three consecutive fields from `first`.
#[inline(always)]
fn three<T>(first: usize, field: impl Fn(usize) -> T) -> [T; 3] {
    [field(first), field(first + 1), field(first + 2)]
}

#[inline(always)]
fn u16_at<const N: usize>(record: &[u8; N], i: usize) -> u16 {
    u16::from_le_bytes([record[2 * i], record[2 * i + 1]])
}

#[inline(always)]
fn i16_at<const N: usize>(record: &[u8; N], i: usize) -> i16 {
    u16_at(record, i) as i16
}

#[inline(always)]
fn half_at<const N: usize>(record: &[u8; N], i: usize) -> f32 {
    half_to_f32(u16_at(record, i))
}

/// IEEE 754 binary16 to binary32, exactly (every half value is an `f32`).
#[inline]
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

// One decoder per frame type, on a record of exactly its size (docs/FORMATS.md).

#[inline(always)]
fn packed_rotation<const N: usize>(r: &[u8; N]) -> [f32; 4] {
    four(0, |i| f32::from(i16_at(r, i)) / PACKED_ROTATION_SCALE)
}

#[inline(always)]
fn packed_rot(r: &[u8; 10]) -> Keyframe {
    Keyframe {
        time: f32::from(i16_at(r, 4)) / PACKED_TIME_SCALE,
        rotation: packed_rotation(r),
        translation: [0.0; 3],
        scale: [0.0; 3],
    }
}

#[inline(always)]
fn packed_rot_trans(r: &[u8; 16]) -> Keyframe {
    Keyframe {
        time: f32::from(i16_at(r, 4)) / PACKED_TIME_SCALE,
        rotation: packed_rotation(r),
        translation: three(5, |i| f32::from(i16_at(r, i)) / PACKED_TRANSLATION_SCALE),
        scale: [0.0; 3],
    }
}

#[inline(always)]
fn ifp2_rot(r: &[u8; 20]) -> Keyframe {
    Keyframe {
        time: f32_at(r, 4),
        rotation: four(0, |i| f32_at(r, i)),
        translation: [0.0; 3],
        scale: [0.0; 3],
    }
}

#[inline(always)]
fn ifp2_rot_trans(r: &[u8; 32]) -> Keyframe {
    Keyframe {
        time: f32_at(r, 4),
        rotation: four(0, |i| f32_at(r, i)),
        translation: three(5, |i| f32_at(r, i)),
        scale: [0.0; 3],
    }
}

/// ANPK quaternions are stored conjugated.
#[inline(always)]
fn anpk_rotation<const N: usize>(r: &[u8; N]) -> [f32; 4] {
    let [x, y, z, w] = four(0, |i| f32_at(r, i));
    [-x, -y, -z, w]
}

#[inline(always)]
fn kr00(r: &[u8; 20]) -> Keyframe {
    Keyframe {
        time: f32_at(r, 4),
        rotation: anpk_rotation(r),
        translation: [0.0; 3],
        scale: [0.0; 3],
    }
}

#[inline(always)]
fn krt0(r: &[u8; 32]) -> Keyframe {
    Keyframe {
        time: f32_at(r, 7),
        rotation: anpk_rotation(r),
        translation: three(4, |i| f32_at(r, i)),
        scale: [0.0; 3],
    }
}

#[inline(always)]
fn krts(r: &[u8; 44]) -> Keyframe {
    Keyframe {
        time: f32_at(r, 10),
        rotation: anpk_rotation(r),
        translation: three(4, |i| f32_at(r, i)),
        scale: three(7, |i| f32_at(r, i)),
    }
}

/// Stories quaternions are stored conjugated; the time is the running sum of the deltas.
#[inline(always)]
fn stories_rot(r: &[u8; 10], clock: &mut f32) -> Keyframe {
    let [x, y, z, w] = four(0, |i| half_at(r, i));
    *clock = add_delta(*clock, half_at(r, 4));
    Keyframe {
        time: *clock,
        rotation: [-x, -y, -z, w],
        translation: [0.0; 3],
        scale: [0.0; 3],
    }
}

#[inline(always)]
fn stories_rot_trans(r: &[u8; 16], clock: &mut f32) -> Keyframe {
    let mut frame = stories_rot(r.first_chunk().unwrap_or(&[0; 10]), clock);
    frame.translation = three(5, |i| half_at(r, i));
    frame
}

#[inline]
fn raw(frame_type: FrameType, record: &[u8]) -> RawFrame {
    let Some(r) = record.first_chunk::<10>() else {
        return RawFrame::default();
    };
    let mut frame = RawFrame {
        rotation: four(0, |i| i16_at(r, i)),
        time: i16_at(r, 4),
        translation: [0; 3],
    };
    if let (true, Some(r)) = (frame_type.has_translation(), record.first_chunk::<16>()) {
        frame.translation = three(5, |i| i16_at(r, i));
    }
    frame
}

/// The number of leading records of `bytes` (whole records of `frame_type`) whose stored time
/// is not earlier than the one before it. `last` is the stored time before the first record
/// (−∞ for none) and becomes that of the last record counted; `clock` (Stories: the bone's
/// running time, the sum of the deltas) advances over the records counted. Inlined into the
/// track's delivery: a call per batch costs a tenth of a bone's scan.
#[inline(always)]
pub(crate) fn rising(
    frame_type: FrameType,
    bytes: &[u8],
    last: &mut f32,
    clock: &mut f32,
) -> usize {
    match frame_type {
        FrameType::Ifp2PackedRot => rising_ticks::<10>(bytes, last),
        FrameType::Ifp2PackedRotTrans => rising_ticks::<16>(bytes, last),
        FrameType::Ifp2Rot | FrameType::Kr00 => rising_by::<20>(bytes, last, |r| f32_at(r, 4)),
        FrameType::Ifp2RotTrans => rising_by::<32>(bytes, last, |r| f32_at(r, 4)),
        FrameType::Krt0 => rising_by::<32>(bytes, last, |r| f32_at(r, 7)),
        FrameType::Krts => rising_by::<44>(bytes, last, |r| f32_at(r, 10)),
        FrameType::StoriesRot => rising_sum::<10>(bytes, last, clock),
        FrameType::StoriesRotTrans => rising_sum::<16>(bytes, last, clock),
    }
}

/// [`rising`] for times stored as such.
#[inline(always)]
fn rising_by<const N: usize>(
    bytes: &[u8],
    last: &mut f32,
    time: impl Fn(&[u8; N]) -> f32,
) -> usize {
    let records = bytes.as_chunks::<N>().0;
    let mut previous = *last;
    for (i, record) in records.iter().enumerate() {
        let time = time(record);
        if time < previous {
            *last = previous;
            return i;
        }
        previous = time;
    }
    *last = previous;
    records.len()
}

/// [`rising`] for packed times: integer ticks, compared as integers after the first (every
/// `i16` is an exact `f32`, so the order is the same). Eight records at a time with one branch:
/// the differences, widened so that none overflows, are ORed, and the sign says whether a time
/// goes backwards in the block (then the block is scanned record by record).
#[inline(always)]
fn rising_ticks<const N: usize>(bytes: &[u8], last: &mut f32) -> usize {
    const BLOCK: usize = 8;
    let records = bytes.as_chunks::<N>().0;
    let Some((first, rest)) = records.split_first() else {
        return 0;
    };
    let mut previous = i16_at(first, 4);
    if f32::from(previous) < *last {
        return 0;
    }
    let (blocks, _) = rest.as_chunks::<BLOCK>();
    let mut rising = 1;
    for block in blocks {
        let mut before = i32::from(previous);
        let mut falls = 0;
        for record in block {
            let ticks = i32::from(i16_at(record, 4));
            falls |= ticks - before;
            before = ticks;
        }
        if falls < 0 {
            break;
        }
        previous = i16_at(&block[BLOCK - 1], 4);
        rising += BLOCK;
    }
    for record in &records[rising..] {
        let ticks = i16_at(record, 4);
        if ticks < previous {
            break;
        }
        previous = ticks;
        rising += 1;
    }
    *last = f32::from(previous);
    rising
}

/// [`rising`] for Stories deltas: the time is the running sum.
#[inline(always)]
fn rising_sum<const N: usize>(bytes: &[u8], last: &mut f32, clock: &mut f32) -> usize {
    let records = bytes.as_chunks::<N>().0;
    let mut previous = *last;
    let mut sum = *clock;
    for (i, record) in records.iter().enumerate() {
        let time = add_delta(sum, half_at(record, 4));
        if time < previous {
            *last = previous;
            *clock = sum;
            return i;
        }
        previous = time;
        sum = time;
    }
    *last = previous;
    *clock = sum;
    records.len()
}

/// Advances `clock` over the records of `bytes` (Stories: the sum of their deltas; other
/// formats store absolute times and have no clock).
#[inline]
pub(crate) fn advance(frame_type: FrameType, bytes: &[u8], clock: &mut f32) {
    match frame_type {
        FrameType::StoriesRot => advance_by::<10>(bytes, clock),
        FrameType::StoriesRotTrans => advance_by::<16>(bytes, clock),
        _ => {}
    }
}

#[inline(always)]
fn advance_by<const N: usize>(bytes: &[u8], clock: &mut f32) {
    for record in bytes.as_chunks::<N>().0 {
        *clock = add_delta(*clock, half_at(record, 4));
    }
}

/// A Stories running time plus the next delta. Once the sum is NaN it stays that NaN, bit for
/// bit: the sum of two NaNs takes the payload of one operand, and which one the compiler puts
/// first differs between the decoding paths (a batch, a cut, the clock carried between
/// batches), so the events would depend on how the input was cut.
#[inline(always)]
fn add_delta(sum: f32, delta: f32) -> f32 {
    if sum.is_nan() {
        sum
    } else {
        sum + delta
    }
}

#[cfg(test)]
mod tests {
    /// Decodes one stored keyframe (`record` is exactly `frame_type.size()` bytes), advancing
    /// `clock` as Stories frames do.
    fn decode(frame_type: FrameType, record: &[u8], clock: &mut f32) -> Keyframe {
        let mut frames = KeyframeIter {
            frame_type,
            bytes: record,
            clock: *clock,
        };
        let frame = frames.next().expect("one whole record");
        *clock = frames.clock;
        frame
    }

    extern crate std;

    use std::vec::Vec;

    use super::*;

    const TYPES: [FrameType; 9] = FrameType::ALL;

    /// Deterministic bytes (xorshift), with runs of small values so that times repeat, rise
    /// and fall.
    fn bytes(seed: u64, len: usize) -> Vec<u8> {
        let mut x = seed | 1;
        (0..len)
            .map(|i| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                if i % 3 == 0 {
                    (x % 3) as u8
                } else {
                    x as u8
                }
            })
            .collect()
    }

    fn bits(frame: &Keyframe) -> [u32; 11] {
        let mut out = [0; 11];
        let values = [frame.time]
            .into_iter()
            .chain(frame.rotation)
            .chain(frame.translation)
            .chain(frame.scale);
        for (o, v) in out.iter_mut().zip(values) {
            *o = v.to_bits();
        }
        out
    }

    /// `fold` (one loop per type) decodes exactly what `next` does, for every type.
    #[test]
    fn fold_and_next_decode_alike() {
        for (seed, frame_type) in TYPES.into_iter().enumerate() {
            for count in [0, 1, 2, 7, 64] {
                let data = bytes(seed as u64 + 7, count * frame_type.size());
                let batch = Keyframes::new(frame_type, &data, 1.5);
                let mut by_next = Vec::new();
                let iter = batch.iter();
                assert_eq!(iter.len(), count);
                // A `for` loop calls `next`.
                for frame in iter {
                    by_next.push(bits(&frame));
                }
                let by_fold = batch.iter().fold(Vec::new(), |mut v, f| {
                    v.push(bits(&f));
                    v
                });
                assert_eq!(by_next.len(), count, "{frame_type:?}");
                assert_eq!(by_fold, by_next, "{frame_type:?} {count}");
            }
        }
    }

    /// `rising` finds the first time that goes backwards as a record-by-record scan of the
    /// decoded times does, and leaves `last` and the Stories clock where that scan would.
    #[test]
    fn rising_matches_a_scan_of_the_decoded_times() {
        for (seed, frame_type) in TYPES.into_iter().enumerate() {
            for round in 0..200u64 {
                let count = (round % 9) as usize;
                let data = bytes(round * 31 + seed as u64, count * frame_type.size());
                let start_last = if round % 2 == 0 {
                    f32::NEG_INFINITY
                } else {
                    0.0
                };
                let (mut last, mut clock) = (start_last, 0.25);
                let rising = rising(frame_type, &data, &mut last, &mut clock);

                // The reference: times as `decode` gives them (Stories: the running sum).
                let (mut ref_last, mut ref_clock, mut ref_rising) = (start_last, 0.25f32, count);
                for (i, record) in data.chunks_exact(frame_type.size()).enumerate() {
                    let mut c = ref_clock;
                    let frame = decode(frame_type, record, &mut c);
                    let time = match frame_type {
                        FrameType::Ifp2PackedRot | FrameType::Ifp2PackedRotTrans => {
                            f32::from(i16::from_le_bytes([record[8], record[9]]))
                        }
                        _ => frame.time,
                    };
                    if time < ref_last {
                        ref_rising = i;
                        break;
                    }
                    ref_last = time;
                    ref_clock = c;
                }
                assert_eq!(rising, ref_rising, "{frame_type:?} round {round}");
                assert_eq!(last.to_bits(), ref_last.to_bits(), "{frame_type:?}");
                assert_eq!(clock.to_bits(), ref_clock.to_bits(), "{frame_type:?}");
            }
        }
    }
}
