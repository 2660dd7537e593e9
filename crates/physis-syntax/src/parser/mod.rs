//! The parser: tokens to a [`File`], recovering at clause boundaries so that every error in a
//! file is reported in one pass. It never panics: errors become diagnostics and the clause is
//! skipped to the end of its line.

mod clause;
mod expr;
mod module;

use crate::ast::{Binding, Expr, ExprKind, File, Item, Name, Open, SchemeDecl, Simulate};
use crate::code::Code;
use crate::diagnostic::Diagnostic;
use crate::lexer::lex;
use crate::span::Span;
use crate::token::{Token, TokenKind};

/// Deepest nesting of expressions the parser accepts (PH0004 beyond it).
pub const MAX_DEPTH: u32 = 256;

/// Most tokens one expression may span (PH0007 beyond it). A flat chain such as
/// `a·b·c·…` nests as deep as it is long in the tree, so this also bounds the depth every later
/// pass (checker, symbolic layer, lowering, code generation) recurses to.
pub const MAX_EXPR_TOKENS: usize = 1024;

/// The result of parsing: the tree (with failed clauses left out) and every diagnostic.
#[derive(Clone, Debug)]
pub struct Parsed {
    /// The syntax tree.
    pub file: File,
    /// Lexer and parser diagnostics, in source order.
    pub diagnostics: Vec<Diagnostic>,
}

/// Parse a whole source text.
pub fn parse(source: &str) -> Parsed {
    if u32::try_from(source.len()).is_err() {
        let diagnostic = Diagnostic::error(
            Code::UnexpectedToken,
            Span::new(0, 0),
            "source larger than 4 GiB",
        );
        return Parsed {
            file: File::default(),
            diagnostics: vec![diagnostic],
        };
    }
    let (tokens, diagnostics) = lex(source);
    let mut parser = Parser {
        source: source.to_string(),
        tokens,
        pos: 0,
        nesting: 0,
        depth: 0,
        expr_start: 0,
        diagnostics,
    };
    let file = parser.file();
    let mut diagnostics = parser.diagnostics;
    diagnostics.sort_by_key(|d| d.primary.span.start);
    Parsed { file, diagnostics }
}

/// A parse failure whose diagnostic has already been recorded.
#[derive(Debug)]
pub(crate) struct Failed;

pub(crate) type PResult<T> = Result<T, Failed>;

pub(crate) struct Parser {
    /// The source, for the text of units.
    source: String,
    tokens: Vec<Token>,
    pos: usize,
    /// Open brackets inside the current clause; newlines are insignificant while it is > 0.
    nesting: u32,
    /// Expression recursion depth, capped at [`MAX_DEPTH`].
    depth: u32,
    /// Token position where the outermost expression being parsed began.
    expr_start: usize,
    diagnostics: Vec<Diagnostic>,
}

impl Parser {
    fn skip_insignificant(&mut self) {
        if self.nesting > 0 {
            while self.tokens[self.pos].kind == TokenKind::Newline {
                self.pos += 1;
            }
        }
    }

    /// The current token (newlines skipped inside brackets).
    pub(crate) fn peek(&mut self) -> &Token {
        self.skip_insignificant();
        &self.tokens[self.pos]
    }

    /// The kind of the current token.
    pub(crate) fn kind(&mut self) -> &TokenKind {
        &self.peek().kind
    }

    /// The token after the current one, without skipping anything.
    pub(crate) fn peek_next(&mut self) -> &Token {
        self.skip_insignificant();
        let i = (self.pos + 1).min(self.tokens.len() - 1);
        &self.tokens[i]
    }

    pub(crate) fn span(&mut self) -> Span {
        self.peek().span
    }

    /// Span of the last consumed token.
    pub(crate) fn prev_span(&self) -> Span {
        self.tokens[self.pos.saturating_sub(1)].span
    }

    pub(crate) fn bump(&mut self) -> Token {
        self.skip_insignificant();
        let token = self.tokens[self.pos].clone();
        if token.kind != TokenKind::Eof {
            self.pos += 1;
        }
        token
    }

    pub(crate) fn at(&mut self, kind: &TokenKind) -> bool {
        self.kind() == kind
    }

    pub(crate) fn eat(&mut self, kind: &TokenKind) -> bool {
        if self.at(kind) {
            self.bump();
            true
        } else {
            false
        }
    }

    /// Whether the current token is the bare word `word`.
    pub(crate) fn at_word(&mut self, word: &str) -> bool {
        matches!(self.kind(), TokenKind::Ident { name, primes: 0 } if name == word)
    }

    pub(crate) fn eat_word(&mut self, word: &str) -> bool {
        if self.at_word(word) {
            self.bump();
            true
        } else {
            false
        }
    }

