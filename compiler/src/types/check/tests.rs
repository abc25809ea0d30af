//! The checker's data model: fixes, the types table and the definitions table (what
//! the language server will read), and that broken or deep input never fails.

use super::{CheckEnv, check_program};
use crate::parse;
use crate::types::Ty;

fn check(src: &str) -> super::Checked {
    let parsed = parse(src);
    check_program(&parsed.program, &CheckEnv::default())
}

#[test]
fn a_suggested_name_comes_with_a_fix_replacing_the_use() {
    let src = "let total = 1\nlog(totl)\n";
    let checked = check(src);
    let d = &checked.diagnostics[0];
    assert_eq!(
        d.message,
        "value `totl` is not defined or imported — did you mean `total`?"
    );
    let fix = d.fix.as_ref().unwrap();
    assert_eq!(&src[fix.span.start as usize..fix.span.end as usize], "totl");
    assert_eq!(fix.replacement, "total");
}

#[test]
fn uses_point_to_their_declarations_and_expressions_have_types() {
    let src = "fn twice(n: int) -> int { return n * 2 }\nlet x = twice(21)\nlog(x + 1)\n";
    let checked = check(src);
    assert!(checked.diagnostics.is_empty(), "{:?}", checked.diagnostics);
    let at = |needle: &str, nth: usize| src.match_indices(needle).nth(nth).unwrap().0 as u32;
    // `twice(21)` resolves to the fn's name; `x + 1` to the let.
    assert!(
        checked
            .definitions
            .iter()
            .any(|(u, d)| u.start == at("twice", 1) && d.start == at("twice", 0))
    );
    assert!(
        checked
            .definitions
            .iter()
            .any(|(u, d)| u.start == at("x", 1) && d.start == at("x", 0))
    );
    // The call has the declared return type, and so does the let bound to it.
    let call = at("twice(21)", 0);
    assert!(
        checked
            .types
            .iter()
            .any(|(s, t)| s.start == call && *t == Ty::Int)
    );
}

#[test]
fn broken_and_deep_input_is_checked_without_failing() {
    for src in ["let x = \nlog(", "fn (", "match { ->", "}}}}"] {
        let _ = check(src);
    }
    // A long operator chain is a deep tree: no stack overflow.
    let chain = format!("let s = {}\n", vec!["1"; 50_000].join(" + "));
    let checked = std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(move || check(&chain).diagnostics.len())
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(checked, 0);
}

#[test]
fn an_unknown_attribute_is_a_warning_whose_fix_keeps_the_at_sign() {
    let src = "@deprecatd\nfn f() { return 1 }\nlog(f())\n";
    let checked = check(src);
    assert!(!checked.has_errors(), "{:?}", checked.diagnostics);
    let d = &checked.diagnostics[0];
    assert_eq!(
        d.message,
        "unknown attribute `@deprecatd` — did you mean `@deprecated`?"
    );
    let fix = d.fix.as_ref().unwrap();
    assert_eq!(
        &src[fix.span.start as usize..fix.span.end as usize],
        "deprecatd"
    );
    assert_eq!(fix.replacement, "deprecated");
}
