//! Operators on values: arithmetic (`language.md` 8.5), comparison, membership,
//! negation.

use harn_compiler::bytecode::Cmp;
use std::cmp::Ordering;
use std::rc::Rc;

use crate::display::display;
use crate::error::{ErrorKind, VmError};
use crate::value::{Value, compare, contains, equals};

fn type_err(verb: &str, a: &Value, b: &Value, sep: &str) -> VmError {
    VmError::type_error(format!(
        "Cannot {verb} {} {sep} {}",
        a.type_name(),
        b.type_name()
    ))
}

fn div_zero() -> VmError {
    VmError::new(ErrorKind::DivisionByZero)
}

/// `a + b`. When `a` is a uniquely owned string or list it is extended in place.
pub fn add(mut a: Value, b: &Value) -> Result<Value, VmError> {
    Ok(match (&mut a, b) {
        (Value::Int(x), Value::Int(y)) => Value::Int(x.wrapping_add(*y)),
        (Value::Float(x), Value::Float(y)) => Value::Float(*x + y),
        (Value::Int(x), Value::Float(y)) => Value::Float(*x as f64 + y),
        (Value::Float(x), Value::Int(y)) => Value::Float(*x + *y as f64),
        (Value::Str(x), Value::Str(y)) => {
            crate::chars::extend_text(x, |text| text.push_str(y));
            a
        }
        (Value::List(x), Value::List(y)) => {
            Rc::make_mut(x).extend(y.iter().cloned());
            a
        }
        (Value::Dict(x), Value::Dict(y)) => {
            let d = Rc::make_mut(x);
            for (k, v) in y.iter() {
                d.insert(k.clone(), v.clone());
            }
            a
        }
        (_, b) => return Err(type_err("add", &a, b, "and")),
    })
}

/// Both operands as floats when both are numbers and at least one of them is a float:
/// the cases where `add`, `sub`, `mul` and `div` give a float and cannot fail, so the
/// instruction loops can compute them in place.
#[inline(always)]
pub fn float_pair(a: &Value, b: &Value) -> Option<(f64, f64)> {
    match (a, b) {
        (Value::Float(x), Value::Float(y)) => Some((*x, *y)),
        (Value::Int(x), Value::Float(y)) => Some((*x as f64, *y)),
        (Value::Float(x), Value::Int(y)) => Some((*x, *y as f64)),
        _ => None,
    }
}

/// `a < b`, `a <= b`, `a > b` and `a >= b` on two numbers, as [`less`] and [`cmp_op`]
/// decide them (a comparison with NaN orders as equal there, so `<=` and `>=` hold),
/// without the general comparison. `None` when either operand is not a number.
#[inline(always)]
pub fn num_order(a: &Value, b: &Value) -> Option<NumOrder> {
    let (lt, gt) = match (a, b) {
        (Value::Int(x), Value::Int(y)) => (x < y, x > y),
        _ => {
            let (x, y) = float_pair(a, b)?;
            (x < y, x > y)
        }
    };
    Some(NumOrder { lt, gt })
}

/// `a == b` on two numbers, as `equals` decides it (an int and a float compare as
/// floats; NaN equals nothing). `None` when either operand is not a number.
#[inline(always)]
pub fn num_eq(a: &Value, b: &Value) -> Option<bool> {
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => Some(x == y),
        _ => float_pair(a, b).map(|(x, y)| x == y),
    }
}

/// Whether `a + b` is defined: exactly the operand pairs [`add`] accepts.
#[inline(always)]
pub fn adds(a: &Value, b: &Value) -> bool {
    matches!(
        (a, b),
        (
            Value::Int(_) | Value::Float(_),
            Value::Int(_) | Value::Float(_)
        ) | (Value::Str(_), Value::Str(_))
            | (Value::List(_), Value::List(_))
            | (Value::Dict(_), Value::Dict(_))
    )
}

