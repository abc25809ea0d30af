//! Shared pieces of the grammar: the input and error types, token helpers, labels, and
//! the type-annotation language (which does not depend on expressions).

use std::rc::Rc;

use chumsky::input::IterInput;
use chumsky::prelude::*;

use crate::ast::{GenericParam, Ident, ShapeField, Span, TypeExpr, TypeKind, Variance};
use crate::lexer::{Keyword, Tok};

/// Laid-out tokens shared behind an `Rc`, so that the parser's backtracking (which clones
/// the cursor) costs nothing, and so that the input owns its data: the grammar can then be
/// built once per thread and reused for every parse.
#[derive(Clone)]
pub(crate) struct TokIter {
    tokens: Rc<[(Tok, SimpleSpan)]>,
    pos: usize,
}

impl TokIter {
    pub(crate) fn new(tokens: Rc<[(Tok, SimpleSpan)]>) -> Self {
        TokIter { tokens, pos: 0 }
    }
}

impl Iterator for TokIter {
    type Item = (Tok, SimpleSpan);

    fn next(&mut self) -> Option<Self::Item> {
        let item = self.tokens.get(self.pos)?.clone();
        self.pos += 1;
        Some(item)
    }
}

/// The parser's input: laid-out tokens with their spans.
pub(crate) type In = IterInput<TokIter, SimpleSpan>;
pub(crate) type Err<'t> = extra::Err<Rich<'t, Tok, SimpleSpan>>;
pub(crate) type BoxedP<'t, O> = Boxed<'t, 't, In, O, Err<'t>>;

/// Labels name what was expected, in the reference's words.
pub(crate) mod label {
    pub const EXPR: &str = "expression";
    pub const STMT_SEP: &str = "statement separator (`;` or newline)";
    pub const TOP_SEP: &str = "top-level item separator (`;` or newline)";
    pub const TOOL_SEP: &str = "tool body item separator (`;` or newline)";
    pub const SKILL_SEP: &str = "skill field separator (`;` or newline)";
    pub const EVAL_SEP: &str = "eval_pack item separator (`;` or newline)";
    pub const PATTERN: &str = "variable name or destructuring pattern";
    pub const NAME: &str = "identifier";
    pub const FN_NAME: &str = "function name";
    pub const PARAM: &str = "parameter name";
    pub const MEMBER: &str = "property or method name";
    pub const DICT_KEY: &str = "dict key";
    pub const TYPE: &str = "type";
    pub const BLOCK: &str = "{";
}

/// Labels that describe a name: a reserved keyword found in their place is printed as
/// `'tool' (reserved keyword)`.
pub(crate) fn label_wants_name(label: &str) -> bool {
    matches!(
        label,
        label::PATTERN | label::NAME | label::FN_NAME | label::PARAM | label::MEMBER
    )
}

pub(crate) fn sp(s: SimpleSpan) -> Span {
    Span::new(s.start, s.end)
}

pub(crate) fn kw<'t>(k: Keyword) -> impl Parser<'t, In, Tok, Err<'t>> + Clone {
    just(Tok::Kw(k))
}

/// An identifier token.
pub(crate) fn ident<'t>() -> impl Parser<'t, In, Ident, Err<'t>> + Clone {
    select! { Tok::Ident(name) = e => Ident { name, span: sp(e.span()) } }
}

/// A contextual word such as `each`, `with` or `description` (an identifier token with
/// that exact text).
pub(crate) fn word<'t>(w: &'static str) -> impl Parser<'t, In, Span, Err<'t>> + Clone {
    select! { Tok::Ident(name) = e if name == w => sp(e.span()) }
}

/// A member name after `.`: identifiers and every keyword.
pub(crate) fn member_name<'t>() -> impl Parser<'t, In, Ident, Err<'t>> + Clone {
    select! {
        Tok::Ident(name) = e => Ident { name, span: sp(e.span()) },
        Tok::Kw(k) = e => Ident { name: k.as_str().to_string(), span: sp(e.span()) },
    }
    .labelled(label::MEMBER)
}

/// A bare dict key or shape field name: identifiers and most keywords.
pub(crate) fn key_name<'t>() -> impl Parser<'t, In, Ident, Err<'t>> + Clone {
    select! {
        Tok::Ident(name) = e => Ident { name, span: sp(e.span()) },
        Tok::Kw(k) = e if k.allowed_as_key() => Ident { name: k.as_str().to_string(), span: sp(e.span()) },
    }
}

/// Any run of newline tokens (the layout pass collapses runs into one).
pub(crate) fn newlines<'t>() -> impl Parser<'t, In, (), Err<'t>> + Clone {
    just(Tok::Newline).repeated()
}

/// Either kind of `{`.
pub(crate) fn lbrace<'t>() -> impl Parser<'t, In, Tok, Err<'t>> + Clone {
    select! { t @ (Tok::LBrace | Tok::ClosureBrace) => t }.labelled(label::BLOCK)
}

/// A statement separator: a newline, or `;` followed by optional newlines.
pub(crate) fn separator<'t>(what: &'static str) -> impl Parser<'t, In, (), Err<'t>> + Clone {
    just(Tok::Semi)
        .ignore_then(newlines())
        .or(just(Tok::Newline).ignored())
        .labelled(what)
}

