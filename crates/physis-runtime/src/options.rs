//! Per-run overrides of the declared settings (`Run(step:, tolerance:)`, `--step`, ...).

/// Default cap on accepted steps when the model declares no `limit`, so a run whose stop
/// never holds ends as `limit` instead of running forever.
pub const DEFAULT_LIMIT: u64 = 10_000_000;

/// Overrides for one run; `None` keeps the model's declared setting.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunOptions {
    /// Fixed step, or first step of an adaptive scheme (s).
    pub step: Option<f64>,
    /// Tolerance (relative and absolute).
    pub tolerance: Option<f64>,
    /// Maximum number of accepted steps.
    pub limit: Option<u64>,
    /// Noise seed.
    pub seed: Option<u64>,
    /// Noise stream (one per ensemble member, so members are independent of scheduling).
    pub stream: Option<u64>,
    /// `record every` interval (s).
    pub record_every: Option<f64>,
    /// Largest step an adaptive scheme may take (s); default unbounded.
    pub max_step: Option<f64>,
}
