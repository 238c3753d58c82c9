//! Test support for the ANPK (`anpk_*`) and Stories (`stories_*`) tests.
//!
//! - [`Ev`] / [`Log`]: a visitor that logs one entry per event, **one per keyframe** (batches
//!   depend on chunking, frames do not), checks each batch as it arrives, and pauses on request.
//! - [`decode`]: a driver that feeds a byte slice in chunks, follows `Status::Seek` like a caller
//!   with random access, re-feeds after pauses, finishes, and checks the driver-level contract.
//! - [`anpk_reference`]: a whole-buffer ANPK/ANLF decoder written from FORMATS.md §1 and the
//!   project's rules (counts and sizes drive decoding, tags are only checked), with a map of
//!   where every chunk lies, for patching fixtures.
//! - [`stories_reference`]: a random-access Stories decoder written from FORMATS.md §3, which
//!   also records the order in which a front-to-back decoder must read the units (for seeks,
//!   `SeekRequired` and truncation offsets).
//!
//! Neither reference shares code with the crate: they say what a correct decoder must report.

use std::collections::HashSet;
use std::fmt;

use gtastream::{
    AnimationInfo, BoneInfo, Decoder, ErrorKind, FileInfo, Flow, Format, FrameType, Keyframe,
    Keyframes, Options, Status, Visitor, Warning, WarningKind,
};

/// Files of these formats address their contents with 32-bit offsets.
pub const FOUR_GIB: u64 = 1 << 32;

// ------------------------------------------------------------------------------------------
// The event log

/// A keyframe compared bit for bit (−0 differs from +0); any NaN equals any NaN, since the
/// formats do not say which NaN a stored NaN becomes.
#[derive(Clone, Copy)]
pub struct Bits(pub Keyframe);

fn same(a: f32, b: f32) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

impl PartialEq for Bits {
    fn eq(&self, other: &Self) -> bool {
        let (a, b) = (&self.0, &other.0);
        same(a.time, b.time)
            && a.rotation
                .iter()
                .zip(&b.rotation)
                .all(|(x, y)| same(*x, *y))
            && a.translation
                .iter()
                .zip(&b.translation)
                .all(|(x, y)| same(*x, *y))
            && a.scale.iter().zip(&b.scale).all(|(x, y)| same(*x, *y))
    }
}

impl fmt::Debug for Bits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let k = &self.0;
        write!(
            f,
            "t={:?} q={:?} tr={:?} s={:?}",
            k.time, k.rotation, k.translation, k.scale
        )
    }
}

/// One logged event.
#[derive(Clone, Debug, PartialEq)]
pub enum Ev {
    File {
        format: Format,
        name: Option<Vec<u8>>,
        animations: u32,
    },
    Animation {
        index: u32,
        name: Vec<u8>,
        bones: u32,
        frame_data_size: Option<u32>,
        flags: Option<u32>,
        /// Bits of the duration (compared exactly).
        duration: Option<u32>,
    },
    Bone {
        index: u32,
        name: Option<Vec<u8>>,
        bone_id: Option<i32>,
        bone_key: Option<u32>,
        frame_type: FrameType,
        frames: u32,
    },
    Frame {
        frame_type: FrameType,
        /// The stored record, as `Keyframes::as_bytes` gives it.
        bytes: Vec<u8>,
        frame: Bits,
    },
    BoneEnd,
    AnimationEnd,
    Warning(WarningKind, u64),
    End,
    Error(ErrorKind, u64),
}

impl Ev {
    pub fn keyframe(&self) -> Option<Keyframe> {
        match self {
            Ev::Frame { frame, .. } => Some(frame.0),
            _ => None,
        }
    }

    pub fn is_warning(&self) -> bool {
        matches!(self, Ev::Warning(..))
    }
}

/// The warnings of a log, in order.
pub fn warnings(log: &[Ev]) -> Vec<(WarningKind, u64)> {
    log.iter()
        .filter_map(|e| match e {
            Ev::Warning(k, at) => Some((*k, *at)),
            _ => None,
        })
        .collect()
}

