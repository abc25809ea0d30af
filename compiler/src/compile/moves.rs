//! Moving a local's value into the call that consumes it.
//!
//! A list or dict held twice is copied by its first change. In `xs = xs.push(x)`,
//! `xs = add(xs, x)`, `return acc.push(x)` or a closure ending in `acc.push(x)`, the
//! local's value is never read again: the statement overwrites it, or the frame ends.
//! Moved (`Take`) into the call's window instead of copied, it is held once, so the call
//! changes it in place and a loop of such statements is linear, not quadratic.
//!
//! The local holds nil from the move until the statement ends, which nothing may see:
//! **a local is moved only when no part of the value evaluated after the move names
//! it, no `catch` of this function can run while it is in scope (it was declared
//! inside every `try` open here), and the function has no `defer`**. A moved receiver
//! is taken after the arguments are evaluated, so the move is the last thing before
//! the call and the arguments may read it (`xs = xs.push(len(xs))`). A literal whose
//! rest reads the local it starts with (`[...acc, len(acc) + x]`) shares it instead,
//! and the local is emptied right before the literal's one store.

use rustc_hash::FxHashSet as HashSet;

use super::names::{names_in_expr, names_in_stmts};
use super::{CResult, Compiler};
use crate::ast::{
    Arg, AssignOp, BinOp, Block, DictEntry, DictKey, Expr, ExprKind, Pattern, Span, Stmt, StmtKind,
    StrPart,
};
use crate::bytecode::Op;

/// Where a method call's receiver is moved from.
#[derive(Clone, Copy)]
pub(crate) enum Moved<'a> {
    /// A local's register.
    Local(u16),
    /// An element of the local container in `obj`: the field named by constant `key`
    /// (`field`) or the subscript in register `key`; when the element is nil, `default`
    /// (a literal: `(groups[k] ?? []).push(v)`) stands in.
    Item {
        obj: u16,
        key: u16,
        field: bool,
        default: Option<&'a Expr>,
    },
}

/// `let list = groups[k] ?? []` followed by `groups[k] = list.push(v)`: the local
/// `name`, bound to the element at `path` (or to `default` when it is nil), and never
/// read after the second statement ([`Compiler::consuming_pair`]).
#[derive(Clone, Copy)]
pub(crate) struct ItemAlias<'a> {
    name: &'a str,
    path: &'a Expr,
    default: Option<&'a Expr>,
    /// The store's statement, whose line the call and the store carry.
    store: Span,
}

/// Which locals a statement may consume: the one it assigns, or any (the frame ends
/// with it).
#[derive(Clone, Copy)]
pub(crate) enum Consumer<'n> {
    Assigned(&'n str),
    FrameEnd,
    /// A call's argument consuming this local, which the call's own consumer allowed
    /// (`consuming_call`): compiled into the argument's register.
    Argument(&'n str),
}

impl Consumer<'_> {
    fn accepts(self, name: &str) -> bool {
        match self {
            Consumer::Assigned(n) | Consumer::Argument(n) => n == name,
            Consumer::FrameEnd => true,
        }
    }
}

/// Whether any of `exprs` reads, calls or assigns `name` (nested functions included).
fn named_in<'e>(exprs: impl IntoIterator<Item = &'e Expr>, name: &str) -> bool {
    let mut names = HashSet::default();
    for e in exprs {
        names_in_expr(e, &mut names);
    }
    names.contains(name)
}

fn arg_exprs(args: &[Arg]) -> impl Iterator<Item = &Expr> + Clone {
    args.iter().map(|(Arg::Positional(e) | Arg::Spread(e))| e)
}

impl<'a> Compiler<'a> {
    /// The register of the local `name` when its value may be moved out here (see the
    /// module docs).
    fn movable(&self, name: &str) -> Option<u16> {
        let f = self.cur_ref();
        if !f.defers.is_empty() || f.is_self(name) {
            return None;
        }
        let local = f.lookup_quiet(name)?;
        (local.owned && local.try_depth == f.tries.len()).then_some(local.reg)
    }

