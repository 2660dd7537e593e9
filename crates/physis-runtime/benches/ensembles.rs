//! ANCHORS A7 (Lorenz ensemble: σ = 10, β = 2.666, ρ_i = linspace(0, 21, 8192),
//! u0 = (1, 0, 0), t in [0, 1], rk4 step 1e-3) and A6 (geometric Brownian motion, 10,000
//! paths, Euler–Maruyama step 1e-3): the ensemble on 1 and 2 threads against hand-written
//! loops doing the same arithmetic with the same noise. The models are hand-written
//! `Model`s with straight-line steps (what generated code will look like); the rk4 model
//! declares the prelude's stability radius, so each member also pays the driver's
//! stability check. The ensembles run member by member and in lockstep batches
//! ([`ModelLaneFactory`]). Run: `cargo bench -p physis-runtime --bench ensembles`.
#![allow(missing_docs)]

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use physis_runtime::{
    AtomInfo, Clause, Cmp, Cond, Ensemble, MODEL_LANES, Model, ModelInfo, ModelLaneFactory, Noise,
    ParamSet, RunOptions, Sample, SampleSink, SchemeInfo, Settings, StateInfo, StepArgs, StepOut,
    Sweep, linspace, run_into,
};
use rayon::prelude::*;

const SIGMA: f64 = 10.0;
const BETA: f64 = 2.666;
const MEMBERS: usize = 8192;
const PATHS: usize = 10_000;
const H: f64 = 1e-3;
const STEPS: usize = 1000;

fn info(name: &str, states: &[&str], scheme: SchemeInfo, noises: usize) -> Arc<ModelInfo> {
    Arc::new(ModelInfo {
        name: name.into(),
        dim: states.len(),
        states: states
            .iter()
            .enumerate()
            .map(|(i, s)| StateInfo {
                name: (*s).into(),
                offset: i,
                shape: vec![],
                fixed_edge: false,
            })
            .collect(),
        observes: vec![],
        noises,
        scheme,
        settings: Settings {
            step: Some(H),
            ..Settings::default()
        },
        integrate: None,
        atoms: vec![AtomInfo {
            op: Cmp::Ge,
            time_only: true,
            affine: true,
        }],
        stops: vec![Clause {
            cond: Cond::Atom(0),
            text: "t ≥ 1 s".into(),
            line: 9,
        }],
        events: vec![],
        conserves: vec![],
        conditions_read_rate: false,
        observes_read_rate: false,
    })
}

fn scheme(name: &str, stochastic: bool, stages: u32, radius: Option<f64>) -> SchemeInfo {
    SchemeInfo {
        name: name.into(),
        order: if stochastic { 1 } else { 4 },
        adaptive: false,
        implicit: false,
        stochastic,
        stability_radius: radius,
        stages,
        residual_evals: 0,
        fsal: false,
        dense: false,
        implicit_stages: Vec::new(),
        bdf: false,
    }
}

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

/// The rk4 step on the rate `k1 = f(u)` already known.
#[inline(always)]
fn rk4(u: [f64; 3], k1: [f64; 3], h: f64, rho: f64) -> [f64; 3] {
    let k2 = lorenz(axpy(u, 0.5 * h, k1), rho);
    let k3 = lorenz(axpy(u, 0.5 * h, k2), rho);
    let k4 = lorenz(axpy(u, h, k3), rho);
    let s = h / 6.0;
    [
        u[0] + s * (k1[0] + 2.0 * k2[0] + 2.0 * k3[0] + k4[0]),
        u[1] + s * (k1[1] + 2.0 * k2[1] + 2.0 * k3[1] + k4[1]),
        u[2] + s * (k1[2] + 2.0 * k2[2] + 2.0 * k3[2] + k4[2]),
    ]
}

struct Lorenz {
    info: Arc<ModelInfo>,
    rho: f64,
}

fn arr3(s: &[f64]) -> [f64; 3] {
    [s[0], s[1], s[2]]
}

