#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use super::pure::*;
use super::*;
use crate::error::ErrorKind;
use crate::registry::Capability;
use crate::test_support::{TestHost, call_number, i, ints, l, s, show};

type Builtin = fn(&mut dyn Host, &[Value]) -> Result<Value, VmError>;

/// Runs a builtin and displays its result.
fn run(f: Builtin, args: &[Value]) -> String {
    let mut h = TestHost::new();
    show(&f(&mut h, args).unwrap())
}

/// Runs a builtin that must fail and returns the error text (`bare_message`).
fn fail(f: Builtin, args: &[Value]) -> String {
    let mut h = TestHost::new();
    f(&mut h, args).unwrap_err().bare_message()
}

fn f(x: f64) -> Value {
    Value::Float(x)
}

fn dict(pairs: &[(&str, Value)]) -> Value {
    Value::dict(
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), v.clone()))
            .collect(),
    )
}

#[test]
fn output_builtins() {
    let mut h = TestHost::new();
    print(&mut h, &[s("x")]).unwrap();
    log(&mut h, &[s("a"), s("b")]).unwrap();
    log(&mut h, &[]).unwrap();
    println(&mut h, &[l(vec![s("a"), i(1)])]).unwrap();
    println(&mut h, &[]).unwrap();
    print(&mut h, &[]).unwrap();
    assert_eq!(h.out, "x[harn] a\n[harn] \n[a, 1]\n\n");
    assert_eq!(run(eprint, &[s("to stderr ")]), "nil");
    assert_eq!(run(eprintln, &[]), "nil");
}

#[test]
fn conversions() {
    assert_eq!(run(len, &[s("héllo")]), "5");
    assert_eq!(run(len, &[ints(&[1, 2])]), "2");
    assert_eq!(run(len, &[dict(&[("a", i(1))])]), "1");
    assert_eq!(run(len, &[Value::Nil]), "0");
    assert_eq!(run(len, &[i(42)]), "0");
    assert_eq!(run(len, &[]), "0");
    assert_eq!(run(to_string, &[l(vec![s("a"), Value::Nil])]), "[a, nil]");
    assert_eq!(run(to_string, &[f(2.0)]), "2.0");
    assert_eq!(run(to_int, &[s("42")]), "42");
    assert_eq!(run(to_int, &[s("3.5")]), "nil");
    assert_eq!(run(to_int, &[s(" 4")]), "nil");
    assert_eq!(run(to_int, &[f(-3.9)]), "-3");
    assert_eq!(run(to_int, &[f(f64::NAN)]), "0");
    assert_eq!(run(to_int, &[Value::Bool(true)]), "nil");
    assert_eq!(run(to_float, &[s("2.5")]), "2.5");
    assert_eq!(run(to_float, &[i(3)]), "3.0");
    assert_eq!(run(to_float, &[s("x")]), "nil");
    assert_eq!(run(to_float, &[Value::Nil]), "nil");
    assert_eq!(run(type_of, &[f(1.0)]), "float");
}

#[test]
fn assertions_throw_strings() {
    assert_eq!(run(assert, &[i(1)]), "nil");
    assert_eq!(
        fail(assert, &[Value::Bool(false)]),
        "Thrown: Assertion failed"
    );
    assert_eq!(fail(assert, &[Value::Nil, s("custom")]), "Thrown: custom");
    assert_eq!(run(assert_eq, &[i(3), f(3.0)]), "nil");
    assert_eq!(
        fail(assert_eq, &[i(1), i(2)]),
        "Thrown: Assertion failed: expected 2, got 1"
    );
    assert_eq!(fail(assert_eq, &[i(1), i(2), s("m")]), "Thrown: m");
    assert_eq!(
        fail(assert_eq, &[i(1)]),
        "Thrown: assert_eq requires at least 2 arguments"
    );
    assert_eq!(run(assert_ne, &[i(1), i(2)]), "nil");
    assert_eq!(
        fail(assert_ne, &[ints(&[1]), ints(&[1])]),
        "Thrown: Assertion failed: values should not be equal: [1]"
    );
    let mut h = TestHost::new();
    let e = assert(&mut h, &[Value::Bool(false)]).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Thrown(Value::Str(_))));
    // Durations are never equal, even to themselves.
    assert!(assert_eq(&mut h, &[Value::Duration(5), Value::Duration(5)]).is_err());
}

