//! harn-vm: Harn run-time values, the interpreter, and the builtin registry: the
//! implementations of the builtins declared in `harn_compiler::builtins` (which owns
//! their signatures, capability tags, profiles and the name denylist), with per-profile
//! tables. The interpreter only: code mode (the executor, its report and hosts) is
//! `harn-codemode`, built on this crate.
//!
//! **Must not depend on** the standard library crate (`harn-stdlib` registers into this
//! crate, not the other way round), codegen, code mode (`harn-codemode`), the language
//! server or MCP transports.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

pub mod access;
pub mod builtin_names;
pub mod builtins;
pub mod chars;
pub mod convert;
pub mod dict;
pub mod display;
pub mod egress;
pub mod error;
pub mod function;
pub mod interp;
pub mod iter;
pub mod load;
pub mod meter;
pub mod methods;
pub mod native;
pub mod ops;
pub mod registry;
pub mod search;
pub(crate) mod set_index;
#[cfg(any(test, feature = "test-support"))]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
pub mod test_support;
pub mod value;
pub mod walk;

pub use builtins::{global, init};
pub use error::{ErrorKind, VmError};
pub use interp::{Limits, Vm};
pub use value::Value;
