//! The kit's driver and event log, and the checks the fuzz targets run (the fuzz crate uses this
//! module as its `harness`; `tests/decode/hostile_replay.rs` replays every saved input through
//! it on stable).
//!
//! - [`Recorder`]: a visitor that logs every event, **each keyframe on its own** (how a bone's
//!   keyframes are split into batches depends on the cuts by design; the keyframes do not), and
//!   pauses or aborts where a [`Plan`] says.
//! - [`drive`]: feeds the input as the plan cuts it, resumes after pauses, follows seeks by
//!   feeding again from the offset asked for, finishes, and checks the driver-level contract
//!   (`position`, consumed counts, sticky errors, `Finished`) and the work bounds ([`Work`]).
//! - [`check_decode`] and [`check_chunking`]: the properties of the two fuzz targets.
//!
//! Needs `gtastream` with the `std` feature (`Package`, `Placement`, `io`).

#[cfg(feature = "std")]
use std::io::Cursor;

#[cfg(feature = "std")]
use gtastream::{io, Package, Placement};
use gtastream::{
    AnimationInfo, BoneInfo, Decoder, Error, ErrorKind, FileInfo, Flow, Format, IplCar,
    IplInstance, Keyframes, Options, SectionLine, Status, Visitor, Warning, REREAD_FACTOR,
    REREAD_SLACK,
};

/// One logged event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ev {
    /// Any event but a keyframe, as text.
    Event(String),
    /// One keyframe: the bits of time, rotation, translation and scale (all NaNs alike).
    Frame([u32; 11]),
    /// The decoder asked to be fed from this offset (logged by the driver, not the visitor).
    Seek(u64),
}

/// The bits of a float, every NaN as one: Rust does not define the sign and payload of a NaN
/// that arithmetic makes (Stories times are sums), so they may differ between two runs.
fn bits(value: f32) -> u32 {
    if value.is_nan() {
        f32::NAN.to_bits()
    } else {
        value.to_bits()
    }
}

/// Records events; pauses at the callbacks the pause mask selects and aborts at the
/// `abort_at`-th event that is not a keyframe batch (a number independent of the cuts).
#[derive(Debug, Default)]
pub struct Recorder {
    pub log: Vec<Ev>,
    /// Callbacks so far (keyframe batches count once).
    pub callbacks: u64,
    /// Events so far, each keyframe counted on its own.
    pub events: u64,
    /// Non-keyframe events so far.
    pub marks: u64,
    pub pauses: u64,
    pub pause_mask: u8,
    pub abort_at: Option<u64>,
    /// The format of the `file` event.
    pub format: Option<Format>,
    pub keyframes: u64,
    pub instances: u64,
    pub cars: u64,
}

impl Recorder {
    pub fn new(pause_mask: u8, abort_at: Option<u64>) -> Self {
        Recorder {
            pause_mask,
            abort_at,
            ..Recorder::default()
        }
    }

    fn flow(&mut self, mark: bool) -> Flow {
        let callback = self.callbacks;
        self.callbacks += 1;
        if mark {
            let index = self.marks;
            self.marks += 1;
            if self.abort_at == Some(index) {
                return Flow::Abort;
            }
        }
        if self.pause_mask >> (callback % 8) & 1 == 1 {
            self.pauses += 1;
            Flow::Pause
        } else {
            Flow::Continue
        }
    }

    fn event(&mut self, text: String) -> Flow {
        self.events += 1;
        self.log.push(Ev::Event(text));
        self.flow(true)
    }
}

