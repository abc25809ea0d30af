//! The names in scope at a cursor, read from the (possibly recovered) tree: the
//! file's top-level declarations, then each enclosing function's parameters, closure
//! parameters, loop and catch variables, and the `let`/`var`/`fn` declarations that
//! come before the cursor in each enclosing block.

use harn_compiler::ast::{
    Block, Closure, Expr, ExprKind, FnDecl, Ident, Param, Pattern, Program, SelectArm, Span, Stmt,
    StmtKind,
};

use crate::syntax::{Node, expr_children, stmt_children};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LocalKind {
    Variable,
    Constant,
    Parameter,
    Function,
    Struct,
    Enum,
    Interface,
    TypeAlias,
}

/// A name in scope and where it is declared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Local {
    pub name: String,
    pub kind: LocalKind,
    pub decl: Span,
    /// For a function: its signature as written (`(a, b: int) -> int`).
    pub params: Option<String>,
}

impl Local {
    fn of(id: &Ident, kind: LocalKind) -> Local {
        Local {
            name: id.name.to_string(),
            kind,
            decl: id.span,
            params: None,
        }
    }
}

/// Every name in scope at `offset`, innermost last (a later entry shadows an earlier
/// one of the same name).
pub fn visible_at(program: &Program, source: &str, offset: usize) -> Vec<Local> {
    let mut out = Vec::new();
    let offset = u32::try_from(offset).unwrap_or(u32::MAX);
    block_scope(&program.items, source, offset, &mut out);
    out
}

fn contains(span: Span, offset: u32) -> bool {
    span.start <= offset && offset <= span.end
}

/// Declarations visible throughout their block (functions and types).
fn hoisted(s: &Stmt, source: &str, out: &mut Vec<Local>) {
    let (name, kind, params) = match &s.kind {
        StmtKind::Fn(f) => (
            &f.name,
            LocalKind::Function,
            Some(fn_signature(&f.params, f.ret.as_ref(), source)),
        ),
        StmtKind::Struct(d) => (&d.name, LocalKind::Struct, None),
        StmtKind::Enum(d) => (&d.name, LocalKind::Enum, None),
        StmtKind::Interface(d) => (&d.name, LocalKind::Interface, None),
        StmtKind::TypeAlias(d) => (&d.name, LocalKind::TypeAlias, None),
        StmtKind::Tool(t) => (
            &t.name,
            LocalKind::Function,
            Some(fn_signature(&t.params, t.ret.as_ref(), source)),
        ),
        _ => return,
    };
    out.push(Local {
        name: name.name.to_string(),
        kind,
        decl: name.span,
        params,
    });
}

/// `(params) -> R` of a declaration as written in the source.
pub fn fn_signature(
    params: &[Param],
    ret: Option<&harn_compiler::ast::TypeExpr>,
    source: &str,
) -> String {
    let mut out = format!("({})", param_text(params, source));
    if let Some(r) = ret.and_then(|t| source.get(t.span.range())) {
        out.push_str(" -> ");
        out.push_str(r);
    }
    out
}

