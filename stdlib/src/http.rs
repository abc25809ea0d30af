//! HTTP for trusted scripts (`io.net`): `http_get(url, options?)` and
//! `http_post(url, body, options?)` on a real client (`ureq`, rustls). The request runs
//! on tokio's blocking pool, so the VM stays suspended, not blocked, while it waits.
//! Options: `headers` (dict), `timeout_ms` (default 30000). The result is
//! `{status, ok, headers, body}`; a non-2xx status is a result, not an error; network
//! failures throw `http_get: <url>: <problem>`.

use std::time::Duration;

use harn_vm::VmError;
use harn_vm::display::display;
use harn_vm::native::NativeFuture;
use harn_vm::registry::RegistryBuilder;
use harn_vm::value::{Dict, Value};

use crate::util::{arg, type_err};

const DEFAULT_TIMEOUT_MS: u64 = 30_000;

/// A request, in plain data that can cross to the blocking pool.
struct Request {
    name: &'static str,
    url: String,
    body: Option<String>,
    headers: Vec<(String, String)>,
    timeout: Duration,
}

struct Response {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

fn request(name: &'static str, args: &[Value], with_body: bool) -> Result<Request, VmError> {
    let url = match arg(args, 0) {
        Value::Str(s) => s.as_str().to_owned(),
        other => return Err(type_err(name, "string url", other)),
    };
    let body = if with_body {
        Some(match arg(args, 1) {
            Value::Str(s) => s.as_str().to_owned(),
            other => harn_vm::convert::to_json(other, harn_vm::convert::Mode::Input)
                .map_err(|e| VmError::thrown_str(format!("{name}: body {e}")))?
                .to_string(),
        })
    } else {
        None
    };
    let options = match arg(args, if with_body { 2 } else { 1 }) {
        Value::Nil => Dict::new(),
        Value::Dict(d) => (**d).clone(),
        other => return Err(type_err(name, "options dict", other)),
    };
    let mut headers = Vec::new();
    match options.get("headers") {
        None | Some(Value::Nil) => {}
        Some(Value::Dict(h)) => {
            for (k, v) in h.iter() {
                headers.push((k.to_string(), display(v)?));
            }
        }
        Some(other) => return Err(type_err(name, "headers dict", other)),
    }
    let timeout_ms = match options.get("timeout_ms") {
        None | Some(Value::Nil) => DEFAULT_TIMEOUT_MS,
        Some(Value::Int(n)) if *n > 0 => *n as u64,
        Some(other) => return Err(type_err(name, "positive int timeout_ms", other)),
    };
    Ok(Request {
        name,
        url,
        body,
        headers,
        timeout: Duration::from_millis(timeout_ms),
    })
}

fn perform(req: &Request) -> Result<Response, String> {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(req.timeout))
        .http_status_as_error(false)
        .build()
        .into();
    let result = match &req.body {
        None => {
            let mut r = agent.get(&req.url);
            for (k, v) in &req.headers {
                r = r.header(k, v);
            }
            r.call()
        }
        Some(body) => {
            let mut r = agent.post(&req.url);
            for (k, v) in &req.headers {
                r = r.header(k, v);
            }
            r.send(body.as_str())
        }
    };
    let mut resp = result.map_err(|e| e.to_string())?;
    let headers = resp
        .headers()
        .iter()
        .map(|(k, v)| {
            (
                k.to_string(),
                String::from_utf8_lossy(v.as_bytes()).into_owned(),
            )
        })
        .collect();
    let body = resp
        .body_mut()
        .read_to_string()
        .map_err(|e| e.to_string())?;
    Ok(Response {
        status: resp.status().as_u16(),
        headers,
        body,
    })
}

fn start(req: Request) -> NativeFuture {
    Box::pin(async move {
        let (name, url) = (req.name, req.url.clone());
        let outcome = tokio::task::spawn_blocking(move || perform(&req))
            .await
            .map_err(|e| VmError::thrown_str(format!("{name}: {url}: {e}")))?;
        let resp = outcome.map_err(|e| VmError::thrown_str(format!("{name}: {url}: {e}")))?;
        let mut headers = Dict::new();
        for (k, v) in resp.headers {
            headers.insert(k, Value::str(v));
        }
        let mut d = Dict::new();
        d.insert("status", Value::Int(i64::from(resp.status)));
        d.insert("ok", Value::Bool((200..300).contains(&resp.status)));
        d.insert("headers", Value::dict(headers));
        d.insert("body", Value::str(resp.body));
        Ok(Value::dict(d))
    })
}

fn http_get(args: &[Value]) -> Result<NativeFuture, VmError> {
    Ok(start(request("http_get", args, false)?))
}

fn http_post(args: &[Value]) -> Result<NativeFuture, VmError> {
    Ok(start(request("http_post", args, true)?))
}

pub fn register(b: &mut RegistryBuilder) {
    b.asynchronous("http_get", http_get);
    b.asynchronous("http_post", http_post);
}
