//! The WebAssembly side of the npm package `gtastream` (bindings/js).
//!
//! Plain C-ABI exports and imports, read by the hand-written loader in `bindings/js/src/wasm.ts`
//! (no wasm-bindgen: nothing to version-match, and the module stays small). Everything the
//! module tells JavaScript goes through the imported functions of module `gts`; the numbers and
//! layouts they use are listed in `bindings/js/src/wasm.ts` too, and must change together.
//!
//! No format logic lives here or in the JavaScript: the JSON document is the library's
//! (`gtastream::json`), and the events are the library's events, passed on field by field.

#![no_std]

extern crate alloc;

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;
use core::cell::UnsafeCell;
use core::fmt;

mod document;

use gtastream::archive::plan::{EditPlan, PlanError, Source};
use gtastream::archive::{
    ArchiveDecoder, ArchiveInfo, ArchiveVersion, ArchiveVisitor, ArchiveWriteError,
    ArchiveWriteErrorKind, ArchiveWriter, Choice, Entry, RECORD_SIZE,
};
use gtastream::json::{self, JsonError};
use gtastream::{
    AnimationInfo, BoneInfo, Decoder, Error, FileInfo, Flow, Keyframes, Options, Progress, Record,
    Status, Visitor, Warning, DECODER_SIZE,
};

#[link(wasm_import_module = "gts")]
extern "C" {
    /// A piece of the JSON document (UTF-8), in order.
    fn text(ptr: *const u8, len: usize);
    /// Decoding failed: the kind's stable name and reason, and the absolute offset.
    fn error(name: *const u8, name_len: usize, reason: *const u8, reason_len: usize, offset: f64);
    /// Decoding failed, with where (`gtastream::context`): the kind's name and reason, the
    /// absolute offset, the animation's and the bone's index and the line (NaN: none), and the
    /// message naming them and what was decoded before.
    fn failure(
        name: *const u8,
        name_len: usize,
        reason: *const u8,
        reason_len: usize,
        offset: f64,
        animation: f64,
        bone: f64,
        line: f64,
        message: *const u8,
        message_len: usize,
    );
    /// What a `feed` did; `seek` is the offset asked for with status 3.
    fn progress(consumed: usize, status: u32, seek: f64);

    // The events; each returns the flow: 0 continue, 1 pause, 2 abort. A name's length is -1
    // when the file has none; an absent number is NaN.
    fn file(
        format: *const u8,
        format_len: usize,
        name: *const u8,
        name_len: isize,
        animation_count: u32,
        instance_count: f64,
        car_count: f64,
        // A RenderWare file (DFF): its library id as stored; NaN for another format.
        rw_version: f64,
    ) -> u32;
    fn animation(
        index: u32,
        name: *const u8,
        name_len: usize,
        bone_count: u32,
        frame_data_size: f64,
        flags: f64,
        duration: f64,
        has_duration: u32,
    ) -> u32;
    fn bone(
        index: u32,
        name: *const u8,
        name_len: isize,
        bone_id: f64,
        bone_key: f64,
        frame_type: *const u8,
        frame_type_len: usize,
        frame_count: u32,
        contents: u32,
    ) -> u32;
    /// `count` frames of FRAME_FLOATS floats each at `frames`.
    fn keyframes(frames: *const f32, count: usize) -> u32;
    fn bone_end() -> u32;
    fn animation_end() -> u32;
    /// A record of any kind (`kind`: its number, the order of `RecordKind::ALL`): `count`
    /// numbers at `values`, its document's fields in declared order (an integer; a float as
    /// decoded; n floats; text as where its bytes start in the `text_len` bytes at `text` and
    /// how many), an optional field after 0 (null: nothing follows) or 1.
    fn record(kind: u32, values: *const f64, count: usize, text: *const u8, text_len: usize)
        -> u32;
    fn warning(
        name: *const u8,
        name_len: usize,
        reason: *const u8,
        reason_len: usize,
        offset: f64,
    ) -> u32;
    fn end() -> u32;
    /// A document or listing in buffers (src/document.rs): `records` f64s and `names` bytes;
    /// read during the call only.
    fn document(records: *const f64, records_len: usize, names: *const u8, names_len: usize);
    /// A finished animation's records and the names since the last part (src/document.rs),
    /// which the document's `document` call then follows; read during the call only.
    fn document_part(records: *const f64, records_len: usize, names: *const u8, names_len: usize);
    /// One bone's keyframe floats (`count` f32 or f64, as the document was asked for), as the
    /// bone ends; `contents`: bit 0 translation, bit 1 scale.
    fn bone_values(values: *const u8, count: usize, contents: u32);
    /// The bytes a conversion wrote.
    fn output(bytes: *const u8, len: usize);
    /// A conversion could not write the file: the encoder error's kind name and its message.
    fn encode_error(kind: *const u8, kind_len: usize, message: *const u8, message_len: usize);
    /// An archive cannot be written as asked: the kind's stable name (the library's
    /// ArchiveWriteErrorKind, or `no_such_entry`), the message, the entry's index and name.
    fn archive_error(
        kind: *const u8,
        kind_len: usize,
        message: *const u8,
        message_len: usize,
        index: u32,
        entry: *const u8,
        entry_len: usize,
    );

    // The folder `gts_check_folder_json` walks, served by JavaScript (its `FolderSource`).
    /// Opens the file at the `len` bytes of `path` as a level file writes it (either slash,
    /// any case, relative to the folder): a handle, or -1 when there is no such file.
    fn folder_open(path: *const u8, len: usize) -> i32;
    /// The open file's length in bytes.
    fn folder_len(handle: i32) -> f64;
    /// Reads up to `len` bytes at `offset` into `ptr`: how many (0 only at the end), or -1
    /// when the read failed ([`folder_why`] then tells why).
    fn folder_read_at(handle: i32, offset: f64, ptr: *mut u8, len: usize) -> i32;
    /// The file is no longer used.
    fn folder_close(handle: i32);
    /// Why the last read failed, as UTF-8 in at most `len` bytes at `ptr`: how many.
    fn folder_why(ptr: *mut u8, len: usize) -> usize;
    /// The folder cannot be checked at all (no level file, those of several games): why.
    fn folder_failed(message: *const u8, len: usize);
}

/// Floats per keyframe handed to `keyframes`: time, rotation (x, y, z, w), translation (3),
/// scale (3).
const FRAME_FLOATS: usize = 11;
/// Keyframes handed over per `keyframes` call.
const FRAMES_PER_CALL: usize = 256;
/// Bytes `feed` takes per call: the loader copies each chunk into this buffer, piece by piece.
const INPUT_SIZE: usize = 64 * 1024;
/// The JSON document goes to JavaScript in pieces of about this size.
const TEXT_PIECE: usize = 64 * 1024;

/// Memory of the module's own, reached by one thread only (wasm32-unknown-unknown has one).
struct Shared<T>(UnsafeCell<T>);
// SAFETY: the module runs on a single thread, and each buffer is used by one call at a time.
unsafe impl<T> Sync for Shared<T> {}

static INPUT: Shared<[u8; INPUT_SIZE]> = Shared(UnsafeCell::new([0; INPUT_SIZE]));
static FRAMES: Shared<[f32; FRAME_FLOATS * FRAMES_PER_CALL]> =
    Shared(UnsafeCell::new([0.0; FRAME_FLOATS * FRAMES_PER_CALL]));

fn flow(code: u32) -> Flow {
    match code {
        0 => Flow::Continue,
        1 => Flow::Pause,
        _ => Flow::Abort,
    }
}

fn name_len(name: Option<&[u8]>) -> (*const u8, isize) {
    match name {
        Some(name) => (name.as_ptr(), name.len() as isize),
        None => (core::ptr::null(), -1),
    }
}

fn number(value: Option<impl Into<f64>>) -> f64 {
    value.map_or(f64::NAN, Into::into)
}

fn report_error(e: Error) {
    let (name, reason) = (e.kind.name(), e.kind.reason());
    // SAFETY: the import reads the two static strings during the call.
    unsafe {
        error(
            name.as_ptr(),
            name.len(),
            reason.as_ptr(),
            reason.len(),
            e.offset as f64,
        )
    }
}

/// Reports a failure with its context to `failure`. Returns 1.
fn report_failure(f: &gtastream::context::Failure) -> u32 {
    let (name, reason) = (f.error.kind.name(), f.error.kind.reason());
    let message = alloc::format!("{f}");
    let index = |item: Option<gtastream::context::Item>| item.map_or(f64::NAN, |i| i.index.into());
    let context = &f.context;
    // SAFETY: the import reads the three strings during the call.
    unsafe {
        failure(
            name.as_ptr(),
            name.len(),
            reason.as_ptr(),
            reason.len(),
            f.offset() as f64,
            index(context.animation),
            index(context.bone),
            context.line.map_or(f64::NAN, f64::from),
            message.as_ptr(),
            message.len(),
        )
    };
    1
}

