//! IFP version 2: San Andreas `ANP3` and `ANP2` animation packages (docs/FORMATS.md §2).
//!
//! Units: the 36-byte file header, a 36-byte (ANP3) or 28-byte (ANP2) animation header, a
//! 36-byte bone header, then the bone's keyframes as records of the frame type's size.

use nom::bytes::complete::take;
use nom::number::complete::le_u32;
use nom::{IResult, Parser};

use super::bones::BoneNames;
use super::fields::{c_name, check_fits, parse, record, u32_at};
use super::protocol::{Step, Stepped, Want};
use super::track::Track;
use crate::error::{Error, ErrorKind, Warning, WarningKind};
use crate::{AnimationInfo, BoneInfo, FileInfo, Flow, Format, FrameType, Unit, UnitKind, Visitor};

const NAME_SIZE: usize = 24;
const FILE_HEADER_SIZE: usize = 4 + 4 + NAME_SIZE + 4;
const BONE_HEADER_SIZE: usize = NAME_SIZE + 4 + 4 + 4;
/// Offsets of `frameDataSize` and `flags` inside an ANP3 animation header.
const FRAME_DATA_SIZE_AT: u64 = NAME_SIZE as u64 + 4;
const FLAGS_AT: u64 = FRAME_DATA_SIZE_AT + 4;
/// The header's `size` counts the bytes after the magic and itself.
const SIZE_FIELD_AT: u64 = 4;
const SIZE_BASE: u64 = 8;
/// The smallest keyframe record, for checking that a frame count can fit.
const MIN_FRAME_SIZE: u64 = 10;
/// Bones of an animation whose names are kept for the duplicate check (see `bones`): San
/// Andreas skeletons have 32 bones at most, and real animations repeat early ones (`Root`).
pub(crate) const NAMED_BONES: usize = 20;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Version {
    Anp3,
    Anp2,
}

impl Version {
    #[inline]
    fn animation_header_size(self) -> usize {
        match self {
            Version::Anp3 => NAME_SIZE + 4 + 4 + 4,
            Version::Anp2 => NAME_SIZE + 4,
        }
    }

    #[inline]
    fn format(self) -> Format {
        match self {
            Version::Anp3 => Format::Anp3,
            Version::Anp2 => Format::Anp2,
        }
    }
}

/// Where the machine is; each stage is one step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    FileHeader,
    AnimationHeader,
    BoneHeader,
    Frames,
    BoneEnd,
    CheckFrameDataSize,
    CheckFlags,
    AnimationEnd,
    CheckSize,
    Done,
}

#[derive(Clone, Debug)]
pub(crate) struct Ifp2 {
    version: Version,
    stage: Stage,
    size_field: u32,
    animation_count: u32,
    animation: u32,
    /// Offset of the current animation's header, for its warnings.
    animation_at: u64,
    frame_data_size: u32,
    flags: u32,
    /// Keyframe bytes the current animation's bones declare so far.
    frame_bytes: u64,
    packed_seen: bool,
    bone_count: u32,
    bone: u32,
    /// The current bone's duplicate-name warning was reported; its event comes next.
    duplicate_reported: bool,
    names: BoneNames<NAMED_BONES>,
    track: Track,
}

struct FileHeader<'a> {
    size: u32,
    name: &'a [u8],
    animation_count: u32,
}

struct AnimationHeader<'a> {
    name: &'a [u8],
    bone_count: u32,
    frame_data_size: u32,
    flags: u32,
}

struct BoneHeader<'a> {
    name: &'a [u8],
    frame_type: u32,
    frame_count: u32,
    bone_id: i32,
}

#[inline]
fn file_header(i: &[u8]) -> IResult<&[u8], FileHeader<'_>> {
    let (i, (_magic, size, name, animation_count)) =
        (take(4usize), le_u32, take(NAME_SIZE), le_u32).parse(i)?;
    Ok((
        i,
        FileHeader {
            size,
            name: c_name(name),
            animation_count,
        },
    ))
}

#[inline]
fn animation_header(version: Version) -> impl Fn(&[u8]) -> IResult<&[u8], AnimationHeader<'_>> {
    move |i| {
        let (i, (name, bone_count)) = (take(NAME_SIZE), le_u32).parse(i)?;
        let (i, (frame_data_size, flags)) = match version {
            Version::Anp3 => (le_u32, le_u32).parse(i)?,
            Version::Anp2 => (i, (0, 0)),
        };
        Ok((
            i,
            AnimationHeader {
                name: c_name(name),
                bone_count,
                frame_data_size,
                flags,
            },
        ))
    }
}

