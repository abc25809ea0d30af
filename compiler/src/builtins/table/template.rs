//! The `template` family, implemented in `harn-stdlib` (`stdlib/src/template.rs`).

use crate::builtins::BuiltinDecl;

pub(crate) const TABLE: &[BuiltinDecl] = &[];
