//! Where tool calls go. In code mode the executor installs an [`Egress`] on the VM;
//! the VM only routes calls to it: binding identifiers used as call targets and the
//! `call_tool` / `__composition_call` builtins. Without an egress those calls fail.

use crate::error::VmError;
use crate::native::NativeFuture;
use crate::value::Value;

/// The executor's side of tool calls.
pub trait Egress {
    /// The canonical name of the tool a snippet reaches by calling `name`: the tool
    /// whose binding identifier is `name`, else the tool of that canonical name. (A
    /// binding renamed by a collision, `read_file_2`, must reach its own tool, not the
    /// tool whose canonical name happens to be `read_file`.)
    fn binding_tool(&self, name: &str) -> Option<String>;
    /// Starts a call of tool `name` with `args`; the future resolves to the result as
    /// a Harn value, or to the (catchable) policy, schema or tool error, or to a
    /// terminal limit error.
    fn call(&self, name: &str, args: Value) -> Result<NativeFuture, VmError>;
}
