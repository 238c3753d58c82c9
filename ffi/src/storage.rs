//! The decoder's state inside the caller's `gts_decoder` storage, and the only code that reads
//! and writes that storage (through raw pointers: the caller owns the memory).
//!
//! Aliasing: no `&mut Slot` is ever made. While a feed runs, the one `&mut Decoder` covers the
//! `decoder` field only (and a shared reference the `callbacks` field), so a callback that
//! calls back in can still read the `tag` and `busy` fields (disjoint memory) and be refused
//! without touching the decoder.

use core::cell::Cell;
use core::ffi::c_void;
use core::mem::{align_of, size_of};
use core::ptr::{addr_of, addr_of_mut};
use std::panic::{catch_unwind, AssertUnwindSafe};

use gtastream_core::{Decoder, Game, Options};

use crate::bridge::Bridge;
use crate::types::{gts_callbacks, gts_decoder, gts_status};

/// A feed or finish running on this thread: a list through the stack frames of
/// [`Handle::run`], innermost first (a callback may feed another decoder).
struct Running {
    slot: *mut Slot,
    outer: *const Running,
}

thread_local! {
    static RUNNING: Cell<*const Running> = const { Cell::new(core::ptr::null()) };
}

/// Whether a call on `slot` is running on this thread (so `init` would pull its state away).
fn is_running(slot: *mut Slot) -> bool {
    let mut frame = RUNNING.get();
    while !frame.is_null() {
        // SAFETY: each frame lives on the stack of a `Handle::run` that is still running (it
        // unlinks its frame before returning, panics included), outside the calls nested in it.
        let running = unsafe { &*frame };
        if running.slot == slot {
            return true;
        }
        frame = running.outer;
    }
    false
}

/// Marks storage set up by `gts_decoder_init`: "gtsdec" and the version of this layout.
const TAG: u64 = 0x6774_7364_6563_0002;

/// What a `gts_decoder` holds once initialised.
#[repr(C)]
struct Slot {
    /// `TAG` once initialised; any other value means "not initialised".
    tag: u64,
    /// Non-zero while a feed or finish runs (a callback may be running).
    busy: u8,
    /// Non-zero once a panic was caught: the decoder is not used again until reset.
    panicked: u8,
    /// Non-zero once feed or finish was called: the options are fixed.
    used: u8,
    /// The caller can seek (the default).
    seekable: u8,
    /// Text IPL: the game named by the caller (`gts_game` as a byte; 0: decided by the file).
    game: u8,
    /// Position of the decoder when it panicked.
    panic_offset: u64,
    callbacks: gts_callbacks,
    user: *mut c_void,
    /// What a paused `gts_decode_io` left unfed in the caller's buffer.
    io: IoPending,
    decoder: Decoder,
}

/// The bytes `buffer[start..end]` of the caller's buffer that a paused `gts_decode_io` had not
/// fed yet; they are the file's bytes from `position` (the decoder's position at the pause) on.
/// A later call resumes with them if it gets the same buffer and the decoder is still there.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct IoPending {
    pub(crate) buffer: *const u8,
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) position: u64,
}

/// Nothing pending.
pub(crate) const NO_IO_PENDING: IoPending = IoPending {
    buffer: core::ptr::null(),
    start: 0,
    end: 0,
    position: 0,
};

// The caller's storage holds the state on every target: 32-bit (where `uint64_t` may be only
// 4-aligned, as is `u64` in Rust there) and 64-bit.
const _: () = assert!(size_of::<Slot>() <= size_of::<gts_decoder>());
const _: () = assert!(align_of::<Slot>() <= align_of::<gts_decoder>());

/// Callbacks that skip every event.
pub(crate) const NO_CALLBACKS: gts_callbacks = gts_callbacks {
    on_file: None,
    on_animation: None,
    on_bone: None,
    on_keyframes: None,
    on_bone_end: None,
    on_animation_end: None,
    on_instance: None,
    on_car: None,
    on_warning: None,
    on_end: None,
    on_keyframes_raw: None,
    on_section_line: None,
    on_trailing: None,
};

/// The game a `gts_game` value names (`None`: decided by the file).
fn game_of(game: u8) -> Option<Game> {
    match game {
        1 => Some(Game::Iii),
        2 => Some(Game::ViceCity),
        3 => Some(Game::SanAndreas),
        _ => None,
    }
}

