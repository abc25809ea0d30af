//! harn-vm: Harn run-time values, the async interpreter (tokio), the builtin registry
//! with capability tags, sandbox profiles and the name denylist, limits, the `ToolHost`
//! trait, and the code-mode executor with its report and events.
//!
//! **Must not depend on** the standard library crate (`harn-stdlib` registers into this
//! crate, not the other way round), codegen, the language server or MCP transports.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
