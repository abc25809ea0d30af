//! The MCP call policy's retry rules (`code-mode.md` 6.2, 6.3): which bindings may be
//! retried, which failures are transient, and how long to wait before the next attempt.
//! Pure functions, so the spec's vectors can be checked directly.

use harn_compiler::manifest::{Binding, Level, canonical_json};
use serde_json::Value as Json;
use sha2::{Digest, Sha256};

use crate::host::ToolError;
use crate::options::{Options, RetryOptions};
use crate::record::ChildCategory;

/// Where in the input an idempotency key may be (the JSON pointers `/idempotency_key`,
/// `/idempotencyKey`, `/_idempotency_key`, `/_meta/idempotencyKey` and
/// `/_meta/harn/idempotencyKey`), as key paths: asked before every tool call, so
/// nothing is parsed or allocated to follow them.
const IDEMPOTENCY_PATHS: [&[&str]; 5] = [
    &["idempotency_key"],
    &["idempotencyKey"],
    &["_idempotency_key"],
    &["_meta", "idempotencyKey"],
    &["_meta", "harn", "idempotencyKey"],
];

/// Lower-cased error text fragments that make a failure eligible for a retry.
const TRANSIENT_TEXT: [&str; 14] = [
    "429",
    "503",
    "retry-after",
    "rate limit",
    "rate-limit",
    "timeout",
    "timed out",
    "transient",
    "overloaded",
    "server closed connection",
    "disconnected",
    "mcp read error",
    "mcp write error",
    "connection reset",
];

fn has_idempotency_key(input: &Json) -> bool {
    IDEMPOTENCY_PATHS
        .iter()
        .filter_map(|path| {
            path.iter()
                .try_fold(input, |v, key| v.as_object()?.get(*key))
        })
        .any(|v| match v {
            Json::Null => false,
            Json::String(s) => !s.trim().is_empty(),
            _ => true,
        })
}

/// Whether this call may be attempted again at all (6.2).
pub fn retry_allowed(binding: &Binding, input: &Json, options: &Options) -> bool {
    if has_idempotency_key(input) {
        return true;
    }
    if binding.source == "mcp_server" {
        let trusted = options.trust_annotations
            || binding
                .mcp_server()
                .is_some_and(|s| options.trusted_servers.iter().any(|t| t == s));
        let hints = &binding.annotations.hints;
        return trusted
            && hints.destructive != Some(true)
            && (hints.read_only == Some(true) || hints.idempotent == Some(true));
    }
    binding.side_effect_level == Level::ReadOnly && binding.annotations.kind.is_read_only()
}

/// Whether a failed attempt is transient (6.2). Schema failures never are.
pub fn is_retryable(error: &ToolError) -> bool {
    if error.category == ChildCategory::SchemaValidation {
        return false;
    }
    if matches!(
        error.category,
        ChildCategory::Network
            | ChildCategory::Timeout
            | ChildCategory::McpServerError
            | ChildCategory::ResourceBusy
    ) || error.retryable
        || error
            .http_status
            .is_some_and(|s| matches!(s, 408 | 425 | 429 | 500 | 502 | 503 | 504))
    {
        return true;
    }
    let text = error.message.to_lowercase();
    TRANSIENT_TEXT.iter().any(|t| text.contains(t))
}

