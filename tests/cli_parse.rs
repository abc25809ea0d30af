//! `harnc parse` / `harnc check` driven as a user would: real binary, files and stdin.

use std::io::Write;
use std::process::Stdio;

mod common;

use common::harnc;

/// Runs harnc with `args`; its exit code and stderr.
fn run<S: AsRef<std::ffi::OsStr>>(args: impl IntoIterator<Item = S>) -> (Option<i32>, String) {
    let out = harnc()
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn temp_file(name: &str, text: &str) -> std::path::PathBuf {
    common::temp_file_in("cli", name, text)
}

#[test]
fn parse_accepts_a_valid_file_and_rejects_a_broken_one() {
    let good = temp_file("good.harn", "let x = 1\nlog(x)\n");
    let bad = temp_file("bad.harn", "let x = \nlog(1 +)\n");
    let ok = harnc()
        .arg("parse")
        .arg(&good)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(ok.status.success());
    assert!(ok.stderr.is_empty());
    let out = harnc()
        .args(["parse", "--error-format", "short"])
        .arg(&good)
        .arg(&bad)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("bad.harn:2:8: error[E0100]: Expected expression, got ) at 2:8"),
        "{stderr}"
    );
}

#[test]
fn parse_reads_standard_input_and_prints_tokens_and_ast() {
    let mut child = harnc()
        .args(["parse", "--tokens", "--ast", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(b"let answer = 40 + 2\n");
    }
    let out = child.wait_with_output().unwrap_or_else(|e| panic!("{e}"));
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("1:5 id(answer)"), "{stdout}");
    assert!(stdout.contains("Binary + @13..19"), "{stdout}");
}

#[test]
fn check_reports_pretty_diagnostics_with_the_source_line() {
    let bad = temp_file("pretty.harn", "let tool = 1\n");
    let out = harnc()
        .arg("check")
        .arg(&bad)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("got 'tool' (reserved keyword) at 1:5"),
        "{stderr}"
    );
    assert!(stderr.contains("let tool = 1"), "{stderr}");
}

#[test]
fn missing_file_is_a_clear_error() {
    let out = harnc()
        .args(["parse", "/nonexistent/x.harn"])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read /nonexistent/x.harn"));
}

#[test]
fn check_reports_compile_errors_after_a_clean_parse() {
    let bad = temp_file("compile.harn", "let x = 1\nbreak\n");
    let good = temp_file("fine.harn", "fn f(n) { return n + 1 }\nlog(f(1))\n");
    let short = std::ffi::OsStr::new("short");
    let (code, stderr) = run([
        "check".as_ref(),
        "--error-format".as_ref(),
        short,
        good.as_os_str(),
        bad.as_os_str(),
    ]);
    assert_eq!(code, Some(1));
    assert!(
        stderr.contains("compile.harn:2:1: error[E0200]: break outside of loop"),
        "{stderr}"
    );
    assert!(!stderr.contains("fine.harn"), "{stderr}");
    assert_eq!(run(["check".as_ref(), good.as_os_str()]).0, Some(0));
}

#[test]
fn check_with_a_manifest_applies_the_code_mode_static_stage() {
    let manifest = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/manifests/time.json");
    let denied = temp_file("denied.harn", "return read_file(\"/etc/passwd\")\n");
    let unknown = temp_file("unknown.harn", "return no_such_tool({})\n");
    let fine = temp_file("snippet.harn", "return 1 + 1\n");
    let (code, stderr) = run([
        "check".as_ref(),
        "--manifest".as_ref(),
        manifest.as_ref(),
        denied.as_os_str(),
        unknown.as_os_str(),
        fine.as_os_str(),
    ]);
    assert_eq!(code, Some(1));
    assert!(
        stderr.contains("[denied_builtin] Error: composition snippets cannot call `read_file`")
            && stderr.contains("denied.harn:1:8")
            && stderr.contains("capability `io.fs`"),
        "{stderr}"
    );
    assert!(
        stderr.contains("[compile_error] Error: composition call target `no_such_tool`")
            && stderr.contains("unknown.harn:1:8"),
        "{stderr}"
    );
    // The short form: one located line per diagnostic, every violation of a file.
    let several = temp_file(
        "several.harn",
        "let a = read_file(\"/x\")\nlet b = no_such_tool({})\nreturn exec([\"ls\"])\n",
    );
    let (code, stderr) = run([
        "check".as_ref(),
        "--error-format".as_ref(),
        "short".as_ref(),
        "--manifest".as_ref(),
        manifest.as_ref(),
        several.as_os_str(),
    ]);
    assert_eq!(code, Some(1));
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 3, "{stderr}");
    assert!(
        lines[0].ends_with("several.harn:1:9: error[denied_builtin]: composition snippets cannot call `read_file` (capability `io.fs` is not available in code mode)"),
        "{stderr}"
    );
    assert!(
        lines[1].contains(
            "several.harn:2:9: error[compile_error]: composition call target `no_such_tool`"
        ),
        "{stderr}"
    );
    assert!(
        lines[2].contains(
            "several.harn:3:8: error[denied_builtin]: composition snippets cannot call `exec`"
        ),
        "{stderr}"
    );
    assert!(!stderr.contains("snippet.harn"), "{stderr}");
    // The same snippet outside code mode is an ordinary program: `read_file` compiles.
    assert_eq!(run(["check".as_ref(), denied.as_os_str()]).0, Some(0));
}

#[test]
fn check_refuses_run_only_flags() {
    let file = temp_file("run_only.harn", "return 1\n");
    for flags in [
        vec!["--report", "json"],
        vec!["--events", "/tmp/e.jsonl"],
        vec!["--max-operations", "3"],
        vec!["--timeout-ms", "10"],
    ] {
        let mut args = vec!["check".as_ref(), "--code-mode".as_ref()];
        args.extend(flags.iter().map(std::ffi::OsStr::new));
        args.push(file.as_os_str());
        let (code, stderr) = run(args);
        assert_eq!(code, Some(2), "{flags:?}: {stderr}");
        assert!(stderr.contains("unexpected argument"), "{stderr}");
    }
    let (code, _) = run(["check".as_ref(), "--code-mode".as_ref(), file.as_os_str()]);
    assert_eq!(code, Some(0));
}
