//! Times every compiled-in big-rational candidate on E1 (and E2), checks that all of them reach
//! the identical final state, and prints a table with ratios to `dashu`.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use bench::{Candidate, E1, E2, Outcome, Problem, all_candidates};
use clap::Parser;

/// Command line of the candidate timer.
#[derive(Debug, Parser)]
#[command(about = "Time big-rational candidates on the exact anchors E1 and E2")]
struct Args {
    /// E1 step counts, comma separated.
    #[arg(long, value_delimiter = ',', default_value = "1000,3000")]
    steps: Vec<u64>,
    /// E2 step counts, comma separated (empty string or 0 skips E2).
    #[arg(long, value_delimiter = ',', default_value = "1000000")]
    e2_steps: Vec<u64>,
    /// Runs per measurement; the median is reported.
    #[arg(long, default_value_t = 1)]
    repeat: usize,
    /// Only these candidates (comma separated names); default all compiled in.
    #[arg(long, value_delimiter = ',')]
    only: Vec<String>,
    /// Skip a (candidate, problem, steps) run whose single run is predicted to exceed this many
    /// seconds (from the previous step count, assuming quadratic growth for E1). 0 = never skip.
    #[arg(long, default_value_t = 0.0)]
    skip_over: f64,
    /// Clock to report: `cpu` (on-CPU time of the thread, robust on a shared machine; falls back
    /// to wall time where the OS does not report it) or `wall`.
    #[arg(long, default_value = "cpu", value_parser = ["cpu", "wall"])]
    clock: String,
    /// Also print tab-separated `RESULT` lines for scripts.
    #[arg(long)]
    tsv: bool,
    /// Write each final state to `DIR/<problem>-<steps>-<candidate>.txt`.
    #[arg(long)]
    state_dir: Option<PathBuf>,
}

/// One measured row of the table.
struct Row {
    problem: Problem,
    steps: u64,
    candidate: &'static str,
    /// Median seconds, or `None` when skipped.
    seconds: Option<f64>,
    outcome: Option<Outcome>,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let mut candidates: Vec<Candidate> = all_candidates();
    if !args.only.is_empty() {
        for name in &args.only {
            if !candidates.iter().any(|c| c.name == name) {
                let known: Vec<_> = candidates.iter().map(|c| c.name).collect();
                eprintln!(
                    "unknown candidate `{name}`; compiled in: {}",
                    known.join(", ")
                );
                return ExitCode::from(2);
            }
        }
        candidates.retain(|c| args.only.iter().any(|n| n == c.name));
    }
    let repeat = args.repeat.max(1);
    let plan: Vec<(Problem, u64)> = args
        .steps
        .iter()
        .filter(|&&n| n > 0)
        .map(|&n| (E1, n))
        .chain(args.e2_steps.iter().filter(|&&n| n > 0).map(|&n| (E2, n)))
        .collect();

    let mut rows: Vec<Row> = Vec::new();
    for &(problem, steps) in &plan {
        for c in &candidates {
            let predicted = predict(&rows, problem, steps, c.name);
            if args.skip_over > 0.0 && predicted.is_some_and(|p| p > args.skip_over) {
                eprintln!(
                    "skip {} {} {steps}: predicted {:.0} s",
                    c.name,
                    problem.name(),
                    predicted.unwrap_or(0.0)
                );
                rows.push(Row {
                    problem,
                    steps,
                    candidate: c.name,
                    seconds: None,
                    outcome: None,
                });
                continue;
            }
            let mut runs = Vec::with_capacity(repeat);
            let mut wall = Vec::with_capacity(repeat);
            let mut outcome = None;
            for _ in 0..repeat {
                let o = (c.run)(problem, steps);
                let t = match args.clock.as_str() {
                    "cpu" => o.cpu.unwrap_or(o.elapsed),
                    _ => o.elapsed,
                };
                runs.push(t.as_secs_f64());
                wall.push(o.elapsed.as_secs_f64());
                outcome = Some(o);
            }
            let seconds = median(&runs);
            eprintln!(
                "{} {} {steps}: {seconds:.3} s {} (runs {runs:.3?}, wall {wall:.3?})",
                c.name,
                problem.name(),
                args.clock
            );
            rows.push(Row {
                problem,
                steps,
                candidate: c.name,
                seconds: Some(seconds),
                outcome,
            });
        }
    }

