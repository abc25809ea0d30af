//! How the process starts and ends: the command runs on a stack of its own, on the main
//! thread, and ends the process itself when it is over.
//!
//! On Linux with glibc the process enters at the C `main` below instead of Rust's
//! runtime start. That start finds the main thread's stack bounds for its overflow
//! guard, and glibc can only answer by reading and parsing `/proc/self/maps`: about
//! 118k instructions, a ninth of a small `harnc run`; the recursion guard never asks
//! either ([`run`]). What else that start does and harnc relies on is done here: standard
//! descriptors that are closed are opened on `/dev/null` (so no file harnc opens can
//! become its stdout), and SIGPIPE is ignored (a closed pipe is an error to report,
//! not a silent death). Left out: the handler that names a thread overflowing its stack
//! before aborting; deep recursion is bounded everywhere (`stacker`, nesting limits),
//! and an overflow would still end the process, by SIGSEGV. `std::env::args` still
//! works: glibc hands the arguments to the standard library through `.init_array`,
//! before `main`.

use std::process::ExitCode;

/// The stack the command runs on: what Linux gives a main thread.
const COMMAND_STACK_BYTES: usize = 8 * 1024 * 1024;

/// The exit status when the command panicked (as Rust's own for a panicking `main`);
/// the panic message is already on stderr.
const PANIC_EXIT: u8 = 101;

#[cfg(all(not(test), target_os = "linux", target_env = "gnu"))]
#[unsafe(no_mangle)]
extern "C" fn main(_argc: libc::c_int, _argv: *const *const libc::c_char) -> libc::c_int {
    prepare_process();
    libc::c_int::from(run())
}

/// The parts of Rust's runtime start that harnc relies on (module doc).
#[cfg(all(not(test), target_os = "linux", target_env = "gnu"))]
fn prepare_process() {
    for fd in [libc::STDIN_FILENO, libc::STDOUT_FILENO, libc::STDERR_FILENO] {
        // SAFETY: `fcntl(F_GETFD)` only asks whether the descriptor is open.
        let closed = unsafe { libc::fcntl(fd, libc::F_GETFD) } == -1
            && std::io::Error::last_os_error().raw_os_error() == Some(libc::EBADF);
        // Descriptors are allocated lowest first, so opening fills exactly `fd`.
        // SAFETY: a constant NUL-terminated path and plain flags.
        if closed && unsafe { libc::open(c"/dev/null".as_ptr(), libc::O_RDWR) } != fd {
            // As Rust's own start does: carrying on could write output into a file.
            std::process::abort();
        }
    }
    // SAFETY: installs the ignore disposition; no handler code is involved.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_IGN) };
}

/// Runs the command on a stack of its own; the exit status if it returns (it normally
/// ends the process itself, [`exit_now`]).
///
/// Deep recursion everywhere (parser, checker, compiler, VM) is guarded by
/// `harn_compiler::stack::maybe_grow`, which must know the bounds of the stack it runs
/// on: the command's stack is mapped by [`crate::command_stack`], which records them.
/// (`stacker::grow` did the same but asked glibc for the main thread's bounds first, a
/// read of `/proc/self/maps`. The worker thread before that knew its own stack but cost
/// a clone, a start on the other core and a join: a 20-line `harnc run` took 1.93 ms
/// with it and 1.83 ms without, medians of 1,500 runs, Lua 5.4: 1.50 ms.)
pub(crate) fn run() -> u8 {
    crate::ALLOCATOR.activate();
    crate::command_stack::run(COMMAND_STACK_BYTES, PANIC_EXIT, || {
        exit_now(crate::command())
    })
}

/// Ends the process with `code` once the command is over, on the command's stack.
/// Everything the command owned was dropped when it returned; what a normal exit would
/// still do is unmap the command's stack, run the exit handlers and let the allocator return
/// every page to the OS one `madvise` at a time (mimalloc collects at exit), all for an
/// address space about to vanish. Standard output is flushed first: that buffer is the
/// one thing an immediate exit could lose.
fn exit_now(code: ExitCode) -> u8 {
    use std::io::Write;
    let flushed = std::io::stdout().flush().is_ok() && std::io::stderr().flush().is_ok();
    let status = (0..=u8::MAX)
        .find(|&n| ExitCode::from(n) == code)
        .unwrap_or(1);
    #[cfg(unix)]
    if flushed {
        // SAFETY: `_exit` ends the process at once; no Rust code runs after it, so no
        // invariant of this program can be observed broken.
        unsafe { libc::_exit(libc::c_int::from(status)) }
    }
    // Reached on Unix only when a flush failed: the ordinary way out reports it.
    let _ = flushed;
    status
}
