//! Instructions on a container's elements that only the general loop runs, each out
//! of line so that the interpreter loop stays small: its code is sensitive to every arm
//! (an inline arm more, even one never run, has cost a counted loop 3% of its
//! instructions), so anything rare or long goes through a call here.

use std::rc::Rc;

use harn_compiler::bytecode::Op;

use super::exec::{copy_of, put};
use crate::access::{self, Key};
use crate::display::{is_scalar, write_display, write_scalar};
use crate::error::VmError;
use crate::function::Function;
use crate::value::{Owned, Value};

/// The running frame's registers as an instruction here reads them: every access is
/// checked, and a register past the frame is that instruction's typed error.
struct Frame<'s> {
    stack: &'s mut super::Stack,
    base: usize,
    /// The instruction, as its error names it.
    op: &'static str,
}

impl<'s> Frame<'s> {
    fn new(stack: &'s mut super::Stack, base: usize, op: &'static str) -> Self {
        Frame { stack, base, op }
    }

    fn lost(&self) -> VmError {
        self.lost_later()()
    }

    fn get(&self, r: u16) -> Result<&Value, VmError> {
        self.stack
            .get(self.base + usize::from(r))
            .ok_or_else(|| self.lost())
    }

    fn get_mut(&mut self, r: u16) -> Result<&mut Value, VmError> {
        let lost = self.lost_later();
        self.stack
            .get_mut(self.base + usize::from(r))
            .ok_or_else(lost)
    }

    /// Registers `r..r + n`.
    fn run_mut(&mut self, r: u16, n: u16) -> Result<&mut [Value], VmError> {
        let lost = self.lost_later();
        let first = self.base + usize::from(r);
        self.stack
            .get_mut(first..first + usize::from(n))
            .ok_or_else(lost)
    }

    /// [`Self::lost`], made only if needed, while the stack is borrowed.
    fn lost_later(&self) -> impl FnOnce() -> VmError + use<> {
        let op = self.op;
        move || VmError::runtime(format!("{op} names a register past its frame"))
    }
}

/// The key of a subscript operand: the constant field name `r` (`is_field`), or else
/// the index value read from register `r`.
fn key<'k>(function: &'k Function, is_field: bool, r: u16, index: &'k Value) -> Key<'k> {
    if is_field {
        let name = function.consts.get(usize::from(r)).and_then(Value::as_str);
        Key::Field(name.unwrap_or(""))
    } else {
        Key::Index(index)
    }
}

/// `SetNested`: the value's temporaries emptied (so no temporary still shares the
/// nested container), then `access::set_nested`. Only the general loop runs it: with an
/// arm for it in the fast lane (or int-key reads and writes through `access` there), the
/// lane's registers came out worse and a counted loop over 10M ints ran 3 to 12% more
/// instructions (592.7M to 612-772M), for an 11% gain on a grid update.
#[inline(never)]
pub(super) fn store_nested(
    stack: &mut super::Stack,
    function: &Function,
    base: usize,
    op: &Op,
) -> Result<(), VmError> {
    let mut frame = Frame::new(stack, base, "SetNested");
    let Op::SetNested(n) = op else {
        return Err(frame.lost());
    };
    for r in n.src + 1..=n.src.saturating_add(u16::from(n.clear)) {
        put(frame.get_mut(r)?, Value::Nil);
    }
    let v = copy_of(frame.get(n.src)?);
    // A subscript is copied out of its register (the root is borrowed mutably below).
    let read_index = |is_field: bool, r: u16| {
        Ok::<_, VmError>(if is_field {
            Value::Nil
        } else {
            copy_of(frame.get(r)?)
        })
    };
    let outer_index = read_index(n.outer_is_field(), n.outer)?;
    let inner_index = read_index(n.inner_is_field(), n.inner)?;
    let outer_key = key(function, n.outer_is_field(), n.outer, &outer_index);
    let inner_key = key(function, n.inner_is_field(), n.inner, &inner_index);
    access::set_nested(frame.get_mut(n.obj)?, outer_key, inner_key, v)
}

/// `TakeItem`: `access::take_child` on the container register. Out of line, as
/// `store_nested` is, to keep the interpreter loop small. (With this instruction added,
/// inline or not, last in `Op` or not, a counted loop over 10M ints runs 612.7M
/// instructions instead of 592.7M: the loop's code came out differently.)
#[inline(never)]
pub(super) fn take_item(
    stack: &mut super::Stack,
    function: &Function,
    base: usize,
    op: &Op,
) -> Result<(), VmError> {
    let mut frame = Frame::new(stack, base, "TakeItem");
    let &Op::TakeItem {
        dst,
        obj,
        key: k,
        field,
    } = op
    else {
        return Err(frame.lost());
    };
    let index = if field {
        Value::Nil
    } else {
        copy_of(frame.get(k)?)
    };
    let v = access::take_child(frame.get_mut(obj)?, key(function, field, k, &index))?;
    put(frame.get_mut(dst)?, v);
    Ok(())
}

