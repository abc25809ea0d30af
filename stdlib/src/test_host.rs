//! A tiny [`Host`] for unit tests: callbacks are Rust closures handed out as
//! `Value::Builtin(id)` values; output goes to a string; fuel is unlimited.

use std::rc::Rc;

use harn_vm::native::Host;
use harn_vm::{Value, VmError};

type Callback = Rc<dyn Fn(&[Value]) -> Result<Value, VmError>>;

const FIRST_ID: u32 = 1_000_000;

#[derive(Default)]
pub struct TestHost {
    pub out: String,
    funcs: Vec<Callback>,
}

impl TestHost {
    pub fn new() -> Self {
        TestHost::default()
    }

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

    fn charge(&mut self, _units: u64) -> Result<(), VmError> {
        Ok(())
    }
}

pub fn s(x: &str) -> Value {
    Value::str(x)
}

pub fn i(n: i64) -> Value {
    Value::Int(n)
}

pub fn l(items: Vec<Value>) -> Value {
    Value::list(items)
}

pub fn show(v: &Value) -> String {
    harn_vm::display::display(v).unwrap()
}

/// Calls a native builtin function directly and displays the result.
pub fn call(f: harn_vm::native::NativeFn, args: &[Value]) -> String {
    let mut h = TestHost::new();
    show(&f(&mut h, args).unwrap())
}

/// Calls a native builtin expecting an error; returns its bare message.
pub fn call_err(f: harn_vm::native::NativeFn, args: &[Value]) -> String {
    let mut h = TestHost::new();
    match f(&mut h, args) {
        Ok(v) => panic!("expected an error, got {}", show(&v)),
        Err(e) => e.bare_message(),
    }
}
