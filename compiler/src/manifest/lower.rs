//! The one JSON Schema → type lowering (code-mode.md 3.2), shared by the `.harn`, `.d.ts`
//! and prompt emitters (harn-codegen) and, through the compiler, by every reader of a
//! binding's types, so generated code, checks and editor help can never disagree. It
//! produces a small type tree ([`Ty`]); the emitters print it.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::type_names::{TypeNames, pascal_words};

/// Nesting deeper than this lowers to `JsonValue`.
pub const MAX_DEPTH: usize = 32;
/// At most this many schema nodes are lowered per schema (guards `$ref` expansion).
const MAX_NODES: usize = 20_000;

/// The printing target: it decides `$ref` (inline vs. alias), `allOf` and literals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Harn,
    Ts,
}

/// A lowered type.
#[derive(Clone, Debug, PartialEq)]
pub enum Ty {
    Json,
    Never,
    Str,
    Int,
    Float,
    Bool,
    Nil,
    StrLit(String),
    IntLit(i64),
    /// A non-integer number literal (TypeScript only), as JSON text.
    NumLit(String),
    /// A boolean literal (TypeScript only).
    BoolLit(bool),
    List(Box<Ty>),
    Dict(Box<Ty>),
    Union(Vec<Ty>),
    Inter(Vec<Ty>),
    Record(Record),
    /// A named alias (TypeScript `$ref`s).
    Named(String),
}

/// An object shape.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Record {
    pub fields: Vec<Field>,
    /// TypeScript: `additionalProperties` is `true` or a schema → index signature.
    pub open: bool,
    /// `additionalProperties: false` and every key kept: no other key can be present.
    pub closed: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    pub key: String,
    pub ty: Ty,
    pub optional: bool,
    /// `description`, else `title`.
    pub doc: Option<String>,
}

/// The schema keywords that tell a JSON Schema from the Harn shorthand.
pub const SCHEMA_KEYWORDS: &[&str] = &[
    "type",
    "properties",
    "items",
    "prefixItems",
    "additionalProperties",
    "patternProperties",
    "enum",
    "const",
    "anyOf",
    "oneOf",
    "allOf",
    "not",
    "$ref",
    "$defs",
    "definitions",
    "$schema",
    "$id",
    "$comment",
    "title",
    "description",
    "default",
    "examples",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "uniqueItems",
    "contains",
    "required",
    "nullable",
    "readOnly",
    "writeOnly",
    "deprecated",
    "if",
    "then",
    "else",
    "dependentRequired",
    "dependentSchemas",
    "propertyNames",
    "minProperties",
    "maxProperties",
    "unevaluatedProperties",
    "unevaluatedItems",
    "contentEncoding",
    "contentMediaType",
];

/// Keys a Harn shape cannot spell even though they are identifiers.
const HARN_BAD_KEYS: &[&str] = &["finally", "require", "select", "skill", "eval_pack"];

/// Whether `key` can be a field of a Harn shape.
pub fn harn_key_ok(key: &str) -> bool {
    let mut chars = key.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !HARN_BAD_KEYS.contains(&key)
}

/// Builds a union: flattened, de-duplicated, absorbed by `JsonValue`.
pub fn union(members: Vec<Ty>) -> Ty {
    let mut out: Vec<Ty> = Vec::new();
    for m in members {
        let parts = match m {
            Ty::Union(inner) => inner,
            other => vec![other],
        };
        for p in parts {
            if p == Ty::Json {
                return Ty::Json;
            }
            if !out.contains(&p) {
                out.push(p);
            }
        }
    }
    match out.len() {
        0 => Ty::Never,
        1 => out.pop().unwrap_or(Ty::Never),
        _ => Ty::Union(out),
    }
}

/// A lowered schema plus what the emitters need beside the type.
#[derive(Clone, Debug, PartialEq)]
pub struct Lowered {
    pub ty: Ty,
    /// TypeScript aliases created for `$ref`s, in creation order.
    pub aliases: Vec<(String, Ty)>,
    /// Harn: keys left out of shapes (named in the doc comment).
    pub omitted: Vec<String>,
}

