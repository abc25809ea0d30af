//! The stdio framing in front of the protocol library. `tower-lsp-server` stops reading
//! after the first message it cannot decode, which would end the server; so every frame
//! is read and checked here first. A frame that is not JSON, or not a JSON-RPC message,
//! gets its error response (`-32700` / `-32600`) and is dropped; the rest go on to the
//! library. Output frames from the library and the errors written here share one
//! writer, so they never interleave.

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

/// Largest message body accepted (a bigger one is discarded with an error response).
pub const MAX_BODY: usize = 256 * 1024 * 1024;

/// One complete outgoing frame.
fn frame(body: &[u8]) -> Vec<u8> {
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(body);
    out
}

fn error_frame(id: Value, code: i64, message: &str) -> Vec<u8> {
    let body = json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}});
    frame(body.to_string().as_bytes())
}

/// Reads one frame's headers; `Ok(None)` at end of input, `Err(message)` for a frame
/// whose headers are unusable (already consumed).
async fn read_headers<R: AsyncRead + Unpin>(
    input: &mut BufReader<R>,
) -> std::io::Result<Option<Result<usize, String>>> {
    let mut length: Option<Result<usize, String>> = None;
    let mut saw_any = false;
    loop {
        let mut line = String::new();
        if input.read_line(&mut line).await? == 0 {
            return Ok(if saw_any {
                Some(Err("incomplete message headers".into()))
            } else {
                None
            });
        }
        let line = line.trim_end_matches(['\r', '\n']);
        if line.is_empty() {
            if !saw_any {
                continue;
            }
            return Ok(Some(
                length.unwrap_or_else(|| Err("missing Content-Length header".into())),
            ));
        }
        saw_any = true;
        if let Some((name, value)) = line.split_once(':')
            && name.trim().eq_ignore_ascii_case("content-length")
        {
            length = Some(
                value
                    .trim()
                    .parse::<usize>()
                    .map_err(|_| format!("invalid Content-Length `{}`", value.trim())),
            );
        }
    }
}

/// Checks a body: the frame to forward, or the error frame to answer with.
fn check_body(body: &[u8]) -> Result<(), Vec<u8>> {
    let value: Value = serde_json::from_slice(body)
        .map_err(|e| error_frame(Value::Null, -32700, &format!("parse error: {e}")))?;
    let id = value.get("id").cloned().unwrap_or(Value::Null);
    let ok = value.is_object()
        && value.get("jsonrpc").and_then(Value::as_str) == Some("2.0")
        && (value.get("method").is_some_and(Value::is_string)
            || value.get("result").is_some()
            || value.get("error").is_some());
    if ok {
        Ok(())
    } else {
        Err(error_frame(
            id,
            -32600,
            "invalid request: not a JSON-RPC 2.0 message",
        ))
    }
}

/// Copies checked frames from `input` to `to_server`; answers bad ones on `errors`.
pub async fn pump_input<R, W>(input: R, mut to_server: W, errors: mpsc::UnboundedSender<Vec<u8>>)
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut input = BufReader::new(input);
    loop {
        let length = match read_headers(&mut input).await {
            Ok(None) | Err(_) => break,
            Ok(Some(Err(message))) => {
                let _ = errors.send(error_frame(Value::Null, -32700, &message));
                continue;
            }
            Ok(Some(Ok(n))) => n,
        };
        if length > MAX_BODY {
            let mut rest = (&mut input).take(length as u64);
            if tokio::io::copy(&mut rest, &mut tokio::io::sink())
                .await
                .is_err()
            {
                break;
            }
            let _ = errors.send(error_frame(Value::Null, -32600, "message too large"));
            continue;
        }
        let mut body = vec![0; length];
        if input.read_exact(&mut body).await.is_err() {
            break;
        }
        match check_body(&body) {
            Ok(()) => {
                if to_server.write_all(&frame(&body)).await.is_err() {
                    break;
                }
            }
            Err(reply) => {
                let _ = errors.send(reply);
            }
        }
    }
    let _ = to_server.shutdown().await;
}

/// Splits the library's output into whole frames and queues them for the writer.
pub async fn pump_output<R: AsyncRead + Unpin>(
    from_server: R,
    out: mpsc::UnboundedSender<Vec<u8>>,
) {
    let mut input = BufReader::new(from_server);
    loop {
        let length = match read_headers(&mut input).await {
            Ok(Some(Ok(n))) => n,
            _ => break,
        };
        let mut body = vec![0; length];
        if input.read_exact(&mut body).await.is_err() {
            break;
        }
        if out.send(frame(&body)).is_err() {
            break;
        }
    }
}

/// Writes queued frames to `output` until an empty frame (the end marker) or until
/// every sender is gone.
pub async fn write_frames<W: AsyncWrite + Unpin>(
    mut output: W,
    mut frames: mpsc::UnboundedReceiver<Vec<u8>>,
) {
    while let Some(f) = frames.recv().await {
        if f.is_empty() {
            break;
        }
        if output.write_all(&f).await.is_err() || output.flush().await.is_err() {
            break;
        }
    }
}
