//! Expressions, by precedence level (`language.md` 5), and the primary forms.

use chumsky::prelude::*;
use chumsky::recursive::Indirect;

use super::common::{
    BoxedP, Err, In, ident, key_name, kw, label, lbrace, member_name, newlines, sp, word,
};
use super::holes::interpolate;
use crate::ast::{
    Arg, BinOp, Block, CatchClause, Closure, DictEntry, DictKey, ElseBranch, Expr, ExprKind, Ident,
    MatchArm, ParallelKind, Param, SelectArm, Stmt, TypeExpr, UnaryOp,
};
use crate::lexer::{Keyword, Tok};

pub(crate) type Rec<'t, O> = Recursive<Indirect<'t, 't, In, O, Err<'t>>>;

/// The handles an expression parser needs from the rest of the grammar.
#[derive(Clone)]
pub(crate) struct Handles<'t> {
    pub expr: Rec<'t, Expr>,
    pub block: Rec<'t, Block>,
    /// The statements of a block body, up to (not including) its closing `}`.
    pub body: Rec<'t, Vec<Stmt>>,
    pub params: Rec<'t, Vec<Param>>,
    /// One statement (not the top-level-only forms).
    pub stmt: Rec<'t, Stmt>,
    pub ty: BoxedP<'t, TypeExpr>,
}

fn node(kind: ExprKind, span: SimpleSpan) -> Expr {
    Expr {
        kind,
        span: sp(span),
    }
}

fn binary(op: BinOp, lhs: Expr, rhs: Expr) -> Expr {
    let span = lhs.span.to(rhs.span);
    Expr {
        kind: ExprKind::Binary {
            op,
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
        },
        span,
    }
}

/// One left-associative precedence level.
fn left_level<'t>(
    operand: BoxedP<'t, Expr>,
    op: impl Parser<'t, In, BinOp, Err<'t>> + Clone + 't,
) -> BoxedP<'t, Expr> {
    operand
        .clone()
        .foldl(op.then(operand).repeated(), |lhs, (op, rhs)| {
            binary(op, lhs, rhs)
        })
        .boxed()
}

/// `(args)` with optional commas and `...spread`.
pub(crate) fn call_args<'t>(expr: Rec<'t, Expr>) -> BoxedP<'t, Vec<Arg>> {
    let arg = just(Tok::Ellipsis)
        .ignore_then(expr.clone())
        .map(Arg::Spread)
        .or(expr.map(Arg::Positional));
    arg.then_ignore(just(Tok::Comma).or_not())
        .repeated()
        .collect()
        .delimited_by(just(Tok::LParen), just(Tok::RParen))
        .boxed()
}

/// The entries of a dict literal or struct literal, between the braces.
fn dict_entries<'t>(expr: Rec<'t, Expr>) -> BoxedP<'t, Vec<DictEntry>> {
    let key = choice((
        key_name().map(|id| DictKey::Name(id.name, id.span)),
        select! {
            Tok::Str(s) = e => DictKey::Name(s, sp(e.span())),
            Tok::RawStr(s) = e => DictKey::Name(s, sp(e.span())),
        },
        expr.clone()
            .delimited_by(just(Tok::LBracket), just(Tok::RBracket))
            .map(DictKey::Computed),
    ))
    .labelled(label::DICT_KEY);
    let entry = choice((
        just(Tok::Ellipsis)
            .ignore_then(expr.clone())
            .map(DictEntry::Spread),
        key.then_ignore(just(Tok::Colon))
            .then(expr)
            .map(|(key, value)| DictEntry::Pair { key, value }),
    ));
    newlines()
        .ignore_then(
            entry
                .then_ignore(just(Tok::Comma).or_not())
                .then_ignore(newlines())
                .repeated()
                .collect(),
        )
        .boxed()
}

fn block_body<'t>(h: &Handles<'t>) -> BoxedP<'t, Block> {
    h.body
        .clone()
        .then_ignore(just(Tok::RBrace))
        .map_with(|stmts, e| Block {
            stmts,
            span: sp(e.span()),
        })
        .boxed()
}

