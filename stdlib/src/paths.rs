//! Path helpers on strings (no file-system access): `dirname`, `basename`, `extname`,
//! `path_join`.

use harn_vm::VmError;
use harn_vm::native::Host;
use harn_vm::registry::RegistryBuilder;
use harn_vm::value::Value;

use harn_vm::display::display;

use crate::util::text;

/// `dirname("a/b/c.txt")` → `a/b`; `""` when there is no directory part; `/` for a
/// file at the root.
pub fn dirname_of(p: &str) -> String {
    let trimmed = p.trim_end_matches('/');
    if trimmed.is_empty() {
        return String::new();
    }
    match trimmed.rfind('/') {
        Some(0) => "/".into(),
        Some(i) => trimmed[..i].trim_end_matches('/').to_owned(),
        None => String::new(),
    }
}

fn dirname(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(Value::str(dirname_of(&text(args, 0)?)))
}

fn basename(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let p = text(args, 0)?;
    let trimmed = p.trim_end_matches('/');
    Ok(Value::str(trimmed.rsplit('/').next().unwrap_or("")))
}

fn extname(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let p = text(args, 0)?;
    let base = p.rsplit('/').next().unwrap_or("");
    Ok(Value::str(match base.rfind('.') {
        Some(0) | None => "",
        Some(i) => &base[i..],
    }))
}

/// `path_join(a, b, ...)` (or one list): joins with `/`; an absolute part restarts.
fn path_join(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let parts: Vec<Value> = match args {
        [Value::List(l)] => l.to_vec(),
        _ => args.to_vec(),
    };
    let mut out = String::new();
    for p in &parts {
        let p = match p {
            Value::Str(s) => s.as_str().to_owned(),
            other => display(other)?,
        };
        if p.is_empty() {
            continue;
        }
        if p.starts_with('/') {
            out = p;
        } else {
            if !out.is_empty() && !out.ends_with('/') {
                out.push('/');
            }
            out.push_str(&p);
        }
    }
    Ok(Value::str(out))
}

pub fn register(b: &mut RegistryBuilder) {
    let table: &[harn_vm::registry::SyncEntry] = &[
        ("dirname", dirname),
        ("basename", basename),
        ("extname", extname),
        ("path_join", path_join),
    ];
    b.sync_table(table);
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::test_host::{call, s};

    #[test]
    fn paths() {
        assert_eq!(dirname_of("a/b/c.txt"), "a/b");
        assert_eq!(dirname_of("c.txt"), "");
        assert_eq!(dirname_of("/c.txt"), "/");
        assert_eq!(dirname_of("a/b/"), "a");
        assert_eq!(call(basename, &[s("a/b/c.txt")]), "c.txt");
        assert_eq!(call(extname, &[s("a/b/c.tar.gz")]), ".gz");
        assert_eq!(call(path_join, &[s("a"), s("b/"), s("c")]), "a/b/c");
        assert_eq!(call(path_join, &[s("a"), s("/abs")]), "/abs");
    }
}
