//! The event log: one owned [`Ev`] per visitor event, **one per keyframe** (how a bone's
//! keyframes are split into batches depends on the cuts by design; the keyframes do not),
//! comparable (floats by their bits) and printable (one line per event, [`fmt::Display`]).
//! [`Recorder`] is the visitor that writes it, checks each batch against its bone as it
//! arrives, and pauses or aborts where its [`Policy`] says. The reference decoders of the kit
//! write the same log, so a test compares the two with `assert_eq!`.
//!
//! Its modes: [`Recorder::exact`] (keyframes compared by every float's bits, NaN payloads
//! included), [`Recorder::without_warnings`] (a writer's output is compared with its source
//! without the source's warnings), and archive events (the recorder is an [`ArchiveVisitor`]
//! too: the archive, each entry with the [`Choice`] made, its result, archive warnings).

use std::fmt;

use gtastream::archive::{
    ArchiveInfo, ArchiveVersion, ArchiveVisitor, ArchiveWarning, ArchiveWarningKind, Choice, Entry,
};
use gtastream::{
    AnimationInfo, BoneInfo, Error, ErrorKind, FileInfo, Flow, Format, FrameType, Keyframe,
    Keyframes, RawFrame, Record, Visitor, Warning, WarningKind,
};

use crate::ipl::{Car, Inst};

/// A keyframe compared bit for bit (−0 differs from +0); any NaN equals any NaN, since the
/// formats do not say which NaN a stored NaN becomes (and Stories times are sums).
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

/// The bits of a keyframe's floats: time, rotation, translation, scale.
pub fn frame_bits(k: &Keyframe) -> [u32; 11] {
    let mut out = [0; 11];
    let values = [k.time]
        .into_iter()
        .chain(k.rotation)
        .chain(k.translation)
        .chain(k.scale);
    for (o, v) in out.iter_mut().zip(values) {
        *o = v.to_bits();
    }
    out
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

/// One logged event, owned.
#[derive(Clone, Debug, PartialEq)]
pub enum Ev {
    File {
        format: Format,
        name: Option<Vec<u8>>,
        animation_count: u32,
        instance_count: Option<u32>,
        car_count: Option<u32>,
    },
    Animation {
        index: u32,
        name: Vec<u8>,
        bone_count: u32,
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
        frame_count: u32,
    },
    /// One keyframe of a batch.
    Frame {
        frame_type: FrameType,
        /// The stored record, as `Keyframes::as_bytes` gives it.
        bytes: Vec<u8>,
        frame: Bits,
        /// `Keyframes::raw` (packed IFP2 types only).
        raw: Option<RawFrame>,
        /// Exact logs only ([`Recorder::exact`]): [`frame_bits`], so that NaN payloads count
        /// (boxed: most logs are not exact, and every event would pay for it).
        exact: Option<Box<[u32; 11]>>,
    },
    BoneEnd,
    AnimationEnd,
    Instance(Inst),
    Car(Car),
    Line {
        section: String,
        text: Vec<u8>,
        fields: Vec<Vec<u8>>,
    },
    /// A record of a model (a DFF kind or a skipped RenderWare section), as its `Debug` text
    /// (exact: floats print as the shortest text that reads back to the same bits).
    Model(String),
    Warning(WarningKind, u64),
    End,
    /// Not a visitor event: how a log of a failed decode ends.
    Error(ErrorKind, u64),
    Archive {
        version: ArchiveVersion,
        entry_count: u32,
    },
    /// An entry, with the choice the recorder made for it.
    Entry {
        index: u32,
        name: Vec<u8>,
        offset: u64,
        size: u64,
        declared_size: u64,
        format: Option<Format>,
        choice: Choice,
    },
    EntryEnd(Result<(), Error>),
    /// Kind, offset, entry index.
    ArchiveWarning(ArchiveWarningKind, u64, u32),
}

impl Ev {
    pub fn warning(kind: WarningKind, offset: u64) -> Ev {
        Ev::Warning(kind, offset)
    }

    pub fn error(kind: ErrorKind, offset: u64) -> Ev {
        Ev::Error(kind, offset)
    }

    pub fn keyframe(&self) -> Option<Keyframe> {
        match self {
            Ev::Frame { frame, .. } => Some(frame.0),
            _ => None,
        }
    }

    pub fn is_warning(&self) -> bool {
        matches!(self, Ev::Warning(..))
    }

    /// The `file` event of a text IPL.
    pub fn is_text_file(&self) -> bool {
        matches!(
            self,
            Ev::File {
                format: Format::IplText,
                ..
            }
        )
    }
}

fn latin1(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| char::from(b)).collect()
}

