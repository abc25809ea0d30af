//! CSV on the `csv` crate: `csv_parse` (rows as lists of strings, or dicts keyed by the
//! header row) and `csv_stringify` (lists or dicts; quoting only where needed).

use std::rc::Rc;

use harn_vm::VmError;
use harn_vm::display::display;
use harn_vm::native::Host;
use harn_vm::registry::RegistryBuilder;
use harn_vm::value::{Dict, Value};

use crate::util::{arg, charge, check_len, check_size, text};

fn thrown(name: &str, msg: impl std::fmt::Display) -> VmError {
    VmError::thrown_str(format!("{name}: {msg}"))
}

/// `{headers: bool, delimiter: "x"}` (both optional).
fn options(name: &str, v: &Value) -> Result<(bool, u8), VmError> {
    let Value::Dict(d) = v else {
        return match v {
            Value::Nil => Ok((false, b',')),
            other => Err(thrown(
                name,
                format!("options must be a dict, got {}", other.type_name()),
            )),
        };
    };
    let headers = d.get("headers").is_some_and(Value::truthy);
    let delimiter = match d.get("delimiter") {
        None | Some(Value::Nil) => b',',
        Some(Value::Str(s)) => match s.as_bytes() {
            [b] if b.is_ascii() => *b,
            _ => {
                return Err(thrown(
                    name,
                    "delimiter must be exactly one ASCII character",
                ));
            }
        },
        Some(_) => return Err(thrown(name, "delimiter must be a string")),
    };
    Ok((headers, delimiter))
}

fn csv_parse(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let s = text(args, 0)?;
    let (headers, delimiter) = options("csv_parse", arg(args, 1))?;
    charge(host, s.len() / 16 + 1)?;
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(delimiter)
        .from_reader(s.as_bytes());
    let mut rows: Vec<Vec<Value>> = Vec::new();
    let mut cells = 0usize;
    for record in reader.records() {
        let record = record.map_err(|e| thrown("csv_parse", e))?;
        cells += record.len() + 1;
        // Each cell becomes a value: refuse a document that expands past the caps
        // (a line of commas is many cells per byte).
        check_len(host, cells, "csv_parse")?;
        charge(host, record.len() / 8 + 1)?;
        rows.push(record.iter().map(Value::str).collect());
    }
    if !headers {
        return Ok(Value::list(rows.into_iter().map(Value::list).collect()));
    }
    let mut rows = rows.into_iter();
    let Some(names) = rows.next() else {
        return Ok(Value::list(Vec::new()));
    };
    let names: Vec<String> = names
        .iter()
        .map(|v| match v {
            Value::Str(s) => s.as_str().to_owned(),
            _ => String::new(),
        })
        .collect();
    let empty = Value::Str(Rc::new(String::new()));
    let out = rows
        .map(|row| {
            let d: Dict = names
                .iter()
                .enumerate()
                .map(|(i, k)| (k.clone(), row.get(i).cloned().unwrap_or(empty.clone())))
                .collect();
            Value::dict(d)
        })
        .collect();
    Ok(Value::list(out))
}

fn cell(v: &Value) -> Result<String, VmError> {
    match v {
        Value::Str(s) => Ok(s.as_str().to_owned()),
        Value::Nil => Ok(String::new()),
        other => display(other),
    }
}

fn csv_stringify(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let Value::List(rows) = arg(args, 0) else {
        return Err(thrown("csv_stringify", "expected a list of rows"));
    };
    let (headers, delimiter) = options("csv_stringify", arg(args, 1))?;
    let dict_mode = matches!(rows.first(), Some(Value::Dict(_)));
    let mut table: Vec<Vec<String>> = Vec::with_capacity(rows.len() + 1);
    if dict_mode {
        let mut keys: Vec<&str> = Vec::new();
        for row in rows.iter() {
            let Value::Dict(d) = row else {
                return Err(thrown(
                    "csv_stringify",
                    "mixed list/dict rows are not supported",
                ));
            };
            keys.extend(d.keys().map(|k| k.as_str()));
        }
        keys.sort();
        keys.dedup();
        if headers {
            table.push(keys.iter().map(|k| (*k).to_string()).collect());
        }
        for row in rows.iter() {
            if let Value::Dict(d) = row {
                table.push(
                    keys.iter()
                        .map(|k| d.get(k).map_or(Ok(String::new()), cell))
                        .collect::<Result<_, _>>()?,
                );
            }
        }
    } else {
        for row in rows.iter() {
            match row {
                Value::List(cells) => {
                    table.push(cells.iter().map(cell).collect::<Result<_, _>>()?);
                }
                Value::Dict(_) => {
                    return Err(thrown(
                        "csv_stringify",
                        "mixed list/dict rows are not supported",
                    ));
                }
                _ => {
                    return Err(thrown(
                        "csv_stringify",
                        "each row must be a list of cells (or use dict rows)",
                    ));
                }
            }
        }
    }
    // Quoting at most doubles a cell and adds two quotes and a separator.
    let size: usize = table
        .iter()
        .flatten()
        .map(|c| c.len() * 2 + 3)
        .sum::<usize>()
        + table.len();
    charge(host, size / 64 + 1)?;
    check_size(host, size, "csv_stringify")?;
    let mut w = csv::WriterBuilder::new()
        .delimiter(delimiter)
        .flexible(true)
        .from_writer(Vec::with_capacity(size));
    for row in &table {
        w.write_record(row)
            .map_err(|e| thrown("csv_stringify", e))?;
    }
    let bytes = w
        .into_inner()
        .map_err(|e| thrown("csv_stringify", e.error()))?;
    Ok(Value::str(String::from_utf8_lossy(&bytes).into_owned()))
}

pub fn register(b: &mut RegistryBuilder) {
    b.sync("csv_parse", csv_parse);
    b.sync("csv_stringify", csv_stringify);
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::test_host::{call, call_err, s};

    fn opts(headers: bool) -> Value {
        let mut d = Dict::new();
        d.insert("headers", Value::Bool(headers));
        Value::dict(d)
    }

    #[test]
    fn parse_and_stringify() {
        assert_eq!(
            call(csv_parse, &[s("a,b\r\n\"x,1\",\"say \"\"hi\"\"\"\n3\n")]),
            "[[a, b], [x,1, say \"hi\"], [3]]"
        );
        assert_eq!(
            call(csv_parse, &[s("name,age\nal,30\nbo\n"), opts(true)]),
            "[{age: 30, name: al}, {age: , name: bo}]"
        );
        assert_eq!(call(csv_parse, &[s("")]), "[]");
        let rows = call_value(csv_parse, &[s("name,age\nal,30\n"), opts(true)]);
        assert_eq!(
            call(csv_stringify, &[rows, opts(true)]),
            "age,name\n30,al\n"
        );
        assert_eq!(
            call(
                csv_stringify,
                &[Value::list(vec![Value::list(vec![
                    s("a,b"),
                    Value::Int(1)
                ])])]
            ),
            "\"a,b\",1\n"
        );
        assert!(call_err(csv_stringify, &[s("x")]).contains("expected a list of rows"));
    }

    fn call_value(f: harn_vm::native::NativeFn, args: &[Value]) -> Value {
        f(&mut crate::test_host::TestHost::new(), args).unwrap()
    }
}
