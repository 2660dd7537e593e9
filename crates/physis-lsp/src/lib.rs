//! The Physis language server.
//!
//! [`analysis`] answers what an editor asks about one source text — diagnostics (the same
//! front door as `physis check`), hover with the dimension and SI unit of any expression,
//! completion, definitions and references, formatting and fixes — as plain functions with
//! byte spans, so other front ends (the studio) can reuse it. [`server`] is the thin LSP loop
//! over stdio (`physis lsp`); [`position`] and [`convert`] translate spans to UTF-16 ranges.

pub mod analysis;
pub mod convert;
pub mod position;
pub mod server;

pub use analysis::Analysis;
pub use server::{ServerError, run_stdio, serve};
