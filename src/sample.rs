//! The pose of an animation at a time, computed as the games compute it (re3/reVC and
//! gta-reversed `CAnimBlendAssociation::SetCurrentTime`, `CAnimBlendNode::FindKeyFrame`,
//! `CalcDeltas`, `Update`, `CQuaternion::Slerp`; docs/ANIMATION.md):
//!
//! - the quaternions are made flip-free as at load (`RemoveQuaternionFlips`: walking the keys
//!   in order, a key whose dot product with the previous, already corrected, key is negative is
//!   negated);
//! - times become deltas (key i ≥ 1: tᵢ − tᵢ₋₁; key 0 keeps its absolute time), and playback
//!   starts at key 0: a bone whose first key is at t₀ > 0 plays shifted by −t₀;
//! - a looped animation's time wraps by its length (`t −= length` while `t ≥ length`), then
//!   each bone walks its own deltas, wrapping on its own keys;
//! - the interval is found on the deltas (`while t > delta(A)`), and the rotation is the games'
//!   slerp (θ > π/2 taken the short way round, `1/sin θ` once per interval, no normalisation),
//!   the translation a lerp.
//!
//! Not looped, a bone past its last key, and every bone at or past the animation's length,
//! holds its last key. Times are finite and not negative ([`ErrorKind::BadTime`]), and the
//! rotation is normalised as the games normalise it before use. A bone without keys is not played (the games bind none).
//!
//! [`Sampler`] works on a file held in memory, without allocating: it walks the file once with
//! the decoder to find the wanted animation's bones (each bone's keyframe bytes, in place), then
//! decodes keys on demand. The games' walk subtracts the deltas one by one in `f32`, which a
//! binary search over the absolute times would not reproduce bit for bit, and the flip state of a
//! key depends on every key before it; so each bone's pose costs one pass over its keys up to
//! the time (two decodes per key at most), and a looped bone one pass per lap.

use crate::error::{Error, ErrorKind};
use crate::event::{AnimationInfo, BoneInfo, Flow, Visitor};
use crate::keyframe::{FrameType, Keyframe, Keyframes};
use crate::summary::Summarizer;
use crate::Decoder;

/// The pose of one bone (its name borrowed from the sampler or the package).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BonePose<'a> {
    /// The bone's 0-based position in its animation.
    pub index: u32,
    /// The bone's name, where the file stores one (Stories: the standard name of its key).
    pub name: Option<&'a [u8]>,
    /// The bone id as stored.
    pub bone_id: Option<i32>,
    /// Quaternion `x, y, z, w`, of unit length (normalised as the games normalise it before
    /// use), unless the keys hold NaN or infinity.
    pub rotation: [f32; 4],
    /// Where the bone's keys carry a translation.
    pub translation: Option<[f32; 3]>,
}

/// Most steps over a bone's keys (its own laps included) that one pose may take: beyond,
/// [`ErrorKind::Limit`]. The animation's own wrap never reaches it (any finite time wraps in
/// at most `GAME_LAPS` (1024) steps, then by the remainder).
pub const MAX_SAMPLE_STEPS: u32 = 1 << 22;

/// Longest bone name kept in the sampler when the decoder hands it out of its own buffer
/// (ANPK's 28-byte object name field).
const INLINE_NAME: usize = 28;

/// A bone's name: in place in the file, or a copy (ANPK names reach the visitor from the
/// decoder's buffer).
#[derive(Clone, Copy, Debug)]
enum Name<'a> {
    None,
    InFile(&'a [u8]),
    Copy([u8; INLINE_NAME], u8),
}

impl<'a> Name<'a> {
    fn get(&self) -> Option<&[u8]> {
        match self {
            Name::None => None,
            Name::InFile(name) => Some(name),
            Name::Copy(bytes, len) => bytes.get(..usize::from(*len)),
        }
    }
}

/// One bone's keys in the file.
#[derive(Clone, Copy, Debug)]
struct Track<'a> {
    index: u32,
    name: Name<'a>,
    bone_id: Option<i32>,
    frame_type: FrameType,
    /// The bone's records, whole, in place in the file.
    bytes: &'a [u8],
    /// Absolute offset of `bytes` (for errors).
    offset: u64,
}

impl<'a> Track<'a> {
    fn keys(&self) -> impl Iterator<Item = Keyframe> + Clone + 'a {
        Keyframes::new(self.frame_type, self.bytes, 0.0).iter()
    }

    fn len(&self) -> usize {
        self.bytes.len() / self.frame_type.size()
    }
}

