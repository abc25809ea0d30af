//! Static validation of code-mode snippets (`code-mode.md` 4.4): every construct and
//! every name that could reach outside the sandbox is refused before anything runs.
//!
//! The walk covers every node: nested blocks, closure and `fn` bodies, parameter
//! defaults, match guards, pipe right-hand sides and string-interpolation holes. Names
//! are resolved lexically, so a local called `harness` or `state` is an ordinary name.

use rustc_hash::FxHashSet as HashSet;

use crate::ast::*;
use crate::diagnostic::{Diagnostic, codes};

/// Why a snippet was refused, and the failure category it maps to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Violation {
    /// `denied_builtin`
    DeniedBuiltin(String),
    /// `policy_denied`
    PolicyDenied(String),
    /// `compile_error`
    CompileError(String),
}

impl Violation {
    pub fn category(&self) -> &'static str {
        match self {
            Violation::DeniedBuiltin(_) => "denied_builtin",
            Violation::PolicyDenied(_) => "policy_denied",
            Violation::CompileError(_) => "compile_error",
        }
    }

    pub fn message(&self) -> &str {
        match self {
            Violation::DeniedBuiltin(m)
            | Violation::PolicyDenied(m)
            | Violation::CompileError(m) => m,
        }
    }

    /// The violation as a diagnostic at `span`; its code carries the category.
    pub fn at(self, span: Span) -> Diagnostic {
        let (code, message) = match self {
            Violation::DeniedBuiltin(m) => (codes::DENIED_BUILTIN, m),
            Violation::PolicyDenied(m) => (codes::POLICY_DENIED, m),
            Violation::CompileError(m) => (codes::SNIPPET, m),
        };
        Diagnostic::error(code, message, span, "refused in code mode")
    }
}

/// The one denylist (`code-mode.md` 4.4) lives with the builtin environment.
pub use crate::builtins::is_denied_name;

/// What the validator needs to know about the run's environment.
pub struct Environment<'e> {
    /// Binding identifiers of the manifest (every disposition).
    pub bindings: &'e HashSet<String>,
    /// Whether a name is a builtin installed in the code-mode profile.
    pub in_profile: &'e dyn Fn(&str) -> bool,
    /// The capability tag of a builtin of any profile (so naming it is a capability
    /// denial that names the family, rather than an unknown name).
    pub capability_of: &'e dyn Fn(&str) -> Option<&'static str>,
    /// Whether `manifest.state` is granted.
    pub state_granted: bool,
    /// The manifest, for the type check of binding calls (none: no type check).
    pub manifest: Option<&'e crate::manifest::Manifest>,
}

const STATE_OPS: &[&str] = &["get", "put", "list", "delete"];

struct Walker<'e, 'w> {
    env: &'w Environment<'e>,
    /// Every violation, in walk order (the first one is what a run reports).
    violations: Vec<Diagnostic>,
    /// Certain type errors (step 8), reported after the violations (step 7).
    type_errors: Vec<Diagnostic>,
    /// The names in scope, innermost last, each with its print: a snippet's
    /// scopes hold a few names each, and comparing fingerprints down this stack is
    /// cheaper than hashing the name once per open scope.
    names: Vec<(NamePrint, Name)>,
    /// Where each open scope's names start in `names`.
    scope_starts: Vec<usize>,
    /// Names declared anywhere at the snippet's top level (hoisted `fn`s and types).
    declared: HashSet<crate::ast::Name>,
}

type Check = Result<(), Violation>;

impl Walker<'_, '_> {
    fn open_scope(&mut self) {
        self.scope_starts.push(self.names.len());
    }

    fn close_scope(&mut self) {
        if let Some(start) = self.scope_starts.pop() {
            self.names.truncate(start);
        }
    }

    /// Records a failed check at `span` and lets the walk go on, so that every
    /// violation is reported, not only the first.
    fn settle(&mut self, r: Check, span: Span) -> Check {
        if let Err(v) = r {
            self.violations.push(v.at(span));
        }
        Ok(())
    }

    fn local(&self, name: &str) -> bool {
        let print = NamePrint::of(name);
        self.names
            .iter()
            .rev()
            .any(|(p, n)| print.matches(name, *p, n))
            || self.declared.contains(name)
    }