    /// `var c = cart` (or `let`) directly in the function's body, statement `i` of
    /// `block`, where no later statement of the body names `cart`: the binding takes
    /// the value instead of sharing it, so the first change to `c` is made in place
    /// (a function that copies a parameter to change it: `var c = cart;
    /// c.items = c.items.push(x); return c`). The statement runs once per call, and the
    /// rest of the body is all that runs after it. The value and the local's register,
    /// for `move_arg`; `None` for any other statement.
    pub(crate) fn rebinding_move(&self, block: &'a Block, i: usize) -> Option<(&'a Expr, u16)> {
        if !self
            .cur_ref()
            .body_block
            .is_some_and(|b| std::ptr::eq(b, block))
        {
            return None;
        }
        let StmtKind::Let {
            pattern: Pattern::Ident(id),
            ty: None,
            value,
            ..
        } = &block.stmts.get(i)?.kind
        else {
            return None;
        };
        let ExprKind::Ident(source) = &value.kind else {
            return None;
        };
        if *source == id.name {
            return None;
        }
        let src = self.movable(source)?;
        let mut later = HashSet::default();
        names_in_stmts(block.stmts.get(i + 1..)?, &mut later);
        (!later.contains(source.as_str())).then_some((value, src))
    }

    /// Compiles `value` into `dst`, moving a local that `consumer` allows into the call
    /// `value` is: the method's receiver, or else one plain argument. `false`, with
    /// nothing emitted, when no move applies.
    pub(crate) fn consuming_call(
        &mut self,
        value: &'a Expr,
        dst: u16,
        consumer: Consumer<'_>,
    ) -> CResult<bool> {
        let (receiver, callee, args) = match &value.kind {
            ExprKind::List(_) | ExprKind::Dict(_) => {
                let Some((first, others)) = leading_spread(value) else {
                    return match (&value.kind, consumer) {
                        (ExprKind::Dict(entries), Consumer::FrameEnd) => {
                            self.consuming_record(value, entries, dst)
                        }
                        _ => Ok(false),
                    };
                };
                return self.consuming_spread(value, first, others, dst, consumer);
            }
            ExprKind::MethodCall { receiver, args, .. } => (Some(&**receiver), None, &args[..]),
            ExprKind::Call { callee, args, .. } => (None, Some(&callee.name), &args[..]),
            ExprKind::Binary { op: BinOp::Add, .. } => {
                return self.consuming_add(value, dst, consumer);
            }
            ExprKind::InterpStr(parts) => {
                let Some((StrPart::Expr(first), rest)) = parts.split_first() else {
                    return Ok(false);
                };
                let others = rest.iter().filter_map(|part| match part {
                    StrPart::Expr(e) => Some(e),
                    StrPart::Lit(_) => None,
                });
                return self.consuming_spread(value, first, others, dst, consumer);
            }
            _ => return Ok(false),
        };
        if let (
            Some(recv),
            ExprKind::MethodCall {
                method, optional, ..
            },
        ) = (receiver, &value.kind)
            && let ExprKind::Ident(name) = &recv.kind
            && consumer.accepts(name)
            && self.movable(name).is_some()
        {
            // The arguments are evaluated before the receiver is taken, so they may
            // read it (`xs = xs.push(len(xs))`).
            let src = self.movable(name).unwrap_or_default();
            self.method_call(recv, method, args, *optional, dst, Some(Moved::Local(src)))?;
            return Ok(true);
        }
        // One argument that is a local, or consumes one (a method call on it, a sum
        // starting with it and adding a literal, a literal spreading it first:
        // `return collect(n - 1, acc.push(n))`, `build(n - 1, acc + [n])`), the local
        // named nowhere else in the call. A plain local is moved into the call's
        // window; a consuming argument is compiled as if assigned back to the local.
        for (i, arg) in args.iter().enumerate() {
            let Arg::Positional(e) = arg else { continue };
            let first = match &e.kind {
                ExprKind::Ident(_) => e,
                ExprKind::MethodCall { receiver, .. } => &**receiver,
                ExprKind::Binary { op: BinOp::Add, .. } => sum_terms(e).0,
                ExprKind::List(_) | ExprKind::Dict(_) => match leading_spread(e) {
                    Some((first, _)) => first,
                    None => continue,
                },
                _ => continue,
            };
            let ExprKind::Ident(name) = &first.kind else {
                continue;
            };
            // The callee is read from its local when the call is made.
            if !consumer.accepts(name) || callee.is_some_and(|c| c == name) {
                continue;
            }
            let Some(src) = self.movable(name) else {
                continue;
            };
            let others = arg_exprs(args)
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, e)| e)
                .chain(receiver);
            if named_in(others, name) {
                continue;
            }
            if std::ptr::eq(first, e) {
                self.move_arg = Some((e, src));
            } else {
                self.consume_arg = Some((std::ptr::from_ref(e), name.as_str()));
            }
            let compiled = self.expr_into(value, dst);
            self.move_arg = None;
            self.consume_arg = None;
            compiled?;
            return Ok(true);
        }
        Ok(false)
    }

    /// `acc = [...acc, x]`, `acc = {...acc, [k]: v}`, or a closure ending in one
    /// (`reduce`'s callback written the way JavaScript writes it): the literal `value`
    /// starts with a spread of the local `first`, which `others` (the rest of the
    /// literal) do not name. The local is taken where the spread reads it, and the new
    /// value starts as that very list or dict (`ListExtend` / `DictSpread` into an empty
    /// literal shares its source), so the rest goes in place, not onto a copy.
    /// The same for an interpolation that starts with the local (`s = "${s}${p},"`):
    /// taken into the first part, a string nothing else holds is appended to by
    /// `Concat` in place.
    fn consuming_spread<'e>(
        &mut self,
        value: &'a Expr,
        first: &'a Expr,
        others: impl IntoIterator<Item = &'e Expr> + Clone,
        dst: u16,
        consumer: Consumer<'_>,
    ) -> CResult<bool> {
        let ExprKind::Ident(name) = &first.kind else {
            return Ok(false);
        };
        let Some(src) = self.movable(name) else {
            return Ok(false);
        };
        if !consumer.accepts(name) {
            return Ok(false);
        }
        if let ExprKind::Dict(entries) = &value.kind
            && self.consuming_field_update(entries, name, src, dst)?
        {
            return Ok(true);
        }
        if !named_in(others, name) {
            self.move_arg = Some((first, src));
            let compiled = self.expr_into(value, dst);
            self.move_arg = None;
            compiled?;
            return Ok(true);
        }
        // The rest reads the local too (`[...acc, len(acc) + x]`,
        // `{...acc, [w]: (acc[w] ?? 0) + 1}`, `"${s}${len(s)}"`): the spread or first part
        // reads it where it is, sharing it, and the local is emptied once the rest is
        // evaluated, right before the literal's one store (the one item after a spread,
        // or `Concat`), which then finds the value held once.
        let Some(items) = late_store(value) else {
            return Ok(false);
        };
        self.clear_late = Some((items, src));
        let compiled = self.expr_into(value, dst);
        self.clear_late = None;
        compiled?;
        Ok(true)
    }

    /// `{...s, items: s.items.push(x)}` (or `(s.items ?? []).push(x)`), consuming the
    /// local `s` in register `src`: the local is taken into the spread, and the new
    /// dict, then held once, gives the field up to the call (`TakeItem`, as
    /// `s.items = s.items.push(x)` does) and gets the result back. The field is read
    /// from the new dict, which holds what the local held. The arguments, evaluated
    /// before the field is taken, must not name the local. `false`, with nothing
    /// emitted, for any other literal.
    fn consuming_field_update(
        &mut self,
        entries: &'a [DictEntry],
        name: &str,
        src: u16,
        dst: u16,
    ) -> CResult<bool> {
        let [
            DictEntry::Spread(_),
            DictEntry::Pair {
                key: DictKey::Name(field, _),
                value: call,
            },
        ] = entries
        else {
            return Ok(false);
        };
        let ExprKind::MethodCall {
            receiver,
            method,
            args,
            optional,
        } = &call.kind
        else {
            return Ok(false);
        };
        let (path, default) = with_default(receiver);
        match element_of(path) {
            Some((root, ElementKey::Field(f)))
                if root == name && f == field.as_str() && !named_in(arg_exprs(args), name) => {}
            _ => return Ok(false),
        }
        let mark = self.cur().next_reg;
        let d = self.alloc();
        self.emit(Op::NewDict { dst: d, cap: 1 });
        let spread = self.alloc();
        self.emit(Op::Take { dst: spread, src });
        self.emit(Op::DictSpread {
            dict: d,
            src: spread,
        });
        self.emit(Op::LoadNil { dst: spread });
        self.cur().next_reg = spread;
        let key = self.str_const(field);
        self.clear_stale_temps();
        let result = self.alloc();
        let moved = Moved::Item {
            obj: d,
            key,
            field: true,
            default,
        };
        self.method_call(path, method, args, *optional, result, Some(moved))?;
        self.emit(Op::SetField {
            obj: d,
            k: key,
            src: result,
        });
        self.emit(Op::Take { dst, src: d });
        self.release_temps(mark);
        Ok(true)
    }

    /// A frame ending in a record literal one of whose values is a method call on a
    /// field of a local (`{total: s.total + x, items: s.items.push(x)}`, `(s.items ??
    /// []).push(x)` too), where neither the call's arguments nor anything after it in
    /// the literal names the local: the field's value is moved out of the local
    /// (`TakeItem`) into the call, as `s.items = s.items.push(x)` moves it, so the
    /// call changes it in place instead of copying it. A subscript key is left as
    /// written: it would have to be evaluated ahead of the literal.
    fn consuming_record(
        &mut self,
        value: &'a Expr,
        entries: &'a [DictEntry],
        dst: u16,
    ) -> CResult<bool> {
        for (i, entry) in entries.iter().enumerate() {
            let DictEntry::Pair { value: call, .. } = entry else {
                continue;
            };
            let ExprKind::MethodCall { receiver, args, .. } = &call.kind else {
                continue;
            };
            let (path, default) = with_default(receiver);
            let Some((root, key @ ElementKey::Field(_))) = element_of(path) else {
                continue;
            };
            let later = entries
                .get(i + 1..)
                .unwrap_or_default()
                .iter()
                .flat_map(|e| {
                    let (first, second) = match e {
                        DictEntry::Pair {
                            key: DictKey::Computed(k),
                            value,
                        } => (Some(k), Some(value)),
                        DictEntry::Pair { value, .. } => (None, Some(value)),
                        DictEntry::Spread(e) => (Some(e), None),
                    };
                    first.into_iter().chain(second)
                });
            let Some((obj, key, field)) =
                self.element_place(root, key, arg_exprs(args).chain(later))?
            else {
                continue;
            };
            self.record_move = Some((
                std::ptr::from_ref(call),
                Moved::Item {
                    obj,
                    key,
                    field,
                    default,
                },
            ));
            let compiled = self.expr_into(value, dst);
            self.record_move = None;
            compiled?;
            return Ok(true);
        }
        Ok(false)
    }

    /// The move [`Self::consuming_record`] set for the method call `call`, if it is
    /// that call: the free registers are emptied first, as before any element's move.
    pub(crate) fn record_move_for(&mut self, call: &Expr) -> Option<Moved<'a>> {
        let (at, moved) = self.record_move?;
        if !std::ptr::eq(at, call) {
            return None;
        }
        self.record_move = None;
        self.clear_stale_temps();
        Some(moved)
    }

    /// A sum whose first term is the consumed local, the terms after the second naming
    /// it nowhere:
    /// - ending a frame (`acc + [x]`, `acc + l + "\n"` in a `reduce` callback), with a
    ///   literal list, dict or string among the terms: `acc` is taken into `dst` once
    ///   the first term after it is evaluated, and `Add` (whose result register is its
    ///   left operand) extends it in place, term by term. Without such a literal
    ///   (`acc + x`, mostly numbers, which a move would only slow down), the terms are
    ///   added into `acc`'s own register instead, and the frame returns that register
    ///   (`frame_result`): the same instructions, and a string still grows in place.
    /// - assigned to that local (`out = out + line + ";"`): each term is added to the
    ///   local in place, one at a time, where the sum would first have built
    ///   `out + line` as a copy. (`s = s + t` alone is in place already.)
    fn consuming_add(
        &mut self,
        value: &'a Expr,
        dst: u16,
        consumer: Consumer<'_>,
    ) -> CResult<bool> {
        let (first, terms) = sum_terms(value);
        let ExprKind::Ident(name) = &first.kind else {
            return Ok(false);
        };
        let Some((&next, rest)) = terms.split_first() else {
            return Ok(false);
        };
        // The first term is evaluated before anything changes the local, so it may read
        // it (`acc + {[w]: (acc[w] ?? 0) + 1}`, `acc + [len(acc)]`); a later one would
        // see it taken or already extended.
        if !consumer.accepts(name) || named_in(rest.iter().copied(), name) {
            return Ok(false);
        }
        let Some(src) = self.movable(name) else {
            return Ok(false);
        };
        match consumer {
            // With no literal term, `acc + x` is added into `acc`'s own register, which
            // the frame then returns: a string or list nothing else holds grows in
            // place, and numbers cost the instructions they did. A number literal
            // (`m + 1`) makes it arithmetic, left as written.
            Consumer::FrameEnd if !terms.iter().any(|t| extends(t)) => {
                if terms
                    .iter()
                    .any(|t| matches!(t.kind, ExprKind::Int(_) | ExprKind::Float(_)))
                {
                    return Ok(false);
                }
                for &term in &terms {
                    let mark = self.cur().next_reg;
                    self.binary(BinOp::Add, first, term, src)?;
                    self.release_temps(mark);
                }
                self.cur().frame_result = Some(src);
            }
            Consumer::FrameEnd | Consumer::Argument(_) if terms.iter().any(|t| extends(t)) => {
                let b = self.expr_any(next)?;
                self.emit(Op::Take { dst, src });
                self.emit(Op::Add { dst, a: dst, b });
                for &term in rest {
                    let mark = self.cur().next_reg;
                    let b = self.expr_any(term)?;
                    self.emit(Op::Add { dst, a: dst, b });
                    self.release_temps(mark);
                }
            }
            // Without a literal the sum stays arithmetic (`acc + x`), left as written.
            Consumer::FrameEnd | Consumer::Argument(_) => return Ok(false),
            Consumer::Assigned(_) => {
                if rest.is_empty() || dst != src {
                    return Ok(false);
                }
                for &term in &terms {
                    let mark = self.cur().next_reg;
                    self.binary(BinOp::Add, first, term, dst)?;
                    self.release_temps(mark);
                }
            }
        }
        Ok(true)
    }

    /// `let list = groups[k] ?? []` then `groups[k] = list.push(v)`, with `list` read
    /// nowhere after (`rest`, the block's later statements): compiled as the one
    /// statement `groups[k] = (groups[k] ?? []).push(v)` ([`Self::consuming_item`]), so
    /// the element moves into the call instead of being held twice (by the container and
    /// by `list`) and copied by the push. The binding is never made: nothing reads it.
    /// `false`, with nothing emitted, for any other pair; both then compile as written.
    pub(crate) fn consuming_pair(
        &mut self,
        first: &'a Stmt,
        second: &'a Stmt,
        rest: &'a [Stmt],
    ) -> CResult<bool> {
        let (
            StmtKind::Let {
                pattern: Pattern::Ident(name),
                ty: None,
                value: init,
                ..
            },
            StmtKind::Assign {
                target,
                op: AssignOp::Assign,
                value,
            },
        ) = (&first.kind, &second.kind)
        else {
            return Ok(false);
        };
        let name = name.name.as_str();
        let (path, default) = with_default(init);
        let receives_name = matches!(&value.kind, ExprKind::MethodCall { receiver, .. }
            if matches!(&receiver.kind, ExprKind::Ident(r) if r == name));
        let Some((root, key)) = element_of(target) else {
            return Ok(false);
        };
        let shadows = root == name || key.local() == Some(name);
        if !receives_name
            || shadows
            || !first.attrs.is_empty()
            || !second.attrs.is_empty()
            || !element_of(path).is_some_and(|(r, k)| r == root && k.same(key))
            || !self.cur_ref().lookup_quiet(root).is_some_and(|l| l.mutable)
        {
            return Ok(false);
        }
        let mut later = HashSet::default();
        names_in_stmts(rest, &mut later);
        if later.contains(name) {
            return Ok(false);
        }
        // The subscript is read on the binding's line, as written; the rest is the
        // store's (`consuming_item` switches once the element's place is known).
        self.set_line(first.span);
        let mark = self.cur().next_reg;
        self.item_alias = Some(ItemAlias {
            name,
            path,
            default,
            store: second.span,
        });
        let done = self.consuming_item(target, AssignOp::Assign, value);
        self.item_alias = None;
        self.release_temps(mark);
        done
    }

    /// Puts a moved receiver at `base` (`method_call`, after the arguments).
    pub(crate) fn take_receiver(&mut self, moved: Moved<'a>, base: u16) -> CResult<()> {
        match moved {
            Moved::Local(src) => {
                self.emit(Op::Take { dst: base, src });
            }
            Moved::Item {
                obj,
                key,
                field,
                default,
            } => {
                self.emit(Op::TakeItem {
                    dst: base,
                    obj,
                    key,
                    field,
                });
                self.default_if_nil(base, default)?;
                // A binding's default (`consuming_pair`) is compiled on its own line;
                // the call after it is the store's.
                if let (Some(alias), Some(_)) = (self.item_alias, default) {
                    self.set_line(alias.store);
                }
            }
        }
        Ok(())
    }

    /// `st.items = st.items.push(x)`, `groups[k] = (groups[k] ?? []).push(v)` on a local
    /// `st` / `groups` and a subscript that is a local or a literal: the element moves
    /// into the call and the result is stored back, so the element is changed in place.
    /// Also `st.log = st.log + "line"` and `st.items += [x]`, with a literal list, dict or
    /// string added. `false`, with nothing emitted, for any other assignment.
    pub(crate) fn consuming_item(
        &mut self,
        target: &'a Expr,
        op: AssignOp,
        value: &'a Expr,
    ) -> CResult<bool> {
        let Some((root, key)) = element_of(target) else {
            return Ok(false);
        };
        let same_element =
            |path: &Expr| element_of(path).is_some_and(|(r, k)| r == root && k.same(key));
        match (op, &value.kind) {
            (
                AssignOp::Assign,
                ExprKind::MethodCall {
                    receiver,
                    method,
                    args,
                    optional,
                },
            ) => {
                let (path, default) = match (&receiver.kind, self.item_alias) {
                    (ExprKind::Ident(n), Some(alias)) if n == alias.name => {
                        if named_in(arg_exprs(args), alias.name) {
                            return Ok(false);
                        }
                        (alias.path, alias.default)
                    }
                    _ => with_default(receiver),
                };
                if !same_element(path) {
                    return Ok(false);
                }
                // The subscript as the read wrote it (the same element, checked above),
                // so that it is compiled, and fails, on that line.
                let key = element_of(path).map_or(key, |(_, k)| k);
                let Some((obj, key, field)) = self.element_place(root, key, arg_exprs(args))?
                else {
                    return Ok(false);
                };
                if let Some(alias) = self.item_alias {
                    self.set_line(alias.store);
                }
                self.clear_stale_temps();
                let result = self.alloc();
                let moved = Moved::Item {
                    obj,
                    key,
                    field,
                    default,
                };
                self.method_call(path, method, args, *optional, result, Some(moved))?;
                self.store_element(obj, key, field, result);
                Ok(true)
            }
            (
                AssignOp::Assign,
                ExprKind::Binary {
                    op: BinOp::Add,
                    lhs,
                    rhs,
                },
            ) if same_element(lhs) && extends(rhs) => self.extend_element(root, key, rhs),
            (AssignOp::Add, _) if extends(value) => self.extend_element(root, key, value),
            _ => Ok(false),
        }
    }

    /// `root.key = root.key + rhs`: `rhs` evaluated, then the element taken and extended
    /// in place (`Add`'s result register is its left operand) and stored back.
    fn extend_element(&mut self, root: &str, key: ElementKey<'a>, rhs: &'a Expr) -> CResult<bool> {
        let Some((obj, key, field)) = self.element_place(root, key, [rhs])? else {
            return Ok(false);
        };
        let b = self.expr_any(rhs)?;
        self.clear_stale_temps();
        let result = self.alloc();
        self.emit(Op::TakeItem {
            dst: result,
            obj,
            key,
            field,
        });
        self.emit(Op::Add {
            dst: result,
            a: result,
            b,
        });
        self.store_element(obj, key, field, result);
        Ok(true)
    }

    /// The container register and the key (a field's constant, or a register holding the
    /// subscript) of `root[key]` when its element may be moved out while `uses` (the
    /// rest of the statement) are evaluated: `root` is a movable local and `uses` name
    /// neither it nor a local subscript. `None`, with nothing emitted, otherwise.
    fn element_place<'e>(
        &mut self,
        root: &str,
        key: ElementKey<'a>,
        uses: impl IntoIterator<Item = &'e Expr> + Clone,
    ) -> CResult<Option<(u16, u16, bool)>> {
        let Some(obj) = self.movable(root) else {
            return Ok(None);
        };
        // A local subscript is read from its own register when the element is stored
        // back, so the rest of the statement must leave it alone; a field of one is
        // read into a temporary first.
        let key_name = match key {
            ElementKey::Index(Expr {
                kind: ExprKind::Ident(n),
                ..
            }) => Some(n.as_str()),
            _ => None,
        };
        if named_in(uses.clone(), root) || key_name.is_some_and(|k| named_in(uses, k)) {
            return Ok(None);
        }
        Ok(Some(match key {
            ElementKey::Field(name) => (obj, self.str_const(name), true),
            ElementKey::Index(index) => (obj, self.expr_any(index)?, false),
        }))
    }

    /// Empties the free registers that earlier statements used (`Op::ClearRegs`), before
    /// an element is moved out: one of them may still share it (`if groups[k] == nil`
    /// leaves the element in the comparison's operand), and the change would then copy
    /// it. In a loop the range is widened when the body ends ([`Self::widen_clears`]).
    fn clear_stale_temps(&mut self) {
        let f = self.cur();
        let start = f.next_reg;
        let count = f.proto.max_regs.saturating_sub(start);
        if count == 0 && f.loops.is_empty() {
            return;
        }
        let at = self.emit(Op::ClearRegs { start, count });
        if let Some(l) = self.cur().loops.last_mut() {
            l.clears.push(at);
        }
    }

    /// At the end of a loop body: each of its `ClearRegs` covers every register the body
    /// used from its start up (all free where it runs), since a statement after it may
    /// leave an element shared for the next pass; the enclosing loop, if any, widens
    /// them again.
    pub(crate) fn widen_clears(&mut self, clears: Vec<usize>) {
        let f = self.cur();
        let top = f.proto.max_regs;
        for &at in &clears {
            if let Some(Op::ClearRegs { start, count }) = f.proto.code.get_mut(at) {
                *count = top.saturating_sub(*start);
            }
        }
        if let Some(outer) = f.loops.last_mut() {
            outer.clears.extend(clears);
        }
    }

    /// Stores `result` back as the element, then empties it: the store copies it, and
    /// the temporary would share the element with its container until the next such
    /// statement changes it.
    fn store_element(&mut self, obj: u16, key: u16, field: bool, result: u16) {
        self.emit(if field {
            Op::SetField {
                obj,
                k: key,
                src: result,
            }
        } else {
            Op::SetIndex {
                obj,
                index: key,
                src: result,
            }
        });
        self.emit(Op::LoadNil { dst: result });
    }
}

