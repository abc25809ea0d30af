//! VM benches: hot loop, recursive calls, string building, dict churn, closures, and
//! the cold path (fresh VM + compile + run of a small snippet, in process).
//! `benches/lua_compare.sh` runs the same loop and fib programs on Lua 5.4 beside harnc.

use std::rc::Rc;

use criterion::{Criterion, criterion_group, criterion_main};
use harn_compiler::compile::compile_program;
use harn_compiler::parse;
use harn_compiler::pipeline::{Env, compile_source};
use harn_vm::Vm;
use harn_vm::global;
use harn_vm::registry::Profile;

fn compile(src: &str) -> Rc<harn_compiler::bytecode::Proto> {
    match compile_source(src, &Env::Script) {
        (Some(proto), _) => Rc::new(proto),
        (None, diagnostics) => panic!("{diagnostics:?}"),
    }
}

fn run(proto: &Rc<harn_compiler::bytecode::Proto>) -> String {
    let mut vm = Vm::new(global(), Profile::Default);
    vm.load(proto.clone());
    vm.run_sync().unwrap_or_else(|e| panic!("{}", e.report()));
    vm.take_output()
}

const HOT_LOOP: &str =
    "var i = 0\nvar sum = 0\nwhile i < 10000000 {\n  sum = sum + i\n  i = i + 1\n}\nlog(sum)\n";
const FIB: &str =
    "fn fib(n) {\n  if n < 2 { return n }\n  return fib(n - 1) + fib(n - 2)\n}\nlog(fib(27))\n";
const STRINGS: &str = "var parts = []\nfor i in 0 to 100000 exclusive {\n  parts = parts.push(\"p${i}\")\n}\nlet s = parts.join(\",\")\nlog(len(s))\n";
const DICTS: &str = "var d = {}\nfor i in 0 to 200000 exclusive {\n  d[\"k${i}\"] = i\n}\nvar total = 0\nfor e in d {\n  if e.value % 2 == 0 { total = total + e.value }\n}\nlet big = d.filter({ v -> v > 100000 })\nlog([total, len(big)])\n";
const CLOSURES: &str = "var xs = []\nfor i in 0 to 1000000 exclusive { xs = xs.push(i) }\nlet ys = xs.map({ x -> x * 2 }).filter({ x -> x % 3 == 0 })\nlog(len(ys))\n";
const SNIPPET: &str = r#"
let items = [{name: "a", score: 3}, {name: "b", score: 9}, {name: "c", score: 5}]
fn best(xs) {
  var top = nil
  for it in xs {
    if top == nil || it.score > top.score { top = it }
  }
  return top
}
let winner = best(items)
let names = items.map({ it -> it.name })
let total = items.reduce(0, { acc, it -> acc + it.score })
let summary = {winner: winner.name, names: names, total: total}
if total > 10 {
  log("high: ${summary}")
} else {
  log("low")
}
let label = match winner.name { "b" -> { "bee" } _ -> { "other" } }
log(label)
"#;

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("vm");
    g.sample_size(10);
    for (name, src) in [
        ("hot_loop_10m", HOT_LOOP),
        ("fib_27", FIB),
        ("string_build_100k", STRINGS),
        ("dict_churn_200k", DICTS),
        ("closures_map_filter_1m", CLOSURES),
    ] {
        let proto = compile(src);
        g.bench_function(name, |b| b.iter(|| run(&proto)));
    }
    g.finish();
    c.bench_function("cold_parts/parse", |b| b.iter(|| parse(SNIPPET)));
    let parsed = parse(SNIPPET);
    c.bench_function("cold_parts/compile", |b| {
        b.iter(|| compile_program(&parsed.program, SNIPPET))
    });
    let proto = compile(SNIPPET);
    c.bench_function("cold_parts/new_vm_load_run", |b| b.iter(|| run(&proto)));
    c.bench_function("cold_run_20_line_snippet", |b| {
        b.iter(|| {
            let proto = compile(SNIPPET);
            run(&proto)
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
