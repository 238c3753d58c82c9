//! The C ABI of the streaming encoder: `gts_encoder` lives in storage the caller owns, takes the
//! same structs the decoder's callbacks receive (so a decoder's callbacks can forward each
//! event as it is), and writes through the caller's `gts_sink` callbacks (docs/FORMATS.md §9).

use core::ffi::c_void;
use core::mem::size_of;
use core::ptr::addr_of;

use gtastream_core::encode::{BoneHeader, EncodeError, EncodeOptions, Encoder, Sink, SinkError};
use gtastream_core::{FrameType, IplCar, IplInstance, Keyframe};

use crate::records::{to_record, KINDS};
use crate::records_glue::{kind_of, RecordKindArg};

use crate::bridge::{format_from_code, warning_kind};
use crate::handle::{status, Handle, Object, Sticky};
use crate::types::{
    gts_animation_info, gts_bone_info, gts_file_info, gts_ipl_car, gts_ipl_instance, gts_keyframe,
    gts_section_line, gts_status, gts_warning, gts_warning_kind,
};

/// Words of `gts_encoder`.
pub const GTS_ENCODER_WORDS: usize = 48;

/// `gts_encoder_init` flag: write every ANP3/ANP2 bone in the packed types, rounding values to
/// the packed steps (quaternion 1/4096, time 1/60 s, translation 1/1024). Without it nothing is
/// rounded: a value the target cannot hold exactly is `GTS_ERR_NOT_REPRESENTABLE`.
pub const GTS_ENCODE_QUANTIZE: u32 = 1;

/// `gts_encoder_init` flag: write a clean file, ignoring the stored bytes (`raw`) of the infos
/// and `gts_encoder_trailing`: zeroed name tails, sizes and flags computed. Without it a file
/// decoded and written back to its own format comes out byte for byte (docs/FORMATS.md §9.7).
pub const GTS_ENCODE_NORMALISE: u32 = 2;

/// `gts_encoder_init` flag: a binary IPL target drops the lines of text-only sections (and
/// either placement target the lines outside any section), each with a warning, instead of
/// failing with `GTS_ERR_NOT_REPRESENTABLE` at the first (docs/FORMATS.md §9.3).
pub const GTS_ENCODE_DROP_TEXT_SECTIONS: u32 = 4;

/// Caller-owned storage of one encoder, like `gts_decoder`: anywhere, `sizeof` it passed to
/// `gts_encoder_init`, no cleanup; it may be copied with `memcpy` between calls.
#[repr(C)]
pub struct gts_encoder {
    /// Private storage; never read or written by the caller.
    pub opaque: [u64; GTS_ENCODER_WORDS],
}

/// Where an encoder's bytes go. `write` appends `len` bytes; `patch` overwrites `len` bytes
/// already written at absolute `offset` (counted from the first byte written), for the counts
/// and sizes known only once their record ends. Both return 0 on success; anything else fails
/// the encoder with `GTS_ERR_WRITE`. Both are required.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct gts_sink {
    /// Appends bytes.
    pub write: Option<unsafe extern "C" fn(user: *mut c_void, bytes: *const u8, len: usize) -> i32>,
    /// Overwrites bytes already written.
    pub patch: Option<
        unsafe extern "C" fn(user: *mut c_void, offset: u64, bytes: *const u8, len: usize) -> i32,
    >,
    /// Passed to both.
    pub user: *mut c_void,
}

/// The sink as the core sees it.
pub(crate) struct CSink(pub(crate) gts_sink);

impl Sink for CSink {
    fn write(&mut self, bytes: &[u8]) -> Result<(), SinkError> {
        let f = self.0.write.ok_or(SinkError)?;
        // SAFETY: `f` is the caller's function of this type; `bytes` is valid for the call.
        match unsafe { f(self.0.user, bytes.as_ptr(), bytes.len()) } {
            0 => Ok(()),
            _ => Err(SinkError),
        }
    }

    fn patch(&mut self, offset: u64, bytes: &[u8]) -> Result<(), SinkError> {
        let f = self.0.patch.ok_or(SinkError)?;
        // SAFETY: as for `write`.
        match unsafe { f(self.0.user, offset, bytes.as_ptr(), bytes.len()) } {
            0 => Ok(()),
            _ => Err(SinkError),
        }
    }
}

/// What a `gts_encoder` holds besides the handle's header.
struct EncoderState {
    encoder: Encoder<CSink>,
    /// The first error of an event, the core's or one of the C arguments' (which the core
    /// never saw): returned by every later event, so that no event is left out of a file
    /// without the caller hearing of it.
    error: Sticky,
}

impl Object for EncoderState {
    type Storage = gts_encoder;
    /// "gtsenc" and the layout's version.
    const TAG: u64 = 0x6774_7365_6e63_0002;
}

impl EncoderState {
    /// One event: `f` gives it to the encoder, unless an event failed before (that error
    /// again) or the file is complete (`GTS_ERR_OUT_OF_ORDER`, which sticks in turn).
    fn event(
        &mut self,
        f: impl FnOnce(&mut Encoder<CSink>) -> Result<(), gts_status>,
    ) -> Result<(), gts_status> {
        self.error.run(|| match self.encoder.is_finished() {
            true => Err(gts_status::GTS_ERR_OUT_OF_ORDER),
            false => f(&mut self.encoder),
        })
    }
}

