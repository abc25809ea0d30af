//! The loop fast lane: after a loop's back edge, the instructions of the loop run here
//! for as long as they are number and bool work that cannot fail, constants, plain moves,
//! list reads by int, dict field reads, stores into a list's rows or records
//! (`grid[i][j] = v`, `bs[i].x = v`), pure builtins of one argument (`sqrt(x)`) and
//! `xs.push(x)`.
//!
//! It deliberately leaves calls and returns to the general loop: a call can grow (and
//! move) the stack, and with one in the loop the compiler reloads the stack's address on
//! every register access, which cost more on loops than the lane saved on recursion.
//!
//! The general loop (`exec.rs`) is one very large function, so the compiler keeps its
//! program counter, frame base and code slice in memory rather than in registers and
//! every instruction pays for reloading them. This small function holds them in
//! registers. It never fails: on the first instruction it does not handle (another
//! kind, or operands that are not ints), it hands back that instruction's position and
//! the general loop runs it. It charges fuel exactly as the general loop does, one unit
//! per back edge, and leaves the last unit before a refuel to the general loop, whose
//! refuel checks fuel, deadline and memory.

use harn_compiler::bytecode::{Cmp, NestedStore, Op};

use std::cell::Cell;
use std::rc::Rc;

use super::exec::{copy_of_lean, put, replace_with_int};
use super::{Reg, Stack};
use crate::function::Function;
use crate::native::NumberFn;
use crate::ops;
use crate::value::{Dict, Value};

/// Every instruction the fast lane never runs (`CallMethod` aside: the lane runs
/// `xs.push(x)`). The one list of them: [`handles`] and the lane's exhaustive `match`
/// both use it, so they cannot disagree, and a new instruction must be placed in one of
/// the two before the lane compiles.
macro_rules! declined {
    () => {
        Op::LoadNil { .. }
            | Op::LoadBuiltin { .. }
            | Op::GetGlobal { .. }
            | Op::SetGlobal { .. }
            | Op::AssignGlobal { .. }
            | Op::DefineGlobal { .. }
            | Op::MakeClosure { .. }
            | Op::LoadSelf { .. }
            | Op::Pow { .. }
            | Op::Neg { .. }
            | Op::In { .. }
            | Op::ToBool { .. }
            | Op::Call { .. }
            | Op::GenStart { .. }
            | Op::Yield { .. }
            | Op::CallLocal { .. }
            | Op::CallSelf { .. }
            | Op::CallGlobal { .. }
            | Op::CallSpread { .. }
            | Op::CallPipe { .. }
            | Op::Return { .. }
            | Op::TailCall { .. }
            | Op::TailSelf { .. }
            | Op::NewList { .. }
            | Op::ListPush { .. }
            | Op::ListExtend { .. }
            | Op::NewDict { .. }
            | Op::DictInsert { .. }
            | Op::DictSpread { .. }
            | Op::Concat { .. }
            | Op::MakeRange { .. }
            | Op::MakeEnum { .. }
            | Op::MakeStruct { .. }
            | Op::SetField { .. }
            | Op::Slice { .. }
            | Op::DefineMethod { .. }
            | Op::Throw { .. }
            | Op::TryBegin { .. }
            | Op::TryEnd
            | Op::Rethrow { .. }
            | Op::Propagate { .. }
            | Op::WrapOk { .. }
            | Op::WrapErr { .. }
            | Op::NoMatch
            | Op::CatchFilter { .. }
            | Op::ForPrep { .. }
            | Op::IsVariant { .. }
            | Op::EnumField { .. }
            | Op::TypeIs { .. }
            | Op::LenAtLeast { .. }
            | Op::CheckDestructure { .. }
            | Op::DictGet { .. }
            | Op::DictRest { .. }
            | Op::ListGet { .. }
            | Op::ListRest { .. }
            | Op::PairGet { .. }
            | Op::ImmutableError { .. }
            | Op::UndefinedError { .. }
            | Op::RedeclareError { .. }
            | Op::JumpIfArgGiven { .. }
            | Op::TakeItem { .. }
            | Op::ClearRegs { .. }
            | Op::Unreachable
            | Op::Nop
    };
}

