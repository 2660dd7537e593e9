//! Failures handed to Python: a code, a message and, for diagnostics, the spans; raised as
//! `physis.PhysisError` or `centl.CentlError` (classes defined in Python, so that users
//! subclass and catch them like any other exception).

use physis_syntax::{Code, Diagnostic, LineIndex};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// Which package's exception to raise.
#[derive(Debug, Clone, Copy)]
pub enum Family {
    /// `physis.PhysisError`.
    Physis,
    /// `centl.CentlError`.
    Centl,
}

/// A failure built without the GIL, turned into a Python exception with it.
#[derive(Debug)]
pub struct Failure {
    pub family: Family,
    /// Stable code (`PH0201`, `unit_mismatch`).
    pub code: String,
    pub message: String,
    /// Diagnostics and fields, when there are any (boxed: failures travel in `Result`s).
    pub extra: Option<Box<Extra>>,
}

/// What some failures carry besides their code and message.
#[derive(Debug, Default)]
pub struct Extra {
    /// Every diagnostic of a source that does not check (the first error is the failure).
    pub diagnostics: Vec<Diagnostic>,
    /// The source, to turn spans into lines and columns.
    pub source: Option<String>,
    /// Extra named fields (a protocol error's `path`, ...), as JSON.
    pub fields: Option<serde_json::Value>,
}

impl Failure {
    /// A Physis failure with `code`.
    pub fn physis(code: Code, message: impl Into<String>) -> Self {
        Self {
            family: Family::Physis,
            code: code.as_str().to_owned(),
            message: message.into(),
            extra: None,
        }
    }

    /// The failure of a source with error diagnostics.
    pub fn diagnostics(diagnostics: Vec<Diagnostic>, source: &str) -> Self {
        let first = diagnostics
            .iter()
            .find(|d| d.severity == physis_syntax::Severity::Error)
            .or(diagnostics.first());
        let (code, message) = first.map_or(("PH0122".to_owned(), String::new()), |d| {
            (d.code.as_str().to_owned(), d.message.clone())
        });
        Self {
            family: Family::Physis,
            code,
            message,
            extra: Some(Box::new(Extra {
                diagnostics,
                source: Some(source.to_owned()),
                fields: None,
            })),
        }
    }

    /// The Python exception.
    pub fn into_pyerr(self, py: Python<'_>) -> PyErr {
        match self.build(py) {
            Ok(e) => e,
            Err(e) => e,
        }
    }

    fn build(self, py: Python<'_>) -> PyResult<PyErr> {
        let (module, class) = match self.family {
            Family::Physis => ("physis._errors", "PhysisError"),
            Family::Centl => ("centl._errors", "CentlError"),
        };
        let cls = py.import(module)?.getattr(class)?;
        let kwargs = PyDict::new(py);
        let extra = self.extra.unwrap_or_default();
        let diags = PyList::empty(py);
        for d in &extra.diagnostics {
            diags.append(diagnostic_dict(py, d, extra.source.as_deref())?)?;
        }
        let first = extra
            .diagnostics
            .iter()
            .find(|d| d.severity == physis_syntax::Severity::Error);
        if let Some(d) = first {
            kwargs.set_item("span", (d.primary.span.start, d.primary.span.end))?;
            kwargs.set_item("hints", d.hints.clone())?;
            let related: Vec<(String, (u32, u32))> = d
                .secondary
                .iter()
                .map(|l| (l.message.clone(), (l.span.start, l.span.end)))
                .collect();
            kwargs.set_item("related", related)?;
        }
        kwargs.set_item("diagnostics", diags)?;
        if let Some(fields) = &extra.fields {
            kwargs.set_item("fields", fields.to_string())?;
        }
        let value = cls.call((self.code, self.message), Some(&kwargs))?;
        Ok(PyErr::from_value(value))
    }
}

/// A diagnostic as a dict: code, severity, message, span, line and column (1-based), label,
/// related spans and hints.
pub fn diagnostic_dict<'py>(
    py: Python<'py>,
    d: &Diagnostic,
    source: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    out.set_item("code", d.code.as_str())?;
    out.set_item("severity", d.severity.as_str())?;
    out.set_item("message", &d.message)?;
    out.set_item("span", (d.primary.span.start, d.primary.span.end))?;
    out.set_item("label", &d.primary.message)?;
    if let Some(source) = source {
        let at = LineIndex::new(source).line_col(source, d.primary.span.start as usize);
        out.set_item("line", at.line)?;
        out.set_item("column", at.column)?;
    }
    let related: Vec<(String, (u32, u32))> = d
        .secondary
        .iter()
        .map(|l| (l.message.clone(), (l.span.start, l.span.end)))
        .collect();
    out.set_item("related", related)?;
    out.set_item("hints", d.hints.clone())?;
    Ok(out)
}