    pub(crate) fn error(&mut self, code: Code, span: Span, message: impl Into<String>) -> Failed {
        self.diagnostics
            .push(Diagnostic::error(code, span, message));
        Failed
    }

    pub(crate) fn push(&mut self, diagnostic: Diagnostic) {
        self.diagnostics.push(diagnostic);
    }

    /// Report "expected X, found Y" at the current token. Error tokens were already reported
    /// by the lexer, so they fail silently.
    pub(crate) fn expected(&mut self, what: &str) -> Failed {
        let token = self.peek().clone();
        if let TokenKind::Error(_) = token.kind {
            return Failed;
        }
        let message = format!("expected {what}, found {}", token.kind.describe());
        self.diagnostics.push(
            Diagnostic::error(Code::UnexpectedToken, token.span, message)
                .with_label(format!("expected {what}")),
        );
        Failed
    }

    pub(crate) fn expect(&mut self, kind: &TokenKind) -> PResult<Span> {
        if self.at(kind) {
            Ok(self.bump().span)
        } else {
            Err(self.expected(&format!("`{}`", kind.symbol())))
        }
    }

    /// Either spelling of a binding: `≔`/`:=` or `=`.
    pub(crate) fn expect_assign(&mut self) -> PResult<()> {
        if self.eat(&TokenKind::Assign) || self.eat(&TokenKind::Eq) {
            Ok(())
        } else {
            Err(self.expected("`≔`"))
        }
    }

    /// A name; primes are allowed only when `primes` is true.
    pub(crate) fn name(&mut self, what: &str, primes: bool) -> PResult<Name> {
        match self.kind().clone() {
            TokenKind::Ident { name, primes: p } if primes || p == 0 => {
                let span = self.bump().span;
                Ok(Name {
                    text: name,
                    primes: p,
                    span,
                })
            }
            TokenKind::Ident { .. } => {
                let span = self.span();
                Err(self.error(
                    Code::UnexpectedToken,
                    span,
                    format!("{what} cannot carry primes"),
                ))
            }
            _ => Err(self.expected(what)),
        }
    }

    pub(crate) fn skip_newlines(&mut self) {
        while matches!(self.kind(), TokenKind::Newline | TokenKind::Semi) {
            self.bump();
        }
    }

    /// Whether the current token ends a clause.
    pub(crate) fn at_clause_end(&mut self) -> bool {
        matches!(
            self.kind(),
            TokenKind::Newline | TokenKind::Semi | TokenKind::RBrace | TokenKind::Eof
        )
    }

    /// An expression, or after an error an [`ExprKind::Error`] placeholder with the rest of the
    /// clause skipped: declarations survive a bad value.
    pub(crate) fn expr_or_error(&mut self) -> Expr {
        let start = self.span();
        match self.expr() {
            Ok(e) => e,
            Err(Failed) => {
                self.recover();
                Expr {
                    kind: ExprKind::Error,
                    span: start.to(self.prev_span()),
                }
            }
        }
    }

    /// After an error: forget open brackets and skip to the end of the line. When the failing
    /// token already starts a new line (brackets swallowed the newline) stay there.
    pub(crate) fn recover(&mut self) {
        self.nesting = 0;
        self.depth = 0;
        if self.pos > 0 && self.tokens[self.pos - 1].kind == TokenKind::Newline {
            return;
        }
        while !self.at_clause_end() {
            self.bump();
        }
    }

    fn file(&mut self) -> File {
        let mut items = Vec::new();
        loop {
            self.skip_newlines();
            let start = self.span();
            let item = match self.kind().clone() {
                TokenKind::Eof => break,
                TokenKind::Ident { name, primes: 0 } if name == "open" => {
                    self.open().map(Item::Open)
                }
                TokenKind::Ident { name, primes: 0 } if name == "simulate" => {
                    self.simulate().map(Item::Simulate)
                }
                TokenKind::Ident { name, primes: 0 } if name == "scheme" => {
                    self.scheme().map(Item::Scheme)
                }
                TokenKind::Ident { name, primes: 0 } if name == "module" => {
                    self.module().map(Item::Module)
                }
                TokenKind::Error(_) => Err(Failed),
                _ => Err(self.error(
                    Code::UnknownClause,
                    start,
                    "expected `open`, `simulate`, `scheme` or `module` at the top level",
                )),
            };
            match item {
                Ok(item) => items.push(item),
                Err(Failed) => self.skip_to_item(),
            }
        }
        File { items }
    }

