//! Bindings, destructuring, assignment, `match` and `try`.

use super::moves::Consumer;
use super::{CResult, Compiler};
use crate::ast::*;
use crate::bytecode::{Cmp, NestedStore, Op};

impl<'a> Compiler<'a> {
    /// `let` / `var` / `const`.
    pub(crate) fn binding(
        &mut self,
        kind: BindingKind,
        pattern: &'a Pattern,
        value: &'a Expr,
    ) -> CResult<()> {
        let mutable = kind == BindingKind::Var;
        if let Pattern::Ident(id) = pattern {
            // Redeclaring an immutable binding in the same scope is an error; `var`
            // always replaces.
            if !mutable
                && let Some(existing) = self.cur_ref().in_current_scope(&id.name)
                && !existing.mutable
            {
                let k = self.str_const(&id.name);
                self.emit(Op::RedeclareError { k });
                return Ok(());
            }
            let reg = self.alloc();
            match &value.kind {
                // `let f = { n -> … f(n - 1) … }`: call targets are resolved when the
                // closure runs, and by then `f` is the closure itself, so a name not
                // bound anywhere else means the closure (compiled like a named `fn`).
                ExprKind::Closure(c)
                    if self.cur_ref().lookup(&id.name).is_none()
                        && !self.global_index.contains_key(id.name.as_str()) =>
                {
                    let proto = self.function("", &c.params, &c.body, true, Some(&id.name))?;
                    self.emit(Op::MakeClosure { dst: reg, proto });
                }
                // A local nothing reads afterwards (`moves::rebinding_move`): taken.
                _ => match self.move_arg {
                    Some((moved, src)) if std::ptr::eq(moved, value) => {
                        self.move_arg = None;
                        self.emit(Op::Take { dst: reg, src });
                    }
                    _ => self.expr_into_fresh(value, reg)?,
                },
            }
            self.cur().adopt(&id.name, reg, mutable);
            if self.fns.len() == 1
                && self.cur_ref().scopes.len() == 1
                && let Some(&slot) = self.global_index.get(id.name.as_str())
                && self.mirrored.contains(&slot)
            {
                self.emit(Op::DefineGlobal {
                    slot,
                    src: reg,
                    mutable: false,
                });
            }
            return Ok(());
        }
        let src = self.alloc();
        self.expr_into_fresh(value, src)?;
        self.bind_pattern(pattern, src, mutable)
    }

    /// Binds the names of `pattern` to parts of the value in `src`.
    pub(crate) fn bind_pattern(
        &mut self,
        pattern: &'a Pattern,
        src: u16,
        mutable: bool,
    ) -> CResult<()> {
        match pattern {
            Pattern::Ident(id) => {
                let reg = self.cur().declare(&id.name, mutable);
                self.emit(Op::Move { dst: reg, src });
            }
            Pattern::Wildcard(_) => {}
            Pattern::Dict { fields, rest, .. } => {
                self.emit(Op::CheckDestructure { src, kind: 0 });
                let mut keys = Vec::new();
                for f in fields {
                    let k = self.str_const(&f.key.name);
                    keys.push(k);
                    let reg = match &f.binding {
                        Some(b) => self.cur().declare(&b.name, mutable),
                        None => self.alloc(),
                    };
                    self.emit(Op::DictGet { dst: reg, src, k });
                    self.default_if_nil(reg, f.default.as_ref())?;
                }
                if let Some(r) = rest {
                    let count = u16::try_from(keys.len()).unwrap_or(u16::MAX);
                    let start = self.alloc_n(keys.len());
                    for (i, k) in keys.iter().enumerate() {
                        self.emit(Op::LoadConst {
                            dst: Self::nth(start, i),
                            k: *k,
                        });
                    }
                    let reg = self.cur().declare(&r.name, mutable);
                    self.emit(Op::DictRest {
                        dst: reg,
                        src,
                        start,
                        count,
                    });
                }
            }
            Pattern::List { elems, rest, .. } => {
                self.emit(Op::CheckDestructure { src, kind: 1 });
                for (i, el) in elems.iter().enumerate() {
                    let index = self.operand(i, "elements in one pattern");
                    let reg = match &el.binding {
                        Some(b) => self.cur().declare(&b.name, mutable),
                        None => self.alloc(),
                    };
                    self.emit(Op::ListGet {
                        dst: reg,
                        src,
                        index,
                    });
                    self.default_if_nil(reg, el.default.as_ref())?;
                }
                if let Some(r) = rest {
                    let reg = self.cur().declare(&r.name, mutable);
                    let from = self.operand(elems.len(), "elements in one pattern");
                    self.emit(Op::ListRest {
                        dst: reg,
                        src,
                        from,
                    });
                }
            }
            Pattern::Pair(a, b, _) => {
                let ra = self.cur().declare(&a.name, mutable);
                self.emit(Op::PairGet {
                    dst: ra,
                    src,
                    which: 0,
                });
                let rb = self.cur().declare(&b.name, mutable);
                self.emit(Op::PairGet {
                    dst: rb,
                    src,
                    which: 1,
                });
            }
        }
        Ok(())
    }