/// Passes every event on to the imports; keyframes only when JavaScript listens for them
/// (converting them is most of the work).
struct Events {
    keyframes: bool,
}

// SAFETY (every call below): the imports read the pointed-to bytes during the call only.
impl Visitor for Events {
    fn file(&mut self, info: &FileInfo<'_>) -> Flow {
        let format = info.format.name();
        let (name, len) = name_len(info.name);
        flow(unsafe {
            file(
                format.as_ptr(),
                format.len(),
                name,
                len,
                info.animation_count,
                number(info.instance_count),
                number(info.car_count),
                number(info.rw_version),
            )
        })
    }

    fn animation(&mut self, info: &AnimationInfo<'_>) -> Flow {
        flow(unsafe {
            animation(
                info.index,
                info.name.as_ptr(),
                info.name.len(),
                info.bone_count,
                number(info.frame_data_size),
                number(info.flags),
                number(info.duration),
                info.duration.is_some() as u32,
            )
        })
    }

    fn bone(&mut self, info: &BoneInfo<'_>) -> Flow {
        let (name, len) = name_len(info.name);
        let frame_type = info.frame_type.name();
        let contents = info.has_translation() as u32 | (info.has_scale() as u32) << 1;
        flow(unsafe {
            bone(
                info.index,
                name,
                len,
                number(info.bone_id),
                number(info.bone_key),
                frame_type.as_ptr(),
                frame_type.len(),
                info.frame_count,
                contents,
            )
        })
    }

    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        if !self.keyframes {
            return Flow::Continue;
        }
        // SAFETY: FRAMES is used by this call only; the import reads it during its call.
        let buffer = unsafe { &mut *FRAMES.0.get() };
        let shared: *const f32 = FRAMES.0.get().cast();
        let mut result = Flow::Continue;
        let mut count = 0;
        let mut hand_over = |count: usize| {
            match flow(unsafe { keyframes(shared, count) }) {
                Flow::Continue => {}
                Flow::Pause => result = Flow::Pause,
                Flow::Abort => return false,
            }
            true
        };
        for frame in frames.iter() {
            let slot = &mut buffer[count * FRAME_FLOATS..][..FRAME_FLOATS];
            slot[0] = frame.time;
            slot[1..5].copy_from_slice(&frame.rotation);
            slot[5..8].copy_from_slice(&frame.translation);
            slot[8..11].copy_from_slice(&frame.scale);
            count += 1;
            if count == FRAMES_PER_CALL {
                if !hand_over(count) {
                    return Flow::Abort;
                }
                count = 0;
            }
        }
        // A pause asked for in the middle of a batch takes effect after the whole batch: the
        // decoder has already consumed it.
        if count > 0 && !hand_over(count) {
            return Flow::Abort;
        }
        result
    }

    fn bone_end(&mut self) -> Flow {
        flow(unsafe { bone_end() })
    }

    fn animation_end(&mut self) -> Flow {
        flow(unsafe { animation_end() })
    }

    /// Every kind alike, walked from the core's declaration.
    fn record(&mut self, record: &Record<'_>) -> Flow {
        use gtastream::record::{RecordKind, Value};
        let schema = record.kind().schema();
        let kind = RecordKind::ALL
            .iter()
            .position(|&k| k == record.kind())
            .unwrap_or(0);
        let mut values: Vec<f64> = Vec::with_capacity(32);
        let mut text: Vec<u8> = Vec::new();
        for (i, field) in schema.fields.iter().enumerate() {
            if !field.in_document {
                continue;
            }
            let value = record.value(i);
            if field.optional {
                values.push(f64::from(u8::from(value != Value::Null)));
            }
            match value {
                Value::Null => {}
                Value::I32(v) => values.push(f64::from(v)),
                Value::U32(v) => values.push(f64::from(v)),
                Value::U64(v) => values.push(v as f64),
                Value::F32(v) => values.push(f64::from(v)),
                Value::Floats(v) => values.extend(v.iter().map(|&x| f64::from(x))),
                Value::Text(v) => {
                    values.extend([text.len() as f64, v.len() as f64]);
                    text.extend_from_slice(v);
                }
            }
        }
        // SAFETY: the import reads both buffers during the call.
        flow(unsafe {
            self::record(
                kind as u32,
                values.as_ptr(),
                values.len(),
                text.as_ptr(),
                text.len(),
            )
        })
    }

    fn warning(&mut self, w: Warning) -> Flow {
        let (name, reason) = (w.kind.name(), w.kind.reason());
        flow(unsafe {
            warning(
                name.as_ptr(),
                name.len(),
                reason.as_ptr(),
                reason.len(),
                w.offset as f64,
            )
        })
    }

    fn end(&mut self) -> Flow {
        flow(unsafe { end() })
    }
}

/// Reserves `len` bytes for the caller (the file for [`gts_json`]).
#[no_mangle]
pub extern "C" fn gts_alloc(len: usize) -> *mut u8 {
    let mut bytes = Vec::<u8>::with_capacity(len);
    let ptr = bytes.as_mut_ptr();
    core::mem::forget(bytes);
    ptr
}

/// Gives back what [`gts_alloc`] reserved.
///
/// # Safety
/// `ptr` and `len` are those of one earlier `gts_alloc`, freed once.
#[no_mangle]
pub unsafe extern "C" fn gts_free(ptr: *mut u8, len: usize) {
    drop(Vec::from_raw_parts(ptr, 0, len));
}

/// Writes the JSON document to `text` in pieces as the library writes it.
struct Pieces(String);

impl Pieces {
    fn flush(&mut self) {
        if !self.0.is_empty() {
            // SAFETY: the import copies the text during the call.
            unsafe { text(self.0.as_ptr(), self.0.len()) };
            self.0.clear();
        }
    }
}

impl fmt::Write for Pieces {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if self.0.len() + s.len() > TEXT_PIECE {
            self.flush();
        }
        self.0.push_str(s);
        Ok(())
    }
}

/// The JSON document (`gtastream dump --json`) of the `len` bytes at `ptr`, handed to `text`.
/// Returns 0, or 1 after reporting the error with its context to `failure` (the text handed
/// over so far, if any, is then to be dropped).
///
/// # Safety
/// `ptr` points to `len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn gts_json(ptr: *const u8, len: usize, can_seek: u32) -> u32 {
    let data = core::slice::from_raw_parts(ptr, len);
    let options = Options {
        can_seek: can_seek != 0,
        game: None,
    };
    let mut out = Pieces(String::with_capacity(TEXT_PIECE));
    // The failure is as large as the core returns it (gtastream::context).
    #[allow(clippy::result_large_err)]
    let result = json::write(&mut out, |pass| {
        gtastream::context::decode_slice(&mut Decoder::with_options(options), data, pass)
    });
    match result {
        Ok(()) => {
            out.flush();
            0
        }
        Err(JsonError::Decode(f)) => report_failure(&f),
        // Pieces never refuses text.
        Err(JsonError::Write) => 1,
    }
}

/// The pose document of the animation named by the `name_len` bytes at `name` in the `len`
/// bytes at `ptr`, at `time` seconds (`gtastream sample --json`, written by the library), as
/// text pieces; 0, or 1 after reporting the error.
///
/// # Safety
/// `ptr` points to `len` readable bytes, `name` to `name_len`.
#[no_mangle]
pub unsafe extern "C" fn gts_sample_json(
    ptr: *const u8,
    len: usize,
    name: *const u8,
    name_len: usize,
    time: f32,
    looped: u32,
) -> u32 {
    let data = core::slice::from_raw_parts(ptr, len);
    let name = core::slice::from_raw_parts(name, name_len);
    let sampler = match gtastream::Sampler::<256>::new(data, name) {
        Ok(sampler) => sampler,
        Err(e) => {
            report_error(e);
            return 1;
        }
    };
    let mut out = Pieces(String::with_capacity(TEXT_PIECE));
    match json::write_pose(&mut out, &sampler, time, looped != 0) {
        Ok(()) => {
            out.flush();
            0
        }
        Err(JsonError::Decode(e)) => {
            report_error(e);
            1
        }
        Err(JsonError::Write) => 1,
    }
}

/// Each animation's summary (`dump --json`'s "summary", written by the library) of the `len`
/// bytes at `ptr`, as a JSON array handed to `text`; 0, or 1 after reporting the error.
///
/// # Safety
/// `ptr` points to `len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn gts_summaries_json(ptr: *const u8, len: usize) -> u32 {
    /// Writes each summary as it comes.
    struct List {
        out: Pieces,
        count: usize,
    }
    impl Visitor for List {
        fn animation_summary(&mut self, summary: &gtastream::AnimationSummary) -> Flow {
            use fmt::Write;
            let _ = self.out.write_str(if self.count == 0 { "[" } else { ", " });
            let _ = json::write_summary(&mut self.out, summary);
            self.count += 1;
            Flow::Continue
        }
    }
    let data = core::slice::from_raw_parts(ptr, len);
    let mut list = gtastream::Summarize::new(List {
        out: Pieces(String::with_capacity(TEXT_PIECE)),
        count: 0,
    });
    match Decoder::new().decode_slice(data, &mut list) {
        Ok(()) => {
            let list = &mut list.inner;
            let close = if list.count == 0 { "[]" } else { "]" };
            let _ = fmt::Write::write_str(&mut list.out, close);
            list.out.flush();
            0
        }
        Err(e) => {
            report_error(e);
            1
        }
    }
}

