//! The process's first small blocks, cut one after another from one static region.
//!
//! A short run (`harnc run` of a 20-line snippet) makes a few hundred allocations of
//! some fifty different sizes. mimalloc gives each size class a page of its own, and the
//! first block of each makes the kernel fault in and zero a fresh 4 KiB page: about 60
//! page faults, at about 1.7 µs each on the machine this was measured on, where the
//! whole run takes about 1.4 ms. Cut one after another, the same blocks fill about 30
//! pages. A freed block's bytes are never reused (only the last block cut can grow in
//! place, as a vector growing by doubling does), so the region fills once and for all,
//! after which every block comes from mimalloc as before; a loop that allocates and
//! frees fills it at once and never meets it again.
//!
//! **A block belongs to the region iff its address lies inside it**, so a free or a
//! resize of any block is routed by one range check, whatever its layout.

use std::cell::UnsafeCell;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Size of the process's region: about twice what a 20-line snippet's run allocates.
const REGION_BYTES: usize = 256 * 1024;

/// Largest block cut from a region: a bigger one would use up the region for a block
/// that spans whole pages anyway.
pub(super) const MAX_BLOCK: usize = 32 * 1024;

/// Alignment of a region's start, and so the strictest alignment it can serve.
const REGION_ALIGN: usize = 4096;

/// Memory for the process's region: zero-initialised, so it costs no file space, and a
/// page is faulted in only when the first block reaches it.
#[repr(C, align(4096))]
struct Space(UnsafeCell<[u8; REGION_BYTES]>);

// SAFETY: the bytes are only reached through blocks cut by `Region::cut`, which hands
// each byte range to one owner at a time (the cut point moves by compare-and-swap).
unsafe impl Sync for Space {}

static SPACE: Space = Space(UnsafeCell::new([0; REGION_BYTES]));

/// The bookkeeping of a region that blocks are cut from in address order; the region's
/// start is passed to each method (for the process's, a constant address).
pub(super) struct Region {
    len: usize,
    /// Offset of the first byte not yet cut.
    top: AtomicUsize,
    /// Set once a small block did not fit: from then on allocation skips the region.
    full: AtomicBool,
}

/// The process's region, used by the metered allocator, which starts at [`start`].
pub(super) static PROCESS: Region = Region {
    len: REGION_BYTES,
    top: AtomicUsize::new(0),
    full: AtomicBool::new(false),
};

/// Smallest size that does not take the allocator's common path: 0 while the process's
/// region serves (every allocation then tries it first), and from when it is full the
/// size from which blocks are mappings ([`super::huge`]).
static PLAIN_BELOW: AtomicUsize = AtomicUsize::new(0);

/// See [`PLAIN_BELOW`].
#[inline(always)]
pub(super) fn plain_below() -> usize {
    PLAIN_BELOW.load(Ordering::Relaxed)
}

/// Where the process's region starts.
#[inline(always)]
pub(super) fn start() -> *mut u8 {
    SPACE.0.get().cast::<u8>()
}

/// Whether `ptr` is a block of the process's region ([`Region::owns`] with the length
/// a constant: this check runs on every free).
#[inline(always)]
pub(super) fn in_process_region(ptr: *mut u8) -> bool {
    ptr.addr().wrapping_sub(start().addr()) < REGION_BYTES
}

impl Region {
    /// Whether `ptr` is a block of this region.
    #[cfg(test)]
    pub(super) fn owns(&self, start: *mut u8, ptr: *mut u8) -> bool {
        ptr.addr().wrapping_sub(start.addr()) < self.len
    }

    /// A block of `size` bytes aligned to `align`, or null when the region cannot serve
    /// it (too big, too strictly aligned, or no room left).
    #[inline(always)]
    pub(super) fn cut(&self, start: *mut u8, size: usize, align: usize) -> *mut u8 {
        if self.full.load(Ordering::Relaxed) {
            return std::ptr::null_mut();
        }
        self.cut_while_open(start, size, align)
    }

    /// [`Self::cut`] while the region still serves. Out of line and cold, so that once
    /// the region is full the allocator's entry points stay small enough to be inlined
    /// into their callers (inlined, this path made them too big, and every allocation
    /// of the JSON idiom paid a call).
    #[cold]
    #[inline(never)]
    fn cut_while_open(&self, start: *mut u8, size: usize, align: usize) -> *mut u8 {
        if size > MAX_BLOCK || align > REGION_ALIGN {
            return std::ptr::null_mut();
        }
        let mut top = self.top.load(Ordering::Relaxed);
        loop {
            // `align` is a power of two (a `Layout`'s), and the region start is aligned
            // to every alignment served, so aligning the offset aligns the address.
            let at = (top + align - 1) & !(align - 1);
            let end = at + size;
            if end > self.len {
                self.full.store(true, Ordering::Relaxed);
                if std::ptr::eq(self, &PROCESS) {
                    PLAIN_BELOW.store(super::huge::PLAIN_BELOW, Ordering::Relaxed);
                }
                return std::ptr::null_mut();
            }
            match self
                .top
                .compare_exchange_weak(top, end, Ordering::Relaxed, Ordering::Relaxed)
            {
                Ok(_) => return start.wrapping_add(at),
                Err(now) => top = now,
            }
        }
    }

