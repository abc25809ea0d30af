//! [`Document`]: the read-only view of one analysed document that every feature works
//! on, and [`BindingTable`]: the manifest's bindings as the editor shows them.

use harn_compiler::Parsed;
use harn_compiler::ast::Span;
use harn_compiler::builtins::{BuiltinDecl, BuiltinEnv, Profile};
use harn_compiler::manifest::{Binding, Manifest};
use harn_compiler::pipeline::Findings;
use harn_compiler::types::{SchemaField, Ty, schema_fields, schema_type};

use crate::text::LineIndex;

/// One analysed document.
#[derive(Clone, Copy)]
pub struct Document<'a> {
    pub text: &'a str,
    pub index: &'a LineIndex,
    pub parsed: &'a Parsed,
    pub findings: &'a Findings,
    pub bindings: &'a BindingTable,
    pub manifest: Option<&'a Manifest>,
}

impl<'a> Document<'a> {
    /// The builtin profile names resolve in: code mode under a manifest, else a script's.
    pub fn profile(&self) -> Profile {
        if self.manifest.is_some() {
            Profile::CodeMode
        } else {
            Profile::Default
        }
    }

    /// A builtin visible in this document's profile.
    pub fn helper(&self, name: &str) -> Option<&'static BuiltinDecl> {
        let env = BuiltinEnv::global();
        if env.installed(name, self.profile()) {
            env.get(name)
        } else {
            None
        }
    }

    /// The checker's type of the expression spanning exactly `span`.
    pub fn type_at(&self, span: Span) -> Option<&'a Ty> {
        self.findings
            .checked
            .types
            .iter()
            .rev()
            .find(|(s, _)| *s == span)
            .map(|(_, t)| t)
    }

    /// The declaration a name use at `offset` refers to: (use span, declaration span).
    pub fn definition_at(&self, offset: usize) -> Option<(Span, Span)> {
        let offset = offset as u32;
        self.findings
            .checked
            .definitions
            .iter()
            .find(|(u, _)| u.start <= offset && offset <= u.end)
            .copied()
    }
}

/// A manifest binding with its types lowered once.
#[derive(Clone, Debug, PartialEq)]
pub struct BindingInfo {
    pub binding: String,
    pub name: String,
    pub description: Option<String>,
    /// The argument dict's type.
    pub input: Ty,
    /// What a call returns (`code-mode.md` 4.11): typed from `outputSchema`, else `any`.
    pub output: Ty,
    /// The argument keys, when the input schema is an object.
    pub fields: Vec<SchemaField>,
    pub level: &'static str,
    pub disposition: &'static str,
    pub reason: Option<String>,
}

impl BindingInfo {
    fn of(b: &Binding) -> BindingInfo {
        BindingInfo {
            binding: b.binding.clone(),
            name: b.name.clone(),
            description: b.description.clone(),
            input: schema_type(&b.input_schema),
            output: b.output_schema.as_ref().map_or(Ty::Any, schema_type),
            fields: schema_fields(&b.input_schema).unwrap_or_default(),
            level: b.side_effect_level.as_str(),
            disposition: b.policy.disposition.as_str(),
            reason: b.policy.reason.clone(),
        }
    }

    /// `name(args: {...}) -> T`.
    pub fn signature(&self) -> String {
        format!("{}({}) -> {}", self.binding, self.parameter(), self.output)
    }

    /// The one parameter's label.
    pub fn parameter(&self) -> String {
        format!("args: {}", self.input)
    }

    /// `read_only · allowed` (plus the policy's reason when there is one).
    pub fn policy_line(&self) -> String {
        match &self.reason {
            Some(r) => format!("{} · {} ({r})", self.level, self.disposition),
            None => format!("{} · {}", self.level, self.disposition),
        }
    }

    pub fn field(&self, key: &str) -> Option<&SchemaField> {
        self.fields.iter().find(|f| f.name == key)
    }
}

/// Every binding of the manifest, in manifest order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BindingTable {
    pub bindings: Vec<BindingInfo>,
}

impl BindingTable {
    pub fn of(manifest: Option<&Manifest>) -> BindingTable {
        BindingTable {
            bindings: manifest
                .map(|m| m.bindings.iter().map(BindingInfo::of).collect())
                .unwrap_or_default(),
        }
    }

    pub fn get(&self, binding: &str) -> Option<&BindingInfo> {
        self.bindings.iter().find(|b| b.binding == binding)
    }
}
