//! The formatter: `tests/data/fmt/X.harn` formats (at width 80) to `X.expected`; every
//! program under `tests/data/` and `examples/` that parses formats without error, to a
//! fixed point, with nothing but whitespace changed (so every comment and literal is
//! kept); and `harnc fmt` itself, in place, on stdin, with `--check`, and refusing a
//! file with syntax errors.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use harn_compiler::format::{FormatError, FormatOptions, format_source};

fn harn_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            harn_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "harn") {
            out.push(path);
        }
    }
}

fn without_whitespace(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

#[test]
fn fmt_data_files_match_their_expected_output() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fmt");
    let mut files = Vec::new();
    harn_files(&dir, &mut files);
    assert!(files.len() >= 5);
    let options = FormatOptions { width: 80 };
    for path in files {
        let source = std::fs::read_to_string(&path).unwrap();
        let expected = std::fs::read_to_string(path.with_extension("expected")).unwrap();
        let formatted =
            format_source(&source, &options).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(formatted, expected, "{}", path.display());
        assert_eq!(
            format_source(&expected, &options).unwrap(),
            expected,
            "{}",
            path.display()
        );
    }
}

#[test]
fn every_program_formats_idempotently_changing_only_whitespace() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    harn_files(&root.join("tests/data"), &mut files);
    harn_files(&root.join("examples"), &mut files);
    let mut formatted_count = 0;
    for path in &files {
        let Ok(source) = std::fs::read_to_string(path) else {
            continue;
        };
        for width in [100, 40] {
            let options = FormatOptions { width };
            let once = match format_source(&source, &options) {
                Ok(text) => text,
                Err(FormatError::Syntax(_)) => continue,
                Err(e) => panic!("{}: {e}", path.display()),
            };
            assert_eq!(
                without_whitespace(&once),
                without_whitespace(&source),
                "{} (width {width}): more than whitespace changed",
                path.display()
            );
            let twice = format_source(&once, &options).unwrap();
            assert_eq!(
                twice,
                once,
                "{} (width {width}): not idempotent",
                path.display()
            );
            formatted_count += 1;
        }
    }
    assert!(
        formatted_count > 500,
        "only {formatted_count} programs formatted"
    );
}

fn harnc(args: &[&str], stdin: &str) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_harnc"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn the_fmt_command_rewrites_checks_and_refuses() {
    let dir = std::env::temp_dir().join(format!("harnc-fmt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let messy = dir.join("messy.harn");
    let clean = dir.join("clean.harn");
    let broken = dir.join("broken.harn");
    std::fs::write(&messy, "let  x=1\n").unwrap();
    std::fs::write(&clean, "let x = 1\n").unwrap();
    std::fs::write(&broken, "let x = (1 +\n").unwrap();
    let (m, c, b) = (
        messy.to_str().unwrap(),
        clean.to_str().unwrap(),
        broken.to_str().unwrap(),
    );

    let out = harnc(&["fmt", "--check", m, c], "");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), m);
    assert_eq!(std::fs::read_to_string(&messy).unwrap(), "let  x=1\n");

    let out = harnc(&["fmt", m, c], "");
    assert!(out.status.success());
    assert_eq!(std::fs::read_to_string(&messy).unwrap(), "let x = 1\n");
    assert!(harnc(&["fmt", "--check", m, c], "").status.success());

    let out = harnc(&["fmt", b], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("syntax errors"));
    assert_eq!(std::fs::read_to_string(&broken).unwrap(), "let x = (1 +\n");

    let out = harnc(&["fmt", "-"], "log( 1 ,2 )\n");
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "log(1, 2)\n");
    let out = harnc(
        &["fmt", "--width", "20", "-"],
        "log(first_value, second_value, third)\n",
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "log(\n  first_value,\n  second_value,\n  third\n)\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
