//! A lazy chain of `map` and `filter` stages drained by a sink (`sum`, `to_list`,
//! `count`, `min`, ...: `(0 to n exclusive).map(f).filter(g).sum()`), or pulled by a
//! sink that calls a closure per element (`reduce`, `any`, `all`, `find`, `for_each`).
//!
//! Pulled element by element, every stage calls its closure through `Host::call`, which
//! opens a call window, runs the frame loop and closes the window again: about 500
//! instructions around a body of three (the chain above cost 1.7x Lua's loops over
//! tables, while the same chain over a list, run by `call_each`'s reused window, cost
//! 1.0x). Here each stage's window is opened once for the whole drain, one above the
//! other, and each call writes its item into the stage's parameter and pushes the frame.
//!
//! What a callback can see stays as pulling would leave it: the calls are made in the
//! same order with the same arguments, each pull is charged where `next` charges it,
//! the outer iterator reads as exhausted while the stages run (`next` takes its state
//! out while it steps) and gets its state back unless the chain ended (after an error,
//! or a sink that stopped early), an inner stage that something else holds (`let evens
//! = xs.filter(f)` then `evens.map(g)`: a callback may reach it) is taken out the same
//! way while it steps, and pulled as it is if a callback ended it meanwhile
//! (`iter::fusible` marks it), and an outermost callback that must wait is named for the
//! replay as `call_nested` names it.

use std::rc::Rc;

use super::exec::{Budget, copy_of, put};
use super::{Stop, Vm};
use crate::error::VmError;
use crate::function::Closure;
use crate::iter::{Fusible, Iter, IterRef};
use crate::value::Value;

/// One stage's closure and where its call window starts (its callee slot; the
/// parameter follows).
struct Stage {
    filter: bool,
    f: Value,
    closure: Rc<Closure>,
    at: usize,
    /// The stage's iterator when something else holds it (`iter::FusedStage::held`).
    held: Option<IterRef>,
}

/// The chain while it runs: its stages innermost first, its source, and what every call
/// shares.
struct Run {
    stages: Vec<Stage>,
    source: IterRef,
    floor: usize,
    outermost: bool,
    budget: Budget,
}

/// The items of a fused chain for a sink that calls a closure per item (`reduce`, `any`,
/// `all`, `find`, `for_each`): each pulled as [`Vm::pull_chain`] pulls it.
pub(super) struct FusedItems<'a> {
    it: &'a IterRef,
    run: &'a mut Run,
}

impl super::window::WindowItems for FusedItems<'_> {
    type Item = Value;

    fn next_item(&mut self, vm: &mut Vm) -> Result<Option<Value>, VmError> {
        vm.pull_chain(self.it, self.run)
    }
}

impl Vm {
    /// `Host::drain_fused`: `None` unless `it` is a fusible chain and no builtin is being
    /// replayed (a replay answers callbacks from its record, one `Host::call` at a time).
    pub(super) fn drain_fused_chain(
        &mut self,
        it: &IterRef,
    ) -> Option<Result<Vec<Value>, VmError>> {
        let outermost = self.native_depth == 0;
        let (mut run, base) = self.open_chain(it, outermost)?;
        // Taken out for the whole drain, not per pull as `pull_chain` does: nothing but
        // the stages runs between pulls, and they would find it taken out either way.
        let Some(state) = take_stage(it) else {
            self.close_chain(run, base);
            return None;
        };
        self.native_depth += 1;
        let levels = run.stages.len();
        let drained = harn_compiler::stack::maybe_grow(256 * 1024, 4 * 1024 * 1024, || {
            let mut out = Vec::new();
            while let Some(v) = self.pull_fused(&mut run, levels)? {
                out.push(v);
            }
            Ok(out)
        });
        self.native_depth -= 1;
        self.close_chain(run, base);
        if drained.is_err() {
            put_back(it, state);
        }
        Some(drained)
    }

