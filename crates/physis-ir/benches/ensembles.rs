//! ANCHORS A7 (Lorenz ensemble: σ = 10, β = 2.666, ρ_i = linspace(0, 21, 8192),
//! u0 = (1, 0, 0), t in [0, 1], rk4 step 1e-3) and A6 (geometric Brownian motion, 10,000
//! paths, Euler–Maruyama step 1e-3), interpreted from `bench/anchors/ensemble/*.hph`: the
//! ensemble in lanes ([`LaneProgram`]) on 1 and 2 threads and member by member, against a
//! hand-written loop doing the same arithmetic with the same noise, in the same run. The
//! allocator is mimalloc, as in the `physis` binary. Run:
//! `cargo bench -p physis-ir --bench ensembles`.
#![allow(missing_docs)]

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use physis_ir::{IrModel, LaneProgram, TapeModel, lanes::WIDTH, lower_with_source};
use physis_runtime::{Ensemble, LaneKernel, Noise, ParamSet, Sweep, linspace};
use rayon::prelude::*;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const LORENZ: &str = include_str!("../../../bench/anchors/ensemble/lorenz.hph");
const GBM: &str = include_str!("../../../bench/anchors/ensemble/gbm.hph");
const MEMBERS: usize = 8192;
const PATHS: usize = 10_000;
const H: f64 = 1e-3;
const STEPS: usize = 1000;

fn lowered(src: &str, name: &str) -> IrModel {
    let checked = physis_check::check_source(src);
    assert!(!checked.has_errors(), "{:#?}", checked.diagnostics);
    lower_with_source(checked.program.model(name).expect("model"), src).expect("lowers")
}

/// The interpreted ensemble: `lanes` batches through lane tapes, else member by member.
fn interpreted(model: &IrModel, sweep: &Sweep, count: usize, threads: usize, lanes: bool) -> f64 {
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

fn lorenz_hand(rho: f64) -> f64 {
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

/// The interpreted rows of a group: lanes on 1 and 2 threads, member by member.
fn interpreted_rows(
    g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    model: &IrModel,
    sweep: &Sweep,
    count: usize,
) {
    for (name, threads, lanes) in [
        ("lanes_1_thread", 1, true),
        ("lanes_2_threads", 2, true),
        ("members_1_thread", 1, false),
    ] {
        g.bench_function(name, |b| {
            b.iter(|| interpreted(model, black_box(sweep), count, threads, lanes))
        });
    }
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("pool")
}

fn bench(c: &mut Criterion) {
    let lorenz_model = lowered(LORENZ, "Lorenz");
    let gbm_model = lowered(GBM, "Gbm");
    let rhos = linspace(0.0, 21.0, MEMBERS);
    let sweep = Sweep::new().axis("ρ", rhos.clone()).expect("axis");
    let none = Sweep::new();
    // The loops and the interpreter agree (up to the grid-time rounding of the steps).
    let z = rhos.iter().map(|&r| lorenz_hand(r)).sum::<f64>() / MEMBERS as f64;
    let zi = interpreted(&lorenz_model, &sweep, 1, 1, true);
    assert!((z - zi).abs() < 1e-9 * z.abs(), "{z} {zi}");
    let x = (0..PATHS).map(gbm_hand).sum::<f64>() / PATHS as f64;
    let xi = interpreted(&gbm_model, &none, PATHS, 1, true);
    assert!((x - xi).abs() < 1e-9 * x, "{x} {xi}");
    let p2 = pool(2);

    let mut g = c.benchmark_group("lorenz_8192");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    g.bench_function("hand_loop_1_thread", |b| {
        b.iter(|| {
            black_box(&rhos)
                .iter()
                .map(|&r| lorenz_hand(r))
                .sum::<f64>()
        })
    });
    g.bench_function("hand_loop_2_threads", |b| {
        b.iter(|| {
            p2.install(|| {
                black_box(&rhos)
                    .par_iter()
                    .map(|&r| lorenz_hand(r))
                    .sum::<f64>()
            })
        })
    });
    interpreted_rows(&mut g, &lorenz_model, &sweep, 1);
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
    interpreted_rows(&mut g, &gbm_model, &none, PATHS);
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