/// Bytes a decoder takes (the library's DECODER_SIZE).
#[no_mangle]
pub extern "C" fn gts_decoder_size() -> usize {
    DECODER_SIZE
}

/// The buffer `gts_feed` reads its input from, and its size.
#[no_mangle]
pub extern "C" fn gts_input() -> *mut u8 {
    INPUT.0.get().cast()
}

#[no_mangle]
pub extern "C" fn gts_input_size() -> usize {
    INPUT_SIZE
}

/// A new streaming decoder (DECODER_SIZE bytes of the module's memory).
#[no_mangle]
pub extern "C" fn gts_decoder_new(can_seek: u32) -> *mut Decoder {
    Box::into_raw(Box::new(Decoder::with_options(Options {
        can_seek: can_seek != 0,
        game: None,
    })))
}

/// # Safety
/// `decoder` comes from [`gts_decoder_new`] and is freed once.
#[no_mangle]
pub unsafe extern "C" fn gts_decoder_free(decoder: *mut Decoder) {
    drop(Box::from_raw(decoder));
}

/// Feeds the first `len` bytes of the input buffer, reporting the events (keyframes when
/// `keyframes` is not 0), then `progress`. Returns 0, or 1 after reporting the error (sticky,
/// as the library's).
///
/// # Safety
/// `decoder` comes from [`gts_decoder_new`]; `len` is at most the input buffer's size; no
/// other call of the module runs meanwhile.
#[no_mangle]
pub unsafe extern "C" fn gts_feed(decoder: *mut Decoder, len: usize, keyframes: u32) -> u32 {
    let input = &(&*INPUT.0.get())[..len.min(INPUT_SIZE)];
    let mut events = Events {
        keyframes: keyframes != 0,
    };
    report_feed((*decoder).feed(input, &mut Only::new(Search::Inside, "", &mut events)))
}

/// What a `feed` did, handed to `progress` (0), or its error to `error` (1).
fn report_feed(result: Result<Progress, Error>) -> u32 {
    match result {
        Ok(p) => {
            let (status, seek) = match p.status {
                Status::NeedInput => (0, 0.0),
                Status::Paused => (1, 0.0),
                Status::Done => (2, 0.0),
                Status::Seek(offset) => (3, offset as f64),
            };
            // SAFETY: the import takes numbers only.
            unsafe { progress(p.consumed, status, seek) };
            0
        }
        Err(e) => {
            report_error(e);
            1
        }
    }
}

/// Ends the input. Returns 0, or 1 after reporting the error.
///
/// # Safety
/// As [`gts_feed`].
#[no_mangle]
pub unsafe extern "C" fn gts_finish(decoder: *mut Decoder, keyframes: u32) -> u32 {
    let mut events = Events {
        keyframes: keyframes != 0,
    };
    match (*decoder).finish(&mut Only::new(Search::Inside, "", &mut events)) {
        Ok(()) => 0,
        Err(e) => {
            report_error(e);
            1
        }
    }
}

/// Absolute offset of the next byte the decoder wants.
///
/// # Safety
/// `decoder` comes from [`gts_decoder_new`].
#[no_mangle]
pub unsafe extern "C" fn gts_position(decoder: *const Decoder) -> f64 {
    (*decoder).position() as f64
}

/// The archive in memory: a VER2 `.img`, or a version 1 `.img` with its `.dir` (`has_dir`).
///
/// # Safety
/// Each pointer points to its length of readable bytes (`dir` only read when `has_dir`).
unsafe fn archive_of<'a>(
    img: *const u8,
    img_len: usize,
    dir: *const u8,
    dir_len: usize,
    has_dir: u32,
) -> (&'a [u8], &'a [u8], impl Fn() -> ArchiveDecoder) {
    let img = core::slice::from_raw_parts(img, img_len);
    let dir: &[u8] = if has_dir != 0 {
        core::slice::from_raw_parts(dir, dir_len)
    } else {
        &[]
    };
    let (version1, dir_len) = (has_dir != 0, dir.len() as u64);
    let decoder = move || {
        if version1 {
            ArchiveDecoder::version1(dir_len, img_len as u64)
        } else {
            ArchiveDecoder::new(img_len as u64)
        }
    };
    (dir, img, decoder)
}

/// Writes `value` as a JSON string, one character per byte (Latin-1), escaped as the
/// command-line tool escapes it.
fn json_string(out: &mut Pieces, value: &[u8]) {
    let mut text = String::with_capacity(value.len() + 2);
    text.push('"');
    for c in value.iter().map(|&b| char::from(b)) {
        match c {
            '"' => text.push_str("\\\""),
            '\\' => text.push_str("\\\\"),
            c if c.is_control() => {
                let _ = fmt::Write::write_fmt(&mut text, format_args!("\\u{:04x}", u32::from(c)));
            }
            c => text.push(c),
        }
    }
    text.push('"');
    let _ = fmt::Write::write_str(out, &text);
}

/// The listing of `gtastream ls --json`, laid out as the tool lays it out.
struct Listing {
    out: Pieces,
    entries: u32,
}

impl Listing {
    fn archive(&mut self, info: &ArchiveInfo) {
        let _ = fmt::Write::write_fmt(
            &mut self.out,
            format_args!(
                "{{\n  \"format\": \"{}\",\n  \"entries\": [",
                info.version.name()
            ),
        );
    }

    fn entry(&mut self, entry: &Entry<'_>, img: Option<&[u8]>) {
        let out = &mut self.out;
        let separator = if self.entries == 0 { "" } else { "," };
        let _ = fmt::Write::write_fmt(out, format_args!("{separator}\n    {{\"name\": "));
        json_string(out, entry.name);
        let _ = fmt::Write::write_fmt(
            out,
            format_args!(
                ", \"offset\": {}, \"size\": {}, \"format\": ",
                entry.offset, entry.size
            ),
        );
        let _ = match entry.format {
            Some(format) => fmt::Write::write_fmt(out, format_args!("\"{}\"", format.name())),
            None => fmt::Write::write_str(out, "null"),
        };
        // A model's counts, when the listing has the `.img` (as `gtastream ls --json`).
        if let (Some(gtastream::Format::Dff), Some(img)) = (entry.format, img) {
            let _ = fmt::Write::write_str(out, ", \"model\": ");
            let _ = match gtastream::model::ModelCounts::read(entry_bytes(img, entry)) {
                Ok(counts) => counts.write_json(out),
                Err(_) => fmt::Write::write_str(out, "null"),
            };
        }
        let _ = fmt::Write::write_str(out, "}");
        self.entries += 1;
    }

    fn end(mut self) {
        let close = if self.entries == 0 {
            "]\n}\n"
        } else {
            "\n  ]\n}\n"
        };
        let _ = fmt::Write::write_str(&mut self.out, close);
        self.out.flush();
    }
}

/// What a listing takes: the archive, then each entry.
trait Lister {
    fn archive(&mut self, info: &ArchiveInfo);
    /// An entry; `img`: the whole `.img`, when the listing has it.
    fn entry(&mut self, entry: &Entry<'_>, img: Option<&[u8]>);
}

impl Lister for Listing {
    fn archive(&mut self, info: &ArchiveInfo) {
        Listing::archive(self, info);
    }
    fn entry(&mut self, entry: &Entry<'_>, img: Option<&[u8]>) {
        Listing::entry(self, entry, img);
    }
}

impl Lister for document::Listing {
    fn archive(&mut self, info: &ArchiveInfo) {
        document::Listing::archive(self, info);
    }
    fn entry(&mut self, entry: &Entry<'_>, _: Option<&[u8]>) {
        document::Listing::entry(self, entry);
    }
}

/// An entry's bytes in the whole `.img` (cut at its end).
fn entry_bytes<'a>(img: &'a [u8], entry: &Entry<'_>) -> &'a [u8] {
    let start = (entry.offset as usize).min(img.len());
    let end = (entry.offset.saturating_add(entry.size) as usize).min(img.len());
    &img[start..end]
}

/// Bytes before the directory records of a VER2 archive (`VER2`, the entry count).
const HEADER_SIZE: u64 = 8;

/// Where an entry search stands.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Search {
    /// Listing: every entry is skipped.
    Listing,
    Looking,
    /// Events go to `inner` (from the start for a file decoded on its own).
    Inside,
    Done(Result<(), Error>),
}

