//! Stories `.anim` files: GTA Liberty City Stories and Vice City Stories (docs/FORMATS.md §3).
//!
//! A relocatable memory image: records are reached through u32 file offsets, in any order.
//! The machine walks them in event order and asks the decoder to go to each one
//! ([`Want::Goto`]): forward is a skip (or, beyond the chunk at hand, a seek), backward a seek. It stores no offset it can read
//! again: after a bone's keyframes it re-reads the next bone row, after an animation the
//! next entry of the offset table.
//!
//! The offset table's length is not stored. It ends at the first zero entry, entry outside
//! `[0x20, fileEnd)`, position reached by the lowest animation offset, or position that the
//! relocation table does not list. The last rule needs the relocation table: one pass over it
//! marks, in a bitmap of [`STORIES_WINDOW`] positions, which of the table's positions it lists; the
//! first unmarked one ends the table. A table longer than the bitmap takes one pass per
//! [`STORIES_WINDOW`] entries (files hold a few hundred animations: one pass).

use nom::bytes::complete::take;
use nom::number::complete::{le_f32, le_i16, le_u16, le_u32, le_u8};
use nom::{IResult, Parser};

use super::fields::{c_name, check_fits, parse};
use super::protocol::{Step, Stepped, Want};
use super::track::Track;
use crate::limits::STORIES_WINDOW;
use crate::{
    AnimationInfo, BoneInfo, Error, ErrorKind, FileInfo, Flow, Format, FrameType, Unit, UnitKind,
    Visitor,
};

const HEADER: usize = 0x20;
const TABLE_AT: u64 = 0x20;
const ENTRY: usize = 4;
/// The LCS record; VCS adds an unknown i32 that is never read.
const RECORD: usize = 0x24;
const BONE_ROW: usize = 12;
const NAME: usize = 24;
/// Where `numRelocs` lies, for its error.
const NUM_RELOCS_AT: u64 = 0x14;

const FLAG_ROTATION: u16 = 0x01;
const FLAG_TRANSLATION: u16 = 0x02;
const FLAG_SCALE: u16 = 0x04;
const FLAG_BONE_ID: u16 = 0x10;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    Header,
    TableEntry,
    Relocations,
    File,
    Entry,
    Record,
    Row,
    Frames,
    BoneEnd,
    AnimationEnd,
    /// Through to `fileEnd`: the file must be that long.
    ReadToEnd,
    /// On the way to `target`; then `after`.
    Goto,
    Done,
}

#[derive(Clone, Debug)]
pub(crate) struct Stories {
    stage: Stage,
    target: u64,
    after: Stage,
    file_end: u32,
    reloc_at: u32,
    reloc_count: u32,
    /// Offset table entries accepted so far, and the lowest animation offset among them.
    entries: u32,
    lowest: u32,
    /// The relocation passes: entries from `window_start` on that the relocation table
    /// lists, one bit each.
    window_start: u32,
    listed: [u64; STORIES_WINDOW / 64],
    relocs_left: u32,
    animation: u32,
    bone_table: u32,
    bone_count: u16,
    bone: u16,
    track: Track,
}

struct Header {
    file_end: u32,
    reloc_at: u32,
    reloc_count: u32,
}

#[inline]
fn header(i: &[u8]) -> IResult<&[u8], Header> {
    let (i, (_ident, _shrink, file_end, _data_end, reloc_at, reloc_count, _global)) =
        (le_u32, le_u32, le_u32, le_u32, le_u32, le_u32, take(8usize)).parse(i)?;
    Ok((
        i,
        Header {
            file_end,
            reloc_at,
            reloc_count,
        },
    ))
}

struct Record<'a> {
    bone_table: u32,
    name: &'a [u8],
    bone_count: i16,
    duration: f32,
}

#[inline]
fn record(i: &[u8]) -> IResult<&[u8], Record<'_>> {
    let (i, (bone_table, name, bone_count, _, _, duration)) =
        (le_u32, take(NAME), le_i16, le_u8, le_u8, le_f32).parse(i)?;
    Ok((
        i,
        Record {
            bone_table,
            name: c_name(name),
            bone_count,
            duration,
        },
    ))
}

struct Row {
    flags: u16,
    frame_count: i16,
    frames: u32,
    key: u32,
}

#[inline]
fn row(i: &[u8]) -> IResult<&[u8], Row> {
    let (i, (flags, frame_count, frames, key)) = (le_u16, le_i16, le_u32, le_u32).parse(i)?;
    Ok((
        i,
        Row {
            flags,
            frame_count,
            frames,
            key,
        },
    ))
}

#[inline]
fn u32_le(bytes: &[u8]) -> u32 {
    u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])
}

