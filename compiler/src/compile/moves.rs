//! Moving a local's value into the call that consumes it.
//!
//! A list or dict held twice is copied by its first change. In `xs = xs.push(x)`,
//! `xs = add(xs, x)`, `return acc.push(x)` or a closure ending in `acc.push(x)`, the
//! local's value is never read again: the statement overwrites it, or the frame ends.
//! Moved (`Take`) into the call's window instead of copied, it is held once, so the call
//! changes it in place and a loop of such statements is linear, not quadratic.
//!
//! The local holds nil from the move until the statement ends, which nothing may see:
//! **a local is moved only when no other part of the call names it, no `catch` of this
//! function can run while it is in scope (it was declared inside every `try` open
//! here), and the function has no `defer`**. A moved receiver is taken after the
//! arguments are evaluated, so the move is the last thing before the call.

use rustc_hash::FxHashSet as HashSet;

use super::names::names_in_expr;
use super::{CResult, Compiler};
use crate::ast::{Arg, BinOp, Expr, ExprKind};
use crate::bytecode::Op;

/// Which locals a statement may consume: the one it assigns, or any (the frame ends
/// with it).
#[derive(Clone, Copy)]
pub(crate) enum Consumer<'n> {
    Assigned(&'n str),
    FrameEnd,
}

impl Consumer<'_> {
    fn accepts(self, name: &str) -> bool {
        match self {
            Consumer::Assigned(n) => n == name,
            Consumer::FrameEnd => true,
        }
    }
}

/// Whether any of `exprs` reads, calls or assigns `name` (nested functions included).
fn named_in<'e>(exprs: impl IntoIterator<Item = &'e Expr>, name: &str) -> bool {
    let mut names = HashSet::default();
    for e in exprs {
        names_in_expr(e, &mut names);
    }
    names.contains(name)
}

fn arg_exprs(args: &[Arg]) -> impl Iterator<Item = &Expr> {
    args.iter().map(|(Arg::Positional(e) | Arg::Spread(e))| e)
}

impl<'a> Compiler<'a> {
    /// The register of the local `name` when its value may be moved out here (see the
    /// module docs).
    fn movable(&self, name: &str) -> Option<u16> {
        let f = self.cur_ref();
        if !f.defers.is_empty() || f.is_self(name) {
            return None;
        }
        let local = f.lookup_quiet(name)?;
        (local.owned && local.try_depth == f.tries.len()).then_some(local.reg)
    }

    /// Compiles `value` into `dst`, moving a local that `consumer` allows into the call
    /// `value` is: the method's receiver, or else one plain argument. `false`, with
    /// nothing emitted, when no move applies.
    pub(crate) fn consuming_call(
        &mut self,
        value: &'a Expr,
        dst: u16,
        consumer: Consumer<'_>,
    ) -> CResult<bool> {
        let (receiver, callee, args) = match &value.kind {
            ExprKind::MethodCall { receiver, args, .. } => (Some(&**receiver), None, &args[..]),
            ExprKind::Call { callee, args, .. } => (None, Some(&callee.name), &args[..]),
            ExprKind::Binary {
                op: BinOp::Add,
                lhs,
                rhs,
            } => return self.consuming_add(lhs, rhs, dst, consumer),
            _ => return Ok(false),
        };
        if let (
            Some(recv),
            ExprKind::MethodCall {
                method,
                optional,
                ..
            },
        ) = (receiver, &value.kind)
            && let ExprKind::Ident(name) = &recv.kind
            && consumer.accepts(name)
            && self.movable(name).is_some()
            && !named_in(arg_exprs(args), name)
        {
            self.method_call(recv, method, args, *optional, dst, true)?;
            return Ok(true);
        }
        // One plain argument, named nowhere else in the call.
        for (i, arg) in args.iter().enumerate() {
            let Arg::Positional(e) = arg else { continue };
            let ExprKind::Ident(name) = &e.kind else {
                continue;
            };
            // The callee is read from its local when the call is made.
            if !consumer.accepts(name) || callee.is_some_and(|c| c == name) {
                continue;
            }
            let Some(src) = self.movable(name) else {
                continue;
            };
            let others = arg_exprs(args)
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, e)| e)
                .chain(receiver);
            if named_in(others, name) {
                continue;
            }
            self.move_arg = Some((e, src));
            let compiled = self.expr_into(value, dst);
            self.move_arg = None;
            compiled?;
            return Ok(true);
        }
        Ok(false)
    }

    /// `acc + [x]`, `acc + {k: v}`, `acc + "text"` ending a frame, with `acc` consumed:
    /// taken into `dst` once the right side is evaluated, so `Add` (whose result
    /// register is its left operand) extends it in place. Only with a literal list,
    /// dict or string on the right: `acc + x` is mostly numbers, which a move would only
    /// slow down. (An assignment `s = s + t` extends `s` in place already.)
    fn consuming_add(
        &mut self,
        lhs: &'a Expr,
        rhs: &'a Expr,
        dst: u16,
        consumer: Consumer<'_>,
    ) -> CResult<bool> {
        let ExprKind::Ident(name) = &lhs.kind else {
            return Ok(false);
        };
        let extends = matches!(
            rhs.kind,
            ExprKind::List(_) | ExprKind::Dict(_) | ExprKind::Str(_) | ExprKind::InterpStr(_)
        );
        if !extends || !matches!(consumer, Consumer::FrameEnd) || named_in([rhs], name) {
            return Ok(false);
        }
        let Some(src) = self.movable(name) else {
            return Ok(false);
        };
        let b = self.expr_any(rhs)?;
        self.emit(Op::Take { dst, src });
        self.emit(Op::Add { dst, a: dst, b });
        Ok(true)
    }
}
