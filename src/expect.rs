//! How a run's error text is matched against an `.error` file (`language.md` 1): each
//! line is a fragment the text must contain, or `re:PATTERN`, a regex it must match;
//! one matching line is enough. Shared by `harnc test` and the test suites (which
//! include this file), so both judge an `.error` file the same way.

/// Whether `actual` matches any line of `expected`. A line whose regex does not
/// compile is an error: a broken expectation must never pass or fail silently.
pub fn error_matches(expected: &str, actual: &str) -> Result<bool, String> {
    for line in expected.trim_end().lines() {
        let matched = match line.strip_prefix("re:") {
            Some(pattern) => regex::Regex::new(pattern.trim())
                .map_err(|e| format!("bad regex {pattern:?} in .error file: {e}"))?
                .is_match(actual),
            None => actual.contains(line),
        };
        if matched {
            return Ok(true);
        }
    }
    Ok(false)
}
