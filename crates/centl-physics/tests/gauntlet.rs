//! The gauntlet in the default tests: a small run from a fresh seed (printed, so a failure can
//! be reproduced with `centl-physics gauntlet --seed S`), then every seed that ever failed,
//! kept in `tests/data/gauntlet-regressions.txt`.

use centl_physics::gauntlet::{identity_names, mix_seed, run_gauntlet};

/// Cases per identity in the default run: enough to meet every branch, seconds at most.
const CASES: u32 = 24;

fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    mix_seed(nanos ^ (u64::from(std::process::id()) << 32))
}

fn check(seed: u64, cases: u32) {
    let report = run_gauntlet(seed, cases);
    if let Some(c) = &report.counterexample {
        panic!(
            "gauntlet counterexample, identity {} seed {} case {}: {}\n\
             add the seed to tests/data/gauntlet-regressions.txt and reproduce with \
             `centl-physics gauntlet --seed {} --cases {}`",
            c.identity,
            c.seed,
            c.case,
            c.detail,
            c.seed,
            c.case + 1
        );
    }
    assert_eq!(report.tallies.len(), identity_names().count());
    assert!(report.tallies.iter().all(|t| t.passed == cases));
}

#[test]
#[allow(clippy::print_stderr)] // the seed of every run is printed, so a failure can be reproduced
fn gauntlet_holds_from_a_fresh_seed() {
    let seed = fresh_seed();
    eprintln!("gauntlet seed={seed} cases={CASES}");
    check(seed, CASES);
}

#[test]
fn gauntlet_holds_on_every_kept_seed() {
    let kept = include_str!("data/gauntlet-regressions.txt");
    for line in kept.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let seed: u64 = line.parse().expect("a seed per line");
        check(seed, CASES);
    }
}

#[test]
fn the_same_seed_gives_the_same_report() {
    let seed = fresh_seed();
    assert_eq!(run_gauntlet(seed, 3), run_gauntlet(seed, 3));
}
