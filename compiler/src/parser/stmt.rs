//! Statements, declarations, binding patterns, and statement lists with error recovery.

use chumsky::prelude::*;

use super::common::{
    BoxedP, Err, In, generic_params, ident, key_name, kw, label, lbrace, member_name, newlines,
    separator, sp, word,
};
use super::expr::{Handles, call_args};
use crate::ast::{
    AssignOp, AssocType, Attribute, BindingKind, Block, DictPatternField, EnumDecl, EnumVariant,
    EvalPackDecl, EvalPackItem, Expr, ExprKind, Field, FnDecl, FnSig, Ident, ImplDecl, ImportDecl,
    InterfaceDecl, ListPatternElem, Param, Pattern, PipelineDecl, SkillDecl, Stmt, StmtKind,
    StructDecl, StructField, ToolDecl, TypeAliasDecl, TypeKind, VariantField, WhereBound,
};
use crate::lexer::{Keyword, Tok};

fn stmt_node(kind: StmtKind, span: SimpleSpan) -> Stmt {
    Stmt {
        kind,
        attrs: Vec::new(),
        span: sp(span),
    }
}

/// `name` or `_` in a pattern position.
fn binding_name<'t>() -> impl Parser<'t, In, Option<Ident>, Err<'t>> + Clone {
    ident().map(|id| if id.name == "_" { None } else { Some(id) })
}

/// Binding patterns: names, `_`, dict and list destructuring, `(a, b)`.
pub(crate) fn pattern<'t>(h: &Handles<'t>) -> BoxedP<'t, Pattern> {
    let default = just(Tok::Assign).ignore_then(h.expr.clone()).or_not();
    let rest = just(Tok::Ellipsis).ignore_then(ident());
    let comma = just(Tok::Comma).then(newlines()).ignored();

    let dict_field = key_name()
        .then(just(Tok::Colon).ignore_then(binding_name()).or_not())
        .then(default.clone())
        .map_with(|((key, alias), default), e| DictPatternField {
            binding: match alias {
                Some(alias) => alias,
                None => Some(key.clone()),
            },
            key,
            default,
            span: sp(e.span()),
        });
    enum DictPart {
        Field(DictPatternField),
        Rest(Ident),
    }
    let dict = lbrace()
        .ignore_then(newlines())
        .ignore_then(
            rest.clone()
                .map(DictPart::Rest)
                .or(dict_field.map(DictPart::Field))
                .separated_by(comma.clone())
                .allow_trailing()
                .collect::<Vec<_>>(),
        )
        .then_ignore(newlines())
        .then_ignore(just(Tok::RBrace))
        .map_with(|parts, e| {
            let mut fields = Vec::new();
            let mut rest = None;
            for part in parts {
                match part {
                    DictPart::Field(f) => fields.push(f),
                    DictPart::Rest(r) => rest = Some(r),
                }
            }
            Pattern::Dict {
                fields,
                rest,
                span: sp(e.span()),
            }
        });
    enum ListPart {
        Elem(ListPatternElem),
        Rest(Ident),
    }
    let elem = binding_name()
        .then(default)
        .map_with(|(binding, default), e| ListPatternElem {
            binding,
            default,
            span: sp(e.span()),
        });
    let list = rest
        .map(ListPart::Rest)
        .or(elem.map(ListPart::Elem))
        .separated_by(comma)
        .allow_trailing()
        .collect::<Vec<_>>()
        .delimited_by(just(Tok::LBracket), just(Tok::RBracket))
        .map_with(|parts, e| {
            let mut elems = Vec::new();
            let mut rest = None;
            for part in parts {
                match part {
                    ListPart::Elem(el) => elems.push(el),
                    ListPart::Rest(r) => rest = Some(r),
                }
            }
            Pattern::List {
                elems,
                rest,
                span: sp(e.span()),
            }
        });
    let pair = ident()
        .then_ignore(just(Tok::Comma))
        .then(ident())
        .delimited_by(just(Tok::LParen), just(Tok::RParen))
        .map_with(|(a, b), e| Pattern::Pair(a, b, sp(e.span())));
    let name = ident().map(|id| {
        if id.name == "_" {
            Pattern::Wildcard(id.span)
        } else {
            Pattern::Ident(id)
        }
    });
    choice((name, dict, list, pair))
        .labelled(label::PATTERN)
        .boxed()
}

