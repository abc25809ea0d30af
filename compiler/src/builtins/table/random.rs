//! The `random` family, implemented in `harn-stdlib` (`stdlib/src/random.rs`). Every
//! member is tagged `random`: none is in code mode.

use crate::builtins::Capability::*;
use crate::builtins::{BuiltinDecl, decl};

pub(crate) const TABLE: &[BuiltinDecl] = &[
    decl(
        "random",
        "fn(rng?: iter) -> float",
        Random,
        "A uniform random float in [0, 1), from the seeded stream when one is given.",
    ),
    decl(
        "random_float",
        "fn(rng?: iter) -> float",
        Random,
        "A uniform random float in [0, 1) (`random` under its older name).",
    ),
    decl(
        "random_int",
        "fn(lo: any, hi?: int, max?: int) -> int",
        Random,
        "A uniform random int in lo..=hi (or 0..lo with one bound); a seeded stream may come first.",
    ),
    decl(
        "random_choice",
        "fn(items: any, more?: list) -> any",
        Random,
        "One item of a list (nil when empty); a seeded stream may come first.",
    ),
    decl(
        "random_shuffle",
        "fn(items: any, more?: list) -> list",
        Random,
        "A shuffled copy of a list; a seeded stream may come first.",
    ),
    decl(
        "rng_seed",
        "fn(seed: int) -> iter",
        Random,
        "A reproducible random stream: pass it first to the random builtins (same seed, same values).",
    ),
    decl("uuid", "fn() -> string", Random, "A random version-4 UUID."),
];
