//! Host I/O for trusted scripts only (never installed in code mode; the default profile
//! leaves them out too): files (`io.fs`), environment variables (`io.env`) and
//! `run_command` (`io.process`).
//!
//! The process builtin is `exec` (also registered as `run_command`): it takes an argument
//! vector and never goes through a shell. The registry's name denylist keeps `exec` out
//! of every sandboxed profile whatever its tag. HTTP is in `http.rs`.
//!
//! Failures throw strings such as `read_file: notes.txt: No such file or directory (os
//! error 2)`.

use std::io::Write as _;
use std::process::{Command, Stdio};

use harn_vm::VmError;
use harn_vm::display::display;
use harn_vm::native::Host;
use harn_vm::registry::RegistryBuilder;
use harn_vm::value::{Dict, Value};

use crate::util::{arg, str_arg, text, type_err};

fn io_err(name: &str, path: &str, e: std::io::Error) -> VmError {
    VmError::thrown_str(format!("{name}: {path}: {e}"))
}

fn read_file(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let path = str_arg("read_file", args, 0)?;
    std::fs::read_to_string(path)
        .map(Value::str)
        .map_err(|e| io_err("read_file", path, e))
}

fn write_file(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let path = str_arg("write_file", args, 0)?;
    let content = text(args, 1)?;
    std::fs::write(path, content).map_err(|e| io_err("write_file", path, e))?;
    Ok(Value::Nil)
}

fn append_file(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let path = str_arg("append_file", args, 0)?;
    let content = text(args, 1)?;
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(content.as_bytes()))
        .map_err(|e| io_err("append_file", path, e))?;
    Ok(Value::Nil)
}

fn list_dir(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let path = match arg(args, 0) {
        Value::Nil => ".",
        _ => str_arg("list_dir", args, 0)?,
    };
    let mut names = Vec::new();
    for entry in std::fs::read_dir(path).map_err(|e| io_err("list_dir", path, e))? {
        let entry = entry.map_err(|e| io_err("list_dir", path, e))?;
        names.push(entry.file_name().to_string_lossy().into_owned());
    }
    names.sort();
    Ok(Value::list(names.into_iter().map(Value::str).collect()))
}

fn exists(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(Value::Bool(
        std::path::Path::new(str_arg("exists", args, 0)?).exists(),
    ))
}

fn is_dir(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(Value::Bool(
        std::path::Path::new(str_arg("is_dir", args, 0)?).is_dir(),
    ))
}

fn mkdir(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let path = str_arg("mkdir", args, 0)?;
    std::fs::create_dir_all(path).map_err(|e| io_err("mkdir", path, e))?;
    Ok(Value::Nil)
}

fn delete_file(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let path = str_arg("delete_file", args, 0)?;
    std::fs::remove_file(path).map_err(|e| io_err("delete_file", path, e))?;
    Ok(Value::Nil)
}

/// `env(name, default?)`: the variable's value, else the default (nil).
fn env(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let name = str_arg("env", args, 0)?;
    Ok(std::env::var(name).map_or_else(|_| arg(args, 1).clone(), Value::str))
}

/// `exec(argv, options?)` (alias `run_command`) with options `{cwd, stdin, env}`;
/// returns `{status, ok, stdout, stderr}`. No shell is involved. Errors name the builtin
/// that was called.
fn exec(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    process("exec", args)
}

fn run_command(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    process("run_command", args)
}

