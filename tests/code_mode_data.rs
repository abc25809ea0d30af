//! The code-mode executor, data-driven (`code-mode.md` 4 and 5): every
//! `tests/data/code_mode/*.harn` is a snippet run against a tool surface from
//! `tests/data/code_mode/manifests/` with the mock host. Its report must end with the
//! expected category, satisfy the report invariants of 4.14, and match its insta
//! snapshot (`tests/snapshots/code_mode_data__<stem>.snap`).
//!
//! Header comment lines at the top of a snippet configure its run:
//!
//! ```text
//! // manifest: NAME            tests/data/code_mode/manifests/NAME.json (default `tools`)
//! // build: {...}              BuildOptions JSON merged over {"include_denied": true}
//! // include_denied: false     default true, as the CLI does for tool surfaces
//! // options: {...}            executor options (`Options::from_json`); `run_id`
//! //                           defaults to the file stem
//! // expect: CATEGORY          required: `run.failure_category`, or `ok`
//! ```

mod common;

use std::path::{Path, PathBuf};
use std::rc::Rc;

use harn_codemode::{MockHost, Options, execute, invalid_options_report};
use harn_compiler::manifest::{BuildOptions, Manifest, build_manifest};
use serde_json::{Map, Value, json};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/code_mode");
const SNAPSHOTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/snapshots");

/// One snippet file and its header.
struct Case {
    name: String,
    snippet: String,
    manifest: String,
    build: Map<String, Value>,
    include_denied: bool,
    options: Map<String, Value>,
    expect: String,
}

fn case_files() -> Vec<PathBuf> {
    let files = common::harn_files(Path::new(DATA));
    assert!(!files.is_empty(), "{DATA}: no cases");
    files
}

fn stem(path: &Path) -> String {
    path.file_stem()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned()
}

fn json_object(name: &str, key: &str, text: &str) -> Map<String, Value> {
    match serde_json::from_str(text) {
        Ok(Value::Object(map)) => map,
        other => panic!("{name}: `// {key}:` must be a JSON object, got {other:?}"),
    }
}

/// Reads the `// key: value` lines at the top of the file. Other comment lines are
/// free text; a line that looks like a header with an unknown key is an error, so a
/// typo cannot silently drop a setting.
fn read_case(path: &Path) -> Case {
    let name = stem(path);
    let snippet = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut case = Case {
        name: name.clone(),
        snippet: snippet.clone(),
        manifest: "tools".into(),
        build: Map::new(),
        include_denied: true,
        options: Map::new(),
        expect: String::new(),
    };
    for line in snippet.lines() {
        let Some(comment) = line.trim_start().strip_prefix("//") else {
            break;
        };
        let Some((key, value)) = comment.trim().split_once(':') else {
            continue;
        };
        let value = value.trim();
        match key {
            "manifest" => case.manifest = value.to_string(),
            "build" => case.build = json_object(&name, key, value),
            "options" => case.options = json_object(&name, key, value),
            "expect" => case.expect = value.to_string(),
            "include_denied" => {
                case.include_denied = value
                    .parse()
                    .unwrap_or_else(|_| panic!("{name}: include_denied must be true or false"))
            }
            k if k.chars().all(|c| c.is_ascii_lowercase() || c == '_') => {
                panic!("{name}: unknown header `// {k}:`")
            }
            _ => {}
        }
    }
    assert!(
        !case.expect.is_empty(),
        "{name}: missing `// expect:` header"
    );
    case
}

fn manifest(case: &Case) -> Manifest {
    let path = Path::new(DATA)
        .join("manifests")
        .join(format!("{}.json", case.manifest));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", case.name));
    let tools: Value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{}: {}: {e}", case.name, path.display()));
    let mut build = Map::new();
    build.insert("include_denied".into(), json!(case.include_denied));
    build.extend(case.build.clone());
    let options = BuildOptions::from_value(&Value::Object(build))
        .unwrap_or_else(|e| panic!("{}: build options: {e}", case.name));
    build_manifest(&tools, &options).manifest
}

fn run(case: &Case) -> Value {
    let manifest = manifest(case);
    let mut options = case.options.clone();
    options
        .entry("run_id")
        .or_insert_with(|| json!(case.name.clone()));
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap_or_else(|e| panic!("runtime: {e}"));
    match Options::from_json(&Value::Object(options)) {
        Ok(o) => rt
            .block_on(execute(&case.snippet, &manifest, &o, Rc::new(MockHost)))
            .to_json(),
        // What `composition_execute` returns for invalid options (4.2 step 2); its run
        // id is always a fresh one.
        Err(problem) => {
            let mut report = invalid_options_report(&case.snippet, &manifest, &problem).to_json();
            report["run"]["run_id"] = json!("[fresh]");
            report
        }
    }
}

