//! The walk over statements and expressions: scopes, inference of known types, and the
//! checks of `language.md` 10.3.

use std::rc::Rc;

use super::decls::is_builtin;
use super::rules::{binary, fits, missing_field};
use super::{Checker, FnContext, FnInfo, Var};
use crate::ast::*;
use crate::builtins::BuiltinEnv;
use crate::diagnostic::codes;
use crate::types::{Field, Ty, schema_type};

/// Stack kept free before recursing, and the size of each heap segment when it runs out.
const RED_ZONE: usize = 256 * 1024;
const STACK_SEGMENT: usize = 4 * 1024 * 1024;

impl Checker<'_> {
    pub(crate) fn program(&mut self, program: &Program) {
        self.predeclare(&program.items, true);
        for s in &program.items {
            self.stmt(s);
        }
    }

    fn block(&mut self, b: &Block) {
        self.push_scope();
        self.stmts(&b.stmts);
        self.pop_scope();
    }

    fn stmts(&mut self, stmts: &[Stmt]) {
        self.predeclare(stmts, false);
        for s in stmts {
            self.stmt(s);
        }
    }

    /// Checks a function body with its parameters in a new scope.
    fn function(&mut self, params: &[Param], ret: Option<Ty>, body: &Block) {
        self.function_body(params, ret, false, body);
    }

    fn function_body(&mut self, params: &[Param], ret: Option<Ty>, is_gen: bool, body: &Block) {
        self.push_scope();
        for p in params {
            if let Some(d) = &p.default {
                self.expr(d);
            }
            let ty = match self.annotation(&p.ty) {
                Some(t) if p.rest => Ty::List(Box::new(t)),
                Some(t) => t,
                None => Ty::Any,
            };
            self.record_type(p.name.span, &ty);
            self.declare(&p.name.name, Var::known(p.name.span, ty));
        }
        self.fns.push(FnContext { ret, is_gen });
        self.stmts(&body.stmts);
        self.fns.pop();
        self.pop_scope();
    }

    fn fn_decl(&mut self, f: &FnDecl) {
        let info = self.fn_info(&f.generics, &f.params, &f.ret);
        self.function_body(&f.params, info.ret, f.is_gen, &f.body);
    }

    /// Attributes the language knows (`language.md` 6.6); any other name is most
    /// likely a typo, so it is a warning (the attribute is ignored either way).
    fn attributes(&mut self, attrs: &[Attribute]) {
        const KNOWN: &[&str] = &[
            "deprecated",
            "test",
            "complexity",
            "acp_tool",
            "acp_skill",
            "invariant",
            "deterministic",
            "semantic",
            "archivist",
            "retroactive",
            "job",
            "retry",
            "schedule",
            "queue",
            "persona",
            "step",
            "trigger",
            "handoff",
            "budget",
            "command",
            "serial",
            "heavy",
            "policy",
            "route",
            "test_fixture",
        ];
        for a in attrs {
            let name = a.name.name.as_str();
            if KNOWN.contains(&name) {
                continue;
            }
            let close = crate::suggest::suggest(name, KNOWN.iter().copied());
            let hint = close
                .as_ref()
                .map(|c| format!(" — did you mean `@{c}`?"))
                .unwrap_or_default();
            self.warn(
                codes::UNKNOWN_ATTRIBUTE,
                format!("unknown attribute `@{name}`{hint}"),
                a.name.span,
                "ignored",
            );
            if let Some(c) = close {
                self.attach_fix(a.name.span, c);
            }
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        self.attributes(&s.attrs);
        // Nesting is bounded by the parser, but a long operator chain is a deep tree:
        // the stack grows on the heap rather than overflow.
        crate::stack::maybe_grow(RED_ZONE, STACK_SEGMENT, || self.stmt_inner(s));
    }

    fn stmt_inner(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Let {
                pattern,
                ty,
                value,
                kind,
            } => {
                let actual = self.expr(value);
                let declared = self.annotation_of(ty.as_deref());
                if let (Some(d), Pattern::Ident(id)) = (&declared, pattern)
                    && let Some(reason) = self.mismatch(&actual, d)
                {
                    self.error(
                        codes::TYPE_ANNOTATION,
                        format!(
                            "'{}' declared as {d}, but assigned {actual}{reason}",
                            id.name
                        ),
                        value.span,
                        "this value",
                    );
                }
                self.pattern_defaults(pattern);
                // A `var` without an annotation may be given any value later.
                let ty = match (declared, kind) {
                    (Some(d), _) => d,
                    (None, BindingKind::Var) => Ty::Any,
                    (None, _) => widen(actual),
                };
                self.declare_pattern(pattern, ty);
                let local = self.scopes.depth() > 1;
                if let Pattern::Ident(id) = pattern
                    && let Some(v) = self.scopes.innermost_mut(id.name.as_str())
                {
                    v.immutable = matches!(kind, BindingKind::Let | BindingKind::Const);
                    v.warn_unused = local;
                }
            }
            StmtKind::Assign { target, value, .. } => {
                self.expr(target);
                self.expr(value);
                if let ExprKind::Ident(name) = &target.kind
                    && self.lookup(name).is_some_and(|v| v.immutable)
                {
                    self.warn(
                        codes::ASSIGN_TO_LET,
                        format!("Cannot assign to immutable binding: {name}"),
                        target.span,
                        "declared with let",
                    );
                }
            }
            StmtKind::Expr(e) | StmtKind::Throw(e) => {
                self.expr(e);
            }
            StmtKind::Return(e) => {
                let actual = e.as_ref().map_or(Ty::Nil, |e| self.expr(e));
                let expected = self.fns.last().and_then(|f| f.ret.clone());
                if let (Some(expected), Some(e)) = (expected, e)
                    && self.mismatch(&actual, &expected).is_some()
                {
                    self.error(
                        codes::TYPE_RETURN,
                        format!("return type doesn't match: expected {expected}, got {actual}"),
                        e.span,
                        "returned here",
                    );
                }
            }
            StmtKind::Break | StmtKind::Continue | StmtKind::Error => {}
            StmtKind::For {
                pattern,
                iterable,
                body,
            } => {
                self.expr(iterable);
                self.push_scope();
                self.declare_pattern(pattern, Ty::Any);
                self.block(body);
                self.pop_scope();
            }
            StmtKind::While { cond, body } => {
                self.condition(cond);
                self.block(body);
            }
            StmtKind::Guard { cond, else_block } => {
                self.condition(cond);
                self.block(else_block);
            }
            StmtKind::Require { cond, message } => {
                self.condition(cond);
                if let Some(m) = message {
                    self.expr(m);
                }
            }
            StmtKind::Defer(b) => self.block(b),
            StmtKind::Retry { attempts, body } => {
                self.expr(attempts);
                self.block(body);
            }
            StmtKind::Fn(f) | StmtKind::Override(f) => self.fn_decl(f),
            StmtKind::Pipeline(p) => {
                self.push_scope();
                for id in &p.params {
                    self.declare(&id.name, Var::known(id.span, Ty::Any));
                }
                self.fns.push(FnContext {
                    ret: self.annotation(&p.ret),
                    is_gen: false,
                });
                self.stmts(&p.body.stmts);
                self.fns.pop();
                self.pop_scope();
            }
            StmtKind::Struct(d) => {
                for f in &d.fields {
                    if let Some(v) = &f.default {
                        self.expr(v);
                    }
                }
            }
            StmtKind::Impl(d) => {
                for m in &d.methods {
                    self.push_scope();
                    self.declare("self", Var::known(d.target.span, Ty::Any));
                    self.fn_decl(m);
                    self.pop_scope();
                }
            }
            StmtKind::Tool(d) => {
                if let Some(desc) = &d.description {
                    self.expr(desc);
                }
                self.function(&d.params, self.annotation(&d.ret), &d.body);
            }
            StmtKind::Skill(d) => {
                for f in &d.fields {
                    self.expr(&f.value);
                }
            }
            StmtKind::EvalPack(d) => {
                self.push_scope();
                for item in &d.items {
                    match item {
                        EvalPackItem::Field(f) => {
                            self.expr(&f.value);
                        }
                        EvalPackItem::Summarize(b) => self.block(b),
                        EvalPackItem::Stmt(s) => self.stmt(s),
                    }
                }
                self.pop_scope();
            }
            StmtKind::Interface(d) => {
                for m in &d.methods {
                    for p in m.params.iter().filter(|p| p.name.name != "self") {
                        self.variance(&d.generics, &p.ty, false, "interface", &d.name.name);
                    }
                    self.variance(&d.generics, &m.ret, true, "interface", &d.name.name);
                }
            }
            StmtKind::TypeAlias(d) => {
                let ty = Some(d.ty.clone());
                self.variance(&d.generics, &ty, true, "type alias", &d.name.name);
            }
            StmtKind::Enum(_) | StmtKind::Import(_) => {}
        }
    }

    fn pattern_defaults(&mut self, p: &Pattern) {
        match p {
            Pattern::Dict { fields, .. } => {
                for d in fields.iter().filter_map(|f| f.default.as_ref()) {
                    self.expr(d);
                }
            }
            Pattern::List { elems, .. } => {
                for d in elems.iter().filter_map(|e| e.default.as_ref()) {
                    self.expr(d);
                }
            }
            _ => {}
        }
    }

    /// A condition (`if`, `while`, `guard`, `require`, ternary): checked like any
    /// expression, and the `unknown` variables it inspects count as narrowed.
    fn condition(&mut self, cond: &Expr) {
        self.expr(cond);
        self.release_unknowns(cond);
    }

    /// The known type of `e` (`any` when uncertain), checking everything inside it.
    pub(crate) fn expr(&mut self, e: &Expr) -> Ty {
        let ty = crate::stack::maybe_grow(RED_ZONE, STACK_SEGMENT, || self.expr_inner(e));
        self.record_type(e.span, &ty);
        ty
    }

    fn expr_inner(&mut self, e: &Expr) -> Ty {
        match &e.kind {
            ExprKind::Nil => Ty::Nil,
            ExprKind::Bool(_) => Ty::Bool,
            ExprKind::Int(_) => Ty::Int,
            ExprKind::Float(_) => Ty::Float,
            ExprKind::Duration(_) => Ty::Duration,
            ExprKind::Str(_) => Ty::String,
            ExprKind::InterpStr(parts) => {
                for p in parts {
                    if let StrPart::Expr(x) = p {
                        self.expr(x);
                    }
                }
                Ty::String
            }
            ExprKind::Ident(name) => self.name(name, e.span),
            ExprKind::List(items) => self.list(items),
            ExprKind::Dict(entries) => self.dict(entries),
            ExprKind::Closure(c) => {
                self.function(&c.params, self.annotation(&c.ret), &c.body);
                Ty::Closure
            }
            ExprKind::Unary { op, operand } => {
                let t = self.expr(operand);
                match op {
                    UnaryOp::Not => Ty::Bool,
                    UnaryOp::Neg => match t {
                        Ty::Int | Ty::IntLit(_) => Ty::Int,
                        Ty::Float => Ty::Float,
                        _ => Ty::Any,
                    },
                }
            }
            ExprKind::Binary { op, lhs, rhs } => {
                let a = self.expr(lhs);
                let b = self.expr(rhs);
                if matches!(op, BinOp::Eq | BinOp::Ne)
                    && let Some((x, y)) = super::rules::never_equal(&a, &b)
                {
                    self.warn(
                        codes::MIXED_COMPARISON,
                        format!("comparing {x} with {y}: the values are never equal"),
                        e.span,
                        "this comparison",
                    );
                }
                match binary(*op, &a, &b) {
                    Ok(t) => t,
                    Err(message) => {
                        self.error(codes::TYPE_OPERATOR, message, e.span, "this operation");
                        Ty::Any
                    }
                }
            }
            ExprKind::Pipe { value, func } => {
                self.expr(value);
                if let ExprKind::Ident(name) = &func.kind {
                    self.callee(name, e.span);
                } else {
                    self.push_scope();
                    self.declare("_", Var::known(value.span, Ty::Any));
                    self.expr(func);
                    self.pop_scope();
                }
                Ty::Any
            }
            ExprKind::Ternary {
                cond,
                then,
                otherwise,
            } => {
                self.condition(cond);
                let a = self.expr(then);
                let b = self.expr(otherwise);
                join(a, b)
            }
            ExprKind::Range { start, end, .. } => {
                self.expr(start);
                self.expr(end);
                Ty::Range
            }
            ExprKind::Call { callee, args, .. } => self.call(callee, args),
            ExprKind::MethodCall {
                receiver,
                method,
                args,
                ..
            } => {
                if let Some(name) = crate::builtins::namespaced_builtin(receiver, &method.name)
                    && let ExprKind::Ident(root) = &receiver.kind
                    && self.lookup(root).is_none()
                {
                    let callee = Ident {
                        name: name.into(),
                        span: receiver.span.to(method.span),
                    };
                    return self.call(&callee, args);
                }
                let t = self.expr(receiver);
                self.args(args);
                // `Shape.Circle(1)`: a variant of the program's enum.
                match &receiver.kind {
                    ExprKind::Ident(n) if self.enums.contains(n.as_str()) => self.nominal_value(n),
                    _ => method_result(&t, &method.name),
                }
            }
            ExprKind::Member {
                object,
                name,
                optional,
            } => {
                if let Some(builtin) = crate::builtins::namespaced_builtin(object, &name.name)
                    && let ExprKind::Ident(root) = &object.kind
                    && self.lookup(root).is_none()
                {
                    return self.name(&builtin, object.span.to(name.span));
                }
                let t = self.expr(object);
                match (&object.kind, t) {
                    (ExprKind::Ident(n), _) if self.enums.contains(n.as_str()) => {
                        self.nominal_value(n)
                    }
                    (_, Ty::Shape(fields, closed)) => self.field(&fields, closed, name, *optional),
                    _ => Ty::Any,
                }
            }
            ExprKind::Index { object, index, .. } => {
                self.expr(object);
                self.expr(index);
                Ty::Any
            }
            ExprKind::Slice { object, start, end } => {
                self.expr(object);
                for x in [start, end].into_iter().flatten() {
                    self.expr(x);
                }
                Ty::Any
            }
            ExprKind::TryStar(x) => {
                if self.fns.is_empty() {
                    self.error(
                        codes::TRY_STAR_TOP_LEVEL,
                        "try* requires an enclosing function (fn, tool, or pipeline) so the rethrow has a target".into(),
                        e.span,
                        "at the top level",
                    );
                }
                self.in_try += 1;
                self.expr(x);
                self.in_try -= 1;
                Ty::Any
            }
            ExprKind::Propagate(x) | ExprKind::Emit(x) => {
                self.expr(x);
                Ty::Any
            }
            ExprKind::Yield(x) => {
                if self.fns.last().is_some_and(|f| f.is_gen) {
                    self.error(
                        codes::YIELD_IN_STREAM,
                        "`yield` is not a stream emit; use `emit` inside `gen fn`".into(),
                        e.span,
                        "in a gen fn",
                    );
                }
                if let Some(x) = x {
                    self.expr(x);
                }
                Ty::Any
            }
            ExprKind::StructLit { name, fields } => {
                self.name(&name.name, name.span);
                self.dict(fields);
                self.nominal_value(&name.name)
            }
            ExprKind::If {
                cond,
                then,
                otherwise,
            } => {
                self.condition(cond);
                self.block(then);
                match otherwise {
                    Some(ElseBranch::Block(b)) => self.block(b),
                    Some(ElseBranch::If(x)) => {
                        self.expr(x);
                    }
                    None => {}
                }
                Ty::Any
            }
            ExprKind::Match { scrutinee, arms } => {
                let t = self.expr(scrutinee);
                self.exhaustive(scrutinee, &t, arms, e.span);
                self.release_unknowns(scrutinee);
                for arm in arms {
                    self.push_scope();
                    for p in &arm.patterns {
                        self.declare_match_pattern(p);
                    }
                    if let Some(g) = &arm.guard {
                        self.expr(g);
                    }
                    self.block(&arm.body);
                    self.pop_scope();
                }
                Ty::Any
            }
            ExprKind::Try {
                body,
                catch,
                finally,
            } => {
                self.in_try += 1;
                self.block(body);
                self.in_try -= 1;
                if let Some(c) = catch {
                    self.push_scope();
                    if let Some(v) = &c.var {
                        let ty = self.annotation(&c.ty).unwrap_or(Ty::Any);
                        self.declare(&v.name, Var::known(v.span, ty));
                    }
                    self.block(&c.body);
                    self.pop_scope();
                }
                if let Some(f) = finally {
                    self.block(f);
                }
                Ty::Any
            }
            ExprKind::Spawn(b) | ExprKind::Mutex(b) => {
                self.block(b);
                Ty::Any
            }
            ExprKind::Parallel {
                subject,
                options,
                param,
                body,
                ..
            } => {
                self.expr(subject);
                if let Some(o) = options {
                    self.expr(o);
                }
                self.push_scope();
                if let Some(p) = param {
                    self.declare(&p.name, Var::known(p.span, Ty::Any));
                }
                self.block(body);
                self.pop_scope();
                Ty::Any
            }
            ExprKind::Select(arms) => {
                for arm in arms {
                    match arm {
                        SelectArm::Recv { var, channel, body } => {
                            self.expr(channel);
                            self.push_scope();
                            self.declare(&var.name, Var::known(var.span, Ty::Any));
                            self.block(body);
                            self.pop_scope();
                        }
                        SelectArm::Timeout { duration, body } => {
                            self.expr(duration);
                            self.block(body);
                        }
                        SelectArm::Default { body } => self.block(body),
                    }
                }
                Ty::Any
            }
            ExprKind::Deadline { duration, body } => {
                self.expr(duration);
                self.block(body);
                Ty::Any
            }
            ExprKind::Error => Ty::Any,
        }
    }

    /// The variable `name` names here, recording the use (definitions table, reads).
    fn resolve(&mut self, name: &str, span: Span) -> Option<(Ty, Option<Rc<FnInfo>>)> {
        let var = self.lookup(name)?;
        let (ty, func, def) = (var.ty.clone(), var.func.clone(), var.def);
        if let Some(def) = def {
            if !self.env.diagnostics_only {
                self.definitions.push((span, def));
            }
            self.used.insert(def.start);
        }
        Some((ty, func))
    }

    /// A name read as a value.
    fn name(&mut self, name: &str, span: Span) -> Ty {
        if let Some((ty, _)) = self.resolve(name, span) {
            return ty;
        }
        if crate::builtins::constant_value(name).is_some() {
            return Ty::Float;
        }
        if !is_builtin(self.env, name) {
            self.undefined(name, span, false);
        }
        Ty::Any
    }

    /// A name used as a call target: its signature when it is a user function.
    fn callee(&mut self, name: &str, span: Span) -> Option<Rc<FnInfo>> {
        if let Some((_, func)) = self.resolve(name, span) {
            return func;
        }
        if !is_builtin(self.env, name) {
            self.undefined(name, span, true);
        }
        None
    }

    fn call(&mut self, callee: &Ident, args: &[Arg]) -> Ty {
        let name = callee.name.as_str();
        let declared = self.lookup(name).is_some();
        let func = self.callee(name, callee.span);
        let types = self.args(args);
        let Some(func) = func else {
            if declared {
                // `Point({x: 1})` builds the program's struct.
                return if self.enums.contains(name) {
                    Ty::Any
                } else {
                    self.nominal_value(name)
                };
            }
            if let Some(binding) = self
                .env
                .manifest
                .and_then(|m| m.bindings.iter().find(|b| b.binding == name))
            {
                self.binding_arguments(binding, args);
                return binding.output_schema.as_ref().map_or(Ty::Any, schema_type);
            }
            if name == "len"
                && let (Some(Arg::Positional(arg)), Some(ty)) = (args.first(), types.first())
                && matches!(ty, Ty::Named { name, .. } if matches!(name.as_str(), "iter" | "Generator" | "Stream"))
            {
                // harnc fixes this: the reference answers 0, silently wrong.
                self.error(
                    codes::LAZY_LEN,
                    format!("len() of a lazy iterator ({ty}) is unknown until it is consumed: use .count() (consumes it) or .to_list() first"),
                    arg.span,
                    "a lazy sequence",
                );
            }
            return BuiltinEnv::global()
                .signature(name)
                .map_or(Ty::Any, |s| s.ret.clone());
        };
        self.arity(name, &func, args, callee.span);
        self.generic_arguments(&func, args, &types);
        for (i, (arg, actual)) in args.iter().zip(&types).enumerate() {
            let Arg::Positional(arg) = arg else {
                // After a spread the positions are not known.
                break;
            };
            let Some(param) = func.params.get(i) else {
                break;
            };
            if param.rest {
                break;
            }
            if let Some(expected) = &param.ty
                && self.mismatch(actual, expected).is_some()
            {
                self.error(
                    codes::TYPE_ARGUMENT,
                    format!(
                        "Argument {} ('{}'): expected {expected}, got {actual}",
                        i + 1,
                        param.name
                    ),
                    arg.span,
                    "this argument",
                );
            }
        }
        func.ret.clone().unwrap_or(Ty::Any)
    }

    fn args(&mut self, args: &[Arg]) -> Vec<Ty> {
        args.iter()
            .map(|a| {
                let (Arg::Positional(x) | Arg::Spread(x)) = a;
                self.expr(x)
            })
            .collect()
    }

    fn list(&mut self, items: &[Arg]) -> Ty {
        let types = self.args(items);
        if items.iter().any(|a| matches!(a, Arg::Spread(_))) {
            return Ty::List(Box::new(Ty::Any));
        }
        let mut members: Vec<Ty> = Vec::new();
        for t in types.into_iter().map(widen) {
            if matches!(t, Ty::Any) {
                return Ty::List(Box::new(Ty::Any));
            }
            if !members.contains(&t) {
                members.push(t);
            }
        }
        Ty::List(Box::new(if members.is_empty() {
            Ty::Any
        } else {
            Ty::union(members)
        }))
    }

    /// A dict literal with plain keys is a shape of its values' types.
    fn dict(&mut self, entries: &[DictEntry]) -> Ty {
        let mut fields = Vec::new();
        let mut plain = true;
        for entry in entries {
            match entry {
                DictEntry::Pair { key, value } => {
                    if let DictKey::Computed(k) = key {
                        self.expr(k);
                    }
                    let ty = widen(self.expr(value));
                    match key {
                        DictKey::Name(name, _)
                            if !fields.iter().any(|f: &Field| f.name == *name) =>
                        {
                            fields.push(Field {
                                name: name.clone(),
                                ty,
                                optional: false,
                            });
                        }
                        _ => plain = false,
                    }
                }
                DictEntry::Spread(x) => {
                    self.expr(x);
                    plain = false;
                }
            }
        }
        if plain {
            Ty::Shape(fields, false)
        } else {
            Ty::Dict(Box::new(Ty::Any), Box::new(Ty::Any))
        }
    }
}

