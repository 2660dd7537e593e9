//! ANCHORS A7 (Lorenz ensemble: σ = 10, β = 2.666, ρ_i = linspace(0, 21, 8192),
//! u0 = (1, 0, 0), t in [0, 1], rk4 step 1e-3) and A6 (geometric Brownian motion, 10,000
//! paths, Euler–Maruyama step 1e-3), interpreted from `bench/anchors/ensemble/*.hph`: the
//! ensemble in lanes (`LaneProgram`) on 1 and 2 threads and member by member, against a
//! hand-written loop doing the same arithmetic with the same noise, in the same run. The
//! allocator is the system's, as in the `physis` binary. Run:
//! `cargo bench -p physis-ir --bench ensembles`.
#![allow(missing_docs)]

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use physis_ir::IrModel;
use physis_runtime::{Sweep, linspace};
use rayon::prelude::*;

#[path = "common/anchors.rs"]
#[allow(dead_code)] // `interleaved` serves the other tools
mod anchors;

use anchors::{GBM, LORENZ, MEMBERS, PATHS, gbm_hand, interpreted, lorenz_hand, lowered};

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