/// Runs one event on the encoder in `e`'s storage (checked by the handle: the pointer, the
/// tag, re-entry, a panic before), busy meanwhile, panics caught. Its error sticks.
///
/// # Safety
/// `e` is NULL or points to a `gts_encoder` (set up by `gts_encoder_init`, by the caller's
/// contract, when its tag says so).
unsafe fn event(
    e: *mut gts_encoder,
    f: impl FnOnce(&mut Encoder<CSink>) -> Result<(), gts_status>,
) -> gts_status {
    // SAFETY: the caller's contract.
    let handle = unsafe { Handle::<EncoderState>::new(e) };
    status(handle.and_then(|h| h.call(|state| state.event(f))))
}

/// Reads the encoder in `e`'s storage; `None` if it cannot be used (as `event` checks it).
///
/// # Safety
/// As for `event`.
unsafe fn read<R>(e: *mut gts_encoder, f: impl FnOnce(&Encoder<CSink>) -> R) -> Option<R> {
    // SAFETY: the caller's contract.
    let handle = unsafe { Handle::<EncoderState>::new(e) }.ok()?;
    handle.run(|state| f(&state.encoder)).ok()
}

/// `len` bytes at `ptr` (NULL allowed when `len` is 0).
///
/// # Safety
/// `ptr` points to `len` readable bytes that live for `'a`.
pub(crate) unsafe fn bytes<'a>(
    ptr: *const core::ffi::c_char,
    len: usize,
) -> Result<&'a [u8], gts_status> {
    if len == 0 {
        return Ok(&[]);
    }
    // A slice over isize::MAX bytes is undefined behaviour even unread: refused first.
    if ptr.is_null() || len > isize::MAX as usize {
        return Err(gts_status::GTS_ERR_INVALID_ARGUMENT);
    }
    // SAFETY: non-NULL, `len <= isize::MAX` readable bytes by the caller's contract.
    Ok(unsafe { core::slice::from_raw_parts(ptr.cast::<u8>(), len) })
}

/// Reads a struct argument (NULL refused).
///
/// # Safety
/// `p` is NULL or points to a valid `T`.
unsafe fn arg<'a, T>(p: *const T) -> Result<&'a T, gts_status> {
    if p.is_null() || !p.is_aligned() {
        return Err(gts_status::GTS_ERR_INVALID_ARGUMENT);
    }
    // SAFETY: non-NULL, aligned, valid (the caller's contract).
    Ok(unsafe { &*p })
}

/// `sizeof(gts_encoder)` as the library knows it.
#[no_mangle]
pub extern "C" fn gts_encoder_size() -> usize {
    size_of::<gts_encoder>()
}

/// Sets up an encoder in `*encoder` writing `format` (a `gts_format`: ANP3, ANP2, ANPK,
/// IPL_BINARY, IPL_TEXT or IDE) to `*sink` (copied), with `flags` (`GTS_ENCODE_QUANTIZE` or 0).
/// `size_of_encoder` must be `sizeof *encoder`.
///
/// Then give it the events in the decoder's order: `gts_encoder_file`, per animation
/// `gts_encoder_animation`, per bone `gts_encoder_bone`, `gts_encoder_keyframes` (any number
/// of calls), `gts_encoder_bone_end`, then `gts_encoder_animation_end`; or for placements
/// `gts_encoder_instance`, `gts_encoder_car`, `gts_encoder_section_line`; `gts_encoder_end`
/// last. Counts and sizes in the info structs are not used: the encoder counts, and patches the
/// fields through `sink->patch` when their record ends. The first error sticks: every later
/// call returns it, and the bytes written so far are not a valid file. That holds for every
/// error of an event call, a bad argument included (a NULL struct, a NULL `name` with a
/// non-zero length: `GTS_ERR_INVALID_ARGUMENT`): an event is never left out silently. Every
/// event after `gts_encoder_end` is `GTS_ERR_OUT_OF_ORDER`, an empty keyframe batch included.
///
/// Returns `GTS_OK`, `GTS_ERR_INVALID_ARGUMENT` (NULL or misaligned pointer, a sink callback
/// NULL), `GTS_ERR_SIZE_MISMATCH` or `GTS_ERR_UNSUPPORTED_FORMAT` (or `GTS_ERR_REENTRANT` when
/// called from a sink callback of the same encoder).
///
/// Pointers: `encoder` is NULL or points to `size_of_encoder` writable bytes, not in use by a
/// running call; `sink` is NULL or points to a `gts_sink`.
#[no_mangle]
pub unsafe extern "C" fn gts_encoder_init(
    encoder: *mut gts_encoder,
    size_of_encoder: usize,
    format: u32,
    sink: *const gts_sink,
    flags: u32,
) -> gts_status {
    // SAFETY: `encoder` is NULL or points to `size_of_encoder` writable bytes (the caller's
    // contract).
    unsafe {
        Handle::init(encoder, size_of_encoder, || {
            if sink.is_null() || !sink.is_aligned() {
                return Err(gts_status::GTS_ERR_INVALID_ARGUMENT);
            }
            // SAFETY: non-NULL, aligned, a valid `gts_sink` (the caller's contract).
            let sink = sink.read();
            if sink.write.is_none() || sink.patch.is_none() {
                return Err(gts_status::GTS_ERR_INVALID_ARGUMENT);
            }
            let format = format_from_code(format)
                .filter(|f| f.is_writable())
                .ok_or(gts_status::GTS_ERR_UNSUPPORTED_FORMAT)?;
            let options = EncodeOptions::quantize(flags & GTS_ENCODE_QUANTIZE != 0)
                .with_normalise(flags & GTS_ENCODE_NORMALISE != 0)
                .with_drop_text_sections(flags & GTS_ENCODE_DROP_TEXT_SECTIONS != 0);
            let encoder = Encoder::new(format, CSink(sink), options)?;
            Ok(EncoderState {
                encoder,
                error: Sticky::default(),
            })
        })
    }
}

