//! Renderers: rustc-style text (through `codespan-reporting`) and the JSON of DESIGN §2.4.

use crate::diagnostic::{Diagnostic, Severity};
use crate::span::LineIndex;
use codespan_reporting::diagnostic as cs;
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term;
use serde::Serialize;

/// Render diagnostics like rustc (`error[PH0104]: ...` with the source line and carets), one
/// after the other, without colour.
pub fn render_text(diagnostics: &[Diagnostic], file_name: &str, source: &str) -> String {
    // A lone `\r` ends a line for the lexer; show it so (same length, so spans stay put).
    let lines = lone_cr_as_newline(source);
    let file = SimpleFile::new(file_name, lines.as_str());
    let config = term::Config::default();
    let mut out = String::new();
    for d in diagnostics {
        let rendered = term::emit_into_string(&config, &file, &to_codespan(d, source.len()));
        match rendered {
            Ok(text) => out.push_str(&text),
            // Only a span outside the file can fail here; fall back to a plain line.
            Err(_) => out.push_str(&format!(
                "{}[{}]: {}\n",
                d.severity.as_str(),
                d.code,
                d.message
            )),
        }
    }
    out
}

/// `source` with every `\r` not followed by `\n` replaced by `\n`.
fn lone_cr_as_newline(source: &str) -> String {
    let mut out = String::with_capacity(source.len());
    let mut chars = source.chars().peekable();
    while let Some(c) = chars.next() {
        out.push(if c == '\r' && chars.peek() != Some(&'\n') {
            '\n'
        } else {
            c
        });
    }
    out
}

fn to_codespan(d: &Diagnostic, len: usize) -> cs::Diagnostic<()> {
    let clamp = |r: std::ops::Range<usize>| r.start.min(len)..r.end.min(len);
    let severity = match d.severity {
        Severity::Error => cs::Severity::Error,
        Severity::Warning => cs::Severity::Warning,
    };
    let mut labels = vec![
        cs::Label::primary((), clamp(d.primary.span.range())).with_message(&d.primary.message),
    ];
    labels.extend(
        d.secondary
            .iter()
            .map(|l| cs::Label::secondary((), clamp(l.span.range())).with_message(&l.message)),
    );
    cs::Diagnostic::new(severity)
        .with_code(d.code.as_str())
        .with_message(&d.message)
        .with_labels(labels)
        .with_notes(d.hints.iter().map(|h| format!("help: {h}")).collect())
}

/// One diagnostic in the JSON output.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct JsonDiagnostic {
    /// The file, present only when several files are reported together.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// `PH0104`.
    pub code: String,
    /// `error` or `warning`.
    pub severity: String,
    /// 1-based line of the primary span's start.
    pub line: u32,
    /// 1-based column, in characters.
    pub column: u32,
    /// The message.
    pub message: String,
}

/// Diagnostics of one source as JSON records (line and column of each primary span).
pub fn json_records(
    diagnostics: &[Diagnostic],
    file: Option<&str>,
    source: &str,
) -> Vec<JsonDiagnostic> {
    let index = LineIndex::new(source);
    diagnostics
        .iter()
        .map(|d| {
            let at = index.line_col(source, d.primary.span.start as usize);
            JsonDiagnostic {
                file: file.map(str::to_string),
                code: d.code.as_str().to_string(),
                severity: d.severity.as_str().to_string(),
                line: at.line,
                column: at.column,
                message: d.message.clone(),
            }
        })
        .collect()
}

/// Diagnostics of one source as a JSON array:
/// `[{"code":"PH0104","severity":"error","line":3,"column":1,"message":"..."}]`.
pub fn render_json(diagnostics: &[Diagnostic], source: &str) -> String {
    serde_json::to_string(&json_records(diagnostics, None, source))
        .unwrap_or_else(|_| "[]".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code::Code;
    use crate::span::Span;

    #[test]
    fn json_has_the_contract_fields_and_character_columns() {
        let src = "law α' = x\n  stop when β";
        let at = src.find('β').unwrap();
        let d = Diagnostic::error(Code::UnknownName, Span::new(at, at + 2), "unknown name `β`");
        assert_eq!(
            render_json(&[d], src),
            r#"[{"code":"PH0201","severity":"error","line":2,"column":13,"message":"unknown name `β`"}]"#
        );
    }

    #[test]
    fn text_is_rustc_style() {
        let src = "a + b\n";
        let d = Diagnostic::error(Code::NoStop, Span::new(4, 5), "no stop").with_label("here");
        let text = render_text(&[d], "f.hph", src);
        assert!(text.starts_with("error[PH0104]: no stop\n"), "{text}");
        assert!(text.contains("f.hph:1:5"), "{text}");
    }
}
