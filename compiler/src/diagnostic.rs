//! Diagnostics as data, and their two renderings: a pretty report with source snippets
//! (ariadne) for people, and a one-line form for tools and tests.

use std::fmt::Write as _;

use ariadne::{Color, Config, Label as AriadneLabel, Report, ReportKind, Source};

use crate::ast::Span;
use crate::source::LineIndex;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Error,
    Warning,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// A span with an explanation attached.
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    pub span: Span,
    pub message: String,
}

/// One problem found in a source file.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    /// Stable identifier, e.g. `E0101`.
    pub code: &'static str,
    pub severity: Severity,
    /// The reference-compatible one-line text, position included where the reference
    /// includes one (e.g. `Expected expression, got ) at 1:8`).
    pub message: String,
    pub primary: Label,
    pub secondary: Vec<Label>,
    pub hint: Option<String>,
    /// A machine-applicable fix (an editor's quick-fix): replace `span` with `text`.
    pub fix: Option<Fix>,
}

/// A replacement that fixes a diagnostic.
#[derive(Clone, Debug, PartialEq)]
pub struct Fix {
    pub span: Span,
    pub replacement: String,
}

/// Diagnostic codes, grouped by phase.
pub mod codes {
    pub const UNEXPECTED_CHAR: &str = "E0001";
    pub const UNTERMINATED_STRING: &str = "E0002";
    pub const UNTERMINATED_COMMENT: &str = "E0003";
    pub const SYNTAX: &str = "E0100";
    pub const NESTING_TOO_DEEP: &str = "E0101";
    pub const INVALID_PARAMS: &str = "E0102";
    pub const INVALID_ASSIGN_TARGET: &str = "E0103";
    /// Compilation (after a clean parse): `break` outside a loop, unsupported forms, …
    pub const COMPILE: &str = "E0200";
    /// Code-mode static validation (`code-mode.md` 4.4), one code per failure category.
    pub const DENIED_BUILTIN: &str = "E0300";
    pub const POLICY_DENIED: &str = "E0301";
    /// A snippet that cannot compile in code mode: unknown call targets, pipelines,
    /// unknown `state` operations, a snippet over the size limit.
    pub const SNIPPET: &str = "E0302";
    /// A certain type error: a binding call's literal argument that its schema rules out.
    pub const TYPE_MISMATCH: &str = "E0400";
    /// The checker (`language.md` 10.3): a value that cannot have its declared type.
    pub const TYPE_ANNOTATION: &str = "E0401";
    /// An argument that cannot have its parameter's type.
    pub const TYPE_ARGUMENT: &str = "E0402";
    /// A returned value that cannot have the declared return type.
    pub const TYPE_RETURN: &str = "E0403";
    /// An operator applied to operand types it fails on.
    pub const TYPE_OPERATOR: &str = "E0404";
    /// A call target that names nothing.
    pub const UNDEFINED_CALL: &str = "E0405";
    /// A variable that names nothing.
    pub const UNDEFINED_VARIABLE: &str = "E0406";
    /// A `match` on an enum that certainly misses a variant.
    pub const NON_EXHAUSTIVE: &str = "E0407";
    /// `try*` outside any function.
    pub const TRY_STAR_TOP_LEVEL: &str = "E0408";
    /// `yield` inside a `gen fn`.
    pub const YIELD_IN_STREAM: &str = "E0409";
    /// One generic parameter bound to two different types by one call.
    pub const GENERIC_CONFLICT: &str = "E0410";
    /// A type bound to `T` whose methods do not match `where T: Interface`.
    pub const INTERFACE: &str = "E0411";
    /// A generic parameter marked `in` / `out` in the wrong position.
    pub const VARIANCE: &str = "E0412";
    /// A field a closed schema (`additionalProperties: false`) rules out.
    pub const CLOSED_FIELD: &str = "E0413";
    /// `len()` of a lazy iterator (harnc refuses what the reference answers with 0).
    pub const LAZY_LEN: &str = "E0414";
    /// Warning: a call with more or fewer arguments than the function takes.
    pub const ARITY: &str = "W0401";
    /// Warning: a binding call's dict literal lacks a required key or has a key the
    /// closed input schema forbids (the argument gate refuses it at run time).
    pub const BINDING_ARGUMENTS: &str = "W0402";
    /// Warning: a field a known shape lacks, close to one it has.
    pub const UNKNOWN_FIELD: &str = "W0403";
    /// Warning: assignment to a `let` (fails at run time).
    pub const ASSIGN_TO_LET: &str = "W0404";
    /// Warning: `==` / `!=` between values of different known types.
    pub const MIXED_COMPARISON: &str = "W0405";
    /// Warning: a local `let`/`var` that is never read.
    pub const UNUSED: &str = "W0406";
    /// Warning: an attribute name the language does not know.
    pub const UNKNOWN_ATTRIBUTE: &str = "W0407";
}