/// Seconds after a `retry-after` marker in lower-cased text, skipping `:`, `=` and
/// whitespace.
fn retry_after_seconds(text: &str) -> Option<u64> {
    let at = text.find("retry-after")? + "retry-after".len();
    let rest = text[at..].trim_start_matches(|c: char| c == ':' || c == '=' || c.is_whitespace());
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// The delay before the attempt after failed attempt `attempt` (1-based), in ms (6.3).
pub fn backoff_ms(
    tool: &str,
    input: &Json,
    attempt: u32,
    error: &ToolError,
    retry: &RetryOptions,
) -> u64 {
    if retry.max_delay_ms == 0 {
        return 0;
    }
    if retry.honor_retry_after {
        let hinted = error.retry_after_ms.or_else(|| {
            retry_after_seconds(&error.message.to_lowercase()).map(|s| s.saturating_mul(1000))
        });
        if let Some(ms) = hinted {
            return ms.min(retry.max_delay_ms);
        }
    }
    let base = retry
        .base_delay_ms
        .saturating_mul(1u64 << attempt.saturating_sub(1).min(20));
    if base == 0 {
        return 0;
    }
    let span = (base / 2).max(1);
    let mut hasher = Sha256::new();
    hasher.update(tool.as_bytes());
    hasher.update([0]);
    hasher.update(attempt.to_le_bytes());
    hasher.update([0]);
    hasher.update(canonical_json(input).as_bytes());
    let digest = hasher.finalize();
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    let jitter = u64::from_le_bytes(first) % (span + 1);
    base.saturating_add(jitter).min(retry.max_delay_ms)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use serde_json::json;

    fn retry(cap: u64) -> RetryOptions {
        RetryOptions {
            max_delay_ms: cap,
            ..RetryOptions::default()
        }
    }

    #[test]
    fn backoff_matches_the_spec_vectors() {
        let err = ToolError::new(ChildCategory::Network, "boom");
        let input = json!({"alpha": 2, "zeta": 1});
        assert_eq!(backoff_ms("search", &input, 2, &err, &retry(1000)), 242);
        let reordered = json!({"zeta": 1, "alpha": 2});
        assert_eq!(backoff_ms("search", &reordered, 2, &err, &retry(1000)), 242);
        let input = json!({"query": "runtime"});
        let got: Vec<u64> = (1..=3)
            .map(|a| backoff_ms("search", &input, a, &err, &retry(2000)))
            .collect();
        assert_eq!(got, [111, 239, 468]);
    }

    #[test]
    fn retry_after_text_is_read_as_seconds_and_capped() {
        let input = json!({});
        let e = ToolError::new(ChildCategory::Network, "HTTP 503\nRetry-After: 7");
        assert_eq!(backoff_ms("t", &input, 1, &e, &retry(250)), 250);
        let e = ToolError::new(ChildCategory::Network, "Retry-After: 0");
        assert_eq!(backoff_ms("t", &input, 1, &e, &retry(250)), 0);
        let mut e = ToolError::new(ChildCategory::Network, "x");
        e.retry_after_ms = Some(40);
        assert_eq!(backoff_ms("t", &input, 1, &e, &retry(250)), 40);
        assert_eq!(backoff_ms("t", &input, 1, &e, &retry(0)), 0);
    }

    #[test]
    fn transient_failures_are_recognised() {
        assert!(is_retryable(&ToolError::new(ChildCategory::Network, "x")));
        assert!(is_retryable(&ToolError::new(
            ChildCategory::ToolError,
            "rate limit hit"
        )));
        assert!(!is_retryable(&ToolError::new(
            ChildCategory::ToolError,
            "no such file"
        )));
        assert!(!is_retryable(&ToolError::new(
            ChildCategory::SchemaValidation,
            "timeout"
        )));
        let mut e = ToolError::new(ChildCategory::ToolError, "x");
        e.http_status = Some(502);
        assert!(is_retryable(&e));
    }

    #[test]
    fn idempotency_keys_count_when_present_and_not_blank() {
        assert!(has_idempotency_key(&json!({"idempotency_key": "k"})));
        assert!(has_idempotency_key(
            &json!({"_meta": {"harn": {"idempotencyKey": 7}}})
        ));
        assert!(!has_idempotency_key(&json!({"idempotencyKey": "  "})));
        assert!(!has_idempotency_key(&json!({"idempotencyKey": null})));
        assert!(has_idempotency_key(
            &json!({"_meta": {"idempotencyKey": "k"}})
        ));
        assert!(has_idempotency_key(&json!({"_idempotency_key": false})));
        // Only those places count: not deeper, not under another key, not in a list.
        assert!(!has_idempotency_key(
            &json!({"args": {"idempotency_key": "k"}})
        ));
        assert!(!has_idempotency_key(
            &json!({"_meta": {"harn": "idempotencyKey"}})
        ));
        assert!(!has_idempotency_key(
            &json!({"_meta": [{"idempotencyKey": "k"}]})
        ));
        assert!(!has_idempotency_key(&json!(["idempotency_key"])));
    }
}
