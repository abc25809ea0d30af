//! Blocks of [`THRESHOLD`] bytes or more, mapped straight from the kernel (Linux).
//!
//! A list that grows by doubling (`xs.push(x)` a million times, or `filter` collecting
//! its result) reallocates its buffer a few dozen times. mimalloc copies each time into a
//! fresh block, whose pages the kernel must fault in and zero again: for a 16 MB list,
//! 32 MB of page faults and 16 MB of copying. `mremap` moves the pages themselves, so a
//! huge block grows by faulting in only its new part, as C's `realloc` does for mapped
//! blocks. Freeing one returns its pages at once.
//!
//! **Which path owns a block follows from its size alone** (`size >= THRESHOLD` and an
//! alignment the page size satisfies): `GlobalAlloc` is always given back the layout a
//! block was made with, so alloc, realloc and dealloc agree without a header.

/// Smallest block that is mapped directly. Below it mimalloc's reuse of freed memory
/// wins; above it a copy (and the faults of a fresh block) costs more than a system call.
pub(super) const THRESHOLD: usize = 4 << 20;

/// Smallest size that [`owns`] may claim: blocks below it never are mappings.
pub(super) const PLAIN_BELOW: usize = if cfg!(target_os = "linux") {
    THRESHOLD
} else {
    usize::MAX
};

/// Alignment every mapping has.
const PAGE: usize = 4096;

/// Whether a block of `size` bytes aligned to `align` is (or would be) a mapping.
#[inline]
pub(super) fn owns(size: usize, align: usize) -> bool {
    cfg!(target_os = "linux") && size >= THRESHOLD && align <= PAGE
}

/// A fresh zeroed mapping of `size` bytes, or null.
#[cfg(target_os = "linux")]
pub(super) fn map(size: usize) -> *mut u8 {
    // SAFETY: an anonymous private mapping at an address of the kernel's choosing
    // touches no existing memory.
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            size,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    if p == libc::MAP_FAILED {
        std::ptr::null_mut()
    } else {
        p.cast()
    }
}

/// Unmaps a block from [`map`] or [`remap`].
///
/// # Safety
///
/// `p` and `size` describe a live mapping from this module.
#[cfg(target_os = "linux")]
pub(super) unsafe fn unmap(p: *mut u8, size: usize) {
    // SAFETY: the caller's contract. A failure leaves the pages mapped (a leak, not
    // corruption), and the allocator has nowhere to report it.
    unsafe { libc::munmap(p.cast(), size) };
}

/// Resizes a mapping, moving it if it cannot grow in place; null on failure (the old
/// mapping is then untouched).
///
/// # Safety
///
/// `p` and `old` describe a live mapping from this module.
#[cfg(target_os = "linux")]
pub(super) unsafe fn remap(p: *mut u8, old: usize, new: usize) -> *mut u8 {
    // SAFETY: the caller's contract; MREMAP_MAYMOVE leaves no alias to the old range.
    let q = unsafe { libc::mremap(p.cast(), old, new, libc::MREMAP_MAYMOVE) };
    if q == libc::MAP_FAILED {
        std::ptr::null_mut()
    } else {
        q.cast()
    }
}

#[cfg(not(target_os = "linux"))]
pub(super) fn map(_size: usize) -> *mut u8 {
    std::ptr::null_mut()
}

#[cfg(not(target_os = "linux"))]
pub(super) unsafe fn unmap(_p: *mut u8, _size: usize) {}

#[cfg(not(target_os = "linux"))]
pub(super) unsafe fn remap(_p: *mut u8, _old: usize, _new: usize) -> *mut u8 {
    std::ptr::null_mut()
}
