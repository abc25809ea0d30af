//! Child call dispatch (`code-mode.md` 4.6): operation budget, binding resolution,
//! the call record, the policy gate, path arguments, the host call and the result
//! record.

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;
use std::time::Instant;

use harn_compiler::manifest::{Binding, Disposition, Level, Manifest};
use serde_json::{Value as Json, json};

use super::convert::{Mode, from_json, to_json};
use super::host::ToolHost;
use super::options::Options;
use crate::egress::Egress;
use crate::error::{EgressKind, ErrorKind, Limit, VmError};
use crate::native::NativeFuture;
use crate::value::Value;

/// Everything a run shares between its VM and its report.
pub struct RunState {
    pub run_id: String,
    pub manifest: Rc<Manifest>,
    pub options: Options,
    pub host: Rc<dyn ToolHost>,
    pub ceiling: Level,
    pub ops: Cell<u64>,
    pub calls: RefCell<Vec<Json>>,
    pub results: RefCell<Vec<Json>>,
    /// Each binding's manifest JSON (annotations are copied into call records).
    binding_json: HashMap<String, Json>,
}

impl RunState {
    pub fn new(
        run_id: String,
        manifest: Rc<Manifest>,
        options: Options,
        host: Rc<dyn ToolHost>,
    ) -> RunState {
        let full = manifest.to_value();
        let binding_json = full
            .get("bindings")
            .and_then(Json::as_array)
            .map(|bs| {
                bs.iter()
                    .filter_map(|b| Some((b.get("name")?.as_str()?.to_string(), b.clone())))
                    .collect()
            })
            .unwrap_or_default();
        let ceiling = if options.requested_ceiling.rank() < manifest.side_effect_ceiling.rank() {
            options.requested_ceiling
        } else {
            manifest.side_effect_ceiling
        };
        RunState {
            run_id,
            manifest,
            options,
            host,
            ceiling,
            ops: Cell::new(0),
            calls: RefCell::new(Vec::new()),
            results: RefCell::new(Vec::new()),
            binding_json,
        }
    }

    /// Every binding identifier (what a snippet may call by name).
    pub fn binding_names(&self) -> HashSet<String> {
        self.manifest
            .bindings
            .iter()
            .map(|b| b.binding.clone())
            .collect()
    }

    fn annotations(&self, binding: &Binding) -> Json {
        self.binding_json
            .get(&binding.name)
            .and_then(|b| b.get("annotations"))
            .cloned()
            .unwrap_or(Json::Null)
    }

    fn result_record(
        &self,
        index: usize,
        binding: &Binding,
        outcome: Result<Json, (String, String)>,
        ms: u64,
    ) -> Json {
        let (status, output, error, category) = match outcome {
            Ok(out) => ("completed", out, Json::Null, Json::Null),
            Err((category, message)) => (
                "failed",
                Json::Null,
                Json::String(message),
                Json::String(category),
            ),
        };
        json!({
            "run_id": self.run_id,
            "tool_call_id": format!("{}:{index}", self.run_id),
            "tool_name": binding.name,
            "operation_index": index,
            "status": status,
            "raw_output": output,
            "error": error,
            "error_category": category,
            "executor": if status == "completed" { self.host.executor_tag(binding) } else { json!({"kind": "harn_builtin"}) },
            "duration_ms": ms,
            "execution_duration_ms": ms,
            "attempt": 1,
            "retry_attempts": 0,
            "retry_errors": [],
            "retry_delays_ms": [],
        })
    }

    /// Records a refused call and returns the policy error the snippet sees.
    fn refuse(&self, index: usize, binding: &Binding, category: &str, message: String) -> VmError {
        let record = self.result_record(
            index,
            binding,
            Err((category.to_string(), message.clone())),
            0,
        );
        self.results.borrow_mut().push(record);
        // Every refusal by the gate (including input validation) ends an uncaught run
        // `policy_denied`.
        VmError::new(ErrorKind::Egress {
            kind: EgressKind::Policy,
            message,
        })
    }
}

/// The VM's egress for one run.
pub struct ExecEgress {
    pub state: Rc<RunState>,
}

/// Whether a path argument stays inside the workspace.
fn path_is_safe(p: &str) -> bool {
    !(p.starts_with('/')
        || p.starts_with('\\')
        || p.contains('\0')
        || p.split(['/', '\\']).any(|c| c == "..")
        || p.as_bytes().get(1) == Some(&b':'))
}

