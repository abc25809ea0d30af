//! The interface between builtins and the VM that runs them.

use std::future::Future;
use std::pin::Pin;

use crate::error::VmError;
use crate::iter::IterRef;
use crate::value::Value;

/// What a builtin may ask of the VM running it.
pub trait Host {
    /// Calls a callable value (closure or builtin) with arguments, synchronously.
    fn call(&mut self, f: &Value, args: &[Value]) -> Result<Value, VmError>;
    /// Calls `f` with each of `items` in turn (one unit of fuel each), handing every
    /// result to `each` with the item's index; stops early when `each` says `false`.
    /// The VM reuses one call window for the whole loop. The result is lent where it
    /// lies (`each` may take it, with [`crate::value::push_fresh`]): the VM has just
    /// written it field by field, and moving it whole would wait on those stores.
    fn call_each(
        &mut self,
        f: &Value,
        items: &[Value],
        each: &mut dyn FnMut(usize, &mut Value) -> Result<bool, VmError>,
    ) -> Result<(), VmError> {
        call_each_in_turn(self, f, items, each)
    }
    /// Folds `items` into one value, `acc = f(acc, item)` from `init` (one unit of fuel
    /// per item), as `reduce` does. The VM reuses one call window for the whole loop.
    fn fold(&mut self, f: &Value, init: Value, items: &[Value]) -> Result<Value, VmError> {
        fold_in_turn(self, f, init, items)
    }
    /// Calls `f` with each element `it` yields (each pull charged as [`crate::iter::next`]
    /// charges it), handing `each` the element and its result; stops early when `each`
    /// says `false`. A host with a faster way than a [`Host::call`] per element (the VM
    /// reuses one call window) runs the loop and returns its outcome; `None` leaves it to
    /// the caller (`iter.rs`).
    fn call_each_pulled(
        &mut self,
        _f: &Value,
        _it: &IterRef,
        _each: &mut dyn FnMut(Value, &mut Value) -> Result<bool, VmError>,
    ) -> Option<Result<(), VmError>> {
        None
    }
    /// Every element `it` yields, when `it` is a chain of `map` and `filter` stages the
    /// host runs faster than a [`Host::call`] per element and stage (the VM: one call
    /// window per stage), with the same calls in the same order, the same fuel and the
    /// same iterators left behind; `None` leaves it to the caller (`iter.rs`).
    fn drain_fused(&mut self, _it: &IterRef) -> Option<Result<Vec<Value>, VmError>> {
        None
    }
    /// [`Host::fold`] over the elements `it` yields, from and into `acc`, on the same
    /// terms as [`Host::call_each_pulled`].
    fn fold_pulled(
        &mut self,
        _f: &Value,
        _acc: &mut Value,
        _it: &IterRef,
    ) -> Option<Result<(), VmError>> {
        None
    }
    /// Appends to the program's output buffer (`log`, `print`, `println`).
    fn write_out(&mut self, text: &str) -> Result<(), VmError>;
    /// Charges fuel for work proportional to caller-sized input (one unit per element).
    fn charge(&mut self, units: u64) -> Result<(), VmError>;
    /// Adds text that was already counted and capped where it was printed (a generator's
    /// output) to the program's output.
    fn append_output(&mut self, text: &str) -> Result<(), VmError> {
        self.write_out(text)
    }
    /// The run's single-value caps `(max_string_bytes, max_collection_len)`, so a
    /// builtin can refuse an oversized result before building it.
    fn value_caps(&self) -> (Option<usize>, Option<usize>) {
        (None, None)
    }
    /// Whether the styling builtins emit ANSI escapes (`set_color_mode`).
    fn color_enabled(&self) -> bool {
        false
    }
    /// Turns ANSI styling on or off for the rest of the run.
    fn set_color_enabled(&mut self, _on: bool) {}
}

/// [`Host::call_each`] one [`Host::call`] at a time.
pub fn call_each_in_turn<H: Host + ?Sized>(
    host: &mut H,
    f: &Value,
    items: &[Value],
    each: &mut dyn FnMut(usize, &mut Value) -> Result<bool, VmError>,
) -> Result<(), VmError> {
    for (i, item) in items.iter().enumerate() {
        host.charge(1)?;
        let mut v = host.call(f, std::slice::from_ref(item))?;
        if !each(i, &mut v)? {
            break;
        }
    }
    Ok(())
}

