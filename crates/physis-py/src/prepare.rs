//! From Python's arguments to what a run needs: a param's values read in its unit (`"50
//! m/s"` → 50.0 SI), the parameter vector (defaults, a named run, then overrides) and the
//! run options. The rules are the CLI's `--set` rules; failures carry diagnostic codes.

use physis_ir::IrModel;
use physis_runtime::RunOptions;
use physis_syntax::Code;
use units::{Dimension, ReadError};

use crate::error::Failure;

/// A param as callers name it (the front door's, shared with the CLI's `--set`).
pub use physis_ir::front::ParamSlot as Slot;

/// Run settings from Python, every value already in SI.
#[derive(Debug, Clone, Default, pyo3::FromPyObject)]
#[pyo3(from_item_all)]
pub struct Settings {
    /// `(param name, values)` overrides.
    pub params: Vec<(String, Vec<f64>)>,
    /// A named run (`run Steep with ...`).
    pub scenario: Option<String>,
    /// Fixed step, or an adaptive scheme's first step (s).
    pub step: Option<f64>,
    /// Tolerance of an adaptive scheme.
    pub tolerance: Option<f64>,
    /// Noise seed.
    pub seed: Option<u64>,
    /// Most accepted steps.
    pub limit: Option<u64>,
    /// Sampling interval (s).
    pub record_every: Option<f64>,
}

/// The slot called `name` (declared or normalized spelling, or the ASCII spelling).
pub fn slot<'a>(model_name: &str, slots: &'a [Slot], name: &str) -> Result<&'a Slot, Failure> {
    Slot::find(slots, name)
        // The ASCII spelling of the generated Rust API (`μ` → `mu`), as the CLI accepts.
        .or_else(|| (slots.iter()).find(|s| physis_codegen::names::ascii(&s.name) == name.trim()))
        .ok_or_else(|| {
            let names: Vec<&str> = slots.iter().map(|s| s.name.as_str()).collect();
            Failure::physis(
                Code::UnknownName,
                format!(
                    "`{model_name}` has no param `{name}`; its params: {}",
                    if names.is_empty() {
                        "none".to_owned()
                    } else {
                        names.join(", ")
                    }
                ),
            )
        })
}

/// The parameter vector and run options `settings` ask for.
pub fn configure(
    ir: &IrModel,
    slots: &[Slot],
    settings: &Settings,
) -> Result<(Vec<f64>, RunOptions), Failure> {
    let name = &ir.info.name;
    let mut params = match &settings.scenario {
        Some(s) => ir.run_params(s).ok_or_else(|| {
            let runs: Vec<&str> = ir.runs.iter().map(|r| r.name.as_str()).collect();
            Failure::physis(
                Code::UnknownName,
                format!("`{name}` has no run `{s}`; it has: {}", runs.join(", ")),
            )
        })?,
        None => ir.default_params(),
    };
    for (pname, values) in &settings.params {
        let s = slot(name, slots, pname)?;
        if values.len() != s.len {
            return Err(Failure::physis(
                Code::BadArgument,
                format!(
                    "param `{}` has {} component(s), {} given",
                    s.name,
                    s.len,
                    values.len()
                ),
            ));
        }
        if let Some(v) = values.iter().find(|v| !v.is_finite()) {
            return Err(Failure::physis(
                Code::BadArgument,
                format!("param `{}`: {v} is not a finite number", s.name),
            ));
        }
        params[s.offset..s.offset + s.len].copy_from_slice(values);
    }
    let positive = |what: &str, v: Option<f64>| -> Result<Option<f64>, Failure> {
        match v {
            Some(x) if !(x > 0.0 && x.is_finite()) => Err(Failure::physis(
                Code::BadSetting,
                format!("{what} must be positive and finite, not {x}"),
            )),
            _ => Ok(v),
        }
    };
    if settings.limit == Some(0) {
        return Err(Failure::physis(
            Code::BadSetting,
            "limit must be at least 1 step",
        ));
    }
    let options = RunOptions {
        step: positive("step", settings.step)?,
        tolerance: positive("tolerance", settings.tolerance)?,
        record_every: positive("record_every", settings.record_every)?,
        seed: settings.seed,
        limit: settings.limit,
        ..RunOptions::default()
    };
    Ok((params, options))
}

/// Reads `50 m/s`, `0.5`, or a list `[1 m, 2 m]` as SI values of dimension `dim`.
pub fn quantities(text: &str, dim: Dimension, what: &str) -> Result<Vec<f64>, Failure> {
    let text = text.trim();
    match text.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
        Some(inner) => inner
            .split(',')
            .map(|part| quantity(part, dim, what))
            .collect(),
        None => Ok(vec![quantity(text, dim, what)?]),
    }
}

/// Reads one `50 m/s` (or a bare number for a dimensionless value) as an SI value, by the
/// rule the CLI's `--set` uses (`units::read_si`), each failure with its code.
pub fn quantity(text: &str, dim: Dimension, what: &str) -> Result<f64, Failure> {
    units::read_si(text, dim).map_err(|e| {
        let code = match &*e {
            ReadError::Unit { .. } => Code::UnknownUnit,
            ReadError::WrongDimension { .. } => Code::WrongDimension,
            _ => Code::BadArgument,
        };
        Failure::physis(code, format!("{what}: {e}"))
    })
}
