//! The `hash` family, implemented in `harn-stdlib` (`stdlib/src/hash.rs`).

use crate::builtins::Capability::*;
use crate::builtins::{BuiltinDecl, visible};

pub(crate) const TABLE: &[BuiltinDecl] = &[visible(
    "hash_value",
    "fn(value: any) -> int",
    Pure,
    "64-bit FNV-1a hash of a canonical text form; equal values hash equal.",
)];