/// One line per event, for messages and for tests that look for words.
impl fmt::Display for Ev {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ev::File {
                format,
                name,
                animation_count,
                instance_count,
                car_count,
            } => write!(
                f,
                "file {} name={:?} animations={animation_count} instances={instance_count:?} \
                 cars={car_count:?}",
                format.name(),
                name.as_deref().map(latin1),
            ),
            Ev::Animation {
                index,
                name,
                bone_count,
                frame_data_size,
                flags,
                duration,
            } => write!(
                f,
                "animation {index} {:?} bones={bone_count} fds={frame_data_size:?} \
                 flags={flags:?} duration={:?}",
                latin1(name),
                duration.map(f32::from_bits),
            ),
            Ev::Bone {
                index,
                name,
                bone_id,
                bone_key,
                frame_type,
                frame_count,
            } => write!(
                f,
                "bone {index} {:?} id={bone_id:?} key={bone_key:?} {} frames={frame_count}",
                name.as_deref().map(latin1),
                frame_type.name(),
            ),
            Ev::Frame { frame, .. } => {
                let k = frame.0;
                write!(
                    f,
                    "key {:?} {:?} {:?} {:?}",
                    k.time, k.rotation, k.translation, k.scale
                )
            }
            Ev::BoneEnd => f.write_str("bone_end"),
            Ev::AnimationEnd => f.write_str("animation_end"),
            Ev::Instance(i) => write!(f, "instance {i:?}"),
            Ev::Car(c) => write!(f, "car {c:?}"),
            Ev::Line { section, text, .. } => write!(f, "line {section} {:?}", latin1(text)),
            Ev::Model(record) => f.write_str(record),
            Ev::Warning(kind, at) => write!(f, "warning {}@{at}", kind.name()),
            Ev::End => f.write_str("end"),
            Ev::Error(kind, at) => write!(f, "error {kind:?}@{at}"),
            Ev::Archive {
                version,
                entry_count,
            } => write!(f, "archive {} entries={entry_count}", version.name()),
            Ev::Entry {
                index,
                name,
                offset,
                size,
                declared_size,
                format,
                choice,
            } => write!(
                f,
                "entry {index} {:?} at={offset} size={size} declared={declared_size} {} {choice:?}",
                latin1(name),
                format.map_or("-", Format::name),
            ),
            Ev::EntryEnd(result) => write!(f, "entry_end {result:?}"),
            Ev::ArchiveWarning(kind, at, index) => {
                write!(f, "archive_warning {}@{at} entry {index}", kind.name())
            }
        }
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

/// What the [`Recorder`] answers. Calls are counted from 0, a keyframe batch as one call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    Continue,
    /// Pause at the call of this index.
    PauseAt(usize),
    /// Pause at every call.
    PauseEvery,
    /// Abort at the call of this index.
    AbortAt(usize),
    /// Abort at the n-th call that is not `keyframes` (such calls do not depend on the cuts).
    AbortAtNonFrame(usize),
    /// The fuzz targets' plan: pause at call `i` when bit `i % 8` of `pause_mask` is set;
    /// abort at the non-keyframe call `abort_at`.
    Mask {
        pause_mask: u8,
        abort_at: Option<u64>,
    },
}

