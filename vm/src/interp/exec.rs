//! The instruction loop.

use std::rc::Rc;
use std::time::Instant;

use harn_compiler::bytecode::{CaptureFrom, Cmp, Op};
use harn_compiler::suggest::suggest;

use super::items::{append_parts, join_parts, rewrite_parts, slice_item, store_nested, take_item};
use super::{Stop, Vm};
use crate::access;
use crate::error::{ErrorKind, Limit, VmError};
use crate::function::Closure;
use crate::ops;
use crate::value::{Dict, EnumValue, RangeValue, StructValue, Value};

/// Fuel and deadline are checked every this many backward jumps or calls (each counts
/// as one unit of fuel).
const CHECK_EVERY: u32 = 1000;

/// Ticks left before the next fuel, deadline and memory check.
pub(crate) struct Budget(u32);

impl Budget {
    pub(crate) fn new() -> Budget {
        Budget(CHECK_EVERY)
    }
}

fn undefined_builtin(name: &str) -> VmError {
    VmError::new(ErrorKind::UndefinedBuiltin(name.to_string()))
}

/// Stores an int without running the old value's destructor when it is an int too.
/// The other cases are inline too: in calls and returns the slot often held something
/// else (a register last used by another frame), and a call here cost more than the
/// extra code. The fast lane, where the slot is nearly always an int, keeps them out of
/// line (`hot::store_int`).
#[inline(always)]
pub(super) fn set_int(slot: &mut Value, n: i64) {
    if let Value::Int(x) = slot {
        *x = n;
        return;
    }
    if is_scalar(slot) {
        std::mem::forget(std::mem::replace(slot, Value::Int(n)));
    } else {
        drop_owned(std::mem::replace(slot, Value::Int(n)));
    }
}

/// The slow half of `hot::store_int`: the slot held something else. `n` arrives in a
/// register and is written with its tag straight into the slot (no temporary, see
/// [`put`]).
#[cold]
#[inline(never)]
pub(super) fn replace_with_int(slot: &mut Value, n: i64) {
    *slot = Value::Int(n);
}

/// Stores `v` in `slot`, skipping the destructor call when the old value owns nothing.
///
/// `v` is written before anything is called, and the old value dropped after: were `v`
/// kept across a call, the compiler would build it in a stack temporary (tag and payload
/// as two stores) and copy it with one 16-byte load, which the CPU cannot forward from
/// two smaller stores: a stall on every store. An int goes through [`set_int`], from its
/// payload, for the same reason when `v` already sits in memory.
#[inline(always)]
pub(super) fn put(slot: &mut Value, v: Value) {
    if let Value::Int(n) = v {
        set_int(slot, n);
        // `v` is an int: forgetting it is what dropping it would do, minus the drop call
        // the compiler otherwise leaves here.
        std::mem::forget(v);
        return;
    }
    if is_scalar(slot) {
        // Scalars own nothing: overwriting the old value is free and skips drop glue.
        store_words(slot, v);
    } else {
        // SAFETY: the old value is moved out and the slot overwritten before anything
        // else can see it, so it is dropped exactly once.
        let old = unsafe { std::ptr::read(slot) };
        store_words(slot, v);
        drop_owned(old);
    }
}

/// Writes `v` over `slot` (whose old value the caller has dealt with) as two 8-byte
/// stores, tag then payload. Left to itself the compiler spills `v`'s two halves to a
/// stack temporary and copies that with one 16-byte load, which cannot be forwarded
/// from the two stores just made: a stall on every such store (the `Move` of a closure
/// into a call's window). Volatile, so the two stores are not merged back into that.
#[inline(always)]
fn store_words(slot: &mut Value, v: Value) {
    let v = std::mem::ManuallyDrop::new(v);
    let from = std::ptr::from_ref::<Value>(&v).cast::<std::mem::MaybeUninit<u64>>();
    let to = std::ptr::from_mut::<Value>(slot).cast::<std::mem::MaybeUninit<u64>>();
    // SAFETY: `Value` is 16 bytes of two 8-byte words (`repr(u64)`: tag, payload), both
    // pointers are to live values, and `v`'s ownership moves into `slot` (it is not
    // dropped: `ManuallyDrop`).
    unsafe {
        let (tag, payload) = (from.read(), from.add(1).read());
        to.write_volatile(tag);
        to.add(1).write_volatile(payload);
    }
}

/// The slow half of [`put`]: the old value owns memory and must be dropped. Kept out of
/// line so the instruction loops do not save registers around the destructor call.
#[cold]
#[inline(never)]
fn drop_owned(old: Value) {
    drop(old);
}

/// Whether `v` owns nothing, so overwriting it needs no destructor.
#[inline(always)]
pub(super) fn is_scalar(v: &Value) -> bool {
    matches!(
        v,
        Value::Nil | Value::Bool(_) | Value::Int(_) | Value::Float(_) | Value::Duration(_)
    )
}

/// Moves the value of register `from` into `to` (leaving nil behind), an int by its
/// payload so that no 16-byte copy of a value stored a moment ago is made (see `take`).
/// An int is copied rather than moved: it owns nothing, and the register it stays in
/// (a callee's, on return) is usually written with an int again by the next call,
/// which then takes `set_int`'s quick path.
#[inline(always)]
fn move_slot(stack: &mut super::Stack, from: super::Reg, to: super::Reg) {
    if let Value::Int(n) = stack[from] {
        set_int(&mut stack[to], n);
        return;
    }
    let v = std::mem::replace(&mut stack[from], Value::Nil);
    put(&mut stack[to], v);
}

/// Moves the value out of `slot`, leaving nil. Scalars are read field by field: a
/// register written a moment ago (tag and payload as separate stores) and then read
/// back as one 16-byte value stalls the CPU until the stores retire.
#[inline(always)]
pub(super) fn take(slot: &mut Value) -> Value {
    match *slot {
        Value::Int(n) => {
            *slot = Value::Nil;
            Value::Int(n)
        }
        Value::Bool(b) => {
            *slot = Value::Nil;
            Value::Bool(b)
        }
        _ => std::mem::replace(slot, Value::Nil),
    }
}

/// Clones a value, with the scalar cases inline.
///
/// Any other value is one `Rc` handle (or a builtin's id), whose clone is a count
/// increment and a copy of the same bits (the test `value::tests::clone_is_a_bit_copy`). The
/// out-of-line clone writes its result to a stack temporary, tag and payload as two
/// stores; reading that back as one 16-byte value stalls until the stores retire (see
/// `take`). So the clone only pays the count, and the value is read from `v` itself,
/// which was stored long before.
#[inline(always)]
pub(super) fn copy_of(v: &Value) -> Value {
    if !is_scalar(v) {
        std::mem::forget(v.clone());
    }
    // SAFETY: the count this copy owns was just taken (a scalar owns nothing).
    unsafe { copy_words(v) }
}

/// [`copy_of`] with the count raised out of line, for the loop fast lane, whose
/// registers would otherwise be saved around the clone on every instruction.
#[inline(always)]
pub(super) fn copy_of_lean(v: &Value) -> Value {
    if !is_scalar(v) {
        retain(v);
    }
    // SAFETY: as in `copy_of`.
    unsafe { copy_words(v) }
}

/// Counts one more reference to the value `v` holds (its clone, forgotten).
#[inline(never)]
fn retain(v: &Value) {
    std::mem::forget(v.clone());
}

/// The value `v` holds, read as its two words: one comparison in the callers, not a
/// branch per kind, so the scalars that field and element reads mostly find and the
/// handles are copied alike.
///
/// # Safety
///
/// The copy must own what it holds: `v` is a scalar, or the caller has just counted
/// one more reference to its handle (a clone of any value is a bit copy of it, see
/// [`copy_of`]).
#[inline(always)]
unsafe fn copy_words(v: &Value) -> Value {
    let from = std::ptr::from_ref::<Value>(v).cast::<std::mem::MaybeUninit<u64>>();
    // SAFETY: `Value` is two 8-byte words (`repr(u64)`: tag, payload), and the words of
    // a valid value make a valid value. Read one by one (volatile, so they are not
    // merged into one 16-byte load, which would stall on a register written a moment
    // ago as two stores).
    unsafe {
        let words = [from.read_volatile(), from.add(1).read_volatile()];
        std::mem::transmute::<[std::mem::MaybeUninit<u64>; 2], Value>(words)
    }
}

