//! Binding identifiers (1.7): normalisation, the reserved set, collision suffixes.

use std::collections::BTreeSet;

use crate::builtins::BuiltinEnv;
use crate::lexer::Keyword;

/// Reserved beyond the Harn keywords: words the lexer treats specially elsewhere.
pub const HARN_EXTRA_RESERVED: &[&str] = &["const", "throws"];

/// JavaScript / TypeScript reserved words (1.7).
pub const JS_RESERVED: &[&str] = &[
    "break",
    "case",
    "catch",
    "class",
    "const",
    "continue",
    "debugger",
    "default",
    "delete",
    "do",
    "else",
    "enum",
    "export",
    "extends",
    "false",
    "finally",
    "for",
    "function",
    "if",
    "import",
    "in",
    "instanceof",
    "new",
    "null",
    "return",
    "super",
    "switch",
    "this",
    "throw",
    "true",
    "try",
    "typeof",
    "var",
    "void",
    "while",
    "with",
    "implements",
    "interface",
    "let",
    "package",
    "private",
    "protected",
    "public",
    "static",
    "yield",
    "await",
    "arguments",
    "eval",
    "undefined",
    "NaN",
    "Infinity",
];

/// The reserved names of 1.7 that are not builtins: `state`, `Result`, `harness` and
/// the generated type names. The builtins visible inside the sandbox (4.5) are the
/// declarations marked `sandbox_visible` ([`sandbox_builtins`]).
pub const RESERVED_NON_BUILTINS: &[&str] = &[
    "state",
    "Result",
    "harness",
    "JsonValue",
    "CompositionToolResult",
    "CompositionState",
];

/// The builtins visible inside the code-mode sandbox (`code-mode.md` 4.5): the pure
/// helpers, output, tool egress, `map_bounded`, `Ok` and `Err`.
pub fn sandbox_builtins() -> impl Iterator<Item = &'static str> {
    BuiltinEnv::global()
        .all()
        .filter(|d| d.sandbox_visible)
        .map(|d| d.name)
}

/// Whether `name` is in the reserved set of 1.7.
pub fn is_reserved(name: &str) -> bool {
    Keyword::from_word(name).is_some()
        || HARN_EXTRA_RESERVED.contains(&name)
        || JS_RESERVED.contains(&name)
        || RESERVED_NON_BUILTINS.contains(&name)
        || BuiltinEnv::global()
            .get(name)
            .is_some_and(|d| d.sandbox_visible)
}

/// The base identifier of a canonical name (1.7 steps 1–5).
pub fn normalize(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        let c = if c.is_ascii_alphanumeric() { c } else { '_' };
        if c == '_' && out.ends_with('_') {
            continue;
        }
        out.push(c);
    }
    let trimmed = out.trim_matches('_');
    if trimmed.is_empty() {
        return "tool".to_string();
    }
    if trimmed.starts_with(|c: char| c.is_ascii_digit()) || is_reserved(trimmed) {
        return format!("tool_{trimmed}");
    }
    trimmed.to_string()
}

/// Allocates identifiers in input order: the first claimant gets the base, later ones
/// `<base>_2`, `<base>_3`, … (first free).
#[derive(Debug, Default)]
pub struct NameAllocator {
    taken: BTreeSet<String>,
}

impl NameAllocator {
    pub fn new() -> Self {
        Self::default()
    }

    /// Marks `name` as taken without allocating it (e.g. `state`).
    pub fn reserve(&mut self, name: &str) {
        self.taken.insert(name.to_string());
    }

    pub fn allocate(&mut self, canonical: &str) -> String {
        let base = normalize(canonical);
        if self.taken.insert(base.clone()) {
            return base;
        }
        let mut n: u64 = 2;
        loop {
            let candidate = format!("{base}_{n}");
            if self.taken.insert(candidate.clone()) {
                return candidate;
            }
            n += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_examples() {
        for (input, want) in [
            ("github.search-issues", "github_search_issues"),
            ("mcp__srv__tool", "mcp_srv_tool"),
            ("docs__read_file", "docs_read_file"),
            ("read.file", "read_file"),
            ("__init__", "init"),
            ("if", "tool_if"),
            ("tool", "tool_tool"),
            ("delete", "tool_delete"),
            ("len", "tool_len"),
            ("9lives", "tool_9lives"),
            ("!!!", "tool"),
            ("-9abc", "tool_9abc"),
            ("", "tool"),
            ("héllo wörld", "h_llo_w_rld"),
            ("const", "tool_const"),
            ("throws", "tool_throws"),
            ("undefined", "tool_undefined"),
            ("map_bounded", "tool_map_bounded"),
            ("JsonValue", "tool_JsonValue"),
            ("harness", "tool_harness"),
            ("select", "tool_select"),
        ] {
            assert_eq!(normalize(input), want, "{input}");
        }
    }

    #[test]
    fn every_keyword_is_reserved() {
        for k in Keyword::ALL {
            assert!(is_reserved(k.as_str()), "{}", k.as_str());
        }
    }

    #[test]
    fn collisions() {
        let mut a = NameAllocator::new();
        assert_eq!(a.allocate("a.b"), "a_b");
        assert_eq!(a.allocate("a-b"), "a_b_2");
        assert_eq!(a.allocate("a_b_2"), "a_b_2_2");
        assert_eq!(a.allocate("a b"), "a_b_3");
        a.reserve("state");
        assert_eq!(a.allocate("tool"), "tool_tool");
    }

    /// The sandbox part of the reserved set is exactly the names `code-mode.md` 1.7 and
    /// 4.5 list (pinned here from the spec's text).
    #[test]
    fn sandbox_names_are_the_spec_list() {
        const SPEC: &str = "Ok Err is_ok is_err unwrap unwrap_or unwrap_err type_of to_string \
            to_int to_float parse_int_or parse_float_or len keys values entries contains split \
            join replace trim lower upper lowercase uppercase starts_with ends_with substring \
            format dirname min max abs round floor ceil sqrt pow range set flat_map group_by \
            dedup_by json_parse json_stringify json_extract json_pointer hash_value \
            base64_encode base64_decode hex_encode hex_decode assert assert_eq assert_ne \
            unreachable jq jq_first log print println call_tool __composition_call \
            map_bounded state Result harness JsonValue CompositionToolResult CompositionState";
        let spec: BTreeSet<&str> = SPEC.split_whitespace().collect();
        let ours: BTreeSet<&str> = sandbox_builtins()
            .chain(RESERVED_NON_BUILTINS.iter().copied())
            .collect();
        assert_eq!(ours, spec);
        assert!(spec.iter().all(|n| is_reserved(n)));
    }
}
