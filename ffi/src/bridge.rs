//! The visitor that turns the decoder's events into C callbacks, and the conversions between the
//! core's types and the C ones.

use core::cell::Cell;
use core::ffi::{c_char, c_void, CStr};
use core::mem::MaybeUninit;

use gtastream_core::{
    AnimationInfo, BoneInfo, ErrorKind, FileInfo, Flow, Format, FrameType, Keyframe, Keyframes,
    Record, Visitor, Warning, WarningKind,
};

use crate::records::with_c_record;
use crate::types::{
    gts_animation_info, gts_bone_info, gts_callbacks, gts_file_info, gts_format, gts_frame_type,
    gts_ipl_car, gts_ipl_instance, gts_keyframe, gts_raw_keyframes, gts_section_line, gts_status,
    gts_warning, gts_warning_kind, GTS_CONTINUE, GTS_KEYFRAME_BATCH, GTS_NO_INDEX, GTS_PAUSE,
};

/// `N - 1` bytes of `text` and a NUL (for the macro below; `N` is `text.len() + 1`).
pub(crate) const fn nul_terminated<const N: usize>(text: &str) -> [u8; N] {
    let mut out = [0u8; N];
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        out[i] = bytes[i];
        i += 1;
    }
    out
}

/// A static C string with the text of a constant `&str` expression (such as the core's
/// `ErrorKind::reason`, a `const fn`), made at compile time: the C texts cannot drift from the
/// core's. A NUL inside the text fails the build.
macro_rules! c_text {
    ($text:expr) => {{
        const TEXT: &str = $text;
        const BYTES: [u8; TEXT.len() + 1] = $crate::bridge::nul_terminated(TEXT);
        const C: &::core::ffi::CStr = match ::core::ffi::CStr::from_bytes_with_nul(&BYTES) {
            Ok(c) => c,
            Err(_) => panic!("a NUL inside a text"),
        };
        C
    }};
}

/// The indices of the animation and bone being decoded (`GTS_NO_INDEX` outside one), for
/// `gts_decoder_animation` and `gts_decoder_bone`: set at their events, a store or two per
/// animation or bone (nothing per keyframe).
pub(crate) struct Place {
    animation: Cell<u32>,
    bone: Cell<u32>,
}

impl Place {
    pub(crate) const fn new() -> Self {
        Place {
            animation: Cell::new(GTS_NO_INDEX),
            bone: Cell::new(GTS_NO_INDEX),
        }
    }

    /// The animation's index, or `GTS_NO_INDEX`.
    pub(crate) fn animation(&self) -> u32 {
        self.animation.get()
    }

    /// The bone's index in its animation, or `GTS_NO_INDEX`.
    pub(crate) fn bone(&self) -> u32 {
        self.bone.get()
    }

    fn set(&self, animation: u32, bone: u32) {
        self.animation.set(animation);
        self.bone.set(bone);
    }
}

/// Calls the C callbacks with the `user` pointer. The callbacks are borrowed from the decoder's
/// storage (not copied: a feed of a few bytes should not pay for a copy of them all).
pub(crate) struct Bridge<'a> {
    callbacks: &'a gts_callbacks,
    user: *mut c_void,
    place: &'a Place,
}

impl<'a> Bridge<'a> {
    pub(crate) fn new(callbacks: &'a gts_callbacks, user: *mut c_void, place: &'a Place) -> Self {
        Bridge {
            callbacks,
            user,
            place,
        }
    }
}

impl Bridge<'_> {
    /// The records [`Visitor::record`] does not build inline: every kind through `on_record`
    /// when it is set, else a section line through the deprecated `on_section_line`.
    #[inline(never)]
    fn other_record(&mut self, record: &Record<'_>) -> Flow {
        if let Some(f) = self.callbacks.on_record {
            // SAFETY: see the comment above the `Visitor` impl; the struct lives for the call.
            let called = with_c_record(record, |kind, c| unsafe { f(self.user, kind, c) });
            return called.map_or(Flow::Continue, flow);
        }
        // The deprecated callbacks of the first kinds, while `on_record` is not set.
        let Record::SectionLine(line) = record else {
            return Flow::Continue;
        };
        let Some(f) = self.callbacks.on_section_line else {
            return Flow::Continue;
        };
        let (section, section_len) = bytes(line.section.as_bytes());
        let (text, text_len) = bytes(line.text);
        let c_line = gts_section_line {
            section,
            section_len,
            text,
            text_len,
            line: line.line,
            raw: raw(line.raw),
            raw_len: line.raw.len(),
        };
        // SAFETY: see the comment above the `Visitor` impl.
        flow(unsafe { f(self.user, &c_line) })
    }
}

