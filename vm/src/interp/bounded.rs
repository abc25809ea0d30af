//! `map_bounded(items, fn, options?)` (`code-mode.md` 5): a sliding window of up to
//! `width` items, each run by a VM forked from the caller, so items genuinely overlap
//! at tool calls. Items settle to `Result.Ok` / `Result.Err`; a limit error in any item
//! ends the whole call (the other items are dropped, which cancels their calls).

use std::future::{Future, poll_fn};
use std::pin::Pin;
use std::task::Poll;

use super::Vm;
use crate::display::display;
use crate::error::{Limit, VmError};
use crate::native::NativeFuture;
use crate::value::{Dict, Value};

/// Width when neither the options nor the limits give one (`max_concurrent`'s default).
const DEFAULT_WIDTH: u64 = 16;

/// Largest range accepted as the item list.
const MAX_RANGE_ITEMS: i64 = 1_000_000;

/// One item's run: its index, its outcome and what it printed.
type ItemFuture = Pin<Box<dyn Future<Output = (usize, Result<Value, VmError>, String)>>>;

fn width_option(options: Option<&Value>) -> Result<Option<u64>, VmError> {
    let dict = match options {
        None | Some(Value::Nil) => return Ok(None),
        Some(Value::Dict(d)) => d,
        Some(other) => {
            return Err(VmError::type_error(format!(
                "map_bounded: options must be a dict, got {}",
                other.type_name()
            )));
        }
    };
    for key in ["concurrency", "max_concurrent"] {
        match dict.get(key) {
            None | Some(Value::Nil) => {}
            Some(Value::Int(n)) if *n >= 0 => return Ok(Some((*n as u64).max(1))),
            Some(other) => {
                return Err(VmError::type_error(format!(
                    "map_bounded: options.{key} must be a non-negative int, got {}",
                    display(other).unwrap_or_default()
                )));
            }
        }
    }
    Ok(None)
}

fn settle(result: Result<Value, VmError>) -> Result<Value, VmError> {
    match result {
        Ok(v) => Ok(Value::ok(v)),
        Err(e) if e.catchable() => Ok(Value::err(Value::str(display(&e.caught_value())?))),
        Err(e) => Err(e),
    }
}

impl Vm {
    /// Checks the arguments now and returns the future that runs the items.
    pub(crate) fn map_bounded(&mut self, args: &[Value]) -> Result<NativeFuture, VmError> {
        let items = match args.first() {
            Some(Value::List(l)) => l.to_vec(),
            // A range is the list of its integers (capped like any collection).
            Some(Value::Range(r)) if r.len() <= MAX_RANGE_ITEMS => (0..r.len())
                .filter_map(|i| r.get(i))
                .map(Value::Int)
                .collect(),
            other => {
                return Err(VmError::type_error(format!(
                    "map_bounded: first argument must be a list, got {}",
                    other.map_or("nil", Value::type_name)
                )));
            }
        };
        let f = match args.get(1) {
            Some(f @ (Value::Closure(_) | Value::Builtin(_))) => f.clone(),
            other => {
                return Err(VmError::type_error(format!(
                    "map_bounded: second argument must be a closure, got {}",
                    other.map_or("nil", Value::type_name)
                )));
            }
        };
        let width = width_option(args.get(2))?
            .or(self.limits.max_concurrent)
            .unwrap_or(DEFAULT_WIDTH)
            .min(items.len().max(1) as u64) as usize;
        let template = self.fork();
        let out_limit = self.limits.max_output_bytes;
        let printed_before = self.out.len();
        // Output of items is appended to the caller's in completion order; the caller
        // is suspended meanwhile, so it is handed back as the call's side product.
        let out_tx = std::rc::Rc::new(std::cell::RefCell::new(String::new()));
        self.pending_output = Some(out_tx.clone());
        Ok(Box::pin(async move {
            let total = items.len();
            let mut slots: Vec<Option<Value>> = vec![None; total];
            let mut running: Vec<ItemFuture> = Vec::with_capacity(width);
            let mut next = 0;
            let mut done = 0;
            while done < total {
                while running.len() < width && next < total {
                    let mut vm = template.fork();
                    let item = items[next].clone();
                    let f = f.clone();
                    let index = next;
                    running.push(Box::pin(async move {
                        let r = vm.run_callable(f, vec![item]).await;
                        (index, r, vm.take_output())
                    }));
                    next += 1;
                }
                let (index, result, printed) = poll_fn(|cx| {
                    for i in 0..running.len() {
                        if let Poll::Ready(out) = running[i].as_mut().poll(cx) {
                            drop(running.swap_remove(i));
                            return Poll::Ready(out);
                        }
                    }
                    Poll::Pending
                })
                .await;
                {
                    let mut out = out_tx.borrow_mut();
                    if let Some(max) = out_limit
                        && printed_before + out.len() + printed.len() > max
                    {
                        return Err(VmError::limit(Limit::Output(max)));
                    }
                    out.push_str(&printed);
                }
                slots[index] = Some(settle(result)?);
                done += 1;
            }
            let results: Vec<Value> = slots.into_iter().map(|v| v.unwrap_or_default()).collect();
            let succeeded = results
                .iter()
                .filter(|r| r.result_is_ok() == Some(true))
                .count();
            let mut dict = Dict::default();
            dict.insert("failed", Value::Int((total - succeeded) as i64));
            dict.insert("results", Value::list(results));
            dict.insert("succeeded", Value::Int(succeeded as i64));
            Ok(Value::dict(dict))
        }))
    }
}
