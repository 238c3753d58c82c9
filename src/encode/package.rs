//! The whole-file API (feature `alloc`): a [`Package`] written through the streaming
//! [`Encoder`](super::Encoder) into a `Vec`. Each bone is written in its own `frame_type`
//! (packed types round, as the package asks for them); every count, size, `frameDataSize` and
//! `flags` comes out right. A package keeps its units as stored: unedited, it writes back to
//! the same bytes (§9.7).

use alloc::vec::Vec;

use super::{BoneHeader, Choice, EncodeError, EncodeOptions, Encoder};
use crate::{Format, IplCar, IplInstance, Item, Package, Placement};

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
    // The stored bytes apply in their own format only (§9.7).
    let same = package.format == format;
    fn own(same: bool, raw: &[u8]) -> &[u8] {
        if same {
            raw
        } else {
            &[]
        }
    }
    let name = package.name.as_deref().map(latin1).transpose()?;
    encoder.file_raw(name.as_deref(), own(same, &package.raw))?;
    for animation in &package.animations {
        encoder.animation_raw(&latin1(&animation.name)?, own(same, &animation.raw))?;
        for bone in &animation.bones {
            let name = bone.name.as_deref().map(latin1).transpose()?;
            let header = BoneHeader {
                name: name.as_deref(),
                bone_id: bone.bone_id,
                bone_key: bone.bone_key,
                frame_type: bone.frame_type,
            };
            encoder.bone_in(
                &header,
                Choice::Exact(bone.frame_type),
                own(same, &bone.raw),
            )?;
            for frame in &bone.frames {
                encoder.keyframe(frame)?;
            }
            encoder.bone_end()?;
        }
        encoder.animation_end()?;
    }
    let trailing = own(same, &package.trailing);
    if !trailing.is_empty() {
        encoder.trailing(trailing)?;
    }
    encoder.end()?;
    Ok(encoder.into_sink())
}

/// Writes `placement` in its own format (binary or text IPL). What it keeps as stored
/// ([`Placement::stored`], `header`, `trailing`) is written as it was while the values still
/// read so: an unedited placement writes back to the same bytes, an edited record is written
/// the format's usual way in its place (§9.7). Records and section lines no stored entry names
/// (added ones) follow, instances first.
pub fn placement(placement: &Placement) -> Result<Vec<u8>, EncodeError> {
    let mut encoder = Encoder::new(placement.format, Vec::new(), EncodeOptions::default())?;
    encoder.file_raw(None, &placement.header)?;
    let (mut instances, mut cars, mut lines) = (0, 0, 0);
    for stored in &placement.stored {
        let raw = &stored.raw[..];
        match stored.item {
            Item::Instance(i) if i < placement.instances.len() => {
                instance(&mut encoder, placement, i, raw)?;
                instances = instances.max(i + 1);
            }
            Item::Car(i) if i < placement.cars.len() => {
                encoder.car(&IplCar {
                    raw,
                    ..placement.cars[i]
                })?;
                cars = cars.max(i + 1);
            }
            Item::SectionLine(i) if i < placement.section_lines.len() => {
                let line = &placement.section_lines[i];
                encoder.section_line_stored(&line.section, &latin1(&line.text)?, 0, raw)?;
                lines = lines.max(i + 1);
            }
            Item::Text => encoder.text_line(raw)?,
            // A record removed since.
            _ => {}
        }
    }
    for i in instances..placement.instances.len() {
        instance(&mut encoder, placement, i, &[])?;
    }
    for car in &placement.cars[cars..] {
        encoder.car(car)?;
    }
    for line in &placement.section_lines[lines..] {
        encoder.section_line(&line.section, &latin1(&line.text)?)?;
    }
    if !placement.trailing.is_empty() {
        encoder.trailing(&placement.trailing)?;
    }
    encoder.end()?;
    Ok(encoder.into_sink())
}

/// The instance `i` of `placement`, with its stored line `raw`.
fn instance(
    encoder: &mut Encoder<Vec<u8>>,
    placement: &Placement,
    i: usize,
    raw: &[u8],
) -> Result<(), EncodeError> {
    let instance = &placement.instances[i];
    let name = instance.model_name.as_deref().map(latin1).transpose()?;
    let mut event = IplInstance {
        position: instance.position,
        rotation: instance.rotation,
        model_id: instance.model_id,
        interior: instance.interior,
        lod: instance.lod,
        scale: instance.scale,
        raw,
        ..IplInstance::default()
    };
    event.model_name = name.as_deref();
    encoder.instance(&event)
}
