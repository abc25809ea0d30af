//! Child call dispatch (`code-mode.md` 4.6): operation budget, binding resolution,
//! the call record, the policy gate, path arguments, the host call and the result
//! record.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;
use std::time::{Duration, Instant};

use harn_compiler::manifest::{Binding, Disposition, Level, Manifest};
use serde_json::{Value as Json, json};

use crate::EventSink;
use crate::host::{ToolError, ToolHost};
use crate::options::Options;
use crate::options::SecretPolicy;
use crate::prepared::{CompiledSchema, PreparedManifest};
use crate::record::{
    CallRecord, CallStatus, ChildCategory, PolicyContext, ResultRecord, to_json as record_json,
};
use crate::retry::{backoff_ms, is_retryable, retry_allowed};
use crate::scope::Scope;
use crate::secrets::Redactor;
use harn_vm::convert::{Mode, from_json, to_json};
use harn_vm::egress::Egress;
use harn_vm::error::{EgressKind, ErrorKind, Limit, VmError};
use harn_vm::native::NativeFuture;
use harn_vm::value::Value;

/// Everything a run shares between its VM and its report.
pub struct RunState {
    pub run_id: String,
    pub manifest: Rc<Manifest>,
    pub options: Options,
    pub host: Rc<dyn ToolHost>,
    pub ceiling: Level,
    pub ops: Cell<u64>,
    pub calls: RefCell<Vec<CallRecord>>,
    pub results: RefCell<Vec<ResultRecord>>,
    /// When the run's wall-clock budget ends.
    pub deadline: Instant,
    /// The manifest's hash, binding JSON and compiled schemas, shared across runs.
    pub prepared: Rc<PreparedManifest>,
    /// In-flight host calls, run-wide and per MCP server (6.1).
    global_permits: Rc<tokio::sync::Semaphore>,
    server_permits: RefCell<HashMap<String, Rc<tokio::sync::Semaphore>>>,
    /// The ambient allow-list and stage stack (section 2).
    scope: Scope,
    /// Registered secrets and how many occurrences were replaced so far (4.13).
    pub redactor: Redactor,
    pub redactions: Cell<u64>,
    /// Where events go as they happen (4.15), if anywhere.
    events: Option<EventSink>,
    /// The manifest's hash when it grants state (the store's scope), else empty.
    manifest_hash: String,
}

/// How a child call's attempts went, for its result record.
#[derive(Default)]
struct Attempts {
    attempt: u32,
    errors: Vec<String>,
    delays: Vec<u64>,
    redactions: u64,
}

impl RunState {
    pub fn new(
        run_id: String,
        prepared: Rc<PreparedManifest>,
        options: Options,
        host: Rc<dyn ToolHost>,
        deadline: Instant,
        events: Option<EventSink>,
    ) -> RunState {
        let manifest = Rc::clone(&prepared.manifest);
        let manifest_hash = manifest
            .state
            .map(|_| prepared.hash.clone())
            .unwrap_or_default();
        let scope = Scope::new(&options);
        let ceiling = scope.ceiling(
            if options.requested_ceiling.rank() < manifest.side_effect_ceiling.rank() {
                options.requested_ceiling
            } else {
                manifest.side_effect_ceiling
            },
        );
        let permits = usize::try_from(options.max_concurrent.max(1)).unwrap_or(usize::MAX);
        RunState {
            run_id,
            manifest,
            host,
            ceiling,
            ops: Cell::new(0),
            calls: RefCell::new(Vec::new()),
            results: RefCell::new(Vec::new()),
            deadline,
            prepared,
            global_permits: Rc::new(tokio::sync::Semaphore::new(
                permits.min(tokio::sync::Semaphore::MAX_PERMITS),
            )),
            server_permits: RefCell::new(HashMap::new()),
            manifest_hash,
            events,
            scope,
            redactor: Redactor::new(&options.secrets),
            redactions: Cell::new(0),
            options,
        }
    }

    /// The binding's compiled input or output schema (compiled once per manifest).
    fn schema(&self, binding: &Binding, output: bool) -> Option<CompiledSchema> {
        self.prepared.schema(binding, output)
    }

