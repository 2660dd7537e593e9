//! Ensembles of plain `Model`s in lockstep ([`ModelLaneFactory`]) against the same
//! ensembles member by member: identical results to the last bit, with the lanes shown to
//! have taken steps.

use crate::common;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use common::{Scheme, TestModel, model};
use physis_runtime::{
    Cmp, Cond, Ensemble, LaneFactory, LaneKernel, MODEL_LANES, ModelLaneFactory, ParamSet,
    RunOptions, StepArgs, Sweep, linspace,
};

/// Ornstein–Uhlenbeck (Euler–Maruyama, 20 ms) with `sigma` and the stop time `end` swept.
fn ou(p: &ParamSet) -> Result<TestModel, String> {
    let sigma = p.get("sigma").unwrap_or(1.0);
    let end = p.get("end").unwrap_or(2.0);
    Ok(
        model("OU", Scheme::EulerMaruyama, &[1.0], |_, y, d| d[0] = -y[0])
            .noise(1, move |_, _, g| g[0] = sigma)
            .atoms(&[Cmp::Ge], move |t, _, _, m| m[0] = t - end)
            .time_only(&[true])
            .stop(Cond::Atom(0), "t ≥ end", 3)
            .observes(&["v2"], |_, y, _, o| o[0] = y[0] * y[0])
            .settings(|s| s.step = Some(0.02))
            .build(),
    )
}

/// A damped oscillator by rk4 (10 ms) with the frequency swept, to 3 s.
fn spring(p: &ParamSet) -> Result<TestModel, String> {
    let w = p.get("w").unwrap_or(1.0);
    Ok(model("Spring", Scheme::Rk4, &[1.0, 0.0], move |_, y, d| {
        d[0] = y[1];
        d[1] = -w * w * y[0] - 0.1 * y[1];
    })
    .atoms(&[Cmp::Ge], |t, _, _, m| m[0] = t - 3.0)
    .time_only(&[true])
    .stop(Cond::Atom(0), "t ≥ 3 s", 4)
    .observes(&["x"], |_, y, _, o| o[0] = y[0])
    .settings(|s| s.step = Some(0.01))
    .build())
}

/// Counts the steps the kernels take.
struct Counting<L> {
    inner: L,
    steps: Arc<AtomicUsize>,
}

struct CountingKernel {
    inner: Box<dyn LaneKernel>,
    steps: Arc<AtomicUsize>,
}

impl LaneKernel for CountingKernel {
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
    fn observe(&mut self, t: f64, y: &[f64], dydt: &[f64], out: &mut [f64]) {
        self.inner.observe(t, y, dydt, out);
    }
}

impl<L: LaneFactory> LaneFactory for Counting<L> {
    fn kernel(&self, sets: &[ParamSet]) -> Option<Box<dyn LaneKernel>> {
        Some(Box::new(CountingKernel {
            inner: self.inner.kernel(sets)?,
            steps: Arc::clone(&self.steps),
        }))
    }
}

fn agree<F>(factory: F, sweep: Sweep, count: usize, options: RunOptions)
where
    F: Fn(&ParamSet) -> Result<TestModel, String> + Sync,
{
    let plain = Ensemble::new(&factory, count)
        .options(options.clone())
        .sweep(sweep.clone())
        .seed(11)
        .run()
        .expect("runs");
    for threads in [1, 2] {
        let steps = Arc::new(AtomicUsize::new(0));
        let lanes = Counting {
            inner: ModelLaneFactory(&factory),
            steps: Arc::clone(&steps),
        };
        let laned = Ensemble::new(&factory, count)
            .options(options.clone())
            .sweep(sweep.clone())
            .seed(11)
            .threads(threads)
            .lanes(lanes, MODEL_LANES)
            .run()
            .expect("runs");
        assert_eq!(
            format!("{laned:?}"),
            format!("{plain:?}"),
            "{threads} threads"
        );
        assert!(steps.load(Ordering::Relaxed) > 0);
    }
}

#[test]
fn plain_models_in_lanes_give_the_same_bits() {
    // Stops at swept times between grid points, noise, a partial last batch.
    let sweep = Sweep::new()
        .axis("end", linspace(0.5, 0.777, 9))
        .expect("axis")
        .axis("sigma", vec![0.5, 2.0])
        .expect("axis");
    agree(ou, sweep, 5, RunOptions::default());
    // Record points every 3 steps, in the middle of the normals drawn ahead.
    let options = RunOptions {
        record_every: Some(0.06),
        ..RunOptions::default()
    };
    agree(ou, Sweep::new(), 70, options);
    let sweep = Sweep::new()
        .axis("w", linspace(0.5, 30.0, 100))
        .expect("axis");
    agree(spring, sweep, 1, RunOptions::default());
}