/// The one visitor every decoder of the module reports to, so that the module holds one copy
/// of the decoder's code however many uses it has: passes on the events of the entry named `wanted`
/// (ASCII case ignored, names read one character per byte, as `gtastream dump ARCHIVE:ENTRY`
/// matches them), or of the whole file, or lists the archive.
struct Only<'a> {
    wanted: &'a str,
    inner: &'a mut dyn Visitor,
    search: Search,
    listing: Option<&'a mut dyn Lister>,
    /// The whole `.img` when the listing has it: text entries' formats are settled from it as
    /// the command-line tool settles them (`archive::decoded_format`).
    img: Option<&'a [u8]>,
    /// Where the directory ends (the offset of a "no such entry" error).
    directory_end: u64,
}

impl<'a> Only<'a> {
    fn new(search: Search, wanted: &'a str, inner: &'a mut dyn Visitor) -> Self {
        Only {
            wanted,
            inner,
            search,
            listing: None,
            img: None,
            directory_end: 0,
        }
    }

    fn inner(&mut self) -> Option<&mut dyn Visitor> {
        (self.search == Search::Inside).then_some(&mut *self.inner)
    }
}

// Every event goes on to the inner visitor while it is wanted (the core's one list of them).
gtastream::forward_visitor!(['a] Only<'a>, |this| this.inner());

impl ArchiveVisitor for Only<'_> {
    fn archive(&mut self, info: &ArchiveInfo) -> Flow {
        let header = match info.version {
            ArchiveVersion::V2 => HEADER_SIZE,
            ArchiveVersion::V1 => 0,
        };
        self.directory_end = header + u64::from(info.entry_count) * RECORD_SIZE;
        if let Some(listing) = self.listing.as_mut() {
            listing.archive(info);
        }
        Flow::Continue
    }

    fn entry(&mut self, entry: &Entry<'_>) -> Choice {
        if let Some(listing) = self.listing.as_mut() {
            let mut entry = *entry;
            if let (Some(gtastream::Format::IplText), Some(img)) = (entry.format, self.img) {
                let bytes = entry_bytes(img, &entry);
                let head = &bytes[..bytes.len().min(gtastream::archive::FORMAT_HEAD_SIZE)];
                entry.format = gtastream::archive::decoded_format(head, head.len() == bytes.len());
            }
            listing.entry(&entry, self.img);
            return Choice::Skip;
        }
        let same = entry.name.len() == self.wanted.chars().count()
            && entry
                .name
                .iter()
                .zip(self.wanted.chars())
                .all(|(&b, c)| char::from(b).eq_ignore_ascii_case(&c));
        if self.search == Search::Looking && same {
            self.search = Search::Inside;
            Choice::Decode
        } else {
            Choice::Skip
        }
    }

    fn entry_end(&mut self, result: Result<(), Error>) -> Flow {
        self.search = Search::Done(result);
        // The entry is all that was wanted: the rest of the directory is not read.
        Flow::Abort
    }
}

/// Takes no events (a listing reports none).
struct NoEvents;

impl Visitor for NoEvents {}

/// The entry listing of an archive (`gtastream ls --json`), handed to `text`. Returns 0, or 1
/// after reporting the error to `error` (the text is then to be dropped).
///
/// # Safety
/// As [`archive_of`].
#[no_mangle]
pub unsafe extern "C" fn gts_ls(
    img: *const u8,
    img_len: usize,
    dir: *const u8,
    dir_len: usize,
    has_dir: u32,
) -> u32 {
    let (dir, img, decoder) = archive_of(img, img_len, dir, dir_len, has_dir);
    let mut listing = Listing {
        out: Pieces(String::with_capacity(TEXT_PIECE)),
        entries: 0,
    };
    let mut none = NoEvents;
    let mut only = Only::new(Search::Listing, "", &mut none);
    only.listing = Some(&mut listing);
    only.img = Some(img);
    if let Err(e) = decoder().decode_slices(dir, img, &mut only) {
        report_error(e);
        return 1;
    }
    listing.end();
    0
}

/// Why an entry's document could not be written.
enum EntryError {
    /// The archive did not decode.
    Decode(Error),
    /// The entry did not decode: where, as for a file of its own (offsets from its start).
    Entry(Box<gtastream::context::Failure>),
    NotFound(u64),
}

/// Decodes the archive's entry named `wanted` into `events`.
fn find_entry(
    dir: &[u8],
    img: &[u8],
    decoder: &impl Fn() -> ArchiveDecoder,
    wanted: &str,
    events: &mut dyn Visitor,
) -> Result<(), EntryError> {
    let mut tracked = gtastream::context::Tracked::new(events);
    let mut only = Only::new(Search::Looking, wanted, &mut tracked);
    let archive = decoder().decode_slices(dir, img, &mut only);
    let (search, directory_end) = (only.search, only.directory_end);
    match (search, archive) {
        (Search::Done(result), _) => {
            result.map_err(|e| EntryError::Entry(Box::new(tracked.failure(e))))
        }
        (_, Err(e)) => Err(EntryError::Decode(e)),
        (_, Ok(())) => Err(EntryError::NotFound(directory_end)),
    }
}

fn report_entry_error(e: EntryError, wanted: &str) {
    match e {
        EntryError::Decode(e) => report_error(e),
        EntryError::Entry(f) => {
            report_failure(&f);
        }
        EntryError::NotFound(offset) => {
            let kind = "no_such_entry";
            let mut reason = String::from("no entry named \"");
            reason.push_str(wanted);
            reason.push('"');
            // SAFETY: the import reads the two strings during the call.
            unsafe {
                error(
                    kind.as_ptr(),
                    kind.len(),
                    reason.as_ptr(),
                    reason.len(),
                    offset as f64,
                )
            };
        }
    }
}

/// The JSON document of the archive's entry named by the `name_len` bytes (UTF-8) at `name`
/// (`gtastream dump --json ARCHIVE:ENTRY`), handed to `text`. Returns 0, or 1 after reporting
/// the error to `error` (an entry that is not there: kind `no_such_entry`).
///
/// # Safety
/// As [`archive_of`]; `name` points to `name_len` bytes of UTF-8.
#[no_mangle]
pub unsafe extern "C" fn gts_entry_json(
    img: *const u8,
    img_len: usize,
    dir: *const u8,
    dir_len: usize,
    has_dir: u32,
    name: *const u8,
    name_len: usize,
) -> u32 {
    let (dir, img, decoder) = archive_of(img, img_len, dir, dir_len, has_dir);
    let wanted = core::str::from_utf8(core::slice::from_raw_parts(name, name_len)).unwrap_or("");
    let mut out = Pieces(String::with_capacity(TEXT_PIECE));
    // Each pass reads the archive again and decodes the entry again.
    let result = json::write(&mut out, |pass| {
        find_entry(dir, img, &decoder, wanted, pass)
    });
    match result {
        Ok(()) => {
            out.flush();
            0
        }
        Err(JsonError::Decode(EntryError::Decode(e))) => {
            report_error(e);
            1
        }
        Err(JsonError::Decode(e)) => {
            report_entry_error(e, wanted);
            1
        }
        Err(JsonError::Write) => 1,
    }
}

/// Hands a finished document over to `document`.
fn hand_over(doc: document::Document) {
    let (records, names) = doc.finish();
    // SAFETY: the import copies the buffers during the call.
    unsafe { document(records.as_ptr(), records.len(), names.as_ptr(), names.len()) };
}

/// The document of the archive's entry named by the `name_len` bytes (UTF-8) at `name`, in
/// buffers as [`document::gts_document_finish`] gives them. Returns 0, or 1 after reporting the
/// error.
///
/// # Safety
/// As [`gts_entry_json`].
#[no_mangle]
pub unsafe extern "C" fn gts_entry_document(
    img: *const u8,
    img_len: usize,
    dir: *const u8,
    dir_len: usize,
    has_dir: u32,
    name: *const u8,
    name_len: usize,
    raw: u32,
) -> u32 {
    let (dir, img, decoder) = archive_of(img, img_len, dir, dir_len, has_dir);
    let wanted = core::str::from_utf8(core::slice::from_raw_parts(name, name_len)).unwrap_or("");
    let mut doc = document::Document::new(raw != 0);
    if let Err(e) = find_entry(dir, img, &decoder, wanted, &mut doc) {
        report_entry_error(e, wanted);
        return 1;
    }
    hand_over(doc);
    0
}

/// An archive listed as it is read (`gts_listing_*`): the library's push decoder, fed the
/// bytes it asks for, and the listing it fills.
pub struct ListingStream {
    decoder: ArchiveDecoder,
    listing: document::Listing,
}

/// A listing of an archive read in pieces: a VER2 `.img` of `img_len` bytes, or (`version1`) a
/// `.dir` of `dir_len` bytes and its `.img`. Ask `gts_listing_input`, `_position` and
/// `_wanted` what to feed next.
#[no_mangle]
pub extern "C" fn gts_listing_new(version1: u32, dir_len: f64, img_len: f64) -> *mut ListingStream {
    let decoder = if version1 != 0 {
        ArchiveDecoder::version1(dir_len as u64, img_len as u64)
    } else {
        ArchiveDecoder::new(img_len as u64)
    };
    Box::into_raw(Box::new(ListingStream {
        decoder,
        listing: document::Listing::default(),
    }))
}

