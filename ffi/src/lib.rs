//! The C ABI of gtastream: `libgtastream.a` / `libgtastream.so` (`gtastream.dll` on Windows) and
//! the header `include/gtastream.h`, which `build.rs` generates from this crate with cbindgen.
//!
//! The decoder lives in storage the caller owns (`gts_decoder`: on its stack, in static memory,
//! inside its own structs); the library never allocates. Every entry point checks its pointers
//! and the decoder's tag word, refuses calls made from inside the decoder's own callbacks, and
//! catches panics, so that no input and no misuse it can detect crashes the host.
//!
//! This crate holds the project's only `unsafe` code: the reads and writes of the caller's
//! storage (`handle`, the one machinery of every C object), the calls of the caller's callbacks
//! (`bridge`), and the pointer arguments below. Each block says why it is sound.
#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]
// Each exported function states its pointer requirements in C terms ("Pointers: ..."), which
// cbindgen copies into the header, instead of a Rust `# Safety` section.
#![allow(clippy::missing_safety_doc)]
#![warn(missing_docs)]
#![allow(non_camel_case_types)]

// `c_text!` (bridge) is used by the modules declared after it.
#[macro_use]
mod bridge;
mod archive;
mod archive_writer;
mod check;
mod encoder;
mod handle;
mod rig;
mod sample;
mod storage;
mod types;

#[cfg(test)]
mod tests;

use core::ffi::{c_char, c_int, c_void};
use core::mem::size_of;

use gtastream_core::{Decoder, Error, Status};

pub use crate::archive::*;
pub use crate::archive_writer::*;
use crate::bridge::{error_status, Bridge, STATUSES};
pub use crate::check::*;
pub use crate::encoder::*;
use crate::handle::{overlaps, status, Handle};
pub use crate::rig::*;
pub use crate::sample::*;
use crate::storage::{DecoderHandle, DecoderState, IoPending, NO_CALLBACKS, NO_IO_PENDING};
pub use crate::types::*;

/// A status number as the caller passes it in: any `int`, unlike a Rust `gts_status`, whose
/// invalid values would be undefined behaviour. The header calls it `gts_status` (cbindgen.toml
/// renames it).
type StatusArg = c_int;

// The header's name bound is the core's (which counts the NUL), and a text line, which holds a
// model name, is no longer.
const _: () = assert!(GTS_MAX_NAME + 1 == gtastream_core::MAX_NAME);
const _: () = assert!(gtastream_core::MAX_LINE <= GTS_MAX_NAME + 1);
/// A `gts_game` as the caller passes it in: any `int` (an invalid Rust enum value would be
/// undefined behaviour). The header calls it `gts_game` (cbindgen.toml renames it).
type GameArg = c_int;

/// The binary interface version of the library: equal to `GTS_ABI_VERSION` of the header it was
/// built with. A host that loads the shared library checks it against the header's.
#[no_mangle]
pub extern "C" fn gts_abi_version() -> u32 {
    GTS_ABI_VERSION
}

/// The library's version, e.g. "0.1.0": a static NUL-terminated string.
#[no_mangle]
pub extern "C" fn gts_version() -> *const c_char {
    const VERSION: &core::ffi::CStr = match core::ffi::CStr::from_bytes_with_nul(
        concat!(env!("CARGO_PKG_VERSION"), "\0").as_bytes(),
    ) {
        Ok(version) => version,
        Err(_) => panic!("the version contains a NUL"),
    };
    VERSION.as_ptr()
}

/// `sizeof(gts_decoder)` as the library knows it; a host can compare it with its own
/// `sizeof(gts_decoder)` (`gts_decoder_init` does).
#[no_mangle]
pub extern "C" fn gts_decoder_size() -> usize {
    size_of::<gts_decoder>()
}

/// Sets every callback of `*callbacks` to NULL (skip the event). Does nothing if `callbacks` is
/// NULL.
///
/// Pointers: `callbacks` is NULL or points to a writable `gts_callbacks`.
#[no_mangle]
pub unsafe extern "C" fn gts_callbacks_init(callbacks: *mut gts_callbacks) {
    if !callbacks.is_null() && callbacks.is_aligned() {
        // SAFETY: non-NULL, aligned and writable (the caller's contract). The old contents
        // (function pointers) need no drop.
        unsafe { callbacks.write(NO_CALLBACKS) };
    }
}