/// Whether the fast lane runs `op` at all (with suitable operands), in a function whose
/// constants name the builtins `number_fns` (`Function::number_fns`).
#[inline(always)]
fn handles(op: &Op, number_fns: &[Option<NumberFn>]) -> bool {
    match op {
        Op::CallMethod { nargs, .. } => *nargs == 1,
        Op::CallBuiltin { nargs, k, .. } => {
            *nargs == 1 && number_fns.get(usize::from(*k)).is_some_and(Option::is_some)
        }
        declined!() => false,
        _ => true,
    }
}

/// Fewest instructions the lane must run from an entry point, before the first one it
/// declines, to be worth entering there: entering and leaving it costs about as much as
/// running two instructions in the general loop.
const MIN_RUN: usize = 4;

/// For each position of `code`: whether a back edge landing there enters the lane. Yes
/// when the lane can run at least [`MIN_RUN`] instructions from there, or reaches a jump
/// first (it may loop without leaving); no when it would decline at once or within a
/// couple of instructions (a loop whose body calls a function), where entering would
/// only add the lane's entry and exit to each iteration.
pub(crate) fn entry_points(code: &[Op], number_fns: &[Option<NumberFn>]) -> Box<[bool]> {
    // How far the lane runs from each position, counted from the end in one pass: only
    // the run from the next position is needed.
    let mut enters = vec![false; code.len()].into_boxed_slice();
    let mut run = 0usize;
    for (op, enter) in code.iter().zip(enters.iter_mut()).rev() {
        run = if !handles(op, number_fns) {
            0
        } else if op.jump_offset().is_some() {
            MIN_RUN
        } else {
            run.saturating_add(1)
        };
        *enter = run >= MIN_RUN;
    }
    enters
}

/// Stores an int; anything but an int in the slot is handled out of line, which keeps
/// the lane's loop small (in a loop the slot is nearly always an int already).
#[inline(always)]
fn set_int(slot: &mut Value, n: i64) {
    if let Value::Int(x) = slot {
        *x = n;
    } else {
        replace_with_int(slot, n);
    }
}

/// A value copied in the lane ([`copy_of_lean`]: the reference count out of line, so
/// the lane's registers are not saved around a call on every instruction).
#[inline(always)]
fn clone_element(v: &Value) -> Value {
    copy_of_lean(v)
}

/// `xs = xs.push(x)` as `call_method_at` does it: in place when nothing else holds the
/// list. `false` (nothing done) when the receiver is not a list or the list is at the
/// collection cap, which the general loop reports. Out of line, so the lane's loop
/// does not save its registers around the allocator on every instruction.
#[inline(never)]
fn push(receiver: &mut Value, item: Value, max_collection_len: Option<usize>) -> bool {
    let Value::List(items) = receiver else {
        return false;
    };
    if max_collection_len.is_some_and(|max| items.len() >= max) {
        return false;
    }
    Rc::make_mut(items).push(item);
    true
}

/// `CallBuiltin` of constant `k` with one argument, the call at register `at`, when `k`
/// names a pure builtin of one argument (`Function::number_fns`): its result stored
/// in `at`, as `call_builtin` does. `None` (nothing stored) for another builtin or an
/// error, both left to the general loop. Out of line, like [`push`].
#[inline(never)]
fn call_number(stack: &mut Stack, function: &Function, at: usize, k: u16) -> Option<()> {
    let f = function.number_fns.get(usize::from(k)).copied().flatten()?;
    let v = f(stack.get(at + 1)?).ok()?;
    put(stack.get_mut(at)?, v);
    Some(())
}

/// The field named by constant `k` of a dict, read by the instruction at `pc` (whose
/// key hint it uses). It answers with a reference and the lane copies the value: a
/// returned value would go through memory. Inline: out of line, its call saved and
/// restored six registers on every field read, and the lane's register allocation came
/// out worse for every instruction (`for` over 10M ints: 633M to 573M instructions).
#[inline(always)]
fn dict_field<'a>(d: &'a Dict, function: &Function, k: u16, pc: usize) -> Option<&'a Value> {
    let name = function
        .consts
        .get(usize::from(k))
        .and_then(Value::as_str)
        .unwrap_or("");
    match function.key_hints.get(pc) {
        Some(hint) => d.field_hinted(name, hint),
        None => d.field(name),
    }
}

