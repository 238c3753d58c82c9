//! Tests of the C API, called from Rust as a C host would call it: pointers checked, every
//! format through callbacks compared with the core decoder, every chunking, pause, abort, seek,
//! re-entry, panics, and no allocation.
//!
//! Every `unsafe` block here calls the API under test (or reads what it passed to a callback)
//! with pointers that satisfy the documented contract, unless the test says it breaks it on
//! purpose in a way the library promises to detect.
#![allow(clippy::undocumented_unsafe_blocks)]

use std::cell::Cell;
use std::ffi::{c_void, CStr};
use std::ptr::{null, null_mut};

use gtastream_core::{
    AnimationInfo, BoneInfo, Decoder, ErrorKind, FileInfo, Flow, Keyframes, Options, Record,
    Visitor, Warning, WarningKind,
};

use crate::bridge::{
    format, format_from_code, format_name, frame_type, keyframe, warning_kind, STATUSES,
};
use crate::*;

mod contract;
#[path = "../tests/fixtures/mod.rs"]
mod fixtures;
mod folder;
mod lengths;
mod skeleton;

thread_local! {
    static PANIC_NEXT: Cell<bool> = const { Cell::new(false) };
}

/// Panics once if a test asked for it (to test that panics stop at the boundary).
pub(crate) fn maybe_panic() {
    if PANIC_NEXT.with(|p| p.replace(false)) {
        panic!("panic injected by a test");
    }
}

/// The test kit's counting allocator: the system allocator, counting the calls of a thread
/// while it asks for it.
#[global_allocator]
static ALLOCATOR: testkit::alloc_count::Counting = testkit::alloc_count::Counting;

// ---------------------------------------------------------------------------------------------
// Events, recorded the same way from the C callbacks and from the core's visitor.

// The fields are compared through `Debug` (below), which the dead-code lint does not count.
#[allow(dead_code)]
#[derive(Clone, Debug)]
enum Ev {
    File {
        format: gts_format,
        name: Option<Vec<u8>>,
        animations: u32,
        instances: Option<u32>,
        cars: Option<u32>,
    },
    Animation {
        index: u32,
        name: Vec<u8>,
        bones: u32,
        frame_data_size: Option<u32>,
        flags: Option<u32>,
        duration: Option<f32>,
    },
    Bone {
        index: u32,
        name: Option<Vec<u8>>,
        id: Option<i32>,
        key: Option<u32>,
        frame_type: gts_frame_type,
        frames: u32,
        translation: bool,
        scale: bool,
    },
    /// A bone's keyframes: the stored bytes and the decoded keyframes, each merged across
    /// batches (batching depends on the chunking).
    Keys(Vec<u8>, Vec<gts_keyframe>),
    BoneEnd,
    AnimationEnd,
    Instance {
        position: [f32; 3],
        rotation: [f32; 4],
        model_id: i32,
        interior: u32,
        lod: i32,
        model_name: Option<Vec<u8>>,
        scale: Option<[f32; 3]>,
    },
    Car([i32; 8], [f32; 4]),
    Line(Vec<u8>, Vec<u8>),
    Warning(gts_warning_kind, u64),
    End,
}

/// Events compare by their debug text: decoded values may be NaN (from damaged input), which
/// must compare equal to the same NaN.
impl PartialEq for Ev {
    fn eq(&self, other: &Ev) -> bool {
        format!("{self:?}") == format!("{other:?}")
    }
}

/// Which callback a recorder answers specially.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    File,
    Animation,
    Bone,
    Frames,
    Raw,
    BoneEnd,
    AnimationEnd,
    Instance,
    Car,
    Line,
    Warning,
    End,
}

const KINDS: [Kind; 12] = [
    Kind::File,
    Kind::Animation,
    Kind::Bone,
    Kind::Frames,
    Kind::Raw,
    Kind::BoneEnd,
    Kind::AnimationEnd,
    Kind::Instance,
    Kind::Car,
    Kind::Line,
    Kind::Warning,
    Kind::End,
];

#[derive(Default)]
struct Recorder {
    events: Vec<Ev>,
    /// Answer `answer` to every event of this kind.
    special: Option<(Kind, i32)>,
    /// Calls of each kind.
    calls: [usize; 12],
    /// Largest keyframe batch delivered.
    largest_batch: usize,
    /// Keyframes announced by the raw callback and not yet delivered decoded.
    raw_pending: usize,
    /// A decoder to call back into from a callback, and what those calls returned.
    reenter: Option<*mut gts_decoder>,
    reentry: Vec<String>,
    /// Broken expectations seen inside callbacks (a panic there could not unwind into the
    /// library: it would abort the test process).
    problems: Vec<String>,
}

impl Recorder {
    fn push(&mut self, ev: Ev) {
        match (self.events.last_mut(), ev) {
            (Some(Ev::Keys(bytes, frames)), Ev::Keys(more_bytes, more_frames)) => {
                bytes.extend(more_bytes);
                frames.extend(more_frames);
            }
            (_, ev) => self.events.push(ev),
        }
    }

    fn answering(special: Option<(Kind, i32)>) -> Self {
        let mut recorder = Recorder::default();
        recorder.special = special;
        recorder
    }

    fn check(&mut self, ok: bool, what: &str) {
        if !ok {
            self.problems.push(what.to_string());
        }
    }

    /// Forgets the events, for another run with the same callbacks.
    fn restart(&mut self) {
        self.events.clear();
        self.raw_pending = 0;
    }

    fn answer(&mut self, kind: Kind) -> i32 {
        self.calls[kind as usize] += 1;
        if let Some(d) = self.reenter {
            let mut consumed = 0;
            unsafe {
                let feed = gts_decoder_feed(d, [0u8; 4].as_ptr(), 4, &mut consumed);
                let finish = gts_decoder_finish(d);
                let reset = gts_decoder_reset(d);
                let init = gts_decoder_init(d, size_of::<gts_decoder>(), null(), null_mut());
                let position = gts_decoder_position(d);
                let error = gts_decoder_error(d);
                self.reentry.push(format!(
                    "{feed:?} {finish:?} {reset:?} {init:?} {position} {error:?}"
                ));
            }
        }
        match self.special {
            Some((k, answer)) if k == kind => answer,
            _ => GTS_CONTINUE,
        }
    }
}

impl Drop for Recorder {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            assert!(
                self.problems.is_empty(),
                "in callbacks: {:?}",
                self.problems
            );
        }
    }
}

fn bytes_of(ptr: *const std::ffi::c_char, len: usize) -> Vec<u8> {
    if ptr.is_null() {
        return b"<NULL>".to_vec();
    }
    unsafe { std::slice::from_raw_parts(ptr.cast::<u8>(), len) }.to_vec()
}

fn optional(ptr: *const std::ffi::c_char, len: usize, has: bool) -> Option<Vec<u8>> {
    match (has, ptr.is_null() && len == 0) {
        (true, _) => Some(bytes_of(ptr, len)),
        (false, true) => None,
        (false, false) => Some(b"<absent but set>".to_vec()),
    }
}

fn rec<'a>(user: *mut c_void) -> &'a mut Recorder {
    unsafe { &mut *user.cast::<Recorder>() }
}

unsafe extern "C" fn on_file(user: *mut c_void, info: *const gts_file_info) -> i32 {
    let i = unsafe { &*info };
    let name = unsafe { CStr::from_ptr(i.format_name) };
    let r = rec(user);
    r.check(matches!(name.to_bytes().len(), 3 | 4), "format name");
    r.push(Ev::File {
        format: i.format,
        name: optional(i.name, i.name_len, i.has_name),
        animations: i.animation_count,
        instances: i.has_instance_count.then_some(i.instance_count),
        cars: i.has_car_count.then_some(i.car_count),
    });
    r.answer(Kind::File)
}

unsafe extern "C" fn on_animation(user: *mut c_void, info: *const gts_animation_info) -> i32 {
    let i = unsafe { &*info };
    let r = rec(user);
    r.push(Ev::Animation {
        index: i.index,
        name: bytes_of(i.name, i.name_len),
        bones: i.bone_count,
        frame_data_size: i.has_frame_data_size.then_some(i.frame_data_size),
        flags: i.has_flags.then_some(i.flags),
        duration: i.has_duration.then_some(i.duration),
    });
    r.answer(Kind::Animation)
}

unsafe extern "C" fn on_bone(user: *mut c_void, info: *const gts_bone_info) -> i32 {
    let i = unsafe { &*info };
    let r = rec(user);
    r.push(Ev::Bone {
        index: i.index,
        name: optional(i.name, i.name_len, i.has_name),
        id: i.has_bone_id.then_some(i.bone_id),
        key: i.has_bone_key.then_some(i.bone_key),
        frame_type: i.frame_type,
        frames: i.frame_count,
        translation: i.has_translation,
        scale: i.has_scale,
    });
    r.answer(Kind::Bone)
}

unsafe extern "C" fn on_keyframes(user: *mut c_void, frames: *const gts_keyframe, n: usize) -> i32 {
    let frames = unsafe { std::slice::from_raw_parts(frames, n) };
    let r = rec(user);
    r.check((1..=GTS_KEYFRAME_BATCH).contains(&n), "batch size");
    r.check(r.raw_pending >= n, "the raw bytes came first");
    r.raw_pending = r.raw_pending.saturating_sub(n);
    r.largest_batch = r.largest_batch.max(n);
    r.push(Ev::Keys(Vec::new(), frames.to_vec()));
    r.answer(Kind::Frames)
}

unsafe extern "C" fn on_keyframes_raw(user: *mut c_void, raw: *const gts_raw_keyframes) -> i32 {
    let raw = unsafe { &*raw };
    let bytes = unsafe { std::slice::from_raw_parts(raw.bytes, raw.count * raw.frame_size) };
    let r = rec(user);
    r.check(raw.count > 0, "empty raw batch");
    r.check(
        r.raw_pending == 0,
        "the previous batch was delivered decoded",
    );
    r.raw_pending = raw.count;
    r.push(Ev::Keys(bytes.to_vec(), Vec::new()));
    r.answer(Kind::Raw)
}

unsafe extern "C" fn on_bone_end(user: *mut c_void) -> i32 {
    let r = rec(user);
    r.push(Ev::BoneEnd);
    r.answer(Kind::BoneEnd)
}

unsafe extern "C" fn on_animation_end(user: *mut c_void) -> i32 {
    let r = rec(user);
    r.push(Ev::AnimationEnd);
    r.answer(Kind::AnimationEnd)
}

unsafe extern "C" fn on_instance(user: *mut c_void, i: *const gts_ipl_instance) -> i32 {
    let i = unsafe { &*i };
    let r = rec(user);
    r.push(Ev::Instance {
        position: i.position,
        rotation: i.rotation,
        model_id: i.model_id,
        interior: i.interior,
        lod: i.lod,
        model_name: optional(i.model_name, i.model_name_len, i.has_model_name),
        scale: i.has_scale.then_some(i.scale),
    });
    r.answer(Kind::Instance)
}

unsafe extern "C" fn on_car(user: *mut c_void, c: *const gts_ipl_car) -> i32 {
    let c = unsafe { &*c };
    let r = rec(user);
    r.push(Ev::Car(
        [
            c.model_id,
            c.primary_color,
            c.secondary_color,
            c.flags,
            c.alarm_chance,
            c.door_lock_chance,
            c.min_delay,
            c.max_delay,
        ],
        [c.position[0], c.position[1], c.position[2], c.angle],
    ));
    r.answer(Kind::Car)
}

