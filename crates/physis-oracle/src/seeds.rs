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
