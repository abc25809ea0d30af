//! How the `harnc` process starts and ends (`src/entry.rs`): it enters past Rust's
//! runtime start on Linux and ends itself with `_exit` from its worker thread, so what
//! that start and an ordinary exit did for it is held here: every byte of output
//! arrives, the exit status is the command's, a closed pipe is an error rather than a
//! signal, and closed standard descriptors do not break a run.

use std::process::{Command, Stdio};

mod common;

use common::harnc;

fn temp_file(name: &str, text: &str) -> std::path::PathBuf {
    common::temp_file_in("process", name, text)
}

/// `harnc run FILE` to completion, its output captured.
fn run_file(program: &std::path::Path) -> std::process::Output {
    harnc()
        .arg("run")
        .arg(program)
        .output()
        .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn all_output_arrives_before_the_process_ends() {
    let program = temp_file(
        "many.harn",
        "for i in 0 to 20000 exclusive { log(\"line ${i}\") }\n",
    );
    let out = run_file(&program);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 20000);
    assert_eq!(lines.first().copied(), Some("[harn] line 0"));
    assert_eq!(lines.last().copied(), Some("[harn] line 19999"));
}

#[test]
fn the_exit_status_and_the_error_text_are_the_commands() {
    let program = temp_file("throws.harn", "log(\"before\")\nthrow \"boom\"\n");
    let out = run_file(&program);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "[harn] before\n");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("boom"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Usage errors come from clap, through the same way out.
    let usage = harnc()
        .arg("no-such-command")
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(usage.status.code(), Some(2));
}

#[test]
fn a_closed_pipe_is_an_error_not_a_signal() {
    let program = temp_file("pipe.harn", "log(\"into a closed pipe\")\n");
    let (reader, writer) = std::io::pipe().unwrap_or_else(|e| panic!("{e}"));
    // Nobody will ever read: every write gets EPIPE, or SIGPIPE where it is not ignored.
    drop(reader);
    let status = harnc()
        .arg("run")
        .arg(&program)
        .stdout(writer)
        .stderr(Stdio::null())
        .status()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        status.code().is_some(),
        "harnc was killed by a signal: {status:?}"
    );
}

#[cfg(unix)]
#[test]
fn closed_standard_descriptors_are_reopened_on_dev_null() {
    let program = temp_file("quiet.harn", "log(\"to nowhere\")\n");
    let before = std::fs::read_to_string(&program).unwrap_or_else(|e| panic!("{e}"));
    // The shell closes stdin, stdout and stderr before harnc starts; the source file
    // must not become harnc's stdout.
    let status = Command::new("sh")
        .arg("-c")
        .arg("exec \"$0\" run \"$1\" <&- >&- 2>&-")
        .arg(env!("CARGO_BIN_EXE_harnc"))
        .arg(&program)
        .status()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(status.code(), Some(0));
    let after = std::fs::read_to_string(&program).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(before, after);
}