/// Sets up the decoder in `*decoder`, ready for the first byte of a file of any supported format
/// (sniffed from its magic). `size_of_decoder` must be `sizeof *decoder` (a check that the header
/// and the library agree). The callbacks are copied (`callbacks` may be NULL: no callbacks), and
/// `user` is passed to each of them. Calling it again on a decoder starts over with the new
/// callbacks. A decoder needs no cleanup.
///
/// Returns `GTS_OK`, `GTS_ERR_INVALID_ARGUMENT` (NULL or misaligned `decoder`),
/// `GTS_ERR_SIZE_MISMATCH` or `GTS_ERR_REENTRANT`.
///
/// Pointers: `decoder` is NULL or points to `size_of_decoder` writable bytes; `callbacks` is NULL or points
/// to a `gts_callbacks` whose non-NULL members are functions of the declared types.
#[no_mangle]
pub unsafe extern "C" fn gts_decoder_init(
    decoder: *mut gts_decoder,
    size_of_decoder: usize,
    callbacks: *const gts_callbacks,
    user: *mut c_void,
) -> gts_status {
    // SAFETY: `decoder` is NULL or points to `size_of_decoder` writable bytes (the caller's
    // contract).
    unsafe {
        Handle::init(decoder, size_of_decoder, || {
            let callbacks = if callbacks.is_null() {
                NO_CALLBACKS
            } else if !callbacks.is_aligned() {
                return Err(gts_status::GTS_ERR_INVALID_ARGUMENT);
            } else {
                // SAFETY: non-NULL, aligned, and a valid `gts_callbacks` (the caller's
                // contract); read before the decoder is written, in case the two overlap.
                callbacks.read()
            };
            Ok(DecoderState::new(callbacks, user))
        })
    }
}

/// Tells the decoder whether the caller can seek (the default: it can). A caller that cannot
/// calls this with `false` before the first feed; then a record behind the current position is
/// the error `GTS_ERR_SEEK_REQUIRED` naming its offset, instead of `GTS_SEEK`.
///
/// Returns `GTS_OK`, `GTS_ERR_INVALID_STATE` after the first feed (until `gts_decoder_reset`), or
/// the decoder checks' errors.
///
/// Pointers: `decoder` is NULL or points to a writable `gts_decoder`.
#[no_mangle]
pub unsafe extern "C" fn gts_decoder_set_seekable(
    decoder: *mut gts_decoder,
    seekable: bool,
) -> gts_status {
    // SAFETY: the caller's contract.
    let handle = unsafe { DecoderHandle::new(decoder) };
    status(handle.and_then(|h| h.configure(|d| d.set_seekable(seekable))))
}

/// Names the game a text IPL file is for, which fixes the layout of its `inst` lines:
/// `GTS_GAME_III` (12 fields), `GTS_GAME_VC` (13) or `GTS_GAME_SA` (11). The default,
/// `GTS_GAME_AUTO`, lets the file decide: the first `inst` line that has 11, 12 or 13 fields and
/// reads whole in that layout. Call it before the first feed; `gts_decoder_reset` keeps it.
/// Other formats ignore it.
///
/// Returns `GTS_OK`, `GTS_ERR_INVALID_ARGUMENT` for a value that is no `gts_game`,
/// `GTS_ERR_INVALID_STATE` after the first feed (until `gts_decoder_reset`), or the decoder
/// checks' errors.
///
/// Pointers: `decoder` is NULL or points to a writable `gts_decoder`.
#[no_mangle]
pub unsafe extern "C" fn gts_decoder_set_game(
    decoder: *mut gts_decoder,
    game: GameArg,
) -> gts_status {
    // SAFETY: the caller's contract.
    let handle = match unsafe { DecoderHandle::new(decoder) } {
        Ok(handle) => handle,
        Err(status) => return status,
    };
    let Ok(game @ 0..=3) = u8::try_from(game) else {
        return gts_status::GTS_ERR_INVALID_ARGUMENT;
    };
    status(handle.configure(|d| d.set_game(game)))
}

