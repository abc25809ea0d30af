//! Turning compiled prototypes into runnable functions: constants become values and
//! builtin names are resolved against the VM's profile once, at load time.

use std::cell::{Cell, OnceCell};
use std::rc::Rc;

use harn_compiler::bytecode::{Const, Op, Proto};

use crate::function::Function;
use crate::native::NumberFn;
use crate::registry::{Implementation, Profile, Registry};
use crate::value::Value;

/// Loads a prototype tree. `builtin_ids[k]` is the builtin named by string constant
/// `k`, when the profile installs one.
pub fn load(proto: Rc<Proto>, registry: &Registry, profile: Profile) -> Rc<Function> {
    let consts: Box<[Value]> = proto
        .consts
        .iter()
        .map(|c| match c {
            Const::Int(n) => Value::Int(*n),
            Const::Float(x) => Value::Float(*x),
            Const::Str(s) => Value::Str(Rc::clone(s)),
            Const::Duration(ms) => Value::Duration(*ms),
        })
        .collect();
    let builtin_ids: Box<[Option<u32>]> = proto
        .consts
        .iter()
        .map(|c| match c {
            Const::Str(s) => registry.lookup(s, profile),
            _ => None,
        })
        .collect();
    let number_fns: Box<[Option<NumberFn>]> = builtin_ids
        .iter()
        .map(|id| match registry.get((*id)?)?.imp {
            Implementation::Number(f) => Some(f),
            _ => None,
        })
        .collect();
    let children = proto
        .children
        .iter()
        .map(|child| load(child.clone(), registry, profile))
        .collect();
    let has_rest = proto.params.iter().any(|p| p.rest);
    let has_checks = proto
        .params
        .iter()
        .any(|p| p.check != harn_compiler::bytecode::ParamCheck::None);
    let check_masks: Box<[u32]> = proto
        .params
        .iter()
        .map(|p| crate::interp::check_mask(&p.check))
        .collect();
    let simple_checks = has_checks
        && !has_rest
        && proto.captures.is_empty()
        && check_masks.iter().all(|&mask| mask != 0);
    let plain = !has_rest && !has_checks && proto.captures.is_empty();
    let captures_only = !has_rest && !has_checks && !proto.captures.is_empty();
    Rc::new(Function {
        window: proto.register_window(),
        lane_entry: crate::interp::lane_entry_points(&proto.code, &number_fns),
        key_hints: proto.code.iter().map(|_| Cell::new(0)).collect(),
        field_keys: consts.iter().map(|_| OnceCell::new()).collect(),
        code: closed_code(&proto),
        has_rest,
        has_checks,
        check_masks,
        simple_checks,
        nparams: proto.params.len(),
        plain,
        captures_only,
        proto,
        consts,
        builtin_ids,
        number_fns,
        children,
    })
}

/// The code a function runs: its prototype's, closed (`Proto::is_closed`: every jump
/// lands inside it and its last instruction never falls through), with one
/// `Unreachable` after it. Code the compiler made is always closed (the `disasm_data`
/// tests hold it to that); anything else is replaced by the `Unreachable` alone, which
/// stops with an error. Every position execution can reach is then inside the code:
/// a jump's target, the instruction after one that falls through, 0, or a position
/// saved in a frame, which is at most one past the prototype's last instruction and so
/// at the `Unreachable`. The instruction loops fetch without a bounds check on that.
fn closed_code(proto: &Proto) -> Box<[Op]> {
    let body: &[Op] = if proto.is_closed() { &proto.code } else { &[] };
    body.iter()
        .copied()
        .chain(std::iter::once(Op::Unreachable))
        .collect()
}
