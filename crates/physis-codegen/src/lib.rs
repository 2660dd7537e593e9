//! Physis code generation: checked and lowered models in, formatted Rust source out.
//!
//! **Takes in** `.hph` source text (checked by `physis-check`, lowered by `physis-ir`) or
//! an [`IrModel`] with its [`CheckedModel`]. **Hands on** Rust source that depends on
//! `physis-runtime` only: for each `simulate Name`, a type `Name` implementing
//! `physis_runtime::Model` with straight-line code for every function the driver calls
//! (rate, the scheme's step or residual and Jacobian, margins, resets, observes), fixed-size
//! `[f64; N]` arrays on the stack and no allocation per step (a model over grid fields
//! keeps its long arrays in heap buffers allocated once per run, calls the runtime's
//! stencil kernels and hands Newton the interpreter's sparse Jacobian pattern; see
//! `grid_func` and `grid_model`), plus the typed API a crate
//! uses: `Name::new()`, `Name::defaults() -> NameParams`, `run()`, `run_with(params)`,
//! `run_configured(params, options)`, one method per named run, `stream()` yielding
//! `NameSample`s, and a `NameRun` with `reason`, `time`, one `Vec<f64>` per observe,
//! `final_state: NameState`, `to_csv()` and `physis_runtime::RunColumns` (time and
//! observes with units; an Arrow record batch with the runtime's `arrow` feature).
//!
//! The generated code computes the same samples as the tape interpreter
//! (`physis_ir::TapeModel`) to the last bit: it is emitted from the same IR functions with
//! the scalar formulas of `physis_ir::eval`, and parameters are folded once per run as the
//! interpreter's `bind_params` folds them (see [`func`]). The test of that is
//! `examples/rust-api/tests/differential.rs`: every example and oracle model compiled by
//! that crate's build script, run beside the interpreter.
//!
//! `physis-build` calls [`generate`] from a build script; `physis emit` calls [`emit`].

mod api;
mod call;
pub mod error;
pub mod func;
mod grid_emit;
mod grid_func;
mod grid_model;
pub mod hoist;
mod info;
mod lanes;
mod model;
pub mod names;
mod pattern;
pub mod plan;
mod scheme;
mod staged;

pub use error::{EmitError, GenError};

use physis_check::CheckedModel;
use physis_ir::front::Refused;
use physis_ir::{IrModel, LowerError};
use proc_macro2::TokenStream;
use quote::quote;

/// One `.hph` file: the name to report it by and its text.
#[derive(Clone, Copy, Debug)]
pub struct SourceFile<'a> {
    /// The name used in diagnostics (`models/projectile.hph`).
    pub name: &'a str,
    /// The source text.
    pub text: &'a str,
}

/// What [`generate`] does beyond the models themselves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Leave out models using features the IR cannot lower or this generator cannot emit
    /// yet (listed in [`Generated::skipped`]) instead of failing.
    pub skip_unsupported: bool,
    /// Also emit `MODELS`: every model's name and untyped entry point `run_slots`.
    pub registry: bool,
}

/// A model left out by [`Options::skip_unsupported`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// The file.
    pub file: String,
    /// The simulation.
    pub model: String,
    /// The feature not yet lowered or generated.
    pub feature: String,
}

/// Generated source and what went into it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    /// The formatted Rust source.
    pub code: String,
    /// The generated simulations' type names, in order.
    pub models: Vec<String>,
    /// Models left out.
    pub skipped: Vec<Skipped>,
    /// Rendered warnings of files that have no error (one string per file).
    pub warnings: Vec<String>,
}

/// The Rust source of every simulation in one `.hph` text.
pub fn emit(source: &str, file_name: &str) -> Result<String, EmitError> {
    let files = [SourceFile {
        name: file_name,
        text: source,
    }];
    Ok(generate(&files, &Options::default())?.code)
}

