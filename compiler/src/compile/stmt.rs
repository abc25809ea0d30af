//! Statements, blocks, functions and declarations.

use rustc_hash::FxHashSet as HashSet;

use super::moves::Consumer;
use super::names::{names_in_block, names_in_expr};
use super::scope::{FnState, LoopCtx, TryCtx};
use super::{CResult, Compiler};
use crate::ast::*;
use crate::bytecode::Op;
use crate::bytecode::{CaptureFrom, ParamCheck, ParamInfo, ParamLiteral};

/// Simple type names checked at call time.
const SIMPLE_TYPES: &[&str] = &[
    "int", "float", "string", "bool", "nil", "list", "dict", "set", "closure", "duration", "bytes",
];

fn param_check(ty: &Option<TypeExpr>) -> ParamCheck {
    let Some(ty) = ty else {
        return ParamCheck::None;
    };
    fn simple(t: &TypeExpr) -> Option<String> {
        match &t.kind {
            TypeKind::Named { name, args }
                if args.is_empty() && SIMPLE_TYPES.contains(&name.name.as_str()) =>
            {
                Some(String::from(name.name.as_str()))
            }
            _ => None,
        }
    }
    match &ty.kind {
        TypeKind::Named { name, args } if name.name == "list" && args.len() == 1 => {
            match simple(&args[0]) {
                Some(elem) => ParamCheck::ListOf(elem),
                None => ParamCheck::None,
            }
        }
        TypeKind::Union(parts) => {
            let literal = |t: &TypeExpr| match &t.kind {
                TypeKind::StrLit(s) => Some(ParamLiteral::Str(s.clone())),
                TypeKind::IntLit(n) => Some(ParamLiteral::Int(*n)),
                _ => None,
            };
            if let Some(lits) = parts.iter().map(literal).collect::<Option<Vec<_>>>() {
                return ParamCheck::Literals(lits);
            }
            let names: Option<Vec<String>> = parts.iter().map(simple).collect();
            names.map_or(ParamCheck::None, ParamCheck::Simple)
        }
        TypeKind::Shape(fields) => {
            let fs: Option<Vec<(String, bool, String)>> = fields
                .iter()
                .map(|f| simple(&f.ty).map(|t| (f.name.clone(), f.optional, t)))
                .collect();
            fs.map_or(ParamCheck::None, ParamCheck::Shape)
        }
        _ => simple(ty).map_or(ParamCheck::None, |t| ParamCheck::Simple(vec![t])),
    }
}

impl<'a> Compiler<'a> {
    /// Frees temporaries: the register top goes back to just above the live locals.
    pub(crate) fn release_temps(&mut self, mark: u16) {
        let f = self.cur();
        let locals_top = f
            .scopes
            .iter()
            .flat_map(|s| s.iter().map(|l| l.reg.saturating_add(1)))
            .max()
            .unwrap_or(0);
        f.next_reg = mark.max(locals_top);
    }

    pub(crate) fn stmt(&mut self, s: &'a Stmt, top: bool) -> CResult<()> {
        self.set_line(s.span);
        let mark = self.cur().next_reg;
        self.stmt_inner(s, top)?;
        self.release_temps(mark);
        Ok(())
    }

    /// A block whose value (its last statement's, else nil) goes to `dst`.
    pub(crate) fn block_into(&mut self, block: &'a Block, dst: Option<u16>) -> CResult<()> {
        self.cur().push_scope();
        let n = block.stmts.len();
        let mut fused = false;
        for (i, s) in block.stmts.iter().enumerate() {
            if std::mem::take(&mut fused) {
                continue;
            }
            // A binding read only by the next statement's store (`moves.rs`), unless
            // that store is the block's value.
            if let (Some(next), Some(rest)) = (block.stmts.get(i + 1), block.stmts.get(i + 2..))
                && (dst.is_none() || i + 2 < n)
                && self.consuming_pair(s, next, rest)?
            {
                fused = true;
                continue;
            }
            // `var c = cart` with `cart` read nowhere after (`moves.rs`).
            let saved = self
                .rebinding_move(block, i)
                .map(|m| self.move_arg.replace(m));
            match (dst, i + 1 == n) {
                (Some(d), true) => {
                    self.set_line(s.span);
                    let mark = self.cur().next_reg;
                    match &s.kind {
                        // A closure's result: the frame ends with it.
                        StmtKind::Expr(e)
                            if self
                                .cur_ref()
                                .result_block
                                .is_some_and(|b| std::ptr::eq(b, block)) =>
                        {
                            if !self.consuming_call(e, d, Consumer::FrameEnd)? {
                                self.expr_into(e, d)?;
                            }
                        }
                        StmtKind::Expr(e) => self.expr_into(e, d)?,
                        _ => {
                            self.stmt_inner(s, false)?;
                            self.emit(Op::LoadNil { dst: d });
                        }
                    }
                    self.release_temps(mark);
                }
                _ => self.stmt(s, false)?,
            }
            if let Some(saved) = saved {
                self.move_arg = saved;
            }
        }
        if n == 0
            && let Some(d) = dst
        {
            self.emit(Op::LoadNil { dst: d });
        }
        self.cur().pop_scope();
        Ok(())
    }