    let mut consistent = true;
    for &(problem, steps) in &plan {
        let group: Vec<&Row> = rows
            .iter()
            .filter(|r| r.problem == problem && r.steps == steps && r.outcome.is_some())
            .collect();
        if let Some(first) = group.first().and_then(|r| r.outcome.as_ref()) {
            for r in &group[1..] {
                if r.outcome.as_ref().map(|o| &o.state) != Some(&first.state) {
                    eprintln!(
                        "MISMATCH: {} {} {steps}: {} differs from {}",
                        problem.name(),
                        r.candidate,
                        r.candidate,
                        group[0].candidate
                    );
                    consistent = false;
                }
            }
        }
        if let Some(dir) = &args.state_dir {
            for r in &group {
                if let Some(o) = &r.outcome {
                    let path = dir.join(format!("{}-{steps}-{}.txt", problem.name(), r.candidate));
                    let text = o.state.join("\n") + "\n";
                    if let Err(e) = std::fs::write(&path, text) {
                        eprintln!("cannot write {}: {e}", path.display());
                        return ExitCode::from(1);
                    }
                }
            }
        }
    }

    println!("clock: {} time, median of {repeat}", args.clock);
    print_table(&rows, &plan);
    if args.tsv {
        for r in &rows {
            if let (Some(s), Some(o)) = (r.seconds, &r.outcome) {
                println!(
                    "RESULT\t{}\t{}\t{}\t{s:.6}\t{}\t{}",
                    r.problem.name(),
                    r.steps,
                    r.candidate,
                    o.max_numer_bits,
                    o.max_denom_bits
                );
            }
        }
    }
    if consistent {
        println!("final states: identical across all candidates that ran");
        ExitCode::SUCCESS
    } else {
        println!("final states: MISMATCH (see stderr)");
        ExitCode::from(1)
    }
}

fn print_table(rows: &[Row], plan: &[(Problem, u64)]) {
    println!(
        "{:<4} {:>8} {:<14} {:>10} {:>9} {:>10} {:>10} {:>11}",
        "prob", "steps", "candidate", "median s", "/dashu", "num bits", "den bits", "bits/step"
    );
    for &(problem, steps) in plan {
        let base = rows
            .iter()
            .find(|r| r.problem == problem && r.steps == steps && r.candidate == "dashu")
            .and_then(|r| r.seconds);
        for r in rows
            .iter()
            .filter(|r| r.problem == problem && r.steps == steps)
        {
            let (secs, ratio) = match (r.seconds, base) {
                (Some(s), Some(b)) if b > 0.0 => (format!("{s:.3}"), format!("{:.2}", s / b)),
                (Some(s), _) => (format!("{s:.3}"), "-".into()),
                (None, _) => ("skipped".into(), "-".into()),
            };
            let (nb, db, per) = match &r.outcome {
                Some(o) => (
                    o.max_numer_bits.to_string(),
                    o.max_denom_bits.to_string(),
                    format!("{:.1}", o.max_denom_bits as f64 / steps as f64),
                ),
                None => ("-".into(), "-".into(), "-".into()),
            };
            println!(
                "{:<4} {:>8} {:<14} {:>10} {:>9} {:>10} {:>10} {:>11}",
                problem.name(),
                steps,
                r.candidate,
                secs,
                ratio,
                nb,
                db,
                per
            );
        }
    }
}

/// Predicted single-run seconds from the same candidate's largest smaller run of the problem.
fn predict(rows: &[Row], problem: Problem, steps: u64, candidate: &str) -> Option<f64> {
    let prev = rows
        .iter()
        .filter(|r| r.problem == problem && r.candidate == candidate && r.steps < steps)
        .filter_map(|r| r.seconds.map(|s| (r.steps, s)))
        .max_by_key(|&(n, _)| n)?;
    let scale = steps as f64 / prev.0 as f64;
    let exponent = if problem == E1 { 2.0 } else { 1.0 };
    Some(prev.1 * scale.powf(exponent))
}

fn median(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n == 0 {
        return Duration::ZERO.as_secs_f64();
    }
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}