/// `d[k]` for a dict and a string key, as `access::get_index` reads it (one unit of walk
/// fuel for the key's display); `None` for any other pair, or when the walk allowance is
/// spent, both left to the general loop. Inline, as [`dict_field`] is (a counting
/// loop, `d[w] = (d[w] ?? 0) + 1` over 400k words: 257M to 235M instructions).
#[inline(always)]
fn dict_entry(stack: &Stack, obj: usize, index: usize, hint: &Cell<u8>) -> Option<Value> {
    let (Some(Value::Dict(d)), Some(Value::Str(k))) = (stack.get(obj), stack.get(index)) else {
        return None;
    };
    if !crate::walk::try_step() {
        return None;
    }
    Some(
        d.field_hinted(k.as_str(), hint)
            .map(clone_element)
            .unwrap_or_default(),
    )
}

/// `obj[index] = src` as `access::set_index` does it for a dict and a string key or a
/// list and an index inside it: in place when nothing else holds the collection, copied
/// first otherwise. `None` (nothing stored) for anything else, left to the general loop,
/// which reports the error. Out of line, like [`push`].
#[inline(never)]
fn store_index(
    stack: &mut Stack,
    obj: usize,
    index: usize,
    src: usize,
    hint: &Cell<u8>,
) -> Option<()> {
    let v = clone_element(stack.get(src)?);
    match stack.get(index)? {
        Value::Str(k) => {
            let k = Rc::clone(k);
            let Value::Dict(d) = stack.get_mut(obj)? else {
                return None;
            };
            if !crate::walk::try_step() {
                return None;
            }
            Rc::make_mut(d).set_hinted(&k, v, hint);
        }
        Value::Int(i) => {
            let i = *i;
            let Value::List(items) = stack.get_mut(obj)? else {
                return None;
            };
            let at = crate::access::list_index(i, items.len())?;
            Rc::make_mut(items)[at] = v;
        }
        _ => return None,
    }
    Some(())
}

/// `obj[i][j] = src` on a list of lists with int subscripts inside both (a grid or a
/// table updated cell by cell), as `exec::store_nested` does it: the right-hand side's
/// temporaries emptied, then the row changed in place where nothing else holds it.
/// `None` (nothing stored) for anything else, which the general loop runs from the
/// start: emptying the temporaries again changes nothing. Out of line, like [`push`].
#[inline(never)]
fn store_nested_ints(stack: &mut Stack, base: usize, n: &NestedStore) -> Option<()> {
    if n.outer_is_field() || n.inner_is_field() {
        return None;
    }
    let regs = stack.get_mut(base..)?;
    let reg = |r: u16| usize::from(r);
    let (Value::Int(i), Value::Int(j)) = (regs.get(reg(n.outer))?, regs.get(reg(n.inner))?) else {
        return None;
    };
    let (i, j) = (*i, *j);
    let Value::List(rows) = regs.get(reg(n.obj))? else {
        return None;
    };
    let i = crate::access::list_index(i, rows.len())?;
    let Value::List(row) = rows.get(i)? else {
        return None;
    };
    let j = crate::access::list_index(j, row.len())?;
    let (v, row) = value_and_row(regs, n, i)?;
    let Value::List(row) = row else {
        return None;
    };
    *unique(row)?.get_mut(j)? = v;
    Some(())
}

