//! One counting global allocator for the no-allocation tests. A test binary installs it with
//!
//! ```text
//! #[global_allocator]
//! static ALLOCATOR: testkit::alloc_count::Counting = testkit::alloc_count::Counting;
//! ```
//!
//! and measures with [`allocations`]: every allocator call (allocation, reallocation and free)
//! made on the calling thread while the closure runs. Other threads (the test harness runs
//! tests in parallel) are not counted.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::hint::black_box;

thread_local! {
    static ARMED: Cell<bool> = const { Cell::new(false) };
    static COUNT: Cell<usize> = const { Cell::new(0) };
}

/// The system allocator, counting the calls of the threads that ask for it.
pub struct Counting;

fn note() {
    // `try_with`: the allocator also runs while a thread's locals are being torn down.
    if ARMED.try_with(Cell::get).unwrap_or(false) {
        let _ = COUNT.try_with(|c| c.set(c.get() + 1));
    }
}

// SAFETY: every call is forwarded unchanged to `System`, which upholds the `GlobalAlloc`
// contract; counting touches only thread-local cells and never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note();
        // SAFETY: the caller's layout, passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note();
        // SAFETY: the caller's layout, passed on.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note();
        // SAFETY: `ptr` came from `System` (through this allocator) with `layout`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        note();
        // SAFETY: `ptr` came from `System` (through this allocator) with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }
}

fn counted<T>(f: impl FnOnce() -> T) -> (usize, T) {
    COUNT.with(|c| c.set(0));
    ARMED.with(|a| a.set(true));
    let out = f();
    ARMED.with(|a| a.set(false));
    (COUNT.with(Cell::get), out)
}

/// Allocator calls made by `f` on this thread, and what `f` returned. Panics if [`Counting`]
/// is not the binary's global allocator (every count would then be 0, and prove nothing).
pub fn allocations<T>(f: impl FnOnce() -> T) -> (usize, T) {
    let (probe, ()) = counted(|| drop(black_box(Box::new(0u8))));
    assert!(
        probe >= 2,
        "testkit::alloc_count::Counting is not the global allocator"
    );
    counted(f)
}

/// Runs `f` and panics, naming `what`, if it called the allocator.
#[track_caller]
pub fn assert_no_alloc<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let (calls, out) = allocations(f);
    assert_eq!(calls, 0, "{what}: {calls} allocator calls");
    out
}