/// Samples one animation of a file held in memory, allocation-free: up to `BONES` bones
/// ([`ErrorKind::Limit`] beyond).
///
/// ```
/// # fn demo(file: &[u8]) -> Result<(), gtastream::Error> {
/// let sampler = gtastream::Sampler::<64>::new(file, b"walk_civi")?;
/// sampler.sample(0.25, true, |pose| println!("{:?} {:?}", pose.name, pose.rotation))?;
/// # Ok(()) }
/// ```
#[derive(Clone, Debug)]
pub struct Sampler<'a, const BONES: usize = 64> {
    name: &'a [u8],
    index: u32,
    length: f32,
    tracks: heapless::Vec<Track<'a>, BONES>,
}

impl<'a, const BONES: usize> Sampler<'a, BONES> {
    /// The first animation of `data` named `name`, compared as [`crate::name_matches`] does
    /// (ASCII case aside, as the games look animations up; surrounding blanks ignored).
    /// [`ErrorKind::NotFound`] if none.
    pub fn new(data: &'a [u8], name: &[u8]) -> Result<Self, Error> {
        Self::find(data, Wanted::Name(name))
    }

    /// The animation at `index` (0-based, in file order).
    pub fn by_index(data: &'a [u8], index: u32) -> Result<Self, Error> {
        Self::find(data, Wanted::Index(index))
    }

    fn find(data: &'a [u8], wanted: Wanted<'_>) -> Result<Self, Error> {
        let mut indexer = Indexer {
            data,
            wanted,
            seen: 0,
            state: Found::Searching,
            sampler: Sampler {
                name: &[],
                index: 0,
                length: 0.0,
                tracks: heapless::Vec::new(),
            },
            summarizer: Summarizer::new(),
            failure: None,
        };
        let result = Decoder::new().decode_slice(data, &mut indexer);
        match result {
            // The decoder's own error first: a file cut short (whose last keys the decoder
            // hands out from its carry, not in place) is truncated, not malformed.
            Err(e) if e.kind != ErrorKind::Aborted => return Err(e),
            _ => {}
        }
        if let Some(error) = indexer.failure {
            return Err(error);
        }
        match (result, indexer.state) {
            (Ok(()), Found::Done) => Ok(indexer.sampler),
            // The indexer stops the decoder once the animation is complete.
            (Err(e), Found::Done) if e.kind == ErrorKind::Aborted => Ok(indexer.sampler),
            (Err(e), _) => Err(e),
            (Ok(()), _) => Err(Error::new(ErrorKind::NotFound, 0)),
        }
    }

    /// The animation's name as stored.
    pub fn name(&self) -> &'a [u8] {
        self.name
    }

    /// The animation's 0-based position in the file.
    pub fn index(&self) -> u32 {
        self.index
    }

    /// The animation's length in seconds, by the games' rule
    /// ([`AnimationSummary::length`](crate::AnimationSummary::length)).
    pub fn length(&self) -> f32 {
        self.length
    }

    /// The bones that have keys (the ones [`sample`](Self::sample) reports), in file order.
    pub fn bone_count(&self) -> usize {
        self.tracks.len()
    }

    /// The pose of every bone that has keys at `time` seconds, in file order, to `f`.
    pub fn sample(
        &self,
        time: f32,
        looped: bool,
        mut f: impl FnMut(&BonePose<'_>),
    ) -> Result<(), Error> {
        let time = wrap(time, self.length, looped)?;
        for track in &self.tracks {
            f(&track_pose(track, time, looped)?);
        }
        Ok(())
    }

    /// The pose of the `bone`-th bone with keys (as [`sample`](Self::sample) numbers them).
    pub fn bone_pose(
        &self,
        bone: usize,
        time: f32,
        looped: bool,
    ) -> Option<Result<BonePose<'_>, Error>> {
        let track = self.tracks.get(bone)?;
        Some(wrap(time, self.length, looped).and_then(|t| track_pose(track, t, looped)))
    }
}

fn track_pose<'t>(track: &'t Track<'_>, time: f32, looped: bool) -> Result<BonePose<'t>, Error> {
    let (rotation, translation) = pose(
        track.keys(),
        track.len(),
        track.frame_type.has_translation(),
        time,
        looped,
    )
    .map_err(|kind| Error::new(kind, track.offset))?;
    Ok(BonePose {
        index: track.index,
        name: track.name.get(),
        bone_id: track.bone_id,
        rotation,
        translation,
    })
}

