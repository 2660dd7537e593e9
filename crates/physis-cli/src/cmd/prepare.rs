//! What `run`, `plot` and ensembles share: read a file, check it, pick the simulation and
//! the scenario, apply `--set` overrides with their units, and build the interpreted model.

use super::Failure;
use physis_check::Overrides;
use physis_ir::front::{Checked, ParamSlot, SelectError};
use physis_ir::{IrModel, TapeModel};
use physis_runtime::RunOptions;
use std::path::PathBuf;
use units::Dimension;

/// The options every running subcommand takes.
#[derive(clap::Args, Debug, Clone)]
pub struct RunArgs {
    /// The .hph file.
    pub file: PathBuf,
    /// The simulation to run when the file declares several.
    #[arg(long)]
    pub sim: Option<String>,
    /// A named scenario (`run Steep with ...`).
    #[arg(long = "run")]
    pub scenario: Option<String>,
    /// Override a param, with its unit: `--set 'v0=50 m/s'` (ASCII names accepted).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
    /// A scheme in place of the model's `integrate` scheme (`rk4`, `esdirk43`, one of the
    /// file's own), checked as if the model said it.
    #[arg(long, value_name = "NAME")]
    pub scheme: Option<String>,
    /// Fixed step, or first step of an adaptive scheme (`1 ms`, or a plain number of seconds).
    #[arg(long)]
    pub step: Option<String>,
    /// Relative tolerance of an adaptive scheme (a plain number).
    #[arg(long)]
    pub tolerance: Option<f64>,
    /// Record a sample every DELTA of time in place of the model's `record every` (`10 ms`,
    /// or a plain number of seconds).
    #[arg(long, value_name = "DELTA")]
    pub record: Option<String>,
    /// Seed of the noise generator.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Maximum number of accepted steps.
    #[arg(long)]
    pub limit: Option<u64>,
    /// Memory the run may use (`4GiB`, `500MB`, bytes); the default is the memory the
    /// machine has available. A run estimated past it is refused with PH0119.
    #[arg(long, value_name = "SIZE")]
    pub memory_budget: Option<String>,
}

/// A model ready to run.
// `checked` and `index` are read by the plots and the studio only (`checked_model`).
#[cfg_attr(not(feature = "plot"), allow(dead_code))]
pub struct Prepared {
    /// The file as the front door checked it.
    pub checked: Checked,
    /// Which of its simulations runs.
    pub index: usize,
    /// The lowered model.
    pub ir: IrModel,
    /// The parameter vector (defaults, scenario, then `--set`).
    pub params: Vec<f64>,
    /// Per-run overrides.
    pub options: RunOptions,
    /// The scenario's name, for the summary.
    pub scenario: Option<String>,
    /// Every param the run reads, with its dimension and slots (for sweeps).
    pub slots: Vec<ParamSlot>,
}

impl Prepared {
    /// The param named `name` (any spelling `--set` accepts), or a usage error listing them.
    pub fn slot(&self, name: &str) -> Result<&ParamSlot, Failure> {
        ParamSlot::find(&self.slots, name)
            .or_else(|| self.slots.iter().find(|s| ascii_name_is(&s.name, name)))
            .ok_or_else(|| {
                Failure::usage(format!(
                    "error: `{}` has no param `{name}`; its params: {}",
                    self.ir.info.name,
                    list(self.slots.iter().map(|s| s.name.as_str()))
                ))
            })
    }

    /// The simulation as the checker sees it (names, units, shapes of its declarations).
    #[cfg(feature = "plot")]
    pub fn checked_model(&self) -> &physis_check::CheckedModel {
        self.checked.model(self.index)
    }

    /// The interpreter over this model with its parameters bound.
    pub fn model(&self) -> Result<TapeModel, Failure> {
        TapeModel::with_params(&self.ir, self.params.clone())
            .map_err(|e| Failure::model(super::refusal::bind_error_text(&e)))
    }
}

