//! A global allocator wrapper that counts the bytes live on each thread, so the
//! executor can enforce `max_memory_bytes` (`code-mode.md` 4.8): a run executes on one
//! thread, and the growth of that thread's live bytes since the run started is what its
//! values hold. A binary opts in with
//! `#[global_allocator] static A: harn_vm::meter::Metered = harn_vm::meter::Metered;`;
//! without it [`live_bytes`] is `None` and only the single-value caps apply.

use std::alloc::{GlobalAlloc, Layout};

use libmimalloc_sys as mi;
use mimalloc::MiMalloc as System;
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};

mod arena;
mod huge;

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

/// Alignment that every block of mimalloc's plain entry points has: its size classes are
/// multiples of eight bytes and its pages start 16-byte aligned. Layouts with a stricter
/// alignment take mimalloc's aligned entry points.
const PLAIN_ALIGN: usize = 8;

/// The allocation itself, uncounted: the process's first small blocks are cut from a
/// static region ([`arena`]), huge blocks are mappings ([`huge`]), the rest comes
/// from mimalloc, through its plain entry points when the layout's alignment is at most
/// `PLAIN_ALIGN` (which every block they return satisfies), else through `MiMalloc`,
/// which passes the alignment on. `mi_free` and `mi_realloc` accept blocks from either.
mod raw {
    use super::{PLAIN_ALIGN, System, arena, huge, mi};
    use std::alloc::{GlobalAlloc, Layout};

    /// # Safety
    ///
    /// As `GlobalAlloc::alloc` (a non-zero size).
    #[inline(always)]
    pub(super) unsafe fn alloc(layout: Layout, zeroed: bool) -> *mut u8 {
        // The common case in one test: a small block with a plain alignment, once the
        // region is full (`plain_below` is 0 until then, so everything takes the path
        // below, which tries the region first).
        if layout.size() < arena::plain_below() && layout.align() <= PLAIN_ALIGN {
            // SAFETY: the caller's contract, forwarded.
            return unsafe {
                if zeroed {
                    mi::mi_zalloc(layout.size()).cast::<u8>()
                } else {
                    mi::mi_malloc(layout.size()).cast::<u8>()
                }
            };
        }
        // SAFETY: the caller's contract, forwarded.
        unsafe { alloc_elsewhere(layout, zeroed) }
    }

    /// Every other allocation: from the region while it serves, a mapping for a huge
    /// block, an aligned block from mimalloc. Out of line, so the common case above
    /// stays small enough to be inlined into every caller.
    ///
    /// # Safety
    ///
    /// As `GlobalAlloc::alloc` (a non-zero size).
    #[inline(never)]
    unsafe fn alloc_elsewhere(layout: Layout, zeroed: bool) -> *mut u8 {
        // A block of the region is zeroed already: its bytes were never cut before.
        let p = arena::PROCESS.cut(arena::start(), layout.size(), layout.align());
        if !p.is_null() {
            return p;
        }
        if huge::owns(layout.size(), layout.align()) {
            // Fresh mappings are zeroed already.
            return huge::map(layout.size());
        }
        // SAFETY: the caller's contract, forwarded.
        unsafe {
            match (layout.align() <= PLAIN_ALIGN, zeroed) {
                (true, false) => mi::mi_malloc(layout.size()).cast::<u8>(),
                (true, true) => mi::mi_zalloc(layout.size()).cast::<u8>(),
                (false, false) => System.alloc(layout),
                (false, true) => System.alloc_zeroed(layout),
            }
        }
    }

    /// # Safety
    ///
    /// As `GlobalAlloc::dealloc`.
    pub(super) unsafe fn dealloc(ptr: *mut u8, layout: Layout) {
        // SAFETY: the block came from `alloc`/`realloc` with this layout, which picks the
        // same path from its size, except for the region's blocks, known by address
        // (whose bytes are not reused).
        unsafe {
            if arena::in_process_region(ptr) {
                return;
            }
            if huge::owns(layout.size(), layout.align()) {
                huge::unmap(ptr, layout.size());
            } else {
                mi::mi_free(ptr.cast());
            }
        }
    }

