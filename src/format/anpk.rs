//! IFP version 1: GTA III / Vice City `ANPK` animation packages, and GTA III's `ANLF`
//! container of several (docs/FORMATS.md §1).
//!
//! A tree of chunks (`tag`, `u32 size`, payload padded to 4). Decoding follows the counts and
//! the sizes the engines read (INFO, NAME, ANIM, keyframe chunk); the tags and the other sizes
//! are only checked, and a mismatch is a warning.
//!
//! Each event's unit holds every byte from the end of the previous event's: the block header
//! and the package name; an animation's NAME chunk, DGAN and INFO headers and INFO fields; an
//! object's CPAN and ANIM chunks and its keyframe chunk's header (or an empty keyframe chunk).
//! A step reads the headers, then takes nothing and asks for the whole unit, which the event
//! carries as stored (`raw`) for writing the file back byte for byte (docs/FORMATS.md §9.7).

use nom::bytes::complete::take;
use nom::number::complete::{le_i32, le_u32};
use nom::{IResult, Parser};

use super::bones::BoneNames;
use super::fields::{c_name, check_fits, parse, Check, Checks};
use super::protocol::{Step, Stepped, Want};
use super::track::Track;
use crate::error::{Error, ErrorKind, Warning, WarningKind};
use crate::limits::{MAX_NAME, MAX_UNIT};
use crate::{AnimationInfo, BoneInfo, FileInfo, Flow, Format, FrameType, Unit, UnitKind, Visitor};

const CHUNK_HEADER: usize = 8;
/// `ANPK` header and the `INFO` header with its animation count.
const BLOCK_HEADER: usize = CHUNK_HEADER + CHUNK_HEADER + 4;
/// After an animation's name: the `DGAN` and `INFO` headers and the object count.
const ANIMATION_HEADER: usize = CHUNK_HEADER + CHUNK_HEADER + 4;
/// Where an animation's skipped INFO fields begin, from its DGAN chunk.
const SKIPPED_INFO_AT: u64 = ANIMATION_HEADER as u64;
/// `CPAN` and `ANIM` headers.
const OBJECT_HEADER: usize = CHUNK_HEADER + CHUNK_HEADER;
const OBJECT_NAME: usize = 28;
/// ANIM payload sizes: with a bone id (Vice City) and without (GTA III).
const ANIM_WITH_BONE_ID: u32 = 44;
const ANIM_WITHOUT_BONE_ID: u32 = 48;
/// Smallest animation and object, for checking that a count can fit.
const MIN_ANIMATION: u64 = (CHUNK_HEADER + ANIMATION_HEADER) as u64;
const MIN_OBJECT: u64 = OBJECT_HEADER as u64 + ANIM_WITH_BONE_ID as u64;
const MIN_FRAME: u64 = 20;
/// Objects of an animation whose names are kept for the duplicate check (see `bones`): fewer
/// than IFP2's, the decoder's size allows no more. A repeat of an early name (Vice City's
/// `ped.ifp` repeats `Root`) is found wherever it comes.
pub(crate) const NAMED_BONES: usize = 6;

/// Chunk payloads are padded to a multiple of 4.
#[inline]
fn padded(size: u32) -> u64 {
    (u64::from(size) + 3) & !3
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    ContainerHeader,
    /// An `ANLF` of no blocks: still a file.
    EmptyContainer,
    BlockHeader,
    PackageName,
    NameHeader,
    AnimationHeader,
    SkipInfo,
    ObjectHeader,
    ObjectBody,
    KeyframeHeader,
    Frames,
    EmptyKeyframes,
    CheckObjectSize,
    BoneEnd,
    CheckAnimationSize,
    AnimationEnd,
    CheckBlockSize,
    CheckContainerSize,
    Done,
}