unsafe extern "C" fn on_section_line(user: *mut c_void, line: *const gts_section_line) -> i32 {
    let l = unsafe { &*line };
    let r = rec(user);
    r.push(Ev::Line(
        bytes_of(l.section, l.section_len),
        bytes_of(l.text, l.text_len),
    ));
    r.answer(Kind::Line)
}

unsafe extern "C" fn on_warning(user: *mut c_void, w: *const gts_warning) -> i32 {
    let w = unsafe { &*w };
    let (name, reason) = unsafe { (CStr::from_ptr(w.name), CStr::from_ptr(w.reason)) };
    let r = rec(user);
    r.check(!name.is_empty() && !reason.is_empty(), "warning texts");
    r.push(Ev::Warning(w.kind, w.offset));
    r.answer(Kind::Warning)
}

unsafe extern "C" fn on_end(user: *mut c_void) -> i32 {
    let r = rec(user);
    r.push(Ev::End);
    r.answer(Kind::End)
}

fn all_callbacks() -> gts_callbacks {
    let mut cb = crate::storage::NO_CALLBACKS;
    unsafe { gts_callbacks_init(&mut cb) };
    cb.on_file = Some(on_file);
    cb.on_animation = Some(on_animation);
    cb.on_bone = Some(on_bone);
    cb.on_keyframes = Some(on_keyframes);
    cb.on_bone_end = Some(on_bone_end);
    cb.on_animation_end = Some(on_animation_end);
    cb.on_instance = Some(on_instance);
    cb.on_car = Some(on_car);
    cb.on_warning = Some(on_warning);
    cb.on_end = Some(on_end);
    cb.on_keyframes_raw = Some(on_keyframes_raw);
    cb.on_section_line = Some(on_section_line);
    cb
}

/// The core decoder's events, recorded like the C callbacks record them.
#[derive(Default)]
struct Expected(Recorder);

impl Visitor for Expected {
    fn file(&mut self, i: &FileInfo<'_>) -> Flow {
        self.0.push(Ev::File {
            format: format(i.format),
            name: i.name.map(<[u8]>::to_vec),
            animations: i.animation_count,
            instances: i.instance_count,
            cars: i.car_count,
        });
        Flow::Continue
    }
    fn animation(&mut self, i: &AnimationInfo<'_>) -> Flow {
        self.0.push(Ev::Animation {
            index: i.index,
            name: i.name.to_vec(),
            bones: i.bone_count,
            frame_data_size: i.frame_data_size,
            flags: i.flags,
            duration: i.duration,
        });
        Flow::Continue
    }
    fn bone(&mut self, i: &BoneInfo<'_>) -> Flow {
        self.0.push(Ev::Bone {
            index: i.index,
            name: i.name.map(<[u8]>::to_vec),
            id: i.bone_id,
            key: i.bone_key,
            frame_type: frame_type(i.frame_type),
            frames: i.frame_count,
            translation: i.has_translation(),
            scale: i.has_scale(),
        });
        Flow::Continue
    }
    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        self.0.push(Ev::Keys(
            frames.as_bytes().to_vec(),
            frames.iter().map(|k| keyframe(&k)).collect(),
        ));
        Flow::Continue
    }
    fn bone_end(&mut self) -> Flow {
        self.0.push(Ev::BoneEnd);
        Flow::Continue
    }
    fn animation_end(&mut self) -> Flow {
        self.0.push(Ev::AnimationEnd);
        Flow::Continue
    }
    fn record(&mut self, record: &Record<'_>) -> Flow {
        match record {
            Record::Instance(i) => {
                self.0.push(Ev::Instance {
                    position: i.position,
                    rotation: i.rotation,
                    model_id: i.model_id,
                    interior: i.interior,
                    lod: i.lod,
                    model_name: i.model_name.map(<[u8]>::to_vec),
                    scale: i.scale,
                });
                Flow::Continue
            }
            Record::Car(c) => {
                self.0.push(Ev::Car(
                    c.ints(),
                    [c.position[0], c.position[1], c.position[2], c.angle],
                ));
                Flow::Continue
            }
            Record::SectionLine(l) => {
                self.0
                    .push(Ev::Line(l.section.as_bytes().to_vec(), l.text.to_vec()));
                Flow::Continue
            }
            _ => Flow::Continue,
        }
    }
    fn warning(&mut self, w: Warning) -> Flow {
        self.0.push(Ev::Warning(warning_kind(w.kind).0, w.offset));
        Flow::Continue
    }
    fn end(&mut self) -> Flow {
        self.0.push(Ev::End);
        Flow::Continue
    }
}

/// What the core decoder reports for `data`: the events and the error, if any.
fn expected(data: &[u8], seekable: bool) -> (Vec<Ev>, Option<gtastream_core::Error>) {
    let mut visitor = Expected::default();
    let mut decoder = Decoder::with_options(Options {
        can_seek: seekable,
        ..Options::DEFAULT
    });
    let result = decoder.decode_slice(data, &mut visitor);
    (std::mem::take(&mut visitor.0.events), result.err())
}

// ---------------------------------------------------------------------------------------------
// Driving the C API like a host does.

/// The fixtures of a test that decodes each many times: all of them natively; under Miri, which
/// interprets every step (the whole suite takes some 7 minutes so), only those named in `keep`.
fn for_miri(all: Vec<fixtures::Fixture>, keep: &[&str]) -> Vec<fixtures::Fixture> {
    if cfg!(miri) {
        all.into_iter().filter(|f| keep.contains(&f.name)).collect()
    } else {
        all
    }
}

/// Under Miri: text and binary IPL (instances, cars, lines) and Stories (keyframes, seeks).
const MIRI_FIXTURES: &[&str] = &["map.ipl", "sector.ipl", "forward.anim"];

fn new_decoder() -> Box<gts_decoder> {
    Box::new(gts_decoder {
        opaque: [0; GTS_DECODER_WORDS],
    })
}

/// `r` is a raw pointer taken from the recorder itself (`&raw mut r`), not from a reference the
/// test goes on using beside it: the test reads and writes the recorder between feeds while the
/// decoder keeps this pointer, which Miri's aliasing model allows only for a raw pointer.
fn init(d: &mut gts_decoder, cb: &gts_callbacks, r: *mut Recorder) {
    let status = unsafe { gts_decoder_init(d, size_of::<gts_decoder>(), cb, r.cast()) };
    assert_eq!(status, gts_status::GTS_OK);
}

/// How a run through the C API ended.
#[derive(Debug, PartialEq)]
struct Outcome {
    status: gts_status,
    offset: u64,
    pauses: usize,
    seeks: usize,
}

/// Decodes `data` through the C API in chunks of `chunk` bytes, following the seek protocol
/// (feed from `gts_decoder_position`) and resuming after pauses, then finishes.
///
/// After a pause the rest of the chunk is fed again even when it is empty: the decoder may
/// still have work that needs no input (a seek, an event), as the API documents.
fn run(d: &mut gts_decoder, data: &[u8], chunk: usize) -> Outcome {
    run_raw(d, data, chunk)
}

/// [`run`] through a raw pointer (for a test that also reaches the decoder from callbacks).
fn run_raw(d: *mut gts_decoder, data: &[u8], chunk: usize) -> Outcome {
    let (mut at, mut end, mut resume) = (0usize, 0usize, false);
    let (mut pauses, mut seeks) = (0, 0);
    let status = loop {
        if at >= end && !resume {
            // The chunk is used up: read the next one, or finish at the end of input.
            if at >= data.len() {
                break unsafe { gts_decoder_finish(d) };
            }
            end = data.len().min(at + chunk);
        }
        resume = false;
        let piece = &data[at..end];
        let mut consumed = usize::MAX;
        let status = unsafe { gts_decoder_feed(d, piece.as_ptr(), piece.len(), &mut consumed) };
        match status {
            gts_status::GTS_OK => at = end,
            gts_status::GTS_PAUSED => {
                pauses += 1;
                assert!(pauses < 1_000_000);
                assert!(consumed <= piece.len());
                at += consumed;
                resume = true;
            }
            // The content is complete; the rest is fed too, so that stale bytes after it are
            // reported (a warning) whatever the chunking.
            gts_status::GTS_DONE => at = end,
            gts_status::GTS_SEEK => {
                seeks += 1;
                assert!(seeks < 10_000, "seeks do not end");
                at = unsafe { gts_decoder_position(d) } as usize;
                end = at;
            }
            error => {
                assert_eq!(consumed, 0);
                break error;
            }
        }
    };
    let offset = unsafe { gts_decoder_error_offset(d) };
    Outcome {
        status,
        offset,
        pauses,
        seeks,
    }
}

fn decode_via_c(data: &[u8], chunk: usize, r: &mut Recorder) -> Outcome {
    let mut d = new_decoder();
    init(&mut d, &all_callbacks(), r);
    run(&mut d, data, chunk)
}

/// Compares event lists, showing the first difference rather than both lists whole.
#[track_caller]
fn same_events(actual: &[Ev], expected: &[Ev], context: &str) {
    if actual == expected {
        return;
    }
    let at = actual
        .iter()
        .zip(expected)
        .position(|(a, e)| a != e)
        .unwrap_or(actual.len().min(expected.len()));
    let show = |events: &[Ev]| {
        let text = format!("{:?}", events.get(at));
        text.chars().take(600).collect::<String>()
    };
    panic!(
        "{context}: events differ at {at} of {} vs {}:\n  got      {}\n  expected {}",
        actual.len(),
        expected.len(),
        show(actual),
        show(expected)
    );
}

fn status_of(error: Option<gtastream_core::Error>) -> (gts_status, u64) {
    match error {
        Some(e) => (crate::bridge::error_status(e.kind), e.offset),
        None => (gts_status::GTS_OK, GTS_NO_OFFSET),
    }
}

// ---------------------------------------------------------------------------------------------

#[test]
fn layout_fits_on_this_target() {
    assert_eq!(size_of::<gts_decoder>(), 8 * GTS_DECODER_WORDS);
    assert_eq!(gts_decoder_size(), size_of::<gts_decoder>());
    assert_eq!(gts_abi_version(), GTS_ABI_VERSION);
    let version = unsafe { CStr::from_ptr(gts_version()) };
    assert_eq!(version.to_str().unwrap(), env!("CARGO_PKG_VERSION"));
    assert_eq!(size_of::<gts_keyframe>(), 44);
    println!(
        "pointer width {}: DECODER_SIZE {}, gts_decoder {}, gts_callbacks {}",
        usize::BITS,
        gtastream_core::DECODER_SIZE,
        size_of::<gts_decoder>(),
        size_of::<gts_callbacks>()
    );
}

#[test]
fn every_format_every_chunking_matches_the_core() {
    for fixture in for_miri(fixtures::all(), MIRI_FIXTURES) {
        let (events, error) = expected(&fixture.bytes, true);
        assert!(error.is_none(), "{}: {error:?}", fixture.name);
        assert_eq!(events.last(), Some(&Ev::End), "{}", fixture.name);
        let len = fixture.bytes.len();
        // Miri interprets every step: two chunkings there (one that splits units).
        let chunks: &[usize] = if cfg!(miri) {
            &[7, len]
        } else {
            &[1, 2, 3, 7, 16, 64, 100, 4096, len]
        };
        for &chunk in chunks {
            let mut r = Recorder::default();
            let outcome = decode_via_c(&fixture.bytes, chunk, &mut r);
            assert_eq!(
                outcome.status,
                gts_status::GTS_OK,
                "{} by {chunk}",
                fixture.name
            );
            assert_eq!(outcome.offset, GTS_NO_OFFSET);
            same_events(&r.events, &events, &format!("{} by {chunk}", fixture.name));
            assert!(r.largest_batch <= GTS_KEYFRAME_BATCH);
            assert_eq!(r.raw_pending, 0);
        }
    }
}

