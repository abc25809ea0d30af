//! Declarations: what a block or file declares before its statements run (functions,
//! types, and at top level every binding, since functions may call or read them), the
//! names that exist without a declaration (builtins, bindings), and the names a
//! pattern binds.

use std::rc::Rc;

use super::{CheckEnv, Checker, FnInfo, MethodSig, ParamInfo, Var};
use crate::ast::*;
use crate::builtins::BuiltinEnv;
use crate::types::{Field, Ty, lower};

/// Names that exist without a declaration: every declared builtin (in a script the
/// profile is chosen at run time), the manifest's bindings, and names the language
/// gives meaning to.
pub(crate) fn builtin_names<'a>(env: &'a CheckEnv<'a>) -> impl Iterator<Item = &'a str> + 'a {
    let bindings = env
        .manifest
        .into_iter()
        .flat_map(|m| m.bindings.iter().map(|b| b.binding.as_str()));
    BuiltinEnv::global()
        .all()
        .map(|d| d.name)
        .chain(bindings)
        .chain(LANGUAGE_NAMES.iter().copied())
}

/// Names with a meaning of their own: the `Result` enum, the pipe placeholder, and in
/// code mode `state` and `harness` (the validator judges those). Type names may be
/// passed as schema values (`schema_is(x, string)`).
const LANGUAGE_NAMES: &[&str] = &[
    "Result", "_", "self", "state", "harness", "int", "float", "string", "bool", "list", "dict",
    "set", "bytes", "duration", "any", "nil",
];

pub(crate) fn is_builtin(env: &CheckEnv<'_>, name: &str) -> bool {
    BuiltinEnv::global().get(name).is_some()
        || LANGUAGE_NAMES.contains(&name)
        || match (env.binding_names, env.manifest) {
            (Some(names), _) => names.contains(name),
            (None, Some(m)) => m.bindings.iter().any(|b| b.binding == name),
            (None, None) => false,
        }
}

/// What calling `f` returns when its body is a sequence: a `gen fn` a `Stream`, a
/// function whose body yields a `Generator` (`language.md` 7.12).
fn sequence_kind(f: &FnDecl) -> Option<&'static str> {
    if f.is_gen {
        return Some("Stream");
    }
    let mut used = rustc_hash::FxHashSet::default();
    crate::compile::names::names_in_block(&f.body, &mut used);
    used.contains(crate::compile::names::YIELD_MARK)
        .then_some("Generator")
}

/// Whether `t` names one of `names` anywhere inside it.
fn mentions(t: &Ty, names: &[Name]) -> bool {
    let mut found = false;
    t.walk(&mut |t| {
        if let Ty::Named { name, .. } = t {
            found |= names.contains(name);
        }
    });
    found
}

