//! Reference decoders of ANPK and Stories files, and the ANPK and Stories tests' way of running
//! the kit's driver.
//!
//! - [`decode`]: the kit's driver ([`crate::driver`]) cut as a [`Feed`] says, following seeks,
//!   logging with the kit's log ([`crate::log`]).
//! - [`anpk_reference`]: a whole-buffer ANPK/ANLF decoder written from docs/FORMATS.md §1 and the
//!   project's rules (counts and sizes drive decoding, tags are only checked), with a map of
//!   where every chunk lies, for patching fixtures.
//! - [`stories_reference`]: a random-access Stories decoder written from docs/FORMATS.md §3, which
//!   also records the order in which a front-to-back decoder must read the units (for seeks,
//!   `SeekRequired` and truncation offsets).
//!
//! Neither reference shares code with the crate: they say what a correct decoder must report.

use std::collections::HashSet;

use gtastream::{ErrorKind, Format, FrameType, Keyframe, WarningKind};

use crate::driver::drive_cut;

/// Files of these formats address their contents with 32-bit offsets.
pub const FOUR_GIB: u64 = 1 << 32;

// ------------------------------------------------------------------------------------------
// The event log and the driver: the kit's ([`crate::log`], [`crate::driver`])

pub use crate::driver::Cut as Feed;
pub use crate::log::{error_of, keyframes, warnings, without_warnings, Bits, Ev, Policy};

/// What one decode did.
#[derive(Debug)]
pub struct Run {
    /// Every event, ending with `End` (a clean `finish`) or `Error`.
    pub log: Vec<Ev>,
    /// The offsets of the `Status::Seek` answers that go back, in order.
    pub seeks: Vec<u64>,
    /// `Status::Paused` answers.
    pub pauses: usize,
    /// Visitor calls (a batch of keyframes is one).
    pub calls: usize,
    /// Of which made by `finish` (which does not honour pauses).
    pub finish_calls: usize,
}

/// Decodes `data` as a caller holding it in memory, with the kit's driver
/// ([`crate::driver::drive_with`]): feeds it as `feed` says, follows seeks (with `can_seek`),
/// re-feeds the rest after a pause, finishes, and checks the driver-level contract.
pub fn decode(data: &[u8], feed: &Feed, can_seek: bool, policy: Policy) -> Run {
    let out = drive_cut(data, feed, policy, can_seek);
    Run {
        log: out.logged(),
        seeks: out.seeks,
        pauses: out.pauses.len(),
        calls: out.calls,
        finish_calls: out.finish_calls,
    }
}

/// The log of a seeking caller.
pub fn log_of(data: &[u8], feed: &Feed) -> Vec<Ev> {
    decode(data, feed, true, Policy::Continue).log
}

/// The log of a caller that cannot seek.
pub fn log_no_seek(data: &[u8], feed: &Feed) -> Vec<Ev> {
    decode(data, feed, false, Policy::Continue).log
}

// ------------------------------------------------------------------------------------------
// Little helpers for reading and writing fixtures

pub fn u16_at(d: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([d[at], d[at + 1]])
}

pub fn u32_at(d: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([d[at], d[at + 1], d[at + 2], d[at + 3]])
}

pub fn i32_at(d: &[u8], at: usize) -> i32 {
    u32_at(d, at) as i32
}

pub fn f32_at(d: &[u8], at: usize) -> f32 {
    f32::from_bits(u32_at(d, at))
}

