//! The recursion guard every recursive pass runs under ([`maybe_grow`]): `stacker`'s,
//! with a quick path for the stack the `harnc` binary runs its command on.
//!
//! `stacker` measures the room left against the bounds of the thread's stack, which it
//! asks glibc for the first time it runs on a thread. For the main thread glibc can
//! only answer by reading and parsing `/proc/self/maps`: about 35 µs on the machine this
//! was measured on, some 3% of a 20-line `harnc run`. The binary runs its command on a
//! stack it maps itself, whose bounds it records here ([`KnownStack::enter`]); on that
//! stack the guard compares against them and never asks. Anywhere else (other threads,
//! hosts embedding the crates, a segment `stacker` has grown) it is `stacker`'s own.

use std::cell::Cell;

thread_local! {
    /// The lowest and highest address of the stack this thread runs on, when the
    /// binary mapped it itself; `(0, 0)` otherwise.
    static KNOWN: Cell<(usize, usize)> = const { Cell::new((0, 0)) };
}

/// Runs `f` with at least `red_zone` bytes of stack to spare, continuing on a fresh
/// segment of `segment` bytes when there are fewer (as `stacker::maybe_grow`).
#[inline]
pub fn maybe_grow<R>(red_zone: usize, segment: usize, f: impl FnOnce() -> R) -> R {
    let (floor, top) = KNOWN.try_with(Cell::get).unwrap_or((0, 0));
    // The address of a local stands for the stack pointer: the red zones are tens of
    // kilobytes, and a frame is far smaller.
    let here = 0u8;
    let sp = std::ptr::from_ref(&here).addr();
    if floor < sp && sp <= top {
        if sp - floor >= red_zone {
            return f();
        }
        // Low on the known stack: a fresh segment, whose bounds `stacker` sets itself.
        return stacker::grow(segment, f);
    }
    stacker::maybe_grow(red_zone, segment, f)
}

/// The record that this thread runs on a stack of known bounds, in force while it
/// lives.
pub struct KnownStack {
    before: (usize, usize),
}

impl KnownStack {
    /// Records that this thread now runs on the stack from `floor` (its lowest usable
    /// address) to `top`, until the returned value is dropped.
    ///
    /// # Safety
    ///
    /// The thread must be running on that stack, every byte of it usable, for as long
    /// as the record lives, and the record must be dropped on the same stack.
    pub unsafe fn enter(floor: usize, top: usize) -> KnownStack {
        let before = KNOWN
            .try_with(|k| k.replace((floor, top)))
            .unwrap_or((0, 0));
        KnownStack { before }
    }
}

impl Drop for KnownStack {
    fn drop(&mut self) {
        let _ = KNOWN.try_with(|k| k.set(self.before));
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    fn depth(n: u32) -> u32 {
        // A frame that cannot be optimised away, so the recursion uses real stack.
        let pad = std::hint::black_box([n as u8; 512]);
        if n == 0 {
            return u32::from(pad[0]);
        }
        maybe_grow(32 * 1024, 256 * 1024, || depth(n - 1) + 1)
    }

    /// Deep recursion works on an unknown stack (`stacker`'s path), and on a known one
    /// recorded as nearly full, where every call must move to fresh segments.
    #[test]
    fn recursion_deeper_than_the_stack_works_either_way() {
        assert_eq!(depth(20_000), 20_000);
        let here = 0u8;
        let sp = std::ptr::from_ref(&here).addr();
        // SAFETY: the record claims only the part of this thread's stack below the
        // current frame that it already owns down to 40 KB below (the test thread's
        // stack is larger than that), and is dropped on this stack.
        let known = unsafe { KnownStack::enter(sp - 40 * 1024, sp + 4096) };
        assert_eq!(depth(20_000), 20_000);
        drop(known);
        assert_eq!(KNOWN.with(Cell::get), (0, 0));
    }
}
