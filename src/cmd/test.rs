//! `harnc test`: runs folders of `X.harn` programs against `X.expected` output or
//! `X.error` fragments (`language.md` 1).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;
use harn_vm::registry::Profile;

use crate::expect::error_matches;
use crate::runner::run_source;

#[derive(Args)]
pub struct TestArgs {
    /// Folders (searched recursively) or single `.harn` files.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Per-test time limit in milliseconds.
    #[arg(long, default_value_t = 30_000)]
    timeout: u64,
}

fn collect(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
            .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        entries.sort();
        for e in entries {
            collect(&e, out);
        }
    } else if path.extension().is_some_and(|e| e == "harn") {
        out.push(path.to_path_buf());
    }
}

/// `[timer] <label>: <n>ms` lines are normalised; nothing else is (`language.md` 1.3).
fn normalise(text: &str) -> String {
    text.trim_end()
        .lines()
        .map(|line| {
            if line.starts_with("[timer] ")
                && line.ends_with("ms")
                && let Some(at) = line.rfind(": ")
            {
                format!("{}: <ms>", &line[..at])
            } else {
                line.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

enum Verdict {
    Pass,
    Fail(String),
    Skip,
}

fn run_one(path: &Path, timeout: Duration) -> Verdict {
    let expected_path = path.with_extension("expected");
    let error_path = path.with_extension("error");
    if path.with_extension("conformance-skip").exists() {
        return Verdict::Skip;
    }
    let expected = std::fs::read_to_string(&expected_path).ok();
    let error = if expected.is_none() {
        std::fs::read_to_string(&error_path).ok()
    } else {
        None
    };
    if expected.is_none() && error.is_none() {
        return Verdict::Skip;
    }
    let source = match std::fs::read_to_string(path) {
        Ok(s) => s,
        Err(e) => return Verdict::Fail(format!("cannot read: {e}")),
    };
    let outcome = run_source(&source, Profile::Trusted, Some(timeout));
    if let Some(expected) = expected {
        return match outcome.result {
            Err(e) => Verdict::Fail(format!("unexpected error: {e}")),
            Ok(_) if normalise(&outcome.output) == normalise(&expected) => Verdict::Pass,
            Ok(_) => Verdict::Fail(format!(
                "output differs\n--- expected\n{}\n--- actual\n{}",
                normalise(&expected),
                normalise(&outcome.output)
            )),
        };
    }
    match (outcome.result, error) {
        (Err(actual), Some(expected)) => match error_matches(&expected, &actual) {
            Ok(true) => Verdict::Pass,
            Ok(false) => Verdict::Fail(format!(
                "error {actual:?} does not match {:?}",
                expected.trim_end()
            )),
            Err(problem) => Verdict::Fail(problem),
        },
        (Ok(_), _) => Verdict::Fail("expected an error, but the program succeeded".into()),
        (Err(_), None) => Verdict::Skip,
    }
}

pub fn test(args: &TestArgs) -> ExitCode {
    let mut files = Vec::new();
    for p in &args.paths {
        if !p.exists() {
            eprintln!("harnc: no such file or folder: {}", p.display());
            return ExitCode::from(2);
        }
        collect(p, &mut files);
    }
    let timeout = Duration::from_millis(args.timeout);
    let (mut passed, mut failed) = (0usize, 0usize);
    for f in &files {
        match run_one(f, timeout) {
            Verdict::Pass => passed += 1,
            Verdict::Skip => {}
            Verdict::Fail(why) => {
                failed += 1;
                println!("FAIL {}: {why}", f.display());
            }
        }
    }
    println!("{passed} passed, {failed} failed");
    if failed > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