/// Decodes `len` bytes at `data`, the next bytes of the file (the whole file, or any piece of
/// it down to one byte), calling the callbacks. `*consumed` gets the bytes used.
///
/// Returns:
/// - `GTS_OK`: all `len` bytes were used; feed the next ones (or finish at the end of input);
/// - `GTS_PAUSED`: a callback paused; `*consumed` bytes were used: feed from
///   `data + *consumed` to resume exactly there;
/// - `GTS_DONE`: the content is complete (later bytes are trailing data): call
///   `gts_decoder_finish`;
/// - `GTS_SEEK`: the next record lies behind: drop the rest of this chunk and feed from the
///   absolute offset `gts_decoder_position(decoder)` on;
/// - an error (sticky: every later feed returns it until reset); `*consumed` is then 0 and
///   `gts_decoder_error_offset` says where in the file it failed.
///
/// The decoder keeps no pointer into `data`: the caller may reuse the buffer once this returns.
/// `consumed` may be NULL for a caller that never pauses.
///
/// Pointers: `decoder` is NULL or points to a writable `gts_decoder`; `data` is NULL or points to `len`
/// readable bytes that do not change during the call; `consumed` is NULL or points to a writable
/// `size_t`. The callbacks are called on this thread, before this returns.
#[no_mangle]
pub unsafe extern "C" fn gts_decoder_feed(
    decoder: *mut gts_decoder,
    data: *const u8,
    len: usize,
    consumed: *mut usize,
) -> gts_status {
    // SAFETY: the caller's contract.
    unsafe { handle::feed::<DecoderState>(decoder, data, len, consumed) }
}

/// Ends the input: checks that the file was not cut short (`GTS_ERR_TRUNCATED` with the offset
/// of the unit cut), then calls `on_end`. Returns `GTS_OK` or an error; a pause asked for here is
/// not honoured. After it, feed and finish return `GTS_ERR_FINISHED` until reset.
///
/// Pointers: `decoder` is NULL or points to a writable `gts_decoder`.
#[no_mangle]
pub unsafe extern "C" fn gts_decoder_finish(decoder: *mut gts_decoder) -> gts_status {
    // SAFETY: the caller's contract.
    unsafe { handle::finish::<DecoderState>(decoder) }
}

/// Forgets the file, any error and any panic, ready for a new file; keeps the callbacks, the
/// user pointer, the seekable setting and the game. Returns `GTS_OK` or the decoder checks'
/// errors.
///
/// Pointers: `decoder` is NULL or points to a writable `gts_decoder`.
#[no_mangle]
pub unsafe extern "C" fn gts_decoder_reset(decoder: *mut gts_decoder) -> gts_status {
    // SAFETY: the caller's contract.
    let handle = unsafe { DecoderHandle::new(decoder) };
    status(handle.map(|h| h.reset(DecoderState::reset)))
}

/// The absolute offset in the file of the next byte the decoder wants: after `GTS_SEEK`, where
/// to feed from. `GTS_NO_OFFSET` for a decoder that cannot be used (NULL, not initialised, or
/// asked from inside its own callback).
///
/// Pointers: `decoder` is NULL or points to a readable `gts_decoder`.
#[no_mangle]
pub unsafe extern "C" fn gts_decoder_position(decoder: *const gts_decoder) -> u64 {
    // SAFETY: the caller's contract.
    match unsafe { DecoderHandle::new(decoder) } {
        Ok(handle) => handle.read(|d| d.decoder.position()),
        Err(_) => GTS_NO_OFFSET,
    }
}

/// The decoder's sticky error: `GTS_OK` if none, else the status its last feed or finish
/// returned (`GTS_ERR_PANIC` after a panic). For a decoder that cannot be used, the reason why
/// (`GTS_ERR_INVALID_ARGUMENT`, `GTS_ERR_NOT_INITIALIZED`, `GTS_ERR_REENTRANT`).
///
/// Pointers: `decoder` is NULL or points to a readable `gts_decoder`.
#[no_mangle]
pub unsafe extern "C" fn gts_decoder_error(decoder: *const gts_decoder) -> gts_status {
    // SAFETY: the caller's contract.
    match unsafe { DecoderHandle::new(decoder) } {
        Ok(handle) if handle.panicked().is_some() => gts_status::GTS_ERR_PANIC,
        Ok(handle) => handle.read(|d| match d.decoder.error() {
            Some(error) => error_status(error.kind),
            None => gts_status::GTS_OK,
        }),
        Err(status) => status,
    }
}