#[derive(Clone, Debug)]
pub(crate) struct Anpk {
    stage: Stage,
    checks: Checks,
    /// `ANLF`: the container's `size` field and the blocks still to come.
    container: Option<u32>,
    blocks_left: u32,
    block_at: u64,
    block_size: u32,
    /// The block `INFO` and the current `NAME` chunks' `size` fields, as stored.
    info_size: u32,
    name_size: u32,
    /// Padded length of the name field being read next.
    name_field: u32,
    animation_count: u32,
    /// The current animation's position in its block.
    animation: u32,
    /// `ANLF`: the animations of the blocks before this one, so that an animation's index is
    /// its position in the whole file (docs/FORMATS.md §1.4), not in its block.
    earlier_blocks: u32,
    animation_at: u64,
    dgan_size: u32,
    /// INFO payload bytes after the object count, skipped.
    info_rest: u32,
    /// The animation's unit: whether it begins with the NAME chunk header (so that it fits the
    /// carry buffer), and how many INFO bytes after the count it holds (`None`: not decided).
    name_in_unit: bool,
    info_in_unit: Option<u32>,
    object_count: u32,
    object: u32,
    object_at: u64,
    cpan_size: u32,
    anim_size: u32,
    frame_count: u32,
    names: BoneNames<NAMED_BONES>,
    track: Track,
}

#[inline]
fn tag_check(tag: &[u8], expected: &[u8; 4], offset: u64) -> Check {
    (tag != expected, WarningKind::UnexpectedTag, offset)
}

struct BlockHeader<'a> {
    tag: &'a [u8],
    size: u32,
    info_tag: &'a [u8],
    info_size: u32,
    animation_count: i32,
}

#[inline]
fn block_header(i: &[u8]) -> IResult<&[u8], BlockHeader<'_>> {
    let (i, (tag, size, info_tag, info_size, animation_count)) =
        (take(4usize), le_u32, take(4usize), le_u32, le_i32).parse(i)?;
    Ok((
        i,
        BlockHeader {
            tag,
            size,
            info_tag,
            info_size,
            animation_count,
        },
    ))
}

#[inline]
fn chunk_header(i: &[u8]) -> IResult<&[u8], (&[u8], u32)> {
    (take(4usize), le_u32).parse(i)
}

struct AnimationHeader<'a> {
    name: &'a [u8],
    dgan_tag: &'a [u8],
    dgan_size: u32,
    info_tag: &'a [u8],
    info_size: u32,
    object_count: i32,
}

#[inline]
fn animation_header(name_field: usize) -> impl Fn(&[u8]) -> IResult<&[u8], AnimationHeader<'_>> {
    move |i| {
        let (i, (name, dgan_tag, dgan_size, info_tag, info_size, object_count)) = (
            take(name_field),
            take(4usize),
            le_u32,
            take(4usize),
            le_u32,
            le_i32,
        )
            .parse(i)?;
        Ok((
            i,
            AnimationHeader {
                name: c_name(name),
                dgan_tag,
                dgan_size,
                info_tag,
                info_size,
                object_count,
            },
        ))
    }
}

struct ObjectHeader<'a> {
    cpan_tag: &'a [u8],
    cpan_size: u32,
    anim_tag: &'a [u8],
    anim_size: u32,
}

#[inline]
fn object_header(i: &[u8]) -> IResult<&[u8], ObjectHeader<'_>> {
    let (i, (cpan_tag, cpan_size, anim_tag, anim_size)) =
        (take(4usize), le_u32, take(4usize), le_u32).parse(i)?;
    Ok((
        i,
        ObjectHeader {
            cpan_tag,
            cpan_size,
            anim_tag,
            anim_size,
        },
    ))
}

/// The ANIM payload: name, frame count, two ignored fields, then the bone id (44-byte form)
/// or two unused fields (48-byte form).
struct ObjectBody<'a> {
    name: &'a [u8],
    frame_count: i32,
    bone_id: Option<i32>,
}

