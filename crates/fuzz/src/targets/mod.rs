//! The five targets and the campaign loop over them.

mod child;
mod in_process;

use crate::report::{Finding, Stats, peak_kib};
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;
use std::path::PathBuf;
use std::time::Duration;

/// A program or layer under fuzzing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// The JSON Lines protocol, in-process.
    Jsonl,
    /// The shared unit parser, in-process.
    Units,
    /// The Physis front end (check and lowering), in-process.
    Hph,
    /// `centl-physics --mcp` as a child process.
    Mcp,
    /// `physis run` as a child process.
    Run,
}

impl Target {
    /// Every target, in-process ones first.
    pub const ALL: [Target; 5] = [
        Target::Jsonl,
        Target::Units,
        Target::Hph,
        Target::Mcp,
        Target::Run,
    ];

    /// The target's name on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Target::Jsonl => "jsonl",
            Target::Units => "units",
            Target::Hph => "hph",
            Target::Mcp => "mcp",
            Target::Run => "run",
        }
    }

    /// The target named `name`.
    pub fn from_name(name: &str) -> Option<Target> {
        Target::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// The bounds an answer must respect.
#[derive(Clone, Debug)]
pub struct Bounds {
    /// Longest a child may take for one answer before it is a timeout.
    pub timeout: Duration,
    /// Address-space cap of a child (`ulimit -v`), in KiB.
    pub memory_kib: u64,
    /// Longest reply line the protocol may send (the result limit plus the envelope).
    pub reply_bytes: usize,
}

impl Default for Bounds {
    fn default() -> Bounds {
        Bounds {
            timeout: Duration::from_secs(20),
            memory_kib: 2 << 20,
            reply_bytes: centl_protocol::Limits::default().max_reply_bytes + 4096,
        }
    }
}

/// What to run.
#[derive(Clone, Debug)]
pub struct Campaign {
    /// Inputs per target.
    pub inputs: u64,
    /// Seed of the generators.
    pub seed: u64,
    /// Targets, run one after the other.
    pub targets: Vec<Target>,
    /// The bounds.
    pub bounds: Bounds,
    /// Where `centl-physics` and `physis` are (child targets are skipped when absent).
    pub bin_dir: PathBuf,
}

/// Runs the campaign, calling `progress(target, done)` every 1,000 inputs.
pub fn run_campaign(c: &Campaign, mut progress: impl FnMut(&str, u64)) -> Stats {
    let mut stats = Stats::default();
    for (k, &target) in c.targets.iter().enumerate() {
        let mut rng = ChaCha8Rng::seed_from_u64(c.seed ^ ((k as u64 + 1) << 56));
        let name = target.name();
        let tried = match target {
            Target::Jsonl | Target::Units | Target::Hph => {
                in_process::run(target, c, &mut rng, &mut stats, &mut progress)
            }
            Target::Mcp | Target::Run => child::run(target, c, &mut rng, &mut stats, &mut progress),
        };
        stats.tried.push((name, tried));
    }
    stats.peak_self_kib = peak_kib("self");
    stats
}

fn finding(target: Target, kind: &'static str, detail: String, input: &[u8]) -> Finding {
    Finding {
        target: target.name(),
        kind,
        detail,
        input: input.to_vec(),
    }
}
