//! harn-codegen: binding manifest to `.harn` wrappers, TypeScript declarations and a
//! compact prompt form, all through the compiler's single JSON Schema lowering.
//!
//! **Must not depend on** the VM, the standard library or the language server.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

pub mod doc;
pub mod harn;
pub mod plan;
pub mod prompt;
pub mod ts;

pub use harn::emit_harn;
/// The JSON Schema lowering and type naming live in the compiler's manifest module;
/// they are re-exported here under their old paths for the emitters.
pub use harn_compiler::manifest::{lower, type_names as names};
pub use prompt::emit_prompt;
pub use ts::emit_ts;