    fn declare(&mut self, name: &str) {
        self.names
            .push((NamePrint::of(name), crate::ast::name_of(name)));
    }

    fn declare_pattern(&mut self, p: &Pattern) {
        match p {
            Pattern::Ident(id) => self.declare(&id.name),
            Pattern::Wildcard(_) => {}
            Pattern::Dict { fields, rest, .. } => {
                for f in fields {
                    if let Some(b) = &f.binding {
                        self.declare(&b.name);
                    }
                }
                if let Some(r) = rest {
                    self.declare(&r.name);
                }
            }
            Pattern::List { elems, rest, .. } => {
                for e in elems {
                    if let Some(b) = &e.binding {
                        self.declare(&b.name);
                    }
                }
                if let Some(r) = rest {
                    self.declare(&r.name);
                }
            }
            Pattern::Pair(a, b, _) => {
                self.declare(&a.name);
                self.declare(&b.name);
            }
        }
    }

    /// A free name used as a value or called.
    fn name(&self, name: &str, called: bool) -> Check {
        if self.local(name) || self.env.bindings.contains(name) {
            return Ok(());
        }
        if name == "harness" {
            return Err(harness_denial("harness"));
        }
        let capability = (self.env.capability_of)(name);
        if is_denied_name(name)
            || (capability.is_some() && !(self.env.in_profile)(name))
            || (name.starts_with("__") && name != "__composition_call")
        {
            let internal = name.starts_with("__") && !is_denied_name(name);
            let family = match (capability, crate::builtins::denied_family(name)) {
                _ if internal => ": names starting with `__` are internal to the runtime".into(),
                (Some(tag), _) => format!(" (capability `{tag}` is not available in code mode)"),
                (None, Some(family)) => format!(": it is denied in code mode ({family})"),
                (None, None) => String::new(),
            };
            let binding = self
                .related_binding(name)
                .map(|b| format!("; the manifest binding is `{b}`"))
                .unwrap_or_default();
            return Err(Violation::DeniedBuiltin(format!(
                "composition snippets cannot call `{name}`{family}{binding}"
            )));
        }
        if called && !(self.env.in_profile)(name) && name != "__composition_call" {
            let mut candidates: Vec<&str> = self.env.bindings.iter().map(String::as_str).collect();
            candidates.sort_unstable();
            let suggestion = candidates
                .iter()
                .filter(|c| crate::suggest::distance(name, c) <= 2)
                .min_by_key(|c| (crate::suggest::distance(name, c), c.len()))
                .map(|c| format!(" — did you mean `{c}`?"))
                .unwrap_or_default();
            return Err(Violation::CompileError(format!(
                "composition call target `{name}` is not a manifest binding or pure helper{suggestion}"
            )));
        }
        Ok(())
    }

    /// The manifest binding a host builtin's name points at: the shortest binding
    /// whose words include every word of the name (`read_file` → `read_text_file`).
    fn related_binding(&self, name: &str) -> Option<&str> {
        let words: Vec<&str> = name.split('_').filter(|w| !w.is_empty()).collect();
        if words.is_empty() {
            return None;
        }
        self.env
            .bindings
            .iter()
            .filter(|b| {
                let have: Vec<&str> = b.split('_').collect();
                words.iter().all(|w| have.contains(w))
            })
            .min_by_key(|b| (b.len(), b.as_str()))
            .map(String::as_str)
    }

    fn block(&mut self, b: &Block) -> Check {
        self.open_scope();
        let result = b.stmts.iter().try_for_each(|s| self.stmt(s, false));
        self.close_scope();
        result
    }

    fn function(&mut self, params: &[Param], body: &Block) -> Check {
        self.open_scope();
        for p in params {
            if let Some(d) = &p.default {
                self.expr(d)?;
            }
            self.declare(&p.name.name);
        }
        let result = self.block(body);
        self.close_scope();
        result
    }

    fn stmt(&mut self, s: &Stmt, top: bool) -> Check {
        let r = self.stmt_inner(s, top);
        self.settle(r, s.span)
    }

