//! Calls: frames for closures, builtins, parameter checks, and re-entry from builtins
//! (the `Host` implementation).

use std::rc::Rc;

use super::exec::{copy_of, put};
use super::params::{check_param, kind_bit};
use super::window::{Listed, Pulled};
use super::{Frame, MAX_FRAMES, Stop, Vm};
use crate::error::{ErrorKind, Limit, VmError};
use crate::function::Closure;
use crate::iter::IterRef;
use crate::methods::call_method;
use crate::native::Host;
use crate::registry::Implementation;
use crate::value::Value;

/// Native charges at least this large also check the deadline.
const LARGE_CHARGE: u64 = 256;

/// Builtin and method arguments held in the calling frame rather than a heap vector.
const INLINE_ARGS: usize = 4;

impl Vm {
    /// Pushes a frame for `closure` whose arguments already sit at `base..base+nargs`.
    #[inline(always)]
    pub(crate) fn push_frame(
        &mut self,
        closure: Rc<Closure>,
        base: usize,
        nargs: usize,
        ret: usize,
        stop_here: bool,
    ) -> Result<(), VmError> {
        let depth = self.frames.len() + 1;
        if depth > self.frame_cap {
            return Err(self.depth_error());
        }
        if depth > self.depth_peak {
            self.depth_peak = depth;
        }
        let function = &closure.function;
        let top = base + function.window;
        if self.stack.len() < top {
            // `resize_with`: no `Value::clone` per slot (this runs on every call).
            self.stack.resize_with(top, || Value::Nil);
        }
        if !function.plain || nargs < function.nparams {
            // A closure with one captured variable and every argument given (the
            // `{ x -> x * k }` of `map`) places that value here; the rest out of line.
            if function.captures_only
                && nargs >= function.nparams
                && let ([cap], [value]) = (&function.proto.captures[..], &closure.captures[..])
                && let Some(slot) = self.stack.get_mut(base + cap.reg as usize)
            {
                super::exec::put(slot, super::exec::copy_of(value));
            } else {
                self.bind_args(&closure, base, nargs)?;
            }
        }
        super::push_in_place(
            &mut self.frames,
            Frame {
                closure,
                pc: 0,
                base,
                nargs,
                ret,
                stop_here,
            },
        );
        Ok(())
    }

    #[cold]
    fn depth_error(&self) -> VmError {
        match self.limits.max_call_depth {
            Some(n) if n < MAX_FRAMES => VmError::limit(Limit::CallDepth(n)),
            _ => VmError::new(ErrorKind::StackOverflow),
        }
    }

    /// The slow part of a call: omitted parameters, a rest parameter, parameter type
    /// checks and captured variables.
    ///
    /// Out of line, so that the calls of the interpreter loop, which inline
    /// [`Vm::push_frame`], stay small.
    #[inline(never)]
    fn bind_args(&mut self, closure: &Closure, base: usize, nargs: usize) -> Result<(), VmError> {
        let function = &closure.function;
        let proto = &function.proto;
        if function.simple_checks && nargs >= function.nparams {
            // Each argument against its parameter's mask; the full check only to word
            // the error of one that fails.
            for (i, &mask) in function.check_masks.iter().enumerate() {
                let v = &self.stack[base + i];
                if mask & kind_bit(v) == 0
                    && let Some(p) = proto.params.get(i)
                {
                    check_param(&p.name, &p.check, v)?;
                }
            }
            return Ok(());
        }
        if function.captures_only && nargs >= function.nparams {
            // A closure's common case: only the captured values to place.
            for (cap, value) in proto.captures.iter().zip(&closure.captures) {
                if let Some(slot) = self.stack.get_mut(base + cap.reg as usize) {
                    // A captured number is copied by its payload into a slot that
                    // usually holds the previous call's copy: no clone or drop calls.
                    put(slot, copy_of(value));
                }
            }
            return Ok(());
        }
        // Omitted parameters are nil. Other registers are always written before they
        // are read, so they need no clearing.
        if nargs < function.nparams {
            for slot in &mut self.stack[base + nargs..base + function.nparams] {
                *slot = Value::Nil;
            }
        }
        if function.has_rest {
            // Rest parameter: gather extra arguments into a list.
            if let Some(rest_at) = proto.params.iter().position(|p| p.rest) {
                let extra: Vec<Value> = (rest_at..nargs)
                    .map(|i| std::mem::replace(&mut self.stack[base + i], Value::Nil))
                    .collect();
                self.stack[base + rest_at] = Value::list(extra);
            }
        }
        if function.has_checks {
            for (i, p) in proto.params.iter().enumerate() {
                if i < nargs && !p.rest {
                    check_param(&p.name, &p.check, &self.stack[base + i])?;
                }
            }
        }
        for (cap, value) in proto.captures.iter().zip(closure.captures.iter()) {
            self.stack[base + cap.reg as usize] = value.clone();
        }
        Ok(())
    }