/// `(params)` of a `fn`, with the required-after-default check.
pub(crate) fn params<'t>(h: &Handles<'t>) -> BoxedP<'t, Vec<Param>> {
    let param = just(Tok::Ellipsis)
        .or_not()
        .then(ident().labelled(label::PARAM))
        .then(just(Tok::Colon).ignore_then(h.ty.clone()).or_not())
        .then(just(Tok::Assign).ignore_then(h.expr.clone()).or_not())
        .map_with(|(((rest, name), ty), default), e| Param {
            name,
            ty,
            default,
            rest: rest.is_some(),
            span: sp(e.span()),
        });
    just(Tok::LParen)
        .ignore_then(
            param
                .separated_by(just(Tok::Comma))
                .allow_trailing()
                .collect::<Vec<_>>(),
        )
        .then(just(Tok::RParen).map_with(|_, e| e.span()))
        .validate(|(params, close), _, emitter| {
            let mut seen_default = false;
            for p in &params {
                if p.default.is_some() {
                    seen_default = true;
                } else if seen_default && !p.rest {
                    emitter.emit(Rich::custom(
                        close,
                        "Required parameter cannot follow a parameter with a default value",
                    ));
                    break;
                }
            }
            params
        })
        .boxed()
}

fn where_bounds<'t>(h: &Handles<'t>) -> BoxedP<'t, Vec<WhereBound>> {
    word("where")
        .ignore_then(
            ident()
                .then_ignore(just(Tok::Colon))
                .then(h.ty.clone())
                .map(|(param, bound)| WhereBound { param, bound })
                .separated_by(just(Tok::Comma))
                .at_least(1)
                .collect::<Vec<_>>(),
        )
        .or_not()
        .map(Option::unwrap_or_default)
        .boxed()
}

/// `[gen] fn name<T>(params) -> R where ... { body }`
fn fn_decl<'t>(h: &Handles<'t>) -> BoxedP<'t, FnDecl> {
    word("gen")
        .or_not()
        .then_ignore(kw(Keyword::Fn))
        .then(ident().labelled(label::FN_NAME))
        .then(generic_params())
        .then(h.params.clone())
        .then(just(Tok::Arrow).ignore_then(h.ty.clone()).or_not())
        .then(where_bounds(h))
        .then(h.block.clone())
        .map_with(
            |((((((is_gen, name), generics), params), ret), where_bounds), body), e| FnDecl {
                name,
                is_pub: false,
                is_gen: is_gen.is_some(),
                generics,
                params,
                ret,
                where_bounds,
                body,
                span: sp(e.span()),
            },
        )
        .boxed()
}

/// Separator inside declaration bodies: commas and/or newlines.
fn item_sep<'t>() -> impl Parser<'t, In, (), Err<'t>> + Clone {
    choice((
        just(Tok::Comma).then(newlines()).ignored(),
        just(Tok::Semi).then(newlines()).ignored(),
        just(Tok::Newline).ignored(),
    ))
}

/// A `{ item (sep item)* }` body.
fn braced_items<'t, O: 't>(
    item: impl Parser<'t, In, O, Err<'t>> + Clone + 't,
) -> BoxedP<'t, Vec<O>> {
    lbrace()
        .ignore_then(newlines())
        .ignore_then(
            item.separated_by(item_sep())
                .allow_trailing()
                .collect::<Vec<_>>(),
        )
        .then_ignore(newlines())
        .then_ignore(just(Tok::RBrace))
        .boxed()
}

