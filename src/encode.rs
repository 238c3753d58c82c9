//! Writing packages (feature `alloc`): the inverse of [`Package::parse`], used to build test
//! fixtures, benchmark inputs and converted files. Every redundant field (sizes, counts,
//! `frameDataSize`, `flags`) is written correct.
//!
//! Packed keyframes are quantised (quaternion × 4096, time × 60, translation × 1024, rounded),
//! so a package decoded from packed frames writes back to the same bytes.

use alloc::vec::Vec;
use core::fmt;

use crate::keyframe::{PACKED_ROTATION_SCALE, PACKED_TIME_SCALE, PACKED_TRANSLATION_SCALE};
use crate::{Format, FrameType, Keyframe, Package, MAX_NAME};

/// IFP2 names are `char[24]`.
const IFP2_NAME: usize = 24;
/// ANPK object names are `char[28]`.
const ANPK_OBJECT_NAME: usize = 28;

/// Why a package cannot be written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EncodeError {
    /// The writer does not produce this format.
    UnsupportedFormat(Format),
    /// A name too long for its field, or with a character above U+00FF. Fixed fields
    /// (`char[24]`, `char[28]`) may be filled without a NUL, as games read them; ANPK's
    /// length-prefixed names need room for theirs.
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

/// Writes `package` in its own format.
pub fn write(package: &Package) -> Result<Vec<u8>, EncodeError> {
    match package.format {
        Format::Anpk => anpk(package),
        Format::Anp3 | Format::Anp2 => ifp2(package),
        format => Err(EncodeError::UnsupportedFormat(format)),
    }
}

/// Writes `package` as an IFP version 2 file: `ANP2` if `package.format` says so, else `ANP3`.
pub fn ifp2(package: &Package) -> Result<Vec<u8>, EncodeError> {
    let anp3 = package.format != Format::Anp2;
    let mut out = Vec::new();
    out.extend_from_slice(if anp3 { b"ANP3" } else { b"ANP2" });
    let size_at = reserve_u32(&mut out);
    put_fixed_name(&mut out, package.name.as_deref().unwrap_or(""), IFP2_NAME)?;
    put_u32(&mut out, count(package.animations.len())?);
    for animation in &package.animations {
        put_fixed_name(&mut out, &animation.name, IFP2_NAME)?;
        put_u32(&mut out, count(animation.bones.len())?);
        if anp3 {
            let frame_data_size: usize = animation
                .bones
                .iter()
                .map(|b| b.frames.len() * b.frame_type.size())
                .sum();
            put_u32(&mut out, count(frame_data_size)?);
            let packed = animation.bones.iter().any(|b| b.frame_type.is_packed());
            put_u32(&mut out, u32::from(packed));
        }
        for bone in &animation.bones {
            let frame_type = bone.frame_type;
            if FrameType::from_ifp2(frame_type as u32) != Some(frame_type) {
                return Err(EncodeError::UnsupportedFrameType(frame_type));
            }
            put_fixed_name(&mut out, bone.name.as_deref().unwrap_or(""), IFP2_NAME)?;
            put_u32(&mut out, frame_type as u32);
            put_u32(&mut out, count(bone.frames.len())?);
            out.extend_from_slice(&bone.bone_id.unwrap_or(-1).to_le_bytes());
            for frame in &bone.frames {
                put_frame(&mut out, frame_type, frame)?;
            }
        }
    }
    patch_size(&mut out, size_at)?;
    Ok(out)
}

