//! `ANPK` (docs/FORMATS.md §1, §9.2): chunk sizes and counts are patched when their chunk
//! ends; a bone's keyframe chunk is begun by its first keyframe, so a bone without keyframes
//! has none.

use super::{bone_name, bump, check_name, BoneHeader, EncodeError, Out, Sink, Stage};
use crate::{FrameType, Keyframe, MAX_NAME};

/// Object names are `char[28]`.
const OBJECT_NAME: usize = 28;

#[derive(Debug)]
pub(crate) struct Anpk {
    stage: Stage,
    animations: u32,
    /// The package INFO's animation count.
    animations_at: u64,
    bones: u32,
    /// The DGAN size field; the object count is 12 bytes after it.
    dgan_at: u64,
    frames: u32,
    /// The CPAN size field; the ANIM frame count is 44 bytes after it.
    cpan_at: u64,
    /// The keyframe chunk's size field, once the bone's first keyframe began it.
    chunk_at: Option<u64>,
    frame_type: FrameType,
}

/// Writes a NUL-terminated name with its zero padding to a multiple of 4, after its chunk
/// header (`tag`, the name's length with the NUL, plus `extra` bytes that come before it).
fn padded_name<S: Sink>(
    out: &mut Out<S>,
    tag: &[u8; 4],
    extra: usize,
    name: &[u8],
) -> Result<(), EncodeError> {
    check_name(name, MAX_NAME - 1)?;
    out.put(tag)?;
    out.u32((extra + name.len() + 1) as u32)?;
    Ok(())
}

fn name_bytes<S: Sink>(out: &mut Out<S>, name: &[u8]) -> Result<(), EncodeError> {
    out.put(name)?;
    out.zeros((name.len() + 1).next_multiple_of(4) - name.len())
}

impl Anpk {
    pub(crate) fn new() -> Self {
        Anpk {
            stage: Stage::Start,
            animations: 0,
            animations_at: 0,
            bones: 0,
            dgan_at: 0,
            frames: 0,
            cpan_at: 0,
            chunk_at: None,
            frame_type: FrameType::Kr00,
        }
    }

    pub(crate) fn file<S: Sink>(
        &mut self,
        out: &mut Out<S>,
        name: Option<&[u8]>,
    ) -> Result<(), EncodeError> {
        if !self.stage.begin_file()? {
            return Ok(());
        }
        let name = name.unwrap_or_default();
        out.put(b"ANPK")?;
        out.reserve()?;
        padded_name(out, b"INFO", 4, name)?;
        self.animations_at = out.reserve()?;
        name_bytes(out, name)
    }

    pub(crate) fn animation<S: Sink>(
        &mut self,
        out: &mut Out<S>,
        name: &[u8],
    ) -> Result<(), EncodeError> {
        self.stage.go(Stage::File, Stage::Animation)?;
        bump(&mut self.animations)?;
        padded_name(out, b"NAME", 0, name)?;
        name_bytes(out, name)?;
        out.put(b"DGAN")?;
        self.dgan_at = out.reserve()?;
        out.put(b"INFO")?;
        out.u32(8)?;
        out.zeros(8)?;
        self.bones = 0;
        Ok(())
    }

    pub(crate) fn bone<S: Sink>(
        &mut self,
        out: &mut Out<S>,
        bone: &BoneHeader<'_>,
        frame_type: FrameType,
    ) -> Result<(), EncodeError> {
        self.stage.go(Stage::Animation, Stage::Bone)?;
        bump(&mut self.bones)?;
        out.put(b"CPAN")?;
        self.cpan_at = out.reserve()?;
        out.put(b"ANIM")?;
        out.u32(if bone.bone_id.is_some() { 44 } else { 48 })?;
        let mut buf = [0; 13];
        out.fixed_name(bone_name(bone, &mut buf), OBJECT_NAME)?;
        // numFrames, 0, numFrames − 1: patched at the bone's end.
        out.zeros(12)?;
        match bone.bone_id {
            Some(id) => out.put(&id.to_le_bytes())?,
            None => out.zeros(8)?,
        }
        self.frames = 0;
        self.chunk_at = None;
        self.frame_type = frame_type;
        Ok(())
    }

    pub(crate) fn keyframe<S: Sink>(
        &mut self,
        out: &mut Out<S>,
        frame: &Keyframe,
    ) -> Result<(), EncodeError> {
        self.stage.go(Stage::Bone, Stage::Bone)?;
        bump(&mut self.frames)?;
        if self.chunk_at.is_none() {
            out.put(match self.frame_type {
                FrameType::Kr00 => b"KR00",
                FrameType::Krt0 => b"KRT0",
                _ => b"KRTS",
            })?;
            self.chunk_at = Some(out.reserve()?);
        }
        // ANPK stores the conjugate, and the time last.
        let [x, y, z, w] = frame.rotation;
        let [tx, ty, tz] = frame.translation;
        let [sx, sy, sz] = frame.scale;
        let mut values = [0.0f32; 11];
        values[..4].copy_from_slice(&[-x, -y, -z, w]);
        let mut n = 4;
        if self.frame_type.has_translation() {
            values[n..n + 3].copy_from_slice(&[tx, ty, tz]);
            n += 3;
        }
        if self.frame_type.has_scale() {
            values[n..n + 3].copy_from_slice(&[sx, sy, sz]);
            n += 3;
        }
        values[n] = frame.time;
        n += 1;
        let mut record = [0u8; 44];
        for (bytes, value) in record.chunks_exact_mut(4).zip(&values[..n]) {
            bytes.copy_from_slice(&value.to_le_bytes());
        }
        out.put(&record[..4 * n])
    }

    pub(crate) fn bone_end<S: Sink>(&mut self, out: &mut Out<S>) -> Result<(), EncodeError> {
        self.stage.go(Stage::Bone, Stage::Animation)?;
        let anim = self.cpan_at + 12;
        out.patch_u32(anim + 28, self.frames)?;
        out.patch_u32(anim + 36, self.frames.wrapping_sub(1))?;
        if let Some(at) = self.chunk_at {
            out.patch_size(at)?;
        }
        out.patch_size(self.cpan_at)?;
        Ok(())
    }

    pub(crate) fn animation_end<S: Sink>(&mut self, out: &mut Out<S>) -> Result<(), EncodeError> {
        self.stage.go(Stage::Animation, Stage::File)?;
        out.patch_u32(self.dgan_at + 12, self.bones)?;
        out.patch_size(self.dgan_at)?;
        Ok(())
    }

    pub(crate) fn end<S: Sink>(&mut self, out: &mut Out<S>) -> Result<(), EncodeError> {
        self.stage.go(Stage::File, Stage::File)?;
        out.patch_u32(self.animations_at, self.animations)?;
        out.patch_size(4)
    }
}