fn declarations<'t>(h: &Handles<'t>, top: bool) -> BoxedP<'t, StmtKind> {
    let expr = h.expr.clone();
    let ty = h.ty.clone();
    let is_pub = kw(Keyword::Pub).or_not().map(|p| p.is_some());

    let function = is_pub.clone().then(fn_decl(h)).map(|(is_pub, mut f)| {
        f.is_pub = is_pub;
        StmtKind::Fn(Box::new(f))
    });

    let struct_field = key_name()
        .then(just(Tok::Question).or_not())
        .then(just(Tok::Colon).ignore_then(ty.clone()).or_not())
        .then(just(Tok::Assign).ignore_then(expr.clone()).or_not())
        .map_with(|(((name, opt), ty), default), e| StructField {
            name,
            optional: opt.is_some(),
            ty,
            default,
            span: sp(e.span()),
        });
    let structure = is_pub
        .clone()
        .then_ignore(kw(Keyword::Struct))
        .then(ident().labelled(label::NAME))
        .then(generic_params())
        .then(braced_items(struct_field))
        .map(|(((is_pub, name), generics), fields)| {
            StmtKind::Struct(StructDecl {
                name,
                is_pub,
                generics,
                fields,
            })
        });

    let variant_field = choice((
        ident()
            .then_ignore(just(Tok::Colon))
            .then(ty.clone())
            .map(|(name, ty)| (Some(name), Some(ty))),
        ty.clone().map(|ty| match ty.kind {
            TypeKind::Named { name, args } if args.is_empty() => (Some(name), None),
            _ => (None, Some(ty)),
        }),
    ))
    .map_with(|(name, ty), e| VariantField {
        name,
        ty,
        span: sp(e.span()),
    });
    let variant = ident()
        .then(
            variant_field
                .separated_by(just(Tok::Comma))
                .allow_trailing()
                .collect::<Vec<_>>()
                .delimited_by(just(Tok::LParen), just(Tok::RParen))
                .or_not(),
        )
        .map_with(|(name, fields), e| EnumVariant {
            name,
            fields,
            span: sp(e.span()),
        });
    let enumeration = is_pub
        .clone()
        .then_ignore(kw(Keyword::Enum))
        .then(ident().labelled(label::NAME))
        .then(generic_params())
        .then(braced_items(variant))
        .map(|(((is_pub, name), generics), variants)| {
            StmtKind::Enum(EnumDecl {
                name,
                is_pub,
                generics,
                variants,
            })
        });

    let type_args = ty
        .clone()
        .separated_by(just(Tok::Comma))
        .collect::<Vec<_>>()
        .delimited_by(just(Tok::Lt), just(Tok::Gt))
        .or_not()
        .map(Option::unwrap_or_default);
    let method = kw(Keyword::Pub).or_not().ignore_then(fn_decl(h));
    let implementation = kw(Keyword::Impl)
        .ignore_then(ident().labelled(label::NAME))
        .then(type_args)
        .then(braced_items(method))
        .map(|((target, type_args), methods)| {
            StmtKind::Impl(ImplDecl {
                target,
                type_args,
                methods,
            })
        });

    enum Member {
        Assoc(AssocType),
        Method(FnSig),
    }
    let assoc = kw(Keyword::Type)
        .ignore_then(ident())
        .then(just(Tok::Assign).ignore_then(ty.clone()).or_not())
        .map_with(|(name, default), e| {
            Member::Assoc(AssocType {
                name,
                default,
                span: sp(e.span()),
            })
        });
    let sig = kw(Keyword::Fn)
        .ignore_then(ident().labelled(label::FN_NAME))
        .then(generic_params())
        .then(h.params.clone())
        .then(just(Tok::Arrow).ignore_then(ty.clone()).or_not())
        .map_with(|(((name, generics), params), ret), e| {
            Member::Method(FnSig {
                name,
                generics,
                params,
                ret,
                span: sp(e.span()),
            })
        });
    let interface = is_pub
        .clone()
        .then_ignore(kw(Keyword::Interface))
        .then(ident().labelled(label::NAME))
        .then(generic_params())
        .then(braced_items(assoc.or(sig)))
        .map(|(((is_pub, name), generics), members)| {
            let mut assoc_types = Vec::new();
            let mut methods = Vec::new();
            for m in members {
                match m {
                    Member::Assoc(a) => assoc_types.push(a),
                    Member::Method(s) => methods.push(s),
                }
            }
            StmtKind::Interface(InterfaceDecl {
                name,
                is_pub,
                generics,
                assoc_types,
                methods,
            })
        });

    let alias = is_pub
        .clone()
        .then_ignore(kw(Keyword::Type))
        .then(ident().labelled(label::NAME))
        .then(generic_params())
        .then_ignore(just(Tok::Assign))
        .then(ty.clone())
        .map(|(((is_pub, name), generics), ty)| {
            StmtKind::TypeAlias(TypeAliasDecl {
                name,
                is_pub,
                generics,
                ty,
            })
        });

    let description = word("description")
        .ignore_then(expr.clone())
        .then_ignore(separator(label::TOOL_SEP).or(just(Tok::RBrace).rewind().ignored()));
    let tool = is_pub
        .clone()
        .then_ignore(kw(Keyword::Tool))
        .then(ident().labelled(label::NAME))
        .then(h.params.clone())
        .then(just(Tok::Arrow).ignore_then(ty.clone()).or_not())
        .then(
            lbrace()
                .ignore_then(newlines())
                .ignore_then(description.or_not())
                .then(h.body.clone())
                .then_ignore(just(Tok::RBrace))
                .map_with(|(description, stmts), e| {
                    (
                        description,
                        Block {
                            stmts,
                            span: sp(e.span()),
                        },
                    )
                }),
        )
        .map(|((((is_pub, name), params), ret), (description, body))| {
            StmtKind::Tool(Box::new(ToolDecl {
                name,
                is_pub,
                params,
                ret,
                description,
                body,
            }))
        });

    let field = member_name()
        .then(expr.clone())
        .map_with(|(name, value), e| Field {
            name,
            value,
            span: sp(e.span()),
        });
    let decl_name = ident().or(select! {
        Tok::Str(s) = e => Ident { name: s, span: sp(e.span()) },
    });
    let skill = is_pub
        .clone()
        .then_ignore(kw(Keyword::Skill))
        .then(decl_name.clone().labelled(label::NAME))
        .then(
            lbrace()
                .ignore_then(newlines())
                .ignore_then(
                    field
                        .clone()
                        .separated_by(separator(label::SKILL_SEP))
                        .allow_trailing()
                        .collect::<Vec<_>>(),
                )
                .then_ignore(just(Tok::RBrace)),
        )
        .map(|((is_pub, name), fields)| {
            StmtKind::Skill(SkillDecl {
                name,
                is_pub,
                fields,
            })
        });

    let eval_item = field
        .clone()
        .then_ignore(
            separator(label::EVAL_SEP)
                .or(just(Tok::RBrace).rewind().ignored())
                .rewind(),
        )
        .map(EvalPackItem::Field);
    let eval_pack = is_pub
        .clone()
        .then_ignore(kw(Keyword::EvalPack))
        .then(decl_name.labelled(label::NAME))
        .then(
            lbrace()
                .ignore_then(newlines())
                .ignore_then(
                    eval_item
                        .or(h.stmt.clone().map(|s| EvalPackItem::Stmt(Box::new(s))))
                        .separated_by(separator(label::EVAL_SEP))
                        .allow_trailing()
                        .collect::<Vec<_>>(),
                )
                .then_ignore(just(Tok::RBrace)),
        )
        .map(|((is_pub, name), items)| {
            StmtKind::EvalPack(EvalPackDecl {
                name,
                is_pub,
                items,
            })
        });

    let pipeline_param = ident().then_ignore(just(Tok::Colon).ignore_then(ty.clone()).or_not());
    let pipeline = is_pub
        .clone()
        .then_ignore(kw(Keyword::Pipeline))
        .then(ident().labelled(label::NAME))
        .then(
            pipeline_param
                .separated_by(just(Tok::Comma))
                .allow_trailing()
                .collect::<Vec<_>>()
                .delimited_by(just(Tok::LParen), just(Tok::RParen)),
        )
        .then(just(Tok::Arrow).ignore_then(ty.clone()).or_not())
        .then(kw(Keyword::Extends).ignore_then(ident()).or_not())
        .then(h.block.clone())
        .map(|(((((is_pub, name), params), ret), extends), body)| {
            StmtKind::Pipeline(Box::new(PipelineDecl {
                name,
                is_pub,
                params,
                ret,
                extends,
                body,
            }))
        });

    let path = select! {
        Tok::Str(s) = e => (s, sp(e.span())),
        Tok::RawStr(s) = e => (s, sp(e.span())),
    };
    let import = is_pub
        .then_ignore(kw(Keyword::Import))
        .then(choice((
            path.map(|p| (None, p)),
            ident()
                .separated_by(just(Tok::Comma).then(newlines()))
                .allow_trailing()
                .collect::<Vec<_>>()
                .delimited_by(
                    lbrace().then(newlines()),
                    newlines().then(just(Tok::RBrace)),
                )
                .then_ignore(kw(Keyword::From))
                .then(path)
                .map(|(names, p)| (Some(names), p)),
        )))
        .map(|(is_pub, (names, (path, path_span)))| {
            StmtKind::Import(ImportDecl {
                is_pub,
                names,
                path,
                path_span,
            })
        });

    let override_decl = kw(Keyword::Override)
        .ignore_then(ident().labelled(label::FN_NAME))
        .then(h.params.clone())
        .then(h.block.clone())
        .map_with(|((name, params), body), e| {
            StmtKind::Override(Box::new(FnDecl {
                name,
                is_pub: false,
                is_gen: false,
                generics: Vec::new(),
                params,
                ret: None,
                where_bounds: Vec::new(),
                body,
                span: sp(e.span()),
            }))
        });

    let common = choice((
        function,
        structure,
        enumeration,
        implementation,
        interface,
        alias,
        tool,
        skill,
        eval_pack,
        override_decl,
    ));
    if top {
        choice((pipeline, import, common)).boxed()
    } else {
        common.boxed()
    }
}