impl Stories {
    pub(crate) fn new() -> Self {
        Stories {
            stage: Stage::Header,
            target: 0,
            after: Stage::Done,
            file_end: 0,
            reloc_at: 0,
            reloc_count: 0,
            entries: 0,
            lowest: u32::MAX,
            window_start: 0,
            listed: [0; STORIES_WINDOW / 64],
            relocs_left: 0,
            animation: 0,
            bone_table: 0,
            bone_count: 0,
            bone: 0,
            track: Track::new(FrameType::StoriesRot, 0),
        }
    }

    #[inline]
    fn goto(&mut self, target: impl Into<u64>, after: Stage) -> Stage {
        self.target = target.into();
        self.after = after;
        Stage::Goto
    }

    fn row<V: Visitor>(&mut self, unit: &[u8], at: u64, visitor: &mut V) -> Result<Flow, Error> {
        let row = parse(row, unit, at)?;
        let translation = row.flags & FLAG_TRANSLATION != 0;
        if row.flags & FLAG_SCALE != 0 || (translation && row.flags & FLAG_ROTATION == 0) {
            return Err(Error::new(ErrorKind::Malformed, at));
        }
        let frame_count =
            u16::try_from(row.frame_count).map_err(|_| Error::new(ErrorKind::CountTooLarge, at))?;
        let frame_type = if translation {
            FrameType::StoriesRotTrans
        } else {
            FrameType::StoriesRot
        };
        self.track = Track::new(frame_type, u32::from(frame_count));
        // A bone without keyframes may hold a garbage offset: it is never followed.
        self.stage = if frame_count > 0 {
            self.goto(row.frames, Stage::Frames)
        } else {
            Stage::BoneEnd
        };
        // With flag 0x10 the key's low 16 bits are the bone id.
        let bone_id = (row.flags & FLAG_BONE_ID != 0).then_some(i32::from(row.key as u16 as i16));
        visitor.unit(&Unit::at(UnitKind::Bone, at));
        Ok(visitor.bone(&BoneInfo {
            index: u32::from(self.bone),
            name: crate::bone_names::stories_bone_name(row.key, bone_id.is_some()),
            bone_id,
            bone_key: Some(row.key),
            frame_type,
            frame_count: u32::from(frame_count),
            anim_size: None,
            raw: &[],
        }))
    }

    /// The offset table goes on unless its next position is where an animation begins or
    /// lies outside the file.
    #[inline]
    fn next_table_entry(&mut self, position: u64) -> Stage {
        let end = u64::from(self.lowest.min(self.file_end));
        if position + ENTRY as u64 <= end {
            Stage::TableEntry
        } else {
            self.start_relocation_passes()
        }
    }

    /// The table found so far holds `entries`; the relocation table must list each of their
    /// positions, or the table ends at the first it does not.
    #[inline]
    fn start_relocation_passes(&mut self) -> Stage {
        if self.entries == 0 || self.reloc_count == 0 {
            self.entries = 0;
            return Stage::File;
        }
        self.begin_pass(0)
    }

    #[inline]
    fn begin_pass(&mut self, window_start: u32) -> Stage {
        self.window_start = window_start;
        self.listed = [0; STORIES_WINDOW / 64];
        self.relocs_left = self.reloc_count;
        self.goto(self.reloc_at, Stage::Relocations)
    }

    /// Marks the table entry at `position`, if it lies in this pass's window.
    #[inline]
    fn mark_listed(&mut self, position: u32) {
        let Some(from_table) = position.checked_sub(TABLE_AT as u32) else {
            return;
        };
        if !from_table.is_multiple_of(ENTRY as u32) {
            return;
        }
        let index = (from_table / ENTRY as u32).wrapping_sub(self.window_start) as usize;
        if index < STORIES_WINDOW {
            self.listed[index / 64] |= 1 << (index % 64);
        }
    }

    #[inline]
    fn after_relocation_pass(&mut self) -> Stage {
        let in_window = (self.entries - self.window_start).min(STORIES_WINDOW as u32) as usize;
        let unlisted = (0..in_window).find(|&i| self.listed[i / 64] & (1 << (i % 64)) == 0);
        match unlisted {
            Some(i) => self.entries = self.window_start + i as u32,
            None if self.entries - self.window_start > STORIES_WINDOW as u32 => {
                return self.begin_pass(self.window_start + STORIES_WINDOW as u32);
            }
            None => {}
        }
        Stage::File
    }

    #[inline]
    fn next_animation(&mut self) -> Stage {
        if self.animation < self.entries {
            let entry_at = TABLE_AT + u64::from(self.animation) * ENTRY as u64;
            self.goto(entry_at, Stage::Entry)
        } else {
            Stage::ReadToEnd
        }
    }