/// The absolute byte offset of the unit where the decoder's sticky error happened;
/// `GTS_NO_OFFSET` if there is no error.
///
/// Pointers: `decoder` is NULL or points to a readable `gts_decoder`.
#[no_mangle]
pub unsafe extern "C" fn gts_decoder_error_offset(decoder: *const gts_decoder) -> u64 {
    // SAFETY: the caller's contract.
    match unsafe { DecoderHandle::new(decoder) } {
        Ok(handle) => match handle.panicked() {
            Some(at) => at,
            None => handle.read(|d| d.decoder.error().map_or(GTS_NO_OFFSET, |e| e.offset)),
        },
        Err(_) => GTS_NO_OFFSET,
    }
}

/// A static, NUL-terminated description of `gts_decoder_error(decoder)`, e.g. "input ends
/// inside a unit" ("ok" when there is no error).
///
/// Pointers: `decoder` is NULL or points to a readable `gts_decoder`.
#[no_mangle]
pub unsafe extern "C" fn gts_decoder_error_reason(decoder: *const gts_decoder) -> *const c_char {
    // SAFETY: the caller's contract.
    let status = unsafe { gts_decoder_error(decoder) };
    gts_status_reason(status as StatusArg)
}

/// Text IPL: the number (from 1) of the line being decoded, or of the line an error is in.
/// 0 for binary formats and for a decoder that cannot be used.
///
/// Pointers: `decoder` is NULL or points to a readable `gts_decoder`.
#[no_mangle]
pub unsafe extern "C" fn gts_decoder_line(decoder: *const gts_decoder) -> u32 {
    // SAFETY: the caller's contract.
    match unsafe { DecoderHandle::new(decoder) } {
        Ok(handle) => handle.read(|d| d.decoder.line().unwrap_or(0)),
        Err(_) => 0,
    }
}

/// The index (from 0, in the file) of the animation being decoded, or of the one an error is
/// in; `GTS_NO_INDEX` between animations, for placement files and for a decoder that cannot be
/// used. With `gts_decoder_bone` it tells where an error happened: after `GTS_ERR_TRUNCATED`,
/// the animation and bone the file was cut in.
///
/// Pointers: `decoder` is NULL or points to a readable `gts_decoder`.
#[no_mangle]
pub unsafe extern "C" fn gts_decoder_animation(decoder: *const gts_decoder) -> u32 {
    // SAFETY: the caller's contract.
    match unsafe { DecoderHandle::new(decoder) } {
        Ok(handle) => handle.read(|d| d.place.animation()),
        Err(_) => GTS_NO_INDEX,
    }
}

/// The index (from 0, in its animation) of the bone being decoded, or of the one an error is
/// in; `GTS_NO_INDEX` outside a bone and for a decoder that cannot be used.
///
/// Pointers: `decoder` is NULL or points to a readable `gts_decoder`.
#[no_mangle]
pub unsafe extern "C" fn gts_decoder_bone(decoder: *const gts_decoder) -> u32 {
    // SAFETY: the caller's contract.
    match unsafe { DecoderHandle::new(decoder) } {
        Ok(handle) => handle.read(|d| d.place.bone()),
        Err(_) => GTS_NO_INDEX,
    }
}

fn status_entry(
    status: StatusArg,
) -> Option<&'static (
    gts_status,
    &'static core::ffi::CStr,
    &'static core::ffi::CStr,
)> {
    STATUSES.iter().find(|(s, _, _)| *s as StatusArg == status)
}

/// The status's enumerator name, e.g. "GTS_ERR_TRUNCATED": a static NUL-terminated string
/// ("GTS_UNKNOWN_STATUS" for a number that is not a status).
#[no_mangle]
pub extern "C" fn gts_status_name(status: StatusArg) -> *const c_char {
    status_entry(status)
        .map_or(c"GTS_UNKNOWN_STATUS", |e| e.1)
        .as_ptr()
}

/// A short description of the status, e.g. "input ends inside a unit": a static NUL-terminated
/// string ("unknown status" for a number that is not a status).
#[no_mangle]
pub extern "C" fn gts_status_reason(status: StatusArg) -> *const c_char {
    status_entry(status)
        .map_or(c"unknown status", |e| e.2)
        .as_ptr()
}