pub fn put_u32(d: &mut [u8], at: u64, v: u32) {
    let at = at as usize;
    d[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

pub fn put_i32(d: &mut [u8], at: u64, v: i32) {
    put_u32(d, at, v as u32);
}

pub fn get_u32(d: &[u8], at: u64) -> u32 {
    u32_at(d, at as usize)
}

/// Adds `delta` to the u32 at `at` (a size field).
pub fn bump_u32(d: &mut [u8], at: u64, delta: i64) {
    let v = get_u32(d, at) as i64 + delta;
    put_u32(d, at, v as u32);
}

/// The bytes of a `char[N]` field up to its first NUL.
pub fn c_name(field: &[u8]) -> Vec<u8> {
    field.iter().take_while(|&&b| b != 0).copied().collect()
}

/// `x` rounded up to a multiple of 4.
pub fn pad4(x: u64) -> u64 {
    x.div_ceil(4) * 4
}

/// The offset of the first non-zero byte of `d` at or after `from`.
fn first_non_zero(d: &[u8], from: u64) -> Option<u64> {
    let from = usize::try_from(from).ok()?;
    d.get(from..)?
        .iter()
        .position(|&b| b != 0)
        .map(|i| (from + i) as u64)
}

// ------------------------------------------------------------------------------------------
// ANPK reference (docs/FORMATS.md §1)

/// Where an ANPK file's chunks lie.
#[derive(Clone, Debug, Default)]
pub struct AnpkMap {
    pub blocks: Vec<BlockMap>,
}

#[derive(Clone, Debug, Default)]
pub struct BlockMap {
    /// The `ANPK` chunk.
    pub at: u64,
    /// The `INFO` chunk (header), and the package name field.
    pub info: u64,
    pub name_field: u64,
    pub animations: Vec<AnimMap>,
    pub end: u64,
}

#[derive(Clone, Debug, Default)]
pub struct AnimMap {
    /// The `NAME` chunk, its name field, the `DGAN` chunk and the `INFO` chunk after it.
    pub name_chunk: u64,
    pub name_field: u64,
    pub dgan: u64,
    pub info: u64,
    pub objects: Vec<ObjMap>,
    pub end: u64,
}

#[derive(Clone, Debug, Default)]
pub struct ObjMap {
    /// The `CPAN` chunk, the `ANIM` chunk and its payload.
    pub cpan: u64,
    pub anim: u64,
    pub body: u64,
    pub frame_count: i32,
    /// The keyframe chunk of an object with frames, or the empty chunk consumed after one
    /// without.
    pub keyframes: Option<u64>,
    pub end: u64,
}

/// What the ANPK reference made of a file.
#[derive(Clone, Debug)]
pub struct AnpkRef {
    pub log: Vec<Ev>,
    pub map: AnpkMap,
}

struct Anpk<'a> {
    d: &'a [u8],
    log: Vec<Ev>,
    map: AnpkMap,
    /// The current animation's first object names, lower case (the duplicate check).
    names: Vec<Vec<u8>>,
}

/// Objects of an ANPK animation whose names the duplicate check keeps (the crate's bound).
pub const ANPK_NAMED_BONES: usize = 6;

type Step<T> = Result<T, Ev>;

fn fail<T>(kind: ErrorKind, at: u64) -> Step<T> {
    Err(Ev::Error(kind, at))
}

/// The smallest animation (`NAME`, `DGAN`, `INFO` headers and the object count), object
/// (`CPAN` and `ANIM` headers and a 44-byte `ANIM`), frame (`KR00`) and block (`ANPK` and
/// `INFO` headers, the count).
const MIN_ANIMATION: u64 = 8 + 8 + 8 + 4;
const MIN_OBJECT: u64 = 8 + 8 + 44;
const MIN_FRAME: u64 = 20;
const MIN_BLOCK: u64 = 8 + 8 + 4;
/// The decoder's carry buffer: the largest unit.
const MAX_UNIT: u64 = 256 + 20;

/// Decodes a stored ANPK keyframe of `size` bytes: floats, time last, quaternion conjugated.
pub fn anpk_frame(record: &[u8]) -> Keyframe {
    let v: Vec<f32> = (0..record.len() / 4)
        .map(|i| f32_at(record, 4 * i))
        .collect();
    let n = v.len();
    let mut k = Keyframe {
        time: v[n - 1],
        rotation: [-v[0], -v[1], -v[2], v[3]],
        ..Keyframe::default()
    };
    if n >= 8 {
        k.translation = [v[4], v[5], v[6]];
    }
    if n == 11 {
        k.scale = [v[7], v[8], v[9]];
    }
    k
}

impl<'a> Anpk<'a> {
    fn get(&self, at: u64, len: u64) -> Step<&'a [u8]> {
        match at.checked_add(len) {
            Some(end) if end <= self.d.len() as u64 => Ok(&self.d[at as usize..end as usize]),
            _ => fail(ErrorKind::Truncated, at),
        }
    }

    fn warn(&mut self, kind: WarningKind, at: u64) {
        self.log.push(Ev::Warning(kind, at));
    }

    fn tag(&mut self, tag: &[u8], expected: &[u8; 4], at: u64) {
        if tag != expected {
            self.warn(WarningKind::UnexpectedTag, at);
        }
    }

    fn size(&mut self, chunk: u64, size: u32, end: u64) {
        if chunk + 8 + u64::from(size) != end {
            self.warn(WarningKind::SizeMismatch, chunk + 4);
        }
    }

    fn file(&mut self) -> Step<u64> {
        if self.d.is_empty() {
            return fail(ErrorKind::Empty, 0);
        }
        let magic = self.get(0, 4)?;
        match magic {
            b"ANPK" => self.block(0),
            b"ANLF" => {
                let h = self.get(0, 12)?;
                let (size, count) = (u32_at(h, 4), i32_at(h, 8));
                if count < 0 || 12 + count as u64 * MIN_BLOCK > FOUR_GIB {
                    return fail(ErrorKind::CountTooLarge, 0);
                }
                let mut pos = 12;
                for _ in 0..count {
                    pos = self.block(pos)?;
                }
                self.size(0, size, pos);
                Ok(pos)
            }
            _ => fail(ErrorKind::BadMagic, 0),
        }
    }

    fn block(&mut self, at: u64) -> Step<u64> {
        let h = self.get(at, 20)?;
        let info = at + 8;
        let count = i32_at(h, 16);
        if count < 0 {
            return fail(ErrorKind::CountTooLarge, at);
        }
        let info_payload = pad4(u64::from(u32_at(h, 12)));
        if info_payload < 4 {
            return fail(ErrorKind::Malformed, info);
        }
        let name_len = info_payload - 4;
        if name_len > 256 {
            return fail(ErrorKind::Limit, info);
        }
        let name_field = at + 20;
        if name_field + name_len + count as u64 * MIN_ANIMATION > FOUR_GIB {
            return fail(ErrorKind::CountTooLarge, at);
        }
        self.tag(&h[0..4], b"ANPK", at);
        self.tag(&h[8..12], b"INFO", info);
        // The package name is one unit with the header (docs/FORMATS.md §9.7).
        let name = &self.get(at, 20 + name_len)?[20..];
        self.log.push(Ev::File {
            format: Format::Anpk,
            name: Some(c_name(name)),
            animation_count: count as u32,
            instance_count: None,
            car_count: None,
        });
        // An ANLF's animations are numbered across the whole file (docs/FORMATS.md §1.4).
        let earlier: usize = self.map.blocks.iter().map(|b| b.animations.len()).sum();
        self.map.blocks.push(BlockMap {
            at,
            info,
            name_field,
            ..BlockMap::default()
        });
        let mut pos = name_field + name_len;
        for index in 0..count as u32 {
            pos = self.animation(earlier as u32 + index, pos)?;
        }
        self.size(at, u32_at(h, 4), pos);
        self.map.blocks.last_mut().unwrap().end = pos;
        Ok(pos)
    }

    fn animation(&mut self, index: u32, at: u64) -> Step<u64> {
        let h = self.get(at, 8)?;
        let field = pad4(u64::from(u32_at(h, 4)));
        if field > 256 {
            return fail(ErrorKind::Limit, at);
        }
        self.tag(&h[0..4], b"NAME", at);
        let name_field = at + 8;
        // One unit from the NAME chunk on where it fits the decoder's 276-byte carry buffer
        // (else from the name on), with the INFO fields after the count if they fit too.
        let unit_at = if 8 + field + 20 <= MAX_UNIT {
            at
        } else {
            name_field
        };
        let lead = (name_field - unit_at) as usize;
        let base = lead as u64 + field + 20;
        let u = &self.get(unit_at, base)?[lead..];
        let f = field as usize;
        let dgan = name_field + field;
        let info = dgan + 8;
        let count = i32_at(u, f + 16);
        if count < 0 {
            return fail(ErrorKind::CountTooLarge, name_field);
        }
        let info_payload = pad4(u64::from(u32_at(u, f + 12)));
        if info_payload < 4 {
            return fail(ErrorKind::Malformed, info);
        }
        let mut skip = info_payload - 4;
        if skip > 0 && base + skip <= MAX_UNIT {
            self.get(unit_at, base + skip)?;
            skip = 0;
        }
        let mut pos = info + 12 + (info_payload - 4 - skip);
        if pos + skip + count as u64 * MIN_OBJECT > FOUR_GIB {
            return fail(ErrorKind::CountTooLarge, name_field);
        }
        self.tag(&u[f..f + 4], b"DGAN", dgan);
        self.tag(&u[f + 8..f + 12], b"INFO", info);
        self.log.push(Ev::Animation {
            index,
            name: c_name(&u[..f]),
            bone_count: count as u32,
            frame_data_size: None,
            flags: None,
            duration: None,
        });
        self.map
            .blocks
            .last_mut()
            .unwrap()
            .animations
            .push(AnimMap {
                name_chunk: at,
                name_field,
                dgan,
                info,
                ..AnimMap::default()
            });
        self.names.clear();
        // The INFO payload after the count is skipped: it must be there all the same.
        self.get(pos, skip)?;
        pos += skip;
        for index in 0..count as u32 {
            pos = self.object(index, pos)?;
        }
        self.size(dgan, u32_at(u, f + 4), pos);
        self.log.push(Ev::AnimationEnd);
        let block = self.map.blocks.last_mut().unwrap();
        block.animations.last_mut().unwrap().end = pos;
        Ok(pos)
    }

    /// A name repeating one of the animation's first names kept: a warning at the object.
    fn check_name(&mut self, name: &[u8], at: u64) {
        let name = name.to_ascii_lowercase();
        if name.is_empty() {
            return;
        }
        if self.names.contains(&name) {
            self.warn(WarningKind::DuplicateBone, at);
        } else if self.names.len() < ANPK_NAMED_BONES {
            self.names.push(name);
        }
    }

    fn object(&mut self, index: u32, at: u64) -> Step<u64> {
        let h = self.get(at, 16)?;
        let anim = at + 8;
        let anim_size = u32_at(h, 12);
        if anim_size != 44 && anim_size != 48 {
            return fail(ErrorKind::Malformed, anim);
        }
        self.tag(&h[0..4], b"CPAN", at);
        self.tag(&h[8..12], b"ANIM", anim);
        let body_at = at + 16;
        // The object is one unit from the CPAN chunk on (docs/FORMATS.md §9.7).
        let body = &self.get(at, 16 + u64::from(anim_size))?[16..];
        let name = c_name(&body[..28]);
        let count = i32_at(body, 28);
        let bone_id = (anim_size == 44).then(|| i32_at(body, 40));
        if count < 0 {
            return fail(ErrorKind::CountTooLarge, body_at);
        }
        let mut pos = body_at + u64::from(anim_size);
        if pos + count as u64 * MIN_FRAME > FOUR_GIB {
            return fail(ErrorKind::CountTooLarge, body_at);
        }
        let mut obj = ObjMap {
            cpan: at,
            anim,
            body: body_at,
            frame_count: count,
            ..ObjMap::default()
        };
        let bone = |frame_type, frames| Ev::Bone {
            index,
            name: Some(name.clone()),
            bone_id,
            bone_key: None,
            frame_type,
            frame_count: frames,
        };
        if count > 0 {
            let k = &self.get(at, pos - at + 8)?[(pos - at) as usize..];
            let (frame_type, size) = match &k[0..4] {
                b"KR00" => (FrameType::Kr00, 20),
                b"KRT0" => (FrameType::Krt0, 32),
                b"KRTS" => (FrameType::Krts, 44),
                _ => return fail(ErrorKind::UnknownFrameType, pos),
            };
            if u64::from(u32_at(k, 4)) != count as u64 * size {
                self.warn(WarningKind::SizeMismatch, pos + 4);
            }
            self.check_name(&name, at);
            self.log.push(bone(frame_type, count as u32));
            obj.keyframes = Some(pos);
            pos += 8;
            let mut previous: Option<f32> = None;
            let mut warned = false;
            for _ in 0..count {
                let record = self.get(pos, size)?;
                let frame = anpk_frame(record);
                if previous.is_some_and(|p| frame.time < p) && !warned {
                    warned = true;
                    self.warn(WarningKind::TimeBackwards, pos);
                }
                previous = Some(frame.time);
                self.log.push(Ev::Frame {
                    frame_type,
                    bytes: record.to_vec(),
                    frame: Bits(frame),
                    raw: None,
                    exact: None,
                });
                pos += size;
            }
        } else {
            self.check_name(&name, at);
            self.log.push(bone(FrameType::Kr00, 0));
            // An empty keyframe chunk may stand here; it is used only if all 8 bytes are.
            if let Ok(chunk) = self.get(pos, 8) {
                let tag_ok = matches!(&chunk[0..4], b"K000" | b"KR00" | b"KRT0" | b"KRTS");
                if tag_ok && u32_at(chunk, 4) == 0 {
                    obj.keyframes = Some(pos);
                    pos += 8;
                }
            }
        }
        self.size(at, u32_at(h, 4), pos);
        self.log.push(Ev::BoneEnd);
        obj.end = pos;
        let block = self.map.blocks.last_mut().unwrap();
        block.animations.last_mut().unwrap().objects.push(obj);
        Ok(pos)
    }
}