    /// Calls the value in slot `at` with the `nargs` arguments after it; the result goes
    /// to `at`. Closures get a new frame (the loop continues in it); builtins run now.
    /// Returns a suspension when an asynchronous builtin was called.
    pub(crate) fn call_slot(&mut self, at: usize, nargs: usize) -> Result<Option<Stop>, VmError> {
        match &self.stack[at] {
            Value::Closure(c) => {
                let c = c.clone();
                self.push_frame(c, at + 1, nargs, at, false)?;
                Ok(None)
            }
            Value::Builtin(id) => {
                let id = *id;
                self.call_builtin(id, at, nargs)
            }
            other => Err(VmError::type_error(format!(
                "cannot call value of type {}",
                other.type_name()
            ))),
        }
    }

    /// Runs builtin `id` on the arguments at `at+1..`; the result goes to `at`.
    pub(crate) fn call_builtin(
        &mut self,
        id: u32,
        at: usize,
        nargs: usize,
    ) -> Result<Option<Stop>, VmError> {
        let Some(builtin) = self.registry.get(id) else {
            return Err(VmError::runtime("unknown builtin"));
        };
        let imp = builtin.imp;
        // The builtin borrows the VM mutably, so its arguments are copied off the stack:
        // a few of them into this frame (most calls), more onto the heap.
        let mut inline = [const { Value::Nil }; INLINE_ARGS];
        let heap: Vec<Value>;
        let copy = |i: usize| self.stack.get(i).cloned().unwrap_or_default();
        let args: &[Value] = if nargs <= INLINE_ARGS {
            for (slot, i) in inline.iter_mut().zip(at + 1..at + 1 + nargs) {
                *slot = copy(i);
            }
            &inline[..nargs]
        } else {
            heap = (at + 1..at + 1 + nargs).map(copy).collect();
            &heap
        };
        match imp {
            Implementation::Sync(f) => {
                let mark = self.out.len();
                let result = match f(self, args) {
                    Ok(v) => v,
                    Err(e) if e.is_must_wait() && self.native_depth == 0 => {
                        if !super::replay::replayable(None, args) {
                            return Err(e.settle_wait());
                        }
                        // Callbacks before the wait ran without side effects but
                        // their output: it is printed again when the builtin re-runs.
                        self.out.truncate(mark);
                        let call = super::replay::Replayed::Builtin {
                            f,
                            args: args.to_vec(),
                        };
                        return Ok(Some(self.replay(at, call)));
                    }
                    Err(e) => return Err(e),
                };
                self.guard(&result)?;
                if let Some(slot) = self.stack.get_mut(at) {
                    *slot = result;
                }
                Ok(None)
            }
            Implementation::Number(f) => {
                let result = f(args.first().unwrap_or(&Value::Nil))?;
                if let Some(slot) = self.stack.get_mut(at) {
                    *slot = result;
                }
                Ok(None)
            }
            Implementation::Async(f) => {
                if self.native_depth > 0 {
                    return Err(VmError::must_wait(format!(
                        "`{}` cannot wait inside a callback run by a builtin",
                        builtin.name
                    )));
                }
                let fut = f(args)?;
                Ok(Some(Stop::Suspended(fut, at)))
            }
            Implementation::Egress => {
                let name = match args.first() {
                    Some(Value::Str(s)) => s.as_str().to_owned(),
                    other => {
                        return Err(VmError::type_error(format!(
                            "call_tool(name, args): name must be a string; got {}",
                            other.map_or("nil", Value::type_name)
                        )));
                    }
                };
                let input = match args.get(1) {
                    None | Some(Value::Nil) => Value::dict(Default::default()),
                    Some(d @ Value::Dict(_)) => d.clone(),
                    Some(other) => {
                        return Err(VmError::type_error(format!(
                            "call_tool: args must be a dict; got {}",
                            other.type_name()
                        )));
                    }
                };
                self.call_egress(&name, input, at)
            }
            Implementation::WithVm(f) => {
                if self.native_depth > 0 {
                    return Err(VmError::must_wait(format!(
                        "`{}` cannot wait inside a callback run by a builtin",
                        builtin.name
                    )));
                }
                let fut = f(std::rc::Rc::new(self.callbacks()), args)?;
                Ok(Some(Stop::Suspended(fut, at)))
            }
            Implementation::MapBounded => {
                if self.native_depth > 0 {
                    return Err(VmError::must_wait(
                        "`map_bounded` cannot wait inside a callback run by a builtin",
                    ));
                }
                let fut = self.map_bounded(args)?;
                Ok(Some(Stop::Suspended(fut, at)))
            }
        }
    }

