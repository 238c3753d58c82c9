//! `ANPK` (docs/FORMATS.md §1, §9.2): chunk sizes and counts are patched when their chunk
//! ends; a bone's keyframe chunk is begun by its first keyframe, so a bone without keyframes
//! has none. Given the units as stored (§9.7), the tags, the layout sizes (INFO, NAME, ANIM),
//! the bytes after each name's NUL, the INFO fields after the counts, the `ANIM` fields the
//! games do not read (the 48-byte form's last two) and an empty keyframe chunk are kept, and so
//! is each stale chunk size while its chunk is as long as the source's.

use core::num::NonZeroU32;

use super::{bone_name, bump, check_name, stored_u32, BoneHeader, EncodeError, Out, Sink, Stage};
use crate::format::fields::c_name;
use crate::{FrameType, Keyframe, MAX_NAME};

/// Object names are `char[28]`.
const OBJECT_NAME: usize = 28;
/// The block header (`ANPK` and `INFO` headers, animation count) before the package name.
const BLOCK_HEADER: usize = 20;
/// The package INFO's animation count, from the block's start.
const ANIMATION_COUNT_AT: u64 = 16;
/// `ANLF`: the container's block count.
const BLOCK_COUNT_AT: u64 = 8;
/// `CPAN` and `ANIM` chunk headers.
const OBJECT_HEADER: usize = 16;

/// A chunk size as stored, and the source's length of what it counts so far (32 bits, as the
/// sizes: the encoder's size matters to hosts).
#[derive(Clone, Copy, Debug)]
struct Kept {
    size: u32,
    source: NonZeroU32,
}

impl Kept {
    fn new(size: u32, source: u64) -> Option<Kept> {
        Some(Kept {
            size,
            // Never 0 (every chunk holds bytes after its size): `Option<Kept>` stays 8 bytes.
            source: NonZeroU32::new(u32::try_from(source).ok()?)?,
        })
    }
}

/// Adds `bytes` of the source to a kept size; a unit without its stored bytes (`None`) ends
/// the keeping.
fn grow(kept: &mut Option<Kept>, bytes: Option<u64>) {
    *kept = kept
        .zip(bytes)
        .and_then(|(k, n)| Kept::new(k.size, u64::from(k.source.get()) + n));
}

/// Patches the chunk size at `at`: as stored while the chunk is as long as the source's.
fn patch_kept<S: Sink>(out: &mut Out<S>, at: u64, kept: Option<Kept>) -> Result<(), EncodeError> {
    match kept {
        Some(k) if u64::from(k.source.get()) == out.content() - (at + 4) => {
            out.patch_u32(at, k.size)
        }
        _ => out.patch_size(at),
    }
}

/// An output offset in 32 bits (a longer file is refused anyway).
fn offset32(at: u64) -> Result<u32, EncodeError> {
    u32::try_from(at).map_err(|_| EncodeError::TooMany)
}

/// A chunk payload padded to 4.
fn padded(size: u32) -> usize {
    (size as usize).next_multiple_of(4)
}

#[derive(Debug)]
pub(crate) struct Anpk {
    stage: Stage,
    animations: u32,
    bones: u32,
    /// The DGAN size field; the object count is 12 bytes after it. (Offsets are kept in 32
    /// bits, as the format's: the end refuses a longer file.)
    dgan_at: u32,
    frames: u32,
    /// The CPAN size field; the ANIM frame count is 44 bytes after it.
    cpan_at: u32,
    /// Whether the bone's first keyframe began its keyframe chunk, and whether the bone's
    /// `ANIM` chunk is the 44-byte form (with a bone id): where that chunk's size field lies.
    chunk: bool,
    with_id: bool,
    frame_type: FrameType,
    /// The stored sizes of the block, the animation's DGAN, the object's CPAN and its keyframe
    /// chunk, with the source's lengths.
    block: Option<Kept>,
    dgan: Option<Kept>,
    cpan: Option<Kept>,
    keyframes: Option<Kept>,
    /// The object's stored frame count and last frame index (`ANIM`, kept while the count is).
    last_index: Option<(u32, u32)>,
    /// The empty keyframe chunk the source had after an object without keyframes.
    empty_chunk: Option<[u8; 8]>,
    /// Written back as an `ANLF` (§1.4): its blocks so far, where the current one begins, and
    /// the container's stored size with the source's length.
    anlf: bool,
    blocks: u32,
    block_at: u32,
    container: Option<Kept>,
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

/// A stored block header with its package name: the bytes, if they have that layout.
fn block_raw(raw: &[u8]) -> Option<&[u8]> {
    let info = BLOCK_HEADER + padded(stored_u32(raw.get(..BLOCK_HEADER)?, 12)).checked_sub(4)?;
    (raw.len() == info).then_some(raw)
}

/// A stored animation unit (`NAME` chunk to the end of `INFO`): the end of its `NAME` chunk,
/// if the bytes have that layout.
fn animation_raw(raw: &[u8]) -> Option<usize> {
    let name_end = 8 + padded(stored_u32(raw.get(..8)?, 4));
    let info = raw.get(name_end..name_end + 20)?;
    let end = name_end + 16 + padded(stored_u32(info, 12));
    (raw.len() == end).then_some(name_end)
}

/// A stored object unit (`CPAN` and `ANIM` chunks, perhaps a keyframe chunk header) of the
/// `ANIM` form `with_id` asks for: the end of its `ANIM` chunk.
fn object_raw(raw: &[u8], with_id: bool) -> Option<usize> {
    let anim_size = stored_u32(raw.get(..OBJECT_HEADER)?, 12);
    let anim_end = OBJECT_HEADER + if with_id { 44 } else { 48 };
    let layout = anim_size as usize + OBJECT_HEADER == anim_end;
    (layout && (raw.len() == anim_end || raw.len() == anim_end + 8)).then_some(anim_end)
}

impl Anpk {
    pub(crate) fn new() -> Self {
        Anpk {
            stage: Stage::Start,
            animations: 0,
            bones: 0,
            dgan_at: 0,
            frames: 0,
            cpan_at: 0,
            chunk: false,
            with_id: false,
            frame_type: FrameType::Kr00,
            block: None,
            dgan: None,
            cpan: None,
            keyframes: None,
            last_index: None,
            empty_chunk: None,
            anlf: false,
            blocks: 0,
            block_at: 0,
            container: None,
        }
    }

