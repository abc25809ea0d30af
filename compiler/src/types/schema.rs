//! JSON Schema → checker types, through the manifest's one lowering (`code-mode.md`
//! 3.2, `manifest::lower`), so the checker, hover and completion see the same types as
//! the generated `.harn` API and `.d.ts`.

use serde_json::Value;

use crate::ast::name_of;
use crate::manifest::lower::{self, Target, lower_schema};
use crate::manifest::type_names::TypeNames;
use crate::types::{Field, Ty};

/// The checker type of a binding's input or output schema.
pub fn schema_type(schema: &Value) -> Ty {
    let mut names = TypeNames::new();
    from_lowered(&lower_schema(schema, Target::Harn, "Binding", &mut names).ty)
}

/// One key of an object schema, as hover and completion show it.
#[derive(Clone, Debug, PartialEq)]
pub struct SchemaField {
    pub name: String,
    pub ty: Ty,
    pub optional: bool,
    /// The property's `description` (or `title`), cleaned to plain text.
    pub doc: Option<String>,
}

/// The keys of an object schema in the lowering's order, or `None` when the schema is
/// not an object with declared properties.
pub fn schema_fields(schema: &Value) -> Option<Vec<SchemaField>> {
    let mut names = TypeNames::new();
    let lowered = lower_schema(schema, Target::Harn, "Binding", &mut names).ty;
    let lower::Ty::Record(record) = lowered else {
        return None;
    };
    Some(
        record
            .fields
            .iter()
            .map(|f| {
                let Field { name, ty, optional } = field_of(f);
                SchemaField {
                    name: name.to_string(),
                    ty,
                    optional,
                    doc: f.doc.clone(),
                }
            })
            .collect(),
    )
}

/// A lowered record field as a shape field.
fn field_of(f: &lower::Field) -> Field {
    Field {
        name: name_of(f.key.as_str()),
        ty: from_lowered(&f.ty),
        optional: f.optional,
    }
}

fn from_lowered(t: &lower::Ty) -> Ty {
    match t {
        lower::Ty::Json | lower::Ty::Named(_) | lower::Ty::Inter(_) => Ty::Any,
        lower::Ty::Never => Ty::Never,
        lower::Ty::Str => Ty::String,
        lower::Ty::Int => Ty::Int,
        lower::Ty::Float | lower::Ty::NumLit(_) => Ty::Float,
        lower::Ty::Bool | lower::Ty::BoolLit(_) => Ty::Bool,
        lower::Ty::Nil => Ty::Nil,
        lower::Ty::StrLit(s) => Ty::StrLit(name_of(s.as_str())),
        lower::Ty::IntLit(n) => Ty::IntLit(*n),
        lower::Ty::List(item) => Ty::List(Box::new(from_lowered(item))),
        lower::Ty::Dict(value) => Ty::Dict(Box::new(Ty::String), Box::new(from_lowered(value))),
        lower::Ty::Union(members) => Ty::union(members.iter().map(from_lowered).collect()),
        lower::Ty::Record(record) => {
            Ty::Shape(record.fields.iter().map(field_of).collect(), record.closed)
        }
    }
}
