//! Packing float keyframes when that loses nothing (docs/FORMATS.md §9.2): a second decoder
//! walks the same input one bone ahead of the one feeding the encoder, so that at each bone
//! header the encoder knows whether every value of the bone lies exactly on the packed steps.

use super::ifp2::pack;
use super::{BoneHeader, Choice, Encoder, Sink};
use crate::keyframe::{PACKED_ROTATION_SCALE, PACKED_TIME_SCALE, PACKED_TRANSLATION_SCALE};
use crate::{
    AnimationInfo, BoneInfo, Decoder, FileInfo, Flow, Format, Keyframes, Record, Status, Visitor,
    Warning,
};

/// Random access to the input, for the decoder that reads ahead.
pub trait ReadAt {
    /// Fills `buf` from absolute `offset` on; returns the bytes read (0 at the end), or `None`
    /// if reading failed, which ends the reading ahead: later bones are written as
    /// [`Encoder::bone`] decides.
    fn read_at(&mut self, offset: u64, buf: &mut [u8]) -> Option<usize>;
}

impl ReadAt for &[u8] {
    fn read_at(&mut self, offset: u64, buf: &mut [u8]) -> Option<usize> {
        let at = usize::try_from(offset).ok()?;
        let rest = self.get(at..).unwrap_or_default();
        let n = rest.len().min(buf.len());
        buf[..n].copy_from_slice(&rest[..n]);
        Some(n)
    }
}

#[cfg(feature = "std")]
impl ReadAt for std::fs::File {
    fn read_at(&mut self, offset: u64, buf: &mut [u8]) -> Option<usize> {
        use std::io::{Read, Seek, SeekFrom};
        self.seek(SeekFrom::Start(offset)).ok()?;
        self.read(buf).ok()
    }
}

/// What the reading-ahead decoder learns of the bone it walks.
struct Plan {
    /// Every value so far lies on the steps, and there is at least one keyframe (a bone without
    /// any is written as [`Encoder::bone`] decides).
    packable: bool,
    frames: bool,
    translation: bool,
    ended: bool,
}

impl Visitor for Plan {
    fn bone(&mut self, info: &BoneInfo<'_>) -> Flow {
        self.packable = true;
        self.frames = false;
        self.translation = info.has_translation();
        Flow::Continue
    }

    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        self.frames = true;
        if self.packable {
            let translation = self.translation;
            self.packable = frames.iter().all(|k| on_packed_steps(&k, translation));
        }
        Flow::Continue
    }

    fn bone_end(&mut self) -> Flow {
        self.ended = true;
        Flow::Pause
    }
}

/// Whether every value of `frame` (its translation only if `translation`) lies exactly on the
/// packed IFP2 steps, so that a packed bone holds it bit for bit (§9.2).
pub(crate) fn on_packed_steps(frame: &crate::Keyframe, translation: bool) -> bool {
    let exact = |v: f32, scale: f32| pack(v, scale, false).is_ok();
    frame
        .rotation
        .iter()
        .all(|&q| exact(q, PACKED_ROTATION_SCALE))
        && exact(frame.time, PACKED_TIME_SCALE)
        && (!translation
            || frame
                .translation
                .iter()
                .all(|&t| exact(t, PACKED_TRANSLATION_SCALE)))
}

/// A [`Visitor`] that feeds an encoder like the encoder itself does, except that for an IFP2
/// target without `quantize` a bone of float frames whose every value lies exactly on the
/// packed steps is written packed ([`Encoder::bone_packable`]): an `ANP3` converted to `ANPK`
/// and back comes out packed, as it was. It reads the input a second time, one bone ahead,
/// through `source` (the same bytes the decoder is fed, from offset 0), in pieces of its own
/// 1 KiB buffer; memory stays constant.
pub struct Lookahead<'e, S, R> {
    encoder: &'e mut Encoder<S>,
    source: R,
    ahead: Decoder,
    pos: u64,
    buf: [u8; 1024],
    /// The reading-ahead decoder failed or ended: no more plans.
    stopped: bool,
}

impl<'e, S: Sink, R: ReadAt> Lookahead<'e, S, R> {
    /// Wraps `encoder`; `source` reads the input the decoder will be fed.
    pub fn new(encoder: &'e mut Encoder<S>, source: R) -> Self {
        Lookahead {
            encoder,
            source,
            ahead: Decoder::new(),
            pos: 0,
            buf: [0; 1024],
            stopped: false,
        }
    }

    /// Walks the reading-ahead decoder through its next bone: whether all its values are exact.
    fn next_bone_packable(&mut self) -> bool {
        let mut plan = Plan {
            packable: false,
            frames: false,
            translation: false,
            ended: false,
        };
        while !self.stopped {
            let Some(n) = self.source.read_at(self.pos, &mut self.buf) else {
                self.stopped = true;
                break;
            };
            let progress = if n == 0 {
                self.stopped = true;
                let _ = self.ahead.finish(&mut plan);
                break;
            } else {
                match self.ahead.feed(&self.buf[..n], &mut plan) {
                    Ok(progress) => progress,
                    Err(_) => {
                        self.stopped = true;
                        break;
                    }
                }
            };
            match progress.status {
                Status::Seek(offset) => self.pos = offset,
                Status::Done => self.stopped = true,
                Status::Paused | Status::NeedInput => self.pos += progress.consumed as u64,
            }
            if plan.ended {
                return plan.packable && plan.frames;
            }
        }
        plan.ended && plan.packable && plan.frames
    }
}

impl<S: Sink, R: ReadAt> Visitor for Lookahead<'_, S, R> {
    fn file(&mut self, info: &FileInfo<'_>) -> Flow {
        Visitor::file(self.encoder, info)
    }
    fn animation(&mut self, info: &AnimationInfo<'_>) -> Flow {
        Visitor::animation(self.encoder, info)
    }
    fn bone(&mut self, info: &BoneInfo<'_>) -> Flow {
        let header = BoneHeader::from(info);
        let ifp2 = matches!(self.encoder.format(), Format::Anp3 | Format::Anp2);
        // Every bone moves the reading-ahead decoder on, so that it stays on the same bone.
        let packable = self.next_bone_packable();
        // A file written back to its own format keeps its frame types, normalised too (§9.7).
        let packable = ifp2
            && packable
            && !info.frame_type.is_packed()
            && !self.encoder.options().quantize
            && !self.encoder.writes_own_format();
        let raw = self.encoder.own(info.raw);
        super::flow(
            self.encoder
                .bone_in(&header, Choice::Auto { packable }, raw),
        )
    }
    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        Visitor::keyframes(self.encoder, frames)
    }
    fn bone_end(&mut self) -> Flow {
        Visitor::bone_end(self.encoder)
    }
    fn animation_end(&mut self) -> Flow {
        Visitor::animation_end(self.encoder)
    }
    fn record(&mut self, record: &Record<'_>) -> Flow {
        Visitor::record(self.encoder, record)
    }
    fn text_line(&mut self, raw: &[u8]) -> Flow {
        Visitor::text_line(self.encoder, raw)
    }
    fn warning(&mut self, warning: Warning) -> Flow {
        Visitor::warning(self.encoder, warning)
    }
    fn trailing(&mut self, bytes: &[u8]) -> Flow {
        Visitor::trailing(self.encoder, bytes)
    }
    fn end(&mut self) -> Flow {
        Visitor::end(self.encoder)
    }
}
