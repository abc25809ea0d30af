//! The `web` family, implemented in `harn-stdlib` (`stdlib/src/web.rs`).

use crate::builtins::BuiltinDecl;

pub(crate) const TABLE: &[BuiltinDecl] = &[];