/// Whether `a cmp b` holds for two numbers, as the comparison instructions decide it;
/// `None` when either operand is not a number.
#[inline(always)]
pub fn holds_num(cmp: Cmp, a: &Value, b: &Value) -> Option<bool> {
    if let (Value::Int(x), Value::Int(y)) = (a, b) {
        return Some(int_holds(cmp, *x, *y));
    }
    Some(match cmp {
        Cmp::Eq => num_eq(a, b)?,
        Cmp::Ne => !num_eq(a, b)?,
        Cmp::Lt => num_order(a, b)?.lt,
        Cmp::Le => num_order(a, b)?.le(),
        Cmp::Gt => num_order(a, b)?.gt,
        Cmp::Ge => num_order(a, b)?.ge(),
    })
}

/// Whether `x cmp y` holds for two ints.
#[inline(always)]
pub fn int_holds(cmp: Cmp, x: i64, y: i64) -> bool {
    match cmp {
        Cmp::Eq => x == y,
        Cmp::Ne => x != y,
        Cmp::Lt => x < y,
        Cmp::Le => x <= y,
        Cmp::Gt => x > y,
        Cmp::Ge => x >= y,
    }
}

/// [`holds_num`] against an int literal.
#[inline(always)]
pub fn holds_int(cmp: Cmp, a: &Value, imm: i64) -> Option<bool> {
    match a {
        Value::Int(x) => Some(int_holds(cmp, *x, imm)),
        Value::Float(_) => holds_num(cmp, a, &Value::Int(imm)),
        _ => None,
    }
}

/// Whether `a cmp b` holds for any two values, as the comparison instructions decide it
/// (`==` and `!=` by [`equals`], which fails on values nested too deeply).
pub fn holds(cmp: Cmp, a: &Value, b: &Value) -> Result<bool, VmError> {
    if let Some(v) = holds_num(cmp, a, b) {
        return Ok(v);
    }
    // Two strings (`s[i] == "e"`, `c >= "a"` in a scanning loop): compared here, with
    // the one unit of walk fuel `equals` charges for `==` and `!=` (ordering charges
    // none), as `equals` and `compare` decide them.
    if let (Value::Str(x), Value::Str(y)) = (a, b) {
        if matches!(cmp, Cmp::Eq | Cmp::Ne) {
            crate::walk::step()?;
        }
        return Ok(text_holds(cmp, x, y));
    }
    Ok(match cmp {
        Cmp::Eq => equals(a, b)?,
        Cmp::Ne => !equals(a, b)?,
        Cmp::Lt => less(a, b),
        Cmp::Le => cmp_op(a, b, Ordering::is_le),
        Cmp::Gt => cmp_op(a, b, Ordering::is_gt),
        Cmp::Ge => cmp_op(a, b, Ordering::is_ge),
    })
}

/// [`holds`] for the VM's fast lane, which cannot report an error: numbers and two
/// strings (with the same walk fuel), `None` for anything else or where the fuel has run
/// out, so that the general loop decides it and reports the limit.
#[inline]
pub fn holds_lean(cmp: Cmp, a: &Value, b: &Value) -> Option<bool> {
    if let (Value::Str(x), Value::Str(y)) = (a, b) {
        if matches!(cmp, Cmp::Eq | Cmp::Ne) && !crate::walk::try_step() {
            return None;
        }
        return Some(text_holds(cmp, x, y));
    }
    holds_num(cmp, a, b)
}

/// Whether `x cmp y` holds for two texts, by [`text_order`].
#[inline]
fn text_holds(cmp: Cmp, x: &str, y: &str) -> bool {
    let order = text_order(x, y);
    match cmp {
        Cmp::Eq => order.is_eq(),
        Cmp::Ne => order.is_ne(),
        Cmp::Lt => order.is_lt(),
        Cmp::Le => order.is_le(),
        Cmp::Gt => order.is_gt(),
        Cmp::Ge => order.is_ge(),
    }
}

/// The byte-wise order of two texts (`compare`'s for strings). Two one-byte texts (a
/// character read out of a string against a literal) are ordered by their bytes, without
/// the call into `memcmp` that a slice comparison makes.
#[inline]
fn text_order(x: &str, y: &str) -> Ordering {
    match (x.as_bytes(), y.as_bytes()) {
        ([a], [b]) => a.cmp(b),
        (a, b) => a.cmp(b),
    }
}

/// The outcome of [`num_order`]: whether `a < b` and whether `a > b` (neither when they
/// are equal or one is NaN).
#[derive(Clone, Copy)]
pub struct NumOrder {
    pub lt: bool,
    pub gt: bool,
}