/// `obj[i].f = src` on a list of records, the `SetNested` at `pc`: a dict's or a
/// struct's field stored as `access::set_field` does (the key found through the
/// instruction's hint), the right-hand side's temporaries emptied first, as
/// `exec::store_nested` does it, and the record changed in place where nothing else
/// holds it. `None` (nothing stored) for anything else, which the general loop runs
/// from the start. Out of line, like [`push`].
#[inline(never)]
fn store_record_field(
    stack: &mut Stack,
    function: &Function,
    base: usize,
    n: &NestedStore,
    pc: usize,
) -> Option<()> {
    if n.outer_is_field() || !n.inner_is_field() {
        return None;
    }
    let name = function
        .consts
        .get(usize::from(n.inner))
        .and_then(Value::as_str)?;
    let hint = function.key_hints.get(pc)?;
    let regs = stack.get_mut(base..)?;
    let reg = |r: u16| usize::from(r);
    let (Value::List(rows), Value::Int(i)) = (regs.get(reg(n.obj))?, regs.get(reg(n.outer))?)
    else {
        return None;
    };
    let i = crate::access::list_index(*i, rows.len())?;
    if !matches!(rows.get(i)?, Value::Dict(_) | Value::Struct(_)) {
        return None;
    }
    let (v, record) = value_and_row(regs, n, i)?;
    let fields = match record {
        Value::Dict(d) => Rc::make_mut(d),
        Value::Struct(s) => &mut Rc::make_mut(s).fields,
        _ => return None,
    };
    fields.set_hinted(name, v, hint);
    Some(())
}

/// What both nested stores do once they know they apply: the right-hand side of `n`
/// (a frame's registers `regs`) copied after its temporaries are emptied, and element
/// `i` of the list in `n.obj`, that list made unique first.
#[inline(always)]
fn value_and_row<'r>(
    regs: &'r mut [Value],
    n: &NestedStore,
    i: usize,
) -> Option<(Value, &'r mut Value)> {
    let src = usize::from(n.src);
    for temp in regs.get_mut(src + 1..src + 1 + usize::from(n.clear))? {
        put(temp, Value::Nil);
    }
    let v = clone_element(regs.get(src)?);
    let Value::List(rows) = regs.get_mut(usize::from(n.obj))? else {
        return None;
    };
    Some((v, unique(rows)?.get_mut(i)?))
}

/// The list `items` held once, copied first if it is shared (`Rc::make_mut`, out of
/// line): nearly always it is already held once.
#[inline(always)]
fn unique(items: &mut Rc<Vec<Value>>) -> Option<&mut Vec<Value>> {
    if Rc::get_mut(items).is_none() {
        Rc::make_mut(items);
    }
    Rc::get_mut(items)
}

/// One step of a `for` loop over the list in slot `seq` (its next index in `seq + 1`):
/// the element goes to slot `dst` and the index moves on. `None` when the list is done.
/// Inline (a `for` over a list: 875M to 762M instructions). With it and [`dict_entry`]
/// inline, counted loops run 1 to 3.5% more instructions (the lane's registers come out
/// differently); with this one alone, 16% more.
#[inline(always)]
fn list_step(stack: &mut Stack, seq: usize, dst: usize) -> Option<()> {
    let (Some(Value::List(items)), Some(Value::Int(i))) = (stack.get(seq), stack.get(seq + 1))
    else {
        return None;
    };
    let i = *i;
    let v = usize::try_from(i)
        .ok()
        .and_then(|at| items.get(at))
        .map(clone_element)?;
    put(stack.get_mut(dst)?, v);
    set_int(stack.get_mut(seq + 1)?, i + 1);
    Some(())
}

/// A comparison that is not of two ints: two numbers or two strings as
/// `ops::holds_lean` decides it, `None` otherwise. Out of line: the lane keeps its state
/// in registers.
#[inline(never)]
fn holds_slow(stack: &Stack, cmp: Cmp, a: usize, b: usize) -> Option<bool> {
    ops::holds_lean(cmp, stack.get(a)?, stack.get(b)?)
}

/// [`holds_slow`] against an int literal.
#[inline(never)]
fn holds_imm_slow(stack: &Stack, cmp: Cmp, a: usize, imm: i32) -> Option<bool> {
    ops::holds_int(cmp, stack.get(a)?, i64::from(imm))
}

/// The target of a jump of `offset` from the instruction before `pc`.
#[inline(always)]
fn jump(pc: usize, offset: i32) -> usize {
    (pc as i64 + i64::from(offset)) as usize
}