    fn stmt_inner(&mut self, s: &Stmt, top: bool) -> Check {
        match &s.kind {
            StmtKind::Import(_) => Err(Violation::DeniedBuiltin(
                "composition snippets cannot import modules".into(),
            )),
            StmtKind::Pipeline(_) => Err(Violation::CompileError(
                "composition snippets cannot declare pipelines".into(),
            )),
            StmtKind::Tool(_) | StmtKind::Skill(_) | StmtKind::EvalPack(_) => {
                Err(Violation::DeniedBuiltin(
                    "composition snippets cannot declare tools or skills".into(),
                ))
            }
            StmtKind::Let { pattern, value, .. } => {
                self.expr(value)?;
                self.pattern_defaults(pattern)?;
                self.declare_pattern(pattern);
                Ok(())
            }
            StmtKind::Assign { target, value, .. } => {
                self.expr(target)?;
                self.expr(value)
            }
            StmtKind::Expr(e) | StmtKind::Throw(e) => self.expr(e),
            StmtKind::Return(e) => e.as_ref().map_or(Ok(()), |e| self.expr(e)),
            StmtKind::Break | StmtKind::Continue | StmtKind::Error => Ok(()),
            StmtKind::For {
                pattern,
                iterable,
                body,
            } => {
                self.expr(iterable)?;
                self.open_scope();
                self.declare_pattern(pattern);
                let r = self.block(body);
                self.close_scope();
                r
            }
            StmtKind::While { cond, body } => {
                self.expr(cond)?;
                self.block(body)
            }
            StmtKind::Guard { cond, else_block } => {
                self.expr(cond)?;
                self.block(else_block)
            }
            StmtKind::Require { cond, message } => {
                self.expr(cond)?;
                message.as_ref().map_or(Ok(()), |m| self.expr(m))
            }
            StmtKind::Defer(b) => self.block(b),
            StmtKind::Retry { attempts, body } => {
                self.expr(attempts)?;
                self.block(body)
            }
            StmtKind::Fn(f) | StmtKind::Override(f) => {
                if f.is_gen {
                    return Err(construct("gen fn"));
                }
                if !top {
                    self.declare(&f.name.name);
                }
                self.open_scope();
                self.declare(&f.name.name);
                let r = self.function(&f.params, &f.body);
                self.close_scope();
                r
            }
            StmtKind::Impl(i) => {
                for m in &i.methods {
                    self.function(&m.params, &m.body)?;
                }
                Ok(())
            }
            StmtKind::Struct(_)
            | StmtKind::Enum(_)
            | StmtKind::Interface(_)
            | StmtKind::TypeAlias(_) => Ok(()),
        }
    }

