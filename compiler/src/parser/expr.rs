//! Expressions: precedence climbing for binary operators (`language.md` 5), postfix
//! chains, and the primary forms.

use super::holes::interpolate;
use super::{PResult, Parser, what};
use crate::ast::{
    Arg, BinOp, Block, CatchClause, Closure, DictEntry, DictKey, ElseBranch, Expr, ExprKind, Ident,
    MatchArm, Name, ParallelKind, Param, SelectArm, Span, UnaryOp,
};
use crate::lexer::{Keyword, Number, StrValue, Tok};

/// Binding power of a binary operator token (higher binds tighter); `**` (11) is the
/// only right-associative one. `not in` is handled separately (two tokens).
fn binary_op(tok: &Tok) -> Option<(BinOp, u8)> {
    Some(match tok {
        Tok::OrOr => (BinOp::Or, 4),
        Tok::AndAnd => (BinOp::And, 5),
        Tok::EqEq => (BinOp::Eq, 6),
        Tok::NotEq => (BinOp::Ne, 6),
        Tok::Lt => (BinOp::Lt, 7),
        Tok::Gt => (BinOp::Gt, 7),
        Tok::Le => (BinOp::Le, 7),
        Tok::Ge => (BinOp::Ge, 7),
        Tok::Kw(Keyword::In) => (BinOp::In, 7),
        Tok::Plus => (BinOp::Add, 8),
        Tok::Minus => (BinOp::Sub, 8),
        Tok::Coalesce => (BinOp::Coalesce, 9),
        Tok::Star => (BinOp::Mul, 10),
        Tok::Slash => (BinOp::Div, 10),
        Tok::Percent => (BinOp::Mod, 10),
        Tok::StarStar => (BinOp::Pow, 11),
        _ => return None,
    })
}

const POW: u8 = 11;

impl<'a> Parser<'a> {
    /// A full expression: `|>` is the loosest operator.
    pub(crate) fn expr(&mut self) -> PResult<Expr> {
        if self.lone_operand() {
            return self.primary();
        }
        self.deep(|p| {
            if p.at_prefix_operator() {
                return p.pipe();
            }
            // An operand first: most expressions are one postfix chain (`f(x)`,
            // `xs.map(...)`, `a.b`, a literal) that no operator follows, and those are
            // returned from here, without passing through every operator level (each
            // level moved the whole result once more on its way up).
            let operand = p.postfix();
            if operand.is_err() || !p.at_operator() {
                return operand;
            }
            p.pipe_from(operand?)
        })
    }

    /// Whether the token at the cursor is a prefix operator (`-`, `!`, `try*`).
    fn at_prefix_operator(&self) -> bool {
        matches!(self.peek(), Some(Tok::Minus | Tok::Bang | Tok::TryStar))
    }

    /// Whether the token at the cursor continues an expression after an operand at one of
    /// the operator levels: a binary operator (`not in` included), a ternary `?`, a range
    /// or `|>`. Postfix forms have been taken by the operand already.
    fn at_operator(&self) -> bool {
        match self.peek() {
            Some(
                Tok::QuestionTernary
                | Tok::QuestionIndex
                | Tok::PipeOp
                | Tok::DotDot
                | Tok::DotDotEq
                | Tok::Kw(Keyword::To),
            ) => true,
            Some(_) => self.peek_binary().is_some(),
            None => false,
        }
    }

    /// Whether the expression at the cursor is one name or literal that a separator or
    /// closer ends (`f(x, 1)`, `[a, b]`, `{k: v}`, `return x`): most of a program's
    /// expressions, and none of the operator levels can apply to them, since no operator,
    /// postfix form, `?`, `to` or `|>` follows.
    fn lone_operand(&self) -> bool {
        self.peek().is_some_and(|t| {
            t.is_atom() || matches!(t, Tok::Kw(Keyword::True | Keyword::False | Keyword::Nil))
        }) && matches!(
            self.peek_at(1),
            None | Some(
                Tok::Comma | Tok::RParen | Tok::RBracket | Tok::RBrace | Tok::Newline | Tok::Semi
            )
        )
    }

