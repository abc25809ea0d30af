//! Statements, statement lists with error recovery, and blocks.

use super::{Fail, PResult, Parser, what};
use crate::ast::{
    AssignOp, AttrArg, Attribute, BindingKind, Block, Expr, ExprKind, Span, Stmt, StmtKind,
};
use crate::lexer::{Keyword, Tok};

/// Where a statement list sits: decides which forms are allowed and how a list ends.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Context {
    /// The file itself: `pipeline` and `import` allowed; ends at the end of input.
    TopLevel,
    /// Inside `{ ... }`: ends before the closing `}`.
    Block,
}

impl<'a> Parser<'a> {
    /// `{SEP} [stmt {SEP stmt}] {SEP}`. Each statement must be followed by a separator
    /// (named `sep` in the error), a `}` or the end of input. A statement that fails is
    /// recorded and skipped to the next separator.
    pub(crate) fn statement_list(&mut self, sep: &'static str, ctx: Context) -> Vec<Stmt> {
        // A program's top level is sized up front from its length (a statement takes
        // about a dozen tokens): growing the list copies every statement already in it.
        let mut stmts = match ctx {
            Context::TopLevel => Vec::with_capacity(self.toks.len() / 12 + 4),
            _ => Vec::new(),
        };
        self.skip_newlines();
        loop {
            match self.peek() {
                None => break,
                Some(Tok::RBrace) if ctx == Context::Block => break,
                _ => {}
            }
            let start = self.pos;
            super::room_for_first(&mut stmts);
            // The statement is parsed straight into its place at the end of the list (it
            // is large: returned and then pushed, it was copied several times on the
            // way), which holds an error statement until it has parsed.
            stmts.push(Stmt {
                kind: StmtKind::Error,
                attrs: Vec::new(),
                span: Span::default(),
            });
            let parsed = match stmts.last_mut() {
                Some(slot) => self.deep(|p| p.statement_into(ctx, slot)),
                None => Ok(()),
            };
            let failed = parsed.and_then(|()| self.terminator(sep, ctx)).err();
            if let Some(fail) = failed {
                self.record(fail);
                let span = self.toks.get(start).map(|t| t.span).unwrap_or_default();
                self.recover(ctx);
                if let Some(slot) = stmts.last_mut() {
                    *slot = Stmt {
                        kind: StmtKind::Error,
                        attrs: Vec::new(),
                        span: self.since(span),
                    };
                }
            }
        }
        stmts
    }

    /// After a statement: a separator, or a `}` / end of input that closes the list.
    fn terminator(&mut self, sep: &'static str, ctx: Context) -> PResult<()> {
        match self.peek() {
            None => Ok(()),
            Some(Tok::RBrace) if ctx == Context::Block => Ok(()),
            Some(Tok::Newline) => {
                self.bump();
                Ok(())
            }
            Some(Tok::Semi) => {
                self.bump();
                self.skip_newlines();
                Ok(())
            }
            _ => self.fail(sep),
        }
    }

    /// Skips a broken statement: up to and including the next separator at bracket depth
    /// 0, stopping before a `}` that closes the enclosing block. At the top level a
    /// stray closing bracket is skipped too, so that parsing always makes progress.
    fn recover(&mut self, ctx: Context) {
        let mut depth = 0usize;
        let start = self.pos;
        while let Some(tok) = self.peek() {
            match tok {
                Tok::Newline | Tok::Semi if depth == 0 => {
                    self.bump();
                    self.skip_newlines();
                    return;
                }
                Tok::RBrace | Tok::RParen | Tok::RBracket if depth == 0 => {
                    if ctx == Context::TopLevel || self.pos == start && !matches!(tok, Tok::RBrace)
                    {
                        self.bump();
                        continue;
                    }
                    return;
                }
                Tok::LParen | Tok::LBracket | Tok::LBrace | Tok::ClosureBrace => depth += 1,
                Tok::RParen | Tok::RBracket | Tok::RBrace => depth -= 1,
                _ => {}
            }
            self.bump();
        }
    }

