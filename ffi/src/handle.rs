//! The one machinery of every C object (`gts_decoder`, `gts_archive`, `gts_encoder`, ...): the
//! object's state inside storage the caller owns, and the only code that reads and writes that
//! storage (through raw pointers: the caller owns the memory).
//!
//! Every object is a [`Slot`]: a header that this module alone handles (a tag word, a busy
//! byte, the panic state) and the object's own state `T` (an [`Object`]). An entry point turns
//! the caller's pointer into a [`Handle`] (which checks NULL, alignment, the tag and re-entry),
//! then reads the state, changes it, or [`Handle::run`]s a call that may reach the caller's
//! callbacks: busy meanwhile, panics caught.
//!
//! A new kind of object is a state type, `impl Object` (its storage type and tag), and entry
//! points that go through `Handle::init`, `Handle::new` and then `read` (getters), `configure`
//! (options before the first call), `reset`, or `run`/`call` (anything that may reach a
//! callback). An object fed its input (`impl Streaming`) gets its whole `*_feed` and
//! `*_finish` entry points from [`feed`] and [`finish`]; one whose every error must stick (an
//! encoder: a refused event is a lost one) keeps a [`Sticky`]. The state borrows its callbacks
//! out of itself inside `run` (see `DecoderState::parts`).
//!
//! Aliasing: no `&mut Slot` is ever made. While a call runs, the one `&mut T` covers the
//! `state` field only, so a callback that calls back in can still read the `tag` and `busy`
//! fields (disjoint memory) and be refused without touching the state. An `init` of an object
//! whose call is running is refused without reading its storage at all (the running calls are
//! listed on the thread).

use core::cell::Cell;
use core::mem::{align_of, size_of};
use core::ptr::{addr_of, addr_of_mut};
use std::panic::{catch_unwind, AssertUnwindSafe};

use gtastream_core::encode::EncodeError;
use gtastream_core::{Error, Progress, Status};

use crate::bridge::{error_status, STATUSES};
use crate::types::{gts_status, GTS_NO_OFFSET};

/// The state of one kind of C object, kept in the caller's storage by a [`Handle`].
pub(crate) trait Object: Sized {
    /// The caller's storage of the object (`gts_decoder`, ...), which the state must fit (a
    /// compile-time check).
    type Storage;
    /// Marks storage set up for this kind of object: its name in ASCII ("gtsdec") and the
    /// version of its layout.
    const TAG: u64;
    /// Where the object is when a call begins: reported as the place of a panic caught in the
    /// call.
    fn position(&self) -> u64 {
        GTS_NO_OFFSET
    }
}

/// An object fed its input piece by piece, as `gts_decoder` is: `feed` and `finish` below are
/// its entry points' whole work.
pub(crate) trait Streaming: Object {
    /// Takes the next bytes of the input, calling the callbacks.
    fn feed(&mut self, input: &[u8]) -> Result<Progress, Error>;
    /// Takes the next bytes if that calls no callback and cannot panic (they only fill the
    /// object's buffer: `Decoder::feed_buffered`); `None` leaves them to [`feed`](Self::feed).
    fn feed_buffered(&mut self, _input: &[u8]) -> Option<Progress> {
        None
    }
    /// The input ended.
    fn finish(&mut self) -> Result<(), Error>;
}

/// What an object's storage holds once initialised.
#[repr(C)]
struct Slot<T> {
    /// `T::TAG` once initialised; any other value means "not initialised".
    tag: u64,
    /// Non-zero while a call runs (a callback may be running).
    busy: u8,
    /// Non-zero once a panic was caught: the object is not run again until reset.
    panicked: u8,
    /// Non-zero once a call ran since init or reset: the options are fixed.
    used: u8,
    /// `T::position` when the call that panicked began.
    panic_offset: u64,
    state: T,
}

/// A call running on this thread: a list through the stack frames of [`Handle::run`],
/// innermost first (a callback may run another object). One list for every kind of object.
struct Running {
    slot: *const (),
    outer: *const Running,
}

thread_local! {
    static RUNNING: Cell<*const Running> = const { Cell::new(core::ptr::null()) };
}

