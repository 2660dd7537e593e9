//! Our contenders: the code `physis-build` generates from `bench/anchors/side/*.hph` at this
//! crate's build time, and the IR interpreter (`TapeModel`) lowered from the same files at run
//! time, both driven by `physis_runtime::run_into` with a sink that keeps event times only.

use physis_ir::{TapeModel, lower_with_source};
use physis_runtime::{Model, ReasonKind, RunOptions, Sample, SampleKind, SampleSink};

use super::anchors::Outcome;

/// The generated models (`LotkaVolterra`, `BouncingBall`, `Robertson`, `VanDerPol`, `Hires`,
/// `HeatCn`, and the `…Bdf` twins of the stiff ones; `HeatEsdirk` is skipped by the
/// generator).
#[allow(missing_docs, dead_code, clippy::all, clippy::pedantic)]
pub mod generated {
    include!(concat!(env!("OUT_DIR"), "/side.rs"));
}

/// Source of the non-stiff anchors (A1, A3).
pub const NONSTIFF_SRC: &str = include_str!("../../anchors/side/nonstiff.hph");
/// Source of the stiff anchors (A2, A4, A10, A11).
pub const STIFF_SRC: &str = include_str!("../../anchors/side/stiff.hph");

/// Keeps the times of events (the left-limit sample of each), nothing else.
#[derive(Default)]
struct EventTimes(Vec<f64>);

impl SampleSink for EventTimes {
    fn sample(&mut self, s: &Sample<'_>) -> std::io::Result<()> {
        if s.kind == SampleKind::BeforeEvent {
            self.0.push(s.t);
        }
        Ok(())
    }
}

/// Why a model could not be made ready for the interpreter.
#[derive(Debug, thiserror::Error)]
#[error("model {name}: {message}")]
pub struct LoadError {
    /// The simulation's name.
    pub name: String,
    /// What failed.
    pub message: String,
}

/// Lowers simulation `name` of `src` and binds it for the tape interpreter.
pub fn interpreter(src: &str, name: &str) -> Result<TapeModel, LoadError> {
    let err = |message: String| LoadError {
        name: name.to_string(),
        message,
    };
    let checked = physis_check::check_source(src);
    let model = checked
        .program
        .model(name)
        .ok_or_else(|| err("not found (or has errors)".into()))?;
    let ir = lower_with_source(model, src).map_err(|e| err(format!("{e:?}")))?;
    TapeModel::new(&ir).map_err(|e| err(format!("{e:?}")))
}

/// The interpreter's model of simulation `name` with every tape compiled by the JIT at once
/// (outside any timing), with the compile time and what compiled (`jit: rate, step (...)`).
pub fn jit(src: &str, name: &str) -> Result<(TapeModel, String), LoadError> {
    let mut model = interpreter(src, name)?;
    let jit = physis_jit::Jit::new();
    model.compile_native(&jit);
    let report = jit.report().map(|r| r.to_string()).unwrap_or_default();
    Ok((model, report))
}

/// Runs `model` with `options`; `interior` drops the first and last state slot (A4's pinned
/// ends). A run that ends other than by its stop clause is a failed outcome.
pub fn run<M: Model>(model: M, options: &RunOptions, interior: bool) -> Outcome {
    let mut sink = EventTimes::default();
    match physis_runtime::run_into(model, options, &mut sink) {
        Ok(end) if end.reason.kind != ReasonKind::When => Outcome::failed(format!(
            "ended as `{}` at t = {:e} after {} steps",
            end.reason.kind.as_str(),
            end.t,
            end.stats.steps
        )),
        Ok(end) => {
            let state = if interior && end.state.len() >= 2 {
                end.state[1..end.state.len() - 1].to_vec()
            } else {
                end.state
            };
            Outcome {
                state,
                steps: end.stats.steps,
                evaluations: end.stats.evaluations,
                events: sink.0,
                failure: None,
            }
        }
        Err(e) => Outcome::failed(e.to_string()),
    }
}

/// Most accepted steps a harness run may take: a run that needs more (Robertson drifting to
/// a spurious negative state at loose tolerances grinds on for millions) is reported failed.
pub const STEP_LIMIT: u64 = 50_000;

/// Run options with the tolerance set (`None` keeps the model's) and [`STEP_LIMIT`].
pub fn with_tolerance(tol: Option<f64>) -> RunOptions {
    RunOptions {
        tolerance: tol,
        limit: Some(STEP_LIMIT),
        ..RunOptions::default()
    }
}
