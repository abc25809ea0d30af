//! The names a function body refers to, used to decide what a closure captures.

use rustc_hash::FxHashSet as HashSet;

use crate::ast::*;

/// Every identifier read, called or assigned anywhere inside `block` (nested functions
/// included: what they capture must first be captured by the function around them).
/// Recorded in the set when the body itself (not a function nested in it) contains
/// `yield`: the function is a generator.
pub(crate) const YIELD_MARK: &str = "yield";

/// The names a nested function's body uses (they may be captures of the outer one),
/// without its `yield`, which makes the nested function the generator, not this one.
fn nested_body<'a>(body: &'a Block, out: &mut HashSet<&'a str>) {
    let had_yield = out.contains(YIELD_MARK);
    names_in_block(body, out);
    if !had_yield {
        out.remove(YIELD_MARK);
    }
}

/// Every identifier `e` reads, calls or assigns, as [`names_in_block`] would find it in a
/// statement of `e` alone.
pub(crate) fn names_in_expr<'a>(e: &'a Expr, out: &mut HashSet<&'a str>) {
    expr(e, out);
}

pub(crate) fn names_in_block<'a>(block: &'a Block, out: &mut HashSet<&'a str>) {
    names_in_stmts(&block.stmts, out);
}

/// Every identifier the statements `stmts` read, call or assign, as
/// [`names_in_block`] finds them in a block of those statements.
pub(crate) fn names_in_stmts<'a>(stmts: &'a [Stmt], out: &mut HashSet<&'a str>) {
    for s in stmts {
        stmt(s, out);
    }
}

fn stmt<'a>(s: &'a Stmt, out: &mut HashSet<&'a str>) {
    for a in &s.attrs {
        for arg in &a.args {
            expr(&arg.value, out);
        }
    }
    match &s.kind {
        StmtKind::Let {
            pattern: p, value, ..
        } => {
            pattern(p, out);
            expr(value, out);
        }
        StmtKind::Assign { target, value, .. } => {
            expr(target, out);
            expr(value, out);
        }
        StmtKind::Expr(e) | StmtKind::Throw(e) => expr(e, out),
        StmtKind::Return(Some(e)) => expr(e, out),
        StmtKind::For {
            pattern: p,
            iterable,
            body,
        } => {
            pattern(p, out);
            expr(iterable, out);
            names_in_block(body, out);
        }
        StmtKind::While { cond, body } => {
            expr(cond, out);
            names_in_block(body, out);
        }
        StmtKind::Guard { cond, else_block } => {
            expr(cond, out);
            names_in_block(else_block, out);
        }
        StmtKind::Require { cond, message } => {
            expr(cond, out);
            if let Some(m) = message {
                expr(m, out);
            }
        }
        StmtKind::Defer(b) => names_in_block(b, out),
        StmtKind::Retry { attempts, body } => {
            expr(attempts, out);
            names_in_block(body, out);
        }
        StmtKind::Fn(f) | StmtKind::Override(f) => {
            params(&f.params, out);
            nested_body(&f.body, out);
        }
        StmtKind::Impl(i) => {
            for m in &i.methods {
                params(&m.params, out);
                names_in_block(&m.body, out);
            }
        }
        StmtKind::Tool(t) => names_in_block(&t.body, out),
        StmtKind::Pipeline(p) => names_in_block(&p.body, out),
        StmtKind::Struct(s) => {
            for f in &s.fields {
                if let Some(d) = &f.default {
                    expr(d, out);
                }
            }
        }
        _ => {}
    }
}

fn params<'a>(ps: &'a [Param], out: &mut HashSet<&'a str>) {
    for p in ps {
        if let Some(d) = &p.default {
            expr(d, out);
        }
    }
}

fn pattern<'a>(p: &'a Pattern, out: &mut HashSet<&'a str>) {
    match p {
        Pattern::Dict { fields, .. } => {
            for f in fields {
                if let Some(d) = &f.default {
                    expr(d, out);
                }
            }
        }
        Pattern::List { elems, .. } => {
            for e in elems {
                if let Some(d) = &e.default {
                    expr(d, out);
                }
            }
        }
        _ => {}
    }
}

fn args<'a>(a: &'a [Arg], out: &mut HashSet<&'a str>) {
    for arg in a {
        match arg {
            Arg::Positional(e) | Arg::Spread(e) => expr(e, out),
        }
    }
}