/// The key of an element path `root.name` / `root[key]`.
#[derive(Clone, Copy)]
enum ElementKey<'a> {
    Field(&'a str),
    Index(&'a Expr),
}

impl<'a> ElementKey<'a> {
    /// Whether two keys name the same element every time: one field, or one local or
    /// literal as the subscript.
    fn same(self, other: ElementKey<'_>) -> bool {
        match (self, other) {
            (ElementKey::Field(a), ElementKey::Field(b)) => a == b,
            (ElementKey::Index(a), ElementKey::Index(b)) => match (&a.kind, &b.kind) {
                (ExprKind::Ident(x), ExprKind::Ident(y)) => x == y,
                (ExprKind::Str(x), ExprKind::Str(y)) => x == y,
                (ExprKind::Int(x), ExprKind::Int(y)) => x == y,
                // A field of a local (`groups[p.city]`): reading it has no effect, and
                // nothing between the two reads can change the local.
                (
                    ExprKind::Member {
                        object: a,
                        name: x,
                        optional: false,
                    },
                    ExprKind::Member {
                        object: b,
                        name: y,
                        optional: false,
                    },
                ) => {
                    x.name == y.name
                        && matches!((&a.kind, &b.kind),
                            (ExprKind::Ident(a), ExprKind::Ident(b)) if a == b)
                }
                _ => false,
            },
            _ => false,
        }
    }

    /// The local a subscript reads: itself (`groups[k]`) or the one whose field it is
    /// (`groups[p.city]`).
    fn local(self) -> Option<&'a str> {
        let ElementKey::Index(index) = self else {
            return None;
        };
        match &index.kind {
            ExprKind::Ident(n) => Some(n.as_str()),
            ExprKind::Member { object, .. } => match &object.kind {
                ExprKind::Ident(n) => Some(n.as_str()),
                _ => None,
            },
            _ => None,
        }
    }
}

