//! Errors that prevent a run from starting or from delivering its samples.
//!
//! A run that starts always ends with a [`crate::Reason`]; these errors are about a model
//! description or options that make no sense, or an output sink that failed.

use thiserror::Error;

/// Why a run could not be set up or its output not written.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum RunError {
    /// A fixed-step scheme was given no step.
    #[error("scheme `{scheme}` is fixed-step and needs a step")]
    MissingStep {
        /// The scheme's name.
        scheme: String,
    },
    /// A setting is out of its domain (a step that is not positive and finite, ...).
    #[error("setting `{setting}` = {value} is invalid: {expected}")]
    BadSetting {
        /// The setting (`step`, `tolerance`, `record every`, `max step`, `t0`).
        setting: &'static str,
        /// The value given.
        value: f64,
        /// What it must be.
        expected: &'static str,
    },
    /// The model's description is inconsistent with itself.
    #[error("model `{model}` is inconsistent: {problem}")]
    BadModel {
        /// The simulation's name.
        model: String,
        /// What does not fit.
        problem: String,
    },
    /// A scheme combination the driver does not run.
    #[error("scheme `{scheme}` is {combination}, which the driver does not run")]
    Unsupported {
        /// The scheme's name.
        scheme: String,
        /// The combination (`adaptive and stochastic`).
        combination: &'static str,
    },
    /// The sample sink failed.
    #[error("writing samples failed: {0}")]
    Sink(#[from] std::io::Error),
}
