//! Every builtin that `harnc builtins --json` lists must be called in the run data files
//! (`tests/data/run/`): at least once in an output test (`X.harn` with `X.expected`, not
//! an `errors_*` file) for its normal behaviour, and at least once in an `errors_*` test
//! for its behaviour on a wrong argument type or count.
//!
//! A call is `name(` where `name` is not preceded by an identifier character or `.` (so
//! methods such as `xs.map(` do not count); comments are ignored. Exemptions are listed
//! below, each with its reason; an exemption that no longer names a builtin, or that is
//! no longer needed, fails the test so the lists stay honest.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Builtins without a normal-behaviour test in `tests/data/run`, each with the reason and
/// the file (relative to the package root) that covers it instead, which must call it.
const NORMAL_EXEMPT: &[(&str, &str, &str)] = &[
    (
        "call_tool",
        "only callable in code mode; its normal behaviour is covered by the code-mode snippets",
        "tests/data/code_mode/dispatch_call_tool.harn",
    ),
    (
        "__composition_call",
        "only callable in code mode; its normal behaviour is covered by the code-mode snippets",
        "tests/data/code_mode/dispatch_call_tool.harn",
    ),
    (
        "http_get",
        "covered by tests/trusted_io.rs against a local server",
        "tests/trusted_io.rs",
    ),
    (
        "http_post",
        "covered by tests/trusted_io.rs against a local server",
        "tests/trusted_io.rs",
    ),
    (
        "log_debug",
        "every line carries the current time (`ts`), which an .expected file cannot hold; checked by `structured_loggers_write_json_lines` below",
        "tests/builtin_coverage.rs",
    ),
    (
        "log_info",
        "every line carries the current time (`ts`), which an .expected file cannot hold; checked by `structured_loggers_write_json_lines` below",
        "tests/builtin_coverage.rs",
    ),
    (
        "log_warn",
        "every line carries the current time (`ts`), which an .expected file cannot hold; checked by `structured_loggers_write_json_lines` below",
        "tests/builtin_coverage.rs",
    ),
    (
        "log_error",
        "every line carries the current time (`ts`), which an .expected file cannot hold; checked by `structured_loggers_write_json_lines` below",
        "tests/builtin_coverage.rs",
    ),
];

/// Builtins without an error-behaviour test, each with the reason. Every one must take
/// no parameters (checked against its signature): a builtin ignores extra arguments (as
/// every builtin does), so there is no wrong argument type or count to test.
const ERROR_EXEMPT: &[(&str, &str)] = &[
    (
        "pi",
        "a constant: takes no arguments, so no input can be wrong",
    ),
    (
        "e",
        "a constant: takes no arguments, so no input can be wrong",
    ),
    (
        "now",
        "reads the clock: takes no arguments, so no input can be wrong",
    ),
    (
        "now_ms",
        "reads the clock: takes no arguments, so no input can be wrong",
    ),
    (
        "timestamp",
        "reads the clock: takes no arguments, so no input can be wrong",
    ),
    (
        "date_now",
        "reads the clock: takes no arguments, so no input can be wrong",
    ),
    (
        "date_now_iso",
        "reads the clock: takes no arguments, so no input can be wrong",
    ),
    (
        "uuid",
        "draws a random UUID: takes no arguments, so no input can be wrong",
    ),
];