    /// `default` into `reg` when `reg` holds `nil`: a destructuring default, and the
    /// stand-in of a moved `(groups[k] ?? []).push(v)` receiver (`moves.rs`).
    pub(crate) fn default_if_nil(&mut self, reg: u16, default: Option<&'a Expr>) -> CResult<()> {
        if let Some(d) = default {
            let j = self.emit(Op::JumpIfNotNil {
                src: reg,
                offset: 0,
            });
            self.expr_into(d, reg)?;
            self.patch(j);
        }
        Ok(())
    }

    /// `target op= value` for names, properties and subscripts (nested targets update
    /// the nested element).
    pub(crate) fn assign(
        &mut self,
        target: &'a Expr,
        op: AssignOp,
        value: &'a Expr,
    ) -> CResult<()> {
        if self.assign_nested(target, op, value)? {
            return Ok(());
        }
        match &target.kind {
            ExprKind::Ident(name) => {
                let Some(local) = self.cur_ref().lookup(name).cloned() else {
                    if let Some(&slot) = self.global_index.get(name.as_str())
                        && !self.mirrored.contains(&slot)
                    {
                        let r = self.compound_value(target, op, value)?;
                        self.emit(Op::AssignGlobal { slot, src: r });
                        return Ok(());
                    }
                    let k = self.str_const(name);
                    self.emit(Op::UndefinedError { k });
                    return Ok(());
                };
                if !local.mutable {
                    let k = self.str_const(name);
                    self.emit(Op::ImmutableError { k });
                    return Ok(());
                }
                if op == AssignOp::Assign {
                    // `xs = xs.push(v)`, `xs = add(xs, v)`: the old value moves into the
                    // call, which can then update it in place.
                    if self.consuming_call(value, local.reg, Consumer::Assigned(name))? {
                        return Ok(());
                    }
                    return self.expr_into(value, local.reg);
                }
                self.compound_into(op, local.reg, value)
            }
            ExprKind::Member { object, name, .. } => {
                self.check_root_mutable(object)?;
                if self.consuming_item(target, op, value)? {
                    return Ok(());
                }
                let obj = self.place(object)?;
                let k = self.str_const(&name.name);
                let v = if op == AssignOp::Assign {
                    self.expr_any(value)?
                } else {
                    let cur = self.alloc();
                    self.emit(Op::GetField {
                        dst: cur,
                        obj,
                        k,
                        optional: false,
                    });
                    self.compound_into(op, cur, value)?;
                    cur
                };
                self.emit(Op::SetField { obj, k, src: v });
                self.write_back(object, obj)
            }
            ExprKind::Index { object, index, .. } => {
                self.check_root_mutable(object)?;
                if self.consuming_item(target, op, value)? {
                    return Ok(());
                }
                let obj = self.place(object)?;
                let idx = self.expr_any(index)?;
                let v = if op == AssignOp::Assign {
                    self.expr_any(value)?
                } else {
                    let cur = self.alloc();
                    self.emit(Op::GetIndex {
                        dst: cur,
                        obj,
                        index: idx,
                        optional: false,
                    });
                    self.compound_into(op, cur, value)?;
                    cur
                };
                self.emit(Op::SetIndex {
                    obj,
                    index: idx,
                    src: v,
                });
                self.write_back(object, obj)
            }
            _ => {
                self.record_error("invalid assignment target");
                Ok(())
            }
        }
    }