#[test]
fn long_bones_come_in_batches_of_at_most_64() {
    let data = fixtures::anp2();
    let mut r = Recorder::default();
    decode_via_c(&data, data.len(), &mut r);
    assert_eq!(r.largest_batch, GTS_KEYFRAME_BATCH);
    // The 150 keyframes of the first bone, fed whole, arrive as 64 + 64 + 22.
    let frames = r.events.iter().find_map(|e| match e {
        Ev::Keys(_, f) => Some(f.len()),
        _ => None,
    });
    assert_eq!(frames, Some(150));
    assert_eq!(r.calls[Kind::Frames as usize], 3 + 1);
}

#[test]
fn walk_sample_values_through_the_c_structs() {
    let mut r = Recorder::default();
    let data = fixtures::walk();
    assert_eq!(decode_via_c(&data, 4096, &mut r).status, gts_status::GTS_OK);
    let Ev::File {
        format,
        name,
        animations,
        ..
    } = &r.events[0]
    else {
        panic!("{:?}", r.events[0])
    };
    assert_eq!(*format, gts_format::GTS_FORMAT_ANP3);
    assert_eq!(name.as_deref(), Some(&b"demo"[..]));
    assert_eq!(*animations, 3);
    let bones = r
        .events
        .iter()
        .filter(|e| matches!(e, Ev::Bone { .. }))
        .count();
    let frames: usize = r
        .events
        .iter()
        .map(|e| match e {
            Ev::Keys(_, f) => f.len(),
            _ => 0,
        })
        .sum();
    assert_eq!((bones, frames), (15, 207));
    let root = r.events.iter().find_map(|e| match e {
        Ev::Bone {
            name: Some(n),
            id,
            frame_type,
            translation,
            ..
        } if n == b"Root" => Some((*id, *frame_type, *translation)),
        _ => None,
    });
    assert_eq!(
        root,
        Some((
            Some(0),
            gts_frame_type::GTS_FRAME_IFP2_PACKED_ROT_TRANS,
            true
        ))
    );
}

#[test]
fn null_and_bad_pointers_are_errors_not_crashes() {
    use gts_status::*;
    unsafe {
        gts_callbacks_init(null_mut());
        assert_eq!(
            gts_decoder_init(null_mut(), size_of::<gts_decoder>(), null(), null_mut()),
            GTS_ERR_INVALID_ARGUMENT
        );
        let mut consumed = 7;
        assert_eq!(
            gts_decoder_feed(null_mut(), b"ANP3".as_ptr(), 4, &mut consumed),
            GTS_ERR_INVALID_ARGUMENT
        );
        assert_eq!(consumed, 0);
        assert_eq!(gts_decoder_finish(null_mut()), GTS_ERR_INVALID_ARGUMENT);
        assert_eq!(gts_decoder_reset(null_mut()), GTS_ERR_INVALID_ARGUMENT);
        assert_eq!(
            gts_decoder_set_seekable(null_mut(), false),
            GTS_ERR_INVALID_ARGUMENT
        );
        assert_eq!(gts_decoder_position(null()), GTS_NO_OFFSET);
        assert_eq!(gts_decoder_error(null()), GTS_ERR_INVALID_ARGUMENT);
        assert_eq!(gts_decoder_error_offset(null()), GTS_NO_OFFSET);
        assert_eq!(gts_decoder_line(null()), 0);
        let reason = CStr::from_ptr(gts_decoder_error_reason(null()));
        assert!(reason.to_str().unwrap().contains("invalid argument"));

        let mut d = new_decoder();
        let mut r = Recorder::default();
        init(&mut d, &all_callbacks(), &raw mut r);
        // data NULL with bytes to read; data NULL with none is an empty feed.
        assert_eq!(
            gts_decoder_feed(&mut *d, null(), 1, &mut consumed),
            GTS_ERR_INVALID_ARGUMENT
        );
        assert_eq!(gts_decoder_feed(&mut *d, null(), 0, &mut consumed), GTS_OK);
        // More than a slice may hold.
        assert_eq!(
            gts_decoder_feed(&mut *d, b"x".as_ptr(), usize::MAX, &mut consumed),
            GTS_ERR_INVALID_ARGUMENT
        );
        // Input or `consumed` inside the decoder's own storage.
        let inside = (&*d as *const gts_decoder).cast::<u8>();
        assert_eq!(
            gts_decoder_feed(&mut *d, inside.add(8), 16, &mut consumed),
            GTS_ERR_INVALID_ARGUMENT
        );
        let inside_consumed = (&mut *d as *mut gts_decoder).cast::<usize>().add(4);
        assert_eq!(
            gts_decoder_feed(&mut *d, b"AN".as_ptr(), 2, inside_consumed),
            GTS_ERR_INVALID_ARGUMENT
        );
        // `consumed` may be NULL; the decoder still works after all of the above.
        assert_eq!(
            gts_decoder_feed(&mut *d, b"AN".as_ptr(), 2, null_mut()),
            GTS_OK
        );
        assert_eq!(gts_decoder_position(&*d), 2);
        assert_eq!(gts_decoder_error(&*d), GTS_OK);
        assert_eq!(
            CStr::from_ptr(gts_decoder_error_reason(&*d)).to_str(),
            Ok("ok")
        );

        // A misaligned decoder.
        let mut words = vec![0u64; GTS_DECODER_WORDS + 1];
        let odd = words.as_mut_ptr().cast::<u8>().add(2).cast::<gts_decoder>();
        assert_eq!(
            gts_decoder_init(odd, size_of::<gts_decoder>(), null(), null_mut()),
            GTS_ERR_INVALID_ARGUMENT
        );
        assert_eq!(
            gts_decoder_feed(odd, b"A".as_ptr(), 1, null_mut()),
            GTS_ERR_INVALID_ARGUMENT
        );
    }
}

#[test]
fn size_mismatch_and_use_before_init_are_errors() {
    use gts_status::*;
    unsafe {
        let mut d = new_decoder();
        for size in [
            0,
            size_of::<gts_decoder>() - 8,
            size_of::<gts_decoder>() + 8,
        ] {
            assert_eq!(
                gts_decoder_init(&mut *d, size, null(), null_mut()),
                GTS_ERR_SIZE_MISMATCH
            );
        }
        // Zeroed storage (as static storage is) and garbage: both "not initialised".
        for fill in [0u64, 0xA5A5_A5A5_A5A5_A5A5, u64::MAX] {
            d.opaque = [fill; GTS_DECODER_WORDS];
            let mut consumed = 1;
            assert_eq!(
                gts_decoder_feed(&mut *d, b"ANP3".as_ptr(), 4, &mut consumed),
                GTS_ERR_NOT_INITIALIZED
            );
            assert_eq!(consumed, 0);
            assert_eq!(gts_decoder_finish(&mut *d), GTS_ERR_NOT_INITIALIZED);
            assert_eq!(gts_decoder_reset(&mut *d), GTS_ERR_NOT_INITIALIZED);
            assert_eq!(
                gts_decoder_set_seekable(&mut *d, true),
                GTS_ERR_NOT_INITIALIZED
            );
            assert_eq!(gts_decoder_error(&*d), GTS_ERR_NOT_INITIALIZED);
            assert_eq!(gts_decoder_position(&*d), GTS_NO_OFFSET);
            assert_eq!(gts_decoder_error_offset(&*d), GTS_NO_OFFSET);
            assert_eq!(gts_decoder_line(&*d), 0);
        }
        // NULL callbacks are allowed: every event skipped, the file still checked.
        assert_eq!(
            gts_decoder_init(&mut *d, size_of::<gts_decoder>(), null(), null_mut()),
            GTS_OK
        );
        let data = fixtures::walk();
        assert_eq!(run(&mut d, &data, 333).status, GTS_OK);
    }
}

#[test]
fn pause_from_every_callback_resumes_exactly() {
    for fixture in for_miri(fixtures::all(), &["map.ipl"]) {
        let (events, _) = expected(&fixture.bytes, true);
        for kind in KINDS {
            for &chunk in if cfg!(miri) {
                &[4096][..]
            } else {
                &[5, 4096][..]
            } {
                let mut r = Recorder::answering(Some((kind, GTS_PAUSE)));
                let outcome = decode_via_c(&fixture.bytes, chunk, &mut r);
                assert_eq!(
                    outcome.status,
                    gts_status::GTS_OK,
                    "{} {kind:?}",
                    fixture.name
                );
                same_events(
                    &r.events,
                    &events,
                    &format!("{} {kind:?} by {chunk}", fixture.name),
                );
                // Every event of the kind paused, except those of `finish` (no input follows:
                // an ANPK object without keyframes at the end of the file waits for it, since
                // its unit may hold an empty keyframe chunk) and those inside one stored batch
                // of keyframes (they pause once at its end).
                let calls = r.calls[kind as usize];
                match kind {
                    Kind::End => assert_eq!(outcome.pauses, 0),
                    Kind::Frames => assert!(outcome.pauses <= calls),
                    Kind::Warning
                    | Kind::Line
                    | Kind::AnimationEnd
                    | Kind::BoneEnd
                    | Kind::Bone => {
                        assert!(outcome.pauses >= calls.saturating_sub(1))
                    }
                    _ => assert_eq!(outcome.pauses, calls, "{} {kind:?}", fixture.name),
                }
            }
        }
    }
}

#[test]
fn abort_from_every_callback_is_a_sticky_error_until_reset() {
    for fixture in for_miri(fixtures::all(), &["map.ipl"]) {
        let (events, _) = expected(&fixture.bytes, true);
        for kind in KINDS {
            let mut r = Recorder::answering(Some((kind, GTS_ABORT)));
            let mut d = new_decoder();
            init(&mut d, &all_callbacks(), &raw mut r);
            let outcome = run(&mut d, &fixture.bytes, 64);
            if r.calls[kind as usize] == 0 {
                assert_eq!(outcome.status, gts_status::GTS_OK);
                continue;
            }
            assert_eq!(
                outcome.status,
                gts_status::GTS_ERR_ABORTED,
                "{} {kind:?}",
                fixture.name
            );
            assert_ne!(outcome.offset, GTS_NO_OFFSET);
            // Sticky: feed and finish repeat it, and nothing more is reported.
            let seen = r.events.len();
            unsafe {
                let mut consumed = 9;
                assert_eq!(
                    gts_decoder_feed(&mut *d, fixture.bytes.as_ptr(), 4, &mut consumed),
                    gts_status::GTS_ERR_ABORTED
                );
                assert_eq!(consumed, 0);
                assert_eq!(gts_decoder_finish(&mut *d), gts_status::GTS_ERR_ABORTED);
                assert_eq!(gts_decoder_error(&*d), gts_status::GTS_ERR_ABORTED);
                assert_eq!(gts_decoder_error_offset(&*d), outcome.offset);
            }
            assert_eq!(r.events.len(), seen);
            // Any other answer than continue or pause aborts too.
            r.special = Some((kind, 12345));
            r.restart();
            assert_eq!(unsafe { gts_decoder_reset(&mut *d) }, gts_status::GTS_OK);
            assert_eq!(
                run(&mut d, &fixture.bytes, 64).status,
                gts_status::GTS_ERR_ABORTED
            );
            // After a reset with a callback that continues, the whole file decodes again.
            r.special = None;
            r.restart();
            assert_eq!(unsafe { gts_decoder_reset(&mut *d) }, gts_status::GTS_OK);
            assert_eq!(unsafe { gts_decoder_error(&*d) }, gts_status::GTS_OK);
            assert_eq!(run(&mut d, &fixture.bytes, 64).status, gts_status::GTS_OK);
            same_events(&r.events, &events, "");
        }
    }
}

