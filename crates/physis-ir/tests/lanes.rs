//! Ensembles in lanes ([`LaneProgram`]) against the same ensembles member by member: the
//! results must be identical to the last bit, whatever happens inside a batch (stops at
//! swept times, record points, samples, divergence, the step limit, noise, a partial last
//! batch), and models the lanes cannot run must fall back and still agree.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use physis_ir::interpreter::lanes::WIDTH;
use physis_ir::{IrModel, LaneProgram, TapeLanes, TapeModel, lower_with_source};
use physis_runtime::{
    Ensemble, EnsembleResult, LaneKernel, ParamSet, ReasonKind, RunOptions, StepArgs, Sweep,
    linspace,
};

/// Lane tapes that count the batched steps they take.
struct Counting {
    inner: TapeLanes,
    steps: Arc<AtomicUsize>,
    /// Stretches of margins planned ahead.
    ahead: Arc<AtomicUsize>,
}

impl LaneKernel for Counting {
    fn lanes(&self) -> usize {
        self.inner.lanes()
    }
    fn step(&mut self, args: &StepArgs<'_>, next: &mut [f64], f1: &mut [f64]) {
        self.steps.fetch_add(1, Ordering::Relaxed);
        self.inner.step(args, next, f1);
    }
    fn rate(&mut self, t: f64, y: &[f64], out: &mut [f64]) {
        self.inner.rate(t, y, out);
    }
    fn margins(&mut self, t: f64, out: &mut [f64]) {
        self.inner.margins(t, out);
    }
    fn margins_ahead(&mut self, ts: &[f64], out: &mut [f64]) -> bool {
        let known = self.inner.margins_ahead(ts, out);
        self.ahead.fetch_add(usize::from(known), Ordering::Relaxed);
        known
    }
    fn observe(&mut self, t: f64, y: &[f64], dydt: &[f64], out: &mut [f64]) {
        self.inner.observe(t, y, dydt, out);
    }
}

fn lowered(src: &str, name: &str) -> IrModel {
    let checked = physis_check::check_source(src);
    assert!(!checked.has_errors(), "{:#?}", checked.diagnostics);
    lower_with_source(checked.program.model(name).expect("model"), src).expect("lowers")
}

fn params_of(model: &IrModel, set: &ParamSet) -> Vec<f64> {
    let mut p = model.default_params();
    for (name, v) in set.iter() {
        let spec = model
            .params
            .iter()
            .find(|s| s.name == name)
            .expect("swept param exists");
        p[spec.offset as usize] = v;
    }
    p
}

/// How a batch is expected to run.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Way {
    /// Member by member.
    Alone,
    /// In lanes, margins evaluated step by step (they differ between lanes).
    Lanes,
    /// In lanes, margins planned ahead (the same in every lane).
    LanesAhead,
}

/// The ensemble run both ways; returns the result after checking they agree bit for bit
/// and that the batches ran the `way` expected.
fn both(
    model: &IrModel,
    sweep: Sweep,
    count: usize,
    options: RunOptions,
    way: Way,
) -> EnsembleResult {
    let factory = |set: &ParamSet| {
        TapeModel::with_params(model, params_of(model, set)).map_err(|e| e.to_string())
    };
    let plain = Ensemble::new(factory, count)
        .options(options.clone())
        .sweep(sweep.clone())
        .threads(2)
        .run()
        .expect("runs");
    let program = LaneProgram::new(model).expect("compiles");
    let steps = Arc::new(AtomicUsize::new(0));
    let ahead = Arc::new(AtomicUsize::new(0));
    let lanes = |sets: &[ParamSet]| -> Option<Box<dyn LaneKernel>> {
        let ps: Vec<Vec<f64>> = sets.iter().map(|s| params_of(model, s)).collect();
        Some(Box::new(Counting {
            inner: program.as_ref()?.kernel(&ps)?,
            steps: Arc::clone(&steps),
            ahead: Arc::clone(&ahead),
        }))
    };
    for threads in [1, 2] {
        let laned = Ensemble::new(factory, count)
            .options(options.clone())
            .sweep(sweep.clone())
            .threads(threads)
            .lanes(lanes, WIDTH)
            .run()
            .expect("runs");
        // Debug prints every float exactly (NaN included), so this is bit for bit.
        assert_eq!(
            format!("{laned:?}"),
            format!("{plain:?}"),
            "{} on {threads} threads",
            model.info.name
        );
    }
    let ran = match (
        steps.load(Ordering::Relaxed) > 0,
        ahead.load(Ordering::Relaxed) > 0,
    ) {
        (false, _) => Way::Alone,
        (true, false) => Way::Lanes,
        (true, true) => Way::LanesAhead,
    };
    assert_eq!(ran, way, "{}", model.info.name);
    plain
}