/// Laps of a looped time subtracted one by one, as the games do (same bits); a time further
/// past the length wraps by the exact remainder instead (docs/ANIMATION.md, the time domain).
pub const GAME_LAPS: u32 = 1024;

/// `SetCurrentTime`: a looped time wraps by the length; not looped, a time at or past it
/// holds every bone's last key (`f32::INFINITY` stands for "past the end").
///
/// The domain is every finite time from 0 ([`ErrorKind::BadTime`] otherwise, offset 0): the
/// games start an animation at 0 and only move its time forward, so they never ask for a pose
/// below the first key; their slerp would extrapolate there.
pub(crate) fn wrap(time: f32, length: f32, looped: bool) -> Result<f32, Error> {
    // (-0.0 is 0.)
    if !time.is_finite() || time < 0.0 {
        return Err(Error::new(ErrorKind::BadTime, 0));
    }
    if time >= length && !looped {
        return Ok(f32::INFINITY);
    }
    // (`time >= length` holds only for a length that is no NaN.)
    if time >= length && length <= 0.0 {
        return Err(Error::new(ErrorKind::Endless, 0));
    }
    if time / length > GAME_LAPS as f32 {
        // Subtracting one lap at a time would take millions of steps, and in `f32` it stalls
        // (t − length == t) once t is 2²⁴ lengths or more: the games would hang. `fmodf` is
        // the exact remainder, below the length.
        return Ok(libm::fmodf(time, length));
    }
    let mut t = time;
    while t >= length {
        t -= length;
    }
    Ok(t)
}

/// Where `FindKeyFrame` leaves a bone: keys A (next) and B (previous), flip-free, A's delta,
/// and the time remaining until A.
struct Interval {
    a: Keyframe,
    b: Keyframe,
    delta: f32,
    remaining: f32,
}

/// `FindKeyFrame(time)` over the keys (`len` ≥ 1 of them), in one pass that also removes the
/// flips (`RemoveQuaternionFlips` runs from key 0, so a lap starts it again); `None`: past the
/// last key, not looped.
fn find_key_frame(
    keys: impl Iterator<Item = Keyframe> + Clone,
    len: usize,
    time: f32,
    looped: bool,
) -> Result<Option<Interval>, ErrorKind> {
    let mut it = unflipped(keys.clone());
    let Some(first) = it.next() else {
        return Ok(None);
    };
    if len < 2 {
        // One key: A = B = 0, and the node's remaining time is its initial 0.
        return Ok(Some(Interval {
            a: first,
            b: first,
            delta: first.time,
            remaining: 0.0,
        }));
    }
    let (mut b, mut a) = (first, it.next().unwrap_or(first));
    let mut delta = a.time - b.time;
    let mut index = 1;
    let mut t = time;
    let mut at_last_wrap: Option<f32> = None;
    let mut steps = 0u32;
    while t > delta {
        t -= delta;
        index += 1;
        if index >= len {
            if !looped {
                return Ok(None);
            }
            // A lap that did not bring the time down never will: the games hang here.
            if at_last_wrap.is_some_and(|last| t >= last) {
                return Err(ErrorKind::Endless);
            }
            at_last_wrap = Some(t);
            // A = B = 0: key 0's delta is its absolute time.
            it = unflipped(keys.clone());
            index = 0;
            a = it.next().unwrap_or(first);
            b = a;
            delta = a.time;
        } else {
            b = a;
            a = it.next().unwrap_or(b);
            delta = a.time - b.time;
        }
        steps += 1;
        if steps > MAX_SAMPLE_STEPS {
            return Err(ErrorKind::Limit);
        }
    }
    Ok(Some(Interval {
        a,
        b,
        delta,
        remaining: delta - t,
    }))
}

type Pose = ([f32; 4], Option<[f32; 3]>);

/// The pose of one bone at `time` (already wrapped by the animation's length).
pub(crate) fn pose(
    keys: impl Iterator<Item = Keyframe> + Clone,
    len: usize,
    has_translation: bool,
    time: f32,
    looped: bool,
) -> Result<Pose, ErrorKind> {
    let interval = if time == f32::INFINITY && !looped {
        None
    } else {
        find_key_frame(keys.clone(), len, time, looped)?
    };
    let Some(Interval {
        a,
        b,
        delta,
        remaining,
    }) = interval
    else {
        // Past the end: the last key, flip-free.
        let last = unflipped(keys).last().unwrap_or_default();
        return Ok((
            normalised(last.rotation),
            has_translation.then_some(last.translation),
        ));
    };
    let f = if delta == 0.0 {
        0.0
    } else {
        (delta - remaining) / delta
    };
    let translation = has_translation.then(|| {
        core::array::from_fn(|i| b.translation[i] + f * (a.translation[i] - b.translation[i]))
    });
    Ok((normalised(slerp(b.rotation, a.rotation, f)), translation))
}