/// Replaces measurements that are not properties of the snippet: wall-clock times, and
/// the instruction count, which depends on the clock when a run times out and on
/// codegen details otherwise (the VM also counts it in batches of its fuel check).
fn redact(report: &mut Value) {
    if let Some(usage) = report.pointer_mut("/run/usage")
        && usage.get("instructions").is_some()
    {
        usage["instructions"] = json!("[instructions]");
    }
    redact_ms(report);
}

fn redact_ms(v: &mut Value) {
    match v {
        Value::Object(map) => {
            for (key, value) in map.iter_mut() {
                if key == "duration_ms" || key == "execution_duration_ms" {
                    *value = json!("[ms]");
                } else {
                    redact_ms(value);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(redact_ms),
        _ => {}
    }
}

fn category(report: &Value) -> &str {
    report["run"]["failure_category"].as_str().unwrap_or("ok")
}

/// The report invariants of 4.14 that hold for every run.
fn invariants(report: &Value) -> Vec<String> {
    let mut problems = Vec::new();
    let mut check = |ok: bool, what: &str| {
        if !ok {
            problems.push(what.to_string());
        }
    };
    let run = &report["run"];
    let ok = category(report) == "ok";
    check(
        report["schema_version"] == json!(1),
        "schema_version is not 1",
    );
    check(
        report["ok"] == json!(ok),
        "`ok` disagrees with failure_category",
    );
    let empty = Vec::new();
    let calls = report["child_calls"].as_array().unwrap_or(&empty);
    let results = report["child_results"].as_array().unwrap_or(&empty);
    for call in calls {
        let id = &call["tool_call_id"];
        let n = results.iter().filter(|r| &r["tool_call_id"] == id).count();
        check(n == 1, &format!("call {id} has {n} results"));
    }
    for result in results {
        let id = &result["tool_call_id"];
        let known = calls.iter().any(|c| &c["tool_call_id"] == id);
        check(known, &format!("result {id} has no call"));
    }
    if ok {
        let want = format!(
            "composition completed with {} child operation(s)",
            results.len()
        );
        check(
            report["summary"] == json!(want),
            "summary of a successful run",
        );
        check(run["error"].is_null(), "error set on a successful run");
    } else {
        check(run["error"].is_string(), "run.error is not a string");
        check(report["summary"] == run["error"], "summary != run.error");
        check(
            run["result"].is_null(),
            "result of a failed run is not null",
        );
    }
    problems
}

#[test]
fn code_mode_reports() {
    harn_vm::init(harn_stdlib::register);
    let files = case_files();
    assert!(!files.is_empty(), "no cases in {DATA}");
    let mut failures = Vec::new();
    for path in &files {
        let case = read_case(path);
        let mut report = run(&case);
        let pretty = serde_json::to_string_pretty(&report).unwrap_or_default();
        if category(&report) != case.expect {
            failures.push(format!(
                "{}: expected {}, got {}\n{pretty}",
                case.name,
                case.expect,
                category(&report)
            ));
            continue;
        }
        let problems = invariants(&report);
        if !problems.is_empty() {
            failures.push(format!("{}: {}\n{pretty}", case.name, problems.join("; ")));
            continue;
        }
        redact(&mut report);
        let pretty = serde_json::to_string_pretty(&report).unwrap_or_default();
        insta::with_settings!({description => case.snippet.clone(), omit_expression => true}, {
            insta::assert_snapshot!(case.name.clone(), pretty);
        });
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n\n"));
}

/// A snapshot whose snippet was removed would otherwise linger unnoticed.
#[test]
fn every_snapshot_has_a_case() {
    let cases: Vec<String> = case_files().iter().map(|p| stem(p)).collect();
    let prefix = "code_mode_data__";
    let orphans: Vec<String> = std::fs::read_dir(SNAPSHOTS)
        .map(|rd| rd.filter_map(|e| e.ok()).collect::<Vec<_>>())
        .unwrap_or_default()
        .iter()
        .filter_map(|e| {
            let file = e.file_name().to_string_lossy().into_owned();
            let name = file
                .strip_prefix(prefix)?
                .strip_suffix(".snap")?
                .to_string();
            (!cases.contains(&name)).then_some(file)
        })
        .collect();
    assert!(orphans.is_empty(), "snapshots without a case: {orphans:?}");
}