/// Lowers one schema (`input_schema` or `output_schema`) of a binding whose type base
/// name is `base`; alias names are claimed from `names`.
pub fn lower_schema(schema: &Value, target: Target, base: &str, names: &mut TypeNames) -> Lowered {
    let mut l = Lowerer {
        target,
        root: schema,
        base,
        names,
        alias_of: BTreeMap::new(),
        aliases: Vec::new(),
        stack: Vec::new(),
        omitted: Vec::new(),
        nodes: 0,
    };
    let ty = l.lower(schema, 0);
    let mut aliases: Vec<(String, Ty)> = l
        .aliases
        .into_iter()
        .map(|(n, t)| (n, t.unwrap_or(Ty::Json)))
        .collect();
    break_alias_cycles(&mut aliases);
    Lowered {
        ty,
        aliases,
        omitted: l.omitted,
    }
}

struct Lowerer<'a> {
    target: Target,
    root: &'a Value,
    base: &'a str,
    names: &'a mut TypeNames,
    alias_of: BTreeMap<String, String>,
    aliases: Vec<(String, Option<Ty>)>,
    stack: Vec<String>,
    omitted: Vec<String>,
    nodes: usize,
}

fn pointer_lookup<'v>(root: &'v Value, reference: &str) -> Option<&'v Value> {
    let frag = reference.strip_prefix('#')?;
    if frag.is_empty() {
        return Some(root);
    }
    root.pointer(frag)
}

