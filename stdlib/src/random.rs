//! Random values (tagged `random`, so never in code mode): `random`/`random_float`,
//! `random_int`, `random_choice`, `random_shuffle`, `uuid`, and `rng_seed`, whose
//! reproducible stream (a seeded iterator, `harn_vm::iter::seeded`) each of them draws
//! from when it is given as the first argument.

use std::rc::Rc;

use harn_vm::VmError;
use harn_vm::iter::{draw, seeded, unit_float};
use harn_vm::native::Host;
use harn_vm::registry::RegistryBuilder;
use harn_vm::value::Value;

use crate::util::{arg, charge, int_arg, type_err};

/// Where the random bits come from: the seeded stream in the first argument, or the
/// thread's generator. Returns the source and the arguments after it.
fn source(args: &[Value]) -> (Option<&Value>, &[Value]) {
    match args.first() {
        Some(v) if draw_probe(v) => (Some(v), &args[1..]),
        _ => (None, args),
    }
}

fn draw_probe(v: &Value) -> bool {
    matches!(v, Value::Iter(it) if matches!(&*it.borrow(), harn_vm::iter::Iter::Seeded { .. }))
}

fn bits(rng: Option<&Value>) -> u64 {
    rng.and_then(draw).unwrap_or_else(|| fastrand::u64(..))
}

/// A uniform int in `lo..=hi` (rejection sampling, so no value is favoured).
fn int_in(rng: Option<&Value>, lo: i64, hi: i64) -> i64 {
    let span = hi.wrapping_sub(lo) as u64;
    if span == u64::MAX {
        return bits(rng) as i64;
    }
    let n = span + 1;
    let zone = u64::MAX - (u64::MAX % n) - 1;
    loop {
        let b = bits(rng);
        if b <= zone {
            return lo.wrapping_add((b % n) as i64);
        }
    }
}

fn rng_seed(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    match arg(args, 0) {
        Value::Int(n) => Ok(seeded(*n as u64)),
        _ => Err(VmError::type_error(
            "rng_seed(seed): seed must be an integer",
        )),
    }
}

fn random(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let (rng, _) = source(args);
    Ok(Value::Float(unit_float(bits(rng))))
}

/// `random_int(lo, hi)`: uniform in `lo..=hi`; `random_int(n)`: in `0..n`.
fn random_int(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let (rng, rest) = source(args);
    let (lo, hi) = if rest.len() >= 2 {
        (
            int_arg("random_int", rest, 0)?,
            int_arg("random_int", rest, 1)?,
        )
    } else {
        let n = int_arg("random_int", rest, 0)?;
        (0, n.saturating_sub(1))
    };
    if lo > hi {
        return Err(VmError::thrown_str(format!(
            "random_int: empty range {lo}..={hi}"
        )));
    }
    Ok(Value::Int(int_in(rng, lo, hi)))
}

/// One item of a list, or nil for an empty list.
fn random_choice(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let (rng, rest) = source(args);
    match arg(rest, 0) {
        Value::List(items) if items.is_empty() => Ok(Value::Nil),
        Value::List(items) => {
            let i = int_in(rng, 0, items.len() as i64 - 1);
            Ok(items[usize::try_from(i).unwrap_or(0)].clone())
        }
        other => Err(type_err("random_choice", "list", other)),
    }
}

/// A shuffled copy of a list (Fisher-Yates).
fn random_shuffle(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let (rng, rest) = source(args);
    let Value::List(items) = arg(rest, 0) else {
        return Err(type_err("random_shuffle", "list", arg(rest, 0)));
    };
    charge(host, items.len() / 8 + 1)?;
    let mut out: Vec<Value> = items.as_ref().clone();
    for i in (1..out.len()).rev() {
        let j = usize::try_from(int_in(rng, 0, i as i64)).unwrap_or(0);
        out.swap(i, j);
    }
    Ok(Value::List(Rc::new(out)))
}

pub fn register(b: &mut RegistryBuilder) {
    let table: &[harn_vm::registry::SyncEntry] = &[
        ("random", random),
        ("random_float", random),
        ("random_int", random_int),
        ("random_choice", random_choice),
        ("random_shuffle", random_shuffle),
        ("rng_seed", rng_seed),
        ("uuid", crate::digest::uuid_v4),
    ];
    b.sync_table(table);
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::test_host::{TestHost, call, call_err, i, s};

    #[test]
    fn unseeded_ranges() {
        for _ in 0..50 {
            let v = call(random_int, &[i(1), i(3)]).parse::<i64>().unwrap();
            assert!((1..=3).contains(&v));
        }
        let u = call(crate::digest::uuid_v4, &[]);
        assert_eq!(u.len(), 36);
        assert_eq!(&u[14..15], "4");
        assert!(call_err(random_int, &[i(3), i(1)]).contains("empty range"));
        assert!(call_err(random_int, &[s("a")]).contains("expected int"));
    }

    #[test]
    fn seeded_streams_repeat() {
        let mut h = TestHost::new();
        let draws = |h: &mut TestHost| {
            let r = rng_seed(h, &[i(42)]).unwrap();
            (0..5)
                .map(|_| random_int(h, &[r.clone(), i(1), i(100)]).unwrap())
                .map(|v| harn_vm::display::display(&v).unwrap())
                .collect::<Vec<_>>()
        };
        let a = draws(&mut h);
        assert_eq!(a, draws(&mut h));
        let r = rng_seed(&mut h, &[i(7)]).unwrap();
        let list = Value::list((0..10).map(Value::Int).collect());
        let shuffled = random_shuffle(&mut h, &[r.clone(), list]).unwrap();
        let Value::List(ref items) = shuffled else {
            panic!()
        };
        assert_eq!(items.len(), 10);
        assert!(call_err(rng_seed, &[s("x")]).contains("seed must be an integer"));
    }
}