impl Visitor for Recorder {
    fn file(&mut self, info: &FileInfo<'_>) -> Flow {
        self.format = Some(info.format);
        self.event(format!("{info:?}"))
    }
    fn animation(&mut self, info: &AnimationInfo<'_>) -> Flow {
        self.event(format!("{info:?}"))
    }
    fn bone(&mut self, info: &BoneInfo<'_>) -> Flow {
        self.event(format!("{info:?}"))
    }
    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        assert!(!frames.is_empty(), "an empty keyframe batch");
        for k in frames.iter() {
            let [x, y, z, w] = k.rotation.map(bits);
            let [tx, ty, tz] = k.translation.map(bits);
            let [sx, sy, sz] = k.scale.map(bits);
            let bits = [bits(k.time), x, y, z, w, tx, ty, tz, sx, sy, sz];
            self.log.push(Ev::Frame(bits));
            self.events += 1;
            self.keyframes += 1;
        }
        self.flow(false)
    }
    fn bone_end(&mut self) -> Flow {
        self.event("bone_end".into())
    }
    fn animation_end(&mut self) -> Flow {
        self.event("animation_end".into())
    }
    fn instance(&mut self, instance: &IplInstance<'_>) -> Flow {
        self.instances += 1;
        self.event(format!("{instance:?}"))
    }
    fn car(&mut self, car: &IplCar) -> Flow {
        self.cars += 1;
        self.event(format!("{car:?}"))
    }
    fn section_line(&mut self, line: &SectionLine<'_>) -> Flow {
        self.event(format!("{line:?}"))
    }
    fn warning(&mut self, warning: Warning) -> Flow {
        self.event(format!(
            "warning {} at {}",
            warning.kind.name(),
            warning.offset
        ))
    }
    fn end(&mut self) -> Flow {
        self.event("end".into())
    }
}

/// How to cut and pause one run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Chunk sizes, used in turn (0 feeds an empty chunk; at least one is non-zero).
    pub sizes: Vec<usize>,
    /// Bit `i % 8` set: pause at callback `i`.
    pub pause_mask: u8,
    /// Abort at this non-keyframe event.
    pub abort_at: Option<u64>,
    pub can_seek: bool,
}

impl Plan {
    /// The whole rest of the input in each `feed`, no pauses.
    pub fn whole(can_seek: bool) -> Self {
        Plan {
            sizes: vec![usize::MAX],
            pause_mask: 0,
            abort_at: None,
            can_seek,
        }
    }

    /// Chunks of `size` bytes.
    pub fn chunks(size: usize, can_seek: bool) -> Self {
        Plan {
            sizes: vec![size],
            ..Plan::whole(can_seek)
        }
    }

    /// Splits a `chunking` fuzz input into its plan and the file:
    /// `n` (1 + low 3 bits: how many size bytes), the size bytes, a pause mask, an abort byte
    /// (bit 7 set: abort at the event of the low 7 bits), a flags byte (bit 0: cannot seek),
    /// then the file.
    pub fn parse(input: &[u8]) -> Option<(Plan, &[u8])> {
        let (&n, rest) = input.split_first()?;
        let n = usize::from(n & 7) + 1;
        if rest.len() < n + 3 {
            return None;
        }
        let (size_bytes, rest) = rest.split_at(n);
        let (&[pause_mask, abort, flags], data) = rest.split_first_chunk::<3>()?;
        let mut sizes: Vec<usize> = size_bytes.iter().map(|&b| chunk_size(b)).collect();
        if sizes.iter().all(|&s| s == 0) {
            sizes.push(1);
        }
        let plan = Plan {
            sizes,
            pause_mask,
            abort_at: (abort & 0x80 != 0).then_some(u64::from(abort & 0x7f)),
            can_seek: flags & 1 == 0,
        };
        Some((plan, data))
    }

    /// The bytes [`Plan::parse`] reads back as this plan (sizes must be ones
    /// [`chunk_size`] can give).
    pub fn to_prefix(&self) -> Vec<u8> {
        assert!((1..=8).contains(&self.sizes.len()));
        let mut out = vec![(self.sizes.len() - 1) as u8];
        for &size in &self.sizes {
            let byte = (0..=255u8)
                .find(|&b| chunk_size(b) == size)
                .expect("a chunk size a byte can select");
            out.push(byte);
        }
        out.push(self.pause_mask);
        out.push(self.abort_at.map_or(0, |a| 0x80 | a as u8));
        out.push(u8::from(!self.can_seek));
        out
    }
}

/// A size byte: 0 an empty feed, 1..=0xEF that many bytes, 0xF0..=0xFE 256 B to 1 MiB,
/// 0xFF the whole rest.
pub fn chunk_size(byte: u8) -> usize {
    match byte {
        0..=0xEF => usize::from(byte),
        0xF0..=0xFE => 1 << (byte - 0xF0 + 8),
        0xFF => usize::MAX,
    }
}

