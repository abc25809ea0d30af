//! The checker's data suite (`tests/data/check/*.harn`): expected diagnostics are
//! written inline, at the line they belong to, as `//~ ERROR fragment` (every error the
//! checker reports must be annotated, and every annotation matched) or `//~ WARN
//! fragment` (that warning must be reported; other warnings are not asserted). A first
//! line `// manifest: NAME.json` checks the file as a code-mode snippet against
//! `../shared/manifests/NAME.json`. The rendered diagnostics of every file are
//! snapshotted.

mod common;

use std::path::Path;

use harn_codemode::setup::Overrides;
use harn_compiler::LineIndex;
use harn_compiler::ast::Span;
use harn_compiler::diagnostic::{Diagnostic, Severity};
use harn_compiler::pipeline::{Env, check_snippet, compile_source};

/// One `//~` annotation.
struct Expected {
    line: usize,
    severity: Severity,
    fragment: String,
}

fn expectations(source: &str) -> Vec<Expected> {
    let mut out = Vec::new();
    for (i, text) in source.lines().enumerate() {
        let Some(at) = text.find("//~") else {
            continue;
        };
        let rest = text[at + 3..].trim();
        let (severity, fragment) = if let Some(f) = rest.strip_prefix("ERROR") {
            (Severity::Error, f)
        } else if let Some(f) = rest.strip_prefix("WARN") {
            (Severity::Warning, f)
        } else {
            panic!("line {}: `//~` needs ERROR or WARN: {text}", i + 1);
        };
        out.push(Expected {
            line: i + 1,
            severity,
            fragment: fragment.trim().to_string(),
        });
    }
    out
}

/// The manifest a `// manifest: NAME` header names, built as `harnc run --manifest`
/// builds it.
fn header_manifest(source: &str) -> Option<harn_compiler::manifest::Manifest> {
    let name = source.lines().next()?.strip_prefix("// manifest:")?.trim();
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/manifests")
        .join(name);
    let text = common::read(&path);
    let loaded = Overrides::default()
        .load_manifest(&text)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    Some(loaded.manifest)
}

fn diagnostics(source: &str) -> Vec<Diagnostic> {
    match header_manifest(source) {
        Some(manifest) => match check_snippet(source, &manifest) {
            Ok(accepted) => accepted.warnings,
            Err(refusal) => refusal.diagnostics,
        },
        None => compile_source(source, &Env::Script).1,
    }
}

/// Every disagreement between the diagnostics and the annotations of one file.
fn disagreements(name: &str, source: &str, found: &[Diagnostic]) -> Vec<String> {
    let index = LineIndex::new(source);
    let line_of = |span: Span| index.line_col(span.start as usize).0;
    let expected = expectations(source);
    let mut problems = Vec::new();
    for d in found.iter().filter(|d| d.is_error()) {
        let line = line_of(d.primary.span);
        let annotated = expected.iter().any(|e| {
            e.severity == Severity::Error && e.line == line && d.message.contains(&e.fragment)
        });
        if !annotated {
            problems.push(format!("{name}:{line}: unexpected error: {}", d.message));
        }
    }
    for e in &expected {
        let matched = found.iter().any(|d| {
            d.severity == e.severity
                && line_of(d.primary.span) == e.line
                && d.message.contains(&e.fragment)
        });
        if !matched {
            problems.push(format!(
                "{name}:{}: expected {:?} containing {:?}, got none",
                e.line, e.severity, e.fragment
            ));
        }
    }
    problems
}

#[test]
fn checker_diagnostics_match_the_inline_annotations() {
    let dir = common::data_dir("check");
    let files = common::harn_files(&dir);
    assert!(files.len() >= 100, "only {} check cases", files.len());
    let mut problems = Vec::new();
    let (mut valid, mut invalid) = (0, 0);
    for path in &files {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let source = common::read(path);
        let found = diagnostics(&source);
        if expectations(&source).is_empty() {
            valid += 1;
        } else {
            invalid += 1;
        }
        problems.extend(disagreements(&name, &source, &found));
    }
    assert!(
        problems.is_empty(),
        "{} problems over {} files:\n{}",
        problems.len(),
        files.len(),
        problems.join("\n")
    );
    // False positives are the worst failure of a gradual checker: about half the
    // suite is valid programs that must stay silent.
    assert!(valid * 3 >= files.len(), "{valid} valid, {invalid} invalid");
}

#[test]
fn checker_diagnostics_snapshots() {
    insta::glob!("data/check/*_err_*.harn", |path| {
        let source = common::read(path);
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let index = LineIndex::new(&source);
        let listing: String = diagnostics(&source)
            .iter()
            .map(|d| d.one_line(&name, &index) + "\n")
            .collect();
        insta::assert_snapshot!(listing);
    });
}