/// A callback's answer. Anything but continue and pause aborts: a callback that returns garbage
/// stops the decoder rather than running on.
fn flow(answer: i32) -> Flow {
    match answer {
        GTS_CONTINUE => Flow::Continue,
        GTS_PAUSE => Flow::Pause,
        _ => Flow::Abort,
    }
}

/// Pointer and length of bytes lent to a callback. An empty name points at a static empty
/// string rather than at a dangling address.
fn bytes(b: &[u8]) -> (*const c_char, usize) {
    if b.is_empty() {
        (c"".as_ptr(), 0)
    } else {
        (b.as_ptr().cast(), b.len())
    }
}

/// Stored bytes: NULL where the format keeps none.
fn raw(b: &[u8]) -> *const u8 {
    if b.is_empty() {
        core::ptr::null()
    } else {
        b.as_ptr()
    }
}

/// As [`bytes`], with NULL for an absent value.
fn optional_bytes(b: Option<&[u8]>) -> (*const c_char, usize, bool) {
    match b {
        Some(b) => {
            let (ptr, len) = bytes(b);
            (ptr, len, true)
        }
        None => (core::ptr::null(), 0, false),
    }
}

// The `bridge_callbacks` of this module call the C functions the caller registered. Their
// safety rests on the caller's contract (gts_decoder_init): each non-NULL callback is a valid
// function of the declared type, and it does not unwind. Every pointer passed to one points to
// a value that lives for the duration of the call.
impl Visitor for Bridge<'_> {
    fn file(&mut self, info: &FileInfo<'_>) -> Flow {
        #[cfg(test)]
        crate::tests::maybe_panic();
        self.place.set(GTS_NO_INDEX, GTS_NO_INDEX);
        let Some(f) = self.callbacks.on_file else {
            return Flow::Continue;
        };
        let (name, name_len, has_name) = optional_bytes(info.name);
        let c_info = gts_file_info {
            format: format(info.format),
            format_name: format_name(info.format).as_ptr(),
            name,
            name_len,
            has_name,
            animation_count: info.animation_count,
            instance_count: info.instance_count.unwrap_or(0),
            has_instance_count: info.instance_count.is_some(),
            car_count: info.car_count.unwrap_or(0),
            has_car_count: info.car_count.is_some(),
            raw: raw(info.raw),
            raw_len: info.raw.len(),
            container_size: info.container_size.unwrap_or(0),
            has_container_size: info.container_size.is_some(),
            rw_version: info.rw_version.unwrap_or(0),
            has_rw_version: info.rw_version.is_some(),
        };
        // SAFETY: see the comment above this impl.
        flow(unsafe { f(self.user, &c_info) })
    }

    fn animation(&mut self, info: &AnimationInfo<'_>) -> Flow {
        self.place.set(info.index, GTS_NO_INDEX);
        let Some(f) = self.callbacks.on_animation else {
            return Flow::Continue;
        };
        let (name, name_len) = bytes(info.name);
        let c_info = gts_animation_info {
            index: info.index,
            name,
            name_len,
            bone_count: info.bone_count,
            frame_data_size: info.frame_data_size.unwrap_or(0),
            has_frame_data_size: info.frame_data_size.is_some(),
            flags: info.flags.unwrap_or(0),
            has_flags: info.flags.is_some(),
            duration: info.duration.unwrap_or(0.0),
            has_duration: info.duration.is_some(),
            raw: raw(info.raw),
            raw_len: info.raw.len(),
        };
        // SAFETY: see the comment above this impl.
        flow(unsafe { f(self.user, &c_info) })
    }

    // Inlined into the format's bone step: the C struct is then built from the header's
    // fields directly, not through the core's `BoneInfo` (a bone's cost, PERFORMANCE.md).
    #[inline(always)]
    fn bone(&mut self, info: &BoneInfo<'_>) -> Flow {
        self.place.bone.set(info.index);
        let Some(f) = self.callbacks.on_bone else {
            return Flow::Continue;
        };
        let (name, name_len, has_name) = optional_bytes(info.name);
        let c_info = gts_bone_info {
            index: info.index,
            name,
            name_len,
            has_name,
            bone_id: info.bone_id.unwrap_or(0),
            has_bone_id: info.bone_id.is_some(),
            bone_key: info.bone_key.unwrap_or(0),
            has_bone_key: info.bone_key.is_some(),
            frame_type: frame_type(info.frame_type),
            // At most 44: the largest stored keyframe.
            frame_size: info.frame_type.size() as u32,
            frame_count: info.frame_count,
            has_translation: info.has_translation(),
            has_scale: info.has_scale(),
            raw: raw(info.raw),
            raw_len: info.raw.len(),
        };
        // SAFETY: see the comment above this impl.
        flow(unsafe { f(self.user, &c_info) })
    }

    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        let mut paused = false;
        if let Some(f) = self.callbacks.on_keyframes_raw {
            let raw = gts_raw_keyframes {
                frame_type: frame_type(frames.frame_type()),
                bytes: frames.as_bytes().as_ptr(),
                frame_size: frames.frame_type().size(),
                count: frames.len(),
            };
            // SAFETY: see the comment above this impl; `bytes` points to `count * frame_size`
            // bytes of the caller's input (or the decoder's carry buffer) that live until the
            // decoder's step returns.
            match flow(unsafe { f(self.user, &raw) }) {
                Flow::Abort => return Flow::Abort,
                Flow::Pause => paused = true,
                Flow::Continue => {}
            }
        }
        if let Some(f) = self.callbacks.on_keyframes {
            // The batch is decoded into a fixed array on the stack (no heap), left uninitialised
            // but for the slots written. The core's batches hold at most MAX_BATCH (64) frames,
            // so one call takes the whole batch, decoded in one loop per frame type
            // (`KeyframeIter::fold`); a larger batch would go in parts of 64.
            const _: () = assert!(gtastream_core::MAX_BATCH <= GTS_KEYFRAME_BATCH);
            let mut batch = [const { MaybeUninit::<gts_keyframe>::uninit() }; GTS_KEYFRAME_BATCH];
            let mut call = |batch: &[MaybeUninit<gts_keyframe>; GTS_KEYFRAME_BATCH], count| {
                // SAFETY: see the comment above this impl; the first `count` slots of `batch`
                // are initialised keyframes.
                match flow(unsafe { f(self.user, batch.as_ptr().cast(), count) }) {
                    Flow::Abort => false,
                    Flow::Pause => {
                        paused = true;
                        true
                    }
                    Flow::Continue => true,
                }
            };
            // (`frames.len()` without its division.)
            let size = frames.frame_type().size();
            if frames.as_bytes().len() <= GTS_KEYFRAME_BATCH * size {
                // Each frame is written through a pointer that steps on: no index to check or
                // multiply per frame (a fifth of the loop's instructions, PERFORMANCE.md).
                let first = batch.as_mut_ptr();
                let end = frames.iter().fold(first, |slot, frame| {
                    // SAFETY: the batch holds at most GTS_KEYFRAME_BATCH frames (checked just
                    // above), so `slot` stays within `batch`, and one past its last slot at
                    // the end.
                    unsafe {
                        slot.write(MaybeUninit::new(keyframe(&frame)));
                        slot.add(1)
                    }
                });
                // SAFETY: `end` was stepped on from `first` within one array.
                let count = unsafe { end.offset_from(first) } as usize;
                if count > 0 && !call(&batch, count) {
                    return Flow::Abort;
                }
            } else {
                let mut decoded = frames.iter();
                loop {
                    let mut count = 0;
                    for (slot, frame) in batch.iter_mut().zip(&mut decoded) {
                        slot.write(keyframe(&frame));
                        count += 1;
                    }
                    if count == 0 {
                        break;
                    }
                    if !call(&batch, count) {
                        return Flow::Abort;
                    }
                }
            }
        }
        if paused {
            Flow::Pause
        } else {
            Flow::Continue
        }
    }

    fn bone_end(&mut self) -> Flow {
        self.place.bone.set(GTS_NO_INDEX);
        match self.callbacks.on_bone_end {
            // SAFETY: see the comment above this impl.
            Some(f) => flow(unsafe { f(self.user) }),
            None => Flow::Continue,
        }
    }

    fn animation_end(&mut self) -> Flow {
        self.place.set(GTS_NO_INDEX, GTS_NO_INDEX);
        match self.callbacks.on_animation_end {
            // SAFETY: see the comment above this impl.
            Some(f) => flow(unsafe { f(self.user) }),
            None => Flow::Continue,
        }
    }

    // Inlined into the format's record loop (binary IPL: one event per record), so that the C
    // struct is built from the record's fields directly; the other kinds and `on_record` go
    // through `other_record`, out of line.
    #[inline(always)]
    fn record(&mut self, record: &Record<'_>) -> Flow {
        if self.callbacks.on_record.is_some() {
            return self.other_record(record);
        }
        match record {
            Record::Instance(instance) => {
                let Some(f) = self.callbacks.on_instance else {
                    return Flow::Continue;
                };
                let (model_name, model_name_len, has_model_name) =
                    optional_bytes(instance.model_name);
                let c_instance = gts_ipl_instance {
                    position: instance.position,
                    rotation: instance.rotation,
                    model_id: instance.model_id,
                    interior: instance.interior,
                    lod: instance.lod,
                    model_name,
                    model_name_len,
                    has_model_name,
                    scale: instance.scale.unwrap_or([0.0; 3]),
                    has_scale: instance.scale.is_some(),
                    raw: raw(instance.raw),
                    raw_len: instance.raw.len(),
                };
                // SAFETY: see the comment above this impl.
                flow(unsafe { f(self.user, &c_instance) })
            }
            Record::Car(car) => {
                let Some(f) = self.callbacks.on_car else {
                    return Flow::Continue;
                };
                let c_car = gts_ipl_car {
                    position: car.position,
                    angle: car.angle,
                    model_id: car.model_id,
                    primary_color: car.primary_color,
                    secondary_color: car.secondary_color,
                    flags: car.flags,
                    alarm_chance: car.alarm_chance,
                    door_lock_chance: car.door_lock_chance,
                    min_delay: car.min_delay,
                    max_delay: car.max_delay,
                    raw: raw(car.raw),
                    raw_len: car.raw.len(),
                };
                // SAFETY: see the comment above this impl.
                flow(unsafe { f(self.user, &c_car) })
            }
            _ => self.other_record(record),
        }
    }

    fn warning(&mut self, warning: Warning) -> Flow {
        let Some(f) = self.callbacks.on_warning else {
            return Flow::Continue;
        };
        let (kind, name, reason) = warning_kind(warning.kind);
        let c_warning = gts_warning {
            kind,
            offset: warning.offset,
            name: name.as_ptr(),
            reason: reason.as_ptr(),
        };
        // SAFETY: see the comment above this impl.
        flow(unsafe { f(self.user, &c_warning) })
    }

    fn text_line(&mut self, bytes: &[u8]) -> Flow {
        match self.callbacks.on_text_line {
            // SAFETY: see the comment above this impl; `bytes` is never empty.
            Some(f) => flow(unsafe { f(self.user, bytes.as_ptr(), bytes.len()) }),
            None => Flow::Continue,
        }
    }

    fn trailing(&mut self, bytes: &[u8]) -> Flow {
        match self.callbacks.on_trailing {
            // SAFETY: see the comment above this impl; `bytes` is never empty.
            Some(f) => flow(unsafe { f(self.user, bytes.as_ptr(), bytes.len()) }),
            None => Flow::Continue,
        }
    }

    fn end(&mut self) -> Flow {
        match self.callbacks.on_end {
            // SAFETY: see the comment above this impl.
            Some(f) => flow(unsafe { f(self.user) }),
            None => Flow::Continue,
        }
    }
}