impl NumOrder {
    #[inline(always)]
    pub fn le(self) -> bool {
        !self.gt
    }

    #[inline(always)]
    pub fn ge(self) -> bool {
        !self.lt
    }
}

pub fn sub(a: &Value, b: &Value) -> Result<Value, VmError> {
    Ok(match (a, b) {
        (Value::Int(x), Value::Int(y)) => Value::Int(x.wrapping_sub(*y)),
        (Value::Int(_) | Value::Float(_), Value::Int(_) | Value::Float(_)) => {
            Value::Float(a.as_f64().unwrap_or(0.0) - b.as_f64().unwrap_or(0.0))
        }
        _ => {
            return Err(VmError::type_error(format!(
                "Cannot subtract {} from {}",
                b.type_name(),
                a.type_name()
            )));
        }
    })
}

fn repeat(s: &str, n: i64) -> Result<Value, VmError> {
    if n <= 0 {
        return Ok(Value::str(""));
    }
    let total = (s.len() as u128).saturating_mul(n as u128);
    if total > crate::native::MAX_BUILD as u128 {
        return Err(crate::native::too_large("string repetition", total));
    }
    Ok(Value::str(s.repeat(n as usize)))
}

pub fn mul(a: &Value, b: &Value) -> Result<Value, VmError> {
    Ok(match (a, b) {
        (Value::Int(x), Value::Int(y)) => Value::Int(x.wrapping_mul(*y)),
        (Value::Int(_) | Value::Float(_), Value::Int(_) | Value::Float(_)) => {
            Value::Float(a.as_f64().unwrap_or(0.0) * b.as_f64().unwrap_or(0.0))
        }
        (Value::Str(s), Value::Int(n)) | (Value::Int(n), Value::Str(s)) => return repeat(s, *n),
        _ => return Err(type_err("multiply", a, b, "and")),
    })
}

pub fn div(a: &Value, b: &Value) -> Result<Value, VmError> {
    Ok(match (a, b) {
        (Value::Int(_), Value::Int(0)) => return Err(div_zero()),
        (Value::Int(x), Value::Int(y)) => Value::Int(x.wrapping_div(*y)),
        (Value::Int(_) | Value::Float(_), Value::Int(_) | Value::Float(_)) => {
            Value::Float(a.as_f64().unwrap_or(0.0) / b.as_f64().unwrap_or(0.0))
        }
        _ => {
            return Err(VmError::runtime(format!(
                "Cannot divide {} by {}",
                a.type_name(),
                b.type_name()
            )));
        }
    })
}

/// `x % y` for ints, `y` not zero: the remainder takes the dividend's sign (as Rust's
/// `%`), and `i64::MIN % -1` is 0. A positive power-of-two divisor (`x % 2`, the usual
/// parity test) is a mask and a sign fix-up instead of a division, which costs tens of
/// cycles.
#[inline(always)]
pub fn rem_int(x: i64, y: i64) -> i64 {
    if y > 0 && y & (y - 1) == 0 {
        let r = x & (y - 1);
        if x < 0 && r != 0 { r - y } else { r }
    } else {
        x.wrapping_rem(y)
    }
}

pub fn rem(a: &Value, b: &Value) -> Result<Value, VmError> {
    Ok(match (a, b) {
        (Value::Int(_), Value::Int(0)) => return Err(div_zero()),
        (Value::Int(x), Value::Int(y)) => Value::Int(rem_int(*x, *y)),
        (Value::Int(_) | Value::Float(_), Value::Int(_) | Value::Float(_)) => {
            let y = b.as_f64().unwrap_or(0.0);
            if y == 0.0 {
                return Err(div_zero());
            }
            Value::Float(a.as_f64().unwrap_or(0.0) % y)
        }
        _ => {
            return Err(VmError::runtime(format!(
                "Cannot modulo {} by {}",
                a.type_name(),
                b.type_name()
            )));
        }
    })
}

