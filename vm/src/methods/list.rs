//! List methods that take no callback; the callback methods are in `list_fn`.

use std::cmp::Ordering;
use std::rc::Rc;

use super::{
    as_i64, charge, clamp_len, dedupe, dedupe_equal, entry, int_arg, list, list_fn, set_value,
    slice_bound, sorted_values, text_arg,
};
use crate::display::{display, write_display};
use crate::error::VmError;
use crate::native::Host;
use crate::value::{Dict, Value, compare, equals};

pub(super) fn call(
    host: &mut dyn Host,
    items: Rc<Vec<Value>>,
    name: &str,
    args: &[Value],
) -> Result<Option<Value>, VmError> {
    if let Some(v) = list_fn::call(host, &items, name, args)? {
        return Ok(Some(v));
    }
    let len = items.len();
    let v = match name {
        "count" => Value::Int(as_i64(len)),
        "empty" => Value::Bool(items.is_empty()),
        "push" | "appending" => {
            let mut items = items;
            if let Some(v) = args.first() {
                Rc::make_mut(&mut items).push(v.clone());
            }
            Value::List(items)
        }
        "pop" => {
            let mut items = items;
            if !items.is_empty() {
                Rc::make_mut(&mut items).pop();
            }
            Value::List(items)
        }
        "sort" | "sorted" => {
            charge(host, len)?;
            list(sorted_values(&items))
        }
        "reverse" => {
            let mut items = items;
            Rc::make_mut(&mut items).reverse();
            Value::List(items)
        }
        "join" => {
            charge(host, len)?;
            let sep = text_arg(args, 0)?;
            let mut out = String::new();
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(&sep);
                }
                write_display(&mut out, item)?;
                super::check_size(host, out.len(), "join")?;
            }
            Value::str(out)
        }
        "contains" => Value::Bool(index_of(host, &items, super::arg(args, 0))?.is_some()),
        "index_of" => Value::Int(index_of(host, &items, super::arg(args, 0))?.map_or(-1, as_i64)),
        "enumerate" => {
            charge(host, len)?;
            let out = items
                .iter()
                .enumerate()
                .map(|(i, v)| entry("index", Value::Int(as_i64(i)), "value", v.clone()))
                .collect();
            list(out)
        }
        "zip" => match args.first() {
            Some(Value::List(other)) => {
                charge(host, len.min(other.len()))?;
                let out = items
                    .iter()
                    .zip(other.iter())
                    .map(|(a, b)| list(vec![a.clone(), b.clone()]))
                    .collect();
                list(out)
            }
            _ => list(Vec::new()),
        },
        "slice" => {
            let start = slice_bound(int_arg(args, 0).unwrap_or(0), len);
            let end = match args.get(1) {
                Some(_) => slice_bound(int_arg(args, 1).unwrap_or(as_i64(len)), len),
                None => len,
            };
            sub_list(host, items, start, end.max(start))?
        }
        "unique" => list(dedupe_equal(host, items.iter().cloned())?),
        "take" => {
            let n = clamp_len(int_arg(args, 0).unwrap_or(0), len);
            sub_list(host, items, 0, n)?
        }
        "skip" => {
            let n = clamp_len(int_arg(args, 0).unwrap_or(0), len);
            sub_list(host, items, n, len)?
        }
        "first" => match int_arg(args, 0) {
            Some(n) => sub_list(host, items, 0, clamp_len(n, len))?,
            None => items.first().cloned().unwrap_or_default(),
        },
        "last" => match int_arg(args, 0) {
            Some(n) => sub_list(host, items, len - clamp_len(n, len), len)?,
            None => items.last().cloned().unwrap_or_default(),
        },
        "sum" => {
            charge(host, len)?;
            sum(&items)
        }
        "min" => extreme(host, &items, Ordering::Less)?,
        "max" => extreme(host, &items, Ordering::Greater)?,
        "flatten" => {
            charge(host, len)?;
            let mut out = Vec::with_capacity(len);
            for item in items.iter() {
                match item {
                    Value::List(inner) => {
                        charge(host, inner.len())?;
                        out.extend(inner.iter().cloned());
                    }
                    other => out.push(other.clone()),
                }
            }
            list(out)
        }
        "compact" => {
            charge(host, len)?;
            list(
                items
                    .iter()
                    .filter(|v| !matches!(v, Value::Nil))
                    .cloned()
                    .collect(),
            )
        }
        "tally" => {
            charge(host, len)?;
            let mut counts = Dict::new();
            for item in items.iter() {
                let slot = counts.get_or_insert_with(&display(item)?, || Value::Int(0));
                if let Value::Int(n) = slot {
                    *n = n.wrapping_add(1);
                }
            }
            Value::dict(counts)
        }
        "chunk" | "each_slice" => {
            let size = positive(int_arg(args, 0), 1);
            charge(host, len)?;
            list(items.chunks(size).map(|c| list(c.to_vec())).collect())
        }
        "window" | "each_cons" | "sliding_window" => {
            let size = positive(int_arg(args, 0), 2);
            let step = positive(int_arg(args, 1), 1);
            let mut out = Vec::new();
            let mut start = 0usize;
            while let Some(end) = start.checked_add(size).filter(|&e| e <= len) {
                charge(host, size)?;
                out.push(list(items[start..end].to_vec()));
                start = match start.checked_add(step) {
                    Some(s) => s,
                    None => break,
                };
            }
            list(out)
        }
        "to_set" => set_value(dedupe(host, items.iter().cloned())?),
        // Lazy iterators are not implemented yet: `iter` hands back the list itself.
        "iter" | "to_list" => Value::List(items),
        _ => return Ok(None),
    };
    Ok(Some(v))
}

