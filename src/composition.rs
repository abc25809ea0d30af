//! The code-mode builtins for trusted scripts (`code-mode.md` 7):
//! `composition_binding_manifest`, `composition_harn_api`,
//! `composition_typescript_declarations` and `composition_execute`. They live in the
//! binary crate because they join the manifest model, the code generators and the
//! executor; they carry the `host` tag, so no code-mode run can see them.

use std::rc::Rc;

use harn_compiler::manifest::Binding;
use harn_compiler::manifest::{BuildOptions, Form, Manifest, build_manifest, manifest_from_value};
use harn_vm::display::display;
use harn_vm::error::{ErrorKind, VmError};
use harn_vm::executor::{
    MockHost, Mode, Options, ToolError, ToolFuture, ToolHost, execute, from_json, to_json,
};
use harn_vm::interp::{Callbacks, Vm};
use harn_vm::native::{Host, NativeFuture};
use harn_vm::registry::RegistryBuilder;
use harn_vm::value::Value;
use serde_json::Value as Json;

/// Registers the composition builtins.
pub fn register(b: &mut RegistryBuilder) {
    b.sync("composition_binding_manifest", binding_manifest);
    b.sync("composition_harn_api", harn_api);
    b.sync(
        "composition_typescript_declarations",
        typescript_declarations,
    );
    b.with_vm("composition_execute", composition_execute);
}

fn json_arg(name: &str, args: &[Value], i: usize, what: &str) -> Result<Json, VmError> {
    let v = args.get(i).unwrap_or(harn_vm::value::nil());
    to_json(v, Mode::Input).map_err(|e| VmError::thrown_str(format!("{name}: {what} {e}")))
}

/// A manifest argument: a binding manifest dict, else a tool surface to build from.
fn manifest_arg(name: &str, args: &[Value]) -> Result<Manifest, VmError> {
    let value = json_arg(name, args, 0, "manifest")?;
    let is_manifest = value.get("bindings").is_some_and(Json::is_array);
    if is_manifest {
        return manifest_from_value(&value)
            .map_err(|e| VmError::thrown_str(format!("{name}: invalid manifest: {e}")));
    }
    let options = BuildOptions::from_value(&Json::Null)
        .map_err(|e| VmError::thrown_str(format!("{name}: {e}")))?;
    Ok(build_manifest(&value, &options).manifest)
}

fn binding_manifest(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    const NAME: &str = "composition_binding_manifest";
    let tools = json_arg(NAME, args, 0, "tools")?;
    let options = match args.get(1) {
        None | Some(Value::Nil) => Json::Null,
        Some(_) => json_arg(NAME, args, 1, "options")?,
    };
    // Option errors already read `composition_binding_manifest: ...`.
    let options =
        BuildOptions::from_value(&options).map_err(|e| VmError::thrown_str(e.to_string()))?;
    let built = build_manifest(&tools, &options);
    let json = match options.form {
        Form::Compact => built.manifest.to_compact_value(),
        Form::Full => built.manifest.to_value(),
    };
    Ok(from_json(&json))
}

fn harn_api(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let m = manifest_arg("composition_harn_api", args)?;
    Ok(Value::str(harn_codegen::emit_harn(&m)))
}

fn typescript_declarations(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let m = manifest_arg("composition_typescript_declarations", args)?;
    Ok(Value::str(harn_codegen::emit_ts(&m)))
}

/// Child error categories a dispatcher may report (4.7).
const CHILD_CATEGORIES: &[&str] = harn_vm::executor::CHILD_ERROR_CATEGORIES;

/// A Harn closure as the tool host: called with `(name, input)` in a VM forked from
/// the calling trusted script, so it has the script's capabilities.
struct ClosureHost {
    callbacks: Callbacks,
    dispatcher: Value,
}

/// What a dispatcher's error becomes: a `dispatch_error.v1` dict chooses the child
/// category; anything else is a `tool_error`.
fn dispatch_error(e: &VmError) -> ToolError {
    if let ErrorKind::Thrown(Value::Dict(d)) = &e.kind
        && d.get("schema").and_then(Value::as_str) == Some("harn.composition.dispatch_error.v1")
    {
        let category = d
            .get("error_category")
            .and_then(Value::as_str)
            .filter(|c| CHILD_CATEGORIES.contains(c))
            .unwrap_or("tool_error");
        let message = d
            .get("message")
            .map(|m| display(m).unwrap_or_default())
            .unwrap_or_default();
        return ToolError::new(category, message);
    }
    ToolError::new("tool_error", e.report())
}

impl ToolHost for ClosureHost {
    fn call(&self, binding: &Binding, input: Json) -> ToolFuture {
        let call = self.callbacks.call(
            self.dispatcher.clone(),
            vec![Value::str(binding.name.clone()), from_json(&input)],
        );
        Box::pin(async move {
            match call.await {
                Ok(v) => to_json(&v, Mode::Result).map_err(|e| ToolError::new("tool_error", e)),
                Err(e) => Err(dispatch_error(&e)),
            }
        })
    }

    fn executor_tag(&self, _binding: &Binding) -> Json {
        serde_json::json!({"kind": "harn_builtin"})
    }
}

fn composition_execute(vm: &mut Vm, args: &[Value]) -> Result<NativeFuture, VmError> {
    const NAME: &str = "composition_execute";
    let snippet = match args.first() {
        Some(Value::Str(s)) => s.to_string(),
        other => {
            return Err(VmError::type_error(format!(
                "{NAME}: snippet must be a string, got {}",
                other.map_or("nil", Value::type_name)
            )));
        }
    };
    let manifest = manifest_arg(NAME, &args[1..])?;
    let (options, dispatcher) = match args.get(2) {
        None | Some(Value::Nil) => (Json::Null, None),
        Some(f @ (Value::Closure(_) | Value::Builtin(_))) => (Json::Null, Some(f.clone())),
        Some(Value::Dict(d)) => {
            let mut rest = (**d).clone();
            let dispatcher = rest
                .remove("dispatcher")
                .filter(|v| !matches!(v, Value::Nil));
            let options = to_json(&Value::dict(rest), Mode::Input)
                .map_err(|e| VmError::thrown_str(format!("{NAME}: options {e}")))?;
            (options, dispatcher)
        }
        Some(_) => (json_arg(NAME, args, 2, "options")?, None),
    };
    let host: Rc<dyn ToolHost> = match dispatcher {
        Some(f @ (Value::Closure(_) | Value::Builtin(_))) => Rc::new(ClosureHost {
            callbacks: vm.callbacks(),
            dispatcher: f,
        }),
        Some(other) => {
            return Err(VmError::type_error(format!(
                "{NAME}: dispatcher must be a closure, got {}",
                other.type_name()
            )));
        }
        None => Rc::new(MockHost),
    };
    Ok(Box::pin(async move {
        // Invalid options still give a report (`schema_validation`), never a throw.
        let report = match Options::from_json(&options) {
            Ok(o) => execute(&snippet, &manifest, &o, host).await,
            Err(e) => harn_vm::executor::invalid_options_report(&snippet, &manifest, &e),
        };
        Ok(from_json(&report))
    }))
}