    /// Starts a tool call through the installed egress; the result goes to `at`.
    pub(crate) fn call_egress(
        &mut self,
        name: &str,
        input: Value,
        at: usize,
    ) -> Result<Option<Stop>, VmError> {
        let Some(egress) = self.egress.clone() else {
            return Err(VmError::runtime(format!(
                "tool `{name}` is only callable in code mode"
            )));
        };
        if self.native_depth > 0 {
            return Err(VmError::must_wait(format!(
                "tool `{name}` cannot be called inside a callback run by a builtin; use a for loop or map_bounded"
            )));
        }
        let fut = egress.call(name, input)?;
        Ok(Some(Stop::Suspended(fut, at)))
    }

    /// A manifest binding as a value: a closure whose every call is a call of the
    /// binding, so it stays governed (the gate, the operation count) wherever the value
    /// goes (`let rf = read_file`, `paths.map(read_file)`).
    pub(crate) fn binding_value(&mut self, name: &str) -> Option<Value> {
        let egress = self.egress.clone()?;
        egress.binding_tool(name)?;
        if let Some(v) = self.binding_values.get(name) {
            return Some(v.clone());
        }
        // Binding identifiers never start with `_` (code-mode.md 1.7), so the wrapper's
        // name cannot shadow the binding it calls.
        let source = format!("fn __binding_value(args = {{}}) {{ return {name}(args) }}");
        let parsed = harn_compiler::parse(&source);
        if parsed.has_errors() {
            return None;
        }
        let proto = harn_compiler::compile::compile_program(&parsed.program, &source).ok()?;
        let child = proto.children.first()?.clone();
        let function = crate::load::load(child, self.registry, self.profile);
        let value = Value::Closure(Rc::new(crate::function::Closure {
            function,
            captures: Box::new([]),
        }));
        self.binding_values.insert(name.to_string(), value.clone());
        Some(value)
    }

    /// A call target that is neither local, global nor builtin: a manifest binding?
    pub(crate) fn binding_call(
        &mut self,
        name: &str,
        at: usize,
        nargs: usize,
    ) -> Option<Result<Option<Stop>, VmError>> {
        let egress = self.egress.clone()?;
        let tool = egress.binding_tool(name)?;
        let input = if nargs == 0 {
            Value::dict(Default::default())
        } else {
            self.stack.get(at + 1).cloned().unwrap_or_default()
        };
        Some(self.call_egress(&tool, input, at))
    }

    /// Calls a callable value synchronously from a builtin.
    fn call_nested(&mut self, f: &Value, args: &[Value]) -> Result<Value, VmError> {
        let outermost = self.native_depth == 0;
        if outermost && let Some(answer) = self.replay.as_mut().and_then(|r| r.answer()) {
            return Ok(answer);
        }
        let mark = self.out.len();
        let result = self.call_nested_now(f, args);
        if !outermost {
            return result;
        }
        match result {
            Err(e) if e.is_must_wait() => {
                // This invocation waits as a whole when the builtin is replayed; what it
                // printed so far is printed then.
                self.out.truncate(mark);
                Err(super::replay::with_call(e, f, args))
            }
            Ok(v) => {
                if let Some(r) = self.replay.as_mut() {
                    r.record(v.clone());
                }
                Ok(v)
            }
            Err(e) => Err(e),
        }
    }