/// The running frame's closure, borrowed apart from the VM, so that the instruction
/// loop reads the function's code and constants while it calls `&mut self` methods,
/// without a count of its own: holding a clone cost two count updates on every call
/// and every return between two functions.
///
/// # Safety
///
/// The frame that holds `c` must keep it, and stay on the frame stack, for as long as
/// the reference is used. The loop takes it from the running frame and takes it again
/// (`enter_top_frame`) wherever it pops or replaces that frame, before it reads the
/// code again; anything the frame runs meanwhile (a callback, a builtin) pushes and
/// pops frames above it only.
#[inline(always)]
unsafe fn running<'x>(c: &Rc<Closure>) -> &'x Closure {
    // SAFETY: the caller's contract keeps the closure alive while the reference is used.
    unsafe { &*Rc::as_ptr(c) }
}

/// A counted handle of the closure [`running`] lent (the running function calling
/// itself, taking itself as a value, starting a generator).
///
/// # Safety
///
/// `c` came from [`running`] and its contract still holds.
#[inline(always)]
unsafe fn counted(c: &Closure) -> Rc<Closure> {
    let ptr = std::ptr::from_ref(c);
    // SAFETY: `ptr` is an `Rc`'s pointer (`running` took it from one) and that `Rc` is
    // alive, so one more count and a handle owning it are sound.
    unsafe {
        Rc::increment_strong_count(ptr);
        Rc::from_raw(ptr)
    }
}

fn str_of(v: &Value) -> &str {
    v.as_str().unwrap_or("")
}

impl Vm {
    /// Runs until the frame at depth `floor` returns (then yields its value) or an
    /// asynchronous builtin suspends the program.
    pub(crate) fn execute(&mut self, floor: usize) -> Result<Stop, VmError> {
        let mut budget = Budget::new();
        let stop = self.execute_with(floor, &mut budget);
        self.settle(budget);
        stop
    }

    /// [`Self::execute`] on a budget the caller settles: a builtin calling a closure
    /// once per item keeps one budget for all the calls.
    pub(crate) fn execute_with(
        &mut self,
        floor: usize,
        budget: &mut Budget,
    ) -> Result<Stop, VmError> {
        loop {
            match self.run_frames(floor, &mut budget.0) {
                Ok(stop) => return Ok(stop),
                Err(err) => {
                    let line = self.current_line();
                    let err = err.at_line(line);
                    self.unwind(err, floor)?;
                }
            }
        }
    }

    /// Charges the fuel a budget spent since its last check.
    pub(crate) fn settle(&mut self, budget: Budget) {
        let used = self
            .fuel_used
            .get()
            .saturating_add(u64::from(CHECK_EVERY - budget.0));
        self.fuel_used.set(used);
        self.settle_walk();
    }

    fn current_line(&self) -> u32 {
        self.frames.last().map_or(0, |f| {
            let pc = f.pc.saturating_sub(1);
            f.closure.function.proto.lines.get(pc).copied().unwrap_or(0)
        })
    }

    #[inline(always)]
    fn tick(&mut self, budget: &mut u32) -> Result<(), VmError> {
        *budget -= 1;
        if *budget > 0 {
            return Ok(());
        }
        self.refuel(budget)
    }

    /// Every [`CHECK_EVERY`] ticks: fuel, deadline and memory.
    #[cold]
    #[inline(never)]
    fn refuel(&mut self, budget: &mut u32) -> Result<(), VmError> {
        *budget = CHECK_EVERY;
        let used = self.fuel_used.get().saturating_add(u64::from(CHECK_EVERY));
        self.fuel_used.set(used);
        let used = self.settle_walk();
        if let Some(max) = self.limits.max_instructions
            && used > max
        {
            return Err(VmError::limit(Limit::Instructions(max)));
        }
        if let Some((at, ms)) = self.limits.deadline
            && Instant::now() >= at
        {
            return Err(VmError::limit(Limit::Timeout(ms)));
        }
        self.check_memory()
    }

    /// Element `i` of the sequence a `for` loop holds in stack slot `slot`, or `None`
    /// at its end; `dst` is the loop variable's slot, which a dict entry is written
    /// into directly (see [`crate::iter::next_dict_entry_into`]) and `Some(None)` says so.
    fn for_element(
        &mut self,
        slot: usize,
        i: i64,
        dst: usize,
    ) -> Result<Option<Option<Value>>, VmError> {
        // Read in place; only an iterator, which runs code that needs the VM, is held
        // by a clone of its handle.
        let it = match self.stack.get(slot) {
            Some(Value::List(items)) => {
                return Ok(usize::try_from(i)
                    .ok()
                    .and_then(|i| items.get(i).map(copy_of))
                    .map(Some));
            }
            Some(Value::Range(r)) => return Ok(r.get(i).map(|n| Some(Value::Int(n)))),
            Some(Value::Iter(it)) => it.clone(),
            _ => return Ok(None),
        };
        if let Some(target) = self.stack.get_mut(dst) {
            match crate::iter::next_dict_entry_into(&it, target) {
                Some(true) => return Ok(Some(None)),
                Some(false) => return Ok(None),
                None => {}
            }
        }
        Ok(crate::iter::next(&it, self)?.map(Some))
    }

    /// Starts the running frame over for a tail call to a plain function given every
    /// argument (`TailCall`'s quick path, `TailSelf`): the frame's handlers go, and the
    /// `nargs` arguments after `at` move into the parameter registers from `base` on,
    /// in order. The caller sets `pc` (and the closure, for another function).
    #[inline(always)]
    fn restart_frame(
        &mut self,
        base: usize,
        at: usize,
        nargs: usize,
    ) -> Result<&mut super::Frame, VmError> {
        let depth = self.frames.len().saturating_sub(1);
        while self.handlers.last().is_some_and(|h| h.frame >= depth) {
            self.handlers.pop();
        }
        for i in 0..nargs {
            // SAFETY: `at + 1 + i` is an argument register the call names, so inside
            // this frame's window, and `base + i` lies below it (`base <= at`).
            let (from, to) = unsafe { (super::Reg::new(at + 1 + i), super::Reg::new(base + i)) };
            move_slot(&mut self.stack, from, to);
        }
        let Some(frame) = self.frames.last_mut() else {
            return Err(VmError::runtime("tail call without a frame"));
        };
        frame.nargs = nargs;
        frame.pc = 0;
        Ok(frame)
    }

