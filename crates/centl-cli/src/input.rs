//! Reading exact numbers and vectors from command-line text.

use exact::Rational;

/// One exact number, with the argument's name in the error.
pub fn number(what: &str, text: &str) -> Result<Rational, String> {
    text.parse().map_err(|e| format!("{what}: {e}"))
}