    /// Checks a value against the binding's input or output schema; `Err` holds the
    /// message the snippet and the report see.
    fn validate(&self, binding: &Binding, value: &Json, output: bool) -> Result<(), String> {
        let Some(schema) = self.schema(binding, output) else {
            return Ok(());
        };
        let which = if output {
            "outputSchema"
        } else {
            "inputSchema"
        };
        let problem = match schema.as_ref() {
            Ok(s) => match s.check(value) {
                Ok(()) => return Ok(()),
                Err(issues) => issues,
            },
            Err(e) => format!("the binding's {which} cannot be used: {e}"),
        };
        Err(format!(
            "composition binding '{}' {which} validation failed: {problem}",
            binding.name
        ))
    }

    fn server_permits(&self, binding: &Binding) -> Option<Rc<tokio::sync::Semaphore>> {
        let server = binding.mcp_server()?;
        let mut map = self.server_permits.borrow_mut();
        let permits = usize::try_from(self.options.max_concurrent_per_server.max(1))
            .unwrap_or(usize::MAX)
            .min(tokio::sync::Semaphore::MAX_PERMITS);
        Some(
            map.entry(server.to_string())
                .or_insert_with(|| Rc::new(tokio::sync::Semaphore::new(permits)))
                .clone(),
        )
    }

    /// One attempt (6.1): the per-server permit, then the global one, the host call
    /// under the per-call timeout, and output validation.
    async fn attempt(
        &self,
        binding: &Binding,
        input: Json,
        attempts: &mut Attempts,
    ) -> Result<Json, ToolError> {
        match self.host_attempt(binding, input).await {
            Ok(mut output) => {
                self.validate(binding, &output, true)
                    .map_err(|m| ToolError::new(ChildCategory::SchemaValidation, m))?;
                let found = self.redactor.json(&mut output);
                if found > 0 && self.options.secret_policy == SecretPolicy::Fail {
                    return Err(ToolError::new(
                        ChildCategory::ToolError,
                        format!(
                            "composition binding '{}' output contained a registered secret",
                            binding.name
                        ),
                    ));
                }
                attempts.redactions += found;
                Ok(output)
            }
            Err(mut e) => {
                let (message, found) = self.redactor.text(&e.message);
                e.message = message;
                attempts.redactions += found;
                Err(e)
            }
        }
    }

    /// The host call itself, under the bulkheads and the per-call timeout.
    async fn host_attempt(&self, binding: &Binding, input: Json) -> Result<Json, ToolError> {
        let server = self.server_permits(binding);
        let _server_permit = match &server {
            Some(s) => Some(
                s.acquire()
                    .await
                    .map_err(|e| ToolError::new(ChildCategory::Network, e.to_string()))?,
            ),
            None => None,
        };
        let _global_permit = self
            .global_permits
            .acquire()
            .await
            .map_err(|e| ToolError::new(ChildCategory::Network, e.to_string()))?;
        let call = self.host.call(binding, input);
        let per_call = self.options.call_timeout_ms;
        let left = self.deadline.saturating_duration_since(Instant::now());
        // When the run deadline comes first, the VM ends the run `timeout` instead.
        let output = if per_call > 0 && Duration::from_millis(per_call) < left {
            match tokio::time::timeout(Duration::from_millis(per_call), call).await {
                Ok(r) => r?,
                Err(_) => {
                    return Err(ToolError::new(
                        ChildCategory::Timeout,
                        format!(
                            "composition binding '{}' timed out after {per_call}ms",
                            binding.name
                        ),
                    ));
                }
            }
        } else {
            call.await?
        };
        Ok(output)
    }

    /// Sends one event (`{"type", "session_id", "run_id", key: payload}`) to the sink.
    /// Sends an event to the run's sink. The payload is built only when there is one (a
    /// host without a sink should not pay for serialising the whole run).
    pub fn emit(&self, kind: &str, key: &str, payload: impl FnOnce() -> Json) {
        if let Some(sink) = &self.events {
            sink(&json!({
                "type": kind,
                "session_id": self.options.session_id,
                "run_id": self.run_id,
                key: payload(),
            }));
        }
    }

    fn push_call(&self, record: CallRecord) {
        self.emit("composition_child_call", "call", || record_json(&record));
        self.calls.borrow_mut().push(record);
    }

