//! The ensemble anchors A7 (Lorenz, 8,192 members) and A6 (GBM, 10,000 paths), interpreted
//! in lanes, timed against the hand-written loops in interleaved pairs: each round runs the
//! loop, then the ensemble, so both see the same machine. Prints the fastest and the median
//! of each, and their ratios, on 1 and 2 threads. On a shared machine whose speed drifts this
//! gives steadier ratios than the Criterion bench's separate groups.
//!
//! `cargo run --release -p physis-ir --example ensemble_ratios [-- ROUNDS]`

#![allow(clippy::print_stdout)]

#[path = "../benches/common/anchors.rs"]
mod anchors;

use anchors::{
    GBM, LORENZ, MEMBERS, PATHS, gbm_hand, interleaved, interpreted, lorenz_hand, lowered,
};
use physis_runtime::{Sweep, linspace};
use rayon::prelude::*;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `hand` and `lanes` timed in interleaved rounds.
fn pairs(rounds: usize, hand: impl Fn() -> f64, lanes: impl Fn() -> f64) -> [(f64, f64); 2] {
    let r = interleaved(rounds, &[&hand, &lanes]);
    [r[0], r[1]]
}

fn report(name: &str, threads: usize, [(h, hm), (l, lm)]: [(f64, f64); 2]) {
    println!(
        "{name:<14} {threads} thr | hand {h:6.1} ms (median {hm:6.1}) | lanes {l:6.1} ms (median {lm:6.1}) | ratio {:.2} (medians {:.2})",
        l / h,
        lm / hm
    );
}

fn main() {
    let rounds = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(15usize)
        .max(1);
    let lorenz = lowered(LORENZ, "Lorenz");
    let gbm = lowered(GBM, "Gbm");
    let rhos = linspace(0.0, 21.0, MEMBERS);
    let sweep = Sweep::new().axis("ρ", rhos.clone()).expect("axis");
    let none = Sweep::new();
    let two = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .expect("pool");
    let lorenz_loop = || rhos.iter().map(|&r| lorenz_hand(r)).sum::<f64>();
    let gbm_loop = || (0..PATHS).map(gbm_hand).sum::<f64>();
    let one = pairs(rounds, lorenz_loop, || {
        interpreted(&lorenz, &sweep, 1, 1, true)
    });
    report("A7 Lorenz", 1, one);
    let both = pairs(
        rounds,
        || two.install(|| rhos.par_iter().map(|&r| lorenz_hand(r)).sum::<f64>()),
        || interpreted(&lorenz, &sweep, 1, 2, true),
    );
    report("A7 Lorenz", 2, both);
    println!(
        "A7 Lorenz speed-up on 2 threads: {:.2}",
        one[1].0 / both[1].0
    );
    let one = pairs(rounds, gbm_loop, || {
        interpreted(&gbm, &none, PATHS, 1, true)
    });
    report("A6 GBM", 1, one);
    let both = pairs(
        rounds,
        || two.install(|| (0..PATHS).into_par_iter().map(gbm_hand).sum::<f64>()),
        || interpreted(&gbm, &none, PATHS, 2, true),
    );
    report("A6 GBM", 2, both);
    println!("A6 GBM speed-up on 2 threads: {:.2}", one[1].0 / both[1].0);
}
