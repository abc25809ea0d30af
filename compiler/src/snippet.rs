//! Snippet mode (`code-mode.md` 4.3): a code-mode snippet is a script whose top-level
//! `fn` declarations are hoisted, so a helper may be called above its declaration.
//! Functions capture by value when they are created, so a function that reads a
//! top-level variable stays where it is written (hoisting it would capture the variable
//! before it exists); every other top-level `fn` is moved to the front, in order.

use crate::ast::{Pattern, Program, StmtKind};

/// The names the top-level `let`s bind: a snippet has a few, so they are kept in a list
/// with a mask of their lengths, which turns most words away before any comparison
/// (no hashing of every word of every function).
#[derive(Default)]
struct Names<'a> {
    names: Vec<&'a [u8]>,
    /// Bit `n` set: some name is `n` bytes long (bit 63: some name is 63 or longer).
    lengths: u64,
}

impl<'a> Names<'a> {
    fn insert(&mut self, name: &'a [u8]) {
        self.lengths |= 1 << name.len().min(63);
        self.names.push(name);
    }

    fn contains(&self, word: &[u8]) -> bool {
        self.lengths & (1 << word.len().min(63)) != 0 && self.names.contains(&word)
    }
}

/// The names a top-level `let`/`var` pattern binds.
fn pattern_names<'a>(p: &'a Pattern, out: &mut Names<'a>) {
    match p {
        Pattern::Ident(id) => {
            out.insert(id.name.as_bytes());
        }
        Pattern::Wildcard(_) => {}
        Pattern::Dict { fields, rest, .. } => {
            for f in fields {
                out.insert(f.binding.as_ref().unwrap_or(&f.key).name.as_bytes());
            }
            if let Some(r) = rest {
                out.insert(r.name.as_bytes());
            }
        }
        Pattern::List { elems, rest, .. } => {
            for e in elems {
                if let Some(b) = &e.binding {
                    out.insert(b.name.as_bytes());
                }
            }
            if let Some(r) = rest {
                out.insert(r.name.as_bytes());
            }
        }
        Pattern::Pair(a, b, _) => {
            out.insert(a.name.as_bytes());
            out.insert(b.name.as_bytes());
        }
    }
}

/// Every identifier-shaped word of `text`, as bytes (an over-approximation of the names
/// a function uses: words in strings and comments count too, which only ever keeps a
/// function in place). Split at ASCII bytes that cannot be in a name, so non-ASCII text
/// stays inside words: in code a name touches only ASCII punctuation or space (anything
/// else is a lexical error), so every name the function uses is still a word. By bytes,
/// not characters: no UTF-8 decoding of the function's text.
fn words(text: &str) -> impl Iterator<Item = &[u8]> {
    text.as_bytes()
        .split(|&b| b.is_ascii() && !(b.is_ascii_alphanumeric() || b == b'_'))
        .filter(|w| !w.is_empty())
}

/// The program with hoistable top-level functions moved to the front. It takes the tree
/// by value: the statements are moved, never cloned (this runs on every code-mode run).
pub fn hoist_functions(program: Program, source: &str) -> Program {
    let mut variables = Names::default();
    for item in &program.items {
        if let StmtKind::Let { pattern, .. } = &item.kind {
            pattern_names(pattern, &mut variables);
        }
    }
    let hoistable = |item: &crate::ast::Stmt| {
        matches!(item.kind, StmtKind::Fn(_)) && {
            let text = source
                .get(item.span.start as usize..item.span.end as usize)
                .unwrap_or("");
            !words(text).any(|w| variables.contains(w))
        }
    };
    // Decided before the statements move (the names borrow from them).
    let hoisted: Vec<bool> = program.items.iter().map(hoistable).collect();
    // Already in order (no hoisted function after a statement that stays): nothing moves.
    if hoisted.windows(2).all(|w| w[0] || !w[1]) {
        return program;
    }
    let mut items = Vec::with_capacity(hoisted.len());
    let mut rest = Vec::new();
    for (item, hoisted) in program.items.into_iter().zip(hoisted) {
        if hoisted {
            items.push(item);
        } else {
            rest.push(item);
        }
    }
    items.extend(rest);
    Program {
        items,
        span: program.span,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::hoist_functions;
    use crate::ast::StmtKind;

    fn order(src: &str) -> Vec<String> {
        let parsed = crate::parse(src);
        hoist_functions(parsed.program, src)
            .items
            .iter()
            .map(|s| match &s.kind {
                StmtKind::Fn(f) => format!("fn {}", f.name.name),
                _ => "stmt".into(),
            })
            .collect()
    }

    #[test]
    fn functions_that_read_no_top_level_variable_move_to_the_front() {
        let src =
            "let a = f(1)\nlet k = 2\nfn f(x) { return x }\nfn g(x) { return x + k }\nreturn a";
        assert_eq!(order(src), ["fn f", "stmt", "stmt", "fn g", "stmt"]);
        let src = "let {p, q: r} = {p: 1, q: 2}\nfn uses_r() { return r }\nfn pure() { return 1 }";
        assert_eq!(order(src), ["fn pure", "stmt", "fn uses_r"]);
    }
}