    /// `root[a][b] op= value` on a local `root` (either key may be a field: `rows[i].n`,
    /// `d.items[k]`, `n.inner.x`) as one `SetNested`, which updates the nested container
    /// where it lies instead of reading it out and storing it back (shared with `root`
    /// meanwhile, it was copied whole by every assignment). `false` for any other target.
    /// Each key is evaluated once, then the value.
    fn assign_nested(&mut self, target: &'a Expr, op: AssignOp, value: &'a Expr) -> CResult<bool> {
        let Some((object, inner_key)) = nested_step(target) else {
            return Ok(false);
        };
        let Some((root, outer_key)) = nested_step(object) else {
            return Ok(false);
        };
        let ExprKind::Ident(name) = &root.kind else {
            return Ok(false);
        };
        let Some(obj) = self.cur_ref().lookup(name).map(|local| local.reg) else {
            return Ok(false);
        };
        self.check_root_mutable(root)?;
        let (outer, outer_field) = self.nested_key(outer_key)?;
        let (inner, inner_field) = self.nested_key(inner_key)?;
        let src = self.alloc();
        let before = self.cur().reset_peak();
        if op == AssignOp::Assign {
            self.expr_into(value, src)?;
        } else {
            // The current value, read in two steps through a temporary (emptied again
            // below, with the value's own temporaries).
            let parent = self.alloc();
            self.emit_get(parent, obj, outer, outer_field);
            self.emit_get(src, parent, inner, inner_field);
            self.compound_into(op, src, value)?;
        }
        let peak = self.cur().restore_peak(before);
        let clear = u8::try_from(peak.saturating_sub(src.saturating_add(1))).unwrap_or(u8::MAX);
        self.emit(Op::SetNested(NestedStore::new(
            obj,
            (outer, outer_field),
            (inner, inner_field),
            src,
            clear,
        )));
        Ok(true)
    }

    /// A key of [`Self::assign_nested`]: a register holding the subscript, or the
    /// constant of a field name (`true`).
    fn nested_key(&mut self, key: NestedKey<'a>) -> CResult<(u16, bool)> {
        Ok(match key {
            NestedKey::Index(index) => (self.expr_any(index)?, false),
            NestedKey::Field(name) => (self.str_const(name), true),
        })
    }

    fn emit_get(&mut self, dst: u16, obj: u16, key: u16, field: bool) {
        self.emit(if field {
            Op::GetField {
                dst,
                obj,
                k: key,
                optional: false,
            }
        } else {
            Op::GetIndex {
                dst,
                obj,
                index: key,
                optional: false,
            }
        });
    }

    /// `reg op= value`: `+=` and `-=` of a small int literal as one immediate instruction
    /// (`n += 1`), like `n + 1` is.
    fn compound_into(&mut self, op: AssignOp, reg: u16, value: &'a Expr) -> CResult<()> {
        if let ExprKind::Int(n) = value.kind
            && let Ok(imm) = i16::try_from(n)
            && matches!(op, AssignOp::Add | AssignOp::Sub)
        {
            let (dst, a) = (reg, reg);
            self.emit(if op == AssignOp::Add {
                Op::AddInt { dst, a, imm }
            } else {
                Op::SubInt { dst, a, imm }
            });
            return Ok(());
        }
        let v = self.expr_any(value)?;
        self.emit(compound(op, reg, reg, v));
        Ok(())
    }