#[inline]
pub(crate) fn keyframe(frame: &Keyframe) -> gts_keyframe {
    gts_keyframe {
        time: frame.time,
        rotation: frame.rotation,
        translation: frame.translation,
        scale: frame.scale,
    }
}

pub(crate) fn format(format: Format) -> gts_format {
    match format {
        Format::Anp3 => gts_format::GTS_FORMAT_ANP3,
        Format::Anp2 => gts_format::GTS_FORMAT_ANP2,
        Format::Anpk => gts_format::GTS_FORMAT_ANPK,
        Format::Anim => gts_format::GTS_FORMAT_ANIM,
        Format::IplBinary => gts_format::GTS_FORMAT_IPL_BINARY,
        Format::IplText => gts_format::GTS_FORMAT_IPL_TEXT,
        Format::Ide => gts_format::GTS_FORMAT_IDE,
        Format::Dff => gts_format::GTS_FORMAT_DFF,
        _ => gts_format::GTS_FORMAT_UNKNOWN,
    }
}

/// The core's format of a C `gts_format` value, read as an integer (C may store any).
pub(crate) fn format_from_code(code: u32) -> Option<Format> {
    Format::ALL.into_iter().find(|&f| format(f) as u32 == code)
}

/// The format's short name (`Format::name`), NUL-terminated.
pub(crate) fn format_name(format: Format) -> &'static CStr {
    match format {
        Format::Anp3 => c_text!(Format::Anp3.name()),
        Format::Anp2 => c_text!(Format::Anp2.name()),
        Format::Anpk => c_text!(Format::Anpk.name()),
        Format::Anim => c_text!(Format::Anim.name()),
        Format::IplBinary => c_text!(Format::IplBinary.name()),
        Format::IplText => c_text!(Format::IplText.name()),
        Format::Ide => c_text!(Format::Ide.name()),
        Format::Dff => c_text!(Format::Dff.name()),
        _ => c"unknown",
    }
}

