//! VM benches: every idiom of `benches/idioms/` (counted and `while` loops, recursion,
//! closure-calling builtins, dicts, JSON, strings, a small snippet) and the cold path
//! (fresh VM + compile + run of a small snippet, in process, and each stage of it: lex,
//! lex and layout, parse, compile, load and run).
//! `benches/lua_compare.sh` runs the same programs as whole processes beside Lua 5.4 and
//! CPython.

use std::rc::Rc;

use criterion::{Criterion, criterion_group, criterion_main};
use harn_compiler::compile::compile_program;
use harn_compiler::parse;
use harn_compiler::pipeline::{Env, compile_source};
use harn_vm::Vm;
use harn_vm::global;
use harn_vm::registry::Profile;

/// The allocator `harnc` ships with (mimalloc under the per-thread meter), so the figures
/// are those of the binary and of a host that embeds the executor with memory caps.
#[global_allocator]
static ALLOCATOR: harn_vm::meter::Metered = harn_vm::meter::Metered;

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

/// The idioms `benches/lua_compare.sh` runs beside Lua 5.4 and CPython, in process.
const IDIOMS: [(&str, &str); 8] = [
    ("for_range_10m", include_str!("idioms/for_range.harn")),
    ("while_loop_10m", include_str!("idioms/while_loop.harn")),
    ("fib_27", include_str!("idioms/fib.harn")),
    ("map_filter_sum_1m", include_str!("idioms/map_filter.harn")),
    ("dict_build_200k", include_str!("idioms/dict_build.harn")),
    (
        "json_roundtrip_10x",
        include_str!("idioms/json_roundtrip.harn"),
    ),
    ("strings_100k", include_str!("idioms/strings.harn")),
    ("startup_snippet", include_str!("idioms/startup.harn")),
];
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
    ALLOCATOR.activate();
    let mut g = c.benchmark_group("vm");
    g.sample_size(10);
    harn_vm::init(harn_stdlib::register);
    for (name, src) in IDIOMS {
        let proto = compile(src);
        g.bench_function(name, |b| b.iter(|| run(&proto)));
    }
    g.finish();
    c.bench_function("cold_parts/parse", |b| b.iter(|| parse(SNIPPET)));
    // The parse's first two stages alone, so that the parser's own share is the difference.
    c.bench_function("cold_parts/lex", |b| {
        b.iter(|| harn_compiler::lexer::lex(SNIPPET))
    });
    c.bench_function("cold_parts/lex_layout", |b| {
        b.iter(|| harn_compiler::layout::layout(harn_compiler::lexer::lex(SNIPPET).tokens, 0))
    });
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