/// The phase a diagnostic comes from, decided by its code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Lexing, layout and parsing.
    Syntax,
    /// Code-mode static validation.
    Validation,
    /// The type check.
    Type,
    /// Bytecode compilation.
    Compile,
}

/// The code-mode failure category of a static refusal (`code-mode.md` 4.9).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StaticCategory {
    CompileError,
    DeniedBuiltin,
    PolicyDenied,
}

impl Diagnostic {
    pub fn error(
        code: &'static str,
        message: impl Into<String>,
        span: Span,
        label: impl Into<String>,
    ) -> Self {
        Diagnostic {
            code,
            severity: Severity::Error,
            message: message.into(),
            primary: Label {
                span,
                message: label.into(),
            },
            secondary: Vec::new(),
            hint: None,
            fix: None,
        }
    }

    /// Attaches a fix: replacing `span` with `replacement`.
    pub fn with_fix(mut self, span: Span, replacement: impl Into<String>) -> Self {
        self.fix = Some(Fix {
            span,
            replacement: replacement.into(),
        });
        self
    }

    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    pub fn phase(&self) -> Phase {
        match self.code {
            codes::COMPILE => Phase::Compile,
            codes::DENIED_BUILTIN | codes::POLICY_DENIED | codes::SNIPPET => Phase::Validation,
            codes::TYPE_MISMATCH
            | codes::TYPE_ANNOTATION
            | codes::TYPE_ARGUMENT
            | codes::TYPE_RETURN
            | codes::TYPE_OPERATOR
            | codes::UNDEFINED_CALL
            | codes::UNDEFINED_VARIABLE
            | codes::NON_EXHAUSTIVE
            | codes::TRY_STAR_TOP_LEVEL
            | codes::YIELD_IN_STREAM
            | codes::GENERIC_CONFLICT
            | codes::INTERFACE
            | codes::VARIANCE
            | codes::CLOSED_FIELD
            | codes::LAZY_LEN
            | codes::ASSIGN_TO_LET
            | codes::MIXED_COMPARISON
            | codes::UNUSED
            | codes::UNKNOWN_ATTRIBUTE
            | codes::ARITY
            | codes::BINDING_ARGUMENTS
            | codes::UNKNOWN_FIELD => Phase::Type,
            _ => Phase::Syntax,
        }
    }

    /// The failure category a code-mode run reports when this diagnostic stops it.
    pub fn static_category(&self) -> StaticCategory {
        match self.code {
            codes::DENIED_BUILTIN => StaticCategory::DeniedBuiltin,
            codes::POLICY_DENIED => StaticCategory::PolicyDenied,
            _ => StaticCategory::CompileError,
        }
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// `file:line:col: error[E0100]: message` — stable, one line, for tools and tests.
    pub fn one_line(&self, file: &str, index: &LineIndex) -> String {
        let (line, col) = index.line_col(self.primary.span.start as usize);
        format!(
            "{file}:{line}:{col}: {}[{}]: {}",
            self.severity.as_str(),
            self.code,
            self.message
        )
    }

    /// A multi-line report with the source lines underlined. `color` selects ANSI colours.
    pub fn render(&self, file: &str, source: &str, color: bool) -> String {
        let kind = match self.severity {
            Severity::Error => ReportKind::Error,
            Severity::Warning => ReportKind::Warning,
        };
        let clamp = |span: Span| {
            let start = (span.start as usize).min(source.len());
            let end = (span.end as usize).clamp(start, source.len());
            (file, start..end)
        };
        let mut report = Report::build(kind, clamp(self.primary.span))
            .with_config(Config::default().with_color(color))
            .with_code(self.code)
            .with_message(&self.message)
            .with_label(
                AriadneLabel::new(clamp(self.primary.span))
                    .with_message(&self.primary.message)
                    .with_color(Color::Red),
            );
        for label in &self.secondary {
            report = report.with_label(
                AriadneLabel::new(clamp(label.span))
                    .with_message(&label.message)
                    .with_color(Color::Blue),
            );
        }
        if let Some(hint) = &self.hint {
            report = report.with_help(hint);
        }
        let mut buf = Vec::new();
        if report
            .finish()
            .write((file, Source::from(source)), &mut buf)
            .is_err()
        {
            let mut text = String::new();
            let _ = writeln!(text, "{}: {}", self.severity.as_str(), self.message);
            return text;
        }
        String::from_utf8_lossy(&buf).into_owned()
    }
}
