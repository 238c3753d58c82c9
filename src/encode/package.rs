//! The whole-file API (feature `alloc`): a [`Package`] written through the streaming
//! [`Encoder`](super::Encoder) into a `Vec`. Each bone is written in its own `frame_type`
//! (packed types round, as the package asks for them); every count, size, `frameDataSize` and
//! `flags` comes out right. A package decoded from packed frames writes back to the same bytes.

use alloc::vec::Vec;

use super::{BoneHeader, EncodeError, EncodeOptions, Encoder};
use crate::{Format, Package};

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
    let format = if package.format == Format::Anp2 {
        Format::Anp2
    } else {
        Format::Anp3
    };
    encode(package, format)
}

/// Writes `package` as an IFP version 1 (`ANPK`) file. Bones with a bone id get the 44-byte
/// `ANIM` chunk (Vice City), bones without the 48-byte one (GTA III); bones without keyframes
/// get no keyframe chunk.
pub fn anpk(package: &Package) -> Result<Vec<u8>, EncodeError> {
    encode(package, Format::Anpk)
}

/// The bytes of a Latin-1 name, checked for length by the encoder.
fn latin1(name: &str) -> Result<Vec<u8>, EncodeError> {
    name.chars()
        .map(|c| u8::try_from(u32::from(c)).map_err(|_| EncodeError::BadName))
        .collect()
}

fn encode(package: &Package, format: Format) -> Result<Vec<u8>, EncodeError> {
    let mut encoder = Encoder::new(format, Vec::new(), EncodeOptions::default())?;
    let name = package.name.as_deref().map(latin1).transpose()?;
    encoder.file(name.as_deref())?;
    for animation in &package.animations {
        encoder.animation(&latin1(&animation.name)?)?;
        for bone in &animation.bones {
            let name = bone.name.as_deref().map(latin1).transpose()?;
            let header = BoneHeader {
                name: name.as_deref(),
                bone_id: bone.bone_id,
                bone_key: bone.bone_key,
                frame_type: bone.frame_type,
            };
            encoder.bone_as(&header, bone.frame_type)?;
            for frame in &bone.frames {
                encoder.keyframe(frame)?;
            }
            encoder.bone_end()?;
        }
        encoder.animation_end()?;
    }
    encoder.end()?;
    Ok(encoder.into_sink())
}
