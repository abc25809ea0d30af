//! Code-mode executor behaviours (`code-mode.md` 10) with the mock host.

use std::rc::Rc;

use harn_codemode::{MockHost, Options, execute};
use harn_compiler::manifest::{BuildOptions, build_manifest};
use serde_json::{Value as Json, json};

fn manifest(tools: Json, include_denied: bool) -> harn_compiler::manifest::Manifest {
    let options = BuildOptions::from_value(&json!({"include_denied": include_denied}))
        .unwrap_or_else(|e| panic!("{e}"));
    build_manifest(&tools, &options).manifest
}

fn tools() -> Json {
    json!([
        {"name": "read_file", "parameters": {"type": "object", "required": ["path"]},
         "annotations": {"kind": "read", "side_effect_level": "read_only",
                         "arg_schema": {"path_params": ["path"]}},
         "metadata": {"mock_output": {"text": "hello"}}},
        {"name": "write_file", "annotations": {"side_effect_level": "workspace_write"}},
    ])
}

fn run(snippet: &str, options: Json, include_denied: bool) -> Json {
    let m = manifest(tools(), include_denied);
    let opts = Options::from_json(&options).unwrap_or_else(|e| panic!("{e}"));
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    rt.block_on(execute(snippet, &m, &opts, Rc::new(MockHost)))
        .to_json()
}

fn category(r: &Json) -> &str {
    r["run"]["failure_category"].as_str().unwrap_or("ok")
}

#[test]
fn a_read_only_binding_returns_its_mock_output() {
    let r = run(
        "let f = read_file({path: \"README.md\"})\nreturn f.text",
        json!({"run_id": "demo"}),
        false,
    );
    assert_eq!(r["ok"], json!(true), "{r:#}");
    assert_eq!(r["run"]["result"], json!("hello"));
    assert_eq!(r["child_calls"].as_array().map(Vec::len), Some(1));
    assert_eq!(r["child_results"][0]["status"], json!("completed"));
    assert_eq!(r["child_calls"][0]["tool_call_id"], json!("demo:0"));
    assert_eq!(
        r["summary"],
        json!("composition completed with 1 child operation(s)")
    );
}

#[test]
fn state_without_a_grant_is_policy_denied_before_running() {
    let r = run("state.get(\"k\")", json!({}), false);
    assert_eq!(category(&r), "policy_denied");
    assert!(
        r["summary"]
            .as_str()
            .unwrap_or_default()
            .contains("state.get")
    );
    assert_eq!(r["child_calls"], json!([]));
}

#[test]
fn a_tool_outside_the_manifest_is_a_denied_builtin() {
    let r = run("write_file({path: \"x\"})", json!({}), false);
    assert_eq!(category(&r), "denied_builtin", "{r:#}");
    assert_eq!(r["child_calls"], json!([]));
}

#[test]
fn an_included_denied_binding_records_a_refused_call() {
    let r = run("write_file({path: \"x\"})", json!({}), true);
    assert_eq!(category(&r), "policy_denied", "{r:#}");
    assert_eq!(r["child_calls"].as_array().map(Vec::len), Some(1));
    assert_eq!(
        r["child_results"][0]["error_category"],
        json!("permission_denied")
    );
    let caught = run(
        "return try { write_file({path: \"x\"}) } catch (e) { \"caught\" }",
        json!({}),
        true,
    );
    assert_eq!(caught["ok"], json!(true), "{caught:#}");
    assert_eq!(caught["run"]["result"], json!("caught"));
    assert_eq!(caught["child_calls"].as_array().map(Vec::len), Some(1));
}

#[test]
fn the_operation_budget_cannot_be_caught() {
    for snippet in [
        "read_file({path: \"a\"})\nread_file({path: \"b\"})",
        "read_file({path: \"a\"})\ntry { read_file({path: \"b\"}) } catch (e) { log(e) }",
        "read_file({path: \"a\"})\nlet r = try { read_file({path: \"b\"}) }",
        "read_file({path: \"a\"})\nretry 3 { read_file({path: \"b\"}) }",
    ] {
        let r = run(snippet, json!({"max_operations": 1}), false);
        assert_eq!(category(&r), "budget_exceeded", "{snippet}: {r:#}");
        assert_eq!(r["child_calls"].as_array().map(Vec::len), Some(1));
        assert_eq!(
            r["run"]["error"],
            json!("composition exceeded max_operations=1")
        );
    }
}

#[test]
fn busy_loops_and_recursion_and_output_hit_their_limits() {
    let r = run(
        "while true { }",
        json!({"timeout_ms": 200, "max_instructions": 1000000000u64}),
        false,
    );
    assert_eq!(category(&r), "timeout");
    let r = run(
        "var i = 0\nwhile true { i = i + 1 }",
        json!({"max_instructions": 100000}),
        false,
    );
    assert_eq!(category(&r), "budget_exceeded");
    let r = run(
        "fn f(n) { return 1 + f(n + 1) }\ntry { f(0) } catch (e) { log(e) }",
        json!({}),
        false,
    );
    assert_eq!(category(&r), "stack_limit", "{r:#}");
    let r = run(
        "return \"0123456789\"",
        json!({"max_output_bytes": 4}),
        false,
    );
    assert_eq!(category(&r), "output_limit");
    assert!(
        r["summary"]
            .as_str()
            .unwrap_or_default()
            .contains("max_output_bytes")
    );
    let r = run(
        "while true { log(\"spam\") }",
        json!({"max_output_bytes": 1000}),
        false,
    );
    assert_eq!(category(&r), "output_limit");
}

#[test]
fn injection_and_denied_names_never_run() {
    let r = run("} pipeline evil() { log(1) }", json!({}), false);
    assert_eq!(category(&r), "compile_error");
    let r = run("log(\"${write_file({path: \"x\"})}\")", json!({}), false);
    assert_eq!(category(&r), "denied_builtin");
    let r = run("let f = write_file", json!({}), false);
    assert_eq!(category(&r), "denied_builtin");
    let r = run("ask_user(\"?\")", json!({}), false);
    assert_eq!(category(&r), "denied_builtin");
    assert!(
        r["summary"]
            .as_str()
            .unwrap_or_default()
            .contains("ask_user")
    );
    let r = run("harness.interaction.ask_user(\"?\")", json!({}), false);
    assert!(
        r["summary"]
            .as_str()
            .unwrap_or_default()
            .contains("harness.interaction.ask_user")
    );
}

#[test]
fn a_user_throw_mentioning_a_category_is_still_a_runtime_error() {
    let r = run("throw \"composition binding 'x' denied\"", json!({}), false);
    assert_eq!(category(&r), "runtime_error");
    let r = run(
        "throw \"composition exceeded timeout_ms=1\"",
        json!({}),
        false,
    );
    assert_eq!(category(&r), "runtime_error");
}

#[test]
fn path_arguments_cannot_escape_the_workspace() {
    let r = run("read_file({path: \"../etc/passwd\"})", json!({}), false);
    assert_eq!(category(&r), "policy_denied");
    assert_eq!(
        r["child_results"][0]["error_category"],
        json!("permission_denied")
    );
}
