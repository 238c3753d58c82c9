//! What each animation is, reported when it ends: its length by the games' rule, the bones it
//! defines, and how they are stored. Counted as the decoder streams, in constant memory.

use crate::event::{AnimationInfo, BoneInfo, Flow, Visitor};
use crate::keyframe::{FrameType, Keyframes};
use crate::skeleton;
use crate::Record;

/// An animation's summary ([`Visitor::animation_summary`], `Animation::summary`).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[non_exhaustive]
pub struct AnimationSummary {
    /// The animation's 0-based position in the file.
    pub index: u32,
    /// Seconds, as the games compute it (`CAnimBlendHierarchy::CalcTotalTime`): the largest
    /// last-key time over the bones that have keys, never below 0 (a NaN time counts as none).
    /// A looping animation wraps at this time.
    pub length: f32,
    /// Bones (tracks) the animation stores, with or without keys.
    pub bones: u32,
    /// Bones without keys: the games bind and play none of them.
    pub empty: u32,
    /// Keyframes over all bones.
    pub keyframes: u64,
    /// The standard bones it defines: bit `i` for [`skeleton::BONES`]`[i]`, matched as San
    /// Andreas binds a track (by id when it stores one, else by name: [`skeleton::find`]).
    pub standard: u64,
    /// Bones that store a bone id (not −1).
    pub with_id: u32,
    /// Bones that store none (or −1): the games bind them by name.
    pub without_id: u32,
    /// Bones that match no standard bone.
    pub unmatched: u32,
    /// Bones stored as packed integers (IFP2 types 3 and 4).
    pub packed: u32,
    /// Bones stored as floats (IFP2 types 1 and 2, ANPK) or half floats (Stories).
    pub float: u32,
    /// Bones whose keys carry a translation.
    pub translation: u32,
    /// Bones whose keys carry a scale (ANPK `KRTS`; the games ignore it).
    pub scale: u32,
}

impl AnimationSummary {
    /// Whether the animation mixes packed and float bones (San Andreas then reads some of them
    /// with the wrong stride: `ifp.anp3.compress_flag_mismatch`).
    pub fn is_mixed(&self) -> bool {
        self.packed > 0 && self.float > 0
    }

    /// The standard bones it defines, in table order.
    pub fn standard_bones(&self) -> impl Iterator<Item = &'static skeleton::StandardBone> + '_ {
        skeleton::BONES
            .iter()
            .enumerate()
            .filter(|(i, _)| self.standard & (1 << i) != 0)
            .map(|(_, bone)| bone)
    }
}

/// Builds [`AnimationSummary`]s from the events of an animation (what [`Summarize`] and the
/// JSON document use; feed it the animation, bone, keyframes and `animation_end` events).
#[derive(Clone, Debug, Default)]
pub struct Summarizer {
    current: AnimationSummary,
    /// The current bone's last key time so far.
    last: Option<f32>,
}

impl Summarizer {
    /// A summarizer before any animation.
    pub const fn new() -> Self {
        Summarizer {
            current: AnimationSummary {
                index: 0,
                length: 0.0,
                bones: 0,
                empty: 0,
                keyframes: 0,
                standard: 0,
                with_id: 0,
                without_id: 0,
                unmatched: 0,
                packed: 0,
                float: 0,
                translation: 0,
                scale: 0,
            },
            last: None,
        }
    }

    /// An animation begins.
    pub fn animation(&mut self, info: &AnimationInfo<'_>) {
        self.current = AnimationSummary {
            index: info.index,
            ..Summarizer::new().current
        };
        self.last = None;
    }

    /// A bone begins.
    pub fn bone(&mut self, info: &BoneInfo<'_>) {
        self.begin_bone(info.bone_id, info.name, info.frame_type);
    }

    /// Keyframes of the current bone.
    pub fn keyframes(&mut self, frames: Keyframes<'_>) {
        self.current.keyframes += frames.len() as u64;
        if let Some(last) = frames.last() {
            self.last = Some(last.time);
        }
    }

