//! Generic traversal of the syntax tree: the children of each node in source order,
//! and a walk over every expression. Shared by the formatter and the language server.

use crate::ast::{
    Arg, Block, DictEntry, DictKey, ElseBranch, EvalPackItem, Expr, ExprKind, FnDecl, SelectArm,
    Stmt, StmtKind, StrPart,
};

/// A child of a node: an expression, a block, or a nested function declaration.
#[derive(Clone, Copy)]
pub enum Node<'a> {
    Expr(&'a Expr),
    Block(&'a Block),
    Fn(&'a FnDecl),
}

fn args<'a>(args: &'a [Arg], out: &mut Vec<Node<'a>>) {
    for a in args {
        match a {
            Arg::Positional(e) | Arg::Spread(e) => out.push(Node::Expr(e)),
        }
    }
}

fn entries<'a>(entries: &'a [DictEntry], out: &mut Vec<Node<'a>>) {
    for entry in entries {
        match entry {
            DictEntry::Pair { key, value } => {
                if let DictKey::Computed(k) = key {
                    out.push(Node::Expr(k));
                }
                out.push(Node::Expr(value));
            }
            DictEntry::Spread(e) => out.push(Node::Expr(e)),
        }
    }
}

/// The direct children of an expression, in source order.
pub fn expr_children(e: &Expr) -> Vec<Node<'_>> {
    let mut out = Vec::new();
    match &e.kind {
        ExprKind::InterpStr(parts) => {
            for p in parts {
                if let StrPart::Expr(x) = p {
                    out.push(Node::Expr(x));
                }
            }
        }
        ExprKind::List(items) => args(items, &mut out),
        ExprKind::Dict(d) => entries(d, &mut out),
        ExprKind::StructLit { fields, .. } => entries(fields, &mut out),
        ExprKind::Closure(c) => {
            for p in &c.params {
                if let Some(d) = &p.default {
                    out.push(Node::Expr(d));
                }
            }
            out.push(Node::Block(&c.body));
        }
        ExprKind::Unary { operand, .. } => out.push(Node::Expr(operand)),
        ExprKind::Binary { lhs, rhs, .. } => {
            out.push(Node::Expr(lhs));
            out.push(Node::Expr(rhs));
        }
        ExprKind::Pipe { value, func } => {
            out.push(Node::Expr(value));
            out.push(Node::Expr(func));
        }
        ExprKind::Ternary {
            cond,
            then,
            otherwise,
        } => out.extend([Node::Expr(cond), Node::Expr(then), Node::Expr(otherwise)]),
        ExprKind::Range { start, end, .. } => {
            out.push(Node::Expr(start));
            out.push(Node::Expr(end));
        }
        ExprKind::Call { args: a, .. } => args(a, &mut out),
        ExprKind::MethodCall {
            receiver, args: a, ..
        } => {
            out.push(Node::Expr(receiver));
            args(a, &mut out);
        }
        ExprKind::Member { object, .. } => out.push(Node::Expr(object)),
        ExprKind::Index { object, index, .. } => {
            out.push(Node::Expr(object));
            out.push(Node::Expr(index));
        }
        ExprKind::Slice { object, start, end } => {
            out.push(Node::Expr(object));
            out.extend(start.iter().map(|s| Node::Expr(s)));
            out.extend(end.iter().map(|s| Node::Expr(s)));
        }
        ExprKind::Propagate(x) | ExprKind::TryStar(x) | ExprKind::Emit(x) => {
            out.push(Node::Expr(x));
        }
        ExprKind::Yield(x) => out.extend(x.iter().map(|x| Node::Expr(x))),
        ExprKind::If {
            cond,
            then,
            otherwise,
        } => {
            out.push(Node::Expr(cond));
            out.push(Node::Block(then));
            match otherwise {
                Some(ElseBranch::Block(b)) => out.push(Node::Block(b)),
                Some(ElseBranch::If(x)) => out.push(Node::Expr(x)),
                None => {}
            }
        }
        ExprKind::Match { scrutinee, arms } => {
            out.push(Node::Expr(scrutinee));
            for arm in arms {
                out.extend(arm.patterns.iter().map(Node::Expr));
                out.extend(arm.guard.iter().map(Node::Expr));
                out.push(Node::Block(&arm.body));
            }
        }
        ExprKind::Try {
            body,
            catch,
            finally,
        } => {
            out.push(Node::Block(body));
            if let Some(c) = catch {
                out.push(Node::Block(&c.body));
            }
            out.extend(finally.iter().map(Node::Block));
        }
        ExprKind::Spawn(b) | ExprKind::Mutex(b) => out.push(Node::Block(b)),
        ExprKind::Parallel {
            subject,
            options,
            body,
            ..
        } => {
            out.push(Node::Expr(subject));
            out.extend(options.iter().map(|o| Node::Expr(o)));
            out.push(Node::Block(body));
        }
        ExprKind::Select(arms) => {
            for arm in arms {
                match arm {
                    SelectArm::Recv { channel, body, .. } => {
                        out.push(Node::Expr(channel));
                        out.push(Node::Block(body));
                    }
                    SelectArm::Timeout { duration, body } => {
                        out.push(Node::Expr(duration));
                        out.push(Node::Block(body));
                    }
                    SelectArm::Default { body } => out.push(Node::Block(body)),
                }
            }
        }
        ExprKind::Deadline { duration, body } => {
            out.push(Node::Expr(duration));
            out.push(Node::Block(body));
        }
        ExprKind::Nil
        | ExprKind::Bool(_)
        | ExprKind::Int(_)
        | ExprKind::Float(_)
        | ExprKind::Duration(_)
        | ExprKind::Str(_)
        | ExprKind::Ident(_)
        | ExprKind::Error => {}
    }
    out
}

