//! Declarations: `fn`, `pipeline`, `struct`, `enum`, `impl`, `interface`, `type`,
//! `tool`, `skill`, `eval_pack`, `import`, `override`, and parameter lists.

use super::{PResult, Parser, what};
use crate::ast::{
    AssocType, Block, EnumDecl, EnumVariant, EvalPackDecl, EvalPackItem, Expr, ExprKind, Field,
    FnDecl, FnSig, Ident, ImplDecl, ImportDecl, InterfaceDecl, Param, PipelineDecl, SkillDecl,
    StmtKind, StructDecl, StructField, ToolDecl, TypeAliasDecl, TypeKind, VariantField, WhereBound,
};
use crate::lexer::{Keyword, Tok};

const DEFAULT_BEFORE_REQUIRED: &str =
    "Required parameter cannot follow a parameter with a default value";

impl<'a> Parser<'a> {
    /// A declaration statement, after any attributes.
    pub(crate) fn declaration(&mut self) -> PResult<StmtKind> {
        let is_pub = self.eat_kw(Keyword::Pub);
        let Some(tok) = self.peek() else {
            return self.fail(what::EXPR);
        };
        Ok(match tok {
            Tok::Kw(Keyword::Fn) | Tok::Ident => {
                let mut f = self.fn_decl()?;
                f.is_pub = is_pub;
                StmtKind::Fn(Box::new(f))
            }
            Tok::Kw(Keyword::Pipeline) => self.pipeline(is_pub)?,
            Tok::Kw(Keyword::Struct) => self.structure(is_pub)?,
            Tok::Kw(Keyword::Enum) => self.enumeration(is_pub)?,
            Tok::Kw(Keyword::Impl) => self.implementation()?,
            Tok::Kw(Keyword::Interface) => self.interface(is_pub)?,
            Tok::Kw(Keyword::Type) => {
                self.bump();
                let name = self.ident(what::NAME)?;
                let generics = self.generic_params()?;
                self.expect(&Tok::Assign, "=")?;
                let ty = self.type_expr()?;
                StmtKind::TypeAlias(TypeAliasDecl {
                    name,
                    is_pub,
                    generics,
                    ty,
                })
            }
            Tok::Kw(Keyword::Tool) => self.tool(is_pub)?,
            Tok::Kw(Keyword::Skill) => self.skill(is_pub)?,
            Tok::Kw(Keyword::EvalPack) => self.eval_pack(is_pub)?,
            Tok::Kw(Keyword::Import) => self.import(is_pub)?,
            Tok::Kw(Keyword::Override) => {
                let start = self.bump();
                let name = self.ident(what::FN_NAME)?;
                let params = self.params()?;
                let body = self.block()?;
                StmtKind::Override(Box::new(FnDecl {
                    name,
                    is_pub,
                    is_gen: false,
                    generics: Vec::new(),
                    params,
                    ret: None,
                    where_bounds: Vec::new(),
                    body,
                    span: self.since(start),
                }))
            }
            _ => return self.fail(what::EXPR),
        })
    }

    /// `[gen] fn name<T>(params) -> R where T: B { body }`
    pub(crate) fn fn_decl(&mut self) -> PResult<FnDecl> {
        let start = self.span();
        let is_gen = self.at_word("gen");
        if is_gen {
            self.bump();
        }
        self.expect(&Tok::Kw(Keyword::Fn), "fn")?;
        let name = self.ident(what::FN_NAME)?;
        let generics = self.generic_params()?;
        let params = self.params()?;
        let ret = self.return_type()?;
        let mut where_bounds = Vec::new();
        if self.at_word("where") {
            self.bump();
            loop {
                let param = self.ident(what::NAME)?;
                self.expect(&Tok::Colon, ":")?;
                let bound = self.type_expr()?;
                where_bounds.push(WhereBound { param, bound });
                if !self.eat(&Tok::Comma) {
                    break;
                }
            }
        }
        let body = self.block()?;
        Ok(FnDecl {
            name,
            is_pub: false,
            is_gen,
            generics,
            params,
            ret,
            where_bounds,
            body,
            span: self.since(start),
        })
    }

