//! Range methods (`language.md` 7.9) that do not go through an iterator (`len`,
//! `contains`, `to_list`, `sum`, ...); the lazy combinators on ranges (`map`, `filter`,
//! `zip`, ...) are iterator methods (`iter.rs`). `sum`, `take` and `skip` do not
//! materialise more than they need.

use std::rc::Rc;

use super::{charge, clamp_len, int_arg, list};
use crate::display::display;
use crate::error::VmError;
use crate::native::Host;
use crate::value::{RangeValue, Value};

/// List methods a range answers by materialising itself.
const VIA_LIST: &[&str] = &[
    "map",
    "filter",
    "flat_map",
    "zip",
    "enumerate",
    "min",
    "max",
    "reduce",
    "any",
    "all",
    "every",
    "none",
    "find",
    "find_index",
    "to_set",
    "chunk",
    "each_slice",
    "window",
    "each_cons",
    "sliding_window",
    "join",
    "reverse",
    "sort",
    "sorted",
    "sort_by",
    "sorted_by",
    "min_by",
    "max_by",
    "partition",
    "group_by",
    "unique",
    "tally",
    "slice",
    "index_of",
];

pub(super) fn call(
    host: &mut dyn Host,
    r: Rc<RangeValue>,
    name: &str,
    args: &[Value],
) -> Result<Option<Value>, VmError> {
    let len = r.len();
    let v = match name {
        "len" | "count" => Value::Int(len),
        "empty" => Value::Bool(r.is_empty()),
        "first" => r.get(0).map_or(Value::Nil, Value::Int),
        "last" => r.get(len - 1).map_or(Value::Nil, Value::Int),
        "contains" => Value::Bool(matches!(args.first(), Some(Value::Int(n)) if r.contains(*n))),
        "to_string" => Value::str(display(&Value::Range(Rc::clone(&r)))?),
        "to_list" => list(items(host, &r, 0, len)?),
        "iter" => Value::Range(r),
        "sum" => Value::Int(sum(&r)),
        "take" => {
            let n = i64::try_from(clamp_len(int_arg(args, 0).unwrap_or(0), usize::MAX))
                .unwrap_or(i64::MAX);
            list(items(host, &r, 0, n.min(len))?)
        }
        "skip" => {
            let n = int_arg(args, 0).unwrap_or(0).clamp(0, len);
            list(items(host, &r, n, len - n)?)
        }
        "chunks" | "windows" => {
            let all = list(items(host, &r, 0, len)?);
            let as_list = if name == "chunks" { "chunk" } else { "window" };
            return super::call_method(host, all, as_list, args);
        }
        _ if VIA_LIST.contains(&name) => {
            let all = list(items(host, &r, 0, len)?);
            return super::call_method(host, all, name, args);
        }
        _ => return Ok(None),
    };
    Ok(Some(v))
}

/// `count` ints of the range starting at offset `from`.
fn items(
    host: &mut dyn Host,
    r: &RangeValue,
    from: i64,
    count: i64,
) -> Result<Vec<Value>, VmError> {
    let count = usize::try_from(count.max(0)).unwrap_or(usize::MAX);
    super::check_len(host, count, "range")?;
    charge(host, count)?;
    let first = r.start.wrapping_add(from);
    Ok((0..count)
        .map(|k| Value::Int(first.wrapping_add(super::as_i64(k))))
        .collect())
}

/// The (wrapping) sum of the range, without iterating.
fn sum(r: &RangeValue) -> i64 {
    let n = i128::from(r.len());
    if n == 0 {
        return 0;
    }
    let first = i128::from(r.start);
    let last = first + n - 1;
    let (a, b) = if n % 2 == 0 {
        (n / 2, first + last)
    } else {
        (n, (first + last) / 2)
    };
    // Only the low 64 bits matter for a wrapping result.
    a.wrapping_mul(b) as i64
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use crate::test_support::{TestHost, i, m};
    use crate::value::{RangeValue, Value};

    fn r(start: i64, end: i64, inclusive: bool) -> Value {
        Value::Range(std::rc::Rc::new(RangeValue {
            start,
            end,
            inclusive,
        }))
    }

    #[test]
    fn basics() {
        let mut h = TestHost::new();
        assert_eq!(m(&mut h, r(1, 5, true), "count", &[]), "5");
        assert_eq!(m(&mut h, r(0, 3, false), "len", &[]), "3");
        assert_eq!(m(&mut h, r(3, 1, true), "empty", &[]), "true");
        assert_eq!(m(&mut h, r(1, 5, true), "first", &[]), "1");
        assert_eq!(m(&mut h, r(1, 5, false), "last", &[]), "4");
        assert_eq!(m(&mut h, r(3, 1, true), "last", &[]), "nil");
        assert_eq!(m(&mut h, r(1, 5, true), "contains", &[i(5)]), "true");
        assert_eq!(m(&mut h, r(1, 5, false), "contains", &[i(5)]), "false");
        assert_eq!(
            m(&mut h, r(1, 5, false), "contains", &[Value::Float(2.0)]),
            "false"
        );
        assert_eq!(m(&mut h, r(1, 3, true), "to_list", &[]), "[1, 2, 3]");
        assert_eq!(
            m(&mut h, r(0, 3, false), "to_string", &[]),
            "0 to 3 exclusive"
        );
        assert_eq!(m(&mut h, r(1, 3, true), "iter", &[]), "<iter>");
        assert_eq!(m(&mut h, r(1, 3, true), "nosuch", &[]), "<none>");
    }

    #[test]
    fn sums_without_iterating() {
        let mut h = TestHost::new();
        assert_eq!(m(&mut h, r(1, 100, true), "sum", &[]), "5050");
        assert_eq!(m(&mut h, r(-3, 3, true), "sum", &[]), "0");
        assert_eq!(m(&mut h, r(5, 1, true), "sum", &[]), "0");
        assert_eq!(
            m(&mut h, r(0, 1_000_000_000_000, false), "sum", &[]),
            "1001881602603448320"
        );
        assert_eq!(h.fuel, 0);
    }

    #[test]
    fn combinators_are_lazy_iterators() {
        let mut h = TestHost::new();
        let double = h.func(|a| {
            Ok(match a[0] {
                Value::Int(n) => Value::Int(n * 2),
                _ => Value::Nil,
            })
        });
        // Range combinators go through `iter` (methods/mod.rs): they return iterators,
        // and nothing is materialised until a sink runs.
        assert_eq!(m(&mut h, r(1, 3, true), "map", &[double]), "<iter>");
        assert_eq!(
            m(&mut h, r(1, 1_000_000_000_000, true), "take", &[i(3)]),
            "<iter>"
        );
        assert_eq!(m(&mut h, r(1, 3, true), "max", &[]), "3");
    }
}
