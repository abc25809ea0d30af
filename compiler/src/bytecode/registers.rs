//! Which registers an instruction names, so the VM can size a frame's register window
//! once and then address registers without a bounds check per access.
//!
//! The match below is exhaustive and binds every field by name on purpose: a new
//! instruction or operand does not compile until someone says whether it is a register.

use super::{CaptureFrom, Op, Proto};

/// One past register `r`.
fn past(r: u16) -> usize {
    usize::from(r) + 1
}

/// One past the run of `count` registers starting at `start` (at least one past `start`,
/// so an empty run still counts its start).
fn run(start: u16, count: u16) -> usize {
    usize::from(start) + usize::from(count).max(1)
}

impl Op {
    /// One past the highest register of the running frame this instruction reads or
    /// writes, directly or as the start of a run (`0` when it names none).
    #[allow(clippy::too_many_lines)]
    pub fn register_extent(&self) -> usize {
        match *self {
            Op::LoadNil { dst }
            | Op::LoadBool { dst, value: _ }
            | Op::LoadInt { dst, value: _ }
            | Op::LoadConst { dst, k: _ }
            | Op::LoadBuiltin {
                dst,
                k: _,
                msg_k: _,
            }
            | Op::GetGlobal { dst, slot: _ }
            | Op::MakeClosure { dst, proto: _ }
            | Op::LoadSelf { dst }
            | Op::GenStart { dst }
            | Op::NewDict { dst, .. }
            | Op::TryBegin { dst, offset: _ } => past(dst),
            Op::SetGlobal { slot: _, src }
            | Op::AssignGlobal { slot: _, src }
            | Op::DefineGlobal {
                slot: _,
                src,
                mutable: _,
            }
            | Op::Return { src }
            | Op::Throw { src }
            | Op::Rethrow { src }
            | Op::CatchFilter { src, k: _ }
            | Op::CheckDestructure { src, kind: _ }
            | Op::JumpIfNotNil { src, offset: _ } => past(src),
            Op::JumpIfFalse { cond, offset: _ } | Op::JumpIfTrue { cond, offset: _ } => past(cond),
            Op::JumpIfNotImm {
                cmp: _,
                a,
                imm: _,
                offset: _,
            }
            | Op::JumpIfNotLtImm {
                a,
                imm: _,
                offset: _,
            }
            | Op::JumpIfNotK {
                cmp: _,
                a,
                k: _,
                offset: _,
            } => past(a),
            Op::JumpIfNotLt { a, b, offset: _ } => past(a.max(b)),
            Op::JumpIfNot {
                cmp: _,
                a,
                b,
                offset: _,
            } => past(a.max(b)),
            Op::Move { dst, src }
            | Op::Len { dst, src }
            | Op::Take { dst, src }
            | Op::Neg { dst, src }
            | Op::Not { dst, src }
            | Op::ToBool { dst, src }
            | Op::Yield { dst, src }
            | Op::Propagate { dst, src }
            | Op::WrapOk { dst, src }
            | Op::WrapErr { dst, src }
            | Op::IsVariant {
                dst,
                src,
                enum_k: _,
                variant_k: _,
            }
            | Op::EnumField { dst, src, index: _ }
            | Op::TypeIs {
                dst,
                src,
                type_code: _,
            }
            | Op::LenAtLeast { dst, src, n: _ }
            | Op::DictGet { dst, src, k: _ }
            | Op::ListGet { dst, src, index: _ }
            | Op::ListRest { dst, src, from: _ }
            | Op::PairGet { dst, src, which: _ } => past(dst.max(src)),
            Op::AddInt { dst, a, imm: _ }
            | Op::SubInt { dst, a, imm: _ }
            | Op::MulInt { dst, a, imm: _ }
            | Op::ModInt { dst, a, imm: _ }
            | Op::CmpInt {
                dst,
                a,
                cmp: _,
                imm: _,
            } => past(dst.max(a)),
            Op::Add { dst, a, b }
            | Op::Sub { dst, a, b }
            | Op::Mul { dst, a, b }
            | Op::Div { dst, a, b }
            | Op::Mod { dst, a, b }
            | Op::Pow { dst, a, b }
            | Op::Eq { dst, a, b }
            | Op::Ne { dst, a, b }
            | Op::Lt { dst, a, b }
            | Op::Le { dst, a, b }
            | Op::Gt { dst, a, b }
            | Op::Ge { dst, a, b }
            | Op::In { dst, a, b } => past(dst.max(a).max(b)),
            // Calls: the callee (or result) at `base`, arguments after it.
            Op::Call { base, nargs }
            | Op::CallLocal {
                base,
                nargs,
                k: _,
                src: _,
            }
            | Op::CallSelf { base, nargs }
            | Op::TailSelf { base, nargs }
            | Op::CallGlobal {
                base,
                nargs,
                slot: _,
            }
            | Op::CallBuiltin { base, nargs, k: _ }
            | Op::CallMethod {
                base,
                nargs,
                k: _,
                optional: _,
            }
            | Op::TailCall {
                base,
                nargs,
                global: _,
            } => usize::from(base) + usize::from(nargs) + 1,
            // The callee at `base`, the argument list (or the piped value) at `base + 1`.
            Op::CallSpread {
                base,
                kind: _,
                slot: _,
                k: _,
            }
            | Op::CallPipe { base } => usize::from(base) + 2,
            Op::NewList { dst, start, count } | Op::Concat { dst, start, count } => {
                past(dst).max(run(start, count))
            }
            Op::MakeEnum {
                dst,
                enum_k: _,
                variant_k: _,
                start,
                count,
            } => past(dst).max(run(start, count)),
            Op::DictRest {
                dst,
                src,
                start,
                count,
            } => past(dst.max(src)).max(run(start, count)),
            Op::ListPush { list, src } | Op::ListExtend { list, src } => past(list.max(src)),
            Op::DictInsert { dict, key, value } => past(dict.max(key).max(value)),
            Op::DictSpread { dict, src } => past(dict.max(src)),
            Op::MakeRange {
                dst,
                start,
                end,
                inclusive: _,
            } => past(dst.max(start).max(end)),
            Op::MakeStruct {
                dst,
                name_k: _,
                fields,
            } => past(dst.max(fields)),
            Op::GetField {
                dst,
                obj,
                k: _,
                optional: _,
            } => past(dst.max(obj)),
            Op::SetField { obj, k: _, src } => past(obj.max(src)),
            Op::GetIndex {
                dst,
                obj,
                index,
                optional: _,
            } => past(dst.max(obj).max(index)),
            Op::SetIndex { obj, index, src } => past(obj.max(index).max(src)),
            Op::TakeItem {
                dst,
                obj,
                key,
                field,
            } => past(dst.max(obj).max(if field { 0 } else { key })),
            Op::ClearRegs { start, count } => usize::from(start) + usize::from(count),
            Op::SetNested(n) => {
                // A key that is a field name is a constant, not a register.
                let key = |r: u16, field: bool| if field { 0 } else { r };
                past(
                    n.obj
                        .max(n.src.saturating_add(u16::from(n.clear)))
                        .max(key(n.outer, n.outer_is_field()))
                        .max(key(n.inner, n.inner_is_field())),
                )
            }
            Op::Slice {
                dst,
                obj,
                start,
                end,
            } => past(dst.max(obj).max(start).max(end)),
            Op::DefineMethod {
                type_k: _,
                name_k: _,
                closure,
            } => past(closure),
            // The loop state lives in `base` and `base + 1`.
            Op::ForPrep {
                base,
                src,
                dst,
                offset: _,
            } => (usize::from(base) + 2).max(past(src.max(dst))),
            Op::ForLoop {
                base,
                dst,
                offset: _,
            } => (usize::from(base) + 2).max(past(dst)),
            Op::Jump { offset: _ }
            | Op::JumpIfArgGiven {
                index: _,
                offset: _,
            }
            | Op::ImmutableError { k: _ }
            | Op::UndefinedError { k: _ }
            | Op::RedeclareError { k: _ }
            | Op::TryEnd
            | Op::NoMatch
            | Op::Unreachable
            | Op::Nop => 0,
        }
    }
}