#[test]
fn damaged_files_report_the_cores_error_and_offset() {
    let damaged = ["truncated.ifp", "bad_type.ifp", "bad.ipl", "garbage.bin"];
    for fixture in for_miri(fixtures::damaged(), &damaged) {
        let (events, error) = expected(&fixture.bytes, true);
        let (status, offset) = status_of(error);
        for &chunk in if cfg!(miri) {
            &[13][..]
        } else {
            &[1, 13, 4096][..]
        } {
            let mut r = Recorder::default();
            let outcome = decode_via_c(&fixture.bytes, chunk, &mut r);
            assert_eq!(
                (outcome.status, outcome.offset),
                (status, offset),
                "{}",
                fixture.name
            );
            same_events(&r.events, &events, &format!("{} by {chunk}", fixture.name));
        }
    }
    // The text IPL error names its line.
    let data = fixtures::bad_ipl_text();
    let mut d = new_decoder();
    init(
        &mut d,
        &crate::storage::NO_CALLBACKS,
        &mut Recorder::default(),
    );
    assert_eq!(run(&mut d, &data, 10).status, gts_status::GTS_ERR_LIMIT);
    assert_eq!(unsafe { gts_decoder_line(&*d) }, 3);
    let reason = unsafe { CStr::from_ptr(gts_decoder_error_reason(&*d)) };
    assert_eq!(reason.to_str(), Ok(ErrorKind::Limit.reason()));
    // Warnings of a sloppy file arrive with their offsets, and it still decodes.
    let (events, _) = expected(&fixtures::sloppy_walk(), true);
    let warnings: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            Ev::Warning(kind, at) => Some((*kind, *at)),
            _ => None,
        })
        .collect();
    assert_eq!(
        warnings,
        [
            (gts_warning_kind::GTS_WARNING_SIZE_MISMATCH, 4),
            (gts_warning_kind::GTS_WARNING_TRAILING_DATA, 3000)
        ]
    );
}

#[test]
fn seek_protocol_and_callers_that_cannot_seek() {
    for backward in [false, true] {
        let data = fixtures::stories(backward);
        let (events, error) = expected(&data, true);
        assert!(error.is_none());
        let chunks = if cfg!(miri) {
            vec![data.len()]
        } else {
            vec![1, 9, 4096, data.len()]
        };
        for chunk in chunks {
            let mut r = Recorder::default();
            let outcome = decode_via_c(&data, chunk, &mut r);
            assert_eq!(outcome.status, gts_status::GTS_OK);
            assert!(outcome.seeks >= 1, "the relocation table lies at the end");
            same_events(
                &r.events,
                &events,
                &format!("backward {backward} by {chunk}"),
            );
        }
        // Not seekable: the record behind is an error naming its offset.
        let (events, error) = expected(&data, false);
        let (status, offset) = status_of(error);
        assert_eq!(status, gts_status::GTS_ERR_SEEK_REQUIRED);
        let mut r = Recorder::default();
        let mut d = new_decoder();
        init(&mut d, &all_callbacks(), &raw mut r);
        assert_eq!(
            unsafe { gts_decoder_set_seekable(&mut *d, false) },
            gts_status::GTS_OK
        );
        let outcome = run(&mut d, &data, 100);
        assert_eq!((outcome.status, outcome.offset), (status, offset));
        assert_eq!(outcome.seeks, 0);
        same_events(&r.events, &events, "");
        // The setting survives a reset, and may change only before the first feed.
        assert_eq!(unsafe { gts_decoder_reset(&mut *d) }, gts_status::GTS_OK);
        assert_eq!(
            run(&mut d, &data, 100).status,
            gts_status::GTS_ERR_SEEK_REQUIRED
        );
        assert_eq!(
            unsafe { gts_decoder_set_seekable(&mut *d, true) },
            gts_status::GTS_ERR_INVALID_STATE
        );
        assert_eq!(unsafe { gts_decoder_reset(&mut *d) }, gts_status::GTS_OK);
        assert_eq!(
            unsafe { gts_decoder_set_seekable(&mut *d, true) },
            gts_status::GTS_OK
        );
        assert_eq!(run(&mut d, &data, 100).status, gts_status::GTS_OK);
    }
}

#[test]
fn callbacks_cannot_call_back_into_their_decoder() {
    let data = fixtures::walk();
    let (events, _) = expected(&data, true);
    let mut d = new_decoder();
    let mut r = Recorder::default();
    init(&mut d, &all_callbacks(), &raw mut r);
    // One raw pointer for the feeds and the re-entering callbacks alike, as a C caller has: a
    // `&mut` made for the feeds would be a second, conflicting way in (Miri).
    let dp: *mut gts_decoder = &raw mut *d;
    r.reenter = Some(dp);
    assert_eq!(run_raw(dp, &data, 512).status, gts_status::GTS_OK);
    same_events(&r.events, &events, "the decoder went on undisturbed");
    assert!(!r.reentry.is_empty());
    let refused = format!(
        "{0:?} {0:?} {0:?} {0:?} {1} {0:?}",
        gts_status::GTS_ERR_REENTRANT,
        GTS_NO_OFFSET
    );
    assert!(
        r.reentry.iter().all(|s| *s == refused),
        "{:?}",
        r.reentry[0]
    );
    // A callback may use another decoder.
    let mut other = new_decoder();
    let mut r2 = Recorder::default();
    init(&mut d, &all_callbacks(), &raw mut r2);
    init(
        &mut other,
        &crate::storage::NO_CALLBACKS,
        &mut Recorder::default(),
    );
    r2.reenter = Some(&raw mut *other);
    assert_eq!(run(&mut d, &data, 512).status, gts_status::GTS_OK);
    assert!(r2.reentry.iter().all(|s| !s.contains("REENTRANT")));
}

#[test]
fn a_panic_stops_at_the_boundary_and_marks_the_decoder_failed() {
    let data = fixtures::walk();
    let mut d = new_decoder();
    let mut r = Recorder::default();
    init(&mut d, &all_callbacks(), &raw mut r);
    PANIC_NEXT.with(|p| p.set(true));
    let mut consumed = 5;
    let status = unsafe { gts_decoder_feed(&mut *d, data.as_ptr(), data.len(), &mut consumed) };
    assert_eq!(status, gts_status::GTS_ERR_PANIC);
    assert_eq!(consumed, 0);
    unsafe {
        assert_eq!(gts_decoder_error(&*d), gts_status::GTS_ERR_PANIC);
        assert_eq!(gts_decoder_error_offset(&*d), 0);
        assert_eq!(
            gts_decoder_feed(&mut *d, data.as_ptr(), 4, null_mut()),
            gts_status::GTS_ERR_PANIC
        );
        assert_eq!(gts_decoder_finish(&mut *d), gts_status::GTS_ERR_PANIC);
        assert_eq!(gts_decoder_reset(&mut *d), gts_status::GTS_OK);
    }
    let (events, _) = expected(&data, true);
    r.restart();
    assert_eq!(run(&mut d, &data, 4096).status, gts_status::GTS_OK);
    same_events(&r.events, &events, "");
}

#[test]
fn finish_twice_and_feed_after_finish() {
    let data = fixtures::walk();
    let mut d = new_decoder();
    init(
        &mut d,
        &crate::storage::NO_CALLBACKS,
        &mut Recorder::default(),
    );
    assert_eq!(run(&mut d, &data, 4096).status, gts_status::GTS_OK);
    unsafe {
        assert_eq!(gts_decoder_finish(&mut *d), gts_status::GTS_ERR_FINISHED);
        assert_eq!(
            gts_decoder_feed(&mut *d, data.as_ptr(), 1, null_mut()),
            gts_status::GTS_ERR_FINISHED
        );
        // Empty input: finish reports it, at offset 0.
        assert_eq!(gts_decoder_reset(&mut *d), gts_status::GTS_OK);
        assert_eq!(gts_decoder_finish(&mut *d), gts_status::GTS_ERR_EMPTY);
        assert_eq!(gts_decoder_error_offset(&*d), 0);
    }
}

#[test]
fn a_copied_decoder_goes_on_independently() {
    let data = fixtures::anpk();
    let (events, _) = expected(&data, true);
    let mut r = Recorder::answering(Some((Kind::Bone, GTS_PAUSE)));
    let mut d = new_decoder();
    init(&mut d, &all_callbacks(), &raw mut r);
    let mut consumed = 0;
    let status = unsafe { gts_decoder_feed(&mut *d, data.as_ptr(), data.len(), &mut consumed) };
    assert_eq!(status, gts_status::GTS_PAUSED);
    let mut copy = new_decoder();
    // A byte copy, as C's `memcpy`: the storage holds padding bytes the library never wrote,
    // which a typed copy of the `[u64; N]` array (`copy.opaque = d.opaque`) may not read (Miri:
    // "encountered uninitialized memory, but expected an integer").
    unsafe { std::ptr::copy_nonoverlapping::<gts_decoder>(&*d, &mut *copy, 1) };
    let before = r.events.clone();
    // Finish the original, then the copy from the same point: the same events twice.
    r.special = None;
    assert_eq!(run_from(&mut d, &data, consumed), gts_status::GTS_OK);
    same_events(&r.events, &events, "");
    r.events = before;
    assert_eq!(run_from(&mut copy, &data, consumed), gts_status::GTS_OK);
    same_events(&r.events, &events, "");
}

fn run_from(d: &mut gts_decoder, data: &[u8], at: usize) -> gts_status {
    let mut consumed = 0;
    let rest = &data[at..];
    let status = unsafe { gts_decoder_feed(d, rest.as_ptr(), rest.len(), &mut consumed) };
    assert!(matches!(status, gts_status::GTS_OK | gts_status::GTS_DONE));
    unsafe { gts_decoder_finish(d) }
}

#[test]
fn statuses_have_names_and_the_cores_reasons() {
    let mut names = std::collections::HashSet::new();
    for &(status, name, reason) in STATUSES {
        let n = status as i32;
        assert_eq!(unsafe { CStr::from_ptr(gts_status_name(n)) }, name);
        assert_eq!(unsafe { CStr::from_ptr(gts_status_reason(n)) }, reason);
        assert!(name.to_str().unwrap().starts_with("GTS_"));
        assert_eq!(format!("{status:?}"), name.to_str().unwrap());
        assert!(names.insert(name), "{name:?} twice");
        assert_eq!(n >= 100, name.to_str().unwrap().starts_with("GTS_ERR_"));
    }
    for n in [-1, 4, 99, 119, 198, 207, 1000, i32::MIN, i32::MAX] {
        assert_eq!(
            unsafe { CStr::from_ptr(gts_status_name(n)) }.to_str(),
            Ok("GTS_UNKNOWN_STATUS")
        );
        assert_eq!(
            unsafe { CStr::from_ptr(gts_status_reason(n)) }.to_str(),
            Ok("unknown status")
        );
    }
    for &kind in ErrorKind::ALL {
        let status = crate::bridge::error_status(kind);
        assert_ne!(status, gts_status::GTS_ERR_OTHER, "{kind:?} has a number");
        assert_eq!(status as u32, kind.code(), "{kind:?}");
        let reason = unsafe { CStr::from_ptr(gts_status_reason(status as i32)) };
        assert_eq!(reason.to_str(), Ok(kind.reason()), "{kind:?}");
    }
    for &kind in WarningKind::ALL {
        let (c_kind, name, reason) = warning_kind(kind);
        assert_eq!(c_kind as u32, kind.code(), "{kind:?}");
        assert_eq!(name.to_str(), Ok(kind.name()));
        assert_eq!(reason.to_str(), Ok(kind.reason()));
    }
}