pub(crate) fn frame_type(frame_type: FrameType) -> gts_frame_type {
    use gts_frame_type::*;
    match frame_type {
        FrameType::Ifp2Rot => GTS_FRAME_IFP2_ROT,
        FrameType::Ifp2RotTrans => GTS_FRAME_IFP2_ROT_TRANS,
        FrameType::Ifp2PackedRot => GTS_FRAME_IFP2_PACKED_ROT,
        FrameType::Ifp2PackedRotTrans => GTS_FRAME_IFP2_PACKED_ROT_TRANS,
        FrameType::Kr00 => GTS_FRAME_KR00,
        FrameType::Krt0 => GTS_FRAME_KRT0,
        FrameType::Krts => GTS_FRAME_KRTS,
        FrameType::StoriesRot => GTS_FRAME_STORIES_ROT,
        FrameType::StoriesRotTrans => GTS_FRAME_STORIES_ROT_TRANS,
        _ => GTS_FRAME_UNKNOWN,
    }
}

/// The C kind of a warning, with its name and reason (`WarningKind::name` and
/// `WarningKind::reason`, NUL-terminated): the row of [`WARNINGS`] with the kind's number.
pub(crate) fn warning_kind(kind: WarningKind) -> (gts_warning_kind, &'static CStr, &'static CStr) {
    WARNINGS
        .iter()
        .find(|row| row.0 as u32 == kind.code())
        .copied()
        .unwrap_or((
            gts_warning_kind::GTS_WARNING_OTHER,
            c"other",
            c"other warning",
        ))
}

