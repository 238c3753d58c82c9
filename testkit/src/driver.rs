//! The driver: feeds a file to a decoder under any cut ([`Cut`]: whole, byte by byte, any
//! split, given chunk sizes), re-feeds after every pause, follows the seek protocol (feeds again
//! from the offset a `Status::Seek` asks for), finishes, and checks the driver-level contract on
//! the way; it logs with the kit's [`Recorder`] and counts the work ([`Work`]). Also the checks
//! the fuzz targets run ([`check_decode`], [`check_chunking`]): the fuzz crate uses this module
//! as its `harness`, and `tests/decode/hostile_replay.rs` replays every saved input through it.

#[cfg(feature = "std")]
use std::io::Cursor;

#[cfg(feature = "std")]
use gtastream::{io, Package, Placement};
use gtastream::{
    Decoder, Error, ErrorKind, Format, Game, Options, Status, REREAD_FACTOR, REREAD_SLACK,
};

pub use crate::log::{Ev, Policy, Recorder};

/// How the bytes are cut into `feed` calls.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cut {
    /// Everything from the current position in one call.
    Whole,
    /// At most this many bytes per call, counted from where the caller is (also after a seek).
    Chunk(usize),
    /// These sizes in turn (0: an empty feed; at least one is not 0).
    Sizes(Vec<usize>),
    /// Chunks end at these absolute offsets (and at the end of the data).
    At(Vec<usize>),
}

impl Cut {
    /// One byte per call.
    pub fn bytewise() -> Cut {
        Cut::Chunk(1)
    }

    /// Every 2-way split of `len` bytes (the first part may be empty).
    pub fn every_split(len: usize) -> impl Iterator<Item = Cut> {
        (0..=len).map(|k| Cut::At(vec![k]))
    }

    /// The end of the chunk that starts at `pos` (`turn`: how many chunks came before).
    pub fn end(&self, pos: usize, turn: usize, len: usize) -> usize {
        match self {
            Cut::Whole => len,
            Cut::Chunk(n) => pos.saturating_add(*n).min(len),
            Cut::Sizes(sizes) => pos.saturating_add(sizes[turn % sizes.len()]).min(len),
            Cut::At(cuts) => cuts
                .iter()
                .copied()
                .filter(|&c| c > pos && c < len)
                .min()
                .unwrap_or(len),
        }
    }
}

/// The fuzz targets' plan: how to cut, pause and abort one run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Chunk sizes, used in turn (0 feeds an empty chunk; at least one is non-zero).
    pub sizes: Vec<usize>,
    /// Bit `i % 8` set: pause at callback `i`.
    pub pause_mask: u8,
    /// Abort at this non-keyframe event.
    pub abort_at: Option<u64>,
    pub can_seek: bool,
    /// Text IPL: the game named by the caller (`Options::game`).
    pub game: Option<Game>,
}

/// The game of flags bits 2..=3 (0: decided by the file), and back. (Bit 1 is the `capi`
/// target's.)
fn game_of(flags: u8) -> Option<Game> {
    match (flags >> 2) & 3 {
        1 => Some(Game::Iii),
        2 => Some(Game::ViceCity),
        3 => Some(Game::SanAndreas),
        _ => None,
    }
}

fn game_bits(game: Option<Game>) -> u8 {
    match game {
        None => 0,
        Some(Game::Iii) => 1 << 2,
        Some(Game::ViceCity) => 2 << 2,
        Some(Game::SanAndreas) => 3 << 2,
    }
}

impl Plan {
    /// The whole rest of the input in each `feed`, no pauses.
    pub fn whole(can_seek: bool) -> Self {
        Plan {
            sizes: vec![usize::MAX],
            pause_mask: 0,
            abort_at: None,
            can_seek,
            game: None,
        }
    }

    /// Chunks of `size` bytes.
    pub fn chunks(size: usize, can_seek: bool) -> Self {
        Plan {
            sizes: vec![size],
            ..Plan::whole(can_seek)
        }
    }