/// The committed C header numbers every error and warning kind as the core's table does, under
/// the name made from the kind's (`GTS_ERR_` or `GTS_WARNING_` and its name in capitals), and
/// has no kind the core lacks.
#[test]
#[cfg_attr(miri, ignore)] // reads a file; the same in every build
fn header_numbers_follow_the_kinds_table() {
    let header = include_str!("../../include/gtastream.h");
    let enumerators = |prefix: &str| -> Vec<(String, u32)> {
        header
            .lines()
            .filter_map(|line| {
                let (name, value) = line.trim().trim_end_matches(',').split_once(" = ")?;
                let name = name.strip_prefix(prefix)?;
                Some((name.to_ascii_lowercase(), value.parse().ok()?))
            })
            .collect()
    };
    let errors: Vec<_> = enumerators("GTS_ERR_")
        .into_iter()
        .filter(|(_, value)| (100..199).contains(value))
        .collect();
    let expected: Vec<_> = ErrorKind::ALL
        .iter()
        .map(|k| (k.name().to_string(), k.code()))
        .collect();
    assert_eq!(errors, expected);
    let warnings: Vec<_> = enumerators("GTS_WARNING_")
        .into_iter()
        .filter(|(name, _)| name != "other")
        .collect();
    let expected: Vec<_> = WarningKind::ALL
        .iter()
        .map(|k| (k.name().to_string(), k.code()))
        .collect();
    assert_eq!(warnings, expected);
    let archive_warnings: Vec<_> = enumerators("GTS_ARCHIVE_WARNING_")
        .into_iter()
        .filter(|(name, _)| name != "unknown")
        .collect();
    let expected: Vec<_> = gtastream_core::archive::ArchiveWarningKind::ALL
        .iter()
        .map(|k| (k.name().to_string(), k.code()))
        .collect();
    assert_eq!(archive_warnings, expected);
    let writing: Vec<_> = enumerators("GTS_ERR_")
        .into_iter()
        .filter(|(_, value)| (300..400).contains(value))
        .collect();
    let expected: Vec<_> = gtastream_core::encode::EncodeErrorKind::ALL
        .iter()
        .map(|k| (k.name().to_string(), k.code()))
        .collect();
    assert_eq!(writing, expected);
}

/// Callbacks that count and never allocate.
unsafe extern "C" fn count_frames(user: *mut c_void, _: *const gts_keyframe, n: usize) -> i32 {
    unsafe { *user.cast::<usize>() += n };
    GTS_CONTINUE
}

unsafe extern "C" fn count_raw(user: *mut c_void, raw: *const gts_raw_keyframes) -> i32 {
    unsafe { *user.cast::<usize>() += (*raw).count };
    GTS_CONTINUE
}

#[test]
fn decoding_through_the_c_api_never_allocates() {
    let all = fixtures::all()
        .into_iter()
        .chain(fixtures::damaged())
        .collect();
    for fixture in for_miri(all, &["map.ipl", "forward.anim", "bad.ipl", "garbage.bin"]) {
        let mut cb = crate::storage::NO_CALLBACKS;
        cb.on_keyframes = Some(count_frames);
        cb.on_keyframes_raw = Some(count_raw);
        let mut frames = 0usize;
        let mut d = gts_decoder {
            opaque: [0; GTS_DECODER_WORDS],
        };
        let (calls, ()) = testkit::alloc_count::allocations(|| {
            unsafe {
                gts_decoder_init(
                    &mut d,
                    size_of::<gts_decoder>(),
                    &cb,
                    (&mut frames as *mut usize).cast(),
                );
            }
            for &chunk in if cfg!(miri) {
                &[4096][..]
            } else {
                &[1, 4096][..]
            } {
                unsafe { gts_decoder_reset(&mut d) };
                let mut at = 0;
                while at < fixture.bytes.len() {
                    let end = fixture.bytes.len().min(at + chunk);
                    let mut consumed = 0;
                    let piece = &fixture.bytes[at..end];
                    let status = unsafe {
                        gts_decoder_feed(&mut d, piece.as_ptr(), piece.len(), &mut consumed)
                    };
                    match status {
                        gts_status::GTS_OK => at = end,
                        gts_status::GTS_SEEK => at = unsafe { gts_decoder_position(&d) } as usize,
                        _ => break,
                    }
                }
                unsafe { gts_decoder_finish(&mut d) };
            }
        });
        assert_eq!(calls, 0, "{}", fixture.name);
    }
}

/// A small deterministic generator for the mutation test.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn mutated_files_in_random_chunks_never_break_the_boundary() {
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let fixtures = fixtures::all();
    // Miri interprets every step: a few rounds there.
    let rounds = if cfg!(miri) { 3 } else { 400 };
    for round in 0..rounds {
        let base = &fixtures[round % fixtures.len()].bytes;
        let mut data = base.clone();
        for _ in 0..1 + rng.below(6) {
            let at = rng.below(data.len());
            match rng.below(4) {
                0 => data[at] = rng.next() as u8,
                1 => data[at] ^= 0x80,
                2 => data.truncate(at.max(1)),
                _ => {
                    let end = (at + 4).min(data.len());
                    data[at..end].fill(0xFF);
                }
            }
        }
        let (events, error) = expected(&data, true);
        let (status, offset) = status_of(error);
        let chunk = 1 + rng.below(300);
        let mut r = Recorder::default();
        let outcome = decode_via_c(&data, chunk, &mut r);
        assert_ne!(outcome.status, gts_status::GTS_ERR_PANIC);
        assert_eq!(
            (outcome.status, outcome.offset),
            (status, offset),
            "round {round}"
        );
        same_events(&r.events, &events, &format!("round {round}"));
    }
}

// ---------------------------------------------------------------------------------------------
// The one-call drivers: gts_decode_buffer and gts_decode_io.

/// Calls `gts_decode_buffer` until it stops pausing; the status and the pauses.
fn decode_buffer_resuming(d: &mut gts_decoder, data: &[u8]) -> (gts_status, usize) {
    let mut pauses = 0;
    loop {
        let status = unsafe { gts_decode_buffer(d, data.as_ptr(), data.len()) };
        if status != gts_status::GTS_PAUSED {
            return (status, pauses);
        }
        pauses += 1;
        assert!(pauses < 1_000_000, "pauses do not end");
    }
}

#[test]
fn decode_buffer_reports_what_decode_slice_does() {
    let all = fixtures::all()
        .into_iter()
        .chain(fixtures::damaged())
        .collect();
    for fixture in for_miri(all, &["map.ipl"]) {
        let (events, error) = expected(&fixture.bytes, true);
        let mut r = Recorder::default();
        let mut d = new_decoder();
        init(&mut d, &all_callbacks(), &raw mut r);
        let (status, pauses) = decode_buffer_resuming(&mut d, &fixture.bytes);
        assert_eq!(pauses, 0);
        assert_eq!(
            (status, unsafe { gts_decoder_error_offset(&*d) }),
            status_of(error),
            "{}",
            fixture.name
        );
        same_events(&r.events, &events, fixture.name);
        // Finished (or failed): a second call changes nothing.
        let again = unsafe { gts_decode_buffer(&mut *d, fixture.bytes.as_ptr(), 4) };
        let expected_again = match error {
            None => gts_status::GTS_ERR_FINISHED,
            Some(_) => status,
        };
        assert_eq!(again, expected_again, "{}", fixture.name);
    }
}

#[test]
fn decode_buffer_resumes_after_a_pause_from_every_callback() {
    for fixture in for_miri(fixtures::all(), &["map.ipl"]) {
        let (events, _) = expected(&fixture.bytes, true);
        let kinds = if cfg!(miri) {
            &[Kind::Instance][..]
        } else {
            &KINDS[..]
        };
        for &kind in kinds {
            let mut r = Recorder::answering(Some((kind, GTS_PAUSE)));
            let mut d = new_decoder();
            init(&mut d, &all_callbacks(), &raw mut r);
            let (status, pauses) = decode_buffer_resuming(&mut d, &fixture.bytes);
            assert_eq!(status, gts_status::GTS_OK, "{} {kind:?}", fixture.name);
            same_events(&r.events, &events, &format!("{} {kind:?}", fixture.name));
            let calls = r.calls[kind as usize];
            match kind {
                // Finishing honours no pause; one stored batch of keyframes pauses once.
                Kind::End => assert_eq!(pauses, 0),
                Kind::Frames => assert!(pauses <= calls && (calls == 0) == (pauses == 0)),
                // The last of these may come from finishing.
                Kind::Warning | Kind::Line | Kind::AnimationEnd | Kind::BoneEnd | Kind::Bone => {
                    assert!(pauses + 1 >= calls && pauses <= calls)
                }
                _ => assert_eq!(pauses, calls, "{} {kind:?}", fixture.name),
            }
        }
    }
}

#[test]
fn decode_buffer_follows_seeks_and_stops_at_the_buffers_end() {
    for backward in if cfg!(miri) {
        &[true][..]
    } else {
        &[false, true][..]
    } {
        let backward = *backward;
        let data = fixtures::stories(backward);
        let mut r = Recorder::default();
        let mut d = new_decoder();
        init(&mut d, &all_callbacks(), &raw mut r);
        assert_eq!(decode_buffer_resuming(&mut d, &data).0, gts_status::GTS_OK);
        same_events(&r.events, &expected(&data, true).0, "whole");
        // Cut short: the records the decoder seeks to are missing, as decode_slice says.
        let cuts = if cfg!(miri) {
            vec![]
        } else {
            vec![data.len() / 3, data.len() - 1]
        };
        for cut in cuts {
            let short = &data[..cut];
            let (events, error) = expected(short, true);
            assert!(error.is_some());
            let mut r = Recorder::default();
            init(&mut d, &all_callbacks(), &raw mut r);
            let status = decode_buffer_resuming(&mut d, short).0;
            assert_eq!(
                (status, unsafe { gts_decoder_error_offset(&*d) }),
                status_of(error)
            );
            same_events(&r.events, &events, &format!("cut at {cut}"));
        }
    }
    // After feeds of its own, the caller hands over the whole buffer: it goes on from there.
    if cfg!(miri) {
        return;
    }
    let data = fixtures::walk();
    let mut r = Recorder::default();
    let mut d = new_decoder();
    init(&mut d, &all_callbacks(), &raw mut r);
    let mut consumed = 0;
    let status = unsafe { gts_decoder_feed(&mut *d, data.as_ptr(), 100, &mut consumed) };
    assert_eq!((status, consumed), (gts_status::GTS_OK, 100));
    assert_eq!(decode_buffer_resuming(&mut d, &data).0, gts_status::GTS_OK);
    same_events(&r.events, &expected(&data, true).0, "fed, then the buffer");
}