/// The file begins (`info->name` if `info->has_name`). `info->format` says what the events
/// are: animations to a placement format, or the reverse, are `GTS_ERR_UNSUPPORTED_FORMAT`.
/// `info->raw` and, for an `ANLF` block, `info->container_size` (with `has_container_size`)
/// let the file be written back byte for byte (docs/FORMATS.md §9.7). The other fields are not
/// used.
///
/// Pointers: `encoder` as for every `gts_encoder_*` call: NULL or set up by `gts_encoder_init`;
/// `info` is NULL or points to a `gts_file_info` whose `name` points to `name_len` bytes.
#[no_mangle]
pub unsafe extern "C" fn gts_encoder_file(
    encoder: *mut gts_encoder,
    info: *const gts_file_info,
) -> gts_status {
    // SAFETY: the caller's contract (see above).
    unsafe {
        event(encoder, |e| {
            let info = arg(info)?;
            // Read as an integer: a value C put there need not be an enumerator.
            let source = format_from_code(addr_of!(info.format).cast::<u32>().read());
            if let Some(source) = source {
                if source.is_animation() != e.format().is_animation() {
                    return Err(EncodeError::CannotConvert(source, e.format()).into());
                }
                e.source(source);
            }
            let name = match info.has_name {
                true => Some(bytes(info.name, info.name_len)?),
                false => None,
            };
            let raw = bytes(info.raw.cast(), info.raw_len)?;
            match info.has_container_size {
                true => Ok(e.file_in_container(name, raw, info.container_size)?),
                false => Ok(e.file_raw(name, raw)?),
            }
        })
    }
}

/// An animation begins (`info->name`, and `info->raw` as for `gts_encoder_file`; the other
/// fields are not used).
///
/// Pointers: `info` is NULL or points to a `gts_animation_info` whose `name` points to
/// `name_len` bytes, `raw` to `raw_len` bytes.
#[no_mangle]
pub unsafe extern "C" fn gts_encoder_animation(
    encoder: *mut gts_encoder,
    info: *const gts_animation_info,
) -> gts_status {
    // SAFETY: the caller's contract.
    unsafe {
        event(encoder, |e| {
            let info = arg(info)?;
            let name = bytes(info.name, info.name_len)?;
            Ok(e.animation_raw(name, bytes(info.raw.cast(), info.raw_len)?)?)
        })
    }
}

fn frame_type(value: u32) -> Option<FrameType> {
    Some(match value {
        1 => FrameType::Ifp2Rot,
        2 => FrameType::Ifp2RotTrans,
        3 => FrameType::Ifp2PackedRot,
        4 => FrameType::Ifp2PackedRotTrans,
        10 => FrameType::Kr00,
        11 => FrameType::Krt0,
        12 => FrameType::Krts,
        20 => FrameType::StoriesRot,
        21 => FrameType::StoriesRotTrans,
        _ => return None,
    })
}

/// A bone begins: its name (else a Stories `bone_key` names it), `bone_id` if `has_bone_id`,
/// and `frame_type`, the type its keyframes come from, which decides the type written
/// (docs/FORMATS.md §9.2); `raw` as for `gts_encoder_file`. Counts are not used.
///
/// Returns `GTS_ERR_UNSUPPORTED_FRAME_TYPE` for a `frame_type` that is no `gts_frame_type`.
///
/// Pointers: `info` is NULL or points to a `gts_bone_info` whose `name` points to `name_len`
/// bytes when `has_name`, `raw` to `raw_len` bytes.
#[no_mangle]
pub unsafe extern "C" fn gts_encoder_bone(
    encoder: *mut gts_encoder,
    info: *const gts_bone_info,
) -> gts_status {
    // SAFETY: the caller's contract.
    unsafe {
        event(encoder, |e| {
            let info = arg(info)?;
            // Read as an integer: a value C put there need not be an enumerator (`frame_type`
            // is a C enum, an `int`-sized field of a valid struct).
            let raw = addr_of!(info.frame_type).cast::<u32>().read();
            let frame_type = frame_type(raw).ok_or(gts_status::GTS_ERR_UNSUPPORTED_FRAME_TYPE)?;
            let name = match info.has_name {
                true => Some(bytes(info.name, info.name_len)?),
                false => None,
            };
            let header = BoneHeader {
                name,
                bone_id: info.has_bone_id.then_some(info.bone_id),
                bone_key: info.has_bone_key.then_some(info.bone_key),
                frame_type,
            };
            Ok(e.bone_raw(&header, bytes(info.raw.cast(), info.raw_len)?)?)
        })
    }
}

/// `len` bytes that followed the source's content (the decoder's `on_trailing`), written after
/// the content as they were; dropped with `GTS_ENCODE_NORMALISE` or from another format. Only
/// `gts_encoder_end` may follow.
///
/// Pointers: `bytes` points to `len` bytes (NULL allowed when `len` is 0).
#[no_mangle]
pub unsafe extern "C" fn gts_encoder_trailing(
    encoder: *mut gts_encoder,
    bytes: *const u8,
    len: usize,
) -> gts_status {
    // SAFETY: the caller's contract.
    unsafe {
        event(
            encoder,
            |e| Ok(e.trailing(self::bytes(bytes.cast(), len)?)?),
        )
    }
}

