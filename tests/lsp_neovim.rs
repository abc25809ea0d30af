//! The language server with a real editor as its client: headless Neovim runs
//! `tests/nvim/lsp_check.lua`, which starts `harnc lsp` through Neovim's own LSP client
//! (its initialize, incremental `didChange` and request plumbing, not ours) on
//! `tests/nvim/snippet.harn` with the filesystem manifest, and checks the published
//! diagnostic on the misspelled local, binding and argument-key completion, hover on a
//! binding, diagnostics clearing after the fix, and a clean shutdown.
//!
//! Neovim is installed by `.ci/run`: without `nvim` on PATH this test fails under CI
//! (`CI` set) and is skipped with a notice elsewhere.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const MANIFEST: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../shared/manifests/filesystem.json"
);
const TIMEOUT: Duration = Duration::from_secs(60);
/// The lines `ok NAME` the script prints when everything works.
const CHECKS: [&str; 6] = [
    "diagnostics",
    "completion-binding",
    "completion-argument",
    "hover",
    "fix",
    "shutdown",
];

fn nvim() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join("nvim"))
        .find(|p| p.is_file())
}

/// Reads a child's pipe to the end on its own thread, so a full pipe never stalls it.
fn drain(pipe: Option<impl Read + Send + 'static>) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(mut p) = pipe {
            let _ = p.read_to_string(&mut text);
        }
        text
    })
}

#[test]
fn neovim_drives_the_language_server() {
    let Some(nvim) = nvim() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "nvim is not on PATH: install neovim (.ci/run does, with apt-get)"
        );
        println!("notice: nvim is not on PATH; skipping the Neovim LSP check (install neovim)");
        return;
    };
    let script = Path::new(ROOT).join("tests/nvim/lsp_check.lua");
    let snippet = Path::new(ROOT).join("tests/nvim/snippet.harn");
    // Neovim's LSP log goes here rather than into the home directory.
    let xdg = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("nvim-xdg");
    // `-S` with the arguments in the environment works on every Neovim; `-l` with
    // positional arguments needs 0.9, newer than Debian 12's 0.7.
    let mut child = Command::new(&nvim)
        .args(["--headless", "--clean", "-u", "NONE", "-n", "-S"])
        .arg(&script)
        .env("HARNC", env!("CARGO_BIN_EXE_harnc"))
        .env("HARN_MANIFEST", MANIFEST)
        .env("HARN_SNIPPET", &snippet)
        .env("XDG_CACHE_HOME", xdg.join("cache"))
        .env("XDG_STATE_HOME", xdg.join("state"))
        .current_dir(ROOT)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", nvim.display()));
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for nvim") {
            break Some(status);
        }
        if started.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let stdout = stdout.join().unwrap_or_default();
    let stderr = stderr.join().unwrap_or_default();
    let report = format!(
        "--- stdout\n{stdout}--- stderr\n{stderr}--- Neovim's LSP log is under {}",
        xdg.display()
    );
    let Some(status) = status else {
        panic!("nvim did not finish within {TIMEOUT:?}; killed\n{report}");
    };
    let missing: Vec<&str> = CHECKS
        .iter()
        .copied()
        .filter(|c| !stdout.lines().any(|l| l == format!("ok {c}")))
        .collect();
    assert!(
        status.success() && !stdout.contains("FAIL") && missing.is_empty(),
        "the Neovim LSP check failed ({status}; not ok: {missing:?})\n{report}"
    );
    print!("{stdout}");
}