impl Lowerer<'_> {
    fn lower(&mut self, node: &Value, depth: usize) -> Ty {
        self.nodes += 1;
        if depth > MAX_DEPTH || self.nodes > MAX_NODES {
            return Ty::Json;
        }
        match node {
            Value::Bool(true) => Ty::Json,
            Value::Bool(false) => Ty::Never,
            Value::String(s) => shorthand(s),
            Value::Object(obj) => {
                let ty = self.lower_object(obj, depth);
                if obj.get("nullable") == Some(&Value::Bool(true)) {
                    union(vec![ty, Ty::Nil])
                } else {
                    ty
                }
            }
            _ => Ty::Json,
        }
    }

    fn lower_object(&mut self, obj: &Map<String, Value>, depth: usize) -> Ty {
        if obj.is_empty() {
            return Ty::Json;
        }
        if !obj.keys().any(|k| SCHEMA_KEYWORDS.contains(&k.as_str())) {
            if obj.values().all(|v| v.is_object() || v.is_string()) {
                return self.shorthand_record(obj, depth);
            }
            return Ty::Json;
        }
        if let Some(r) = obj.get("$ref") {
            return match r.as_str() {
                Some(r) if r.starts_with('#') => self.lower_ref(r, depth),
                _ => Ty::Json,
            };
        }
        if let Some(c) = obj.get("const") {
            return self.literal(c);
        }
        if let Some(Value::Array(items)) = obj.get("enum") {
            return union(items.iter().map(|v| self.literal(v)).collect());
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(Value::Array(items)) = obj.get(key) {
                return union(items.iter().map(|m| self.lower(m, depth + 1)).collect());
            }
        }
        if let Some(Value::Array(items)) = obj.get("allOf") {
            return self.all_of(items, depth);
        }
        match obj.get("type") {
            Some(Value::Array(types)) => {
                let members = types
                    .iter()
                    .map(|t| {
                        let mut copy = obj.clone();
                        copy.insert("type".into(), t.clone());
                        copy.remove("nullable");
                        self.lower_object(&copy, depth)
                    })
                    .collect();
                union(members)
            }
            Some(Value::String(t)) => match t.as_str() {
                "string" => Ty::Str,
                "integer" => Ty::Int,
                "number" => Ty::Float,
                "boolean" => Ty::Bool,
                "null" => Ty::Nil,
                "array" => self.array(obj, depth),
                "object" => self.object(obj, depth),
                other => shorthand(other),
            },
            Some(_) => Ty::Json,
            None => {
                if obj.contains_key("items") {
                    self.array(obj, depth)
                } else if obj
                    .get("properties")
                    .and_then(Value::as_object)
                    .is_some_and(|p| !p.is_empty())
                {
                    self.object(obj, depth)
                } else {
                    Ty::Json
                }
            }
        }
    }

    fn shorthand_record(&mut self, obj: &Map<String, Value>, depth: usize) -> Ty {
        let mut fields = Vec::new();
        for (key, v) in obj {
            let optional = v.get("required") == Some(&Value::Bool(false));
            let ty = self.lower(v, depth + 1);
            fields.push((key.clone(), ty, optional, doc_of(v)));
        }
        self.record(fields, false, false)
    }

    fn record(
        &mut self,
        fields: Vec<(String, Ty, bool, Option<String>)>,
        open: bool,
        closed: bool,
    ) -> Ty {
        let mut out = Vec::new();
        let mut all_kept = true;
        for (key, ty, optional, doc) in fields {
            if self.target == Target::Harn && !harn_key_ok(&key) {
                all_kept = false;
                if !self.omitted.contains(&key) {
                    self.omitted.push(key);
                }
                continue;
            }
            out.push(Field {
                key,
                ty,
                optional,
                doc,
            });
        }
        out.sort_by(|a, b| a.key.as_bytes().cmp(b.key.as_bytes()));
        Ty::Record(Record {
            fields: out,
            open: open && self.target == Target::Ts,
            closed: closed && all_kept,
        })
    }

    fn lower_ref(&mut self, reference: &str, depth: usize) -> Ty {
        let root = self.root;
        let Some(target) = pointer_lookup(root, reference) else {
            return Ty::Json;
        };
        match self.target {
            Target::Harn => {
                if self.stack.iter().any(|r| r == reference) {
                    return Ty::Json;
                }
                self.stack.push(reference.to_string());
                let ty = self.lower(target, depth + 1);
                self.stack.pop();
                ty
            }
            Target::Ts => {
                if let Some(name) = self.alias_of.get(reference) {
                    return Ty::Named(name.clone());
                }
                let def = reference
                    .rsplit('/')
                    .next()
                    .filter(|s| !s.is_empty() && *s != "#")
                    .map(|s| s.replace("~1", "/").replace("~0", "~"))
                    .unwrap_or_else(|| "Root".to_string());
                let def_pascal = pascal_words(&def);
                let name = self.names.claim(&format!("{}{}", self.base, def_pascal));
                self.alias_of.insert(reference.to_string(), name.clone());
                let index = self.aliases.len();
                self.aliases.push((name.clone(), None));
                let ty = self.lower(target, depth + 1);
                if let Some(slot) = self.aliases.get_mut(index) {
                    slot.1 = Some(ty);
                }
                Ty::Named(name)
            }
        }
    }

    fn all_of(&mut self, items: &[Value], depth: usize) -> Ty {
        match self.target {
            Target::Ts => {
                let members: Vec<Ty> = items.iter().map(|m| self.lower(m, depth + 1)).collect();
                match members.len() {
                    0 => Ty::Json,
                    1 => members.into_iter().next().unwrap_or(Ty::Json),
                    _ => Ty::Inter(members),
                }
            }
            Target::Harn => {
                let mut props = Map::new();
                let mut required: Vec<Value> = Vec::new();
                for m in items {
                    let Some(p) = m.get("properties").and_then(Value::as_object) else {
                        return Ty::Json;
                    };
                    for (k, v) in p {
                        props.entry(k.clone()).or_insert_with(|| v.clone());
                    }
                    if let Some(Value::Array(r)) = m.get("required") {
                        required.extend(r.iter().cloned());
                    }
                }
                let mut merged = Map::new();
                merged.insert("type".into(), Value::String("object".into()));
                merged.insert("properties".into(), Value::Object(props));
                merged.insert("required".into(), Value::Array(required));
                self.object(&merged, depth)
            }
        }
    }

    fn array(&mut self, obj: &Map<String, Value>, depth: usize) -> Ty {
        if obj.contains_key("prefixItems") {
            return Ty::List(Box::new(Ty::Json));
        }
        match obj.get("items") {
            Some(items @ (Value::Object(_) | Value::Bool(_))) => {
                Ty::List(Box::new(self.lower(items, depth + 1)))
            }
            _ => Ty::List(Box::new(Ty::Json)),
        }
    }

    fn object(&mut self, obj: &Map<String, Value>, depth: usize) -> Ty {
        let additional = obj.get("additionalProperties");
        match obj.get("properties").and_then(Value::as_object) {
            Some(props) if !props.is_empty() => {
                let required: Vec<&str> = obj
                    .get("required")
                    .and_then(Value::as_array)
                    .map(|r| r.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                let mut fields = Vec::new();
                for (key, v) in props {
                    let ty = self.lower(v, depth + 1);
                    fields.push((
                        key.clone(),
                        ty,
                        !required.contains(&key.as_str()),
                        doc_of(v),
                    ));
                }
                let open = matches!(additional, Some(Value::Bool(true) | Value::Object(_)));
                let closed = matches!(additional, Some(Value::Bool(false)));
                self.record(fields, open, closed)
            }
            _ => {
                let value = match additional {
                    Some(schema @ Value::Object(_)) => self.lower(schema, depth + 1),
                    _ => Ty::Json,
                };
                Ty::Dict(Box::new(value))
            }
        }
    }

    fn literal(&self, v: &Value) -> Ty {
        match (v, self.target) {
            (Value::String(s), Target::Harn) => {
                if s.chars().any(|c| c.is_control() && c != '\n' && c != '\t') {
                    Ty::Str
                } else {
                    Ty::StrLit(s.clone())
                }
            }
            (Value::String(s), Target::Ts) => Ty::StrLit(s.clone()),
            (Value::Number(n), _) => match n.as_i64() {
                Some(i) => Ty::IntLit(i),
                None if self.target == Target::Ts => Ty::NumLit(n.to_string()),
                None => Ty::Float,
            },
            (Value::Bool(b), Target::Ts) => Ty::BoolLit(*b),
            (Value::Bool(_), Target::Harn) => Ty::Bool,
            (Value::Null, _) => Ty::Nil,
            _ => Ty::Json,
        }
    }
}

