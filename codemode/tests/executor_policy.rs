//! Stage policies, secret redaction and output caps in the executor (`code-mode.md`
//! 2, 4.12, 4.13) with the mock host.

use std::rc::Rc;

use harn_codemode::{MockHost, Options, execute};
use harn_compiler::manifest::{BuildOptions, build_manifest};
use serde_json::{Value as Json, json};

fn run(snippet: &str, options: Json) -> Json {
    let tools = json!([
        {"name": "lookup", "annotations": {"readOnlyHint": true, "openWorldHint": false},
         "metadata": {"mock_output": {"token": "tok-SECRET-123", "note": "b64 dG9rLVNFQ1JFVC0xMjM="}}},
        {"name": "other", "annotations": {"readOnlyHint": true, "openWorldHint": false}},
    ]);
    let manifest = build_manifest(
        &tools,
        &BuildOptions::from_value(&json!({"include_denied": true}))
            .unwrap_or_else(|e| panic!("{e}")),
    )
    .manifest;
    let options = Options::from_json(&options).unwrap_or_else(|e| panic!("{e}"));
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    rt.block_on(execute(snippet, &manifest, &options, Rc::new(MockHost)))
        .to_json()
}

#[test]
fn an_out_of_scope_call_gets_a_denial_receipt() {
    let r = run(
        "let a = lookup({})\nreturn other({})",
        json!({"stages": [{"name": "investigate", "allowed_tools": ["lookup"]}],
               "stage": "investigate"}),
    );
    assert_eq!(r["run"]["failure_category"], "policy_denied", "{r:#}");
    assert_eq!(
        r["run"]["error"],
        "Runtime error: composition binding 'other' is outside the scope of stage 'investigate'"
    );
    let receipt = &r["child_results"][1];
    assert_eq!(receipt["error_category"], "permission_denied");
    assert_eq!(
        receipt["error_details"],
        json!({"code": "scope_violation", "stage": "investigate",
               "allowed_tools": ["lookup"], "side_effect_level": "read_only"})
    );
    assert_eq!(
        r["child_calls"][0]["policy_context"]["scope"],
        json!({"stage": "investigate", "allowed_tools": ["lookup"], "ceiling": "read_only"})
    );
}

#[test]
fn stages_can_only_tighten() {
    // The scope narrows to `none`: a read-only tool is above the ceiling.
    let r = run(
        "return lookup({})",
        json!({"scope": {"name": "quiet", "side_effect_level": "none"}}),
    );
    assert_eq!(r["run"]["failure_category"], "policy_denied", "{r:#}");
    let error = r["run"]["error"].as_str().unwrap_or_default();
    assert!(error.contains("above requested ceiling 'none'"), "{error}");
    // The ambient allow-list and a stage intersect.
    let r = run(
        "return other({})",
        json!({"allowed_tools": ["lookup"], "scope": {"name": "s", "allowed_tools": ["lookup", "other"]}}),
    );
    assert_eq!(
        r["child_results"][0]["error_details"]["stage"], "ambient",
        "{r:#}"
    );
}

#[test]
fn invalid_stages_stop_the_run_before_anything_runs() {
    let r = run(
        "return lookup({})",
        json!({"stages": [{"name": "a", "allowed_tools": ["nope"]}], "stage": "a"}),
    );
    assert_eq!(r["run"]["failure_category"], "schema_validation");
    assert_eq!(
        r["run"]["error"],
        "stage 'a': unknown tool 'nope' in allowed_tools"
    );
    assert_eq!(r["child_calls"], json!([]));
    let r = run("return 1", json!({"stages": [{"name": "a"}], "stage": "b"}));
    assert_eq!(r["run"]["error"], "unknown active stage 'b'");
}

#[test]
fn ceilings_above_read_only_are_refused() {
    let r = run(
        "return 1",
        json!({"requested_side_effect_ceiling": "workspace_write"}),
    );
    assert_eq!(r["run"]["failure_category"], "policy_denied");
    assert_eq!(
        r["run"]["error"],
        "read-only composition executor refuses side-effect ceilings above read_only"
    );
}