#[inline]
fn object_body(i: &[u8]) -> IResult<&[u8], ObjectBody<'_>> {
    let (rest, (name, frame_count, _, _)) = (take(OBJECT_NAME), le_i32, le_i32, le_i32).parse(i)?;
    let (rest, bone_id) = if i.len() == ANIM_WITH_BONE_ID as usize {
        let (rest, id) = le_i32.parse(rest)?;
        (rest, Some(id))
    } else {
        (rest, None)
    };
    Ok((
        rest,
        ObjectBody {
            name: c_name(name),
            frame_count,
            bone_id,
        },
    ))
}

/// A count read as `i32`: negative is as impossible as too large.
#[inline]
fn count(value: i32, at: u64) -> Result<u32, Error> {
    u32::try_from(value).map_err(|_| Error::new(ErrorKind::CountTooLarge, at))
}

/// The padded length of a name field of `size` bytes, within the documented bound.
#[inline]
fn name_field(size: u64, chunk_at: u64) -> Result<u32, Error> {
    if size > MAX_NAME as u64 {
        return Err(Error::new(ErrorKind::Limit, chunk_at));
    }
    Ok(size as u32)
}

impl Anpk {
    /// A decoder for one `ANPK` block, or (`container`) for an `ANLF` file of several.
    pub(crate) fn new(container: bool) -> Self {
        Anpk {
            stage: if container {
                Stage::ContainerHeader
            } else {
                Stage::BlockHeader
            },
            checks: Checks::new(),
            container: None,
            blocks_left: 1,
            block_at: 0,
            block_size: 0,
            info_size: 0,
            name_size: 0,
            name_field: 0,
            animation_count: 0,
            animation: 0,
            earlier_blocks: 0,
            animation_at: 0,
            dgan_size: 0,
            info_rest: 0,
            name_in_unit: false,
            info_in_unit: None,
            object_count: 0,
            object: 0,
            object_at: 0,
            cpan_size: 0,
            anim_size: 0,
            frame_count: 0,
            names: BoneNames::new(),
            track: Track::new(FrameType::Kr00, 0),
        }
    }

    /// Warns when the `size` of the chunk at `chunk_at` disagrees with where it really ends.
    fn size_check<V: Visitor>(&self, chunk_at: u64, size: u32, end: u64, visitor: &mut V) -> Flow {
        let header_end = chunk_at + CHUNK_HEADER as u64;
        if u64::from(size) + header_end != end {
            visitor.warning(Warning {
                kind: WarningKind::SizeMismatch,
                offset: chunk_at + 4,
            })
        } else {
            Flow::Continue
        }
    }

    fn container_header<V: Visitor>(
        &mut self,
        unit: &[u8],
        at: u64,
        _visitor: &mut V,
    ) -> Result<Stepped, Error> {
        let (_, size, blocks) = parse(|i| (take(4usize), le_u32, le_i32).parse(i), unit, at)?;
        let blocks = count(blocks, at)?;
        check_fits(at + unit.len() as u64, blocks, BLOCK_HEADER as u64, at)?;
        self.container = Some(size);
        self.blocks_left = blocks;
        self.stage = if blocks > 0 {
            Stage::BlockHeader
        } else {
            Stage::EmptyContainer
        };
        Ok(Stepped::new(unit.len(), Flow::Continue))
    }

    fn block_header<V: Visitor>(
        &mut self,
        unit: &[u8],
        at: u64,
        visitor: &mut V,
    ) -> Result<Stepped, Error> {
        let header = parse(block_header, unit, at)?;
        let info_at = at + CHUNK_HEADER as u64;
        let animation_count = count(header.animation_count, at)?;
        // The INFO payload is the count, then the name: at least the count.
        let Some(name_size) = padded(header.info_size).checked_sub(4) else {
            return Err(Error::new(ErrorKind::Malformed, info_at));
        };
        let name_field = name_field(name_size, info_at)?;
        let names_end = at + unit.len() as u64 + u64::from(name_field);
        check_fits(names_end, animation_count, MIN_ANIMATION, at)?;
        let checks = [
            tag_check(header.tag, b"ANPK", at),
            tag_check(header.info_tag, b"INFO", info_at),
        ];
        if let Some(warning) = self.checks.report(&checks, visitor) {
            return Ok(warning);
        }
        self.block_at = at;
        self.block_size = header.size;
        self.info_size = header.info_size;
        self.animation_count = animation_count;
        self.animation = 0;
        self.name_field = name_field;
        self.stage = Stage::PackageName;
        // The package name's unit holds this header too.
        Ok(Stepped::new(0, Flow::Continue))
    }