    /// The animation ends: its summary.
    pub fn animation_end(&mut self) -> AnimationSummary {
        self.end_bone();
        self.current
    }

    pub(crate) fn begin_bone(
        &mut self,
        bone_id: Option<i32>,
        name: Option<&[u8]>,
        frame_type: FrameType,
    ) {
        self.end_bone();
        let s = &mut self.current;
        s.bones += 1;
        match bone_id {
            Some(id) if id >= 0 => s.with_id += 1,
            _ => s.without_id += 1,
        }
        match skeleton::find(bone_id, name) {
            Some(i) => s.standard |= 1 << i,
            None => s.unmatched += 1,
        }
        if frame_type.is_packed() {
            s.packed += 1;
        } else {
            s.float += 1;
        }
        s.translation += u32::from(frame_type.has_translation());
        s.scale += u32::from(frame_type.has_scale());
        // A bone counts as empty until a key arrives.
        s.empty += 1;
        self.last = None;
    }

    #[cfg(feature = "alloc")]
    pub(crate) fn add_keys(&mut self, count: u64, last_time: f32) {
        self.current.keyframes += count;
        self.last = Some(last_time);
    }

    /// Closes the current bone: its last key counts toward the length (`std::max` keeps the
    /// length when the time is NaN).
    fn end_bone(&mut self) {
        if let Some(last) = self.last.take() {
            self.current.empty -= 1;
            if last > self.current.length {
                self.current.length = last;
            }
        }
    }
}

/// A visitor adaptor: passes every event on to `inner`, and reports each animation's summary
/// to [`Visitor::animation_summary`] just before its `animation_end`.
#[derive(Clone, Debug, Default)]
pub struct Summarize<V> {
    /// The visitor the events go on to.
    pub inner: V,
    summarizer: Summarizer,
}

impl<V> Summarize<V> {
    /// Wraps `inner`.
    pub const fn new(inner: V) -> Self {
        Summarize {
            inner,
            summarizer: Summarizer::new(),
        }
    }

    /// The wrapped visitor.
    pub fn into_inner(self) -> V {
        self.inner
    }
}

/// The stronger of two flows: abort over pause over continue.
fn both(a: Flow, b: Flow) -> Flow {
    match (a, b) {
        (Flow::Abort, _) | (_, Flow::Abort) => Flow::Abort,
        (Flow::Pause, _) | (_, Flow::Pause) => Flow::Pause,
        _ => Flow::Continue,
    }
}

impl<V: Visitor> Visitor for Summarize<V> {
    fn file(&mut self, info: &crate::FileInfo<'_>) -> Flow {
        self.inner.file(info)
    }
    fn animation(&mut self, info: &AnimationInfo<'_>) -> Flow {
        self.summarizer.animation(info);
        self.inner.animation(info)
    }
    fn bone(&mut self, info: &BoneInfo<'_>) -> Flow {
        self.summarizer.bone(info);
        self.inner.bone(info)
    }
    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        self.summarizer.keyframes(frames);
        self.inner.keyframes(frames)
    }
    fn bone_end(&mut self) -> Flow {
        self.inner.bone_end()
    }
    fn animation_end(&mut self) -> Flow {
        let summary = self.summarizer.animation_end();
        let flow = self.inner.animation_summary(&summary);
        both(flow, self.inner.animation_end())
    }
    fn animation_summary(&mut self, summary: &AnimationSummary) -> Flow {
        self.inner.animation_summary(summary)
    }
    fn record(&mut self, record: &Record<'_>) -> Flow {
        self.inner.record(record)
    }
    fn text_line(&mut self, raw: &[u8]) -> Flow {
        self.inner.text_line(raw)
    }
    fn trailing(&mut self, bytes: &[u8]) -> Flow {
        self.inner.trailing(bytes)
    }
    fn warning(&mut self, warning: crate::Warning) -> Flow {
        self.inner.warning(warning)
    }
    fn end(&mut self) -> Flow {
        self.inner.end()
    }
    fn unit(&mut self, unit: &crate::Unit<'_>) {
        self.inner.unit(unit)
    }
}