/// What a correct decoder reports for `data` (whole, or a prefix of a file) as ANPK or ANLF.
pub fn anpk_reference(data: &[u8]) -> AnpkRef {
    let mut a = Anpk {
        d: data,
        log: Vec::new(),
        map: AnpkMap::default(),
        names: Vec::new(),
    };
    match a.file() {
        Ok(end) => {
            if let Some(at) = first_non_zero(data, end) {
                a.warn(WarningKind::TrailingData, at);
            }
            a.log.push(Ev::End);
        }
        Err(error) => a.log.push(error),
    }
    AnpkRef {
        log: a.log,
        map: a.map,
    }
}

// ------------------------------------------------------------------------------------------
// Stories reference (docs/FORMATS.md §3)

/// One step of a front-to-back decoder of a Stories file: a unit it reads, or an event.
#[derive(Clone, Debug, PartialEq)]
pub enum Read {
    Unit { at: u64, len: u64 },
    Event(Ev),
}

/// What the Stories reference made of a file.
#[derive(Clone, Debug)]
pub struct StoriesRef {
    /// The units in the order a decoder must read them, and the events between them.
    pub steps: Vec<Read>,
    /// Whether the relocation table ended the offset table before the other rules did.
    pub cut_by_relocations: bool,
}

impl StoriesRef {
    /// The events.
    pub fn log(&self) -> Vec<Ev> {
        self.steps
            .iter()
            .filter_map(|s| match s {
                Read::Event(e) => Some(e.clone()),
                Read::Unit { .. } => None,
            })
            .collect()
    }