pub fn pow(a: &Value, b: &Value) -> Result<Value, VmError> {
    Ok(match (a, b) {
        (Value::Int(x), Value::Int(y)) if *y >= 0 => match u32::try_from(*y) {
            Ok(e) => Value::Int(x.wrapping_pow(e)),
            Err(_) => Value::Float((*x as f64).powf(*y as f64)),
        },
        (Value::Int(x), Value::Int(y)) => {
            Value::Float((*x as f64).powi(i32::try_from(*y).unwrap_or(i32::MIN)))
        }
        (Value::Int(_) | Value::Float(_), Value::Int(_) | Value::Float(_)) => {
            Value::Float(a.as_f64().unwrap_or(0.0).powf(b.as_f64().unwrap_or(0.0)))
        }
        _ => return Err(type_err("exponentiate", a, b, "by")),
    })
}

pub fn neg(v: &Value) -> Result<Value, VmError> {
    match v {
        Value::Int(n) => Ok(Value::Int(n.wrapping_neg())),
        Value::Float(x) => Ok(Value::Float(-x)),
        other => Err(VmError::runtime(format!(
            "Cannot negate value of type {}",
            other.type_name()
        ))),
    }
}

pub fn less(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => x < y,
        _ => compare(a, b) == Ordering::Less && !is_nan_pair(a, b),
    }
}

fn is_nan_pair(a: &Value, b: &Value) -> bool {
    matches!(a, Value::Float(x) if x.is_nan()) || matches!(b, Value::Float(y) if y.is_nan())
}

pub fn cmp_op(a: &Value, b: &Value, want: fn(Ordering) -> bool) -> bool {
    want(compare(a, b))
}

/// `a in b` (`language.md` 7.11).
pub fn contains_op(needle: &Value, hay: &Value) -> Result<bool, VmError> {
    Ok(match hay {
        Value::Set(items) => match crate::set_index::contains_equal(items, needle) {
            Some(found) => found,
            None => contains(items, needle)?,
        },
        Value::List(items) => contains(items, needle)?,
        Value::Dict(d) => match needle {
            Value::Int(n) => {
                crate::walk::step()?;
                d.contains_key(itoa::Buffer::new().format(*n))
            }
            _ => d.contains_key(&display(needle)?),
        },
        Value::Str(s) => match needle {
            Value::Str(n) => crate::search::contains(s, n),
            other => crate::search::contains(s, &display(other)?),
        },
        Value::Range(r) => matches!(needle, Value::Int(n) if r.contains(*n)),
        _ => false,
    })
}