/// The status of a decoding error: the one whose number is the kind's.
pub(crate) fn error_status(kind: ErrorKind) -> gts_status {
    STATUSES
        .iter()
        .find(|row| row.0 as u32 == kind.code())
        .map_or(gts_status::GTS_ERR_OTHER, |row| row.0)
}

/// The C warning kinds that stand for a core [`WarningKind`], each with the core's name and
/// reason; the core's table gives them (a C value that is no core number fails the build).
pub(crate) const WARNINGS: &[(gts_warning_kind, &CStr, &CStr)] = {
    use gts_warning_kind::*;
    macro_rules! rows {
        ($($c:ident),*) => {
            &[$((
                $c,
                c_text!(core_warning($c as u32).name()),
                c_text!(core_warning($c as u32).reason()),
            )),*]
        };
    }
    rows![
        GTS_WARNING_SIZE_MISMATCH,
        GTS_WARNING_TRAILING_DATA,
        GTS_WARNING_FRAME_DATA_SIZE_MISMATCH,
        GTS_WARNING_COMPRESSED_FLAG_CLEAR,
        GTS_WARNING_UNKNOWN_SECTION,
        GTS_WARNING_LINE_OUTSIDE_SECTION,
        GTS_WARNING_UNCLOSED_SECTION,
        GTS_WARNING_UNEXPECTED_TAG,
        GTS_WARNING_TIME_BACKWARDS,
        GTS_WARNING_MALFORMED_LINE,
        GTS_WARNING_TRAILING_TEXT,
        GTS_WARNING_DUPLICATE_BONE,
        GTS_WARNING_SCALE_DROPPED,
        GTS_WARNING_MODEL_NAME_DROPPED,
        GTS_WARNING_MODEL_NAME_MISSING,
        GTS_WARNING_SECTION_LINE_DROPPED
    ]
};