    /// [`realloc`] of a block of the process's region: in place when it can
    /// ([`arena::Region::resize_in_place`]), else moved to a block of the new size.
    /// Out of line and cold: the region serves only the first blocks a process makes.
    ///
    /// # Safety
    ///
    /// As `GlobalAlloc::realloc`, for a block of the region.
    #[cold]
    #[inline(never)]
    unsafe fn realloc_region_block(ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if arena::PROCESS.resize_in_place(arena::start(), ptr, layout.size(), new_size) {
            return ptr;
        }
        // SAFETY: the caller's contract: a fresh block of the new size, the bytes
        // both blocks hold copied, and the region's block left (never reused).
        unsafe {
            let q = alloc(
                Layout::from_size_align_unchecked(new_size, layout.align()),
                false,
            );
            if !q.is_null() {
                std::ptr::copy_nonoverlapping(ptr, q, layout.size().min(new_size));
            }
            q
        }
    }

    /// # Safety
    ///
    /// As `GlobalAlloc::realloc`.
    pub(super) unsafe fn realloc(ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if arena::in_process_region(ptr) {
            // SAFETY: the caller's contract, forwarded.
            return unsafe { realloc_region_block(ptr, layout, new_size) };
        }
        let was_huge = huge::owns(layout.size(), layout.align());
        let is_huge = huge::owns(new_size, layout.align());
        // SAFETY: the caller's contract; each arm keeps the block with the path that its
        // new size picks.
        unsafe {
            match (was_huge, is_huge) {
                (true, true) => huge::remap(ptr, layout.size(), new_size),
                (false, false) if layout.align() <= PLAIN_ALIGN => {
                    mi::mi_realloc(ptr.cast(), new_size).cast::<u8>()
                }
                (false, false) => System.realloc(ptr, layout, new_size),
                _ => {
                    // Crossing the threshold: a block from the other path, and a copy.
                    let new_layout = Layout::from_size_align_unchecked(new_size, layout.align());
                    let q = alloc(new_layout, false);
                    if !q.is_null() {
                        std::ptr::copy_nonoverlapping(ptr, q, layout.size().min(new_size));
                        dealloc(ptr, layout);
                    }
                    q
                }
            }
        }
    }
}

