//! The analysis's plain results as LSP types: byte spans become UTF-16 ranges.

use crate::analysis::complete::{Completion, CompletionKind};
use crate::analysis::{Analysis, Edit};
use crate::position::range;
use lsp_types as lsp;
use physis_syntax::{Diagnostic, Severity};

/// A diagnostic with its code, secondary spans as related information and hints appended.
pub fn diagnostic(a: &Analysis, uri: &lsp::Uri, d: &Diagnostic) -> lsp::Diagnostic {
    let mut message = d.message.clone();
    if !d.primary.message.is_empty() {
        message.push_str(&format!(" ({})", d.primary.message));
    }
    for h in &d.hints {
        message.push_str(&format!("\nhelp: {h}"));
    }
    let related: Vec<lsp::DiagnosticRelatedInformation> = d
        .secondary
        .iter()
        .map(|l| lsp::DiagnosticRelatedInformation {
            location: lsp::Location::new(uri.clone(), range(&a.source, l.span)),
            message: if l.message.is_empty() {
                "related".into()
            } else {
                l.message.clone()
            },
        })
        .collect();
    lsp::Diagnostic {
        range: range(&a.source, d.primary.span),
        severity: Some(match d.severity {
            Severity::Error => lsp::DiagnosticSeverity::ERROR,
            _ => lsp::DiagnosticSeverity::WARNING,
        }),
        code: Some(lsp::NumberOrString::String(d.code.as_str().to_string())),
        source: Some("physis".into()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        ..Default::default()
    }
}

/// An edit as a text edit.
pub fn edit(a: &Analysis, e: &Edit) -> lsp::TextEdit {
    lsp::TextEdit::new(range(&a.source, e.span), e.text.clone())
}

/// A completion as a completion item replacing the typed prefix.
pub fn completion(a: &Analysis, c: &Completion) -> lsp::CompletionItem {
    let kind = match c.kind {
        CompletionKind::Unit => lsp::CompletionItemKind::UNIT,
        CompletionKind::Kind => lsp::CompletionItemKind::CLASS,
        CompletionKind::Scheme => lsp::CompletionItemKind::FUNCTION,
        CompletionKind::Module => lsp::CompletionItemKind::MODULE,
        CompletionKind::Variable => lsp::CompletionItemKind::VARIABLE,
        CompletionKind::Constant => lsp::CompletionItemKind::CONSTANT,
        CompletionKind::Function => lsp::CompletionItemKind::FUNCTION,
        CompletionKind::Keyword => lsp::CompletionItemKind::KEYWORD,
        CompletionKind::Spelling => lsp::CompletionItemKind::TEXT,
    };
    lsp::CompletionItem {
        label: c.label.clone(),
        kind: Some(kind),
        detail: c.detail.clone(),
        filter_text: Some(c.label.clone()),
        text_edit: Some(lsp::CompletionTextEdit::Edit(lsp::TextEdit::new(
            range(&a.source, c.replace),
            c.insert.clone(),
        ))),
        ..Default::default()
    }
}