    /// `(p, q: T, r = default, ...rest)`; a required parameter after a defaulted one is
    /// reported at the closing parenthesis, in the reference's frame.
    pub(crate) fn params(&mut self) -> PResult<Vec<Param>> {
        self.expect(&Tok::LParen, "(")?;
        let mut params = Vec::new();
        while !self.at(&Tok::RParen) {
            let start = self.span();
            let rest = self.eat(&Tok::Ellipsis);
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
                rest,
                span: self.since(start),
            });
            if !self.eat(&Tok::Comma) {
                break;
            }
        }
        if !self.at(&Tok::RParen) {
            return self.fail(")");
        }
        let mut seen_default = false;
        for p in &params {
            if p.default.is_some() {
                seen_default = true;
            } else if seen_default && !p.rest {
                return self.fail(DEFAULT_BEFORE_REQUIRED);
            }
        }
        self.bump();
        Ok(params)
    }

    fn pipeline(&mut self, is_pub: bool) -> PResult<StmtKind> {
        self.bump();
        let name = self.ident(what::NAME)?;
        self.expect(&Tok::LParen, "(")?;
        let mut params = Vec::new();
        while !self.at(&Tok::RParen) {
            params.push(self.ident(what::PARAM)?);
            if self.eat(&Tok::Colon) {
                self.type_expr()?;
            }
            if !self.eat(&Tok::Comma) {
                break;
            }
        }
        self.expect(&Tok::RParen, ")")?;
        let ret = self.return_type()?;
        let extends = if self.eat_kw(Keyword::Extends) {
            Some(self.ident(what::NAME)?)
        } else {
            None
        };
        let body = self.block()?;
        Ok(StmtKind::Pipeline(Box::new(PipelineDecl {
            name,
            is_pub,
            params,
            ret,
            extends,
            body,
        })))
    }

    /// Items of a declaration body separated by commas, semicolons and/or newlines.
    fn braced_items<T>(
        &mut self,
        mut item: impl FnMut(&mut Self) -> PResult<T>,
    ) -> PResult<Vec<T>> {
        self.expect_lbrace()?;
        self.skip_newlines();
        let mut items = Vec::new();
        while !self.at_close(&Tok::RBrace, "}")? {
            items.push(item(self)?);
            let separated = self.eat(&Tok::Comma) | self.eat(&Tok::Semi);
            let newline = self.eat(&Tok::Newline);
            self.skip_newlines();
            if !separated && !newline && !self.at(&Tok::RBrace) {
                return self.fail("}");
            }
        }
        self.bump();
        Ok(items)
    }

    fn structure(&mut self, is_pub: bool) -> PResult<StmtKind> {
        self.bump();
        let name = self.ident(what::NAME)?;
        let generics = self.generic_params()?;
        let fields = self.braced_items(|p| {
            let start = p.span();
            let name = p.key_name()?;
            let optional = p.eat(&Tok::Question) || p.eat(&Tok::QuestionTernary);
            let ty = if p.eat(&Tok::Colon) {
                Some(p.type_expr()?)
            } else {
                None
            };
            let default = if p.eat(&Tok::Assign) {
                Some(p.expr()?)
            } else {
                None
            };
            Ok(StructField {
                name,
                optional,
                ty,
                default,
                span: p.since(start),
            })
        })?;
        Ok(StmtKind::Struct(StructDecl {
            name,
            is_pub,
            generics,
            fields,
        }))
    }

    fn enumeration(&mut self, is_pub: bool) -> PResult<StmtKind> {
        self.bump();
        let name = self.ident(what::NAME)?;
        let generics = self.generic_params()?;
        let variants = self.braced_items(|p| {
            let start = p.span();
            let name = p.ident(what::NAME)?;
            let fields = if p.eat(&Tok::LParen) {
                let mut fields = Vec::new();
                while !p.at(&Tok::RParen) {
                    let fstart = p.span();
                    let (name, ty) = if matches!(p.peek(), Some(Tok::Ident))
                        && p.peek_at(1) == Some(&Tok::Colon)
                    {
                        let name = p.ident(what::NAME)?;
                        p.bump();
                        (Some(name), Some(p.type_expr()?))
                    } else {
                        let ty = p.type_expr()?;
                        match ty.kind {
                            TypeKind::Named { name, args } if args.is_empty() => (Some(name), None),
                            _ => (None, Some(ty)),
                        }
                    };
                    fields.push(VariantField {
                        name,
                        ty,
                        span: p.since(fstart),
                    });
                    if !p.eat(&Tok::Comma) {
                        break;
                    }
                }
                p.expect(&Tok::RParen, ")")?;
                Some(fields)
            } else {
                None
            };
            Ok(EnumVariant {
                name,
                fields,
                span: p.since(start),
            })
        })?;
        Ok(StmtKind::Enum(EnumDecl {
            name,
            is_pub,
            generics,
            variants,
        }))
    }

    fn implementation(&mut self) -> PResult<StmtKind> {
        self.bump();
        let target = self.ident(what::NAME)?;
        let type_args = self.type_args()?;
        let methods = self.braced_items(|p| {
            p.attributes_skipped()?;
            p.eat_kw(Keyword::Pub);
            p.fn_decl()
        })?;
        Ok(StmtKind::Impl(ImplDecl {
            target,
            type_args,
            methods,
        }))
    }

    /// Attributes on impl methods are accepted and dropped (they carry no meaning).
    fn attributes_skipped(&mut self) -> PResult<()> {
        while self.eat(&Tok::At) {
            self.ident(what::NAME)?;
            if self.at(&Tok::LParen) {
                self.call_args()?;
            }
            self.skip_newlines();
        }
        Ok(())
    }

    fn interface(&mut self, is_pub: bool) -> PResult<StmtKind> {
        self.bump();
        let name = self.ident(what::NAME)?;
        let generics = self.generic_params()?;
        enum Member {
            Assoc(AssocType),
            Method(FnSig),
        }
        let members = self.braced_items(|p| {
            let start = p.span();
            if p.eat_kw(Keyword::Type) {
                let name = p.ident(what::NAME)?;
                let default = if p.eat(&Tok::Assign) {
                    Some(p.type_expr()?)
                } else {
                    None
                };
                return Ok(Member::Assoc(AssocType {
                    name,
                    default,
                    span: p.since(start),
                }));
            }
            p.expect(&Tok::Kw(Keyword::Fn), "fn")?;
            let name = p.ident(what::FN_NAME)?;
            let generics = p.generic_params()?;
            let params = p.params()?;
            let ret = p.return_type()?;
            Ok(Member::Method(FnSig {
                name,
                generics,
                params,
                ret,
                span: p.since(start),
            }))
        })?;
        let mut assoc_types = Vec::new();
        let mut methods = Vec::new();
        for m in members {
            match m {
                Member::Assoc(a) => assoc_types.push(a),
                Member::Method(s) => methods.push(s),
            }
        }
        Ok(StmtKind::Interface(InterfaceDecl {
            name,
            is_pub,
            generics,
            assoc_types,
            methods,
        }))
    }

    /// `tool name(params) -> R { description "..." SEP body }`
    fn tool(&mut self, is_pub: bool) -> PResult<StmtKind> {
        self.bump();
        let name = self.ident(what::NAME)?;
        let params = self.params()?;
        let ret = self.return_type()?;
        let open = self.expect_lbrace()?;
        self.skip_newlines();
        let mut description = None;
        if self.at_word("description") {
            let saved = self.pos;
            self.bump();
            self.skip_newlines();
            match self.peek() {
                Some(Tok::Str | Tok::RawStr) => {
                    let text = self.string_name();
                    let span = self.bump();
                    description = Some(Expr {
                        kind: ExprKind::Str(text),
                        span,
                    });
                    match self.peek() {
                        None | Some(Tok::RBrace) => {}
                        Some(Tok::Newline | Tok::Semi) => {
                            self.bump();
                        }
                        _ => return self.fail(what::TOOL_SEP),
                    }
                }
                _ => self.pos = saved,
            }
        }
        let body: Block = self.deep(|p| p.block_rest(open, what::TOOL_SEP))?;
        Ok(StmtKind::Tool(Box::new(ToolDecl {
            name,
            is_pub,
            params,
            ret,
            description,
            body,
        })))
    }

    /// Items of a `skill` / `eval_pack` body, each followed by a separator.
    fn separated_items<T>(
        &mut self,
        sep: &'static str,
        mut item: impl FnMut(&mut Self) -> PResult<T>,
    ) -> PResult<Vec<T>> {
        self.expect_lbrace()?;
        self.skip_newlines();
        let mut items = Vec::new();
        while !self.at_close(&Tok::RBrace, "}")? {
            items.push(item(self)?);
            match self.peek() {
                Some(Tok::RBrace) => {}
                Some(Tok::Newline) => {
                    self.bump();
                }
                Some(Tok::Semi) => {
                    self.bump();
                    self.skip_newlines();
                }
                _ => return self.fail(sep),
            }
        }
        self.bump();
        Ok(items)
    }

    /// `skill NAME { field expr SEP ... }`
    fn skill(&mut self, is_pub: bool) -> PResult<StmtKind> {
        self.bump();
        let name = self.decl_name()?;
        let fields = self.separated_items(what::SKILL_SEP, |p| {
            let start = p.span();
            let name = p.member_name()?;
            let value = p.expr()?;
            Ok(Field {
                name,
                value,
                span: p.since(start),
            })
        })?;
        Ok(StmtKind::Skill(SkillDecl {
            name,
            is_pub,
            fields,
        }))
    }

    /// A declaration name: an identifier, or a string used as one.
    fn decl_name(&mut self) -> PResult<Ident> {
        match self.peek() {
            Some(Tok::Str) => {
                let name = self.string_text();
                let span = self.bump();
                Ok(Ident {
                    name: crate::ast::name_of(&name),
                    span,
                })
            }
            _ => self.ident(what::NAME),
        }
    }

    /// `eval_pack NAME ["id"] { ... }` or `eval_pack "id" { ... }`; items are
    /// `name: expr` fields, one `summarize { ... }`, and statements.
    fn eval_pack(&mut self, is_pub: bool) -> PResult<StmtKind> {
        self.bump();
        let (name, id) = match self.peek() {
            Some(Tok::Str) => {
                let name = self.string_text();
                let span = self.bump();
                (
                    Ident {
                        name: name.as_str().into(),
                        span,
                    },
                    Some(name),
                )
            }
            _ => {
                let name = self.ident(what::NAME)?;
                let id = match self.peek() {
                    Some(Tok::Str) => {
                        let id = self.string_text();
                        self.bump();
                        Some(id)
                    }
                    _ => None,
                };
                (name, id)
            }
        };
        let items = self.separated_items(what::EVAL_SEP, |p| {
            let start = p.span();
            if matches!(p.peek(), Some(Tok::Ident | Tok::Kw(_)))
                && p.peek_at(1) == Some(&Tok::Colon)
            {
                let name = p.key_name()?;
                p.bump();
                let value = p.expr()?;
                return Ok(EvalPackItem::Field(Field {
                    name,
                    value,
                    span: p.since(start),
                }));
            }
            if p.at_word("summarize")
                && matches!(p.peek_at(1), Some(Tok::LBrace | Tok::ClosureBrace))
            {
                p.bump();
                return Ok(EvalPackItem::Summarize(p.block()?));
            }
            let stmt = p.statement(super::stmt::Context::Block)?;
            Ok(EvalPackItem::Stmt(Box::new(stmt)))
        })?;
        Ok(StmtKind::EvalPack(EvalPackDecl {
            name,
            id,
            is_pub,
            items,
        }))
    }

    /// `import "path"` or `import { a, b } from "path"`.
    fn import(&mut self, is_pub: bool) -> PResult<StmtKind> {
        self.bump();
        let names = if self.at_lbrace() {
            self.bump();
            self.skip_newlines();
            let mut names = Vec::new();
            while !self.at(&Tok::RBrace) {
                names.push(self.ident(what::NAME)?);
                self.eat(&Tok::Comma);
                self.skip_newlines();
            }
            self.bump();
            self.expect(&Tok::Kw(Keyword::From), "from")?;
            Some(names)
        } else {
            None
        };
        match self.peek() {
            Some(Tok::Str | Tok::RawStr) => {
                let path = self.string_text();
                let path_span = self.bump();
                Ok(StmtKind::Import(ImportDecl {
                    is_pub,
                    names,
                    path,
                    path_span,
                }))
            }
            _ => self.fail("import path"),
        }
    }
}
