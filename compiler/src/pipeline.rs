//! The one pipeline from source text to bytecode, shared by `harnc run`, `check`,
//! `test`, the code-mode executor and the benches: parse, then (snippets) the
//! code-mode static stage and hoisting, then compilation. Every phase reports
//! [`Diagnostic`]s with spans and codes; nothing is first-only except that a phase
//! runs only when the phases before it found no error.

use crate::ast::Span;
use rustc_hash::FxHashSet as HashSet;

use crate::builtins::{BuiltinEnv, Profile};
use crate::bytecode::Proto;
use crate::compile::compile_program;
use crate::diagnostic::{Diagnostic, Phase, StaticCategory, codes};
use crate::manifest::Manifest;
use crate::types::check::{CheckEnv, check_program};
use crate::validate::{Environment, validate_snippet};
use crate::{LineIndex, parse};

/// A script checked on the way to a run: its diagnostics, not an editor's tables.
const DIAGNOSTICS_ONLY: CheckEnv<'static> = CheckEnv {
    manifest: None,
    binding_names: None,
    diagnostics_only: true,
};

/// Largest snippet accepted in code mode (bytes).
pub const MAX_SNIPPET_BYTES: usize = 262_144;

/// What a source text is compiled as.
#[derive(Clone, Copy)]
pub enum Env<'e> {
    /// An ordinary program.
    Script,
    /// A code-mode snippet (`code-mode.md` 4.2–4.4) in this environment.
    Snippet(&'e Environment<'e>),
}

/// Parses, checks and compiles `source`. The prototype is there iff no diagnostic is
/// an error.
pub fn compile_source(source: &str, env: &Env<'_>) -> (Option<Proto>, Vec<Diagnostic>) {
    if let Env::Snippet(_) = env
        && source.len() > MAX_SNIPPET_BYTES
    {
        let d = Diagnostic::error(
            codes::SNIPPET,
            format!("snippet is larger than {MAX_SNIPPET_BYTES} bytes"),
            Span::new(0, 0),
            "too large",
        );
        return (None, vec![d]);
    }
    let parsed = parse(source);
    let mut diagnostics = parsed.diagnostics;
    if diagnostics.iter().any(Diagnostic::is_error) {
        return (None, diagnostics);
    }
    let compiled = match env {
        Env::Script => match crate::std_modules::splice(source, &parsed.program) {
            Err(d) => {
                diagnostics.push(*d);
                return (None, diagnostics);
            }
            Ok(None) => {
                diagnostics.extend(check_program(&parsed.program, &DIAGNOSTICS_ONLY).diagnostics);
                if diagnostics.iter().any(Diagnostic::is_error) {
                    return (None, diagnostics);
                }
                compile_program(&parsed.program, source)
            }
            Ok(Some(spliced)) => {
                let checked = check_program(&spliced.program, &DIAGNOSTICS_ONLY);
                // A module's warnings are ours to fix, not the program's to read.
                diagnostics.extend(
                    checked
                        .diagnostics
                        .into_iter()
                        .filter(|d| {
                            d.is_error() || (d.primary.span.start as usize) < spliced.own_len
                        })
                        .map(|d| crate::std_modules::relocate(d, &spliced)),
                );
                if diagnostics.iter().any(Diagnostic::is_error) {
                    return (None, diagnostics);
                }
                return match compile_program(&spliced.program, &spliced.text) {
                    Ok(proto) => (Some(proto), diagnostics),
                    Err(errors) => {
                        diagnostics.extend(
                            errors
                                .into_iter()
                                .map(|e| crate::std_modules::relocate(e.to_diagnostic(), &spliced)),
                        );
                        (None, diagnostics)
                    }
                };
            }
        },
        Env::Snippet(environment) => {
            diagnostics.extend(validate_snippet(&parsed.program, environment));
            if diagnostics.iter().any(Diagnostic::is_error) {
                return (None, diagnostics);
            }
            let manifest = environment.manifest;
            let env = CheckEnv {
                manifest,
                binding_names: Some(environment.bindings),
                diagnostics_only: true,
            };
            diagnostics.extend(check_program(&parsed.program, &env).diagnostics);
            if diagnostics.iter().any(Diagnostic::is_error) {
                return (None, diagnostics);
            }
            let program = crate::snippet::hoist_functions(parsed.program, source);
            crate::compile::compile_program_with(&program, source, environment.state_granted)
        }
    };
    match compiled {
        Ok(proto) => (Some(proto), diagnostics),
        Err(errors) => {
            diagnostics.extend(errors.into_iter().map(|e| e.to_diagnostic()));
            (None, diagnostics)
        }
    }
}

