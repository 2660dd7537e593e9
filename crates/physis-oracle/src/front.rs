//! A model's text through the front door `physis run` uses (`physis_ir::front`): check, pick
//! the one simulation, lower, bind the params (defaults or a named run), run.

use physis_ir::TapeModel;
use physis_runtime::{Collect, OwnedSample, RunEnd, RunOptions};

/// What stopped a model's text before or during its run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FrontError {
    /// The checker reported errors.
    Check {
        /// Rendered diagnostics.
        diagnostics: String,
    },
    /// The text declares no simulation or several.
    Simulations {
        /// How many it declares.
        count: usize,
    },
    /// The checked model does not lower to IR.
    Lower {
        /// The lowering error.
        message: String,
    },
    /// No such named run.
    Scenario {
        /// The name asked for.
        name: String,
    },
    /// The interpreter refused the parameter vector.
    Bind {
        /// The binding error.
        message: String,
    },
    /// The driver returned an error.
    Run {
        /// The run error.
        message: String,
    },
}

impl std::fmt::Display for FrontError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FrontError::Check { diagnostics } => write!(f, "does not check:\n{diagnostics}"),
            FrontError::Simulations { count } => write!(f, "{count} simulations, not one"),
            FrontError::Lower { message } => write!(f, "does not lower: {message}"),
            FrontError::Scenario { name } => write!(f, "no run `{name}`"),
            FrontError::Bind { message } => write!(f, "params do not bind: {message}"),
            FrontError::Run { message } => write!(f, "run failed: {message}"),
        }
    }
}

impl std::error::Error for FrontError {}

/// A finished run: every sample and the end.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// Every sample delivered, in order.
    pub samples: Vec<OwnedSample>,
    /// How the run ended.
    pub end: RunEnd,
}

/// Runs the single simulation of `text` (with the named run `scenario`, if any) through
/// the interpreter, as `physis run` does.
pub fn run_text(
    text: &str,
    scenario: Option<&str>,
    options: &RunOptions,
) -> Result<Outcome, FrontError> {
    let mut checked = physis_ir::front::check(text.to_string(), "generated.hph");
    if checked.has_errors() {
        return Err(FrontError::Check {
            diagnostics: checked.rendered(),
        });
    }
    let count = checked.program.models.len();
    let index = checked
        .select(None)
        .map_err(|_| FrontError::Simulations { count })?;
    let ir = checked.take(index).map_err(|refused| FrontError::Lower {
        message: refused.rendered,
    })?;
    let params = match scenario {
        Some(name) => ir.run_params(name).ok_or_else(|| FrontError::Scenario {
            name: name.to_string(),
        })?,
        None => ir.default_params(),
    };
    let tape = TapeModel::with_params(&ir, params).map_err(|e| FrontError::Bind {
        message: e.to_string(),
    })?;
    let mut sink = Collect::default();
    let end = physis_runtime::run_into(tape, options, &mut sink).map_err(|e| FrontError::Run {
        message: e.to_string(),
    })?;
    Ok(Outcome {
        samples: sink.0,
        end,
    })
}