/// Decodes a whole file held in memory (`len` bytes at `data`) with the callbacks given to
/// `gts_decoder_init`: feeds it, follows the decoder's seeks within the buffer, and finishes.
/// Offsets are relative to `data`.
///
/// Returns `GTS_OK` once the file is decoded and finished (`on_end` was called); `GTS_PAUSED`
/// when a callback paused: call again with the same buffer to go on from there; or an error
/// (decoding errors are sticky; `gts_decoder_error_offset` says where). A record the decoder
/// wants beyond `len` is `GTS_ERR_TRUNCATED`. Calling it after it returned `GTS_OK` is
/// `GTS_ERR_FINISHED` until `gts_decoder_reset`.
///
/// It continues from `gts_decoder_position(decoder)`: on a fresh decoder, from the start of the
/// buffer; after `gts_decoder_feed` calls, from where they stopped.
///
/// Pointers: `decoder` is NULL or points to a writable `gts_decoder`; `data` is NULL or points to
/// `len` readable bytes that do not change during the call. The callbacks are called on this
/// thread, before this returns.
#[no_mangle]
pub unsafe extern "C" fn gts_decode_buffer(
    decoder: *mut gts_decoder,
    data: *const u8,
    len: usize,
) -> gts_status {
    // SAFETY: the caller's contract.
    let result = unsafe { DecoderHandle::new(decoder) }.and_then(|handle| {
        // SAFETY: the caller's contract.
        let input = unsafe { handle.input(data, len) }?;
        handle.call(|d| {
            let (decoder, mut bridge) = d.parts();
            decode_buffer(decoder, input, &mut bridge)
        })
    });
    result.unwrap_or_else(|status| status)
}

/// `gts_decode_buffer`'s loop: `Decoder::decode_slice`, resumable after a pause because it
/// feeds from the decoder's own position each time.
fn decode_buffer(
    decoder: &mut Decoder,
    input: &[u8],
    bridge: &mut Bridge<'_>,
) -> Result<gts_status, Error> {
    loop {
        let at = decoder.position();
        let rest = usize::try_from(at)
            .ok()
            .and_then(|at| input.get(at..))
            .unwrap_or_default();
        let progress = decoder.feed(rest, bridge)?;
        match progress.status {
            Status::Paused => return Ok(gts_status::GTS_PAUSED),
            // A seek that asks again for the place just fed (past the end, nothing there) would
            // repeat forever: the input has ended.
            Status::Seek(to) if to != at || progress.consumed != 0 => {}
            Status::Seek(_) | Status::NeedInput | Status::Done => {
                decoder.finish(bridge)?;
                return Ok(gts_status::GTS_OK);
            }
        }
    }
}

/// Decodes a file read through `read` (and `seek`, NULL for a source that cannot seek) into the
/// caller's `buffer` of `capacity` bytes, with the callbacks given to `gts_decoder_init`: reads,
/// feeds, follows seeks, and finishes at the end of input (`read` returned 0). `io` is passed to
/// `read` and `seek`. Offsets given to `seek` are absolute offsets in the file (a source inside
/// an archive adds the entry's start).
///
/// The source must be at the decoder's position: at the start of the file for a new decoder.
/// With `seek` NULL, the decoder is told it cannot seek (as by `gts_decoder_set_seekable(d,
/// false)`; a decoder already fed as seekable is `GTS_ERR_INVALID_STATE`), so a record behind the
/// current position is `GTS_ERR_SEEK_REQUIRED`.
///
/// Returns `GTS_OK` once the file is decoded and finished; `GTS_PAUSED` when a callback paused:
/// call again with the same `buffer` (its contents untouched) to go on with the bytes it still
/// holds; `GTS_ERR_IO` when `read` or `seek` failed (nothing is lost: call again to retry; with
/// `seek`, the source is first moved back to the decoder's position); or an error as from
/// `gts_decoder_feed`.
///
/// Pointers: `decoder` is NULL or points to a writable `gts_decoder`; `buffer` is NULL or points
/// to `capacity` writable bytes outside the decoder, which nothing else touches during the call;
/// `read` and `seek` are NULL or functions of the declared types, called on this thread before
/// this returns (they must not call into this decoder).
#[no_mangle]
pub unsafe extern "C" fn gts_decode_io(
    decoder: *mut gts_decoder,
    read: gts_read_fn,
    seek: gts_seek_fn,
    io: *mut c_void,
    buffer: *mut u8,
    capacity: usize,
) -> gts_status {
    // SAFETY: the caller's contract.
    let handle = match unsafe { DecoderHandle::new(decoder) } {
        Ok(handle) => handle,
        Err(status) => return status,
    };
    let Some(read) = read else {
        return gts_status::GTS_ERR_INVALID_ARGUMENT;
    };
    if buffer.is_null()
        || capacity == 0
        || capacity > isize::MAX as usize
        || overlaps(decoder, buffer, capacity)
    {
        return gts_status::GTS_ERR_INVALID_ARGUMENT;
    }
    let used = handle.used();
    if seek.is_none() && handle.read(DecoderState::seekable) {
        if let Err(status) = handle.configure(|d| d.set_seekable(false)) {
            return status;
        }
    }
    let pending = handle.update(|d| core::mem::replace(&mut d.io, NO_IO_PENDING));
    // SAFETY: `buffer` is non-NULL and points to `capacity <= isize::MAX` writable bytes outside
    // the decoder that nothing else touches during the call (the caller's contract).
    let buffer = unsafe { core::slice::from_raw_parts_mut(buffer, capacity) };
    let mut source = Source {
        read,
        seek,
        io,
        buffer,
    };
    let result = handle.call(|d| {
        let (decoder, mut bridge) = d.parts();
        let mut left = NO_IO_PENDING;
        let status = source.decode(decoder, &mut bridge, pending, used, &mut left);
        d.io = left;
        status
    });
    result.unwrap_or_else(|status| status)
}

