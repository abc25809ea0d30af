//! A tiny [`Host`] for unit tests: callbacks are Rust closures registered on the host and
//! handed out as `Value::Builtin(id)` values; output goes to a string; fuel is counted but
//! unlimited.

use std::rc::Rc;

use crate::error::VmError;
use crate::native::Host;
use crate::value::Value;

type Callback = Rc<dyn Fn(&[Value]) -> Result<Value, VmError>>;

/// Ids handed out start here, so they never collide with real builtins in tests.
const FIRST_ID: u32 = 1_000_000;

#[derive(Default)]
pub(crate) struct TestHost {
    pub out: String,
    pub fuel: u64,
    funcs: Vec<Callback>,
}

impl TestHost {
    pub fn new() -> Self {
        TestHost::default()
    }

    /// Registers a callback and returns the value that calls it.
    pub fn func(&mut self, f: impl Fn(&[Value]) -> Result<Value, VmError> + 'static) -> Value {
        self.funcs.push(Rc::new(f));
        Value::Builtin(FIRST_ID + u32::try_from(self.funcs.len() - 1).unwrap())
    }
}

impl Host for TestHost {
    fn call(&mut self, f: &Value, args: &[Value]) -> Result<Value, VmError> {
        match f {
            Value::Builtin(id) if *id >= FIRST_ID => {
                let cb = self
                    .funcs
                    .get((id - FIRST_ID) as usize)
                    .cloned()
                    .ok_or_else(|| VmError::runtime("test host: unknown callback"))?;
                cb(args)
            }
            _ => Err(VmError::runtime("test host: not callable")),
        }
    }

    fn write_out(&mut self, text: &str) -> Result<(), VmError> {
        self.out.push_str(text);
        Ok(())
    }

    fn charge(&mut self, units: u64) -> Result<(), VmError> {
        self.fuel += units;
        Ok(())
    }
}

/// Shorthands for building values in tests.
pub(crate) fn s(x: &str) -> Value {
    Value::str(x)
}

pub(crate) fn i(n: i64) -> Value {
    Value::Int(n)
}

pub(crate) fn l(items: Vec<Value>) -> Value {
    Value::list(items)
}

pub(crate) fn ints(ns: &[i64]) -> Value {
    Value::list(ns.iter().map(|n| Value::Int(*n)).collect())
}

/// Display of a value, for compact assertions.
pub(crate) fn show(v: &Value) -> String {
    crate::display::display(v).unwrap()
}

/// Calls a method and displays the result (`<none>` for an unknown method).
pub(crate) fn m(host: &mut TestHost, recv: Value, name: &str, args: &[Value]) -> String {
    match super::call_method(host, recv, name, args).unwrap() {
        Some(v) => show(&v),
        None => "<none>".into(),
    }
}
