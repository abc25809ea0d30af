//! The part every generator shares: which bindings are callable, and their argument and
//! result types lowered for a target, with type names claimed in one fixed order (every
//! binding identifier first, then per binding: args name, args schema, result name,
//! result schema) so all outputs name types the same way and stay stable.

use harn_compiler::manifest::{Binding, Disposition, Manifest};

use crate::lower::{Lowered, Target, lower_schema};
use crate::names::{TypeNames, pascal_case};

/// One callable (allowed) binding, lowered.
pub struct Planned<'m> {
    pub binding: &'m Binding,
    /// The argument type's name (`<Base>Args`, made unique).
    pub args_name: String,
    pub args: Lowered,
    /// The result type's name and lowering, when the binding has an output schema.
    pub result: Option<(String, Lowered)>,
}

/// A manifest split into callable bindings and the rest (listed, not declared).
pub struct Plan<'m> {
    pub callable: Vec<Planned<'m>>,
    pub others: Vec<&'m Binding>,
}

pub fn plan(m: &Manifest, target: Target) -> Plan<'_> {
    let mut names = TypeNames::new();
    for b in &m.bindings {
        names.claim(&b.binding);
    }
    let mut callable = Vec::new();
    let mut others = Vec::new();
    for b in &m.bindings {
        if b.policy.disposition != Disposition::Allowed {
            others.push(b);
            continue;
        }
        let base = pascal_case(&b.binding);
        let args_name = names.claim(&format!("{base}Args"));
        let args = lower_schema(&b.input_schema, target, &base, &mut names);
        let result = b.output_schema.as_ref().map(|schema| {
            let name = names.claim(&format!("{base}Result"));
            (name, lower_schema(schema, target, &base, &mut names))
        });
        callable.push(Planned {
            binding: b,
            args_name,
            args,
            result,
        });
    }
    Plan { callable, others }
}