fn process(name: &str, args: &[Value]) -> Result<Value, VmError> {
    let argv: Vec<String> = match arg(args, 0) {
        Value::List(items) if !items.is_empty() => {
            items.iter().map(display).collect::<Result<_, _>>()?
        }
        Value::List(_) => {
            return Err(VmError::thrown_str(format!(
                "{name}: empty argument vector"
            )));
        }
        other => {
            return Err(type_err(
                name,
                "list of strings (program and arguments)",
                other,
            ));
        }
    };
    let opts = match arg(args, 1) {
        Value::Dict(d) => (**d).clone(),
        Value::Nil => Dict::new(),
        other => return Err(type_err(name, "options dict", other)),
    };
    let mut cmd = Command::new(&argv[0]);
    cmd.args(&argv[1..]);
    if let Some(Value::Str(cwd)) = opts.get("cwd") {
        cmd.current_dir(cwd.as_str());
    }
    if let Some(Value::Dict(vars)) = opts.get("env") {
        for (k, v) in vars.iter() {
            cmd.env(k.as_str(), display(v)?);
        }
    }
    let stdin = match opts.get("stdin") {
        Some(v) => Some(display(v)?),
        None => None,
    };
    cmd.stdin(if stdin.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    });
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd
        .spawn()
        .map_err(|e| VmError::thrown_str(format!("{name}: {}: {e}", argv[0])))?;
    if let (Some(input), Some(mut pipe)) = (stdin, child.stdin.take()) {
        let _ = pipe.write_all(input.as_bytes());
    }
    let out = child
        .wait_with_output()
        .map_err(|e| VmError::thrown_str(format!("{name}: {}: {e}", argv[0])))?;
    let mut d = Dict::new();
    let status = out.status.code().map_or(-1, i64::from);
    d.insert("status", Value::Int(status));
    d.insert("ok", Value::Bool(out.status.success()));
    d.insert("stdout", Value::str(String::from_utf8_lossy(&out.stdout)));
    d.insert("stderr", Value::str(String::from_utf8_lossy(&out.stderr)));
    Ok(Value::dict(d))
}

pub fn register(b: &mut RegistryBuilder) {
    b.sync("read_file", read_file);
    b.sync("write_file", write_file);
    b.sync("append_file", append_file);
    b.sync("list_dir", list_dir);
    b.sync("exists", exists);
    b.sync("is_dir", is_dir);
    b.sync("mkdir", mkdir);
    b.sync("delete_file", delete_file);
    b.sync("env", env);
    for (name, f) in [
        ("exec", exec as harn_vm::native::NativeFn),
        ("run_command", run_command),
    ] {
        b.sync(name, f);
    }
}

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::cloned_ref_to_slice_refs
)]
mod tests {
    use super::*;
    use crate::test_host::{call, call_err, i, l, s};

    #[test]
    fn files() {
        let dir = std::env::temp_dir().join(format!("harn_stdlib_test_{}", std::process::id()));
        let d = dir.to_string_lossy().into_owned();
        call(mkdir, &[s(&d)]);
        let f = format!("{d}/a.txt");
        call(write_file, &[s(&f), s("one")]);
        call(append_file, &[s(&f), s("+two")]);
        assert_eq!(call(read_file, &[s(&f)]), "one+two");
        assert_eq!(call(exists, &[s(&f)]), "true");
        assert_eq!(call(list_dir, &[s(&d)]), "[a.txt]");
        call(delete_file, &[s(&f)]);
        assert_eq!(call(exists, &[s(&f)]), "false");
        assert!(call_err(read_file, &[s(&f)]).starts_with("Thrown: read_file: "));
        assert_eq!(
            call_err(read_file, &[i(1)]),
            "Type error: read_file: expected string, got int"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn commands_and_env() {
        assert_eq!(call(env, &[s("HARN_SURELY_UNSET_VAR"), s("dflt")]), "dflt");
        let r = call(run_command, &[l(vec![s("echo"), s("hi there")])]);
        assert_eq!(r, "{ok: true, status: 0, stderr: , stdout: hi there\n}");
        assert!(call_err(run_command, &[s("echo hi")]).contains("expected list"));
        assert!(call_err(run_command, &[l(vec![])]).contains("empty argument vector"));
        assert_eq!(
            call_err(exec, &[l(vec![])]),
            "Thrown: exec: empty argument vector"
        );
        assert!(call_err(exec, &[s("echo hi")]).starts_with("Type error: exec: expected list"));
    }
}
