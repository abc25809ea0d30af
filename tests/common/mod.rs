//! Helpers shared by the data-file test suites.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use harn_compiler::layout::layout;
use harn_compiler::lexer::lex;
use harn_compiler::{LineIndex, parse};

/// The `harnc` binary the test suites drive.
pub fn harnc() -> std::process::Command {
    std::process::Command::new(env!("CARGO_BIN_EXE_harnc"))
}

/// Writes `text` to `name` in a directory of this test process's own (`suite` tells
/// the suites' directories apart) and returns its path.
pub fn temp_file_in(suite: &str, name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("harnc-{suite}-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
    path
}

pub fn data_dir(sub: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(sub)
}

/// Every `*.harn` file directly in `dir`, sorted.
pub fn harn_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "harn"));
    files.sort();
    files
}

pub fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `L:C token` per line, then the lexical errors.
pub fn token_listing(source: &str) -> String {
    let index = LineIndex::new(source);
    let lexed = lex(source);
    let mut out = String::new();
    for t in &layout(lexed.tokens, 0).tokens {
        let (line, col) = index.line_col(t.span.start as usize);
        out.push_str(&format!("{line}:{col} {}\n", t.display(source)));
    }
    for e in &lexed.errors {
        out.push_str(&format!("error: {}\n", e.message(&index)));
    }
    out
}

/// One line per diagnostic, in the order reported.
pub fn diagnostic_listing(name: &str, source: &str) -> String {
    let index = LineIndex::new(source);
    parse(source)
        .diagnostics
        .iter()
        .map(|d| d.one_line(name, &index) + "\n")
        .collect()
}

#[path = "../../src/expect.rs"]
mod expect;

/// Whether `actual` matches an `.error` file, as `harnc test` judges it; a broken
/// regex fails the test.
pub fn error_matches(expected: &str, actual: &str) -> bool {
    expect::error_matches(expected, actual).unwrap_or_else(|e| panic!("{e}"))
}