/// Whether a call on the object at `slot` is running on this thread (so `init` would pull its
/// state away).
fn is_running(slot: *const ()) -> bool {
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

/// Checks a pointer the caller gives as its storage: not NULL, aligned for the state.
fn slot_of<T: Object>(storage: *const T::Storage) -> Result<*mut Slot<T>, gts_status> {
    // Evaluated for each kind of object: its state fits the caller's storage on every target,
    // 32-bit (where `uint64_t` may be only 4-aligned, as is `u64` in Rust there) and 64-bit.
    const {
        assert!(size_of::<Slot<T>>() <= size_of::<T::Storage>());
        assert!(align_of::<Slot<T>>() <= align_of::<T::Storage>());
    }
    let slot = storage.cast_mut().cast::<Slot<T>>();
    if slot.is_null() || !slot.is_aligned() {
        return Err(gts_status::GTS_ERR_INVALID_ARGUMENT);
    }
    Ok(slot)
}

/// Whether `len` bytes at `p` overlap the caller's `storage`.
pub(crate) fn overlaps<S>(storage: *const S, p: *const u8, len: usize) -> bool {
    let (start, end) = (p as usize, (p as usize).saturating_add(len));
    let s_start = storage as usize;
    let s_end = s_start.saturating_add(size_of::<S>());
    start < s_end && s_start < end
}

/// A checked pointer to the storage of an initialised object that no call is running on.
///
/// Not `Copy`: [`Handle::run`] takes it, so that nothing inside the call can reach the state
/// by another way than the `&mut T` it is given.
pub(crate) struct Handle<T: Object>(*mut Slot<T>);

impl<T: Object> Handle<T> {
    /// Sets up an object in the caller's `storage` of `size` bytes, replacing whatever it
    /// held: checks the pointer (`GTS_ERR_INVALID_ARGUMENT`) and the size
    /// (`GTS_ERR_SIZE_MISMATCH`), then `make`s the state (which checks the other arguments),
    /// and refuses storage whose call is running (`GTS_ERR_REENTRANT`).
    ///
    /// # Safety
    /// `storage` is NULL or points to `size` bytes the caller lets us write.
    pub(crate) unsafe fn init(
        storage: *mut T::Storage,
        size: usize,
        make: impl FnOnce() -> Result<T, gts_status>,
    ) -> gts_status {
        let slot = match slot_of::<T>(storage) {
            Ok(slot) => slot,
            Err(status) => return status,
        };
        if size != size_of::<T::Storage>() {
            return gts_status::GTS_ERR_SIZE_MISMATCH;
        }
        let state = match make() {
            Ok(state) => state,
            Err(status) => return status,
        };
        // An object whose call is running must not be replaced under it. That is known without
        // reading the storage, which a fresh one leaves uninitialised.
        if is_running(slot.cast_const().cast()) {
            return gts_status::GTS_ERR_REENTRANT;
        }
        let slot_state = Slot {
            tag: T::TAG,
            busy: 0,
            panicked: 0,
            used: 0,
            panic_offset: GTS_NO_OFFSET,
            state,
        };
        // SAFETY: as above; `slot_of` checked at compile time that the storage is large and
        // aligned enough, and the size is the storage's. The old contents are not dropped: they
        // may be garbage, and no state owns anything that needs dropping (no heap, no handles).
        unsafe { slot.write(slot_state) };
        gts_status::GTS_OK
    }

    /// Checks `storage`: not NULL, aligned, initialised for this kind of object, and not
    /// inside one of its own callbacks.
    ///
    /// Storage never given to the object's init is detected by its tag word (certain for
    /// zeroed storage, such as static storage; for stack garbage, all but certain).
    ///
    /// # Safety
    /// `storage` is NULL or points to a readable `T::Storage`; functions that write (`update`,
    /// `configure`, `reset`, `run`) also need it writable.
    pub(crate) unsafe fn new(storage: *const T::Storage) -> Result<Self, gts_status> {
        let slot = slot_of::<T>(storage)?;
        // SAFETY: `slot` is non-NULL and aligned and its storage readable (caller's contract).
        // `tag` and `busy` are plain integers: any bytes are a valid value.
        let (tag, busy) = unsafe { (addr_of!((*slot).tag).read(), addr_of!((*slot).busy).read()) };
        if tag != T::TAG {
            return Err(gts_status::GTS_ERR_NOT_INITIALIZED);
        }
        if busy != 0 {
            return Err(gts_status::GTS_ERR_REENTRANT);
        }
        Ok(Handle(slot))
    }

    /// Borrows `len` bytes at `data` for one call: refused (`GTS_ERR_INVALID_ARGUMENT`) if
    /// `data` is NULL with bytes to read, if `len` exceeds what a slice may hold, or if they lie
    /// in the object's own storage.
    ///
    /// # Safety
    /// `data` is NULL or points to `len` readable bytes that do not change while `'a` lives.
    pub(crate) unsafe fn input<'a>(
        &self,
        data: *const u8,
        len: usize,
    ) -> Result<&'a [u8], gts_status> {
        if (data.is_null() && len > 0)
            || len > isize::MAX as usize
            || overlaps(self.0.cast_const().cast::<T::Storage>(), data, len)
        {
            return Err(gts_status::GTS_ERR_INVALID_ARGUMENT);
        }
        if len == 0 {
            return Ok(&[]);
        }
        // SAFETY: `data` is non-NULL and points to `len <= isize::MAX` readable bytes that do
        // not change while `'a` lives (the caller's contract), outside the object's storage.
        Ok(unsafe { core::slice::from_raw_parts(data, len) })
    }

    /// The position at which a panic was caught, if one was (`GTS_NO_OFFSET` for an object
    /// without positions).
    pub(crate) fn panicked(&self) -> Option<u64> {
        // SAFETY: an initialised state (checked by `new`); plain integer fields of the header.
        let (panicked, at) = unsafe {
            (
                addr_of!((*self.0).panicked).read(),
                addr_of!((*self.0).panic_offset).read(),
            )
        };
        (panicked != 0).then_some(at)
    }

    /// Whether a call ran since init or reset (the options are fixed).
    pub(crate) fn used(&self) -> bool {
        // SAFETY: as in `panicked`.
        unsafe { addr_of!((*self.0).used).read() != 0 }
    }

    /// Reads the state.
    pub(crate) fn read<R>(&self, f: impl FnOnce(&T) -> R) -> R {
        // SAFETY: `new` checked that the storage holds an initialised state and that no call
        // is running on it, so no `&mut` to the state exists while this shared reference lives.
        f(unsafe { &*addr_of!((*self.0).state) })
    }

    /// Changes the state, outside any call of the caller's callbacks (`f` must not call one:
    /// that is what `run` is for).
    pub(crate) fn update<R>(&self, f: impl FnOnce(&mut T) -> R) -> R {
        // SAFETY: an initialised state that no call is running on (checked by `new`), and the
        // caller lets us write its storage; `f` reaches no callback, so nothing else refers to
        // the state while this reference lives.
        f(unsafe { &mut *addr_of_mut!((*self.0).state) })
    }

    /// Changes an option: only before the first call (`GTS_ERR_INVALID_STATE` after it, until
    /// reset).
    pub(crate) fn configure(&self, f: impl FnOnce(&mut T)) -> Result<(), gts_status> {
        if self.used() {
            return Err(gts_status::GTS_ERR_INVALID_STATE);
        }
        self.update(f);
        Ok(())
    }

    /// Forgets any panic and that a call ran, and lets `f` reset the state.
    pub(crate) fn reset(&self, f: impl FnOnce(&mut T)) {
        self.update(f);
        // SAFETY: as in `update`; plain integer fields of the header.
        unsafe {
            addr_of_mut!((*self.0).panicked).write(0);
            addr_of_mut!((*self.0).used).write(0);
            addr_of_mut!((*self.0).panic_offset).write(GTS_NO_OFFSET);
        }
    }

    /// Runs `f` on the state, marking the object busy meanwhile so that a callback cannot call
    /// back in. A panic is caught here: it never crosses into C, and it leaves the object
    /// marked failed (`GTS_ERR_PANIC` from every later run until reset).
    pub(crate) fn run<R>(self, f: impl FnOnce(&mut T) -> R) -> Result<R, gts_status> {
        if self.panicked().is_some() {
            return Err(gts_status::GTS_ERR_PANIC);
        }
        let slot = self.0;
        // SAFETY: an initialised state that no call is running on (checked by `new`); the
        // caller lets us write its storage. The one reference into the storage during the call
        // is the `&mut` to the `state` field (nothing else writes it while the object is busy:
        // init refuses a running object, and the caller may not touch the storage during a
        // call). Re-entrant calls read only `tag` and `busy`, which it does not cover.
        unsafe {
            addr_of_mut!((*slot).used).write(1);
            addr_of_mut!((*slot).busy).write(1);
            let state = &mut *addr_of_mut!((*slot).state);
            let position = state.position();
            // One access to the thread-local list for the call (each costs a lookup).
            let result = RUNNING.with(|running| {
                let frame = Running {
                    slot: slot.cast_const().cast(),
                    outer: running.get(),
                };
                running.set(&frame);
                let result = catch_unwind(AssertUnwindSafe(|| f(state)));
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

    /// `run` for work that calls no callback and cannot panic (`f` returns `None` when it
    /// would need to): without the busy flag, the list of running calls and the panic boundary,
    /// which cost small pieces more than the work. Nothing on an object that panicked.
    pub(crate) fn quiet<R>(&self, f: impl FnOnce(&mut T) -> Option<R>) -> Option<R> {
        if self.panicked().is_some() {
            return None;
        }
        let result = self.update(f);
        if result.is_some() {
            // SAFETY: as in `update`; a plain integer field of the header.
            unsafe { addr_of_mut!((*self.0).used).write(1) };
        }
        result
    }

    /// `run` for a call that can fail: its error as a status.
    pub(crate) fn call<R, E: Into<gts_status>>(
        self,
        f: impl FnOnce(&mut T) -> Result<R, E>,
    ) -> Result<R, gts_status> {
        self.run(f)?.map_err(E::into)
    }
}

impl From<Error> for gts_status {
    fn from(error: Error) -> gts_status {
        error_status(error.kind)
    }
}

impl From<EncodeError> for gts_status {
    /// The status whose number is the error kind's (the core's table).
    fn from(error: EncodeError) -> gts_status {
        STATUSES
            .iter()
            .find(|row| row.0 as u32 == error.kind().code())
            .map_or(gts_status::GTS_ERR_OTHER, |row| row.0)
    }
}

/// The first error of an object whose errors stick: every call after it returns it again.
#[derive(Clone, Copy, Default)]
pub(crate) struct Sticky(Option<gts_status>);

impl Sticky {
    /// Runs `f` unless a call failed before (that error again); keeps its error.
    pub(crate) fn run<R>(
        &mut self,
        f: impl FnOnce() -> Result<R, gts_status>,
    ) -> Result<R, gts_status> {
        if let Some(error) = self.0 {
            return Err(error);
        }
        let result = f();
        self.0 = result.as_ref().err().copied();
        result
    }
}

/// The status of a call that gives nothing back: `GTS_OK` or its error.
pub(crate) fn status(result: Result<(), gts_status>) -> gts_status {
    result.err().unwrap_or(gts_status::GTS_OK)
}

/// A streaming object's `*_feed` entry point: the next `len` bytes at `data` fed to the object
/// in `storage`; `*consumed` gets the bytes used (0 on an error); the status says how the feed
/// ended.
///
/// # Safety
/// `storage` is NULL or points to a writable `T::Storage`; `data` is NULL or points to `len`
/// readable bytes that do not change during the call; `consumed` is NULL or points to a
/// writable `size_t`.
pub(crate) unsafe fn feed<T: Streaming>(
    storage: *mut T::Storage,
    data: *const u8,
    len: usize,
    consumed: *mut usize,
) -> gts_status {
    if !consumed.is_null() {
        if !consumed.is_aligned() || overlaps(storage, consumed.cast(), size_of::<usize>()) {
            return gts_status::GTS_ERR_INVALID_ARGUMENT;
        }
        // SAFETY: non-NULL, aligned and writable (the caller's contract).
        unsafe { consumed.write(0) };
    }
    // SAFETY: the caller's contract.
    let result = unsafe { Handle::<T>::new(storage) }.and_then(|handle| {
        // SAFETY: the caller's contract.
        let input = unsafe { handle.input(data, len) }?;
        // A piece that only fills the buffer (two in three of 64 bytes) needs no boundary.
        match handle.quiet(|state| state.feed_buffered(input)) {
            Some(progress) => Ok(progress),
            None => handle.call(|state| state.feed(input)),
        }
    });
    let (status, used) = match result {
        Err(status) => (status, 0),
        Ok(progress) => {
            let status = match progress.status {
                Status::NeedInput => gts_status::GTS_OK,
                Status::Paused => gts_status::GTS_PAUSED,
                Status::Done => gts_status::GTS_DONE,
                Status::Seek(_) => gts_status::GTS_SEEK,
            };
            (status, progress.consumed)
        }
    };
    if !consumed.is_null() {
        // SAFETY: as above.
        unsafe { consumed.write(used) };
    }
    status
}

/// A streaming object's `*_finish` entry point.
///
/// # Safety
/// `storage` is NULL or points to a writable `T::Storage`.
pub(crate) unsafe fn finish<T: Streaming>(storage: *mut T::Storage) -> gts_status {
    // SAFETY: the caller's contract.
    let handle = unsafe { Handle::<T>::new(storage) };
    status(handle.and_then(|h| h.call(T::finish)))
}
