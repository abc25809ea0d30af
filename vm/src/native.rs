//! The interface between builtins and the VM that runs them.

use std::future::Future;
use std::pin::Pin;

use crate::error::VmError;
use crate::value::Value;

/// What a builtin may ask of the VM running it.
pub trait Host {
    /// Calls a callable value (closure or builtin) with arguments, synchronously.
    fn call(&mut self, f: &Value, args: &[Value]) -> Result<Value, VmError>;
    /// Appends to the program's output buffer (`log`, `print`, `println`).
    fn write_out(&mut self, text: &str) -> Result<(), VmError>;
    /// Charges fuel for work proportional to caller-sized input (one unit per element).
    fn charge(&mut self, units: u64) -> Result<(), VmError>;
}

/// A synchronous builtin.
pub type NativeFn = fn(&mut dyn Host, &[Value]) -> Result<Value, VmError>;

/// The future an asynchronous builtin returns. It owns its inputs and cannot touch the
/// VM; the VM is suspended until it completes.
pub type NativeFuture = Pin<Box<dyn Future<Output = Result<Value, VmError>>>>;

/// An asynchronous builtin: validates its arguments synchronously, then returns the
/// future that does the waiting.
pub type AsyncNativeFn = fn(&[Value]) -> Result<NativeFuture, VmError>;

/// An asynchronous builtin that receives the calling VM, so it can run Harn callbacks
/// through [`crate::interp::Vm::callbacks`].
pub type VmNativeFn = fn(&mut crate::interp::Vm, &[Value]) -> Result<NativeFuture, VmError>;
