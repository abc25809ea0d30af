//! Lexer and parser throughput on a generated ~1 MB source file.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use harn_compiler::lexer::lex;
use harn_compiler::parse;

/// The allocator `harnc` ships with (mimalloc under the per-thread meter), so the figures
/// are those of the binary and of a host that embeds the executor with memory caps.
#[global_allocator]
static ALLOCATOR: harn_vm::meter::Metered = harn_vm::meter::Metered;

const UNIT: &str = r#"
// A realistic chunk of code-mode style Harn, repeated to make a large file.
fn summarize(items: list<dict>, limit: int = 10) -> dict {
  var total = 0
  let picked = items.filter({ it -> it.score > 0.5 }).take(limit)
  for {name, score} in picked {
    total += score
    log("item ${name}: ${score * 100}%")
  }
  let label = if total > 3 { "high" } else if total > 1 { "mid" } else { "low" }
  return {count: len(picked), total: total, label: label, names: picked.map({ p -> p.name })}
}
let result = try { summarize([{name: "a", score: 0.9}, {name: "b", score: 0.2}]) } catch (e) { nil }
match result?.label {
  "high" | "mid" -> { println("ok") }
  _ -> { println("low") }
}
"#;

fn source_of_size(bytes: usize) -> String {
    let mut s = String::with_capacity(bytes + UNIT.len());
    while s.len() < bytes {
        s.push_str(UNIT);
    }
    s
}

fn bench(c: &mut Criterion) {
    ALLOCATOR.activate();
    let source = source_of_size(1024 * 1024);
    let mut group = c.benchmark_group("frontend_1mb");
    group.throughput(Throughput::Bytes(source.len() as u64));
    group.sample_size(10);
    group.bench_function("lex", |b| b.iter(|| lex(&source)));
    group.bench_function("parse", |b| b.iter(|| parse(&source)));
    group.finish();
    let small = UNIT.to_string();
    c.bench_function("parse_small_snippet", |b| b.iter(|| parse(&small)));
}

criterion_group!(benches, bench);
criterion_main!(benches);
