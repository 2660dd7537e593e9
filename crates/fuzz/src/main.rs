//! `cargo run --release -p fuzz -- --inputs 1000000`: the long campaign (docs/fuzzing.md).
//! Prints the seed first, progress on stderr, and the figures and findings at the end; exits 1
//! when anything was found.

#![allow(clippy::print_stdout, clippy::print_stderr)]

use clap::Parser;
use fuzz::targets::Campaign;
use fuzz::{Bounds, Target, run_campaign};
use std::process::ExitCode;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The fuzz campaign's options.
#[derive(Parser, Debug)]
struct Args {
    /// Inputs per target.
    #[arg(long, default_value_t = 10_000)]
    inputs: u64,
    /// Seed (default: fresh from the clock).
    #[arg(long)]
    seed: Option<u64>,
    /// Targets, comma separated: jsonl, units, hph, mcp, run (default: all).
    #[arg(long, value_delimiter = ',')]
    targets: Vec<String>,
    /// Inputs of the `run` target (it starts a process per input; default: inputs / 100).
    #[arg(long)]
    run_inputs: Option<u64>,
    /// Seconds a child may take for one answer.
    #[arg(long, default_value_t = 20)]
    timeout: u64,
    /// Memory cap of a child, MiB.
    #[arg(long, default_value_t = 2048)]
    memory_mib: u64,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let seed = args.seed.unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
    });
    let mut targets = Vec::new();
    for name in &args.targets {
        match Target::from_name(name) {
            Some(t) => targets.push(t),
            None => {
                eprintln!("error: unknown target `{name}` (jsonl, units, hph, mcp, run)");
                return ExitCode::from(2);
            }
        }
    }
    if targets.is_empty() {
        targets = Target::ALL.to_vec();
    }
    let bin_dir = std::env::current_exe()
        .ok()
        .and_then(|p| p.parent().map(|d| d.to_path_buf()))
        .unwrap_or_default();
    let bounds = Bounds {
        timeout: Duration::from_secs(args.timeout),
        memory_kib: args.memory_mib * 1024,
        ..Bounds::default()
    };
    println!("seed {seed}");
    let mut stats = fuzz::Stats::default();
    for target in targets {
        let inputs = match target {
            Target::Run => args.run_inputs.unwrap_or(args.inputs / 100).max(1),
            _ => args.inputs,
        };
        let campaign = Campaign {
            inputs,
            seed,
            targets: vec![target],
            bounds: bounds.clone(),
            bin_dir: bin_dir.clone(),
        };
        let started = std::time::Instant::now();
        let part = run_campaign(&campaign, |t, n| {
            eprintln!("{t}: {n} inputs, {:.0} s", started.elapsed().as_secs_f64());
        });
        stats.tried.extend(part.tried);
        if part.slowest.0 > stats.slowest.0 {
            stats.slowest = part.slowest;
            stats.slowest_input = part.slowest_input;
        }
        stats.peak_self_kib = stats.peak_self_kib.max(part.peak_self_kib);
        stats.peak_child_kib = stats.peak_child_kib.max(part.peak_child_kib);
        stats.findings.extend(part.findings);
    }
    println!("{stats}");
    // Each finding's whole input, for replay (the report shows its first 300 characters).
    let dir = std::env::temp_dir().join(format!("fuzz-findings-{seed}"));
    if !stats.findings.is_empty() && std::fs::create_dir_all(&dir).is_ok() {
        for (i, f) in stats.findings.iter().enumerate() {
            let _ = std::fs::write(dir.join(format!("{}-{i}.txt", f.target)), &f.input);
        }
        let _ = std::fs::write(dir.join("slowest.txt"), &stats.slowest_input);
        println!("inputs saved in {}", dir.display());
    }
    if stats.findings.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
