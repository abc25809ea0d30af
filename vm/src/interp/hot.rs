//! The fast lane: after a loop's back edge, on entering a frame and after a self-call,
//! instructions run here for as long as they are integer and bool work that cannot fail,
//! plain moves, list reads, `xs.push(x)`, and direct recursion (a self-call and the
//! return from it).
//!
//! The general loop (`exec.rs`) is one very large function, so the compiler keeps its
//! program counter, frame base and code slice in memory rather than in registers and
//! every instruction pays for reloading them. This small function holds them in
//! registers. It never fails: on the first instruction it does not handle (another
//! kind, or operands that are not ints), it hands back that instruction's position and
//! the general loop runs it. It charges fuel exactly as the general loop does, one unit
//! per back edge, and leaves the last unit before a refuel to the general loop, whose
//! refuel checks fuel, deadline and memory.

use harn_compiler::bytecode::Op;

use std::rc::Rc;

use super::exec::{put, set_int};
use super::{Frame, Reg, Vm};
use crate::function::Closure;
use crate::value::Value;

/// Whether the fast lane runs `op` at all (with suitable operands): the general loop
/// skips the call when the instruction after a back edge is not one of these.
#[inline(always)]
pub(super) fn handles(op: &Op) -> bool {
    matches!(
        op,
        Op::LoadInt { .. }
            | Op::LoadBool { .. }
            | Op::Take { .. }
            | Op::Move { .. }
            | Op::GetIndex { .. }
            | Op::Add { .. }
            | Op::Sub { .. }
            | Op::Mul { .. }
            | Op::Mod { .. }
            | Op::AddInt { .. }
            | Op::SubInt { .. }
            | Op::Eq { .. }
            | Op::Ne { .. }
            | Op::Lt { .. }
            | Op::Le { .. }
            | Op::Gt { .. }
            | Op::Ge { .. }
            | Op::Not { .. }
            | Op::JumpIfFalse { .. }
            | Op::JumpIfTrue { .. }
            | Op::JumpIfNotLt { .. }
            | Op::JumpIfNotLtImm { .. }
            | Op::Jump { .. }
            | Op::ForLoop { .. }
            | Op::CallSelf { .. }
            | Op::Return { .. }
            | Op::CallMethod { nargs: 1, .. }
    )
}

/// A value copied in the lane; the reference-counted case out of line, so the lane's
/// registers are not saved around a call on every instruction.
#[inline(always)]
fn clone_element(v: &Value) -> Value {
    match v {
        Value::Nil => Value::Nil,
        Value::Bool(b) => Value::Bool(*b),
        Value::Int(n) => Value::Int(*n),
        Value::Float(x) => Value::Float(*x),
        other => clone_shared(other),
    }
}

#[cold]
#[inline(never)]
fn clone_shared(v: &Value) -> Value {
    v.clone()
}

/// The target of a jump of `offset` from the instruction before `pc`.
#[inline(always)]
fn jump(pc: usize, offset: i32) -> usize {
    (pc as i64 + i64::from(offset)) as usize
}

/// Where the lane stopped: the instruction the general loop runs next, and the frame
/// base (a self-call or a return into the same closure moves it).
pub(super) struct Exit {
    pub pc: usize,
    pub base: usize,
}

impl Vm {
    /// Runs the frame of `closure` at `base` from `pc`, and its self-calls, until an
    /// instruction the lane leaves to the general loop.
    ///
    /// # Safety
    ///
    /// `closure` is the running frame's closure, `base` its base, and the stack holds
    /// that frame's whole register window (the same contract as the general loop's
    /// `reg!`).
    pub(super) unsafe fn fast_lane(
        &mut self,
        closure: &Rc<Closure>,
        floor: usize,
        base: usize,
        pc: usize,
        budget: &mut u32,
    ) -> Exit {
        // The budget in a local, written back once: through the pointer it would be
        // stored on every back edge.
        let mut left = *budget;
        // SAFETY: the caller's contract, passed on.
        let exit = unsafe { self.lane(closure, floor, base, pc, &mut left) };
        *budget = left;
        exit
    }