    fn name_header<V: Visitor>(
        &mut self,
        unit: &[u8],
        at: u64,
        visitor: &mut V,
    ) -> Result<Stepped, Error> {
        let (tag, size) = parse(chunk_header, unit, at)?;
        let name_field = name_field(padded(size), at)?;
        if let Some(warning) = self.checks.report(&[tag_check(tag, b"NAME", at)], visitor) {
            return Ok(warning);
        }
        self.name_field = name_field;
        self.name_size = size;
        self.stage = Stage::AnimationHeader;
        // The animation's unit holds this header too, if both fit the carry buffer.
        self.name_in_unit = CHUNK_HEADER + name_field as usize + ANIMATION_HEADER <= MAX_UNIT;
        let consumed = if self.name_in_unit { 0 } else { unit.len() };
        Ok(Stepped::new(consumed, Flow::Continue))
    }

    /// The animation's unit: the NAME chunk header where it fits, the name, the DGAN and INFO
    /// headers, and the INFO fields after the count where they fit too.
    fn animation_unit(&self) -> usize {
        let lead = if self.name_in_unit { CHUNK_HEADER } else { 0 };
        lead + self.name_field as usize + ANIMATION_HEADER + self.info_in_unit.unwrap_or(0) as usize
    }

    fn animation_header<V: Visitor>(
        &mut self,
        unit: &[u8],
        at: u64,
        visitor: &mut V,
    ) -> Result<Stepped, Error> {
        let lead = if self.name_in_unit { CHUNK_HEADER } else { 0 };
        let name_at = at + lead as u64;
        let header = parse(
            animation_header(self.name_field as usize),
            &unit[lead.min(unit.len())..],
            name_at,
        )?;
        let dgan_at = name_at + u64::from(self.name_field);
        let info_at = dgan_at + CHUNK_HEADER as u64;
        let object_count = count(header.object_count, name_at)?;
        let Some(info_rest) = padded(header.info_size).checked_sub(4) else {
            return Err(Error::new(ErrorKind::Malformed, info_at));
        };
        if self.info_in_unit.is_none() {
            // The INFO fields after the count join the unit if they fit: ask for it again.
            let fits = unit.len() as u64 + info_rest <= MAX_UNIT as u64;
            let inline = if fits { info_rest as u32 } else { 0 };
            self.info_in_unit = Some(inline);
            if inline > 0 {
                return Ok(Stepped::new(0, Flow::Continue));
            }
        }
        let inline = self.info_in_unit.unwrap_or(0);
        let objects_from = at + unit.len() as u64 + info_rest - u64::from(inline);
        check_fits(objects_from, object_count, MIN_OBJECT, name_at)?;
        let checks = [
            tag_check(header.dgan_tag, b"DGAN", dgan_at),
            tag_check(header.info_tag, b"INFO", info_at),
        ];
        if let Some(warning) = self.checks.report(&checks, visitor) {
            return Ok(warning);
        }
        self.info_in_unit = None;
        self.animation_at = dgan_at;
        self.dgan_size = header.dgan_size;
        // `check_fits` bounded `info_rest` below 4 GiB.
        self.info_rest = info_rest as u32 - inline;
        self.object_count = object_count;
        self.object = 0;
        self.names.clear();
        self.stage = if self.info_rest > 0 {
            Stage::SkipInfo
        } else {
            self.after_object()
        };
        visitor.unit(&Unit::at(UnitKind::Animation, name_at));
        let flow = visitor.animation(&AnimationInfo {
            index: self.earlier_blocks.saturating_add(self.animation),
            name: header.name,
            bone_count: object_count,
            frame_data_size: None,
            flags: None,
            duration: None,
            name_size: Some(self.name_size),
            info_size: Some(header.info_size),
            // Only a whole unit is of use to a writer.
            raw: if self.name_in_unit && self.info_rest == 0 {
                unit
            } else {
                &[]
            },
        });
        Ok(Stepped::new(unit.len(), flow))
    }