    /// What the [`Recorder`] answers under this plan.
    pub fn policy(&self) -> Policy {
        Policy::Mask {
            pause_mask: self.pause_mask,
            abort_at: self.abort_at,
        }
    }

    /// Splits a `chunking` fuzz input into its plan and the file:
    /// `n` (1 + low 3 bits: how many size bytes), the size bytes, a pause mask, an abort byte
    /// (bit 7 set: abort at the event of the low 7 bits), a flags byte (bit 0: cannot seek;
    /// bits 2..=3: the game of a text IPL, 0 decided by the file), then the file.
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
            game: game_of(flags),
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
        out.push(u8::from(!self.can_seek) | game_bits(self.game));
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
    /// Bytes parsed per byte of the input: 1 for an input read once.
    pub fn reread_ratio(&self, len: usize) -> f64 {
        self.parsed as f64 / len.max(1) as f64
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

/// The bound `REREAD_FACTOR` documents, on the driver's own tally.
fn reread_bound(furthest: u64) -> u64 {
    REREAD_FACTOR * furthest + REREAD_SLACK
}

/// What one run did.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// Every event (without the error).
    pub log: Vec<Ev>,
    pub error: Option<Error>,
    /// The offsets of the seeks back, in order (seeks ahead follow the cuts, so they are not
    /// compared), and how many events preceded each.
    pub seeks: Vec<u64>,
    pub seeks_after: Vec<usize>,
    /// For every `Status::Paused`: the events so far, and `Decoder::position()` then.
    pub pauses: Vec<(usize, u64)>,
    /// Visitor calls (a keyframe batch is one), of which made by `finish` (which does not
    /// honour pauses); keyframe batches.
    pub calls: usize,
    pub finish_calls: usize,
    pub batches: usize,
    /// `Decoder::position()` when `feed` first answered `Done`.
    pub done_at: Option<u64>,
    /// `Decoder::line()` after the run.
    pub line: Option<u32>,
    /// Text IPL: the stored lines, each after so many events ([`Recorder::stored`]).
    pub stored: Vec<(usize, Vec<u8>)>,
    pub work: Work,
}

impl Outcome {
    /// The log, ending with `Ev::Error` if the run failed.
    pub fn logged(&self) -> Vec<Ev> {
        let mut log = self.log.clone();
        if let Some(e) = self.error {
            log.push(Ev::Error(e.kind, e.offset));
        }
        log
    }

    /// The format of the `file` event.
    pub fn format(&self) -> Option<Format> {
        self.log.iter().find_map(|e| match e {
            Ev::File { format, .. } => Some(*format),
            _ => None,
        })
    }

