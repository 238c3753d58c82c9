//! The keyframes of one bone, shared by every animation format: whole records delivered in
//! batches, with the one warning that needs to look inside them (time going backwards).

use super::protocol::{Stepped, Want};
use crate::error::{Warning, WarningKind};
use crate::event::{Unit, UnitKind, Visitor};
use crate::keyframe::{advance, rising, FrameType, Keyframes};
use crate::limits::MAX_BATCH;

#[derive(Clone, Debug)]
pub(crate) struct Track {
    pub frame_type: FrameType,
    /// Keyframes not yet delivered.
    pub left: u32,
    /// Running time of the keyframes delivered (Stories frames store deltas).
    clock: f32,
    /// Stored time of the previous keyframe (−∞ before the first).
    last_time: f32,
    time_warned: bool,
}

impl Track {
    pub(crate) const fn new(frame_type: FrameType, count: u32) -> Self {
        Track {
            frame_type,
            left: count,
            clock: 0.0,
            last_time: f32::NEG_INFINITY,
            time_warned: false,
        }
    }

    /// The next batch: the bone's remaining keyframes, at most [`MAX_BATCH`] (so that a pause
    /// requested during a batch is never far from exact, and C hosts get it whole).
    #[inline]
    pub(crate) fn want(&self) -> Want {
        Want::Records {
            size: self.frame_type.size(),
            count: self.left.min(MAX_BATCH as u32),
        }
    }

    /// Delivers the whole records in `unit`. The first keyframe whose time goes backwards
    /// splits the batch, so its warning sits just before it wherever the input was cut.
    #[inline]
    pub(crate) fn deliver<V: Visitor>(&mut self, unit: &[u8], at: u64, visitor: &mut V) -> Stepped {
        let frame_type = self.frame_type;
        visitor.unit(&Unit::at(UnitKind::Keyframes, at));
        let start = self.clock;
        let count = if self.time_warned {
            // Warned once per bone: only the Stories clock still needs the times.
            advance(frame_type, unit, &mut self.clock);
            unit.len() / frame_type.size()
        } else {
            let rising = rising(frame_type, unit, &mut self.last_time, &mut self.clock);
            if rising == 0 && unit.len() >= frame_type.size() {
                self.time_warned = true;
                let warning = Warning {
                    kind: WarningKind::TimeBackwards,
                    offset: at,
                };
                return Stepped::new(0, visitor.warning(warning));
            }
            rising
        };
        let take = count * frame_type.size();
        // `count` is at most `left`: the framing never gives more records than wanted.
        self.left -= count as u32;
        let batch = Keyframes::new(frame_type, &unit[..take], start);
        Stepped::new(take, visitor.keyframes(batch))
    }
}