/// What a run cost, counted in steps, never in time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Work {
    /// `feed` calls.
    pub feeds: u64,
    /// Bytes offered to `feed` (what a reader must read).
    pub offered: u64,
    /// Bytes the decoder consumed (skipped bytes included).
    pub consumed: u64,
    /// Bytes the decoder parsed, re-reads included (`Decoder::parsed`): its work.
    pub parsed: u64,
    pub seeks: u64,
    /// Bytes the seeks went back, and the furthest offset fed, as the driver saw them.
    pub rewound: u64,
    pub furthest: u64,
    /// Visitor events (each keyframe counted) and callbacks.
    pub events: u64,
    pub callbacks: u64,
    pub pauses: u64,
}

impl Work {
    /// The re-read ratio: bytes the seeks went back per byte of input.
    pub fn reread_ratio(&self, len: usize) -> f64 {
        self.rewound as f64 / len.max(1) as f64
    }

    /// The documented bounds (SECURITY.md, "bounded work"): panics if one is broken.
    pub fn check_bounds(&self, len: usize) {
        let len = len as u64;
        let parsed_bound = len + REREAD_FACTOR * len + REREAD_SLACK;
        assert!(
            self.parsed <= parsed_bound,
            "parsed {} bytes of a {len}-byte input: {self:?}",
            self.parsed
        );
        // Every event needs a unit of at least 2 bytes; the few that need none (checks,
        // ends) come with one that does.
        assert!(
            self.events <= self.parsed + 16,
            "{} events from {} bytes: {self:?}",
            self.events,
            self.parsed
        );
        // Each seek leads to a unit read for an event, or to a pass over a Stories
        // relocation table; a pass after the first reads at least 512 entries (2 KiB).
        assert!(
            self.seeks <= 2 * self.events + self.parsed / 2048 + 40,
            "{} seeks for {} events: {self:?}",
            self.seeks,
            self.events
        );
    }
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub log: Vec<Ev>,
    pub error: Option<Error>,
    pub work: Work,
    pub format: Option<Format>,
    pub keyframes: u64,
    pub instances: u64,
    pub cars: u64,
}

impl Outcome {
    /// The log without the driver's seek entries.
    pub fn events(&self) -> Vec<Ev> {
        self.log
            .iter()
            .filter(|e| !matches!(e, Ev::Seek(_)))
            .cloned()
            .collect()
    }
}

/// Decodes `data` as `plan` says, checking the driver-level contract on the way.
pub fn drive(data: &[u8], plan: &Plan) -> Outcome {
    let mut decoder = Decoder::with_options(Options {
        can_seek: plan.can_seek,
    });
    let mut recorder = Recorder::new(plan.pause_mask, plan.abort_at);
    let mut work = Work::default();
    let result = run(&mut decoder, &mut recorder, data, plan, &mut work);
    // Errors are sticky; after a clean finish every call says `Finished`.
    let expected = match result {
        Err(error) => {
            assert_eq!(decoder.error(), Some(error));
            error
        }
        Ok(()) => {
            assert_eq!(decoder.error(), None);
            assert_eq!(decoder.position(), data.len() as u64, "position at the end");
            Error {
                kind: ErrorKind::Finished,
                offset: data.len() as u64,
            }
        }
    };
    let mut quiet = Recorder::default();
    assert_eq!(decoder.feed(b"more", &mut quiet).err(), Some(expected));
    assert_eq!(decoder.feed(&[], &mut quiet).err(), Some(expected));
    assert_eq!(decoder.finish(&mut quiet).err(), Some(expected));
    assert!(
        quiet.log.is_empty(),
        "events after the end: {:?}",
        quiet.log
    );
    work.events = recorder.events;
    work.callbacks = recorder.callbacks;
    work.pauses = recorder.pauses;
    Outcome {
        log: recorder.log,
        error: result.err(),
        work,
        format: recorder.format,
        keyframes: recorder.keyframes,
        instances: recorder.instances,
        cars: recorder.cars,
    }
}