/// The caller's source and buffer, for `gts_decode_io`.
struct Source<'a> {
    read: unsafe extern "C" fn(*mut c_void, *mut u8, usize) -> isize,
    seek: gts_seek_fn,
    io: *mut c_void,
    buffer: &'a mut [u8],
}

impl Source<'_> {
    /// Moves the source to `offset`: false if it failed (or there is no `seek`).
    fn seek(&mut self, offset: u64) -> bool {
        match self.seek {
            // SAFETY: a function of the declared type (the caller's contract).
            Some(seek) => unsafe { seek(self.io, offset) == 0 },
            None => false,
        }
    }

    /// Reads into the buffer: the bytes read (0 at the end of input), or `None` for an error.
    fn read(&mut self) -> Option<usize> {
        let capacity = self.buffer.len();
        // SAFETY: a function of the declared type (the caller's contract), given the buffer,
        // whose `capacity` bytes are writable.
        let n = unsafe { (self.read)(self.io, self.buffer.as_mut_ptr(), capacity) };
        usize::try_from(n).ok().filter(|&n| n <= capacity)
    }

    /// `gts_decode_io`'s loop. `pending` is what a paused call left; `used`, whether the decoder
    /// was fed before this call. On a pause, `left` gets the bytes not fed yet.
    fn decode(
        &mut self,
        decoder: &mut Decoder,
        bridge: &mut Bridge<'_>,
        pending: IoPending,
        used: bool,
        left: &mut IoPending,
    ) -> Result<gts_status, Error> {
        let io_error = Ok(gts_status::GTS_ERR_IO);
        let resumes = pending.buffer == self.buffer.as_ptr()
            && pending.position == decoder.position()
            && pending.start <= pending.end
            && pending.end <= self.buffer.len();
        let (mut start, mut end) = if resumes {
            (pending.start, pending.end)
        } else {
            // Where the source is is unknown once the decoder was fed (a failed read or seek, or
            // feeds of the caller's own): a source that can seek goes back to the decoder.
            if used && self.seek.is_some() && !self.seek(decoder.position()) {
                return io_error;
            }
            (0, 0)
        };
        // After a pause the rest is fed even when empty: the decoder may have work left that
        // needs no input.
        let mut resume = resumes;
        loop {
            if start == end && !resume {
                match self.read() {
                    None => return io_error,
                    Some(0) => {
                        decoder.finish(bridge)?;
                        return Ok(gts_status::GTS_OK);
                    }
                    Some(n) => (start, end) = (0, n),
                }
            }
            resume = false;
            let progress = decoder.feed(&self.buffer[start..end], bridge)?;
            match progress.status {
                // The content is complete: the rest is read and fed all the same, so that
                // trailing bytes are reported (a warning) whatever the read sizes.
                Status::NeedInput | Status::Done => start = end,
                Status::Paused => {
                    *left = IoPending {
                        buffer: self.buffer.as_ptr(),
                        start: start + progress.consumed,
                        end,
                        position: decoder.position(),
                    };
                    return Ok(gts_status::GTS_PAUSED);
                }
                Status::Seek(to) => {
                    if !self.seek(to) {
                        return io_error;
                    }
                    (start, end) = (0, 0);
                }
            }
        }
    }
}