#[test]
fn registered_secrets_never_reach_the_snippet_or_the_report() {
    let r = run(
        "let v = lookup({})\nlog(v.token)\nreturn v",
        json!({"secrets": ["tok-SECRET-123"]}),
    );
    assert_eq!(r["ok"], json!(true), "{r:#}");
    let text = r.to_string();
    assert!(!text.contains("tok-SECRET-123"), "{text}");
    assert!(!text.contains("dG9rLVNFQ1JFVC0xMjM"), "{text}");
    assert_eq!(r["run"]["result"]["token"], "[REDACTED]");
    assert_eq!(r["run"]["result"]["note"], "b64 [REDACTED]");
    assert_eq!(r["run"]["stdout"], "[harn] [REDACTED]\n");
    assert_eq!(r["child_results"][0]["redactions"], json!(2));
    assert_eq!(r["run"]["usage"]["redactions"], json!(2));
}

#[test]
fn the_fail_policy_turns_a_leaking_output_into_a_tool_error() {
    let r = run(
        "return lookup({})",
        json!({"secrets": ["tok-SECRET-123"], "secret_policy": "fail"}),
    );
    assert_eq!(r["run"]["failure_category"], "tool_error", "{r:#}");
    assert_eq!(
        r["child_results"][0]["error"],
        "composition binding 'lookup' failed: composition binding 'lookup' output contained a registered secret"
    );
}

#[test]
fn short_secrets_are_invalid_options() {
    let e = Options::from_json(&json!({"secrets": ["abc"]}))
        .err()
        .unwrap_or_default();
    assert!(e.contains("at least 6 characters"), "{e}");
}

#[test]
fn output_entries_are_capped_and_counted() {
    let r = run(
        "for i in range(0, 10) { log(\"entry ${i}\") }\nlog(\"x\" * 50)\nreturn 1",
        json!({"max_log_entries": 4, "max_log_entry_bytes": 20}),
    );
    assert_eq!(r["ok"], json!(true), "{r:#}");
    assert_eq!(
        r["run"]["stdout"],
        "[harn] entry 0\n[harn] entry 1\n[harn] entry 2\n[harn] entry 3\n"
    );
    assert_eq!(r["run"]["usage"]["log_entries"], json!(4));
    assert_eq!(r["run"]["usage"]["log_entries_dropped"], json!(7));
    let r = run(
        "log(\"é\" * 30)\nreturn 1",
        json!({"max_log_entry_bytes": 15}),
    );
    assert_eq!(r["run"]["stdout"], "[harn] éééé…\n");
    assert_eq!(r["run"]["usage"]["log_entries_truncated"], json!(1));
}

#[test]
fn a_secret_typed_into_arguments_is_redacted_from_call_records() {
    let r = run(
        "return other({token: \"tok-SECRET-123\"})",
        json!({"secrets": ["tok-SECRET-123"]}),
    );
    assert!(!r.to_string().contains("tok-SECRET-123"), "{r:#}");
    assert_eq!(r["child_calls"][0]["raw_input"]["token"], "[REDACTED]");
}

#[test]
fn live_events_match_the_projection_of_the_report() {
    use std::cell::RefCell;
    let tools = json!([{"name": "lookup", "annotations": {"readOnlyHint": true, "openWorldHint": false}},
                       {"name": "shut", "annotations": {"side_effect_level": "workspace_write"}}]);
    let manifest = build_manifest(
        &tools,
        &BuildOptions::from_value(&json!({"include_denied": true}))
            .unwrap_or_else(|e| panic!("{e}")),
    )
    .manifest;
    let options = Options::from_json(&json!({"session_id": "s-1", "run_id": "r-1"}))
        .unwrap_or_else(|e| panic!("{e}"));
    let seen = Rc::new(RefCell::new(Vec::new()));
    let sink_seen = seen.clone();
    let sink: harn_codemode::EventSink =
        Rc::new(move |e: &Json| sink_seen.borrow_mut().push(e.clone()));
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    let report = rt.block_on(harn_codemode::execute_with_events(
        "let a = lookup({q: 1})\nlet b = try { shut({}) } catch (e) { nil }\nreturn a",
        &manifest,
        &options,
        Rc::new(MockHost),
        Some(sink),
    ));
    let live = seen.borrow().clone();
    let kinds: Vec<&str> = live.iter().filter_map(|e| e["type"].as_str()).collect();
    assert_eq!(
        kinds,
        [
            "composition_start",
            "composition_child_call",
            "composition_child_result",
            "composition_child_call",
            "composition_child_result",
            "composition_finish"
        ]
    );
    assert!(
        live.iter()
            .all(|e| e["session_id"] == "s-1" && e["run_id"] == "r-1")
    );
    assert_eq!(live, report.events(Some("s-1")));
}