    /// The offsets a seeking caller is asked to go back to, in order.
    pub fn seeks(&self) -> Vec<u64> {
        let mut pos = 0;
        let mut seeks = Vec::new();
        for s in &self.steps {
            if let Read::Unit { at, len } = *s {
                if at < pos {
                    seeks.push(at);
                }
                pos = at + len;
            }
        }
        seeks
    }

    /// The log of a caller that cannot seek: the events up to the first unit that lies
    /// behind what was read, then `SeekRequired` at that unit.
    pub fn no_seek_log(&self) -> Vec<Ev> {
        let mut pos = 0;
        let mut log = Vec::new();
        for s in &self.steps {
            match s {
                Read::Unit { at, len } => {
                    if *at < pos {
                        log.push(Ev::Error(ErrorKind::SeekRequired, *at));
                        return log;
                    }
                    pos = at + len;
                }
                Read::Event(e) => log.push(e.clone()),
            }
        }
        log
    }
}

/// IEEE 754 binary16 to `f32`, from the definition: sign, 5-bit exponent (bias 15), 10-bit
/// fraction; exponent 0 is zero or subnormal (fraction × 2⁻²⁴), 31 infinity or NaN.
pub fn half_value(h: u16) -> f32 {
    let negative = h & 0x8000 != 0;
    let exponent = i32::from((h >> 10) & 0x1f);
    let fraction = f64::from(h & 0x3ff);
    let magnitude = match exponent {
        0 => fraction * 2f64.powi(-24),
        31 if fraction == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        e => (1.0 + fraction / 1024.0) * 2f64.powi(e - 15),
    };
    let value = magnitude as f32;
    if negative {
        -value
    } else {
        value
    }
}