/// How far from 1 a squared length may be and still count as unit: 2⁻²⁰, about 16 `f32`
/// ulps, which a stored unit key's rounding (|q|² of 0.99999994 for 90° about an axis) stays
/// well within.
const UNIT_SLACK: f32 = 1.0 / (1 << 20) as f32;

/// The rotation scaled to unit length, as the games normalise the blended quaternion before
/// it becomes the bone's matrix (`FrameUpdateCallBackSkinned`, `nextQ.Normalise()`): the
/// slerp of packed (not exactly unit) or decreasing keys is not unit on its own. One already
/// unit to `f32` precision (|q|² within [`UNIT_SLACK`] of 1) is kept as is, so that a key
/// comes back with its stored bits; a zero quaternion has no direction and becomes the
/// identity; a non-finite one (keys holding NaN or infinity: `ifp.value.nan`) is returned as
/// computed.
pub(crate) fn normalised(q: [f32; 4]) -> [f32; 4] {
    let sq = dot(q, q);
    if sq == 0.0 {
        return [0.0, 0.0, 0.0, 1.0];
    }
    if !sq.is_finite() || (sq - 1.0).abs() <= UNIT_SLACK {
        return q;
    }
    let inv = 1.0 / libm::sqrtf(sq);
    q.map(|c| c * inv)
}

/// The keys with `RemoveQuaternionFlips` applied.
pub(crate) fn unflipped(keys: impl Iterator<Item = Keyframe>) -> impl Iterator<Item = Keyframe> {
    let mut previous: Option<[f32; 4]> = None;
    keys.map(move |mut key| {
        if previous.is_some_and(|p| dot(p, key.rotation) < 0.0) {
            key.rotation = key.rotation.map(|c| -c);
        }
        previous = Some(key.rotation);
        key
    })
}

/// `DotProduct` of two quaternions, summed x, y, z, w as the games do.
fn dot(a: [f32; 4], b: [f32; 4]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]
}

/// `CalcDeltas`' angle between keys B and A, `acos(min(q_A·q_B, 1))`; `None` where it is 0,
/// and `CQuaternion::Slerp` returns q_A whatever the fraction.
fn slerp_angle(qb: [f32; 4], qa: [f32; 4]) -> Option<f32> {
    let mut cos = dot(qa, qb);
    // Not `min`, which would turn a NaN into 1.
    if cos > 1.0 {
        cos = 1.0;
    }
    let theta = libm::acosf(cos);
    (theta != 0.0).then_some(theta)
}

/// Whether the games' slerp from key B to key A (flip-free, as stored) returns q_A at every
/// fraction, B's own time included: the dot product reaches 1, which packed keys (not unit)
/// do for keys about 1° apart. The glTF export writes these jumps as steps.
#[cfg_attr(not(feature = "gltf"), allow(dead_code))]
pub(crate) fn slerp_returns_second(qb: [f32; 4], qa: [f32; 4]) -> bool {
    slerp_angle(qb, qa).is_none()
}

/// `CalcDeltas` and `CQuaternion::Slerp(q_b, q_a, theta, invSin, f)`.
fn slerp(qb: [f32; 4], qa: [f32; 4], f: f32) -> [f32; 4] {
    use core::f32::consts::PI;
    let Some(theta) = slerp_angle(qb, qa) else {
        return qa;
    };
    let inv_sin = 1.0 / libm::sinf(theta);
    let (w1, w2) = if theta > PI / 2.0 {
        let theta = PI - theta;
        (
            libm::sinf((1.0 - f) * theta) * inv_sin,
            -libm::sinf(f * theta) * inv_sin,
        )
    } else {
        (
            libm::sinf((1.0 - f) * theta) * inv_sin,
            libm::sinf(f * theta) * inv_sin,
        )
    };
    core::array::from_fn(|i| w1 * qb[i] + w2 * qa[i])
}

