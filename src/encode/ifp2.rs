//! `ANP3` and `ANP2` (docs/FORMATS.md §2, §9.2): counts, sizes, `frameDataSize` and `flags`
//! are patched when their record ends.

use super::{bone_name, bump, BoneHeader, EncodeError, Lost, Out, Sink};
use crate::keyframe::{PACKED_ROTATION_SCALE, PACKED_TIME_SCALE, PACKED_TRANSLATION_SCALE};
use crate::{FrameType, Keyframe};

/// IFP2 names are `char[24]`.
const NAME: usize = 24;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    Start,
    File,
    Animation,
    Bone,
}

#[derive(Debug)]
pub(crate) struct Ifp2 {
    anp3: bool,
    stage: Stage,
    animations: u32,
    /// The file's animation count field.
    animations_at: u64,
    bones: u32,
    /// The current animation's bone count field (`frameDataSize` and `flags` follow in ANP3).
    bones_at: u64,
    frame_data_size: u64,
    packed: bool,
    frames: u32,
    /// The current bone's frame count field.
    frames_at: u64,
    frame_type: FrameType,
    /// Packed frames may be rounded (else each value must be exact).
    round: bool,
}

impl Ifp2 {
    pub(crate) fn new(anp3: bool) -> Self {
        Ifp2 {
            anp3,
            stage: Stage::Start,
            animations: 0,
            animations_at: 0,
            bones: 0,
            bones_at: 0,
            frame_data_size: 0,
            packed: false,
            frames: 0,
            frames_at: 0,
            frame_type: FrameType::Ifp2Rot,
            round: false,
        }
    }

    fn expect(&self, stage: Stage) -> Result<(), EncodeError> {
        if self.stage != stage {
            return Err(EncodeError::OutOfOrder);
        }
        Ok(())
    }

    pub(crate) fn file<S: Sink>(
        &mut self,
        out: &mut Out<S>,
        name: Option<&[u8]>,
    ) -> Result<(), EncodeError> {
        match self.stage {
            Stage::Start => {}
            // A later ANLF block: its animations join the first block's.
            Stage::File => return Ok(()),
            _ => return Err(EncodeError::OutOfOrder),
        }
        out.put(if self.anp3 { b"ANP3" } else { b"ANP2" })?;
        out.reserve()?;
        out.fixed_name(name.unwrap_or_default(), NAME)?;
        self.animations_at = out.reserve()?;
        self.stage = Stage::File;
        Ok(())
    }

    pub(crate) fn animation<S: Sink>(
        &mut self,
        out: &mut Out<S>,
        name: &[u8],
    ) -> Result<(), EncodeError> {
        self.expect(Stage::File)?;
        bump(&mut self.animations)?;
        out.fixed_name(name, NAME)?;
        self.bones_at = out.reserve()?;
        if self.anp3 {
            out.zeros(8)?;
        }
        self.bones = 0;
        self.frame_data_size = 0;
        self.packed = false;
        self.stage = Stage::Animation;
        Ok(())
    }

    pub(crate) fn bone<S: Sink>(
        &mut self,
        out: &mut Out<S>,
        bone: &BoneHeader<'_>,
        frame_type: FrameType,
        round: bool,
    ) -> Result<(), EncodeError> {
        self.expect(Stage::Animation)?;
        let stored = frame_type
            .ifp2_type()
            .ok_or(EncodeError::UnsupportedFrameType(frame_type))?;
        bump(&mut self.bones)?;
        let mut buf = [0; 13];
        out.fixed_name(bone_name(bone, &mut buf), NAME)?;
        out.u32(stored)?;
        self.frames_at = out.reserve()?;
        out.put(&bone.bone_id.unwrap_or(-1).to_le_bytes())?;
        self.frames = 0;
        self.frame_type = frame_type;
        self.round = round;
        self.packed |= frame_type.is_packed();
        self.stage = Stage::Bone;
        Ok(())
    }

    pub(crate) fn keyframe<S: Sink>(
        &mut self,
        out: &mut Out<S>,
        frame: &Keyframe,
    ) -> Result<(), EncodeError> {
        self.expect(Stage::Bone)?;
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
        self.expect(Stage::Bone)?;
        out.patch_u32(self.frames_at, self.frames)?;
        self.frame_data_size += u64::from(self.frames) * self.frame_type.size() as u64;
        self.stage = Stage::Animation;
        Ok(())
    }

    pub(crate) fn animation_end<S: Sink>(&mut self, out: &mut Out<S>) -> Result<(), EncodeError> {
        self.expect(Stage::Animation)?;
        out.patch_u32(self.bones_at, self.bones)?;
        if self.anp3 {
            let size = u32::try_from(self.frame_data_size).map_err(|_| EncodeError::TooMany)?;
            out.patch_u32(self.bones_at + 4, size)?;
            out.patch_u32(self.bones_at + 8, u32::from(self.packed))?;
        }
        self.stage = Stage::File;
        Ok(())
    }

    pub(crate) fn end<S: Sink>(&mut self, out: &mut Out<S>) -> Result<(), EncodeError> {
        self.expect(Stage::File)?;
        out.patch_u32(self.animations_at, self.animations)?;
        out.patch_size(4)
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
