//! Physis checking: a parsed file in, a [`Program`] of checked models out.
//!
//! Second stage of syntax → check → symbolic → IR → run. [`check_source`] parses a `.hph`
//! text with `physis-syntax`, adds the prelude schemes ([`prelude`]), resolves every name,
//! infers and checks the dimension and shape of every expression and clause, converts every
//! literal to SI base units once, and applies the model rules PH0101–PH0117. What it hands on,
//! [`CheckedModel`], knows everything a run needs: states in order with sizes, which state is
//! the velocity or momentum of which, what moves each state, the scheme and settings, records,
//! observes, stops and events with their source text and line, named runs with SI overrides,
//! and the mechanics (lagrangian, hamiltonian, dissipation, efforts) for the symbolic stage.

mod absolute;
mod builtins;
mod clauses;
pub mod constants;
pub mod eval;
pub mod expr;
mod infer;
mod jacobian_use;
pub mod model;
pub mod prelude;
mod rules;
pub mod scheme;
mod scope;
mod simulate;
pub mod types;

pub use expr::{
    ArithOp, Builtin, CmpOp, Cond, Expr, ExprKind, LocalId, NoiseId, ObserveId, ParamId, SchemeFn,
    SchemeInput, Shape, StateId,
};
pub use model::*;
pub use physis_syntax::{Code, Diagnostic, Severity};

use physis_syntax::ast::{File, Item};
use physis_syntax::{LineIndex, Span};
use std::sync::Arc;

/// Tolerance of adaptive schemes when the integrate clause gives none (and of the default
/// `rk45` when there is no integrate clause).
pub const DEFAULT_TOLERANCE: f64 = 1e-8;

/// Names of the runtime's own types, which a simulation may not take (PH0111).
pub const RESERVED_TYPE_NAMES: &[&str] =
    &["Params", "Run", "Sample", "Reason", "Ensemble", "Model"];

/// Suffixes of the types the build step generates beside a simulation's own (`Foo` gives
/// `FooParams`, `FooState`, ...): a simulation may not be named like one of another's
/// (PH0111).
pub const GENERATED_SUFFIXES: &[&str] = &[
    "Params", "State", "Sample", "Run", "Stream", "Columns", "Lanes",
];

/// The type generated for simulation `a` that simulation `b` would also generate (as its
/// own type), if any.
fn generated_clash(a: &str, b: &str) -> Option<&'static str> {
    let rest = b.strip_prefix(a)?;
    GENERATED_SUFFIXES.iter().copied().find(|s| *s == rest)
}

/// Modules `open` accepts (both always in scope).
const MODULES: &[&str] = &["Physis.Constants", "Physis.Schemes"];

/// The result of checking one source: the program (complete only without errors) and every
/// diagnostic of parsing and checking, in source order.
#[derive(Clone, Debug)]
pub struct Checked {
    /// Schemes and models.
    pub program: Program,
    /// Syntax and check diagnostics.
    pub diagnostics: Vec<Diagnostic>,
}

impl Checked {
    /// Whether any diagnostic is an error (then the program must not be run).
    pub fn has_errors(&self) -> bool {
        physis_syntax::has_errors(&self.diagnostics)
    }
}

/// Parse and check a source text.
pub fn check_source(source: &str) -> Checked {
    let parsed = physis_syntax::parse(source);
    let (program, mut diagnostics) = check_file(&parsed.file, source);
    diagnostics.extend(parsed.diagnostics);
    diagnostics.sort_by_key(|d| (d.primary.span.start, d.code));
    Checked {
        program,
        diagnostics,
    }
}

/// Check a parsed file (`source` is its text, for clause texts and lines).
pub fn check_file(file: &File, source: &str) -> (Program, Vec<Diagnostic>) {
    let lines = LineIndex::new(source);
    let mut diags = Vec::new();
    let mut schemes: Vec<Arc<CheckedScheme>> = prelude::schemes().to_vec();
    let builtin_count = schemes.len();
    for item in &file.items {
        match item {
            Item::Open(open) => {
                let path: Vec<&str> = open.path.iter().map(|n| n.text.as_str()).collect();
                let path = path.join(".");
                if !MODULES.contains(&path.as_str()) {
                    diags.push(
                        Diagnostic::warning(
                            Code::UnknownModule,
                            open.span,
                            format!("unknown module `{path}`; nothing is opened"),
                        )
                        .with_hint("Physis.Constants and Physis.Schemes are always in scope"),
                    );
                }
            }
            Item::Scheme(decl) => {
                let scheme = scheme::check_scheme(decl, false, &mut diags);
                if let Some(prev) = schemes[builtin_count..]
                    .iter()
                    .find(|s| s.name == scheme.name)
                {
                    diags.push(
                        Diagnostic::error(
                            Code::Duplicate,
                            decl.name.span,
                            format!("scheme `{}` is declared twice", scheme.name),
                        )
                        .with_secondary(prev.span, "first declared here"),
                    );
                    continue;
                }
                schemes.push(Arc::new(scheme));
            }
            _ => {}
        }
    }
    let mut models: Vec<CheckedModel> = Vec::new();
    let mut names: Vec<(String, Span)> = Vec::new();
    for item in &file.items {
        let Item::Simulate(sim) = item else { continue };
        let key = sim.name.key();
        if let Some((_, prev)) = names.iter().find(|(k, _)| *k == key) {
            diags.push(
                Diagnostic::error(
                    Code::DuplicateSimulation,
                    sim.name.span,
                    format!("a simulation named `{key}` already exists"),
                )
                .with_label("generates the same class")
                .with_secondary(*prev, "first declared here"),
            );
        } else if let Some((other, span, suffix)) = names.iter().find_map(|(k, span)| {
            generated_clash(k, &key)
                .map(|s| (k, span, s))
                .or_else(|| generated_clash(&key, k).map(|s| (&key, span, s)))
        }) {
            diags.push(
                Diagnostic::error(
                    Code::DuplicateSimulation,
                    sim.name.span,
                    format!(
                        "`{other}{suffix}` is generated both for a simulation and as a type \
                         of simulation `{other}`"
                    ),
                )
                .with_label("generates the same class")
                .with_secondary(*span, "declared here")
                .with_hint(format!(
                    "simulation `X` also generates X{}",
                    GENERATED_SUFFIXES.join(", X")
                )),
            );
        } else if RESERVED_TYPE_NAMES.contains(&key.as_str()) {
            diags.push(
                Diagnostic::error(
                    Code::DuplicateSimulation,
                    sim.name.span,
                    format!("`{key}` is the name of a runtime type"),
                )
                .with_hint(format!("reserved: {}", RESERVED_TYPE_NAMES.join(", "))),
            );
        }
        names.push((key, sim.name.span));
        models.push(simulate::check_simulate(
            sim, source, &lines, &schemes, &mut diags,
        ));
    }
    (Program { schemes, models }, diags)
}