fn fresh(seekable: bool, game: u8) -> Decoder {
    Decoder::with_options(Options {
        can_seek: seekable,
        game: game_of(game),
    })
}

/// Checks a pointer the caller gives as a `gts_decoder *`: not NULL, aligned for the state.
fn slot_of(d: *const gts_decoder) -> Result<*mut Slot, gts_status> {
    let slot = d.cast_mut().cast::<Slot>();
    if slot.is_null() || !slot.is_aligned() {
        return Err(gts_status::GTS_ERR_INVALID_ARGUMENT);
    }
    Ok(slot)
}

/// Sets up the state in `d`'s storage, replacing whatever it held.
///
/// # Safety
/// `d` is NULL or points to `sizeof(gts_decoder)` bytes the caller lets us write.
pub(crate) unsafe fn init(
    d: *mut gts_decoder,
    callbacks: gts_callbacks,
    user: *mut c_void,
) -> Result<(), gts_status> {
    let slot = slot_of(d)?;
    // A decoder whose feed is running must not be replaced under it. That is known without
    // reading the storage, which a fresh `gts_decoder` leaves uninitialised.
    if is_running(slot) {
        return Err(gts_status::GTS_ERR_REENTRANT);
    }
    let state = Slot {
        tag: TAG,
        busy: 0,
        panicked: 0,
        used: 0,
        seekable: 1,
        game: 0,
        panic_offset: 0,
        callbacks,
        user,
        io: NO_IO_PENDING,
        decoder: fresh(true, 0),
    };
    // SAFETY: as above; the size and alignment checks at the top of this file make the storage
    // large and aligned enough. The old contents are not dropped: they may be garbage, and the
    // state owns nothing that needs dropping (no heap, no handles).
    unsafe { slot.write(state) };
    Ok(())
}

/// A checked pointer to the storage of an initialised decoder that no call is running on.
#[derive(Clone, Copy)]
pub(crate) struct Handle(*mut Slot);

impl Handle {
    /// Checks `d`: not NULL, aligned, initialised, and not inside one of its own callbacks.
    ///
    /// A `gts_decoder` never given to `gts_decoder_init` is detected by its tag word (certain for
    /// zeroed storage, such as static storage; for stack garbage, all but certain).
    ///
    /// # Safety
    /// `d` is NULL or points to `sizeof(gts_decoder)` readable bytes; functions that write
    /// (everything but the getters) also need them writable.
    pub(crate) unsafe fn new(d: *const gts_decoder) -> Result<Handle, gts_status> {
        let slot = slot_of(d)?;
        // SAFETY: `slot` is non-NULL and aligned and its storage readable (caller's contract).
        // `tag` and `busy` are plain integers: any bytes are a valid value.
        let (tag, busy) = unsafe { (addr_of!((*slot).tag).read(), addr_of!((*slot).busy).read()) };
        if tag != TAG {
            return Err(gts_status::GTS_ERR_NOT_INITIALIZED);
        }
        if busy != 0 {
            return Err(gts_status::GTS_ERR_REENTRANT);
        }
        Ok(Handle(slot))
    }

    /// Reads the decoder (no call is running on it, so nothing else refers to it).
    pub(crate) fn with_decoder<R>(self, f: impl FnOnce(&Decoder) -> R) -> R {
        // SAFETY: `new` checked that the storage holds an initialised state and that no feed is
        // running, so no `&mut` to the decoder exists while this shared reference lives.
        f(unsafe { &*addr_of!((*self.0).decoder) })
    }

    /// The position at which a panic was caught, if one was.
    pub(crate) fn panicked(self) -> Option<u64> {
        // SAFETY: an initialised state (checked by `new`); plain integer fields.
        let (panicked, at) = unsafe {
            (
                addr_of!((*self.0).panicked).read(),
                addr_of!((*self.0).panic_offset).read(),
            )
        };
        (panicked != 0).then_some(at)
    }

    /// Sets whether the caller can seek; only before the first feed.
    pub(crate) fn set_seekable(self, seekable: bool) -> Result<(), gts_status> {
        // SAFETY: an initialised state that no call is running on (checked by `new`); the
        // caller lets us write its storage. Writing does not drop the old decoder, which owns
        // nothing.
        unsafe {
            if addr_of!((*self.0).used).read() != 0 {
                return Err(gts_status::GTS_ERR_INVALID_STATE);
            }
            let game = addr_of!((*self.0).game).read();
            addr_of_mut!((*self.0).seekable).write(u8::from(seekable));
            addr_of_mut!((*self.0).decoder).write(fresh(seekable, game));
        }
        Ok(())
    }

