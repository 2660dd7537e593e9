//! The one diagnostic type of the language, shared by the parser and the checker.

use crate::code::Code;
use crate::span::Span;

/// How serious a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Severity {
    /// The file is not valid; nothing downstream runs.
    Error,
    /// The file is valid but something looks wrong.
    Warning,
}

impl Severity {
    /// Lower-case name, as in the JSON output (`"error"`, `"warning"`).
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// A span with a short message, drawn under the source line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    /// Where.
    pub span: Span,
    /// What to say there (may be empty).
    pub message: String,
}

/// One finding: a code, a severity, a primary span and message, labelled secondary spans and
/// hints. Built with [`Diagnostic::error`] and the `with_*` methods.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Stable code, e.g. `PH0104`.
    pub code: Code,
    /// Error or warning.
    pub severity: Severity,
    /// The main message, one line, lower case, no final period.
    pub message: String,
    /// The span the message is about, with an optional label.
    pub primary: Label,
    /// Other places that explain the finding ("first declared here").
    pub secondary: Vec<Label>,
    /// Suggestions, printed as `= help: ...`.
    pub hints: Vec<String>,
}

impl Diagnostic {
    /// An error with `code` at `span`.
    pub fn error(code: Code, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            code,
            severity: Severity::Error,
            message: message.into(),
            primary: Label {
                span,
                message: String::new(),
            },
            secondary: Vec::new(),
            hints: Vec::new(),
        }
    }

    /// A warning with `code` at `span`.
    pub fn warning(code: Code, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, span, message)
        }
    }

    /// Set the label under the primary span.
    pub fn with_label(mut self, message: impl Into<String>) -> Diagnostic {
        self.primary.message = message.into();
        self
    }

    /// Add a labelled secondary span.
    pub fn with_secondary(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.secondary.push(Label {
            span,
            message: message.into(),
        });
        self
    }

    /// Add a hint.
    pub fn with_hint(mut self, hint: impl Into<String>) -> Diagnostic {
        self.hints.push(hint.into());
        self
    }

    /// Whether this is an error (as opposed to a warning).
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// Whether any diagnostic in the list is an error.
pub fn has_errors(diagnostics: &[Diagnostic]) -> bool {
    diagnostics.iter().any(Diagnostic::is_error)
}
