//! The builtins the core language needs (`language.md` 9.1); the full standard library
//! registers the rest from `harn-stdlib`.

mod core;

use crate::registry::{Capability, RegistryBuilder};
use crate::value::Value;

/// Registers the core builtins.
pub fn register_core(b: &mut RegistryBuilder) {
    core::register(b);
    b.sync(
        "iter",
        "fn(value: any) -> iter",
        Capability::Pure,
        "A lazy iterator over a list, set, range, dict (key/value pairs) or string.",
        |_, args| Ok(crate::iter::iter_of(args.first().unwrap_or(&Value::Nil))),
    );
}