/// The bone header, the unit of every bone, read at its fixed offsets: no parser combinators
/// (whose calls a build without cross-crate inlining keeps) on the hot path.
#[inline]
fn bone_header(unit: &[u8; BONE_HEADER_SIZE]) -> BoneHeader<'_> {
    const FIELDS_AT: usize = NAME_SIZE / 4;
    BoneHeader {
        name: c_name(&unit[..NAME_SIZE]),
        frame_type: u32_at(unit, FIELDS_AT),
        frame_count: u32_at(unit, FIELDS_AT + 1),
        bone_id: u32_at(unit, FIELDS_AT + 2) as i32,
    }
}

impl Ifp2 {
    pub(crate) fn format(&self) -> Format {
        self.version.format()
    }

    pub(crate) fn new(version: Version) -> Self {
        Ifp2 {
            version,
            stage: Stage::FileHeader,
            size_field: 0,
            animation_count: 0,
            animation: 0,
            animation_at: 0,
            frame_data_size: 0,
            flags: 0,
            frame_bytes: 0,
            packed_seen: false,
            bone_count: 0,
            bone: 0,
            duplicate_reported: false,
            names: BoneNames::new(),
            track: Track::new(FrameType::Ifp2PackedRot, 0),
        }
    }

    fn file_header<V: Visitor>(
        &mut self,
        unit: &[u8],
        at: u64,
        visitor: &mut V,
    ) -> Result<Flow, Error> {
        let header = parse(file_header, unit, at)?;
        let min_animation = self.version.animation_header_size() as u64;
        check_fits(
            at + unit.len() as u64,
            header.animation_count,
            min_animation,
            at,
        )?;
        self.size_field = header.size;
        self.animation_count = header.animation_count;
        self.stage = self.after_animation();
        Ok(visitor.file(&FileInfo {
            container_size: None,
            rw_version: None,
            format: self.version.format(),
            name: Some(header.name),
            animation_count: header.animation_count,
            instance_count: None,
            car_count: None,
            info_size: None,
            raw: unit,
        }))
    }

    fn animation_header<V: Visitor>(
        &mut self,
        unit: &[u8],
        at: u64,
        visitor: &mut V,
    ) -> Result<Flow, Error> {
        let header = parse(animation_header(self.version), unit, at)?;
        check_fits(
            at + unit.len() as u64,
            header.bone_count,
            BONE_HEADER_SIZE as u64,
            at,
        )?;
        self.animation_at = at;
        self.frame_data_size = header.frame_data_size;
        self.flags = header.flags;
        self.frame_bytes = 0;
        self.packed_seen = false;
        self.bone_count = header.bone_count;
        self.bone = 0;
        self.names.clear();
        self.stage = self.after_bone();
        let anp3 = self.version == Version::Anp3;
        visitor.unit(&Unit::at(UnitKind::Animation, at));
        Ok(visitor.animation(&AnimationInfo {
            index: self.animation,
            name: header.name,
            bone_count: header.bone_count,
            frame_data_size: anp3.then_some(header.frame_data_size),
            flags: anp3.then_some(header.flags),
            duration: None,
            name_size: None,
            info_size: None,
            raw: unit,
        }))
    }

    /// The bone header: a warning first if the bone repeats an earlier bone's name (the
    /// step then consumes nothing, and is taken again for the bone).
    fn bone_header<V: Visitor>(
        &mut self,
        unit: &[u8; BONE_HEADER_SIZE],
        at: u64,
        visitor: &mut V,
    ) -> Result<Stepped, Error> {
        let header = bone_header(unit);
        visitor.unit(&Unit::at(UnitKind::Bone, at));
        let frame_type = FrameType::from_ifp2(header.frame_type)
            .ok_or(Error::new(ErrorKind::UnknownFrameType, at))?;
        check_fits(
            at + unit.len() as u64,
            header.frame_count,
            MIN_FRAME_SIZE,
            at,
        )?;
        let duplicate = self.names.seen(header.name);
        if duplicate && !self.duplicate_reported {
            self.duplicate_reported = true;
            let flow = visitor.warning(Warning {
                kind: WarningKind::DuplicateBone,
                offset: at,
            });
            return Ok(Stepped::new(0, flow));
        }
        self.duplicate_reported = false;
        self.track = Track::new(frame_type, header.frame_count);
        self.frame_bytes += u64::from(header.frame_count) * frame_type.size() as u64;
        self.packed_seen |= frame_type.is_packed();
        self.stage = if header.frame_count > 0 {
            Stage::Frames
        } else {
            Stage::BoneEnd
        };
        let flow = visitor.bone(&BoneInfo {
            index: self.bone,
            name: Some(header.name),
            bone_id: Some(header.bone_id),
            bone_key: None,
            frame_type,
            frame_count: header.frame_count,
            anim_size: None,
            raw: unit,
        });
        Ok(Stepped::new(unit.len(), flow))
    }