/// `count` keyframes of the current bone (any number of calls).
///
/// Pointers: `frames` points to `count` `gts_keyframe`s (NULL allowed when `count` is 0).
#[no_mangle]
pub unsafe extern "C" fn gts_encoder_keyframes(
    encoder: *mut gts_encoder,
    frames: *const gts_keyframe,
    count: usize,
) -> gts_status {
    // SAFETY: the caller's contract.
    unsafe {
        event(encoder, |e| {
            let frames = if count == 0 {
                &[][..]
            } else if frames.is_null()
                || !frames.is_aligned()
                // The slice's bytes must not exceed isize::MAX (checked before it is made).
                || count > isize::MAX as usize / core::mem::size_of::<gts_keyframe>()
            {
                return Err(gts_status::GTS_ERR_INVALID_ARGUMENT);
            } else {
                // SAFETY: `count` valid keyframes (the caller's contract).
                core::slice::from_raw_parts(frames, count)
            };
            for f in frames {
                e.keyframe(&Keyframe {
                    time: f.time,
                    rotation: f.rotation,
                    translation: f.translation,
                    scale: f.scale,
                })?;
            }
            Ok(())
        })
    }
}

/// The current bone ends.
#[no_mangle]
pub unsafe extern "C" fn gts_encoder_bone_end(encoder: *mut gts_encoder) -> gts_status {
    // SAFETY: the caller's contract.
    unsafe { event(encoder, |e| Ok(e.bone_end()?)) }
}

/// The current animation ends.
#[no_mangle]
pub unsafe extern "C" fn gts_encoder_animation_end(encoder: *mut gts_encoder) -> gts_status {
    // SAFETY: the caller's contract.
    unsafe { event(encoder, |e| Ok(e.animation_end()?)) }
}

/// A placed object; its `raw` line (text IPL) is written as stored while it reads as the values.
///
/// Pointers: `instance` is NULL or points to a `gts_ipl_instance` whose `model_name` points to
/// `model_name_len` bytes when `has_model_name`, and `raw` to `raw_len` bytes.
#[no_mangle]
pub unsafe extern "C" fn gts_encoder_instance(
    encoder: *mut gts_encoder,
    instance: *const gts_ipl_instance,
) -> gts_status {
    // SAFETY: the caller's contract.
    unsafe {
        event(encoder, |e| {
            let i = arg(instance)?;
            let mut out = IplInstance::default();
            out.position = i.position;
            out.rotation = i.rotation;
            out.model_id = i.model_id;
            out.interior = i.interior;
            out.lod = i.lod;
            if i.has_model_name {
                out.model_name = Some(bytes(i.model_name, i.model_name_len)?);
            }
            out.scale = i.has_scale.then_some(i.scale);
            out.raw = bytes(i.raw.cast(), i.raw_len)?;
            Ok(e.instance(&out)?)
        })
    }
}

/// A car generator; its `raw` line as for `gts_encoder_instance`.
///
/// Pointers: `car` is NULL or points to a `gts_ipl_car` whose `raw` points to `raw_len` bytes.
#[no_mangle]
pub unsafe extern "C" fn gts_encoder_car(
    encoder: *mut gts_encoder,
    car: *const gts_ipl_car,
) -> gts_status {
    // SAFETY: the caller's contract.
    unsafe {
        event(encoder, |e| {
            let c = arg(car)?;
            let mut out = IplCar::default();
            out.position = c.position;
            out.angle = c.angle;
            out.model_id = c.model_id;
            out.primary_color = c.primary_color;
            out.secondary_color = c.secondary_color;
            out.flags = c.flags;
            out.alarm_chance = c.alarm_chance;
            out.door_lock_chance = c.door_lock_chance;
            out.min_delay = c.min_delay;
            out.max_delay = c.max_delay;
            out.raw = bytes(c.raw.cast(), c.raw_len)?;
            Ok(e.car(&out)?)
        })
    }
}

/// A record of any kind the output format holds: `record` points to the struct of `kind`
/// (`gts_record_NAME`, as `on_record` gives it), its `raw` bytes written as stored while they
/// read as its values (docs/FORMATS.md §9.7). A kind the format has no place for is
/// `GTS_ERR_OUT_OF_ORDER` (a section line in a binary IPL: `GTS_ERR_NOT_REPRESENTABLE`, as
/// `gts_encoder_section_line`); a number that names no kind, or a text the field cannot hold
/// (a section name that is not ASCII), `GTS_ERR_INVALID_ARGUMENT` and
/// `GTS_ERR_NOT_REPRESENTABLE`.
///
/// Pointers: `record` is NULL or points to the struct of `kind`, whose text and `raw` members
/// point to as many bytes as their lengths say.
#[no_mangle]
pub unsafe extern "C" fn gts_encoder_record(
    encoder: *mut gts_encoder,
    kind: RecordKindArg,
    record: *const c_void,
) -> gts_status {
    // SAFETY: the caller's contract.
    unsafe {
        event(encoder, |e| {
            let kind = kind_of(kind).ok_or(gts_status::GTS_ERR_INVALID_ARGUMENT)?;
            // A NULL or misaligned struct is refused before it is read.
            let align = KINDS[kind as usize].align;
            if record.is_null() || !(record as usize).is_multiple_of(align) {
                return Err(gts_status::GTS_ERR_INVALID_ARGUMENT);
            }
            let record = to_record(kind, record)?;
            Ok(e.record(&record)?)
        })
    }
}

