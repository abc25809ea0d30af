//! Loops charge one unit of fuel per back edge whichever path runs them (the general
//! instruction loop or its fast lane), and the instruction limit stops a loop exactly.

use std::rc::Rc;

use harn_compiler::compile::compile_program;
use harn_compiler::parse;
use harn_vm::registry::Profile;
use harn_vm::{Limits, Vm, global};

fn vm_for(src: &str, max_instructions: Option<u64>) -> Vm {
    let parsed = parse(src);
    assert!(!parsed.has_errors(), "{:?}", parsed.first_error());
    let proto = compile_program(&parsed.program, src).unwrap_or_else(|e| panic!("{e:?}"));
    let mut vm = Vm::new(global(), Profile::Default);
    vm.set_limits(Limits {
        max_instructions,
        ..Limits::default()
    });
    vm.load(Rc::new(proto));
    vm
}

/// Fuel a program uses, run without a limit.
fn fuel(src: &str) -> u64 {
    let mut vm = vm_for(src, None);
    vm.run_sync().unwrap_or_else(|e| panic!("{}", e.report()));
    vm.instructions_used()
}

fn counted(n: u64) -> String {
    format!("var t = 0\nfor i in 0 to {n} exclusive {{ t = t + i }}\nlog(t)\n")
}

fn while_loop(n: u64) -> String {
    format!("var i = 0\nvar t = 0\nwhile i < {n} {{\n  t = t + i\n  i = i + 1\n}}\nlog(t)\n")
}

/// Alternates between the fast lane and the general loop every iteration.
fn with_call(n: u64) -> String {
    format!("fn f(x) {{ return x }}\nvar t = 0\nfor i in 0 to {n} exclusive {{ t = t + f(i) }}\n")
}

/// Direct recursion ten deep on every iteration (self-calls run in the fast lane).
fn with_recursion(n: u64) -> String {
    format!(
        "fn down(k) {{\n  if k == 0 {{ return 0 }}\n  return down(k - 1) + 1\n}}\nvar t = 0\nfor i in 0 to {n} exclusive {{ t = t + down(10) }}\n"
    )
}

/// A dict read and a dict write by string key per iteration (run in the fast lane),
/// each one unit of walk fuel for the key, and a list write by index.
fn counting_words(n: u64) -> String {
    format!(
        "let ws = [\"a\", \"bb\", \"c\"]\nvar d = {{}}\nvar xs = [0, 0, 0]\nfor i in 0 to {n} exclusive {{\n  let w = ws[i % 3]\n  d[w] = (d[w] ?? 0) + 1\n  xs[i % 3] = i\n}}\nlog(d)\n"
    )
}

/// `counting_words` without its dict accesses.
fn counting_words_without_dict(n: u64) -> String {
    format!(
        "let ws = [\"a\", \"bb\", \"c\"]\nvar xs = [0, 0, 0]\nfor i in 0 to {n} exclusive {{\n  let w = ws[i % 3]\n  xs[i % 3] = i\n}}\nlog(xs)\n"
    )
}

#[test]
fn a_dict_read_or_write_by_string_key_costs_one_unit_in_a_loop() {
    let per = |make: fn(u64) -> String| (fuel(&make(3_000)) - fuel(&make(2_000))) / 1_000;
    assert_eq!(per(counting_words), per(counting_words_without_dict) + 2);
}

#[test]
fn each_iteration_costs_the_same_fuel_at_any_length() {
    for make in [
        counted,
        while_loop,
        with_call,
        with_recursion,
        counting_words,
    ] {
        // Lengths on both sides of the 1,000-unit refuel period.
        let per_iteration: Vec<u64> = [10u64, 999, 1_000, 1_001, 5_000]
            .windows(2)
            .map(|w| (fuel(&make(w[1])) - fuel(&make(w[0]))) / (w[1] - w[0]))
            .collect();
        let first = per_iteration[0];
        assert!(first >= 1, "{}", make(10));
        assert!(
            per_iteration.iter().all(|&p| p == first),
            "{per_iteration:?}"
        );
        let exact = fuel(&make(3_000)) - fuel(&make(2_000));
        assert_eq!(exact, 1_000 * first, "{}", make(3_000));
    }
}

#[test]
fn the_instruction_limit_stops_a_loop_at_the_limit() {
    for make in [counted, while_loop, with_recursion, counting_words] {
        let used = fuel(&make(4_000));
        // Enough fuel: the loop finishes.
        let mut vm = vm_for(&make(4_000), Some(used + 1_000));
        assert!(vm.run_sync().is_ok());
        // Too little by one refuel period: refused, having used no more than the limit
        // allows (checks run every 1,000 units).
        let mut vm = vm_for(&make(4_000), Some(used.saturating_sub(1_000)));
        let err = vm
            .run_sync()
            .err()
            .unwrap_or_else(|| panic!("{}", make(4_000)));
        assert!(err.report().contains("instruction"), "{}", err.report());
        assert!(vm.instructions_used() <= used, "{}", vm.instructions_used());
    }
}

#[test]
fn a_loop_over_a_dict_costs_what_a_loop_over_its_entries_costs() {
    let build = |n: u64| {
        format!(
            "var d = {{}}\nvar es = []\nfor i in 0 to {n} exclusive {{\n  d[\"k${{i}}\"] = i\n  es = es.push({{key: \"k${{i}}\", value: i}})\n}}\nvar t = 0\n"
        )
    };
    let over_dict = |n: u64| format!("{}for e in d {{ t = t + e.value }}\n", build(n));
    let over_list = |n: u64| format!("{}for e in es {{ t = t + e.value }}\n", build(n));
    let per_dict = fuel(&over_dict(2_000)) - fuel(&over_dict(1_000));
    let per_list = fuel(&over_list(2_000)) - fuel(&over_list(1_000));
    assert_eq!(per_dict, per_list);
}