    fn object_header<V: Visitor>(
        &mut self,
        unit: &[u8],
        at: u64,
        visitor: &mut V,
    ) -> Result<Stepped, Error> {
        let header = parse(object_header, unit, at)?;
        let anim_at = at + CHUNK_HEADER as u64;
        if header.anim_size != ANIM_WITH_BONE_ID && header.anim_size != ANIM_WITHOUT_BONE_ID {
            return Err(Error::new(ErrorKind::Malformed, anim_at));
        }
        let checks = [
            tag_check(header.cpan_tag, b"CPAN", at),
            tag_check(header.anim_tag, b"ANIM", anim_at),
        ];
        if let Some(warning) = self.checks.report(&checks, visitor) {
            return Ok(warning);
        }
        self.object_at = at;
        self.cpan_size = header.cpan_size;
        self.anim_size = header.anim_size;
        self.stage = Stage::ObjectBody;
        // The ANIM payload's unit holds these headers too.
        Ok(Stepped::new(0, Flow::Continue))
    }

    /// The duplicate-name check of the current object: a name kept from an earlier object of
    /// the animation, reported at this object's chunk.
    fn duplicate(&self, name: &[u8]) -> Check {
        (
            self.names.contains(name),
            WarningKind::DuplicateBone,
            self.object_at,
        )
    }

    /// The object's unit up to the end of its ANIM chunk.
    fn object_unit(&self) -> usize {
        OBJECT_HEADER + self.anim_size as usize
    }

    /// The ANIM payload (after the CPAN and ANIM headers): the frame count decides what the
    /// unit of the bone event is.
    fn object_body(&mut self, unit: &[u8], at: u64) -> Result<Stepped, Error> {
        let body_at = at + OBJECT_HEADER as u64;
        let body = parse(object_body, &unit[OBJECT_HEADER.min(unit.len())..], body_at)?;
        let frame_count = count(body.frame_count, body_at)?;
        check_fits(at + unit.len() as u64, frame_count, MIN_FRAME, body_at)?;
        self.frame_count = frame_count;
        // The bone event waits for the keyframe chunk, which names the frame type (or, without
        // keyframes, for the empty chunk one exporter writes).
        self.stage = if frame_count > 0 {
            Stage::KeyframeHeader
        } else {
            Stage::EmptyKeyframes
        };
        Ok(Stepped::new(0, Flow::Continue))
    }

    /// The bone event, for the object's whole unit (`frame_type`: from its keyframe chunk).
    fn bone_event<V: Visitor>(
        &mut self,
        unit: &[u8],
        at: u64,
        frame_type: FrameType,
        checks: &[Check],
        visitor: &mut V,
    ) -> Result<Option<Stepped>, Error> {
        let body_at = at + OBJECT_HEADER as u64;
        let body_end = self.object_unit().min(unit.len());
        let body = parse(
            object_body,
            &unit[OBJECT_HEADER.min(body_end)..body_end],
            body_at,
        )?;
        let duplicate = self.duplicate(body.name);
        let mut all = [duplicate; 2];
        all[..checks.len()].copy_from_slice(checks);
        all[checks.len()] = duplicate;
        if let Some(warning) = self.checks.report(&all[..=checks.len()], visitor) {
            return Ok(Some(warning));
        }
        if !duplicate.0 {
            self.names.insert(body.name);
        }
        visitor.unit(&Unit::at(UnitKind::Bone, self.object_at));
        let flow = visitor.bone(&BoneInfo {
            index: self.object,
            name: Some(body.name),
            bone_id: body.bone_id,
            bone_key: None,
            frame_type,
            frame_count: self.frame_count,
            anim_size: Some(self.anim_size),
            raw: unit,
        });
        Ok(Some(Stepped::new(unit.len(), flow)))
    }

