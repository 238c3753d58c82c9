//! The C API (`gts_*`, ffi/) driven as a C host drives it: a caller-owned `gts_decoder`, every
//! callback set, the input cut into fuzzer-chosen chunks, callbacks answering continue, pause or
//! abort as the fuzzer chose, the seek protocol followed through `gts_decoder_position`, and the
//! decoder optionally moved to other storage with a byte copy (`memcpy`) between calls.
//!
//! Input: the `chunking` target's plan (`harness::Plan::parse`: chunk sizes, pause mask, abort
//! at a non-keyframe event, flags bit 0 "cannot seek"; here flags bit 1 also moves the decoder
//! between calls), then the file.
//!
//! Checks: no crash and never `GTS_ERR_PANIC`; `consumed <= len`, 0 on an error; statuses
//! expected for the call; `gts_decoder_position` is the next byte wanted after `GTS_OK` and
//! `GTS_PAUSED`; a callback calling back into its decoder is refused with `GTS_ERR_REENTRANT`;
//! errors are sticky (feed and finish repeat them, `gts_decoder_error` and its offset agree);
//! after a clean finish, `GTS_ERR_FINISHED`; keyframe batches hold 1 to `GTS_KEYFRAME_BATCH`
//! frames and the raw bytes match them in count; and the events (with keyframes one by one),
//! the final status and the error offset equal those of the core `Decoder` on the whole file
//! in one piece, or (after an abort) are a prefix of them.
#![no_main]

use std::ffi::{c_void, CStr};
use std::mem::size_of;

use gtastream::{
    AnimationInfo, BoneInfo, Decoder, FileInfo, Flow, Keyframes, Options, Record, Visitor, Warning,
};
use gtastream_capi::*;
use gtastream_fuzz::harness::Plan;
use libfuzzer_sys::fuzz_target;

/// One event, from either side, in a form both can produce.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Ev {
    Mark(String),
    Frame([u32; 11]),
}

/// Every NaN alike (the core does not fix NaN bits of Stories times).
fn bits(v: f32) -> u32 {
    if v.is_nan() {
        f32::NAN.to_bits()
    } else {
        v.to_bits()
    }
}

fn frame(time: f32, r: [f32; 4], t: [f32; 3], s: [f32; 3]) -> Ev {
    Ev::Frame([
        bits(time),
        bits(r[0]),
        bits(r[1]),
        bits(r[2]),
        bits(r[3]),
        bits(t[0]),
        bits(t[1]),
        bits(t[2]),
        bits(s[0]),
        bits(s[1]),
        bits(s[2]),
    ])
}

// ---------------------------------------------------------------------------------------------
// The core's events on the whole file.

#[derive(Default)]
struct Core(Vec<Ev>);

impl Core {
    fn mark(&mut self, text: String) -> Flow {
        self.0.push(Ev::Mark(text));
        Flow::Continue
    }
}

impl Visitor for Core {
    fn file(&mut self, i: &FileInfo<'_>) -> Flow {
        self.mark(format!(
            "file {} {:?} {} {:?} {:?} {:?}",
            i.format.name(),
            i.name,
            i.animation_count,
            i.instance_count,
            i.car_count,
            i.rw_version
        ))
    }
    fn animation(&mut self, i: &AnimationInfo<'_>) -> Flow {
        self.mark(format!(
            "animation {} {:?} {}",
            i.index, i.name, i.bone_count
        ))
    }
    fn bone(&mut self, i: &BoneInfo<'_>) -> Flow {
        self.mark(format!(
            "bone {} {:?} {} {}",
            i.index,
            i.name,
            i.frame_count,
            i.frame_type.size()
        ))
    }
    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        for k in frames.iter() {
            self.0
                .push(frame(k.time, k.rotation, k.translation, k.scale));
        }
        Flow::Continue
    }
    fn bone_end(&mut self) -> Flow {
        self.mark("bone_end".into())
    }
    fn animation_end(&mut self) -> Flow {
        self.mark("animation_end".into())
    }
    fn record(&mut self, record: &Record<'_>) -> Flow {
        match record {
            Record::Instance(i) => {
                let p = i.position.map(bits);
                self.mark(format!("instance {} {p:?} {:?}", i.model_id, i.model_name))
            }
            Record::Car(c) => {
                let p = c.position.map(bits);
                self.mark(format!("car {} {p:?} {}", c.model_id, c.flags))
            }
            Record::SectionLine(l) => {
                self.mark(format!("line {:?} {:?}", l.section.as_bytes(), l.text))
            }
            _ => Flow::Continue,
        }
    }
    fn warning(&mut self, w: Warning) -> Flow {
        self.mark(format!("warning {} {}", w.kind.name(), w.offset))
    }
    fn end(&mut self) -> Flow {
        self.mark("end".into())
    }
}