/// `<T, in U, out V>`
pub(crate) fn generic_params<'t>() -> impl Parser<'t, In, Vec<GenericParam>, Err<'t>> + Clone {
    let variance = choice((
        kw(Keyword::In).to(Variance::In),
        word("out")
            .then_ignore(select! { Tok::Ident(_) => () }.rewind())
            .to(Variance::Out),
    ))
    .or_not()
    .map(|v| v.unwrap_or(Variance::Invariant));
    variance
        .then(ident().labelled(label::NAME))
        .map(|(variance, name)| GenericParam { name, variance })
        .separated_by(just(Tok::Comma))
        .allow_trailing()
        .collect()
        .delimited_by(just(Tok::Lt), just(Tok::Gt))
        .or_not()
        .map(Option::unwrap_or_default)
}

/// The type-annotation language (`language.md` 10.2).
pub(crate) fn type_expr<'t>() -> BoxedP<'t, TypeExpr> {
    recursive(|ty: Recursive<dyn Parser<'t, In, TypeExpr, Err<'t>>>| {
        let args = ty
            .clone()
            .separated_by(just(Tok::Comma))
            .allow_trailing()
            .collect::<Vec<_>>()
            .delimited_by(just(Tok::Lt), just(Tok::Gt));
        let named = select! {
            Tok::Ident(name) = e => Ident { name, span: sp(e.span()) },
            Tok::Kw(Keyword::Nil) = e => Ident { name: "nil".into(), span: sp(e.span()) },
            Tok::Kw(Keyword::True) = e => Ident { name: "bool".into(), span: sp(e.span()) },
            Tok::Kw(Keyword::False) = e => Ident { name: "bool".into(), span: sp(e.span()) },
        }
        .then(args.or_not())
        .map(|(name, args)| TypeKind::Named {
            name,
            args: args.unwrap_or_default(),
        });
        let list = ty
            .clone()
            .delimited_by(just(Tok::LBracket), just(Tok::RBracket))
            .map(|t| TypeKind::List(Box::new(t)));
        let field = key_name()
            .then(just(Tok::Question).or(just(Tok::QuestionTernary)).or_not())
            .then_ignore(just(Tok::Colon))
            .then(ty.clone())
            .map_with(|((name, opt), ty), e| ShapeField {
                name: name.name,
                optional: opt.is_some(),
                ty,
                span: sp(e.span()),
            });
        let field_sep = just(Tok::Comma)
            .then(newlines())
            .ignored()
            .or(just(Tok::Newline).ignored());
        let shape = lbrace()
            .ignore_then(newlines())
            .ignore_then(
                field
                    .separated_by(field_sep)
                    .allow_trailing()
                    .collect::<Vec<_>>(),
            )
            .then_ignore(newlines())
            .then_ignore(just(Tok::RBrace))
            .map(TypeKind::Shape);
        let fn_type = kw(Keyword::Fn)
            .ignore_then(
                ty.clone()
                    .separated_by(just(Tok::Comma))
                    .allow_trailing()
                    .collect::<Vec<_>>()
                    .delimited_by(just(Tok::LParen), just(Tok::RParen)),
            )
            .then(just(Tok::Arrow).ignore_then(ty.clone()).or_not())
            .map(|(params, ret)| TypeKind::Fn {
                params,
                ret: ret.map(Box::new),
            });
        let literal = select! {
            Tok::Str(s) => TypeKind::StrLit(s),
            Tok::RawStr(s) => TypeKind::StrLit(s),
            Tok::Int(n) => TypeKind::IntLit(n),
        };
        let negative = just(Tok::Minus)
            .ignore_then(select! { Tok::Int(n) => TypeKind::IntLit(n.wrapping_neg()) });
        let paren = ty
            .clone()
            .delimited_by(just(Tok::LParen), just(Tok::RParen))
            .map(|t| t.kind);
        let atom = choice((fn_type, named, list, shape, literal, negative, paren))
            .map_with(|kind, e| TypeExpr {
                kind,
                span: sp(e.span()),
            })
            .labelled(label::TYPE);
        atom.separated_by(just(Tok::Bar))
            .at_least(1)
            .collect::<Vec<_>>()
            .map_with(|mut parts, e| {
                if parts.len() == 1 {
                    parts.pop().unwrap_or(TypeExpr {
                        kind: TypeKind::Error,
                        span: sp(e.span()),
                    })
                } else {
                    TypeExpr {
                        kind: TypeKind::Union(parts),
                        span: sp(e.span()),
                    }
                }
            })
    })
    .boxed()
}

/// Stack that must remain before a recursive grammar rule runs; below it, a new segment
/// is allocated. Generous because unoptimised builds use large frames.
const RED_ZONE: usize = 1024 * 1024;
const STACK_SEGMENT: usize = 8 * 1024 * 1024;

/// Wraps a recursive rule so that deep (but permitted) nesting grows the stack on the
/// heap instead of overflowing it, whatever the caller's thread stack size.
pub(crate) fn deep<'t, O: 't>(parser: BoxedP<'t, O>) -> BoxedP<'t, O> {
    custom(move |inp| stacker::maybe_grow(RED_ZONE, STACK_SEGMENT, || inp.parse(&parser))).boxed()
}