    /// Events the predicate selects.
    pub fn count(&self, pred: impl Fn(&Ev) -> bool) -> u64 {
        self.log.iter().filter(|e| pred(e)).count() as u64
    }
}

/// Decodes `data` cut as `cut` says, seeking where asked (the game told by the file).
pub fn drive_cut(data: &[u8], cut: &Cut, policy: Policy, can_seek: bool) -> Outcome {
    let options = Options {
        can_seek,
        ..Options::DEFAULT
    };
    drive_cut_with(data, cut, policy, options)
}

/// [`drive_cut`] with a decoder made with `options`.
pub fn drive_cut_with(data: &[u8], cut: &Cut, policy: Policy, options: Options) -> Outcome {
    let mut turn = 0;
    let mut next_end = |pos: usize| {
        turn += 1;
        cut.end(pos, turn - 1, data.len())
    };
    drive_with(data, &mut next_end, policy, options)
}

/// Decodes `data` as a fuzz `plan` says.
pub fn drive(data: &[u8], plan: &Plan) -> Outcome {
    let options = Options {
        can_seek: plan.can_seek,
        game: plan.game,
    };
    drive_cut_with(
        data,
        &Cut::Sizes(plan.sizes.clone()),
        plan.policy(),
        options,
    )
}

/// The driver. Feeds `data` to a decoder made with `options` in chunks (`next_end(p)` is the
/// end of the chunk that starts at `p`; `p` itself gives an empty feed), answering events as `policy` says; re-feeds
/// the rest after a pause (also when nothing is left: the decoder may want to seek back rather
/// than end), restarts at the offset a seek asks for, goes on feeding after `Done`, finishes.
/// Checks on the way:
/// - `position()` always names the next byte the driver gives;
/// - `consumed` never exceeds the chunk, and only a pause or a seek leaves bytes unused;
/// - `Paused` answers exactly one pause request, other answers none;
/// - a seek only with `can_seek`, back or ahead past the chunk at hand; every seek keeps the
///   bytes parsed within the documented re-read bound (`REREAD_FACTOR`);
/// - no `NeedInput` after `Done`; a clean run ends with `End`;
/// - after the end, `feed` and `finish` repeat the error (or `Finished`) and report nothing.
pub fn drive_with(
    data: &[u8],
    next_end: &mut dyn FnMut(usize) -> usize,
    policy: Policy,
    options: Options,
) -> Outcome {
    let mut decoder = Decoder::with_options(options);
    let mut rec = Recorder::new(policy);
    let mut work = Work::default();
    let mut seeks = Vec::new();
    let mut seeks_after = Vec::new();
    let mut pauses = Vec::new();
    let mut done_at = None;
    let mut beyond = None;
    let mut at = 0usize;
    let failed = 'feeding: loop {
        if at >= data.len() {
            break None;
        }
        let end = next_end(at).min(data.len());
        assert!(end >= at, "cuts move forward");
        let chunk = &data[at..end];
        let mut offset = 0;
        loop {
            assert_eq!(decoder.position(), (at + offset) as u64, "position()");
            let piece = &chunk[offset..];
            work.feeds += 1;
            work.offered += piece.len() as u64;
            assert!(
                work.feeds < 50 * (data.len() as u64 + 100),
                "the decoder makes no progress"
            );
            let requested = rec.pauses_requested;
            let from = decoder.position();
            let progress = match decoder.feed(piece, &mut rec) {
                Ok(progress) => progress,
                Err(error) => {
                    // What the decoder got through before it failed: at least up to the unit
                    // that failed, when that lies in this piece.
                    let end = from + piece.len() as u64;
                    let failed_at = error.offset.clamp(from, end);
                    work.consumed += decoder.position().clamp(from, end).max(failed_at) - from;
                    let seeking = matches!(
                        rec.events.iter().find(|e| matches!(e, Ev::File { .. })),
                        Some(Ev::File {
                            format: Format::Anim | Format::IplBinary,
                            ..
                        })
                    );
                    if error.kind == ErrorKind::Limit && seeking {
                        // A refused seek (these formats have no other bound to exceed): it
                        // would have broken the documented bound.
                        let furthest = work.furthest.max(decoder.position());
                        assert!(
                            decoder.parsed() > reread_bound(furthest),
                            "Limit at {} with {} bytes parsed of {furthest}",
                            error.offset,
                            decoder.parsed()
                        );
                    }
                    break 'feeding Some(error);
                }
            };
            assert!(
                progress.consumed <= piece.len(),
                "consumed beyond the chunk"
            );
            work.consumed += progress.consumed as u64;
            let reached = from + progress.consumed as u64;
            work.furthest = work.furthest.max(reached);
            let new_requests = rec.pauses_requested - requested;
            match progress.status {
                Status::Paused => {
                    assert_eq!(new_requests, 1, "Paused without exactly one pause");
                    pauses.push((rec.events.len(), decoder.position()));
                    offset += progress.consumed;
                }
                Status::Seek(target) => {
                    assert!(
                        options.can_seek,
                        "a seek asked of a caller that cannot seek"
                    );
                    assert_eq!(new_requests, 0, "a pause was not honoured");
                    assert_eq!(decoder.position(), target, "position() after a seek");
                    work.seeks += 1;
                    if target < reached {
                        // Seeks back follow the file; seeks ahead, past the chunk at hand,
                        // follow the cuts, so only the former are compared.
                        seeks.push(target);
                        seeks_after.push(rec.events.len());
                        work.rewound += reached - target;
                    } else {
                        assert!(target > end as u64, "a seek ahead into the chunk at hand");
                    }
                    assert!(
                        decoder.parsed() <= reread_bound(work.furthest),
                        "parsed {} bytes of {}",
                        decoder.parsed(),
                        work.furthest
                    );
                    if target >= data.len() as u64 {
                        // Nothing there: the input ends.
                        beyond = Some(target);
                    }
                    at = usize::try_from(target).unwrap_or(usize::MAX);
                    continue 'feeding;
                }
                Status::NeedInput | Status::Done => {
                    assert_eq!(new_requests, 0, "a pause was not honoured");
                    assert_eq!(progress.consumed, piece.len(), "bytes left unused");
                    if progress.status == Status::Done {
                        done_at.get_or_insert(decoder.position());
                    } else {
                        assert!(done_at.is_none(), "NeedInput after Done");
                    }
                    at = end;
                    continue 'feeding;
                }
            }
        }
    };
    let before_finish = rec.calls;
    let error = failed.or_else(|| decoder.finish(&mut rec).err());
    let finish_calls = rec.calls - before_finish;
    work.parsed = decoder.parsed();
    // Errors are sticky; after a clean finish every call says `Finished`.
    let expected = match error {
        Some(error) => {
            assert_eq!(decoder.error(), Some(error));
            error
        }
        None => {
            assert_eq!(decoder.error(), None);
            assert_eq!(
                rec.events.last(),
                Some(&Ev::End),
                "a clean run ends with End"
            );
            let end = beyond.unwrap_or(data.len() as u64);
            assert_eq!(decoder.position(), end, "position at the end");
            Error {
                kind: ErrorKind::Finished,
                offset: end,
            }
        }
    };
    let mut quiet = Recorder::default();
    assert_eq!(decoder.feed(b"more", &mut quiet).err(), Some(expected));
    assert_eq!(decoder.feed(&[], &mut quiet).err(), Some(expected));
    assert_eq!(decoder.finish(&mut quiet).err(), Some(expected));
    assert!(
        quiet.events.is_empty(),
        "events after the end: {:?}",
        quiet.events
    );
    work.events = rec.event_count;
    work.callbacks = rec.calls as u64;
    work.pauses = pauses.len() as u64;
    if error.is_none() && rec.events.first().is_some_and(|e| e.is_text_file()) {
        // Every byte of a text reaches the visitor once, in order: the stored lines are the
        // text up to its end (a NUL, or the input's end).
        let text: Vec<u8> = rec.stored.iter().flat_map(|(_, l)| l.clone()).collect();
        let end = data.iter().position(|&b| b == 0).unwrap_or(data.len());
        assert!(text == data[..end], "the stored lines are not the text");
    }
    Outcome {
        log: rec.events,
        stored: rec.stored,
        error,
        seeks,
        seeks_after,
        pauses,
        calls: rec.calls,
        finish_calls,
        batches: rec.batches,
        done_at,
        line: decoder.line(),
        work,
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
        let first = seeking.log.iter().find(|e| !e.is_warning());
        assert!(
            matches!(first, Some(Ev::File { .. })),
            "a clean decode without a file event first: {:?}",
            seeking.log
        );
    }