// SAFETY: every method forwards to `raw` with the caller's arguments (see there). The
// bookkeeping only touches a const-initialised thread-local `Cell`, which neither
// allocates nor unwinds.
unsafe impl GlobalAlloc for Metered {
    // `alloc` and `dealloc` are asked to be inlined: each is a few tests around a call
    // into mimalloc, and out of line they cost a call and register saves on every
    // allocation (the JSON idiom: about 18M instructions).
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded unchanged.
        let p = unsafe { raw::alloc(layout, false) };
        if !p.is_null() {
            add(layout.size() as i64);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded unchanged.
        let p = unsafe { raw::alloc(layout, true) };
        if !p.is_null() {
            add(layout.size() as i64);
        }
        p
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged.
        unsafe { raw::dealloc(ptr, layout) };
        add(-(layout.size() as i64));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded unchanged.
        let p = unsafe { raw::realloc(ptr, layout, new_size) };
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

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    /// Every block honours its layout's alignment, through allocation, zeroed
    /// allocation and growth, on both sides of `PLAIN_ALIGN`, and keeps its contents.
    #[test]
    fn blocks_are_aligned_and_keep_their_bytes() {
        let mut held = Vec::new();
        for align in [1usize, 2, 4, 8, 16, 32, 64, 4096] {
            for size in [
                1usize, 3, 7, 8, 12, 24, 40, 100, 1000, 5000, 70_000, 1_500_000, 5_000_000,
            ] {
                let layout = Layout::from_size_align(size, align).unwrap();
                // SAFETY: a non-zero size; every block is freed below with its layout.
                unsafe {
                    let p = Metered.alloc(layout);
                    assert!(!p.is_null());
                    assert_eq!(p as usize % align, 0, "alloc {size}/{align}");
                    std::ptr::write_bytes(p, 0xa5, size);
                    let grown = Metered.realloc(p, layout, size * 3);
                    assert!(!grown.is_null());
                    assert_eq!(grown as usize % align, 0, "realloc {size}/{align}");
                    assert!((0..size).all(|i| *grown.add(i) == 0xa5));
                    held.push((grown, Layout::from_size_align(size * 3, align).unwrap()));
                    let z = Metered.alloc_zeroed(layout);
                    assert_eq!(z as usize % align, 0, "alloc_zeroed {size}/{align}");
                    assert!((0..size).all(|i| *z.add(i) == 0));
                    held.push((z, layout));
                }
            }
        }
        for (p, layout) in held {
            // SAFETY: allocated above with this layout.
            unsafe { Metered.dealloc(p, layout) };
        }
    }

    /// Blocks made while the process's region fills, and after, keep their bytes through
    /// growth (in place for the region's last block, moved otherwise) and shrinking,
    /// whichever path made them, and the live count follows every step.
    #[test]
    fn blocks_keep_their_bytes_as_the_region_fills() {
        let mut held: Vec<(*mut u8, Layout, u8)> = Vec::new();
        // SAFETY: every block is used within the layout it was made or resized with, and
        // freed once.
        unsafe {
            for i in 0..3000usize {
                let layout = Layout::from_size_align(8 + (i * 37) % 400, 8).unwrap();
                let p = Metered.alloc(layout);
                assert!(!p.is_null());
                let tag = (i % 251) as u8;
                std::ptr::write_bytes(p, tag, layout.size());
                held.push((p, layout, tag));
                // Grow every third block right after making it (the region's last
                // block, while the region lasts), and shrink every fifth.
                let resize_to = match i % 15 {
                    0 | 3 | 6 | 9 | 12 => Some(layout.size() * 2 + 100),
                    5 | 10 => Some(layout.size() / 2 + 1),
                    _ => None,
                };
                if let Some(size) = resize_to {
                    let before = live_bytes();
                    let (p, old, tag) = held.pop().unwrap();
                    let q = Metered.realloc(p, old, size);
                    assert!(!q.is_null());
                    let kept = old.size().min(size);
                    assert!((0..kept).all(|j| *q.add(j) == tag), "block {i}");
                    if let (Some(a), Some(b)) = (before, live_bytes()) {
                        assert_eq!(b - a, size as i64 - old.size() as i64);
                    }
                    std::ptr::write_bytes(q, tag, size);
                    held.push((q, Layout::from_size_align(size, 8).unwrap(), tag));
                }
            }
            for &(p, layout, tag) in &held {
                assert!((0..layout.size()).all(|j| *p.add(j) == tag));
            }
            // Free in an order unlike the allocation order.
            held.sort_by_key(|&(p, _, _)| (p as usize).rotate_left(17));
            for (p, layout, _) in held {
                Metered.dealloc(p, layout);
            }
        }
    }

    /// A block that grows past the mapping threshold, grows again as a mapping, then
    /// shrinks back below it keeps its bytes at every step, and the live count follows.
    #[test]
    fn blocks_cross_the_mapping_threshold_both_ways() {
        let sizes = [
            huge::THRESHOLD / 2,
            huge::THRESHOLD + 1,
            huge::THRESHOLD * 3,
            huge::THRESHOLD * 2,
            1000,
        ];
        let mut layout = Layout::from_size_align(sizes[0], 8).unwrap();
        // SAFETY: each block is used with the layout it was made or resized with, and
        // freed once.
        unsafe {
            let mut p = Metered.alloc(layout);
            assert!(!p.is_null());
            for i in 0..layout.size() {
                *p.add(i) = (i % 251) as u8;
            }
            let mut kept = layout.size();
            for &size in &sizes[1..] {
                let before = live_bytes();
                p = Metered.realloc(p, layout, size);
                assert!(!p.is_null());
                kept = kept.min(size);
                assert!((0..kept).all(|i| *p.add(i) == (i % 251) as u8), "to {size}");
                if let (Some(a), Some(b)) = (before, live_bytes()) {
                    assert_eq!(b - a, size as i64 - layout.size() as i64);
                }
                layout = Layout::from_size_align(size, 8).unwrap();
            }
            Metered.dealloc(p, layout);
        }
    }
}
