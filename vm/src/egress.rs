//! Where tool calls go. In code mode the executor installs an [`Egress`] on the VM;
//! the VM only routes calls to it: binding identifiers used as call targets and the
//! `call_tool` / `__composition_call` builtins. Without an egress those calls fail.

use crate::error::VmError;
use crate::native::NativeFuture;
use crate::value::Value;

/// The executor's side of tool calls.
pub trait Egress {
    /// Whether `name` is a binding identifier or canonical tool name of the manifest.
    fn has_binding(&self, name: &str) -> bool;
    /// Starts a call of tool `name` with `args`; the future resolves to the result as
    /// a Harn value, or to the (catchable) policy, schema or tool error, or to a
    /// terminal limit error.
    fn call(&self, name: &str, args: Value) -> Result<NativeFuture, VmError>;
}