unsafe extern "C" fn decode_buffer_from_inside(user: *mut c_void, _: *const gts_file_info) -> i32 {
    let d = user.cast::<gts_decoder>();
    let status = unsafe { gts_decode_buffer(d, [0u8; 4].as_ptr(), 4) };
    if status == gts_status::GTS_ERR_REENTRANT {
        GTS_CONTINUE
    } else {
        GTS_ABORT
    }
}

#[test]
fn decode_buffer_checks_its_arguments_like_feed() {
    use gts_status::*;
    let data = fixtures::ipl_text();
    unsafe {
        assert_eq!(
            gts_decode_buffer(null_mut(), data.as_ptr(), 4),
            GTS_ERR_INVALID_ARGUMENT
        );
        let mut d = new_decoder();
        assert_eq!(
            gts_decode_buffer(&mut *d, data.as_ptr(), 4),
            GTS_ERR_NOT_INITIALIZED
        );
        init(&mut d, &crate::storage::NO_CALLBACKS, null_mut());
        assert_eq!(
            gts_decode_buffer(&mut *d, null(), 4),
            GTS_ERR_INVALID_ARGUMENT
        );
        let inside = (&raw const *d).cast::<u8>();
        assert_eq!(
            gts_decode_buffer(&mut *d, inside, 16),
            GTS_ERR_INVALID_ARGUMENT
        );
        // Nothing at all: no format to tell.
        assert_eq!(gts_decode_buffer(&mut *d, null(), 0), GTS_ERR_EMPTY);
        // A callback cannot drive its own decoder.
        let mut cb = crate::storage::NO_CALLBACKS;
        cb.on_file = Some(decode_buffer_from_inside);
        let dp: *mut gts_decoder = &raw mut *d;
        assert_eq!(
            gts_decoder_init(dp, size_of::<gts_decoder>(), &cb, dp.cast()),
            GTS_OK
        );
        assert_eq!(gts_decode_buffer(dp, data.as_ptr(), data.len()), GTS_OK);
        // A panic stops at the boundary.
        assert_eq!(gts_decoder_reset(dp), GTS_OK);
        PANIC_NEXT.with(|p| p.set(true));
        assert_eq!(
            gts_decode_buffer(dp, data.as_ptr(), data.len()),
            GTS_ERR_PANIC
        );
        assert_eq!(gts_decoder_error(dp), GTS_ERR_PANIC);
    }
}

/// A file behind read and seek callbacks, read at most `chunk` bytes at a time.
struct TestSource {
    data: Vec<u8>,
    at: usize,
    chunk: usize,
    /// Fail the read (or seek) call of this number (counting from 1), once.
    fail_read: usize,
    fail_seek: usize,
    reads: usize,
    seeks: usize,
}

impl TestSource {
    fn new(data: &[u8], chunk: usize) -> Self {
        TestSource {
            data: data.to_vec(),
            at: 0,
            chunk,
            fail_read: 0,
            fail_seek: 0,
            reads: 0,
            seeks: 0,
        }
    }
}

unsafe extern "C" fn test_read(io: *mut c_void, buffer: *mut u8, capacity: usize) -> isize {
    let source = unsafe { &mut *io.cast::<TestSource>() };
    source.reads += 1;
    if source.reads == source.fail_read {
        return -1;
    }
    let rest = source.data.get(source.at..).unwrap_or_default();
    let n = rest.len().min(capacity).min(source.chunk);
    unsafe { std::ptr::copy_nonoverlapping(rest.as_ptr(), buffer, n) };
    source.at += n;
    n as isize
}

unsafe extern "C" fn test_seek(io: *mut c_void, offset: u64) -> i32 {
    let source = unsafe { &mut *io.cast::<TestSource>() };
    source.seeks += 1;
    if source.seeks == source.fail_seek {
        return -1;
    }
    source.at = offset as usize;
    0
}

unsafe extern "C" fn read_too_much(_: *mut c_void, _: *mut u8, capacity: usize) -> isize {
    capacity as isize + 1
}

/// Calls `gts_decode_io` until it neither pauses nor fails to read; the status, pauses and
/// I/O errors.
fn decode_io_resuming(
    d: &mut gts_decoder,
    source: &mut TestSource,
    seekable: bool,
    buffer: &mut [u8],
) -> (gts_status, usize, usize) {
    let (mut pauses, mut io_errors) = (0, 0);
    loop {
        let seek: gts_seek_fn = if seekable { Some(test_seek) } else { None };
        let status = unsafe {
            gts_decode_io(
                d,
                Some(test_read),
                seek,
                (source as *mut TestSource).cast(),
                buffer.as_mut_ptr(),
                buffer.len(),
            )
        };
        match status {
            gts_status::GTS_PAUSED => pauses += 1,
            gts_status::GTS_ERR_IO => io_errors += 1,
            _ => return (status, pauses, io_errors),
        }
        assert!(pauses + io_errors < 1_000_000, "calls do not end");
    }
}

#[test]
fn decode_io_matches_the_core_for_every_format_buffer_and_read_size() {
    let all = fixtures::all()
        .into_iter()
        .chain(fixtures::damaged())
        .collect();
    for fixture in for_miri(all, &["map.ipl"]) {
        for seekable in [true, false] {
            let (events, error) = expected(&fixture.bytes, seekable);
            let sizes: &[(usize, usize)] = if cfg!(miri) {
                &[(64, 100)]
            } else {
                &[(1, 1), (7, 5), (64, 4096), (4096, 4096)]
            };
            for &(capacity, chunk) in sizes {
                let context = format!("{} seekable {seekable} {capacity}/{chunk}", fixture.name);
                let mut r = Recorder::default();
                let mut d = new_decoder();
                init(&mut d, &all_callbacks(), &raw mut r);
                let mut source = TestSource::new(&fixture.bytes, chunk);
                let mut buffer = vec![0u8; capacity];
                let (status, pauses, io_errors) =
                    decode_io_resuming(&mut d, &mut source, seekable, &mut buffer);
                assert_eq!((pauses, io_errors), (0, 0), "{context}");
                assert_eq!(
                    (status, unsafe { gts_decoder_error_offset(&*d) }),
                    status_of(error),
                    "{context}"
                );
                same_events(&r.events, &events, &context);
            }
        }
    }
}

#[test]
fn decode_io_resumes_after_pauses_and_failed_reads_and_seeks() {
    for fixture in for_miri(fixtures::all(), &["forward.anim"]) {
        let (events, _) = expected(&fixture.bytes, true);
        // Under Miri, one kind: the reads and seeks are the same for all.
        let kinds = if cfg!(miri) {
            &[Kind::Animation][..]
        } else {
            &KINDS[..]
        };
        for &kind in kinds {
            let mut r = Recorder::answering(Some((kind, GTS_PAUSE)));
            let mut d = new_decoder();
            init(&mut d, &all_callbacks(), &raw mut r);
            let mut source = TestSource::new(&fixture.bytes, 100);
            source.fail_read = 2;
            source.fail_seek = 1;
            let mut buffer = vec![0u8; 64];
            let (status, pauses, io_errors) =
                decode_io_resuming(&mut d, &mut source, true, &mut buffer);
            let context = format!("{} {kind:?}", fixture.name);
            assert_eq!(status, gts_status::GTS_OK, "{context}");
            same_events(&r.events, &events, &context);
            assert!((1..=2).contains(&io_errors), "{context}: {io_errors}");
            let calls = r.calls[kind as usize];
            match kind {
                Kind::End => assert_eq!(pauses, 0),
                Kind::Frames => assert!(pauses <= calls && (calls == 0) == (pauses == 0)),
                Kind::Warning | Kind::Line | Kind::AnimationEnd | Kind::BoneEnd | Kind::Bone => {
                    assert!(pauses + 1 >= calls && pauses <= calls, "{context}")
                }
                _ => assert_eq!(pauses, calls, "{context}"),
            }
        }
    }
    // A stream (no seek) resumes from the bytes left in the buffer.
    let (name, kind) = if cfg!(miri) {
        ("map.ipl", Kind::Instance)
    } else {
        ("walk.ifp", Kind::Bone)
    };
    let data = fixtures::all()
        .into_iter()
        .find(|f| f.name == name)
        .expect("a fixture")
        .bytes;
    let (events, _) = expected(&data, false);
    let mut r = Recorder::answering(Some((kind, GTS_PAUSE)));
    let mut d = new_decoder();
    init(&mut d, &all_callbacks(), &raw mut r);
    let mut source = TestSource::new(&data, 4096);
    let mut buffer = vec![0u8; 4096];
    let (status, pauses, _) = decode_io_resuming(&mut d, &mut source, false, &mut buffer);
    assert_eq!(status, gts_status::GTS_OK);
    assert!(pauses > 1);
    assert_eq!(source.seeks, 0);
    same_events(&r.events, &events, "stream");
}

#[test]
fn decode_io_checks_its_arguments() {
    use gts_status::*;
    let data = fixtures::ipl_text();
    let mut source = TestSource::new(&data, 4096);
    let io = (&raw mut source).cast::<c_void>();
    let mut buffer = [0u8; 64];
    let b = buffer.as_mut_ptr();
    let mut d = new_decoder();
    unsafe {
        let read = Some(test_read as unsafe extern "C" fn(_, _, _) -> _);
        let seek = Some(test_seek as unsafe extern "C" fn(_, _) -> _);
        assert_eq!(
            gts_decode_io(&mut *d, read, seek, io, b, 64),
            GTS_ERR_NOT_INITIALIZED
        );
        init(&mut d, &crate::storage::NO_CALLBACKS, null_mut());
        assert_eq!(
            gts_decode_io(null_mut(), read, seek, io, b, 64),
            GTS_ERR_INVALID_ARGUMENT
        );
        assert_eq!(
            gts_decode_io(&mut *d, None, seek, io, b, 64),
            GTS_ERR_INVALID_ARGUMENT
        );
        assert_eq!(
            gts_decode_io(&mut *d, read, seek, io, null_mut(), 64),
            GTS_ERR_INVALID_ARGUMENT
        );
        assert_eq!(
            gts_decode_io(&mut *d, read, seek, io, b, 0),
            GTS_ERR_INVALID_ARGUMENT
        );
        let inside = (&raw mut *d).cast::<u8>();
        assert_eq!(
            gts_decode_io(&mut *d, read, seek, io, inside, 8),
            GTS_ERR_INVALID_ARGUMENT
        );
        // A read that claims more than it was given room for is an I/O error.
        assert_eq!(
            gts_decode_io(&mut *d, Some(read_too_much), seek, io, b, 64),
            GTS_ERR_IO
        );
        // Fed as seekable, it cannot become a stream.
        assert_eq!(
            gts_decode_io(&mut *d, read, None, io, b, 64),
            GTS_ERR_INVALID_STATE
        );
        assert_eq!(gts_decoder_reset(&mut *d), GTS_OK);
        source.at = 0;
        assert_eq!(gts_decode_io(&mut *d, read, None, io, b, 64), GTS_OK);
        assert_eq!(source.seeks, 0);
    }
}