    fn pattern_defaults(&mut self, p: &Pattern) -> Check {
        match p {
            Pattern::Dict { fields, .. } => {
                for f in fields {
                    if let Some(d) = &f.default {
                        self.expr(d)?;
                    }
                }
            }
            Pattern::List { elems, .. } => {
                for e in elems {
                    if let Some(d) = &e.default {
                        self.expr(d)?;
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn args(&mut self, args: &[Arg]) -> Check {
        for a in args {
            let (Arg::Positional(e) | Arg::Spread(e)) = a;
            self.expr(e)?;
        }
        Ok(())
    }

    fn entries(&mut self, entries: &[DictEntry]) -> Check {
        for e in entries {
            match e {
                DictEntry::Pair { key, value } => {
                    if let DictKey::Computed(k) = key {
                        self.expr(k)?;
                    }
                    self.expr(value)?;
                }
                DictEntry::Spread(v) => self.expr(v)?,
            }
        }
        Ok(())
    }

    /// `harness.a.b(...)` and `state.op(...)`: checked as a whole chain.
    fn member_chain(&mut self, e: &Expr) -> Option<Check> {
        // Borrowed names: the path is only read for `harness` and `state` roots.
        let mut path: Vec<&str> = Vec::new();
        let mut cur = e;
        loop {
            match &cur.kind {
                ExprKind::Member { object, name, .. } => {
                    path.push(&name.name);
                    cur = object;
                }
                ExprKind::MethodCall {
                    receiver, method, ..
                } => {
                    path.push(&method.name);
                    cur = receiver;
                }
                ExprKind::Ident(root) => {
                    if self.local(root) || self.env.bindings.contains(root.as_str()) {
                        return None;
                    }
                    path.push(root);
                    path.reverse();
                    if root == "harness" {
                        return Some(Err(harness_denial(&path.join("."))));
                    }
                    if root == "state" && path.len() >= 2 {
                        let op = path[1];
                        if !self.env.state_granted {
                            return Some(Err(Violation::PolicyDenied(format!(
                                "composition operation `state.{op}` is unavailable unless manifest.state is granted"
                            ))));
                        }
                        if !STATE_OPS.contains(&op) {
                            return Some(Err(Violation::CompileError(format!(
                                "composition state has no operation `{op}`"
                            ))));
                        }
                    }
                    return None;
                }
                _ => return None,
            }
        }
    }

    fn expr(&mut self, e: &Expr) -> Check {
        let r = self.expr_inner(e);
        self.settle(r, e.span)
    }

    fn expr_inner(&mut self, e: &Expr) -> Check {
        match &e.kind {
            ExprKind::Ident(name) => {
                if name == "_" || (name == "state" && self.env.state_granted) {
                    return Ok(());
                }
                self.name(name, false)
            }
            ExprKind::Call { callee, args, .. } => {
                let r = self.name(&callee.name, true);
                self.settle(r, callee.span)?;
                if !self.local(&callee.name)
                    && let Some(binding) = self.env.manifest.and_then(|m| {
                        m.bindings.iter().find(|b| {
                            b.binding == callee.name
                                && b.policy.disposition == crate::manifest::Disposition::Allowed
                        })
                    })
                    && let Some(problem) = crate::typecheck::check_binding_call(binding, args)
                {
                    self.type_errors.push(Diagnostic::error(
                        codes::TYPE_MISMATCH,
                        problem,
                        e.span,
                        "argument ruled out by the binding's input schema",
                    ));
                }
                self.args(args)
            }
            ExprKind::Member { object, .. } => {
                if let Some(r) = self.member_chain(e) {
                    return r;
                }
                self.expr(object)
            }
            ExprKind::MethodCall { receiver, args, .. } => {
                if let Some(r) = self.member_chain(e) {
                    return r;
                }
                self.expr(receiver)?;
                self.args(args)
            }
            ExprKind::InterpStr(parts) => {
                for p in parts {
                    if let StrPart::Expr(e) = p {
                        self.expr(e)?;
                    }
                }
                Ok(())
            }
            ExprKind::List(items) => self.args(items),
            ExprKind::Dict(entries) => self.entries(entries),
            ExprKind::StructLit { fields, .. } => self.entries(fields),
            ExprKind::Closure(c) => self.function(&c.params, &c.body),
            ExprKind::Unary { operand, .. } => self.expr(operand),
            ExprKind::Binary { lhs, rhs, .. } => {
                self.expr(lhs)?;
                self.expr(rhs)
            }
            ExprKind::Pipe { value, func } => {
                self.expr(value)?;
                if let ExprKind::Ident(name) = &func.kind {
                    return self.name(name, true);
                }
                self.open_scope();
                self.declare("_");
                let r = self.expr(func);
                self.close_scope();
                r
            }
            ExprKind::Ternary {
                cond,
                then,
                otherwise,
            } => {
                self.expr(cond)?;
                self.expr(then)?;
                self.expr(otherwise)
            }
            ExprKind::Range { start, end, .. } => {
                self.expr(start)?;
                self.expr(end)
            }
            ExprKind::Index { object, index, .. } => {
                self.expr(object)?;
                self.expr(index)
            }
            ExprKind::Slice { object, start, end } => {
                self.expr(object)?;
                if let Some(s) = start {
                    self.expr(s)?;
                }
                end.as_ref().map_or(Ok(()), |x| self.expr(x))
            }
            ExprKind::Propagate(inner) | ExprKind::TryStar(inner) => self.expr(inner),
            ExprKind::If {
                cond,
                then,
                otherwise,
            } => {
                self.expr(cond)?;
                self.block(then)?;
                match otherwise {
                    Some(ElseBranch::Block(b)) => self.block(b),
                    Some(ElseBranch::If(e)) => self.expr(e),
                    None => Ok(()),
                }
            }
            ExprKind::Match { scrutinee, arms } => {
                self.expr(scrutinee)?;
                for arm in arms {
                    self.open_scope();
                    for p in &arm.patterns {
                        self.declare_match_bindings(p);
                    }
                    if let Some(g) = &arm.guard {
                        self.expr(g)?;
                    }
                    self.block(&arm.body)?;
                    self.close_scope();
                }
                Ok(())
            }
            ExprKind::Try {
                body,
                catch,
                finally,
            } => {
                self.block(body)?;
                if let Some(c) = catch {
                    self.open_scope();
                    if let Some(v) = &c.var {
                        self.declare(&v.name);
                    }
                    let r = self.block(&c.body);
                    self.close_scope();
                    r?;
                }
                finally.as_ref().map_or(Ok(()), |f| self.block(f))
            }
            ExprKind::Spawn(_) | ExprKind::Parallel { .. } => Err(Violation::DeniedBuiltin(
                "composition snippets cannot spawn or parallelize work".into(),
            )),
            ExprKind::Select(_) => Err(construct("select")),
            ExprKind::Mutex(_) => Err(construct("mutex")),
            ExprKind::Deadline { .. } => Err(construct("deadline")),
            ExprKind::Yield(_) => Err(construct("yield")),
            ExprKind::Emit(_) => Err(construct("emit")),
            ExprKind::Nil
            | ExprKind::Bool(_)
            | ExprKind::Int(_)
            | ExprKind::Float(_)
            | ExprKind::Duration(_)
            | ExprKind::Str(_)
            | ExprKind::Error => Ok(()),
        }
    }

    /// Identifiers in match patterns bind names (enum payloads, dict and list parts).
    fn declare_match_bindings(&mut self, p: &Expr) {
        match &p.kind {
            ExprKind::Ident(n) => self.declare(n),
            ExprKind::MethodCall { args, .. } | ExprKind::List(args) => {
                for a in args {
                    let (Arg::Positional(e) | Arg::Spread(e)) = a;
                    self.declare_match_bindings(e);
                }
            }
            ExprKind::Dict(entries) => {
                for e in entries {
                    if let DictEntry::Pair { value, .. } = e {
                        self.declare_match_bindings(value);
                    }
                }
            }
            _ => {}
        }
    }
}

fn construct(name: &str) -> Violation {
    Violation::DeniedBuiltin(format!("composition snippets cannot use `{name}`"))
}

fn harness_denial(path: &str) -> Violation {
    Violation::DeniedBuiltin(format!(
        "composition snippets cannot call `{path}`: code mode has no harness capabilities; the only egress is a manifest binding"
    ))
}

/// Validates a parsed snippet: every violation, then every certain type error, as
/// diagnostics in walk order (a run reports the first).
pub fn validate_snippet(program: &Program, env: &Environment<'_>) -> Vec<Diagnostic> {
    let mut declared = HashSet::default();
    for item in &program.items {
        match &item.kind {
            StmtKind::Fn(f) => {
                declared.insert(f.name.name.clone());
            }
            StmtKind::Struct(s) => {
                declared.insert(s.name.name.clone());
            }
            StmtKind::Enum(e) => {
                declared.insert(e.name.name.clone());
            }
            _ => {}
        }
    }
    declared.insert("Result".into());
    let mut w = Walker {
        env,
        violations: Vec::new(),
        type_errors: Vec::new(),
        names: Vec::with_capacity(32),
        scope_starts: Vec::with_capacity(8),
        declared,
    };
    for item in &program.items {
        // `stmt` records its failures and never returns one.
        let _ = w.stmt(item, true);
    }
    let mut out = w.violations;
    out.append(&mut w.type_errors);
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::parse;

    fn check(src: &str) -> Vec<Diagnostic> {
        let bindings: HashSet<String> = ["docs_read_file", "search"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let in_profile = |n: &str| {
            matches!(
                n,
                "log" | "len" | "call_tool" | "map_bounded" | "json_parse"
            )
        };
        let capability_of = |n: &str| match n {
            "log" | "len" => Some("pure"),
            "read_file" => Some("io.fs"),
            "sleep" => Some("clock"),
            "call_tool" => Some("tool_egress"),
            _ => None,
        };
        let env = Environment {
            bindings: &bindings,
            in_profile: &in_profile,
            capability_of: &capability_of,
            state_granted: false,
            manifest: None,
        };
        let parsed = parse(src);
        assert!(!parsed.has_errors(), "{:?}", parsed.first_error());
        validate_snippet(&parsed.program, &env)
    }

    fn denied(src: &str) -> String {
        match check(src).first() {
            Some(d) => {
                let category = match d.static_category() {
                    crate::diagnostic::StaticCategory::DeniedBuiltin => "denied_builtin",
                    crate::diagnostic::StaticCategory::PolicyDenied => "policy_denied",
                    crate::diagnostic::StaticCategory::CompileError => "compile_error",
                };
                format!("{category}: {}", d.message)
            }
            None => "ok".into(),
        }
    }

    #[test]
    fn allowed_snippets_pass() {
        assert_eq!(
            denied("let f = docs_read_file({path: \"a\"})\nreturn len(f)"),
            "ok"
        );
        assert_eq!(denied("fn helper(x) { return x }\nreturn helper(1)"), "ok");
        assert_eq!(denied("let harness = 1\nreturn harness"), "ok");
        assert_eq!(
            denied(
                "let helper = {interaction: {ask_user: { -> 1 }}}\nreturn helper.interaction.ask_user()"
            ),
            "ok"
        );
        assert_eq!(denied("return [1, 2] |> len(_)"), "ok");
    }

    #[test]
    fn capability_denials_name_the_builtin() {
        assert_eq!(
            denied("read_file(\"x\")"),
            "denied_builtin: composition snippets cannot call `read_file` (capability `io.fs` is not available in code mode); the manifest binding is `docs_read_file`"
        );
        assert_eq!(
            denied("let f = write_file"),
            "denied_builtin: composition snippets cannot call `write_file`: it is denied in code mode (file system access)"
        );
        assert_eq!(
            denied("log(\"${write_file({path: \"x\"})}\")"),
            "denied_builtin: composition snippets cannot call `write_file`: it is denied in code mode (file system access)"
        );
        assert_eq!(
            denied("ask_user(\"hi\")"),
            "denied_builtin: composition snippets cannot call `ask_user`: it is denied in code mode (human interaction)"
        );
        assert_eq!(
            denied("__secret_thing()"),
            "denied_builtin: composition snippets cannot call `__secret_thing`: names starting with `__` are internal to the runtime"
        );
        assert_eq!(
            denied("fn f(x = http_get(\"u\")) { return x }"),
            "denied_builtin: composition snippets cannot call `http_get`: it is denied in code mode (network access)"
        );
    }

    #[test]
    fn harness_and_state_are_refused_with_the_full_path() {
        assert!(denied("harness.interaction.ask_user(\"q\")").ends_with("cannot call `harness.interaction.ask_user`: code mode has no harness capabilities; the only egress is a manifest binding"));
        assert!(
            denied("harness?.interaction.channel.ask_user(1)")
                .contains("`harness.interaction.channel.ask_user`")
        );
        assert_eq!(
            denied("state.get(\"k\")"),
            "policy_denied: composition operation `state.get` is unavailable unless manifest.state is granted"
        );
    }

    #[test]
    fn constructs_outside_code_mode_are_refused() {
        assert_eq!(
            denied("import \"std/json\""),
            "denied_builtin: composition snippets cannot import modules"
        );
        assert_eq!(
            denied("let t = spawn { 1 }"),
            "denied_builtin: composition snippets cannot spawn or parallelize work"
        );
        assert_eq!(
            denied("deadline 5s { 1 }"),
            "denied_builtin: composition snippets cannot use `deadline`"
        );
        assert_eq!(
            denied("pipeline evil() { log(1) }"),
            "compile_error: composition snippets cannot declare pipelines"
        );
        assert_eq!(
            denied("tool t() { description \"x\"\n return 1 }"),
            "denied_builtin: composition snippets cannot declare tools or skills"
        );
    }

    #[test]
    fn unknown_call_targets_are_compile_errors_with_suggestions() {
        assert_eq!(
            denied("serch({q: 1})"),
            "compile_error: composition call target `serch` is not a manifest binding or pure helper — did you mean `search`?"
        );
    }
}