/// [`Host::fold`] one [`Host::call`] at a time.
pub fn fold_in_turn<H: Host + ?Sized>(
    host: &mut H,
    f: &Value,
    init: Value,
    items: &[Value],
) -> Result<Value, VmError> {
    let mut acc = init;
    for item in items {
        host.charge(1)?;
        acc = host.call(f, &[acc, item.clone()])?;
    }
    Ok(acc)
}

/// Largest string (in bytes) or collection (in elements) a builtin builds in one step
/// when the run sets no smaller cap.
pub const MAX_BUILD: usize = 256 * 1024 * 1024;

/// The error for a value past [`MAX_BUILD`]: a memory limit like every size cap
/// (`code-mode.md` 4.8), so it is refused before allocating and cannot be caught.
pub fn too_large(what: &str, n: u128) -> VmError {
    VmError::limit(crate::error::Limit::Memory(format!(
        "the largest value size ({MAX_BUILD}): {what} of {n}"
    )))
}

/// Charges one unit of fuel per element.
pub fn charge(host: &mut dyn Host, n: usize) -> Result<(), VmError> {
    host.charge(u64::try_from(n).unwrap_or(u64::MAX))
}

/// Refuses, before allocating, a string or bytes result of `n` bytes: past the run's
/// `max_string_bytes` it is that limit's error, past [`MAX_BUILD`] [`too_large`].
pub fn check_size(host: &dyn Host, n: usize, what: &str) -> Result<(), VmError> {
    check_against(host.value_caps().0, "max_string_bytes", n, what)
}

/// [`check_size`] for a collection of `n` elements (`max_collection_len`).
pub fn check_len(host: &dyn Host, n: usize, what: &str) -> Result<(), VmError> {
    check_against(host.value_caps().1, "max_collection_len", n, what)
}

fn check_against(cap: Option<usize>, name: &str, n: usize, what: &str) -> Result<(), VmError> {
    if let Some(max) = cap
        && n > max
    {
        return Err(VmError::limit(crate::error::Limit::Memory(format!(
            "{name}={max}"
        ))));
    }
    if n > MAX_BUILD {
        return Err(too_large(what, n as u128));
    }
    Ok(())
}

/// A synchronous builtin.
pub type NativeFn = fn(&mut dyn Host, &[Value]) -> Result<Value, VmError>;

/// A pure builtin of one argument (`sqrt`, `floor`, `sin`): its result depends on the
/// first argument alone (a missing one reads as nil, later ones are ignored), it has no
/// side effects, and what it returns is a number, a bool or nil. So the VM calls it on
/// the argument where it lies, and the loop fast lane calls it in place, leaving an
/// error to the general loop, which calls it again and reports it.
pub type NumberFn = fn(&Value) -> Result<Value, VmError>;

/// The future an asynchronous builtin returns. It owns its inputs and cannot touch the
/// VM; the VM is suspended until it completes.
pub type NativeFuture = Pin<Box<dyn Future<Output = Result<Value, VmError>>>>;

/// An asynchronous builtin: validates its arguments synchronously, then returns the
/// future that does the waiting.
pub type AsyncNativeFn = fn(&[Value]) -> Result<NativeFuture, VmError>;

/// Runs Harn callables for an asynchronous builtin, each in a VM forked from the caller,
/// their output joining the caller's when the builtin settles. The interpreter
/// implements it; builtins see only this trait, so this module does not reach up into
/// the interpreter.
pub trait CallbackRunner {
    /// Calls `f` with `args`; the future settles with its value or error.
    fn call(&self, f: Value, args: Vec<Value>) -> NativeFuture;
}

/// An asynchronous builtin that runs Harn callbacks (`composition_execute` with a
/// dispatcher closure): it gets a runner for the calling VM.
pub type VmNativeFn =
    fn(std::rc::Rc<dyn CallbackRunner>, &[Value]) -> Result<NativeFuture, VmError>;