    fn call_nested_now(&mut self, f: &Value, args: &[Value]) -> Result<Value, VmError> {
        let at = self
            .frames
            .last()
            .map_or(0, |fr| fr.base + fr.closure.function.window);
        let at = at.max(self.stack.len());
        // Push, not resize-then-assign: each slot is written once. The callee's own slot
        // only receives its result: a closure is entered from `f`, and a builtin reads
        // just its arguments.
        if self.stack.len() < at {
            self.stack.resize_with(at, || Value::Nil);
        }
        let window = match f {
            Value::Closure(c) => c.function.window,
            _ => 0,
        };
        self.stack.open_window(args, window);
        let result = match f {
            Value::Closure(c) => {
                let floor = self.frames.len();
                self.push_frame(c.clone(), at + 1, args.len(), at, true)?;
                self.native_depth += 1;
                let r = harn_compiler::stack::maybe_grow(256 * 1024, 4 * 1024 * 1024, || {
                    self.execute(floor)
                });
                self.native_depth -= 1;
                match r {
                    Ok(Stop::Returned(v)) => Ok(v),
                    Ok(Stop::Yielded(_)) => Err(VmError::runtime("yield outside a generator")),
                    Ok(Stop::Suspended(..)) => Err(VmError::must_wait(
                        "cannot wait inside a callback run by a builtin",
                    )),
                    Err(e) => {
                        // Handlers of the callback's frames go with them: the run may
                        // continue (a replayed builtin, a caught error further out).
                        self.frames.truncate(floor);
                        while self.handlers.last().is_some_and(|h| h.frame >= floor) {
                            self.handlers.pop();
                        }
                        Err(e)
                    }
                }
            }
            Value::Builtin(id) => {
                // Counted as nested so an asynchronous builtin refuses before it starts
                // anything (its call is replayed as a whole).
                self.native_depth += 1;
                let r = self.call_builtin(*id, at, args.len());
                self.native_depth -= 1;
                r
            }
            .and_then(|stop| match stop {
                None => Ok(self.stack[at].clone()),
                Some(_) => Err(VmError::must_wait(
                    "cannot wait inside a callback run by a builtin",
                )),
            }),
            other => Err(VmError::type_error(format!(
                "cannot call value of type {}",
                other.type_name()
            ))),
        };
        self.stack.drop_above(at);
        result
    }
}

impl Vm {
    /// The closure a reused call window can run `f` as (`window.rs`): `None` for a
    /// builtin, and while a builtin is replayed, which answers its callbacks from the
    /// record one by one.
    fn windowed(&self, f: &Value) -> Option<Rc<Closure>> {
        match f {
            Value::Closure(c) if self.replay.is_none() => Some(c.clone()),
            _ => None,
        }
    }
}