/// The first error of a script as the reference words it (`language.md` 1.6): a
/// syntax error's message, or `Compile error at line N: <message>`.
pub fn script_error_text(diagnostic: &Diagnostic, source: &str) -> String {
    match diagnostic.phase() {
        Phase::Compile => {
            let line = LineIndex::lines_only(source).line(diagnostic.primary.span.start as usize);
            format!("Compile error at line {line}: {}", diagnostic.message)
        }
        _ => diagnostic.message.clone(),
    }
}

/// A snippet that may run: its bytecode and the warnings found on the way.
#[derive(Clone, Debug)]
pub struct Accepted {
    pub proto: Proto,
    pub warnings: Vec<Diagnostic>,
}

/// Why a snippet cannot run: the category and message a run reports (the first
/// error), and every diagnostic.
#[derive(Clone, Debug)]
pub struct Refusal {
    pub category: StaticCategory,
    pub message: String,
    pub diagnostics: Vec<Diagnostic>,
}

/// The static stage of a code-mode run (`code-mode.md` 4.2) against `manifest`: size,
/// parse, the snippet checks (denied builtins, imports, concurrency, unknown call
/// targets, literal argument types), hoisting, compilation. Nothing runs, so `harnc check
/// --manifest` and a run can never disagree.
pub fn check_snippet(snippet: &str, manifest: &Manifest) -> Result<Accepted, Refusal> {
    with_snippet_environment(manifest, |env| check_snippet_in(snippet, env))
}

/// [`check_snippet`] with the manifest's [`binding_names`] made beforehand: a host that
/// runs many snippets against one manifest makes them once.
pub fn check_snippet_with(
    snippet: &str,
    manifest: &Manifest,
    bindings: &BindingNames,
) -> Result<Accepted, Refusal> {
    with_environment_of(manifest, bindings, |env| check_snippet_in(snippet, env))
}

/// The names a snippet may call tools by.
pub type BindingNames = HashSet<String>;

/// The names a snippet may call tools by: the manifest's bindings.
pub fn binding_names(manifest: &Manifest) -> BindingNames {
    manifest
        .bindings
        .iter()
        .map(|b| b.binding.clone())
        .collect()
}