fn run(
    decoder: &mut Decoder,
    recorder: &mut Recorder,
    data: &[u8],
    plan: &Plan,
    work: &mut Work,
) -> Result<(), Error> {
    let mut at = 0usize;
    let mut turn = 0usize;
    loop {
        if at >= data.len() {
            let result = decoder.finish(recorder);
            work.parsed = decoder.parsed();
            return result;
        }
        let size = plan.sizes[turn % plan.sizes.len()];
        turn += 1;
        let end = at.saturating_add(size).min(data.len());
        let chunk = &data[at..end];
        let mut offset = 0;
        loop {
            // The decoder wants exactly the byte the driver is about to give.
            assert_eq!(decoder.position(), (at + offset) as u64, "position");
            let piece = &chunk[offset..];
            work.feeds += 1;
            work.offered += piece.len() as u64;
            let pauses_before = recorder.pauses;
            let from = decoder.position();
            let progress = match decoder.feed(piece, recorder) {
                Ok(progress) => progress,
                Err(error) => {
                    // What the decoder got through before it failed: at least up to the unit
                    // that failed, when that lies in this piece.
                    let end = from + piece.len() as u64;
                    let failed_at = error.offset.clamp(from, end);
                    work.consumed += decoder.position().clamp(from, end).max(failed_at) - from;
                    work.parsed = decoder.parsed();
                    return Err(error);
                }
            };
            assert!(progress.consumed <= piece.len());
            work.consumed += progress.consumed as u64;
            let reached = (at + offset + progress.consumed) as u64;
            work.furthest = work.furthest.max(reached);
            match progress.status {
                Status::Paused => {
                    assert!(recorder.pauses > pauses_before, "paused without a pause");
                    offset += progress.consumed;
                }
                Status::Seek(target) => {
                    assert!(plan.can_seek, "a seek request without can_seek");
                    assert_eq!(decoder.position(), target);
                    work.seeks += 1;
                    if target < reached {
                        // Seeks back follow the file; seeks ahead, past the chunk at hand,
                        // follow the chunking, so only the former are events to compare.
                        recorder.log.push(Ev::Seek(target));
                        work.rewound += reached - target;
                    } else {
                        assert!(target > end as u64, "a seek ahead into the chunk at hand");
                    }
                    at = target as usize;
                    break;
                }
                Status::NeedInput | Status::Done => {
                    assert_eq!(progress.consumed, piece.len(), "input left unconsumed");
                    at = end;
                    break;
                }
            }
        }
    }
}