struct Builtin {
    name: String,
    signature: String,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn builtins() -> Vec<Builtin> {
    let out = Command::new(env!("CARGO_BIN_EXE_harnc"))
        .args(["builtins", "--json"])
        .output()
        .unwrap_or_else(|e| panic!("cannot run harnc builtins: {e}"));
    assert!(
        out.status.success(),
        "harnc builtins --json failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("harnc builtins --json is not JSON: {e}"));
    let list = json
        .as_array()
        .unwrap_or_else(|| panic!("harnc builtins --json is not an array"));
    let builtins: Vec<Builtin> = list
        .iter()
        .map(|b| {
            let field = |k: &str| {
                b.get(k)
                    .and_then(|v| v.as_str())
                    .unwrap_or_else(|| panic!("builtin entry without `{k}`: {b}"))
                    .to_owned()
            };
            Builtin {
                name: field("name"),
                signature: field("signature"),
            }
        })
        .collect();
    assert!(
        builtins.len() > 100,
        "suspiciously few builtins: {}",
        builtins.len()
    );
    builtins
}

/// The source with `//` and (nesting) `/* */` comments removed; string literals are kept
/// (a `//` inside a string is not a comment).
fn strip_comments(src: &str) -> String {
    let chars: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    let mut in_string = false;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if in_string {
            out.push(c);
            if c == '\\' {
                if let Some(n) = next {
                    out.push(n);
                    i += 1;
                }
            } else if c == '"' {
                in_string = false;
            }
            i += 1;
        } else if c == '"' {
            in_string = true;
            out.push(c);
            i += 1;
        } else if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0usize;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// Every name called as `name(` in the source (or `root.name(`, the form of a
/// namespaced builtin such as `stream.map`), not preceded by an identifier character or
/// `.`.
fn called_names(src: &str) -> BTreeSet<String> {
    let re = regex::Regex::new(
        r"(?:[\p{Alphabetic}_][\p{Alphabetic}\p{N}_]*\.)?[\p{Alphabetic}_][\p{Alphabetic}\p{N}_]*\(",
    )
        .unwrap_or_else(|e| panic!("{e}"));
    let src = strip_comments(src);
    re.find_iter(&src)
        .filter(|m| {
            let before = src[..m.start()].chars().next_back();
            !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
        })
        .map(|m| m.as_str().trim_end_matches('(').to_owned())
        .filter(|name| match name.split_once('.') {
            Some((root, _)) => harn_compiler::builtins::NAMESPACES.contains(&root),
            None => true,
        })
        .collect()
}

/// The run data tests: stem → (is an output test, called names).
fn run_tests() -> BTreeMap<String, (bool, BTreeSet<String>)> {
    let dir = root().join("tests/data/run");
    let mut tests = BTreeMap::new();
    let entries =
        std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
    for entry in entries {
        let path = entry.unwrap_or_else(|e| panic!("{e}")).path();
        if path.extension().and_then(|e| e.to_str()) != Some("harn") {
            continue;
        }
        let expected = path.with_extension("expected").is_file();
        let error = path.with_extension("error").is_file();
        if !expected && !error {
            continue; // a helper, not a test
        }
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_else(|| panic!("odd file name: {}", path.display()))
            .to_owned();
        let src = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        tests.insert(stem, (expected, called_names(&src)));
    }
    tests
}

fn file_calls(rel: &str, name: &str) -> bool {
    let path: &Path = &root().join(rel);
    let src = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    called_names(&src).contains(name)
}

#[test]
fn call_detection() {
    let names = called_names(
        "log(abs(-1)) // len(x)\nxs.map(f) /* keys( /* nested */ values( */ \"http://x\" trim(s)\nmyabs(1) é_x(2)",
    );
    let got: Vec<&str> = names.iter().map(String::as_str).collect();
    assert_eq!(got, ["abs", "log", "myabs", "trim", "é_x"]);
}

#[test]
fn every_builtin_has_normal_and_error_tests() {
    let builtins = builtins();
    let names: BTreeSet<&str> = builtins.iter().map(|b| b.name.as_str()).collect();
    let tests = run_tests();

    let mut normal: BTreeSet<&str> = BTreeSet::new();
    let mut errors: BTreeSet<&str> = BTreeSet::new();
    for (stem, (_, calls)) in &tests {
        let is_errors_file = stem.starts_with("errors_");
        for name in calls {
            if let Some(&n) = names.get(name.as_str())
                && is_errors_file
            {
                errors.insert(n);
            }
        }
    }
    for (stem, (expected, calls)) in &tests {
        if stem.starts_with("errors_") || !expected {
            continue;
        }
        for name in calls {
            if let Some(&n) = names.get(name.as_str()) {
                normal.insert(n);
            }
        }
    }

    let mut problems = Vec::new();
    for (name, reason, file) in NORMAL_EXEMPT {
        assert!(!reason.is_empty());
        if !names.contains(name) {
            problems.push(format!("normal exemption `{name}` is not a builtin"));
        } else if normal.contains(name) {
            problems.push(format!(
                "normal exemption `{name}` is no longer needed: remove it"
            ));
        } else if !file_calls(file, name) {
            problems.push(format!(
                "`{name}` is exempted as covered by {file}, which does not call it"
            ));
        }
    }
    for (name, reason) in ERROR_EXEMPT {
        assert!(!reason.is_empty());
        match builtins.iter().find(|b| b.name == *name) {
            None => problems.push(format!("error exemption `{name}` is not a builtin")),
            Some(b) if !b.signature.starts_with("fn()") => problems.push(format!(
                "error exemption `{name}` takes parameters ({}): give it an errors_ test",
                b.signature
            )),
            Some(_) if errors.contains(name) => problems.push(format!(
                "error exemption `{name}` is no longer needed: remove it"
            )),
            Some(_) => {}
        }
    }

    for b in &builtins {
        let name = b.name.as_str();
        if !normal.contains(name) && !NORMAL_EXEMPT.iter().any(|(n, _, _)| *n == name) {
            problems.push(format!(
                "`{name}` has no normal-behaviour call in an output test of tests/data/run"
            ));
        }
        if !errors.contains(name) && !ERROR_EXEMPT.iter().any(|(n, _)| *n == name) {
            problems.push(format!(
                "`{name}` has no error-behaviour call in a tests/data/run/errors_* test"
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "{} builtin coverage problem(s):\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// The structured loggers (`language.md` 2.1) through the real binary: one compact JSON
/// line each in the output, keys sorted, extra fields merged, `ts` an RFC 3339 UTC
/// instant with milliseconds. Also checks that `eprint`/`eprintln` go to stderr only.
#[test]
fn structured_loggers_write_json_lines() {
    let dir = std::env::temp_dir().join(format!("harnc_loggers_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    let file = dir.join("loggers.harn");
    let snippet = r#"log_debug("starting")
log_info("user {id} logged in", {user: "ada", attempt: 2})
log_warn("slow", {ms: 1.5, tags: ["a"]})
log_error(404)
eprint("to stderr")
eprintln(" only")
log("done")
"#;
    std::fs::write(&file, snippet).unwrap_or_else(|e| panic!("{e}"));
    let out = Command::new(env!("CARGO_BIN_EXE_harnc"))
        .args(["run", "--profile", "trusted"])
        .arg(&file)
        .output()
        .unwrap_or_else(|e| panic!("cannot run harnc: {e}"));
    let _ = std::fs::remove_dir_all(&dir);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert_eq!(stderr, "to stderr only\n");
    let ts = r#""ts":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z""#;
    let expected = [
        format!(r#"^\{{"level":"debug","msg":"starting",{ts}\}}$"#),
        format!(
            r#"^\{{"attempt":2,"level":"info","msg":"user \{{id\}} logged in",{ts},"user":"ada"\}}$"#
        ),
        format!(r#"^\{{"level":"warn","ms":1.5,"msg":"slow","tags":\["a"\],{ts}\}}$"#),
        format!(r#"^\{{"level":"error","msg":"404",{ts}\}}$"#),
        r"^\[harn\] done$".to_owned(),
    ];
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), expected.len(), "{stdout}");
    for (line, pattern) in lines.iter().zip(&expected) {
        let re = regex::Regex::new(pattern).unwrap_or_else(|e| panic!("{pattern}: {e}"));
        assert!(re.is_match(line), "{line:?} does not match {pattern}");
    }
}
