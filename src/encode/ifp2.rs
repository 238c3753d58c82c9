//! `ANP3` and `ANP2` (docs/FORMATS.md §2, §9.2): counts, sizes, `frameDataSize` and `flags`
//! are patched when their record ends. Given the units as stored (§9.7), the bytes after each
//! name's NUL are kept, and so are the file `size`, `frameDataSize` and `flags` as long as what
//! they describe is as long (and as packed) as in the source.

use super::{bone_name, bump, stored, stored_u32, BoneHeader, EncodeError, Lost, Out, Sink, Stage};
use crate::keyframe::{PACKED_ROTATION_SCALE, PACKED_TIME_SCALE, PACKED_TRANSLATION_SCALE};
use crate::{FrameType, Keyframe};

/// IFP2 names are `char[24]`.
const NAME: usize = 24;
const FILE_HEADER: usize = 36;
const BONE_HEADER: usize = 36;
/// The file's animation count field.
const ANIMATION_COUNT_AT: u64 = 32;

/// What the source's stored units say of the part written so far: its length, and per
/// animation its keyframe bytes and packedness. `None` once a unit came without its bytes.
/// (32 bits, as the fields: the encoder's size matters to hosts; past them, nothing is kept.)
#[derive(Clone, Copy, Debug, Default)]
struct Source {
    bytes: u32,
    frame_data_size: u32,
    packed: bool,
}

/// `n` more bytes in a 32-bit length: `None` past it.
fn add(length: u32, n: u64) -> Option<u32> {
    u32::try_from(u64::from(length) + n).ok()
}

#[derive(Debug)]
pub(crate) struct Ifp2 {
    anp3: bool,
    stage: Stage,
    animations: u32,
    /// The stored file `size`, and the source's length so far.
    size: Option<(u32, Source)>,
    bones: u32,
    /// The current animation's bone count field (`frameDataSize` and `flags` follow in ANP3).
    bones_at: u64,
    /// The current animation's stored `frameDataSize` and `flags`, and its source bones so far.
    stored_fields: Option<(u32, u32, Source)>,
    frame_data_size: u64,
    packed: bool,
    frames: u32,
    /// The current bone's frame count field.
    frames_at: u64,
    frame_type: FrameType,
    /// Packed frames may be rounded (else each value must be exact).
    round: bool,
}

/// Adds a stored unit of `bytes` bytes to what is known of the source.
fn grow(source: &mut Option<(u32, Source)>, bytes: Option<u64>) {
    let grown = source.zip(bytes).and_then(|((size, s), n)| {
        let bytes = add(s.bytes, n)?;
        Some((size, Source { bytes, ..s }))
    });
    *source = grown;
}

impl Ifp2 {
    pub(crate) fn new(anp3: bool) -> Self {
        Ifp2 {
            anp3,
            stage: Stage::Start,
            animations: 0,
            size: None,
            bones: 0,
            bones_at: 0,
            stored_fields: None,
            frame_data_size: 0,
            packed: false,
            frames: 0,
            frames_at: 0,
            frame_type: FrameType::Ifp2Rot,
            round: false,
        }
    }

    fn animation_header(&self) -> usize {
        if self.anp3 {
            36
        } else {
            28
        }
    }

    pub(crate) fn file<S: Sink>(
        &mut self,
        out: &mut Out<S>,
        name: Option<&[u8]>,
        raw: &[u8],
    ) -> Result<(), EncodeError> {
        if !self.stage.begin_file()? {
            return Ok(());
        }
        let raw = stored(raw, FILE_HEADER);
        out.put(if self.anp3 { b"ANP3" } else { b"ANP2" })?;
        out.reserve()?;
        out.name_field(name.unwrap_or_default(), NAME, raw.map(|r| &r[8..32]))?;
        out.reserve()?;
        self.size = raw.map(|r| {
            let source = Source {
                bytes: FILE_HEADER as u32,
                ..Source::default()
            };
            (stored_u32(r, 4), source)
        });
        Ok(())
    }

    pub(crate) fn animation<S: Sink>(
        &mut self,
        out: &mut Out<S>,
        name: &[u8],
        raw: &[u8],
    ) -> Result<(), EncodeError> {
        self.stage.go(Stage::File, Stage::Animation)?;
        bump(&mut self.animations)?;
        let raw = stored(raw, self.animation_header());
        grow(&mut self.size, raw.map(|r| r.len() as u64));
        out.name_field(name, NAME, raw.map(|r| &r[..NAME]))?;
        self.bones_at = out.reserve()?;
        if self.anp3 {
            out.zeros(8)?;
        }
        self.stored_fields = raw
            .filter(|_| self.anp3)
            .map(|r| (stored_u32(r, 28), stored_u32(r, 32), Source::default()));
        self.bones = 0;
        self.frame_data_size = 0;
        self.packed = false;
        Ok(())
    }

