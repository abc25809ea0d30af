//! Calls and member access: binding arguments against input schemas, fields of known
//! shapes, arity and generic parameters of user functions.

use super::rules::never_equal;
use super::walk::widen;
use super::{Checker, FnInfo};
use crate::ast::*;
use crate::diagnostic::codes;
use crate::types::{Field, Ty};

impl Checker<'_> {
    /// The type of `.name` on a value of a known shape. On a closed shape (a schema with
    /// `additionalProperties: false`) a name it lacks is an error: the key can never be
    /// there. On an open one, a name close to a known one is most likely a typo: a
    /// warning with the suggestion (the shape allows keys it does not name).
    pub(crate) fn field(
        &mut self,
        fields: &[Field],
        closed: bool,
        name: &Ident,
        optional: bool,
    ) -> Ty {
        match fields.iter().find(|f| f.name == name.name) {
            Some(f) if f.optional || optional => Ty::union(vec![f.ty.clone(), Ty::Nil]),
            Some(f) => f.ty.clone(),
            None if closed => {
                let names = fields.iter().map(|f| f.name.as_str());
                let close = crate::suggest::suggest(&name.name, names);
                let known: Vec<String> = fields.iter().map(|f| format!("`{}`", f.name)).collect();
                let hint = match &close {
                    Some(c) => format!(" — did you mean `{c}`?"),
                    None => String::new(),
                };
                self.error(
                    codes::CLOSED_FIELD,
                    format!(
                        "no field `{}` in this value: its schema allows only {}{hint}",
                        name.name,
                        known.join(", ")
                    ),
                    name.span,
                    "never present",
                );
                if let Some(c) = close {
                    self.attach_fix(name.span, c);
                }
                Ty::Nil
            }
            None => {
                let names = fields.iter().map(|f| f.name.as_str());
                if let Some(close) = crate::suggest::suggest(&name.name, names) {
                    self.warn(
                        codes::UNKNOWN_FIELD,
                        format!(
                            "no field `{}` in this value — did you mean `{close}`?",
                            name.name
                        ),
                        name.span,
                        "not a known field",
                    );
                    self.attach_fix(name.span, close);
                }
                Ty::Any
            }
        }
    }

    /// A binding called with a dict literal: keys its input schema requires but the
    /// literal lacks, and keys a closed schema forbids. The argument gate refuses
    /// such a call at run time (`code-mode.md` acceptance 24), so these are warnings.
    pub(crate) fn binding_arguments(&mut self, binding: &crate::manifest::Binding, args: &[Arg]) {
        let [Arg::Positional(arg)] = args else {
            return;
        };
        let ExprKind::Dict(entries) = &arg.kind else {
            return;
        };
        let mut keys = Vec::new();
        for entry in entries {
            match entry {
                DictEntry::Pair {
                    key: DictKey::Name(k, span),
                    ..
                } => keys.push((k.as_str(), *span)),
                // Keys not known statically: nothing is certain.
                _ => return,
            }
        }
        let schema = &binding.input_schema;
        let required = schema.get("required").and_then(|r| r.as_array());
        for key in required.into_iter().flatten().filter_map(|k| k.as_str()) {
            if !keys.iter().any(|(k, _)| *k == key) {
                self.warn(
                    codes::BINDING_ARGUMENTS,
                    format!(
                        "binding `{}` is missing required argument `{key}` (the call will be refused)",
                        binding.binding
                    ),
                    arg.span,
                    "these arguments",
                );
            }
        }
        let properties = schema.get("properties").and_then(|p| p.as_object());
        if schema.get("additionalProperties") == Some(&serde_json::Value::Bool(false))
            && let Some(properties) = properties
        {
            for (key, span) in keys.iter().filter(|(k, _)| !properties.contains_key(*k)) {
                let close = crate::suggest::suggest(key, properties.keys().map(String::as_str))
                    .map(|c| format!(" — did you mean `{c}`?"))
                    .unwrap_or_default();
                self.warn(
                    codes::BINDING_ARGUMENTS,
                    format!(
                        "binding `{}` takes no argument `{key}`{close} (the call will be refused)",
                        binding.binding
                    ),
                    *span,
                    "not in the input schema",
                );
            }
        }
    }

    /// One call binding a generic parameter to two types that cannot be one
    /// (`fn same<T>(a: T, b: T)` called with an int and a string).
    pub(crate) fn generic_arguments(&mut self, func: &FnInfo, args: &[Arg], types: &[Ty]) {
        let mut bound: Vec<(&str, Ty)> = Vec::new();
        for ((param, arg), actual) in func.params.iter().zip(args).zip(types) {
            let Arg::Positional(arg) = arg else {
                return;
            };
            let Some(g) = &param.generic else {
                continue;
            };
            // Only scalars are judged: two scalars of different kinds cannot be one type.
            let actual = widen(actual.clone());
            if !matches!(actual, Ty::Int | Ty::Float | Ty::String | Ty::Bool) {
                continue;
            }
            match bound.iter().find(|(name, _)| *name == g.as_str()) {
                Some((_, first)) if never_equal(first, &actual).is_some() => {
                    let message =
                        format!("type parameter '{g}' was inferred as both {first} and {actual}");
                    self.error(codes::GENERIC_CONFLICT, message, arg.span, "this argument");
                    return;
                }
                Some(_) => {}
                None => bound.push((g.as_str(), actual)),
            }
        }
        // `where T: I` with T bound to one of the program's types: its methods must
        // match the interface's (structural satisfaction, 6.5).
        for ((param, arg), actual) in func.params.iter().zip(args).zip(types) {
            let (Some(g), Arg::Positional(arg)) = (&param.generic, arg) else {
                continue;
            };
            let Ty::Named {
                name: type_name, ..
            } = actual
            else {
                continue;
            };
            for (_, interface) in func.bounds.iter().filter(|(t, _)| t == g) {
                if let Some(problem) = self.unsatisfied(type_name, interface) {
                    let message = format!(
                        "Type '{type_name}' does not satisfy interface '{interface}': {problem} (required by constraint `where {g}: {interface}`)"
                    );
                    self.error(codes::INTERFACE, message, arg.span, "this argument");
                    return;
                }
            }
        }
    }

    /// The first way `type_name`'s methods fail `interface`'s: a return or parameter
    /// type that cannot be the required one (both annotated).
    fn unsatisfied(&self, type_name: &str, interface: &str) -> Option<String> {
        let required = self.interfaces.get(interface)?;
        let methods = self.impls.get(type_name)?;
        for want in required {
            let Some(have) = methods.iter().find(|m| m.name == want.name) else {
                continue;
            };
            // A return typed by an associated type the interface names (`-> Item` with
            // `type Item = int`).
            if let (Some(h), Some(Ty::Named { name, args })) = (&have.ret, &want.ret)
                && args.is_empty()
                && let Some((_, resolved)) = self
                    .assoc_types
                    .get(interface)
                    .and_then(|a| a.iter().find(|(n, _)| n == name))
            {
                if self.mismatch(h, resolved).is_some() {
                    return Some(format!(
                        "associated type '{name}' resolves to '{h}', expected '{resolved}'"
                    ));
                }
                continue;
            }
            if let (Some(h), Some(w)) = (&have.ret, &want.ret)
                && self.mismatch(h, w).is_some()
            {
                return Some(format!(
                    "method '{}' returns '{h}', expected '{w}'",
                    want.name
                ));
            }
            for (i, (h, w)) in have.params.iter().zip(&want.params).enumerate() {
                if let (Some(h), Some(w)) = (h, w)
                    && self.mismatch(w, h).is_some()
                {
                    return Some(format!(
                        "method '{}' parameter {} has type '{h}', expected '{w}'",
                        want.name,
                        i + 1
                    ));
                }
            }
        }
        None
    }

    /// A call of a user function with more or fewer arguments than it takes: a
    /// warning (missing ones are `nil`, extra ones ignored, `language.md` 6.2).
    pub(crate) fn arity(&mut self, name: &str, func: &FnInfo, args: &[Arg], span: Span) {
        if args.iter().any(|a| matches!(a, Arg::Spread(_))) {
            return;
        }
        let min = func
            .params
            .iter()
            .filter(|p| !p.rest && !p.has_default)
            .count();
        let max = (!func.params.iter().any(|p| p.rest)).then_some(func.params.len());
        let n = args.len();
        if n >= min && max.is_none_or(|m| n <= m) {
            return;
        }
        let expected = match max {
            Some(m) if m == min => format!("{m}"),
            Some(m) => format!("{min} to {m}"),
            None => format!("at least {min}"),
        };
        self.warn(
            codes::ARITY,
            format!("Function '{name}' expects {expected} arguments, got {n}"),
            span,
            "called here",
        );
    }
}