impl Model for Lorenz {
    fn info(&self) -> Arc<ModelInfo> {
        Arc::clone(&self.info)
    }
    fn initial(&mut self, _t0: f64, y: &mut [f64]) {
        y.copy_from_slice(&[1.0, 0.0, 0.0]);
    }
    fn rate(&mut self, _t: f64, y: &[f64], d: &mut [f64]) {
        d.copy_from_slice(&lorenz(arr3(y), self.rho));
    }
    fn step(&mut self, a: &StepArgs<'_>, out: StepOut<'_>) {
        out.next
            .copy_from_slice(&rk4(arr3(a.y), arr3(a.f0), a.h, self.rho));
    }
    fn margins(&mut self, t: f64, _y: &[f64], _d: &[f64], out: &mut [f64]) {
        out[0] = t - 1.0;
    }
}

fn lorenz_hand(rho: f64) -> [f64; 3] {
    let mut u = [1.0, 0.0, 0.0];
    for _ in 0..STEPS {
        u = rk4(u, lorenz(u, rho), H, rho);
    }
    u
}

/// `lanes`: in lockstep batches ([`ModelLaneFactory`]), else member by member.
fn lorenz_ensemble(threads: usize, lanes: bool) -> f64 {
    let info = info(
        "Lorenz",
        &["x", "y", "z"],
        scheme("rk4", false, 3, Some(2.78)),
        0,
    );
    let sweep = Sweep::new()
        .axis("rho", linspace(0.0, 21.0, MEMBERS))
        .expect("axis");
    let factory = |p: &ParamSet| -> Result<Lorenz, String> {
        Ok(Lorenz {
            info: Arc::clone(&info),
            rho: p.get("rho").ok_or("no rho")?,
        })
    };
    let r = Ensemble::new(&factory, 1)
        .sweep(sweep)
        .threads(threads)
        .lanes(
            ModelLaneFactory(&factory),
            if lanes { MODEL_LANES } else { 0 },
        )
        .run()
        .expect("runs");
    r.finals.state[2].mean
}

struct Gbm {
    info: Arc<ModelInfo>,
}

impl Model for Gbm {
    fn info(&self) -> Arc<ModelInfo> {
        Arc::clone(&self.info)
    }
    fn initial(&mut self, _t0: f64, y: &mut [f64]) {
        y[0] = 1.0;
    }
    fn rate(&mut self, _t: f64, y: &[f64], d: &mut [f64]) {
        d[0] = y[0];
    }
    fn step(&mut self, a: &StepArgs<'_>, out: StepOut<'_>) {
        out.next[0] = a.y[0] + a.h * a.f0[0] + 0.5 * a.y[0] * a.dw[0];
    }
    fn margins(&mut self, t: f64, _y: &[f64], _d: &[f64], out: &mut [f64]) {
        out[0] = t - 1.0;
    }
}

fn gbm_hand(path: usize) -> f64 {
    let mut noise = Noise::new(1, path as u64);
    let mut dw = [0.0];
    let mut x = 1.0;
    for _ in 0..STEPS {
        noise.increments(H, &mut dw);
        x = x + H * x + 0.5 * x * dw[0];
    }
    x
}

fn gbm_ensemble(threads: usize, lanes: bool) -> f64 {
    let info = info("Gbm", &["x"], scheme("eulerMaruyama", true, 0, None), 1);
    let factory = |_: &ParamSet| -> Result<Gbm, String> {
        Ok(Gbm {
            info: Arc::clone(&info),
        })
    };
    let r = Ensemble::new(&factory, PATHS)
        .seed(1)
        .threads(threads)
        .lanes(
            ModelLaneFactory(&factory),
            if lanes { MODEL_LANES } else { 0 },
        )
        .run()
        .expect("runs");
    r.finals.state[0].mean
}

/// Drops every sample: isolates the driver's cost from the ensemble's.
struct Null;

impl SampleSink for Null {
    fn sample(&mut self, _s: &Sample<'_>) -> std::io::Result<()> {
        Ok(())
    }
}