fn entries<'a>(es: &'a [DictEntry], out: &mut HashSet<&'a str>) {
    for e in es {
        match e {
            DictEntry::Pair { key, value } => {
                if let DictKey::Computed(k) = key {
                    expr(k, out);
                }
                expr(value, out);
            }
            DictEntry::Spread(v) => expr(v, out),
        }
    }
}

fn expr<'a>(e: &'a Expr, out: &mut HashSet<&'a str>) {
    match &e.kind {
        ExprKind::Ident(name) => {
            out.insert(name);
        }
        ExprKind::InterpStr(parts) => {
            for p in parts {
                if let StrPart::Expr(e) = p {
                    expr(e, out);
                }
            }
        }
        ExprKind::List(items) => args(items, out),
        ExprKind::Dict(es) => entries(es, out),
        ExprKind::StructLit { fields, .. } => entries(fields, out),
        ExprKind::Closure(c) => {
            params(&c.params, out);
            nested_body(&c.body, out);
        }
        ExprKind::Unary { operand, .. } => expr(operand, out),
        ExprKind::Binary { lhs, rhs, .. } => {
            expr(lhs, out);
            expr(rhs, out);
        }
        ExprKind::Pipe { value, func } => {
            expr(value, out);
            expr(func, out);
        }
        ExprKind::Ternary {
            cond,
            then,
            otherwise,
        } => {
            expr(cond, out);
            expr(then, out);
            expr(otherwise, out);
        }
        ExprKind::Range { start, end, .. } => {
            expr(start, out);
            expr(end, out);
        }
        ExprKind::Call {
            callee, args: a, ..
        } => {
            out.insert(&callee.name);
            args(a, out);
        }
        ExprKind::MethodCall {
            receiver, args: a, ..
        } => {
            expr(receiver, out);
            args(a, out);
        }
        ExprKind::Member { object, .. } => expr(object, out),
        ExprKind::Index { object, index, .. } => {
            expr(object, out);
            expr(index, out);
        }
        ExprKind::Slice { object, start, end } => {
            expr(object, out);
            if let Some(s) = start {
                expr(s, out);
            }
            if let Some(e) = end {
                expr(e, out);
            }
        }
        ExprKind::Propagate(inner) | ExprKind::TryStar(inner) | ExprKind::Emit(inner) => {
            expr(inner, out)
        }
        ExprKind::Yield(value) => {
            // `yield` is a keyword, so the marker can never be a real name.
            out.insert(YIELD_MARK);
            if let Some(v) = value {
                expr(v, out);
            }
        }
        ExprKind::If {
            cond,
            then,
            otherwise,
        } => {
            expr(cond, out);
            names_in_block(then, out);
            match otherwise {
                Some(ElseBranch::Block(b)) => names_in_block(b, out),
                Some(ElseBranch::If(e)) => expr(e, out),
                None => {}
            }
        }
        ExprKind::Match { scrutinee, arms } => {
            expr(scrutinee, out);
            for arm in arms {
                for p in &arm.patterns {
                    expr(p, out);
                }
                if let Some(g) = &arm.guard {
                    expr(g, out);
                }
                names_in_block(&arm.body, out);
            }
        }
        ExprKind::Try {
            body,
            catch,
            finally,
        } => {
            names_in_block(body, out);
            if let Some(c) = catch {
                names_in_block(&c.body, out);
            }
            if let Some(f) = finally {
                names_in_block(f, out);
            }
        }
        ExprKind::Spawn(b) | ExprKind::Mutex(b) => names_in_block(b, out),
        ExprKind::Parallel {
            subject,
            options,
            body,
            ..
        } => {
            expr(subject, out);
            if let Some(o) = options {
                expr(o, out);
            }
            names_in_block(body, out);
        }
        ExprKind::Select(arms) => {
            for arm in arms {
                match arm {
                    SelectArm::Recv { channel, body, .. } => {
                        expr(channel, out);
                        names_in_block(body, out);
                    }
                    SelectArm::Timeout { duration, body } => {
                        expr(duration, out);
                        names_in_block(body, out);
                    }
                    SelectArm::Default { body } => names_in_block(body, out),
                }
            }
        }
        ExprKind::Deadline { duration, body } => {
            expr(duration, out);
            names_in_block(body, out);
        }
        _ => {}
    }
}