    /// Skip lines until one that starts a top-level item, so foreign text yields one error.
    fn skip_to_item(&mut self) {
        self.nesting = 0;
        self.depth = 0;
        loop {
            match self.kind() {
                TokenKind::Eof => return,
                TokenKind::Newline => {
                    self.bump();
                    if self.at_word("open")
                        || self.at_word("simulate")
                        || self.at_word("scheme")
                        || self.at_word("module")
                    {
                        return;
                    }
                }
                _ => {
                    self.bump();
                }
            }
        }
    }

    fn open(&mut self) -> PResult<Open> {
        let start = self.bump().span;
        let mut path = vec![self.name("a module name", false)?];
        while self.eat(&TokenKind::Dot) {
            path.push(self.name("a module name", false)?);
        }
        self.end_clause()?;
        Ok(Open {
            path,
            span: start.to(self.prev_span()),
        })
    }

    /// Require the end of a clause (without consuming a closing brace).
    pub(crate) fn end_clause(&mut self) -> PResult<()> {
        let after_recovery = self.pos > 0 && self.tokens[self.pos - 1].kind == TokenKind::Newline;
        if self.at_clause_end() || after_recovery {
            Ok(())
        } else {
            Err(self.expected("end of line"))
        }
    }

    fn simulate(&mut self) -> PResult<Simulate> {
        let start = self.bump().span;
        let name = self.name("a simulation name", false)?;
        let open = self.expect(&TokenKind::LBrace)?;
        let clauses = self.block(open, Self::clause);
        Ok(Simulate {
            name,
            clauses,
            span: start.to(self.prev_span()),
        })
    }

    pub(super) fn scheme(&mut self) -> PResult<SchemeDecl> {
        let start = self.bump().span;
        let name = self.name("a scheme name", false)?;
        let mut stable = None;
        let mut order = None;
        loop {
            if self.eat_word("stable") {
                let span = self.span();
                match self.kind().clone() {
                    TokenKind::Number(v) => {
                        self.bump();
                        stable = Some((v, span));
                    }
                    _ => return Err(self.expected("a stability radius")),
                }
            } else if self.at(&TokenKind::Lt) {
                self.bump();
                let span = self.span();
                match self.kind().clone() {
                    TokenKind::Number(v) => {
                        self.bump();
                        order = Some((v, span));
                    }
                    _ => return Err(self.expected("an order")),
                }
                self.expect(&TokenKind::Gt)?;
            } else {
                break;
            }
        }
        let open = self.expect(&TokenKind::LBrace)?;
        let body = self.block(open, |p| {
            let name = p.name("a name", false)?;
            p.expect_assign()?;
            let value = p.expr()?;
            Ok(Binding { name, value })
        });
        Ok(SchemeDecl {
            name,
            stable,
            order,
            body,
            span: start.to(self.prev_span()),
        })
    }

    /// Lines of a `{ ... }` block inside a simulation or scheme, each parsed by `line`.
    fn block<T>(&mut self, open: Span, line: impl FnMut(&mut Self) -> PResult<T>) -> Vec<T> {
        self.block_until(open, &["simulate", "scheme", "module"], line)
    }

    /// Lines of a `{ ... }` block, each parsed by `line`; consumes the closing brace. A line
    /// starting with one of `ends` begins a new top-level item: the block was never closed.
    pub(super) fn block_until<T>(
        &mut self,
        open: Span,
        ends: &[&str],
        mut line: impl FnMut(&mut Self) -> PResult<T>,
    ) -> Vec<T> {
        let mut out = Vec::new();
        loop {
            self.skip_newlines();
            match self.kind() {
                TokenKind::RBrace => {
                    self.bump();
                    return out;
                }
                TokenKind::Eof => {
                    let span = self.span();
                    self.push(
                        Diagnostic::error(Code::UnclosedDelimiter, span, "unclosed `{`")
                            .with_label("the file ends here")
                            .with_secondary(open, "opened here"),
                    );
                    return out;
                }
                _ => {}
            }
            if ends.iter().any(|w| self.at_word(w)) {
                let span = self.span();
                self.push(
                    Diagnostic::error(Code::UnclosedDelimiter, span, "unclosed `{`")
                        .with_label("a new declaration starts here")
                        .with_secondary(open, "opened here"),
                );
                return out;
            }
            let before = self.pos;
            match line(self) {
                Ok(item) => {
                    // Junk after a complete clause is reported, but the clause is kept so
                    // that its declaration does not cascade into unknown-name errors.
                    if self.end_clause().is_err() {
                        self.recover();
                    }
                    out.push(item);
                }
                Err(Failed) => {
                    if self.pos == before
                        && !matches!(self.kind(), TokenKind::RBrace | TokenKind::Eof)
                    {
                        // Nothing was consumed: step over the offending token so the loop ends.
                        self.bump();
                    }
                    self.recover();
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