    // The convenience entry point sees the same events.
    let mut recorder = Recorder::default();
    let result = Decoder::new().decode_slice(data, &mut recorder);
    assert_eq!(result.err(), seeking.error, "decode_slice");
    assert_eq!(recorder.events, seeking.log, "decode_slice");

    // So does a reader that can seek, also when the file starts inside it.
    let mut inside = b"pad".to_vec();
    inside.extend_from_slice(data);
    let mut reader = Cursor::new(&inside[..]);
    reader.set_position(3);
    let (log, error) = from_reader(|d, v| io::decode_reader(d, &mut reader, v));
    assert_eq!(error, seeking.error, "io::decode_reader");
    assert_eq!(log, seeking.log, "io::decode_reader");

    // A caller that cannot seek gets everything up to the first seek, then `SeekRequired`
    // naming that offset.
    let streaming = drive(data, &Plan::whole(false));
    streaming.work.check_bounds(data.len());
    let (log, error) = from_reader(|d, v| io::decode_stream(d, &mut Cursor::new(data), v));
    assert_eq!(error, streaming.error, "io::decode_stream");
    assert_eq!(log, streaming.log, "io::decode_stream");
    match seeking.seeks.first() {
        None => {
            assert_eq!(streaming.log, seeking.log, "no seek needed");
            assert_eq!(streaming.error, seeking.error, "no seek needed");
        }
        Some(&target) => {
            let i = seeking.seeks_after[0];
            assert_eq!(streaming.log, seeking.log[..i], "before the first seek");
            let required = Error {
                kind: ErrorKind::SeekRequired,
                offset: target,
            };
            assert_eq!(streaming.error, Some(required), "at the first seek");
        }
    }

