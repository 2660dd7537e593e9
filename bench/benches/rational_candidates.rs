//! Criterion benchmarks of the big-rational candidates on E1 (1,000 and 3,000 steps) and E2
//! (10^5 steps; the timing binary runs the full 10^6).
//!
//! num-rational is left out of E1 at 3,000 steps: one run takes minutes, and criterion needs at
//! least ten. `cargo bench -p bench --features lgpl` adds malachite-q and rug.

use std::time::Duration;

use bench::{E1, E2, all_candidates};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};

fn e1(c: &mut Criterion) {
    let mut group = c.benchmark_group("e1");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500));
    for steps in [1_000u64, 3_000] {
        for cand in all_candidates() {
            if steps > 1_000 && cand.name == "num-rational" {
                continue;
            }
            group.bench_with_input(BenchmarkId::new(cand.name, steps), &steps, |b, &n| {
                b.iter(|| (cand.run)(E1, n))
            });
        }
    }
    group.finish();
}

fn e2(c: &mut Criterion) {
    let mut group = c.benchmark_group("e2");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500));
    let steps = 100_000u64;
    for cand in all_candidates() {
        group.bench_with_input(BenchmarkId::new(cand.name, steps), &steps, |b, &n| {
            b.iter(|| (cand.run)(E2, n))
        });
    }
    group.finish();
}

criterion_group!(benches, e1, e2);
criterion_main!(benches);
