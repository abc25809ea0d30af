//! TOML on the `toml` crate: `toml_parse` (a table as a dict; datetimes as their RFC 3339
//! text) and `toml_stringify` (a dict as a document).

use harn_vm::VmError;
use harn_vm::display::display;
use harn_vm::native::Host;
use harn_vm::registry::RegistryBuilder;
use harn_vm::value::{Dict, Value};

use crate::util::{arg, charge, check_size, text};

fn from_toml(v: toml::Value) -> Value {
    match v {
        toml::Value::String(s) => Value::str(s),
        toml::Value::Integer(n) => Value::Int(n),
        toml::Value::Float(x) => Value::Float(x),
        toml::Value::Boolean(b) => Value::Bool(b),
        toml::Value::Datetime(d) => Value::str(d.to_string()),
        toml::Value::Array(items) => Value::list(items.into_iter().map(from_toml).collect()),
        toml::Value::Table(t) => table_value(t),
    }
}

fn table_value(t: toml::Table) -> Value {
    Value::dict(t.into_iter().map(|(k, v)| (k, from_toml(v))).collect())
}

fn toml_parse(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let s = text(args, 0)?;
    charge(host, s.len() / 16 + 1)?;
    let table: toml::Table = s.parse().map_err(|e: toml::de::Error| {
        VmError::thrown_str(format!("toml_parse: {}", e.to_string().trim_end()))
    })?;
    Ok(table_value(table))
}

fn to_toml(v: &Value, depth: usize) -> Result<toml::Value, VmError> {
    harn_vm::walk::visit(depth)?;
    Ok(match v {
        Value::Nil => {
            return Err(VmError::thrown_str(
                "toml_stringify: TOML has no null; remove nil values first",
            ));
        }
        Value::Bool(b) => toml::Value::Boolean(*b),
        Value::Int(n) => toml::Value::Integer(*n),
        Value::Float(x) => toml::Value::Float(*x),
        Value::Str(s) => toml::Value::String(s.as_str().to_owned()),
        Value::List(items) | Value::Set(items) => toml::Value::Array(
            items
                .iter()
                .map(|i| to_toml(i, depth + 1))
                .collect::<Result<_, _>>()?,
        ),
        Value::Dict(d) => toml::Value::Table(table_of(d, depth)?),
        Value::Struct(s) => toml::Value::Table(table_of(&s.fields, depth)?),
        other => toml::Value::String(display(other)?),
    })
}

fn table_of(d: &Dict, depth: usize) -> Result<toml::Table, VmError> {
    d.iter()
        .map(|(k, v)| Ok((k.to_string(), to_toml(v, depth + 1)?)))
        .collect()
}

fn toml_stringify(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let table = match arg(args, 0) {
        Value::Dict(d) => table_of(d, 0)?,
        Value::Struct(s) => table_of(&s.fields, 0)?,
        other => {
            return Err(VmError::thrown_str(format!(
                "toml_stringify: expected a dict (a TOML document is a table), got {}",
                other.type_name()
            )));
        }
    };
    let out = table.to_string();
    charge(host, out.len() / 64 + 1)?;
    check_size(host, out.len(), "toml_stringify")?;
    Ok(Value::str(out))
}

pub fn register(b: &mut RegistryBuilder) {
    b.sync("toml_parse", toml_parse);
    b.sync("toml_stringify", toml_stringify);
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::test_host::{call, call_err, s};

    #[test]
    fn parse_and_stringify() {
        let doc = "title = \"x\"\n[owner]\nborn = 1979-05-27T07:32:00Z\nn = [1, 2.5]\n";
        assert_eq!(
            call(toml_parse, &[s(doc)]),
            "{owner: {born: 1979-05-27T07:32:00Z, n: [1, 2.5]}, title: x}"
        );
        assert!(call_err(toml_parse, &[s("a = ")]).contains("toml_parse:"));
        let v = toml_parse(&mut crate::test_host::TestHost::new(), &[s(doc)]).unwrap();
        let text = call(toml_stringify, &[v]);
        assert!(text.contains("title = \"x\""), "{text}");
        assert!(text.contains("[owner]"), "{text}");
        assert!(call_err(toml_stringify, &[Value::Int(1)]).contains("expected a dict"));
    }
}