    /// `{ stmts }`
    pub(crate) fn block(&mut self) -> PResult<Block> {
        self.block_with(what::STMT_SEP)
    }

    pub(crate) fn block_with(&mut self, sep: &'static str) -> PResult<Block> {
        let open = self.expect_lbrace()?;
        self.deep(|p| p.block_rest(open, sep))
    }

    /// The statements after an already-consumed `{`, and the closing `}`.
    pub(crate) fn block_rest(
        &mut self,
        open: crate::ast::Span,
        sep: &'static str,
    ) -> PResult<Block> {
        let stmts = self.statement_list(sep, Context::Block);
        self.expect(&Tok::RBrace, "}")?;
        Ok(Block {
            stmts,
            span: self.since(open),
        })
    }

    fn attributes(&mut self) -> PResult<Vec<Attribute>> {
        let mut attrs = Vec::new();
        while self.at(&Tok::At) {
            let start = self.bump();
            let name = self.ident(what::NAME)?;
            let mut args = Vec::new();
            if self.eat(&Tok::LParen) {
                while !self.at(&Tok::RParen) {
                    let named = matches!(self.peek_at(1), Some(Tok::Colon))
                        && matches!(self.peek(), Some(Tok::Ident | Tok::Kw(_)));
                    let name = if named {
                        let key = self.key_name()?;
                        self.bump();
                        Some(key)
                    } else {
                        None
                    };
                    let value = self.expr()?;
                    args.push(AttrArg { name, value });
                    self.eat(&Tok::Comma);
                }
                self.bump();
            }
            attrs.push(Attribute {
                name,
                args,
                span: self.since(start),
            });
            self.skip_newlines();
        }
        Ok(attrs)
    }

    pub(crate) fn statement(&mut self, ctx: Context) -> PResult<Stmt> {
        let mut stmt = Stmt {
            kind: StmtKind::Error,
            attrs: Vec::new(),
            span: Span::default(),
        };
        self.deep(|p| p.statement_into(ctx, &mut stmt))?;
        Ok(stmt)
    }

    /// Parses one statement into `slot` (left as it was if the statement fails).
    fn statement_into(&mut self, ctx: Context, slot: &mut Stmt) -> PResult<()> {
        let start = self.span();
        let attrs = self.attributes()?;
        // Each form writes its kind into the slot itself: bindings and expression
        // statements (most statements) build theirs there, not in a value moved in.
        match self.peek() {
            Some(Tok::Kw(Keyword::Let)) => {
                self.bump();
                self.binding(BindingKind::Let, &mut slot.kind)?;
            }
            Some(Tok::Kw(Keyword::Var)) => {
                self.bump();
                self.binding(BindingKind::Var, &mut slot.kind)?;
            }
            Some(Tok::Ident) if self.at_word("const") && self.const_follows() => {
                self.bump();
                self.binding(BindingKind::Const, &mut slot.kind)?;
            }
            Some(Tok::Kw(Keyword::Pipeline | Keyword::Import)) if ctx == Context::Block => {
                return self.fail(what::EXPR);
            }
            Some(Tok::Kw(
                Keyword::Pub
                | Keyword::Fn
                | Keyword::Struct
                | Keyword::Enum
                | Keyword::Impl
                | Keyword::Interface
                | Keyword::Type
                | Keyword::Tool
                | Keyword::Skill
                | Keyword::EvalPack
                | Keyword::Override
                | Keyword::Pipeline
                | Keyword::Import,
            )) => slot.kind = self.declaration()?,
            Some(Tok::Ident)
                if self.at_word("gen") && self.peek_at(1) == Some(&Tok::Kw(Keyword::Fn)) =>
            {
                slot.kind = self.declaration()?;
            }
            Some(Tok::Kw(Keyword::Return)) => {
                self.bump();
                let value = match self.peek() {
                    None | Some(Tok::Newline | Tok::Semi | Tok::RBrace) => None,
                    _ => Some(self.expr()?),
                };
                slot.kind = StmtKind::Return(value);
            }
            Some(Tok::Kw(Keyword::Throw)) => {
                self.bump();
                slot.kind = StmtKind::Throw(self.expr()?);
            }
            Some(Tok::Kw(Keyword::Break)) => {
                self.bump();
                slot.kind = StmtKind::Break;
            }
            Some(Tok::Kw(Keyword::Continue)) => {
                self.bump();
                slot.kind = StmtKind::Continue;
            }
            Some(Tok::Kw(Keyword::For)) => {
                self.bump();
                let pattern = self.pattern()?;
                self.expect(&Tok::Kw(Keyword::In), "in")?;
                let iterable = self.expr()?;
                let body = self.block()?;
                slot.kind = StmtKind::For {
                    pattern,
                    iterable,
                    body,
                };
            }
            Some(Tok::Kw(Keyword::While)) => {
                self.bump();
                let cond = self.expr()?;
                let body = self.block()?;
                slot.kind = StmtKind::While { cond, body };
            }
            Some(Tok::Kw(Keyword::Guard)) => {
                self.bump();
                let cond = self.expr()?;
                self.expect(&Tok::Kw(Keyword::Else), "else")?;
                let else_block = self.block()?;
                slot.kind = StmtKind::Guard { cond, else_block };
            }
            Some(Tok::Kw(Keyword::Require)) => {
                self.bump();
                let cond = self.expr()?;
                let message = if self.eat(&Tok::Comma) {
                    Some(self.expr()?)
                } else {
                    None
                };
                slot.kind = StmtKind::Require { cond, message };
            }
            Some(Tok::Kw(Keyword::Defer)) => {
                self.bump();
                slot.kind = StmtKind::Defer(self.block()?);
            }
            Some(Tok::Kw(Keyword::Retry)) => {
                self.bump();
                let attempts = self.expr()?;
                let body = self.block()?;
                slot.kind = StmtKind::Retry { attempts, body };
            }
            _ => self.expr_or_assign(&mut slot.kind)?,
        }
        slot.attrs = attrs;
        slot.span = self.since(start);
        Ok(())
    }

