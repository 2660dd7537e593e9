//! The short campaign of the default tests: a few hundred inputs per in-process target with a
//! fresh seed (printed on failure), then every seed kept in `tests/regression-seeds.txt`.

use fuzz::targets::Campaign;
use fuzz::{Bounds, Target, run_campaign};
use std::time::{SystemTime, UNIX_EPOCH};

fn campaign(seed: u64, inputs: u64, targets: Vec<Target>) -> Campaign {
    let bin_dir = std::env::current_exe()
        .ok()
        .and_then(|p| p.parent()?.parent().map(|d| d.to_path_buf()))
        .unwrap_or_default();
    Campaign {
        inputs,
        seed,
        targets,
        bounds: Bounds::default(),
        bin_dir,
    }
}

fn assert_clean(c: &Campaign) {
    let stats = run_campaign(c, |_, _| {});
    assert!(
        stats.findings.is_empty(),
        "seed {} (add it to tests/regression-seeds.txt):\n{stats}",
        c.seed
    );
}

#[test]
fn short_campaign_with_a_fresh_seed_finds_nothing() {
    let seed = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64);
    assert_clean(&campaign(
        seed,
        300,
        vec![Target::Units, Target::Jsonl, Target::Hph],
    ));
    // The child-process targets, when `centl-physics` and `physis` are built in target/debug
    // (they are skipped, with 0 inputs tried, when absent).
    // No timing is asserted: the timeout is raised far beyond any answer, so only a hang fails.
    for (target, inputs) in [(Target::Mcp, 100), (Target::Run, 5)] {
        let mut c = campaign(seed, inputs, vec![target]);
        c.bounds.timeout = std::time::Duration::from_secs(600);
        assert_clean(&c);
    }
}

#[test]
fn kept_seeds_find_nothing() {
    let kept = include_str!("regression-seeds.txt");
    for line in kept
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let mut words = line.split_whitespace();
        let seed: u64 = words.next().unwrap().parse().unwrap();
        let target = Target::from_name(words.next().unwrap()).unwrap();
        let inputs: u64 = words.next().unwrap().parse().unwrap();
        assert_clean(&campaign(seed, inputs, vec![target]));
    }
}
