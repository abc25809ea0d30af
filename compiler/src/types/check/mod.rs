//! The static checker (`language.md` 10.3): names that resolve to nothing, annotation
//! mismatches, argument and return types, operators on known types. It is gradual: a
//! type is known only from literals, annotations and operations on known types, and
//! anything uncertain is `any`, which never produces an error, so a valid program gets
//! no error-level diagnostic.
//!
//! Besides diagnostics it returns what an editor needs: the type of each expression it
//! could type, and for each name use the span of its declaration.

mod calls;
mod decls;
mod matches;
mod rules;
mod scopes;
#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests;
mod variance;
mod walk;

use rustc_hash::FxHashMap as HashMap;
use std::rc::Rc;

use crate::ast::{Name, Program, Span};
use crate::diagnostic::{Diagnostic, codes};
use crate::manifest::Manifest;
use crate::types::Ty;

pub use rules::{Nominal, binary, fits};

/// What a program is checked against.
#[derive(Clone, Copy, Default)]
pub struct CheckEnv<'e> {
    /// Code mode: the manifest whose bindings the snippet may call. `None` for a
    /// script, where every declared builtin is a known name.
    pub manifest: Option<&'e Manifest>,
    /// The identifiers of `manifest`'s bindings as a set, when the caller has one (a
    /// run's environment does): asking whether a name is a binding then takes one
    /// lookup instead of a scan of the bindings.
    pub binding_names: Option<&'e crate::pipeline::BindingNames>,
    /// Only the diagnostics are wanted (a compile on the way to a run): the types and
    /// definitions tables an editor reads are left empty, sparing a copy of every
    /// expression's type.
    pub diagnostics_only: bool,
}

/// The checker's findings.
#[derive(Clone, Debug, Default)]
pub struct Checked {
    pub diagnostics: Vec<Diagnostic>,
    /// The type of each expression whose type is known (not `any`), by its span.
    pub types: Vec<(Span, Ty)>,
    /// Each use of a declared name, with the span of the declaration it refers to.
    pub definitions: Vec<(Span, Span)>,
}

impl Checked {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// Checks a parsed program. Never fails; every finding is a diagnostic.
pub fn check_program(program: &Program, env: &CheckEnv<'_>) -> Checked {
    let mut c = Checker::new(env);
    c.program(program);
    Checked {
        diagnostics: c.diagnostics,
        types: c.types,
        definitions: c.definitions,
    }
}

/// A user function's signature, as far as its annotations say.
#[derive(Debug)]
pub(crate) struct FnInfo {
    pub params: Vec<ParamInfo>,
    pub ret: Option<Ty>,
    /// `where T: Interface` bounds, as (T, Interface).
    pub bounds: Vec<(Name, Name)>,
}

/// A method's annotated types, `self` left out: an interface's requirement or an
/// `impl`'s method.
#[derive(Clone, Debug)]
pub(crate) struct MethodSig {
    pub name: Name,
    pub params: Vec<Option<Ty>>,
    pub ret: Option<Ty>,
}

#[derive(Debug)]
pub(crate) struct ParamInfo {
    pub name: Name,
    pub ty: Option<Ty>,
    pub rest: bool,
    pub has_default: bool,
    /// The generic parameter its annotation is, exactly (`a: T`).
    pub generic: Option<Name>,
}

/// A name in scope.
#[derive(Clone, Debug)]
pub(crate) struct Var {
    pub ty: Ty,
    /// Declared with `let` or `const`: assigning to it fails at run time.
    pub immutable: bool,
    /// A `let`/`var` inside a function or block: never reading it is worth a warning.
    pub warn_unused: bool,
    /// Where it is declared (`None` for names the checker only knows exist).
    pub def: Option<Span>,
    pub func: Option<Rc<FnInfo>>,
}

impl Var {
    pub fn known(def: Span, ty: Ty) -> Var {
        Var {
            ty,
            immutable: false,
            warn_unused: false,
            def: Some(def),
            func: None,
        }
    }
}

/// The function whose body is being checked.
pub(crate) struct FnContext {
    pub ret: Option<Ty>,
    /// A `gen fn`: it streams with `emit`, not `yield`.
    pub is_gen: bool,
}

pub(crate) struct Checker<'e> {
    pub env: &'e CheckEnv<'e>,
    pub scopes: scopes::Scopes,
    pub fns: Vec<FnContext>,
    /// A file with an `import` may use names the checker cannot see.
    pub has_imports: bool,
    pub diagnostics: Vec<Diagnostic>,
    pub types: Vec<(Span, Ty)>,
    pub definitions: Vec<(Span, Span)>,
    /// The program's struct and enum names (nominal types), and its enums.
    pub nominal: rustc_hash::FxHashSet<Name>,
    pub enums: rustc_hash::FxHashSet<Name>,
    /// Each interface's required methods, and each type's `impl` methods.
    pub interfaces: HashMap<Name, Vec<MethodSig>>,
    pub impls: HashMap<Name, Vec<MethodSig>>,
    /// Each interface's associated types that name their type (`type Item = int`).
    pub assoc_types: HashMap<Name, Vec<(Name, Ty)>>,
    /// The program's non-generic type aliases, expanded where annotations name them.
    pub aliases: HashMap<Name, Ty>,
    /// The declarations (by start offset) some use refers to.
    pub used: rustc_hash::FxHashSet<u32>,
    /// Each of the program's enums' variant names, in declaration order.
    pub variants: HashMap<Name, Vec<Name>>,
    /// Inside a `try` body a failure is anticipated (the program catches it), so the
    /// checker stays silent there.
    pub in_try: usize,
}

