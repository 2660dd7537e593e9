//! SciPy's rows, from `bench/anchors/side_scipy.py` run as a subprocess of the same command,
//! and the committed references that script produced (`bench/anchors/side/reference.json`).

use std::path::Path;
use std::process::Command;

use serde::Deserialize;

/// The committed references (SciPy Radau at rtol 1e-13; DOP853 for A1).
#[derive(Debug, Clone, Deserialize)]
pub struct References {
    /// A1 Lotka–Volterra at t = 10.
    pub a1: Vec<f64>,
    /// A2 Robertson at t = 1e11.
    pub robertson: Vec<f64>,
    /// A10 Van der Pol (μ = 1000) at t = 3000.
    pub van_der_pol: Vec<f64>,
    /// A11 HIRES at t = 321.8122.
    pub hires: Vec<f64>,
    /// A12 Brusselator 2-D at t = 11.5 (u on every node, then v).
    pub brusselator: Vec<f64>,
}

/// The committed references.
pub fn references() -> References {
    // The file is part of the crate; a malformed one is a bug in the commit, not input.
    serde_json::from_str(include_str!("../../anchors/side/reference.json"))
        .expect("bench/anchors/side/reference.json is well formed")
}

/// One SciPy run (medians over its own repeats).
#[derive(Debug, Clone, Deserialize)]
pub struct Row {
    /// `robertson`, `van_der_pol`, `hires`, `heat` or `brusselator`.
    pub problem: String,
    /// `scipy Radau` and so on.
    pub solver: String,
    /// rtol (and atol, unless the problem's atol was given).
    pub tol: f64,
    /// Median seconds per solve.
    #[serde(default)]
    pub median_s: f64,
    /// Accepted steps.
    #[serde(default)]
    pub steps: u64,
    /// Rate evaluations.
    #[serde(default)]
    pub nfev: u64,
    /// Final state.
    #[serde(default)]
    pub y: Vec<f64>,
    /// Whether solve_ivp reported success.
    #[serde(default)]
    pub success: bool,
    /// Why the run raised, if it did.
    #[serde(default)]
    pub error: Option<String>,
}

/// Why SciPy's rows could not be had.
#[derive(Debug, thiserror::Error)]
pub enum ScipyError {
    /// The interpreter could not be started.
    #[error("{python}: could not start: {message}")]
    Spawn {
        /// The interpreter.
        python: String,
        /// The OS error.
        message: String,
    },
    /// The script failed.
    #[error("side_scipy.py failed ({status}): {stderr}")]
    Failed {
        /// Exit status.
        status: String,
        /// Its standard error.
        stderr: String,
    },
    /// A line of its output is not a row.
    #[error("side_scipy.py printed a line that is not a row: {line}")]
    BadLine {
        /// The line.
        line: String,
    },
}

/// Runs the script with `python` for `tolerances` on `problems` (keys), with the absolute
/// tolerances `atol` (key, value) where given (atol = tol elsewhere), `repeat` solves per
/// row.
pub fn run(
    python: &Path,
    tolerances: &[f64],
    problems: &[&str],
    atol: &[(&str, f64)],
    repeat: usize,
) -> Result<Vec<Row>, ScipyError> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("anchors/side_scipy.py");
    let tols: Vec<String> = tolerances.iter().map(|t| format!("{t:e}")).collect();
    let atols: Vec<String> = atol.iter().map(|(k, a)| format!("{k}={a:e}")).collect();
    let out = Command::new(python)
        .arg(&script)
        .arg("--tolerances")
        .arg(tols.join(","))
        .arg("--problems")
        .arg(problems.join(","))
        .arg("--atol")
        .arg(atols.join(","))
        .arg("--repeat")
        .arg(repeat.to_string())
        .output()
        .map_err(|e| ScipyError::Spawn {
            python: python.display().to_string(),
            message: e.to_string(),
        })?;
    if !out.status.success() {
        return Err(ScipyError::Failed {
            status: out.status.to_string(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        });
    }
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            serde_json::from_str(l).map_err(|_| ScipyError::BadLine {
                line: l.to_string(),
            })
        })
        .collect()
}