/// Whether an expression may stand on the left of `=`.
fn assignable(target: &Expr) -> bool {
    match &target.kind {
        ExprKind::Ident(_) => true,
        ExprKind::Member {
            object, optional, ..
        }
        | ExprKind::Index {
            object, optional, ..
        } => !optional && assignable_root(object),
        _ => false,
    }
}

fn assignable_root(object: &Expr) -> bool {
    match &object.kind {
        ExprKind::Ident(_) => true,
        ExprKind::Member { object, .. } | ExprKind::Index { object, .. } => assignable_root(object),
        _ => true,
    }
}

/// Every statement form, declarations included; `pipeline` and `import` only when `top`.
pub(crate) fn statement<'t>(h: &Handles<'t>, top: bool) -> BoxedP<'t, Stmt> {
    let expr = h.expr.clone();
    let block = h.block.clone();
    let pattern = pattern(h);

    let binding_kind = choice((
        kw(Keyword::Let).to(BindingKind::Let),
        kw(Keyword::Var).to(BindingKind::Var),
        word("const")
            .then_ignore(
                ident()
                    .then(just(Tok::Assign).or(just(Tok::Colon)))
                    .rewind(),
            )
            .to(BindingKind::Const),
    ));
    let binding = binding_kind
        .then(pattern.clone())
        .then(just(Tok::Colon).ignore_then(h.ty.clone()).or_not())
        .then_ignore(just(Tok::Assign))
        .then(expr.clone())
        .map(|(((kind, pattern), ty), value)| StmtKind::Let {
            kind,
            pattern,
            ty,
            value,
        });

    let ret = kw(Keyword::Return)
        .ignore_then(expr.clone().or_not())
        .map(StmtKind::Return);
    let throw = kw(Keyword::Throw)
        .ignore_then(expr.clone())
        .map(StmtKind::Throw);
    let brk = kw(Keyword::Break).to(StmtKind::Break);
    let cont = kw(Keyword::Continue).to(StmtKind::Continue);
    let for_loop = kw(Keyword::For)
        .ignore_then(pattern)
        .then_ignore(kw(Keyword::In))
        .then(expr.clone())
        .then(block.clone())
        .map(|((pattern, iterable), body)| StmtKind::For {
            pattern,
            iterable,
            body,
        });
    let while_loop = kw(Keyword::While)
        .ignore_then(expr.clone())
        .then(block.clone())
        .map(|(cond, body)| StmtKind::While { cond, body });
    let guard = kw(Keyword::Guard)
        .ignore_then(expr.clone())
        .then_ignore(kw(Keyword::Else))
        .then(block.clone())
        .map(|(cond, else_block)| StmtKind::Guard { cond, else_block });
    let require = kw(Keyword::Require)
        .ignore_then(expr.clone())
        .then(just(Tok::Comma).ignore_then(expr.clone()).or_not())
        .map(|(cond, message)| StmtKind::Require { cond, message });
    let defer = kw(Keyword::Defer)
        .ignore_then(block.clone())
        .map(StmtKind::Defer);
    let retry = kw(Keyword::Retry)
        .ignore_then(expr.clone())
        .then(block)
        .map(|(attempts, body)| StmtKind::Retry { attempts, body });

    let assign_op = select! {
        Tok::Assign => AssignOp::Assign,
        Tok::PlusEq => AssignOp::Add,
        Tok::MinusEq => AssignOp::Sub,
        Tok::StarEq => AssignOp::Mul,
        Tok::SlashEq => AssignOp::Div,
        Tok::PercentEq => AssignOp::Mod,
    };
    let expr_or_assign = expr
        .clone()
        .then(
            assign_op
                .map_with(|op, e| (op, e.span()))
                .then(expr.clone())
                .or_not(),
        )
        .validate(|(target, assign), _, emitter| match assign {
            None => StmtKind::Expr(target),
            Some(((op, op_span), value)) => {
                if !assignable(&target) {
                    emitter.emit(Rich::custom(
                        op_span,
                        "=Invalid assignment target: only variables, properties and subscripts can be assigned",
                    ));
                }
                StmtKind::Assign { target, op, value }
            }
        });

    let attribute = just(Tok::At)
        .ignore_then(ident().labelled(label::NAME))
        .then(call_args(expr).or_not())
        .then_ignore(newlines())
        .map_with(|(name, args), e| Attribute {
            name,
            args: args.unwrap_or_default(),
            span: sp(e.span()),
        });

    attribute
        .repeated()
        .collect::<Vec<_>>()
        .then(choice((
            binding,
            declarations(h, top),
            ret,
            throw,
            brk,
            cont,
            for_loop,
            while_loop,
            guard,
            require,
            defer,
            retry,
            expr_or_assign,
        )))
        .map_with(|(attrs, kind), e| {
            let mut stmt = stmt_node(kind, e.span());
            stmt.attrs = attrs;
            stmt
        })
        .boxed()
}