/// The driver alone, member after member, without the ensemble layer.
fn lorenz_driver_loop(rhos: &[f64]) -> f64 {
    let info = info(
        "Lorenz",
        &["x", "y", "z"],
        scheme("rk4", false, 3, Some(2.78)),
        0,
    );
    rhos.iter()
        .map(|&rho| {
            let m = Lorenz {
                info: Arc::clone(&info),
                rho,
            };
            run_into(m, &RunOptions::default(), &mut Null)
                .expect("runs")
                .state[2]
        })
        .sum()
}

fn gbm_driver_loop(paths: usize) -> f64 {
    let info = info("Gbm", &["x"], scheme("eulerMaruyama", true, 0, None), 1);
    (0..paths)
        .map(|p| {
            let o = RunOptions {
                seed: Some(1),
                stream: Some(p as u64),
                ..RunOptions::default()
            };
            let m = Gbm {
                info: Arc::clone(&info),
            };
            run_into(m, &o, &mut Null).expect("runs").state[0]
        })
        .sum()
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("pool")
}

fn bench(c: &mut Criterion) {
    // The loop and the ensemble agree (the same arithmetic and noise, except that the
    // driver's steps are differences of grid times t0 + k·h, a few ulps off h).
    let rhos = linspace(0.0, 21.0, MEMBERS);
    let z: f64 = rhos.iter().map(|&r| lorenz_hand(r)[2]).sum::<f64>() / MEMBERS as f64;
    assert!((z - lorenz_ensemble(1, false)).abs() < 1e-9 * z.abs());
    assert_eq!(lorenz_ensemble(1, false), lorenz_ensemble(1, true));
    let x: f64 = (0..PATHS).map(gbm_hand).sum::<f64>() / PATHS as f64;
    assert!((x - gbm_ensemble(1, false)).abs() < 1e-9 * x);
    assert_eq!(gbm_ensemble(1, false), gbm_ensemble(1, true));

    let mut g = c.benchmark_group("lorenz_8192");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    g.bench_function("hand_loop_1_thread", |b| {
        b.iter(|| {
            black_box(&rhos)
                .iter()
                .map(|&r| lorenz_hand(r)[2])
                .sum::<f64>()
        })
    });
    let p2 = pool(2);
    g.bench_function("hand_loop_2_threads", |b| {
        b.iter(|| {
            p2.install(|| {
                black_box(&rhos)
                    .par_iter()
                    .map(|&r| lorenz_hand(r)[2])
                    .sum::<f64>()
            })
        })
    });
    g.bench_function("driver_loop_1_thread", |b| {
        b.iter(|| lorenz_driver_loop(black_box(&rhos)))
    });
    for (name, threads, lanes) in [
        ("ensemble_1_thread", 1, false),
        ("ensemble_2_threads", 2, false),
        ("ensemble_lanes_1_thread", 1, true),
        ("ensemble_lanes_2_threads", 2, true),
    ] {
        g.bench_function(name, |b| {
            b.iter(|| lorenz_ensemble(black_box(threads), lanes))
        });
    }
    g.finish();

    let mut g = c.benchmark_group("gbm_10000");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    g.bench_function("hand_loop_1_thread", |b| {
        b.iter(|| (0..black_box(PATHS)).map(gbm_hand).sum::<f64>())
    });
    g.bench_function("hand_loop_2_threads", |b| {
        b.iter(|| {
            p2.install(|| {
                (0..black_box(PATHS))
                    .into_par_iter()
                    .map(gbm_hand)
                    .sum::<f64>()
            })
        })
    });
    g.bench_function("driver_loop_1_thread", |b| {
        b.iter(|| gbm_driver_loop(black_box(PATHS)))
    });
    for (name, threads, lanes) in [
        ("ensemble_1_thread", 1, false),
        ("ensemble_2_threads", 2, false),
        ("ensemble_lanes_1_thread", 1, true),
        ("ensemble_lanes_2_threads", 2, true),
    ] {
        g.bench_function(name, |b| b.iter(|| gbm_ensemble(black_box(threads), lanes)));
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