#[cfg(feature = "std")]
/// The `decode` target: arbitrary bytes through every entry point. No panic (libFuzzer
/// reports it), no hang (`-timeout`), bounded work; and the runs agree with each other.
pub fn check_decode(data: &[u8]) {
    let seeking = drive(data, &Plan::whole(true));
    seeking.work.check_bounds(data.len());
    if seeking.error.is_none() {
        // `Visitor::file`: "always the first event" (warnings about the header, and the seeks
        // a Stories table check needs, may precede it).
        let first = seeking.log.iter().find(|e| match e {
            Ev::Event(e) => !e.starts_with("warning"),
            Ev::Frame(_) => true,
            Ev::Seek(_) => false,
        });
        assert!(
            matches!(first, Some(Ev::Event(e)) if e.starts_with("FileInfo")),
            "a clean decode without a file event first: {:?}",
            seeking.log
        );
    }

    // The convenience entry point sees the same events.
    let mut recorder = Recorder::default();
    let result = Decoder::new().decode_slice(data, &mut recorder);
    assert_eq!(result.err(), seeking.error, "decode_slice");
    assert_eq!(recorder.log, seeking.events(), "decode_slice");

    // So does a reader that can seek, also when the file starts inside it.
    let mut inside = b"pad".to_vec();
    inside.extend_from_slice(data);
    let mut reader = Cursor::new(&inside[..]);
    reader.set_position(3);
    let (log, error) = from_reader(|d, v| io::decode_reader(d, &mut reader, v));
    assert_eq!(error, seeking.error, "io::decode_reader");
    assert_eq!(log, seeking.events(), "io::decode_reader");

    // A caller that cannot seek gets everything up to the first seek, then `SeekRequired`
    // naming that offset.
    let streaming = drive(data, &Plan::whole(false));
    streaming.work.check_bounds(data.len());
    let (log, error) = from_reader(|d, v| io::decode_stream(d, &mut Cursor::new(data), v));
    assert_eq!(error, streaming.error, "io::decode_stream");
    assert_eq!(log, streaming.log, "io::decode_stream");
    match seeking.log.iter().position(|e| matches!(e, Ev::Seek(_))) {
        None => {
            assert_eq!(streaming.log, seeking.log, "no seek needed");
            assert_eq!(streaming.error, seeking.error, "no seek needed");
        }
        Some(i) => {
            let Ev::Seek(target) = seeking.log[i] else {
                unreachable!()
            };
            assert_eq!(streaming.log, seeking.log[..i], "before the first seek");
            let required = Error {
                kind: ErrorKind::SeekRequired,
                offset: target,
            };
            assert_eq!(streaming.error, Some(required), "at the first seek");
        }
    }

    // The whole-file types fail exactly when the events do, and hold what they reported.
    let animation = seeking.format.map(Format::is_animation);
    let package = Package::parse(data);
    match (&package, animation) {
        (Ok(package), Some(true)) => {
            assert_eq!(seeking.error, None, "Package::parse");
            let frames: usize = package
                .animations
                .iter()
                .flat_map(|a| &a.bones)
                .map(|b| b.frames.len())
                .sum();
            assert_eq!(frames as u64, seeking.keyframes, "Package keyframes");
        }
        (Err(error), Some(true)) => assert_eq!(Some(*error), seeking.error, "Package::parse"),
        (Err(error), Some(false)) => assert_eq!(error.kind, ErrorKind::BadMagic),
        (Err(error), None) => assert_eq!(Some(*error), seeking.error, "Package::parse"),
        (Ok(_), _) => panic!("a package from {:?}", seeking.format),
    }
    let placement = Placement::parse(data);
    match (&placement, animation) {
        (Ok(placement), Some(false)) => {
            assert_eq!(seeking.error, None, "Placement::parse");
            assert_eq!(placement.instances.len() as u64, seeking.instances);
            assert_eq!(placement.cars.len() as u64, seeking.cars);
        }
        (Err(error), Some(false)) => {
            assert_eq!(Some(*error), seeking.error, "Placement::parse")
        }
        (Err(error), Some(true)) => assert_eq!(error.kind, ErrorKind::BadMagic),
        (Err(error), None) => assert_eq!(Some(*error), seeking.error, "Placement::parse"),
        (Ok(_), _) => panic!("a placement from {:?}", seeking.format),
    }
}

#[cfg(feature = "std")]
/// Runs an `io` entry point with a fresh decoder and recorder: the events and the decode
/// error (a read from memory cannot fail).
fn from_reader(
    decode: impl FnOnce(&mut Decoder, &mut Recorder) -> Result<(), io::ReadError>,
) -> (Vec<Ev>, Option<Error>) {
    let mut recorder = Recorder::default();
    let error = match decode(&mut Decoder::new(), &mut recorder) {
        Ok(()) => None,
        Err(io::ReadError::Decode(error)) => Some(error),
        Err(io::ReadError::Io(error)) => panic!("reading memory failed: {error}"),
    };
    (recorder.log, error)
}

/// The `chunking` target: the file cut as the plan says, with its pauses, reports what the
/// whole file in one piece does: the same events (each keyframe on its own), warnings,
/// errors, offsets and seeks.
pub fn check_chunking(plan: &Plan, data: &[u8]) {
    let reference = drive(
        data,
        &Plan {
            sizes: vec![usize::MAX],
            pause_mask: 0,
            ..plan.clone()
        },
    );
    let cut = drive(data, plan);
    assert_eq!(cut.error, reference.error, "error with {plan:?}");
    if cut.log != reference.log {
        let same = cut
            .log
            .iter()
            .zip(&reference.log)
            .take_while(|(a, b)| a == b)
            .count();
        panic!(
            "logs differ with {plan:?} after {same} entries:\n  cut:   {:?}\n  whole: {:?}",
            cut.log.get(same),
            reference.log.get(same)
        );
    }
    // Seeks ahead follow the chunking; seeks back are in the logs compared above.
    assert_eq!(cut.work.rewound, reference.work.rewound);
    cut.work.check_bounds(data.len());
}