/// # Safety
/// `stream` comes from [`gts_listing_new`] and is freed once.
#[no_mangle]
pub unsafe extern "C" fn gts_listing_free(stream: *mut ListingStream) {
    drop(Box::from_raw(stream));
}

/// The file the next bytes come from: 0 the `.dir`, 1 the `.img`.
///
/// # Safety
/// `stream` comes from [`gts_listing_new`].
#[no_mangle]
pub unsafe extern "C" fn gts_listing_input(stream: *const ListingStream) -> u32 {
    u32::from((*stream).decoder.input() == gtastream::archive::Input::Data)
}

/// Offset in that file of the next byte wanted.
///
/// # Safety
/// As [`gts_listing_input`].
#[no_mangle]
pub unsafe extern "C" fn gts_listing_position(stream: *const ListingStream) -> f64 {
    (*stream).decoder.position() as f64
}

/// At most how many bytes from the position are of use (-1: no bound).
///
/// # Safety
/// As [`gts_listing_input`].
#[no_mangle]
pub unsafe extern "C" fn gts_listing_wanted(stream: *const ListingStream) -> f64 {
    (*stream).decoder.wanted().map_or(-1.0, |w| w as f64)
}

/// Feeds the first `len` bytes of the input buffer, then reports `progress`. Returns 0, or 1
/// after reporting the error.
///
/// # Safety
/// As [`gts_listing_input`]; `len` is at most the input buffer's size.
#[no_mangle]
pub unsafe extern "C" fn gts_listing_feed(stream: *mut ListingStream, len: usize) -> u32 {
    let stream = &mut *stream;
    let input = &(&*INPUT.0.get())[..len.min(INPUT_SIZE)];
    let mut none = NoEvents;
    let mut only = Only::new(Search::Listing, "", &mut none);
    only.listing = Some(&mut stream.listing);
    report_feed(stream.decoder.feed(input, &mut only))
}

/// Ends the input and hands the listing to `document`. Returns 0, or 1 after reporting the
/// error.
///
/// # Safety
/// As [`gts_listing_input`].
#[no_mangle]
pub unsafe extern "C" fn gts_listing_finish(stream: *mut ListingStream) -> u32 {
    let stream = &mut *stream;
    let mut none = NoEvents;
    let mut only = Only::new(Search::Listing, "", &mut none);
    only.listing = Some(&mut stream.listing);
    if let Err(e) = stream.decoder.finish(&mut only) {
        report_error(e);
        return 1;
    }
    let (records, names) = (&stream.listing.records, &stream.listing.names);
    // SAFETY: the import copies the buffers during the call.
    document(records.as_ptr(), records.len(), names.as_ptr(), names.len());
    0
}

/// Converts the `len` bytes at `ptr` to the format named by the `format_len` bytes at `format`
/// (the library's name of a format it writes, any case: ANP3, ANP2, ANPK, bnry, text), the
/// decoder's events straight into the library's encoder, as `gtastream convert` does; the bytes
/// go to `output` (stored units kept unless `normalise`, docs/FORMATS.md §9.7). Returns 0; 1
/// after reporting a decoding error to `error` or an encoding one to `encode_error`; 2 when the
/// name is not of a format the library writes.
///
/// # Safety
/// Each pointer points to its length of readable bytes.
#[no_mangle]
pub unsafe extern "C" fn gts_convert(
    ptr: *const u8,
    len: usize,
    format: *const u8,
    format_len: usize,
    quantize: u32,
    normalise: u32,
) -> u32 {
    use gtastream::encode::{EncodeOptions, Encoder, Lookahead};
    use gtastream::{ErrorKind, Format};
    let data = core::slice::from_raw_parts(ptr, len);
    let name = core::slice::from_raw_parts(format, format_len);
    let Some(format) = Format::named(name).filter(|f| f.is_writable()) else {
        return 2;
    };
    let report = report_encode_error;
    let options = EncodeOptions::quantize(quantize != 0).with_normalise(normalise != 0);
    let mut encoder = match Encoder::new(format, Vec::new(), options) {
        Ok(encoder) => encoder,
        Err(e) => return report(e),
    };
    // The same bytes read a second time, one bone ahead, as the command does.
    let decoded = Decoder::new().decode_slice(data, &mut Lookahead::new(&mut encoder, data));
    match decoded {
        Err(e) if e.kind == ErrorKind::Aborted && encoder.error().is_some() => {}
        Err(e) => {
            report_error(e);
            return 1;
        }
        Ok(()) => {}
    }
    if !encoder.is_finished() {
        return report(
            encoder
                .error()
                .unwrap_or(gtastream::encode::EncodeError::OutOfOrder),
        );
    }
    let bytes = encoder.into_sink();
    output(bytes.as_ptr(), bytes.len());
    0
}

/// Reports an encoding error to `encode_error`: its kind's name and its message. Returns 1.
fn report_encode_error(e: gtastream::encode::EncodeError) -> u32 {
    let (kind, message) = (e.kind().name(), alloc::format!("{e}"));
    // SAFETY: the import reads the two strings during the call.
    unsafe { encode_error(kind.as_ptr(), kind.len(), message.as_ptr(), message.len()) };
    1
}

/// The allocator std would use on this target, without the rest of std (smaller module).
#[global_allocator]
static ALLOCATOR: dlmalloc::GlobalDlmalloc = dlmalloc::GlobalDlmalloc;

/// Nothing in the module panics on purpose; should it, the call traps and the loader reports
/// the trap as a JavaScript error.
#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    core::arch::wasm32::unreachable()
}

/// The `check` document (`gtastream check --json`) of the `len` bytes at `ptr`, a file or a
/// version 2 archive, or (`has_dir`) the `.img` of a version 1 archive whose `.dir` is the
/// `dir_len` bytes at `dir`; named by the `name_len` bytes (UTF-8) at `name`, for the `games`
/// (bits: III 1, VC 2, SA 4, MTA 8; 0 for the games the file is for), handed to `text`.
/// Always 0: a file that does not decode is a finding.
///
/// # Safety
/// `ptr` points to `len` readable bytes, `dir` to `dir_len` (when `has_dir`), `name` to
/// `name_len` bytes of UTF-8.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn gts_check_json(
    ptr: *const u8,
    len: usize,
    dir: *const u8,
    dir_len: usize,
    has_dir: u32,
    name: *const u8,
    name_len: usize,
    games: u32,
) -> u32 {
    use gtastream::check::json::{write_document, write_v1_document};
    use gtastream::check::Games;
    let data = core::slice::from_raw_parts(ptr, len);
    let dir = (has_dir != 0).then(|| core::slice::from_raw_parts(dir, dir_len));
    let name = core::str::from_utf8(core::slice::from_raw_parts(name, name_len)).unwrap_or("");
    let games = match games {
        0 => None,
        bits => Some(Games::from_bits(bits as u8)),
    };
    let mut out = Pieces(String::with_capacity(TEXT_PIECE));
    // Pieces never refuses text.
    let _ = match dir {
        Some(dir) => write_v1_document(&mut out, dir, data, name, games),
        None => write_document(&mut out, data, name, games),
    };
    out.flush();
    0
}

/// Bytes of the new `.img` handed to `output` at a time (`gts_archive_*`).
const OUTPUT_PIECE: usize = 1 << 20;

/// The new `.img` as the archive writer writes it: its first `head_len` bytes (version 2's
/// header and directory, which the writer patches as entries end) kept here until the end,
/// the rest handed to `output` in pieces. So the module holds the directory and one piece,
/// whatever the archive's size.
struct Streamed {
    head: Vec<u8>,
    head_len: usize,
    piece: Vec<u8>,
}

impl Streamed {
    fn flush(&mut self) {
        if !self.piece.is_empty() {
            // SAFETY: the import copies the bytes during the call.
            unsafe { output(self.piece.as_ptr(), self.piece.len()) };
            self.piece.clear();
        }
    }
}

impl gtastream::encode::Sink for Streamed {
    fn write(&mut self, bytes: &[u8]) -> Result<(), gtastream::encode::SinkError> {
        let take = (self.head_len - self.head.len()).min(bytes.len());
        self.head.extend_from_slice(&bytes[..take]);
        let rest = &bytes[take..];
        if self.piece.len() + rest.len() > OUTPUT_PIECE {
            self.flush();
        }
        self.piece.extend_from_slice(rest);
        Ok(())
    }

    fn patch(&mut self, offset: u64, bytes: &[u8]) -> Result<(), gtastream::encode::SinkError> {
        // The writer patches its directory only, which stays here.
        let at = usize::try_from(offset).map_err(|_| gtastream::encode::SinkError)?;
        self.head
            .get_mut(at..at.saturating_add(bytes.len()))
            .ok_or(gtastream::encode::SinkError)?
            .copy_from_slice(bytes);
        Ok(())
    }
}