/// Reads, checks, lowers and configures the model named by `args`.
pub fn prepare(args: &RunArgs) -> Result<Prepared, Failure> {
    let overrides = settings(args)?;
    prepare_checked(super::open_with(&args.file, &overrides)?, args)
}

/// The command line's settings that take the place of the model's own (`--scheme`, `--step`,
/// `--tolerance`, `--record`), each read and bounded; the checker checks them against the
/// model as if its text said them.
pub fn settings(args: &RunArgs) -> Result<Overrides, Failure> {
    let step = args
        .step
        .as_deref()
        .map(|t| time_arg(t, "--step"))
        .transpose()?;
    let record_every = (args.record.as_deref())
        .map(|t| time_arg(t, "--record"))
        .transpose()?;
    if args.limit == Some(0) {
        return Err(Failure::usage("error: --limit must be at least 1 step"));
    }
    if args
        .tolerance
        .is_some_and(|tol| !(tol > 0.0 && tol.is_finite()))
    {
        return Err(Failure::usage(
            "error: --tolerance must be a positive number",
        ));
    }
    Ok(Overrides {
        simulation: args.sim.clone(),
        scheme: args.scheme.clone(),
        step,
        tolerance: args.tolerance,
        record_every,
    })
}

/// Configures the model named by `args` from a file the front door has checked clean, with
/// [`settings`] (`args.file` is not read again; the studio checks a text it was sent).
pub fn prepare_checked(mut checked: Checked, args: &RunArgs) -> Result<Prepared, Failure> {
    let Overrides {
        step, record_every, ..
    } = settings(args)?;
    let index = checked.select(args.sim.as_deref()).map_err(|e| {
        Failure::usage(match e {
            SelectError::Several { file, names } => format!(
                "error: {file} declares several simulations; choose one with --sim: {}",
                names.join(", ")
            ),
            other => format!("error: {other}"),
        })
    })?;
    // The memory estimate comes before lowering, which builds arrays the size of the grid.
    let flag = args
        .memory_budget
        .as_deref()
        .map(super::memory::parse_size)
        .transpose()
        .map_err(|e| Failure::usage(format!("error: --memory-budget: {e}")))?;
    let model = checked.model(index);
    let estimate = super::memory::estimate(model);
    if let Some(d) = super::memory::check(model, &estimate, super::memory::budget(flag)) {
        return Err(Failure::model(checked.render(&[d])));
    }
    let ir = checked
        .take(index)
        .map_err(|r| Failure::model(r.rendered))?;
    let model = checked.model(index);
    let mut params = match &args.scenario {
        Some(s) => ir.run_params(s).ok_or_else(|| {
            Failure::usage(format!(
                "error: `{}` has no run `{s}`; it has: {}",
                model.name,
                list(ir.runs.iter().map(|r| r.name.as_str()))
            ))
        })?,
        None => ir.default_params(),
    };
    for assignment in &args.set {
        apply_set(model, &ir, &mut params, assignment)?;
    }
    let options = RunOptions {
        step,
        tolerance: args.tolerance,
        seed: args.seed,
        limit: args.limit,
        record_every,
        ..RunOptions::default()
    };
    let slots = checked.param_slots(index, &ir);
    Ok(Prepared {
        checked,
        index,
        ir,
        params,
        options,
        scenario: args.scenario.clone(),
        slots,
    })
}

fn list<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let v: Vec<&str> = names.collect();
    if v.is_empty() {
        "none".into()
    } else {
        v.join(", ")
    }
}