    /// Names the game of a text IPL (a `gts_game` value, checked by the caller); only before
    /// the first feed.
    pub(crate) fn set_game(self, game: u8) -> Result<(), gts_status> {
        // SAFETY: as in `set_seekable`.
        unsafe {
            if addr_of!((*self.0).used).read() != 0 {
                return Err(gts_status::GTS_ERR_INVALID_STATE);
            }
            let seekable = addr_of!((*self.0).seekable).read() != 0;
            addr_of_mut!((*self.0).game).write(game);
            addr_of_mut!((*self.0).decoder).write(fresh(seekable, game));
        }
        Ok(())
    }

    /// Forgets the file (and any error or panic); keeps the callbacks, user pointer and options.
    pub(crate) fn reset(self) {
        // SAFETY: as in `set_seekable`.
        unsafe {
            let seekable = addr_of!((*self.0).seekable).read() != 0;
            let game = addr_of!((*self.0).game).read();
            addr_of_mut!((*self.0).decoder).write(fresh(seekable, game));
            addr_of_mut!((*self.0).panicked).write(0);
            addr_of_mut!((*self.0).used).write(0);
            addr_of_mut!((*self.0).io).write(NO_IO_PENDING);
        }
    }

    /// Whether feed or finish was called since init or reset (the options are fixed), and
    /// whether the caller said it can seek.
    pub(crate) fn used_and_seekable(self) -> (bool, bool) {
        // SAFETY: an initialised state (checked by `new`); plain integer fields.
        unsafe {
            (
                addr_of!((*self.0).used).read() != 0,
                addr_of!((*self.0).seekable).read() != 0,
            )
        }
    }

    /// Takes what a paused `gts_decode_io` left (leaving nothing pending).
    pub(crate) fn take_io_pending(self) -> IoPending {
        // SAFETY: an initialised state that no call is running on (checked by `new`); the
        // caller lets us write its storage; `IoPending` is plain data.
        unsafe { addr_of_mut!((*self.0).io).replace(NO_IO_PENDING) }
    }

    /// Records what a paused `gts_decode_io` leaves unfed.
    pub(crate) fn set_io_pending(self, pending: IoPending) {
        // SAFETY: as in `take_io_pending`.
        unsafe { addr_of_mut!((*self.0).io).write(pending) }
    }

    /// Runs `f` on the decoder with the callbacks, marking the decoder busy meanwhile so that a
    /// callback cannot call back in. A panic is caught here: it never crosses into C, and it
    /// leaves the decoder marked failed (`GTS_ERR_PANIC`).
    pub(crate) fn run<R>(
        self,
        f: impl FnOnce(&mut Decoder, &mut Bridge<'_>) -> R,
    ) -> Result<R, gts_status> {
        if self.panicked().is_some() {
            return Err(gts_status::GTS_ERR_PANIC);
        }
        let slot = self.0;
        // SAFETY: an initialised state that no call is running on (checked by `new`); the
        // caller lets us write its storage. The references into the storage during the call
        // are the `&mut` to the `decoder` field and a shared one to the `callbacks` field
        // (nothing writes them while the decoder is busy: `gts_decoder_init` refuses a busy
        // decoder, and the caller may not touch the storage during a call); the user pointer
        // is copied out. Re-entrant calls read only `tag` and `busy`, which neither covers.
        unsafe {
            let mut bridge =
                Bridge::new(&*addr_of!((*slot).callbacks), addr_of!((*slot).user).read());
            addr_of_mut!((*slot).used).write(1);
            addr_of_mut!((*slot).busy).write(1);
            let decoder = &mut *addr_of_mut!((*slot).decoder);
            let position = decoder.position();
            // One access to the thread-local list for the call (each costs a lookup).
            let result = RUNNING.with(|running| {
                let frame = Running {
                    slot,
                    outer: running.get(),
                };
                running.set(&frame);
                let result = catch_unwind(AssertUnwindSafe(|| f(decoder, &mut bridge)));
                running.set(frame.outer);
                result
            });
            addr_of_mut!((*slot).busy).write(0);
            result.map_err(|_| {
                addr_of_mut!((*slot).panicked).write(1);
                addr_of_mut!((*slot).panic_offset).write(position);
                gts_status::GTS_ERR_PANIC
            })
        }
    }
}
