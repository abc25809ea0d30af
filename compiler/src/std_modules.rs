//! The standard-library modules written in Harn (`compiler/std/**/*.harn`), and how a
//! script's `import "std/…"` reaches them.
//!
//! A module is a set of top-level declarations. Importing splices it: the program is
//! parsed again as its own text followed by each imported module's text (each once,
//! modules imported by modules included), and the std `import` statements are dropped.
//! Splicing keeps one source text, so every later phase (checker, compiler, the
//! runtime's line numbers) works unchanged, and the program's own spans stay where
//! they were: everything past the program's length belongs to a module.
//!
//! Names a module keeps for itself start with `__<module>_`, so a program's own names
//! cannot collide with them.

use crate::ast::{Program, Span, Stmt, StmtKind};
use crate::diagnostic::{Diagnostic, codes};
use crate::parse;

/// Every embedded module: `("std/<path>", source)`, sorted by path.
static MODULES: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/std_modules.rs"));

/// Most modules a program may pull in, directly or through other modules.
const MAX_MODULES: usize = 64;

/// The source of the standard module `path` (`"std/calendar"`), if there is one.
pub fn module_source(path: &str) -> Option<&'static str> {
    MODULES.iter().find(|(p, _)| *p == path).map(|(_, s)| *s)
}

/// The paths of every embedded module.
pub fn module_paths() -> impl Iterator<Item = &'static str> {
    MODULES.iter().map(|(p, _)| *p)
}

/// Whether `path` names the standard library rather than a file.
pub fn is_std_path(path: &str) -> bool {
    path.starts_with("std/")
}

/// The std imports at the top level of `program`: path and the span of its string.
fn std_imports(program: &Program) -> Vec<(String, Span)> {
    program
        .items
        .iter()
        .filter_map(|s| match &s.kind {
            StmtKind::Import(d) if is_std_path(&d.path) => Some((d.path.clone(), d.path_span)),
            _ => None,
        })
        .collect()
}

/// What splicing a program's std imports gave.
pub struct Spliced {
    /// The program's text followed by every module's text.
    pub text: String,
    /// The parsed combined program, its std imports removed.
    pub program: Program,
    /// Where the program's own text ends in `text`.
    pub own_len: usize,
    /// The first std import's path string: where a module's own findings are shown.
    pub anchor: Span,
}

