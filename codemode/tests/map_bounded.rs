//! `map_bounded` (`code-mode.md` 5): real overlap of tool calls up to the width, input
//! order, Ok/Err settling, shared budgets and limits that end the whole run.

use std::cell::Cell;
use std::rc::Rc;
use std::time::Duration;

use harn_codemode::{Options, ToolFuture, ToolHost, execute};
use harn_compiler::manifest::{Binding, BuildOptions, build_manifest};
use serde_json::{Value as Json, json};

/// A host that counts calls in flight and remembers the highest count.
#[derive(Default)]
struct CountingHost {
    in_flight: Rc<Cell<usize>>,
    peak: Rc<Cell<usize>>,
}

impl ToolHost for CountingHost {
    fn call(&self, _binding: &Binding, input: Json) -> ToolFuture {
        let in_flight = self.in_flight.clone();
        let peak = self.peak.clone();
        Box::pin(async move {
            in_flight.set(in_flight.get() + 1);
            peak.set(peak.get().max(in_flight.get()));
            // Items finish in reverse order of their `n`, so completion order differs
            // from input order.
            let n = input["n"].as_u64().unwrap_or(0);
            tokio::time::sleep(Duration::from_millis(50 - n.min(49))).await;
            in_flight.set(in_flight.get() - 1);
            Ok(json!({"n": n}))
        })
    }

    fn executor_tag(&self, _binding: &Binding) -> Json {
        json!({"kind": "harn_builtin"})
    }
}

fn run(snippet: &str, options: Json) -> (Json, usize) {
    let tools = json!([{"name": "work", "inputSchema": {"type": "object"},
                        "annotations": {"readOnlyHint": true, "openWorldHint": false}}]);
    let manifest = build_manifest(
        &tools,
        &BuildOptions::from_value(&json!({})).unwrap_or_else(|e| panic!("{e}")),
    )
    .manifest;
    let options = Options::from_json(&options).unwrap_or_else(|e| panic!("{e}"));
    let host = Rc::new(CountingHost::default());
    let peak = host.peak.clone();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    let report = rt
        .block_on(execute(snippet, &manifest, &options, host))
        .to_json();
    (report, peak.get())
}

#[test]
fn up_to_width_calls_are_in_flight_at_once_and_results_keep_input_order() {
    let (report, peak) = run(
        r#"let out = map_bounded(range(0, 10), { i -> work({n: i}).n * 2 }, {concurrency: 4})
return out"#,
        json!({}),
    );
    assert_eq!(report["ok"], json!(true), "{report:#}");
    assert_eq!(peak, 4, "the window should keep exactly 4 calls in flight");
    let result = &report["run"]["result"];
    assert_eq!(result["succeeded"], json!(10));
    assert_eq!(result["failed"], json!(0));
    let values: Vec<Json> = (0..10).map(|i| json!({"ok": i * 2})).collect();
    assert_eq!(result["results"], json!(values));
    assert_eq!(report["child_results"].as_array().map(Vec::len), Some(10));
}

#[test]
fn the_width_defaults_to_max_concurrent_and_is_capped_by_the_items() {
    let (_, peak) = run(
        "return map_bounded(range(0, 9), { i -> work({n: i}) })",
        json!({"max_concurrent": 3}),
    );
    assert_eq!(peak, 3);
    let (_, peak) = run(
        "return map_bounded([1, 2], { i -> work({n: i}) }, {concurrency: 50})",
        json!({}),
    );
    assert_eq!(peak, 2);
}

#[test]
fn thrown_values_and_tool_errors_settle_as_err_items() {
    let (report, _) = run(
        r#"let out = map_bounded([1, 2, 3], { i ->
  if i == 2 { throw "bad item" }
  if i == 3 { return call_tool("missing", {}) }
  return work({n: i}).n
})
return out"#,
        json!({}),
    );
    assert_eq!(report["ok"], json!(true), "{report:#}");
    let result = &report["run"]["result"];
    assert_eq!(result["succeeded"], json!(1));
    assert_eq!(result["failed"], json!(2));
    assert_eq!(result["results"][0], json!({"ok": 1}));
    assert_eq!(result["results"][1], json!({"error": "bad item"}));
    let missing = result["results"][2]["error"].as_str().unwrap_or_default();
    assert!(
        missing.contains("composition binding 'missing' not found"),
        "{missing}"
    );
}

#[test]
fn a_limit_in_any_item_ends_the_whole_run() {
    let (report, _) = run(
        "return map_bounded(range(0, 20), { i -> work({n: i}) }, {concurrency: 5})",
        json!({"max_operations": 7}),
    );
    assert_eq!(report["run"]["failure_category"], json!("budget_exceeded"));
    let (report, _) = run(
        "return map_bounded([1, 2], { i -> while true { } })",
        json!({"max_instructions": 100000}),
    );
    assert_eq!(report["run"]["failure_category"], json!("budget_exceeded"));
    let (report, _) = run(
        r#"let r = try { map_bounded([1], { i -> while true { } }) } catch (e) { "swallowed" }
return r"#,
        json!({"timeout_ms": 200}),
    );
    assert_eq!(report["run"]["failure_category"], json!("timeout"));
}

#[test]
fn bad_arguments_are_type_errors() {
    let (report, _) = run("return map_bounded(3, { x -> x })", json!({}));
    let error = report["run"]["error"].as_str().unwrap_or_default();
    assert!(
        error.contains("map_bounded: first argument must be a list, got int"),
        "{error}"
    );
    let (report, _) = run("return map_bounded([1], 3)", json!({}));
    let error = report["run"]["error"].as_str().unwrap_or_default();
    assert!(
        error.contains("map_bounded: second argument must be a closure, got int"),
        "{error}"
    );
    let (report, _) = run("return map_bounded([], { x -> x })", json!({}));
    assert_eq!(
        report["run"]["result"],
        json!({"results": [], "succeeded": 0, "failed": 0})
    );
}

#[test]
fn item_output_is_kept_and_counts_towards_the_output_budget() {
    let (report, _) = run(
        r#"map_bounded([1, 2], { i -> println("item ${i}") })
return 1"#,
        json!({}),
    );
    let stdout = report["run"]["stdout"].as_str().unwrap_or_default();
    assert!(
        stdout.contains("item 1\n") && stdout.contains("item 2\n"),
        "{stdout}"
    );
    let (report, _) = run(
        r#"map_bounded(range(0, 50), { i -> println("a fairly long line of output ${i}") })
return 1"#,
        json!({"max_output_bytes": 200}),
    );
    assert_eq!(report["run"]["failure_category"], json!("output_limit"));
}