/// Variables a snippet usually has in scope at once: the list starts that large so that
/// declaring them does not regrow it two or three times.
const TOP_SCOPE_CAPACITY: usize = 32;

impl<'e> Checker<'e> {
    fn new(env: &'e CheckEnv<'e>) -> Checker<'e> {
        Checker {
            env,
            scopes: scopes::Scopes::new(TOP_SCOPE_CAPACITY),
            fns: Vec::new(),
            has_imports: false,
            diagnostics: Vec::new(),
            types: Vec::new(),
            definitions: Vec::new(),
            in_try: 0,
            // The builtin `Result` enum is as nominal as the program's own.
            // The builtin `Result` enum and the lazy sequences are as nominal as the
            // program's own types: an `iter` is not a list.
            nominal: ["Result", "iter", "Generator", "Stream"]
                .into_iter()
                .map(Name::new_static)
                .collect(),
            enums: Default::default(),
            variants: HashMap::default(),
            used: Default::default(),
            aliases: HashMap::default(),
            interfaces: HashMap::default(),
            impls: HashMap::default(),
            assoc_types: HashMap::default(),
        }
    }

    pub fn push_scope(&mut self) {
        self.scopes.push();
    }

    pub fn pop_scope(&mut self) {
        let used = &self.used;
        let mut unused: Vec<(Name, Span)> = self
            .scopes
            .pop()
            .filter(|(_, name, v)| v.warn_unused && !name.starts_with('_'))
            .filter_map(|(_, name, v)| v.def.map(|d| (name, d)))
            .filter(|(_, d)| !used.contains(&d.start))
            .collect();
        unused.sort_by_key(|(_, d)| d.start);
        for (name, def) in unused {
            self.warn(
                codes::UNUSED,
                format!("unused variable `{name}`"),
                def,
                "never read",
            );
            if let Some(d) = self.diagnostics.last_mut() {
                d.hint = Some(format!("remove it, or name it `_{name}` to keep it"));
            }
        }
    }

    pub fn declare(&mut self, name: &str, var: Var) {
        self.scopes.declare(name, var);
    }

    pub fn lookup(&self, name: &str) -> Option<&Var> {
        self.scopes.lookup(name)
    }

    /// Variables of type `unknown` that `e` mentions become `any` from here on: a
    /// condition inspecting them is how a program narrows them (`type_of(x) ==
    /// "string"`, `schema_is`, a predicate of its own), and the checker does not
    /// judge which narrowing is enough.
    pub fn release_unknowns(&mut self, e: &crate::ast::Expr) {
        let unknown_in_scope = self.scopes.vars().any(|v| matches!(v.ty, Ty::Unknown));
        if !unknown_in_scope {
            return;
        }
        let mut names = rustc_hash::FxHashSet::default();
        crate::compile::names::names_in_expr(e, &mut names);
        for name in names {
            if let Some(var) = self.scopes.lookup_mut(name)
                && matches!(var.ty, Ty::Unknown)
            {
                var.ty = Ty::Any;
            }
        }
    }

    /// Whether `name` resolves to a variable of the file's top level.
    pub fn is_top_level(&self, name: &str) -> bool {
        self.scopes.is_top_level(name)
    }

    pub fn warn(&mut self, code: &'static str, message: String, span: Span, label: &str) {
        if self.in_try > 0 {
            return;
        }
        self.diagnostics.push(Diagnostic {
            severity: crate::diagnostic::Severity::Warning,
            ..Diagnostic::error(code, message, span, label)
        });
    }

    pub fn error(&mut self, code: &'static str, message: String, span: Span, label: &str) {
        if self.in_try > 0 {
            return;
        }
        self.diagnostics
            .push(Diagnostic::error(code, message, span, label));
    }

    /// A name that resolves to nothing: an error unless imports could bring it.
    pub fn undefined(&mut self, name: &str, span: Span, called: bool) {
        // In code mode the snippet validator judges call targets (4.4).
        if self.has_imports || (called && self.env.manifest.is_some()) {
            return;
        }
        let suggestion = self.suggestion(name);
        let fix = suggestion.clone();
        let hint = suggestion
            .map(|s| format!(" — did you mean `{s}`?"))
            .unwrap_or_default();
        let (code, what) = if called {
            (codes::UNDEFINED_CALL, "call target")
        } else {
            (codes::UNDEFINED_VARIABLE, "value")
        };
        let message = format!("{what} `{name}` is not defined or imported{hint}");
        let label = "not defined";
        self.error(code, message, span, label);
        if let Some(fix) = fix {
            self.attach_fix(span, fix);
        }
    }

    /// Gives the diagnostic just reported at `span` (if it was) a fix replacing the
    /// span with `replacement`, and the matching hint.
    pub fn attach_fix(&mut self, span: Span, replacement: String) {
        if let Some(d) = self.diagnostics.last_mut()
            && d.primary.span == span
        {
            d.hint = Some(format!("replace with `{replacement}`"));
            d.fix = Some(crate::diagnostic::Fix { span, replacement });
        }
    }

    /// The closest known name: locals, the script's declarations, bindings, builtins.
    fn suggestion(&self, name: &str) -> Option<String> {
        let mut names: Vec<&str> = self.scopes.names().collect();
        names.extend(decls::builtin_names(self.env));
        crate::suggest::suggest(name, names.into_iter())
    }

    pub fn record_type(&mut self, span: Span, ty: &Ty) {
        if !matches!(ty, Ty::Any) && !self.env.diagnostics_only {
            self.types.push((span, ty.clone()));
        }
    }
}
