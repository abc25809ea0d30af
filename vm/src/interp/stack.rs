//! The value stack, and the one unchecked way into it: a register of the running frame.
//!
//! Every instruction names registers by a 16-bit index into its frame's window. Checking
//! each access against the stack's length was a third of the instructions of a tight
//! loop, so the check is made once instead: **a frame's window (`Function::window`,
//! from `Proto::register_window`) covers every register its code names, `push_frame`
//! grows the stack to `base + window` before the frame runs, and the stack never shrinks
//! below the windows of live frames** (nested calls truncate back only to where they
//! began). Under that invariant a [`Reg`] is always in bounds.

use std::ops::{Deref, DerefMut, Index, IndexMut};
use std::slice::SliceIndex;

use crate::value::Value;

/// The VM's value stack. Indexing by `usize` or a range is checked as for a `Vec`; by
/// [`Reg`] it is not.
#[derive(Default)]
pub(crate) struct Stack(Vec<Value>);

impl Stack {
    pub(crate) fn with_capacity(n: usize) -> Self {
        Stack(Vec::with_capacity(n))
    }

    /// `truncate(len)` that runs no destructor for the values that own nothing (most of
    /// a finished call's registers): `Vec::truncate` calls the drop glue for each slot.
    pub(crate) fn drop_above(&mut self, len: usize) {
        let Some(tail) = self.0.get_mut(len..) else {
            return;
        };
        for v in tail {
            if !matches!(
                v,
                Value::Nil | Value::Bool(_) | Value::Int(_) | Value::Float(_)
            ) {
                *v = Value::Nil;
            }
        }
        // SAFETY: `len` is at most the length (checked by `get_mut` above), so the slots
        // kept are initialised; the ones cut off now own nothing, so forgetting them is
        // what dropping them would do.
        unsafe { self.0.set_len(len) };
    }

    /// Opens a call window on top of the stack: the callee's slot (nil; it receives the
    /// result), a copy of `args`, and nil up to `window` registers after the callee's
    /// slot, all in one reservation.
    pub(crate) fn open_window(&mut self, args: &[Value], window: usize) {
        let len = self.0.len();
        let top = len + 1 + window.max(args.len());
        self.0.reserve(top - len);
        // Written in place: through `push`, `extend` and `resize_with` (each a call with
        // its own capacity checks) this came to over a hundred instructions for a
        // five-register window, once per callback of a lazy `map` or `filter`.
        // SAFETY: `reserve` left room for `top - len` values past `len`; each of those
        // slots is written exactly once, nothing is read, and only then does `set_len`
        // make them part of the vector. `copy_of` cannot unwind (a clone of an `Rc`
        // aborts on overflow), so no slot is left half-initialised.
        unsafe {
            let slots = self.0.as_mut_ptr().add(len);
            slots.write(Value::Nil);
            for (i, arg) in args.iter().enumerate() {
                slots.add(1 + i).write(super::exec::copy_of(arg));
            }
            for i in 1 + args.len()..top - len {
                slots.add(i).write(Value::Nil);
            }
            self.0.set_len(top);
        }
    }
}

impl Deref for Stack {
    type Target = Vec<Value>;
    fn deref(&self) -> &Vec<Value> {
        &self.0
    }
}

impl DerefMut for Stack {
    fn deref_mut(&mut self) -> &mut Vec<Value> {
        &mut self.0
    }
}

impl<I: SliceIndex<[Value]>> Index<I> for Stack {
    type Output = I::Output;
    fn index(&self, i: I) -> &I::Output {
        &self.0[i]
    }
}

impl<I: SliceIndex<[Value]>> IndexMut<I> for Stack {
    fn index_mut(&mut self, i: I) -> &mut I::Output {
        &mut self.0[i]
    }
}

/// An absolute stack slot known to be in bounds: a register of the running frame.
#[derive(Clone, Copy)]
pub(crate) struct Reg(usize);

impl Reg {
    /// # Safety
    ///
    /// `slot` must be below the stack's length for as long as the `Reg` is used: in
    /// practice `base + r` for the running frame's `base` and a register `r` its code
    /// names (see the module docs).
    #[inline(always)]
    pub(crate) unsafe fn new(slot: usize) -> Reg {
        Reg(slot)
    }
}

impl Index<Reg> for Stack {
    type Output = Value;
    #[inline(always)]
    fn index(&self, r: Reg) -> &Value {
        debug_assert!(r.0 < self.0.len(), "register outside the frame's window");
        // SAFETY: `Reg::new`'s contract: the slot is below the stack's length.
        unsafe { self.0.get_unchecked(r.0) }
    }
}

impl IndexMut<Reg> for Stack {
    #[inline(always)]
    fn index_mut(&mut self, r: Reg) -> &mut Value {
        debug_assert!(r.0 < self.0.len(), "register outside the frame's window");
        // SAFETY: as for `index`.
        unsafe { self.0.get_unchecked_mut(r.0) }
    }
}