    fn compound_value(&mut self, target: &'a Expr, op: AssignOp, value: &'a Expr) -> CResult<u16> {
        if op == AssignOp::Assign {
            return self.expr_any(value);
        }
        let cur = self.expr_any(target)?;
        let rhs = self.expr_any(value)?;
        let r = self.alloc();
        self.emit(compound(op, r, cur, rhs));
        Ok(r)
    }

    fn check_root_mutable(&mut self, object: &'a Expr) -> CResult<()> {
        let mut root = object;
        while let ExprKind::Member { object, .. } | ExprKind::Index { object, .. } = &root.kind {
            root = object;
        }
        if let ExprKind::Ident(name) = &root.kind
            && let Some(local) = self.cur_ref().lookup(name)
            && !local.mutable
        {
            let k = self.str_const(name);
            self.emit(Op::ImmutableError { k });
        }
        Ok(())
    }

    /// A register holding the container at `object`, to be modified and written back.
    fn place(&mut self, object: &'a Expr) -> CResult<u16> {
        match &object.kind {
            ExprKind::Ident(name) if self.cur_ref().lookup(name).is_some() => {
                Ok(self.cur_ref().lookup(name).map_or(0, |l| l.reg))
            }
            _ => {
                let r = self.alloc();
                self.expr_into(object, r)?;
                Ok(r)
            }
        }
    }

    /// After modifying a nested container held in `reg`, stores it back into its parent
    /// (`n.inner.x = 5` updates `n.inner`, then `n`).
    fn write_back(&mut self, object: &'a Expr, reg: u16) -> CResult<()> {
        match &object.kind {
            ExprKind::Ident(name) => {
                if self.cur_ref().lookup(name).is_none()
                    && let Some(&slot) = self.global_index.get(name.as_str())
                    && !self.mirrored.contains(&slot)
                {
                    self.emit(Op::AssignGlobal { slot, src: reg });
                }
                Ok(())
            }
            ExprKind::Member {
                object: parent,
                name,
                ..
            } => {
                let obj = self.place(parent)?;
                let k = self.str_const(&name.name);
                self.emit(Op::SetField { obj, k, src: reg });
                self.write_back(parent, obj)
            }
            ExprKind::Index {
                object: parent,
                index,
                ..
            } => {
                let obj = self.place(parent)?;
                let idx = self.expr_any(index)?;
                self.emit(Op::SetIndex {
                    obj,
                    index: idx,
                    src: reg,
                });
                self.write_back(parent, obj)
            }
            _ => Ok(()),
        }
    }

    /// `match value { pattern | pattern if guard -> { body } ... }`
    pub(crate) fn match_expr(
        &mut self,
        scrutinee: &'a Expr,
        arms: &'a [MatchArm],
        dst: u16,
    ) -> CResult<()> {
        let v = self.alloc();
        self.expr_into(scrutinee, v)?;
        let mut ends = Vec::new();
        for arm in arms {
            self.cur().push_scope();
            let mut to_body = Vec::new();
            let mut next_alt = Vec::new();
            for (i, p) in arm.patterns.iter().enumerate() {
                for j in next_alt.drain(..) {
                    self.patch(j);
                }
                let fails = self.pattern_test(p, v)?;
                // The last alternative falls through into the body.
                if i + 1 < arm.patterns.len() {
                    to_body.push(self.emit(Op::Jump { offset: 0 }));
                }
                next_alt = fails;
            }
            // All alternatives failed: skip this arm.
            let skip_arm = next_alt;
            for j in to_body {
                self.patch(j);
            }
            let mut guard_fail = None;
            if let Some(g) = &arm.guard {
                guard_fail = Some(self.cond_jump_false(g)?);
            }
            self.block_into(&arm.body, Some(dst))?;
            ends.push(self.emit(Op::Jump { offset: 0 }));
            for j in skip_arm {
                self.patch(j);
            }
            if let Some(j) = guard_fail {
                j.land(self);
            }
            self.cur().pop_scope();
        }
        self.emit(Op::NoMatch);
        for j in ends {
            self.patch(j);
        }
        Ok(())
    }