/// Applies `NAME=VALUE` to the parameter vector, converting VALUE's unit to SI.
fn apply_set(
    model: &physis_check::CheckedModel,
    ir: &IrModel,
    params: &mut [f64],
    assignment: &str,
) -> Result<(), Failure> {
    let (name, value) = assignment
        .split_once('=')
        .ok_or_else(|| Failure::usage(format!("error: --set `{assignment}` is not NAME=VALUE")))?;
    let (name, value) = (name.trim(), value.trim());
    let by_ascii = || {
        (model.params.iter())
            .position(|p| ascii_name_is(&p.name, name))
            .map(physis_check::ParamId)
    };
    let id = model.param(name).or_else(by_ascii).ok_or_else(|| {
        Failure::usage(format!(
            "error: `{}` has no param `{name}`; its params: {}",
            model.name,
            list(model.params.iter().map(|p| p.name.as_str()))
        ))
    })?;
    let param = &model.params[id.0];
    let spec = ir
        .params
        .iter()
        .find(|s| physis_syntax::lexer::normalize_name(&s.name) == param.key)
        .ok_or_else(|| {
            Failure::usage(format!(
                "error: --set: param `{name}` is not used by the run"
            ))
        })?;
    let values: Vec<f64> = match value.strip_prefix('[').and_then(|v| v.strip_suffix(']')) {
        Some(inner) => inner
            .split(',')
            .map(|part| quantity_scalar(part, param.dim, name))
            .collect::<Result<_, _>>()?,
        None => vec![quantity_scalar(value, param.dim, name)?],
    };
    if values.len() != spec.default.len() {
        return Err(Failure::usage(format!(
            "error: param `{name}` has {} component(s), --set gave {}",
            spec.default.len(),
            values.len()
        )));
    }
    for (k, v) in values.into_iter().enumerate() {
        params[spec.offset as usize + k] = v;
    }
    Ok(())
}

/// Reads `50 m/s`, `70 deg`, `0.5` as an SI value of dimension `dim` (`units::read_si`).
pub fn quantity_scalar(text: &str, dim: Dimension, what: &str) -> Result<f64, Failure> {
    units::read_si(text, dim).map_err(|e| Failure::usage(format!("error: {what}: {e}")))
}

/// A positive, finite time from `1 ms`, `2 min` or a plain number of seconds (`0.02`).
fn time_arg(text: &str, flag: &str) -> Result<f64, Failure> {
    let plain = text.trim().parse::<f64>().ok();
    let h = match plain {
        Some(v) => v,
        None => quantity_scalar(text, units::dims::TIME, flag)?,
    };
    if h > 0.0 && h.is_finite() {
        Ok(h)
    } else {
        Err(Failure::usage(format!(
            "error: {flag} must be a positive, finite time, found `{}`",
            text.trim()
        )))
    }
}

/// True when `typed` is the ASCII spelling the generated Rust API uses for `name`
/// (`ρ` → `rho`, `α₀` → `alpha0`), so a terminal without Greek input can still name it.
fn ascii_name_is(name: &str, typed: &str) -> bool {
    physis_codegen::names::ascii(name) == typed.trim()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantities_with_units() {
        let v = units::dims::VELOCITY;
        assert_eq!(quantity_scalar("50 m/s", v, "x").ok(), Some(50.0));
        assert!((quantity_scalar("36 km/h", v, "x").ok().unwrap() - 10.0).abs() < 1e-12);
        assert_eq!(
            quantity_scalar("1e-3 s", units::dims::TIME, "x").ok(),
            Some(1e-3)
        );
        let deg = quantity_scalar("90 deg", Dimension::NONE, "x")
            .ok()
            .unwrap();
        assert!((deg - std::f64::consts::FRAC_PI_2).abs() < 1e-15);
        assert!(quantity_scalar("50", v, "x").is_err());
        assert!(quantity_scalar("50 s", v, "x").is_err());
        assert!(quantity_scalar("abc", v, "x").is_err());
        assert!(quantity_scalar("1e999 m/s", v, "x").is_err());
    }

    #[test]
    fn times_with_units_or_plain_seconds() {
        assert_eq!(time_arg("0.02", "--step").ok(), Some(0.02));
        assert_eq!(time_arg(" 2e-3 ", "--step").ok(), Some(2e-3));
        assert_eq!(time_arg("20 ms", "--step").ok(), Some(0.02));
        assert_eq!(time_arg("1 min", "--record").ok(), Some(60.0));
        for bad in [
            "0", "-1", "0 s", "-2 ms", "inf", "NaN", "1e999", "1 m", "abc", "",
        ] {
            assert!(time_arg(bad, "--step").is_err(), "{bad} accepted");
        }
    }
}