impl Checker<'_> {
    /// Why `actual` cannot stand where `declared` is expected (`Some("")` when no
    /// detail is worth adding), or `None` when it may.
    pub(crate) fn mismatch(&self, actual: &Ty, declared: &Ty) -> Option<String> {
        let nominal = |name: &str| self.nominal.contains(name);
        if fits(actual, declared, &nominal) {
            return None;
        }
        Some(match (actual, declared) {
            (Ty::Shape(have, _), Ty::Shape(want, _)) => missing_field(have, want, &nominal)
                .map(|r| format!(" ({r})"))
                .unwrap_or_default(),
            _ => String::new(),
        })
    }

    /// The type of a struct or enum value named `name`, when it is one of the
    /// program's.
    fn nominal_value(&self, name: &str) -> Ty {
        if self.nominal.contains(name) {
            Ty::Named {
                name: crate::ast::name_of(name),
                args: Vec::new(),
            }
        } else {
            Ty::Any
        }
    }
}

/// What a method returns when the receiver's type decides it: `.iter()` on anything,
/// and the lazy adaptors on a range or an iterator (`language.md` 9.3), give an `iter`.
fn method_result(receiver: &Ty, method: &str) -> Ty {
    const ADAPTORS: &[&str] = &[
        "map",
        "filter",
        "flat_map",
        "take",
        "skip",
        "take_while",
        "skip_while",
        "zip",
        "enumerate",
        "chain",
        "chunks",
        "windows",
    ];
    let lazy = matches!(receiver, Ty::Range)
        || matches!(receiver, Ty::Named { name, .. } if name == "iter");
    if method == "iter" || (lazy && ADAPTORS.contains(&method)) {
        Ty::Named {
            name: "iter".into(),
            args: Vec::new(),
        }
    } else {
        Ty::Any
    }
}

/// Literal types widen to their base type once stored (`let x = 1` is an `int`).
pub(crate) fn widen(t: Ty) -> Ty {
    match t {
        Ty::IntLit(_) => Ty::Int,
        Ty::StrLit(_) => Ty::String,
        other => other,
    }
}

/// The type of a value that is one of `a` or `b`.
fn join(a: Ty, b: Ty) -> Ty {
    if matches!(a, Ty::Any) || matches!(b, Ty::Any) {
        Ty::Any
    } else if a == b {
        a
    } else {
        Ty::union(vec![a, b])
    }
}