    fn push_result(&self, record: ResultRecord) {
        self.emit("composition_child_result", "result", || {
            record_json(&record)
        });
        self.results.borrow_mut().push(record);
    }

    /// A result that took no time and no retries (completed, no output), for the
    /// records the executor writes itself; callers set what differs.
    fn instant_result(&self, index: usize, tool_name: String, executor: Json) -> ResultRecord {
        ResultRecord {
            run_id: self.run_id.clone(),
            tool_call_id: format!("{}:{index}", self.run_id),
            tool_name,
            operation_index: index,
            status: CallStatus::Completed,
            raw_output: Json::Null,
            error: None,
            error_category: None,
            executor,
            duration_ms: 0,
            execution_duration_ms: 0,
            attempt: 1,
            retry_attempts: 0,
            retry_errors: Vec::new(),
            retry_delays_ms: Vec::new(),
            redactions: 0,
            error_details: None,
        }
    }

    /// Records every call still in flight when the run ended as failed `cancelled`
    /// (4.8), so the report has one result per call.
    pub fn cancel_pending(&self) {
        let pending: Vec<CallRecord> = {
            let calls = self.calls.borrow();
            let results = self.results.borrow();
            calls
                .iter()
                .filter(|c| !results.iter().any(|r| r.tool_call_id == c.tool_call_id))
                .cloned()
                .collect()
        };
        for call in pending {
            let name = call.tool_name;
            let error = format!("composition binding '{name}' was cancelled when the run ended");
            self.push_result(ResultRecord {
                tool_call_id: call.tool_call_id,
                status: CallStatus::Failed,
                error: Some(error),
                error_category: Some(ChildCategory::Cancelled),
                ..self.instant_result(call.operation_index, name, json!({"kind": "harn_builtin"}))
            });
        }
    }

    fn annotations(&self, binding: &Binding) -> Json {
        self.prepared
            .binding_json
            .get(&binding.name)
            .and_then(|b| b.get("annotations"))
            .cloned()
            .unwrap_or(Json::Null)
    }

    fn result_record(
        &self,
        index: usize,
        binding: &Binding,
        outcome: Result<Json, (ChildCategory, String)>,
        ms: u64,
    ) -> ResultRecord {
        self.result_record_with(index, binding, outcome, ms, &Attempts::default())
    }

    /// The result record; counts the attempt's redactions into the run's.
    fn result_record_with(
        &self,
        index: usize,
        binding: &Binding,
        outcome: Result<Json, (ChildCategory, String)>,
        ms: u64,
        attempts: &Attempts,
    ) -> ResultRecord {
        self.redactions
            .set(self.redactions.get() + attempts.redactions);
        let (status, raw_output, error, error_category) = match outcome {
            Ok(out) => (CallStatus::Completed, out, None, None),
            Err((category, message)) => (
                CallStatus::Failed,
                Json::Null,
                Some(message),
                Some(category),
            ),
        };
        ResultRecord {
            run_id: self.run_id.clone(),
            tool_call_id: format!("{}:{index}", self.run_id),
            tool_name: binding.name.clone(),
            operation_index: index,
            status,
            raw_output,
            error,
            error_category,
            executor: if attempts.attempt > 0 {
                self.host.executor_tag(binding)
            } else {
                json!({"kind": "harn_builtin"})
            },
            duration_ms: ms,
            execution_duration_ms: ms,
            attempt: attempts.attempt.max(1),
            retry_attempts: attempts.attempt.saturating_sub(1),
            retry_errors: attempts.errors.clone(),
            retry_delays_ms: attempts.delays.clone(),
            redactions: attempts.redactions,
            error_details: None,
        }
    }

    /// Records a refused call and returns the policy error the snippet sees.
    fn refuse(
        &self,
        index: usize,
        binding: &Binding,
        category: ChildCategory,
        message: String,
    ) -> VmError {
        self.refuse_with(index, binding, category, message, None)
    }