fn primary<'t>(h: &Handles<'t>) -> BoxedP<'t, Expr> {
    let expr = h.expr.clone();
    let block = h.block.clone();
    let args = call_args(expr.clone());

    let literal = select! {
        Tok::Int(n) => ExprKind::Int(n),
        Tok::Float(x) => ExprKind::Float(x),
        Tok::Duration(ms) => ExprKind::Duration(ms),
        Tok::Str(s) => ExprKind::Str(s),
        Tok::RawStr(s) => ExprKind::Str(s),
        Tok::Kw(Keyword::True) => ExprKind::Bool(true),
        Tok::Kw(Keyword::False) => ExprKind::Bool(false),
        Tok::Kw(Keyword::Nil) => ExprKind::Nil,
    };
    let interpolated = select! { Tok::IStr(segs) => segs }
        .validate(|segs, e, emitter| interpolate(segs, e.span(), emitter));

    // `Name { key: ... }`: only for capitalised names whose brace content starts like
    // a field list.
    let struct_start = just(Tok::LBrace)
        .then(newlines())
        .then(choice((
            key_name().then(just(Tok::Colon)).ignored(),
            select! { Tok::Str(_) => () }
                .then(just(Tok::Colon))
                .ignored(),
            just(Tok::RBrace).ignored(),
        )))
        .rewind();
    let struct_lit = ident()
        .filter(|id: &Ident| id.name.chars().next().is_some_and(char::is_uppercase))
        .then_ignore(struct_start)
        .then(dict_entries(expr.clone()).delimited_by(just(Tok::LBrace), just(Tok::RBrace)))
        .map(|(name, fields)| ExprKind::StructLit { name, fields });

    let type_args = just(Tok::Lt)
        .ignore_then(
            h.ty.clone()
                .separated_by(just(Tok::Comma))
                .at_least(1)
                .collect::<Vec<_>>(),
        )
        .then_ignore(just(Tok::Gt))
        .then_ignore(just(Tok::LParen).rewind());
    let call_or_name = ident()
        .then(type_args.or_not())
        .then(args.clone().or_not())
        .map(|((callee, type_args), args)| match args {
            Some(args) => ExprKind::Call {
                callee,
                type_args: type_args.unwrap_or_default(),
                args,
            },
            None => ExprKind::Ident(callee.name),
        });

    // `(g)(5)` calls `g`: a parenthesised bare name still counts as a name.
    let paren_call = ident()
        .delimited_by(just(Tok::LParen), just(Tok::RParen))
        .then(args.clone())
        .map(|(callee, args)| ExprKind::Call {
            callee,
            type_args: Vec::new(),
            args,
        });
    let paren = expr
        .clone()
        .delimited_by(just(Tok::LParen), just(Tok::RParen))
        .map(|e| e.kind);

    let list = just(Tok::Ellipsis)
        .ignore_then(expr.clone())
        .map(Arg::Spread)
        .or(expr.clone().map(Arg::Positional))
        .then_ignore(just(Tok::Comma).or_not())
        .repeated()
        .collect()
        .delimited_by(just(Tok::LBracket), just(Tok::RBracket))
        .map(ExprKind::List);

    let dict = dict_entries(expr.clone())
        .delimited_by(just(Tok::LBrace), just(Tok::RBrace))
        .map(ExprKind::Dict);

    let cparam = ident()
        .labelled(label::PARAM)
        .then(just(Tok::Colon).ignore_then(h.ty.clone()).or_not())
        .then(just(Tok::Assign).ignore_then(expr.clone()).or_not())
        .map_with(|((name, ty), default), e| Param {
            name,
            ty,
            default,
            rest: false,
            span: sp(e.span()),
        });
    let closure = just(Tok::ClosureBrace)
        .ignore_then(
            cparam
                .separated_by(just(Tok::Comma))
                .allow_trailing()
                .collect::<Vec<_>>(),
        )
        .then_ignore(just(Tok::Arrow))
        .then(block_body(h))
        .map(|(params, body)| {
            ExprKind::Closure(Box::new(Closure {
                params,
                ret: None,
                body,
                is_fn_expr: false,
            }))
        });
    let fn_expr = kw(Keyword::Fn)
        .ignore_then(h.params.clone())
        .then(just(Tok::Arrow).ignore_then(h.ty.clone()).or_not())
        .then(block.clone())
        .map(|((params, ret), body)| {
            ExprKind::Closure(Box::new(Closure {
                params,
                ret,
                body,
                is_fn_expr: true,
            }))
        });

    let if_expr = recursive(|if_expr: Recursive<dyn Parser<'t, In, Expr, Err<'t>>>| {
        kw(Keyword::If)
            .ignore_then(expr.clone())
            .then(block.clone())
            .then(
                just(Tok::Newline)
                    .or_not()
                    .ignore_then(kw(Keyword::Else))
                    .ignore_then(choice((
                        if_expr.map(|e| ElseBranch::If(Box::new(e))),
                        block.clone().map(ElseBranch::Block),
                    )))
                    .or_not(),
            )
            .map_with(|((cond, then), otherwise), e| {
                node(
                    ExprKind::If {
                        cond: Box::new(cond),
                        then,
                        otherwise,
                    },
                    e.span(),
                )
            })
    })
    .map(|e| e.kind);

    let arm = expr
        .clone()
        .separated_by(just(Tok::Bar))
        .at_least(1)
        .collect::<Vec<_>>()
        .then(kw(Keyword::If).ignore_then(expr.clone()).or_not())
        .then_ignore(just(Tok::Arrow))
        .then(block.clone())
        .map_with(|((patterns, guard), body), e| MatchArm {
            patterns,
            guard,
            body,
            span: sp(e.span()),
        });
    let match_expr = kw(Keyword::Match)
        .ignore_then(expr.clone())
        .then(
            lbrace()
                .ignore_then(newlines())
                .ignore_then(
                    arm.then_ignore(just(Tok::Comma).or_not())
                        .then_ignore(newlines())
                        .repeated()
                        .collect::<Vec<_>>(),
                )
                .then_ignore(just(Tok::RBrace)),
        )
        .map(|(scrutinee, arms)| ExprKind::Match {
            scrutinee: Box::new(scrutinee),
            arms,
        });

    let catch_binding = choice((
        ident()
            .then(just(Tok::Colon).ignore_then(h.ty.clone()).or_not())
            .delimited_by(just(Tok::LParen), just(Tok::RParen))
            .map(|(v, t)| (Some(v), t)),
        ident().map(|v| (Some(v), None)),
        empty().to((None, None)),
    ));
    let catch = just(Tok::Newline)
        .or_not()
        .ignore_then(kw(Keyword::Catch))
        .ignore_then(catch_binding)
        .then(block.clone())
        .map_with(|((var, ty), body), e| CatchClause {
            var,
            ty,
            body,
            span: sp(e.span()),
        });
    let finally = just(Tok::Newline)
        .or_not()
        .ignore_then(kw(Keyword::Finally))
        .ignore_then(block.clone());
    let try_expr = kw(Keyword::Try)
        .ignore_then(block.clone())
        .then(catch.or_not())
        .then(finally.or_not())
        .map(|((body, catch), finally)| ExprKind::Try {
            body,
            catch: catch.map(Box::new),
            finally,
        });

    let spawn = kw(Keyword::Spawn)
        .ignore_then(block.clone())
        .map(ExprKind::Spawn);
    let mutex = kw(Keyword::Mutex)
        .ignore_then(block.clone())
        .map(ExprKind::Mutex);
    let deadline = kw(Keyword::Deadline)
        .ignore_then(expr.clone())
        .then(block.clone())
        .map(|(duration, body)| ExprKind::Deadline {
            duration: Box::new(duration),
            body,
        });

    let select_arm = choice((
        ident()
            .then_ignore(kw(Keyword::From))
            .then(expr.clone())
            .then(block.clone())
            .map(|((var, channel), body)| SelectArm::Recv { var, channel, body }),
        word("timeout")
            .ignore_then(expr.clone())
            .then(block.clone())
            .map(|(duration, body)| SelectArm::Timeout { duration, body }),
        word("default")
            .ignore_then(block.clone())
            .map(|body| SelectArm::Default { body }),
    ));
    let select = kw(Keyword::Select)
        .ignore_then(lbrace())
        .ignore_then(newlines())
        .ignore_then(
            select_arm
                .then_ignore(just(Tok::Comma).or_not())
                .then_ignore(newlines())
                .repeated()
                .collect(),
        )
        .then_ignore(just(Tok::RBrace))
        .map(ExprKind::Select);

    let parallel_kind = choice((
        word("each").to(ParallelKind::Each),
        word("settle").to(ParallelKind::Settle),
    ))
    .or_not()
    .map(|k| k.unwrap_or(ParallelKind::Count));
    let parallel_body = lbrace()
        .ignore_then(ident().then_ignore(just(Tok::Arrow)).or_not())
        .then(block_body(h));
    let parallel = kw(Keyword::Parallel)
        .ignore_then(parallel_kind)
        .then(expr.clone())
        .then(word("with").ignore_then(expr.clone()).or_not())
        .then(parallel_body)
        .map(
            |(((kind, subject), options), (param, body))| ExprKind::Parallel {
                kind,
                subject: Box::new(subject),
                options: options.map(Box::new),
                param,
                body,
            },
        );

    let yield_expr = kw(Keyword::Yield)
        .ignore_then(expr.clone().or_not())
        .map(|e| ExprKind::Yield(e.map(Box::new)));
    let emit = kw(Keyword::Emit)
        .ignore_then(expr.clone())
        .map(|e| ExprKind::Emit(Box::new(e)));

    choice((
        literal,
        interpolated,
        struct_lit,
        call_or_name,
        paren_call,
        paren,
        list,
        closure,
        dict,
        fn_expr,
        if_expr,
        match_expr,
        try_expr,
        spawn,
        parallel,
        select,
        mutex,
        deadline,
        yield_expr,
        emit,
    ))
    .map_with(|kind, e| node(kind, e.span()))
    .labelled(label::EXPR)
    .boxed()
}