/// A line of a text-only IPL section (text IPL output; binary IPL refuses it with
/// `GTS_ERR_NOT_REPRESENTABLE`).
///
/// Its `raw` line is written as stored while it holds `text` (docs/FORMATS.md §9.7).
///
/// Pointers: `line` is NULL or points to a `gts_section_line` whose `section`, `text` and `raw`
/// point to `section_len`, `text_len` and `raw_len` bytes.
#[no_mangle]
pub unsafe extern "C" fn gts_encoder_section_line(
    encoder: *mut gts_encoder,
    line: *const gts_section_line,
) -> gts_status {
    // SAFETY: the caller's contract.
    unsafe {
        event(encoder, |e| {
            let l = arg(line)?;
            let section = bytes(l.section, l.section_len)?;
            let section = core::str::from_utf8(section)
                .map_err(|_| EncodeError::NotRepresentable(gtastream_core::encode::Lost::Line))?;
            let text = bytes(l.text, l.text_len)?;
            let raw = bytes(l.raw.cast(), l.raw_len)?;
            Ok(e.section_line_stored(section, text, l.line, raw)?)
        })
    }
}

/// A line of the source that brought no event of its own (`on_text_line`: blank, comment,
/// section name, `end`, with its line break): a text IPL written back keeps it as it is (it may
/// come before `gts_encoder_file`); other targets, and `GTS_ENCODE_NORMALISE`, ignore it.
///
/// Pointers: `bytes` is NULL (with `len` 0) or points to `len` bytes.
#[no_mangle]
pub unsafe extern "C" fn gts_encoder_text_line(
    encoder: *mut gts_encoder,
    bytes: *const u8,
    len: usize,
) -> gts_status {
    // SAFETY: the caller's contract.
    unsafe {
        event(encoder, |e| {
            Ok(e.text_line(self::bytes(bytes.cast(), len)?)?)
        })
    }
}

/// The input ended: the last counts and sizes are patched; the file is complete.
#[no_mangle]
pub unsafe extern "C" fn gts_encoder_end(encoder: *mut gts_encoder) -> gts_status {
    // SAFETY: the caller's contract.
    unsafe { event(encoder, |e| Ok(e.end()?)) }
}

/// Bytes written so far (0 for an encoder not set up).
///
/// Pointers: `encoder` is NULL or set up by `gts_encoder_init`.
#[no_mangle]
pub unsafe extern "C" fn gts_encoder_written(encoder: *mut gts_encoder) -> u64 {
    // SAFETY: the caller's contract.
    unsafe { read(encoder, |e| e.written()) }.unwrap_or(0)
}

