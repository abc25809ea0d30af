//! Test support (feature `test-support`, and this crate's own tests): a tiny [`Host`]
//! whose callbacks are Rust closures registered on the host and handed out as
//! `Value::Builtin(id)` values; output goes to a string; fuel is counted but unlimited.
//! Plus shorthands for values and for calling builtins and methods directly. The
//! standard library's unit tests use the same code.

use std::rc::Rc;

use crate::error::VmError;
use crate::native::Host;
use crate::value::Value;

type Callback = Rc<dyn Fn(&[Value]) -> Result<Value, VmError>>;

/// Ids handed out start here, so they never collide with real builtins in tests.
const FIRST_ID: u32 = 1_000_000;

#[derive(Default)]
pub struct TestHost {
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
        self.fuel = self.fuel.saturating_add(units);
        Ok(())
    }
}

/// Shorthands for building values in tests.
pub fn s(x: &str) -> Value {
    Value::str(x)
}

pub fn i(n: i64) -> Value {
    Value::Int(n)
}

pub fn l(items: Vec<Value>) -> Value {
    Value::list(items)
}

pub fn ints(ns: &[i64]) -> Value {
    Value::list(ns.iter().map(|n| Value::Int(*n)).collect())
}

/// Display of a value, for compact assertions.
pub fn show(v: &Value) -> String {
    crate::display::display(v).unwrap()
}

/// Calls a method and displays the result (`<none>` for an unknown method).
pub fn m(host: &mut TestHost, recv: Value, name: &str, args: &[Value]) -> String {
    match crate::methods::call_method(host, recv, name, args).unwrap() {
        Some(v) => show(&v),
        None => "<none>".into(),
    }
}

/// Calls a native builtin function directly and displays the result.
pub fn call(f: crate::native::NativeFn, args: &[Value]) -> String {
    let mut h = TestHost::new();
    show(&f(&mut h, args).unwrap())
}

/// Calls a pure builtin of one argument; returns its result's display.
pub fn call_number(f: crate::native::NumberFn, x: &Value) -> String {
    show(&f(x).unwrap())
}

/// Calls a pure builtin of one argument expecting an error; returns its bare message.
pub fn call_number_err(f: crate::native::NumberFn, x: &Value) -> String {
    match f(x) {
        Ok(v) => panic!("expected an error, got {}", show(&v)),
        Err(e) => e.bare_message(),
    }
}

/// Calls a native builtin expecting an error; returns its bare message.
pub fn call_err(f: crate::native::NativeFn, args: &[Value]) -> String {
    let mut h = TestHost::new();
    match f(&mut h, args) {
        Ok(v) => panic!("expected an error, got {}", show(&v)),
        Err(e) => e.bare_message(),
    }
}
