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

/// Every function the compiler emits, for every program in the run and disassembly data,
/// is closed (`Proto::is_closed`): the VM's loop fast lane only runs closed code, so an
/// open function would silently lose it.
#[test]
fn compiled_code_is_closed() {
    fn all_closed(proto: &harn_compiler::bytecode::Proto) -> bool {
        proto.is_closed() && proto.children.iter().all(|c| all_closed(c))
    }
    let mut checked = 0;
    for dir in ["run", "disasm"] {
        let paths = common::harn_files(&common::data_dir(dir));
        for path in paths {
            let source = common::read(&path);
            let parsed = parse(&source);
            if parsed.has_errors() {
                continue;
            }
            if let Ok(proto) = compile_program(&parsed.program, &source) {
                assert!(all_closed(&proto), "{}: open code", path.display());
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "only {checked} programs compiled");
}
