//! One call window for a builtin that calls a closure once per item: `map`, `filter`,
//! `reduce`, `any`, ... over a list, and the sinks of a lazy iterator (`reduce`, `any`,
//! `all`, `find`, `for_each`).
//!
//! A nested call (`Host::call`) opens a window on the stack, runs the frame loop and
//! closes the window again: about 500 instructions around a callback body of a few. Here
//! the window is opened once; each item is written into the callee's parameter register
//! and the frame pushed again. Items come from a list, or are pulled from an iterator
//! between calls: a pull may run other callbacks (a `filter` upstream), which open their
//! windows above this one and close them before the pull returns, so this window is
//! never disturbed.

use std::borrow::Borrow;
use std::rc::Rc;

use super::exec::{copy_of, put};
use super::{Stop, Vm};
use crate::error::VmError;
use crate::function::Closure;
use crate::iter::IterRef;
use crate::value::Value;

/// Where a window loop gets its items, and what each costs in fuel.
pub(super) trait WindowItems {
    /// A borrowed list element, or an element pulled from an iterator.
    type Item: Borrow<Value>;
    /// The next item, its unit of fuel charged, or `None` at the end.
    fn next_item(&mut self, vm: &mut Vm) -> Result<Option<Self::Item>, VmError>;
}

/// A list's elements, one unit of fuel each.
pub(super) struct Listed<'a>(pub(super) std::slice::Iter<'a, Value>);

impl<'a> WindowItems for Listed<'a> {
    type Item = &'a Value;

    #[inline(always)]
    fn next_item(&mut self, vm: &mut Vm) -> Result<Option<&'a Value>, VmError> {
        let Some(item) = self.0.next() else {
            return Ok(None);
        };
        crate::native::Host::charge(vm, 1)?;
        Ok(Some(item))
    }
}

/// An iterator's elements; the pull charges them (`iter::next`).
pub(super) struct Pulled<'a>(pub(super) &'a IterRef);

impl WindowItems for Pulled<'_> {
    type Item = Value;

    fn next_item(&mut self, vm: &mut Vm) -> Result<Option<Value>, VmError> {
        crate::iter::next(self.0, vm)
    }
}

impl Vm {
    /// `call_each` and `fold` for a closure: one call window for the whole loop. Each
    /// call takes the item (after the accumulator when `FOLDING`); its result goes to
    /// `each` (with the item's index and the item) or becomes the next accumulator.
    /// Returns the final accumulator (nil when not folding). A const parameter, so
    /// `map`'s loop carries no test of which it is.
    pub(super) fn call_in_window<const FOLDING: bool, S: WindowItems>(
        &mut self,
        c: &Rc<Closure>,
        f: &Value,
        mut items: S,
        acc: Value,
        each: &mut impl FnMut(usize, S::Item, &mut Value) -> Result<bool, VmError>,
    ) -> Result<Value, VmError> {
        let outermost = self.native_depth == 0;
        let folding = FOLDING;
        let nargs = if folding { 2 } else { 1 };
        let at = self
            .frames
            .last()
            .map_or(0, |fr| fr.base + fr.closure.function.window);
        let at = at.max(self.stack.len());
        self.stack.resize_with(at, || Value::Nil);
        self.stack.push(f.clone());
        self.stack.push(acc);
        if folding {
            self.stack.push(Value::Nil);
        }
        let item_slot = at + nargs;
        let floor = self.frames.len();
        self.native_depth += 1;
        // One budget and one stack check for all the calls: each call starts at the same
        // native depth, and the fuel is settled once at the end (the loop still checks
        // fuel, deadline and memory every `CHECK_EVERY` ticks).
        let mut budget = super::exec::Budget::new();
        let outcome = harn_compiler::stack::maybe_grow(256 * 1024, 4 * 1024 * 1024, || {
            let mut outcome = Ok(());
            let mut i = 0;
            loop {
                let item = match items.next_item(self) {
                    Ok(Some(item)) => item,
                    Ok(None) => break,
                    Err(e) => {
                        outcome = Err(e);
                        break;
                    }
                };
                let mark = self.out.len();
                // `copy_of` and `put`: a number is copied by its payload, inline, and
                // the slot's previous item (usually a number too) needs no destructor.
                put(&mut self.stack[item_slot], copy_of(item.borrow()));
                if let Err(e) = self.push_frame(c.clone(), at + 1, nargs, at, true) {
                    outcome = Err(e);
                    break;
                }
                let mut r = self.execute_with(floor, &mut budget);
                // The result is lent in place, not moved (see `Host::call_each`).
                if let Ok(Stop::Returned(v)) = &mut r {
                    let go = if folding {
                        let next = std::mem::replace(v, Value::Nil);
                        // The return left a copy in the callee's slot: dropped, so the
                        // next call holds the accumulator once and may change it in
                        // place (`acc.push(x)`).
                        put(&mut self.stack[at], Value::Nil);
                        put(&mut self.stack[at + 1], next);
                        Ok(true)
                    } else {
                        each(i, item, v)
                    };
                    i += 1;
                    // Whatever `each` left in the result is dropped here, in place; then
                    // `r` owns nothing and its (out-of-line) destructor is skipped.
                    super::exec::put(v, Value::Nil);
                    std::mem::forget(r);
                    match go {
                        Ok(true) => continue,
                        Ok(false) => break,
                        Err(e) => {
                            outcome = Err(e);
                            break;
                        }
                    }
                }
                outcome = Err(match r {
                    Ok(Stop::Returned(_)) => continue,
                    Ok(Stop::Yielded(_)) => VmError::runtime("yield outside a generator"),
                    Ok(Stop::Suspended(..)) => {
                        VmError::must_wait("cannot wait inside a callback run by a builtin")
                    }
                    Err(e) => {
                        self.frames.truncate(floor);
                        while self.handlers.last().is_some_and(|h| h.frame >= floor) {
                            self.handlers.pop();
                        }
                        if outermost && e.is_must_wait() {
                            // As in `call_nested`: this invocation waits as a whole when the
                            // builtin is replayed; what it printed is printed then.
                            self.out.truncate(mark);
                            // A window runs only outside a replay (`windowed`), so the
                            // builtin's caller replays the builtin from its start, where
                            // each invocation is named by `call_nested`. A fold names
                            // none here: its callee may have consumed the accumulator
                            // (a closure ending in `acc.push(x)` moves it), and keeping
                            // a copy for this would make every step copy it whole.
                            if folding {
                                e
                            } else {
                                super::replay::with_call(e, f, &[item.borrow().clone()])
                            }
                        } else {
                            e
                        }
                    }
                });
                break;
            }
            outcome
        });
        self.settle(budget);
        self.native_depth -= 1;
        let acc = if folding {
            std::mem::replace(&mut self.stack[at + 1], Value::Nil)
        } else {
            Value::Nil
        };
        self.stack.truncate(at);
        outcome.map(|()| acc)
    }
}