/// Splices the std modules `program` (parsed from `source`) imports. `Ok(None)` when it
/// imports none; an unknown module or a module that does not parse is an error at the
/// import.
pub fn splice(source: &str, program: &Program) -> Result<Option<Spliced>, Box<Diagnostic>> {
    let direct = std_imports(program);
    let Some((_, anchor)) = direct.first().cloned() else {
        return Ok(None);
    };
    let mut text = String::with_capacity(source.len() + 1);
    text.push_str(source);
    let mut pending: Vec<(String, Span)> = direct;
    pending.reverse();
    let mut seen: Vec<String> = Vec::new();
    while let Some((path, span)) = pending.pop() {
        if seen.contains(&path) {
            continue;
        }
        let Some(module) = module_source(&path) else {
            return Err(Box::new(unknown_module(&path, span, source)));
        };
        if seen.len() >= MAX_MODULES {
            return Err(Box::new(Diagnostic::error(
                codes::SYNTAX,
                format!("more than {MAX_MODULES} standard modules imported"),
                span,
                "too many modules",
            )));
        }
        let parsed = parse(module);
        if let Some(d) = parsed.diagnostics.iter().find(|d| d.is_error()) {
            return Err(Box::new(Diagnostic::error(
                codes::SYNTAX,
                format!("standard module `{path}` does not parse: {}", d.message),
                span,
                "in this module",
            )));
        }
        let mut nested = std_imports(&parsed.program);
        nested.reverse();
        // A module's own imports are reported at the import that brought it in.
        pending.extend(nested.into_iter().map(|(p, _)| (p, span)));
        seen.push(path);
        text.push('\n');
        text.push_str(module);
    }
    let parsed = parse(&text);
    if let Some(d) = parsed.diagnostics.iter().find(|d| d.is_error()) {
        return Err(Box::new(Diagnostic::error(
            codes::SYNTAX,
            format!(
                "the imported standard modules do not parse together: {}",
                d.message
            ),
            anchor,
            "imported here",
        )));
    }
    let mut program = parsed.program;
    let own_len = source.len();
    let is_module = |s: &Stmt| s.span.start as usize >= own_len;
    // Names the program imported by name: a module function the program also defines
    // but did not import gives way to the program's own (it was never asked for).
    let selected: Vec<&str> = program
        .items
        .iter()
        .filter_map(|s| match &s.kind {
            StmtKind::Import(d) if is_std_path(&d.path) => d.names.as_ref(),
            _ => None,
        })
        .flatten()
        .map(|n| n.name.as_str())
        .collect();
    let wholesale = program.items.iter().any(
        |s| matches!(&s.kind, StmtKind::Import(d) if is_std_path(&d.path) && d.names.is_none()),
    );
    let own_fns: Vec<String> = program
        .items
        .iter()
        .filter(|s| !is_module(s))
        .filter_map(fn_name)
        .filter(|n| !wholesale && !selected.contains(n))
        .map(str::to_owned)
        .collect();
    // A function the program defines under a name it also imports is a redeclaration.
    if let Some(clash) = program.items.iter().filter(|s| !is_module(s)).find(|s| {
        fn_name(s).is_some_and(|n| {
            selected.contains(&n)
                && program
                    .items
                    .iter()
                    .any(|m| is_module(m) && fn_name(m) == Some(n))
        })
    }) {
        let name = fn_name(clash).unwrap_or_default();
        let (line, col) = crate::LineIndex::new(source).line_col(clash.span.start as usize);
        return Err(Box::new(Diagnostic::error(
            codes::SYNTAX,
            format!(
                "Cannot redeclare immutable variable '{name}' in the same scope: it is imported from a standard module (at {line}:{col})"
            ),
            clash.span,
            "already imported",
        )));
    }
    let (mut items, own): (Vec<Stmt>, Vec<Stmt>) = std::mem::take(&mut program.items)
        .into_iter()
        .filter(|s| !matches!(&s.kind, StmtKind::Import(d) if is_std_path(&d.path)))
        .partition(is_module);
    items.retain(|s| fn_name(s).is_none_or(|n| !own_fns.iter().any(|o| o == n)));
    // Modules come first, so that a script's top-level statements can call their
    // functions; the spans still say where each item's text is.
    items.extend(own);
    program.items = items;
    Ok(Some(Spliced {
        text,
        program,
        own_len,
        anchor,
    }))
}

/// The name a top-level `fn` declares.
fn fn_name(s: &Stmt) -> Option<&str> {
    match &s.kind {
        StmtKind::Fn(f) => Some(f.name.name.as_str()),
        _ => None,
    }
}

fn unknown_module(path: &str, span: Span, source: &str) -> Diagnostic {
    let (line, col) = crate::LineIndex::new(source).line_col(span.start as usize);
    let mut message = format!("unknown standard module `{path}` at {line}:{col}");
    if let Some(best) = crate::suggest::suggest(path, module_paths()) {
        message.push_str(&format!(" — did you mean `{best}`?"));
    }
    Diagnostic::error(codes::SYNTAX, message, span, "no such module")
}

/// Moves a finding inside a module's text onto the import that brought the module in,
/// so that every span a caller sees lies in the program's own text.
pub fn relocate(mut d: Diagnostic, spliced: &Spliced) -> Diagnostic {
    if d.primary.span.start as usize >= spliced.own_len {
        d.message = format!("in an imported standard module: {}", d.message);
        d.primary.span = spliced.anchor;
        d.secondary.clear();
    }
    d.secondary
        .retain(|l| (l.span.end as usize) <= spliced.own_len);
    d
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn every_embedded_module_parses_alone() {
        for (path, source) in MODULES {
            let parsed = parse(source);
            let errors: Vec<_> = parsed.diagnostics.iter().filter(|d| d.is_error()).collect();
            assert!(errors.is_empty(), "{path}: {errors:?}");
        }
    }

    #[test]
    fn an_unknown_module_is_an_error_at_its_import() {
        let src = "import \"std/nope\"\nlog(1)\n";
        let parsed = parse(src);
        let Err(d) = splice(src, &parsed.program) else {
            panic!("expected an error");
        };
        assert!(
            d.message.starts_with("unknown standard module `std/nope`"),
            "{}",
            d.message
        );
        assert_eq!(
            &src[d.primary.span.start as usize..d.primary.span.end as usize],
            "\"std/nope\""
        );
    }
}