    // `pipe`, `range`, `ternary` and `unary` are inlined into their callers: most
    // expressions are a single operand that passes through every level, and out of line
    // each level moved the whole `PResult<Expr>` once more on its way up.
    #[inline(always)]
    fn pipe(&mut self) -> PResult<Expr> {
        let first = self.range()?;
        self.pipe_rest(first)
    }

    /// [`Self::pipe`] after its first operand, `operand`, has been parsed.
    fn pipe_from(&mut self, operand: Expr) -> PResult<Expr> {
        let first = self.range_from(operand)?;
        self.pipe_rest(first)
    }

    #[inline(always)]
    fn pipe_rest(&mut self, first: Expr) -> PResult<Expr> {
        let mut value = first;
        while self.eat(&Tok::PipeOp) {
            let func = self.range()?;
            let span = value.span.to(func.span);
            value = Expr {
                kind: ExprKind::Pipe {
                    value: Box::new(value),
                    func: Box::new(func),
                },
                span,
            };
        }
        Ok(value)
    }

    /// `a to b`, `a to b exclusive`, `a..b`, `a..=b` (non-associative).
    #[inline(always)]
    fn range(&mut self) -> PResult<Expr> {
        let start = self.ternary()?;
        self.range_rest(start)
    }

    #[inline(always)]
    fn range_from(&mut self, operand: Expr) -> PResult<Expr> {
        let start = self.ternary_from(operand)?;
        self.range_rest(start)
    }

    #[inline(always)]
    fn range_rest(&mut self, start: Expr) -> PResult<Expr> {
        let inclusive = match self.peek() {
            Some(Tok::Kw(Keyword::To)) => true,
            Some(Tok::DotDot) => false,
            Some(Tok::DotDotEq) => true,
            _ => return Ok(start),
        };
        let to_keyword = self.at_kw(Keyword::To);
        self.bump();
        let end = self.ternary()?;
        let inclusive = if to_keyword {
            !self.eat_kw(Keyword::Exclusive)
        } else {
            inclusive
        };
        let span = self.since(start.span);
        Ok(Expr {
            kind: ExprKind::Range {
                start: Box::new(start),
                end: Box::new(end),
                inclusive,
            },
            span,
        })
    }

    /// `c ? a : b`. The then-branch may itself be a ternary (it is closed by `:`); the
    /// else-branch is an `||`-level expression, so `a ? 1 : b ? 2 : 3` is an error.
    #[inline(always)]
    fn ternary(&mut self) -> PResult<Expr> {
        let cond = self.binary(0)?;
        self.ternary_rest(cond)
    }

    #[inline(always)]
    fn ternary_from(&mut self, operand: Expr) -> PResult<Expr> {
        let cond = self.binary_rest(operand, 0)?;
        self.ternary_rest(cond)
    }

    #[inline(always)]
    fn ternary_rest(&mut self, cond: Expr) -> PResult<Expr> {
        if !matches!(self.peek(), Some(Tok::QuestionTernary | Tok::QuestionIndex)) {
            return Ok(cond);
        }
        self.bump();
        let then = self.deep(|p| p.ternary())?;
        self.expect(&Tok::Colon, ":")?;
        let otherwise = self.binary(0)?;
        let span = cond.span.to(otherwise.span);
        Ok(Expr {
            kind: ExprKind::Ternary {
                cond: Box::new(cond),
                then: Box::new(then),
                otherwise: Box::new(otherwise),
            },
            span,
        })
    }

    /// The operator at the cursor, if it is a binary operator, and its token length.
    fn peek_binary(&self) -> Option<(BinOp, u8, usize)> {
        if self.at_word("not") && self.peek_at(1) == Some(&Tok::Kw(Keyword::In)) {
            return Some((BinOp::NotIn, 7, 2));
        }
        self.peek()
            .and_then(binary_op)
            .map(|(op, prec)| (op, prec, 1))
    }

