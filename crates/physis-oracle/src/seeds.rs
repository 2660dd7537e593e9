//! Seeds: a fresh one per run (or the one `ORACLE_SEED` names), one per case derived from
//! it, and the regression files under `regressions/` that keep every seed that failed.

use std::path::{Path, PathBuf};

/// `splitmix64`: a well-mixed `u64` from any `u64`.
pub fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The master seed of this run: `ORACLE_SEED` (decimal or `0x` hex) if set, else drawn
/// from the clock and the process id.
pub fn master() -> u64 {
    if let Some(seed) = std::env::var("ORACLE_SEED").ok().and_then(|s| parse(&s)) {
        return seed;
    }
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    mix(nanos ^ u64::from(std::process::id()).rotate_left(32))
}

/// The seed of case `i` under `master`.
pub fn case(master: u64, i: u64) -> u64 {
    mix(master ^ mix(i))
}

/// How many fresh cases to run: `ORACLE_CASES` if set, else `default`.
pub fn count(default: usize) -> usize {
    std::env::var("ORACLE_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

fn parse(s: &str) -> Option<u64> {
    let s = s.trim();
    match s.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => s.parse().ok(),
    }
}

/// The regression file of property `name`.
pub fn file(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("regressions")
        .join(format!("{name}.txt"))
}

/// The seeds kept for property `name` (one `0x…` per line, `#` starts a comment).
pub fn kept(name: &str) -> Vec<u64> {
    kept_in(&file(name))
}

/// The seeds kept in the regression file at `path` (another crate's oracle tests keep
/// theirs beside them).
pub fn kept_in(path: &Path) -> Vec<u64> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| parse(l.split('#').next().unwrap_or("")))
        .collect()
}

/// Appends a failing `seed` to property `name`'s regression file, with a note.
pub fn keep(name: &str, seed: u64, note: &str) -> std::io::Result<()> {
    keep_in(&file(name), seed, note)
}

/// Appends a failing `seed` to the regression file at `path`, with a note, unless it is
/// kept there already.
pub fn keep_in(path: &Path, seed: u64, note: &str) -> std::io::Result<()> {
    use std::io::Write;
    if kept_in(path).contains(&seed) {
        return Ok(());
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    let note: String = note.chars().take(120).filter(|c| *c != '\n').collect();
    writeln!(f, "{seed:#018x} # {note}")
}

/// One property's run over its seeds: the kept ones first, then fresh ones from a master
/// seed. Every oracle test (this crate's and the CLI's) runs its cases through this.
#[derive(Debug, Clone)]
pub struct Run {
    /// The master seed the fresh cases derive from (`ORACLE_SEED` replays it).
    pub master: u64,
    /// The seeds kept in the regression file, replayed first.
    pub kept: Vec<u64>,
    /// How many fresh cases follow.
    pub fresh: usize,
    file: PathBuf,
}

/// What a [`Run`] found.
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    /// One line (and the case's message) per failing case.
    pub failures: Vec<String>,
    /// Failing seeds that could not be appended to the regression file, with why.
    pub unkept: Vec<String>,
    /// Number of cases run.
    pub total: usize,
}

impl Run {
    /// The run of the property whose regression file is `file`: its kept seeds, then
    /// `default` fresh cases (`ORACLE_CASES` overrides the count, `ORACLE_SEED` fixes the
    /// master seed).
    pub fn new(file: PathBuf, default: usize) -> Run {
        Run {
            master: master(),
            kept: kept_in(&file),
            fresh: count(default),
            file,
        }
    }

    /// The line to print before the cases run, so any run can be replayed.
    pub fn banner(&self, name: &str) -> String {
        let master = self.master;
        format!(
            "{name}: master seed {master:#018x} (ORACLE_SEED={master:#x} replays it), {} fresh cases, {} kept",
            self.fresh,
            self.kept.len()
        )
    }

    /// Runs `check` on every kept seed, then on the fresh ones; each new failing seed is
    /// appended to the regression file with its message's first line when `keep` (false
    /// for the tests that stand for bugs being fixed elsewhere).
    pub fn cases(&self, keep: bool, check: impl Fn(u64) -> Result<(), String>) -> Outcome {
        let mut out = Outcome::default();
        for &seed in &self.kept {
            if let Err(e) = check(seed) {
                out.failures.push(format!("kept seed {seed:#018x}: {e}"));
            }
        }
        for i in 0..self.fresh as u64 {
            let seed = case(self.master, i);
            if let Err(e) = check(seed) {
                if keep {
                    let first = e.lines().next().unwrap_or("");
                    if let Err(io) = keep_in(&self.file, seed, first) {
                        out.unkept
                            .push(format!("cannot keep seed {seed:#018x}: {io}"));
                    }
                }
                out.failures.push(format!("seed {seed:#018x}: {e}"));
            }
        }
        out.total = self.kept.len() + self.fresh;
        out
    }

    /// What a test fails with when `out` has failures.
    pub fn report(&self, name: &str, out: &Outcome) -> String {
        format!(
            "{name}: {} of {} cases failed (master seed {:#018x}):\n{}",
            out.failures.len(),
            out.total,
            self.master,
            out.failures.join("\n\n")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_seeds_run_first_and_new_failures_are_kept() {
        let dir = std::env::temp_dir().join(format!("oracle-seeds-{}", std::process::id()));
        let file = dir.join("p.txt");
        let run = Run {
            master: 7,
            kept: vec![1, 2],
            fresh: 3,
            file: file.clone(),
        };
        let bad = case(7, 1);
        let seen = std::cell::RefCell::new(Vec::new());
        let out = run.cases(true, |s| {
            seen.borrow_mut().push(s);
            if s == 2 || s == bad {
                Err(format!("fails at {s}\nmore"))
            } else {
                Ok(())
            }
        });
        assert_eq!(*seen.borrow(), vec![1, 2, case(7, 0), bad, case(7, 2)]);
        assert_eq!(out.total, 5);
        assert_eq!(out.failures.len(), 2);
        assert!(out.unkept.is_empty());
        // Only the fresh failure is appended, with its message's first line.
        assert_eq!(kept_in(&file), vec![bad]);
        assert!(run.report("p", &out).starts_with("p: 2 of 5 cases failed"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
