//! The type-annotation language (`language.md` 10.2) and generic parameter lists.

use super::{PResult, Parser, what};
use crate::ast::{GenericParam, Ident, ShapeField, TypeExpr, TypeKind, Variance};
use crate::lexer::{Keyword, Tok};

/// A builtin signature as written: `fn(name: T, opt?: T, ...rest: T) -> R`.
#[derive(Clone, Debug, PartialEq)]
pub struct SignatureSyntax {
    pub params: Vec<SignatureParam>,
    /// `None` when the signature has no `-> R`.
    pub ret: Option<TypeExpr>,
}

/// One parameter of a [`SignatureSyntax`].
#[derive(Clone, Debug, PartialEq)]
pub struct SignatureParam {
    pub name: String,
    /// `name?: T`
    pub optional: bool,
    /// `...name: T`
    pub rest: bool,
    pub ty: TypeExpr,
}

impl<'a> Parser<'a> {
    /// `-> T` after a parameter list, if present.
    pub(crate) fn return_type(&mut self) -> PResult<Option<TypeExpr>> {
        if self.eat(&Tok::Arrow) {
            Ok(Some(self.type_expr()?))
        } else {
            Ok(None)
        }
    }

    /// `A | B | ...`
    pub(crate) fn type_expr(&mut self) -> PResult<TypeExpr> {
        self.deep(|p| {
            let first = p.type_atom()?;
            if !p.at(&Tok::Bar) {
                return Ok(first);
            }
            let start = first.span;
            let mut parts = vec![first];
            while p.eat(&Tok::Bar) {
                parts.push(p.type_atom()?);
            }
            Ok(TypeExpr {
                kind: TypeKind::Union(parts),
                span: p.since(start),
            })
        })
    }

    /// `<T, U>` after a name in type position; empty when absent.
    pub(crate) fn type_args(&mut self) -> PResult<Vec<TypeExpr>> {
        let mut args = Vec::new();
        if self.eat(&Tok::Lt) {
            while !self.at(&Tok::Gt) {
                args.push(self.type_expr()?);
                if !self.eat(&Tok::Comma) {
                    break;
                }
            }
            self.expect(&Tok::Gt, ">")?;
        }
        Ok(args)
    }

    fn type_atom(&mut self) -> PResult<TypeExpr> {
        let start = self.span();
        let kind = match self.peek() {
            Some(Tok::Ident) => {
                let name = self.ident(what::TYPE)?;
                let args = self.type_args()?;
                TypeKind::Named { name, args }
            }
            Some(Tok::Kw(k @ (Keyword::Nil | Keyword::True | Keyword::False))) => {
                let span = self.bump();
                let name = if *k == Keyword::Nil { "nil" } else { "bool" };
                TypeKind::Named {
                    name: Ident {
                        name: name.into(),
                        span,
                    },
                    args: Vec::new(),
                }
            }
            Some(Tok::Kw(Keyword::Fn)) => {
                self.bump();
                self.expect(&Tok::LParen, "(")?;
                let mut params = Vec::new();
                while !self.at(&Tok::RParen) {
                    // `name:` before a parameter type, in builtin signatures only.
                    if self.labelled_fn_params
                        && matches!(self.peek(), Some(Tok::Ident))
                        && matches!(self.peek_at(1), Some(Tok::Colon))
                    {
                        self.bump();
                        self.bump();
                    }
                    params.push(self.type_expr()?);
                    if !self.eat(&Tok::Comma) {
                        break;
                    }
                }
                self.expect(&Tok::RParen, ")")?;
                let ret = self.return_type()?.map(Box::new);
                TypeKind::Fn { params, ret }
            }
            Some(Tok::LBracket) => {
                self.bump();
                let inner = self.type_expr()?;
                self.expect(&Tok::RBracket, "]")?;
                TypeKind::List(Box::new(inner))
            }
            Some(Tok::LBrace | Tok::ClosureBrace) => {
                self.bump();
                self.skip_newlines();
                let mut fields = Vec::new();
                while !self.at(&Tok::RBrace) {
                    let fstart = self.span();
                    let name = self.key_name()?;
                    let optional = self.eat(&Tok::Question) || self.eat(&Tok::QuestionTernary);
                    self.expect(&Tok::Colon, ":")?;
                    let ty = self.type_expr()?;
                    fields.push(ShapeField {
                        name: name.name.to_string(),
                        optional,
                        ty,
                        span: self.since(fstart),
                    });
                    let comma = self.eat(&Tok::Comma);
                    let newline = self.eat(&Tok::Newline);
                    self.skip_newlines();
                    if !comma && !newline {
                        break;
                    }
                }
                self.expect(&Tok::RBrace, "}")?;
                TypeKind::Shape(fields)
            }
            Some(Tok::Str | Tok::RawStr) => {
                let text = self.string_text();
                self.bump();
                TypeKind::StrLit(text)
            }
            Some(Tok::Int) => {
                let n = self.int_value();
                self.bump();
                TypeKind::IntLit(n)
            }
            Some(Tok::Minus) if matches!(self.peek_at(1), Some(Tok::Int)) => {
                self.bump();
                let n = self.int_value();
                self.bump();
                TypeKind::IntLit(n.wrapping_neg())
            }
            Some(Tok::LParen) => {
                self.bump();
                let inner = self.type_expr()?;
                self.expect(&Tok::RParen, ")")?;
                inner.kind
            }
            _ => return self.fail(what::TYPE),
        };
        Ok(TypeExpr {
            kind,
            span: self.since(start),
        })
    }

    /// `fn(name: T, opt?: T, ...rest: T) -> R` (see [`super::parse_signature`]).
    pub(crate) fn signature(&mut self) -> PResult<SignatureSyntax> {
        if !self.eat_kw(Keyword::Fn) {
            return self.fail("fn");
        }
        self.expect(&Tok::LParen, "(")?;
        let mut params = Vec::new();
        while !self.at_close(&Tok::RParen, ")")? {
            let rest = self.eat(&Tok::Ellipsis);
            let name = self.key_name()?.name;
            let optional = self.eat(&Tok::Question) || self.eat(&Tok::QuestionTernary);
            self.expect(&Tok::Colon, ":")?;
            let ty = self.type_expr()?;
            params.push(SignatureParam {
                name: name.to_string(),
                optional,
                rest,
                ty,
            });
            if !self.eat(&Tok::Comma) {
                break;
            }
        }
        self.expect(&Tok::RParen, ")")?;
        let ret = self.return_type()?;
        Ok(SignatureSyntax { params, ret })
    }

    /// `<T, in U, out V>` in a declaration; empty when absent.
    pub(crate) fn generic_params(&mut self) -> PResult<Vec<GenericParam>> {
        let mut params = Vec::new();
        if !self.eat(&Tok::Lt) {
            return Ok(params);
        }
        while !self.at(&Tok::Gt) {
            let variance = if self.eat_kw(Keyword::In) {
                Variance::In
            } else if self.at_word("out") && matches!(self.peek_at(1), Some(Tok::Ident)) {
                self.bump();
                Variance::Out
            } else {
                Variance::Invariant
            };
            let name = self.ident(what::NAME)?;
            params.push(GenericParam { name, variance });
            if !self.eat(&Tok::Comma) {
                break;
            }
        }
        self.expect(&Tok::Gt, ">")?;
        Ok(params)
    }
}