/// `root.name` or `root[key]` (not optional) on a name `root`.
fn element_of(e: &Expr) -> Option<(&str, ElementKey<'_>)> {
    let (object, key) = match &e.kind {
        ExprKind::Member {
            object,
            name,
            optional: false,
        } => (object, ElementKey::Field(&name.name)),
        ExprKind::Index {
            object,
            index,
            optional: false,
        } => (object, ElementKey::Index(index)),
        _ => return None,
    };
    match &object.kind {
        ExprKind::Ident(root) => Some((root.as_str(), key)),
        _ => None,
    }
}

/// The first element of a list or dict literal when it is a spread, and every other
/// expression the literal evaluates (values, computed keys, later spreads).
fn leading_spread(literal: &Expr) -> Option<(&Expr, Vec<&Expr>)> {
    match &literal.kind {
        ExprKind::List(items) => match items.split_first()? {
            (Arg::Spread(first), rest) => Some((first, arg_exprs(rest).collect())),
            _ => None,
        },
        ExprKind::Dict(entries) => match entries.split_first()? {
            (DictEntry::Spread(first), rest) => {
                let mut others = Vec::new();
                for entry in rest {
                    match entry {
                        DictEntry::Pair { key, value } => {
                            if let DictKey::Computed(k) = key {
                                others.push(k);
                            }
                            others.push(value);
                        }
                        DictEntry::Spread(e) => others.push(e),
                    }
                }
                Some((first, others))
            }
            _ => None,
        },
        _ => None,
    }
}