    /// An expression statement: its value is unused, so an `if` (and each `else if` of
    /// its chain, walked without recursion) computes none.
    fn discarded(&mut self, e: &'a Expr) -> CResult<()> {
        let mut ends = Vec::new();
        let mut cur = e;
        loop {
            let ExprKind::If {
                cond,
                then,
                otherwise,
            } = &cur.kind
            else {
                let r = self.alloc();
                self.expr_into_fresh(cur, r)?;
                break;
            };
            let j = self.cond_jump_false(cond)?;
            self.block_into(then, None)?;
            let Some(otherwise) = otherwise else {
                j.land(self);
                break;
            };
            ends.push(self.emit(Op::Jump { offset: 0 }));
            j.land(self);
            match otherwise {
                ElseBranch::Block(b) => {
                    self.block_into(b, None)?;
                    break;
                }
                ElseBranch::If(next) => cur = next,
            }
        }
        for end in ends {
            self.patch(end);
        }
        Ok(())
    }

    /// Whether the current position is the program's top level (globals live here).
    fn at_top_level(&self, top: bool) -> bool {
        top && self.fns.len() == 1 && self.cur_ref().scopes.len() == 1
    }

    fn stmt_inner(&mut self, s: &'a Stmt, top: bool) -> CResult<()> {
        match &s.kind {
            StmtKind::Expr(e) => self.discarded(e),
            StmtKind::Let {
                kind,
                pattern,
                value,
                ..
            } => self.binding(*kind, pattern, value),
            StmtKind::Assign { target, op, value } => self.assign(target, *op, value),
            StmtKind::Return(Some(Expr {
                kind: ExprKind::Ident(name),
                ..
            })) if self.cur_ref().tries.is_empty()
                && self.cur_ref().defers.is_empty()
                && self.cur_ref().lookup(name).is_some() =>
            {
                // The frame ends here, so the local's register can be returned as is.
                let src = self.cur_ref().lookup(name).map_or(0, |l| l.reg);
                self.emit(Op::Return { src });
                Ok(())
            }
            StmtKind::Return(value) => {
                let r = self.alloc();
                match value {
                    Some(v) => {
                        if !self.consuming_call(v, r, Consumer::FrameEnd)? {
                            self.expr_into(v, r)?;
                        }
                    }
                    None => {
                        self.emit(Op::LoadNil { dst: r });
                    }
                }
                // `return f(args)` outside any `try` (and with no `defer`) is a tail call.
                if self.cur_ref().tries.is_empty()
                    && self.cur_ref().defers.is_empty()
                    && self.fns.len() > 1
                    && let Some((drop, call)) = tail_call(&self.cur_ref().proto.code, r)
                {
                    let n = self.cur_ref().proto.code.len() - drop;
                    self.cur().proto.code.truncate(n);
                    self.cur().proto.lines.truncate(n);
                    match call {
                        Op::CallSelf { base, nargs } => {
                            self.emit(Op::TailSelf { base, nargs });
                        }
                        Op::CallGlobal { base, nargs, slot } => {
                            self.emit(Op::TailCall {
                                base,
                                nargs,
                                global: Some(slot),
                            });
                        }
                        Op::Call { base, nargs } => {
                            self.emit(Op::TailCall {
                                base,
                                nargs,
                                global: None,
                            });
                        }
                        // A tail call reads its callee from `base`.
                        Op::CallLocal {
                            base, nargs, src, ..
                        } => {
                            self.emit(Op::Move { dst: base, src });
                            self.emit(Op::TailCall {
                                base,
                                nargs,
                                global: None,
                            });
                        }
                        _ => {}
                    }
                    return Ok(());
                }
                self.run_finallies(0)?;
                self.run_defers()?;
                let r = self.cur().frame_result.take().unwrap_or(r);
                self.emit(Op::Return { src: r });
                Ok(())
            }
            StmtKind::Throw(e) => {
                let r = self.expr_any(e)?;
                self.emit(Op::Throw { src: r });
                Ok(())
            }
            StmtKind::Break | StmtKind::Continue => {
                let is_break = matches!(s.kind, StmtKind::Break);
                let Some(try_depth) = self.cur_ref().loops.last().map(|l| l.try_depth) else {
                    self.record_error(if is_break {
                        "break outside of loop"
                    } else {
                        "continue outside of loop"
                    });
                    return Ok(());
                };
                self.run_finallies(try_depth)?;
                let j = self.emit(Op::Jump { offset: 0 });
                if let Some(l) = self.cur().loops.last_mut() {
                    if is_break {
                        l.breaks.push(j);
                    } else {
                        l.continues.push(j);
                    }
                }
                Ok(())
            }
            StmtKind::While { cond, body } => {
                let start = self.here();
                let exit = self.cond_jump_false(cond)?;
                self.loop_body(body, start, |_| Ok(()))?;
                exit.land(self);
                Ok(())
            }
            StmtKind::For {
                pattern,
                iterable,
                body,
            } => {
                // Lua's shape: the test and the step sit at the bottom, so an
                // iteration is the body plus one `ForLoop`.
                let src = self.expr_any(iterable)?;
                let base = self.alloc_n(2);
                let elem = self.alloc();
                let prep = self.emit(Op::ForPrep {
                    base,
                    src,
                    dst: elem,
                    offset: 0,
                });
                let body_start = self.here();
                self.cur().push_scope();
                self.for_body(pattern, elem, body, base, body_start)?;
                self.cur().pop_scope();
                self.patch(prep);
                Ok(())
            }
            StmtKind::Guard { cond, else_block } => {
                let skip = self.cond_jump_true(cond)?;
                self.block_into(else_block, None)?;
                skip.land(self);
                Ok(())
            }
            StmtKind::Require { cond, message } => {
                let skip = self.cond_jump_true(cond)?;
                let r = self.alloc();
                match message {
                    Some(m) => self.expr_into(m, r)?,
                    None => {
                        let k = self.str_const("require condition failed");
                        self.emit(Op::LoadConst { dst: r, k });
                    }
                }
                self.emit(Op::Throw { src: r });
                skip.land(self);
                Ok(())
            }
            StmtKind::Defer(_) => {
                // Mark this `defer` as reached; its block runs when the function returns.
                let i = self.cur_ref().defers_seen;
                self.cur().defers_seen += 1;
                if let Some(&(_, flag)) = self.cur_ref().defers.get(i) {
                    self.emit(Op::LoadBool {
                        dst: flag,
                        value: true,
                    });
                }
                Ok(())
            }
            StmtKind::Retry { attempts, body } => self.retry(attempts, body),
            StmtKind::Fn(f) => self.fn_declaration(f, top),
            StmtKind::Override(f) => self.fn_declaration(f, false),
            StmtKind::Struct(_)
            | StmtKind::Enum(_)
            | StmtKind::Interface(_)
            | StmtKind::TypeAlias(_)
            | StmtKind::Import(_)
            | StmtKind::Pipeline(_)
            | StmtKind::Skill(_)
            | StmtKind::EvalPack(_)
            | StmtKind::Error => Ok(()),
            StmtKind::Tool(t) => {
                let value = self.alloc();
                self.emit(Op::NewDict { dst: value, cap: 0 });
                self.define_name(&t.name.name, value, top, false)
            }
            StmtKind::Impl(imp) => {
                let type_k = self.str_const(&imp.target.name);
                for m in &imp.methods {
                    let r = self.alloc();
                    let proto = self.function(&m.name.name, &m.params, &m.body, false, None)?;
                    self.emit(Op::MakeClosure { dst: r, proto });
                    let name_k = self.str_const(&m.name.name);
                    self.emit(Op::DefineMethod {
                        type_k,
                        name_k,
                        closure: r,
                    });
                }
                Ok(())
            }
        }
    }

