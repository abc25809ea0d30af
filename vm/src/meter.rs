//! A global allocator wrapper that counts the bytes live on each thread, so the
//! executor can enforce `max_memory_bytes` (`code-mode.md` 4.8): a run executes on one
//! thread, and the growth of that thread's live bytes since the run started is what its
//! values hold. A binary opts in with
//! `#[global_allocator] static A: harn_vm::meter::Metered = harn_vm::meter::Metered;`;
//! without it [`live_bytes`] is `None` and only the single-value caps apply.

use std::alloc::{GlobalAlloc, Layout};

use mimalloc::MiMalloc as System;
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};

/// The system allocator, counting live bytes per thread.
pub struct Metered;

static INSTALLED: AtomicBool = AtomicBool::new(false);

thread_local! {
    // Const-initialised: touching it never allocates, so the allocator may use it.
    static LIVE: Cell<i64> = const { Cell::new(0) };
    static PEAK: Cell<i64> = const { Cell::new(0) };
}

fn add(delta: i64) {
    // `try_with`: during thread teardown the slot may be gone; the count is then moot.
    let _ = LIVE.try_with(|l| {
        let live = l.get().wrapping_add(delta);
        l.set(live);
        if delta > 0 {
            let _ = PEAK.try_with(|p| {
                if live > p.get() {
                    p.set(live);
                }
            });
        }
    });
}

// SAFETY: every method forwards to `System` with the caller's arguments unchanged; the
// bookkeeping only touches a const-initialised thread-local `Cell`, which neither
// allocates nor unwinds.
unsafe impl GlobalAlloc for Metered {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded unchanged (see the impl comment).
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            add(layout.size() as i64);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded unchanged.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            add(layout.size() as i64);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged.
        unsafe { System.dealloc(ptr, layout) };
        add(-(layout.size() as i64));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded unchanged.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            add(new_size as i64 - layout.size() as i64);
        }
        p
    }
}

impl Metered {
    /// Marks the meter as installed (called by the binary once at start).
    pub fn activate(&self) {
        INSTALLED.store(true, Ordering::Relaxed);
    }
}

/// Restarts this thread's peak at the current live bytes (at the start of a run).
pub fn reset_peak() {
    if let (Ok(live), true) = (LIVE.try_with(Cell::get), INSTALLED.load(Ordering::Relaxed)) {
        let _ = PEAK.try_with(|p| p.set(live));
    }
}

/// The highest live byte count on this thread since the last [`reset_peak`].
pub fn peak_bytes() -> Option<i64> {
    if !INSTALLED.load(Ordering::Relaxed) {
        return None;
    }
    PEAK.try_with(Cell::get).ok()
}

/// Bytes currently live on this thread, when the metered allocator is installed.
pub fn live_bytes() -> Option<i64> {
    if !INSTALLED.load(Ordering::Relaxed) {
        return None;
    }
    LIVE.try_with(Cell::get).ok()
}