/// The core's warning kind of a C value, at compile time.
const fn core_warning(code: u32) -> WarningKind {
    match WarningKind::from_code(code) {
        Some(kind) => kind,
        None => panic!("a C warning kind that the core does not define"),
    }
}

/// The core's encoding error kind of a C status, at compile time.
const fn core_encode(code: u32) -> gtastream_core::encode::EncodeErrorKind {
    match gtastream_core::encode::EncodeErrorKind::from_code(code) {
        Some(kind) => kind,
        None => panic!("a C writing status that the core does not define"),
    }
}

/// The core's error kind of a C status, at compile time.
const fn core_error(code: u32) -> ErrorKind {
    match ErrorKind::from_code(code) {
        Some(kind) => kind,
        None => panic!("a C error status that the core does not define"),
    }
}

/// A row of [`STATUSES`] for an archive writing status: its name, the core kind's reason.
macro_rules! archive_write_row {
    ($status:ident) => {
        (
            $status,
            c_text!(stringify!($status)),
            c_text!(core_archive_write($status as u32).reason()),
        )
    };
}

/// Every status with its name and reason (decoding errors: `ErrorKind::reason`), NUL-terminated,
/// in numeric order.
pub(crate) const STATUSES: &[(gts_status, &CStr, &CStr)] = {
    use gts_status::*;
    &[
        (GTS_OK, c"GTS_OK", c"ok"),
        (GTS_PAUSED, c"GTS_PAUSED", c"paused by a callback"),
        (GTS_DONE, c"GTS_DONE", c"the content is complete"),
        (
            GTS_SEEK,
            c"GTS_SEEK",
            c"feed from the position the decoder asks for",
        ),
        (
            GTS_ERR_BAD_MAGIC,
            c_text!(stringify!(GTS_ERR_BAD_MAGIC)),
            c_text!(core_error(GTS_ERR_BAD_MAGIC as u32).reason()),
        ),
        (
            GTS_ERR_TRUNCATED,
            c_text!(stringify!(GTS_ERR_TRUNCATED)),
            c_text!(core_error(GTS_ERR_TRUNCATED as u32).reason()),
        ),
        (
            GTS_ERR_UNKNOWN_FRAME_TYPE,
            c_text!(stringify!(GTS_ERR_UNKNOWN_FRAME_TYPE)),
            c_text!(core_error(GTS_ERR_UNKNOWN_FRAME_TYPE as u32).reason()),
        ),
        (
            GTS_ERR_COUNT_TOO_LARGE,
            c_text!(stringify!(GTS_ERR_COUNT_TOO_LARGE)),
            c_text!(core_error(GTS_ERR_COUNT_TOO_LARGE as u32).reason()),
        ),
        (
            GTS_ERR_MALFORMED,
            c_text!(stringify!(GTS_ERR_MALFORMED)),
            c_text!(core_error(GTS_ERR_MALFORMED as u32).reason()),
        ),
        (
            GTS_ERR_SEEK_REQUIRED,
            c_text!(stringify!(GTS_ERR_SEEK_REQUIRED)),
            c_text!(core_error(GTS_ERR_SEEK_REQUIRED as u32).reason()),
        ),
        (
            GTS_ERR_ABORTED,
            c_text!(stringify!(GTS_ERR_ABORTED)),
            c_text!(core_error(GTS_ERR_ABORTED as u32).reason()),
        ),
        (
            GTS_ERR_LIMIT,
            c_text!(stringify!(GTS_ERR_LIMIT)),
            c_text!(core_error(GTS_ERR_LIMIT as u32).reason()),
        ),
        (
            GTS_ERR_FINISHED,
            c_text!(stringify!(GTS_ERR_FINISHED)),
            c_text!(core_error(GTS_ERR_FINISHED as u32).reason()),
        ),
        (
            GTS_ERR_EMPTY,
            c_text!(stringify!(GTS_ERR_EMPTY)),
            c_text!(core_error(GTS_ERR_EMPTY as u32).reason()),
        ),
        (
            GTS_ERR_COLLISION_FILE,
            c_text!(stringify!(GTS_ERR_COLLISION_FILE)),
            c_text!(core_error(GTS_ERR_COLLISION_FILE as u32).reason()),
        ),
        (
            GTS_ERR_RENDERWARE_MODEL,
            c_text!(stringify!(GTS_ERR_RENDERWARE_MODEL)),
            c_text!(core_error(GTS_ERR_RENDERWARE_MODEL as u32).reason()),
        ),
        (
            GTS_ERR_TEXTURE_DICTIONARY,
            c_text!(stringify!(GTS_ERR_TEXTURE_DICTIONARY)),
            c_text!(core_error(GTS_ERR_TEXTURE_DICTIONARY as u32).reason()),
        ),
        (
            GTS_ERR_FASTMAN92_IMG,
            c_text!(stringify!(GTS_ERR_FASTMAN92_IMG)),
            c_text!(core_error(GTS_ERR_FASTMAN92_IMG as u32).reason()),
        ),
        (
            GTS_ERR_GTA4_IMG,
            c_text!(stringify!(GTS_ERR_GTA4_IMG)),
            c_text!(core_error(GTS_ERR_GTA4_IMG as u32).reason()),
        ),
        (
            GTS_ERR_UNSUPPORTED,
            c_text!(stringify!(GTS_ERR_UNSUPPORTED)),
            c_text!(core_error(GTS_ERR_UNSUPPORTED as u32).reason()),
        ),
        (
            GTS_ERR_NOT_FOUND,
            c_text!(stringify!(GTS_ERR_NOT_FOUND)),
            c_text!(core_error(GTS_ERR_NOT_FOUND as u32).reason()),
        ),
        (
            GTS_ERR_ENDLESS,
            c_text!(stringify!(GTS_ERR_ENDLESS)),
            c_text!(core_error(GTS_ERR_ENDLESS as u32).reason()),
        ),
        (
            GTS_ERR_BAD_TIME,
            c_text!(stringify!(GTS_ERR_BAD_TIME)),
            c_text!(core_error(GTS_ERR_BAD_TIME as u32).reason()),
        ),
        (GTS_ERR_OTHER, c"GTS_ERR_OTHER", c"decoding error"),
        (
            GTS_ERR_INVALID_ARGUMENT,
            c"GTS_ERR_INVALID_ARGUMENT",
            c"invalid argument (NULL or misaligned pointer, or data NULL with len > 0)",
        ),
        (
            GTS_ERR_SIZE_MISMATCH,
            c"GTS_ERR_SIZE_MISMATCH",
            c"sizeof(gts_decoder) differs between the header and the library",
        ),
        (
            GTS_ERR_NOT_INITIALIZED,
            c"GTS_ERR_NOT_INITIALIZED",
            c"decoder not initialized (call gts_decoder_init)",
        ),
        (
            GTS_ERR_REENTRANT,
            c"GTS_ERR_REENTRANT",
            c"a callback called back into its decoder",
        ),
        (
            GTS_ERR_INVALID_STATE,
            c"GTS_ERR_INVALID_STATE",
            c"call not allowed in the decoder's state",
        ),
        (
            GTS_ERR_PANIC,
            c"GTS_ERR_PANIC",
            c"internal error in the library (reset the decoder)",
        ),
        (
            GTS_ERR_IO,
            c"GTS_ERR_IO",
            c"the read or seek function failed",
        ),
        (
            GTS_ERR_UNSUPPORTED_FORMAT,
            c_text!(stringify!(GTS_ERR_UNSUPPORTED_FORMAT)),
            c_text!(core_encode(GTS_ERR_UNSUPPORTED_FORMAT as u32).reason()),
        ),
        (
            GTS_ERR_NAME_TOO_LONG,
            c_text!(stringify!(GTS_ERR_NAME_TOO_LONG)),
            c_text!(core_encode(GTS_ERR_NAME_TOO_LONG as u32).reason()),
        ),
        (
            GTS_ERR_UNSUPPORTED_FRAME_TYPE,
            c_text!(stringify!(GTS_ERR_UNSUPPORTED_FRAME_TYPE)),
            c_text!(core_encode(GTS_ERR_UNSUPPORTED_FRAME_TYPE as u32).reason()),
        ),
        (
            GTS_ERR_OUT_OF_RANGE,
            c_text!(stringify!(GTS_ERR_OUT_OF_RANGE)),
            c_text!(core_encode(GTS_ERR_OUT_OF_RANGE as u32).reason()),
        ),
        (
            GTS_ERR_NOT_REPRESENTABLE,
            c_text!(stringify!(GTS_ERR_NOT_REPRESENTABLE)),
            c_text!(core_encode(GTS_ERR_NOT_REPRESENTABLE as u32).reason()),
        ),
        (
            GTS_ERR_TOO_MANY,
            c_text!(stringify!(GTS_ERR_TOO_MANY)),
            c_text!(core_encode(GTS_ERR_TOO_MANY as u32).reason()),
        ),
        (
            GTS_ERR_OUT_OF_ORDER,
            c_text!(stringify!(GTS_ERR_OUT_OF_ORDER)),
            c_text!(core_encode(GTS_ERR_OUT_OF_ORDER as u32).reason()),
        ),
        (
            GTS_ERR_WRITE,
            c_text!(stringify!(GTS_ERR_WRITE)),
            c_text!(core_encode(GTS_ERR_WRITE as u32).reason()),
        ),
        archive_write_row!(GTS_ERR_EMPTY_NAME),
        archive_write_row!(GTS_ERR_ENTRY_NAME_TOO_LONG),
        archive_write_row!(GTS_ERR_INVALID_NAME),
        archive_write_row!(GTS_ERR_ENTRY_TOO_LARGE),
        archive_write_row!(GTS_ERR_ARCHIVE_TOO_LARGE),
        archive_write_row!(GTS_ERR_TOO_MANY_ENTRIES),
        archive_write_row!(GTS_ERR_WRITER_STATE),
        archive_write_row!(GTS_ERR_ARCHIVE_SINK),
        archive_write_row!(GTS_ERR_DUPLICATE_NAME),
        (
            GTS_ERR_NO_GAME,
            c"GTS_ERR_NO_GAME",
            c"no data/gta.dat, data/gta_vc.dat or data/gta3.dat (a game or mod folder has one)",
        ),
        (
            GTS_ERR_SEVERAL_GAMES,
            c"GTS_ERR_SEVERAL_GAMES",
            c"the level files of several games are here: choose the game",
        ),
        (
            GTS_ERR_NO_LEVEL_FILE,
            c"GTS_ERR_NO_LEVEL_FILE",
            c"the level file of the game named is not in the folder",
        ),
    ]
};

/// The core's archive writing error kind of a C status, at compile time.
const fn core_archive_write(code: u32) -> gtastream_core::archive::ArchiveWriteErrorKind {
    match gtastream_core::archive::ArchiveWriteErrorKind::from_code(code) {
        Some(kind) => kind,
        None => panic!("a C archive writing status that the core does not define"),
    }
}