    /// Binds a value to a new name: a global at the top level of the program, else a
    /// local register.
    fn define_name(&mut self, name: &str, src: u16, top: bool, mutable: bool) -> CResult<()> {
        if self.at_top_level(top) && self.global_index.contains_key(name) {
            let slot = self.global_slot(name);
            self.emit(Op::DefineGlobal { slot, src, mutable });
            return Ok(());
        }
        if let Some(existing) = self.cur_ref().in_current_scope(name)
            && !existing.mutable
        {
            let k = self.str_const(name);
            self.emit(Op::RedeclareError { k });
            return Ok(());
        }
        let reg = self.cur().declare(name, mutable);
        self.emit(Op::Move { dst: reg, src });
        Ok(())
    }

    fn fn_declaration(&mut self, f: &'a FnDecl, top: bool) -> CResult<()> {
        let r = self.alloc();
        let proto = self.function(&f.name.name, &f.params, &f.body, false, Some(&f.name.name))?;
        self.emit(Op::MakeClosure { dst: r, proto });
        self.define_name(&f.name.name, r, top, false)
    }

    /// Compiles a function body into a child proto of the current function and returns
    /// its index.
    pub(crate) fn function(
        &mut self,
        name: &str,
        params: &'a [Param],
        body: &'a Block,
        is_closure: bool,
        self_name: Option<&str>,
    ) -> CResult<u16> {
        let mut used = HashSet::default();
        names_in_block(body, &mut used);
        for p in params {
            if let Some(d) = &p.default {
                names_in_expr(d, &mut used);
            }
        }
        let mut f = FnState::new(name, is_closure, 8 + 4 * body.stmts.len());
        f.self_name = self_name.map(Name::from);
        for p in params {
            f.declare(&p.name.name, false);
            f.proto.param_names.push(p.name.name.clone());
            f.proto.params.push(ParamInfo {
                name: String::from(p.name.name.as_str()),
                check: param_check(&p.ty),
                default_pc: None,
                rest: p.rest,
            });
        }
        let is_generator = used.remove(super::names::YIELD_MARK);
        // Captures: every used name visible as a local of the enclosing function.
        let mut names: Vec<&str> = used.iter().copied().collect();
        names.sort_unstable();
        let parent = self.cur_ref();
        let mut captures = Vec::new();
        for n in names {
            if params.iter().any(|p| p.name.name == n) || self_name == Some(n) {
                continue;
            }
            if let Some(local) = parent.lookup(n) {
                captures.push((n, local.reg, local.mutable));
            }
        }
        for (n, reg, mutable) in captures {
            f.add_capture(n, CaptureFrom::Register(reg), mutable);
        }
        let line = self.line;
        if is_generator {
            // Calling the function only makes the generator; the body (from the
            // instruction after the `Return`) runs as it is consumed.
            f.proto.is_generator = true;
            let g = f.alloc();
            f.emit(Op::GenStart { dst: g }, line);
            f.emit(Op::Return { src: g }, line);
        }
        if let Some(me) = self_name
            && used.contains(me)
            // A parameter of the same name hides the function inside its body.
            && !params.iter().any(|p| p.name.name == me)
        {
            let r = f.declare(me, false);
            f.self_load_at = f.proto.code.len();
            f.emit(Op::LoadSelf { dst: r }, line);
            f.self_reg = Some(r);
        }
        self.fns.push(f);
        self.setup_defers(&body.stmts);
        // Parameter defaults, evaluated when the argument is omitted.
        for (i, p) in params.iter().enumerate() {
            if let Some(d) = &p.default {
                let index = self.operand(i, "parameters of one function");
                let j = self.emit(Op::JumpIfArgGiven { index, offset: 0 });
                self.expr_into(d, index)?;
                self.patch(j);
            }
        }
        let result = self.alloc();
        self.cur().body_block = Some(body);
        if is_closure {
            self.cur().result_block = Some(body);
            self.block_into(body, Some(result))?;
        } else {
            self.block_into(body, None)?;
            self.emit(Op::LoadNil { dst: result });
        }
        self.run_defers()?;
        let result = self.cur().frame_result.take().unwrap_or(result);
        self.emit(Op::Return { src: result });
        let done = self
            .fns
            .pop()
            .map(|mut f| {
                f.drop_unread_self();
                f.proto
            })
            .unwrap_or_default();
        let children = &mut self.cur().proto.children;
        children.push(std::rc::Rc::new(done));
        let last = children.len() - 1;
        Ok(self.operand(last, "nested functions in one function"))
    }

