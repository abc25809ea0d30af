//! Starting an MCP server over stdio and stopping it again. harnc owns the child
//! process (rather than rmcp's child-process transport) so it can bound start-up by a
//! deadline, say how a server that died ended (exit status and the last lines of its
//! stderr), and stop it on its own terms: close stdin, a short grace, then kill.

use std::collections::VecDeque;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, ChildStderr};

use crate::client::ServerCommand;

/// How many stderr lines a failure report quotes.
const TAIL_LINES: usize = 8;
/// How long a stopping server may take to exit after its stdin closes.
pub const SHUTDOWN_GRACE: Duration = Duration::from_millis(300);

/// Why a server could not be used: a bad command line (the caller's mistake) or a
/// server that could not be started or did not answer (a tool failure).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConnectError {
    Usage(String),
    Server(String),
}

impl std::fmt::Display for ConnectError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ConnectError::Usage(m) | ConnectError::Server(m) => f.write_str(m),
        }
    }
}

impl From<ConnectError> for String {
    fn from(e: ConnectError) -> String {
        e.to_string()
    }
}

/// The last lines a server wrote to stderr.
#[derive(Clone, Default)]
pub struct StderrTail(Arc<Mutex<VecDeque<String>>>);

impl StderrTail {
    /// Reads `stderr` to its end in the background, keeping the last lines and, when
    /// `echo`, passing each line through to our stderr.
    pub fn collect(stderr: ChildStderr, echo: bool) -> StderrTail {
        let tail = StderrTail::default();
        let lines = Arc::clone(&tail.0);
        tokio::spawn(async move {
            let mut reader = BufReader::new(stderr).lines();
            while let Ok(Some(line)) = reader.next_line().await {
                if echo {
                    eprintln!("{line}");
                }
                let mut kept = lines.lock().unwrap_or_else(|p| p.into_inner());
                if kept.len() == TAIL_LINES {
                    kept.pop_front();
                }
                kept.push_back(line.chars().take(300).collect());
            }
        });
        tail
    }

    /// `; stderr: a | b` (empty when the server wrote nothing).
    pub fn describe(&self) -> String {
        let kept = self.0.lock().unwrap_or_else(|p| p.into_inner());
        if kept.is_empty() {
            String::new()
        } else {
            let lines: Vec<&str> = kept.iter().map(String::as_str).collect();
            format!("; last stderr: {}", lines.join(" | "))
        }
    }
}

/// Spawns the command with piped stdio; the child is killed if dropped.
pub fn spawn(command: &ServerCommand) -> Result<Child, ConnectError> {
    let program = &command.program;
    tokio::process::Command::new(program)
        .args(&command.args)
        .envs(command.env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| ConnectError::Server(format!("cannot start MCP server '{program}': {e}")))
}

/// How the child ended, if it has (waiting briefly for a process that is exiting).
pub async fn exit_status(child: &mut Child) -> Option<std::process::ExitStatus> {
    tokio::time::timeout(Duration::from_millis(200), child.wait())
        .await
        .ok()
        .and_then(Result::ok)
}

/// Stops a server whose stdin is already closed: a short grace to exit, then a kill.
pub async fn stop(mut child: Child) {
    if tokio::time::timeout(SHUTDOWN_GRACE, child.wait())
        .await
        .is_err()
    {
        let _ = child.kill().await;
    }
}
