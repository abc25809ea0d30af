//! The `template` family, implemented in `harn-stdlib` (`stdlib/src/template/`).

use crate::builtins::Capability::*;
use crate::builtins::{BuiltinDecl, decl};

pub(crate) const TABLE: &[BuiltinDecl] = &[decl(
    "render_string",
    "fn(template: string, bindings?: dict) -> string",
    Pure,
    "Renders a prompt template: `{{ expr }}` with paths and `| filter: args`, `if`/`elif`/`else`, `for` (with `loop.*` and an empty `else`), `{{# comments #}}`, `raw` blocks and `{{-`/`-}}` trimming. Errors throw `render_string at line:col: message`; `include` is not available.",
)];