/// The sinks of an archive being written: the `.img`, and a version 1 `.dir` (kept here).
struct ArchiveFiles<'a> {
    img: &'a mut Streamed,
    dir: Option<&'a mut Vec<u8>>,
}

impl gtastream::archive::ArchiveSink for ArchiveFiles<'_> {
    fn img(&mut self) -> &mut dyn gtastream::encode::Sink {
        self.img
    }
    fn dir(&mut self) -> Option<&mut dyn gtastream::encode::Sink> {
        match &mut self.dir {
            Some(dir) => Some(*dir),
            None => None,
        }
    }
}

/// An archive being written in memory (`gts_archive_*`): the library's edit plan carried out
/// through its archive writer, JavaScript feeding each entry's bytes as `gts_archive_next`
/// asks for them.
pub struct ArchiveOut {
    plan: EditPlan,
    /// The old archive's names, then the new entries' names.
    names: Vec<Vec<u8>>,
    old_count: usize,
    /// Entries of the plan begun so far.
    next: usize,
    /// Whether an entry is begun and not ended.
    open: bool,
    writer: ArchiveWriter,
    img: Streamed,
    dir: Option<Vec<u8>>,
    /// entries, kept, replaced, added, removed, img_len (set by `gts_archive_finish`).
    report: [f64; 6],
}

/// The sinks of `img` and `dir` (two fields of an [`ArchiveOut`], borrowed apart from its
/// writer).
fn files<'a>(img: &'a mut Streamed, dir: &'a mut Option<Vec<u8>>) -> ArchiveFiles<'a> {
    ArchiveFiles {
        img,
        dir: dir.as_mut(),
    }
}

impl ArchiveOut {
    /// Ends the entry begun, if any.
    fn end_entry(&mut self) -> Result<(), ArchiveWriteError> {
        if !core::mem::take(&mut self.open) {
            return Ok(());
        }
        self.writer
            .end_entry(&mut files(&mut self.img, &mut self.dir))
    }
}

/// Reports an error of the archive writer (or of its plan) to `archive_error`.
fn report_archive_error(kind: &str, message: &str, index: usize, entry: &[u8]) {
    // SAFETY: the import reads the strings during the call.
    unsafe {
        archive_error(
            kind.as_ptr(),
            kind.len(),
            message.as_ptr(),
            message.len(),
            index as u32,
            entry.as_ptr(),
            entry.len(),
        )
    };
}

fn report_write_error(e: ArchiveWriteError) -> u32 {
    let message = alloc::format!("{e}");
    report_archive_error(e.kind.name(), &message, e.index as usize, e.name());
    1
}

/// An archive to write in memory: version 1 (`version1`: a `.img` and a `.dir`) or 2, of the
/// edit `op` (0 a new archive of the given entries, 1 add them to the old archive, 2 remove
/// the entries of the given names, 3 rebuild), planned by the library from the old archive's
/// `old_count` names then the `new_count` given ones: `count` names, their lengths at `lens`,
/// their bytes one after the other at `names`. Null after reporting a refusal (a name the
/// games do not read, a name given twice, a name to remove that is not there) to
/// `archive_error`.
///
/// # Safety
/// `lens` points to `old_count + new_count` u32s, `names` to the sum of their bytes.
#[no_mangle]
pub unsafe extern "C" fn gts_archive_new(
    version1: u32,
    op: u32,
    names: *const u8,
    lens: *const u32,
    old_count: usize,
    new_count: usize,
) -> *mut ArchiveOut {
    let lens = core::slice::from_raw_parts(lens, old_count + new_count);
    let mut at = names;
    let names: Vec<Vec<u8>> = lens
        .iter()
        .map(|&len| {
            let name = core::slice::from_raw_parts(at, len as usize).to_vec();
            at = at.add(len as usize);
            name
        })
        .collect();
    let (old, new) = names.split_at(old_count);
    let plan = match op {
        0 => EditPlan::create(new),
        1 => EditPlan::add(old, new),
        2 => EditPlan::remove(old, new),
        _ => Ok(EditPlan::rebuild(old_count)),
    };
    let plan = match plan {
        Ok(plan) => plan,
        Err(PlanError::Name(e)) => {
            report_write_error(e);
            return core::ptr::null_mut();
        }
        Err(PlanError::NoSuchEntry(i)) => {
            let mut message = String::from("no entry named ");
            message.extend(new[i].iter().map(|&b| char::from(b)));
            report_archive_error("no_such_entry", &message, i, &new[i]);
            return core::ptr::null_mut();
        }
    };
    let version = if version1 != 0 {
        ArchiveVersion::V1
    } else {
        ArchiveVersion::V2
    };
    let capacity = plan.entries.len() as u32;
    Box::into_raw(Box::new(ArchiveOut {
        plan,
        names,
        old_count,
        next: 0,
        open: false,
        writer: ArchiveWriter::new(version, capacity),
        img: Streamed {
            head: Vec::new(),
            head_len: usize::try_from(ArchiveWriter::data_start(version, capacity))
                .unwrap_or(usize::MAX),
            piece: Vec::with_capacity(OUTPUT_PIECE),
        },
        dir: (version1 != 0).then(Vec::new),
        report: [0.0; 6],
    }))
}

/// # Safety
/// `out` comes from [`gts_archive_new`] and is freed once.
#[no_mangle]
pub unsafe extern "C" fn gts_archive_free(out: *mut ArchiveOut) {
    drop(Box::from_raw(out));
}

/// Ends the entry begun (if any) and begins the plan's next one. Returns 0 when every entry
/// has been written (call `gts_archive_finish`), 1 for an entry of the old archive and 2 for
/// a new one (its index: `gts_archive_source`), whose bytes are then fed with
/// `gts_archive_write`; 3 after reporting the error to `archive_error`.
///
/// # Safety
/// `out` comes from [`gts_archive_new`].
#[no_mangle]
pub unsafe extern "C" fn gts_archive_next(out: *mut ArchiveOut) -> u32 {
    let out = &mut *out;
    if let Err(e) = out.end_entry() {
        return 2 + report_write_error(e);
    }
    let Some(&source) = out.plan.entries.get(out.next) else {
        return 0;
    };
    out.next += 1;
    out.open = true;
    let mut files = files(&mut out.img, &mut out.dir);
    let (code, result) = match source {
        Source::Old(i) => (
            1,
            out.writer.begin_existing_entry(&mut files, &out.names[i]),
        ),
        Source::New(k) => {
            let name = &out.names[out.old_count + k];
            (2, out.writer.begin_entry(&mut files, name))
        }
    };
    match result {
        Ok(()) => code,
        Err(e) => 2 + report_write_error(e),
    }
}

/// Index of the entry `gts_archive_next` began: in the old archive's directory, or among the
/// new entries.
///
/// # Safety
/// `out` comes from [`gts_archive_new`].
#[no_mangle]
pub unsafe extern "C" fn gts_archive_source(out: *const ArchiveOut) -> usize {
    let out = &*out;
    match out.next.checked_sub(1).map(|i| out.plan.entries[i]) {
        Some(Source::Old(i) | Source::New(i)) => i,
        None => 0,
    }
}

/// Appends the first `len` bytes of the input buffer to the entry begun. Returns 0, or 1
/// after reporting the error.
///
/// # Safety
/// As [`gts_archive_source`]; `len` is at most the input buffer's size.
#[no_mangle]
pub unsafe extern "C" fn gts_archive_write(out: *mut ArchiveOut, len: usize) -> u32 {
    let out = &mut *out;
    let input = &(&*INPUT.0.get())[..len.min(INPUT_SIZE)];
    match out
        .writer
        .write(&mut files(&mut out.img, &mut out.dir), input)
    {
        Ok(()) => 0,
        Err(e) => report_write_error(e),
    }
}

/// Ends the last entry and the archive, and hands the rest of the `.img` after its head to
/// `output`. Returns 0 (the head, the `.dir` and the report are then ready), or 1 after
/// reporting the error.
///
/// # Safety
/// As [`gts_archive_source`].
#[no_mangle]
pub unsafe extern "C" fn gts_archive_finish(out: *mut ArchiveOut) -> u32 {
    let out = &mut *out;
    if out.next < out.plan.entries.len() {
        // An archive short of planned entries is not one to hand over.
        let kind = ArchiveWriteErrorKind::InvalidState;
        report_archive_error(kind.name(), kind.reason(), out.next, &[]);
        return 1;
    }
    if let Err(e) = out.end_entry() {
        return report_write_error(e);
    }
    let written = match out.writer.finish(&mut files(&mut out.img, &mut out.dir)) {
        Ok(written) => written,
        Err(e) => return report_write_error(e),
    };
    out.img.flush();
    let r = &out.plan.report;
    out.report = [
        f64::from(written.entries),
        f64::from(r.kept),
        f64::from(r.replaced),
        f64::from(r.added),
        f64::from(r.removed),
        written.img_len as f64,
    ];
    0
}