    /// Precedence climbing over `||` ... `**`.
    fn binary(&mut self, min_prec: u8) -> PResult<Expr> {
        let lhs = self.unary()?;
        self.binary_rest(lhs, min_prec)
    }

    /// The operators after a first operand `lhs` of [`Self::binary`].
    fn binary_rest(&mut self, first: Expr, min_prec: u8) -> PResult<Expr> {
        let mut lhs = first;
        while let Some((op, prec, len)) = self.peek_binary() {
            if prec < min_prec {
                break;
            }
            self.pos += len;
            let next_min = if prec == POW { prec } else { prec + 1 };
            let rhs = self.deep(|p| p.binary(next_min))?;
            let span = lhs.span.to(rhs.span);
            lhs = Expr {
                kind: ExprKind::Binary {
                    op,
                    lhs: Box::new(lhs),
                    rhs: Box::new(rhs),
                },
                span,
            };
        }
        Ok(lhs)
    }

    /// Prefix `-`, `!`, `try*` (they bind tighter than `**`: `-2 ** 2 == 4`).
    #[inline(always)]
    fn unary(&mut self) -> PResult<Expr> {
        let mut prefixes = Vec::new();
        loop {
            match self.peek() {
                Some(Tok::Minus) => prefixes.push((Some(UnaryOp::Neg), self.bump())),
                Some(Tok::Bang) => prefixes.push((Some(UnaryOp::Not), self.bump())),
                Some(Tok::TryStar) => prefixes.push((None, self.bump())),
                _ => break,
            }
        }
        let mut operand = self.postfix()?;
        while let Some((op, span)) = prefixes.pop() {
            let span = span.to(operand.span);
            let kind = match op {
                Some(op) => ExprKind::Unary {
                    op,
                    operand: Box::new(operand),
                },
                None => ExprKind::TryStar(Box::new(operand)),
            };
            operand = Expr { kind, span };
        }
        Ok(operand)
    }

    /// A member name after `.`: identifiers and every keyword.
    pub(crate) fn member_name(&mut self) -> PResult<Ident> {
        match self.peek() {
            Some(Tok::Ident) => self.ident(what::MEMBER),
            Some(Tok::Kw(k)) => {
                let span = self.bump();
                Ok(Ident {
                    name: Name::new_static(k.as_str()),
                    span,
                })
            }
            _ => self.fail(what::MEMBER),
        }
    }

    /// `[ index ]` or `[ a : b ]` after the `[` has been seen (not consumed).
    fn index_or_slice(&mut self, object: Expr) -> PResult<Expr> {
        self.bump();
        let start = if self.at(&Tok::Colon) {
            None
        } else {
            Some(self.expr()?)
        };
        if self.eat(&Tok::Colon) {
            let end = if self.at(&Tok::RBracket) {
                None
            } else {
                Some(self.expr()?)
            };
            self.expect(&Tok::RBracket, "]")?;
            let span = self.since(object.span);
            return Ok(Expr {
                kind: ExprKind::Slice {
                    object: Box::new(object),
                    start: start.map(Box::new),
                    end: end.map(Box::new),
                },
                span,
            });
        }
        self.expect(&Tok::RBracket, "]")?;
        let span = self.since(object.span);
        match start {
            Some(index) => Ok(Expr {
                kind: ExprKind::Index {
                    object: Box::new(object),
                    index: Box::new(index),
                    optional: false,
                },
                span,
            }),
            None => self.fail(what::EXPR),
        }
    }

    /// `object?[index]`, ending at the cursor.
    fn optional_index(&self, object: Expr, index: Expr) -> Expr {
        let span = self.since(object.span);
        Expr {
            kind: ExprKind::Index {
                object: Box::new(object),
                index: Box::new(index),
                optional: true,
            },
            span,
        }
    }