// ---------------------------------------------------------------------------------------------
// The C side: callbacks recording into `Host`, reached through the `user` pointer.

struct Host {
    log: Vec<Ev>,
    callbacks: u64,
    marks: u64,
    pause_mask: u8,
    abort_at: Option<u64>,
    aborted: bool,
    /// The storage the decoder is in now (for the re-entry check).
    decoder: *mut gts_decoder,
    /// Keyframes the raw callback announced, not yet delivered decoded.
    raw_pending: usize,
}

impl Host {
    fn answer(&mut self, mark: bool) -> i32 {
        let callback = self.callbacks;
        self.callbacks += 1;
        if mark {
            let index = self.marks;
            self.marks += 1;
            if self.abort_at == Some(index) {
                self.aborted = true;
                return GTS_ABORT;
            }
        }
        if self.pause_mask >> (callback % 8) & 1 == 1 {
            GTS_PAUSE
        } else {
            GTS_CONTINUE
        }
    }

    fn mark(&mut self, text: String) -> i32 {
        assert_eq!(self.raw_pending, 0, "raw keyframes not delivered decoded");
        self.log.push(Ev::Mark(text));
        self.answer(true)
    }

    /// A callback calling back into its own decoder is refused and changes nothing.
    fn reenter(&mut self) {
        let d = self.decoder;
        let mut consumed = 7usize;
        // SAFETY: `d` is the decoder's current storage; the library must refuse the calls.
        unsafe {
            let data = [0u8; 4];
            let feed = gts_decoder_feed(d, data.as_ptr(), data.len(), &mut consumed);
            assert_eq!(feed, gts_status::GTS_ERR_REENTRANT);
            assert_eq!(consumed, 0);
            assert_eq!(gts_decoder_finish(d), gts_status::GTS_ERR_REENTRANT);
            assert_eq!(gts_decoder_reset(d), gts_status::GTS_ERR_REENTRANT);
            let init = gts_decoder_init(d, size_of::<gts_decoder>(), std::ptr::null(), d.cast());
            assert_eq!(init, gts_status::GTS_ERR_REENTRANT);
            assert_eq!(gts_decoder_position(d), GTS_NO_OFFSET);
            assert_eq!(gts_decoder_error(d), gts_status::GTS_ERR_REENTRANT);
        }
    }
}

/// Bytes lent to a callback (NULL only when absent).
unsafe fn lent(ptr: *const std::ffi::c_char, len: usize) -> Vec<u8> {
    assert!(!ptr.is_null());
    // SAFETY: the library lends `len` readable bytes at `ptr` for the call.
    unsafe { std::slice::from_raw_parts(ptr.cast::<u8>(), len) }.to_vec()
}

unsafe fn optional(ptr: *const std::ffi::c_char, len: usize, has: bool) -> Option<Vec<u8>> {
    if has {
        // SAFETY: as `lent`.
        Some(unsafe { lent(ptr, len) })
    } else {
        assert!(ptr.is_null() && len == 0, "absent but set");
        None
    }
}

unsafe fn host<'a>(user: *mut c_void) -> &'a mut Host {
    // SAFETY: `user` is the `Host` given to gts_decoder_init, used by one callback at a time.
    unsafe { &mut *user.cast::<Host>() }
}

unsafe fn text(ptr: *const std::ffi::c_char) -> String {
    assert!(!ptr.is_null());
    // SAFETY: the library passes static NUL-terminated strings.
    unsafe { CStr::from_ptr(ptr) }.to_str().unwrap().to_string()
}