    /// Emits a test of `pattern` against the value in `v`, binding names on success.
    /// Returns the jumps taken when the test fails.
    fn pattern_test(&mut self, pattern: &'a Expr, v: u16) -> CResult<Vec<usize>> {
        let mut fails = Vec::new();
        match &pattern.kind {
            ExprKind::Ident(name) if name == "_" => {}
            ExprKind::Ident(name) if !self.enums.contains_key(name.as_str()) => {
                let reg = self.cur().declare(name, false);
                self.emit(Op::Move { dst: reg, src: v });
            }
            ExprKind::Member { object, name, .. } if self.is_enum_ref(object) => {
                fails.push(self.variant_test(object, &name.name, v));
            }
            ExprKind::MethodCall {
                receiver,
                method,
                args,
                ..
            } if self.is_enum_ref(receiver) => {
                fails.push(self.variant_test(receiver, &method.name, v));
                for (i, a) in args.iter().enumerate() {
                    let index = self.operand(i, "elements in one pattern");
                    if let Arg::Positional(Expr {
                        kind: ExprKind::Ident(n),
                        ..
                    }) = a
                    {
                        if n != "_" {
                            let reg = self.cur().declare(n, false);
                            self.emit(Op::EnumField {
                                dst: reg,
                                src: v,
                                index,
                            });
                        }
                    } else if let Arg::Positional(e) = a {
                        let field = self.alloc();
                        self.emit(Op::EnumField {
                            dst: field,
                            src: v,
                            index,
                        });
                        fails.extend(self.pattern_test(e, field)?);
                    }
                }
            }
            ExprKind::Dict(entries) => {
                let t = self.alloc();
                self.emit(Op::TypeIs {
                    dst: t,
                    src: v,
                    type_code: 0,
                });
                fails.push(self.emit(Op::JumpIfFalse { cond: t, offset: 0 }));
                for entry in entries {
                    if let DictEntry::Pair {
                        key: DictKey::Name(key, _),
                        value,
                    } = entry
                    {
                        let k = self.str_const(key);
                        let field = self.alloc();
                        self.emit(Op::DictGet {
                            dst: field,
                            src: v,
                            k,
                        });
                        fails.extend(self.pattern_test(value, field)?);
                    }
                }
            }
            ExprKind::List(items) => {
                let t = self.alloc();
                self.emit(Op::TypeIs {
                    dst: t,
                    src: v,
                    type_code: 1,
                });
                fails.push(self.emit(Op::JumpIfFalse { cond: t, offset: 0 }));
                let n = self.operand(items.len(), "elements in one pattern");
                self.emit(Op::LenAtLeast { dst: t, src: v, n });
                fails.push(self.emit(Op::JumpIfFalse { cond: t, offset: 0 }));
                for (i, item) in items.iter().enumerate() {
                    if let Arg::Positional(e) = item {
                        let index = self.operand(i, "elements in one pattern");
                        let el = self.alloc();
                        self.emit(Op::ListGet {
                            dst: el,
                            src: v,
                            index,
                        });
                        fails.extend(self.pattern_test(e, el)?);
                    }
                }
            }
            // A literal or expression pattern: one compare-and-branch, with a small int
            // or a string literal as the instruction's operand.
            _ => fails.push(self.compare_jump(Cmp::Eq, v, pattern)?),
        }
        Ok(fails)
    }

    /// Tests `v` against `Enum.variant`; returns the jump taken when it does not match.
    fn variant_test(&mut self, enum_ref: &Expr, variant: &str, v: u16) -> usize {
        let enum_name = self.ident_name(enum_ref);
        let t = self.alloc();
        let enum_k = self.str_const(&enum_name);
        let variant_k = self.str_const(variant);
        self.emit(Op::IsVariant {
            dst: t,
            src: v,
            enum_k,
            variant_k,
        });
        self.emit(Op::JumpIfFalse { cond: t, offset: 0 })
    }

