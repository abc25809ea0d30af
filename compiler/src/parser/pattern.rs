//! Binding patterns of `let`, `var`, `const` and `for` (`language.md` 6.1, 7.2).

use super::{PResult, Parser, what};
use crate::ast::{DictPatternField, Ident, ListPatternElem, Pattern};
use crate::lexer::Tok;

impl<'a> Parser<'a> {
    /// `name`, `_`, `{a, b: alias, c = d, ...rest}`, `[x, y = 2, ...tail]`, `(a, b)`.
    pub(crate) fn pattern(&mut self) -> PResult<Pattern> {
        let start = self.span();
        match self.peek() {
            Some(Tok::Ident) => {
                let id = self.ident(what::PATTERN)?;
                Ok(if id.name == "_" {
                    Pattern::Wildcard(id.span)
                } else {
                    Pattern::Ident(id)
                })
            }
            Some(Tok::LBrace | Tok::ClosureBrace) => {
                self.bump();
                self.skip_newlines();
                let mut fields = Vec::new();
                let mut rest = None;
                while !self.at(&Tok::RBrace) {
                    if self.eat(&Tok::Ellipsis) {
                        rest = Some(self.ident(what::VAR_NAME)?);
                        self.skip_newlines();
                        break;
                    }
                    let fstart = self.span();
                    let key = self.key_name()?;
                    let binding = if self.eat(&Tok::Colon) {
                        self.binding_name()?
                    } else {
                        Some(key.clone())
                    };
                    let default = self.pattern_default()?;
                    fields.push(DictPatternField {
                        key,
                        binding,
                        default,
                        span: self.since(fstart),
                    });
                    let comma = self.eat(&Tok::Comma);
                    self.skip_newlines();
                    if !comma {
                        break;
                    }
                }
                self.expect(&Tok::RBrace, "}")?;
                Ok(Pattern::Dict {
                    fields,
                    rest,
                    span: self.since(start),
                })
            }
            Some(Tok::LBracket) => {
                self.bump();
                let mut elems = Vec::new();
                let mut rest = None;
                while !self.at(&Tok::RBracket) {
                    if self.eat(&Tok::Ellipsis) {
                        rest = Some(self.ident(what::VAR_NAME)?);
                        break;
                    }
                    let estart = self.span();
                    let binding = self.binding_name()?;
                    let default = self.pattern_default()?;
                    elems.push(ListPatternElem {
                        binding,
                        default,
                        span: self.since(estart),
                    });
                    if !self.eat(&Tok::Comma) {
                        break;
                    }
                }
                self.expect(&Tok::RBracket, "]")?;
                Ok(Pattern::List {
                    elems,
                    rest,
                    span: self.since(start),
                })
            }
            Some(Tok::LParen) => {
                self.bump();
                let a = self.ident(what::VAR_NAME)?;
                self.expect(&Tok::Comma, ",")?;
                let b = self.ident(what::VAR_NAME)?;
                self.expect(&Tok::RParen, ")")?;
                Ok(Pattern::Pair(a, b, self.since(start)))
            }
            _ => self.fail(what::PATTERN),
        }
    }

    /// `name` or `_` (no binding).
    fn binding_name(&mut self) -> PResult<Option<Ident>> {
        let id = self.ident(what::VAR_NAME)?;
        Ok(if id.name == "_" { None } else { Some(id) })
    }

    fn pattern_default(&mut self) -> PResult<Option<crate::ast::Expr>> {
        if self.eat(&Tok::Assign) {
            Ok(Some(self.expr()?))
        } else {
            Ok(None)
        }
    }
}
