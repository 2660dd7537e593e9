//! The codes of refusals that come after checking: a model the interpreter cannot compile,
//! and a run the driver refuses to start. Lowering's own refusals carry their code and span
//! (`physis_ir::LowerError::to_diagnostic`); these come later, where only the message is
//! known, and are printed `error[PHxxxx]: ...` like the first line of a diagnostic.

use physis_ir::BindError;
use physis_runtime::{EnsembleError, RunError};
use physis_syntax::Code;

/// The code of a driver's refusal, or `None` for a failure that is not the model's (writing
/// samples failed: an I/O error, exit 2 elsewhere).
pub fn run_error_code(e: &RunError) -> Option<Code> {
    Some(match e {
        RunError::MissingStep { .. } => Code::MissingStep,
        RunError::BadSetting { .. } => Code::BadSetting,
        RunError::Unsupported { .. } => Code::NotYetSupported,
        RunError::Sink(_) => return None,
        _ => Code::Internal,
    })
}

/// `error[PHxxxx]: ...` for a driver's refusal, `error: ...` for an I/O failure.
pub fn run_error_text(e: &RunError) -> String {
    match run_error_code(e) {
        Some(code) => format!("error[{code}]: {e}"),
        None => format!("error: {e}"),
    }
}

/// `error[PH0122]: ...`: the interpreter could not compile a model that lowered, a fault of
/// ours, not of the model.
pub fn bind_error_text(e: &BindError) -> String {
    format!(
        "error[{}]: the interpreter cannot compile the model: {e}\n  = help: this is a fault \
         of Physis, not of the model; please report it",
        Code::Internal
    )
}

/// An ensemble's failure: a member's refusal keeps its driver code; a member that could
/// not be built or does not fit the first is PH0122; the rest (flags, the thread pool)
/// have no code.
pub fn ensemble_error_text(e: &EnsembleError) -> String {
    let code = match e {
        EnsembleError::Run { source, .. } => run_error_code(source),
        EnsembleError::Factory { .. } | EnsembleError::Mismatch { .. } => Some(Code::Internal),
        _ => None,
    };
    match code {
        Some(code) => format!("error[{code}]: {e}"),
        None => format!("error: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_driver_refusal_but_io_has_a_code() {
        let cases = [
            (
                RunError::MissingStep {
                    scheme: "rk4".into(),
                },
                Some(Code::MissingStep),
            ),
            (
                RunError::BadSetting {
                    setting: "step",
                    value: 0.0,
                    expected: "positive and finite",
                },
                Some(Code::BadSetting),
            ),
            (
                RunError::Unsupported {
                    scheme: "ad".into(),
                    combination: "adaptive and stochastic",
                },
                Some(Code::NotYetSupported),
            ),
            (
                RunError::BadModel {
                    model: "M".into(),
                    problem: "p".into(),
                },
                Some(Code::Internal),
            ),
            (RunError::Sink(std::io::Error::other("pipe")), None),
        ];
        for (e, code) in cases {
            assert_eq!(run_error_code(&e), code, "{e}");
            let text = run_error_text(&e);
            match code {
                Some(c) => assert!(text.starts_with(&format!("error[{c}]: ")), "{text}"),
                None => assert!(text.starts_with("error: "), "{text}"),
            }
        }
    }
}