/// A postfix operation, applied left to right.
#[derive(Clone)]
enum Postfix {
    Member(Ident, Option<Vec<Arg>>, bool),
    Index(Box<Expr>, bool),
    Slice(Option<Box<Expr>>, Option<Box<Expr>>),
    Propagate,
}

fn postfix<'t>(h: &Handles<'t>) -> BoxedP<'t, Expr> {
    let expr = h.expr.clone();
    let args = call_args(expr.clone());
    let member = just(Tok::Dot)
        .ignore_then(member_name())
        .then(args.clone().or_not())
        .map(|(name, args)| Postfix::Member(name, args, false));
    let optional_member = just(Tok::QuestionDot)
        .ignore_then(member_name())
        .then(args.or_not())
        .map(|(name, args)| Postfix::Member(name, args, true));
    let slice = expr
        .clone()
        .or_not()
        .then_ignore(just(Tok::Colon))
        .then(expr.clone().or_not())
        .map(|(a, b)| Postfix::Slice(a.map(Box::new), b.map(Box::new)));
    let index = choice((
        slice,
        expr.clone().map(|i| Postfix::Index(Box::new(i), false)),
    ))
    .delimited_by(just(Tok::LBracket), just(Tok::RBracket));
    let optional_index = just(Tok::QuestionIndex)
        .ignore_then(expr.delimited_by(just(Tok::LBracket), just(Tok::RBracket)))
        .map(|i| Postfix::Index(Box::new(i), true));
    let propagate = just(Tok::Question).to(Postfix::Propagate);
    let op = choice((member, optional_member, index, optional_index, propagate))
        .map_with(|p, e| (p, sp(e.span())));
    primary(h)
        .foldl(op.repeated(), |lhs, (op, op_span)| {
            let span = lhs.span.to(op_span);
            let kind = match op {
                Postfix::Member(name, Some(args), optional) => ExprKind::MethodCall {
                    receiver: Box::new(lhs),
                    method: name,
                    args,
                    optional,
                },
                Postfix::Member(name, None, optional) => ExprKind::Member {
                    object: Box::new(lhs),
                    name,
                    optional,
                },
                Postfix::Index(index, optional) => ExprKind::Index {
                    object: Box::new(lhs),
                    index,
                    optional,
                },
                Postfix::Slice(start, end) => ExprKind::Slice {
                    object: Box::new(lhs),
                    start,
                    end,
                },
                Postfix::Propagate => ExprKind::Propagate(Box::new(lhs)),
            };
            Expr { kind, span }
        })
        .boxed()
}