impl Egress for ExecEgress {
    fn has_binding(&self, name: &str) -> bool {
        self.state.manifest.lookup(name).is_some()
    }

    fn call(&self, name: &str, args: Value) -> Result<NativeFuture, VmError> {
        let st = &self.state;
        // 1. Reserve an operation before anything else.
        let used = st.ops.get();
        if used >= st.options.max_operations {
            return Err(VmError::limit(Limit::Operations(st.options.max_operations)));
        }
        st.ops.set(used + 1);
        // 2. Resolve.
        let Some(binding) = st.manifest.lookup(name).cloned() else {
            return Err(VmError::new(ErrorKind::Egress {
                kind: EgressKind::Policy,
                message: format!("composition binding '{name}' not found"),
            }));
        };
        // 3. Record the call.
        let input = to_json(&args, Mode::Input);
        let index = st.calls.borrow().len();
        let policy = &binding.policy;
        st.calls.borrow_mut().push(json!({
            "run_id": st.run_id,
            "tool_call_id": format!("{}:{index}", st.run_id),
            "tool_name": binding.name,
            "operation_index": index,
            "annotations": st.annotations(&binding),
            "requested_side_effect_level": binding.side_effect_level.as_str(),
            "policy_context": {
                "disposition": policy.disposition.as_str(),
                "reason": policy.reason,
                "ceiling": st.ceiling.as_str(),
            },
            "raw_input": input.clone().unwrap_or(Json::Null),
        }));
        let bname = binding.name.clone();
        // 4. Policy.
        match policy.disposition {
            Disposition::Denied => {
                let reason = policy.reason.clone().unwrap_or_default();
                return Err(st.refuse(
                    index,
                    &binding,
                    "permission_denied",
                    format!("composition binding '{bname}' denied: {reason}"),
                ));
            }
            Disposition::Gated => {
                return Err(st.refuse(index, &binding, "permission_denied", format!(
                    "composition binding '{bname}' requires approval and cannot run in read-only mode"
                )));
            }
            Disposition::Allowed => {}
        }
        if binding.side_effect_level.rank() > st.ceiling.rank() {
            return Err(st.refuse(index, &binding, "permission_denied", format!(
                "composition binding '{bname}' requires side-effect level '{}' above requested ceiling '{}'",
                binding.side_effect_level.as_str(),
                st.ceiling.as_str()
            )));
        }
        // 5. Argument gate: values with no JSON form, then path arguments.
        let input = match input {
            Ok(j) => j,
            Err(problem) => {
                return Err(st.refuse(
                    index,
                    &binding,
                    "schema_validation",
                    format!(
                        "composition binding '{bname}' inputSchema validation failed: {problem}"
                    ),
                ));
            }
        };
        for key in &binding.path_args {
            let bad = match input.get(key) {
                Some(Json::String(p)) => !path_is_safe(p),
                Some(Json::Array(items)) => items
                    .iter()
                    .any(|i| i.as_str().is_some_and(|p| !path_is_safe(p))),
                _ => false,
            };
            if bad {
                return Err(st.refuse(
                    index,
                    &binding,
                    "permission_denied",
                    format!(
                        "composition binding '{bname}' path argument '{key}' escapes the workspace"
                    ),
                ));
            }
        }
        // 6. Dispatch, then record the result.
        let fut = st.host.call(&binding, input);
        let state = self.state.clone();
        Ok(Box::pin(async move {
            let t = Instant::now();
            let outcome = fut.await;
            let ms = u64::try_from(t.elapsed().as_millis()).unwrap_or(u64::MAX);
            match outcome {
                Ok(output) => {
                    let value = from_json(&output);
                    let record = state.result_record(index, &binding, Ok(output), ms);
                    state.results.borrow_mut().push(record);
                    Ok(value)
                }
                Err(e) => {
                    let message = format!(
                        "composition binding '{}' failed: {}",
                        binding.name, e.message
                    );
                    let record = state.result_record(
                        index,
                        &binding,
                        Err((e.category.clone(), message.clone())),
                        ms,
                    );
                    state.results.borrow_mut().push(record);
                    Err(VmError::new(ErrorKind::Egress {
                        kind: EgressKind::Tool,
                        message,
                    }))
                }
            }
        }))
    }
}