    #[inline]
    fn next_bone(&mut self) -> Stage {
        if self.bone < self.bone_count {
            let row_at = u64::from(self.bone_table) + u64::from(self.bone) * BONE_ROW as u64;
            self.goto(row_at, Stage::Row)
        } else {
            Stage::AnimationEnd
        }
    }
}

impl Step for Stories {
    #[inline]
    fn want(&self) -> Want {
        match self.stage {
            Stage::Header => Want::Unit(HEADER),
            Stage::TableEntry | Stage::Entry => Want::Unit(ENTRY),
            Stage::Relocations => Want::Records {
                size: ENTRY,
                count: self.relocs_left,
            },
            Stage::Record => Want::Unit(RECORD),
            Stage::Row => Want::Unit(BONE_ROW),
            Stage::Frames => self.track.want(),
            Stage::File | Stage::BoneEnd | Stage::AnimationEnd => Want::Unit(0),
            Stage::Goto => Want::Goto(self.target),
            Stage::ReadToEnd => Want::ReadTo(u64::from(self.file_end)),
            Stage::Done => Want::Done,
        }
    }

    fn step<V: Visitor>(
        &mut self,
        unit: &[u8],
        at: u64,
        visitor: &mut V,
    ) -> Result<Stepped, Error> {
        let flow = match self.stage {
            Stage::Header => {
                let header = parse(header, unit, at)?;
                check_fits(
                    u64::from(header.reloc_at),
                    header.reloc_count,
                    ENTRY as u64,
                    NUM_RELOCS_AT,
                )?;
                self.file_end = header.file_end;
                self.reloc_at = header.reloc_at;
                self.reloc_count = header.reloc_count;
                self.stage = self.next_table_entry(at + unit.len() as u64);
                Flow::Continue
            }
            Stage::TableEntry => {
                let entry = u32_le(unit);
                let valid = entry >= TABLE_AT as u32 && entry < self.file_end;
                if valid {
                    self.entries += 1;
                    self.lowest = self.lowest.min(entry);
                    self.stage = self.next_table_entry(at + ENTRY as u64);
                } else {
                    self.stage = self.start_relocation_passes();
                }
                Flow::Continue
            }
            Stage::Relocations => {
                for position in unit.chunks_exact(ENTRY).map(u32_le) {
                    self.mark_listed(position);
                }
                self.relocs_left -= (unit.len() / ENTRY) as u32;
                if self.relocs_left == 0 {
                    self.stage = self.after_relocation_pass();
                }
                Flow::Continue
            }
            Stage::File => {
                self.stage = self.next_animation();
                visitor.file(&FileInfo {
                    container_size: None,
                    rw_version: None,
                    format: Format::Anim,
                    name: None,
                    animation_count: self.entries,
                    instance_count: None,
                    car_count: None,
                    info_size: None,
                    raw: &[],
                })
            }
            Stage::Entry => {
                let record_at = u32_le(unit);
                self.stage = self.goto(record_at, Stage::Record);
                Flow::Continue
            }
            Stage::Record => {
                let record = parse(record, unit, at)?;
                let bone_count = u16::try_from(record.bone_count)
                    .map_err(|_| Error::new(ErrorKind::CountTooLarge, at))?;
                self.bone_table = record.bone_table;
                self.bone_count = bone_count;
                self.bone = 0;
                self.stage = self.next_bone();
                visitor.unit(&Unit::at(UnitKind::Animation, at));
                visitor.animation(&AnimationInfo {
                    index: self.animation,
                    name: record.name,
                    bone_count: u32::from(bone_count),
                    frame_data_size: None,
                    flags: None,
                    duration: Some(record.duration),
                    name_size: None,
                    info_size: None,
                    raw: &[],
                })
            }
            Stage::Row => self.row(unit, at, visitor)?,
            Stage::Frames => {
                let stepped = self.track.deliver(unit, at, visitor);
                if self.track.left == 0 {
                    self.stage = Stage::BoneEnd;
                }
                return Ok(stepped);
            }
            Stage::BoneEnd => {
                self.bone += 1;
                self.stage = self.next_bone();
                visitor.bone_end()
            }
            Stage::AnimationEnd => {
                self.animation += 1;
                self.stage = self.next_animation();
                visitor.animation_end()
            }
            Stage::ReadToEnd => {
                // Archive copies may run past `fileEnd`; a copy that stops short is truncated.
                self.stage = Stage::Done;
                Flow::Continue
            }
            Stage::Goto => {
                self.stage = self.after;
                Flow::Continue
            }
            Stage::Done => Flow::Continue,
        };
        Ok(Stepped::new(unit.len(), flow))
    }
}