/// A stored Stories keyframe (10 or 16 bytes): `clock` is the bone's time before it.
pub fn stories_frame(record: &[u8], clock: &mut f32) -> Keyframe {
    let h: Vec<f32> = (0..record.len() / 2)
        .map(|i| half_value(u16_at(record, 2 * i)))
        .collect();
    *clock += h[4];
    let mut k = Keyframe {
        time: *clock,
        rotation: [-h[0], -h[1], -h[2], h[3]],
        ..Keyframe::default()
    };
    if h.len() == 8 {
        k.translation = [h[5], h[6], h[7]];
    }
    k
}

struct Stories<'a> {
    d: &'a [u8],
    steps: Vec<Read>,
    /// Where the last unit read ends.
    pos: u64,
    cut_by_relocations: bool,
}

impl<'a> Stories<'a> {
    fn read(&mut self, at: u64, len: u64) -> Step<&'a [u8]> {
        self.steps.push(Read::Unit { at, len });
        self.pos = at + len;
        if at + len > self.d.len() as u64 {
            return fail(ErrorKind::Truncated, at);
        }
        Ok(&self.d[at as usize..(at + len) as usize])
    }

    fn event(&mut self, e: Ev) {
        self.steps.push(Read::Event(e));
    }

    fn file(&mut self) -> Step<()> {
        if self.d.is_empty() {
            return fail(ErrorKind::Empty, 0);
        }
        // The magic is the first field of the header, which is read as one unit.
        if self.d.len() >= 4 && &self.d[..4] != b"mina" {
            return fail(ErrorKind::BadMagic, 0);
        }
        let h = self.read(0, 0x20)?;
        let file_end = u64::from(u32_at(h, 0x08));
        let reloc_tab = u64::from(u32_at(h, 0x10));
        let relocs = u64::from(u32_at(h, 0x14));
        if reloc_tab + 4 * relocs > FOUR_GIB {
            return fail(ErrorKind::CountTooLarge, 0x14);
        }
        // The offset table: up to a zero entry, an entry outside [0x20, fileEnd), or the
        // position where the lowest animation seen so far begins (or the file ends).
        let mut lowest = u64::MAX;
        let mut entries = 0u64;
        loop {
            let position = 0x20 + 4 * entries;
            if position + 4 > lowest.min(file_end) {
                break;
            }
            let entry = u64::from(u32_at(self.read(position, 4)?, 0));
            if entry == 0 || entry < 0x20 || entry >= file_end {
                break;
            }
            lowest = lowest.min(entry);
            entries += 1;
        }
        // ... and up to the first position the relocation table does not list.
        if entries > 0 && relocs > 0 {
            let mut listed = HashSet::new();
            for k in 0..relocs {
                listed.insert(u64::from(u32_at(self.read(reloc_tab + 4 * k, 4)?, 0)));
            }
            let kept = (0..entries)
                .take_while(|i| listed.contains(&(0x20 + 4 * i)))
                .count() as u64;
            // The decoder checks the table in windows of 512 positions, one pass over the
            // relocation table each, up to the window that holds the first gap.
            const WINDOW: u64 = 512;
            let passes = if kept < entries {
                kept / WINDOW + 1
            } else {
                entries.div_ceil(WINDOW)
            };
            for _ in 1..passes {
                self.steps.push(Read::Unit {
                    at: reloc_tab,
                    len: 4 * relocs,
                });
                self.pos = reloc_tab + 4 * relocs;
            }
            self.cut_by_relocations = kept < entries;
            entries = kept;
        } else {
            entries = 0;
        }
        self.event(Ev::File {
            format: Format::Anim,
            name: None,
            animation_count: entries as u32,
            instance_count: None,
            car_count: None,
        });
        for index in 0..entries {
            let record_at = u64::from(u32_at(self.read(0x20 + 4 * index, 4)?, 0));
            self.animation(index as u32, record_at)?;
        }
        if self.pos < file_end {
            self.read(file_end, 0)?;
        }
        Ok(())
    }

    fn animation(&mut self, index: u32, at: u64) -> Step<()> {
        let r = self.read(at, 0x24)?;
        let bone_table = u64::from(u32_at(r, 0));
        let bones = u16_at(r, 0x1C) as i16;
        if bones < 0 {
            return fail(ErrorKind::CountTooLarge, at);
        }
        self.event(Ev::Animation {
            index,
            name: c_name(&r[4..28]),
            bone_count: bones as u32,
            frame_data_size: None,
            flags: None,
            duration: Some(u32_at(r, 0x20)),
        });
        for j in 0..bones as u64 {
            self.bone(j as u32, bone_table + 12 * j)?;
        }
        self.event(Ev::AnimationEnd);
        Ok(())
    }

    fn bone(&mut self, index: u32, at: u64) -> Step<()> {
        let row = self.read(at, 12)?;
        let flags = u16_at(row, 0);
        let count = u16_at(row, 2) as i16;
        let frames_at = u64::from(u32_at(row, 4));
        let key = u32_at(row, 8);
        let rotation = flags & 0x01 != 0;
        let translation = flags & 0x02 != 0;
        if flags & 0x04 != 0 || (translation && !rotation) {
            return fail(ErrorKind::Malformed, at);
        }
        if count < 0 {
            return fail(ErrorKind::CountTooLarge, at);
        }
        let (frame_type, size) = if translation {
            (FrameType::StoriesRotTrans, 16)
        } else {
            (FrameType::StoriesRot, 10)
        };
        self.event(Ev::Bone {
            index,
            name: None,
            bone_id: (flags & 0x10 != 0).then_some(i32::from(key as u16 as i16)),
            bone_key: Some(key),
            frame_type,
            frame_count: count as u32,
        });
        let mut clock = 0f32;
        let mut previous: Option<f32> = None;
        let mut warned = false;
        for k in 0..count as u64 {
            let at = frames_at + k * size;
            let record = self.read(at, size)?;
            let frame = stories_frame(record, &mut clock);
            if previous.is_some_and(|p| frame.time < p) && !warned {
                warned = true;
                self.event(Ev::Warning(WarningKind::TimeBackwards, at));
            }
            previous = Some(frame.time);
            self.event(Ev::Frame {
                frame_type,
                bytes: record.to_vec(),
                frame: Bits(frame),
                raw: None,
                exact: None,
            });
        }
        self.event(Ev::BoneEnd);
        Ok(())
    }
}

