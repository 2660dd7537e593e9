//! The property harness every oracle test shares: kept seeds first, then fresh ones.

#![allow(dead_code)]

use physis_oracle::seeds;
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;

/// The generator of one case.
pub fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// Runs `case` on every kept seed of `name`, then on `default` fresh ones (`ORACLE_CASES`
/// overrides the count, `ORACLE_SEED` fixes the master seed); prints the master seed, keeps
/// each new failing seed in `regressions/<name>.txt` (unless `keep` is false, for the
/// tests that stand for bugs being fixed elsewhere) and fails listing them all.
#[allow(clippy::print_stderr)] // the seed of every run is printed, as the oracle promises
pub fn property(
    name: &str,
    default: usize,
    keep: bool,
    case: impl Fn(u64) -> Result<(), String>,
) -> usize {
    let run = seeds::Run::new(seeds::file(name), default);
    eprintln!("{}", run.banner(name));
    let out = run.cases(keep, case);
    for problem in &out.unkept {
        eprintln!("{problem}");
    }
    assert!(out.failures.is_empty(), "{}", run.report(name, &out));
    out.total
}

/// `max |a − b|`.
pub fn max_diff(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
}

/// `max(1, max |v|)`.
pub fn scale(v: &[f64]) -> f64 {
    v.iter().map(|x| x.abs()).fold(1.0, f64::max)
}