/// How many warnings the encoder gave (something dropped on purpose: a scale written to a
/// format without one); the first is stored in `*first` if `first` is not NULL and there was
/// one.
///
/// Pointers: `first` is NULL or points to a writable `gts_warning`.
#[no_mangle]
pub unsafe extern "C" fn gts_encoder_warnings(
    encoder: *mut gts_encoder,
    first: *mut gts_warning,
) -> u32 {
    // SAFETY: the caller's contract.
    let Some(warnings) = (unsafe { read(encoder, |e| e.warnings()) }) else {
        return 0;
    };
    if let (Some(w), false) = (warnings.first, first.is_null() || !first.is_aligned()) {
        let (kind, name, reason) = warning_kind(w.kind);
        let kind: gts_warning_kind = kind;
        // SAFETY: non-NULL, aligned, writable (the caller's contract).
        unsafe {
            first.write(gts_warning {
                kind,
                offset: w.offset,
                name: name.as_ptr(),
                reason: reason.as_ptr(),
            })
        };
    }
    warnings.count
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::types::{gts_format, gts_frame_type};
    use gtastream_core::Format;

    pub(crate) struct Buf {
        pub(crate) bytes: Vec<u8>,
        /// An encoder to call back into from the sink (re-entry is refused).
        reenter: *mut gts_encoder,
        reentered: Option<gts_status>,
    }

    unsafe extern "C" fn write(user: *mut c_void, bytes: *const u8, len: usize) -> i32 {
        // SAFETY: `user` is the test's `Buf`; `bytes` holds `len` bytes.
        let (buf, bytes) = unsafe {
            (
                &mut *user.cast::<Buf>(),
                core::slice::from_raw_parts(bytes, len),
            )
        };
        buf.bytes.extend_from_slice(bytes);
        if !buf.reenter.is_null() {
            // SAFETY: `reenter` is the encoder whose call runs this sink (refused, not run).
            buf.reentered = Some(unsafe { gts_encoder_bone_end(buf.reenter) });
        }
        0
    }

    unsafe extern "C" fn patch(
        user: *mut c_void,
        offset: u64,
        bytes: *const u8,
        len: usize,
    ) -> i32 {
        // SAFETY: as in `write`.
        let (buf, bytes) = unsafe {
            (
                &mut *user.cast::<Buf>(),
                core::slice::from_raw_parts(bytes, len),
            )
        };
        let at = offset as usize;
        buf.bytes[at..at + len].copy_from_slice(bytes);
        0
    }

    /// A sink over `buf`, which the test then reaches only through the same raw pointer, as a
    /// C caller would (a reference to it would be invalidated by the sink's writes).
    pub(crate) fn new_buf() -> *mut Buf {
        Box::into_raw(Box::new(Buf {
            bytes: Vec::new(),
            reenter: core::ptr::null_mut(),
            reentered: None,
        }))
    }

    pub(crate) fn new_encoder(format: gts_format, buf: *mut Buf) -> Box<gts_encoder> {
        let mut e = Box::new(gts_encoder {
            opaque: [0; GTS_ENCODER_WORDS],
        });
        let sink = gts_sink {
            write: Some(write),
            patch: Some(patch),
            user: buf.cast(),
        };
        // SAFETY: valid storage and sink; `buf` outlives the encoder's use in each test.
        let st = unsafe { gts_encoder_init(&mut *e, gts_encoder_size(), format as u32, &sink, 0) };
        assert_eq!(st, gts_status::GTS_OK);
        e
    }

    pub(crate) fn bone(name: &[u8], frame_type: gts_frame_type) -> gts_bone_info {
        gts_bone_info {
            index: 0,
            name: name.as_ptr().cast(),
            name_len: name.len(),
            has_name: true,
            bone_id: 3,
            has_bone_id: true,
            bone_key: 0,
            has_bone_key: false,
            frame_type,
            frame_size: 0,
            frame_count: 0,
            has_translation: false,
            has_scale: false,
            raw: core::ptr::null(),
            raw_len: 0,
        }
    }

    /// A file of `format` (what the events come from), without a name.
    pub(crate) fn file_info(format: gts_format) -> gts_file_info {
        gts_file_info {
            format,
            // Not read by the encoder.
            format_name: c"".as_ptr(),
            name: core::ptr::null(),
            name_len: 0,
            has_name: false,
            animation_count: 0,
            instance_count: 0,
            has_instance_count: false,
            car_count: 0,
            has_car_count: false,
            raw: core::ptr::null(),
            raw_len: 0,
            container_size: 0,
            has_container_size: false,
            rw_version: 0,
            has_rw_version: false,
        }
    }

    pub(crate) fn animation_info(name: &[u8]) -> gts_animation_info {
        gts_animation_info {
            index: 0,
            name: name.as_ptr().cast(),
            name_len: name.len(),
            bone_count: 0,
            frame_data_size: 0,
            has_frame_data_size: false,
            flags: 0,
            has_flags: false,
            duration: 0.0,
            has_duration: false,
            raw: core::ptr::null(),
            raw_len: 0,
        }
    }

    /// `gts_encoder_record` writes what the per-kind entry point writes, and refuses a number
    /// that names no kind, a NULL struct and a kind the format has no place for.
    #[test]
    fn encoder_record_writes_any_kind_the_format_holds() {
        use crate::records::{gts_record_dff_atomic, gts_record_instance, gts_record_kind};
        let name = b"tree";
        let old = gts_ipl_instance {
            position: [1.0, 2.0, 3.0],
            rotation: [0.0, 0.0, 0.5, 1.0],
            model_id: 615,
            interior: 13,
            lod: -1,
            model_name: name.as_ptr().cast(),
            model_name_len: 4,
            has_model_name: true,
            scale: [0.0; 3],
            has_scale: false,
            raw: core::ptr::null(),
            raw_len: 0,
        };
        let new = gts_record_instance {
            model_id: 615,
            model_name: name.as_ptr().cast(),
            model_name_len: 4,
            has_model_name: true,
            interior: 13,
            position: [1.0, 2.0, 3.0],
            rotation: [0.0, 0.0, 0.5, 1.0],
            scale: [0.0; 3],
            has_scale: false,
            lod: -1,
            raw: core::ptr::null(),
            raw_len: 0,
        };
        let atomic = gts_record_dff_atomic {
            index: 0,
            frame: 1,
            geometry: 0,
            flags: 5,
        };
        let instance = gts_record_kind::GTS_RECORD_INSTANCE as i32;
        let mut written = Vec::new();
        for generic in [false, true] {
            let buf = new_buf();
            let mut e = new_encoder(gts_format::GTS_FORMAT_IPL_TEXT, buf);
            let file = file_info(gts_format::GTS_FORMAT_IPL_TEXT);
            // SAFETY: every pointer is to a live local of the right type, or NULL on purpose.
            unsafe {
                assert_eq!(gts_encoder_file(&mut *e, &file), gts_status::GTS_OK);
                let st = if generic {
                    gts_encoder_record(&mut *e, instance, (&raw const new).cast())
                } else {
                    gts_encoder_instance(&mut *e, &old)
                };
                assert_eq!(st, gts_status::GTS_OK);
                assert_eq!(gts_encoder_end(&mut *e), gts_status::GTS_OK);
                written.push(core::mem::take(&mut (*buf).bytes));
                drop(Box::from_raw(buf));
            }
        }
        assert!(!written[0].is_empty());
        assert_eq!(written[0], written[1]);
        // Each refusal on an encoder of its own (errors stick): a number that names no kind, a
        // NULL struct, a DFF atomic, which no IPL has a place for.
        let atomic_kind = gts_record_kind::GTS_RECORD_DFF_ATOMIC as i32;
        let new: *const c_void = (&raw const new).cast();
        let cases = [
            (99, new, gts_status::GTS_ERR_INVALID_ARGUMENT),
            (-1, new, gts_status::GTS_ERR_INVALID_ARGUMENT),
            (
                instance,
                core::ptr::null(),
                gts_status::GTS_ERR_INVALID_ARGUMENT,
            ),
            (
                atomic_kind,
                (&raw const atomic).cast(),
                gts_status::GTS_ERR_OUT_OF_ORDER,
            ),
        ];
        for (kind, record, status) in cases {
            let buf = new_buf();
            let mut e = new_encoder(gts_format::GTS_FORMAT_IPL_TEXT, buf);
            let file = file_info(gts_format::GTS_FORMAT_IPL_TEXT);
            // SAFETY: live locals of the right types, or NULL on purpose.
            unsafe {
                assert_eq!(gts_encoder_file(&mut *e, &file), gts_status::GTS_OK);
                assert_eq!(gts_encoder_record(&mut *e, kind, record), status, "{kind}");
                drop(Box::from_raw(buf));
            }
        }
    }

    #[test]
    fn writes_what_the_rust_encoder_writes_and_refuses_misuse() {
        let buf = new_buf();
        let mut e = new_encoder(gts_format::GTS_FORMAT_ANPK, buf);
        let name = b"walk";
        let file = gts_file_info {
            name: name.as_ptr().cast(),
            name_len: 4,
            has_name: true,
            ..file_info(gts_format::GTS_FORMAT_ANP3)
        };
        let anim = animation_info(name);
        let frames = [gts_keyframe {
            time: 0.5,
            rotation: [0.5, 0.25, -0.125, 1.0],
            translation: [1.0, 2.0, 3.0],
            scale: [0.0; 3],
        }; 3];
        // SAFETY: every pointer below is to a live local of the right type.
        unsafe {
            assert_eq!(gts_encoder_file(&mut *e, &file), gts_status::GTS_OK);
            assert_eq!(gts_encoder_animation(&mut *e, &anim), gts_status::GTS_OK);
            let b = bone(b"Root", gts_frame_type::GTS_FRAME_IFP2_ROT_TRANS);
            assert_eq!(gts_encoder_bone(&mut *e, &b), gts_status::GTS_OK);
            assert_eq!(
                gts_encoder_keyframes(&mut *e, frames.as_ptr(), 3),
                gts_status::GTS_OK
            );
            // A sink callback that calls back in is refused.
            // One raw pointer for the call and for the sink's call back in, as a C caller has.
            let ep: *mut gts_encoder = &raw mut *e;
            (*buf).reenter = ep;
            assert_eq!(
                gts_encoder_keyframes(ep, frames.as_ptr(), 1),
                gts_status::GTS_OK
            );
            (*buf).reenter = core::ptr::null_mut();
            assert_eq!((*buf).reentered, Some(gts_status::GTS_ERR_REENTRANT));
            assert_eq!(gts_encoder_bone_end(&mut *e), gts_status::GTS_OK);
            assert_eq!(gts_encoder_animation_end(&mut *e), gts_status::GTS_OK);
            assert_eq!(gts_encoder_end(&mut *e), gts_status::GTS_OK);
            assert_eq!(gts_encoder_written(&mut *e), (*buf).bytes.len() as u64);
            assert_eq!(gts_encoder_end(&mut *e), gts_status::GTS_ERR_OUT_OF_ORDER);
        }
        // The Rust encoder, the same events.
        let mut rust = Encoder::new(Format::Anpk, Vec::new(), EncodeOptions::default()).unwrap();
        rust.file(Some(b"walk")).unwrap();
        rust.animation(b"walk").unwrap();
        rust.bone(&BoneHeader {
            name: Some(b"Root"),
            bone_id: Some(3),
            bone_key: None,
            frame_type: FrameType::Ifp2RotTrans,
        })
        .unwrap();
        for _ in 0..4 {
            rust.keyframe(&Keyframe {
                time: 0.5,
                rotation: [0.5, 0.25, -0.125, 1.0],
                translation: [1.0, 2.0, 3.0],
                scale: [0.0; 3],
            })
            .unwrap();
        }
        rust.bone_end().unwrap();
        rust.animation_end().unwrap();
        rust.end().unwrap();
        // SAFETY: the encoder is done with `buf`, which nothing else holds.
        let written = unsafe { Box::from_raw(buf) }.bytes;
        assert_eq!(written, rust.into_sink());

        // Errors: a name too long, then it sticks; bad arguments.
        let buf = new_buf();
        let mut e = new_encoder(gts_format::GTS_FORMAT_ANP3, buf);
        // SAFETY: every pointer below is NULL or to a live local of the right type.
        unsafe {
            assert_eq!(gts_encoder_file(&mut *e, &file), gts_status::GTS_OK);
            let long = gts_animation_info {
                name: b"a_name_of_twenty_four_by".as_ptr().cast(),
                name_len: 24,
                ..anim
            };
            assert_eq!(
                gts_encoder_animation(&mut *e, &long),
                gts_status::GTS_ERR_NAME_TOO_LONG
            );
            assert_eq!(
                gts_encoder_animation(&mut *e, &anim),
                gts_status::GTS_ERR_NAME_TOO_LONG
            );
            assert_eq!(
                gts_encoder_file(core::ptr::null_mut(), &file),
                gts_status::GTS_ERR_INVALID_ARGUMENT
            );
            let mut blank = gts_encoder {
                opaque: [0; GTS_ENCODER_WORDS],
            };
            assert_eq!(
                gts_encoder_end(&mut blank),
                gts_status::GTS_ERR_NOT_INITIALIZED
            );
            let sink = gts_sink {
                write: Some(write),
                patch: None,
                user: core::ptr::null_mut(),
            };
            assert_eq!(
                gts_encoder_init(&mut blank, gts_encoder_size(), 1, &sink, 0),
                gts_status::GTS_ERR_INVALID_ARGUMENT
            );
            let sink = gts_sink {
                patch: Some(patch),
                ..sink
            };
            assert_eq!(
                gts_encoder_init(&mut blank, 8, 1, &sink, 0),
                gts_status::GTS_ERR_SIZE_MISMATCH
            );
            assert_eq!(
                gts_encoder_init(&mut blank, gts_encoder_size(), 4, &sink, 0),
                gts_status::GTS_ERR_UNSUPPORTED_FORMAT
            );
            drop(Box::from_raw(buf));
        }
    }

    /// The decoder's callbacks forwarded to the encoder, as `c-examples/convert.c` does, with
    /// the stored lines (`on_text_line`, the records' `raw`) and the `ANLF` container: a text
    /// IPL as found and an `ANLF` come back byte for byte through the C API.
    #[test]
    fn the_c_pipeline_writes_text_ipl_and_anlf_back_byte_for_byte() {
        use crate::records::gts_record_kind;
        use crate::types::{
            gts_animation_info, gts_bone_info, gts_callbacks, gts_decoder, gts_ipl_car,
            gts_ipl_instance, gts_section_line, GTS_DECODER_WORDS,
        };
        // Each callback forwards its event to the encoder (the user pointer); an error aborts.
        macro_rules! forward {
            ($name:ident, $call:ident $(, $arg:ident: $ty:ty)*) => {
                unsafe extern "C" fn $name(u: *mut c_void $(, $arg: $ty)*) -> i32 {
                    // SAFETY: `u` is the test's live encoder; the decoder's arguments are valid
                    // for the call.
                    let st = unsafe { $call(u.cast::<gts_encoder>() $(, $arg)*) };
                    if st == gts_status::GTS_OK {
                        0
                    } else {
                        2
                    }
                }
            };
        }
        forward!(on_file, gts_encoder_file, i: *const gts_file_info);
        forward!(on_animation, gts_encoder_animation, i: *const gts_animation_info);
        forward!(on_bone, gts_encoder_bone, i: *const gts_bone_info);
        forward!(on_keyframes, gts_encoder_keyframes, f: *const gts_keyframe, n: usize);
        forward!(on_bone_end, gts_encoder_bone_end);
        forward!(on_animation_end, gts_encoder_animation_end);
        forward!(on_instance, gts_encoder_instance, i: *const gts_ipl_instance);
        forward!(on_car, gts_encoder_car, c: *const gts_ipl_car);
        forward!(on_section_line, gts_encoder_section_line, l: *const gts_section_line);
        forward!(on_text_line, gts_encoder_text_line, b: *const u8, n: usize);
        forward!(on_trailing, gts_encoder_trailing, b: *const u8, n: usize);
        forward!(on_end, gts_encoder_end);
        unsafe extern "C" fn on_record(
            u: *mut c_void,
            k: gts_record_kind,
            r: *const c_void,
        ) -> i32 {
            // SAFETY: as `forward!`'s; `r` is the struct of `k`.
            let st = unsafe { gts_encoder_record(u.cast::<gts_encoder>(), k as i32, r) };
            if st == gts_status::GTS_OK {
                0
            } else {
                2
            }
        }
        let text =
            b"# found\r\nstray\r\nINST\r\n4,\tvc, 2, 10.50, -0, 1e3, 1, 1.5, 2, 0, 0, 0, 1\r\n\
            END\r\nwanted\r\n\t1\t2\r\nend\r\ncars\r\n1 2 3 0.5 400 -1 -1 0 0 0 0 0 # c\r\nend\0\0";
        // An ANPK block of one animation, one object, one frame; garbage after the names.
        let mut block = Vec::new();
        let mut put = |bytes: &[u8]| block.extend_from_slice(bytes);
        put(b"ANPK\x8c\0\0\0INFO\x06\0\0\0\x01\0\0\0p\0\x07\x07");
        put(b"NAME\x02\0\0\0a\0\x09\x09DGAN\x68\0\0\0INFO\x08\0\0\0\x01\0\0\0\x05\0\0\0");
        put(b"CPAN\x50\0\0\0ANIM\x2c\0\0\0Root\0garbage after the name\0");
        put(b"\x01\0\0\0\0\0\0\0\0\0\0\0\x03\0\0\0KR00\x14\0\0\0");
        put(&[0; 12]);
        put(&1.0f32.to_le_bytes());
        put(&0.5f32.to_le_bytes());
        assert_eq!(block.len(), 148);
        let mut anlf = b"ANLF\x2c\x01\0\0\x02\0\0\0".to_vec();
        anlf.extend_from_slice(&block);
        anlf.extend_from_slice(&block);
        // A stale container size (the right one is 300).
        anlf[4] ^= 1;
        // Each file twice: through the deprecated per-kind callbacks, and through `on_record`.
        for (format, data, generic) in [
            (gts_format::GTS_FORMAT_IPL_TEXT, &text[..], false),
            (gts_format::GTS_FORMAT_IPL_TEXT, &text[..], true),
            (gts_format::GTS_FORMAT_ANPK, &anlf[..], false),
        ] {
            let buf = new_buf();
            let mut e = new_encoder(format, buf);
            let mut cb = crate::storage::NO_CALLBACKS;
            let cb: gts_callbacks = gts_callbacks {
                on_file: Some(on_file),
                on_animation: Some(on_animation),
                on_bone: Some(on_bone),
                on_keyframes: Some(on_keyframes),
                on_bone_end: Some(on_bone_end),
                on_animation_end: Some(on_animation_end),
                on_instance: Some(on_instance),
                on_car: Some(on_car),
                on_section_line: Some(on_section_line),
                on_text_line: Some(on_text_line),
                on_trailing: Some(on_trailing),
                on_end: Some(on_end),
                on_record: generic.then_some(on_record as _),
                ..core::mem::replace(&mut cb, crate::storage::NO_CALLBACKS)
            };
            let mut d = Box::new(gts_decoder {
                opaque: [0; GTS_DECODER_WORDS],
            });
            let user: *mut gts_encoder = &raw mut *e;
            // SAFETY: live storage, callbacks and encoder; `data` outlives the call.
            unsafe {
                let size = core::mem::size_of::<gts_decoder>();
                assert_eq!(
                    crate::gts_decoder_init(&mut *d, size, &cb, user.cast()),
                    gts_status::GTS_OK
                );
                let st = crate::gts_decode_buffer(&mut *d, data.as_ptr(), data.len());
                assert_eq!(st, gts_status::GTS_OK);
                assert!((*buf).bytes == data, "{format:?}");
                drop(Box::from_raw(buf));
            }
        }
    }
}