    fn keyframe_header<V: Visitor>(
        &mut self,
        unit: &[u8],
        at: u64,
        visitor: &mut V,
    ) -> Result<Stepped, Error> {
        let header_at = at + self.object_unit() as u64;
        let (tag, size) = parse(
            chunk_header,
            &unit[self.object_unit().min(unit.len())..],
            header_at,
        )?;
        let frame_type = FrameType::from_anpk_tag(tag)
            .ok_or(Error::new(ErrorKind::UnknownFrameType, header_at))?;
        let frame_bytes = u64::from(self.frame_count) * frame_type.size() as u64;
        let size_check = (
            u64::from(size) != frame_bytes,
            WarningKind::SizeMismatch,
            header_at + 4,
        );
        let stepped = self.bone_event(unit, at, frame_type, &[size_check], visitor)?;
        if stepped.is_some_and(|s| s.consumed > 0) {
            self.track = Track::new(frame_type, self.frame_count);
            self.stage = Stage::Frames;
        }
        Ok(stepped.unwrap_or(Stepped::new(0, Flow::Continue)))
    }

    /// An object without keyframes: its unit ends with the empty keyframe chunk one exporter
    /// writes, if there is one.
    fn empty_object<V: Visitor>(
        &mut self,
        unit: &[u8],
        at: u64,
        visitor: &mut V,
    ) -> Result<Stepped, Error> {
        let object = self.object_unit().min(unit.len());
        let empty_chunk = parse(chunk_header, &unit[object..], at + object as u64)
            .ok()
            .filter(|&(tag, size)| {
                size == 0 && (tag == b"K000" || FrameType::from_anpk_tag(tag).is_some())
            });
        let unit = if empty_chunk.is_some() {
            unit
        } else {
            &unit[..object]
        };
        let stepped = self.bone_event(unit, at, FrameType::Kr00, &[], visitor)?;
        if stepped.is_some_and(|s| s.consumed > 0) {
            self.stage = Stage::CheckObjectSize;
            if empty_chunk.is_some() {
                // The checker reads the empty chunk as a unit of its own, after the bone.
                visitor.unit(&Unit {
                    bytes: &unit[object..object + CHUNK_HEADER],
                    ..Unit::at(UnitKind::EmptyKeyframeChunk, at + object as u64)
                });
            }
        }
        Ok(stepped.unwrap_or(Stepped::new(0, Flow::Continue)))
    }

    #[inline]
    fn after_object(&self) -> Stage {
        if self.object < self.object_count {
            Stage::ObjectHeader
        } else {
            Stage::CheckAnimationSize
        }
    }

    #[inline]
    fn after_animation(&self) -> Stage {
        if self.animation < self.animation_count {
            Stage::NameHeader
        } else {
            Stage::CheckBlockSize
        }
    }
}

impl Step for Anpk {
    #[inline]
    fn want(&self) -> Want {
        match self.stage {
            Stage::ContainerHeader => Want::Unit(12),
            Stage::BlockHeader => Want::Unit(BLOCK_HEADER),
            Stage::PackageName => Want::Unit(BLOCK_HEADER + self.name_field as usize),
            Stage::NameHeader => Want::Unit(CHUNK_HEADER),
            Stage::KeyframeHeader => Want::Unit(self.object_unit() + CHUNK_HEADER),
            Stage::AnimationHeader => Want::Unit(self.animation_unit()),
            Stage::SkipInfo => Want::Skip {
                from: self.animation_at + SKIPPED_INFO_AT,
                left: self.info_rest,
            },
            Stage::ObjectHeader => Want::Unit(OBJECT_HEADER),
            Stage::ObjectBody => Want::Unit(self.object_unit()),
            Stage::Frames => self.track.want(),
            Stage::EmptyKeyframes => Want::Peek(self.object_unit() + CHUNK_HEADER),
            Stage::CheckObjectSize
            | Stage::BoneEnd
            | Stage::CheckAnimationSize
            | Stage::AnimationEnd
            | Stage::CheckBlockSize
            | Stage::CheckContainerSize
            | Stage::EmptyContainer => Want::Unit(0),
            Stage::Done => Want::Done,
        }
    }

