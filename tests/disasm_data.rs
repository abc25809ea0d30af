//! Bytecode snapshots for every program in `tests/data/disasm/`.

mod common;

use harn_compiler::compile::compile_program;
use harn_compiler::parse;

#[test]
fn disassembly_snapshots() {
    insta::glob!("data/disasm/*.harn", |path| {
        let source = common::read(path);
        let parsed = parse(&source);
        assert!(!parsed.has_errors(), "{:?}", parsed.first_error());
        let proto = compile_program(&parsed.program, &source).unwrap_or_else(|e| panic!("{e:?}"));
        insta::assert_snapshot!(proto.disassemble());
    });
}