impl Vm {
    /// `receiver.name(args)` with the receiver at `at` and arguments after it.
    pub(crate) fn call_method_at(
        &mut self,
        at: usize,
        nargs: usize,
        name: &str,
        optional: bool,
    ) -> Result<Option<Stop>, VmError> {
        // The hot path of `xs = xs.push(x)`: no argument vector, no name dispatch; the
        // list is appended to in place when nothing else holds it.
        if nargs == 1 && name == "push" && matches!(self.stack[at], Value::List(_)) {
            let item = self.stack.get(at + 1).cloned().unwrap_or_default();
            if let Value::List(items) = &mut self.stack[at] {
                Rc::make_mut(items).push(item);
            }
            self.guard(&self.stack[at])?;
            return Ok(None);
        }
        // A set's membership test and add, the two calls of a loop that keeps a set of
        // seen values: no argument vector, no dispatch on the receiver's kind, and no
        // replay record (neither takes a callback).
        if nargs == 1
            && matches!(self.stack[at], Value::Set(_))
            && matches!(name, "contains" | "add")
        {
            let arg = self
                .stack
                .get_mut(at + 1)
                .map(std::mem::take)
                .unwrap_or_default();
            let receiver = std::mem::replace(&mut self.stack[at], Value::Nil);
            if let crate::value::Owned::Set(items) = receiver.into_owned() {
                let result = crate::methods::set_member_call(self, items, name, &arg)?;
                let v = result.unwrap_or_default();
                self.guard(&v)?;
                self.stack[at] = v;
            }
            return Ok(None);
        }
        let receiver = std::mem::replace(&mut self.stack[at], Value::Nil);
        match &receiver {
            Value::Nil | Value::Bool(_) | Value::Closure(_) | Value::Builtin(_) => {
                let _ = optional;
                self.stack[at] = Value::Nil;
                return Ok(None);
            }
            Value::Struct(s) => {
                let key = (s.name.to_string(), name.to_string());
                if let Some(Value::Closure(m)) = self.methods.get(&key) {
                    let m = m.clone();
                    // `self` is the receiver: the method's window starts at `at`.
                    self.stack[at] = receiver;
                    self.push_frame(m, at, nargs + 1, at, false)?;
                    return Ok(None);
                }
                self.stack[at] = Value::Nil;
                return Ok(None);
            }
            _ => {}
        }
        // The arguments are moved off the stack (their registers are the call's own
        // temporaries, dead once it returns), so a uniquely held argument stays uniquely
        // held, into the VM's reusable vector.
        let mut args = std::mem::take(&mut self.method_args);
        args.extend(
            self.stack
                .iter_mut()
                .skip(at + 1)
                .take(nargs)
                .map(std::mem::take),
        );
        args.resize_with(nargs, Value::default);
        let stored = match &receiver {
            Value::Dict(d) => d.get(name).cloned(),
            _ => None,
        };
        // A callback method called from the program itself can be replayed if one of its
        // callbacks waits (a tool call in `xs.map(...)`); keep what it needs for that.
        let replay_receiver = (self.native_depth == 0
            && super::replay::replayable(Some(&receiver), &args))
        .then(|| receiver.clone());
        let mark = self.out.len();
        let result = call_method(self, receiver, name, &args);
        let result = match result {
            Ok(r) => r,
            Err(e) if e.is_must_wait() && self.native_depth == 0 => {
                let Some(receiver) = replay_receiver else {
                    return Err(e.settle_wait());
                };
                self.out.truncate(mark);
                let call = super::replay::Replayed::Method {
                    receiver,
                    name: name.to_string(),
                    args,
                };
                return Ok(Some(self.replay(at, call)));
            }
            Err(e) => return Err(e),
        };
        match result {
            Some(v) => {
                args.clear();
                self.method_args = args;
                self.guard(&v)?;
                self.stack[at] = v;
                Ok(None)
            }
            None => match stored {
                Some(f @ (Value::Closure(_) | Value::Builtin(_))) => {
                    // A function stored under the name in a dict: called with the
                    // arguments put back where the call left them.
                    for (arg, slot) in args.iter_mut().zip(self.stack.iter_mut().skip(at + 1)) {
                        *slot = std::mem::take(arg);
                    }
                    self.stack[at] = f;
                    self.call_slot(at, nargs)
                }
                _ => {
                    self.stack[at] = Value::Nil;
                    Ok(None)
                }
            },
        }
    }
}

impl Host for Vm {
    fn call(&mut self, f: &Value, args: &[Value]) -> Result<Value, VmError> {
        self.call_nested(f, args)
    }

    fn call_each(
        &mut self,
        f: &Value,
        items: &[Value],
        each: &mut dyn FnMut(usize, &mut Value) -> Result<bool, VmError>,
    ) -> Result<(), VmError> {
        match self.windowed(f) {
            Some(c) => {
                let items = Listed(items.iter());
                self.call_in_window::<false, _>(&c, f, items, Value::Nil, &mut |i, _, v| each(i, v))
                    .map(drop)
            }
            None => crate::native::call_each_in_turn(self, f, items, each),
        }
    }

    fn fold(&mut self, f: &Value, init: Value, items: &[Value]) -> Result<Value, VmError> {
        match self.windowed(f) {
            Some(c) => {
                let items = Listed(items.iter());
                self.call_in_window::<true, _>(&c, f, items, init, &mut |_, _, _| Ok(true))
            }
            None => crate::native::fold_in_turn(self, f, init, items),
        }
    }