    pub(crate) fn bone<S: Sink>(
        &mut self,
        out: &mut Out<S>,
        bone: &BoneHeader<'_>,
        frame_type: FrameType,
        round: bool,
        raw: &[u8],
    ) -> Result<(), EncodeError> {
        self.stage.go(Stage::Animation, Stage::Bone)?;
        let stored_type = frame_type
            .ifp2_type()
            .ok_or(EncodeError::UnsupportedFrameType(frame_type))?;
        bump(&mut self.bones)?;
        let raw = stored(raw, BONE_HEADER);
        // The source's keyframes, as its header declares them.
        let source = raw.and_then(|r| {
            let frame_type = FrameType::from_ifp2(stored_u32(r, 24))?;
            let bytes = u64::from(stored_u32(r, 28)) * frame_type.size() as u64;
            Some((bytes, frame_type.is_packed()))
        });
        grow(
            &mut self.size,
            source.map(|(bytes, _)| BONE_HEADER as u64 + bytes),
        );
        self.stored_fields =
            self.stored_fields
                .zip(source)
                .and_then(|((size, flags, s), (bytes, packed))| {
                    let source = Source {
                        frame_data_size: add(s.frame_data_size, bytes)?,
                        packed: s.packed | packed,
                        ..s
                    };
                    Some((size, flags, source))
                });
        let mut buf = [0; 13];
        out.name_field(bone_name(bone, &mut buf), NAME, raw.map(|r| &r[..NAME]))?;
        out.u32(stored_type)?;
        self.frames_at = out.reserve()?;
        out.put(&bone.bone_id.unwrap_or(-1).to_le_bytes())?;
        self.frames = 0;
        self.frame_type = frame_type;
        self.round = round;
        self.packed |= frame_type.is_packed();
        Ok(())
    }

    pub(crate) fn keyframe<S: Sink>(
        &mut self,
        out: &mut Out<S>,
        frame: &Keyframe,
    ) -> Result<(), EncodeError> {
        self.stage.go(Stage::Bone, Stage::Bone)?;
        bump(&mut self.frames)?;
        if self.frame_type.is_packed() {
            let mut record = [0u8; 16];
            let mut at = 0;
            let mut put = |value: f32, scale: f32| -> Result<(), EncodeError> {
                let packed = pack(value, scale, self.round)?;
                record[at..at + 2].copy_from_slice(&packed.to_le_bytes());
                at += 2;
                Ok(())
            };
            for &q in &frame.rotation {
                put(q, PACKED_ROTATION_SCALE)?;
            }
            put(frame.time, PACKED_TIME_SCALE)?;
            if self.frame_type.has_translation() {
                for &t in &frame.translation {
                    put(t, PACKED_TRANSLATION_SCALE)?;
                }
            }
            out.put(&record[..at])
        } else {
            let mut record = [0u8; 32];
            let [x, y, z, w] = frame.rotation;
            let [tx, ty, tz] = frame.translation;
            let values = [x, y, z, w, frame.time, tx, ty, tz];
            let n = if self.frame_type.has_translation() {
                8
            } else {
                5
            };
            for (bytes, value) in record.chunks_exact_mut(4).zip(&values[..n]) {
                bytes.copy_from_slice(&value.to_le_bytes());
            }
            out.put(&record[..4 * n])
        }
    }

    pub(crate) fn bone_end<S: Sink>(&mut self, out: &mut Out<S>) -> Result<(), EncodeError> {
        self.stage.go(Stage::Bone, Stage::Animation)?;
        out.patch_u32(self.frames_at, self.frames)?;
        self.frame_data_size += u64::from(self.frames) * self.frame_type.size() as u64;
        Ok(())
    }

    pub(crate) fn animation_end<S: Sink>(&mut self, out: &mut Out<S>) -> Result<(), EncodeError> {
        self.stage.go(Stage::Animation, Stage::File)?;
        out.patch_u32(self.bones_at, self.bones)?;
        if self.anp3 {
            let size = u32::try_from(self.frame_data_size).map_err(|_| EncodeError::TooMany)?;
            let mut fields = (size, u32::from(self.packed));
            // A stale `frameDataSize`, or `flags` other than the packedness, stays while the
            // keyframes are as long, and as packed, as the source's.
            if let Some((frame_data_size, flags, source)) = self.stored_fields {
                if u64::from(source.frame_data_size) == self.frame_data_size {
                    fields.0 = frame_data_size;
                }
                if source.packed == self.packed {
                    fields.1 = flags;
                }
            }
            out.patch_u32(self.bones_at + 4, fields.0)?;
            out.patch_u32(self.bones_at + 8, fields.1)?;
        }
        Ok(())
    }

    pub(crate) fn end<S: Sink>(&mut self, out: &mut Out<S>) -> Result<(), EncodeError> {
        self.stage.go(Stage::File, Stage::File)?;
        out.patch_u32(ANIMATION_COUNT_AT, self.animations)?;
        match self.size {
            // A stale size stays while the file is as long as the source's content.
            Some((size, source)) if u64::from(source.bytes) == out.content() => {
                out.patch_u32(4, size)
            }
            _ => out.patch_size(4),
        }
    }
}

/// A value as a packed `i16`: `value × scale` rounded half away from zero (`f32::round` is
/// not in `core`). Unless `round`, the integer must decode back to the very same `f32` (the
/// decoder divides by `scale`).
pub(crate) fn pack(value: f32, scale: f32, round: bool) -> Result<i16, EncodeError> {
    let scaled = value * scale;
    let rounded = if scaled >= 0.0 {
        scaled + 0.5
    } else {
        scaled - 0.5
    };
    // Truncation toward zero finishes the rounding; NaN fails both comparisons.
    if !(rounded > -32769.0 && rounded < 32768.0) {
        return Err(if round {
            EncodeError::OutOfRange
        } else {
            EncodeError::NotRepresentable(Lost::PackedValue)
        });
    }
    let packed = rounded as i16;
    if !round && (f32::from(packed) / scale).to_bits() != value.to_bits() {
        return Err(EncodeError::NotRepresentable(Lost::PackedValue));
    }
    Ok(packed)
}
