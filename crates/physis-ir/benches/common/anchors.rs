//! The ensemble anchors shared by the Criterion bench (`benches/ensembles.rs`) and the
//! interleaved timing beside generated code (`examples/rust-api/benches/ensembles.rs`):
//! ANCHORS A7 (Lorenz ensemble) and A6 (geometric Brownian motion) interpreted from
//! `bench/anchors/ensemble/*.hph`, the hand-written Rust loops doing the same arithmetic
//! with the same noise, and timing in interleaved rounds.

use std::hint::black_box;
use std::time::Instant;

use physis_ir::interpreter::lanes::WIDTH;
use physis_ir::{IrModel, LaneProgram, TapeModel, lower_with_source};
use physis_runtime::{Ensemble, LaneKernel, Noise, ParamSet, Sweep};

pub const LORENZ: &str = include_str!("../../../../bench/anchors/ensemble/lorenz.hph");
pub const GBM: &str = include_str!("../../../../bench/anchors/ensemble/gbm.hph");
pub const MEMBERS: usize = 8192;
pub const PATHS: usize = 10_000;
const H: f64 = 1e-3;
const STEPS: usize = 1000;

pub fn lowered(src: &str, name: &str) -> IrModel {
    let checked = physis_check::check_source(src);
    assert!(!checked.has_errors(), "{:#?}", checked.diagnostics);
    lower_with_source(checked.program.model(name).expect("model"), src).expect("lowers")
}

/// The interpreted ensemble: `lanes` batches through lane tapes, else member by member.
pub fn interpreted(
    model: &IrModel,
    sweep: &Sweep,
    count: usize,
    threads: usize,
    lanes: bool,
) -> f64 {
    interpreted_with(model, sweep, count, threads, lanes, |_| {})
}

/// [`interpreted`], with `prepare` given the lane program before the run (to hand it a
/// native compiler, as `physis-jit` does).
#[allow(dead_code)] // the Criterion bench has no native compiler
pub fn interpreted_with(
    model: &IrModel,
    sweep: &Sweep,
    count: usize,
    threads: usize,
    lanes: bool,
    prepare: impl Fn(&LaneProgram),
) -> f64 {
    let tapes = TapeModel::unbound(model).expect("compiles");
    let params_of = |set: &ParamSet| {
        let mut p = model.default_params();
        for (name, v) in set.iter() {
            let spec = model.params.iter().find(|s| s.name == name).expect("param");
            p[spec.offset as usize] = v;
        }
        p
    };
    let factory = |set: &ParamSet| tapes.bind(params_of(set)).map_err(|e| e.to_string());
    let program = LaneProgram::new(model).expect("compiles").expect("lanes");
    prepare(&program);
    let kernel = |sets: &[ParamSet]| -> Option<Box<dyn LaneKernel>> {
        let ps: Vec<Vec<f64>> = sets.iter().map(params_of).collect();
        Some(Box::new(program.kernel(&ps)?))
    };
    let r = Ensemble::new(factory, count)
        .sweep(sweep.clone())
        .threads(threads)
        .lanes(kernel, if lanes { WIDTH } else { 0 })
        .run()
        .expect("runs");
    r.finals.state.last().expect("a state").mean
}

const SIGMA: f64 = 10.0;
const BETA: f64 = 2.666;

#[inline(always)]
fn lorenz(u: [f64; 3], rho: f64) -> [f64; 3] {
    [
        SIGMA * (u[1] - u[0]),
        u[0] * (rho - u[2]) - u[1],
        u[0] * u[1] - BETA * u[2],
    ]
}

#[inline(always)]
fn axpy(u: [f64; 3], a: f64, k: [f64; 3]) -> [f64; 3] {
    [u[0] + a * k[0], u[1] + a * k[1], u[2] + a * k[2]]
}

pub fn lorenz_hand(rho: f64) -> f64 {
    let mut u = [1.0, 0.0, 0.0];
    for _ in 0..STEPS {
        let k1 = lorenz(u, rho);
        let k2 = lorenz(axpy(u, 0.5 * H, k1), rho);
        let k3 = lorenz(axpy(u, 0.5 * H, k2), rho);
        let k4 = lorenz(axpy(u, H, k3), rho);
        let s = H / 6.0;
        u = std::array::from_fn(|i| u[i] + s * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]));
    }
    u[2]
}

pub fn gbm_hand(path: usize) -> f64 {
    let mut noise = Noise::new(1, path as u64);
    let mut dw = [0.0];
    let mut x = 1.0;
    for _ in 0..STEPS {
        noise.increments(H, &mut dw);
        x = x + H * x + 0.5 * x * dw[0];
    }
    x
}

/// Fastest and median of a sample of times (ms).
fn spread(mut v: Vec<f64>) -> (f64, f64) {
    v.sort_by(f64::total_cmp);
    (v[0], v[v.len() / 2])
}

/// Times each of `fs` once per round, one after the other, `rounds` times, so all see the
/// same machine: the fastest and the median (ms) of each.
pub fn interleaved(rounds: usize, fs: &[&dyn Fn() -> f64]) -> Vec<(f64, f64)> {
    let mut times = vec![Vec::new(); fs.len()];
    for _ in 0..rounds.max(1) {
        for (f, t) in fs.iter().zip(&mut times) {
            let start = Instant::now();
            black_box(f());
            t.push(start.elapsed().as_secs_f64() * 1e3);
        }
    }
    times.into_iter().map(spread).collect()
}
