//! Command lines of upstream servers (`--mcp "CMD ARGS"`): split into words the way a
//! shell would, without running one.

/// Splits a command line into words: whitespace separates, single and double quotes
/// group, a backslash escapes the next character outside single quotes. No shell runs.
pub fn split_command(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('\''), c) => word.push(c),
            (_, '\\') => {
                let next = chars
                    .next()
                    .ok_or("the command line ends with a lone backslash")?;
                word.push(next);
                in_word = true;
            }
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if let Some(q) = quote {
        return Err(format!("unterminated {q} quote in the command line"));
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::split_command;

    #[test]
    fn command_lines_split_like_a_shell_without_one() {
        assert_eq!(
            split_command(r#"node "my server.js" --root 'a b' x\ y"#).unwrap(),
            ["node", "my server.js", "--root", "a b", "x y"]
        );
        assert_eq!(split_command("  ").unwrap(), Vec::<String>::new());
        assert_eq!(split_command("''").unwrap(), [""]);
        assert!(split_command("node 'open").is_err());
        assert!(split_command("node \\").is_err());
    }
}
