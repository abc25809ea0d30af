use super::*;
use crate::parser::parse_type;

fn ty(text: &str) -> Ty {
    lower(&parse_type(text).unwrap()).unwrap()
}

#[test]
fn annotations_lower_and_print_back() {
    for text in [
        "int",
        "list<int>",
        "list",
        "dict",
        "dict<string, int>",
        "{name: string, age?: int}",
        "int | nil",
        "fn(int) -> bool",
        "\"pass\" | \"fail\"",
        "0 | 1 | -1",
        "Result<int, string>",
        "iter<int>",
        "Schema<User>",
        "Point",
        "(fn(int) -> int) | nil",
        "any",
        "unknown",
        "never",
        "bytes",
        "duration",
        "range",
        "set",
        "closure",
    ] {
        assert_eq!(ty(text).to_string(), text);
    }
    assert_eq!(ty("[int]"), ty("list<int>"));
    assert_eq!(ty("true"), Ty::Bool);
    assert_eq!(ty("(int | nil) | string").to_string(), "int | nil | string");
    assert_eq!(ty("fn(int)").to_string(), "fn(int) -> any");
}

#[test]
fn bad_arity_and_syntax_are_errors() {
    assert!(lower(&parse_type("int<string>").unwrap()).is_err());
    assert!(lower(&parse_type("dict<string>").unwrap()).is_err());
    assert!(parse_type("list<").is_err());
    assert!(parse_type("int int").is_err());
    // Named function-type parameters exist only in builtin signatures.
    assert!(parse_type("fn(x: int) -> int").is_err());
}

#[test]
fn signatures_parse() {
    let s = Signature::parse("fn(s: string, n?: int, ...rest: any) -> string").unwrap();
    assert_eq!(s.params.len(), 3);
    assert!(s.params[1].optional && !s.params[1].rest);
    assert!(s.params[2].rest);
    assert_eq!(s.ret, Ty::String);
    assert_eq!((s.min_args(), s.max_args()), (1, None));
    assert_eq!(
        s.to_string(),
        "fn(s: string, n?: int, ...rest: any) -> string"
    );
    let s = Signature::parse("fn(o?: dict | fn(name: string, input: any) -> any) -> dict").unwrap();
    assert_eq!(
        s.to_string(),
        "fn(o?: dict | fn(string, any) -> any) -> dict"
    );
    assert!(Signature::parse("fn(x) -> int").is_err());
    assert!(Signature::parse("fn(x: int) -> ").is_err());
}