/// The head of the new `.img` (its first bytes, before those handed to `output`), once
/// finished.
///
/// # Safety
/// As [`gts_archive_source`].
#[no_mangle]
pub unsafe extern "C" fn gts_archive_head(out: *const ArchiveOut) -> *const u8 {
    (*out).img.head.as_ptr()
}

/// # Safety
/// As [`gts_archive_source`].
#[no_mangle]
pub unsafe extern "C" fn gts_archive_head_len(out: *const ArchiveOut) -> usize {
    (*out).img.head.len()
}

/// The `.dir` of a version 1 archive, once finished.
///
/// # Safety
/// As [`gts_archive_source`].
#[no_mangle]
pub unsafe extern "C" fn gts_archive_dir(out: *const ArchiveOut) -> *const u8 {
    (*out).dir.as_deref().unwrap_or_default().as_ptr()
}

/// # Safety
/// As [`gts_archive_source`].
#[no_mangle]
pub unsafe extern "C" fn gts_archive_dir_len(out: *const ArchiveOut) -> usize {
    (*out).dir.as_deref().map_or(0, <[u8]>::len)
}

/// The report, once finished: six f64s (entries, kept, replaced, added, removed, bytes of the
/// `.img`).
///
/// # Safety
/// As [`gts_archive_source`].
#[no_mangle]
pub unsafe extern "C" fn gts_archive_report(out: *const ArchiveOut) -> *const f64 {
    (*out).report.as_ptr()
}

/// The skeleton of the model (DFF) in the `len` bytes at `ptr`, or 1 after reporting why not
/// (a decoding error with its offset; another format or a model past the skeleton's bounds
/// as `not_model` / `skeleton_limit`).
fn model_skeleton(data: &[u8]) -> Result<Box<gtastream::rig::Skeleton>, u32> {
    use gtastream::rig::ReadError;
    match gtastream::rig::read_skeleton(data) {
        Ok(skeleton) => Ok(Box::new(skeleton)),
        Err(ReadError::Decode(e)) => {
            report_error(e);
            Err(1)
        }
        Err(other) => {
            let name = match other {
                ReadError::NotModel(_) => "not_model",
                _ => "skeleton_limit",
            };
            let reason = alloc::format!("{other}");
            // SAFETY: the import reads the two strings during the call.
            unsafe {
                error(
                    name.as_ptr(),
                    name.len(),
                    reason.as_ptr(),
                    reason.len(),
                    0.0,
                )
            };
            Err(1)
        }
    }
}

/// A game's binding by its number (1 III, 2 VC, 3 SA, 4 MTA; 0: the default for the files).
fn host(game: u32) -> Option<gtastream::rig::Host> {
    use gtastream::rig::Host;
    match game {
        1 => Some(Host::Iii),
        2 => Some(Host::ViceCity),
        3 => Some(Host::SanAndreas),
        4 => Some(Host::Mta),
        _ => None,
    }
}

/// The pose document on a model (`gtastream sample --skeleton MODEL`, written by the
/// library): the animation named by the `name_len` bytes at `name` in the `len` bytes at
/// `ptr`, at `time`, on the model in the `model_len` bytes at `model`, bound as `game`
/// binds (see [`host`]); 0, or 1 after reporting the error.
///
/// # Safety
/// Each pointer points to as many readable bytes as its length says.
#[no_mangle]
#[allow(clippy::too_many_arguments)] // the C ABI: one pointer and length per input
pub unsafe extern "C" fn gts_sample_skeleton_json(
    ptr: *const u8,
    len: usize,
    name: *const u8,
    name_len: usize,
    model: *const u8,
    model_len: usize,
    time: f32,
    looped: u32,
    game: u32,
) -> u32 {
    let data = core::slice::from_raw_parts(ptr, len);
    let name = core::slice::from_raw_parts(name, name_len);
    let skeleton = match model_skeleton(core::slice::from_raw_parts(model, model_len)) {
        Ok(skeleton) => skeleton,
        Err(rc) => return rc,
    };
    let mut out = Pieces(String::with_capacity(TEXT_PIECE));
    let written = json::write_pose_document_on(
        &mut out,
        data,
        name,
        &skeleton,
        host(game),
        time,
        looped != 0,
    );
    match written {
        Ok(()) => {
            out.flush();
            0
        }
        Err(JsonError::Decode(e)) => {
            report_error(e);
            1
        }
        Err(JsonError::Write) => 1,
    }
}

/// `gtastream check --json --skeleton MODEL NAME` (written by the library): the file in the
/// `len` bytes at `ptr`, named by the `name_len` bytes at `name`, for `games` (as
/// [`gts_check_json`]), its animations also against the model in the `model_len` bytes at
/// `model`; 0, or 1 after reporting why the model gives no skeleton.
///
/// # Safety
/// Each pointer points to as many readable bytes as its length says; `name` is UTF-8.
#[no_mangle]
pub unsafe extern "C" fn gts_check_skeleton_json(
    ptr: *const u8,
    len: usize,
    name: *const u8,
    name_len: usize,
    games: u32,
    model: *const u8,
    model_len: usize,
) -> u32 {
    use gtastream::check::{json::write_document_on, Games};
    let skeleton = match model_skeleton(core::slice::from_raw_parts(model, model_len)) {
        Ok(skeleton) => skeleton,
        Err(rc) => return rc,
    };
    let data = core::slice::from_raw_parts(ptr, len);
    let name = core::str::from_utf8(core::slice::from_raw_parts(name, name_len)).unwrap_or("");
    let games = match games {
        0 => None,
        bits => Some(Games::from_bits(bits as u8)),
    };
    let mut out = Pieces(String::with_capacity(TEXT_PIECE));
    // Pieces never refuses text.
    let _ = write_document_on(&mut out, data, name, games, Some(&skeleton));
    out.flush();
    0
}

/// The animations of the `len` bytes at `ptr` (an IFP or Stories file, or an archive entry's
/// bytes) as glTF 2.0 on the model in the `model_len` bytes at `model`, bound as `game` binds
/// (see [`host`]), as `gtastream convert --to glb|gltf --skeleton MODEL` writes them
/// (`gtastream::gltf::export`): the animations named in the `names_len` bytes at `names`
/// (each name followed by a NUL; none: all). The file (`glb`: binary, else `.gltf` JSON) goes
/// to `output`, then the report (`Export::report`, JSON) to `text`. Returns 0, or 1 after
/// reporting the error (`not_found`, at offset 0, for an animation the file lacks).
///
/// # Safety
/// Each pointer points to as many readable bytes as its length says; names are UTF-8.
#[no_mangle]
#[allow(clippy::too_many_arguments)] // the C ABI: one pointer and length per input
pub unsafe extern "C" fn gts_gltf(
    ptr: *const u8,
    len: usize,
    model: *const u8,
    model_len: usize,
    names: *const u8,
    names_len: usize,
    game: u32,
    glb: u32,
) -> u32 {
    use gtastream::gltf::export::{export, ExportError, Options};
    let skeleton = match model_skeleton(core::slice::from_raw_parts(model, model_len)) {
        Ok(skeleton) => skeleton,
        Err(rc) => return rc,
    };
    let names = core::slice::from_raw_parts(names, names_len);
    let animations = (names.split(|&b| b == 0))
        .filter(|n| !n.is_empty())
        .map(|n| String::from_utf8_lossy(n).into_owned())
        .collect();
    let options = Options {
        host: host(game),
        animations,
    };
    let data = core::slice::from_raw_parts(ptr, len);
    match export(data, &skeleton, &options) {
        Ok(export) => {
            let file = if glb != 0 {
                export.to_glb()
            } else {
                export.to_gltf()
            };
            output(file.as_ptr(), file.len());
            let report = alloc::string::ToString::to_string(&export.report());
            text(report.as_ptr(), report.len());
            0
        }
        Err(ExportError::Decode(e)) => {
            report_error(e);
            1
        }
        // As the sampler reports a name it lacks: `not_found` at offset 0, the name in the
        // message.
        Err(missing @ ExportError::NoAnimation(_)) => {
            let kind = gtastream::ErrorKind::NotFound;
            let (name, reason) = (kind.name(), kind.reason());
            let message = alloc::format!("{missing}");
            let none = f64::NAN;
            // SAFETY: the import reads the three strings during the call.
            failure(
                name.as_ptr(),
                name.len(),
                reason.as_ptr(),
                reason.len(),
                0.0,
                none,
                none,
                none,
                message.as_ptr(),
                message.len(),
            );
            1
        }
    }
}