    fn postfix(&mut self) -> PResult<Expr> {
        // Returned as parsed unless a postfix form follows (most operands have none):
        // the result is then built where it goes, with no copy on the way out.
        let operand = self.primary();
        if operand.is_err()
            || !matches!(
                self.peek(),
                Some(
                    Tok::Dot
                        | Tok::QuestionDot
                        | Tok::LBracket
                        | Tok::QuestionIndex
                        | Tok::Question
                )
            )
        {
            return operand;
        }
        self.postfix_chain(operand?)
    }

    /// The postfix forms after the operand `e` (`a.b(c)[0]?`).
    #[inline(never)]
    fn postfix_chain(&mut self, operand: Expr) -> PResult<Expr> {
        let mut e = operand;
        loop {
            match self.peek() {
                Some(Tok::Dot | Tok::QuestionDot) => {
                    let optional = self.at(&Tok::QuestionDot);
                    self.bump();
                    if optional && self.at(&Tok::LBracket) {
                        // `x?.[i]`: the optional-chaining spelling of `x?[i]`.
                        self.bump();
                        let index = self.expr()?;
                        self.expect(&Tok::RBracket, "]")?;
                        e = self.optional_index(e, index);
                        continue;
                    }
                    let name = self.member_name()?;
                    if self.at(&Tok::LParen) {
                        let args = self.call_args()?;
                        let span = self.since(e.span);
                        e = Expr {
                            kind: ExprKind::MethodCall {
                                receiver: Box::new(e),
                                method: name,
                                args,
                                optional,
                            },
                            span,
                        };
                    } else {
                        let span = e.span.to(name.span);
                        e = Expr {
                            kind: ExprKind::Member {
                                object: Box::new(e),
                                name,
                                optional,
                            },
                            span,
                        };
                    }
                }
                Some(Tok::LBracket) => e = self.index_or_slice(e)?,
                Some(Tok::QuestionIndex) => {
                    // `x?[i]`; if no subscript parses here, the `?` opens a ternary
                    // (`c ? [a, b] : []`), which the ternary level handles.
                    let saved = self.pos;
                    if self.no_optional_index.contains(&saved) {
                        break;
                    }
                    self.bump();
                    let index = self.attempt(|p| {
                        p.expect(&Tok::LBracket, "[")?;
                        let index = p.expr()?;
                        p.expect(&Tok::RBracket, "]")?;
                        Ok(index)
                    });
                    if index.is_none() {
                        self.no_optional_index.insert(saved);
                    }
                    match index {
                        Some(index) => e = self.optional_index(e, index),
                        None => {
                            self.pos = saved;
                            break;
                        }
                    }
                }
                Some(Tok::Question) => {
                    let q = self.bump();
                    let span = e.span.to(q);
                    e = Expr {
                        kind: ExprKind::Propagate(Box::new(e)),
                        span,
                    };
                }
                _ => break,
            }
        }
        Ok(e)
    }

    /// `(args)`: optional commas, `...spread`, trailing comma.
    pub(crate) fn call_args(&mut self) -> PResult<Vec<Arg>> {
        self.expect(&Tok::LParen, "(")?;
        let mut args = Vec::new();
        while !self.at_close(&Tok::RParen, ")")? {
            self.push_element(&mut args)?;
            self.eat(&Tok::Comma);
        }
        self.bump();
        Ok(args)
    }

    /// An argument or list element, `expr` or `...expr`, pushed onto `items` (returned
    /// instead, it was copied once more on the way).
    fn push_element(&mut self, items: &mut Vec<Arg>) -> PResult<()> {
        let spread = self.eat(&Tok::Ellipsis);
        let value = self.expr()?;
        super::room_for_first(items);
        items.push(if spread {
            Arg::Spread(value)
        } else {
            Arg::Positional(value)
        });
        Ok(())
    }