/// The direct children of a statement, in source order.
pub fn stmt_children(s: &Stmt) -> Vec<Node<'_>> {
    let mut out = Vec::new();
    match &s.kind {
        StmtKind::Let { value, .. } => out.push(Node::Expr(value)),
        StmtKind::Assign { target, value, .. } => {
            out.push(Node::Expr(target));
            out.push(Node::Expr(value));
        }
        StmtKind::Expr(e) | StmtKind::Throw(e) => out.push(Node::Expr(e)),
        StmtKind::Return(e) => out.extend(e.iter().map(Node::Expr)),
        StmtKind::For { iterable, body, .. } => {
            out.push(Node::Expr(iterable));
            out.push(Node::Block(body));
        }
        StmtKind::While { cond, body } => {
            out.push(Node::Expr(cond));
            out.push(Node::Block(body));
        }
        StmtKind::Guard { cond, else_block } => {
            out.push(Node::Expr(cond));
            out.push(Node::Block(else_block));
        }
        StmtKind::Require { cond, message } => {
            out.push(Node::Expr(cond));
            out.extend(message.iter().map(Node::Expr));
        }
        StmtKind::Defer(b) => out.push(Node::Block(b)),
        StmtKind::Retry { attempts, body } => {
            out.push(Node::Expr(attempts));
            out.push(Node::Block(body));
        }
        StmtKind::Fn(f) | StmtKind::Override(f) => out.push(Node::Fn(f)),
        StmtKind::Pipeline(p) => out.push(Node::Block(&p.body)),
        StmtKind::Impl(i) => out.extend(i.methods.iter().map(Node::Fn)),
        StmtKind::Tool(t) => out.push(Node::Block(&t.body)),
        StmtKind::EvalPack(p) => {
            for item in &p.items {
                match item {
                    EvalPackItem::Field(f) => out.push(Node::Expr(&f.value)),
                    EvalPackItem::Summarize(b) => out.push(Node::Block(b)),
                    EvalPackItem::Stmt(_) => {}
                }
            }
        }
        StmtKind::Skill(s) => out.extend(s.fields.iter().map(|f| Node::Expr(&f.value))),
        StmtKind::Break
        | StmtKind::Continue
        | StmtKind::Struct(_)
        | StmtKind::Enum(_)
        | StmtKind::Interface(_)
        | StmtKind::TypeAlias(_)
        | StmtKind::Import(_)
        | StmtKind::Error => {}
    }
    out
}

/// Calls `f` on every expression of the tree, outermost first. Deep trees grow the
/// stack instead of overflowing it.
pub fn walk_exprs<'a>(stmts: &'a [Stmt], f: &mut dyn FnMut(&'a Expr)) {
    for s in stmts {
        for child in stmt_children(s) {
            walk_node(child, f);
        }
        if let StmtKind::EvalPack(p) = &s.kind {
            for item in &p.items {
                if let EvalPackItem::Stmt(inner) = item {
                    walk_exprs(std::slice::from_ref(inner.as_ref()), f);
                }
            }
        }
    }
}

fn walk_node<'a>(node: Node<'a>, f: &mut dyn FnMut(&'a Expr)) {
    crate::stack::maybe_grow(64 * 1024, 1024 * 1024, || match node {
        Node::Expr(e) => {
            f(e);
            for child in expr_children(e) {
                walk_node(child, f);
            }
        }
        Node::Block(b) => walk_exprs(&b.stmts, f),
        Node::Fn(func) => {
            for p in &func.params {
                if let Some(d) = &p.default {
                    walk_node(Node::Expr(d), f);
                }
            }
            walk_exprs(&func.body.stmts, f);
        }
    });
}
