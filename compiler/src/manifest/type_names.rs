//! Generated type names (3.1): PascalCase of the binding plus a suffix, made unique.

use std::collections::BTreeSet;

/// PascalCase words: `_ - . /` separate words and upper-case the next letter; other
/// non-alphanumerics are dropped.
pub fn pascal_words(text: &str) -> String {
    let mut out = String::new();
    let mut upper = true;
    for c in text.chars() {
        if matches!(c, '_' | '-' | '.' | '/') {
            upper = true;
        } else if c.is_ascii_alphanumeric() {
            if upper {
                out.push(c.to_ascii_uppercase());
            } else {
                out.push(c);
            }
            upper = false;
        }
    }
    out
}

/// The type base of a binding: PascalCase, `Tool` before a leading digit, empty → `Tool`.
pub fn pascal_case(binding: &str) -> String {
    let words = pascal_words(binding);
    if words.is_empty() || words.starts_with(|c: char| c.is_ascii_digit()) {
        format!("Tool{words}")
    } else {
        words
    }
}

/// The set of type names already used in one output.
#[derive(Debug, Clone)]
pub struct TypeNames {
    used: BTreeSet<String>,
}

impl Default for TypeNames {
    fn default() -> Self {
        TypeNames {
            used: ["JsonValue", "CompositionToolResult", "CompositionState"]
                .into_iter()
                .map(str::to_string)
                .collect(),
        }
    }
}

impl TypeNames {
    pub fn new() -> Self {
        Self::default()
    }

    /// `name` if free, else `name2`, `name3`, … (smallest free).
    pub fn claim(&mut self, name: &str) -> String {
        if self.used.insert(name.to_string()) {
            return name.to_string();
        }
        let mut n: u64 = 2;
        loop {
            let candidate = format!("{name}{n}");
            if self.used.insert(candidate.clone()) {
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
    fn pascal() {
        assert_eq!(pascal_case("docs_read_file"), "DocsReadFile");
        assert_eq!(pascal_case("tool_9lives"), "Tool9lives");
        assert_eq!(pascal_case("9x"), "Tool9x");
        assert_eq!(pascal_case(""), "Tool");
        assert_eq!(pascal_case("foo_2"), "Foo2");
        let mut names = TypeNames::new();
        assert_eq!(names.claim("Foo2Args"), "Foo2Args");
        assert_eq!(names.claim("Foo2Args"), "Foo2Args2");
        assert_eq!(names.claim("JsonValue"), "JsonValue2");
    }
}
