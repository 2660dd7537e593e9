//! Why a run ended.

use serde::Serialize;

/// The five ways a run ends (serialised as `when`, `limit`, `diverged`, `unstable`, `violated`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum ReasonKind {
    /// A `stop when` clause holds.
    When,
    /// The `limit` of accepted steps was reached.
    Limit,
    /// The run could not be continued: see [`Cause`].
    Diverged,
    /// The stability check refused the step: before the first step, or along the run when
    /// the problem became stiff (see [`Reason::hint`]).
    Unstable,
    /// A `conserve` clause drifted past its tolerance.
    Violated,
}

impl ReasonKind {
    /// The lowercase name used in the summary.
    pub fn as_str(self) -> &'static str {
        match self {
            ReasonKind::When => "when",
            ReasonKind::Limit => "limit",
            ReasonKind::Diverged => "diverged",
            ReasonKind::Unstable => "unstable",
            ReasonKind::Violated => "violated",
        }
    }
}

/// The finer cause behind a [`ReasonKind`], for messages and tests (not in the summary).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub enum Cause {
    /// Stop clause `index` holds.
    Stop {
        /// Index into [`crate::ModelInfo::stops`].
        index: usize,
    },
    /// `limit` accepted steps were taken.
    StepLimit {
        /// The limit in force.
        limit: u64,
    },
    /// The state or its rate became NaN or infinite.
    NonFinite,
    /// The adaptive controller needed a step below the time resolution at `t`.
    StepTooSmall {
        /// The step it wanted.
        h: f64,
    },
    /// Newton did not converge even after halving the step down to the time resolution.
    NewtonFailed,
    /// Event `index` fired again within the time resolution of its previous firing: an
    /// accumulation (Zeno) point, past which the hybrid solution does not continue.
    Zeno {
        /// Index into [`crate::ModelInfo::events`].
        index: usize,
    },
    /// Spectral radius `rho` of the rate's Jacobian times the step `h` exceeds `radius`.
    Stability {
        /// Estimated spectral radius (1/s).
        rho: f64,
        /// The step (s).
        h: f64,
        /// The scheme's stability radius.
        radius: f64,
    },
    /// Conserve clause `index` drifted by `drift` (relative to `max(|o₀|, 1)`).
    Conserve {
        /// Index into [`crate::ModelInfo::conserves`].
        index: usize,
        /// The relative drift seen.
        drift: f64,
    },
}

/// Why a run ended: the kind, and the clause text and line where one applies.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Reason {
    /// One of the five kinds.
    pub kind: ReasonKind,
    /// Source text of the clause responsible (`x[1] < 0 m ∧ t > 0 s`), if any.
    pub clause: Option<String>,
    /// Its 1-based line, if any.
    pub line: Option<u32>,
    /// The finer cause.
    #[serde(skip)]
    pub cause: Cause,
}

impl Reason {
    /// What to do about it, where the reason suggests something: for `unstable`, the step
    /// that would be stable there and the implicit schemes that have no such limit.
    pub fn hint(&self) -> Option<String> {
        match self.cause {
            Cause::Stability { rho, h, radius } => Some(format!(
                "the rate's Jacobian has spectral radius {rho:.3e} /s, so the step {h:e} s is \
                 {:.3} times the scheme's stability radius {radius}: the problem is stiff \
                 there; use an implicit scheme (`integrate backwardEuler step …`, \
                 `integrate crankNicolson step …`) or a step below {:.3e} s",
                rho * h / radius,
                radius / rho
            )),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unstable_run_names_a_stiff_scheme() {
        let r = Reason {
            kind: ReasonKind::Unstable,
            clause: None,
            line: None,
            cause: Cause::Stability {
                rho: 1e4,
                h: 0.01,
                radius: 2.78,
            },
        };
        let hint = r.hint().unwrap_or_default();
        assert!(
            hint.contains("backwardEuler") && hint.contains("2.780e-4 s"),
            "{hint}"
        );
        let when = Reason {
            cause: Cause::Stop { index: 0 },
            kind: ReasonKind::When,
            ..r
        };
        assert_eq!(when.hint(), None);
    }
}