/// Runs from `pc` and returns the position of the first instruction left to the general
/// loop.
///
/// # Safety
///
/// `function` is the running frame's function (closed: `load::closed_code`), `pc` is
/// inside its code, `base` is the frame's base, and the stack holds that frame's whole
/// register window (the same contract as the general loop's `reg!`).
pub(super) unsafe fn run(
    stack: &mut Stack,
    function: &Function,
    max_collection_len: Option<usize>,
    base: usize,
    pc: usize,
    budget: &mut u32,
) -> usize {
    // The budget in a local, written back once: through the pointer it would be stored
    // on every back edge.
    let mut left = *budget;
    let mut counted = CountedLoop::NONE;
    let mut pc = pc;
    loop {
        // SAFETY: the caller's contract, passed on (a position after a `CallBuiltin`
        // is inside the code of a closed function: a call falls through).
        pc = unsafe {
            run_with(
                stack,
                function,
                max_collection_len,
                base,
                pc,
                &mut left,
                &mut counted,
            )
        };
        // A pure builtin of one argument is run here, between two runs of the lane's
        // loop: as an arm of that loop, it cost a counted loop's every iteration three
        // instructions (the loop's registers came out differently).
        let Some(Op::CallBuiltin {
            base: b,
            nargs: 1,
            k,
        }) = function.code.get(pc)
        else {
            break;
        };
        if call_number(stack, function, base + usize::from(*b), *k).is_none() {
            break;
        }
        pc += 1;
    }
    // SAFETY: as for `run_with`: the loop's counter slot is a register of the frame.
    unsafe { counted.settle(stack, base, pc) };
    *budget = left;
    pc
}

/// The counted loop the lane last stepped: its `ForLoop`'s position, counter, end,
/// first body instruction and counter register. Held in machine registers so that an
/// iteration does not wait on reloading what it just stored, and the counter register
/// is written only when the lane leaves the loop's code ([`CountedLoop::settle`]): the
/// general loop reads it only there (when it steps the loop itself), and the loop
/// variable, which the body reads, is still written on every iteration.
struct CountedLoop {
    at: usize,
    cur: i64,
    end: i64,
    start: usize,
    slot: usize,
}

impl CountedLoop {
    const NONE: CountedLoop = CountedLoop {
        at: usize::MAX,
        cur: 0,
        end: 0,
        start: 0,
        slot: 0,
    };

    /// Writes the counter back to its register if the lane stopped at `pc` inside the
    /// loop's code (its body or its `ForLoop`), where the general loop goes on stepping
    /// it. Anywhere else the loop was left (`break`, or a `ForLoop` of another loop
    /// that is not nested in it) and its counter register may already hold something
    /// else: the compiler reuses it after the loop.
    ///
    /// # Safety
    ///
    /// `base + self.slot` is a register of the running frame (the `ForLoop` at
    /// `self.at` names it), when a loop is cached.
    #[inline(always)]
    unsafe fn settle(&self, stack: &mut Stack, base: usize, pc: usize) {
        if self.at != usize::MAX && (self.start..=self.at).contains(&pc) {
            // SAFETY: the caller's contract.
            set_int(&mut stack[unsafe { Reg::new(base + self.slot) }], self.cur);
        }
    }
}