    /// `const` is a keyword only at the start of a statement when a binding pattern and
    /// `=` (or `:`) follow; elsewhere it is an ordinary identifier.
    fn const_follows(&mut self) -> bool {
        let saved = self.pos;
        self.bump();
        let ok = self.pattern().is_ok() && matches!(self.peek(), Some(Tok::Assign | Tok::Colon));
        self.pos = saved;
        ok
    }

    #[inline(always)]
    fn binding(&mut self, kind: BindingKind, slot: &mut StmtKind) -> PResult<()> {
        let pattern = self.pattern()?;
        let ty = if self.eat(&Tok::Colon) {
            Some(Box::new(self.type_expr()?))
        } else {
            None
        };
        self.expect(&Tok::Assign, "=")?;
        let value = self.expr()?;
        *slot = StmtKind::Let {
            kind,
            pattern,
            ty,
            value,
        };
        Ok(())
    }

    #[inline(always)]
    fn expr_or_assign(&mut self, slot: &mut StmtKind) -> PResult<()> {
        let target = self.expr()?;
        let op = match self.peek() {
            Some(Tok::Assign) => AssignOp::Assign,
            Some(Tok::PlusEq) => AssignOp::Add,
            Some(Tok::MinusEq) => AssignOp::Sub,
            Some(Tok::StarEq) => AssignOp::Mul,
            Some(Tok::SlashEq) => AssignOp::Div,
            Some(Tok::PercentEq) => AssignOp::Mod,
            _ => {
                *slot = StmtKind::Expr(target);
                return Ok(());
            }
        };
        let op_span = self.bump();
        if !assignable(&target) {
            return Err(Fail::Message {
                message: "Invalid assignment target: only variables, properties and subscripts can be assigned".into(),
                span: op_span,
            });
        }
        let value = self.expr()?;
        *slot = StmtKind::Assign { target, op, value };
        Ok(())
    }
}

/// Whether an expression may stand on the left of `=`.
fn assignable(target: &Expr) -> bool {
    match &target.kind {
        ExprKind::Ident(_) => true,
        ExprKind::Member { optional, .. } | ExprKind::Index { optional, .. } => !optional,
        _ => false,
    }
}
