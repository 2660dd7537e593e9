//! `centl-physics gauntlet [--seed S] [--cases N]`: the randomized identity checks of
//! [`centl_physics::gauntlet`], printed one identity a line.

use crate::args::GauntletArgs;
use centl_physics::gauntlet::{GauntletReport, mix_seed, run_gauntlet};
use std::fmt::Write as _;

/// A seed nobody chose: the clock's nanoseconds mixed with the process id.
pub fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    mix_seed(nanos ^ (u64::from(std::process::id()) << 32))
}

/// Runs the gauntlet; the report is the output on success and the error on a counterexample.
pub fn run(a: &GauntletArgs) -> Result<String, String> {
    let seed = a.seed.unwrap_or_else(fresh_seed);
    let report = run_gauntlet(seed, a.cases);
    let text = render(&report);
    if report.passed() { Ok(text) } else { Err(text) }
}

/// The report as text: a header, one line per identity, then a total or the counterexample.
pub fn render(report: &GauntletReport) -> String {
    let mut out = format!("gauntlet seed={} cases={}\n", report.seed, report.cases);
    for t in &report.tallies {
        let mark = if t.passed == report.cases {
            "ok"
        } else {
            "FAIL"
        };
        let _ = writeln!(
            out,
            "{mark} {} {}/{}: {}",
            t.name, t.passed, report.cases, t.checks
        );
    }
    match &report.counterexample {
        None => {
            let _ = writeln!(
                out,
                "checked={} identities={} counterexamples=0",
                report.total_passed(),
                report.tallies.len()
            );
        }
        Some(c) => {
            let _ = writeln!(
                out,
                "counterexample: identity={} seed={} case={}: {}\nreproduce: centl-physics gauntlet --seed {} --cases {}",
                c.identity,
                c.seed,
                c.case,
                c.detail,
                c.seed,
                c.case + 1
            );
        }
    }
    out
}