/// A size argument: absent means `default`; zero or negative means 1.
fn positive(n: Option<i64>, default: usize) -> usize {
    match n {
        Some(n) => usize::try_from(n).unwrap_or(1).max(1),
        None => default,
    }
}

/// `items[start..end]`, reusing the list when the range covers all of it.
fn sub_list(
    host: &mut dyn Host,
    items: Rc<Vec<Value>>,
    start: usize,
    end: usize,
) -> Result<Value, VmError> {
    if start == 0 && end == items.len() {
        return Ok(Value::List(items));
    }
    let mut items = items;
    // A list nothing else holds (`queue = queue.slice(1)` moves it into the call) is cut
    // in place: the kept elements move down instead of being cloned into a new list, so
    // a queue taken from the front costs a move per element, not a clone and a drop.
    // Charged as the copy is.
    if let Some(own) = Rc::get_mut(&mut items)
        && start <= end
        && end <= own.len()
    {
        charge(host, end - start)?;
        own.truncate(end);
        own.drain(..start);
        return Ok(Value::List(items));
    }
    let part = items.get(start..end).unwrap_or(&[]);
    charge(host, part.len())?;
    Ok(list(part.to_vec()))
}

fn index_of(
    host: &mut dyn Host,
    items: &[Value],
    needle: &Value,
) -> Result<Option<usize>, VmError> {
    super::position_where(host, items, |item| equals(item, needle))
}

/// Sum of the numbers (others ignored): an int (wrapping) unless a float is present.
pub(crate) fn sum(items: &[Value]) -> Value {
    let mut int_sum: i64 = 0;
    let mut float_sum = 0.0;
    let mut any_float = false;
    for item in items {
        match item {
            Value::Int(n) => {
                int_sum = int_sum.wrapping_add(*n);
                float_sum += *n as f64;
            }
            Value::Float(x) => {
                any_float = true;
                float_sum += x;
            }
            _ => {}
        }
    }
    if any_float {
        Value::Float(float_sum)
    } else {
        Value::Int(int_sum)
    }
}