    fn step<V: Visitor>(
        &mut self,
        unit: &[u8],
        at: u64,
        visitor: &mut V,
    ) -> Result<Stepped, Error> {
        let consumed = unit.len();
        let flow = match self.stage {
            Stage::ContainerHeader => return self.container_header(unit, at, visitor),
            Stage::BlockHeader => return self.block_header(unit, at, visitor),
            Stage::PackageName => {
                self.stage = self.after_animation();
                visitor.file(&FileInfo {
                    format: Format::Anpk,
                    name: Some(c_name(&unit[BLOCK_HEADER.min(unit.len())..])),
                    animation_count: self.animation_count,
                    instance_count: None,
                    car_count: None,
                    info_size: Some(self.info_size),
                    container_size: self.container,
                    rw_version: None,
                    raw: unit,
                })
            }
            Stage::NameHeader => return self.name_header(unit, at, visitor),
            Stage::AnimationHeader => return self.animation_header(unit, at, visitor),
            Stage::SkipInfo => {
                self.info_rest -= consumed as u32;
                if self.info_rest == 0 {
                    self.stage = self.after_object();
                }
                Flow::Continue
            }
            Stage::ObjectHeader => return self.object_header(unit, at, visitor),
            Stage::ObjectBody => return self.object_body(unit, at),
            Stage::KeyframeHeader => return self.keyframe_header(unit, at, visitor),
            Stage::Frames => {
                let stepped = self.track.deliver(unit, at, visitor);
                if self.track.left == 0 {
                    self.stage = Stage::CheckObjectSize;
                }
                return Ok(stepped);
            }
            Stage::EmptyKeyframes => return self.empty_object(unit, at, visitor),
            Stage::CheckObjectSize => {
                self.stage = Stage::BoneEnd;
                self.size_check(self.object_at, self.cpan_size, at, visitor)
            }
            Stage::BoneEnd => {
                self.object += 1;
                self.stage = self.after_object();
                visitor.bone_end()
            }
            Stage::CheckAnimationSize => {
                self.stage = Stage::AnimationEnd;
                self.size_check(self.animation_at, self.dgan_size, at, visitor)
            }
            Stage::AnimationEnd => {
                self.animation += 1;
                self.stage = self.after_animation();
                visitor.animation_end()
            }
            Stage::CheckBlockSize => {
                self.blocks_left -= 1;
                // Saturates only past 4 billion animations, which no input can hold
                // (`check_fits` bounds each block's count by its bytes).
                self.earlier_blocks = self.earlier_blocks.saturating_add(self.animation_count);
                self.stage = match (self.blocks_left, self.container) {
                    (0, Some(_)) => Stage::CheckContainerSize,
                    (0, None) => Stage::Done,
                    _ => Stage::BlockHeader,
                };
                self.size_check(self.block_at, self.block_size, at, visitor)
            }
            Stage::EmptyContainer => {
                self.stage = Stage::CheckContainerSize;
                visitor.file(&FileInfo {
                    format: Format::Anpk,
                    name: None,
                    animation_count: 0,
                    instance_count: None,
                    car_count: None,
                    info_size: None,
                    container_size: self.container,
                    rw_version: None,
                    raw: &[],
                })
            }
            Stage::CheckContainerSize => {
                self.stage = Stage::Done;
                self.size_check(0, self.container.unwrap_or(0), at, visitor)
            }
            Stage::Done => Flow::Continue,
        };
        Ok(Stepped::new(consumed, flow))
    }
}
