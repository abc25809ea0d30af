//! A readable, indented dump of the AST (`harnc parse --ast`).
//!
//! One node per line: its kind, the detail that identifies it (a name, an operator, a
//! literal), and its byte span; children are indented below, introduced by the role they
//! play (`cond:`, `then:`, ...) where that is not obvious.

use std::fmt::Write as _;

use crate::ast::*;

/// Renders the tree; spans are shown as `@start..end` byte ranges.
pub fn dump(program: &Program) -> String {
    let mut w = Writer::default();
    w.line(&format!("Program {}", at(program.span)));
    w.nest(|w| {
        for item in &program.items {
            w.stmt(item);
        }
    });
    w.out
}

fn at(span: Span) -> String {
    format!("@{}..{}", span.start, span.end)
}

fn quote(s: &str) -> String {
    format!("{s:?}")
}

#[derive(Default)]
struct Writer {
    out: String,
    depth: usize,
}

impl Writer {
    fn line(&mut self, text: &str) {
        for _ in 0..self.depth {
            self.out.push_str("  ");
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn nest(&mut self, f: impl FnOnce(&mut Self)) {
        self.depth += 1;
        f(self);
        self.depth -= 1;
    }

    /// A labelled child: `role:` then the child indented.
    fn role(&mut self, role: &str, f: impl FnOnce(&mut Self)) {
        self.line(&format!("{role}:"));
        self.nest(f);
    }

    fn block(&mut self, role: &str, block: &Block) {
        self.line(&format!("{role}: Block {}", at(block.span)));
        self.nest(|w| {
            for s in &block.stmts {
                w.stmt(s);
            }
        });
    }

    fn opt_ty(&mut self, role: &str, ty: Option<&TypeExpr>) {
        if let Some(ty) = ty {
            self.role(role, |w| w.ty(ty));
        }
    }

    fn opt_expr(&mut self, role: &str, e: &Option<Expr>) {
        if let Some(e) = e {
            self.role(role, |w| w.expr(e));
        }
    }

    fn generics(&mut self, generics: &[GenericParam]) {
        if generics.is_empty() {
            return;
        }
        let list: Vec<String> = generics
            .iter()
            .map(|g| match g.variance {
                Variance::Invariant => g.name.name.to_string(),
                Variance::In => format!("in {}", g.name.name),
                Variance::Out => format!("out {}", g.name.name),
            })
            .collect();
        self.line(&format!("generics: <{}>", list.join(", ")));
    }

    fn params(&mut self, params: &[Param]) {
        for p in params {
            let rest = if p.rest { "..." } else { "" };
            self.line(&format!("Param {rest}{} {}", p.name.name, at(p.span)));
            self.nest(|w| {
                w.opt_ty("type", p.ty.as_ref());
                w.opt_expr("default", &p.default);
            });
        }
    }

    fn attrs(&mut self, attrs: &[Attribute]) {
        for a in attrs {
            self.line(&format!("Attribute @{} {}", a.name.name, at(a.span)));
            self.nest(|w| {
                for arg in &a.args {
                    match &arg.name {
                        Some(name) => w.role(&name.name, |w| w.expr(&arg.value)),
                        None => w.expr(&arg.value),
                    }
                }
            });
        }
    }

    fn fn_decl(&mut self, kind: &str, f: &FnDecl) {
        let mut flags = String::new();
        if f.is_pub {
            flags.push_str(" pub");
        }
        if f.is_gen {
            flags.push_str(" gen");
        }
        self.line(&format!("{kind} {}{flags} {}", f.name.name, at(f.span)));
        self.nest(|w| {
            w.generics(&f.generics);
            w.params(&f.params);
            w.opt_ty("returns", f.ret.as_ref());
            for b in &f.where_bounds {
                w.role(&format!("where {}", b.param.name), |w| w.ty(&b.bound));
            }
            w.block("body", &f.body);
        });
    }

    fn stmt(&mut self, s: &Stmt) {
        let span = at(s.span);
        self.attrs(&s.attrs);
        match &s.kind {
            StmtKind::Let {
                kind,
                pattern,
                ty,
                value,
            } => {
                let word = match kind {
                    BindingKind::Let => "Let",
                    BindingKind::Var => "Var",
                    BindingKind::Const => "Const",
                };
                self.line(&format!("{word} {span}"));
                self.nest(|w| {
                    w.role("pattern", |w| w.pattern(pattern));
                    w.opt_ty("type", ty.as_deref());
                    w.role("value", |w| w.expr(value));
                });
            }
            StmtKind::Assign { target, op, value } => {
                self.line(&format!("Assign {} {span}", op.as_str()));
                self.nest(|w| {
                    w.role("target", |w| w.expr(target));
                    w.role("value", |w| w.expr(value));
                });
            }
            StmtKind::Expr(e) => {
                self.line(&format!("ExprStmt {span}"));
                self.nest(|w| w.expr(e));
            }
            StmtKind::Return(e) => {
                self.line(&format!("Return {span}"));
                self.nest(|w| {
                    if let Some(e) = e {
                        w.expr(e);
                    }
                });
            }
            StmtKind::Throw(e) => {
                self.line(&format!("Throw {span}"));
                self.nest(|w| w.expr(e));
            }
            StmtKind::Break => self.line(&format!("Break {span}")),
            StmtKind::Continue => self.line(&format!("Continue {span}")),
            StmtKind::For {
                pattern,
                iterable,
                body,
            } => {
                self.line(&format!("For {span}"));
                self.nest(|w| {
                    w.role("pattern", |w| w.pattern(pattern));
                    w.role("in", |w| w.expr(iterable));
                    w.block("body", body);
                });
            }
            StmtKind::While { cond, body } => {
                self.line(&format!("While {span}"));
                self.nest(|w| {
                    w.role("cond", |w| w.expr(cond));
                    w.block("body", body);
                });
            }
            StmtKind::Guard { cond, else_block } => {
                self.line(&format!("Guard {span}"));
                self.nest(|w| {
                    w.role("cond", |w| w.expr(cond));
                    w.block("else", else_block);
                });
            }
            StmtKind::Require { cond, message } => {
                self.line(&format!("Require {span}"));
                self.nest(|w| {
                    w.role("cond", |w| w.expr(cond));
                    w.opt_expr("message", message);
                });
            }
            StmtKind::Defer(b) => {
                self.line(&format!("Defer {span}"));
                self.nest(|w| w.block("body", b));
            }
            StmtKind::Retry { attempts, body } => {
                self.line(&format!("Retry {span}"));
                self.nest(|w| {
                    w.role("attempts", |w| w.expr(attempts));
                    w.block("body", body);
                });
            }
            StmtKind::Fn(f) => self.fn_decl("Fn", f),
            StmtKind::Override(f) => self.fn_decl("Override", f),
            StmtKind::Pipeline(p) => {
                let params: Vec<&str> = p.params.iter().map(|i| i.name.as_str()).collect();
                let public = if p.is_pub { " pub" } else { "" };
                self.line(&format!(
                    "Pipeline {}({}){public} {span}",
                    p.name.name,
                    params.join(", ")
                ));
                self.nest(|w| {
                    w.opt_ty("returns", p.ret.as_ref());
                    if let Some(parent) = &p.extends {
                        w.line(&format!("extends {}", parent.name));
                    }
                    w.block("body", &p.body);
                });
            }
            StmtKind::Struct(d) => {
                self.line(&format!("Struct {} {span}", d.name.name));
                self.nest(|w| {
                    w.generics(&d.generics);
                    for f in &d.fields {
                        let opt = if f.optional { "?" } else { "" };
                        w.line(&format!("Field {}{opt} {}", f.name.name, at(f.span)));
                        w.nest(|w| {
                            w.opt_ty("type", f.ty.as_ref());
                            w.opt_expr("default", &f.default);
                        });
                    }
                });
            }
            StmtKind::Enum(d) => {
                self.line(&format!("Enum {} {span}", d.name.name));
                self.nest(|w| {
                    w.generics(&d.generics);
                    for v in &d.variants {
                        w.line(&format!("Variant {} {}", v.name.name, at(v.span)));
                        w.nest(|w| {
                            for f in v.fields.iter().flatten() {
                                let name = f.name.as_ref().map_or("_", |n| n.name.as_str());
                                w.line(&format!("Slot {name} {}", at(f.span)));
                                w.nest(|w| w.opt_ty("type", f.ty.as_ref()));
                            }
                        });
                    }
                });
            }
            StmtKind::Impl(d) => {
                self.line(&format!("Impl {} {span}", d.target.name));
                self.nest(|w| {
                    for t in &d.type_args {
                        w.role("type arg", |w| w.ty(t));
                    }
                    for m in &d.methods {
                        w.fn_decl("Method", m);
                    }
                });
            }
            StmtKind::Interface(d) => {
                self.line(&format!("Interface {} {span}", d.name.name));
                self.nest(|w| {
                    w.generics(&d.generics);
                    for a in &d.assoc_types {
                        w.line(&format!("AssocType {} {}", a.name.name, at(a.span)));
                        w.nest(|w| w.opt_ty("default", a.default.as_ref()));
                    }
                    for m in &d.methods {
                        w.line(&format!("Signature {} {}", m.name.name, at(m.span)));
                        w.nest(|w| {
                            w.generics(&m.generics);
                            w.params(&m.params);
                            w.opt_ty("returns", m.ret.as_ref());
                        });
                    }
                });
            }
            StmtKind::TypeAlias(d) => {
                self.line(&format!("TypeAlias {} {span}", d.name.name));
                self.nest(|w| {
                    w.generics(&d.generics);
                    w.ty(&d.ty);
                });
            }
            StmtKind::Tool(d) => {
                self.line(&format!("Tool {} {span}", d.name.name));
                self.nest(|w| {
                    w.params(&d.params);
                    w.opt_ty("returns", d.ret.as_ref());
                    w.opt_expr("description", &d.description);
                    w.block("body", &d.body);
                });
            }
            StmtKind::Skill(d) => {
                self.line(&format!("Skill {} {span}", d.name.name));
                self.nest(|w| w.fields(&d.fields));
            }
            StmtKind::EvalPack(d) => {
                let id =
                    d.id.as_ref()
                        .map_or(String::new(), |id| format!(" {}", quote(id)));
                self.line(&format!("EvalPack {}{id} {span}", d.name.name));
                self.nest(|w| {
                    for item in &d.items {
                        match item {
                            EvalPackItem::Field(f) => w.fields(std::slice::from_ref(f)),
                            EvalPackItem::Summarize(b) => w.block("summarize", b),
                            EvalPackItem::Stmt(s) => w.stmt(s),
                        }
                    }
                });
            }
            StmtKind::Import(d) => {
                let names = d.names.as_ref().map_or(String::new(), |n| {
                    let list: Vec<&str> = n.iter().map(|i| i.name.as_str()).collect();
                    format!(" {{{}}} from", list.join(", "))
                });
                self.line(&format!("Import{names} {} {span}", quote(&d.path)));
            }
            StmtKind::Error => self.line(&format!("ErrorStmt {span}")),
        }
    }

    fn fields(&mut self, fields: &[Field]) {
        for f in fields {
            self.line(&format!("Field {} {}", f.name.name, at(f.span)));
            self.nest(|w| w.expr(&f.value));
        }
    }

    fn pattern(&mut self, p: &Pattern) {
        match p {
            Pattern::Ident(id) => self.line(&format!("Bind {} {}", id.name, at(id.span))),
            Pattern::Wildcard(span) => self.line(&format!("Wildcard {}", at(*span))),
            Pattern::Dict { fields, rest, span } => {
                self.line(&format!("DictPattern {}", at(*span)));
                self.nest(|w| {
                    for f in fields {
                        let bind = f.binding.as_ref().map_or("_", |b| b.name.as_str());
                        w.line(&format!("Key {} -> {bind} {}", f.key.name, at(f.span)));
                        w.nest(|w| w.opt_expr("default", &f.default));
                    }
                    if let Some(r) = rest {
                        w.line(&format!("Rest {} {}", r.name, at(r.span)));
                    }
                });
            }
            Pattern::List { elems, rest, span } => {
                self.line(&format!("ListPattern {}", at(*span)));
                self.nest(|w| {
                    for e in elems {
                        let bind = e.binding.as_ref().map_or("_", |b| b.name.as_str());
                        w.line(&format!("Elem {bind} {}", at(e.span)));
                        w.nest(|w| w.opt_expr("default", &e.default));
                    }
                    if let Some(r) = rest {
                        w.line(&format!("Rest {} {}", r.name, at(r.span)));
                    }
                });
            }
            Pattern::Pair(a, b, span) => {
                self.line(&format!(
                    "PairPattern ({}, {}) {}",
                    a.name,
                    b.name,
                    at(*span)
                ));
            }
        }
    }

    fn args(&mut self, args: &[Arg]) {
        for a in args {
            match a {
                Arg::Positional(e) => self.expr(e),
                Arg::Spread(e) => {
                    self.line("Spread");
                    self.nest(|w| w.expr(e));
                }
            }
        }
    }

    fn entries(&mut self, entries: &[DictEntry]) {
        for entry in entries {
            match entry {
                DictEntry::Pair {
                    key: DictKey::Name(name, span),
                    value,
                } => {
                    self.line(&format!("Entry {} {}", quote(name), at(*span)));
                    self.nest(|w| w.expr(value));
                }
                DictEntry::Pair {
                    key: DictKey::Computed(key),
                    value,
                } => {
                    self.line("ComputedEntry");
                    self.nest(|w| {
                        w.role("key", |w| w.expr(key));
                        w.role("value", |w| w.expr(value));
                    });
                }
                DictEntry::Spread(e) => {
                    self.line("Spread");
                    self.nest(|w| w.expr(e));
                }
            }
        }
    }

    fn expr(&mut self, e: &Expr) {
        let span = at(e.span);
        match &e.kind {
            ExprKind::Nil => self.line(&format!("Nil {span}")),
            ExprKind::Bool(b) => self.line(&format!("Bool {b} {span}")),
            ExprKind::Int(n) => self.line(&format!("Int {n} {span}")),
            ExprKind::Float(x) => self.line(&format!("Float {x:?} {span}")),
            ExprKind::Duration(ms) => self.line(&format!("Duration {ms}ms {span}")),
            ExprKind::Str(s) => self.line(&format!("Str {} {span}", quote(s))),
            ExprKind::InterpStr(parts) => {
                self.line(&format!("InterpStr {span}"));
                self.nest(|w| {
                    for part in parts {
                        match part {
                            StrPart::Lit(s) => w.line(&format!("Lit {}", quote(s))),
                            StrPart::Expr(e) => w.expr(e),
                        }
                    }
                });
            }
            ExprKind::Ident(name) => self.line(&format!("Ident {name} {span}")),
            ExprKind::List(items) => {
                self.line(&format!("List {span}"));
                self.nest(|w| w.args(items));
            }
            ExprKind::Dict(entries) => {
                self.line(&format!("Dict {span}"));
                self.nest(|w| w.entries(entries));
            }
            ExprKind::Closure(c) => {
                let kind = if c.is_fn_expr { "FnExpr" } else { "Closure" };
                self.line(&format!("{kind} {span}"));
                self.nest(|w| {
                    w.params(&c.params);
                    w.opt_ty("returns", c.ret.as_ref());
                    w.block("body", &c.body);
                });
            }
            ExprKind::Unary { op, operand } => {
                let op = match op {
                    UnaryOp::Neg => "-",
                    UnaryOp::Not => "!",
                };
                self.line(&format!("Unary {op} {span}"));
                self.nest(|w| w.expr(operand));
            }
            ExprKind::Binary { op, lhs, rhs } => {
                self.line(&format!("Binary {} {span}", op.as_str()));
                self.nest(|w| {
                    w.expr(lhs);
                    w.expr(rhs);
                });
            }
            ExprKind::Pipe { value, func } => {
                self.line(&format!("Pipe {span}"));
                self.nest(|w| {
                    w.expr(value);
                    w.expr(func);
                });
            }
            ExprKind::Ternary {
                cond,
                then,
                otherwise,
            } => {
                self.line(&format!("Ternary {span}"));
                self.nest(|w| {
                    w.role("cond", |w| w.expr(cond));
                    w.role("then", |w| w.expr(then));
                    w.role("else", |w| w.expr(otherwise));
                });
            }
            ExprKind::Range {
                start,
                end,
                inclusive,
            } => {
                let kind = if *inclusive { "inclusive" } else { "exclusive" };
                self.line(&format!("Range {kind} {span}"));
                self.nest(|w| {
                    w.expr(start);
                    w.expr(end);
                });
            }
            ExprKind::Call {
                callee,
                type_args,
                args,
            } => {
                self.line(&format!("Call {} {span}", callee.name));
                self.nest(|w| {
                    for t in type_args {
                        w.role("type arg", |w| w.ty(t));
                    }
                    w.args(args);
                });
            }
            ExprKind::MethodCall {
                receiver,
                method,
                args,
                optional,
            } => {
                let q = if *optional { "?." } else { "." };
                self.line(&format!("MethodCall {q}{} {span}", method.name));
                self.nest(|w| {
                    w.role("receiver", |w| w.expr(receiver));
                    w.args(args);
                });
            }
            ExprKind::Member {
                object,
                name,
                optional,
            } => {
                let q = if *optional { "?." } else { "." };
                self.line(&format!("Member {q}{} {span}", name.name));
                self.nest(|w| w.expr(object));
            }
            ExprKind::Index {
                object,
                index,
                optional,
            } => {
                let q = if *optional { "?[]" } else { "[]" };
                self.line(&format!("Index {q} {span}"));
                self.nest(|w| {
                    w.expr(object);
                    w.expr(index);
                });
            }
            ExprKind::Slice { object, start, end } => {
                self.line(&format!("Slice {span}"));
                self.nest(|w| {
                    w.expr(object);
                    if let Some(s) = start {
                        w.role("from", |w| w.expr(s));
                    }
                    if let Some(e) = end {
                        w.role("to", |w| w.expr(e));
                    }
                });
            }
            ExprKind::Propagate(inner) => {
                self.line(&format!("Propagate ? {span}"));
                self.nest(|w| w.expr(inner));
            }
            ExprKind::TryStar(inner) => {
                self.line(&format!("TryStar {span}"));
                self.nest(|w| w.expr(inner));
            }
            ExprKind::StructLit { name, fields } => {
                self.line(&format!("StructLit {} {span}", name.name));
                self.nest(|w| w.entries(fields));
            }
            ExprKind::If {
                cond,
                then,
                otherwise,
            } => {
                self.line(&format!("If {span}"));
                self.nest(|w| {
                    w.role("cond", |w| w.expr(cond));
                    w.block("then", then);
                    match otherwise {
                        Some(ElseBranch::Block(b)) => w.block("else", b),
                        Some(ElseBranch::If(e)) => w.role("else", |w| w.expr(e)),
                        None => {}
                    }
                });
            }
            ExprKind::Match { scrutinee, arms } => {
                self.line(&format!("Match {span}"));
                self.nest(|w| {
                    w.role("value", |w| w.expr(scrutinee));
                    for arm in arms {
                        w.line(&format!("Arm {}", at(arm.span)));
                        w.nest(|w| {
                            for p in &arm.patterns {
                                w.role("pattern", |w| w.expr(p));
                            }
                            w.opt_expr("guard", &arm.guard);
                            w.block("body", &arm.body);
                        });
                    }
                });
            }
            ExprKind::Try {
                body,
                catch,
                finally,
            } => {
                self.line(&format!("Try {span}"));
                self.nest(|w| {
                    w.block("body", body);
                    if let Some(c) = catch {
                        let var = c.var.as_ref().map_or("", |v| v.name.as_str());
                        w.line(&format!("Catch {var} {}", at(c.span)));
                        w.nest(|w| {
                            w.opt_ty("type", c.ty.as_ref());
                            w.block("body", &c.body);
                        });
                    }
                    if let Some(f) = finally {
                        w.block("finally", f);
                    }
                });
            }
            ExprKind::Spawn(b) => {
                self.line(&format!("Spawn {span}"));
                self.nest(|w| w.block("body", b));
            }
            ExprKind::Parallel {
                kind,
                subject,
                options,
                param,
                body,
            } => {
                let kind = match kind {
                    ParallelKind::Count => "count",
                    ParallelKind::Each => "each",
                    ParallelKind::Settle => "settle",
                };
                let param = param
                    .as_ref()
                    .map_or(String::new(), |p| format!(" {} ->", p.name));
                self.line(&format!("Parallel {kind}{param} {span}"));
                self.nest(|w| {
                    w.role("subject", |w| w.expr(subject));
                    if let Some(o) = options {
                        w.role("with", |w| w.expr(o));
                    }
                    w.block("body", body);
                });
            }
            ExprKind::Select(arms) => {
                self.line(&format!("Select {span}"));
                self.nest(|w| {
                    for arm in arms {
                        match arm {
                            SelectArm::Recv { var, channel, body } => {
                                w.line(&format!("Recv {}", var.name));
                                w.nest(|w| {
                                    w.role("from", |w| w.expr(channel));
                                    w.block("body", body);
                                });
                            }
                            SelectArm::Timeout { duration, body } => {
                                w.line("Timeout");
                                w.nest(|w| {
                                    w.expr(duration);
                                    w.block("body", body);
                                });
                            }
                            SelectArm::Default { body } => {
                                w.line("Default");
                                w.nest(|w| w.block("body", body));
                            }
                        }
                    }
                });
            }
            ExprKind::Mutex(b) => {
                self.line(&format!("Mutex {span}"));
                self.nest(|w| w.block("body", b));
            }
            ExprKind::Deadline { duration, body } => {
                self.line(&format!("Deadline {span}"));
                self.nest(|w| {
                    w.expr(duration);
                    w.block("body", body);
                });
            }
            ExprKind::Yield(v) => {
                self.line(&format!("Yield {span}"));
                self.nest(|w| {
                    if let Some(v) = v {
                        w.expr(v);
                    }
                });
            }
            ExprKind::Emit(v) => {
                self.line(&format!("Emit {span}"));
                self.nest(|w| w.expr(v));
            }
            ExprKind::Error => self.line(&format!("ErrorExpr {span}")),
        }
    }

    fn ty(&mut self, t: &TypeExpr) {
        let text = type_text(t);
        self.line(&format!("Type {text} {}", at(t.span)));
    }
}

/// A type annotation written back in source form.
pub fn type_text(t: &TypeExpr) -> String {
    let mut s = String::new();
    write_type(&mut s, t);
    s
}

fn write_type(s: &mut String, t: &TypeExpr) {
    match &t.kind {
        TypeKind::Named { name, args } => {
            s.push_str(&name.name);
            if !args.is_empty() {
                s.push('<');
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        s.push_str(", ");
                    }
                    write_type(s, a);
                }
                s.push('>');
            }
        }
        TypeKind::List(inner) => {
            s.push('[');
            write_type(s, inner);
            s.push(']');
        }
        TypeKind::Shape(fields) => {
            s.push('{');
            for (i, f) in fields.iter().enumerate() {
                if i > 0 {
                    s.push_str(", ");
                }
                let opt = if f.optional { "?" } else { "" };
                let _ = write!(s, "{}{opt}: ", f.name);
                write_type(s, &f.ty);
            }
            s.push('}');
        }
        TypeKind::Union(parts) => {
            for (i, p) in parts.iter().enumerate() {
                if i > 0 {
                    s.push_str(" | ");
                }
                write_type(s, p);
            }
        }
        TypeKind::StrLit(v) => s.push_str(&quote(v)),
        TypeKind::IntLit(n) => {
            let _ = write!(s, "{n}");
        }
        TypeKind::Fn { params, ret } => {
            s.push_str("fn(");
            for (i, p) in params.iter().enumerate() {
                if i > 0 {
                    s.push_str(", ");
                }
                write_type(s, p);
            }
            s.push(')');
            if let Some(r) = ret {
                s.push_str(" -> ");
                write_type(s, r);
            }
        }
        TypeKind::Error => s.push_str("<error>"),
    }
}
