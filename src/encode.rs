//! Writing packages (feature `alloc`): the inverse of [`Package::parse`], used to build test
//! fixtures, benchmark inputs and converted files.
//!
//! Packed keyframes are quantised (quaternion × 4096, time × 60, translation × 1024, rounded),
//! so a package decoded from packed frames writes back to the same bytes.

use alloc::vec::Vec;
use core::fmt;

use crate::event::{PACKED_ROTATION_SCALE, PACKED_TIME_SCALE, PACKED_TRANSLATION_SCALE};
use crate::{Format, FrameType, Keyframe, Package};

const NAME_SIZE: usize = 24;

/// Why a package cannot be written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EncodeError {
    /// The writer does not produce this format.
    UnsupportedFormat(Format),
    /// A name longer than its fixed field (23 bytes and the NUL), or with a character above U+00FF.
    BadName,
    /// A frame type the target format cannot store.
    UnsupportedFrameType(FrameType),
    /// A packed value outside the range of `i16`.
    OutOfRange,
    /// More records than the format's 32-bit counts hold.
    TooMany,
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodeError::UnsupportedFormat(format) => write!(f, "cannot write {}", format.name()),
            EncodeError::BadName => f.write_str("name does not fit its field or is not Latin-1"),
            EncodeError::UnsupportedFrameType(t) => write!(f, "frame type {t:?} cannot be written"),
            EncodeError::OutOfRange => f.write_str("packed keyframe value out of range"),
            EncodeError::TooMany => f.write_str("count does not fit 32 bits"),
        }
    }
}

impl core::error::Error for EncodeError {}

/// Writes `package` as an IFP version 2 file (`ANP3` or `ANP2`, after `package.format`), with
/// every redundant field (`size`, `frameDataSize`, `flags`) correct.
pub fn ifp2(package: &Package) -> Result<Vec<u8>, EncodeError> {
    let anp3 = match package.format {
        Format::Anp3 => true,
        Format::Anp2 => false,
    };
    let mut out = Vec::new();
    out.extend_from_slice(if anp3 { b"ANP3" } else { b"ANP2" });
    out.extend_from_slice(&[0; 4]); // size, patched below
    put_name(&mut out, package.name.as_deref().unwrap_or(""))?;
    put_u32(&mut out, count(package.animations.len())?);
    for animation in &package.animations {
        put_name(&mut out, &animation.name)?;
        put_u32(&mut out, count(animation.bones.len())?);
        let frame_data_size: usize = animation
            .bones
            .iter()
            .map(|b| b.frames.len() * b.frame_type.size())
            .sum();
        if anp3 {
            put_u32(&mut out, count(frame_data_size)?);
            let packed = animation.bones.iter().any(|b| b.frame_type.is_packed());
            put_u32(&mut out, u32::from(packed));
        }
        for bone in &animation.bones {
            put_name(&mut out, bone.name.as_deref().unwrap_or(""))?;
            put_u32(&mut out, bone.frame_type as u32);
            put_u32(&mut out, count(bone.frames.len())?);
            out.extend_from_slice(&bone.bone_id.unwrap_or(-1).to_le_bytes());
            for frame in &bone.frames {
                put_frame(&mut out, bone.frame_type, frame)?;
            }
        }
    }
    let size = count(out.len() - 8)?;
    out[4..8].copy_from_slice(&size.to_le_bytes());
    Ok(out)
}

fn count(n: usize) -> Result<u32, EncodeError> {
    u32::try_from(n).map_err(|_| EncodeError::TooMany)
}

fn put_u32(out: &mut Vec<u8>, value: u32) {
    out.extend_from_slice(&value.to_le_bytes());
}

fn put_name(out: &mut Vec<u8>, name: &str) -> Result<(), EncodeError> {
    let mut field = [0u8; NAME_SIZE];
    if name.chars().count() >= NAME_SIZE {
        return Err(EncodeError::BadName);
    }
    for (slot, c) in field.iter_mut().zip(name.chars()) {
        *slot = u8::try_from(u32::from(c)).map_err(|_| EncodeError::BadName)?;
    }
    out.extend_from_slice(&field);
    Ok(())
}

fn put_frame(
    out: &mut Vec<u8>,
    frame_type: FrameType,
    frame: &Keyframe,
) -> Result<(), EncodeError> {
    match frame_type {
        FrameType::Ifp2Rot | FrameType::Ifp2RotTrans => {
            for v in frame.rotation.iter().chain([&frame.time]) {
                out.extend_from_slice(&v.to_le_bytes());
            }
            if frame_type.has_translation() {
                for v in &frame.translation {
                    out.extend_from_slice(&v.to_le_bytes());
                }
            }
        }
        FrameType::Ifp2PackedRot | FrameType::Ifp2PackedRotTrans => {
            for &q in &frame.rotation {
                put_i16(out, q * PACKED_ROTATION_SCALE)?;
            }
            put_i16(out, frame.time * PACKED_TIME_SCALE)?;
            if frame_type.has_translation() {
                for &t in &frame.translation {
                    put_i16(out, t * PACKED_TRANSLATION_SCALE)?;
                }
            }
        }
    }
    Ok(())
}

/// Rounds half away from zero (`f32::round` is not in `core`) and stores as `i16`.
fn put_i16(out: &mut Vec<u8>, value: f32) -> Result<(), EncodeError> {
    let rounded = if value >= 0.0 {
        value + 0.5
    } else {
        value - 0.5
    };
    // Truncation toward zero finishes the rounding; NaN fails both comparisons.
    if !(rounded > -32769.0 && rounded < 32768.0) {
        return Err(EncodeError::OutOfRange);
    }
    out.extend_from_slice(&(rounded as i16).to_le_bytes());
    Ok(())
}
