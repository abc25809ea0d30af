//! A whole code-mode execution in process: a 20-line snippet against a 20-tool manifest
//! with the mock host, through the static stage, the gate for each call, and the report
//! (`code-mode.md` 4.2), as a host embedding harnc runs one: against a manifest prepared
//! once, and (for comparison) preparing it on every run. Issue 15's target is 50 µs.

use std::rc::Rc;

use criterion::{Criterion, criterion_group, criterion_main};
use harn_codemode::{MockHost, Options, PreparedManifest, execute, execute_prepared};
use harn_compiler::manifest::{BuildOptions, Manifest, build_manifest};
use serde_json::{Value, json};

/// The allocator `harnc` ships with (mimalloc under the per-thread meter), so the figures
/// are those of the binary and of a host that embeds the executor with memory caps.
#[global_allocator]
static ALLOCATOR: harn_vm::meter::Metered = harn_vm::meter::Metered;

/// Twenty read-only tools, each with an object input schema and a canned output.
fn manifest() -> Manifest {
    let tools: Vec<Value> = (0..20)
        .map(|i| {
            json!({
                "name": format!("tool_{i:02}"),
                "description": format!("Looks up records of kind {i}."),
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "query": {"type": "string"},
                        "limit": {"type": "integer", "minimum": 1}
                    },
                    "required": ["query"]
                },
                "annotations": {"kind": "search", "side_effect_level": "read_only"},
                "metadata": {"mock_output": {"items": [
                    {"id": 1, "score": 3, "name": "a"},
                    {"id": 2, "score": 9, "name": "b"},
                    {"id": 3, "score": 5, "name": "c"}
                ]}}
            })
        })
        .collect();
    let options =
        BuildOptions::from_value(&json!({})).unwrap_or_else(|e| panic!("build options: {e}"));
    build_manifest(&json!(tools), &options).manifest
}

const SNIPPET: &str = r#"
let first = tool_00({query: "alpha", limit: 3})
let second = tool_07({query: "beta"})
let third = tool_19({query: "gamma", limit: 2})
let rows = first.items + second.items + third.items
fn best(xs) {
  var top = nil
  for it in xs {
    if top == nil || it.score > top.score { top = it }
  }
  return top
}
let winner = best(rows)
let names = rows.map({ r -> r.name }).unique()
let total = rows.reduce(0, { acc, r -> acc + r.score })
let high = rows.filter({ r -> r.score > 4 }).count()
log("rows: ${len(rows)}, high: ${high}")
let label = match winner.name { "b" -> { "bee" } _ -> { "other" } }
return {winner: winner.name, label: label, names: names, total: total}
"#;

fn bench(c: &mut Criterion) {
    ALLOCATOR.activate();
    harn_vm::init(harn_stdlib::register);
    let manifest = manifest();
    let options =
        Options::from_json(&json!({"run_id": "bench"})).unwrap_or_else(|e| panic!("options: {e}"));
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap_or_else(|e| panic!("runtime: {e}"));
    let check = rt.block_on(execute(SNIPPET, &manifest, &options, Rc::new(MockHost)));
    assert!(check.to_json()["ok"] == json!(true), "{}", check.to_json());
    // A host running many snippets against one tool surface prepares it once.
    let prepared = PreparedManifest::new(manifest.clone());
    let run_prepared = || {
        rt.block_on(execute_prepared(
            SNIPPET,
            &prepared,
            &options,
            Rc::new(MockHost),
            None,
        ))
    };
    c.bench_function("code_mode/execute_prepared_20_line_snippet_20_tools", |b| {
        b.iter(run_prepared)
    });
    c.bench_function("code_mode/execute_prepared_and_serialise_report", |b| {
        b.iter(|| run_prepared().to_json())
    });
    // Preparing on every run (hash, binding JSON, schema compiles): `execute`.
    c.bench_function(
        "code_mode/execute_unprepared_20_line_snippet_20_tools",
        |b| b.iter(|| rt.block_on(execute(SNIPPET, &manifest, &options, Rc::new(MockHost)))),
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