    /// [`Self::fast_lane`] with the budget held by value.
    ///
    /// # Safety
    ///
    /// As for [`Self::fast_lane`].
    #[inline(always)]
    #[allow(clippy::too_many_lines)]
    unsafe fn lane(
        &mut self,
        closure: &Rc<Closure>,
        floor: usize,
        mut base: usize,
        mut pc: usize,
        budget: &mut u32,
    ) -> Exit {
        let function = &closure.function;
        let code = &function.proto.code[..];
        macro_rules! reg {
            ($r:expr) => {
                // SAFETY: the caller's contract: `$r` is a register of this frame's code,
                // and a frame the lane enters was given its whole window first.
                self.stack[unsafe { Reg::new(base + $r as usize) }]
            };
        }
        macro_rules! int_pair {
            ($a:expr, $b:expr) => {
                match (&reg!($a), &reg!($b)) {
                    (Value::Int(x), Value::Int(y)) => (*x, *y),
                    _ => return Exit { pc, base },
                }
            };
        }
        // Takes a back edge: one unit of fuel, unless it is the unit that triggers a
        // refuel, which the general loop charges.
        macro_rules! back_edge {
            ($offset:expr) => {{
                if *budget <= 1 {
                    return Exit { pc, base };
                }
                *budget -= 1;
                pc = jump(pc + 1, $offset);
                continue;
            }};
        }
        loop {
            let Some(op) = code.get(pc) else {
                return Exit { pc, base };
            };
            match *op {
                Op::LoadInt { dst, value } => set_int(&mut reg!(dst), i64::from(value)),
                Op::LoadBool { dst, value } => put(&mut reg!(dst), Value::Bool(value)),
                Op::Take { dst, src } => {
                    let v = std::mem::replace(&mut reg!(src), Value::Nil);
                    put(&mut reg!(dst), v);
                }
                Op::Move { dst, src } => {
                    let v = clone_element(&reg!(src));
                    put(&mut reg!(dst), v);
                }
                Op::GetIndex {
                    dst,
                    obj,
                    index,
                    optional: _,
                } => {
                    // A list read by an int: what `access::get_index` does for that pair.
                    let v = match (&reg!(obj), &reg!(index)) {
                        (Value::List(items), Value::Int(i)) => {
                            crate::access::list_index(*i, items.len())
                                .and_then(|i| items.get(i))
                                .map_or(Value::Nil, clone_element)
                        }
                        _ => return Exit { pc, base },
                    };
                    put(&mut reg!(dst), v);
                }
                Op::Add { dst, a, b } => {
                    let (x, y) = int_pair!(a, b);
                    set_int(&mut reg!(dst), x.wrapping_add(y));
                }
                Op::Sub { dst, a, b } => {
                    let (x, y) = int_pair!(a, b);
                    set_int(&mut reg!(dst), x.wrapping_sub(y));
                }
                Op::Mul { dst, a, b } => {
                    let (x, y) = int_pair!(a, b);
                    set_int(&mut reg!(dst), x.wrapping_mul(y));
                }
                Op::Mod { dst, a, b } => {
                    let (x, y) = int_pair!(a, b);
                    if y == 0 {
                        return Exit { pc, base };
                    }
                    set_int(&mut reg!(dst), x.wrapping_rem(y));
                }
                Op::AddInt { dst, a, imm } => {
                    let Value::Int(x) = reg!(a) else {
                        return Exit { pc, base };
                    };
                    set_int(&mut reg!(dst), x.wrapping_add(i64::from(imm)));
                }
                Op::SubInt { dst, a, imm } => {
                    let Value::Int(x) = reg!(a) else {
                        return Exit { pc, base };
                    };
                    set_int(&mut reg!(dst), x.wrapping_sub(i64::from(imm)));
                }
                Op::Eq { dst, a, b } => {
                    let (x, y) = int_pair!(a, b);
                    put(&mut reg!(dst), Value::Bool(x == y));
                }
                Op::Ne { dst, a, b } => {
                    let (x, y) = int_pair!(a, b);
                    put(&mut reg!(dst), Value::Bool(x != y));
                }
                Op::Lt { dst, a, b } => {
                    let (x, y) = int_pair!(a, b);
                    put(&mut reg!(dst), Value::Bool(x < y));
                }
                Op::Le { dst, a, b } => {
                    let (x, y) = int_pair!(a, b);
                    put(&mut reg!(dst), Value::Bool(x <= y));
                }
                Op::Gt { dst, a, b } => {
                    let (x, y) = int_pair!(a, b);
                    put(&mut reg!(dst), Value::Bool(x > y));
                }
                Op::Ge { dst, a, b } => {
                    let (x, y) = int_pair!(a, b);
                    put(&mut reg!(dst), Value::Bool(x >= y));
                }
                Op::Not { dst, src } => {
                    let Value::Bool(v) = reg!(src) else {
                        return Exit { pc, base };
                    };
                    put(&mut reg!(dst), Value::Bool(!v));
                }
                Op::JumpIfFalse { cond, offset } => {
                    let Value::Bool(v) = reg!(cond) else {
                        return Exit { pc, base };
                    };
                    if !v {
                        // Forward only: the compiler's `if`/`while` exits.
                        if offset < 0 {
                            return Exit { pc, base };
                        }
                        pc = jump(pc + 1, offset);
                        continue;
                    }
                }
                Op::JumpIfTrue { cond, offset } => {
                    let Value::Bool(v) = reg!(cond) else {
                        return Exit { pc, base };
                    };
                    if v {
                        if offset < 0 {
                            back_edge!(offset);
                        }
                        pc = jump(pc + 1, offset);
                        continue;
                    }
                }
                Op::JumpIfNotLt { a, b, offset } => {
                    let (x, y) = int_pair!(a, b);
                    if x >= y {
                        pc = jump(pc + 1, offset);
                        continue;
                    }
                }
                Op::JumpIfNotLtImm { a, imm, offset } => {
                    let Value::Int(x) = reg!(a) else {
                        return Exit { pc, base };
                    };
                    if x >= i64::from(imm) {
                        pc = jump(pc + 1, offset);
                        continue;
                    }
                }
                Op::Jump { offset } => {
                    if offset < 0 {
                        back_edge!(offset);
                    }
                    pc = jump(pc + 1, offset);
                    continue;
                }
                Op::ForLoop {
                    base: b,
                    dst,
                    offset,
                } => {
                    let Value::Int(end) = reg!(b + 1) else {
                        return Exit { pc, base };
                    };
                    let Value::Int(cur) = &mut reg!(b) else {
                        return Exit { pc, base };
                    };
                    let next = *cur + 1;
                    if next < end {
                        if *budget <= 1 {
                            return Exit { pc, base };
                        }
                        *budget -= 1;
                        *cur = next;
                        set_int(&mut reg!(dst), next);
                        pc = jump(pc + 1, offset);
                        continue;
                    }
                }
                Op::CallMethod {
                    base: b,
                    nargs: 1,
                    k,
                    optional: _,
                } => {
                    // `xs = xs.push(x)` as `call_method_at` does it: in place when nothing
                    // else holds the list. A list at the collection cap is the general
                    // loop's (it reports the limit).
                    let is_push = function
                        .consts
                        .get(usize::from(k))
                        .and_then(Value::as_str)
                        .is_some_and(|name| name == "push");
                    if !is_push {
                        return Exit { pc, base };
                    }
                    let item = clone_element(&reg!(b + 1));
                    let cap = self.limits.max_collection_len;
                    let Value::List(items) = &mut reg!(b) else {
                        return Exit { pc, base };
                    };
                    if cap.is_some_and(|max| items.len() >= max) {
                        return Exit { pc, base };
                    }
                    Rc::make_mut(items).push(item);
                }
                Op::CallSelf { base: b, nargs } => {
                    // What `push_frame` does for a plain function given all its
                    // arguments; anything else (a refuel due, the depth limit, defaults,
                    // captures, checks) is the general loop's.
                    let nargs = usize::from(nargs);
                    let depth = self.frames.len() + 1;
                    if *budget <= 1 || !function.plain || nargs < function.nparams {
                        return Exit { pc, base };
                    }
                    if depth > self.frame_cap {
                        return Exit { pc, base };
                    }
                    *budget -= 1;
                    let at = base + usize::from(b);
                    let top = at + 1 + function.window;
                    if self.stack.len() < top {
                        self.stack.resize_with(top, || Value::Nil);
                    }
                    self.depth_peak = self.depth_peak.max(depth);
                    if let Some(caller) = self.frames.last_mut() {
                        caller.pc = pc + 1;
                    }
                    self.frames.push(Frame {
                        closure: closure.clone(),
                        pc: 0,
                        base: at + 1,
                        nargs,
                        ret: at,
                        stop_here: false,
                    });
                    base = at + 1;
                    pc = 0;
                    continue;
                }
                Op::Return { src } => {
                    // Only a return into another frame of the same closure, with no
                    // handler to drop and nothing waiting for this frame's value.
                    let n = self.frames.len();
                    let (Some(callee), Some(caller)) = (
                        self.frames.last(),
                        n.checked_sub(2).and_then(|i| self.frames.get(i)),
                    ) else {
                        return Exit { pc, base };
                    };
                    if callee.stop_here
                        || n - 1 <= floor
                        || !Rc::ptr_eq(&caller.closure, closure)
                        || self.handlers.last().is_some_and(|h| h.frame >= n - 1)
                    {
                        return Exit { pc, base };
                    }
                    let (ret, caller_base, caller_pc) = (callee.ret, caller.base, caller.pc);
                    let value = std::mem::replace(&mut reg!(src), Value::Nil);
                    self.frames.pop();
                    if let Some(slot) = self.stack.get_mut(ret) {
                        put(slot, value);
                    }
                    base = caller_base;
                    pc = caller_pc;
                    continue;
                }
                _ => return Exit { pc, base },
            }
            pc += 1;
        }
    }
}
