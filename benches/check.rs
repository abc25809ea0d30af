//! Checker benches (issue targets: a 2,000-line program under 10 ms, a 40-line snippet
//! over a 100-tool manifest under 1 ms). Both time the check alone, on a parsed tree.

use criterion::{Criterion, criterion_group, criterion_main};
use harn_compiler::manifest::{BuildOptions, build_manifest};
use harn_compiler::parse;
use harn_compiler::types::check::{CheckEnv, check_program};
use serde_json::json;

/// The allocator `harnc` ships with (mimalloc under the per-thread meter), so the figures
/// are those of the binary and of a host that embeds the executor with memory caps.
#[global_allocator]
static ALLOCATOR: harn_vm::meter::Metered = harn_vm::meter::Metered;

/// About 2,000 lines: typed functions, closures, loops, dicts and lists, calls between
/// them, each block with its own names.
fn large_program() -> String {
    let mut src = String::new();
    for i in 0..118 {
        src.push_str(&format!(
            "fn score_{i}(items: list<int>, factor: float, label: string) -> string {{
  var total = 0.0
  for item in items {{
    if item > {i} {{
      total = total + item * factor
    }} else {{
      total = total - 1
    }}
  }}
  let summary = {{name: label, total: total, count: len(items)}}
  let doubled = items.map({{ x -> x * 2 }}).filter({{ x -> x % 3 == 0 }})
  let first: int | nil = doubled.first()
  let text = \"${{summary.name}}: ${{summary.total}}\"
  return text + \" (\" + to_string(first ?? 0) + \")\"
}}
let result_{i} = score_{i}([1, 2, 3, {i}], 1.5, \"case {i}\")
log(result_{i})
"
        ));
    }
    src
}

/// 100 tools with typed inputs and outputs.
fn large_manifest() -> harn_compiler::manifest::Manifest {
    let tools: Vec<_> = (0..100)
        .map(|i| {
            json!({
                "name": format!("tool_{i}"),
                "description": "A tool.",
                "annotations": {"readOnlyHint": true},
                "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}, "limit": {"type": "integer"}}, "required": ["path"]},
                "outputSchema": {"type": "object", "properties": {"content": {"type": "string"}, "size": {"type": "integer"}, "entries": {"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}}}}}}
            })
        })
        .collect();
    let options = BuildOptions::from_value(&json!({"include_denied": true}))
        .unwrap_or_else(|e| panic!("{e}"));
    build_manifest(&json!({"tools": tools}), &options).manifest
}

fn snippet() -> String {
    let mut src = String::new();
    for i in 0..10 {
        src.push_str(&format!(
            "let r{i} = tool_{i}({{path: \"docs/{i}.md\", limit: 10}})
let size{i}: int = r{i}.size
let names{i} = r{i}.entries.map({{ e -> e.name }})
log(\"${{r{i}.content}} ${{size{i}}} ${{len(names{i})}}\")
"
        ));
    }
    src
}

fn bench(c: &mut Criterion) {
    ALLOCATOR.activate();
    let program = large_program();
    assert!(
        program.lines().count() >= 1_900,
        "{}",
        program.lines().count()
    );
    let parsed = parse(&program);
    assert!(!parsed.has_errors(), "{:?}", parsed.first_error());
    let env = CheckEnv::default();
    assert!(!check_program(&parsed.program, &env).has_errors());
    c.bench_function("check/program_2000_lines", |b| {
        b.iter(|| check_program(&parsed.program, &env))
    });
    let manifest = large_manifest();
    let snippet = snippet();
    assert_eq!(snippet.lines().count(), 40);
    let parsed = parse(&snippet);
    let env = CheckEnv {
        manifest: Some(&manifest),
        ..CheckEnv::default()
    };
    assert!(!check_program(&parsed.program, &env).has_errors());
    c.bench_function("check/snippet_40_lines_100_tools", |b| {
        b.iter(|| check_program(&parsed.program, &env))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