/// Logs every event and checks each batch against its bone; answers as its [`Policy`] says.
#[derive(Debug)]
pub struct Recorder {
    pub events: Vec<Ev>,
    pub policy: Policy,
    /// Visitor calls so far (a keyframe batch is one).
    pub calls: usize,
    /// Calls that were not `keyframes`.
    pub marks: usize,
    /// Pause answers given so far.
    pub pauses_requested: usize,
    /// Keyframe batches so far.
    pub batches: usize,
    /// Events so far, each keyframe counted on its own.
    pub event_count: u64,
    /// The current bone's frame type and the frames it still expects.
    bone: Option<(FrameType, u32)>,
    exact: bool,
    warnings: bool,
    /// What to do with each archive entry.
    choose: fn(&Entry<'_>) -> Choice,
    /// Text IPL: the stored lines as they came (the events' `raw`, `text_line`), each with the
    /// number of events before it: written back in order they are the text.
    pub stored: Vec<(usize, Vec<u8>)>,
}

fn decode_every(_: &Entry<'_>) -> Choice {
    Choice::Decode
}

impl Default for Recorder {
    fn default() -> Self {
        Recorder::new(Policy::Continue)
    }
}

impl Recorder {
    pub fn new(policy: Policy) -> Self {
        Recorder {
            events: Vec::new(),
            policy,
            calls: 0,
            marks: 0,
            pauses_requested: 0,
            batches: 0,
            event_count: 0,
            bone: None,
            exact: false,
            warnings: true,
            choose: decode_every,
            stored: Vec::new(),
        }
    }

    /// Logs each keyframe's bits too ([`Ev::Frame`]'s `exact`): NaN payloads count.
    pub fn exact(self) -> Self {
        Recorder {
            exact: true,
            ..self
        }
    }

    /// Leaves warnings out of the log (they are still visitor calls for the [`Policy`]).
    pub fn without_warnings(self) -> Self {
        Recorder {
            warnings: false,
            ..self
        }
    }

    /// Answers each archive entry with `choose` (by default every entry is decoded).
    pub fn choosing(self, choose: fn(&Entry<'_>) -> Choice) -> Self {
        Recorder { choose, ..self }
    }

    /// A fresh recorder that continues the decode `self` saw so far (knows the current bone),
    /// in the same modes.
    pub fn continuing(&self, policy: Policy) -> Self {
        Recorder {
            bone: self.bone,
            exact: self.exact,
            warnings: self.warnings,
            choose: self.choose,
            ..Recorder::new(policy)
        }
    }

    fn store(&mut self, raw: &[u8]) {
        if !raw.is_empty() {
            self.stored.push((self.events.len(), raw.to_vec()));
        }
    }

    fn push(&mut self, ev: Ev) -> Flow {
        self.events.push(ev);
        self.event_count += 1;
        self.answer(false)
    }

    fn answer(&mut self, is_frames: bool) -> Flow {
        let call = self.calls;
        self.calls += 1;
        let mark = self.marks;
        if !is_frames {
            self.marks += 1;
        }
        let flow = match self.policy {
            Policy::Continue => Flow::Continue,
            Policy::PauseAt(k) if k == call => Flow::Pause,
            Policy::PauseEvery => Flow::Pause,
            Policy::AbortAt(k) if k == call => Flow::Abort,
            Policy::AbortAtNonFrame(k) if !is_frames && k == mark => Flow::Abort,
            Policy::Mask { abort_at, .. } if !is_frames && abort_at == Some(mark as u64) => {
                Flow::Abort
            }
            Policy::Mask { pause_mask, .. } if pause_mask >> (call % 8) & 1 == 1 => Flow::Pause,
            _ => Flow::Continue,
        };
        if flow == Flow::Pause {
            self.pauses_requested += 1;
        }
        flow
    }
}

impl Visitor for Recorder {
    fn file(&mut self, info: &FileInfo<'_>) -> Flow {
        self.push(Ev::File {
            format: info.format,
            name: info.name.map(<[u8]>::to_vec),
            animation_count: info.animation_count,
            instance_count: info.instance_count,
            car_count: info.car_count,
        })
    }

    fn animation(&mut self, info: &AnimationInfo<'_>) -> Flow {
        assert!(self.bone.is_none(), "an animation inside a bone");
        self.push(Ev::Animation {
            index: info.index,
            name: info.name.to_vec(),
            bone_count: info.bone_count,
            frame_data_size: info.frame_data_size,
            flags: info.flags,
            duration: info.duration.map(f32::to_bits),
        })
    }

