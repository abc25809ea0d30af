//! The instruction loop fetches without a bounds check, relying on each function being
//! closed (every jump lands inside its code, and the last instruction never goes on to
//! the next). The compiler only makes such functions; a hand-made one that is not closed
//! is refused with an error when its frame is entered, never run past its end.

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
    assert!(report.contains("its code is not closed"), "{report}");
}

#[test]
fn a_jump_past_the_end_is_refused() {
    let report = run(vec![Op::Jump { offset: 5 }, Op::Return { src: 0 }]);
    assert!(report.contains("its code is not closed"), "{report}");
}

#[test]
fn empty_code_is_refused() {
    let report = run(Vec::new());
    assert!(report.contains("its code is not closed"), "{report}");
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