    fn is_enum_ref(&self, e: &Expr) -> bool {
        matches!(&e.kind, ExprKind::Ident(n) if self.enums.contains_key(n.as_str()) && self.cur_ref().lookup(n).is_none())
    }

    fn ident_name(&self, e: &Expr) -> String {
        match &e.kind {
            ExprKind::Ident(n) => n.to_string(),
            _ => String::new(),
        }
    }

    /// `try { } catch (e) { } finally { }`, and the bare `try { }` Result expression.
    pub(crate) fn try_expr(
        &mut self,
        body: &'a Block,
        catch: Option<&'a CatchClause>,
        finally: Option<&'a Block>,
        dst: u16,
    ) -> CResult<()> {
        let err = self.alloc();
        let handler = self.emit(Op::TryBegin {
            dst: err,
            offset: 0,
        });
        self.push_try(finally);
        self.block_into(body, Some(dst))?;
        self.pop_try();
        self.emit(Op::TryEnd);
        if catch.is_none() && finally.is_none() {
            self.emit(Op::WrapOk { dst, src: dst });
            let end = self.emit(Op::Jump { offset: 0 });
            self.patch(handler);
            self.emit(Op::WrapErr { dst, src: err });
            self.patch(end);
            return Ok(());
        }
        if let Some(f) = finally {
            self.block_into(f, None)?;
        }
        let end = self.emit(Op::Jump { offset: 0 });
        self.patch(handler);
        match catch {
            Some(c) => {
                if let Some(TypeExpr {
                    kind: TypeKind::Named { name, .. },
                    ..
                }) = &c.ty
                {
                    let k = self.str_const(&name.name);
                    self.emit(Op::CatchFilter { src: err, k });
                }
                let err2 = self.alloc();
                let inner = finally.map(|_| {
                    self.emit(Op::TryBegin {
                        dst: err2,
                        offset: 0,
                    })
                });
                self.push_try(finally);
                self.cur().push_scope();
                if let Some(var) = &c.var
                    && var.name != "_"
                {
                    self.cur().bind(&var.name, err, false);
                }
                self.block_into(&c.body, Some(dst))?;
                self.cur().pop_scope();
                self.pop_try();
                if let Some(h) = inner {
                    self.emit(Op::TryEnd);
                    if let Some(f) = finally {
                        self.block_into(f, None)?;
                    }
                    let done = self.emit(Op::Jump { offset: 0 });
                    self.patch(h);
                    if let Some(f) = finally {
                        self.block_into(f, None)?;
                    }
                    self.emit(Op::Rethrow { src: err2 });
                    self.patch(done);
                }
            }
            None => {
                if let Some(f) = finally {
                    self.block_into(f, None)?;
                }
                self.emit(Op::Rethrow { src: err });
            }
        }
        self.patch(end);
        Ok(())
    }
}

fn compound(op: AssignOp, dst: u16, a: u16, b: u16) -> Op {
    match op {
        AssignOp::Assign => Op::Move { dst, src: b },
        AssignOp::Add => Op::Add { dst, a, b },
        AssignOp::Sub => Op::Sub { dst, a, b },
        AssignOp::Mul => Op::Mul { dst, a, b },
        AssignOp::Div => Op::Div { dst, a, b },
        AssignOp::Mod => Op::Mod { dst, a, b },
    }
}

/// One step of an assignment path: `object[index]` or `object.name`.
#[derive(Clone, Copy)]
enum NestedKey<'a> {
    Index(&'a Expr),
    Field(&'a Name),
}

/// The object and key of `object[index]` or `object.name`.
fn nested_step(e: &Expr) -> Option<(&Expr, NestedKey<'_>)> {
    match &e.kind {
        ExprKind::Index { object, index, .. } => Some((object, NestedKey::Index(index))),
        ExprKind::Member { object, name, .. } => Some((object, NestedKey::Field(&name.name))),
        _ => None,
    }
}