#[derive(Clone, Copy, Debug)]
enum Wanted<'n> {
    Name(&'n [u8]),
    Index(u32),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Found {
    Searching,
    Inside,
    Done,
}

/// Walks the file once: records where the wanted animation's bones keep their keys.
struct Indexer<'a, 'n, const BONES: usize> {
    data: &'a [u8],
    wanted: Wanted<'n>,
    seen: u32,
    state: Found,
    sampler: Sampler<'a, BONES>,
    summarizer: Summarizer,
    failure: Option<Error>,
}

impl<'a, const BONES: usize> Indexer<'a, '_, BONES> {
    /// `part` as a slice of the file, if it is one (the decoder hands out whole units in place
    /// when given the whole file).
    fn in_data(&self, part: &[u8]) -> Option<(usize, &'a [u8])> {
        let base = self.data.as_ptr() as usize;
        let start = (part.as_ptr() as usize).checked_sub(base)?;
        let bytes = self.data.get(start..start.checked_add(part.len())?)?;
        Some((start, bytes))
    }

    fn fail(&mut self, kind: ErrorKind, offset: u64) -> Flow {
        self.failure = Some(Error::new(kind, offset));
        Flow::Abort
    }
}

impl<const BONES: usize> Visitor for Indexer<'_, '_, BONES> {
    fn animation(&mut self, info: &AnimationInfo<'_>) -> Flow {
        let position = self.seen;
        self.seen += 1;
        if self.state != Found::Searching {
            return Flow::Continue;
        }
        let matches = match self.wanted {
            Wanted::Name(name) => crate::name_matches(info.name, name),
            Wanted::Index(index) => index == position,
        };
        if matches {
            self.state = Found::Inside;
            self.sampler.index = position;
            self.sampler.name = self.in_data(info.name).map_or(&[], |(_, name)| name);
            self.summarizer.animation(info);
        }
        Flow::Continue
    }

    fn bone(&mut self, info: &BoneInfo<'_>) -> Flow {
        if self.state != Found::Inside {
            return Flow::Continue;
        }
        self.summarizer.bone(info);
        let name = match (info.name, info.bone_key) {
            // Stories names are the standard names of their keys, not bytes of the file.
            (Some(_), Some(key)) => {
                crate::bone_names::stories_bone_name(key, info.bone_id.is_some())
                    .map_or(Name::None, Name::InFile)
            }
            (Some(name), None) => match self.in_data(name) {
                Some((_, name)) => Name::InFile(name),
                None => {
                    let mut copy = [0; INLINE_NAME];
                    let len = name.len().min(INLINE_NAME);
                    copy[..len].copy_from_slice(&name[..len]);
                    Name::Copy(copy, len as u8)
                }
            },
            (None, _) => Name::None,
        };
        self.push(Track {
            index: info.index,
            name,
            bone_id: info.bone_id,
            frame_type: info.frame_type,
            bytes: &[],
            offset: 0,
        })
    }

    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        if self.state != Found::Inside {
            return Flow::Continue;
        }
        self.summarizer.keyframes(frames);
        let Some((start, _)) = self.in_data(frames.as_bytes()) else {
            // Not in place: only at a cut, which the decoder reports next (`find`).
            self.failure = Some(Error::new(ErrorKind::Malformed, 0));
            self.state = Found::Done;
            return Flow::Continue;
        };
        let data = self.data;
        let Some(track) = self.sampler.tracks.last_mut() else {
            return Flow::Continue;
        };
        let from = if track.bytes.is_empty() {
            start
        } else {
            track.offset as usize
        };
        // A bone's keys lie back to back; the batches follow one another.
        if from + track.bytes.len() != start && !track.bytes.is_empty() {
            let at = start as u64;
            return self.fail(ErrorKind::Malformed, at);
        }
        let end = start + frames.as_bytes().len();
        track.bytes = &data[from..end];
        track.offset = from as u64;
        Flow::Continue
    }

    fn animation_end(&mut self) -> Flow {
        if self.state != Found::Inside {
            return Flow::Continue;
        }
        self.sampler.length = self.summarizer.animation_end().length;
        // Bones without keys are not played.
        self.sampler.tracks.retain(|t| !t.bytes.is_empty());
        self.state = Found::Done;
        // The rest of the file is not needed.
        Flow::Abort
    }
}

impl<'a, const BONES: usize> Indexer<'a, '_, BONES> {
    fn push(&mut self, track: Track<'a>) -> Flow {
        match self.sampler.tracks.push(track) {
            Ok(()) => Flow::Continue,
            Err(_) => {
                let at = self.sampler.tracks.last().map_or(0, |t| t.offset);
                self.fail(ErrorKind::Limit, at)
            }
        }
    }
}