const LORENZ: &str = "simulate Lorenz {
  param σ : Frequency = 10 Hz
  param β : Frequency = 2.666 Hz
  param ρ : Dimensionless = 28
  param T : Time = 0.3 s
  state x : Dimensionless = 1
  state y : Dimensionless = 0
  state z : Dimensionless = 0
  law x' = σ·(y − x)
  law y' = x·(ρ·1 Hz − z·1 Hz) − y·1 Hz
  law z' = x·y·1 Hz − β·z
  observe r ≔ √(x² + y² + z²)
  integrate rk4 step 1 ms
  stop when t ≥ T
}
";

#[test]
fn lorenz_sweeps_agree_bit_for_bit() {
    let m = lowered(LORENZ, "Lorenz");
    // 70 members: two full batches and a partial one; every step is a sample.
    let sweep = Sweep::new()
        .axis("ρ", linspace(0.0, 21.0, 70))
        .expect("axis");
    let r = both(&m, sweep, 1, RunOptions::default(), Way::LanesAhead);
    assert!(r.series.is_some());
    assert!(
        r.members
            .iter()
            .all(|m| m.end.reason.kind == ReasonKind::When)
    );
    // Stops between grid points at member-dependent times, with a record grid.
    let sweep = Sweep::new()
        .axis("T", linspace(0.1, 0.2003, 40))
        .expect("axis")
        .axis("ρ", vec![5.0, 28.0])
        .expect("axis");
    let options = RunOptions {
        record_every: Some(0.0125),
        ..RunOptions::default()
    };
    let r = both(&m, sweep, 1, options, Way::Lanes);
    let ts: Vec<f64> = r.members.iter().map(|m| m.end.t).collect();
    assert!(
        ts.iter().any(|t| (t * 1000.0).fract().abs() > 1e-6),
        "{ts:?}"
    );
    // The same stop between grid points in every lane: its margins are planned ahead,
    // over stretches that cross record points.
    let sweep = Sweep::new()
        .axis("T", vec![0.2003])
        .expect("axis")
        .axis("ρ", linspace(0.0, 28.0, 66))
        .expect("axis");
    let options = RunOptions {
        record_every: Some(0.0125),
        ..RunOptions::default()
    };
    let r = both(&m, sweep, 1, options, Way::LanesAhead);
    assert!(r.members.iter().all(|m| m.end.t == 0.2003));
    // A step limit ends every member as `limit`.
    let options = RunOptions {
        limit: Some(57),
        ..RunOptions::default()
    };
    let r = both(&m, Sweep::new(), 3, options, Way::LanesAhead);
    assert!(
        r.members
            .iter()
            .all(|m| m.end.reason.kind == ReasonKind::Limit)
    );
}

const BLOWUP: &str = "simulate Blowup {
  param k : Frequency = 1 Hz
  state x : Dimensionless = 1
  law x' = k·x²
  integrate euler step 10 ms
  stop when t ≥ 2 s
}
";

#[test]
fn members_that_diverge_leave_the_batch_alone() {
    let m = lowered(BLOWUP, "Blowup");
    // x = 1/(1 − k t): k > 0.5 Hz blows up before 2 s, at member-dependent steps.
    let sweep = Sweep::new()
        .axis("k", linspace(0.1, 40.0, 45))
        .expect("axis");
    let r = both(&m, sweep, 1, RunOptions::default(), Way::LanesAhead);
    let kinds: Vec<ReasonKind> = r.members.iter().map(|m| m.end.reason.kind).collect();
    assert!(kinds.contains(&ReasonKind::Diverged) && kinds.contains(&ReasonKind::When));
}

