//! harn-mcp: Harn code mode over MCP, both ways. The client side spawns real MCP
//! servers over stdio with `rmcp`, turns their `tools/list` into a tool surface and
//! performs child calls as `tools/call` (`code-mode.md` 4.7); the server side is
//! `harnc serve-mcp` (`code-mode.md` 9): the three `harn.code.*` tools in front of
//! configured upstream servers. Every failure is a typed error; nothing here can hang a
//! run, because the executor bounds each call with the per-call and run deadlines.
//!
//! harn-mcp is the only crate that links `rmcp`. **Must not depend on** the language
//! server; nothing below it (compiler, VM, executor, codegen) learns of MCP transports.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod client;
mod command;
pub mod server;
mod servers;
mod spawn;

pub use client::{
    Caller, ConnectOptions, DEFAULT_CONNECT_TIMEOUT, McpHost, ServerCommand, ToolsChanged,
};
pub use command::split_command;
pub use servers::{McpServers, TransportThread, merge_tool_lists, split_named};
pub use spawn::ConnectError;