    /// Resizes the block at `ptr` from `old` to `new` bytes where it lies, which is
    /// possible when it shrinks (the tail is not reused), or when it is the last block
    /// cut and the region has room. `false` when the caller must move it.
    pub(super) fn resize_in_place(
        &self,
        start: *mut u8,
        ptr: *mut u8,
        old: usize,
        new: usize,
    ) -> bool {
        let at = ptr.addr().wrapping_sub(start.addr());
        new <= old
            || at + new <= self.len
                && self
                    .top
                    .compare_exchange(at + old, at + new, Ordering::Relaxed, Ordering::Relaxed)
                    .is_ok()
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use std::alloc::{Layout, alloc};

    const TEST_LEN: usize = 64 * 1024;

    /// Test regions live in one block of the test's allocator, made once. The tests
    /// only compute addresses in it; none writes there.
    fn test_space() -> *mut u8 {
        use std::sync::OnceLock;
        static SPACE: OnceLock<usize> = OnceLock::new();
        let at = *SPACE.get_or_init(|| {
            let layout = Layout::from_size_align(TEST_LEN, REGION_ALIGN).unwrap();
            // SAFETY: a non-zero size; the block lives as long as the test process.
            unsafe { alloc(layout) }.addr()
        });
        std::ptr::without_provenance_mut(at)
    }

    fn region() -> Region {
        Region {
            len: TEST_LEN,
            top: AtomicUsize::new(0),
            full: AtomicBool::new(false),
        }
    }

    #[test]
    fn blocks_are_aligned_disjoint_and_owned() {
        let r = region();
        let mut blocks: Vec<(usize, usize)> = Vec::new();
        for (size, align) in [
            (3, 1),
            (8, 8),
            (24, 16),
            (1, 1),
            (100, 64),
            (4000, 4096),
            (5, 2),
        ] {
            let p = r.cut(test_space(), size, align);
            assert!(!p.is_null());
            assert_eq!(p as usize % align, 0, "{size}/{align}");
            assert!(r.owns(test_space(), p));
            let (a, b) = (p as usize, p as usize + size);
            assert!(blocks.iter().all(|&(c, d)| b <= c || d <= a), "overlap");
            blocks.push((a, b));
        }
        assert!(!r.owns(test_space(), test_space().wrapping_add(TEST_LEN)));
        assert!(!r.owns(test_space(), test_space().wrapping_sub(1)));
        let elsewhere = Box::new(0u8);
        assert!(!r.owns(test_space(), std::ptr::from_ref(&*elsewhere).cast_mut()));
    }

    #[test]
    fn only_the_last_block_grows_in_place() {
        let r = region();
        let a = r.cut(test_space(), 16, 8);
        let b = r.cut(test_space(), 16, 8);
        // `b` is the last block: it grows where it lies.
        assert!(r.resize_in_place(test_space(), b, 16, 64));
        let c = r.cut(test_space(), 8, 8);
        assert_eq!(c as usize, b as usize + 64);
        // `a` is not the last block: it cannot grow, but it can shrink.
        assert!(!r.resize_in_place(test_space(), a, 16, 32));
        assert!(r.resize_in_place(test_space(), a, 16, 8));
        // Nothing freed is cut again: the next block follows the last one.
        assert_eq!(r.cut(test_space(), 8, 8) as usize, c as usize + 8);
    }

    #[test]
    fn a_full_region_serves_nothing_more() {
        let r = region();
        assert!(
            r.cut(test_space(), MAX_BLOCK + 1, 8).is_null(),
            "too big for a region"
        );
        assert!(
            r.cut(test_space(), 8, 2 * REGION_ALIGN).is_null(),
            "too strictly aligned"
        );
        let mut cut = 0;
        while !r.cut(test_space(), MAX_BLOCK, 8).is_null() {
            cut += 1;
        }
        assert_eq!(cut, TEST_LEN / MAX_BLOCK);
        // Once a block did not fit, even one that would is refused.
        assert!(r.cut(test_space(), 1, 1).is_null());
        let last = test_space().wrapping_add(TEST_LEN - MAX_BLOCK);
        assert!(!r.resize_in_place(test_space(), last, MAX_BLOCK, MAX_BLOCK + 1));
    }

    /// Threads cutting at once get disjoint blocks.
    #[test]
    fn concurrent_cuts_are_disjoint() {
        let r = region();
        let mut all: Vec<usize> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..4)
                .map(|_| {
                    s.spawn(|| {
                        (0..200)
                            .map(|_| r.cut(test_space(), 24, 8).addr())
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().unwrap())
                .collect()
        });
        all.sort_unstable();
        assert!(all.iter().all(|&p| p != 0));
        assert!(all.windows(2).all(|w| w[1] - w[0] >= 24));
    }
}