/// The terms of a sum written left to right (`a + b + c` is `(a + b) + c`): the first,
/// and the others in order. Walked without recursion: a long sum is a deep tree.
fn sum_terms(e: &Expr) -> (&Expr, Vec<&Expr>) {
    let mut terms = Vec::new();
    let mut cur = e;
    while let ExprKind::Binary {
        op: BinOp::Add,
        lhs,
        rhs,
    } = &cur.kind
    {
        terms.push(&**rhs);
        cur = lhs;
    }
    terms.reverse();
    (cur, terms)
}

/// The address of a literal's items when the literal stores once, after reading
/// everything it reads: a list or dict literal with one item after its leading spread,
/// or an interpolation (one `Concat`).
fn late_store(literal: &Expr) -> Option<*const ()> {
    match &literal.kind {
        ExprKind::List(items) => match &items[..] {
            [Arg::Spread(_), Arg::Positional(_)] => Some(items.as_ptr().cast()),
            _ => None,
        },
        ExprKind::Dict(entries) => match &entries[..] {
            [DictEntry::Spread(_), DictEntry::Pair { .. }] => Some(entries.as_ptr().cast()),
            _ => None,
        },
        ExprKind::InterpStr(parts) => Some(parts.as_ptr().cast()),
        _ => None,
    }
}

/// `path ?? literal` as the path and its stand-in; any other expression as itself.
fn with_default(e: &Expr) -> (&Expr, Option<&Expr>) {
    match &e.kind {
        ExprKind::Binary {
            op: BinOp::Coalesce,
            lhs,
            rhs,
        } if is_literal(rhs) => (lhs, Some(rhs)),
        _ => (e, None),
    }
}

/// A literal that evaluating has no effect: the stand-in of `(path ?? literal)`, whose
/// evaluation moves after the call's arguments.
fn is_literal(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::List(items) => items.is_empty(),
        ExprKind::Dict(entries) => entries.is_empty(),
        ExprKind::Nil
        | ExprKind::Bool(_)
        | ExprKind::Int(_)
        | ExprKind::Float(_)
        | ExprKind::Str(_) => true,
        _ => false,
    }
}

/// A literal list, dict or string: what `+` extends a collection or text with. `acc + x`
/// is mostly numbers, which a move would only slow down.
fn extends(e: &Expr) -> bool {
    matches!(
        e.kind,
        ExprKind::List(_) | ExprKind::Dict(_) | ExprKind::Str(_) | ExprKind::InterpStr(_)
    )
}