    #[inline]
    fn bone_end<V: Visitor>(&mut self, visitor: &mut V) -> Flow {
        self.bone += 1;
        self.stage = self.after_bone();
        visitor.bone_end()
    }

    fn warn_if<V: Visitor>(
        &self,
        cond: bool,
        kind: WarningKind,
        field: u64,
        visitor: &mut V,
    ) -> Flow {
        if cond {
            visitor.warning(Warning {
                kind,
                offset: self.animation_at + field,
            })
        } else {
            Flow::Continue
        }
    }

    #[inline]
    fn after_bone(&self) -> Stage {
        if self.bone < self.bone_count {
            Stage::BoneHeader
        } else {
            Stage::CheckFrameDataSize
        }
    }

    #[inline]
    fn after_animation(&self) -> Stage {
        if self.animation < self.animation_count {
            Stage::AnimationHeader
        } else {
            Stage::CheckSize
        }
    }
}

impl Step for Ifp2 {
    #[inline]
    fn want(&self) -> Want {
        match self.stage {
            Stage::FileHeader => Want::Unit(FILE_HEADER_SIZE),
            Stage::AnimationHeader => Want::Unit(self.version.animation_header_size()),
            Stage::BoneHeader => Want::Unit(BONE_HEADER_SIZE),
            Stage::Frames => self.track.want(),
            Stage::BoneEnd
            | Stage::CheckFrameDataSize
            | Stage::CheckFlags
            | Stage::AnimationEnd
            | Stage::CheckSize => Want::Unit(0),
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
            Stage::FileHeader => self.file_header(unit, at, visitor)?,
            Stage::AnimationHeader => self.animation_header(unit, at, visitor)?,
            Stage::BoneHeader => return self.bone_header(record(unit, at)?, at, visitor),
            Stage::Frames => {
                let stepped = self.track.deliver(unit, at, visitor);
                if self.track.left == 0 {
                    self.stage = Stage::BoneEnd;
                    // The bone's end follows its last keyframes in the same step when the
                    // visitor goes on: a step per bone less (about 100 instructions, a tenth
                    // of a bone's cost in the C API, PERFORMANCE.md). Paused or aborted there,
                    // it ends as its own step would: past the bone, or an error at its offset.
                    if stepped.flow == Flow::Continue {
                        let end_at = at + stepped.consumed as u64;
                        return match self.bone_end(visitor) {
                            Flow::Abort => Err(Error::new(ErrorKind::Aborted, end_at)),
                            flow => Ok(Stepped::new(stepped.consumed, flow)),
                        };
                    }
                }
                return Ok(stepped);
            }
            Stage::BoneEnd => self.bone_end(visitor),
            Stage::CheckFrameDataSize => {
                self.stage = Stage::CheckFlags;
                let declared = u64::from(self.frame_data_size);
                let mismatch = self.version == Version::Anp3 && declared != self.frame_bytes;
                self.warn_if(
                    mismatch,
                    WarningKind::FrameDataSizeMismatch,
                    FRAME_DATA_SIZE_AT,
                    visitor,
                )
            }
            Stage::CheckFlags => {
                self.stage = Stage::AnimationEnd;
                let clear = self.version == Version::Anp3 && self.flags & 1 == 0;
                self.warn_if(
                    clear && self.packed_seen,
                    WarningKind::CompressedFlagClear,
                    FLAGS_AT,
                    visitor,
                )
            }
            Stage::AnimationEnd => {
                self.animation += 1;
                self.stage = self.after_animation();
                visitor.animation_end()
            }
            Stage::CheckSize => {
                self.stage = Stage::Done;
                if u64::from(self.size_field) + SIZE_BASE != at {
                    visitor.warning(Warning {
                        kind: WarningKind::SizeMismatch,
                        offset: SIZE_FIELD_AT,
                    })
                } else {
                    Flow::Continue
                }
            }
            Stage::Done => Flow::Continue,
        };
        Ok(Stepped::new(consumed, flow))
    }
}
