//! What a source text gives an editor, as plain functions over the text with byte spans: no
//! LSP types here, so the studio can reuse them. [`Analysis::new`] checks once through the
//! front door `physis check` uses; the other methods answer from that.

pub mod actions;
pub mod complete;
pub mod front;
pub mod hover;
pub mod symbols;
pub mod walk;

use physis_check::Checked;
use physis_check::modules::{FilesIn, Module, ModuleFiles, NoFiles};
use physis_check::types::TypeTable;
use physis_syntax::ast::File;
use physis_syntax::{Diagnostic, Span};
use std::path::Path;
use std::sync::Arc;
use symbols::Symbols;

/// Whether byte `offset` is inside `span` or at its end (a cursor just after a name is on it).
pub fn contains(span: Span, offset: usize) -> bool {
    span.start as usize <= offset && offset <= span.end as usize
}

/// One source text, checked.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The text.
    pub source: String,
    /// Its syntax tree.
    pub file: File,
    /// Its checked program and every diagnostic of parsing, checking and lowering.
    pub checked: Checked,
    /// The type of every expression node the checker accepted.
    pub types: TypeTable,
    /// Declarations and uses of names.
    pub symbols: Symbols,
    /// The modules the text sees: the standard library, its own, and the module files its
    /// `open`s read.
    pub modules: Vec<Arc<Module>>,
    /// The modules it opens.
    pub opened: Vec<String>,
}

/// A replacement of a span of the source by a text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    /// What is replaced (empty for an insertion).
    pub span: Span,
    /// The new text.
    pub text: String,
}

impl Analysis {
    /// Parse and check `source`, a text with no folder (its `open`s find no module files).
    pub fn new(source: String) -> Analysis {
        Analysis::with_files(source, &NoFiles)
    }

    /// Parse and check `source`, the text of the file at `path`: `open Motors` reads
    /// `Motors.hph` beside it, as `physis check` does.
    pub fn at(source: String, path: &Path) -> Analysis {
        Analysis::with_files(source, &FilesIn::beside(path))
    }

    fn with_files(source: String, files: &dyn ModuleFiles) -> Analysis {
        let file = physis_syntax::parse(&source).file;
        let (checked, types) = front::check_in(&source, files);
        let (modules, opened) = physis_check::modules::visible(&source, files);
        let symbols = Symbols::new(&file);
        Analysis {
            source,
            file,
            checked,
            types,
            symbols,
            modules,
            opened,
        }
    }

    /// What stands for the analysis of `source` when analysing it failed (a panic the server
    /// caught): no tree, no types, and one PH0122 diagnostic saying `message`.
    pub fn failed(source: String, message: String) -> Analysis {
        let file = File::default();
        let symbols = Symbols::new(&file);
        let diagnostic = Diagnostic::error(physis_syntax::Code::Internal, Span::new(0, 0), message);
        Analysis {
            source,
            file,
            checked: Checked {
                program: Default::default(),
                diagnostics: vec![diagnostic],
            },
            types: TypeTable::default(),
            symbols,
            modules: Vec::new(),
            opened: Vec::new(),
        }
    }

    /// Every diagnostic, as `physis check` reports them.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.checked.diagnostics
    }

    /// The declaration of the name at `offset`: its name's span.
    pub fn definition(&self, offset: usize) -> Option<Span> {
        let i = self.symbols.symbol_at(offset)?;
        Some(self.symbols.symbols[i].name)
    }

    /// Every reference to the name at `offset`, its declaration first when asked for.
    pub fn references(&self, offset: usize, include_declaration: bool) -> Vec<Span> {
        let Some(i) = self.symbols.symbol_at(offset) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        if include_declaration {
            out.push(self.symbols.symbols[i].name);
        }
        out.extend(self.symbols.uses_of(i));
        out
    }

    /// The edit that puts the whole text in the canonical layout of `physis fmt`, if it is not.
    pub fn format(&self) -> Option<Edit> {
        let formatted = physis_syntax::format::format(&self.source);
        (formatted != self.source).then(|| Edit {
            span: Span::new(0, self.source.len()),
            text: formatted,
        })
    }
}