#[test]
fn results() {
    assert_eq!(run(ok, &[i(42)]), "Result.Ok(42)");
    assert_eq!(run(err, &[s("boom")]), "Result.Err(boom)");
    assert_eq!(run(ok, &[]), "Result.Ok(nil)");
    assert_eq!(run(is_ok, &[Value::ok(i(1))]), "true");
    assert_eq!(run(is_ok, &[i(1)]), "false");
    assert_eq!(run(is_err, &[Value::err(Value::Nil)]), "true");
    assert_eq!(run(is_err, &[Value::ok(i(1))]), "false");
    assert_eq!(run(unwrap, &[Value::ok(i(1))]), "1");
    assert_eq!(run(unwrap, &[i(7)]), "7");
    assert_eq!(
        fail(unwrap, &[Value::err(s("bad"))]),
        "Runtime error: unwrap called on Err: bad"
    );
    assert_eq!(run(unwrap_or, &[Value::err(s("bad")), i(0)]), "0");
    assert_eq!(run(unwrap_or, &[Value::ok(i(5)), i(0)]), "5");
    assert_eq!(run(unwrap_or, &[i(9), i(0)]), "9");
    assert_eq!(run(unwrap_err, &[Value::err(s("e"))]), "e");
    assert_eq!(
        fail(unwrap_err, &[Value::ok(i(1))]),
        "Runtime error: unwrap_err called on non-Err"
    );
    assert_eq!(
        fail(unreachable, &[]),
        "Runtime error: unreachable code was reached"
    );
    assert_eq!(
        fail(unreachable, &[ints(&[1])]),
        "Runtime error: unreachable code was reached: [1]"
    );
    assert_eq!(
        fail(throw_error, &[s("t"), s("timeout")]),
        "Thrown: {category: timeout, message: t}"
    );
    assert_eq!(
        fail(throw_error, &[s("t")]),
        "Thrown: {category: generic, message: t}"
    );
}

#[test]
fn constructors() {
    assert_eq!(run(range, &[i(5)]), "0 to 5 exclusive");
    assert_eq!(run(range, &[i(2), i(4)]), "2 to 4 exclusive");
    assert_eq!(
        fail(range, &[s("a")]),
        "Type error: range: expected an int, got string"
    );
    assert_eq!(
        fail(range, &[i(1), f(2.5)]),
        "Type error: range: expected an int, got float"
    );
    assert!(fail(range, &[]).starts_with("Type error: range"));
    assert_eq!(run(set, &[i(1), f(1.0), i(2)]), "set(1, 1.0, 2)");
    assert_eq!(run(set, &[i(3), i(1), i(3)]), "set(3, 1)");
    assert_eq!(run(set, &[ints(&[3, 1, 3])]), "set(3, 1)");
    assert_eq!(run(set, &[]), "set()");
    assert_eq!(run(set, &[s("a")]), "set(a)");
    assert_eq!(run(set, &[ints(&[1]), ints(&[1])]), "set([1])");
    assert_eq!(run(pair, &[i(1), s("x")]), "(1, x)");
    assert_eq!(
        fail(pair, &[i(1)]),
        "Type error: pair: expected 2 arguments, got 1"
    );
}

#[test]
fn numbers() {
    assert_eq!(run(max, &[ints(&[1, 5, 2])]), "nil");
    assert_eq!(run(max, &[i(2), f(1.0)]), "2.0");
    assert_eq!(run(min, &[s("a"), s("b")]), "nil");
    assert_eq!(run(min, &[i(3)]), "nil");
    assert_eq!(run(min, &[i(3), i(1), i(2)]), "1");
    assert_eq!(run(max, &[i(3), i(1), i(7)]), "7");
    assert_eq!(run(min, &[i(3), f(0.5), i(2)]), "0.5");
    assert_eq!(run(max, &[i(3), Value::Nil]), "nil");
    assert_eq!(call_number(abs, &i(-3)), "3");
    assert_eq!(call_number(abs, &f(-2.5)), "2.5");
    assert_eq!(call_number(abs, &i(i64::MIN)), i64::MIN.to_string());
    assert_eq!(call_number(abs, &s("x")), "nil");
    assert_eq!(call_number(floor, &f(-2.5)), "-3");
    assert_eq!(call_number(ceil, &f(2.1)), "3");
    assert_eq!(run(round, &[f(2.5)]), "3");
    assert_eq!(run(round, &[f(-2.5)]), "-3");
    assert_eq!(run(round, &[i(4)]), "4");
    assert_eq!(run(round, &[f(1e300)]), i64::MAX.to_string());
    assert_eq!(call_number(floor, &Value::Nil), "nil");
    assert_eq!(call_number(sqrt, &i(9)), "3.0");
    assert_eq!(call_number(sqrt, &i(-1)), "NaN");
    assert_eq!(call_number(sqrt, &s("9")), "nil");
    assert_eq!(run(pow, &[i(2), i(10)]), "1024");
    assert_eq!(run(pow, &[i(2), i(64)]), "0");
    assert_eq!(run(pow, &[i(2), i(-2)]), "0.25");
    assert_eq!(run(pow, &[f(9.0), f(0.5)]), "3.0");
    assert_eq!(run(pow, &[f(2.0), i(3)]), "8.0");
    assert_eq!(run(pow, &[i(2)]), "nil");
    assert_eq!(run(pow, &[s("2"), i(2)]), "nil");
}