/// The log without its warnings.
pub fn without_warnings(log: &[Ev]) -> Vec<Ev> {
    log.iter().filter(|e| !e.is_warning()).cloned().collect()
}

/// The keyframes of a log, in order.
pub fn keyframes(log: &[Ev]) -> Vec<Keyframe> {
    log.iter().filter_map(Ev::keyframe).collect()
}

/// The error that ends a log, if any.
pub fn error_of(log: &[Ev]) -> Option<(ErrorKind, u64)> {
    match log.last() {
        Some(Ev::Error(kind, at)) => Some((*kind, *at)),
        _ => None,
    }
}

/// What the [`Log`] answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    Continue,
    /// Pause at every call.
    PauseEvery,
    /// Pause at the call of this 0-based index.
    PauseAt(usize),
}

/// Logs every event and checks each batch against its bone.
pub struct Log {
    pub events: Vec<Ev>,
    policy: Policy,
    pub calls: usize,
    pub pause_requests: usize,
    /// The current bone's frame type and the frames it still expects.
    bone: Option<(FrameType, u32)>,
}

impl Log {
    pub fn new(policy: Policy) -> Self {
        Log {
            events: Vec::new(),
            policy,
            calls: 0,
            pause_requests: 0,
            bone: None,
        }
    }

    fn answer(&mut self) -> Flow {
        let call = self.calls;
        self.calls += 1;
        let pause = match self.policy {
            Policy::Continue => false,
            Policy::PauseEvery => true,
            Policy::PauseAt(k) => k == call,
        };
        if pause {
            self.pause_requests += 1;
            Flow::Pause
        } else {
            Flow::Continue
        }
    }
}

impl Visitor for Log {
    fn file(&mut self, info: &FileInfo<'_>) -> Flow {
        self.events.push(Ev::File {
            format: info.format,
            name: info.name.map(<[u8]>::to_vec),
            animations: info.animation_count,
        });
        self.answer()
    }

    fn animation(&mut self, info: &AnimationInfo<'_>) -> Flow {
        self.events.push(Ev::Animation {
            index: info.index,
            name: info.name.to_vec(),
            bones: info.bone_count,
            frame_data_size: info.frame_data_size,
            flags: info.flags,
            duration: info.duration.map(f32::to_bits),
        });
        self.answer()
    }

    fn bone(&mut self, info: &BoneInfo<'_>) -> Flow {
        assert_eq!(info.has_translation(), info.frame_type.has_translation());
        assert_eq!(info.has_scale(), info.frame_type.has_scale());
        self.bone = Some((info.frame_type, info.frame_count));
        self.events.push(Ev::Bone {
            index: info.index,
            name: info.name.map(<[u8]>::to_vec),
            bone_id: info.bone_id,
            bone_key: info.bone_key,
            frame_type: info.frame_type,
            frames: info.frame_count,
        });
        self.answer()
    }

    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        let t = frames.frame_type();
        let (bone_type, left) = self.bone.expect("keyframes outside a bone");
        assert_eq!(t, bone_type, "batch type differs from its bone's");
        assert!(!frames.is_empty(), "empty batch");
        assert!(
            frames.len() as u32 <= left,
            "more frames than the bone declares"
        );
        self.bone = Some((bone_type, left - frames.len() as u32));
        assert!(
            frames.raw().is_none(),
            "raw() is for packed IFP2 frames only"
        );
        let size = t.size();
        let bytes = frames.as_bytes();
        assert_eq!(bytes.len(), frames.len() * size);
        let decoded: Vec<Keyframe> = frames.iter().collect();
        assert_eq!(decoded.len(), frames.len());
        assert_eq!(frames.iter().len(), frames.len());
        for (i, frame) in decoded.into_iter().enumerate() {
            self.events.push(Ev::Frame {
                frame_type: t,
                bytes: bytes[i * size..(i + 1) * size].to_vec(),
                frame: Bits(frame),
            });
        }
        self.answer()
    }

    fn bone_end(&mut self) -> Flow {
        let (_, left) = self.bone.take().expect("bone_end outside a bone");
        assert_eq!(left, 0, "bone ended before its frames");
        self.events.push(Ev::BoneEnd);
        self.answer()
    }

    fn animation_end(&mut self) -> Flow {
        assert!(self.bone.is_none(), "animation ended inside a bone");
        self.events.push(Ev::AnimationEnd);
        self.answer()
    }

    fn warning(&mut self, warning: Warning) -> Flow {
        self.events.push(Ev::Warning(warning.kind, warning.offset));
        self.answer()
    }

    fn end(&mut self) -> Flow {
        self.events.push(Ev::End);
        self.answer()
    }
}

