//! Instructions on a container's elements that only the general loop runs, each out
//! of line so that the interpreter loop stays small: its code is sensitive to every arm
//! (an inline arm more, even one never run, has cost a counted loop 3% of its
//! instructions), so anything rare or long goes through a call here.

use std::rc::Rc;

use harn_compiler::bytecode::Op;

use super::exec::{copy_of, put};
use crate::access;
use crate::display::write_display;
use crate::value::{Owned, Value};

/// `SetNested`: the value's temporaries emptied (so no temporary still shares the
/// nested container), then `access::set_nested`. Only the general loop runs it: with an
/// arm for it in the fast lane (or int-key reads and writes through `access` there), the
/// lane's registers came out worse and a counted loop over 10M ints ran 3 to 12% more
/// instructions (592.7M to 612-772M), for an 11% gain on a grid update.
#[inline(never)]
pub(super) fn store_nested(
    stack: &mut super::Stack,
    function: &crate::function::Function,
    base: usize,
    op: &Op,
) -> Result<(), crate::error::VmError> {
    use crate::access::Key;
    let lost = || crate::error::VmError::runtime("SetNested names a register past its frame");
    let Op::SetNested(n) = op else {
        return Err(lost());
    };
    let (src, clear) = (n.src, n.clear);
    let at = |r: u16| base + usize::from(r);
    for r in src + 1..=src.saturating_add(u16::from(clear)) {
        put(stack.get_mut(at(r)).ok_or_else(lost)?, Value::Nil);
    }
    let read = |r: u16| stack.get(at(r)).map(copy_of).ok_or_else(lost);
    let v = read(src)?;
    // A subscript is copied out of its register (the root is borrowed mutably below).
    let outer_index = if n.outer_is_field() {
        Value::Nil
    } else {
        read(n.outer)?
    };
    let inner_index = if n.inner_is_field() {
        Value::Nil
    } else {
        read(n.inner)?
    };
    fn key<'k>(
        function: &'k crate::function::Function,
        is_field: bool,
        r: u16,
        index: &'k Value,
    ) -> Key<'k> {
        if is_field {
            let name = function.consts.get(usize::from(r)).and_then(Value::as_str);
            Key::Field(name.unwrap_or(""))
        } else {
            Key::Index(index)
        }
    }
    let outer_key = key(function, n.outer_is_field(), n.outer, &outer_index);
    let inner_key = key(function, n.inner_is_field(), n.inner, &inner_index);
    let root = stack.get_mut(at(n.obj)).ok_or_else(lost)?;
    crate::access::set_nested(root, outer_key, inner_key, v)
}

/// `TakeItem`: `access::take_child` on the container register. Out of line, as
/// `store_nested` is, to keep the interpreter loop small. (With this instruction added,
/// inline or not, last in `Op` or not, a counted loop over 10M ints runs 612.7M
/// instructions instead of 592.7M: the loop's code came out differently.)
#[inline(never)]
pub(super) fn take_item(
    stack: &mut super::Stack,
    function: &crate::function::Function,
    base: usize,
    op: &Op,
) -> Result<(), crate::error::VmError> {
    let lost = || crate::error::VmError::runtime("TakeItem names a register past its frame");
    let Op::TakeItem {
        dst,
        obj,
        key,
        field,
    } = *op
    else {
        return Err(lost());
    };
    let at = |r: u16| base + usize::from(r);
    let index = if field {
        Value::Nil
    } else {
        stack.get(at(key)).map(copy_of).ok_or_else(lost)?
    };
    let key = if field {
        let name = function
            .consts
            .get(usize::from(key))
            .and_then(Value::as_str);
        access::Key::Field(name.unwrap_or(""))
    } else {
        access::Key::Index(&index)
    };
    let v = access::take_child(stack.get_mut(at(obj)).ok_or_else(lost)?, key)?;
    put(stack.get_mut(at(dst)).ok_or_else(lost)?, v);
    Ok(())
}

/// `Slice`: `dst = obj[start:end]` (`access::slice`). Written back over the register
/// it is cut from (`queue = queue[1:]`), the old list is dead once the slice is stored,
/// so a list nothing else holds is cut in place (`access::slice_over`).
#[inline(never)]
pub(super) fn slice_item(
    stack: &mut super::Stack,
    base: usize,
    op: &Op,
) -> Result<(), crate::error::VmError> {
    let lost = || crate::error::VmError::runtime("Slice names a register past its frame");
    let Op::Slice {
        dst,
        obj,
        start,
        end,
    } = *op
    else {
        return Err(lost());
    };
    let at = |r: u16| base + usize::from(r);
    let start = stack.get(at(start)).cloned().ok_or_else(lost)?;
    let end = stack.get(at(end)).cloned().ok_or_else(lost)?;
    if dst == obj {
        let slot = stack.get_mut(at(obj)).ok_or_else(lost)?;
        return access::slice_over(slot, &start, &end);
    }
    let v = access::slice(stack.get(at(obj)).ok_or_else(lost)?, &start, &end)?;
    put(stack.get_mut(at(dst)).ok_or_else(lost)?, v);
    Ok(())
}

/// `Concat` when its first part is a string only the part's register holds: the parts
/// are the instruction's own temporaries, dead once it is done, so that string
/// (`s = "${s}${p},"` takes `s` into it) is taken and the displays of the rest appended
/// to it in place rather than copied, and a loop building a string that way is linear,
/// not quadratic. (Any other `Concat` builds a new string in the loop itself.)
#[inline(never)]
pub(super) fn append_parts(
    stack: &mut super::Stack,
    base: usize,
    op: &Op,
) -> Result<Value, crate::error::VmError> {
    let lost = || crate::error::VmError::runtime("Concat names a register past its frame");
    let Op::Concat { start, count, .. } = *op else {
        return Err(lost());
    };
    let first = base + usize::from(start);
    let parts = stack
        .get_mut(first..first + usize::from(count))
        .ok_or_else(lost)?;
    let Some((head, rest)) = parts.split_first_mut() else {
        return Err(lost());
    };
    // The caller saw a string there.
    let Owned::Str(mut text) = std::mem::replace(head, Value::Nil).into_owned() else {
        return Err(lost());
    };
    let grown = Rc::make_mut(&mut text);
    grown.reserve(rest.iter().map(|v| v.as_str().map_or(8, str::len)).sum());
    for v in rest.iter() {
        write_display(grown, v)?;
    }
    Ok(Value::Str(text))
}
