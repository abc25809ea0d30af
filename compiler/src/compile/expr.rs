//! Expressions.

use super::moves::{Consumer, Moved};
use super::{CResult, Compiler};
use crate::ast::*;
use crate::bytecode::{Cmp, Const, Op};
use crate::suggest::suggest;

fn binop(op: BinOp, dst: u16, a: u16, b: u16) -> Op {
    match op {
        BinOp::Add => Op::Add { dst, a, b },
        BinOp::Sub => Op::Sub { dst, a, b },
        BinOp::Mul => Op::Mul { dst, a, b },
        BinOp::Div => Op::Div { dst, a, b },
        BinOp::Mod => Op::Mod { dst, a, b },
        BinOp::Pow => Op::Pow { dst, a, b },
        BinOp::Eq => Op::Eq { dst, a, b },
        BinOp::Ne => Op::Ne { dst, a, b },
        BinOp::Lt => Op::Lt { dst, a, b },
        BinOp::Le => Op::Le { dst, a, b },
        BinOp::Gt => Op::Gt { dst, a, b },
        BinOp::Ge => Op::Ge { dst, a, b },
        BinOp::In | BinOp::NotIn => Op::In { dst, a, b },
        BinOp::And | BinOp::Or | BinOp::Coalesce => Op::Nop,
    }
}

/// Whether `_` occurs as a bare identifier in a pipe's right-hand side.
fn mentions_placeholder(e: &Expr) -> bool {
    let mut names = rustc_hash::FxHashSet::default();
    super::names::names_in_expr(e, &mut names);
    names.contains("_")
}