/// `Slice`: `dst = obj[start:end]` (`access::slice`). Written back over the register
/// it is cut from (`queue = queue[1:]`), the old list is dead once the slice is stored,
/// so a list nothing else holds is cut in place (`access::slice_over`).
#[inline(never)]
pub(super) fn slice_item(stack: &mut super::Stack, base: usize, op: &Op) -> Result<(), VmError> {
    let mut frame = Frame::new(stack, base, "Slice");
    let &Op::Slice {
        dst,
        obj,
        start,
        end,
    } = op
    else {
        return Err(frame.lost());
    };
    let start = frame.get(start)?.clone();
    let end = frame.get(end)?.clone();
    if dst == obj {
        return access::slice_over(frame.get_mut(obj)?, &start, &end);
    }
    let v = access::slice(frame.get(obj)?, &start, &end)?;
    put(frame.get_mut(dst)?, v);
    Ok(())
}

/// `Concat` when its first part is a string only the part's register holds: the parts
/// are the instruction's own temporaries, dead once it is done, so that string
/// (`s = "${s}${p},"` takes `s` into it) is taken and the displays of the rest appended
/// to it in place rather than copied, and a loop building a string that way is linear,
/// not quadratic. (Otherwise [`rewrite_parts`] reuses the destination's string, or
/// [`join_parts`] builds a new one.)
#[inline(never)]
pub(super) fn append_parts(
    stack: &mut super::Stack,
    base: usize,
    op: &Op,
) -> Result<Value, VmError> {
    let mut frame = Frame::new(stack, base, "Concat");
    let &Op::Concat { start, count, .. } = op else {
        return Err(frame.lost());
    };
    let lost = frame.lost_later();
    let Some((head, rest)) = frame.run_mut(start, count)?.split_first_mut() else {
        return Err(lost());
    };
    // The caller saw a string there.
    let Owned::Str(mut text) = std::mem::replace(head, Value::Nil).into_owned() else {
        return Err(lost());
    };
    crate::chars::extend_text(&mut text, |grown| {
        grown.reserve(rest.iter().map(|v| v.as_str().map_or(8, str::len)).sum());
        rest.iter().try_for_each(|v| write_display(grown, v))
    })?;
    Ok(Value::Str(text))
}

/// `Concat` into a register holding a string nothing else holds (last iteration's
/// `"k${i}"`): when every part is a string, a number, a bool or nil, the parts are
/// written into that string's buffer, which saves an allocation and a free per
/// interpolation in a loop. Anything else is joined into a new string ([`join_parts`]).
/// The caller checked that `dst` is not one of the parts.
///
/// The parts' walk steps are counted before the buffer is touched: past that point
/// nothing can fail, so an error never leaves the register half written.
pub(super) fn rewrite_parts(
    stack: &mut super::Stack,
    base: usize,
    op: &Op,
) -> Result<Value, VmError> {
    let mut frame = Frame::new(stack, base, "Concat");
    let &Op::Concat { dst, start, count } = op else {
        return Err(frame.lost());
    };
    if !frame.run_mut(start, count)?.iter().all(is_scalar) {
        return join_parts(frame.stack, base, op);
    }
    crate::walk::steps(u64::from(count))?;
    let Owned::Str(mut text) = std::mem::replace(frame.get_mut(dst)?, Value::Nil).into_owned()
    else {
        return Err(frame.lost());
    };
    let parts = frame.run_mut(start, count)?;
    match Rc::get_mut(&mut text) {
        Some(buffer) => {
            buffer.clear();
            for v in parts.iter() {
                write_scalar(buffer, v);
            }
        }
        // The caller saw a string only `dst` held, and nothing has run since; were it
        // shared, a new string is as correct.
        None => {
            let mut fresh = String::new();
            for v in parts.iter() {
                write_scalar(&mut fresh, v);
            }
            text = Rc::new(fresh);
        }
    }
    Ok(Value::Str(text))
}

/// `Concat` into a new string, sized up front for the text parts (and a short number
/// each for the rest), so that a typical interpolation allocates once.
pub(super) fn join_parts(stack: &mut super::Stack, base: usize, op: &Op) -> Result<Value, VmError> {
    let mut frame = Frame::new(stack, base, "Concat");
    let &Op::Concat { start, count, .. } = op else {
        return Err(frame.lost());
    };
    let parts = frame.run_mut(start, count)?;
    let capacity: usize = parts.iter().map(|v| v.as_str().map_or(8, str::len)).sum();
    // The parts that hold no other value are counted as walked all at once; any other
    // counts its own elements as it is written.
    let scalars = parts.iter().filter(|v| is_scalar(v)).count();
    crate::walk::steps(scalars as u64)?;
    let mut s = String::with_capacity(capacity);
    for v in parts.iter() {
        if !write_scalar(&mut s, v) {
            write_display(&mut s, v)?;
        }
    }
    Ok(Value::str(s))
}
