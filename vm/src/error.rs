//! Run-time errors and their texts (`language.md` 11).

use crate::display::display;
use crate::value::Value;

/// A resource limit that ended the run. Limits are never catchable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Limit {
    /// VM instruction fuel (`max_instructions`).
    Instructions(u64),
    /// Wall-clock deadline (`timeout_ms`).
    Timeout(u64),
    /// Live bytes or single-value caps.
    Memory(String),
    /// Call depth (`max_call_depth`).
    CallDepth(usize),
    /// Captured output (`max_output_bytes`).
    Output(usize),
    /// Tool operations (`max_operations`).
    Operations(u64),
    /// Value nesting past the fixed depth every walk of a value allows.
    ValueDepth(usize),
}

#[derive(Clone, Debug)]
pub enum ErrorKind {
    /// A thrown value (`throw`, `require`, failed assertions, no matching arm, most stdlib
    /// validation failures).
    Thrown(Value),
    /// `Runtime error: <msg>`
    Runtime(String),
    /// `Type error: <msg>`
    Type(String),
    /// `Undefined variable: x` (message includes any "did you mean" suffix).
    UndefinedVariable(String),
    /// `Undefined builtin: f`
    UndefinedBuiltin(String),
    /// `Cannot assign to immutable binding: x`
    ImmutableAssign(String),
    DivisionByZero,
    /// `Stack overflow: too many nested calls` (a limit in harnc: uncatchable).
    StackOverflow,
    /// `Error [<category>]: <msg>`, raised inside the runtime.
    Categorized {
        category: String,
        message: String,
    },
    /// A resource limit: ends the run, cannot be caught.
    Limit(Limit),
    /// A callback run by a builtin needed to wait (a tool call or an asynchronous
    /// builtin). It passes every `try` inside the callback; the builtin's caller then
    /// runs the builtin again asynchronously (`interp/replay.rs`), or, where it cannot,
    /// reports `message` as a runtime error.
    MustWait {
        message: String,
        /// The outermost callback invocation that waited: callee and arguments.
        call: Option<Box<(Value, Vec<Value>)>>,
    },
    /// A tool call refused or failed (code mode). Catchable; its text is
    /// `Runtime error: <message>` like the reference's.
    Egress {
        kind: EgressKind,
        message: String,
    },
}

/// Which part of a tool call failed; decides the run's failure category.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EgressKind {
    /// Unknown binding, disposition, ceiling, scope, path argument, input validation.
    Policy,
    /// Output validation.
    Schema,
    /// Host failure, MCP error, per-call timeout.
    Tool,
}

#[derive(Clone, Debug)]
pub struct VmError {
    pub kind: ErrorKind,
    /// Source line of the innermost frame where the error arose (0 = unknown).
    pub line: u32,
}

impl VmError {
    pub fn new(kind: ErrorKind) -> Self {
        VmError { kind, line: 0 }
    }

    pub fn runtime(msg: impl Into<String>) -> Self {
        VmError::new(ErrorKind::Runtime(msg.into()))
    }

    pub fn type_error(msg: impl Into<String>) -> Self {
        VmError::new(ErrorKind::Type(msg.into()))
    }

    pub fn thrown(v: Value) -> Self {
        VmError::new(ErrorKind::Thrown(v))
    }

    pub fn thrown_str(msg: impl Into<String>) -> Self {
        VmError::thrown(Value::str(msg))
    }

    pub fn limit(limit: Limit) -> Self {
        VmError::new(ErrorKind::Limit(limit))
    }

    /// Whether `try`/`catch` may handle this error.
    pub fn catchable(&self) -> bool {
        !matches!(
            self.kind,
            ErrorKind::Limit(_) | ErrorKind::StackOverflow | ErrorKind::MustWait { .. }
        )
    }

    /// A callback needs to wait (see [`ErrorKind::MustWait`]).
    pub fn must_wait(message: impl Into<String>) -> Self {
        VmError::new(ErrorKind::MustWait {
            message: message.into(),
            call: None,
        })
    }

    pub fn is_must_wait(&self) -> bool {
        matches!(self.kind, ErrorKind::MustWait { .. })
    }

    /// A waiting callback that cannot be replayed: the runtime error it always was.
    pub fn settle_wait(self) -> Self {
        match self.kind {
            ErrorKind::MustWait { message, .. } => VmError {
                kind: ErrorKind::Runtime(message),
                line: self.line,
            },
            _ => self,
        }
    }

    /// Sets the line if none is known yet.
    pub fn at_line(mut self, line: u32) -> Self {
        if self.line == 0 {
            self.line = line;
        }
        self
    }

    /// The value a `catch (e)` receives: a thrown value as itself, any other error as
    /// its text without the line suffix.
    pub fn caught_value(&self) -> Value {
        match &self.kind {
            ErrorKind::Thrown(v) => v.clone(),
            _ => Value::str(self.bare_message()),
        }
    }

    /// The error text without a line suffix.
    pub fn bare_message(&self) -> String {
        match &self.kind {
            ErrorKind::Thrown(v) => format!(
                "Thrown: {}",
                display(v).unwrap_or_else(|_| "<value too deep>".into())
            ),
            ErrorKind::Runtime(m) => format!("Runtime error: {m}"),
            ErrorKind::Type(m) => format!("Type error: {m}"),
            ErrorKind::UndefinedVariable(m) => format!("Undefined variable: {m}"),
            ErrorKind::UndefinedBuiltin(m) => format!("Undefined builtin: {m}"),
            ErrorKind::ImmutableAssign(m) => format!("Cannot assign to immutable binding: {m}"),
            ErrorKind::DivisionByZero => "Division by zero".into(),
            ErrorKind::StackOverflow => "Stack overflow: too many nested calls".into(),
            ErrorKind::Categorized { category, message } => {
                format!("Error [{category}]: {message}")
            }
            ErrorKind::Limit(limit) => limit_message(limit),
            ErrorKind::Egress { message, .. } => format!("Runtime error: {message}"),
            ErrorKind::MustWait { message, .. } => format!("Runtime error: {message}"),
        }
    }

    /// The text of an uncaught error, as the test runner sees it (`language.md` 11.1).
    pub fn report(&self) -> String {
        let line = self.line;
        match &self.kind {
            ErrorKind::Thrown(_)
            | ErrorKind::Categorized { .. }
            | ErrorKind::Limit(_)
            | ErrorKind::Egress { .. } => self.bare_message(),
            ErrorKind::Runtime(_) | ErrorKind::Type(_) | ErrorKind::MustWait { .. } => {
                format!("{} (line {line})", self.bare_message())
            }
            _ => format!("Runtime error: {} (line {line})", self.bare_message()),
        }
    }
}

fn limit_message(limit: &Limit) -> String {
    match limit {
        Limit::Instructions(n) => format!("composition exceeded max_instructions={n}"),
        Limit::Timeout(ms) => format!("composition exceeded timeout_ms={ms}"),
        Limit::Memory(what) => format!("composition exceeded {what}"),
        Limit::CallDepth(n) => format!("composition exceeded max_call_depth={n}"),
        Limit::Output(n) => format!("composition output exceeded max_output_bytes={n}"),
        Limit::Operations(n) => format!("composition exceeded max_operations={n}"),
        Limit::ValueDepth(n) => {
            format!("composition exceeded max_value_depth={n} (value nesting exceeds {n} levels)")
        }
    }
}