    fn primary(&mut self) -> PResult<Expr> {
        let start = self.span();
        let Some(tok) = self.peek() else {
            return self.fail(what::EXPR);
        };
        // The common forms return from their own arm, so that their node is built where
        // the result goes: assembled in a local and then moved out, a node was copied
        // twice more, the first copy reading what had just been written in narrower
        // pieces (a load the processor cannot serve from its pending stores).
        let kind = match tok {
            Tok::Int | Tok::Float | Tok::Duration => {
                let kind = match self.number_value() {
                    Number::Int(n) => ExprKind::Int(n),
                    Number::Float(x) => ExprKind::Float(x),
                    Number::Duration(ms) => ExprKind::Duration(ms),
                };
                self.bump();
                return Ok(Expr { kind, span: start });
            }
            Tok::Str | Tok::RawStr => {
                let text = self.string_name();
                self.bump();
                return Ok(Expr {
                    kind: ExprKind::Str(text),
                    span: start,
                });
            }
            Tok::IStr(depth) => {
                let depth = *depth;
                let value = self.string_value();
                self.bump();
                match value {
                    StrValue::Segments(segs) => interpolate(self, &segs, depth, start),
                    StrValue::Text(text) => ExprKind::Str(Name::from(text)),
                }
            }
            Tok::Kw(Keyword::True) => {
                self.bump();
                return Ok(Expr {
                    kind: ExprKind::Bool(true),
                    span: start,
                });
            }
            Tok::Kw(Keyword::False) => {
                self.bump();
                return Ok(Expr {
                    kind: ExprKind::Bool(false),
                    span: start,
                });
            }
            Tok::Kw(Keyword::Nil) => {
                self.bump();
                return Ok(Expr {
                    kind: ExprKind::Nil,
                    span: start,
                });
            }
            Tok::Ident => return self.name_or_call(start),
            Tok::LParen => self.paren()?,
            Tok::LBracket => return self.list_literal(start),
            Tok::ClosureBrace => self.closure()?,
            Tok::LBrace => return self.dict_literal(start),
            Tok::Kw(Keyword::Fn) => {
                self.bump();
                let params = self.params()?;
                let ret = self.return_type()?;
                let body = self.block()?;
                ExprKind::Closure(Box::new(Closure {
                    params,
                    ret,
                    body,
                    is_fn_expr: true,
                }))
            }
            Tok::Kw(Keyword::If) => return self.if_expr(),
            Tok::Kw(Keyword::Match) => self.match_expr()?,
            Tok::Kw(Keyword::Try) => self.try_expr()?,
            Tok::Kw(Keyword::Spawn) => {
                self.bump();
                ExprKind::Spawn(self.block()?)
            }
            Tok::Kw(Keyword::Mutex) => {
                self.bump();
                ExprKind::Mutex(self.block()?)
            }
            Tok::Kw(Keyword::Deadline) => {
                self.bump();
                let duration = self.expr()?;
                let body = self.block()?;
                ExprKind::Deadline {
                    duration: Box::new(duration),
                    body,
                }
            }
            Tok::Kw(Keyword::Parallel) => self.parallel()?,
            Tok::Kw(Keyword::Select) => self.select()?,
            Tok::Kw(Keyword::Yield) => {
                self.bump();
                let value = match self.peek() {
                    None | Some(Tok::Newline | Tok::Semi | Tok::RBrace | Tok::RParen) => None,
                    _ => Some(Box::new(self.expr()?)),
                };
                ExprKind::Yield(value)
            }
            Tok::Kw(Keyword::Emit) => {
                self.bump();
                ExprKind::Emit(Box::new(self.expr()?))
            }
            _ => return self.fail(what::EXPR),
        };
        Ok(Expr {
            kind,
            span: self.since(start),
        })
    }