    /// `body` with the items of `it` run as a fused chain, when it is one; `None`
    /// otherwise. Called inside a sink's own call window loop, whose native depth its
    /// stage calls share (so none of them is outermost).
    pub(super) fn with_fused_items<T>(
        &mut self,
        it: &IterRef,
        body: impl FnOnce(&mut Vm, FusedItems<'_>) -> T,
    ) -> Option<T> {
        let (mut run, base) = self.open_chain(it, false)?;
        let out = body(self, FusedItems { it, run: &mut run });
        self.close_chain(run, base);
        Some(out)
    }

    /// Opens one call window per stage of `it`'s chain, one above the other, above
    /// everything in use; returns the run and where the windows start.
    fn open_chain(&mut self, it: &IterRef, outermost: bool) -> Option<(Run, usize)> {
        if self.replay.is_some() {
            return None;
        }
        let Fusible { stages, source } = crate::iter::fusible(it)?;
        let base = self
            .frames
            .last()
            .map_or(0, |fr| fr.base + fr.closure.function.window)
            .max(self.stack.len());
        self.stack.resize_with(base, || Value::Nil);
        let mut run = Run {
            stages: Vec::with_capacity(stages.len()),
            source,
            floor: self.frames.len(),
            outermost,
            budget: Budget::new(),
        };
        for crate::iter::FusedStage { filter, f, held } in stages {
            let Value::Closure(closure) = &f else {
                continue;
            };
            let closure = Rc::clone(closure);
            // The callee slot, then the callee's registers (the parameter first): the
            // next stage's window starts above them, so no call disturbs another's.
            let at = self.stack.len();
            let top = at + 1 + closure.function.window.max(1);
            self.stack.resize_with(top, || Value::Nil);
            run.stages.push(Stage {
                filter,
                f,
                closure,
                at,
                held,
            });
        }
        Some((run, base))
    }

    fn close_chain(&mut self, run: Run, base: usize) {
        self.settle(run.budget);
        self.stack.truncate(base);
    }

    /// The next element of `it`, whose chain `run` runs: its state is taken out while
    /// the stages run and put back unless the chain ended, as `iter::next` does. If
    /// something pulled `it` to its end meanwhile (a sink's callback), it is pulled as
    /// it is now.
    fn pull_chain(&mut self, it: &IterRef, run: &mut Run) -> Result<Option<Value>, VmError> {
        let Some(state) = take_stage(it) else {
            return crate::iter::next(it, self);
        };
        let pulled = self.pull_fused(run, run.stages.len());
        if !matches!(pulled, Ok(None)) {
            put_back(it, state);
        }
        pulled
    }

    /// The next element of the chain's first `level` stages (0: the source), pulled and
    /// charged as `iter::next` pulls the iterator of that stage.
    fn pull_fused(&mut self, run: &mut Run, level: usize) -> Result<Option<Value>, VmError> {
        let Some(below) = level.checked_sub(1) else {
            return crate::iter::next(&run.source, self);
        };
        if run.stages.get(below).is_some_and(|s| s.held.is_some()) {
            return self.pull_held(run, below);
        }
        crate::native::Host::charge(self, 1)?;
        self.step_fused(run, below)
    }

    /// [`Self::pull_fused`] of a stage something else holds (reachable from callbacks):
    /// it reads as exhausted while it steps and gets its state back unless it ended, as
    /// `iter::next` leaves it; pulled to its end meanwhile (by a callback), it is pulled
    /// as it is now. Out of line: the plain stages' pulls stay as short as before.
    #[inline(never)]
    fn pull_held(&mut self, run: &mut Run, index: usize) -> Result<Option<Value>, VmError> {
        let Some(held) = run.stages.get(index).and_then(|s| s.held.clone()) else {
            return Err(VmError::runtime("a fused stage is missing"));
        };
        let Some(state) = take_stage(&held) else {
            return crate::iter::next(&held, self);
        };
        if let Err(e) = crate::native::Host::charge(self, 1) {
            put_back(&held, state);
            return Err(e);
        }
        let pulled = self.step_fused(run, index);
        if !matches!(pulled, Ok(None)) {
            put_back(&held, state);
        }
        pulled
    }

    /// The next element of stage `index`, whose own pull is charged: elements of the
    /// stages below run through its closure until one passes (a filter) or is mapped.
    #[inline(always)]
    fn step_fused(&mut self, run: &mut Run, index: usize) -> Result<Option<Value>, VmError> {
        loop {
            let Some(item) = self.pull_fused(run, index)? else {
                return Ok(None);
            };
            let result = self.call_stage(run, index, &item)?;
            match run.stages.get(index) {
                Some(stage) if stage.filter => {
                    if result.truthy() {
                        return Ok(Some(item));
                    }
                }
                _ => return Ok(Some(result)),
            }
        }
    }

    /// Stage `index`'s closure called with `item`, in the stage's window. Inline in both
    /// pulls: a call here cost a chain 7% more instructions.
    #[inline(always)]
    fn call_stage(&mut self, run: &mut Run, index: usize, item: &Value) -> Result<Value, VmError> {
        let Some(stage) = run.stages.get(index) else {
            return Err(VmError::runtime("a fused stage is missing"));
        };
        let at = stage.at;
        let mark = self.out.len();
        put(&mut self.stack[at + 1], copy_of(item));
        self.push_frame(Rc::clone(&stage.closure), at + 1, 1, at, true)?;
        let result = match self.execute_with(run.floor, &mut run.budget) {
            Ok(Stop::Returned(v)) => {
                // The return left a copy in the callee slot: dropped, so the result is
                // held once.
                put(&mut self.stack[at], Value::Nil);
                Ok(v)
            }
            Ok(Stop::Yielded(_)) => Err(VmError::runtime("yield outside a generator")),
            Ok(Stop::Suspended(..)) => Err(VmError::must_wait(
                "cannot wait inside a callback run by a builtin",
            )),
            Err(e) => {
                self.frames.truncate(run.floor);
                while self.handlers.last().is_some_and(|h| h.frame >= run.floor) {
                    self.handlers.pop();
                }
                Err(e)
            }
        };
        match result {
            Err(e) if run.outermost && e.is_must_wait() => {
                // As `call_nested`: this invocation waits as a whole when the builtin is
                // replayed; what it printed so far is printed then.
                self.out.truncate(mark);
                let f = run.stages.get(index).map_or(Value::Nil, |s| s.f.clone());
                Err(super::replay::with_call(e, &f, std::slice::from_ref(item)))
            }
            other => other,
        }
    }
}

/// `it`'s state, taken out (exhausted left in its place) while its stages run, as
/// `iter::next` takes it; `None` (and `it` untouched) unless it is still a stage.
fn take_stage(it: &IterRef) -> Option<Iter> {
    match it.try_borrow_mut() {
        Ok(mut cell) if crate::iter::is_stage(&cell) => {
            Some(std::mem::replace(&mut *cell, Iter::Exhausted))
        }
        _ => None,
    }
}

/// Puts back the state [`take_stage`] took: the chain did not end.
fn put_back(it: &IterRef, state: Iter) {
    if let Ok(mut cell) = it.try_borrow_mut() {
        *cell = state;
    }
}