fn shorthand(s: &str) -> Ty {
    match s {
        "string" => Ty::Str,
        "int" | "integer" => Ty::Int,
        "float" | "number" => Ty::Float,
        "bool" | "boolean" => Ty::Bool,
        "list" | "array" => Ty::List(Box::new(Ty::Json)),
        "dict" | "object" => Ty::Dict(Box::new(Ty::Json)),
        "nil" | "null" => Ty::Nil,
        _ => Ty::Json,
    }
}

/// `description`, else `title`, of a property schema.
pub fn doc_of(v: &Value) -> Option<String> {
    let text = |k: &str| {
        v.get(k)
            .and_then(Value::as_str)
            .filter(|s| !s.trim().is_empty())
    };
    text("description")
        .or_else(|| text("title"))
        .map(str::to_string)
}

/// The names an alias body refers to without any structure in between.
fn direct_names(ty: &Ty, out: &mut Vec<String>) {
    match ty {
        Ty::Named(n) => out.push(n.clone()),
        Ty::Union(ms) | Ty::Inter(ms) => ms.iter().for_each(|m| direct_names(m, out)),
        _ => {}
    }
}

/// An alias that reaches itself through bare references (`A = B`, `B = A | string`) is
/// not a valid TypeScript alias: such bodies become `JsonValue`.
fn break_alias_cycles(aliases: &mut [(String, Ty)]) {
    let index: BTreeMap<String, usize> = aliases
        .iter()
        .enumerate()
        .map(|(i, (n, _))| (n.clone(), i))
        .collect();
    let mut cyclic = Vec::new();
    for (i, (name, _)) in aliases.iter().enumerate() {
        let mut seen = vec![false; aliases.len()];
        let mut todo = Vec::new();
        direct_names(&aliases[i].1, &mut todo);
        let mut hit = false;
        while let Some(n) = todo.pop() {
            if &n == name {
                hit = true;
                break;
            }
            if let Some(&j) = index.get(&n)
                && !seen[j]
            {
                seen[j] = true;
                direct_names(&aliases[j].1, &mut todo);
            }
        }
        if hit {
            cyclic.push(i);
        }
    }
    for i in cyclic {
        if let Some(slot) = aliases.get_mut(i) {
            slot.1 = Ty::Json;
        }
    }
}