/// Skips a broken statement: everything up to the next separator at bracket depth 0
/// (consumed), stopping before a closing bracket that belongs to an enclosing block.
/// At the top level (`top`) a stray closing bracket is consumed too.
fn skip_statement<'t>(top: bool) -> impl Parser<'t, In, Stmt, Err<'t>> + Clone {
    custom(move |inp| {
        let before = inp.cursor();
        let mut depth = 0usize;
        let mut consumed = false;
        loop {
            match inp.peek() {
                None => break,
                Some(Tok::Newline | Tok::Semi) if depth == 0 => {
                    inp.skip();
                    consumed = true;
                    break;
                }
                Some(Tok::RBrace | Tok::RParen | Tok::RBracket) if depth == 0 => {
                    if top && !consumed {
                        inp.skip();
                        consumed = true;
                    }
                    break;
                }
                Some(tok) => {
                    match tok {
                        Tok::LParen | Tok::LBracket | Tok::LBrace | Tok::ClosureBrace => depth += 1,
                        Tok::RParen | Tok::RBracket | Tok::RBrace => depth -= 1,
                        _ => {}
                    }
                    inp.skip();
                    consumed = true;
                }
            }
        }
        let span = inp.span_since(&before);
        if consumed {
            Ok(stmt_node(StmtKind::Error, span))
        } else {
            Err(Rich::custom(span, "=nothing to skip"))
        }
    })
}

/// A statement list: `{SEP} [stmt {SEP stmt}] {SEP}`, ending before `}` or the end of
/// input. Each statement must be followed by a separator (labelled `sep_label`), `}` or
/// the end. A statement that fails is reported and skipped up to the next separator.
pub(crate) fn statement_list<'t>(
    stmt: BoxedP<'t, Stmt>,
    sep_label: &'static str,
    top: bool,
) -> BoxedP<'t, Vec<Stmt>> {
    let terminator = choice((
        separator(sep_label),
        just(Tok::RBrace).rewind().ignored(),
        end(),
    ));
    newlines()
        .ignore_then(
            stmt.then_ignore(terminator)
                .recover_with(via_parser(skip_statement(top)))
                .repeated()
                .collect(),
        )
        .boxed()
}

/// `{ stmts }` as a block.
pub(crate) fn block<'t>(body: BoxedP<'t, Vec<Stmt>>) -> BoxedP<'t, Block> {
    lbrace()
        .ignore_then(body)
        .then_ignore(just(Tok::RBrace))
        .map_with(|stmts, e| Block {
            stmts,
            span: sp(e.span()),
        })
        .boxed()
}
