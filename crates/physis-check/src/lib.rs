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
mod arrays;
mod builtins;
mod clauses;
pub mod constants;
pub mod eval;
pub mod expr;
mod infer;
mod inline;
mod jacobian_use;
pub mod model;
pub mod modules;
pub mod prelude;
mod rates;
mod rules;
pub mod scheme;
mod scope;
mod simulate;
pub mod sums;
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

/// Parse and check a source text (its `open`s find no module files; see
/// [`check_source_with`]).
pub fn check_source(source: &str) -> Checked {
    check_source_with(source, &modules::NoFiles)
}

/// Parse and check a source text whose `open`s may read module files from `files`.
pub fn check_source_with(source: &str, files: &dyn modules::ModuleFiles) -> Checked {
    check_source_as(source, files, &Overrides::default())
}

/// [`check_source_with`], with settings given from outside the text (a command line) in
/// place of its own, checked as if the text said them.
pub fn check_source_as(
    source: &str,
    files: &dyn modules::ModuleFiles,
    overrides: &Overrides,
) -> Checked {
    let parsed = physis_syntax::parse(source);
    let (program, mut diagnostics) = check_file_as(&parsed.file, source, files, overrides);
    diagnostics.extend(parsed.diagnostics);
    diagnostics.sort_by_key(|d| (d.primary.span.start, d.code));
    Checked {
        program,
        diagnostics,
    }
}

/// Check a parsed file (`source` is its text, for clause texts and lines).
pub fn check_file(file: &File, source: &str) -> (Program, Vec<Diagnostic>) {
    check_file_with(file, source, &modules::NoFiles)
}

/// Check a parsed file whose `open`s may read module files from `files`.
pub fn check_file_with(
    file: &File,
    source: &str,
    files: &dyn modules::ModuleFiles,
) -> (Program, Vec<Diagnostic>) {
    check_file_as(file, source, files, &Overrides::default())
}

/// [`check_file_with`], with settings from outside the text in place of its own.
pub fn check_file_as(
    file: &File,
    source: &str,
    files: &dyn modules::ModuleFiles,
    overrides: &Overrides,
) -> (Program, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let resolved = modules::resolve(file, source, files, &mut diags);
    let env = resolved.env;
    let module_schemes = resolved.schemes;
    modules::with_env(env, || {
        check_items(file, source, module_schemes, overrides, diags)
    })
}

/// Schemes and simulations, with the modules in scope.
fn check_items(
    file: &File,
    source: &str,
    module_schemes: Vec<Arc<CheckedScheme>>,
    overrides: &Overrides,
    mut diags: Vec<Diagnostic>,
) -> (Program, Vec<Diagnostic>) {
    let lines = LineIndex::new(source);
    // The file's own schemes, then the opened modules'; a built-in one is looked up by name
    // when a clause names it (`Program::scheme`), so only the schemes a file uses are checked.
    let mut schemes: Vec<Arc<CheckedScheme>> = Vec::new();
    for item in &file.items {
        let Item::Scheme(decl) = item else { continue };
        let scheme = scheme::check_scheme(decl, false, &mut diags);
        if let Some(prev) = schemes.iter().find(|s| s.name == scheme.name) {
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
    for scheme in module_schemes {
        // A module's scheme named as a built-in one is left out: the built-in one wins.
        if prelude::is_builtin(&scheme.name) {
            continue;
        }
        if let Some(prev) = schemes.iter().find(|s| s.name == scheme.name) {
            diags.push(Diagnostic::error(
                Code::Duplicate,
                prev.span,
                format!(
                    "scheme `{}` is declared here and in an opened module",
                    scheme.name
                ),
            ));
            continue;
        }
        schemes.push(scheme);
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
        let overrides = overrides.applies_to(&key).then_some(overrides);
        names.push((key, sim.name.span));
        models.push(simulate::check_simulate(
            sim, source, &lines, &schemes, overrides, &mut diags,
        ));
    }
    (Program { schemes, models }, diags)
}