/// What a correct decoder reports for `data` (whole, or a prefix of a file) as a Stories file.
pub fn stories_reference(data: &[u8]) -> StoriesRef {
    let mut s = Stories {
        d: data,
        steps: Vec::new(),
        pos: 0,
        cut_by_relocations: false,
    };
    match s.file() {
        Ok(()) => {
            let file_end = u64::from(u32_at(data, 0x08));
            if let Some(at) = first_non_zero(data, s.pos.max(file_end)) {
                s.event(Ev::Warning(WarningKind::TrailingData, at));
            }
            s.event(Ev::End);
        }
        Err(error) => s.event(error),
    }
    StoriesRef {
        steps: s.steps,
        cut_by_relocations: s.cut_by_relocations,
    }
}

// ------------------------------------------------------------------------------------------
// Packages (feature `alloc`)

#[cfg(feature = "alloc")]
fn latin1(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| char::from(b)).collect()
}

/// The package a correct decoder makes of a log (the reference's), `ANLF` blocks merged
/// into the first block's package.
#[cfg(feature = "alloc")]
pub fn package_from_log(log: &[Ev]) -> gtastream::Package {
    let mut package: Option<gtastream::Package> = None;
    let mut warnings = Vec::new();
    for ev in log {
        let p = package.as_mut();
        match ev {
            Ev::File { format, name, .. } => {
                if p.is_none() {
                    package = Some(gtastream::Package {
                        format: *format,
                        name: name.as_deref().map(latin1),
                        animations: Vec::new(),
                        warnings: Vec::new(),
                        raw: Vec::new(),
                        trailing: Vec::new(),
                    });
                }
            }
            Ev::Animation {
                name,
                frame_data_size,
                flags,
                duration,
                ..
            } => p.unwrap().animations.push(gtastream::Animation {
                name: latin1(name),
                frame_data_size: *frame_data_size,
                flags: *flags,
                duration: duration.map(f32::from_bits),
                bones: Vec::new(),
                raw: Vec::new(),
            }),
            Ev::Bone {
                name,
                bone_id,
                bone_key,
                frame_type,
                ..
            } => p
                .unwrap()
                .animations
                .last_mut()
                .unwrap()
                .bones
                .push(gtastream::Bone {
                    name: name.as_deref().map(latin1),
                    bone_id: *bone_id,
                    bone_key: *bone_key,
                    frame_type: *frame_type,
                    frames: Vec::new(),
                    raw: Vec::new(),
                }),
            Ev::Frame { frame, .. } => {
                let a = p.unwrap().animations.last_mut().unwrap();
                a.bones.last_mut().unwrap().frames.push(frame.0);
            }
            // Every warning counts, those before the `file` event too.
            Ev::Warning(kind, offset) => warnings.push(gtastream::Warning {
                kind: *kind,
                offset: *offset,
            }),
            Ev::BoneEnd | Ev::AnimationEnd | Ev::End => {}
            Ev::Instance(_) | Ev::Car(_) | Ev::Line { .. } | Ev::Model(_) => {
                panic!("a placement or model event")
            }
            Ev::Error(..) => panic!("the log failed"),
            Ev::Archive { .. } | Ev::Entry { .. } | Ev::EntryEnd(_) | Ev::ArchiveWarning(..) => {
                panic!("an archive event")
            }
        }
    }
    let mut package = package.expect("a file event");
    package.warnings = warnings;
    package
}