/// The code-mode environment of a snippet against `manifest`: its bindings, the
/// code-mode profile of the builtin environment, and the state grant.
pub fn with_snippet_environment<T>(
    manifest: &Manifest,
    f: impl FnOnce(&Environment<'_>) -> T,
) -> T {
    with_environment_of(manifest, &binding_names(manifest), f)
}

fn with_environment_of<T>(
    manifest: &Manifest,
    bindings: &HashSet<String>,
    f: impl FnOnce(&Environment<'_>) -> T,
) -> T {
    let builtins = BuiltinEnv::global();
    let in_profile = |name: &str| builtins.installed(name, Profile::CodeMode);
    let capability_of = |name: &str| builtins.get(name).map(|d| d.capability.as_str());
    f(&Environment {
        bindings,
        in_profile: &in_profile,
        capability_of: &capability_of,
        manifest: Some(manifest),
        state_granted: manifest.state.is_some(),
    })
}

/// [`check_snippet`] in a given environment.
pub fn check_snippet_in(snippet: &str, environment: &Environment<'_>) -> Result<Accepted, Refusal> {
    let (proto, diagnostics) = compile_source(snippet, &Env::Snippet(environment));
    let first = diagnostics.iter().find(|d| d.is_error());
    match (proto, first) {
        (Some(proto), None) => Ok(Accepted {
            proto,
            warnings: diagnostics,
        }),
        (_, first) => {
            let (category, message) = match first {
                Some(d) => (d.static_category(), snippet_error_text(d, snippet)),
                None => (
                    StaticCategory::CompileError,
                    "composition compile error".to_string(),
                ),
            };
            Err(Refusal {
                category,
                message,
                diagnostics,
            })
        }
    }
}

/// A snippet's error without its position, for displays that show the span anyway
/// (`harnc check`'s `file:L:C:` form, an editor).
pub fn snippet_error_message(d: &Diagnostic) -> String {
    match d.phase() {
        Phase::Syntax => format!("composition parse error: {}", d.message),
        Phase::Type => format!("composition type error: {}", d.message),
        Phase::Compile => format!("composition compile error: {}", d.message),
        Phase::Validation => d.message.clone(),
    }
}

/// A snippet's error as a run reports it: the phase's prefix, then the message, with
/// its line and column in `source` (a syntax error's message already names them).
pub fn snippet_error_text(d: &Diagnostic, source: &str) -> String {
    let (line, col) = LineIndex::new(source).line_col(d.primary.span.start as usize);
    match d.phase() {
        Phase::Syntax => format!("composition parse error: {}", d.message),
        Phase::Type => format!("composition type error at {line}:{col}: {}", d.message),
        Phase::Compile => format!("composition compile error at {line}:{col}: {}", d.message),
        // The spec's wording first (4.4), so it stays a prefix of the message.
        Phase::Validation => format!("{} (at {line}:{col})", d.message),
    }
}

/// What an editor shows for a parsed source text: every diagnostic the phases before
/// compilation find, and the checker's tables.
#[derive(Clone, Debug, Default)]
pub struct Findings {
    /// Parse errors; then, when the parse is clean, the snippet checks (code mode) and
    /// the checker's findings at the places those checks left alone.
    pub diagnostics: Vec<Diagnostic>,
    /// Types and definitions, computed even over a recovered tree so that an editor
    /// keeps its symbols while the file does not parse.
    pub checked: crate::types::check::Checked,
}

/// Analyses a parsed text of `source_len` bytes as a script (`manifest` is `None`) or as
/// a code-mode snippet against `manifest`, without compiling it.
pub fn analyze_parsed(
    parsed: &crate::Parsed,
    source_len: usize,
    manifest: Option<&Manifest>,
) -> Findings {
    let mut diagnostics = parsed.diagnostics.clone();
    let clean = !diagnostics.iter().any(Diagnostic::is_error);
    if manifest.is_some() && source_len > MAX_SNIPPET_BYTES {
        diagnostics.push(Diagnostic::error(
            codes::SNIPPET,
            format!("snippet is larger than {MAX_SNIPPET_BYTES} bytes"),
            Span::new(0, 0),
            "too large",
        ));
    }
    if clean && let Some(m) = manifest {
        diagnostics.extend(with_snippet_environment(m, |env| {
            validate_snippet(&parsed.program, env)
        }));
    }
    let checked = check_program(
        &parsed.program,
        &CheckEnv {
            manifest,
            binding_names: None,
            diagnostics_only: false,
        },
    );
    if clean {
        // An editor shows every finding at once; where the snippet checks already
        // report an error, the checker's view of the same place is left out.
        let taken: Vec<Span> = diagnostics
            .iter()
            .filter(|d| d.is_error())
            .map(|d| d.primary.span)
            .collect();
        let overlaps = |s: Span| taken.iter().any(|t| t.start < s.end && s.start < t.end);
        diagnostics.extend(
            checked
                .diagnostics
                .iter()
                .filter(|d| !overlaps(d.primary.span))
                .cloned(),
        );
    }
    Findings {
        diagnostics,
        checked,
    }
}
