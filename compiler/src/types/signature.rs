//! Builtin signatures: `fn(name: T, opt?: T, ...rest: T) -> R`, parsed with the
//! compiler's own parser ([`crate::parser::parse_signature`]) and lowered to [`Ty`].

use std::fmt;

use super::lower::{LowerError, lower};
use super::ty::Ty;
use crate::diagnostic::Diagnostic;

/// A parsed builtin signature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    pub params: Vec<Param>,
    /// `nil` when the text has no `-> R`.
    pub ret: Ty,
}

/// One parameter of a [`Signature`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    pub name: String,
    /// For a rest parameter, the type of each collected argument.
    pub ty: Ty,
    /// `name?: T`: the argument may be left out.
    pub optional: bool,
    /// `...name: T`: collects the remaining arguments.
    pub rest: bool,
}

/// Why a signature text was refused.
#[derive(Clone, Debug)]
pub enum SignatureError {
    Syntax(Box<Diagnostic>),
    Type(LowerError),
}

impl fmt::Display for SignatureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SignatureError::Syntax(d) => f.write_str(&d.message),
            SignatureError::Type(e) => write!(f, "{e}"),
        }
    }
}

impl Signature {
    /// Parses `fn(params) -> R`.
    pub fn parse(text: &str) -> Result<Signature, SignatureError> {
        let syntax = crate::parser::parse_signature(text).map_err(SignatureError::Syntax)?;
        let params = syntax
            .params
            .iter()
            .map(|p| {
                Ok(Param {
                    name: p.name.clone(),
                    ty: lower(&p.ty)?,
                    optional: p.optional,
                    rest: p.rest,
                })
            })
            .collect::<Result<_, LowerError>>()
            .map_err(SignatureError::Type)?;
        let ret = match &syntax.ret {
            Some(r) => lower(r).map_err(SignatureError::Type)?,
            None => Ty::Nil,
        };
        Ok(Signature { params, ret })
    }

    /// The fewest arguments a call must pass.
    pub fn min_args(&self) -> usize {
        self.params
            .iter()
            .filter(|p| !p.optional && !p.rest)
            .count()
    }

    /// The most arguments a call may pass (`None`: a rest parameter takes any number).
    pub fn max_args(&self) -> Option<usize> {
        if self.params.iter().any(|p| p.rest) {
            None
        } else {
            Some(self.params.len())
        }
    }
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("fn(")?;
        for (i, p) in self.params.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            let dots = if p.rest { "..." } else { "" };
            let q = if p.optional { "?" } else { "" };
            write!(f, "{dots}{}{q}: {}", p.name, p.ty)?;
        }
        write!(f, ") -> {}", self.ret)
    }
}