/// A `.glb` or `.gltf` (buffers as data URIs: nothing beside it is read here) in the `len`
/// bytes at `ptr` written as the IFP format named by the `format_len` bytes at `format`
/// (anp3, anp2, anpk), as `gtastream convert --to FORMAT IN.glb OUT.ifp` writes it
/// (`gtastream::gltf::import`): the block named by the `block_len` bytes at `block`; the
/// animations named in the `names_len` bytes at `names` (each followed by a NUL; none: all);
/// nodes mapped by the model in the `model_len` bytes at `model` (0: none) and the bone map
/// text in the `map_len` bytes at `map` (0: none); keys resampled at `resample` a second (0:
/// kept), `quantize`d, checked for `games` (bits as [`gts_check_json`]; 0: every game that
/// loads the format), and with `report` each bone's largest difference. The file goes to
/// `output`, then `Imported::summary` (JSON) to `text`. Returns 0; 1 after reporting the
/// error to `encode_error` (the import's kind: `glb`, `json`, `key`, `unmapped`, `check`, ...)
/// or a model that is no skeleton to `error`; 2 when the format is not one it writes.
///
/// # Safety
/// Each pointer points to as many readable bytes as its length says; texts are UTF-8.
#[no_mangle]
#[allow(clippy::too_many_arguments)] // the C ABI: one pointer and length per input
pub unsafe extern "C" fn gts_from_gltf(
    ptr: *const u8,
    len: usize,
    format: *const u8,
    format_len: usize,
    block: *const u8,
    block_len: usize,
    names: *const u8,
    names_len: usize,
    model: *const u8,
    model_len: usize,
    map: *const u8,
    map_len: usize,
    resample: u32,
    quantize: u32,
    games: u32,
    report: u32,
) -> u32 {
    use gtastream::check::Games;
    use gtastream::gltf::import::{import, read, BoneMap, ImportError, ImportOptions};
    use gtastream::Format;
    let text_of = |p: *const u8, n: usize| {
        String::from_utf8_lossy(core::slice::from_raw_parts(p, n)).into_owned()
    };
    let Some(format) = Format::named(core::slice::from_raw_parts(format, format_len))
        .filter(|f| matches!(f, Format::Anp3 | Format::Anp2 | Format::Anpk))
    else {
        return 2;
    };
    let failed = |e: ImportError| {
        let (kind, message) = (e.kind.name(), alloc::format!("{e}"));
        // SAFETY: the import reads the two strings during the call.
        unsafe { encode_error(kind.as_ptr(), kind.len(), message.as_ptr(), message.len()) };
        1
    };
    let skeleton = match model_len {
        0 => None,
        n => match model_skeleton(core::slice::from_raw_parts(model, n)) {
            Ok(skeleton) => Some(skeleton),
            Err(rc) => return rc,
        },
    };
    let bone_map = match map_len {
        0 => None,
        n => match BoneMap::parse(&text_of(map, n)) {
            Ok(m) => Some(m),
            Err(e) => return failed(e),
        },
    };
    let data = core::slice::from_raw_parts(ptr, len);
    let mut beside = |uri: &str| {
        Err(alloc::format!(
            "`{uri}`: a buffer beside the file is not read here (give a .glb, or a .gltf with its buffers embedded)"
        ))
    };
    let gltf = match read(data, &mut beside) {
        Ok(gltf) => gltf,
        Err(e) => return failed(e),
    };
    let block = text_of(block, block_len);
    let mut options = ImportOptions::new(format, &block);
    options.animations = (core::slice::from_raw_parts(names, names_len).split(|&b| b == 0))
        .filter(|n| !n.is_empty())
        .map(|n| String::from_utf8_lossy(n).into_owned())
        .collect();
    options.skeleton = skeleton.as_deref();
    options.bone_map = bone_map.as_ref();
    options.resample = (resample != 0).then_some(resample);
    options.quantize = quantize != 0;
    options.games = (games != 0).then(|| Games::from_bits(games as u8));
    options.report = report != 0;
    match import(&gltf, &options) {
        Ok(imported) => {
            output(imported.bytes.as_ptr(), imported.bytes.len());
            let summary = alloc::string::ToString::to_string(&imported.summary());
            text(summary.as_ptr(), summary.len());
            0
        }
        Err(e) => failed(e),
    }
}

/// Bytes of an entry's start that [`gts_text_format`] reads.
#[no_mangle]
pub extern "C" fn gts_format_head_size() -> u32 {
    gtastream::archive::FORMAT_HEAD_SIZE as u32
}

/// The format of an entry of text (listed as `text`) that starts with the `len` bytes at
/// `ptr`, as the decoder reads it (`whole`: the entry ends there): its name (`text`, `ide`)
/// handed to `text` and 1, or 0 for text the decoder does not read (a readme). The listing
/// read in pieces settles its text entries with this, as the command-line tool does.
///
/// # Safety
/// `ptr` points to `len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn gts_text_format(ptr: *const u8, len: usize, whole: u32) -> u32 {
    let head = core::slice::from_raw_parts(ptr, len);
    match gtastream::archive::decoded_format(head, whole != 0) {
        Some(format) => {
            let name = format.name();
            text(name.as_ptr(), name.len());
            1
        }
        None => 0,
    }
}

/// The counts of the model in the `len` bytes at `ptr` (a whole DFF entry), as an archive
/// listing gives them (`"model"` of `gtastream ls --json`), handed to `text`; `null` when it
/// cannot be read. The listing read in pieces adds them with this.
///
/// # Safety
/// `ptr` points to `len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn gts_model_counts_json(ptr: *const u8, len: usize) -> u32 {
    let bytes = core::slice::from_raw_parts(ptr, len);
    let mut out = Pieces(String::with_capacity(256));
    let _ = match gtastream::model::ModelCounts::read(bytes) {
        Ok(counts) => counts.write_json(&mut out),
        Err(_) => fmt::Write::write_str(&mut out, "null"),
    };
    out.flush();
    0
}

/// A file of the folder JavaScript serves, closed when dropped.
struct HostFile(i32);

impl Drop for HostFile {
    fn drop(&mut self) {
        // SAFETY: a plain call; the handle is JavaScript's.
        unsafe { folder_close(self.0) }
    }
}

/// Why JavaScript could not read a file: its own message.
struct HostError(String);

impl fmt::Display for HostError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl HostError {
    /// The message of the read that just failed.
    fn last() -> HostError {
        let mut why = [0u8; 256];
        // SAFETY: the import writes at most `why.len()` bytes into it.
        let len = unsafe { folder_why(why.as_mut_ptr(), why.len()) }.min(why.len());
        HostError(String::from_utf8_lossy(&why[..len]).into_owned())
    }
}

/// The folder's files, through the `folder_*` imports.
struct HostFolder;

impl gtastream::check::walk::ModFiles for HostFolder {
    type File = HostFile;
    type Error = HostError;

    fn open(&mut self, path: &[u8]) -> Option<HostFile> {
        // SAFETY: the import reads the path during the call.
        let handle = unsafe { folder_open(path.as_ptr(), path.len()) };
        (handle >= 0).then_some(HostFile(handle))
    }

    fn len(&mut self, file: &mut HostFile) -> Result<u64, HostError> {
        // SAFETY: a plain call.
        let len = unsafe { folder_len(file.0) };
        if len >= 0.0 {
            Ok(len as u64)
        } else {
            Err(HostError::last())
        }
    }

    fn read_at(
        &mut self,
        file: &mut HostFile,
        offset: u64,
        buf: &mut [u8],
    ) -> Result<usize, HostError> {
        // SAFETY: the import writes at most `buf.len()` bytes into it.
        let read = unsafe { folder_read_at(file.0, offset as f64, buf.as_mut_ptr(), buf.len()) };
        usize::try_from(read)
            .map(|n| n.min(buf.len()))
            .map_err(|_| HostError::last())
    }
}

/// `gtastream check --json DIR` (written by the library: `write_folder_document`) of the
/// folder JavaScript serves through the `folder_*` imports, named by the `name_len` bytes at
/// `name`, for `game` (1 III, 2 VC, 3 SA; 0: the game whose level file the folder has); the
/// document goes to `text`. Returns 0, or 1 after telling `folder_failed` why the folder
/// cannot be checked (the text handed over so far, if any, is then to be dropped).
///
/// # Safety
/// `name` points to `name_len` bytes of UTF-8.
#[no_mangle]
pub unsafe extern "C" fn gts_check_folder_json(name: *const u8, name_len: usize, game: u32) -> u32 {
    use gtastream::check::json::write_folder_document;
    use gtastream::Game;
    let name = core::str::from_utf8(core::slice::from_raw_parts(name, name_len)).unwrap_or("");
    let game = match game {
        1 => Some(Game::Iii),
        2 => Some(Game::ViceCity),
        3 => Some(Game::SanAndreas),
        _ => None,
    };
    let mut out = Pieces(String::with_capacity(TEXT_PIECE));
    match write_folder_document(&mut out, &mut HostFolder, name, game) {
        Ok(()) => {
            out.flush();
            0
        }
        Err(e) => {
            let message = alloc::format!("{e}");
            folder_failed(message.as_ptr(), message.len());
            1
        }
    }
}
