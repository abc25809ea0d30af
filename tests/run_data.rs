//! Runs `tests/data/run/` through the real `harnc test` command: each `X.harn` must
//! print exactly `X.expected`, or fail with an error matching `X.error`.

use std::process::Command;

#[test]
fn run_suite_passes() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/run");
    let out = Command::new(env!("CARGO_BIN_EXE_harnc"))
        .arg("test")
        .arg(&dir)
        .output()
        .unwrap_or_else(|e| panic!("cannot run harnc: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "harnc test failed:\n{stdout}");
    let summary = stdout.lines().last().unwrap_or_default();
    assert!(summary.ends_with(" passed, 0 failed"), "{summary}");
    assert!(!summary.starts_with("0 passed"), "no test ran: {summary}");
}
