//! The stdlib's unit tests use the VM's test support (one test host for both crates),
//! plus the few helpers many of its modules' tests share.

pub use harn_vm::test_support::*;

use harn_vm::native::NativeFn;
use harn_vm::value::Value;

/// The message of a thrown string error (panics on any other outcome).
pub fn thrown(f: NativeFn, args: &[Value]) -> String {
    let e = call_err(f, args);
    e.strip_prefix("Thrown: ")
        .unwrap_or_else(|| panic!("not thrown: {e}"))
        .to_owned()
}

/// A dict value from `(key, value)` pairs.
pub fn d(pairs: &[(&str, Value)]) -> Value {
    Value::dict(
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), v.clone()))
            .collect(),
    )
}

/// A value from JSON text.
pub fn j(text: &str) -> Value {
    crate::json::parse_text(text).unwrap_or_else(|e| panic!("{e}"))
}