/// Arguments of a call: as written, or the single value piped into a function.
#[derive(Clone, Copy)]
pub(crate) enum CallArgs<'a> {
    List(&'a [Arg]),
    Single(&'a Expr),
}

/// The comparison a condition's operator makes, when it has a fused branch.
fn fused_comparison(op: BinOp) -> Option<Cmp> {
    Some(match op {
        BinOp::Eq => Cmp::Eq,
        BinOp::Ne => Cmp::Ne,
        BinOp::Lt => Cmp::Lt,
        BinOp::Le => Cmp::Le,
        BinOp::Gt => Cmp::Gt,
        BinOp::Ge => Cmp::Ge,
        _ => return None,
    })
}

/// The jumps a condition emits toward one target, patched together once the target is
/// known. One jump for most conditions (no allocation); `&&` and `||` add more.
pub(crate) struct Exits {
    first: usize,
    more: Vec<usize>,
}

impl Exits {
    fn one(at: usize) -> Self {
        Exits {
            first: at,
            more: Vec::new(),
        }
    }

    fn join(&mut self, other: Exits) {
        self.more.push(other.first);
        self.more.extend(other.more);
    }

    /// Points every jump at the next instruction to be emitted.
    pub(crate) fn land(self, c: &mut Compiler<'_>) {
        c.patch(self.first);
        for at in self.more {
            c.patch(at);
        }
    }
}

impl<'a> Compiler<'a> {
    /// A register holding the value of `e`: the variable's own register for a local,
    /// else a fresh temporary.
    pub(crate) fn expr_any(&mut self, e: &'a Expr) -> CResult<u16> {
        if let ExprKind::Ident(name) = &e.kind
            && let Some(local) = self.cur_ref().lookup(name)
        {
            return Ok(local.reg);
        }
        let r = self.alloc();
        self.expr_into_fresh(e, r)?;
        Ok(r)
    }

    /// [`Compiler::expr_into`] for a register just allocated, which holds nothing yet.
    pub(crate) fn expr_into_fresh(&mut self, e: &'a Expr, dst: u16) -> CResult<()> {
        self.fresh_dst = Some(dst);
        self.expr_into(e, dst)
    }

    fn undefined_variable(&mut self, name: &str, dst: u16) {
        let msg = self.undefined_name_text(name);
        let k = self.str_const(&msg);
        self.emit(Op::UndefinedError { k });
        self.emit(Op::LoadNil { dst });
    }

    /// Jumps (to be patched together, [`Exits::land`]) taken when `cond` is falsy; falls
    /// through when it is truthy. `&&`, `||` and `!` become branches: only truthiness
    /// decides a branch, so no boolean is built (`c == "a" || c == "e"` was an `Eq`, a
    /// `ToBool` and a `JumpIfTrue` per alternative, and a second `ToBool` between them).
    pub(crate) fn cond_jump_false(&mut self, cond: &'a Expr) -> CResult<Exits> {
        self.cond_jump(cond, false)
    }

    /// Jumps (to be patched together) taken when `cond` is truthy; falls through when it
    /// is falsy (see [`Self::cond_jump_false`]).
    pub(crate) fn cond_jump_true(&mut self, cond: &'a Expr) -> CResult<Exits> {
        self.cond_jump(cond, true)
    }

    /// Jumps taken when `cond`'s truthiness is `when`. With `when` false, `a && b` jumps
    /// where either does and `a || b` jumps only where `b` does, once `a` held; with
    /// `when` true the two trade places. `!a` is `a` with `when` turned over.
    fn cond_jump(&mut self, cond: &'a Expr, when: bool) -> CResult<Exits> {
        crate::stack::maybe_grow(256 * 1024, 4 * 1024 * 1024, || match &cond.kind {
            ExprKind::Binary {
                op: op @ (BinOp::And | BinOp::Or),
                lhs,
                rhs,
            } => {
                // `&&` fails as soon as one side does, `||` holds as soon as one does.
                if (*op == BinOp::Or) == when {
                    let mut exits = self.cond_jump(lhs, when)?;
                    exits.join(self.cond_jump(rhs, when)?);
                    Ok(exits)
                } else {
                    let decided = self.cond_jump(lhs, !when)?;
                    let exits = self.cond_jump(rhs, when)?;
                    decided.land(self);
                    Ok(exits)
                }
            }
            ExprKind::Unary {
                op: UnaryOp::Not,
                operand,
            } => self.cond_jump(operand, !when),
            _ if !when => self.test_jump_false(cond).map(Exits::one),
            // A comparison's fused branches jump when it fails: jump over a plain jump,
            // so the comparison runs exactly as written.
            ExprKind::Binary { op, .. } if fused_comparison(*op).is_some() => {
                let skip = self.test_jump_false(cond)?;
                let taken = self.emit(Op::Jump { offset: 0 });
                self.patch(skip);
                Ok(Exits::one(taken))
            }
            _ => {
                let mark = self.cur().next_reg;
                let r = self.expr_any(cond)?;
                let j = self.emit(Op::JumpIfTrue { cond: r, offset: 0 });
                self.release_temps(mark);
                Ok(Exits::one(j))
            }
        })
    }

    /// One jump, taken when `cond` (any expression) is falsy: a comparison's fused
    /// branch, or the value and `JumpIfFalse`.
    fn test_jump_false(&mut self, cond: &'a Expr) -> CResult<usize> {
        if let ExprKind::Binary { op, lhs, rhs } = &cond.kind
            && let Some(cmp) = fused_comparison(*op)
        {
            let mark = self.cur().next_reg;
            let a = self.expr_any(lhs)?;
            let j = self.compare_jump(cmp, a, rhs)?;
            self.release_temps(mark);
            return Ok(j);
        }
        let mark = self.cur().next_reg;
        let r = self.expr_any(cond)?;
        let j = self.emit(Op::JumpIfFalse { cond: r, offset: 0 });
        self.release_temps(mark);
        Ok(j)
    }

    /// One jump, taken unless `a cmp rhs` holds: the right side a small int literal as
    /// the instruction's immediate, a string literal as its constant, or else evaluated
    /// into a register (whose temporaries the caller releases).
    pub(crate) fn compare_jump(&mut self, cmp: Cmp, a: u16, rhs: &'a Expr) -> CResult<usize> {
        if let ExprKind::Int(n) = rhs.kind
            && let Ok(imm) = i32::try_from(n)
        {
            return Ok(self.emit(if cmp == Cmp::Lt {
                Op::JumpIfNotLtImm { a, imm, offset: 0 }
            } else {
                Op::JumpIfNotImm {
                    cmp,
                    a,
                    imm,
                    offset: 0,
                }
            }));
        }
        if let ExprKind::Str(s) = &rhs.kind {
            // On the literal's line, as its load was (a `match` arm's pattern).
            self.set_line(rhs.span);
            let k = self.str_const(s);
            return Ok(self.emit(Op::JumpIfNotK {
                cmp,
                a,
                k,
                offset: 0,
            }));
        }
        let b = self.expr_any(rhs)?;
        Ok(self.emit(if cmp == Cmp::Lt {
            Op::JumpIfNotLt { a, b, offset: 0 }
        } else {
            Op::JumpIfNot {
                cmp,
                a,
                b,
                offset: 0,
            }
        }))
    }

    fn enum_name_of(&self, e: &Expr) -> Option<String> {
        if let ExprKind::Ident(name) = &e.kind
            && self.enums.contains_key(name.as_str())
            && self.cur_ref().lookup(name).is_none()
        {
            return Some(name.to_string());
        }
        None
    }

    fn load_int(&mut self, dst: u16, n: i64) {
        match i32::try_from(n) {
            Ok(value) => {
                self.emit(Op::LoadInt { dst, value });
            }
            Err(_) => {
                let k = self.konst(Const::Int(n));
                self.emit(Op::LoadConst { dst, k });
            }
        }
    }

    /// Compiles `e` so that its value ends up in register `dst`.
    pub(crate) fn expr_into(&mut self, e: &'a Expr, dst: u16) -> CResult<()> {
        // Nesting is bounded by the parser; the stack still grows on the heap if an
        // unoptimised build runs out on a small thread stack.
        crate::stack::maybe_grow(256 * 1024, 4 * 1024 * 1024, || self.expr_into_inner(e, dst))
    }

    fn expr_into_inner(&mut self, e: &'a Expr, dst: u16) -> CResult<()> {
        if let Some((at, name)) = self.consume_arg
            && std::ptr::eq(at, e)
        {
            self.consume_arg = None;
            if self.consuming_call(e, dst, Consumer::Argument(name))? {
                return Ok(());
            }
        }
        self.set_line(e.span);
        // Only the expression it was set for may use it, not one nested inside.
        let fresh = self.fresh_dst.take() == Some(dst);
        match &e.kind {
            ExprKind::Nil => {
                self.emit(Op::LoadNil { dst });
            }
            ExprKind::Bool(value) => {
                self.emit(Op::LoadBool { dst, value: *value });
            }
            ExprKind::Int(n) => self.load_int(dst, *n),
            ExprKind::Float(x) => {
                let k = self.konst(Const::Float(*x));
                self.emit(Op::LoadConst { dst, k });
            }
            ExprKind::Duration(ms) => {
                let k = self.konst(Const::Duration(*ms));
                self.emit(Op::LoadConst { dst, k });
            }
            ExprKind::Str(s) => {
                let k = self.str_const(s);
                self.emit(Op::LoadConst { dst, k });
            }
            ExprKind::InterpStr(parts) => {
                let count = u16::try_from(parts.len()).unwrap_or(u16::MAX);
                let start = self.alloc_n(parts.len());
                for (i, part) in parts.iter().enumerate() {
                    let r = Self::nth(start, i);
                    match part {
                        StrPart::Lit(s) => {
                            let k = self.str_const(s);
                            self.emit(Op::LoadConst { dst: r, k });
                        }
                        // The consumed local a `x = "${x}..."` starts with (`moves.rs`):
                        // taken, so `Concat` can append to it in place.
                        StrPart::Expr(e) => match self.move_arg {
                            Some((moved, src)) if std::ptr::eq(moved, e) => {
                                self.move_arg = None;
                                self.emit(Op::Take { dst: r, src });
                            }
                            _ => self.expr_into(e, r)?,
                        },
                    }
                }
                self.clear_late_local(parts.as_ptr().cast(), None);
                self.emit(Op::Concat { dst, start, count });
            }
            ExprKind::Ident(name) => self.read_name(name, dst)?,
            ExprKind::List(items) => self.list(items, dst)?,
            ExprKind::Dict(entries) => self.dict(entries, dst)?,
            ExprKind::StructLit { name, fields } => {
                let d = self.alloc();
                self.dict(fields, d)?;
                let d = self.with_struct_defaults(&name.name, d)?;
                let name_k = self.str_const(&name.name);
                self.emit(Op::MakeStruct {
                    dst,
                    name_k,
                    fields: d,
                });
            }
            ExprKind::Closure(c) => {
                // Closures and `fn(...) {}` expressions both return their last value.
                let proto = self.function("", &c.params, &c.body, true, None)?;
                self.emit(Op::MakeClosure { dst, proto });
            }
            ExprKind::Unary { op, operand } => {
                let r = self.expr_any(operand)?;
                match op {
                    UnaryOp::Neg => self.emit(Op::Neg { dst, src: r }),
                    UnaryOp::Not => self.emit(Op::Not { dst, src: r }),
                };
            }
            ExprKind::Binary { op, lhs, rhs } => self.binary(*op, lhs, rhs, dst)?,
            ExprKind::Pipe { value, func } => self.pipe(value, func, dst)?,
            ExprKind::Ternary {
                cond,
                then,
                otherwise,
            } => {
                let j = self.cond_jump_false(cond)?;
                self.expr_into(then, dst)?;
                let end = self.emit(Op::Jump { offset: 0 });
                j.land(self);
                self.expr_into(otherwise, dst)?;
                self.patch(end);
            }
            ExprKind::Range {
                start,
                end,
                inclusive,
            } => {
                let a = self.expr_any(start)?;
                let b = self.expr_any(end)?;
                self.emit(Op::MakeRange {
                    dst,
                    start: a,
                    end: b,
                    inclusive: *inclusive,
                });
            }
            ExprKind::Call { callee, args, .. } => {
                self.call(&callee.name, CallArgs::List(args), dst, fresh)?
            }
            ExprKind::MethodCall {
                receiver,
                method,
                args,
                optional,
            } => {
                let moved = self.record_move_for(e);
                self.method_call(receiver, method, args, *optional, dst, moved)?;
            }
            ExprKind::Member {
                object,
                name,
                optional,
            } => {
                // `stream.map` read as a value: the namespaced builtin itself.
                if let Some(builtin) = crate::builtins::namespaced_builtin(object, &name.name)
                    && let ExprKind::Ident(root) = &object.kind
                    && self.cur_ref().lookup(root).is_none()
                    && !self.global_index.contains_key(root.as_str())
                {
                    return self.read_name(&builtin, dst);
                }
                if let Some(enum_name) = self.enum_name_of(object) {
                    let enum_k = self.str_const(&enum_name);
                    let variant_k = self.str_const(&name.name);
                    self.emit(Op::MakeEnum {
                        dst,
                        enum_k,
                        variant_k,
                        start: dst,
                        count: 0,
                    });
                    return Ok(());
                }
                let obj = self.expr_any(object)?;
                let k = self.str_const(&name.name);
                self.emit(Op::GetField {
                    dst,
                    obj,
                    k,
                    optional: *optional,
                });
            }
            ExprKind::Index {
                object,
                index,
                optional,
            } => {
                let obj = self.expr_any(object)?;
                let idx = self.expr_any(index)?;
                self.emit(Op::GetIndex {
                    dst,
                    obj,
                    index: idx,
                    optional: *optional,
                });
            }
            ExprKind::Slice { object, start, end } => {
                let obj = self.expr_any(object)?;
                let s = self.alloc();
                match start {
                    Some(x) => self.expr_into(x, s)?,
                    None => {
                        self.emit(Op::LoadNil { dst: s });
                    }
                }
                let en = self.alloc();
                match end {
                    Some(x) => self.expr_into(x, en)?,
                    None => {
                        self.emit(Op::LoadNil { dst: en });
                    }
                }
                self.emit(Op::Slice {
                    dst,
                    obj,
                    start: s,
                    end: en,
                });
            }
            ExprKind::Propagate(inner) | ExprKind::TryStar(inner) => {
                let r = self.expr_any(inner)?;
                if matches!(e.kind, ExprKind::Propagate(_)) {
                    self.emit(Op::Propagate { dst, src: r });
                } else {
                    self.emit(Op::Move { dst, src: r });
                }
            }
            ExprKind::If {
                cond,
                then,
                otherwise,
            } => {
                let j = self.cond_jump_false(cond)?;
                self.block_into(then, Some(dst))?;
                let end = self.emit(Op::Jump { offset: 0 });
                j.land(self);
                match otherwise {
                    Some(ElseBranch::Block(b)) => self.block_into(b, Some(dst))?,
                    Some(ElseBranch::If(e)) => self.expr_into(e, dst)?,
                    None => {
                        self.emit(Op::LoadNil { dst });
                    }
                }
                self.patch(end);
            }
            ExprKind::Match { scrutinee, arms } => self.match_expr(scrutinee, arms, dst)?,
            ExprKind::Try {
                body,
                catch,
                finally,
            } => self.try_expr(body, catch.as_deref(), finally.as_ref(), dst)?,
            ExprKind::Spawn(_)
            | ExprKind::Parallel { .. }
            | ExprKind::Select(_)
            | ExprKind::Mutex(_)
            | ExprKind::Deadline { .. }
            | ExprKind::Emit(_) => {
                self.record_error(
                    "concurrency and generator forms are not supported by this VM yet",
                );
                return Ok(());
            }
            ExprKind::Yield(value) => {
                if !self.cur_ref().proto.is_generator {
                    self.record_error("yield outside a function");
                    return Ok(());
                }
                let src = match value {
                    Some(v) => self.expr_any(v)?,
                    None => {
                        let r = self.alloc();
                        self.emit(Op::LoadNil { dst: r });
                        r
                    }
                };
                self.emit(Op::Yield { dst, src });
            }
            ExprKind::Error => {
                self.record_error("cannot compile a program with syntax errors");
                return Ok(());
            }
        }
        Ok(())
    }

    /// `name`, plus `` (did you mean `y`?)`` when a name in scope is close (8.7).
    fn undefined_name_text(&self, name: &str) -> String {
        let f = self.cur_ref();
        let locals = f
            .scopes
            .iter()
            .flat_map(|s| s.iter().map(|l| l.name.as_str()));
        let candidates = locals.chain(self.globals.iter().map(Name::as_str));
        match suggest(name, candidates) {
            Some(s) => format!("{name} (did you mean `{s}`?)"),
            None => name.to_string(),
        }
    }

    fn read_name(&mut self, name: &str, dst: u16) -> CResult<()> {
        if let Some(local) = self.cur_ref().lookup(name) {
            let src = local.reg;
            if src != dst {
                self.emit(Op::Move { dst, src });
            }
            return Ok(());
        }
        // A mirrored `let` is a global for calls only: read as a value inside a `fn`
        // above it, the name is still undefined (the snapshot rule).
        if let Some(&slot) = self.global_index.get(name)
            && !self.mirrored.contains(&slot)
        {
            self.emit(Op::GetGlobal { dst, slot });
            return Ok(());
        }
        if let Some(schema) = self.schemas.get(name) {
            return self.expr_into(schema, dst);
        }
        if name == "_" {
            self.undefined_variable(name, dst);
            return Ok(());
        }
        // `pi` and `e` read as values are numbers (`pi * 2`); called, they stay builtins.
        if let Some(x) = crate::builtins::constant_value(name) {
            let k = self.konst(Const::Float(x));
            self.emit(Op::LoadConst { dst, k });
            return Ok(());
        }
        // A builtin used as a value (or an undefined name, reported when executed).
        let msg = self.undefined_name_text(name);
        let k = self.str_const(name);
        let m = self.str_const(&msg);
        self.emit(Op::LoadBuiltin { dst, k, msg_k: m });
        Ok(())
    }

    fn list(&mut self, items: &'a [Arg], dst: u16) -> CResult<()> {
        if items.iter().all(|a| matches!(a, Arg::Positional(_))) {
            let count = u16::try_from(items.len()).unwrap_or(u16::MAX);
            let start = self.consecutive(items)?;
            self.emit(Op::NewList { dst, start, count });
            return Ok(());
        }
        let list = self.alloc();
        self.emit(Op::NewList {
            dst: list,
            start: list,
            count: 0,
        });
        for item in items {
            let mark = self.cur().next_reg;
            match item {
                Arg::Positional(e) => {
                    let r = self.expr_any(e)?;
                    self.clear_late_local(items.as_ptr().cast(), Some(r));
                    self.emit(Op::ListPush { list, src: r });
                }
                Arg::Spread(e) => {
                    let (r, moved) = self.spread_source(e)?;
                    self.emit(Op::ListExtend { list, src: r });
                    if moved {
                        self.emit(Op::LoadNil { dst: r });
                    }
                }
            }
            self.cur().next_reg = mark;
        }
        // Taken, not copied, as `dict` does: a temporary sharing the list would make its
        // next change (`acc = [...acc, x]` in a loop) copy it whole.
        self.emit(Op::Take { dst, src: list });
        Ok(())
    }

    /// Empties the local a literal consumes late (`moves.rs`), when `literal` (the
    /// address of its items) is that literal: everything the literal reads is read,
    /// and its one store follows. Not when the stored value is the local's own
    /// register (`[...acc, acc]`), which then stays as it is: the store copies.
    fn clear_late_local(&mut self, literal: *const (), stored: Option<u16>) {
        if let Some((pending, local)) = self.clear_late
            && std::ptr::eq(pending, literal)
        {
            self.clear_late = None;
            if stored != Some(local) {
                self.emit(Op::LoadNil { dst: local });
            }
        }
    }

    /// The register a spread reads: the local's own, or, when the literal consumes the
    /// local (`moves.rs`), a temporary it is taken into. That temporary is left to the
    /// spread alone: `ListExtend` / `DictSpread` into an empty literal shares the source,
    /// and the literal must then be its only holder, so the temporary is emptied after.
    fn spread_source(&mut self, e: &'a Expr) -> CResult<(u16, bool)> {
        match self.move_arg {
            Some((moved, src)) if std::ptr::eq(moved, e) => {
                self.move_arg = None;
                let r = self.alloc();
                self.emit(Op::Take { dst: r, src });
                Ok((r, true))
            }
            _ => Ok((self.expr_any(e)?, false)),
        }
    }

    pub(crate) fn dict(&mut self, entries: &'a [DictEntry], dst: u16) -> CResult<()> {
        let d = self.alloc();
        let pairs = entries
            .iter()
            .filter(|e| matches!(e, DictEntry::Pair { .. }))
            .count();
        let cap = u16::try_from(pairs).unwrap_or(u16::MAX);
        self.emit(Op::NewDict { dst: d, cap });
        for entry in entries {
            let mark = self.cur().next_reg;
            match entry {
                // A named key is a field store: the VM makes its key once per
                // function and shares it with every dict the literal builds.
                DictEntry::Pair {
                    key: DictKey::Name(name, _),
                    value,
                } => {
                    let c = self.str_const(name);
                    let v = self.expr_any(value)?;
                    self.clear_late_local(entries.as_ptr().cast(), Some(v));
                    self.emit(Op::SetField {
                        obj: d,
                        k: c,
                        src: v,
                    });
                }
                DictEntry::Pair {
                    key: DictKey::Computed(e),
                    value,
                } => {
                    let k = self.alloc();
                    self.expr_into(e, k)?;
                    let v = self.expr_any(value)?;
                    self.clear_late_local(entries.as_ptr().cast(), Some(v));
                    self.emit(Op::DictInsert {
                        dict: d,
                        key: k,
                        value: v,
                    });
                }
                DictEntry::Spread(e) => {
                    let (r, moved) = self.spread_source(e)?;
                    self.emit(Op::DictSpread { dict: d, src: r });
                    if moved {
                        self.emit(Op::LoadNil { dst: r });
                    }
                }
            }
            self.cur().next_reg = mark;
        }
        // Taken, not copied: the temporary would otherwise share the new dict until it is
        // overwritten, and the dict's first change (`d.k = v`, a struct made of it) would
        // copy it whole.
        self.emit(Op::Take { dst, src: d });
        Ok(())
    }

    pub(crate) fn binary(
        &mut self,
        op: BinOp,
        lhs: &'a Expr,
        rhs: &'a Expr,
        dst: u16,
    ) -> CResult<()> {
        match op {
            BinOp::And | BinOp::Or => {
                self.expr_into(lhs, dst)?;
                self.emit(Op::ToBool { dst, src: dst });
                let j = if op == BinOp::And {
                    self.emit(Op::JumpIfFalse {
                        cond: dst,
                        offset: 0,
                    })
                } else {
                    self.emit(Op::JumpIfTrue {
                        cond: dst,
                        offset: 0,
                    })
                };
                self.expr_into(rhs, dst)?;
                self.emit(Op::ToBool { dst, src: dst });
                self.patch(j);
            }
            BinOp::Coalesce => {
                self.expr_into(lhs, dst)?;
                let j = self.emit(Op::JumpIfNotNil {
                    src: dst,
                    offset: 0,
                });
                self.expr_into(rhs, dst)?;
                self.patch(j);
            }
            BinOp::Add | BinOp::Sub if matches!(rhs.kind, ExprKind::Int(n) if i16::try_from(n).is_ok()) =>
            {
                let a = self.expr_any(lhs)?;
                let n = match rhs.kind {
                    ExprKind::Int(n) => n,
                    _ => 0,
                };
                let imm = i16::try_from(n).unwrap_or(0);
                if op == BinOp::Sub {
                    self.emit(Op::SubInt { dst, a, imm });
                } else {
                    self.emit(Op::AddInt { dst, a, imm });
                }
            }
            BinOp::Mul if matches!(rhs.kind, ExprKind::Int(n) if i16::try_from(n).is_ok()) => {
                let a = self.expr_any(lhs)?;
                let imm = match rhs.kind {
                    ExprKind::Int(n) => i16::try_from(n).unwrap_or(1),
                    _ => 1,
                };
                self.emit(Op::MulInt { dst, a, imm });
            }
            BinOp::Mod if matches!(rhs.kind, ExprKind::Int(n) if n != 0 && i16::try_from(n).is_ok()) =>
            {
                let a = self.expr_any(lhs)?;
                let imm = match rhs.kind {
                    ExprKind::Int(n) => i16::try_from(n).unwrap_or(1),
                    _ => 1,
                };
                self.emit(Op::ModInt { dst, a, imm });
            }
            _ if fused_comparison(op).is_some()
                && matches!(rhs.kind, ExprKind::Int(n) if i32::try_from(n).is_ok()) =>
            {
                let a = self.expr_any(lhs)?;
                let cmp = fused_comparison(op).unwrap_or(Cmp::Eq);
                let imm = match rhs.kind {
                    ExprKind::Int(n) => i32::try_from(n).unwrap_or(0),
                    _ => 0,
                };
                self.emit(Op::CmpInt { dst, a, cmp, imm });
            }
            _ => {
                let a = self.expr_any(lhs)?;
                let b = self.expr_any(rhs)?;
                match op {
                    BinOp::In => {
                        self.emit(Op::In { dst, a, b });
                    }
                    BinOp::NotIn => {
                        self.emit(Op::In { dst, a, b });
                        self.emit(Op::Not { dst, src: dst });
                    }
                    _ => {
                        self.emit(binop(op, dst, a, b));
                    }
                }
            }
        }
        Ok(())
    }

    /// The values of `items` (spreads excepted: their registers are left empty) in
    /// consecutive registers from the first free one, which is returned. One register
    /// at a time, each the topmost while its value is compiled (a call there puts its
    /// window right on it: no copy of the result), and the value's temporaries released
    /// before the next.
    fn consecutive(&mut self, items: &'a [Arg]) -> CResult<u16> {
        let start = self.cur_ref().next_reg;
        for (i, item) in items.iter().enumerate() {
            let r = self.alloc();
            if r != Self::nth(start, i) && !self.limit_reported {
                // Only a saturated register count (reported) should get here.
                self.record_error("internal: values meant for consecutive registers are not");
            }
            if let Arg::Positional(e) = item {
                match self.move_arg {
                    Some((moved, src)) if std::ptr::eq(moved, e) => {
                        self.move_arg = None;
                        self.emit(Op::Take { dst: r, src });
                    }
                    _ => self.expr_into_fresh(e, r)?,
                }
            }
            self.release_temps(r.saturating_add(1));
        }
        Ok(start)
    }

    /// Places call arguments after `base`; `(count, spread)` where a spread call passes
    /// one list register.
    fn call_args(&mut self, base: u16, args: CallArgs<'a>) -> CResult<(u16, bool)> {
        let args = match args {
            CallArgs::Single(e) => {
                let r = self.alloc();
                self.expr_into_fresh(e, r)?;
                let _ = base;
                return Ok((1, false));
            }
            CallArgs::List(args) => args,
        };
        if args.iter().any(|a| matches!(a, Arg::Spread(_))) {
            let list = self.alloc();
            self.list(args, list)?;
            return Ok((1, true));
        }
        let count = u16::try_from(args.len()).unwrap_or(u16::MAX);
        self.consecutive(args)?;
        Ok((count, false))
    }

    /// `name(args)`: a local or captured variable, else a global, else a builtin.
    pub(crate) fn call(
        &mut self,
        name: &str,
        args: CallArgs<'a>,
        dst: u16,
        fresh: bool,
    ) -> CResult<()> {
        if self.structs.contains(name)
            && self.cur_ref().lookup(name).is_none()
            && let CallArgs::List([Arg::Positional(fields)]) = args
        {
            let f = self.expr_any(fields)?;
            let f = self.with_struct_defaults(name, f)?;
            let name_k = self.str_const(name);
            self.emit(Op::MakeStruct {
                dst,
                name_k,
                fields: f,
            });
            return Ok(());
        }
        if self.cur_ref().is_self(name) {
            // Direct recursion: the callee is the running closure, so `base` is written
            // only by the result. When `dst` is the topmost register the call can use it
            // as its base and the result lands in place (arguments go above it).
            let base = if dst.checked_add(1) == Some(self.cur_ref().next_reg) {
                dst
            } else {
                self.alloc()
            };
            let (nargs, spread) = self.call_args(base, args)?;
            if spread {
                let src = self.cur_ref().lookup(name).map_or(0, |l| l.reg);
                self.emit(Op::Move { dst: base, src });
                self.emit(Op::CallSpread {
                    base,
                    kind: 0,
                    slot: 0,
                    k: 0,
                });
            } else {
                self.emit(Op::CallSelf { base, nargs });
            }
            if base != dst {
                // The call window is a temporary: take the result, do not copy it.
                self.emit(Op::Take { dst, src: base });
            }
            return Ok(());
        }
        if name == "len"
            && self.cur_ref().lookup(name).is_none()
            && !self.global_index.contains_key(name)
            && let CallArgs::List([Arg::Positional(arg)]) | CallArgs::Single(arg) = args
        {
            let mark = self.cur().next_reg;
            let src = self.expr_any(arg)?;
            self.emit(Op::Len { dst, src });
            self.release_temps(mark);
            return Ok(());
        }
        // Into a fresh topmost register the window starts there (the callee may be
        // stored in it before the call; nothing needs what it held). Into any other,
        // a variable's say, the window is a temporary above, so a failed call leaves
        // the variable as it was.
        let base = if fresh && dst.checked_add(1) == Some(self.cur_ref().next_reg) {
            dst
        } else {
            self.alloc()
        };
        let local = self.cur_ref().lookup(name).map(|l| (l.reg, l.mutable));
        // `CallLocal` reads an immutable local (a `let`, a parameter) where it lives,
        // after the arguments: nothing they run can rebind it. A `var`, which an
        // argument could reassign (`f(if c { f = g; 1 } else { 2 })`), and a spread
        // call's callee are copied to `base` first, before the arguments, as the call
        // reads it there.
        let spread_call = matches!(args, CallArgs::List(list) if list.iter().any(|a| matches!(a, Arg::Spread(_))));
        let read_in_place = local.is_some_and(|(_, mutable)| !mutable && !spread_call);
        if let Some((reg, _)) = local
            && !read_in_place
        {
            self.emit(Op::Move {
                dst: base,
                src: reg,
            });
        }
        let local = local.map(|(reg, _)| if read_in_place { reg } else { base });
        let (nargs, spread) = self.call_args(base, args)?;
        let slot = self.global_index.get(name).copied();
        match (local, slot, spread) {
            (Some(src), _, false) => {
                let k = self.str_const(name);
                self.emit(Op::CallLocal {
                    base,
                    nargs,
                    k,
                    src,
                });
            }
            (Some(_), _, true) => {
                self.emit(Op::CallSpread {
                    base,
                    kind: 0,
                    slot: 0,
                    k: 0,
                });
            }
            (None, Some(slot), false) => {
                self.emit(Op::CallGlobal { base, nargs, slot });
            }
            (None, Some(slot), true) => {
                self.emit(Op::CallSpread {
                    base,
                    kind: 1,
                    slot,
                    k: 0,
                });
            }
            (None, None, spread) => {
                let k = self.str_const(name);
                if spread {
                    self.emit(Op::CallSpread {
                        base,
                        kind: 2,
                        slot: 0,
                        k,
                    });
                } else {
                    self.emit(Op::CallBuiltin { base, nargs, k });
                }
            }
        }
        if base != dst {
            // The call window is a temporary: take the result, so a chain's
            // intermediate values are freed as soon as the next call consumed them.
            self.emit(Op::Take { dst, src: base });
        }
        Ok(())
    }

    /// `receiver.method(args)`; `take` moves a local receiver out of its register so a
    /// uniquely owned collection can be updated in place (`xs = xs.push(v)`).
    pub(crate) fn method_call(
        &mut self,
        receiver: &'a Expr,
        method: &Ident,
        args: &'a [Arg],
        optional: bool,
        dst: u16,
        moved: Option<Moved<'a>>,
    ) -> CResult<()> {
        if let Some(name) = crate::builtins::harness_builtin(receiver, &method.name) {
            return self.call(name, CallArgs::List(args), dst, false);
        }
        if let Some(name) = crate::builtins::namespaced_builtin(receiver, &method.name)
            && let ExprKind::Ident(root) = &receiver.kind
            && self.cur_ref().lookup(root).is_none()
            && !self.global_index.contains_key(root.as_str())
        {
            return self.call(&name, CallArgs::List(args), dst, false);
        }
        if self.state_ops
            && let ExprKind::Ident(root) = &receiver.kind
            && root == "state"
            && self.cur_ref().lookup(root).is_none()
            && !self.global_index.contains_key(root.as_str())
        {
            return self.state_call(&method.name, args, dst);
        }
        if let Some(enum_name) = self.enum_name_of(receiver) {
            let count = u16::try_from(args.len()).unwrap_or(u16::MAX);
            let start = self.alloc_n(args.len());
            for (i, a) in args.iter().enumerate() {
                let (Arg::Positional(e) | Arg::Spread(e)) = a;
                self.expr_into(e, Self::nth(start, i))?;
            }
            let enum_k = self.str_const(&enum_name);
            let variant_k = self.str_const(&method.name);
            self.emit(Op::MakeEnum {
                dst,
                enum_k,
                variant_k,
                start,
                count,
            });
            return Ok(());
        }
        let base = self.alloc();
        // A receiver moved out of its place (`moves.rs`) is taken once the arguments
        // are evaluated: the move is the last thing before the call.
        if moved.is_none() {
            self.expr_into(receiver, base)?;
        }
        // Arguments must follow the receiver directly: release the receiver's temporaries.
        self.cur().next_reg = base.saturating_add(1);
        let (nargs, spread) = self.call_args(base, CallArgs::List(args))?;
        if let Some(moved) = moved {
            self.take_receiver(moved, base)?;
        }
        let k = self.str_const(&method.name);
        if spread {
            self.emit(Op::CallSpread {
                base,
                kind: 3,
                slot: 0,
                k,
            });
        } else {
            self.emit(Op::CallMethod {
                base,
                nargs,
                k,
                optional,
            });
        }
        if base != dst {
            // The call window is a temporary: take the result, so a chain's
            // intermediate values are freed as soon as the next call consumed them.
            self.emit(Op::Take { dst, src: base });
        }
        Ok(())
    }

    /// The register of the field dict `fields` with the struct's declared defaults under
    /// it (`defaults.merge(fields)`: a given field wins); `fields` itself when the struct
    /// declares none.
    fn with_struct_defaults(&mut self, name: &str, fields: u16) -> CResult<u16> {
        let Some(defaults) = self.struct_defaults.get(name).cloned() else {
            return Ok(fields);
        };
        let dict = self.alloc();
        let cap = u16::try_from(defaults.len()).unwrap_or(u16::MAX);
        self.emit(Op::NewDict { dst: dict, cap });
        for (field, e) in defaults {
            let key = self.alloc();
            let kk = self.str_const(field);
            self.emit(Op::LoadConst { dst: key, k: kk });
            let value = self.alloc();
            self.expr_into(e, value)?;
            self.emit(Op::DictInsert { dict, key, value });
        }
        let base = self.alloc();
        self.emit(Op::Move {
            dst: base,
            src: dict,
        });
        let arg = self.alloc();
        self.emit(Op::Move {
            dst: arg,
            src: fields,
        });
        let k = self.str_const("merge");
        self.emit(Op::CallMethod {
            base,
            nargs: 1,
            k,
            optional: false,
        });
        Ok(base)
    }

    /// `state.op(key, value)` → `__composition_call("state.op", {key: key, value:
    /// value})`: the executor answers it from the state store and records it as a
    /// child call, so it is governed and counted like any tool call.
    fn state_call(&mut self, op: &str, args: &'a [Arg], dst: u16) -> CResult<()> {
        let base = self.alloc();
        let name = self.alloc();
        let input = self.alloc();
        let k = self.str_const(&format!("state.{op}"));
        self.emit(Op::LoadConst { dst: name, k });
        self.emit(Op::NewDict { dst: input, cap: 2 });
        for (field, arg) in ["key", "value"].into_iter().zip(args) {
            let (Arg::Positional(e) | Arg::Spread(e)) = arg;
            let key = self.alloc();
            let kk = self.str_const(field);
            self.emit(Op::LoadConst { dst: key, k: kk });
            let value = self.alloc();
            self.expr_into(e, value)?;
            self.emit(Op::DictInsert {
                dict: input,
                key,
                value,
            });
        }
        self.cur().next_reg = input.saturating_add(1);
        let k = self.str_const("__composition_call");
        self.emit(Op::CallBuiltin { base, nargs: 2, k });
        if base != dst {
            self.emit(Op::Take { dst, src: base });
        }
        Ok(())
    }

    /// `value |> f`: with `_` on the right, the right side is evaluated with `_` bound
    /// to the value; otherwise `f` is called with the value.
    fn pipe(&mut self, value: &'a Expr, func: &'a Expr, dst: u16) -> CResult<()> {
        if mentions_placeholder(func) {
            self.cur().push_scope();
            let r = self.cur().declare("_", false);
            self.expr_into(value, r)?;
            self.expr_into(func, dst)?;
            self.cur().pop_scope();
            return Ok(());
        }
        if let ExprKind::Ident(name) = &func.kind
            && self.cur_ref().lookup(name).is_none()
        {
            return self.call(name, CallArgs::Single(value), dst, false);
        }
        let base = self.alloc();
        self.expr_into(func, base)?;
        self.cur().next_reg = base.saturating_add(1);
        let arg = self.alloc();
        self.expr_into(value, arg)?;
        self.emit(Op::CallPipe { base });
        if base != dst {
            // The call window is a temporary: take the result, so a chain's
            // intermediate values are freed as soon as the next call consumed them.
            self.emit(Op::Take { dst, src: base });
        }
        Ok(())
    }
}
