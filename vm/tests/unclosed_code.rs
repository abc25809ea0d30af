//! The compiler only makes closed functions (every jump lands inside the code, and the
//! last instruction never goes on to the next). The instruction loops fetch without a
//! bounds check, so loading makes sure of it: a hand-made function that is not closed is
//! loaded as one that stops with an error at once, and closed code gets an instruction
//! after its last that stops with the same error. Nothing reads beyond a function's code.

use std::rc::Rc;

use harn_compiler::bytecode::{Op, Proto};
use harn_vm::registry::Profile;
use harn_vm::{Vm, global};

fn run(code: Vec<Op>) -> String {
    let proto = Proto {
        name: "<main>".to_string(),
        max_regs: 2,
        lines: vec![1; code.len()],
        code,
        ..Proto::default()
    };
    let mut vm = Vm::new(global(), Profile::Default);
    vm.load(Rc::new(proto));
    match vm.run_sync() {
        Ok(v) => panic!("an unclosed function ran to {v:?}"),
        Err(e) => e.report(),
    }
}

#[test]
fn code_that_falls_off_its_end_is_refused() {
    let report = run(vec![Op::LoadInt { dst: 0, value: 1 }]);
    assert!(
        report.contains("ran past the end of a function"),
        "{report}"
    );
}

#[test]
fn a_jump_past_the_end_is_refused() {
    let report = run(vec![Op::Jump { offset: 5 }, Op::Return { src: 0 }]);
    assert!(
        report.contains("ran past the end of a function"),
        "{report}"
    );
}

#[test]
fn a_jump_before_the_start_is_refused() {
    let report = run(vec![
        Op::LoadInt { dst: 0, value: 1 },
        Op::Jump { offset: -3 },
        Op::Return { src: 0 },
    ]);
    assert!(
        report.contains("ran past the end of a function"),
        "{report}"
    );
}

#[test]
fn empty_code_is_refused() {
    let report = run(Vec::new());
    assert!(
        report.contains("ran past the end of a function"),
        "{report}"
    );
}

#[test]
fn closed_code_runs() {
    let proto = Proto {
        name: "<main>".to_string(),
        max_regs: 2,
        lines: vec![1; 2],
        code: vec![Op::LoadInt { dst: 0, value: 7 }, Op::Return { src: 0 }],
        ..Proto::default()
    };
    let mut vm = Vm::new(global(), Profile::Default);
    vm.load(Rc::new(proto));
    let value = vm.run_sync().unwrap_or_else(|e| panic!("{}", e.report()));
    assert_eq!(format!("{value:?}"), "Int(7)");
}