    /// `[elements]`, the `[` at `start` not yet consumed.
    fn list_literal(&mut self, start: Span) -> PResult<Expr> {
        self.bump();
        let mut items = Vec::new();
        while !self.at_close(&Tok::RBracket, "]")? {
            self.push_element(&mut items)?;
            self.eat(&Tok::Comma);
        }
        self.bump();
        Ok(Expr {
            kind: ExprKind::List(items),
            span: self.since(start),
        })
    }

    /// `{entries}`, the `{` at `start` not yet consumed.
    fn dict_literal(&mut self, start: Span) -> PResult<Expr> {
        self.bump();
        let entries = self.dict_entries()?;
        Ok(Expr {
            kind: ExprKind::Dict(entries),
            span: self.since(start),
        })
    }

    /// A name, a call `f(...)` / `f<T>(...)`, or a struct literal `Name { k: v }`, the
    /// name's token at `start`.
    fn name_or_call(&mut self, start: Span) -> PResult<Expr> {
        let name = self.ident(what::NAME)?;
        if self.struct_literal_follows(&name.name) {
            self.bump();
            let fields = self.dict_entries()?;
            return Ok(Expr {
                kind: ExprKind::StructLit { name, fields },
                span: self.since(start),
            });
        }
        // Built only when `<` follows: dropping an unused empty vector is an out-of-line
        // call on every name in the program.
        let mut type_args = None;
        if self.at(&Tok::Lt)
            && let Some(args) = self.attempt(|p| {
                p.bump();
                let mut args = vec![p.type_expr()?];
                while p.eat(&Tok::Comma) {
                    args.push(p.type_expr()?);
                }
                p.expect(&Tok::Gt, ">")?;
                if p.at(&Tok::LParen) {
                    Ok(args)
                } else {
                    p.fail("(")
                }
            })
        {
            type_args = Some(args);
        }
        if self.at(&Tok::LParen) {
            let args = self.call_args()?;
            return Ok(Expr {
                kind: ExprKind::Call {
                    callee: name,
                    type_args: type_args.unwrap_or_default(),
                    args,
                },
                span: self.since(start),
            });
        }
        Ok(Expr {
            kind: ExprKind::Ident(name.name),
            span: start,
        })
    }

    /// `Name {` starts a struct literal only for a capitalised name whose brace content
    /// starts like a field list (`ident:`, `"str":` or `}`).
    fn struct_literal_follows(&self, name: &str) -> bool {
        if !name.starts_with(char::is_uppercase) || self.peek() != Some(&Tok::LBrace) {
            return false;
        }
        let mut n = 1;
        if self.peek_at(n) == Some(&Tok::Newline) {
            n += 1;
        }
        match self.peek_at(n) {
            Some(Tok::RBrace) => true,
            Some(Tok::Ident | Tok::Str) => self.peek_at(n + 1) == Some(&Tok::Colon),
            Some(Tok::Kw(k)) if k.allowed_as_key() => self.peek_at(n + 1) == Some(&Tok::Colon),
            _ => false,
        }
    }

    /// `(expr)`, or `(name)(args)`, which calls `name`.
    fn paren(&mut self) -> PResult<ExprKind> {
        self.bump();
        if let (Some(Tok::Ident), Some(Tok::RParen), Some(Tok::LParen)) =
            (self.peek(), self.peek_at(1), self.peek_at(2))
        {
            let callee = self.ident(what::NAME)?;
            self.bump();
            let args = self.call_args()?;
            return Ok(ExprKind::Call {
                callee,
                type_args: Vec::new(),
                args,
            });
        }
        let inner = self.expr()?;
        self.expect(&Tok::RParen, ")")?;
        Ok(inner.kind)
    }

    pub(crate) fn key_name(&mut self) -> PResult<Ident> {
        match self.peek() {
            Some(Tok::Ident) => self.ident(what::DICT_KEY),
            Some(Tok::Kw(k)) if k.allowed_as_key() => {
                let span = self.bump();
                Ok(Ident {
                    name: Name::new_static(k.as_str()),
                    span,
                })
            }
            _ => self.fail(what::DICT_KEY),
        }
    }