#[test]
fn dict_helpers() {
    let d = || dict(&[("b", i(2)), ("a", s("x"))]);
    assert_eq!(run(keys, &[d()]), "[a, b]");
    assert_eq!(run(values, &[d()]), "[x, 2]");
    assert_eq!(
        run(entries, &[d()]),
        "[{key: a, value: x}, {key: b, value: 2}]"
    );
    assert_eq!(run(keys, &[Value::Nil]), "[]");
    assert_eq!(
        fail(keys, &[i(1)]),
        "Type error: keys: expected dict, got int"
    );
    assert_eq!(
        fail(values, &[ints(&[1])]),
        "Type error: values: expected dict, got list"
    );
    assert_eq!(
        fail(entries, &[s("x")]),
        "Type error: entries: expected dict, got string"
    );
}

#[test]
fn string_helpers() {
    assert_eq!(run(contains, &[s("hello"), s("ell")]), "true");
    assert_eq!(run(contains, &[s("a1"), i(1)]), "true");
    assert_eq!(run(contains, &[ints(&[1, 2]), f(2.0)]), "true");
    assert_eq!(run(contains, &[ints(&[1, 2]), s("1")]), "false");
    assert_eq!(
        run(contains, &[Value::Set(Rc::new(vec![i(1)])), i(1)]),
        "true"
    );
    assert_eq!(run(contains, &[i(12), i(1)]), "false");
    assert_eq!(run(split, &[s("a b c")]), "[a, b, c]");
    assert_eq!(run(split, &[s("a,b"), s(",")]), "[a, b]");
    assert_eq!(run(split, &[i(5), s(",")]), "[5]");
    assert_eq!(
        run(join, &[l(vec![i(1), s("a"), Value::Nil]), s(", ")]),
        "1, a, nil"
    );
    assert_eq!(run(join, &[ints(&[1, 2])]), "12");
    assert_eq!(run(join, &[s("ab"), s(",")]), "");
    assert_eq!(run(replace, &[s("a-b-c"), s("-"), s("+")]), "a+b+c");
    assert_eq!(run(replace, &[s("ab"), s(""), s(".")]), ".a.b.");
    assert_eq!(run(trim, &[s("  x \n")]), "x");
    assert_eq!(run(lowercase, &[s("AbC")]), "abc");
    assert_eq!(run(uppercase, &[s("AbC")]), "ABC");
    assert_eq!(run(uppercase, &[i(1)]), "1");
    assert_eq!(run(starts_with, &[s("hello"), s("he")]), "true");
    assert_eq!(run(ends_with, &[s("hello"), s("he")]), "false");
    assert_eq!(run(substring, &[s("hello"), i(1), i(3)]), "ell");
    assert_eq!(run(substring, &[s("hello"), i(2)]), "llo");
    assert_eq!(run(substring, &[s("hello"), i(-2), i(2)]), "he");
    assert_eq!(run(substring, &[s("hello"), i(4), i(99)]), "o");
    assert_eq!(run(substring, &[s("héllo"), i(9)]), "");
    assert_eq!(run(substring, &[s("héllo"), i(1), i(1)]), "é");
}

#[test]
fn core_registrations_are_declared_and_its_sandbox_helpers_pure() {
    let mut b = RegistryBuilder::default();
    super::register(&mut b);
    let reg = b.build();
    assert!(reg.undeclared().is_empty(), "{:?}", reg.undeclared());
    // The names `code-mode.md` 4.5 makes visible in the sandbox, as the compiler's
    // table marks them; the core carries most of them.
    let visible: Vec<_> = harn_compiler::builtins::BuiltinEnv::global()
        .all()
        .filter(|d| d.sandbox_visible && reg.id(d.name).is_some())
        .collect();
    assert!(
        visible.len() > 30,
        "only {} sandbox names in core",
        visible.len()
    );
    for d in visible {
        let b = reg.get(reg.id(d.name).unwrap()).unwrap();
        assert!(
            matches!(b.capability, Capability::Pure | Capability::ToolEgress),
            "{} is tagged {:?}",
            d.name,
            b.capability
        );
        assert!(b.signature.starts_with("fn("), "{}", d.name);
        assert!(!b.doc.is_empty(), "{}", d.name);
    }
}
