//! The builtins the core language needs (`language.md` 9.1); the full standard library
//! registers the rest from `harn-stdlib`.

mod core;

use crate::registry::RegistryBuilder;

/// Registers the core builtins.
pub fn register_core(b: &mut RegistryBuilder) {
    core::register(b);
}