pub fn eq(a: &Value, b: &Value) -> Result<bool, VmError> {
    equals(a, b)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::{
        Cmp, add, adds, cmp_op, div, float_pair, holds, holds_lean, int_holds, less, mul, num_eq,
        num_order, rem_int, sub,
    };
    use crate::value::{Value, equals};

    fn numbers() -> Vec<Value> {
        let mut values: Vec<Value> = [i64::MIN, -3, -1, 0, 1, 2, 3, i64::MAX]
            .into_iter()
            .map(Value::Int)
            .collect();
        values.extend(
            [
                f64::NEG_INFINITY,
                -2.5,
                -0.0,
                0.0,
                1.0,
                2.0,
                3.5,
                f64::INFINITY,
                f64::NAN,
            ]
            .into_iter()
            .map(Value::Float),
        );
        values
    }

    /// The instruction loops' numeric shortcuts must decide every pair of numbers as the
    /// general operations do, NaN and mixed int/float pairs included.
    #[test]
    fn the_numeric_shortcuts_agree_with_the_general_operations() {
        let same = |x: &Value, y: &Value| match (x, y) {
            (Value::Float(a), Value::Float(b)) => a.to_bits() == b.to_bits(),
            (Value::Int(a), Value::Int(b)) => a == b,
            _ => false,
        };
        for a in numbers() {
            for b in numbers() {
                let order = num_order(&a, &b).unwrap_or_else(|| panic!("{a:?} {b:?}"));
                assert_eq!(order.lt, less(&a, &b), "{a:?} < {b:?}");
                assert_eq!(order.le(), cmp_op(&a, &b, |o| o.is_le()), "{a:?} <= {b:?}");
                assert_eq!(order.gt, cmp_op(&a, &b, |o| o.is_gt()), "{a:?} > {b:?}");
                assert_eq!(order.ge(), cmp_op(&a, &b, |o| o.is_ge()), "{a:?} >= {b:?}");
                let eq = equals(&a, &b).unwrap_or_else(|e| panic!("{e:?}"));
                assert_eq!(num_eq(&a, &b), Some(eq), "{a:?} == {b:?}");
                assert!(adds(&a, &b));
                if let Some((x, y)) = float_pair(&a, &b) {
                    let check = |got: Value, want: f64| {
                        assert!(
                            same(&got, &Value::Float(want)),
                            "{a:?} {b:?} {got:?} {want}"
                        );
                    };
                    check(add(a.clone(), &b).unwrap_or_default(), x + y);
                    check(sub(&a, &b).unwrap_or_default(), x - y);
                    check(mul(&a, &b).unwrap_or_default(), x * y);
                    check(div(&a, &b).unwrap_or_default(), x / y);
                } else {
                    assert!(matches!((&a, &b), (Value::Int(_), Value::Int(_))));
                }
            }
        }
        for x in [i64::MIN, -2, -1, 0, 1, 2, i64::MAX] {
            for y in [i64::MIN, -1, 0, 1, i64::MAX] {
                assert_eq!(int_holds(Cmp::Eq, x, y), x == y);
                assert_eq!(int_holds(Cmp::Ne, x, y), x != y);
                assert_eq!(int_holds(Cmp::Lt, x, y), x < y);
                assert_eq!(int_holds(Cmp::Le, x, y), x <= y);
                assert_eq!(int_holds(Cmp::Gt, x, y), x > y);
                assert_eq!(int_holds(Cmp::Ge, x, y), x >= y);
            }
        }
        assert!(num_order(&Value::Int(1), &Value::str("1".to_string())).is_none());
        assert!(num_eq(&Value::Nil, &Value::Int(0)).is_none());
        assert!(!adds(&Value::Int(1), &Value::str("1".to_string())));
    }

    #[test]
    fn rem_int_agrees_with_the_division_for_every_sign_and_power_of_two() {
        let xs = [
            i64::MIN,
            i64::MIN + 1,
            -1025,
            -1024,
            -9,
            -8,
            -7,
            -3,
            -2,
            -1,
            0,
            1,
            2,
            3,
            7,
            8,
            9,
            1023,
            1024,
            i64::MAX - 1,
            i64::MAX,
        ];
        let ys = [
            i64::MIN,
            -1024,
            -8,
            -3,
            -2,
            -1,
            1,
            2,
            3,
            4,
            8,
            10,
            1024,
            1 << 40,
            1 << 62,
            i64::MAX,
        ];
        for x in xs {
            for y in ys {
                assert_eq!(rem_int(x, y), x.wrapping_rem(y), "{x} % {y}");
            }
        }
    }

    /// `holds` and `holds_lean` on two strings answer as `equals`, `less` and `cmp_op`
    /// do, for one-byte, longer, empty and non-ASCII texts.
    #[test]
    fn string_comparisons_agree_with_the_general_ones() {
        let texts = [
            "",
            "a",
            "b",
            "Z",
            "ab",
            "abc",
            "é",
            "e",
            "aé",
            "zz",
            "\u{10FFFF}",
        ];
        for x in texts {
            for y in texts {
                let (a, b) = (Value::str(x), Value::str(y));
                let general = [
                    (Cmp::Eq, equals(&a, &b).unwrap()),
                    (Cmp::Ne, !equals(&a, &b).unwrap()),
                    (Cmp::Lt, less(&a, &b)),
                    (Cmp::Le, cmp_op(&a, &b, std::cmp::Ordering::is_le)),
                    (Cmp::Gt, cmp_op(&a, &b, std::cmp::Ordering::is_gt)),
                    (Cmp::Ge, cmp_op(&a, &b, std::cmp::Ordering::is_ge)),
                ];
                for (cmp, expected) in general {
                    assert_eq!(holds(cmp, &a, &b).unwrap(), expected, "{x:?} {cmp:?} {y:?}");
                    // The fast lane's answer is the same, whenever it gives one.
                    assert_eq!(
                        holds_lean(cmp, &a, &b),
                        Some(expected),
                        "{x:?} {cmp:?} {y:?}"
                    );
                }
            }
        }
    }
}