/// [`run`] with the budget held by value.
///
/// # Safety
///
/// As for [`run`].
#[inline(always)]
#[allow(clippy::too_many_lines, clippy::too_many_arguments)]
unsafe fn run_with(
    stack: &mut Stack,
    function: &Function,
    max_collection_len: Option<usize>,
    base: usize,
    mut pc: usize,
    budget: &mut u32,
    counted: &mut CountedLoop,
) -> usize {
    let code = &function.code[..];
    // One key hint for every `d[k]` read and write of this run: their keys vary, so an
    // instruction's own hint would mostly miss, but a write of the key just read
    // (`d[k] = (d[k] ?? 0) + 1`) finds it at once.
    let index_hint = Cell::new(0u8);
    macro_rules! reg {
        ($r:expr) => {
            // SAFETY: the caller's contract: `$r` is a register of this frame's code.
            stack[unsafe { Reg::new(base + $r as usize) }]
        };
    }
    macro_rules! int_pair {
        ($a:expr, $b:expr) => {
            match (&reg!($a), &reg!($b)) {
                (Value::Int(x), Value::Int(y)) => (*x, *y),
                _ => return pc,
            }
        };
    }
    // An arithmetic instruction: ints wrap as in the general loop, two floats make it
    // float arithmetic (which cannot fail); anything else is left.
    macro_rules! arith {
        ($dst:expr, $a:expr, $b:expr, $int:expr, $float:expr) => {
            match (&reg!($a), &reg!($b)) {
                (Value::Int(x), Value::Int(y)) => {
                    let n = $int(*x, *y);
                    set_int(&mut reg!($dst), n);
                }
                // Mixed int and float operands go to the general loop, which has the
                // same shortcut: a call here would cost every iteration registers.
                (Value::Float(x), Value::Float(y)) => {
                    let v = $float(*x, *y);
                    put(&mut reg!($dst), Value::Float(v));
                }
                _ => return pc,
            }
        };
    }
    // A comparison of two numbers or two strings (`ops::holds_lean`), ints inline;
    // anything else is left.
    macro_rules! compare {
        ($cmp:expr, $dst:expr, $a:expr, $b:expr) => {{
            let v = match (&reg!($a), &reg!($b)) {
                (Value::Int(x), Value::Int(y)) => ops::int_holds($cmp, *x, *y),
                _ => match holds_slow(stack, $cmp, base + $a as usize, base + $b as usize) {
                    Some(v) => v,
                    None => return pc,
                },
            };
            put(&mut reg!($dst), Value::Bool(v));
        }};
    }
    // The conditional jumps: taken when the condition does not hold. Forward only, as
    // the compiler's `if`/`while` exits are: a backward jump is a back edge, which must
    // charge fuel, so it is left to the general loop.
    macro_rules! branch_unless {
        ($holds:expr, $offset:expr) => {
            if !$holds {
                if $offset < 0 {
                    return pc;
                }
                pc = jump(pc + 1, $offset);
                continue;
            }
        };
    }
    // Takes a back edge: one unit of fuel, unless it is the unit that triggers a
    // refuel, which the general loop charges.
    macro_rules! back_edge {
        ($offset:expr) => {{
            if *budget <= 1 {
                return pc;
            }
            *budget -= 1;
            pc = jump(pc + 1, $offset);
            continue;
        }};
    }
    // Only `ForPrep`, which ends the lane, writes a counted loop's end slot, and only
    // `CountedLoop::settle` its counter slot, so both stay valid for the whole run.
    loop {
        // SAFETY: the caller's contract: `function` is closed (`load::closed_code`), so
        // the entry position and every position reached from it (the next instruction
        // after one that falls through, or a jump's target) is inside `code`.
        let op = unsafe { code.get_unchecked(pc) };
        match *op {
            Op::LoadInt { dst, value } => set_int(&mut reg!(dst), i64::from(value)),
            Op::LoadBool { dst, value } => put(&mut reg!(dst), Value::Bool(value)),
            Op::Len { dst, src } => {
                let n = match &reg!(src) {
                    Value::List(items) | Value::Set(items) => items.len(),
                    Value::Dict(d) => d.len(),
                    _ => return pc,
                };
                set_int(&mut reg!(dst), n as i64);
            }
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
                            .map(clone_element)
                            .unwrap_or_default()
                    }
                    _ => match dict_entry(
                        stack,
                        base + obj as usize,
                        base + index as usize,
                        &index_hint,
                    ) {
                        Some(v) => v,
                        None => return pc,
                    },
                };
                put(&mut reg!(dst), v);
            }
            Op::SetNested(n) => {
                let stored = if n.inner_is_field() {
                    store_record_field(stack, function, base, &n, pc)
                } else {
                    store_nested_ints(stack, base, &n)
                };
                if stored.is_none() {
                    return pc;
                }
            }
            Op::SetIndex { obj, index, src } => {
                let at = |r: u16| base + usize::from(r);
                if store_index(stack, at(obj), at(index), at(src), &index_hint).is_none() {
                    return pc;
                }
            }
            Op::Add { dst, a, b } => {
                arith!(dst, a, b, i64::wrapping_add, |x: f64, y: f64| x + y)
            }
            Op::Sub { dst, a, b } => {
                arith!(dst, a, b, i64::wrapping_sub, |x: f64, y: f64| x - y)
            }
            Op::Mul { dst, a, b } => {
                arith!(dst, a, b, i64::wrapping_mul, |x: f64, y: f64| x * y)
            }
            Op::Mod { dst, a, b } => {
                let (x, y) = int_pair!(a, b);
                if y == 0 {
                    return pc;
                }
                set_int(&mut reg!(dst), crate::ops::rem_int(x, y));
            }
            Op::MulInt { dst, a, imm } => {
                let Value::Int(x) = reg!(a) else { return pc };
                set_int(&mut reg!(dst), x.wrapping_mul(i64::from(imm)));
            }
            Op::ModInt { dst, a, imm } => {
                let Value::Int(x) = reg!(a) else { return pc };
                set_int(&mut reg!(dst), crate::ops::rem_int(x, i64::from(imm)));
            }
            Op::CmpInt { dst, a, cmp, imm } => {
                let v = match reg!(a) {
                    Value::Int(x) => ops::int_holds(cmp, x, i64::from(imm)),
                    _ => match holds_imm_slow(stack, cmp, base + a as usize, imm) {
                        Some(v) => v,
                        None => return pc,
                    },
                };
                put(&mut reg!(dst), Value::Bool(v));
            }
            Op::Div { dst, a, b } => match (&reg!(a), &reg!(b)) {
                (Value::Int(x), Value::Int(y)) => {
                    // Division by zero is an error: the general loop reports it.
                    if *y == 0 {
                        return pc;
                    }
                    let n = x.wrapping_div(*y);
                    set_int(&mut reg!(dst), n);
                }
                (x, y) => match ops::float_pair(x, y) {
                    Some((x, y)) => put(&mut reg!(dst), Value::Float(x / y)),
                    None => return pc,
                },
            },
            Op::LoadConst { dst, k } => {
                let Some(v) = function.consts.get(usize::from(k)) else {
                    return pc;
                };
                let v = clone_element(v);
                put(&mut reg!(dst), v);
            }
            Op::GetField {
                dst,
                obj,
                k,
                optional: _,
            } => {
                // A dict's or a struct's field: what `access::get_field` does for them (a
                // missing key reads nil, optional or not).
                let d: &Dict = match &reg!(obj) {
                    Value::Dict(d) => d,
                    Value::Struct(s) => &s.fields,
                    _ => return pc,
                };
                let v = dict_field(d, function, k, pc)
                    .map(clone_element)
                    .unwrap_or_default();
                put(&mut reg!(dst), v);
            }
            Op::JumpIfNotNil { src, offset } => {
                if !matches!(reg!(src), Value::Nil) {
                    pc = jump(pc + 1, offset);
                    continue;
                }
            }
            Op::AddInt { dst, a, imm } => {
                let Value::Int(x) = reg!(a) else { return pc };
                set_int(&mut reg!(dst), x.wrapping_add(i64::from(imm)));
            }
            Op::SubInt { dst, a, imm } => {
                let Value::Int(x) = reg!(a) else { return pc };
                set_int(&mut reg!(dst), x.wrapping_sub(i64::from(imm)));
            }
            Op::Eq { dst, a, b } => compare!(Cmp::Eq, dst, a, b),
            Op::Ne { dst, a, b } => compare!(Cmp::Ne, dst, a, b),
            Op::Lt { dst, a, b } => compare!(Cmp::Lt, dst, a, b),
            Op::Le { dst, a, b } => compare!(Cmp::Le, dst, a, b),
            Op::Gt { dst, a, b } => compare!(Cmp::Gt, dst, a, b),
            Op::Ge { dst, a, b } => compare!(Cmp::Ge, dst, a, b),
            Op::Not { dst, src } => {
                let Value::Bool(v) = reg!(src) else { return pc };
                put(&mut reg!(dst), Value::Bool(!v));
            }
            Op::JumpIfFalse { cond, offset } => {
                let Value::Bool(v) = reg!(cond) else {
                    return pc;
                };
                branch_unless!(v, offset);
            }
            Op::JumpIfTrue { cond, offset } => {
                let Value::Bool(v) = reg!(cond) else {
                    return pc;
                };
                if v {
                    if offset < 0 {
                        back_edge!(offset);
                    }
                    pc = jump(pc + 1, offset);
                    continue;
                }
            }
            // `<`, the loop bound, has instructions of its own (no second dispatch on the
            // comparison); only ints here. The compiler emits them forward only, as the
            // `if`/`while` exits they are.
            Op::JumpIfNotLt { a, b, offset } => {
                let (x, y) = int_pair!(a, b);
                if x >= y {
                    pc = jump(pc + 1, offset);
                    continue;
                }
            }
            Op::JumpIfNotLtImm { a, imm, offset } => {
                let Value::Int(x) = reg!(a) else { return pc };
                if x >= i64::from(imm) {
                    pc = jump(pc + 1, offset);
                    continue;
                }
            }
            Op::JumpIfNot { cmp, a, b, offset } => {
                let holds = match (&reg!(a), &reg!(b)) {
                    (Value::Int(x), Value::Int(y)) => ops::int_holds(cmp, *x, *y),
                    _ => match holds_slow(stack, cmp, base + a as usize, base + b as usize) {
                        Some(holds) => holds,
                        None => return pc,
                    },
                };
                branch_unless!(holds, offset);
            }
            Op::JumpIfNotImm {
                cmp,
                a,
                imm,
                offset,
            } => {
                let holds = match reg!(a) {
                    Value::Int(x) => ops::int_holds(cmp, x, i64::from(imm)),
                    _ => match holds_imm_slow(stack, cmp, base + a as usize, imm) {
                        Some(holds) => holds,
                        None => return pc,
                    },
                };
                branch_unless!(holds, offset);
            }
            Op::JumpIfNotK { cmp, a, k, offset } => {
                let Some(holds) = function
                    .consts
                    .get(usize::from(k))
                    .and_then(|c| ops::holds_lean(cmp, &reg!(a), c))
                else {
                    return pc;
                };
                branch_unless!(holds, offset);
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
                if pc != counted.at {
                    match (&reg!(b), &reg!(b + 1)) {
                        (Value::Int(cur), Value::Int(end)) => {
                            let (cur, end) = (*cur, *end);
                            // The loop cached so far, if this one is nested in it, goes
                            // on after this one: its counter goes back to its register.
                            // SAFETY: its `ForLoop` named that register.
                            unsafe { counted.settle(stack, base, pc) };
                            *counted = CountedLoop {
                                at: pc,
                                cur,
                                end,
                                start: jump(pc + 1, offset),
                                slot: usize::from(b),
                            };
                        }
                        // A loop over a list, as the general loop steps it (the element
                        // in `dst`, the next index in `b + 1`), or its end.
                        (Value::List(_), Value::Int(_)) => {
                            if *budget <= 1 {
                                return pc;
                            }
                            if list_step(stack, base + b as usize, base + dst as usize).is_none() {
                                pc += 1;
                                continue;
                            }
                            *budget -= 1;
                            pc = jump(pc + 1, offset);
                            continue;
                        }
                        _ => return pc,
                    }
                }
                let next = counted.cur + 1;
                if next < counted.end {
                    if *budget <= 1 {
                        return pc;
                    }
                    *budget -= 1;
                    counted.cur = next;
                    set_int(&mut reg!(dst), next);
                    pc = counted.start;
                    continue;
                }
                // The loop is over: its counter register as the general loop leaves it,
                // and nothing cached.
                set_int(&mut reg!(b), counted.cur);
                *counted = CountedLoop::NONE;
            }
            Op::CallMethod {
                base: b,
                nargs: 1,
                k,
                optional: _,
            } => {
                let is_push = function
                    .consts
                    .get(usize::from(k))
                    .and_then(Value::as_str)
                    .is_some_and(|name| name == "push");
                if !is_push {
                    return pc;
                }
                let item = clone_element(&reg!(b + 1));
                if !push(&mut reg!(b), item, max_collection_len) {
                    return pc;
                }
            }
            // A pure builtin of one argument (`sqrt(d2)`), as `call_builtin` runs it; an
            // error is left to the general loop, which calls it again and reports it.

            // Every instruction the lane never runs, and `CallMethod` other than
            // `push`: listed rather than matched by `_`, so the match is exhaustive and
            // the compiler drops the jump table's range check.
            declined!() | Op::CallMethod { .. } | Op::CallBuiltin { .. } => return pc,
        }
        pc += 1;
    }
}