// Under Miri the allocation counting of feeds (`decoding_through_the_c_api_never_allocates`) is
// enough: this one decodes a Stories file twice.
#[test]
#[cfg_attr(miri, ignore)]
fn the_drivers_never_allocate() {
    let data = fixtures::stories(true);
    let mut cb = crate::storage::NO_CALLBACKS;
    cb.on_keyframes = Some(count_frames);
    let mut frames = 0usize;
    let mut d = gts_decoder {
        opaque: [0; GTS_DECODER_WORDS],
    };
    let mut source = TestSource::new(&data, 100);
    let mut buffer = [0u8; 256];
    let (calls, statuses) = testkit::alloc_count::allocations(|| unsafe {
        gts_decoder_init(
            &mut d,
            size_of::<gts_decoder>(),
            &cb,
            (&raw mut frames).cast(),
        );
        let buffer_status = gts_decode_buffer(&mut d, data.as_ptr(), data.len());
        gts_decoder_reset(&mut d);
        let io_status = gts_decode_io(
            &mut d,
            Some(test_read),
            Some(test_seek),
            (&raw mut source).cast(),
            buffer.as_mut_ptr(),
            buffer.len(),
        );
        (buffer_status, io_status)
    });
    assert_eq!(calls, 0);
    assert_eq!(statuses, (gts_status::GTS_OK, gts_status::GTS_OK));
    assert!(frames > 0);
}

// Text checks only: nothing for Miri to see.
#[test]
#[cfg_attr(miri, ignore)]
fn the_header_has_the_version_and_calling_convention_macros() {
    let header = include_str!("../../include/gtastream.h");
    for (part, value) in [
        ("MAJOR", env!("CARGO_PKG_VERSION_MAJOR")),
        ("MINOR", env!("CARGO_PKG_VERSION_MINOR")),
        ("PATCH", env!("CARGO_PKG_VERSION_PATCH")),
    ] {
        let line = format!("#define GTS_VERSION_{part} {value}\n");
        assert!(header.contains(&line), "{line}");
    }
    // Every declared function and callback type carries GTS_CALL.
    let declarations = header
        .lines()
        .filter(|l| !l.starts_with(' ') && !l.starts_with('#') && l.contains(" gts_"))
        .filter(|l| l.contains('('));
    let mut functions = 0;
    for line in declarations {
        assert!(line.contains("GTS_CALL gts_"), "{line}");
        functions += 1;
    }
    assert!(functions >= 18);
    assert_eq!(
        header.matches("(*").count(),
        0,
        "a function pointer without GTS_CALL"
    );
    // The callbacks of the decoder (12), the archive (4), the I/O driver (2) and more.
    assert!(header.matches("(GTS_CALL *").count() >= 18);
}

#[test]
fn the_game_of_a_text_file_is_named_before_the_first_feed() {
    // A San Andreas line with a locale decimal comma: twelve fields, which the file alone
    // takes for a GTA III line; named San Andreas, it reads as the game reads it.
    let data =
        b"inst\n2, comma, 0, 2225.2, -1185.7, 2499,8149, 0.0, 0.0, 1.0, 1.62921e-007, -1\nend\n";
    let core = |game| {
        let mut visitor = Expected::default();
        let options = Options {
            game,
            ..Options::DEFAULT
        };
        Decoder::with_options(options)
            .decode_slice(data, &mut visitor)
            .unwrap();
        std::mem::take(&mut visitor.0.events)
    };
    let auto = core(None);
    let sa = core(Some(gtastream_core::Game::SanAndreas));
    assert_ne!(auto, sa);
    let mut d = new_decoder();
    let mut r = Recorder::default();
    init(&mut d, &all_callbacks(), &raw mut r);
    for bad in [-1, 4, 1000] {
        let status = unsafe { gts_decoder_set_game(&mut *d, bad) };
        assert_eq!(status, gts_status::GTS_ERR_INVALID_ARGUMENT, "{bad}");
    }
    let status = unsafe { gts_decoder_set_game(&mut *d, gts_game::GTS_GAME_SA as i32) };
    assert_eq!(status, gts_status::GTS_OK);
    // The seekable setting keeps the game, and the game the seekable setting.
    assert_eq!(
        unsafe { gts_decoder_set_seekable(&mut *d, false) },
        gts_status::GTS_OK
    );
    assert_eq!(run(&mut d, data, 7).status, gts_status::GTS_OK);
    same_events(&r.events, &sa, "named San Andreas");
    // Too late now; after a reset, which keeps it, it may change again.
    let status = unsafe { gts_decoder_set_game(&mut *d, gts_game::GTS_GAME_AUTO as i32) };
    assert_eq!(status, gts_status::GTS_ERR_INVALID_STATE);
    assert_eq!(unsafe { gts_decoder_reset(&mut *d) }, gts_status::GTS_OK);
    r.events.clear();
    assert_eq!(run(&mut d, data, data.len()).status, gts_status::GTS_OK);
    same_events(&r.events, &sa, "after reset");
    assert_eq!(unsafe { gts_decoder_reset(&mut *d) }, gts_status::GTS_OK);
    let status = unsafe { gts_decoder_set_game(&mut *d, gts_game::GTS_GAME_AUTO as i32) };
    assert_eq!(status, gts_status::GTS_OK);
    r.events.clear();
    assert_eq!(run(&mut d, data, 1).status, gts_status::GTS_OK);
    same_events(&r.events, &auto, "decided by the file");
    // NULL is refused.
    let status = unsafe { gts_decoder_set_game(null_mut(), 0) };
    assert_eq!(status, gts_status::GTS_ERR_INVALID_ARGUMENT);
}

#[test]
fn empty_input_text_that_is_no_placement_file_and_foreign_files() {
    for (data, status) in [
        (&b""[..], gts_status::GTS_ERR_EMPTY),
        (b"[package]\nname = \"x\"\n", gts_status::GTS_ERR_BAD_MAGIC),
        (b"COL3\x41\0\0\0box\0", gts_status::GTS_ERR_COLLISION_FILE),
        (b"VERF\x12\x34\x56\x78", gts_status::GTS_ERR_FASTMAN92_IMG),
        (
            b"\x16\0\0\0\x40\0\0\0\xff\xff\x03\x18",
            gts_status::GTS_ERR_TEXTURE_DICTIONARY,
        ),
    ] {
        let mut r = Recorder::default();
        let outcome = decode_via_c(data, 4, &mut r);
        assert_eq!((outcome.status, outcome.offset), (status, 0));
        assert!(r.events.is_empty());
        let name = unsafe { CStr::from_ptr(gts_status_name(status as i32)) };
        assert_eq!(name.to_str(), Ok(format!("{status:?}").as_str()));
    }
}

// ---------------------------------------------------------------------------------------------
// The encoder: every error sticks (as the decoder's), and nothing follows the end.

mod encoder_errors {
    use super::*;
    use crate::encoder::tests::{animation_info, bone, file_info, new_buf, new_encoder, Buf};
    use core::ptr::addr_of_mut;

    const FRAME: gts_keyframe = gts_keyframe {
        time: 0.0,
        rotation: [0.0, 0.0, 0.0, 1.0],
        translation: [0.0; 3],
        scale: [0.0; 3],
    };

    /// Every later call of an animation encoder returns `error`, and nothing more is written.
    unsafe fn sticks(e: *mut gts_encoder, buf: *mut Buf, error: gts_status) {
        let written = unsafe { (*buf).bytes.len() };
        let b = bone(b"Root", gts_frame_type::GTS_FRAME_IFP2_ROT);
        let a = animation_info(b"walk");
        unsafe {
            assert_eq!(gts_encoder_animation(e, &a), error);
            assert_eq!(gts_encoder_bone(e, &b), error);
            assert_eq!(gts_encoder_keyframes(e, &FRAME, 1), error);
            assert_eq!(gts_encoder_keyframes(e, null(), 0), error);
            assert_eq!(gts_encoder_bone_end(e), error);
            assert_eq!(gts_encoder_animation_end(e), error);
            assert_eq!(gts_encoder_end(e), error);
            assert_eq!(gts_encoder_end(e), error);
            assert_eq!((*buf).bytes.len(), written);
            drop(Box::from_raw(buf));
        }
    }

    /// An ANP3 encoder given its file event.
    fn anp3(buf: *mut Buf) -> Box<gts_encoder> {
        let mut e = new_encoder(gts_format::GTS_FORMAT_ANP3, buf);
        let file = file_info(gts_format::GTS_FORMAT_ANP3);
        assert_eq!(
            unsafe { gts_encoder_file(&mut *e, &file) },
            gts_status::GTS_OK
        );
        e
    }

    #[test]
    fn a_file_of_the_other_kind_sticks() {
        let buf = new_buf();
        let mut e = new_encoder(gts_format::GTS_FORMAT_ANP3, buf);
        let file = file_info(gts_format::GTS_FORMAT_IPL_TEXT);
        unsafe {
            let status = gts_encoder_file(&mut *e, &file);
            assert_eq!(status, gts_status::GTS_ERR_UNSUPPORTED_FORMAT);
            sticks(&mut *e, buf, status);
        }
    }

    #[test]
    fn a_null_name_or_argument_sticks() {
        // A NULL name with bytes to read.
        let buf = new_buf();
        let mut e = anp3(buf);
        let a = gts_animation_info {
            name: null(),
            ..animation_info(b"walk")
        };
        unsafe {
            let status = gts_encoder_animation(&mut *e, &a);
            assert_eq!(status, gts_status::GTS_ERR_INVALID_ARGUMENT);
            sticks(&mut *e, buf, status);
        }
        // No info at all, and NULL keyframes.
        let buf = new_buf();
        let mut e = anp3(buf);
        unsafe {
            let status = gts_encoder_animation(&mut *e, null());
            assert_eq!(status, gts_status::GTS_ERR_INVALID_ARGUMENT);
            sticks(&mut *e, buf, status);
        }
        let buf = new_buf();
        let mut e = anp3(buf);
        let b = bone(b"Root", gts_frame_type::GTS_FRAME_IFP2_ROT);
        unsafe {
            assert_eq!(
                gts_encoder_animation(&mut *e, &animation_info(b"walk")),
                gts_status::GTS_OK
            );
            assert_eq!(gts_encoder_bone(&mut *e, &b), gts_status::GTS_OK);
            let status = gts_encoder_keyframes(&mut *e, null(), 2);
            assert_eq!(status, gts_status::GTS_ERR_INVALID_ARGUMENT);
            sticks(&mut *e, buf, status);
        }
    }

    #[test]
    fn a_section_name_that_is_no_text_sticks() {
        let buf = new_buf();
        let mut e = new_encoder(gts_format::GTS_FORMAT_IPL_TEXT, buf);
        let file = file_info(gts_format::GTS_FORMAT_IPL_TEXT);
        let line = |section: &'static [u8]| gts_section_line {
            section: section.as_ptr().cast(),
            section_len: section.len(),
            text: b"1, 2".as_ptr().cast(),
            text_len: 4,
            line: 0,
            raw: core::ptr::null(),
            raw_len: 0,
        };
        unsafe {
            assert_eq!(gts_encoder_file(&mut *e, &file), gts_status::GTS_OK);
            let status = gts_encoder_section_line(&mut *e, &line(b"\xFFzone"));
            assert_eq!(status, gts_status::GTS_ERR_NOT_REPRESENTABLE);
            assert_eq!(gts_encoder_section_line(&mut *e, &line(b"zone")), status);
            assert_eq!(gts_encoder_end(&mut *e), status);
            assert!((*buf).bytes.is_empty());
            drop(Box::from_raw(buf));
        }
    }

    #[test]
    fn a_frame_type_that_is_no_gts_frame_type_sticks() {
        let buf = new_buf();
        let mut e = anp3(buf);
        let mut b = bone(b"Root", gts_frame_type::GTS_FRAME_IFP2_ROT);
        // What a C caller may put there: a number that is no enumerator (written as an
        // integer, and `b` only reached through a pointer after it).
        unsafe { addr_of_mut!(b.frame_type).cast::<u32>().write(99) };
        let b = &raw const b;
        unsafe {
            assert_eq!(
                gts_encoder_animation(&mut *e, &animation_info(b"walk")),
                gts_status::GTS_OK
            );
            let status = gts_encoder_bone(&mut *e, b);
            assert_eq!(status, gts_status::GTS_ERR_UNSUPPORTED_FRAME_TYPE);
            sticks(&mut *e, buf, status);
        }
    }

    #[test]
    fn nothing_follows_the_end_and_an_empty_batch_reports_an_error() {
        let buf = new_buf();
        let mut e = anp3(buf);
        unsafe {
            assert_eq!(gts_encoder_end(&mut *e), gts_status::GTS_OK);
            let written = gts_encoder_written(&mut *e);
            assert_eq!(written, (*buf).bytes.len() as u64);
            assert_eq!(
                gts_encoder_keyframes(&mut *e, null(), 0),
                gts_status::GTS_ERR_OUT_OF_ORDER
            );
            sticks(&mut *e, buf, gts_status::GTS_ERR_OUT_OF_ORDER);
            assert_eq!(gts_encoder_written(&mut *e), written);
        }
        // An error of the core's own: the empty batch reports it too.
        let buf = new_buf();
        let mut e = anp3(buf);
        let long = animation_info(b"a_name_of_twenty_four_by");
        unsafe {
            let status = gts_encoder_animation(&mut *e, &long);
            assert_eq!(status, gts_status::GTS_ERR_NAME_TOO_LONG);
            sticks(&mut *e, buf, status);
        }
    }
}