/// Writes `package` as an IFP version 1 (`ANPK`) file. Bones with a bone id get the 44-byte
/// `ANIM` chunk (Vice City), bones without the 48-byte one (GTA III); bones without keyframes
/// get no keyframe chunk.
pub fn anpk(package: &Package) -> Result<Vec<u8>, EncodeError> {
    let mut out = Vec::new();
    out.extend_from_slice(b"ANPK");
    let size_at = reserve_u32(&mut out);
    let name = latin1(package.name.as_deref().unwrap_or(""), MAX_NAME - 1)?;
    out.extend_from_slice(b"INFO");
    put_u32(&mut out, count(4 + name.len() + 1)?);
    put_u32(&mut out, count(package.animations.len())?);
    put_padded_name(&mut out, &name);
    for animation in &package.animations {
        let name = latin1(&animation.name, MAX_NAME - 1)?;
        out.extend_from_slice(b"NAME");
        put_u32(&mut out, count(name.len() + 1)?);
        put_padded_name(&mut out, &name);
        out.extend_from_slice(b"DGAN");
        let dgan_at = reserve_u32(&mut out);
        out.extend_from_slice(b"INFO");
        put_u32(&mut out, 8);
        put_u32(&mut out, count(animation.bones.len())?);
        put_u32(&mut out, 0);
        for bone in &animation.bones {
            let frame_type = bone.frame_type;
            let tag: &[u8; 4] = match frame_type {
                FrameType::Kr00 => b"KR00",
                FrameType::Krt0 => b"KRT0",
                FrameType::Krts => b"KRTS",
                _ => return Err(EncodeError::UnsupportedFrameType(frame_type)),
            };
            let frames = count(bone.frames.len())?;
            out.extend_from_slice(b"CPAN");
            let cpan_at = reserve_u32(&mut out);
            out.extend_from_slice(b"ANIM");
            put_u32(&mut out, if bone.bone_id.is_some() { 44 } else { 48 });
            put_fixed_name(
                &mut out,
                bone.name.as_deref().unwrap_or(""),
                ANPK_OBJECT_NAME,
            )?;
            put_u32(&mut out, frames);
            put_u32(&mut out, 0);
            put_u32(&mut out, frames.wrapping_sub(1));
            match bone.bone_id {
                Some(id) => out.extend_from_slice(&id.to_le_bytes()),
                None => out.extend_from_slice(&[0; 8]),
            }
            if frames > 0 {
                out.extend_from_slice(tag);
                put_u32(&mut out, count(bone.frames.len() * frame_type.size())?);
                for frame in &bone.frames {
                    put_frame(&mut out, frame_type, frame)?;
                }
            }
            patch_size(&mut out, cpan_at)?;
        }
        patch_size(&mut out, dgan_at)?;
    }
    patch_size(&mut out, size_at)?;
    Ok(out)
}

fn count(n: usize) -> Result<u32, EncodeError> {
    u32::try_from(n).map_err(|_| EncodeError::TooMany)
}

fn put_u32(out: &mut Vec<u8>, value: u32) {
    out.extend_from_slice(&value.to_le_bytes());
}

/// Leaves room for a chunk size; [`patch_size`] fills it in once the chunk is written.
fn reserve_u32(out: &mut Vec<u8>) -> usize {
    out.extend_from_slice(&[0; 4]);
    out.len()
}

/// A chunk's size counts the bytes after its size field.
fn patch_size(out: &mut [u8], end_of_field: usize) -> Result<(), EncodeError> {
    let size = count(out.len() - end_of_field)?;
    out[end_of_field - 4..end_of_field].copy_from_slice(&size.to_le_bytes());
    Ok(())
}

/// The bytes of a Latin-1 name no longer than `max`.
fn latin1(name: &str, max: usize) -> Result<Vec<u8>, EncodeError> {
    let bytes = name
        .chars()
        .map(|c| u8::try_from(u32::from(c)).map_err(|_| EncodeError::BadName))
        .collect::<Result<Vec<u8>, _>>()?;
    if bytes.len() > max {
        return Err(EncodeError::BadName);
    }
    Ok(bytes)
}

fn put_fixed_name(out: &mut Vec<u8>, name: &str, field: usize) -> Result<(), EncodeError> {
    let bytes = latin1(name, field)?;
    out.extend_from_slice(&bytes);
    out.resize(out.len() + field - bytes.len(), 0);
    Ok(())
}

/// A NUL-terminated name, zero-padded to a multiple of 4.
fn put_padded_name(out: &mut Vec<u8>, name: &[u8]) {
    out.extend_from_slice(name);
    out.push(0);
    out.resize(out.len().next_multiple_of(4), 0);
}

fn put_f32s(out: &mut Vec<u8>, values: &[f32]) {
    for v in values {
        out.extend_from_slice(&v.to_le_bytes());
    }
}

fn put_frame(
    out: &mut Vec<u8>,
    frame_type: FrameType,
    frame: &Keyframe,
) -> Result<(), EncodeError> {
    if frame_type.is_packed() {
        for &q in &frame.rotation {
            put_i16(out, q * PACKED_ROTATION_SCALE)?;
        }
        put_i16(out, frame.time * PACKED_TIME_SCALE)?;
        if frame_type.has_translation() {
            for &t in &frame.translation {
                put_i16(out, t * PACKED_TRANSLATION_SCALE)?;
            }
        }
    } else if matches!(
        frame_type,
        FrameType::Kr00 | FrameType::Krt0 | FrameType::Krts
    ) {
        // ANPK stores the conjugate, and the time last.
        let [x, y, z, w] = frame.rotation;
        put_f32s(out, &[-x, -y, -z, w]);
        if frame_type.has_translation() {
            put_f32s(out, &frame.translation);
        }
        if frame_type.has_scale() {
            put_f32s(out, &frame.scale);
        }
        put_f32s(out, &[frame.time]);
    } else {
        put_f32s(out, &frame.rotation);
        put_f32s(out, &[frame.time]);
        if frame_type.has_translation() {
            put_f32s(out, &frame.translation);
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