/// The whole expression grammar, to be installed as the definition of `h.expr`.
pub(crate) fn expression<'t>(h: &Handles<'t>) -> BoxedP<'t, Expr> {
    #[derive(Clone, Copy)]
    enum Prefix {
        Neg,
        Not,
        TryStar,
    }
    let prefix = choice((
        just(Tok::Minus).to(Prefix::Neg),
        just(Tok::Bang).to(Prefix::Not),
        just(Tok::TryStar).to(Prefix::TryStar),
    ))
    .map_with(|p, e| (p, sp(e.span())));
    let unary = prefix
        .repeated()
        .foldr(postfix(h), |(p, span), operand| {
            let span = span.to(operand.span);
            let kind = match p {
                Prefix::Neg => ExprKind::Unary {
                    op: UnaryOp::Neg,
                    operand: Box::new(operand),
                },
                Prefix::Not => ExprKind::Unary {
                    op: UnaryOp::Not,
                    operand: Box::new(operand),
                },
                Prefix::TryStar => ExprKind::TryStar(Box::new(operand)),
            };
            Expr { kind, span }
        })
        .boxed();
    // `**` is right-associative: collect the operands, then fold from the right.
    let power = unary
        .separated_by(just(Tok::StarStar))
        .at_least(1)
        .collect::<Vec<_>>()
        .map(|operands| {
            let mut iter = operands.into_iter().rev();
            let last = iter.next();
            iter.fold(last, |rhs, lhs| rhs.map(|rhs| binary(BinOp::Pow, lhs, rhs)))
                .unwrap_or(Expr {
                    kind: ExprKind::Error,
                    span: Default::default(),
                })
        })
        .boxed();
    let mul = left_level(
        power,
        select! { Tok::Star => BinOp::Mul, Tok::Slash => BinOp::Div, Tok::Percent => BinOp::Mod },
    );
    let coalesce = left_level(mul, just(Tok::Coalesce).to(BinOp::Coalesce));
    let add = left_level(
        coalesce,
        select! { Tok::Plus => BinOp::Add, Tok::Minus => BinOp::Sub },
    );
    let compare_op = choice((
        select! {
            Tok::Lt => BinOp::Lt,
            Tok::Gt => BinOp::Gt,
            Tok::Le => BinOp::Le,
            Tok::Ge => BinOp::Ge,
            Tok::Kw(Keyword::In) => BinOp::In,
        },
        word("not").then(kw(Keyword::In)).to(BinOp::NotIn),
    ));
    let compare = left_level(add, compare_op);
    let equality = left_level(
        compare,
        select! { Tok::EqEq => BinOp::Eq, Tok::NotEq => BinOp::Ne },
    );
    let and = left_level(equality, just(Tok::AndAnd).to(BinOp::And));
    let or = left_level(and, just(Tok::OrOr).to(BinOp::Or));
    let ternary = or
        .clone()
        .then(
            just(Tok::QuestionTernary)
                .ignore_then(or.clone())
                .then_ignore(just(Tok::Colon))
                .then(or)
                .or_not(),
        )
        .map(|(cond, branches)| match branches {
            None => cond,
            Some((then, otherwise)) => {
                let span = cond.span.to(otherwise.span);
                Expr {
                    kind: ExprKind::Ternary {
                        cond: Box::new(cond),
                        then: Box::new(then),
                        otherwise: Box::new(otherwise),
                    },
                    span,
                }
            }
        })
        .boxed();
    let range_op = choice((
        kw(Keyword::To)
            .ignore_then(ternary.clone())
            .then(kw(Keyword::Exclusive).or_not())
            .map(|(end, excl)| (end, excl.is_none())),
        just(Tok::DotDot)
            .ignore_then(ternary.clone())
            .map(|end| (end, false)),
        just(Tok::DotDotEq)
            .ignore_then(ternary.clone())
            .map(|end| (end, true)),
    ));
    let range = ternary
        .then(range_op.or_not())
        .map_with(|(start, range), e| match range {
            None => start,
            Some((end, inclusive)) => node(
                ExprKind::Range {
                    start: Box::new(start),
                    end: Box::new(end),
                    inclusive,
                },
                e.span(),
            ),
        })
        .boxed();
    range
        .clone()
        .foldl(
            just(Tok::PipeOp).ignore_then(range).repeated(),
            |value, func| {
                let span = value.span.to(func.span);
                Expr {
                    kind: ExprKind::Pipe {
                        value: Box::new(value),
                        func: Box::new(func),
                    },
                    span,
                }
            },
        )
        .labelled(label::EXPR)
        .boxed()
}