    fn bone(&mut self, info: &BoneInfo<'_>) -> Flow {
        assert_eq!(info.has_translation(), info.frame_type.has_translation());
        assert_eq!(info.has_scale(), info.frame_type.has_scale());
        self.bone = Some((info.frame_type, info.frame_count));
        self.push(Ev::Bone {
            index: info.index,
            name: info.name.map(<[u8]>::to_vec),
            bone_id: info.bone_id,
            bone_key: info.bone_key,
            frame_type: info.frame_type,
            frame_count: info.frame_count,
        })
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
        let size = t.size();
        let bytes = frames.as_bytes();
        assert_eq!(bytes.len(), frames.len() * size, "as_bytes length");
        assert_eq!(frames.iter().len(), frames.len());
        let mut raw = frames.raw();
        assert_eq!(raw.is_some(), t.is_packed(), "raw() only for packed types");
        if let Some(r) = &raw {
            assert_eq!(r.len(), frames.len());
        }
        let mut decoded = 0;
        for (frame, record) in frames.iter().zip(bytes.chunks_exact(size)) {
            self.events.push(Ev::Frame {
                frame_type: t,
                bytes: record.to_vec(),
                frame: Bits(frame),
                raw: raw
                    .as_mut()
                    .map(|r| r.next().expect("a raw frame per frame")),
                exact: self.exact.then(|| Box::new(frame_bits(&frame))),
            });
            decoded += 1;
        }
        assert_eq!(decoded, frames.len());
        self.event_count += decoded as u64;
        self.batches += 1;
        self.answer(true)
    }

    fn bone_end(&mut self) -> Flow {
        let (_, left) = self.bone.take().expect("bone_end outside a bone");
        assert_eq!(left, 0, "bone ended before its frames");
        self.push(Ev::BoneEnd)
    }

    fn animation_end(&mut self) -> Flow {
        assert!(self.bone.is_none(), "animation ended inside a bone");
        self.push(Ev::AnimationEnd)
    }

    fn record(&mut self, record: &Record<'_>) -> Flow {
        match record {
            Record::Instance(i) => {
                self.store(i.raw);
                self.push(Ev::Instance(Inst {
                    position: i.position,
                    rotation: i.rotation,
                    model_id: i.model_id,
                    interior: i.interior,
                    lod: i.lod,
                    model_name: i.model_name.map(<[u8]>::to_vec),
                    scale: i.scale,
                }))
            }
            Record::Car(c) => {
                self.store(c.raw);
                self.push(Ev::Car(Car::new(c.position, c.angle, c.ints())))
            }
            Record::SectionLine(line) => {
                self.store(line.raw);
                self.push(Ev::Line {
                    section: line.section.to_owned(),
                    text: line.text.to_vec(),
                    fields: line.fields().map(<[u8]>::to_vec).collect(),
                })
            }
            record => self.push(Ev::Model(format!("{record:?}"))),
        }
    }

    fn warning(&mut self, warning: Warning) -> Flow {
        if self.warnings {
            self.push(Ev::Warning(warning.kind, warning.offset))
        } else {
            self.answer(false)
        }
    }

    fn text_line(&mut self, raw: &[u8]) -> Flow {
        assert!(!raw.is_empty(), "an empty stored line");
        self.store(raw);
        self.answer(false)
    }

    fn end(&mut self) -> Flow {
        self.push(Ev::End)
    }
}

impl ArchiveVisitor for Recorder {
    fn archive(&mut self, info: &ArchiveInfo) -> Flow {
        self.push(Ev::Archive {
            version: info.version,
            entry_count: info.entry_count,
        })
    }

    fn entry(&mut self, entry: &Entry<'_>) -> Choice {
        // A failed entry leaves its bone open; each entry is a file of its own.
        self.bone = None;
        let choice = (self.choose)(entry);
        self.events.push(Ev::Entry {
            index: entry.index,
            name: entry.name.to_vec(),
            offset: entry.offset,
            size: entry.size,
            declared_size: entry.declared_size,
            format: entry.format,
            choice,
        });
        self.event_count += 1;
        choice
    }

    fn entry_end(&mut self, result: Result<(), Error>) -> Flow {
        self.bone = None;
        self.push(Ev::EntryEnd(result))
    }

    fn archive_warning(&mut self, warning: ArchiveWarning) -> Flow {
        self.push(Ev::ArchiveWarning(
            warning.kind,
            warning.offset,
            warning.index,
        ))
    }
}
