//! The analysis layer's latencies (issue targets: on a 2,000-line file, completion
//! under 15 ms and fresh diagnostics after an edit under 30 ms; on a 40-line snippet
//! with a 100-tool manifest, under 2 ms each). "After an edit" sets the text input and
//! re-runs the queries, as the server does on `didChange`.

use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use harn_lsp::db::Db;
use harn_lsp::{actions, complete};
use serde_json::json;
use tower_lsp_server::ls_types::Uri;

fn manifest(tools: usize) -> harn_compiler::manifest::Manifest {
    let list: Vec<_> = (0..tools)
        .map(|i| {
            json!({"name": format!("tool_{i}"), "description": format!("Tool {i}."),
                   "inputSchema": {"type": "object",
                                   "properties": {"path": {"type": "string"}, "limit": {"type": "integer"},
                                                  "mode": {"enum": ["fast", "full"]}},
                                   "required": ["path"]},
                   "outputSchema": {"type": "object", "properties": {"items": {"type": "array", "items": {"type": "string"}}}},
                   "annotations": {"readOnlyHint": true}})
        })
        .collect();
    harn_lsp::manifest_source::from_value(&json!(list))
        .map(|(m, _)| m)
        .unwrap_or_default()
}

/// A 40-line snippet over the manifest's bindings.
fn snippet() -> String {
    let mut s = String::new();
    for i in 0..13 {
        s.push_str(&format!(
            "let r{i} = tool_{i}({{path: \"/tmp/{i}\", limit: {i}}})\n"
        ));
        s.push_str(&format!("let n{i} = len(r{i}.items)\n"));
        s.push_str(&format!("println(\"${{n{i}}} items\")\n"));
    }
    s.push_str("let last = tool_\n");
    s
}

/// A 2,000-line script: functions, loops, closures and collections.
fn big_file() -> String {
    let mut s = String::new();
    for i in 0..200 {
        s.push_str(&format!(
            "fn step_{i}(xs: list<int>, k: int) -> int {{\n  var total = 0\n  for x in xs {{\n    total = total + x * k\n  }}\n  let evens = xs.filter({{ x -> x % 2 == 0 }})\n  let label = \"step {i}: ${{total}}\"\n  println(label)\n  return total + len(evens)\n}}\n"
        ));
    }
    s
}

fn bench(c: &mut Criterion) {
    let uri: Uri = "file:///bench.harn"
        .parse()
        .unwrap_or_else(|_| unreachable!());
    for (name, text, m) in [
        ("2000_lines", big_file(), None),
        (
            "snippet_40_lines_100_tools",
            snippet(),
            Some(Arc::new(manifest(100))),
        ),
    ] {
        let mut db = Db::default();
        db.set_manifest(m);
        let file = db.open(text.clone());
        let cursor = text.len() - 1;
        let _ = db.document(file).findings.diagnostics.len();
        c.bench_function(&format!("completion/{name}"), |b| {
            b.iter(|| complete::complete(&db.document(file), cursor).len())
        });
        let mut flip = false;
        c.bench_function(&format!("diagnostics_after_edit/{name}"), |b| {
            b.iter(|| {
                flip = !flip;
                let mut t = text.clone();
                t.push_str(if flip {
                    "let edited = 1\n"
                } else {
                    "let edited = 2\n"
                });
                db.set_text(file, t);
                actions::diagnostics(&db.document(file), &uri).len()
            })
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
