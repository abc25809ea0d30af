//! The code-mode builtins for trusted scripts (`code-mode.md` 7):
//! `composition_binding_manifest`, `composition_harn_api`,
//! `composition_typescript_declarations` and `composition_execute`. They live in the
//! binary crate because they join the manifest model, the code generators and code mode
//! (`harn-codemode`, which also holds the closure host a dispatcher becomes); they carry
//! the `host` tag, so no code-mode run can see them.

use std::rc::Rc;

use harn_codemode::{ClosureHost, MockHost, Mode, Options, ToolHost, execute, from_json, to_json};
use harn_compiler::manifest::{BuildOptions, Form, Manifest, build_manifest, manifest_from_value};
use harn_vm::error::VmError;
use harn_vm::native::{CallbackRunner, Host, NativeFuture};
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

fn composition_execute(
    callbacks: Rc<dyn CallbackRunner>,
    args: &[Value],
) -> Result<NativeFuture, VmError> {
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
        Some(f @ (Value::Closure(_) | Value::Builtin(_))) => {
            Rc::new(ClosureHost::new(callbacks.clone(), f))
        }
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
            Err(e) => harn_codemode::invalid_options_report(&snippet, &manifest, &e),
        };
        Ok(from_json(&report.to_json()))
    }))
}
