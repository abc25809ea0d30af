//! Link settings for the `harnc` executable (the library crates have none). Both are
//! about start-up: a 20-line `harnc run` is mostly the loader's and the kernel's work.

use std::path::Path;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=HARNC_PIE");
    println!("cargo:rerun-if-env-changed=CC");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    if os != "linux" || env != "gnu" {
        return;
    }
    link_position(std::env::var_os("HARNC_PIE").is_some_and(|v| v == "1"));
    link_unwinder_statically();
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