    /// The entries of a dict or struct literal after `{`, and the closing `}`.
    fn dict_entries(&mut self) -> PResult<Vec<DictEntry>> {
        let mut entries = Vec::new();
        self.skip_newlines();
        while !self.at_close(&Tok::RBrace, "}")? {
            super::room_for_first(&mut entries);
            if self.eat(&Tok::Ellipsis) {
                entries.push(DictEntry::Spread(self.expr()?));
            } else {
                let key = match self.peek() {
                    Some(Tok::Str | Tok::RawStr) => {
                        let text = self.string_name();
                        let span = self.bump();
                        DictKey::Name(text, span)
                    }
                    Some(Tok::LBracket) => {
                        self.bump();
                        let key = self.expr()?;
                        self.expect(&Tok::RBracket, "]")?;
                        DictKey::Computed(key)
                    }
                    _ => {
                        let id = self.key_name()?;
                        DictKey::Name(id.name, id.span)
                    }
                };
                self.expect(&Tok::Colon, ":")?;
                let value = self.expr()?;
                entries.push(DictEntry::Pair { key, value });
            }
            self.eat(&Tok::Comma);
            self.skip_newlines();
        }
        self.bump();
        Ok(entries)
    }

    /// `{ params -> body }`
    fn closure(&mut self) -> PResult<ExprKind> {
        let open = self.bump();
        let mut params = Vec::new();
        while !self.at(&Tok::Arrow) {
            let start = self.span();
            let name = self.ident(what::PARAM)?;
            let ty = if self.eat(&Tok::Colon) {
                Some(self.type_expr()?)
            } else {
                None
            };
            let default = if self.eat(&Tok::Assign) {
                Some(self.expr()?)
            } else {
                None
            };
            params.push(Param {
                name,
                ty,
                default,
                rest: false,
                span: self.since(start),
            });
            if !self.eat(&Tok::Comma) {
                break;
            }
        }
        self.expect(&Tok::Arrow, "->")?;
        let body = self.deep(|p| p.block_rest(open, what::STMT_SEP))?;
        Ok(ExprKind::Closure(Box::new(Closure {
            params,
            ret: None,
            body,
            is_fn_expr: false,
        })))
    }

    /// Consumes a newline only if `next` follows it (`}` newline `else`).
    fn newline_then(&mut self, next: Keyword) -> bool {
        if self.at(&Tok::Newline) && self.peek_at(1) == Some(&Tok::Kw(next)) {
            self.bump();
        }
        self.at_kw(next)
    }

    fn if_expr(&mut self) -> PResult<Expr> {
        let start = self.bump();
        let cond = self.expr()?;
        let then = self.block()?;
        let otherwise = if self.newline_then(Keyword::Else) {
            self.bump();
            if self.at_kw(Keyword::If) {
                Some(ElseBranch::If(Box::new(self.deep(|p| p.if_expr())?)))
            } else {
                Some(ElseBranch::Block(self.block()?))
            }
        } else {
            None
        };
        Ok(Expr {
            kind: ExprKind::If {
                cond: Box::new(cond),
                then,
                otherwise,
            },
            span: self.since(start),
        })
    }

    fn match_expr(&mut self) -> PResult<ExprKind> {
        self.bump();
        let scrutinee = self.expr()?;
        self.expect_lbrace()?;
        self.skip_newlines();
        let mut arms = Vec::new();
        while !self.at_close(&Tok::RBrace, "}")? {
            let start = self.span();
            let mut patterns = vec![self.expr()?];
            while self.eat(&Tok::Bar) {
                patterns.push(self.expr()?);
            }
            let guard = if self.eat_kw(Keyword::If) {
                Some(self.expr()?)
            } else {
                None
            };
            self.expect(&Tok::Arrow, "->")?;
            let body = self.block()?;
            arms.push(MatchArm {
                patterns,
                guard,
                body,
                span: self.since(start),
            });
            self.eat(&Tok::Comma);
            self.skip_newlines();
        }
        self.bump();
        Ok(ExprKind::Match {
            scrutinee: Box::new(scrutinee),
            arms,
        })
    }