/// The parameters of a declaration as written in the source.
pub fn param_text(params: &[Param], source: &str) -> String {
    params
        .iter()
        .map(|p| {
            source
                .get(p.span.range())
                .unwrap_or(&p.name.name)
                .to_string()
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn pattern_names(p: &Pattern, kind: LocalKind, out: &mut Vec<Local>) {
    let mut push = |id: &Ident| out.push(Local::of(id, kind));
    match p {
        Pattern::Ident(id) => push(id),
        Pattern::Wildcard(_) => {}
        Pattern::Dict { fields, rest, .. } => {
            let bound = fields.iter().filter_map(|f| f.binding.as_ref());
            bound.chain(rest).for_each(push);
        }
        Pattern::List { elems, rest, .. } => {
            let bound = elems.iter().filter_map(|e| e.binding.as_ref());
            bound.chain(rest).for_each(push);
        }
        Pattern::Pair(a, b, _) => {
            push(a);
            push(b);
        }
    }
}

fn params(ps: &[Param], out: &mut Vec<Local>) {
    for p in ps {
        out.push(Local::of(&p.name, LocalKind::Parameter));
    }
}

fn block_scope(stmts: &[Stmt], source: &str, offset: u32, out: &mut Vec<Local>) {
    for s in stmts {
        hoisted(s, source, out);
    }
    for s in stmts {
        if s.span.end < offset {
            if let StmtKind::Let { kind, pattern, .. } = &s.kind {
                let kind = match kind {
                    harn_compiler::ast::BindingKind::Var => LocalKind::Variable,
                    _ => LocalKind::Constant,
                };
                pattern_names(pattern, kind, out);
            }
            continue;
        }
        if contains(s.span, offset) {
            stmt_scope(s, source, offset, out);
        }
        break;
    }
}

fn stmt_scope(s: &Stmt, source: &str, offset: u32, out: &mut Vec<Local>) {
    if let StmtKind::For { pattern, body, .. } = &s.kind
        && contains(body.span, offset)
    {
        pattern_names(pattern, LocalKind::Variable, out);
    }
    for child in stmt_children(s) {
        node_scope(child, source, offset, out);
    }
}

fn fn_scope(f: &FnDecl, source: &str, offset: u32, out: &mut Vec<Local>) {
    if contains(f.span, offset) {
        params(&f.params, out);
        block_scope(&f.body.stmts, source, offset, out);
    }
}

fn closure_scope(c: &Closure, span: Span, source: &str, offset: u32, out: &mut Vec<Local>) {
    if contains(span, offset) {
        params(&c.params, out);
        block_scope(&c.body.stmts, source, offset, out);
    }
}

fn node_scope(node: Node<'_>, source: &str, offset: u32, out: &mut Vec<Local>) {
    harn_compiler::stack::maybe_grow(64 * 1024, 1024 * 1024, || match node {
        Node::Fn(f) => fn_scope(f, source, offset, out),
        Node::Block(b) => {
            if contains(b.span, offset) {
                block_scope(&b.stmts, source, offset, out);
            }
        }
        Node::Expr(e) => expr_scope(e, source, offset, out),
    });
}

fn expr_scope(e: &Expr, source: &str, offset: u32, out: &mut Vec<Local>) {
    if !contains(e.span, offset) {
        return;
    }
    match &e.kind {
        ExprKind::Closure(c) => return closure_scope(c, e.span, source, offset, out),
        ExprKind::Try { catch: Some(c), .. } if contains(c.body.span, offset) => {
            if let Some(v) = &c.var {
                out.push(Local::of(v, LocalKind::Variable));
            }
        }
        ExprKind::Parallel {
            param: Some(p),
            body,
            ..
        } if contains(body.span, offset) => out.push(Local::of(p, LocalKind::Parameter)),
        ExprKind::Select(arms) => {
            for arm in arms {
                if let SelectArm::Recv { var, body, .. } = arm
                    && contains(body.span, offset)
                {
                    out.push(Local::of(var, LocalKind::Variable));
                }
            }
        }
        _ => {}
    }
    for child in expr_children(e) {
        node_scope(child, source, offset, out);
    }
}

/// Every block of the tree, for callers that only need extents (folding).
pub fn blocks(program: &Program) -> Vec<Span> {
    let mut spans = Vec::new();
    fn visit(node: Node<'_>, spans: &mut Vec<Span>) {
        harn_compiler::stack::maybe_grow(64 * 1024, 1024 * 1024, || match node {
            Node::Block(b) => visit_block(b, spans),
            Node::Fn(f) => visit_block(&f.body, spans),
            Node::Expr(e) => {
                if matches!(e.kind, ExprKind::Dict(_) | ExprKind::List(_)) {
                    spans.push(e.span);
                }
                for c in expr_children(e) {
                    visit(c, spans);
                }
            }
        });
    }
    fn visit_block(b: &Block, spans: &mut Vec<Span>) {
        spans.push(b.span);
        for s in &b.stmts {
            for c in stmt_children(s) {
                visit(c, spans);
            }
        }
    }
    for s in &program.items {
        for c in stmt_children(s) {
            visit(c, &mut spans);
        }
    }
    spans
}

/// Every declaration of the file, in any scope.
pub fn declarations(program: &Program, source: &str) -> Vec<Local> {
    let mut out = Vec::new();
    fn stmts(list: &[Stmt], source: &str, out: &mut Vec<Local>) {
        for s in list {
            hoisted(s, source, out);
            match &s.kind {
                StmtKind::Let { kind, pattern, .. } => {
                    let kind = match kind {
                        harn_compiler::ast::BindingKind::Var => LocalKind::Variable,
                        _ => LocalKind::Constant,
                    };
                    pattern_names(pattern, kind, out);
                }
                StmtKind::For { pattern, .. } => pattern_names(pattern, LocalKind::Variable, out),
                _ => {}
            }
            for c in stmt_children(s) {
                node(c, source, out);
            }
        }
    }
    fn node(n: Node<'_>, source: &str, out: &mut Vec<Local>) {
        harn_compiler::stack::maybe_grow(64 * 1024, 1024 * 1024, || match n {
            Node::Block(b) => stmts(&b.stmts, source, out),
            Node::Fn(f) => {
                params(&f.params, out);
                stmts(&f.body.stmts, source, out);
            }
            Node::Expr(e) => {
                match &e.kind {
                    ExprKind::Closure(c) => params(&c.params, out),
                    ExprKind::Try { catch: Some(c), .. } => {
                        if let Some(v) = &c.var {
                            out.push(Local::of(v, LocalKind::Variable));
                        }
                    }
                    ExprKind::Parallel { param: Some(p), .. } => {
                        out.push(Local::of(p, LocalKind::Parameter))
                    }
                    _ => {}
                }
                for c in expr_children(e) {
                    node(c, source, out);
                }
            }
        });
    }
    stmts(&program.items, source, &mut out);
    out
}

/// The names declared before `offset` in braces still open there, read from tokens
/// alone: what completion falls back on where the parser could not recover a tree
/// around the cursor (an unclosed `{`, a half-written dict). Parameters of `fn`, the
/// loop variables of `for` and closure parameters belong to the block that follows.
pub fn lexical_locals(text: &str, offset: usize) -> Vec<Local> {
    use harn_compiler::lexer::{Keyword, Tok};
    let tokens = crate::syntax::tokens(text);
    let end = tokens.partition_point(|t| (t.span.end as usize) < offset);
    let mut scopes: Vec<Vec<Local>> = vec![Vec::new()];
    // Names waiting for the block they belong to (`fn f(a)`, `for x in`).
    let mut pending: Vec<Local> = Vec::new();
    let ident = |i: usize| match tokens.get(i) {
        Some(t) if t.tok == Tok::Ident => Some((t.text(text).to_string(), t.span)),
        _ => None,
    };
    let local = |(name, decl): (String, Span), kind| Local {
        name,
        kind,
        decl,
        params: None,
    };
    let mut i = 0;
    while i < end {
        match &tokens[i].tok {
            Tok::Kw(Keyword::Let | Keyword::Var) => {
                if let Some(id) = ident(i + 1)
                    && let Some(top) = scopes.last_mut()
                {
                    top.push(local(id, LocalKind::Variable));
                }
            }
            Tok::Kw(Keyword::Fn) => {
                if let Some(id) = ident(i + 1)
                    && let Some(top) = scopes.last_mut()
                {
                    top.push(local(id, LocalKind::Function));
                }
                // Parameters: identifiers followed by `:`, `,`, `=` or `)` inside the
                // parentheses.
                let mut j = i + 1;
                while j < end && tokens[j].tok != Tok::LParen {
                    j += 1;
                }
                while j < end && tokens[j].tok != Tok::RParen {
                    if let Some(id) = ident(j)
                        && matches!(
                            tokens.get(j + 1).map(|t| &t.tok),
                            Some(Tok::Colon | Tok::Comma | Tok::Assign | Tok::RParen)
                        )
                    {
                        pending.push(local(id, LocalKind::Parameter));
                    }
                    j += 1;
                }
                i = j;
            }
            Tok::Kw(Keyword::For) => {
                let mut j = i + 1;
                while j < end && !tokens[j].tok.is_keyword(Keyword::In) {
                    if let Some(id) = ident(j) {
                        pending.push(local(id, LocalKind::Variable));
                    }
                    j += 1;
                }
                i = j;
            }
            Tok::LBrace | Tok::ClosureBrace => {
                let mut scope = std::mem::take(&mut pending);
                // `{ a, b -> ...`: closure parameters.
                let mut j = i + 1;
                let mut names = Vec::new();
                while j < end {
                    match &tokens[j].tok {
                        Tok::Arrow => {
                            scope.append(&mut names);
                            break;
                        }
                        Tok::Comma | Tok::Newline => {}
                        _ => match ident(j) {
                            Some(id) => names.push(local(id, LocalKind::Parameter)),
                            None => break,
                        },
                    }
                    j += 1;
                }
                scopes.push(scope);
            }
            Tok::RBrace if scopes.len() > 1 => {
                scopes.pop();
            }
            _ => {}
        }
        i += 1;
    }
    scopes.into_iter().flatten().collect()
}