    /// `refuse`, with `error_details` on the result record (denial receipts, 2.5).
    fn refuse_with(
        &self,
        index: usize,
        binding: &Binding,
        category: ChildCategory,
        message: String,
        details: Option<Json>,
    ) -> VmError {
        let mut record = self.result_record(index, binding, Err((category, message.clone())), 0);
        record.error_details = details;
        self.push_result(record);
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
    fn binding_tool(&self, name: &str) -> Option<String> {
        self.state
            .prepared
            .binding_for_call(name)
            .map(|b| b.name.clone())
    }

    fn call(&self, name: &str, args: Value) -> Result<NativeFuture, VmError> {
        let st = &self.state;
        // 1. Reserve an operation before anything else.
        let used = st.ops.get();
        if used >= st.options.max_operations {
            return Err(VmError::limit(Limit::Operations(st.options.max_operations)));
        }
        st.ops.set(used + 1);
        // The state grant's operations are answered here, not by a tool.
        if let Some(op) = name.strip_prefix("state.") {
            return Ok(st.state_call(op, &args));
        }
        // 2. Resolve.
        // The binding is borrowed from the shared manifest, never cloned: its schemas and
        // annotations are JSON trees, and this runs for every tool call.
        let manifest = Rc::clone(&st.manifest);
        let found = st.prepared.lookup_index(name);
        let Some(binding) = found.and_then(|i| manifest.bindings.get(i)) else {
            return Err(VmError::new(ErrorKind::Egress {
                kind: EgressKind::Policy,
                message: format!("composition binding '{name}' not found"),
            }));
        };
        // 3. Record the call.
        let input = to_json(&args, Mode::Input);
        let index = st.calls.borrow().len();
        let policy = &binding.policy;
        st.push_call(CallRecord {
            run_id: st.run_id.clone(),
            tool_call_id: format!("{}:{index}", st.run_id),
            tool_name: binding.name.clone(),
            operation_index: index,
            annotations: st.annotations(binding),
            requested_side_effect_level: binding.side_effect_level.as_str(),
            policy_context: PolicyContext {
                disposition: policy.disposition.as_str(),
                reason: policy.reason.clone(),
                ceiling: st.ceiling.as_str(),
                scope: st.scope.context(st.ceiling),
            },
            raw_input: input.clone().unwrap_or(Json::Null),
        });
        let bname = binding.name.clone();
        // 4. Policy.
        match policy.disposition {
            Disposition::Denied => {
                let reason = policy.reason.clone().unwrap_or_default();
                return Err(st.refuse(
                    index,
                    binding,
                    ChildCategory::PermissionDenied,
                    format!("composition binding '{bname}' denied: {reason}"),
                ));
            }
            Disposition::Gated => {
                return Err(st.refuse(index, binding, ChildCategory::PermissionDenied, format!(
                    "composition binding '{bname}' requires approval and cannot run in read-only mode"
                )));
            }
            Disposition::Allowed => {}
        }
        if binding.side_effect_level.rank() > st.ceiling.rank() {
            return Err(st.refuse(index, binding, ChildCategory::PermissionDenied, format!(
                "composition binding '{bname}' requires side-effect level '{}' above requested ceiling '{}'",
                binding.side_effect_level.as_str(),
                st.ceiling.as_str()
            )));
        }
        if let Some(v) = st.scope.violation(binding) {
            let details = json!({
                "code": "scope_violation",
                "stage": v.stage,
                "allowed_tools": v.allowed_tools,
                "side_effect_level": st.ceiling.as_str(),
            });
            return Err(st.refuse_with(
                index,
                binding,
                ChildCategory::PermissionDenied,
                format!(
                    "composition binding '{bname}' is outside the scope of stage '{}'",
                    v.stage
                ),
                Some(details),
            ));
        }
        // 5. Argument gate: path arguments, then values with no JSON form, then the
        // input schema.
        for key in &binding.path_args {
            let value = match &args {
                Value::Dict(d) => d.get(key.as_str()),
                _ => None,
            };
            let bad = match value {
                Some(Value::Str(p)) => !path_is_safe(p),
                Some(Value::List(items)) => items
                    .iter()
                    .any(|i| matches!(i, Value::Str(p) if !path_is_safe(p))),
                _ => false,
            };
            if bad {
                return Err(st.refuse(
                    index,
                    binding,
                    ChildCategory::PermissionDenied,
                    format!(
                        "composition binding '{bname}' path argument '{key}' escapes the workspace"
                    ),
                ));
            }
        }
        let input = match input {
            Ok(j) => j,
            Err(problem) => {
                return Err(st.refuse(
                    index,
                    binding,
                    ChildCategory::SchemaValidation,
                    format!(
                        "composition binding '{bname}' inputSchema validation failed: {problem}"
                    ),
                ));
            }
        };
        if let Err(message) = st.validate(binding, &input, false) {
            return Err(st.refuse(index, binding, ChildCategory::SchemaValidation, message));
        }
        // 6-9. Dispatch with retries, then record the result.
        let state = self.state.clone();
        let position = found.unwrap_or_default();
        Ok(Box::pin(async move {
            match manifest.bindings.get(position) {
                Some(binding) => state.dispatch(index, binding, input).await,
                None => Err(VmError::new(ErrorKind::Egress {
                    kind: EgressKind::Policy,
                    message: format!("composition binding #{position} not found"),
                })),
            }
        }))
    }
}

/// About how many bytes `value` takes as JSON text (strings, keys and numbers at
/// their length, a few bytes of punctuation each): the size the run would take on.
fn json_bytes(value: &Json) -> u64 {
    match value {
        Json::Null | Json::Bool(_) => 5,
        Json::Number(n) => number_text_len(n),
        Json::String(s) => s.len() as u64 + 2,
        Json::Array(items) => items.iter().map(|v| json_bytes(v) + 1).sum::<u64>() + 2,
        Json::Object(map) => {
            map.iter()
                .map(|(k, v)| k.len() as u64 + 4 + json_bytes(v))
                .sum::<u64>()
                + 2
        }
    }
}

/// The length of a number's JSON text, written nowhere.
fn number_text_len(n: &serde_json::Number) -> u64 {
    /// Counts what is written to it.
    struct Length(u64);
    impl std::fmt::Write for Length {
        fn write_str(&mut self, s: &str) -> std::fmt::Result {
            self.0 += s.len() as u64;
            Ok(())
        }
    }
    if let Some(i) = n.as_u64() {
        return u64::from(i.checked_ilog10().unwrap_or(0)) + 1;
    }
    let mut length = Length(0);
    let _ = std::fmt::Write::write_fmt(&mut length, format_args!("{n}"));
    length.0
}

impl RunState {
    /// `state.<op>(...)` (1.14): recorded as a child call named `state.<op>` (source
    /// `composition_state`), answered from the state store; a refusal is a
    /// `schema_validation` child failure with `error_details`, which the snippet can
    /// catch.
    fn state_call(&self, op: &str, args: &Value) -> NativeFuture {
        let name = format!("state.{op}");
        let level = crate::state_store::level(op);
        let input = to_json(args, Mode::Input).ok();
        let index = self.calls.borrow().len();
        self.push_call(CallRecord {
            run_id: self.run_id.clone(),
            tool_call_id: format!("{}:{index}", self.run_id),
            tool_name: name.clone(),
            operation_index: index,
            annotations: json!({"source": "composition_state", "side_effect_level": level.as_str()}),
            requested_side_effect_level: level.as_str(),
            policy_context: PolicyContext {
                disposition: Disposition::Allowed.as_str(),
                reason: Some("granted by manifest.state".into()),
                ceiling: self.ceiling.as_str(),
                scope: None,
            },
            raw_input: input.clone().unwrap_or(Json::Null),
        });
        let outcome = match &self.manifest.state {
            Some(grant) => crate::state_store::operate(
                grant,
                self.options.session_id.as_deref(),
                &self.manifest_hash,
                op,
                input.as_ref(),
            ),
            None => Err(crate::state_store::StateError {
                code: "session_required",
                operation: name.clone(),
                message: "manifest.state is not granted".into(),
                key: None,
                limit: None,
                actual: None,
            }),
        };
        let failed = outcome
            .as_ref()
            .err()
            .map(|e| (e.message.clone(), e.details()));
        self.push_result(ResultRecord {
            status: if failed.is_some() {
                CallStatus::Failed
            } else {
                CallStatus::Completed
            },
            raw_output: outcome.as_ref().map_or(Json::Null, Clone::clone),
            error: failed.as_ref().map(|(m, _)| m.clone()),
            error_category: failed.as_ref().map(|_| ChildCategory::SchemaValidation),
            error_details: failed.as_ref().map(|(_, d)| d.clone()),
            ..self.instant_result(index, name, json!({"kind": "composition_state"}))
        });
        let result = match outcome {
            Ok(value) => Ok(from_json(&value)),
            Err(e) => Err(VmError::new(ErrorKind::Egress {
                kind: EgressKind::Schema,
                message: e.message,
            })),
        };
        Box::pin(std::future::ready(result))
    }