    /// Runs the `finally` blocks of the `try`s entered since `depth` (innermost first)
    /// before a `return`, `break` or `continue` leaves them.
    fn run_finallies(&mut self, depth: usize) -> CResult<()> {
        let open: Vec<TryCtx<'a>> = self.cur_ref().tries[depth..].to_vec();
        for i in (0..open.len()).rev() {
            // While a `finally` runs, its own `try` (and those inside it) are closed, so
            // an early exit inside the `finally` does not run it again.
            self.cur().tries.truncate(depth + i);
            self.emit(Op::TryEnd);
            if let Some(b) = open[i].finally {
                self.block_into(b, None)?;
            }
        }
        self.cur().tries.truncate(depth);
        self.cur().tries.extend(open);
        Ok(())
    }

    /// Allocates a "reached" flag (initially false) for every `defer` directly in this
    /// function's body (not in nested functions).
    pub(crate) fn setup_defers(&mut self, stmts: &'a [Stmt]) {
        let mut blocks = Vec::new();
        collect_defers(stmts, &mut blocks);
        for (i, block) in blocks.into_iter().enumerate() {
            // A local no source name can refer to, so the register stays reserved.
            let flag = self.cur().declare(&format!("\u{0}defer{i}"), true);
            self.emit(Op::LoadBool {
                dst: flag,
                value: false,
            });
            self.cur().defers.push((block, flag));
        }
    }

