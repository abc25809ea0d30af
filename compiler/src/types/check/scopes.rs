//! The checker's variables in scope: one list for all open scopes, innermost last.
//!
//! A program's scopes hold a few names each and a lookup walks them innermost first, so
//! a hash table per scope hashed the name once per open scope on every use. Here each
//! entry carries its name's [`NamePrint`], and a lookup compares prints down the list
//! (a name of up to eight bytes is then found without reading its text).

use crate::ast::{Name, NamePrint, name_of};

use super::Var;

pub(crate) struct Scopes {
    /// Every variable in scope, in declaration order; a scope's variables are a
    /// contiguous run starting at its entry in `starts`.
    vars: Vec<(NamePrint, Name, Var)>,
    /// Where each open scope starts in `vars`; the first (the file's top level) at 0.
    starts: Vec<usize>,
}

impl Scopes {
    /// The top-level scope, open, with room for `capacity` variables.
    pub fn new(capacity: usize) -> Scopes {
        Scopes {
            vars: Vec::with_capacity(capacity),
            starts: vec![0],
        }
    }

    /// How many scopes are open (1: only the top level).
    pub fn depth(&self) -> usize {
        self.starts.len()
    }

    pub fn push(&mut self) {
        self.starts.push(self.vars.len());
    }

    /// Closes the innermost scope, handing over its variables in declaration order.
    /// The top level stays open.
    pub fn pop(&mut self) -> std::vec::Drain<'_, (NamePrint, Name, Var)> {
        let start = match self.starts.len() {
            0 | 1 => self.vars.len(),
            _ => self.starts.pop().unwrap_or(self.vars.len()),
        };
        self.vars.drain(start..)
    }

    fn innermost_start(&self) -> usize {
        self.starts.last().copied().unwrap_or(0)
    }

    /// Declares `name` in the innermost scope; a second declaration of a name in one
    /// scope replaces the first.
    pub fn declare(&mut self, name: &str, var: Var) {
        let print = NamePrint::of(name);
        let start = self.innermost_start();
        match self
            .vars
            .get_mut(start..)
            .and_then(|own| own.iter_mut().find(|(p, n, _)| print.matches(name, *p, n)))
        {
            Some(slot) => slot.2 = var,
            None => self.vars.push((print, name_of(name), var)),
        }
    }

    /// Where the variable `name` resolves to in `vars` (the innermost declaration).
    fn position(&self, name: &str) -> Option<usize> {
        let print = NamePrint::of(name);
        self.vars
            .iter()
            .rposition(|(p, n, _)| print.matches(name, *p, n))
    }

    pub fn lookup(&self, name: &str) -> Option<&Var> {
        self.position(name)
            .and_then(|at| self.vars.get(at))
            .map(|(_, _, v)| v)
    }

    pub fn lookup_mut(&mut self, name: &str) -> Option<&mut Var> {
        self.position(name)
            .and_then(|at| self.vars.get_mut(at))
            .map(|(_, _, v)| v)
    }

    /// The variable `name` declared in the innermost scope itself.
    pub fn innermost_mut(&mut self, name: &str) -> Option<&mut Var> {
        let start = self.innermost_start();
        self.position(name)
            .filter(|&at| at >= start)
            .and_then(|at| self.vars.get_mut(at))
            .map(|(_, _, v)| v)
    }

    /// Whether `name` resolves to a variable of the top level (no inner scope has one).
    pub fn is_top_level(&self, name: &str) -> bool {
        let top_end = self.starts.get(1).copied().unwrap_or(self.vars.len());
        self.position(name).is_some_and(|at| at < top_end)
    }

    pub fn vars(&self) -> impl Iterator<Item = &Var> {
        self.vars.iter().map(|(_, _, v)| v)
    }

    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.vars.iter().map(|(_, n, _)| n.as_str())
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::ast::Span;
    use crate::types::Ty;

    fn var(start: usize) -> Var {
        Var::known(Span::new(start, start + 1), Ty::Int)
    }

    fn def(v: Option<&Var>) -> Option<u32> {
        v.and_then(|v| v.def).map(|d| d.start)
    }

    #[test]
    fn inner_declarations_shadow_and_end_with_their_scope() {
        let mut s = Scopes::new(4);
        s.declare("x", var(1));
        s.declare("a_rather_long_name", var(2));
        s.push();
        s.declare("x", var(3));
        s.declare("a_rather_long_other", var(4));
        assert_eq!(def(s.lookup("x")), Some(3));
        assert_eq!(def(s.lookup("a_rather_long_name")), Some(2));
        assert_eq!(def(s.lookup("a_rather_long_other")), Some(4));
        assert!(!s.is_top_level("x"));
        assert!(s.is_top_level("a_rather_long_name"));
        assert!(s.innermost_mut("a_rather_long_name").is_none());
        let closed: Vec<String> = s.pop().map(|(_, n, _)| n.to_string()).collect();
        assert_eq!(closed, ["x", "a_rather_long_other"]);
        assert_eq!(def(s.lookup("x")), Some(1));
        assert!(s.lookup("a_rather_long_other").is_none());
        assert!(s.is_top_level("x"));
        // The top level is never closed.
        assert_eq!(s.pop().count(), 0);
        assert_eq!(s.depth(), 1);
    }

    #[test]
    fn a_second_declaration_in_one_scope_replaces_the_first() {
        let mut s = Scopes::new(4);
        s.declare("x", var(1));
        s.declare("x", var(5));
        assert_eq!(s.names().count(), 1);
        assert_eq!(def(s.lookup("x")), Some(5));
        // Names that share their first eight bytes stay apart.
        s.declare("abcdefgh", var(6));
        s.declare("abcdefghi", var(7));
        assert_eq!(def(s.lookup("abcdefgh")), Some(6));
        assert_eq!(def(s.lookup("abcdefghi")), Some(7));
        assert!(s.lookup("abcdefg").is_none());
    }
}