unsafe extern "C" fn on_file(user: *mut c_void, i: *const gts_file_info) -> i32 {
    let h = unsafe { host(user) };
    h.reenter();
    let i = unsafe { &*i };
    let name = unsafe { optional(i.name, i.name_len, i.has_name) };
    let instances = i.has_instance_count.then_some(i.instance_count);
    let cars = i.has_car_count.then_some(i.car_count);
    let rw_version = i.has_rw_version.then_some(i.rw_version);
    let format = unsafe { text(i.format_name) };
    h.mark(format!(
        "file {format} {:?} {} {instances:?} {cars:?} {rw_version:?}",
        name.as_deref(),
        i.animation_count
    ))
}

unsafe extern "C" fn on_animation(user: *mut c_void, i: *const gts_animation_info) -> i32 {
    let h = unsafe { host(user) };
    let i = unsafe { &*i };
    let name = unsafe { lent(i.name, i.name_len) };
    h.mark(format!(
        "animation {} {:?} {}",
        i.index,
        name.as_slice(),
        i.bone_count
    ))
}

unsafe extern "C" fn on_bone(user: *mut c_void, i: *const gts_bone_info) -> i32 {
    let h = unsafe { host(user) };
    let i = unsafe { &*i };
    let name = unsafe { optional(i.name, i.name_len, i.has_name) };
    h.mark(format!(
        "bone {} {:?} {} {}",
        i.index,
        name.as_deref(),
        i.frame_count,
        i.frame_size
    ))
}

unsafe extern "C" fn on_keyframes_raw(user: *mut c_void, raw: *const gts_raw_keyframes) -> i32 {
    let h = unsafe { host(user) };
    let raw = unsafe { &*raw };
    assert_eq!(h.raw_pending, 0);
    assert!(raw.count > 0 && raw.frame_size > 0 && !raw.bytes.is_null());
    // Every byte lent is readable (AddressSanitizer checks the read).
    let bytes = unsafe { std::slice::from_raw_parts(raw.bytes, raw.count * raw.frame_size) };
    std::hint::black_box(bytes.iter().fold(0u8, |a, &b| a ^ b));
    h.raw_pending = raw.count;
    h.answer(false)
}

unsafe extern "C" fn on_keyframes(user: *mut c_void, f: *const gts_keyframe, n: usize) -> i32 {
    let h = unsafe { host(user) };
    assert!((1..=GTS_KEYFRAME_BATCH).contains(&n), "batch of {n}");
    assert!(
        h.raw_pending >= n,
        "decoded keyframes the raw callback did not announce"
    );
    h.raw_pending -= n;
    for k in unsafe { std::slice::from_raw_parts(f, n) } {
        h.log
            .push(frame(k.time, k.rotation, k.translation, k.scale));
    }
    // One answer per stored batch, as the core's visitor gets (the library calls this one up
    // to 64 frames at a time, after the raw callback that answered for the batch).
    GTS_CONTINUE
}

unsafe extern "C" fn on_bone_end(user: *mut c_void) -> i32 {
    unsafe { host(user) }.mark("bone_end".into())
}

unsafe extern "C" fn on_animation_end(user: *mut c_void) -> i32 {
    unsafe { host(user) }.mark("animation_end".into())
}

unsafe extern "C" fn on_instance(user: *mut c_void, i: *const gts_ipl_instance) -> i32 {
    let h = unsafe { host(user) };
    let i = unsafe { &*i };
    let name = unsafe { optional(i.model_name, i.model_name_len, i.has_model_name) };
    let p = i.position.map(bits);
    h.mark(format!(
        "instance {} {p:?} {:?}",
        i.model_id,
        name.as_deref()
    ))
}

unsafe extern "C" fn on_car(user: *mut c_void, c: *const gts_ipl_car) -> i32 {
    let h = unsafe { host(user) };
    let c = unsafe { &*c };
    let p = c.position.map(bits);
    h.mark(format!("car {} {p:?} {}", c.model_id, c.flags))
}