    /// Runs the reached `defer` blocks, last first (at every exit of the function).
    pub(crate) fn run_defers(&mut self) -> CResult<()> {
        // Taken out while emitting, so a `return` inside a deferred block does not
        // emit the defers again.
        let defers = std::mem::take(&mut self.cur().defers);
        for (block, flag) in defers.iter().rev() {
            let skip = self.emit(Op::JumpIfFalse {
                cond: *flag,
                offset: 0,
            });
            self.block_into(block, None)?;
            self.patch(skip);
        }
        self.cur().defers = defers;
        Ok(())
    }

    pub(crate) fn push_try(&mut self, finally: Option<&'a Block>) {
        self.cur().tries.push(TryCtx { finally });
    }

    pub(crate) fn pop_try(&mut self) {
        self.cur().tries.pop();
    }

    fn loop_body(
        &mut self,
        body: &'a Block,
        start: usize,
        prologue: impl FnOnce(&mut Self) -> CResult<()>,
    ) -> CResult<()> {
        let try_depth = self.cur_ref().tries.len();
        self.cur().loops.push(LoopCtx {
            try_depth,
            ..LoopCtx::default()
        });
        prologue(self)?;
        self.block_into(body, None)?;
        let ctx = self.cur().loops.pop().unwrap_or_default();
        self.widen_clears(ctx.clears);
        for c in ctx.continues {
            self.patch_to(c, start);
        }
        let back = self.emit(Op::Jump { offset: 0 });
        self.patch_to(back, start);
        for b in ctx.breaks {
            self.patch(b);
        }
        Ok(())
    }

    /// A `for` body: the pattern bound from `elem` (a plain name is the element
    /// register itself: the loop state lives in `base`, so assigning the name cannot
    /// disturb the iteration), the body, then `ForLoop` back to `body_start`;
    /// `continue` goes to the `ForLoop`, `break` past it.
    fn for_body(
        &mut self,
        pattern: &'a Pattern,
        elem: u16,
        body: &'a Block,
        base: u16,
        body_start: usize,
    ) -> CResult<()> {
        let try_depth = self.cur_ref().tries.len();
        self.cur().loops.push(LoopCtx {
            try_depth,
            ..LoopCtx::default()
        });
        match pattern {
            Pattern::Ident(id) => self.cur().bind(&id.name, elem, true),
            _ => self.bind_pattern(pattern, elem, true)?,
        }
        self.block_into(body, None)?;
        let ctx = self.cur().loops.pop().unwrap_or_default();
        self.widen_clears(ctx.clears);
        let step = self.here();
        for c in ctx.continues {
            self.patch_to(c, step);
        }
        let back = self.emit(Op::ForLoop {
            base,
            dst: elem,
            offset: 0,
        });
        self.patch_to(back, body_start);
        for b in ctx.breaks {
            self.patch(b);
        }
        Ok(())
    }