    /// Adds `bytes` of the source to the block's and the container's kept sizes.
    fn grow_block(&mut self, bytes: Option<u64>) {
        grow(&mut self.block, bytes);
        grow(&mut self.container, bytes);
    }

    /// The block ends: its animation count and size are patched.
    fn end_block<S: Sink>(&mut self, out: &mut Out<S>) -> Result<(), EncodeError> {
        let at = u64::from(self.block_at);
        out.patch_u32(at + ANIMATION_COUNT_AT, self.animations)?;
        patch_kept(out, at + 4, self.block)
    }

    /// A file (or an `ANLF` block) begins. `container`: the source is an `ANLF` whose `size`
    /// field this is, written back as one (its blocks each an `ANPK`); without it, the blocks
    /// join the first (§9.1).
    pub(crate) fn file<S: Sink>(
        &mut self,
        out: &mut Out<S>,
        name: Option<&[u8]>,
        raw: &[u8],
        container: Option<u32>,
    ) -> Result<(), EncodeError> {
        if self.stage.begin_file()? {
            if let Some(size) = container {
                self.anlf = true;
                out.put(b"ANLF")?;
                out.reserve()?;
                out.reserve()?;
                // The source's bytes after the size field so far: the block count.
                self.container = Kept::new(size, 4);
                if name.is_none() {
                    // An ANLF of no blocks.
                    return Ok(());
                }
            }
        } else if self.anlf && name.is_some() {
            // The next ANLF block.
            if self.blocks > 0 {
                self.end_block(out)?;
            }
        } else {
            // A later ANLF block joins the first: the first's stored size no longer applies.
            self.block = None;
            return Ok(());
        }
        bump(&mut self.blocks)?;
        self.block_at = offset32(out.pos)?;
        self.animations = 0;
        let name = name.unwrap_or_default();
        let raw = block_raw(raw);
        match raw.filter(|r| c_name(&r[BLOCK_HEADER..]) == name) {
            Some(r) => {
                out.put(&r[..4])?;
                out.reserve()?;
                out.put(&r[8..16])?;
                out.reserve()?;
                out.put(&r[BLOCK_HEADER..])?;
            }
            None => {
                out.put(b"ANPK")?;
                out.reserve()?;
                padded_name(out, b"INFO", 4, name)?;
                out.reserve()?;
                name_bytes(out, name)?;
            }
        }
        self.block = raw.and_then(|r| Kept::new(stored_u32(r, 4), r.len() as u64 - 8));
        grow(&mut self.container, raw.map(|r| r.len() as u64));
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
        let name_end = animation_raw(raw);
        let stored = name_end.map(|n| (&raw[..n], &raw[n..]));
        match stored.filter(|(chunk, _)| c_name(&chunk[8..]) == name) {
            Some((chunk, _)) => out.put(chunk)?,
            None => {
                padded_name(out, b"NAME", 0, name)?;
                name_bytes(out, name)?;
            }
        }
        match stored {
            // DGAN tag, its size (patched), INFO tag and size, the count (patched), the rest.
            Some((_, r)) => {
                out.put(&r[..4])?;
                self.dgan_at = offset32(out.reserve()?)?;
                out.put(&r[8..16])?;
                out.reserve()?;
                out.put(&r[20..])?;
            }
            None => {
                out.put(b"DGAN")?;
                self.dgan_at = offset32(out.reserve()?)?;
                out.put(b"INFO")?;
                out.u32(8)?;
                out.zeros(8)?;
            }
        }
        self.grow_block(stored.map(|_| raw.len() as u64));
        self.dgan = stored.and_then(|(_, r)| Kept::new(stored_u32(r, 4), r.len() as u64 - 8));
        self.bones = 0;
        Ok(())
    }