const GBM: &str = "simulate Gbm {
  param μ : Frequency = 1 Hz
  state x : Dimensionless = 1
  noise w
  noise v
  law x' = μ·x + 0.5·√(1 Hz)·x·w + 0.1·√(1 Hz)·v
  observe x2 ≔ x²
  integrate eulerMaruyama step 1 ms seed 9
  stop when t ≥ 0.25 s
}
";

#[test]
fn noise_streams_follow_the_member_not_the_batch() {
    let m = lowered(GBM, "Gbm");
    let r = both(&m, Sweep::new(), 77, RunOptions::default(), Way::LanesAhead);
    let x: Vec<f64> = r.members.iter().map(|m| m.end.state[0]).collect();
    assert!(x.windows(2).all(|w| w[0] != w[1]));
    let sweep = Sweep::new().axis("μ", vec![0.5, 1.0, 2.0]).expect("axis");
    both(&m, sweep, 11, RunOptions::default(), Way::LanesAhead);
    // Record points every 7 steps hand the runs back to the driver in the middle of each
    // block of normals drawn ahead: the normals left over must come first afterwards.
    let options = RunOptions {
        record_every: Some(0.007),
        ..RunOptions::default()
    };
    let r = both(&m, Sweep::new(), 40, options, Way::LanesAhead);
    assert!(r.series.is_some());
}

const BOUNCE: &str = "simulate Ball {
  param e : Dimensionless = 0.8
  state h : Length = 1 m
  state v : Velocity = 0 m/s
  law h' = v
  law v' = −g₀
  on h < 0 m ∧ v < 0 m/s do v ≔ −e·v
  integrate rk4 step 1 ms
  stop when t ≥ 1 s
}
";

#[test]
fn models_outside_lanes_fall_back_and_agree() {
    // Events: the lanes decline the batch and its members run one by one.
    let m = lowered(BOUNCE, "Ball");
    assert!(LaneProgram::new(&m).expect("compiles").is_some());
    let sweep = Sweep::new()
        .axis("e", linspace(0.5, 0.9, 40))
        .expect("axis");
    both(&m, sweep, 1, RunOptions::default(), Way::Alone);
    // A clause reading the state: the same.
    let m = lowered(&BLOWUP.replace("t ≥ 2 s", "x > 3"), "Blowup");
    let sweep = Sweep::new().axis("k", linspace(0.1, 1.0, 9)).expect("axis");
    both(&m, sweep, 1, RunOptions::default(), Way::Alone);
}

#[test]
fn small_vector_states_run_in_lanes() {
    // Unrolled to scalar slots, a short vector state runs in lanes too.
    let m = lowered(VECTOR, "Spin");
    let r = both(&m, Sweep::new(), 3, RunOptions::default(), Way::LanesAhead);
    let u = &r.members[0].end.state;
    assert!((u[0] - 1f64.cos()).abs() < 1e-9 && (u[1] + 1f64.sin()).abs() < 1e-9);
}

const VECTOR: &str = "simulate Spin {
  state u : Dimensionless[2] = [1, 0]
  law u' = [u[1], −u[0]]·1 Hz
  integrate rk4 step 10 ms
  stop when t ≥ 1 s
}
";

const FALL: &str = "simulate Fall {
  param T : Time = 1 s
  state h : Length = 100 m
  state v : Velocity = 0 m/s
  law h' = v
  law v' = −g₀
  observe e ≔ g₀·h + v²/2
  integrate rk4 step 1 ms
  stop when t ≥ T
}
";

#[test]
fn fsal_steps_take_their_end_rate_from_the_step() {
    // `v' = −g₀` is known at the step's end, so this rk4 is fsal.
    let m = lowered(FALL, "Fall");
    let sweep = Sweep::new()
        .axis("T", linspace(0.5, 0.7777, 35))
        .expect("axis");
    let r = both(&m, sweep, 1, RunOptions::default(), Way::Lanes);
    let h = r.members[0].end.state[0];
    assert!((h - (100.0 - 9.80665 * 0.125)).abs() < 1e-9, "{h}");
}