    // The whole-file types fail exactly when the events do, and hold what they reported.
    let animation = seeking.format().map(Format::is_animation);
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
            let keyframes = seeking.count(|e| matches!(e, Ev::Frame { .. }));
            assert_eq!(frames as u64, keyframes, "Package keyframes");
        }
        (Err(error), Some(true)) => assert_eq!(Some(*error), seeking.error, "Package::parse"),
        (Err(error), Some(false)) => assert_eq!(error.kind, ErrorKind::BadMagic),
        (Err(error), None) => assert_eq!(Some(*error), seeking.error, "Package::parse"),
        (Ok(_), _) => panic!("a package from {:?}", seeking.format()),
    }
    // (A model is neither: both whole-file types refuse it by its magic.)
    let is_placement = seeking
        .format()
        .map(|f| matches!(f, Format::IplBinary | Format::IplText));
    let placement = Placement::parse(data);
    match (&placement, is_placement) {
        (Ok(placement), Some(true)) => {
            assert_eq!(seeking.error, None, "Placement::parse");
            let instances = seeking.count(|e| matches!(e, Ev::Instance(_)));
            let cars = seeking.count(|e| matches!(e, Ev::Car(_)));
            assert_eq!(placement.instances.len() as u64, instances);
            assert_eq!(placement.cars.len() as u64, cars);
        }
        (Err(error), Some(true)) => {
            assert_eq!(Some(*error), seeking.error, "Placement::parse")
        }
        (Err(error), Some(false)) => assert_eq!(error.kind, ErrorKind::BadMagic),
        (Err(error), None) => assert_eq!(Some(*error), seeking.error, "Placement::parse"),
        (Ok(_), _) => panic!("a placement from {:?}", seeking.format()),
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
    (recorder.events, error)
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
    assert_eq!(cut.stored, reference.stored, "stored lines with {plan:?}");
    assert_eq!(cut.seeks, reference.seeks, "seeks back with {plan:?}");
    assert_eq!(
        cut.seeks_after, reference.seeks_after,
        "seeks back with {plan:?}"
    );
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

/// The `check` fuzz target's checks: the checker over the file (and over the same bytes as a
/// version 2 archive) never panics; its findings, offsets and contexts are the same whole and
/// cut by the plan's sizes (seeks followed); each finding's games lie within its rule's; a file
/// that fails to decode has exactly one finding for the failure, and the last one at that.
pub fn check_findings(plan: &Plan, data: &[u8]) {
    use gtastream::check::{Checker, Finding, Games, Rule};
    let options = Options {
        can_seek: true,
        game: plan.game,
    };
    let run = |sizes: &[usize]| -> (Vec<String>, Option<Error>) {
        let found = core::cell::RefCell::new(Vec::<String>::new());
        let last = core::cell::Cell::new(None);
        let mut checker = Checker::new(Games::ALL, |f: &Finding| {
            assert!(!f.games.is_empty(), "{f:?}");
            assert!(f.rule.games().contains(f.games), "{f:?}");
            last.set(Some(f.rule));
            found.borrow_mut().push(format!("{f:?}"));
        });
        checker.set_file_name(b"seed.ifp");
        let cut = Cut::Sizes(sizes.to_vec());
        let error = feed_cut_with(data, &cut, options, &mut checker).err();
        if let Some(e) = error {
            checker.failed(e);
        }
        let failed_rules = [
            Rule::DecodeFailed,
            Rule::AnpkKfrmUnknown,
            Rule::Anp3FrameTypeInvalid,
            Rule::BnryBounds,
            Rule::ForeignFile,
        ];
        if error.is_some() {
            let last = last.get();
            assert!(last.is_some_and(|r| r == Rule::Incomplete || failed_rules.contains(&r)));
        }
        checker.finish();
        (found.take(), error)
    };
    let whole = run(&[usize::MAX]);
    let sizes: Vec<usize> = plan.sizes.iter().map(|&s| s.max(1)).collect();
    let cut = run(&sizes);
    assert_eq!(cut, whole, "findings with {plan:?}");

    // The same bytes as an archive: no panic, games within the rules'.
    let mut checker = Checker::new(Games::ALL, |f: &Finding| {
        assert!(f.rule.games().contains(f.games), "{f:?}");
    });
    let mut archive = gtastream::archive::ArchiveDecoder::new(data.len() as u64);
    if let Err(e) = archive.decode_slice(data, &mut checker) {
        checker.failed(e);
    }
    checker.finish();
}

/// Feeds `data` cut as `cut` says to any visitor (not the [`Recorder`]): re-feeds after pauses,
/// seeks where asked, finishes. For checks of visitor adaptors (the summary, the checker) under
/// every cut.
pub fn feed_cut<V: gtastream::Visitor>(
    data: &[u8],
    cut: &Cut,
    visitor: &mut V,
) -> Result<(), Error> {
    feed_cut_with(data, cut, Options::default(), visitor)
}

/// [`feed_cut`] with decoder options (a seek is followed whatever `can_seek` says).
pub fn feed_cut_with<V: gtastream::Visitor>(
    data: &[u8],
    cut: &Cut,
    options: Options,
    visitor: &mut V,
) -> Result<(), Error> {
    let mut decoder = Decoder::with_options(options);
    let (mut at, mut turn) = (0usize, 0usize);
    while at < data.len() {
        assert!(
            turn < 50 * (data.len() + 100),
            "the decoder makes no progress"
        );
        let end = cut.end(at, turn, data.len()).max(at + 1).min(data.len());
        turn += 1;
        let progress = decoder.feed(&data[at..end], visitor)?;
        at = match progress.status {
            Status::Seek(offset) => usize::try_from(offset).unwrap_or(usize::MAX),
            Status::Done => break,
            _ => at + progress.consumed,
        };
    }
    decoder.finish(visitor)
}

/// The `dff` fuzz target's checks: the DFF reader's events are the same whole and cut
/// ([`check_chunking`]); the skeleton built from the records of the cut file is the one
/// [`read_skeleton`](gtastream::rig::read_skeleton) reads whole (or fails the same way); and
/// on it the skeleton report, the binding and posing of a fixed animation for every game, and
/// the checks of that animation never panic, give findings within their rules' games, and
/// pose every frame.
pub fn check_model(plan: &Plan, data: &[u8]) {
    use gtastream::check::{Finding, Games};
    use gtastream::rig::{self, Host, ReadError, SkeletonBuilder};
    check_chunking(plan, data);
    let whole = rig::read_skeleton(data);
    let mut builder = SkeletonBuilder::new();
    let sizes: Vec<usize> = plan.sizes.iter().map(|&s| s.max(1)).collect();
    let cut = feed_cut(data, &Cut::Sizes(sizes), &mut builder);
    let shape = |s: &rig::Skeleton| {
        format!(
            "{:?} {:?} {:?} {:?} {:?} {:?}",
            s.frames(),
            s.nodes(),
            s.hierarchy(),
            s.skin(),
            s.inverse_binds(),
            s.rw_version()
        )
    };
    let skeleton = match (whole, cut) {
        (Ok(s), Ok(())) => {
            let built = builder.build().expect("the whole file's skeleton fits");
            assert_eq!(shape(&built), shape(&s), "skeletons with {plan:?}");
            s
        }
        (Err(ReadError::Decode(e)), Err(cut)) => {
            assert_eq!(cut, e, "errors with {plan:?}");
            return;
        }
        (Err(ReadError::Limit(e)), Ok(())) => {
            assert_eq!(builder.build().err(), Some(e));
            return;
        }
        // Another format: the other targets' business (a cut one may fail differently).
        (Err(ReadError::NotModel(_)), _) => return,
        (whole, cut) => panic!("whole {whole:?}, cut {cut:?} with {plan:?}"),
    };
    let within = |f: &Finding| {
        assert!(f.rule.games().contains(f.games), "{f:?}");
        assert!(!f.games.is_empty(), "{f:?}");
    };
    rig::check_skeleton(&skeleton, Games::ALL, within);
    let animation = model_animation();
    let tracks = rig::AnimationTracks::find(&animation, None, 0).expect("an animation");
    let sampler = gtastream::Sampler::<16>::by_index(&animation, 0).expect("an animation");
    let mut out = vec![[0.0f32; 16]; skeleton.frames().len()];
    for host in Host::ALL {
        rig::bind_all(&skeleton, host, tracks.tracks(), |_, _| {});
        let posed = rig::pose_animation(
            &skeleton,
            host,
            &tracks,
            &sampler,
            0.3,
            true,
            &mut out,
            |_, _| {},
        )
        .expect("the animation samples");
        assert_eq!(posed, skeleton.frames().len());
    }
    rig::check_file(&animation, b"a.ifp", None, Some(&skeleton), within);
    rig::check_file(data, b"m.dff", None, None, within);
}

/// The animation [`check_model`] binds and poses: tracks by id (the standard ones, one past
/// 16 bits, an unknown one), by name (the engine's, a frame-style name), with translation.
pub fn model_animation() -> Vec<u8> {
    use crate::ifp2::{f1, f2, AnimSpec, BoneSpec, FileSpec};
    let q = [0.1, 0.2, 0.3, 0.9];
    let keys = || vec![f1(q, 0.0), f1([0.0, 0.0, 0.0, 1.0], 0.5)];
    let moves = || vec![f2(q, 0.0, [0.0, 0.0, 1.0]), f2(q, 0.5, [0.0, 2.0, 1.0])];
    FileSpec::anp3(
        "a",
        vec![AnimSpec::new(
            "a",
            vec![
                BoneSpec::new("Root", 2, 0, moves()),
                BoneSpec::new("Pelvis", 2, 1, moves()),
                BoneSpec::new("Head", 1, 5, keys()),
                BoneSpec::new("x", 1, 0x10005, keys()),
                BoneSpec::new("y", 1, 4242, keys()),
                BoneSpec::new(" Spine", 1, -1, keys()),
                BoneSpec::new("part1", 2, -1, moves()),
                BoneSpec::new("Head", 1, 5, keys()),
            ],
        )],
    )
    .build()
}