impl Checker<'_> {
    /// The checker's type of an annotation, with the program's (non-generic) type
    /// aliases expanded; `None` when it does not lower.
    pub(crate) fn annotation(&self, t: &Option<TypeExpr>) -> Option<Ty> {
        self.annotation_of(t.as_ref())
    }

    /// [`Self::annotation`] of an annotation held by reference (a binding's is boxed).
    pub(crate) fn annotation_of(&self, t: Option<&TypeExpr>) -> Option<Ty> {
        t.and_then(|t| lower(t).ok()).map(|t| self.expand(t, 0))
    }

    /// Replaces alias names by what they stand for (bounded: aliases may recur).
    fn expand(&self, t: Ty, depth: usize) -> Ty {
        if depth > 16 {
            return Ty::Any;
        }
        let go = |t: Ty| self.expand(t, depth + 1);
        match t {
            // `Iter<T>` is another spelling of `iter<T>`.
            Ty::Named { name, args } if name == "Iter" => Ty::Named {
                name: "iter".into(),
                args: args.into_iter().map(go).collect(),
            },
            Ty::Named { name, args } if args.is_empty() => match self.aliases.get(&name) {
                Some(target) => go(target.clone()),
                None => Ty::Named { name, args },
            },
            Ty::List(t) => Ty::List(Box::new(go(*t))),
            Ty::Dict(k, v) => Ty::Dict(Box::new(go(*k)), Box::new(go(*v))),
            Ty::Union(ts) => Ty::union(ts.into_iter().map(go).collect()),
            Ty::Shape(fields, closed) => Ty::Shape(
                fields
                    .into_iter()
                    .map(|f| Field { ty: go(f.ty), ..f })
                    .collect(),
                closed,
            ),
            other => other,
        }
    }

    /// A function's signature: annotated parameter and return types. Types naming
    /// one of its generic parameters are left out (not judged).
    pub(crate) fn fn_info(
        &self,
        generics: &[GenericParam],
        params: &[Param],
        ret: &Option<TypeExpr>,
    ) -> FnInfo {
        let generic_names: Vec<Name> = generics.iter().map(|g| g.name.name.clone()).collect();
        let judged = |t: Option<Ty>| t.filter(|t| !mentions(t, &generic_names));
        FnInfo {
            params: params
                .iter()
                .map(|p| ParamInfo {
                    name: p.name.name.clone(),
                    ty: judged(self.annotation(&p.ty)),
                    rest: p.rest,
                    has_default: p.default.is_some(),
                    generic: match self.annotation(&p.ty) {
                        Some(Ty::Named { name, args })
                            if args.is_empty() && generic_names.contains(&name) =>
                        {
                            Some(name)
                        }
                        _ => None,
                    },
                })
                .collect(),
            ret: judged(self.annotation(ret)),
            bounds: Vec::new(),
        }
    }

    /// A method's annotated types without `self`.
    fn method_sig(&self, name: &Ident, params: &[Param], ret: &Option<TypeExpr>) -> MethodSig {
        MethodSig {
            name: name.name.clone(),
            params: params
                .iter()
                .filter(|p| p.name.name != "self")
                .map(|p| self.annotation(&p.ty))
                .collect(),
            ret: self.annotation(ret),
        }
    }

    /// Records the non-generic type aliases `stmts` declare, before anything that
    /// may use them is read.
    fn collect_aliases(&mut self, stmts: &[Stmt]) {
        for s in stmts {
            if let StmtKind::TypeAlias(d) = &s.kind
                && d.generics.is_empty()
                && let Ok(t) = lower(&d.ty)
            {
                self.aliases.insert(d.name.name.clone(), t);
            }
        }
    }

    /// Declares what `stmts` declare before any of them runs: functions and types; at
    /// top level also every `let`/`var` (a function may read or call one declared
    /// anywhere in the file) and imported names.
    pub(crate) fn predeclare(&mut self, stmts: &[Stmt], top: bool) {
        self.collect_aliases(stmts);
        for s in stmts {
            match &s.kind {
                StmtKind::Fn(f) | StmtKind::Override(f) => {
                    let mut info = self.fn_info(&f.generics, &f.params, &f.ret);
                    if info.ret.is_none() {
                        info.ret = sequence_kind(f).map(|name| Ty::Named {
                            name: crate::ast::name_of(name),
                            args: Vec::new(),
                        });
                    }
                    info.bounds = f
                        .where_bounds
                        .iter()
                        .filter_map(|w| match &w.bound.kind {
                            TypeKind::Named { name, .. } => {
                                Some((w.param.name.clone(), name.name.clone()))
                            }
                            _ => None,
                        })
                        .collect();
                    self.declare(
                        &f.name.name,
                        Var {
                            immutable: false,
                            warn_unused: false,
                            ty: Ty::Closure,
                            def: Some(f.name.span),
                            func: Some(Rc::new(info)),
                        },
                    );
                }
                StmtKind::Struct(d) => {
                    self.nominal.insert(d.name.name.clone());
                    self.declare_name(&d.name);
                }
                StmtKind::Enum(d) => {
                    self.nominal.insert(d.name.name.clone());
                    self.enums.insert(d.name.name.clone());
                    self.variants.insert(
                        d.name.name.clone(),
                        d.variants.iter().map(|v| v.name.name.clone()).collect(),
                    );
                    self.declare_name(&d.name);
                    for v in &d.variants {
                        self.declare_name(&v.name);
                    }
                }
                StmtKind::Interface(d) => {
                    let methods = d
                        .methods
                        .iter()
                        .map(|m| self.method_sig(&m.name, &m.params, &m.ret))
                        .collect();
                    self.interfaces.insert(d.name.name.clone(), methods);
                    let assoc = d
                        .assoc_types
                        .iter()
                        .filter_map(|a| {
                            let ty = crate::types::lower(a.default.as_ref()?).ok()?;
                            Some((a.name.name.clone(), ty))
                        })
                        .collect();
                    self.assoc_types.insert(d.name.name.clone(), assoc);
                    self.declare_name(&d.name);
                }
                StmtKind::Impl(d) => {
                    let methods: Vec<MethodSig> = d
                        .methods
                        .iter()
                        .map(|m| self.method_sig(&m.name, &m.params, &m.ret))
                        .collect();
                    self.impls
                        .entry(d.target.name.clone())
                        .or_default()
                        .extend(methods);
                }
                StmtKind::TypeAlias(d) => self.declare_name(&d.name),
                StmtKind::Tool(d) => self.declare_name(&d.name),
                StmtKind::Pipeline(d) => self.declare_name(&d.name),
                StmtKind::Skill(d) => self.declare_name(&d.name),
                StmtKind::EvalPack(d) => self.declare_name(&d.name),
                StmtKind::Import(d) => {
                    self.has_imports = true;
                    for n in d.names.iter().flatten() {
                        self.declare_name(n);
                    }
                }
                StmtKind::Let { pattern, .. } if top => {
                    for id in pattern_names(pattern) {
                        self.declare(&id.name, Var::known(id.span, Ty::Any));
                    }
                }
                _ => {}
            }
        }
    }

    fn declare_name(&mut self, id: &Ident) {
        self.declare(&id.name, Var::known(id.span, Ty::Any));
    }

    /// Declares the names a binding pattern introduces; an identifier pattern gets `ty`.
    pub(crate) fn declare_pattern(&mut self, p: &Pattern, ty: Ty) {
        if let Pattern::Ident(id) = p {
            self.record_type(id.span, &ty);
            self.declare(&id.name, Var::known(id.span, ty));
            return;
        }
        for id in pattern_names(p) {
            self.declare(&id.name, Var::known(id.span, Ty::Any));
        }
    }

    /// Declares every identifier in a `match` pattern (an expression read as a
    /// pattern): bindings of enum payloads, dict and list parts.
    pub(crate) fn declare_match_pattern(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Ident(n) => self.declare(n, Var::known(e.span, Ty::Any)),
            ExprKind::Call { args, .. }
            | ExprKind::MethodCall { args, .. }
            | ExprKind::List(args) => {
                for a in args {
                    let (Arg::Positional(x) | Arg::Spread(x)) = a;
                    self.declare_match_pattern(x);
                }
            }
            ExprKind::Dict(entries)
            | ExprKind::StructLit {
                fields: entries, ..
            } => {
                for entry in entries {
                    match entry {
                        DictEntry::Pair { value, .. } => self.declare_match_pattern(value),
                        DictEntry::Spread(x) => self.declare_match_pattern(x),
                    }
                }
            }
            _ => {}
        }
    }
}

/// The identifiers a binding pattern binds.
pub(crate) fn pattern_names(p: &Pattern) -> Vec<&Ident> {
    match p {
        Pattern::Ident(id) => vec![id],
        Pattern::Wildcard(_) => Vec::new(),
        Pattern::Dict { fields, rest, .. } => fields
            .iter()
            .filter_map(|f| f.binding.as_ref())
            .chain(rest.iter())
            .collect(),
        Pattern::List { elems, rest, .. } => elems
            .iter()
            .filter_map(|e| e.binding.as_ref())
            .chain(rest.iter())
            .collect(),
        Pattern::Pair(a, b, _) => vec![a, b],
    }
}
