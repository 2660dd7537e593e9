//! Physis syntax: source text in, a syntax tree and diagnostics out.
//!
//! The pipeline of the language is syntax → check → symbolic → IR → run. This crate is the
//! first stage: [`lexer`] splits text into tokens, [`parser`] builds an [`ast::File`] without
//! ever giving up (a bad clause is reported and skipped), and [`Diagnostic`] is the one
//! diagnostic type of every later stage, rendered by [`render`] like rustc or as JSON.
//! See the crate README for the grammar and the decisions the manual leaves open.

pub mod ast;
pub mod code;
pub mod diagnostic;
pub mod format;
pub mod lexer;
pub mod parser;
pub mod render;
pub mod source_size;
pub mod span;
pub mod token;
pub mod utf8;

pub use code::Code;
pub use diagnostic::{Diagnostic, Label, Severity, has_errors};
pub use parser::{Parsed, parse};
pub use source_size::{MAX_SOURCE_BYTES, read_source_bytes};
pub use span::{LineCol, LineIndex, Span};
pub use utf8::decode_source;