/// The first element that no later element beats in direction `want`; `nil` if empty.
fn extreme(host: &mut dyn Host, items: &[Value], want: Ordering) -> Result<Value, VmError> {
    charge(host, items.len())?;
    let Some(mut best) = items.first() else {
        return Ok(Value::Nil);
    };
    for item in &items[1..] {
        if compare(item, best) == want {
            best = item;
        }
    }
    Ok(best.clone())
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use crate::test_support::{TestHost, i, ints, l, m, s};
    use crate::value::Value;

    #[test]
    fn mixed_sort_is_unchanged_and_does_not_panic() {
        let mut h = TestHost::new();
        let xs = l(vec![i(3), s("a"), i(1), Value::Nil, i(2)]);
        assert_eq!(m(&mut h, xs, "sort", &[]), "[3, a, 1, nil, 2]");
    }

    #[test]
    fn sort_numbers_and_strings() {
        let mut h = TestHost::new();
        assert_eq!(m(&mut h, ints(&[3, 1, 2]), "sort", &[]), "[1, 2, 3]");
        let xs = l(vec![s("b"), s("a"), s("B")]);
        assert_eq!(m(&mut h, xs, "sort", &[]), "[B, a, b]");
        let mixed = l(vec![i(2), Value::Float(1.5), i(1)]);
        assert_eq!(m(&mut h, mixed, "sort", &[]), "[1, 1.5, 2]");
    }

    #[test]
    fn long_sorts_are_correct_and_survive_nan() {
        let mut h = TestHost::new();
        let n: Vec<i64> = (0..500).map(|k| (k * 7919) % 500).collect();
        let out = super::super::call_method(&mut h, ints(&n), "sort", &[])
            .unwrap()
            .unwrap();
        let Value::List(v) = &out else { panic!() };
        let got: Vec<i64> = v
            .iter()
            .map(|x| if let Value::Int(n) = x { *n } else { -1 })
            .collect();
        assert_eq!(got, (0..500).collect::<Vec<_>>());
        let mut weird: Vec<Value> = (0..300).map(|k| Value::Float(k as f64)).collect();
        for k in (0..300).step_by(7) {
            weird[k] = Value::Float(f64::NAN);
        }
        for k in (0..300).step_by(11) {
            weird[k] = s("x");
        }
        let out = super::super::call_method(&mut h, l(weird), "sort", &[])
            .unwrap()
            .unwrap();
        let Value::List(v) = &out else { panic!() };
        assert_eq!(v.len(), 300);
    }

    #[test]
    fn chunk_and_window_never_panic() {
        let mut h = TestHost::new();
        assert_eq!(m(&mut h, ints(&[1, 2]), "chunk", &[i(0)]), "[[1], [2]]");
        assert_eq!(
            m(&mut h, ints(&[1, 2, 3]), "chunk", &[i(-5)]),
            "[[1], [2], [3]]"
        );
        assert_eq!(
            m(&mut h, ints(&[1, 2, 3]), "each_slice", &[i(2)]),
            "[[1, 2], [3]]"
        );
        assert_eq!(
            m(&mut h, ints(&[1, 2, 3]), "window", &[i(2)]),
            "[[1, 2], [2, 3]]"
        );
        assert_eq!(
            m(&mut h, ints(&[1, 2, 3]), "window", &[i(0), i(0)]),
            "[[1], [2], [3]]"
        );
        assert_eq!(
            m(&mut h, ints(&[1, 2, 3, 4]), "each_cons", &[i(2), i(2)]),
            "[[1, 2], [3, 4]]"
        );
        assert_eq!(m(&mut h, ints(&[1, 2]), "sliding_window", &[i(5)]), "[]");
        assert_eq!(
            m(&mut h, ints(&[1, 2]), "window", &[i(i64::MAX), i(i64::MAX)]),
            "[]"
        );
    }

    #[test]
    fn push_pop_and_in_place_reuse() {
        let mut h = TestHost::new();
        let xs = ints(&[1]);
        let Value::List(rc) = &xs else { panic!() };
        let ptr = std::rc::Rc::as_ptr(rc);
        let out = super::super::call_method(&mut h, xs, "push", &[i(2)])
            .unwrap()
            .unwrap();
        let Value::List(rc2) = &out else { panic!() };
        assert_eq!(
            std::rc::Rc::as_ptr(rc2),
            ptr,
            "a uniquely held list is pushed in place"
        );
        let shared = ints(&[1]);
        let keep = shared.clone();
        assert_eq!(m(&mut h, shared, "push", &[i(2)]), "[1, 2]");
        assert_eq!(crate::test_support::show(&keep), "[1]");
        assert_eq!(m(&mut h, ints(&[1, 2]), "pop", &[]), "[1]");
        assert_eq!(m(&mut h, ints(&[]), "pop", &[]), "[]");
    }

    #[test]
    fn take_skip_first_last_slice() {
        let mut h = TestHost::new();
        let xs = || ints(&[1, 2, 3, 4]);
        assert_eq!(m(&mut h, xs(), "take", &[i(2)]), "[1, 2]");
        assert_eq!(m(&mut h, xs(), "take", &[i(-1)]), "[]");
        assert_eq!(m(&mut h, xs(), "skip", &[i(3)]), "[4]");
        assert_eq!(m(&mut h, xs(), "first", &[]), "1");
        assert_eq!(m(&mut h, xs(), "first", &[i(2)]), "[1, 2]");
        assert_eq!(m(&mut h, xs(), "last", &[]), "4");
        assert_eq!(m(&mut h, xs(), "last", &[i(9)]), "[1, 2, 3, 4]");
        assert_eq!(m(&mut h, ints(&[]), "first", &[]), "nil");
        assert_eq!(m(&mut h, xs(), "slice", &[i(1), i(3)]), "[2, 3]");
        assert_eq!(m(&mut h, xs(), "slice", &[i(-2)]), "[3, 4]");
        assert_eq!(m(&mut h, xs(), "slice", &[i(3), i(1)]), "[]");
    }

    #[test]
    fn aggregates() {
        let mut h = TestHost::new();
        assert_eq!(m(&mut h, ints(&[1, 2, 3]), "sum", &[]), "6");
        assert_eq!(
            m(&mut h, l(vec![i(1), Value::Float(0.5), s("x")]), "sum", &[]),
            "1.5"
        );
        assert_eq!(m(&mut h, ints(&[]), "sum", &[]), "0");
        assert_eq!(m(&mut h, ints(&[1, 5, 2]), "max", &[]), "5");
        assert_eq!(m(&mut h, l(vec![s("b"), s("a")]), "min", &[]), "a");
        assert_eq!(m(&mut h, ints(&[]), "min", &[]), "nil");
    }

    #[test]
    fn shapes() {
        let mut h = TestHost::new();
        assert_eq!(
            m(&mut h, l(vec![s("a"), s("b")]), "enumerate", &[]),
            "[{index: 0, value: a}, {index: 1, value: b}]"
        );
        assert_eq!(
            m(&mut h, ints(&[1, 2, 3]), "zip", &[l(vec![s("a"), s("b")])]),
            "[[1, a], [2, b]]"
        );
        assert_eq!(m(&mut h, ints(&[1]), "zip", &[i(3)]), "[]");
        let nested = l(vec![i(1), l(vec![i(2), ints(&[3])])]);
        assert_eq!(m(&mut h, nested, "flatten", &[]), "[1, 2, [3]]");
        assert_eq!(
            m(&mut h, l(vec![i(1), Value::Nil, i(2)]), "compact", &[]),
            "[1, 2]"
        );
        assert_eq!(
            m(&mut h, l(vec![s("a"), s("b"), s("a")]), "tally", &[]),
            "{a: 2, b: 1}"
        );
        let u = l(vec![i(1), Value::Float(1.0), i(1), ints(&[2]), ints(&[2])]);
        assert_eq!(m(&mut h, u, "unique", &[]), "[1, [2]]");
        assert_eq!(m(&mut h, ints(&[1, 2]), "join", &[s("-")]), "1-2");
        assert_eq!(m(&mut h, l(vec![s("a"), Value::Nil]), "join", &[]), "anil");
        assert_eq!(
            m(&mut h, ints(&[1, 2]), "contains", &[Value::Float(2.0)]),
            "true"
        );
        assert_eq!(m(&mut h, ints(&[1, 2]), "index_of", &[i(3)]), "-1");
        assert_eq!(m(&mut h, ints(&[1, 2]), "reverse", &[]), "[2, 1]");
        assert_eq!(m(&mut h, ints(&[1, 1]), "to_set", &[]), "set(1)");
        assert_eq!(m(&mut h, ints(&[1]), "len", &[]), "<none>");
    }
}
