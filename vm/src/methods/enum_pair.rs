//! Enum values and pairs have properties (`variant`, `fields`; `first`, `second`), which
//! the interpreter handles, but no builtin methods: every method name is unknown (the
//! caller turns that into `nil`).

use crate::error::VmError;
use crate::native::Host;
use crate::value::Value;

pub(super) fn call(
    _host: &mut dyn Host,
    _receiver: &Value,
    _name: &str,
    _args: &[Value],
) -> Result<Option<Value>, VmError> {
    Ok(None)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use crate::test_support::{TestHost, m};
    use crate::value::Value;

    #[test]
    fn no_methods() {
        let mut h = TestHost::new();
        assert_eq!(m(&mut h, Value::ok(Value::Int(1)), "unwrap", &[]), "<none>");
        let p = Value::Pair(std::rc::Rc::new((Value::Int(1), Value::Int(2))));
        assert_eq!(m(&mut h, p, "first", &[]), "<none>");
        assert_eq!(m(&mut h, Value::Int(42), "abs", &[]), "<none>");
        assert_eq!(m(&mut h, Value::Nil, "anything", &[]), "<none>");
    }
}