/// The Rust source of every simulation in `files`, formatted, in file then source order.
pub fn generate(files: &[SourceFile<'_>], options: &Options) -> Result<Generated, EmitError> {
    let mut items = Vec::new();
    let mut models: Vec<(String, String)> = Vec::new();
    let mut skipped = Vec::new();
    let mut warnings = Vec::new();
    for file in files {
        let mut checked = physis_ir::front::check(file.text.to_string(), file.name);
        if checked.has_errors() {
            return Err(EmitError::Check {
                file: file.name.to_string(),
                rendered: checked.rendered(),
                errors: checked.error_count(),
            });
        }
        if !checked.diagnostics.is_empty() {
            warnings.push(checked.rendered());
        }
        for index in 0..checked.program.models.len() {
            let ir = match checked.take(index) {
                Ok(ir) => ir,
                Err(Refused {
                    error: LowerError::NotYetSupported { feature },
                    ..
                }) if options.skip_unsupported => {
                    skipped.push(Skipped {
                        file: file.name.to_string(),
                        model: checked.model(index).name.clone(),
                        feature: feature.to_string(),
                    });
                    continue;
                }
                // A refusal is rendered as `physis check` renders it (code, span, hint), so
                // `physis emit` and a build script report it like every other subcommand.
                Err(refused) => {
                    return Err(EmitError::Check {
                        file: file.name.to_string(),
                        rendered: refused.rendered,
                        errors: 1,
                    });
                }
            };
            let m = checked.model(index);
            let plan = plan::Plan::new(m, &ir, file.text, file.name);
            let ty = plan.ty.to_string();
            if let Some((_, first)) = models.iter().find(|(n, _)| *n == ty) {
                return Err(EmitError::Duplicate {
                    name: ty,
                    first: first.clone(),
                    second: file.name.to_string(),
                });
            }
            let tokens = match plan_tokens(&plan, &ir) {
                Ok(t) => t,
                Err(GenError::Unsupported { what }) if options.skip_unsupported => {
                    skipped.push(Skipped {
                        file: file.name.to_string(),
                        model: m.name.clone(),
                        feature: what,
                    });
                    continue;
                }
                Err(source) => {
                    return Err(EmitError::Generate {
                        file: file.name.to_string(),
                        model: m.name.clone(),
                        source,
                    });
                }
            };
            items.push(tokens);
            models.push((ty, file.name.to_string()));
        }
    }
    if options.registry {
        let entries = models.iter().map(|(n, _)| {
            let id = names::ident(n);
            quote!((#n, #id::run_slots))
        });
        items.push(quote! {
            /// Every generated simulation: its name and untyped entry point.
            pub const MODELS: &[(
                &str,
                fn(
                    &[f64],
                    &::physis_runtime::RunOptions,
                    &mut dyn ::physis_runtime::SampleSink,
                ) -> Option<Result<::physis_runtime::RunEnd, ::physis_runtime::RunError>>,
            )] = &[#(#entries),*];
        });
    }
    let code = format(quote!(#(#items)*), "the generated file")?;
    Ok(Generated {
        code,
        models: models.into_iter().map(|(n, _)| n).collect(),
        skipped,
        warnings,
    })
}

/// The items of one model (unformatted tokens).
pub fn model_tokens(
    m: &CheckedModel,
    ir: &IrModel,
    source: &str,
    file_name: &str,
) -> Result<TokenStream, GenError> {
    plan_tokens(&plan::Plan::new(m, ir, source, file_name), ir)
}

fn plan_tokens(plan: &plan::Plan, ir: &IrModel) -> Result<TokenStream, GenError> {
    let (model, storage) = model::model_items(plan, ir)?;
    let api = api::api_items(plan, &storage);
    Ok(quote!(#api #model))
}

/// Parses tokens as a file, allows the lints generated code cannot help (names as the
/// model spells them, unused inputs, literal forms), and pretty-prints.
pub fn format(tokens: TokenStream, what: &str) -> Result<String, EmitError> {
    let mut file: syn::File = syn::parse2(tokens).map_err(|e| EmitError::Syntax {
        model: what.to_string(),
        problem: e.to_string(),
    })?;
    let names: syn::Attribute = syn::parse_quote!(#[allow(non_snake_case, dead_code)]);
    let code: syn::Attribute = syn::parse_quote!(
        #[allow(non_snake_case, dead_code, unused_variables, unused_mut, unused_parens, clippy::all)]
    );
    for item in &mut file.items {
        match item {
            syn::Item::Struct(s) => s.attrs.push(names.clone()),
            syn::Item::Impl(i) => i.attrs.push(code.clone()),
            syn::Item::Const(c) => c.attrs.push(code.clone()),
            _ => {}
        }
    }
    let body = prettyplease::unparse(&file);
    Ok(format!(
        "// Generated by physis from .hph models; do not edit.\n\n{body}"
    ))
}
