//! The `math` family, implemented in `harn-stdlib` (`stdlib/src/math.rs`).

use crate::builtins::Capability::*;
use crate::builtins::{BuiltinDecl, decl, visible};

pub(crate) const TABLE: &[BuiltinDecl] = &[
    decl(
        "sin",
        "fn(x: int | float) -> float",
        Pure,
        "Sine (radians).",
    ),
    decl(
        "cos",
        "fn(x: int | float) -> float",
        Pure,
        "Cosine (radians).",
    ),
    decl(
        "tan",
        "fn(x: int | float) -> float",
        Pure,
        "Tangent (radians).",
    ),
    decl(
        "asin",
        "fn(x: int | float) -> float",
        Pure,
        "Arcsine in radians.",
    ),
    decl(
        "acos",
        "fn(x: int | float) -> float",
        Pure,
        "Arccosine in radians.",
    ),
    decl(
        "atan",
        "fn(x: int | float) -> float",
        Pure,
        "Arctangent in radians.",
    ),
    decl(
        "atan2",
        "fn(y: int | float, x: int | float) -> float",
        Pure,
        "Angle of the point (x, y) in radians.",
    ),
    decl(
        "sinh",
        "fn(x: int | float) -> float",
        Pure,
        "Hyperbolic sine.",
    ),
    decl(
        "cosh",
        "fn(x: int | float) -> float",
        Pure,
        "Hyperbolic cosine.",
    ),
    decl(
        "tanh",
        "fn(x: int | float) -> float",
        Pure,
        "Hyperbolic tangent.",
    ),
    decl("exp", "fn(x: int | float) -> float", Pure, "e raised to x."),
    decl(
        "ln",
        "fn(x: int | float) -> float",
        Pure,
        "Natural logarithm.",
    ),
    decl(
        "log_base",
        "fn(x: int | float, base: int | float) -> float",
        Pure,
        "Logarithm in the given base.",
    ),
    decl(
        "log2",
        "fn(x: int | float) -> float",
        Pure,
        "Base-2 logarithm.",
    ),
    decl(
        "log10",
        "fn(x: int | float) -> float",
        Pure,
        "Base-10 logarithm.",
    ),
    decl("cbrt", "fn(x: int | float) -> float", Pure, "Cube root."),
    decl(
        "hypot",
        "fn(x: int | float, y: int | float) -> float",
        Pure,
        "sqrt(x² + y²).",
    ),
    decl(
        "sign",
        "fn(x: int | float) -> int | float",
        Pure,
        "-1, 0 or 1 (as a float for a float).",
    ),
    decl(
        "trunc",
        "fn(x: int | float) -> int",
        Pure,
        "Truncates toward zero.",
    ),
    decl(
        "is_nan",
        "fn(x: int | float) -> bool",
        Pure,
        "Whether the number is NaN.",
    ),
    decl(
        "is_infinite",
        "fn(x: int | float) -> bool",
        Pure,
        "Whether the number is infinite.",
    ),
    decl(
        "is_finite",
        "fn(x: int | float) -> bool",
        Pure,
        "Whether the number is neither NaN nor infinite.",
    ),
    decl(
        "clamp",
        "fn(x: int | float, lo: int | float, hi: int | float) -> int | float",
        Pure,
        "x limited to lo..hi.",
    ),
    decl("pi", "fn() -> float", Pure, "The constant π."),
    decl("e", "fn() -> float", Pure, "Euler's number e."),
    visible(
        "parse_int_or",
        "fn(value: any, default: any) -> any",
        Pure,
        "`to_int(value) ?? default`.",
    ),
    visible(
        "parse_float_or",
        "fn(value: any, default: any) -> any",
        Pure,
        "`to_float(value) ?? default`.",
    ),
];