impl Proto {
    /// The register window a frame of this function needs: `max_regs + 1`, widened to
    /// cover every register an instruction names and every register a nested closure
    /// captures from this frame. A frame always has this many slots on the stack.
    pub fn register_window(&self) -> usize {
        let by_code = self.code.iter().map(Op::register_extent);
        let by_captures = self.children.iter().flat_map(|child| {
            child.captures.iter().map(|c| match c.from {
                CaptureFrom::Register(r) => past(r),
                CaptureFrom::Global(_) => 0,
            })
        });
        by_code
            .chain(by_captures)
            .fold(usize::from(self.max_regs) + 1, usize::max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn proto(code: Vec<Op>, max_regs: u16) -> Proto {
        Proto {
            name: String::new(),
            params: Vec::new(),
            param_names: Vec::new(),
            captures: Vec::new(),
            is_closure: false,
            is_generator: false,
            max_regs,
            lines: vec![0; code.len()],
            code,
            consts: Vec::new(),
            children: Vec::new(),
            globals: Vec::new(),
            local_names: Vec::new(),
        }
    }

    #[test]
    fn window_covers_every_named_register() {
        assert_eq!(proto(vec![Op::Nop], 3).register_window(), 4);
        // A call's arguments run past the callee's slot.
        let call = Op::CallBuiltin {
            base: 2,
            nargs: 5,
            k: 0,
        };
        assert_eq!(proto(vec![call], 3).register_window(), 8);
        // The counted loop keeps its state in `base` and `base + 1`.
        let lp = Op::ForLoop {
            base: 6,
            dst: 1,
            offset: -1,
        };
        assert_eq!(proto(vec![lp], 3).register_window(), 8);
    }

    #[test]
    fn window_covers_registers_a_child_captures() {
        let mut child = proto(Vec::new(), 0);
        child.captures.push(super::super::Capture {
            name: "x".into(),
            from: CaptureFrom::Register(9),
            reg: 0,
        });
        let mut parent = proto(vec![Op::MakeClosure { dst: 0, proto: 0 }], 2);
        parent.children.push(std::rc::Rc::new(child));
        assert_eq!(parent.register_window(), 10);
    }

    #[test]
    fn closed_code_keeps_every_position_inside() {
        let ret = Op::Return { src: 0 };
        assert!(proto(vec![Op::Nop, ret], 1).is_closed());
        // Falls off the end.
        assert!(!proto(vec![ret, Op::Nop], 1).is_closed());
        assert!(!proto(Vec::new(), 1).is_closed());
        // A jump to the last instruction lands; one past it, or before the first, does not.
        let jump = |offset| Op::Jump { offset };
        assert!(proto(vec![jump(0), ret], 1).is_closed());
        assert!(!proto(vec![jump(1), ret], 1).is_closed());
        assert!(!proto(vec![Op::Nop, jump(-3), ret], 1).is_closed());
        assert!(proto(vec![Op::Nop, jump(-2), ret], 1).is_closed());
    }
}
