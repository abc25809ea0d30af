//! The closure host (`code-mode.md` 7): a Harn dispatcher closure performs the child
//! calls of `composition_execute(..., {dispatcher})` in a trusted script.

use std::rc::Rc;

use harn_compiler::manifest::Binding;
use harn_vm::convert::{Mode, from_json, to_json};
use harn_vm::display::display;
use harn_vm::error::{ErrorKind, VmError};
use harn_vm::native::CallbackRunner;
use harn_vm::value::Value;
use serde_json::Value as Json;

use crate::host::{ToolError, ToolFuture, ToolHost};
use crate::record::ChildCategory;

/// A Harn closure as the tool host: called with `(name, input)` in a VM forked from
/// the calling trusted script, so it has the script's capabilities.
pub struct ClosureHost {
    callbacks: Rc<dyn CallbackRunner>,
    dispatcher: Value,
}

impl ClosureHost {
    /// A host that calls `dispatcher` through `callbacks` (from the calling VM).
    pub fn new(callbacks: Rc<dyn CallbackRunner>, dispatcher: Value) -> ClosureHost {
        ClosureHost {
            callbacks,
            dispatcher,
        }
    }
}

/// What a dispatcher's error becomes: a `dispatch_error.v1` dict chooses the child
/// category; anything else is a `tool_error`.
fn dispatch_error(e: &VmError) -> ToolError {
    if let ErrorKind::Thrown(Value::Dict(d)) = &e.kind
        && d.get("schema").and_then(Value::as_str) == Some("harn.composition.dispatch_error.v1")
    {
        let category = d
            .get("error_category")
            .and_then(Value::as_str)
            .map_or(ChildCategory::ToolError, ChildCategory::from_host);
        let message = d
            .get("message")
            .map(|m| display(m).unwrap_or_default())
            .unwrap_or_default();
        return ToolError::new(category, message);
    }
    ToolError::new(ChildCategory::ToolError, e.report())
}

impl ToolHost for ClosureHost {
    fn call(&self, binding: &Binding, input: Json) -> ToolFuture {
        let call = self.callbacks.call(
            self.dispatcher.clone(),
            vec![Value::str(binding.name.clone()), from_json(&input)],
        );
        Box::pin(async move {
            match call.await {
                Ok(v) => to_json(&v, Mode::Result)
                    .map_err(|e| ToolError::new(ChildCategory::ToolError, e)),
                Err(e) => Err(dispatch_error(&e)),
            }
        })
    }

    fn executor_tag(&self, _binding: &Binding) -> Json {
        serde_json::json!({"kind": "harn_builtin"})
    }
}