// ------------------------------------------------------------------------------------------
// The driver

/// How the bytes are cut into `feed` calls.
#[derive(Clone, Debug)]
pub enum Feed {
    /// Everything from the current position in one call.
    Whole,
    /// At most this many bytes per call, counted from where the caller is (also after a seek).
    Chunk(usize),
    /// Chunks end at these absolute offsets (and at the end of the data).
    Cuts(Vec<usize>),
}

impl Feed {
    fn end(&self, pos: usize, len: usize) -> usize {
        match self {
            Feed::Whole => len,
            Feed::Chunk(n) => (pos + n).min(len),
            Feed::Cuts(cuts) => cuts
                .iter()
                .copied()
                .filter(|&c| c > pos && c < len)
                .min()
                .unwrap_or(len),
        }
    }
}

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

/// Decodes `data` as a caller holding it in memory: feeds it as `feed` says, follows seeks
/// (the decoder must be created with `can_seek` for them), re-feeds the rest after a pause,
/// and finishes once the data is used up. Checks on the way:
/// - `consumed` never exceeds the chunk, and only a pause or a seek leaves bytes unused;
/// - `Paused` answers exactly one pause request, other answers none;
/// - `position()` is where the caller is: after a seek, the offset asked for;
/// - a seek goes back, or ahead past the chunk at hand, only with `can_seek`;
/// - after an error, `feed` and `finish` repeat it and report nothing; after a clean
///   `finish`, both fail with `Finished`.
pub fn decode(data: &[u8], feed: &Feed, can_seek: bool, policy: Policy) -> Run {
    let mut decoder = Decoder::with_options(Options { can_seek });
    let mut log = Log::new(policy);
    let mut pos = 0usize;
    let mut end = feed.end(pos, data.len());
    let mut seeks = Vec::new();
    let mut pauses = 0;
    let mut done = false;
    let mut failed = None;
    // After a pause the caller feeds again even when it has nothing left: the decoder may
    // want to seek back rather than end.
    let mut paused = false;
    while pos < data.len() || paused {
        paused = false;
        if pos == end {
            end = feed.end(pos, data.len());
        }
        let chunk = &data[pos..end];
        let requested = log.pause_requests;
        match decoder.feed(chunk, &mut log) {
            Err(e) => {
                failed = Some(e);
                break;
            }
            Ok(progress) => {
                assert!(
                    progress.consumed <= chunk.len(),
                    "consumed beyond the chunk"
                );
                let new_requests = log.pause_requests - requested;
                match progress.status {
                    Status::Paused => {
                        assert_eq!(new_requests, 1, "Paused without exactly one pause");
                        pos += progress.consumed;
                        pauses += 1;
                        paused = true;
                        assert!(pauses < 10_000_000, "no progress");
                    }
                    Status::Seek(offset) => {
                        assert!(can_seek, "Seek asked of a caller that cannot seek");
                        assert_eq!(new_requests, 0, "a pause was not honoured");
                        if offset < (pos + progress.consumed) as u64 {
                            seeks.push(offset);
                        } else {
                            // Ahead, past the chunk at hand: that follows the chunking, so
                            // only seeks back are compared.
                            assert!(offset > end as u64, "a seek ahead into the chunk");
                        }
                        assert!(seeks.len() < 1_000_000, "seeks without end");
                        if offset >= data.len() as u64 {
                            // Nothing there: the input ends.
                            assert_eq!(decoder.position(), offset, "position()");
                            break;
                        }
                        pos = usize::try_from(offset).unwrap();
                        end = feed.end(pos, data.len());
                    }
                    Status::NeedInput | Status::Done => {
                        assert_eq!(new_requests, 0, "a pause was not honoured");
                        assert_eq!(progress.consumed, chunk.len(), "bytes left unused");
                        if progress.status == Status::Done {
                            done = true;
                        } else {
                            assert!(!done, "NeedInput after Done");
                        }
                        pos = end;
                    }
                }
                assert_eq!(decoder.position(), pos as u64, "position()");
            }
        }
    }
    let before_finish = log.calls;
    if failed.is_none() {
        if let Err(e) = decoder.finish(&mut log) {
            failed = Some(e);
        }
    }
    let finish_calls = log.calls - before_finish;
    let mut events = std::mem::take(&mut log.events);
    let mut probe = Log::new(Policy::Continue);
    match failed {
        Some(e) => {
            events.push(Ev::Error(e.kind, e.offset));
            assert_eq!(decoder.error(), Some(e));
            assert_eq!(
                decoder.feed(b"mina", &mut probe),
                Err(e),
                "error not sticky"
            );
            assert_eq!(decoder.finish(&mut probe), Err(e), "error not sticky");
        }
        None => {
            assert_eq!(decoder.error(), None);
            let again = decoder.finish(&mut probe).unwrap_err();
            assert_eq!(again.kind, ErrorKind::Finished);
            let more = decoder.feed(b"x", &mut probe).unwrap_err();
            assert_eq!(more.kind, ErrorKind::Finished);
        }
    }
    assert!(probe.events.is_empty(), "events after the end");
    Run {
        log: events,
        seeks,
        pauses,
        calls: log.calls,
        finish_calls,
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
// ANPK reference (FORMATS.md §1)

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
}

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
        let name = self.get(name_field, name_len)?;
        self.log.push(Ev::File {
            format: Format::Anpk,
            name: Some(c_name(name)),
            animations: count as u32,
        });
        self.map.blocks.push(BlockMap {
            at,
            info,
            name_field,
            ..BlockMap::default()
        });
        let mut pos = name_field + name_len;
        for index in 0..count as u32 {
            pos = self.animation(index, pos)?;
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
        let u = self.get(name_field, field + 20)?;
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
        let skip = info_payload - 4;
        let mut pos = info + 12;
        if pos + skip + count as u64 * MIN_OBJECT > FOUR_GIB {
            return fail(ErrorKind::CountTooLarge, name_field);
        }
        self.tag(&u[f..f + 4], b"DGAN", dgan);
        self.tag(&u[f + 8..f + 12], b"INFO", info);
        self.log.push(Ev::Animation {
            index,
            name: c_name(&u[..f]),
            bones: count as u32,
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
        let body = self.get(body_at, u64::from(anim_size))?;
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
            frames,
        };
        if count > 0 {
            let k = self.get(pos, 8)?;
            let (frame_type, size) = match &k[0..4] {
                b"KR00" => (FrameType::Kr00, 20),
                b"KRT0" => (FrameType::Krt0, 32),
                b"KRTS" => (FrameType::Krts, 44),
                _ => return fail(ErrorKind::UnknownFrameType, pos),
            };
            if u64::from(u32_at(k, 4)) != count as u64 * size {
                self.warn(WarningKind::SizeMismatch, pos + 4);
            }
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
                });
                pos += size;
            }
        } else {
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
// Stories reference (FORMATS.md §3)

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
            animations: entries as u32,
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
            bones: bones as u32,
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
            frames: count as u32,
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
            Ev::Error(..) => panic!("the log failed"),
        }
    }
    let mut package = package.expect("a file event");
    package.warnings = warnings;
    package
}
