//! Secret redaction (`code-mode.md` 4.13): every registered secret is searched for in
//! its raw form, standard and URL-safe base64 (with and without padding), lower- and
//! upper-case hex and percent-encoding, and each occurrence becomes `[REDACTED]`.

use data_encoding::{BASE64, BASE64_NOPAD, BASE64URL, BASE64URL_NOPAD, HEXLOWER, HEXUPPER};
use serde_json::Value as Json;

pub const REDACTED: &str = "[REDACTED]";

/// The encoded forms of a run's secrets, longest first so a longer form is never
/// half-replaced through a shorter one it contains.
#[derive(Default)]
pub struct Redactor {
    forms: Vec<String>,
}

/// RFC 3986 percent-encoding of every byte outside the unreserved set.
fn percent_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len() * 3);
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

impl Redactor {
    pub fn new(secrets: &[String]) -> Redactor {
        let mut forms: Vec<String> = Vec::new();
        for secret in secrets.iter().filter(|s| !s.is_empty()) {
            let bytes = secret.as_bytes();
            for form in [
                secret.clone(),
                BASE64.encode(bytes),
                BASE64_NOPAD.encode(bytes),
                BASE64URL.encode(bytes),
                BASE64URL_NOPAD.encode(bytes),
                HEXLOWER.encode(bytes),
                HEXUPPER.encode(bytes),
                percent_encode(secret),
            ] {
                if !forms.contains(&form) {
                    forms.push(form);
                }
            }
        }
        forms.sort_by_key(|f| std::cmp::Reverse(f.len()));
        Redactor { forms }
    }

    pub fn is_empty(&self) -> bool {
        self.forms.is_empty()
    }

    /// The text with every secret form replaced, and how many were.
    pub fn text(&self, text: &str) -> (String, u64) {
        let mut out = text.to_string();
        let mut count = 0u64;
        for form in &self.forms {
            let n = out.matches(form.as_str()).count() as u64;
            if n > 0 {
                out = out.replace(form.as_str(), REDACTED);
                count += n;
            }
        }
        (out, count)
    }

    /// Redacts every string (and object key) of a JSON value in place; returns the
    /// number of replacements.
    /// Redacts a call record's strings: its input, annotations and policy text.
    pub fn call(&self, call: &mut crate::record::CallRecord) -> u64 {
        let mut n = self.json(&mut call.raw_input) + self.json(&mut call.annotations);
        let (name, k) = self.text(&call.tool_name);
        call.tool_name = name;
        n += k;
        if let Some(reason) = &call.policy_context.reason {
            let (reason, k) = self.text(reason);
            call.policy_context.reason = Some(reason);
            n += k;
        }
        if let Some(scope) = &mut call.policy_context.scope {
            n += self.json(scope);
        }
        n
    }

    pub fn json(&self, value: &mut Json) -> u64 {
        if self.is_empty() {
            return 0;
        }
        match value {
            Json::String(s) => {
                let (text, n) = self.text(s);
                if n > 0 {
                    *s = text;
                }
                n
            }
            Json::Array(items) => items.iter_mut().map(|v| self.json(v)).sum(),
            Json::Object(map) => {
                let mut n = 0;
                let entries: Vec<(String, Json)> = std::mem::take(map).into_iter().collect();
                for (key, mut v) in entries {
                    let (key, k) = self.text(&key);
                    n += k + self.json(&mut v);
                    map.insert(key, v);
                }
                n
            }
            _ => 0,
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_encoding_is_redacted() {
        let r = Redactor::new(&["s3cr3t/tok+en?".to_string()]);
        for form in [
            "s3cr3t/tok+en?".to_string(),
            BASE64.encode(b"s3cr3t/tok+en?"),
            BASE64URL_NOPAD.encode(b"s3cr3t/tok+en?"),
            HEXUPPER.encode(b"s3cr3t/tok+en?"),
            HEXLOWER.encode(b"s3cr3t/tok+en?"),
            "s3cr3t%2Ftok%2Ben%3F".to_string(),
        ] {
            let (text, n) = r.text(&format!("before {form} after"));
            assert_eq!(text, "before [REDACTED] after", "{form}");
            assert_eq!(n, 1, "{form}");
        }
    }

    #[test]
    fn json_values_are_walked() {
        let r = Redactor::new(&["hunter22".to_string()]);
        let mut v = json!({"a": ["x hunter22 y", {"hunter22": 1}], "b": 3});
        assert_eq!(r.json(&mut v), 2);
        assert_eq!(
            v,
            json!({"a": ["x [REDACTED] y", {"[REDACTED]": 1}], "b": 3})
        );
    }
}
