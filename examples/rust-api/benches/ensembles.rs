//! ANCHORS A7 (Lorenz ensemble, 8,192 members swept over ρ, rk4 step 1e-3) and A6 (GBM,
//! 10,000 paths, Euler–Maruyama step 1e-3) in one run: the hand-written Rust loop, the
//! interpreter in lanes (its lane tapes interpreted, and compiled by `physis-jit` with the
//! compile counted in each run), and the code the build step generates from the same
//! `bench/anchors/ensemble/*.hph`, in lockstep lanes (`<Model>Lanes`) and member by member,
//! on 1 and 2 threads. Times are taken in interleaved rounds (each round runs every
//! contender once), fastest and median of each, with the system allocator (as in the
//! `physis` binary).
//!
//! `cargo bench -p rust-api --bench ensembles [-- ROUNDS]`
#![allow(clippy::print_stdout, missing_docs)]

#[path = "../../../crates/physis-ir/benches/common/anchors.rs"]
mod common;

#[allow(dead_code)]
mod anchors {
    include!(concat!(env!("OUT_DIR"), "/anchors.rs"));
}

use anchors::{Gbm, Lorenz, LorenzParams};
use common::{
    GBM, LORENZ, MEMBERS, PATHS, gbm_hand, interleaved, interpreted, interpreted_with, lorenz_hand,
    lowered,
};
use physis_ir::{IrModel, LaneProgram};
use physis_runtime::{Ensemble, MODEL_LANES, ModelLaneFactory, ParamSet, Sweep, linspace};
use rayon::prelude::*;

fn lorenz_model(p: &ParamSet) -> Result<Lorenz, String> {
    Ok(Lorenz::with_params(LorenzParams {
        rho: p.get("ρ").ok_or("no ρ")?,
        ..Lorenz::defaults()
    }))
}

fn gbm_model(_: &ParamSet) -> Result<Gbm, String> {
    Ok(Gbm::new())
}

/// The generated model's ensemble: in lanes, or member by member.
fn generated<M, F>(factory: F, count: usize, sweep: &Sweep, threads: usize, lanes: bool) -> f64
where
    M: physis_runtime::Model + Send + 'static,
    F: Fn(&ParamSet) -> Result<M, String> + Sync,
{
    let r = Ensemble::new(&factory, count)
        .sweep(sweep.clone())
        .threads(threads)
        .lanes(
            ModelLaneFactory(&factory),
            if lanes { MODEL_LANES } else { 0 },
        )
        .run()
        .expect("runs");
    r.finals.state.last().expect("a state").mean
}

/// The interpreter's ensemble in lanes, its lane program compiled before the first batch
/// (the compile is part of the time).
fn jitted(model: &IrModel, sweep: &Sweep, count: usize, threads: usize) -> f64 {
    let native = |p: &LaneProgram| {
        physis_jit::tier_lanes(p, &physis_jit::Jit::new(), physis_jit::When::AtOnce);
        assert!(p.is_native(), "the lane program compiled");
    };
    interpreted_with(model, sweep, count, threads, true, native)
}

fn row(name: &str, threads: usize, r: &[(f64, f64)]) {
    let cell = |(fast, median): (f64, f64)| format!("{fast:.1} ({median:.1})");
    let hand = r[0].0;
    print!("| {name} | {threads} | {} |", cell(r[0]));
    for x in &r[1..] {
        print!(" {} = {:.2}× |", cell(*x), x.0 / hand);
    }
    println!();
}

fn main() {
    // Criterion's `--bench` and filters are passed through by cargo: take the first number.
    let rounds = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(10usize);
    let lorenz = lowered(LORENZ, "Lorenz");
    let gbm = lowered(GBM, "Gbm");
    let rhos = linspace(0.0, 21.0, MEMBERS);
    let sweep = Sweep::new().axis("ρ", rhos.clone()).expect("axis");
    let none = Sweep::new();
    let two = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .expect("pool");
    // Every way computes the same ensemble.
    let z = rhos.iter().map(|&r| lorenz_hand(r)).sum::<f64>() / MEMBERS as f64;
    let zg = generated(lorenz_model, 1, &sweep, 1, true);
    assert!((z - zg).abs() < 1e-9 * z.abs(), "{z} vs {zg}");
    assert_eq!(zg, interpreted(&lorenz, &sweep, 1, 1, true));
    assert_eq!(zg, jitted(&lorenz, &sweep, 1, 1));
    assert_eq!(zg, generated(lorenz_model, 1, &sweep, 1, false));
    let x = (0..PATHS).map(gbm_hand).sum::<f64>() / PATHS as f64;
    let xg = generated(gbm_model, PATHS, &none, 1, true);
    assert!((x - xg).abs() < 1e-9 * x, "{x} vs {xg}");
    assert_eq!(xg, interpreted(&gbm, &none, PATHS, 1, true));
    assert_eq!(xg, jitted(&gbm, &none, PATHS, 1));

    println!(
        "Times in ms, fastest (median) of {rounds} interleaved rounds; ratios to the hand loop.\n"
    );
    println!(
        "| problem | threads | hand loop | interpreter, lanes | JIT, lanes | generated, lanes | generated, member by member |"
    );
    println!("|---|---|---|---|---|---|---|");
    for threads in [1, 2] {
        let hand = || {
            if threads == 1 {
                rhos.iter().map(|&r| lorenz_hand(r)).sum::<f64>()
            } else {
                two.install(|| rhos.par_iter().map(|&r| lorenz_hand(r)).sum::<f64>())
            }
        };
        let r = interleaved(
            rounds,
            &[
                &hand,
                &|| interpreted(&lorenz, &sweep, 1, threads, true),
                &|| jitted(&lorenz, &sweep, 1, threads),
                &|| generated(lorenz_model, 1, &sweep, threads, true),
                &|| generated(lorenz_model, 1, &sweep, threads, false),
            ],
        );
        row("A7 Lorenz", threads, &r);
    }
    for threads in [1, 2] {
        let hand = || {
            if threads == 1 {
                (0..PATHS).map(gbm_hand).sum::<f64>()
            } else {
                two.install(|| (0..PATHS).into_par_iter().map(gbm_hand).sum::<f64>())
            }
        };
        let r = interleaved(
            rounds,
            &[
                &hand,
                &|| interpreted(&gbm, &none, PATHS, threads, true),
                &|| jitted(&gbm, &none, PATHS, threads),
                &|| generated(gbm_model, PATHS, &none, threads, true),
                &|| generated(gbm_model, PATHS, &none, threads, false),
            ],
        );
        row("A6 GBM", threads, &r);
    }
}
