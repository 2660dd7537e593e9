//! Our contenders: the code `physis-build` generates from `bench/anchors/side/*.hph` at this
//! crate's build time, and the IR interpreter (`TapeModel`) lowered from the same files at run
//! time, both driven by `physis_runtime::run_into` with a sink that keeps event times only.
//! The stiff tables find generated models by name in the generator's registry (`MODELS`), so
//! a model the generator leaves out is a row that says so, not a build error.

use physis_ir::{TapeModel, lower_with_source};
use physis_runtime::{
    Model, ReasonKind, RunEnd, RunError, RunOptions, Sample, SampleKind, SampleSink, Simulation,
};

use super::anchors::Outcome;

/// The generated models (every simulation of `anchors/side/*.hph` the generator supports;
/// implicit stages on grid fields are skipped), and `MODELS`, their registry.
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
    fn wants(&self, kind: SampleKind) -> bool {
        kind == SampleKind::BeforeEvent
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
    lowered(src, name).map(|l| l.tape)
}

/// A simulation lowered from source, ready for both of our back ends.
#[derive(Clone)]
pub struct Lowered {
    /// The tape interpreter's model.
    pub tape: TapeModel,
    /// The default parameter slots (what a generated model's `run_slots` takes).
    pub params: Vec<f64>,
    /// The smallest `abs` the model's `integrate` clause gives any state (SI base units),
    /// `None` without one: what the peers are given as their absolute tolerance.
    pub absolute: Option<f64>,
}

/// Lowers simulation `name` of `src`.
pub fn lowered(src: &str, name: &str) -> Result<Lowered, LoadError> {
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
    let tape = TapeModel::new(&ir).map_err(|e| err(format!("{e:?}")))?;
    let absolute = ir
        .info
        .settings
        .absolute
        .iter()
        .flatten()
        .copied()
        .reduce(f64::min);
    Ok(Lowered {
        tape,
        params: ir.default_params(),
        absolute,
    })
}

/// Whether the generator emitted simulation `name`.
pub fn is_generated(name: &str) -> bool {
    generated::MODELS.iter().any(|(n, _)| *n == name)
}

/// Runs the generated simulation `name` with parameter slots `params` (see [`run`]); a
/// model the generator left out is a failed outcome saying so.
pub fn run_generated(name: &str, params: &[f64], options: &RunOptions, interior: bool) -> Outcome {
    let Some((_, entry)) = generated::MODELS.iter().find(|(n, _)| *n == name) else {
        return Outcome::failed("not generated: physis-build skips it (see build.rs)".into());
    };
    let mut sink = EventTimes::default();
    match entry(params, options, &mut sink) {
        None => Outcome::failed(format!("{name}: wrong parameter count")),
        Some(end) => outcome(end, sink.0, interior),
    }
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
    let end = physis_runtime::run_into(model, options, &mut sink);
    outcome(end, sink.0, interior)
}

/// One contender's run repeated in the buffers of its first (`Simulation::restart`), as a
/// caller running one model again and again would: the per-run allocations are paid once.
pub struct Repeated<M: Model> {
    sim: Option<Simulation<M>>,
}

impl<M: Model> Default for Repeated<M> {
    fn default() -> Self {
        Self { sim: None }
    }
}

impl<M: Model> Repeated<M> {
    /// One run: the first builds its run from `make()`, later ones restart it.
    pub fn run(
        &mut self,
        make: impl FnOnce() -> M,
        options: &RunOptions,
        interior: bool,
    ) -> Outcome {
        let ready = match self.sim.take() {
            Some(mut sim) => sim.restart(options).map(|()| sim),
            None => Simulation::new(make(), options),
        };
        let mut sink = EventTimes::default();
        let end = ready.and_then(|mut sim| {
            let end = sim.run_in_place(&mut sink);
            self.sim = Some(sim);
            end
        });
        outcome(end, sink.0, interior)
    }
}

fn outcome(end: Result<RunEnd, RunError>, events: Vec<f64>, interior: bool) -> Outcome {
    match end {
        Ok(end) if end.reason.kind != ReasonKind::When => Outcome::failed(format!(
            "ended as `{}` at t = {:e} after {} steps, {} rejected",
            end.reason.kind.as_str(),
            end.t,
            end.stats.steps,
            end.stats.rejections
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
                rejected: Some(end.stats.rejections),
                events,
                failure: None,
            }
        }
        Err(e) => Outcome::failed(e.to_string()),
    }
}

/// Most accepted steps a harness run may take: a run that needs more (Robertson drifting to
/// a spurious negative state at loose tolerances grinds on for millions) is reported failed.
pub const STEP_LIMIT: u64 = 50_000;

/// Wall-clock seconds after which a peer's run (diffsol, stepped one step at a time) is
/// failed.
pub const RUN_SECONDS: f64 = 60.0;

/// Run options with the tolerance set (`None` keeps the model's) and [`STEP_LIMIT`].
pub fn with_tolerance(tol: Option<f64>) -> RunOptions {
    RunOptions {
        tolerance: tol,
        limit: Some(STEP_LIMIT),
        ..RunOptions::default()
    }
}
