//! Builtins whose callbacks wait: `ids.map({ id -> get_item({id: id}) })`.
//!
//! Builtins run their callbacks synchronously, but a tool call (or an asynchronous
//! builtin) inside a callback has to suspend the program. Such a callback stops with
//! [`ErrorKind::MustWait`], which no `try` inside it catches, naming its own invocation
//! (callee and arguments). The builtin's caller then runs the builtin again on a forked
//! VM, inside a future: each time a callback must wait, that invocation is awaited on its
//! own (its tool calls suspend normally), its result is recorded, and the builtin starts
//! over with the recorded results answering the invocations already made. Builtins are
//! deterministic given their callbacks' results, so every re-run asks for the same
//! invocations in the same order; a callback that made no tool call has no other effect
//! than its output, which is kept once.

use std::cell::RefCell;
use std::rc::Rc;

use super::{Stop, Vm};
use crate::error::{ErrorKind, VmError};
use crate::methods::call_method;
use crate::native::NativeFn;
use crate::value::Value;

/// A builtin call to run again asynchronously.
pub(crate) enum Replayed {
    Method {
        receiver: Value,
        name: String,
        args: Vec<Value>,
    },
    Builtin {
        f: NativeFn,
        args: Vec<Value>,
    },
}

/// Results of the callback invocations made so far, in order, and how many of them the
/// current attempt has used.
#[derive(Default)]
pub(crate) struct Replay {
    answers: Vec<Value>,
    next: usize,
}

impl Replay {
    /// The recorded result of the next invocation, if it was made before.
    pub(crate) fn answer(&mut self) -> Option<Value> {
        let v = self.answers.get(self.next).cloned()?;
        self.next += 1;
        Some(v)
    }

    /// Whether the builtin is still re-doing work an earlier attempt did (invocations
    /// with recorded answers remain): that work was charged then.
    pub(crate) fn repeating(&self) -> bool {
        self.next < self.answers.len()
    }

    /// Records the result of an invocation made now.
    pub(crate) fn record(&mut self, v: Value) {
        self.answers.push(v);
        self.next += 1;
    }
}

/// Whether a builtin call can be replayed: it has a callback, and nothing it works on
/// is consumed by running it (a lazy iterator would be half used up).
pub(crate) fn replayable(receiver: Option<&Value>, args: &[Value]) -> bool {
    !matches!(receiver, Some(Value::Iter(_)))
        && !args.iter().any(|a| matches!(a, Value::Iter(_)))
        && args
            .iter()
            .any(|a| matches!(a, Value::Closure(_) | Value::Builtin(_)))
}

/// Names the invocation that waited (the outermost callback of the builtin).
pub(crate) fn with_call(mut e: VmError, f: &Value, args: &[Value]) -> VmError {
    if let ErrorKind::MustWait { call, .. } = &mut e.kind {
        *call = Some(Box::new((f.clone(), args.to_vec())));
    }
    e
}

impl Vm {
    /// Suspends the program on a future that re-runs `call` until its callbacks have
    /// all been answered; the result goes to slot `at`.
    pub(crate) fn replay(&mut self, at: usize, call: Replayed) -> Stop {
        let output = Rc::new(RefCell::new(String::new()));
        self.pending_output = Some(output.clone());
        let mut runner = self.fork();
        let fut = async move {
            let result = run_replayed(&mut runner, &call).await;
            output.borrow_mut().push_str(&runner.take_output());
            result
        };
        Stop::Suspended(Box::pin(fut), at)
    }
}

async fn run_replayed(runner: &mut Vm, call: &Replayed) -> Result<Value, VmError> {
    let mut replay = Replay::default();
    loop {
        replay.next = 0;
        runner.replay = Some(replay);
        let attempt = match call {
            Replayed::Method {
                receiver,
                name,
                args,
            } => call_method(runner, receiver.clone(), name, args).map(|r| r.unwrap_or_default()),
            Replayed::Builtin { f, args } => f(runner, args),
        };
        replay = runner.replay.take().unwrap_or_default();
        match attempt {
            Ok(v) => {
                runner.guard(&v)?;
                return Ok(v);
            }
            Err(VmError {
                kind:
                    ErrorKind::MustWait {
                        call: Some(pending),
                        ..
                    },
                ..
            }) => {
                let (f, args) = *pending;
                // The invocation runs as a program of its own: its tool calls suspend,
                // and builtins inside it may be replayed in turn.
                let v = runner.run_callable(f, args).await?;
                replay.answers.push(v);
            }
            Err(e) => return Err(e.settle_wait()),
        }
    }
}
