//! Link settings for the `harnc` executable (the library crates have none). All are
//! about start-up: a 20-line `harnc run` is mostly the loader's and the kernel's work.

use std::path::Path;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=HARNC_PIE");
    println!("cargo:rerun-if-env-changed=CC");
    println!("cargo:rerun-if-env-changed=HARNC_SYMBOL_ORDER");
    println!("cargo:rerun-if-changed={SYMBOL_ORDER}");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    if os != "linux" || env != "gnu" {
        return;
    }
    link_position(std::env::var_os("HARNC_PIE").is_some_and(|v| v == "1"));
    link_unwinder_statically();
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    if arch == "x86_64" && std::env::var_os("HARNC_SYMBOL_ORDER").is_none_or(|v| v != "0") {
        link_startup_code_together();
    }
}

/// The functions a short run executes, one mangled name a line
/// (`benches/startup_order.sh` writes it).
const SYMBOL_ORDER: &str = "link/startup-order.txt";

/// Lays out the functions a short run executes side by side at the start of `.text`.
/// Each 64 KB window of code a run first touches costs a page fault (about 1.5 µs on a
/// virtual machine); spread over the 20 MB of code by the compiler's order, the
/// start-up path touched about 60 windows, and together it takes a few (the 20-line
/// snippet: 248 to 210 faults, 1.37 to 1.32 ms). Only on x86-64 Linux, where Rust links
/// with LLD, which takes the order as `--symbol-ordering-file` (GNU ld does not);
/// `HARNC_SYMBOL_ORDER=0` at build time leaves the linker's own order. A name the file
/// lists that no longer exists is skipped without a warning: a stale file only loses
/// its benefit.
fn link_startup_code_together() {
    let Ok(dir) = std::env::var("CARGO_MANIFEST_DIR") else {
        return;
    };
    let path = Path::new(&dir).join(SYMBOL_ORDER);
    if path.is_file() {
        println!(
            "cargo:rustc-link-arg-bins=-Wl,--symbol-ordering-file={}",
            path.display()
        );
        println!("cargo:rustc-link-arg-bins=-Wl,--no-warn-symbol-ordering");
    }
}

fn link_position(pie: bool) {
    if pie {
        // Position-independent on request: the loader then patches about 23,000 pointers
        // at every start. Packed as DT_RELR (glibc 2.36, binutils 2.38 and later) their
        // table is a 7 KB bitmap instead of about 550 KB of 24-byte entries.
        println!("cargo:rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
    } else {
        // A fixed-address executable by default. As a PIE, every one of the 100 pages of
        // `.data.rel.ro` (vtables, `&str` tables, panic locations) holds a pointer the
        // loader must rewrite, so each start paid about 110 copy-on-write page faults
        // (some 2 µs each here) before `main`, a quarter of all its faults. The code is
        // still compiled position-independent; only the main image loses its random
        // base: the heap, the stacks, mmap and the shared libraries stay randomised.
        // `HARNC_PIE=1` at build time restores a PIE.
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}

/// Rust's standard library asks for the unwinder as `-lgcc_s`, the shared libgcc, whose
/// loading costs a process about 0.3 ms on this kind of machine (a third of the gap
/// to Lua's start-up): its constructor probes the CPU with `cpuid`, which a virtual
/// machine traps. The same unwinder exists as the static `libgcc_eh.a`, so a
/// `libgcc_s.so` linker script placed first on the search path turns `-lgcc_s` into
/// it. Panics still unwind (`catch_unwind`, backtraces). Skipped when the C compiler
/// cannot find `libgcc_eh.a`; the link then stays as it was.
fn link_unwinder_statically() {
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".to_string());
    let found = Command::new(cc)
        .arg("-print-file-name=libgcc_eh.a")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .is_some_and(|path| Path::new(path.trim()).is_absolute());
    let Some(out) = std::env::var_os("OUT_DIR").filter(|_| found) else {
        return;
    };
    let script = Path::new(&out).join("libgcc_s.so");
    if std::fs::write(&script, "INPUT(-lgcc_eh)\n").is_ok() {
        println!(
            "cargo:rustc-link-search=native={}",
            Path::new(&out).display()
        );
    }
}
