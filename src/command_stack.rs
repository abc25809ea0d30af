//! The stack the command runs on: mapped here, with an inaccessible guard page below it,
//! and its bounds recorded for the recursion guard (`harn_compiler::stack`), which then
//! never asks glibc for the main thread's stack bounds (a read and parse of
//! `/proc/self/maps`, about 35 µs of a 20-line `harnc run`, as `stacker::grow` did).

use std::panic::{AssertUnwindSafe, catch_unwind};

use harn_compiler::stack::KnownStack;

/// Runs `f` on a fresh stack of `size` bytes (a multiple of the page size), or where it
/// is if none can be mapped. A panic in `f` gives `on_panic` (the message is already on
/// stderr): unwinding must not cross the switch between stacks.
pub(crate) fn run(size: usize, on_panic: u8, f: impl FnOnce() -> u8) -> u8 {
    #[cfg(unix)]
    if let Some(stack) = Mapping::new(size) {
        return stack.run(on_panic, f);
    }
    catch_unwind(AssertUnwindSafe(f)).unwrap_or(on_panic)
}

/// A stack mapping: one guard page, then `size` readable and writable bytes.
#[cfg(unix)]
struct Mapping {
    base: *mut libc::c_void,
    guard: usize,
    size: usize,
}

#[cfg(unix)]
impl Mapping {
    fn new(size: usize) -> Option<Mapping> {
        // SAFETY: `sysconf` only reads a system constant.
        let guard = usize::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).ok()?;
        if guard == 0 || !size.is_multiple_of(guard) {
            return None;
        }
        let total = size.checked_add(guard)?;
        // SAFETY: a fresh private anonymous mapping, at an address of the kernel's choosing,
        // touches no existing memory.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                total,
                libc::PROT_NONE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return None;
        }
        let mapping = Mapping { base, guard, size };
        // SAFETY: the range lies inside the mapping just made.
        let usable = unsafe {
            libc::mprotect(
                base.cast::<u8>().add(guard).cast(),
                size,
                libc::PROT_READ | libc::PROT_WRITE,
            )
        };
        (usable == 0).then_some(mapping)
    }

    fn run(&self, on_panic: u8, f: impl FnOnce() -> u8) -> u8 {
        // SAFETY: the readable and writable part of the mapping, page-aligned.
        let floor = unsafe { self.base.cast::<u8>().add(self.guard) };
        let top = floor.addr() + self.size;
        // SAFETY: `floor` and `size` describe memory this mapping owns, aligned to a page,
        // and unused until the mapping is dropped after the switch back; the callback
        // cannot unwind (every panic is caught inside it), and the record of the bounds
        // is made and dropped on the new stack.
        unsafe {
            psm::on_stack(floor, self.size, || {
                let _known = KnownStack::enter(floor.addr(), top);
                catch_unwind(AssertUnwindSafe(f)).unwrap_or(on_panic)
            })
        }
    }
}

#[cfg(unix)]
impl Drop for Mapping {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `new`, no longer used. A failure leaves it mapped.
        unsafe { libc::munmap(self.base, self.size + self.guard) };
    }
}

#[cfg(test)]
#[allow(clippy::panic)]
mod tests {
    use super::*;

    fn depth(n: u32) -> u32 {
        let pad = std::hint::black_box([n as u8; 1024]);
        if n == 0 {
            return u32::from(pad[0]);
        }
        harn_compiler::stack::maybe_grow(64 * 1024, 1024 * 1024, || depth(n - 1) + 1)
    }

    /// On the command stack, recursion far deeper than the stack continues on segments
    /// that `stacker` grows, and a panic comes back as the given status.
    #[test]
    fn the_command_stack_grows_and_contains_panics() {
        let size = 256 * 1024;
        assert_eq!(run(size, 101, || u8::from(depth(5_000) == 5_000)), 1);
        assert_eq!(run(size, 101, || panic!("boom")), 101);
    }
}