    /// `retry N { body }`: re-runs the body on a throw, up to N attempts, then rethrows.
    fn retry(&mut self, attempts: &'a Expr, body: &'a Block) -> CResult<()> {
        let remaining = self.alloc();
        self.expr_into(attempts, remaining)?;
        let err = self.alloc();
        let start = self.here();
        let handler = self.emit(Op::TryBegin {
            dst: err,
            offset: 0,
        });
        self.push_try(None);
        self.block_into(body, None)?;
        self.pop_try();
        self.emit(Op::TryEnd);
        let done = self.emit(Op::Jump { offset: 0 });
        self.patch(handler);
        self.emit(Op::AddInt {
            dst: remaining,
            a: remaining,
            imm: -1,
        });
        let zero = self.alloc();
        self.emit(Op::LoadInt {
            dst: zero,
            value: 0,
        });
        let again = self.alloc();
        self.emit(Op::Gt {
            dst: again,
            a: remaining,
            b: zero,
        });
        let j = self.emit(Op::JumpIfTrue {
            cond: again,
            offset: 0,
        });
        self.patch_to(j, start);
        self.emit(Op::Rethrow { src: err });
        self.patch(done);
        Ok(())
    }
}

/// `defer` blocks in `stmts` and the blocks nested in them, in source order, without
/// entering nested functions.
fn collect_defers<'a>(stmts: &'a [Stmt], out: &mut Vec<&'a Block>) {
    for s in stmts {
        match &s.kind {
            StmtKind::Defer(b) => {
                out.push(b);
                collect_defers(&b.stmts, out);
            }
            StmtKind::For { body, .. }
            | StmtKind::While { body, .. }
            | StmtKind::Retry { body, .. } => collect_defers(&body.stmts, out),
            StmtKind::Guard { else_block, .. } => collect_defers(&else_block.stmts, out),
            StmtKind::Expr(e) => collect_defers_expr(e, out),
            _ => {}
        }
    }
}

fn collect_defers_expr<'a>(e: &'a Expr, out: &mut Vec<&'a Block>) {
    match &e.kind {
        ExprKind::If {
            then, otherwise, ..
        } => {
            collect_defers(&then.stmts, out);
            match otherwise {
                Some(ElseBranch::Block(b)) => collect_defers(&b.stmts, out),
                Some(ElseBranch::If(inner)) => collect_defers_expr(inner, out),
                None => {}
            }
        }
        ExprKind::Try {
            body,
            catch,
            finally,
        } => {
            collect_defers(&body.stmts, out);
            if let Some(c) = catch {
                collect_defers(&c.body.stmts, out);
            }
            if let Some(f) = finally {
                collect_defers(&f.stmts, out);
            }
        }
        ExprKind::Match { arms, .. } => {
            for arm in arms {
                collect_defers(&arm.body.stmts, out);
            }
        }
        _ => {}
    }
}

/// A call whose result `return` hands straight back: the call op, and how many ops
/// (the call, and the move of its result into `r` if any) a tail call replaces.
fn tail_call(code: &[Op], r: u16) -> Option<(usize, Op)> {
    let base_of = |op: &Op| match op {
        Op::Call { base, .. }
        | Op::CallLocal { base, .. }
        | Op::CallGlobal { base, .. }
        | Op::CallSelf { base, .. } => Some(*base),
        _ => None,
    };
    let (drop, call) = match code {
        // A call's result is taken from its window (`Take`); older code moved it.
        [.., call, Op::Move { dst, src } | Op::Take { dst, src }]
            if *dst == r && base_of(call) == Some(*src) =>
        {
            (2, *call)
        }
        [.., call] if base_of(call) == Some(r) => (1, *call),
        _ => return None,
    };
    // A jump past the call (`return a ?? f(x)`: `a` is returned without calling) or into
    // the move keeps the ordinary call-then-return.
    let start = code.len() - drop;
    let jumped_over = code.iter().enumerate().any(|(pc, op)| {
        op.jump_offset().is_some_and(|o| {
            let target = pc as i64 + 1 + i64::from(o);
            target > start as i64 && target <= code.len() as i64
        })
    });
    (!jumped_over).then_some((drop, call))
}
