//! What a campaign found and measured.

use std::fmt;
use std::time::Duration;

/// One input that broke a rule.
#[derive(Clone, Debug)]
pub struct Finding {
    /// The target's name (`jsonl`, `units`, `hph`, `mcp`, `run`).
    pub target: &'static str,
    /// What went wrong: `panic`, `abort`, `timeout`, `no_code`, `too_large`, `malformed_reply`,
    /// `wrong_id` (an MCP reply to another request).
    pub kind: &'static str,
    /// Details (the panic message, the exit status, the reply's start).
    pub detail: String,
    /// The input, as sent.
    pub input: Vec<u8>,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let input = String::from_utf8_lossy(&self.input);
        let shown: String = input.chars().take(300).collect();
        write!(
            f,
            "[{}] {}: {}\n  input ({} bytes): {}",
            self.target,
            self.kind,
            self.detail,
            self.input.len(),
            shown
        )
    }
}

/// Figures of a campaign.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Inputs tried per target, in the order the targets ran.
    pub tried: Vec<(&'static str, u64)>,
    /// The slowest single answer and its target.
    pub slowest: (Duration, &'static str),
    /// The input of the slowest answer.
    pub slowest_input: Vec<u8>,
    /// Peak resident memory of this process (KiB, `VmHWM`).
    pub peak_self_kib: u64,
    /// Peak resident memory seen in any child process (KiB, `VmHWM`).
    pub peak_child_kib: u64,
    /// Everything found.
    pub findings: Vec<Finding>,
}

impl Stats {
    /// Records an answer's time and its input.
    pub fn timed(&mut self, target: &'static str, took: Duration, input: &[u8]) {
        if took > self.slowest.0 {
            self.slowest = (took, target);
            self.slowest_input = input.to_vec();
        }
    }

    /// Total inputs over all targets.
    pub fn total(&self) -> u64 {
        self.tried.iter().map(|(_, n)| n).sum()
    }
}

impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let per: Vec<String> = self.tried.iter().map(|(t, n)| format!("{t} {n}")).collect();
        writeln!(f, "inputs tried: {} ({})", self.total(), per.join(", "))?;
        let slowest = String::from_utf8_lossy(&self.slowest_input);
        writeln!(
            f,
            "slowest answer: {:.3} s ({}), input: {}",
            self.slowest.0.as_secs_f64(),
            self.slowest.1,
            slowest.chars().take(300).collect::<String>()
        )?;
        writeln!(
            f,
            "peak memory: {} MiB in-process, {} MiB in a child",
            self.peak_self_kib / 1024,
            self.peak_child_kib / 1024
        )?;
        writeln!(f, "findings: {}", self.findings.len())?;
        for finding in &self.findings {
            writeln!(f, "{finding}")?;
        }
        Ok(())
    }
}

/// `VmHWM` of a process in KiB (0 when unreadable).
pub fn peak_kib(pid: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}
