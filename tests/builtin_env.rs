//! The builtin environment and the registry agree: after the registration the `harnc`
//! binary performs, every builtin declared in `harn_compiler::builtins` has an
//! implementation and every implementation has a declaration (`harnc builtins --check`).

use std::process::Command;

#[test]
fn every_declaration_is_implemented_and_every_implementation_declared() {
    let out = Command::new(env!("CARGO_BIN_EXE_harnc"))
        .args(["builtins", "--check"])
        .output()
        .unwrap_or_else(|e| panic!("cannot run harnc builtins --check: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.starts_with("ok: "), "{stdout}");
}