    pub(crate) fn bone<S: Sink>(
        &mut self,
        out: &mut Out<S>,
        bone: &BoneHeader<'_>,
        frame_type: FrameType,
        raw: &[u8],
    ) -> Result<(), EncodeError> {
        self.stage.go(Stage::Animation, Stage::Bone)?;
        bump(&mut self.bones)?;
        let anim_end = object_raw(raw, bone.bone_id.is_some());
        let r = anim_end.map(|_| raw);
        match r {
            Some(r) => out.put(&r[..4])?,
            None => out.put(b"CPAN")?,
        }
        self.cpan_at = offset32(out.reserve()?)?;
        match r {
            Some(r) => out.put(&r[8..16])?,
            None => {
                out.put(b"ANIM")?;
                out.u32(if bone.bone_id.is_some() { 44 } else { 48 })?;
            }
        }
        let mut buf = [0; 13];
        let stored_name = r.map(|r| &r[OBJECT_HEADER..OBJECT_HEADER + OBJECT_NAME]);
        out.name_field(bone_name(bone, &mut buf), OBJECT_NAME, stored_name)?;
        // numFrames, a field the games do not read, numFrames − 1: the counts patched at the
        // bone's end.
        let fields = OBJECT_HEADER + OBJECT_NAME;
        out.zeros(4)?;
        match r {
            Some(r) => out.put(&r[fields + 4..fields + 8])?,
            None => out.zeros(4)?,
        }
        out.zeros(4)?;
        match (bone.bone_id, r) {
            (Some(id), _) => out.put(&id.to_le_bytes())?,
            (None, Some(r)) => out.put(&r[fields + 12..fields + 20])?,
            (None, None) => out.zeros(8)?,
        }
        // The source's keyframes, as its unit declares them.
        let source = r.zip(anim_end).map(|(r, anim_end)| {
            let count = stored_u32(&r[fields..], 0);
            let header = r.get(anim_end..anim_end + 8);
            let frame_type = header.and_then(|h| FrameType::from_anpk_tag(&h[..4]));
            let bytes = frame_type.map_or(0, |t| u64::from(count) * t.size() as u64);
            (count, stored_u32(&r[fields..], 8), header, bytes)
        });
        let object = source.map(|(.., bytes)| raw.len() as u64 + bytes);
        self.grow_block(object);
        grow(&mut self.dgan, object);
        self.cpan = source
            .and_then(|(.., bytes)| Kept::new(stored_u32(raw, 4), raw.len() as u64 - 8 + bytes));
        self.last_index = source.map(|(count, last, ..)| (count, last));
        self.keyframes = None;
        self.empty_chunk = None;
        if let Some((_, _, Some(header), bytes)) = source {
            if FrameType::from_anpk_tag(&header[..4]).is_some() && bytes > 0 {
                self.keyframes = Kept::new(stored_u32(header, 4), bytes);
            } else {
                self.empty_chunk = header.try_into().ok();
            }
        }
        self.frames = 0;
        self.chunk = false;
        self.with_id = bone.bone_id.is_some();
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
        if !self.chunk {
            out.put(match self.frame_type {
                FrameType::Kr00 => b"KR00",
                FrameType::Krt0 => b"KRT0",
                _ => b"KRTS",
            })?;
            out.reserve()?;
            self.chunk = true;
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
        let cpan_at = u64::from(self.cpan_at);
        let anim = cpan_at + 12;
        out.patch_u32(anim + 28, self.frames)?;
        let last = match self.last_index {
            Some((count, last)) if count == self.frames => last,
            _ => self.frames.wrapping_sub(1),
        };
        out.patch_u32(anim + 36, last)?;
        match (self.chunk, self.empty_chunk) {
            (true, _) => {
                // After the CPAN size: the ANIM header, its payload, the keyframe chunk's tag.
                let payload = if self.with_id { 44 } else { 48 };
                patch_kept(out, cpan_at + 12 + payload + 4, self.keyframes)?
            }
            (false, Some(chunk)) => out.put(&chunk)?,
            (false, None) => {}
        }
        patch_kept(out, cpan_at, self.cpan)
    }

    pub(crate) fn animation_end<S: Sink>(&mut self, out: &mut Out<S>) -> Result<(), EncodeError> {
        self.stage.go(Stage::Animation, Stage::File)?;
        let dgan_at = u64::from(self.dgan_at);
        out.patch_u32(dgan_at + 12, self.bones)?;
        patch_kept(out, dgan_at, self.dgan)
    }

    pub(crate) fn end<S: Sink>(&mut self, out: &mut Out<S>) -> Result<(), EncodeError> {
        self.stage.go(Stage::File, Stage::File)?;
        if self.blocks > 0 {
            self.end_block(out)?;
        }
        if self.anlf {
            out.patch_u32(BLOCK_COUNT_AT, self.blocks)?;
            patch_kept(out, 4, self.container)?;
        }
        Ok(())
    }
}