    #[allow(clippy::too_many_lines)]
    fn run_frames(&mut self, floor: usize, budget: &mut u32) -> Result<Stop, VmError> {
        'frames: loop {
            let Some(frame) = self.frames.last() else {
                return Ok(Stop::Returned(Value::Nil));
            };
            // SAFETY: `frame` is the running frame, which keeps its closure until the loop
            // pops or replaces it; every such place re-borrows (`enter_top_frame`) or
            // leaves the loop before reading the code again (see `running`).
            let mut closure = unsafe { running(&frame.closure) };
            let mut func = &closure.function;
            let mut code = &func.code[..];
            let mut base = frame.base;
            let mut pc = frame.pc;
            // The one check that `reg!` relies on (see `stack.rs`): frames entered
            // without coming back here (`CallSelf`, a return into the same closure) were
            // sized by `push_frame` the same way.
            if self.stack.len() < base + func.window {
                return Err(VmError::runtime("a frame's registers are not on the stack"));
            }
            // Switches to the top frame without leaving the instruction loop: what the
            // top of `'frames` does, for the calls and returns between two closures
            // (a function called in a loop), which otherwise paid for the jump back
            // there and the reload of everything the loop keeps.
            macro_rules! enter_top_frame {
                () => {
                    let Some(frame) = self.frames.last() else {
                        continue 'frames;
                    };
                    base = frame.base;
                    pc = frame.pc;
                    // SAFETY: as above, for the frame now on top.
                    closure = unsafe { running(&frame.closure) };
                    func = &closure.function;
                    code = &func.code[..];
                    if self.stack.len() < base + func.window {
                        return Err(VmError::runtime("a frame's registers are not on the stack"));
                    }
                };
            }
            // Enters the frame `push_frame` has just pushed for the closure at `$ptr`,
            // whose window starts at `$base`: `enter_top_frame` without reading back
            // what the call already knows, nor checking the window `push_frame` sized.
            macro_rules! enter_pushed_frame {
                ($ptr:expr, $base:expr) => {
                    base = $base;
                    pc = 0;
                    // SAFETY: `push_frame` moved the closure's `Rc` into the new top
                    // frame, which keeps it alive until the frame is popped or replaced
                    // (the contract of `running`).
                    closure = unsafe { &*$ptr };
                    func = &closure.function;
                    code = &func.code[..];
                };
            }
            // The general path of a tail call (`TailCall`, or `TailSelf` once it has put
            // the running closure at the call's base): a closure that is not plain
            // replaces the frame through `push_frame`; a builtin or anything else is an
            // ordinary call whose result the frame then returns.
            macro_rules! tail_call_general {
                ($at:expr, $nargs:expr, $global:expr) => {{
                    let at: usize = $at;
                    let nargs: u16 = $nargs;
                    let global: Option<u16> = $global;
                    if let Some(slot) = global {
                        match self.get_global(slot) {
                            Some(v) => self.stack[at] = v.clone(),
                            None => {
                                let name = self.global_name(slot).to_string();
                                let Some(id) = self.registry.lookup(&name, self.profile) else {
                                    return Err(undefined_builtin(&name));
                                };
                                self.stack[at] = Value::Builtin(id);
                            }
                        }
                    }
                    if let Value::Closure(c) = &self.stack[at] {
                        let c = c.clone();
                        // Replace the current frame: move callee and arguments down to
                        // the frame's own return slot.
                        let Some(frame) = self.frames.pop() else {
                            return Err(VmError::runtime("tail call without a frame"));
                        };
                        let depth = self.frames.len();
                        while self.handlers.last().is_some_and(|h| h.frame >= depth) {
                            self.handlers.pop();
                        }
                        let dst = frame.ret;
                        for i in 0..=nargs as usize {
                            let v = std::mem::replace(&mut self.stack[at + i], Value::Nil);
                            self.stack[dst + i] = v;
                        }
                        self.push_frame(c, dst + 1, nargs as usize, dst, frame.stop_here)?;
                        enter_top_frame!();
                        continue;
                    }
                    // Builtins and non-callables: an ordinary call, then return.
                    if let Some(stop) = self.call_slot(at, nargs as usize)? {
                        return Ok(stop);
                    }
                    let value = std::mem::replace(&mut self.stack[at], Value::Nil);
                    let Some(frame) = self.frames.pop() else {
                        return Ok(Stop::Returned(value));
                    };
                    let depth = self.frames.len();
                    while self.handlers.last().is_some_and(|h| h.frame >= depth) {
                        self.handlers.pop();
                    }
                    if let Some(slot) = self.stack.get_mut(frame.ret) {
                        *slot = value.clone();
                    }
                    if frame.stop_here || depth <= floor {
                        return Ok(Stop::Returned(value));
                    }
                    continue 'frames;
                }};
            }
            macro_rules! reg {
                ($r:expr) => {
                    // SAFETY: `$r` is a register the running frame's code names, so below
                    // `func.window` (Proto::register_window), and the stack holds
                    // `base + window` slots (checked above or by push_frame; it never
                    // shrinks under a live frame).
                    self.stack[unsafe { super::Reg::new(base + $r as usize) }]
                };
            }
            // After a loop's back edge, or a counted loop's set-up: run what follows in the
            // fast lane (`hot.rs`).
            macro_rules! fast_lane {
                () => {
                    // SAFETY: `code` and `base` are the running frame's, whose window is on
                    // the stack (the same contract as `reg!`); the function's code is
                    // closed (`load::closed_code`) and `pc` is inside it (checked here).
                    if func.lane_entry.get(pc).copied().unwrap_or(false) {
                        let cap = self.limits.max_collection_len;
                        pc = unsafe {
                            super::hot::run(&mut self.stack, func, cap, base, pc, budget)
                        };
                    }
                };
            }
            macro_rules! save_pc {
                () => {
                    if let Some(f) = self.frames.last_mut() {
                        f.pc = pc;
                    }
                };
            }
            // One unit of fuel for a loop's back edge. The position is saved only when
            // the budget runs out and the limits are checked, the one way the edge can
            // fail: every instruction that can fail saves it itself, so a back edge that
            // saved it on every iteration only stored it again for nothing.
            macro_rules! back_edge_tick {
                () => {
                    *budget -= 1;
                    if *budget == 0 {
                        save_pc!();
                        self.refuel(budget)?;
                    }
                };
            }
            // Whether a comparison holds: numbers inline, anything else (which may fail,
            // so the error's line is saved first) through `ops::holds`.
            macro_rules! holds {
                ($cmp:expr, $a:expr, $b:expr) => {
                    match ops::holds_num($cmp, $a, $b) {
                        Some(holds) => holds,
                        None => {
                            save_pc!();
                            ops::holds($cmp, $a, $b)?
                        }
                    }
                };
            }
            // The same with an int immediate for `b` (`CmpInt`, `JumpIfNotImm`).
            macro_rules! holds_imm {
                ($cmp:expr, $a:expr, $imm:expr) => {{
                    let imm = i64::from($imm);
                    match ops::holds_int($cmp, &reg!($a), imm) {
                        Some(holds) => holds,
                        None => {
                            save_pc!();
                            ops::holds($cmp, &reg!($a), &Value::Int(imm))?
                        }
                    }
                }};
            }
            loop {
                // SAFETY: every function's code is closed and ends in an `Unreachable`
                // (`load::closed_code`), so every position execution reaches is inside
                // it: 0, a jump's target, the next position after an instruction that
                // falls through, one after a call (saved in its frame), or the lane's
                // stopping point.
                let op = unsafe { code.get_unchecked(pc) };
                pc += 1;
                match *op {
                    Op::Nop => {}
                    Op::LoadNil { dst } => put(&mut reg!(dst), Value::Nil),
                    Op::ClearRegs { start, count } => {
                        for r in start..start.saturating_add(count) {
                            put(&mut reg!(r), Value::Nil);
                        }
                    }
                    Op::LoadBool { dst, value } => put(&mut reg!(dst), Value::Bool(value)),
                    Op::LoadInt { dst, value } => set_int(&mut reg!(dst), i64::from(value)),
                    Op::LoadConst { dst, k } => put(
                        &mut reg!(dst),
                        func.consts.get(k as usize).map(copy_of).unwrap_or_default(),
                    ),
                    Op::LoadBuiltin { dst, k, msg_k } => {
                        match func.builtin_ids.get(k as usize).copied().flatten() {
                            Some(id) => {
                                let v = Value::Builtin(id);
                                put(&mut reg!(dst), v)
                            }
                            None => {
                                save_pc!();
                                // A manifest binding used as a value (code-mode.md 4.5).
                                let name = str_of(&func.consts[k as usize]).to_string();
                                if let Some(v) = self.binding_value(&name) {
                                    put(&mut reg!(dst), v);
                                    continue;
                                }
                                let msg = str_of(&func.consts[msg_k as usize]).to_string();
                                return Err(VmError::new(ErrorKind::UndefinedVariable(msg)));
                            }
                        }
                    }
                    Op::Move { dst, src } => {
                        let v = copy_of(&reg!(src));
                        put(&mut reg!(dst), v);
                    }
                    Op::Len { dst, src } => {
                        let n = match &reg!(src) {
                            Value::List(items) => items.len() as i64,
                            other => {
                                save_pc!();
                                crate::builtins::core::len_of(other)?
                            }
                        };
                        set_int(&mut reg!(dst), n);
                    }
                    Op::Take { dst, src } => {
                        // SAFETY: as for `reg!`: both are registers of the running frame.
                        let (from, to) = unsafe {
                            (
                                super::Reg::new(base + src as usize),
                                super::Reg::new(base + dst as usize),
                            )
                        };
                        // By payload for an int: after a call the source was just written
                        // field by field (see `move_slot`).
                        move_slot(&mut self.stack, from, to);
                    }
                    Op::GetGlobal { dst, slot } => match self.get_global(slot) {
                        Some(v) => {
                            let v = v.clone();
                            put(&mut reg!(dst), v)
                        }
                        None => {
                            save_pc!();
                            return Err(VmError::new(ErrorKind::UndefinedVariable(
                                self.global_name(slot).to_string(),
                            )));
                        }
                    },
                    Op::SetGlobal { slot, src } => {
                        let v = reg!(src).clone();
                        self.define_global(slot, v, true);
                    }
                    Op::AssignGlobal { slot, src } => {
                        let v = reg!(src).clone();
                        save_pc!();
                        self.assign_global(slot, v)?;
                    }
                    Op::DefineGlobal { slot, src, mutable } => {
                        let v = reg!(src).clone();
                        self.define_global(slot, v, mutable);
                    }
                    Op::MakeClosure { dst, proto } => {
                        let Some(child) = func.children.get(proto as usize).cloned() else {
                            return Err(VmError::runtime("bad closure prototype"));
                        };
                        let captures: Box<[Value]> = child
                            .proto
                            .captures
                            .iter()
                            .map(|c| match c.from {
                                CaptureFrom::Register(r) => reg!(r).clone(),
                                CaptureFrom::Global(g) => {
                                    self.get_global(g).cloned().unwrap_or_default()
                                }
                            })
                            .collect();
                        reg!(dst) = Value::Closure(Rc::new(Closure {
                            function: child,
                            captures,
                        }));
                    }
                    Op::LoadSelf { dst } => {
                        // SAFETY: `closure` is the running frame's (see `running`).
                        let v = Value::Closure(unsafe { counted(closure) });
                        put(&mut reg!(dst), v)
                    }
                    Op::Add { dst, a, b } => {
                        if let (Value::Int(x), Value::Int(y)) = (&reg!(a), &reg!(b)) {
                            let n = x.wrapping_add(*y);
                            set_int(&mut reg!(dst), n);
                            continue;
                        }
                        if let Some((x, y)) = ops::float_pair(&reg!(a), &reg!(b)) {
                            put(&mut reg!(dst), Value::Float(x + y));
                            continue;
                        }
                        save_pc!();
                        if !ops::adds(&reg!(a), &reg!(b)) {
                            // The type error, with the operands left as they were (a
                            // `catch` may still read them).
                            return Err(ops::add(reg!(a).clone(), &reg!(b))
                                .err()
                                .unwrap_or_else(|| VmError::runtime("add: operands changed")));
                        }
                        // `s = s + t` takes `s` out of its register, so a string or list
                        // that nothing else holds grows in place instead of being copied.
                        let lhs = if dst == a && a != b {
                            std::mem::replace(&mut reg!(a), Value::Nil)
                        } else {
                            reg!(a).clone()
                        };
                        let v = ops::add(lhs, &reg!(b))?;
                        self.guard(&v)?;
                        put(&mut reg!(dst), v);
                    }
                    Op::AddInt { dst, a, imm } => match &reg!(a) {
                        Value::Int(x) => {
                            let n = x.wrapping_add(i64::from(imm));
                            set_int(&mut reg!(dst), n);
                        }
                        other => {
                            let v = ops::add(other.clone(), &Value::Int(i64::from(imm)));
                            match v {
                                Ok(v) => put(&mut reg!(dst), v),
                                Err(e) => {
                                    save_pc!();
                                    return Err(e);
                                }
                            }
                        }
                    },
                    Op::SubInt { dst, a, imm } => match &reg!(a) {
                        Value::Int(x) => {
                            let n = x.wrapping_sub(i64::from(imm));
                            set_int(&mut reg!(dst), n);
                        }
                        other => match ops::sub(other, &Value::Int(i64::from(imm))) {
                            Ok(v) => put(&mut reg!(dst), v),
                            Err(e) => {
                                save_pc!();
                                return Err(e);
                            }
                        },
                    },
                    Op::Sub { dst, a, b } => {
                        let v = match (&reg!(a), &reg!(b)) {
                            (Value::Int(x), Value::Int(y)) => {
                                let n = x.wrapping_sub(*y);
                                set_int(&mut reg!(dst), n);
                                continue;
                            }
                            (x, y) => match ops::float_pair(x, y) {
                                Some((x, y)) => Value::Float(x - y),
                                None => {
                                    save_pc!();
                                    ops::sub(x, y)?
                                }
                            },
                        };
                        put(&mut reg!(dst), v);
                    }
                    Op::Mul { dst, a, b } => {
                        if let (Value::Int(x), Value::Int(y)) = (&reg!(a), &reg!(b)) {
                            let n = x.wrapping_mul(*y);
                            set_int(&mut reg!(dst), n);
                            continue;
                        }
                        if let Some((x, y)) = ops::float_pair(&reg!(a), &reg!(b)) {
                            put(&mut reg!(dst), Value::Float(x * y));
                            continue;
                        }
                        save_pc!();
                        let v = ops::mul(&reg!(a), &reg!(b))?;
                        self.guard(&v)?;
                        put(&mut reg!(dst), v);
                    }
                    Op::MulInt { dst, a, imm } => {
                        if let Value::Int(x) = reg!(a) {
                            set_int(&mut reg!(dst), x.wrapping_mul(i64::from(imm)));
                            continue;
                        }
                        // Anything else as `Mul` does it, the constant on the right.
                        save_pc!();
                        let v = ops::mul(&reg!(a), &Value::Int(i64::from(imm)))?;
                        self.guard(&v)?;
                        put(&mut reg!(dst), v);
                    }
                    Op::Div { dst, a, b } => {
                        match (&reg!(a), &reg!(b)) {
                            (Value::Int(x), Value::Int(y)) if *y != 0 => {
                                let n = x.wrapping_div(*y);
                                set_int(&mut reg!(dst), n);
                                continue;
                            }
                            (x, y) => {
                                if let Some((x, y)) = ops::float_pair(x, y) {
                                    put(&mut reg!(dst), Value::Float(x / y));
                                    continue;
                                }
                            }
                        }
                        save_pc!();
                        let v = ops::div(&reg!(a), &reg!(b))?;
                        put(&mut reg!(dst), v);
                    }
                    Op::Mod { dst, a, b } => {
                        if let (Value::Int(x), Value::Int(y)) = (&reg!(a), &reg!(b))
                            && *y != 0
                        {
                            let n = ops::rem_int(*x, *y);
                            set_int(&mut reg!(dst), n);
                            continue;
                        }
                        save_pc!();
                        let v = ops::rem(&reg!(a), &reg!(b))?;
                        put(&mut reg!(dst), v);
                    }
                    Op::ModInt { dst, a, imm } => {
                        if let Value::Int(x) = reg!(a) {
                            set_int(&mut reg!(dst), ops::rem_int(x, i64::from(imm)));
                            continue;
                        }
                        save_pc!();
                        let v = ops::rem(&reg!(a), &Value::Int(i64::from(imm)))?;
                        put(&mut reg!(dst), v);
                    }
                    Op::CmpInt { dst, a, cmp, imm } => {
                        let holds = holds_imm!(cmp, a, imm);
                        put(&mut reg!(dst), Value::Bool(holds));
                    }
                    Op::Pow { dst, a, b } => {
                        save_pc!();
                        let v = ops::pow(&reg!(a), &reg!(b))?;
                        put(&mut reg!(dst), v);
                    }
                    Op::Neg { dst, src } => {
                        save_pc!();
                        let v = ops::neg(&reg!(src))?;
                        put(&mut reg!(dst), v);
                    }
                    Op::Not { dst, src } => {
                        let v = Value::Bool(!reg!(src).truthy());
                        put(&mut reg!(dst), v)
                    }
                    Op::ToBool { dst, src } => {
                        let v = Value::Bool(reg!(src).truthy());
                        put(&mut reg!(dst), v)
                    }
                    Op::Eq { dst, a, b } => {
                        let v = holds!(Cmp::Eq, &reg!(a), &reg!(b));
                        put(&mut reg!(dst), Value::Bool(v));
                    }
                    Op::Ne { dst, a, b } => {
                        let v = holds!(Cmp::Ne, &reg!(a), &reg!(b));
                        put(&mut reg!(dst), Value::Bool(v));
                    }
                    Op::Lt { dst, a, b } => {
                        let v = holds!(Cmp::Lt, &reg!(a), &reg!(b));
                        put(&mut reg!(dst), Value::Bool(v));
                    }
                    Op::Le { dst, a, b } => {
                        let v = holds!(Cmp::Le, &reg!(a), &reg!(b));
                        put(&mut reg!(dst), Value::Bool(v));
                    }
                    Op::Gt { dst, a, b } => {
                        let v = holds!(Cmp::Gt, &reg!(a), &reg!(b));
                        put(&mut reg!(dst), Value::Bool(v));
                    }
                    Op::Ge { dst, a, b } => {
                        let v = holds!(Cmp::Ge, &reg!(a), &reg!(b));
                        put(&mut reg!(dst), Value::Bool(v));
                    }
                    Op::In { dst, a, b } => {
                        save_pc!();
                        let v = ops::contains_op(&reg!(a), &reg!(b))?;
                        put(&mut reg!(dst), Value::Bool(v));
                    }
                    Op::Jump { offset } => {
                        if offset < 0 {
                            back_edge_tick!();
                            pc = (pc as i64 + i64::from(offset)) as usize;
                            fast_lane!();
                        } else {
                            pc = (pc as i64 + i64::from(offset)) as usize;
                        }
                    }
                    Op::JumpIfFalse { cond, offset } => {
                        if !reg!(cond).truthy() {
                            pc = (pc as i64 + i64::from(offset)) as usize;
                        }
                    }
                    Op::JumpIfTrue { cond, offset } => {
                        if reg!(cond).truthy() {
                            if offset < 0 {
                                back_edge_tick!();
                                pc = (pc as i64 + i64::from(offset)) as usize;
                                fast_lane!();
                            } else {
                                pc = (pc as i64 + i64::from(offset)) as usize;
                            }
                        }
                    }
                    Op::JumpIfNotNil { src, offset } => {
                        if !matches!(reg!(src), Value::Nil) {
                            pc = (pc as i64 + i64::from(offset)) as usize;
                        }
                    }
                    Op::JumpIfNotLt { a, b, offset } => {
                        if !holds!(Cmp::Lt, &reg!(a), &reg!(b)) {
                            pc = (pc as i64 + i64::from(offset)) as usize;
                        }
                    }
                    Op::JumpIfNotLtImm { a, imm, offset } => {
                        let lt = match &reg!(a) {
                            Value::Int(x) => *x < i64::from(imm),
                            x => ops::less(x, &Value::Int(i64::from(imm))),
                        };
                        if !lt {
                            pc = (pc as i64 + i64::from(offset)) as usize;
                        }
                    }
                    Op::JumpIfNot { cmp, a, b, offset } => {
                        if !holds!(cmp, &reg!(a), &reg!(b)) {
                            pc = (pc as i64 + i64::from(offset)) as usize;
                        }
                    }
                    Op::JumpIfNotImm {
                        cmp,
                        a,
                        imm,
                        offset,
                    } => {
                        if !holds_imm!(cmp, a, imm) {
                            pc = (pc as i64 + i64::from(offset)) as usize;
                        }
                    }
                    Op::JumpIfNotK { cmp, a, k, offset } => {
                        let nil = Value::Nil;
                        let c = func.consts.get(k as usize).unwrap_or(&nil);
                        if !holds!(cmp, &reg!(a), c) {
                            pc = (pc as i64 + i64::from(offset)) as usize;
                        }
                    }
                    Op::JumpIfArgGiven { index, offset } => {
                        let nargs = self.frames.last().map_or(0, |f| f.nargs);
                        if (index as usize) < nargs {
                            pc = (pc as i64 + i64::from(offset)) as usize;
                        }
                    }
                    Op::Call { base: b, nargs } => {
                        save_pc!();
                        self.tick(budget)?;
                        if let Some(stop) = self.call_slot(base + b as usize, nargs as usize)? {
                            return Ok(stop);
                        }
                        continue 'frames;
                    }
                    Op::GenStart { dst } => {
                        // SAFETY: `closure` is the running frame's (see `running`).
                        let me = unsafe { counted(closure) };
                        let g = self.start_generator(&me, base, pc + 1);
                        put(&mut reg!(dst), g);
                    }
                    Op::Yield { dst, src } => {
                        // `src` may be a local (`yield i`): copy, never move out.
                        let v = copy_of(&reg!(src));
                        put(&mut reg!(dst), Value::Nil);
                        save_pc!();
                        return Ok(Stop::Yielded(v));
                    }
                    Op::CallLocal {
                        base: b,
                        nargs,
                        k,
                        src,
                    } => {
                        save_pc!();
                        self.tick(budget)?;
                        let at = base + b as usize;
                        // A closure is entered here (as `CallGlobal` does), a builtin
                        // through `call_slot`, which reads it from the call's slot.
                        if src != b {
                            // Read where the local lives.
                            if let Value::Closure(c) = &reg!(src) {
                                let c = c.clone();
                                let entered = Rc::as_ptr(&c);
                                self.push_frame(c, at + 1, nargs as usize, at, false)?;
                                enter_pushed_frame!(entered, at + 1);
                                continue;
                            }
                            let callee = copy_of(&reg!(src));
                            put(&mut self.stack[at], callee);
                        } else if let Value::Closure(c) = &self.stack[at] {
                            // The slot holds a copy made for this call and is next
                            // written by the result, so the frame takes the closure out
                            // of it instead of counting one more reference (and the
                            // result then lands in an empty slot: no drop).
                            // SAFETY: the `Rc` is moved out of the slot and the slot
                            // overwritten with nil without dropping it, so the handle
                            // is owned once. Reading the 8-byte handle and writing the
                            // tag keeps clear of a 16-byte copy of the slot just
                            // stored (see `take`).
                            let c = unsafe { std::ptr::read(c) };
                            unsafe { std::ptr::write(&raw mut self.stack[at], Value::Nil) };
                            let entered = Rc::as_ptr(&c);
                            self.push_frame(c, at + 1, nargs as usize, at, false)?;
                            enter_pushed_frame!(entered, at + 1);
                            continue;
                        }
                        if !matches!(self.stack[at], Value::Builtin(_)) {
                            return Err(undefined_builtin(str_of(&func.consts[k as usize])));
                        }
                        if let Some(stop) = self.call_slot(at, nargs as usize)? {
                            return Ok(stop);
                        }
                        continue 'frames;
                    }
                    Op::CallSelf { base: b, nargs } => {
                        save_pc!();
                        self.tick(budget)?;
                        let at = base + b as usize;
                        // SAFETY: `closure` is the running frame's (see `running`).
                        let me = unsafe { counted(closure) };
                        self.push_frame(me, at + 1, nargs as usize, at, false)?;
                        // Same function: only the register window and pc change.
                        base = at + 1;
                        pc = 0;
                    }
                    Op::CallPipe { base: b } => {
                        save_pc!();
                        let at = base + b as usize;
                        if !matches!(self.stack[at], Value::Closure(_) | Value::Builtin(_)) {
                            return Err(VmError::type_error(format!(
                                "cannot pipe into {}",
                                self.stack[at].type_name()
                            )));
                        }
                        if let Some(stop) = self.call_slot(at, 1)? {
                            return Ok(stop);
                        }
                        continue 'frames;
                    }
                    Op::CallGlobal {
                        base: b,
                        nargs,
                        slot,
                    } => {
                        save_pc!();
                        self.tick(budget)?;
                        let at = base + b as usize;
                        if let Some(v) = self.get_global(slot) {
                            // A closure is entered straight from the global, as `CallSelf`
                            // does: nothing reads the callee's slot, only its result
                            // goes there.
                            if let Value::Closure(c) = v {
                                let c = c.clone();
                                let entered = Rc::as_ptr(&c);
                                self.push_frame(c, at + 1, nargs as usize, at, false)?;
                                enter_pushed_frame!(entered, at + 1);
                                continue;
                            }
                            let v = v.clone();
                            put(&mut self.stack[at], v);
                            if let Some(stop) = self.call_slot(at, nargs as usize)? {
                                return Ok(stop);
                            }
                            continue 'frames;
                        }
                        let name = self.global_name(slot).to_string();
                        match self.registry.lookup(&name, self.profile) {
                            Some(id) => {
                                if let Some(stop) = self.call_builtin(id, at, nargs as usize)? {
                                    return Ok(stop);
                                }
                                continue 'frames;
                            }
                            None => match self.binding_call(&name, at, nargs as usize) {
                                Some(r) => {
                                    if let Some(stop) = r? {
                                        return Ok(stop);
                                    }
                                    continue 'frames;
                                }
                                None => return Err(undefined_builtin(&name)),
                            },
                        }
                    }
                    Op::CallBuiltin { base: b, nargs, k } => {
                        save_pc!();
                        let at = base + b as usize;
                        match func.builtin_ids.get(k as usize).copied().flatten() {
                            Some(id) => {
                                if let Some(stop) = self.call_builtin(id, at, nargs as usize)? {
                                    return Ok(stop);
                                }
                                // A builtin pushes no frame (its callbacks run to the end
                                // inside it), so this frame goes on where it was.
                                continue;
                            }
                            None => {
                                let name = str_of(&func.consts[k as usize]).to_string();
                                match self.binding_call(&name, at, nargs as usize) {
                                    Some(r) => {
                                        if let Some(stop) = r? {
                                            return Ok(stop);
                                        }
                                        continue 'frames;
                                    }
                                    None => {
                                        let candidates = func
                                            .proto
                                            .local_names
                                            .iter()
                                            .chain(self.global_names.iter())
                                            .map(harn_compiler::ast::Name::as_str);
                                        let text = match suggest(&name, candidates) {
                                            Some(s) => format!("{name} (did you mean `{s}`?)"),
                                            None => name,
                                        };
                                        return Err(undefined_builtin(&text));
                                    }
                                }
                            }
                        }
                    }
                    Op::CallMethod {
                        base: b,
                        nargs,
                        k,
                        optional,
                    } => {
                        save_pc!();
                        let at = base + b as usize;
                        // Borrowed from the frame's own closure, not from `self`.
                        let name = str_of(&func.consts[k as usize]);
                        if let Some(stop) =
                            self.call_method_at(at, nargs as usize, name, optional)?
                        {
                            return Ok(stop);
                        }
                        // A struct's method or a function stored in a dict pushes a
                        // frame; a builtin method does not, and this frame goes on.
                        enter_top_frame!();
                        continue;
                    }
                    Op::CallSpread {
                        base: b,
                        kind,
                        slot,
                        k,
                    } => {
                        save_pc!();
                        let at = base + b as usize;
                        let list = std::mem::replace(&mut self.stack[at + 1], Value::Nil);
                        let Value::List(items) = &list else {
                            return Err(VmError::type_error("spread argument must be a list"));
                        };
                        let nargs = items.len();
                        let len = self.stack.len().max(at + 2 + nargs);
                        self.stack.resize_with(len, || Value::Nil);
                        for (i, v) in items.iter().enumerate() {
                            self.stack[at + 1 + i] = v.clone();
                        }
                        let stop = match kind {
                            0 => self.call_slot(at, nargs)?,
                            1 => match self.get_global(slot) {
                                Some(v) => {
                                    self.stack[at] = v.clone();
                                    self.call_slot(at, nargs)?
                                }
                                None => {
                                    let name = self.global_name(slot).to_string();
                                    match self.registry.lookup(&name, self.profile) {
                                        Some(id) => self.call_builtin(id, at, nargs)?,
                                        None => return Err(undefined_builtin(&name)),
                                    }
                                }
                            },
                            2 => match func.builtin_ids.get(k as usize).copied().flatten() {
                                Some(id) => self.call_builtin(id, at, nargs)?,
                                None => {
                                    return Err(undefined_builtin(str_of(
                                        &func.consts[k as usize],
                                    )));
                                }
                            },
                            _ => {
                                let name = str_of(&func.consts[k as usize]).to_string();
                                self.call_method_at(at, nargs, &name, false)?
                            }
                        };
                        if let Some(stop) = stop {
                            return Ok(stop);
                        }
                        continue 'frames;
                    }
                    Op::TailCall {
                        base: b,
                        nargs,
                        global,
                    } => {
                        save_pc!();
                        self.tick(budget)?;
                        let at = base + b as usize;
                        // A plain function called in tail position with every argument
                        // given (the calls `push_frame` takes its quick path for) reuses
                        // the running frame: the arguments move into the parameter
                        // registers in order, the frame's handlers go, and `pc` starts
                        // over; the callee's closure replaces the frame's unless it is
                        // the running function itself (`return f(..)` inside `f`). A
                        // global callee is read where it is, not copied to its slot
                        // first: reading that copy back would wait on the store.
                        let target = match global {
                            Some(slot) => self.get_global(slot),
                            None => self.stack.get(at),
                        };
                        if let Some(Value::Closure(c)) = target
                            && c.function.plain
                            && nargs as usize >= c.function.nparams
                        {
                            let callee = (!std::ptr::eq(Rc::as_ptr(c), closure)).then(|| c.clone());
                            if let Some(c) = &callee
                                && self.stack.len() < base + c.function.window
                            {
                                self.stack
                                    .resize_with(base + c.function.window, || Value::Nil);
                            }
                            let frame = self.restart_frame(base, at, nargs as usize)?;
                            match callee {
                                None => pc = 0,
                                Some(c) => {
                                    frame.closure = c;
                                    enter_top_frame!();
                                }
                            }
                            continue;
                        }
                        tail_call_general!(at, nargs, global);
                    }
                    Op::TailSelf { base: b, nargs } => {
                        save_pc!();
                        self.tick(budget)?;
                        let at = base + b as usize;
                        // The running function calls itself: with every argument given
                        // to a plain function, the frame starts over as `TailCall`'s
                        // quick path does, and no callee is loaded at all.
                        if func.plain && nargs as usize >= func.nparams {
                            self.restart_frame(base, at, nargs as usize)?;
                            pc = 0;
                            continue;
                        }
                        // SAFETY: `closure` is the running frame's (see `running`).
                        let me = unsafe { counted(closure) };
                        put(&mut reg!(b), Value::Closure(me));
                        tail_call_general!(at, nargs, None);
                    }
                    Op::Return { src } => {
                        // The two fields needed, read one by one, and the frame dropped
                        // in place: copying the whole frame out reads its `pc`, stored
                        // a moment ago, as part of a 16-byte load (see `take`).
                        let Some((ret, stop_here)) =
                            self.frames.last().map(|f| (f.ret, f.stop_here))
                        else {
                            return Ok(Stop::Returned(take(&mut reg!(src))));
                        };
                        let depth = self.frames.len() - 1;
                        self.frames.truncate(depth);
                        while self.handlers.last().is_some_and(|h| h.frame >= depth) {
                            self.handlers.pop();
                        }
                        if stop_here || depth <= floor {
                            // An int (what `map`'s and `reduce`'s callbacks mostly
                            // return) goes by its payload both ways: through `take` and
                            // `copy_of` the compiler built it in a stack temporary and
                            // copied it whole (the stall `take` describes).
                            if let Value::Int(n) = reg!(src) {
                                put(&mut reg!(src), Value::Nil);
                                if let Some(slot) = self.stack.get_mut(ret) {
                                    set_int(slot, n);
                                }
                                return Ok(Stop::Returned(Value::Int(n)));
                            }
                            // And a bool (what `filter`'s callbacks return), the same way.
                            if let Value::Bool(b) = reg!(src) {
                                put(&mut reg!(src), Value::Nil);
                                if let Some(slot) = self.stack.get_mut(ret) {
                                    put(slot, Value::Bool(b));
                                }
                                return Ok(Stop::Returned(Value::Bool(b)));
                            }
                            let value = take(&mut reg!(src));
                            if let Some(slot) = self.stack.get_mut(ret) {
                                // `copy_of`, not `clone`: an int is copied by its payload.
                                put(slot, copy_of(&value));
                            }
                            return Ok(Stop::Returned(value));
                        }
                        // The callee's registers stay on the stack until the next call
                        // reuses them, so the value moves slot to slot.
                        if ret < self.stack.len() {
                            // SAFETY: `base + src` is a register of the frame just
                            // popped, whose window is still on the stack (it only
                            // shrinks under live frames); `ret` was checked above.
                            let (from, to) = unsafe {
                                (super::Reg::new(base + src as usize), super::Reg::new(ret))
                            };
                            move_slot(&mut self.stack, from, to);
                        }
                        let Some(caller) = self.frames.last() else {
                            continue 'frames;
                        };
                        base = caller.base;
                        pc = caller.pc;
                        // Back in a frame of the same closure (recursion): keep the
                        // loaded function and only switch the window and pc. Either way
                        // the window needs no check: it has been on the stack since the
                        // caller made this call, and the stack never shrinks under a
                        // live frame.
                        if !std::ptr::eq(Rc::as_ptr(&caller.closure), closure) {
                            // SAFETY: as in `enter_top_frame`, for the caller's frame.
                            closure = unsafe { running(&caller.closure) };
                            func = &closure.function;
                            code = &func.code[..];
                        }
                        continue;
                    }
                    Op::NewList { dst, start, count } => {
                        let items: Vec<Value> = (start..start + count)
                            .map(|r| std::mem::replace(&mut reg!(r), Value::Nil))
                            .collect();
                        put(&mut reg!(dst), Value::list(items));
                    }
                    Op::ListPush { list, src } => {
                        let v = reg!(src).clone();
                        if let Value::List(items) = &mut reg!(list) {
                            Rc::make_mut(items).push(v);
                        }
                    }
                    Op::ListExtend { list, src } => {
                        let v = reg!(src).clone();
                        match &v {
                            Value::List(more) => {
                                if let Value::List(items) = &mut reg!(list) {
                                    // The literal's first spread: the new list starts as the
                                    // spread one, shared until either changes. Consumed
                                    // (`acc = [...acc, x]`), its source is emptied next and
                                    // the pushes after it go in place.
                                    if items.is_empty() {
                                        *items = Rc::clone(more);
                                    } else {
                                        Rc::make_mut(items).extend(more.iter().cloned());
                                    }
                                }
                                save_pc!();
                                self.guard(&reg!(list))?;
                            }
                            other => {
                                save_pc!();
                                return Err(VmError::type_error(format!(
                                    "cannot destructure {} with [...] pattern — expected list",
                                    other.type_name()
                                )));
                            }
                        }
                    }
                    Op::NewDict { dst, cap } => {
                        let v = Value::dict(Dict::with_capacity(cap as usize));
                        put(&mut reg!(dst), v)
                    }
                    Op::DictInsert { dict, key, value } => {
                        save_pc!();
                        // The key is made once, from the string itself: a `String`
                        // made first would be copied again into the key.
                        let k = match &reg!(key) {
                            Value::Str(s) => crate::dict::Key::from(s.as_str()),
                            other => crate::dict::Key::from(crate::display::display(other)?),
                        };
                        let v = reg!(value).clone();
                        if let Value::Dict(d) = &mut reg!(dict) {
                            Rc::make_mut(d).insert(k, v);
                        }
                    }
                    Op::DictSpread { dict, src } => {
                        let v = reg!(src).clone();
                        match &v {
                            Value::Dict(more) => {
                                if let Value::Dict(d) = &mut reg!(dict) {
                                    // As `ListExtend`: a first spread shares its source.
                                    if d.is_empty() {
                                        *d = Rc::clone(more);
                                    } else {
                                        let d = Rc::make_mut(d);
                                        for (k, v) in more.iter() {
                                            d.insert(k.clone(), v.clone());
                                        }
                                    }
                                }
                            }
                            other => {
                                save_pc!();
                                return Err(VmError::type_error(format!(
                                    "cannot destructure {} with {{...}} pattern — expected dict",
                                    other.type_name()
                                )));
                            }
                        }
                    }
                    Op::Concat { dst, start, count } => {
                        save_pc!();
                        // A first part only its register holds is appended to in place.
                        let v = if count > 0
                            && matches!(&reg!(start), Value::Str(t) if Rc::strong_count(t) == 1)
                        {
                            append_parts(&mut self.stack, base, op)?
                        } else if (dst < start || dst >= start + count)
                            && matches!(&reg!(dst), Value::Str(t) if Rc::strong_count(t) == 1)
                        {
                            rewrite_parts(&mut self.stack, base, op)?
                        } else {
                            join_parts(&mut self.stack, base, op)?
                        };
                        self.guard(&v)?;
                        put(&mut reg!(dst), v);
                    }
                    Op::MakeRange {
                        dst,
                        start,
                        end,
                        inclusive,
                    } => {
                        let bound = |v: &Value| match v {
                            Value::Int(n) => Ok(*n),
                            other => Err(VmError::type_error(format!(
                                "range bound must be an int, got {}",
                                other.type_name()
                            ))),
                        };
                        save_pc!();
                        let s = bound(&reg!(start))?;
                        let e = bound(&reg!(end))?;
                        reg!(dst) = Value::Range(Rc::new(RangeValue {
                            start: s,
                            end: e,
                            inclusive,
                        }));
                    }
                    Op::MakeEnum {
                        dst,
                        enum_k,
                        variant_k,
                        start,
                        count,
                    } => {
                        let fields: Vec<Value> =
                            (start..start + count).map(|r| reg!(r).clone()).collect();
                        reg!(dst) = Value::Enum(Rc::new(EnumValue {
                            enum_name: str_of(&func.consts[enum_k as usize]).into(),
                            variant: str_of(&func.consts[variant_k as usize]).into(),
                            fields,
                        }));
                    }
                    Op::MakeStruct {
                        dst,
                        name_k,
                        fields,
                    } => {
                        // The fields' dict is a temporary made for this struct: taken,
                        // and unwrapped rather than copied when nothing else holds it.
                        let fields = match &reg!(fields) {
                            Value::Dict(d) => {
                                let d = Rc::clone(d);
                                put(&mut reg!(fields), Value::Nil);
                                Rc::unwrap_or_clone(d)
                            }
                            _ => Dict::new(),
                        };
                        reg!(dst) = Value::Struct(Rc::new(StructValue {
                            name: str_of(&func.consts[name_k as usize]).into(),
                            fields,
                        }));
                    }
                    Op::GetField {
                        dst,
                        obj,
                        k,
                        optional,
                    } => {
                        let name = str_of(&func.consts[k as usize]);
                        let fields = match &reg!(obj) {
                            Value::Dict(d) => Some(&**d),
                            Value::Struct(s) => Some(&s.fields),
                            _ => None,
                        };
                        if let Some(d) = fields {
                            // `pc` has moved past this instruction already.
                            let found = match func.key_hints.get(pc - 1) {
                                Some(hint) => d.field_hinted(name, hint),
                                None => d.get(name),
                            };
                            let v = found.map(copy_of).unwrap_or_default();
                            put(&mut reg!(dst), v);
                        } else if optional && matches!(reg!(obj), Value::Nil) {
                            put(&mut reg!(dst), Value::Nil);
                        } else {
                            save_pc!();
                            let v = access::get_field(&reg!(obj), name, optional)?;
                            put(&mut reg!(dst), v);
                        }
                    }
                    Op::SetField { obj, k, src } => {
                        save_pc!();
                        let v = reg!(src).clone();
                        let name = str_of(&func.consts[k as usize]);
                        let key = func.field_keys.get(k as usize);
                        access::set_field_keyed(&mut reg!(obj), name, key, v)?;
                    }
                    Op::GetIndex {
                        dst,
                        obj,
                        index,
                        optional,
                    } => {
                        save_pc!();
                        let v = access::get_index(&reg!(obj), &reg!(index), optional)?;
                        put(&mut reg!(dst), v);
                    }
                    Op::SetIndex { obj, index, src } => {
                        save_pc!();
                        let v = copy_of(&reg!(src));
                        let i = reg!(index).clone();
                        access::set_index(&mut reg!(obj), &i, v)?;
                    }
                    Op::SetNested(_) => {
                        save_pc!();
                        store_nested(&mut self.stack, func, base, op)?;
                    }
                    Op::TakeItem { .. } => {
                        save_pc!();
                        take_item(&mut self.stack, func, base, op)?;
                    }
                    Op::Slice { .. } => {
                        save_pc!();
                        slice_item(&mut self.stack, base, op)?;
                    }
                    Op::DefineMethod {
                        type_k,
                        name_k,
                        closure,
                    } => {
                        let key = (
                            str_of(&func.consts[type_k as usize]).to_string(),
                            str_of(&func.consts[name_k as usize]).to_string(),
                        );
                        let c = reg!(closure).clone();
                        self.methods.insert(key, c);
                    }
                    Op::Throw { src } => {
                        save_pc!();
                        return Err(VmError::thrown(reg!(src).clone()));
                    }
                    Op::TryBegin { dst, offset } => {
                        let frame = self.frames.len() - 1;
                        self.handlers.push(super::Handler {
                            frame,
                            pc: (pc as i64 + i64::from(offset)) as usize,
                            slot: base + dst as usize,
                        });
                    }
                    Op::TryEnd => {
                        self.handlers.pop();
                    }
                    Op::Rethrow { src } => {
                        save_pc!();
                        let slot = base + src as usize;
                        return Err(match self.caught.remove(&slot) {
                            Some(e) => e,
                            None => VmError::thrown(reg!(src).clone()),
                        });
                    }
                    Op::CatchFilter { src, k } => {
                        let want = str_of(&func.consts[k as usize]);
                        let ok = matches!(&reg!(src), Value::Enum(e) if &*e.enum_name == want);
                        if !ok {
                            save_pc!();
                            let slot = base + src as usize;
                            return Err(match self.caught.remove(&slot) {
                                Some(e) => e,
                                None => VmError::thrown(reg!(src).clone()),
                            });
                        }
                    }
                    Op::Propagate { dst, src } => match reg!(src).result_is_ok() {
                        Some(true) => {
                            let v = match &reg!(src) {
                                Value::Enum(e) => e.fields.first().cloned().unwrap_or_default(),
                                _ => Value::Nil,
                            };
                            put(&mut reg!(dst), v);
                        }
                        Some(false) => {
                            let err = reg!(src).clone();
                            save_pc!();
                            if self.frames.len() == 1 {
                                self.quiet_err = Some(err);
                                self.frames.clear();
                                self.handlers.clear();
                                return Ok(Stop::Returned(Value::Nil));
                            }
                            // Return the Err from the current function.
                            put(&mut reg!(src), err);
                            let ret_reg = src;
                            let value = std::mem::replace(&mut reg!(ret_reg), Value::Nil);
                            let Some(frame) = self.frames.pop() else {
                                return Ok(Stop::Returned(value));
                            };
                            let depth = self.frames.len();
                            self.handlers.retain(|h| h.frame < depth);
                            if let Some(slot) = self.stack.get_mut(frame.ret) {
                                *slot = value.clone();
                            }
                            if frame.stop_here || depth <= floor {
                                return Ok(Stop::Returned(value));
                            }
                            continue 'frames;
                        }
                        None => {
                            save_pc!();
                            return Err(VmError::type_error(format!(
                                "? operator requires a Result value, got {}",
                                reg!(src).type_name()
                            )));
                        }
                    },
                    Op::WrapOk { dst, src } => {
                        let v = reg!(src).clone();
                        reg!(dst) = if v.result_is_ok().is_some() {
                            v
                        } else {
                            Value::ok(v)
                        };
                    }
                    Op::WrapErr { dst, src } => {
                        let v = reg!(src).clone();
                        put(&mut reg!(dst), Value::err(v));
                    }
                    Op::NoMatch => {
                        save_pc!();
                        return Err(VmError::thrown_str("No match arm matched the value"));
                    }
                    Op::ForPrep {
                        base: b,
                        src,
                        dst,
                        offset,
                    } => {
                        // An int range becomes a counted loop: the next value and the
                        // end, unboxed. Anything else: the sequence and a position.
                        let counted = match &reg!(src) {
                            Value::Range(r) if !r.inclusive => Some((r.start, r.end)),
                            Value::Range(r) => r.end.checked_add(1).map(|end| (r.start, end)),
                            _ => None,
                        };
                        if let Some((start, end)) = counted {
                            if start >= end {
                                pc = (pc as i64 + i64::from(offset)) as usize;
                                continue;
                            }
                            set_int(&mut reg!(dst), start);
                            set_int(&mut reg!(b), start);
                            set_int(&mut reg!(b + 1), end);
                            // The first iteration in the fast lane too (as for a loop
                            // over a sequence below): a short inner loop (`for j in
                            // (i + 1) to n`) otherwise runs a large part of its
                            // iterations here.
                            fast_lane!();
                            continue;
                        }
                        let seq = match &reg!(src) {
                            Value::List(l) => Value::List(l.clone()),
                            Value::Set(s) => Value::List(s.clone()),
                            Value::Range(r) => Value::Range(r.clone()),
                            Value::Iter(it) => Value::Iter(it.clone()),
                            Value::Dict(d) => crate::iter::dict_entries(d),
                            _ => Value::list(Vec::new()),
                        };
                        put(&mut reg!(b), seq);
                        reg!(b + 1) = Value::Int(0);
                        save_pc!();
                        match self.for_element(base + b as usize, 0, base + dst as usize)? {
                            Some(v) => {
                                if let Some(v) = v {
                                    put(&mut reg!(dst), v);
                                }
                                reg!(b + 1) = Value::Int(1);
                                fast_lane!();
                            }
                            None => pc = (pc as i64 + i64::from(offset)) as usize,
                        }
                    }
                    Op::ForLoop {
                        base: b,
                        dst,
                        offset,
                    } => {
                        if let (Value::Int(cur), Value::Int(end)) = (&reg!(b), &reg!(b + 1)) {
                            let next = cur + 1;
                            if next < *end {
                                set_int(&mut reg!(b), next);
                                set_int(&mut reg!(dst), next);
                                back_edge_tick!();
                                pc = (pc as i64 + i64::from(offset)) as usize;
                                fast_lane!();
                            }
                            continue;
                        }
                        let i = match reg!(b + 1) {
                            Value::Int(i) => i,
                            _ => 0,
                        };
                        save_pc!();
                        if let Some(v) =
                            self.for_element(base + b as usize, i, base + dst as usize)?
                        {
                            if let Some(v) = v {
                                put(&mut reg!(dst), v);
                            }
                            set_int(&mut reg!(b + 1), i + 1);
                            self.tick(budget)?;
                            pc = (pc as i64 + i64::from(offset)) as usize;
                            fast_lane!();
                        }
                    }
                    Op::IsVariant {
                        dst,
                        src,
                        enum_k,
                        variant_k,
                    } => {
                        let is = match &reg!(src) {
                            Value::Enum(e) => {
                                &*e.enum_name == str_of(&func.consts[enum_k as usize])
                                    && &*e.variant == str_of(&func.consts[variant_k as usize])
                            }
                            _ => false,
                        };
                        put(&mut reg!(dst), Value::Bool(is));
                    }
                    Op::EnumField { dst, src, index } => {
                        let v = match &reg!(src) {
                            Value::Enum(e) => {
                                e.fields.get(index as usize).cloned().unwrap_or_default()
                            }
                            _ => Value::Nil,
                        };
                        put(&mut reg!(dst), v);
                    }
                    Op::TypeIs {
                        dst,
                        src,
                        type_code,
                    } => {
                        let is = match type_code {
                            0 => matches!(reg!(src), Value::Dict(_)),
                            _ => matches!(reg!(src), Value::List(_)),
                        };
                        put(&mut reg!(dst), Value::Bool(is));
                    }
                    Op::LenAtLeast { dst, src, n } => {
                        let ok = matches!(&reg!(src), Value::List(l) if l.len() >= n as usize);
                        put(&mut reg!(dst), Value::Bool(ok));
                    }
                    Op::CheckDestructure { src, kind } => {
                        let ok = match kind {
                            0 => matches!(reg!(src), Value::Dict(_) | Value::Struct(_)),
                            _ => matches!(reg!(src), Value::List(_)),
                        };
                        if !ok {
                            save_pc!();
                            let (shape, want) = if kind == 0 {
                                ("{...}", "dict")
                            } else {
                                ("[...]", "list")
                            };
                            return Err(VmError::type_error(format!(
                                "cannot destructure {} with {shape} pattern — expected {want}",
                                reg!(src).type_name()
                            )));
                        }
                    }
                    Op::DictGet { dst, src, k } => {
                        let key = str_of(&func.consts[k as usize]);
                        let v = match &reg!(src) {
                            Value::Dict(d) => d.get(key).cloned(),
                            Value::Struct(s) => s.fields.get(key).cloned(),
                            _ => None,
                        };
                        put(&mut reg!(dst), v.unwrap_or_default());
                    }
                    Op::DictRest {
                        dst,
                        src,
                        start,
                        count,
                    } => {
                        let mut d = match &reg!(src) {
                            Value::Dict(d) => (**d).clone(),
                            Value::Struct(s) => s.fields.clone(),
                            _ => Dict::new(),
                        };
                        for r in start..start + count {
                            if let Value::Str(k) = &reg!(r) {
                                d.remove(k.as_str());
                            }
                        }
                        put(&mut reg!(dst), Value::dict(d));
                    }
                    Op::ListGet { dst, src, index } => {
                        let v = match &reg!(src) {
                            Value::List(l) => l.get(index as usize).cloned().unwrap_or_default(),
                            _ => Value::Nil,
                        };
                        put(&mut reg!(dst), v);
                    }
                    Op::ListRest { dst, src, from } => {
                        let v = match &reg!(src) {
                            Value::List(l) => {
                                Value::list(l.iter().skip(from as usize).cloned().collect())
                            }
                            _ => Value::list(Vec::new()),
                        };
                        put(&mut reg!(dst), v);
                    }
                    Op::PairGet { dst, src, which } => {
                        let name = if which == 0 { "first" } else { "second" };
                        save_pc!();
                        let v = access::get_field(&reg!(src), name, false)?;
                        put(&mut reg!(dst), v);
                    }
                    Op::ImmutableError { k } => {
                        save_pc!();
                        return Err(VmError::new(ErrorKind::ImmutableAssign(
                            str_of(&func.consts[k as usize]).to_string(),
                        )));
                    }
                    Op::UndefinedError { k } => {
                        save_pc!();
                        return Err(VmError::new(ErrorKind::UndefinedVariable(
                            str_of(&func.consts[k as usize]).to_string(),
                        )));
                    }
                    Op::RedeclareError { k } => {
                        save_pc!();
                        return Err(VmError::runtime(format!(
                            "Cannot redeclare immutable variable '{}' in the same scope (use 'var' for mutable bindings)",
                            str_of(&func.consts[k as usize])
                        )));
                    }
                    // Only where code ends (`load::closed_code`): the compiler emits none.
                    Op::Unreachable => {
                        save_pc!();
                        return Err(VmError::runtime("execution ran past the end of a function"));
                    }
                }
            }
        }
    }
}
