//! URLs on the `url` crate (WHATWG parsing): `url_parse` splits a URL into a dict of
//! parts, `url_build` joins one back. Both normalise as browsers do (lowercase scheme and
//! host, punycode, percent-encoded path, a default port dropped).

use harn_vm::VmError;
use harn_vm::native::Host;
use harn_vm::registry::RegistryBuilder;
use harn_vm::value::{Dict, Value};
use url::Url;

use crate::util::{arg, charge, text};

fn opt_str(s: Option<&str>) -> Value {
    s.filter(|s| !s.is_empty())
        .map_or(Value::Nil, |s| Value::str(s.to_owned()))
}

/// `{scheme, host, port, path, query, fragment, username, password}`; absent parts are
/// nil, and so is a port equal to the scheme's default.
fn url_parse(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let s = text(args, 0)?;
    charge(host, s.len() / 64 + 1)?;
    let url = Url::parse(s.trim()).map_err(|e| VmError::thrown_str(format!("url_parse: {e}")))?;
    let mut d = Dict::new();
    d.insert("scheme", Value::str(url.scheme()));
    d.insert("host", opt_str(url.host_str()));
    d.insert(
        "port",
        url.port().map_or(Value::Nil, |p| Value::Int(i64::from(p))),
    );
    d.insert("path", Value::str(url.path()));
    d.insert("query", url.query().map_or(Value::Nil, Value::str));
    d.insert("fragment", url.fragment().map_or(Value::Nil, Value::str));
    d.insert("username", opt_str(Some(url.username())));
    d.insert("password", url.password().map_or(Value::Nil, Value::str));
    Ok(Value::dict(d))
}

fn build_err(msg: impl std::fmt::Display) -> VmError {
    VmError::thrown_str(format!("url_build: {msg}"))
}

/// A dict field as text: nil when absent or nil.
fn part(d: &Dict, key: &str) -> Result<Option<String>, VmError> {
    match d.get(key) {
        None | Some(Value::Nil) => Ok(None),
        Some(Value::Str(s)) => Ok(Some(s.as_str().to_owned())),
        Some(v) => harn_vm::display::display(v).map(Some),
    }
}

/// The URL a dict of parts describes: `scheme` required; `host`, `port`, `path`,
/// `query`, `fragment`, `username`, `password` optional.
fn url_build(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let Value::Dict(d) = arg(args, 0) else {
        return Err(build_err("expected a dict of url parts"));
    };
    charge(host, d.len() + 1)?;
    let scheme = part(d, "scheme")?
        .filter(|s| !s.is_empty())
        .ok_or_else(|| build_err("'scheme' is required"))?;
    let mut chars = scheme.chars();
    let scheme_ok = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    if !scheme_ok {
        return Err(build_err(format!("invalid scheme '{scheme}'")));
    }
    let host_part = part(d, "host")?.unwrap_or_default();
    let path = part(d, "path")?.unwrap_or_else(|| "/".into());
    let special = matches!(
        scheme.to_ascii_lowercase().as_str(),
        "http" | "https" | "ws" | "wss" | "ftp"
    );
    let mut url = if host_part.is_empty() {
        if special {
            return Err(build_err(format!("'host' is required for {scheme} URLs")));
        }
        Url::parse(&format!("{scheme}:{path}")).map_err(build_err)?
    } else {
        // The host alone: anything that would spill into the path, query or userinfo
        // is not a host.
        let invalid = || build_err(format!("invalid host '{host_part}'"));
        if host_part.contains(['/', '?', '#', '@', '\\']) {
            return Err(invalid());
        }
        let mut u = Url::parse(&format!("{scheme}://{host_part}/")).map_err(|_| invalid())?;
        u.set_path(&path);
        u
    };
    if let Some(user) = part(d, "username")? {
        url.set_username(&user)
            .map_err(|()| build_err("username is not allowed for this URL"))?;
    }
    if let Some(pass) = part(d, "password")? {
        url.set_password(Some(&pass))
            .map_err(|()| build_err("password is not allowed for this URL"))?;
    }
    match d.get("port") {
        None | Some(Value::Nil) => {}
        Some(Value::Int(p)) => {
            let p = u16::try_from(*p).map_err(|_| build_err(format!("invalid port {p}")))?;
            url.set_port(Some(p))
                .map_err(|()| build_err("port is not allowed for this URL"))?;
        }
        Some(other) => {
            return Err(build_err(format!(
                "port must be an int, got {}",
                other.type_name()
            )));
        }
    }
    if let Some(q) = part(d, "query")?.filter(|q| !q.is_empty()) {
        url.set_query(Some(q.strip_prefix('?').unwrap_or(&q)));
    }
    if let Some(f) = part(d, "fragment")?.filter(|f| !f.is_empty()) {
        url.set_fragment(Some(f.strip_prefix('#').unwrap_or(&f)));
    }
    Ok(Value::str(url.to_string()))
}

pub fn register(b: &mut RegistryBuilder) {
    b.sync("url_parse", url_parse);
    b.sync("url_build", url_build);
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::test_host::{call, call_err, s};

    #[test]
    fn parse_and_build() {
        assert_eq!(
            call(
                url_parse,
                &[s("HTTPS://User:pw@Example.COM:443/a b?x=1#top")]
            ),
            "{fragment: top, host: example.com, password: pw, path: /a%20b, port: nil, query: x=1, scheme: https, username: User}"
        );
        assert_eq!(
            call_err(url_parse, &[s("/relative")]),
            "Thrown: url_parse: relative URL without a base"
        );
        let mut d = Dict::new();
        d.insert("scheme", s("https"));
        d.insert("host", s("example.com"));
        d.insert("port", Value::Int(8443));
        d.insert("path", s("/v1/items"));
        d.insert("query", s("a=1"));
        assert_eq!(
            call(url_build, &[Value::dict(d)]),
            "https://example.com:8443/v1/items?a=1"
        );
        assert_eq!(
            call_err(url_build, &[Value::dict(Dict::new())]),
            "Thrown: url_build: 'scheme' is required"
        );
    }
}