unsafe extern "C" fn on_section_line(user: *mut c_void, l: *const gts_section_line) -> i32 {
    let h = unsafe { host(user) };
    let l = unsafe { &*l };
    let section = unsafe { lent(l.section, l.section_len) };
    let line = unsafe { lent(l.text, l.text_len) };
    h.mark(format!(
        "line {:?} {:?}",
        section.as_slice(),
        line.as_slice()
    ))
}

unsafe extern "C" fn on_warning(user: *mut c_void, w: *const gts_warning) -> i32 {
    let h = unsafe { host(user) };
    let w = unsafe { &*w };
    let name = unsafe { text(w.name) };
    let _reason = unsafe { text(w.reason) };
    h.mark(format!("warning {name} {}", w.offset))
}

unsafe extern "C" fn on_end(user: *mut c_void) -> i32 {
    unsafe { host(user) }.mark("end".into())
}

fn new_storage() -> Box<gts_decoder> {
    Box::new(gts_decoder {
        opaque: [0; GTS_DECODER_WORDS],
    })
}

fuzz_target!(|input: &[u8]| {
    let Some((plan, data)) = Plan::parse(input) else {
        return;
    };
    // The flags byte (the plan's last) also says whether to move the decoder between calls.
    let flags = input[1 + usize::from(input[0] & 7) + 1 + 2];
    let move_decoder = flags & 2 != 0;

    // The core, uninterrupted.
    let mut core = Core::default();
    let expected = Decoder::with_options(Options {
        can_seek: plan.can_seek,
        game: plan.game,
    })
    .decode_slice(data, &mut core);
    let (expected_status, expected_offset) = match expected {
        Ok(()) => (gts_status::GTS_OK as u32, GTS_NO_OFFSET),
        // The C status of a core error has the kind's number (the kinds table, src/error.rs).
        Err(e) => (e.kind.code(), e.offset),
    };

    // The C host.
    let mut callbacks = std::mem::MaybeUninit::<gts_callbacks>::uninit();
    // SAFETY: a writable gts_callbacks.
    unsafe { gts_callbacks_init(callbacks.as_mut_ptr()) };
    // SAFETY: gts_callbacks_init set every member.
    let mut callbacks = unsafe { callbacks.assume_init() };
    callbacks.on_file = Some(on_file);
    callbacks.on_animation = Some(on_animation);
    callbacks.on_bone = Some(on_bone);
    callbacks.on_keyframes = Some(on_keyframes);
    callbacks.on_keyframes_raw = Some(on_keyframes_raw);
    callbacks.on_bone_end = Some(on_bone_end);
    callbacks.on_animation_end = Some(on_animation_end);
    callbacks.on_instance = Some(on_instance);
    callbacks.on_car = Some(on_car);
    callbacks.on_section_line = Some(on_section_line);
    callbacks.on_warning = Some(on_warning);
    callbacks.on_end = Some(on_end);

    let mut storage = new_storage();
    let mut spare = new_storage();
    let host: *mut Host = Box::into_raw(Box::new(Host {
        log: Vec::new(),
        callbacks: 0,
        marks: 0,
        pause_mask: plan.pause_mask,
        abort_at: plan.abort_at,
        aborted: false,
        decoder: &raw mut *storage,
        raw_pending: 0,
    }));
    let mut d: *mut gts_decoder = &raw mut *storage;
    // SAFETY: every pointer below is valid as the header requires; `host` outlives the decoder's
    // use, and is reached only through this raw pointer (here and in the callbacks).
    let status = unsafe {
        assert_eq!(
            gts_decoder_init(d, size_of::<gts_decoder>(), &callbacks, host.cast()),
            gts_status::GTS_OK
        );
        if !plan.can_seek {
            assert_eq!(gts_decoder_set_seekable(d, false), gts_status::GTS_OK);
        }
        let game = match plan.game {
            None => gts_game::GTS_GAME_AUTO,
            Some(gtastream::Game::Iii) => gts_game::GTS_GAME_III,
            Some(gtastream::Game::ViceCity) => gts_game::GTS_GAME_VC,
            Some(gtastream::Game::SanAndreas) => gts_game::GTS_GAME_SA,
        };
        assert_eq!(gts_decoder_set_game(d, game as i32), gts_status::GTS_OK);
        let (mut at, mut end, mut resume, mut next_size) = (0usize, 0usize, false, 0usize);
        loop {
            if at >= end && !resume {
                if at >= data.len() {
                    break gts_decoder_finish(d);
                }
                let size = plan.sizes[next_size % plan.sizes.len()];
                next_size += 1;
                end = data.len().min(at.saturating_add(size));
            }
            resume = false;
            let piece = &data[at..end];
            let mut consumed = usize::MAX;
            let status = gts_decoder_feed(d, piece.as_ptr(), piece.len(), &mut consumed);
            assert!(
                consumed <= piece.len(),
                "consumed {consumed} of {}",
                piece.len()
            );
            let position = gts_decoder_position(d);
            match status {
                gts_status::GTS_OK => {
                    assert_eq!(consumed, piece.len());
                    assert_eq!(position, end as u64, "position after GTS_OK");
                    at = end;
                }
                gts_status::GTS_PAUSED => {
                    assert_eq!(
                        position,
                        (at + consumed) as u64,
                        "position after GTS_PAUSED"
                    );
                    at += consumed;
                    resume = true;
                }
                gts_status::GTS_DONE => {
                    assert_eq!(consumed, piece.len());
                    at = end;
                }
                gts_status::GTS_SEEK => {
                    assert!(plan.can_seek, "GTS_SEEK to a caller that cannot seek");
                    assert_ne!(position, GTS_NO_OFFSET);
                    // At or past the end of the data, the next step is the end of input.
                    at = usize::try_from(position).unwrap_or(usize::MAX);
                    end = at;
                }
                error => {
                    assert_eq!(consumed, 0, "consumed on {error:?}");
                    break error;
                }
            }
            if move_decoder {
                // A byte copy to other storage, as C's memcpy; the old storage is overwritten
                // with garbage so that nothing can still depend on it.
                std::ptr::copy_nonoverlapping(d, &raw mut *spare, 1);
                std::ptr::write_bytes(d.cast::<u8>(), 0xA5, size_of::<gts_decoder>());
                std::mem::swap(&mut storage, &mut spare);
                d = &raw mut *storage;
                (*host).decoder = d;
            }
        }
    };
    // SAFETY: as above.
    let host = unsafe { Box::from_raw(host) };
    assert_ne!(status, gts_status::GTS_ERR_PANIC);
    assert_eq!(host.raw_pending, 0);

    // Sticky errors; Finished after a clean finish.
    // SAFETY: as above.
    unsafe {
        let offset = gts_decoder_error_offset(d);
        let again = if status == gts_status::GTS_OK {
            assert_eq!(gts_decoder_error(d), gts_status::GTS_OK);
            assert_eq!(offset, GTS_NO_OFFSET);
            gts_status::GTS_ERR_FINISHED
        } else {
            assert_eq!(gts_decoder_error(d), status);
            assert_ne!(offset, GTS_NO_OFFSET);
            status
        };
        let mut consumed = 3usize;
        assert_eq!(
            gts_decoder_feed(d, data.as_ptr(), data.len().min(4), &mut consumed),
            again
        );
        assert_eq!(consumed, 0);
        assert_eq!(gts_decoder_finish(d), again);
        let reason = gts_decoder_error_reason(d);
        assert!(!reason.is_null() && !CStr::from_ptr(reason).to_bytes().is_empty());

        if host.aborted {
            assert_eq!(status, gts_status::GTS_ERR_ABORTED);
            assert!(
                core.0.starts_with(&host.log),
                "events before the abort differ from the core's"
            );
        } else {
            assert_eq!(
                (status as u32, offset),
                (expected_status, expected_offset),
                "final status and error offset"
            );
            if host.log != core.0 {
                let at = host.log.iter().zip(&core.0).position(|(a, b)| a != b);
                panic!(
                    "events differ at {at:?} (C {} events, core {}): C {:?} core {:?}",
                    host.log.len(),
                    core.0.len(),
                    at.map(|i| &host.log[i]),
                    at.map(|i| &core.0[i])
                );
            }
        }
    }
});
