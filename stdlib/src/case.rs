//! Case conversions: `snake_to_camel`, `camel_to_snake`, `to_snake_case`,
//! `to_kebab_case`, `to_camel_case`, `to_pascal_case`, `to_title_case`, `capitalize`.

use harn_vm::VmError;
use harn_vm::native::Host;
use harn_vm::registry::RegistryBuilder;
use harn_vm::value::Value;

use crate::util::text;

/// Splits an identifier-like string into words: at `_`, `-`, spaces and other
/// non-alphanumerics, and at lower→upper and `ABc` (acronym end) boundaries.
fn split_words(s: &str) -> Vec<String> {
    let cs: Vec<char> = s.chars().collect();
    let mut words = Vec::new();
    let mut cur = String::new();
    for (i, &c) in cs.iter().enumerate() {
        if !c.is_alphanumeric() {
            if !cur.is_empty() {
                words.push(std::mem::take(&mut cur));
            }
            continue;
        }
        if c.is_uppercase() && !cur.is_empty() {
            let prev = cs[i - 1];
            let next_lower = cs.get(i + 1).is_some_and(|n| n.is_lowercase());
            if prev.is_lowercase() || prev.is_numeric() || (prev.is_uppercase() && next_lower) {
                words.push(std::mem::take(&mut cur));
            }
        }
        cur.push(c);
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    words
}

fn capitalize_word(w: &str) -> String {
    let mut cs = w.chars();
    match cs.next() {
        Some(f) => f.to_uppercase().collect::<String>() + &cs.as_str().to_lowercase(),
        None => String::new(),
    }
}

fn case_fn(args: &[Value], f: fn(Vec<String>) -> String) -> Result<Value, VmError> {
    Ok(Value::str(f(split_words(&text(args, 0)?))))
}

fn to_snake_case(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    case_fn(args, |w| {
        w.iter()
            .map(|x| x.to_lowercase())
            .collect::<Vec<_>>()
            .join("_")
    })
}

fn to_kebab_case(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    case_fn(args, |w| {
        w.iter()
            .map(|x| x.to_lowercase())
            .collect::<Vec<_>>()
            .join("-")
    })
}

fn to_screaming_snake_case(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    case_fn(args, |w| {
        w.iter()
            .map(|x| x.to_uppercase())
            .collect::<Vec<_>>()
            .join("_")
    })
}

fn to_camel_case(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    case_fn(args, |w| {
        w.iter()
            .enumerate()
            .map(|(i, x)| {
                if i == 0 {
                    x.to_lowercase()
                } else {
                    capitalize_word(x)
                }
            })
            .collect()
    })
}

fn to_pascal_case(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    case_fn(args, |w| w.iter().map(|x| capitalize_word(x)).collect())
}

fn to_title_case(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    case_fn(args, |w| {
        w.iter()
            .map(|x| capitalize_word(x))
            .collect::<Vec<_>>()
            .join(" ")
    })
}

/// `snake_to_camel("user_id")` → `userId`: the first part kept, later parts capitalised.
fn snake_to_camel(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let s = text(args, 0)?;
    let mut out = String::new();
    for (i, part) in s.split('_').filter(|p| !p.is_empty()).enumerate() {
        if i == 0 {
            out.push_str(part);
        } else {
            let mut cs = part.chars();
            if let Some(f) = cs.next() {
                out.extend(f.to_uppercase());
                out.push_str(cs.as_str());
            }
        }
    }
    Ok(Value::str(out))
}

/// `camel_to_snake("userId")` → `user_id`.
fn camel_to_snake(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let s = text(args, 0)?;
    let mut out = String::new();
    let cs: Vec<char> = s.chars().collect();
    for (i, &c) in cs.iter().enumerate() {
        if c.is_uppercase() {
            let prev = i.checked_sub(1).map(|p| cs[p]);
            let next_lower = cs.get(i + 1).is_some_and(|n| n.is_lowercase());
            if let Some(p) = prev
                && p != '_'
                && (p.is_lowercase() || p.is_numeric() || (p.is_uppercase() && next_lower))
            {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    Ok(Value::str(out))
}

fn capitalize(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let s = text(args, 0)?;
    let mut cs = s.chars();
    Ok(Value::str(match cs.next() {
        Some(f) => f.to_uppercase().collect::<String>() + cs.as_str(),
        None => String::new(),
    }))
}

fn first_char(s: &str, upper: bool) -> String {
    let mut cs = s.chars();
    match cs.next() {
        Some(f) if upper => f.to_uppercase().collect::<String>() + cs.as_str(),
        Some(f) => f.to_lowercase().collect::<String>() + cs.as_str(),
        None => String::new(),
    }
}

fn uppercase_first(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(Value::str(first_char(&text(args, 0)?, true)))
}

fn lowercase_first(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(Value::str(first_char(&text(args, 0)?, false)))
}

/// Upper-cases the first letter of each whitespace-separated word, lower-cases the rest.
fn title_case(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let s = text(args, 0)?;
    let mut out = String::with_capacity(s.len());
    let mut start = true;
    for c in s.chars() {
        if c.is_whitespace() {
            start = true;
            out.push(c);
        } else if start {
            out.extend(c.to_uppercase());
            start = false;
        } else {
            out.extend(c.to_lowercase());
        }
    }
    Ok(Value::str(out))
}

fn case_fn_sep(args: &[Value], sep: &str) -> Result<Value, VmError> {
    Ok(Value::str(
        split_words(&text(args, 0)?)
            .iter()
            .map(|x| x.to_lowercase())
            .collect::<Vec<_>>()
            .join(sep),
    ))
}

fn snake_to_pascal(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let camel = snake_to_camel(host, args)?;
    Ok(Value::str(first_char(camel.as_str().unwrap_or(""), true)))
}

fn kebab_to_camel(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let s = text(args, 0)?.replace('-', "_");
    snake_to_camel(host, &[Value::str(s)])
}

fn kebab_to_snake(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(Value::str(text(args, 0)?.replace('-', "_")))
}

fn snake_to_kebab(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(Value::str(text(args, 0)?.replace('_', "-")))
}

fn camel_to_kebab(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    case_fn_sep(args, "-")
}

pub fn register(b: &mut RegistryBuilder) {
    let table: &[harn_vm::registry::SyncEntry] = &[
        ("snake_to_camel", snake_to_camel),
        ("camel_to_snake", camel_to_snake),
        ("to_snake_case", to_snake_case),
        ("to_kebab_case", to_kebab_case),
        ("to_screaming_snake_case", to_screaming_snake_case),
        ("to_camel_case", to_camel_case),
        ("to_pascal_case", to_pascal_case),
        ("to_title_case", to_title_case),
        ("capitalize", capitalize),
        ("snake_to_pascal", snake_to_pascal),
        ("pascal_to_snake", camel_to_snake),
        ("pascal_to_camel", lowercase_first),
        ("camel_to_pascal", uppercase_first),
        ("kebab_to_camel", kebab_to_camel),
        ("camel_to_kebab", camel_to_kebab),
        ("snake_to_kebab", snake_to_kebab),
        ("kebab_to_snake", kebab_to_snake),
        ("title_case", title_case),
        ("uppercase_first", uppercase_first),
        ("lowercase_first", lowercase_first),
    ];
    b.sync_table(table);
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::test_host::{call, s};

    #[test]
    fn cases() {
        assert_eq!(
            call(snake_to_camel, &[s("user_first_name")]),
            "userFirstName"
        );
        assert_eq!(
            call(camel_to_snake, &[s("userFirstName")]),
            "user_first_name"
        );
        assert_eq!(
            call(to_snake_case, &[s("HTTPServer error")]),
            "http_server_error"
        );
        assert_eq!(call(to_kebab_case, &[s("helloWorld")]), "hello-world");
        assert_eq!(call(to_pascal_case, &[s("hello_world")]), "HelloWorld");
        assert_eq!(call(to_camel_case, &[s("Hello world")]), "helloWorld");
        assert_eq!(call(to_title_case, &[s("hello_world")]), "Hello World");
        assert_eq!(call(capitalize, &[s("hello")]), "Hello");
        assert_eq!(call(snake_to_pascal, &[s("user_id")]), "UserId");
        assert_eq!(call(kebab_to_camel, &[s("user-first-id")]), "userFirstId");
        assert_eq!(call(camel_to_kebab, &[s("userFirstId")]), "user-first-id");
        assert_eq!(call(title_case, &[s("hELLO  wORLD")]), "Hello  World");
        assert_eq!(call(lowercase_first, &[s("UserId")]), "userId");
    }
}