    /// Refuses a tool output the run could never hold, before it becomes a value: a
    /// string past `max_string_bytes`, or any output past `max_memory_bytes`. The
    /// limit's text names the output's size.
    fn output_too_large(&self, binding: &Binding, output: &Json) -> Option<String> {
        let size = json_bytes(output);
        let tool = &binding.name;
        if let Json::String(text) = output
            && text.len() > self.options.max_string_bytes
        {
            return Some(format!(
                "max_string_bytes={}: the output of '{tool}' is a string of {} bytes",
                self.options.max_string_bytes,
                text.len()
            ));
        }
        (size > self.options.max_memory_bytes).then(|| {
            format!(
                "max_memory_bytes={}: the output of '{tool}' is about {size} bytes",
                self.options.max_memory_bytes
            )
        })
    }

    async fn dispatch(
        &self,
        index: usize,
        binding: &Binding,
        input: Json,
    ) -> Result<Value, VmError> {
        let started = Instant::now();
        let may_retry = retry_allowed(binding, &input, &self.options);
        let mut attempts = Attempts::default();
        let max_attempts = self.options.retry.max_attempts.max(1);
        // The input is copied for an attempt only when another may follow it.
        let mut input = Some(input);
        let outcome = loop {
            attempts.attempt += 1;
            let last = !may_retry || u64::from(attempts.attempt) >= max_attempts;
            let this_input = if last { input.take() } else { input.clone() };
            let this_input = this_input.unwrap_or(Json::Null);
            let error = match self.attempt(binding, this_input, &mut attempts).await {
                Ok(output) => break Ok(output),
                Err(e) => e,
            };
            if last || !is_retryable(&error) {
                break Err(error);
            }
            let delay = backoff_ms(
                &binding.name,
                input.as_ref().unwrap_or(&Json::Null),
                attempts.attempt,
                &error,
                &self.options.retry,
            );
            if Instant::now() + Duration::from_millis(delay) >= self.deadline {
                break Err(error);
            }
            attempts.errors.push(error.message);
            attempts.delays.push(delay);
            tokio::time::sleep(Duration::from_millis(delay)).await;
        };
        let ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
        match outcome {
            Ok(output) => {
                if let Some(limit) = self.output_too_large(binding, &output) {
                    let message = format!("composition exceeded {limit}");
                    let refused = Err((ChildCategory::ParseAborted, message));
                    let record = self.result_record_with(index, binding, refused, ms, &attempts);
                    self.push_result(record);
                    return Err(VmError::limit(Limit::Memory(limit)));
                }
                let value = from_json(&output);
                let record = self.result_record_with(index, binding, Ok(output), ms, &attempts);
                self.push_result(record);
                Ok(value)
            }
            Err(e) => {
                let (kind, message) = if e.category == ChildCategory::SchemaValidation {
                    (EgressKind::Schema, e.message)
                } else {
                    let message = if e.category == ChildCategory::Timeout {
                        e.message
                    } else {
                        format!(
                            "composition binding '{}' failed: {}",
                            binding.name, e.message
                        )
                    };
                    (EgressKind::Tool, message)
                };
                let record = self.result_record_with(
                    index,
                    binding,
                    Err((e.category, message.clone())),
                    ms,
                    &attempts,
                );
                self.push_result(record);
                Err(VmError::new(ErrorKind::Egress { kind, message }))
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    /// The size estimate counts a number at the length of its JSON text.
    #[test]
    fn a_number_counts_at_its_text_length() {
        for text in [
            "0",
            "7",
            "9",
            "10",
            "99",
            "100",
            "-1",
            "-45",
            "3.5",
            "-0.25",
            "1e300",
            "18446744073709551615",
            "-9223372036854775808",
            "123456789012",
        ] {
            let n: serde_json::Number = serde_json::from_str(text).unwrap();
            assert_eq!(number_text_len(&n), n.to_string().len() as u64, "{text}");
        }
    }
}