/// `gts_decoder_animation` and `gts_decoder_bone` name where an error happened, as the core's
/// `context::Tracked` does, however the input is cut and whichever callbacks are set: every
/// cut of a two-animation package, and the damaged fixtures.
#[test]
fn an_error_names_its_animation_and_bone() {
    use testkit::ifp2::{p3, AnimSpec, BoneSpec, FileSpec};
    let bone = |name: &str, n: usize| BoneSpec::new(name, 3, 0, vec![p3([0, 0, 0, 4096], 0); n]);
    let file = FileSpec::anp3(
        "ctx",
        vec![
            AnimSpec::new("a", vec![bone("a0", 2)]),
            AnimSpec::new("b", vec![bone("b0", 1), bone("b1", 3)]),
        ],
    )
    .build();
    let mut inputs: Vec<Vec<u8>> = (1..file.len()).map(|cut| file[..cut].to_vec()).collect();
    inputs.extend(fixtures::damaged().into_iter().map(|f| f.bytes));
    let index =
        |item: Option<gtastream_core::context::Item>| item.map_or(GTS_NO_INDEX, |i| i.index);
    let chunks: &[usize] = if cfg!(miri) { &[13] } else { &[1, 13, 4096] };
    let mut named = 0;
    // Under Miri, a few of the cuts.
    for data in inputs.iter().step_by(if cfg!(miri) { 37 } else { 1 }) {
        let expected = match gtastream_core::context::decode_slice(
            &mut gtastream_core::Decoder::new(),
            data,
            &mut NoEvents,
        ) {
            Err(failure) => (
                index(failure.context.animation),
                index(failure.context.bone),
            ),
            Ok(()) => continue,
        };
        named += usize::from(expected.1 != GTS_NO_INDEX);
        for &chunk in chunks {
            for callbacks in [all_callbacks(), crate::storage::NO_CALLBACKS] {
                let mut r = Recorder::default();
                let mut d = new_decoder();
                init(&mut d, &callbacks, &mut r);
                assert_ne!(run(&mut d, data, chunk).status, gts_status::GTS_OK);
                let place = unsafe { (gts_decoder_animation(&*d), gts_decoder_bone(&*d)) };
                assert_eq!(place, expected, "{} bytes by {chunk}", data.len());
                // A reset forgets it.
                unsafe { gts_decoder_reset(&mut *d) };
                let place = unsafe { (gts_decoder_animation(&*d), gts_decoder_bone(&*d)) };
                assert_eq!(place, (GTS_NO_INDEX, GTS_NO_INDEX));
            }
        }
    }
    assert!(cfg!(miri) || named > 20, "most cuts fall inside a bone");
    assert_eq!(unsafe { gts_decoder_animation(null()) }, GTS_NO_INDEX);
    assert_eq!(unsafe { gts_decoder_bone(null()) }, GTS_NO_INDEX);
}

struct NoEvents;
impl gtastream_core::Visitor for NoEvents {}

// ---------------------------------------------------------------------------------------------
// Records of any kind: `on_record`, read through the field table as a generic host reads them.

/// A record's kind and fields as text (the core's `Value`s, debug-printed), to compare what
/// the C structs hold with what the core reported.
#[derive(Debug, PartialEq)]
struct FieldsOf(String, Vec<String>);

fn fields_of(record: &Record<'_>) -> FieldsOf {
    let schema = record.kind().schema();
    let values = (0..schema.fields.len())
        .map(|i| format!("{:?}", record.value(i)))
        .collect();
    FieldsOf(schema.name.into(), values)
}

/// Records the struct through `gts_record_kind_name` and `gts_record_field_info` alone.
unsafe extern "C" fn on_record_generic(
    user: *mut c_void,
    kind: gts_record_kind,
    record: *const c_void,
) -> i32 {
    use gtastream_core::record::Value;
    let out = unsafe { &mut *user.cast::<Vec<FieldsOf>>() };
    let number = kind as i32;
    let name = unsafe { CStr::from_ptr(gts_record_kind_name(number)) };
    let base = record.cast::<u8>();
    let mut values = Vec::new();
    for i in 0..gts_record_field_count(number) {
        let mut f = std::mem::MaybeUninit::<gts_record_field>::uninit();
        let st = unsafe { gts_record_field_info(number, i, f.as_mut_ptr()) };
        assert_eq!(st, gts_status::GTS_OK);
        let f = unsafe { f.assume_init() };
        assert!(f.offset < gts_record_size(number));
        let at = |offset: usize| unsafe { base.add(offset) };
        let given = f.has_offset == 0 || unsafe { at(f.has_offset).cast::<bool>().read() };
        let value = if !given {
            Value::Null
        } else {
            unsafe {
                match f.field_type {
                    gts_field_type::GTS_FIELD_I32 => Value::I32(at(f.offset).cast::<i32>().read()),
                    gts_field_type::GTS_FIELD_U32 => Value::U32(at(f.offset).cast::<u32>().read()),
                    gts_field_type::GTS_FIELD_U64 => Value::U64(at(f.offset).cast::<u64>().read()),
                    gts_field_type::GTS_FIELD_F32 => Value::F32(at(f.offset).cast::<f32>().read()),
                    gts_field_type::GTS_FIELD_FLOATS => Value::Floats(std::slice::from_raw_parts(
                        at(f.offset).cast::<f32>(),
                        f.count,
                    )),
                    gts_field_type::GTS_FIELD_TEXT => {
                        let ptr = at(f.offset).cast::<*const u8>().read();
                        let len = at(f.len_offset).cast::<usize>().read();
                        assert!(!ptr.is_null(), "given text is never NULL");
                        Value::Text(std::slice::from_raw_parts(ptr, len))
                    }
                }
            }
        };
        values.push(format!("{value:?}"));
    }
    out.push(FieldsOf(name.to_str().unwrap().into(), values));
    GTS_CONTINUE
}

/// The deprecated callbacks, which `on_record` replaces: never called beside it.
unsafe extern "C" fn not_called(user: *mut c_void, _: *const gts_ipl_instance) -> i32 {
    unsafe { &mut *user.cast::<Vec<FieldsOf>>() }.push(FieldsOf("deprecated".into(), vec![]));
    GTS_ABORT
}

#[test]
fn on_record_gives_every_record_as_the_field_table_describes_it() {
    for fixture in for_miri(fixtures::all(), MIRI_FIXTURES) {
        struct Records(Vec<FieldsOf>);
        impl Visitor for Records {
            fn record(&mut self, record: &Record<'_>) -> Flow {
                self.0.push(fields_of(record));
                Flow::Continue
            }
        }
        let mut expected = Records(Vec::new());
        Decoder::new()
            .decode_slice(&fixture.bytes, &mut expected)
            .unwrap();
        let mut cb = crate::storage::NO_CALLBACKS;
        unsafe { gts_callbacks_init(&mut cb) };
        cb.on_record = Some(on_record_generic);
        cb.on_instance = Some(not_called);
        let mut got: Vec<FieldsOf> = Vec::new();
        let mut d = new_decoder();
        let size = size_of::<gts_decoder>();
        let user: *mut Vec<FieldsOf> = &mut got;
        unsafe {
            assert_eq!(
                gts_decoder_init(&mut *d, size, &cb, user.cast()),
                gts_status::GTS_OK
            );
            let st = gts_decode_buffer(&mut *d, fixture.bytes.as_ptr(), fixture.bytes.len());
            assert_eq!(st, gts_status::GTS_OK, "{}", fixture.name);
        }
        assert_eq!(got, expected.0, "{}", fixture.name);
    }
}

#[test]
fn record_kinds_and_fields_are_numbered_as_declared() {
    use gtastream_core::record::RecordKind;
    assert_eq!(gts_record_kind_count(), RecordKind::ALL.len());
    for (number, kind) in RecordKind::ALL.iter().enumerate() {
        let number = number as i32;
        let schema = kind.schema();
        let name = unsafe { CStr::from_ptr(gts_record_kind_name(number)) };
        assert_eq!(name.to_str().unwrap(), schema.name);
        assert_eq!(gts_record_field_count(number), schema.fields.len());
        for (i, field) in schema.fields.iter().enumerate() {
            let mut f = std::mem::MaybeUninit::<gts_record_field>::uninit();
            let st = unsafe { gts_record_field_info(number, i, f.as_mut_ptr()) };
            assert_eq!(st, gts_status::GTS_OK);
            let f = unsafe { f.assume_init() };
            assert_eq!(
                unsafe { CStr::from_ptr(f.name) }.to_str().unwrap(),
                field.name
            );
            assert_eq!(f.has_offset != 0, field.optional, "{}", field.name);
        }
        let mut f = std::mem::MaybeUninit::<gts_record_field>::uninit();
        let past = schema.fields.len();
        let st = unsafe { gts_record_field_info(number, past, f.as_mut_ptr()) };
        assert_eq!(st, gts_status::GTS_ERR_INVALID_ARGUMENT);
        let st = unsafe { gts_record_field_info(number, 0, null_mut()) };
        assert_eq!(st, gts_status::GTS_ERR_INVALID_ARGUMENT);
    }
    for bad in [-1, RecordKind::ALL.len() as i32, i32::MAX] {
        assert!(gts_record_kind_name(bad).is_null());
        assert_eq!(gts_record_size(bad), 0);
        assert_eq!(gts_record_field_count(bad), 0);
    }
}

/// Every format the core names has its own C value and the core's name: a DFF's `on_file`
/// once said `GTS_FORMAT_UNKNOWN`, "unknown" (the `capi` fuzz target's find).
#[test]
fn every_format_has_its_c_value_and_name() {
    for f in gtastream_core::Format::ALL {
        assert_ne!(format(f), gts_format::GTS_FORMAT_UNKNOWN, "{f:?}");
        assert_eq!(format_from_code(format(f) as u32), Some(f));
        assert_eq!(format_name(f).to_str(), Ok(f.name()));
    }
    assert_eq!(
        format_from_code(gts_format::GTS_FORMAT_UNKNOWN as u32),
        None
    );
}