    fn try_expr(&mut self) -> PResult<ExprKind> {
        self.bump();
        let body = self.block()?;
        let catch = if self.newline_then(Keyword::Catch) {
            let start = self.bump();
            let (var, ty) = match self.peek() {
                Some(Tok::LParen) => {
                    self.bump();
                    let var = self.ident(what::VAR_NAME)?;
                    let ty = if self.eat(&Tok::Colon) {
                        Some(self.type_expr()?)
                    } else {
                        None
                    };
                    self.expect(&Tok::RParen, ")")?;
                    (Some(var), ty)
                }
                Some(Tok::Ident) => (Some(self.ident(what::VAR_NAME)?), None),
                _ => (None, None),
            };
            let body = self.block()?;
            Some(Box::new(CatchClause {
                var,
                ty,
                body,
                span: self.since(start),
            }))
        } else {
            None
        };
        let finally = if self.newline_then(Keyword::Finally) {
            self.bump();
            Some(self.block()?)
        } else {
            None
        };
        Ok(ExprKind::Try {
            body,
            catch,
            finally,
        })
    }

    /// `parallel [each|settle] subject [with options] { [x ->] body }`
    fn parallel(&mut self) -> PResult<ExprKind> {
        self.bump();
        let kind = if self.at_word("each") && self.peek_at(1) != Some(&Tok::LBrace) {
            self.bump();
            ParallelKind::Each
        } else if self.at_word("settle") && self.peek_at(1) != Some(&Tok::LBrace) {
            self.bump();
            ParallelKind::Settle
        } else {
            ParallelKind::Count
        };
        let subject = self.expr()?;
        let options = if self.at_word("with") {
            self.bump();
            Some(Box::new(self.expr()?))
        } else {
            None
        };
        let open = self.expect_lbrace()?;
        let param =
            if matches!(self.peek(), Some(Tok::Ident)) && self.peek_at(1) == Some(&Tok::Arrow) {
                let p = self.ident(what::PARAM)?;
                self.bump();
                Some(p)
            } else {
                None
            };
        let body: Block = self.deep(|p| p.block_rest(open, what::STMT_SEP))?;
        Ok(ExprKind::Parallel {
            kind,
            subject: Box::new(subject),
            options,
            param,
            body,
        })
    }

    /// `select { x from ch { } timeout d { } default { } }`
    fn select(&mut self) -> PResult<ExprKind> {
        self.bump();
        self.expect_lbrace()?;
        self.skip_newlines();
        let mut arms = Vec::new();
        while !self.at_close(&Tok::RBrace, "}")? {
            let arm = if self.peek_at(1) == Some(&Tok::Kw(Keyword::From)) {
                let var = self.ident(what::VAR_NAME)?;
                self.bump();
                let channel = self.expr()?;
                let body = self.block()?;
                SelectArm::Recv { var, channel, body }
            } else if self.at_word("timeout") {
                self.bump();
                let duration = self.expr()?;
                let body = self.block()?;
                SelectArm::Timeout { duration, body }
            } else if self.at_word("default") {
                self.bump();
                SelectArm::Default {
                    body: self.block()?,
                }
            } else {
                return self.fail("select case");
            };
            arms.push(arm);
            self.eat(&Tok::Comma);
            self.skip_newlines();
        }
        self.bump();
        Ok(ExprKind::Select(arms))
    }

    /// Parses one expression at the cursor for an interpolation hole; `None` if no
    /// expression parses cleanly there.
    pub(crate) fn leading_expr(&mut self) -> Option<Expr> {
        if self.at_end() {
            return None;
        }
        let e = self.expr().ok()?;
        if self.errors.is_empty() {
            Some(e)
        } else {
            None
        }
    }
}