    fn call_each_pulled(
        &mut self,
        f: &Value,
        it: &IterRef,
        each: &mut dyn FnMut(Value, &mut Value) -> Result<bool, VmError>,
    ) -> Option<Result<(), VmError>> {
        let c = self.windowed(f)?;
        let mut each = |_, item, v: &mut Value| each(item, v);
        let r = match self.with_fused_items(it, |vm, items| {
            vm.call_in_window::<false, _>(&c, f, items, Value::Nil, &mut each)
        }) {
            Some(r) => r,
            None => self.call_in_window::<false, _>(&c, f, Pulled(it), Value::Nil, &mut each),
        };
        Some(r.map(drop))
    }

    fn drain_fused(&mut self, it: &IterRef) -> Option<Result<Vec<Value>, VmError>> {
        self.drain_fused_chain(it)
    }

    fn fold_pulled(
        &mut self,
        f: &Value,
        acc: &mut Value,
        it: &IterRef,
    ) -> Option<Result<(), VmError>> {
        let c = self.windowed(f)?;
        // Taken by whichever loop runs (the fused one declines before it starts).
        let mut init = Some(std::mem::take(acc));
        let mut go_on = |_, _, _: &mut Value| Ok(true);
        let r = match self.with_fused_items(it, |vm, items| {
            let init = init.take().unwrap_or_default();
            vm.call_in_window::<true, _>(&c, f, items, init, &mut go_on)
        }) {
            Some(r) => r,
            None => {
                let init = init.take().unwrap_or_default();
                self.call_in_window::<true, _>(&c, f, Pulled(it), init, &mut go_on)
            }
        };
        Some(r.map(|v| *acc = v))
    }

    fn write_out(&mut self, text: &str) -> Result<(), VmError> {
        let mut stats = self.log_stats.get();
        if self
            .limits
            .max_log_entries
            .is_some_and(|max| stats.entries >= max)
        {
            stats.dropped += 1;
            self.log_stats.set(stats);
            return Ok(());
        }
        stats.entries += 1;
        let text = match self.limits.max_log_entry_bytes {
            Some(max) if text.len() > max => {
                stats.truncated += 1;
                let mut cut = max;
                while !text.is_char_boundary(cut) {
                    cut -= 1;
                }
                // Keep the entry's line ending so later entries stay on their own line.
                let newline = if text.ends_with('\n') { "\n" } else { "" };
                std::borrow::Cow::Owned(format!("{}…{newline}", &text[..cut]))
            }
            _ => std::borrow::Cow::Borrowed(text),
        };
        self.log_stats.set(stats);
        if let Some(max) = self.limits.max_output_bytes
            && self.out.len() + text.len() > max
        {
            return Err(VmError::limit(Limit::Output(max)));
        }
        self.out.push_str(&text);
        Ok(())
    }

    fn append_output(&mut self, text: &str) -> Result<(), VmError> {
        if let Some(max) = self.limits.max_output_bytes
            && self.out.len() + text.len() > max
        {
            return Err(VmError::limit(Limit::Output(max)));
        }
        self.out.push_str(text);
        Ok(())
    }

    fn value_caps(&self) -> (Option<usize>, Option<usize>) {
        (self.limits.max_string_bytes, self.limits.max_collection_len)
    }

    fn color_enabled(&self) -> bool {
        self.color
    }

    fn set_color_enabled(&mut self, on: bool) {
        self.color = on;
    }

    fn charge(&mut self, units: u64) -> Result<(), VmError> {
        // A replayed builtin re-does the steps before its last answered invocation;
        // they were paid for in the attempt that first did them.
        if self
            .replay
            .as_ref()
            .is_some_and(super::replay::Replay::repeating)
        {
            return Ok(());
        }
        let used = self.fuel_used.get().saturating_add(units);
        self.fuel_used.set(used);
        if let Some(max) = self.limits.max_instructions
            && used > max
        {
            return Err(VmError::limit(Limit::Instructions(max)));
        }
        // A native charging for a large piece of work (a scan of a long string, a big
        // collection) also answers to the deadline, so a loop of such calls cannot
        // overrun it between the interpreter's periodic checks.
        if units >= LARGE_CHARGE
            && let Some((at, ms)) = self.limits.deadline
            && std::time::Instant::now() >= at
        {
            return Err(VmError::limit(Limit::Timeout(ms)));
        }
        Ok(())
    }
}
