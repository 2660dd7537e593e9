//! Errors of unit parsing, conversion and dimensioned arithmetic.

use crate::Dimension;
use crate::dimension::describe;
use thiserror::Error;

/// A unit or dimension problem, with the names a reader needs to fix it.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum UnitError {
    /// The unit expression was empty.
    #[error("empty unit")]
    Empty,
    /// A unit symbol that is not in the catalog.
    #[error("unknown unit `{name}`{}", suggest(.suggestions))]
    Unknown {
        /// The symbol as written.
        name: String,
        /// Close catalog entries, best first.
        suggestions: Vec<String>,
    },
    /// The unit expression does not follow the grammar.
    #[error("malformed unit `{text}`: {reason}")]
    Malformed {
        /// The whole expression.
        text: String,
        /// What was wrong.
        reason: String,
    },
    /// A power beyond the accepted range.
    #[error("unit power {power} in `{text}` is out of range (at most ±{limit})")]
    PowerTooLarge {
        /// The whole expression.
        text: String,
        /// The power as written.
        power: String,
        /// The limit in force.
        limit: u32,
    },
    /// A unit whose exact scale factor would be larger than the parser computes.
    #[error(
        "the scale factor of `{text}` could need {bits} bits; a unit's factor may have at most {limit}"
    )]
    FactorTooLarge {
        /// The whole expression.
        text: String,
        /// The bound on the bits of the first part found too large.
        bits: usize,
        /// The limit in force ([`crate::MAX_UNIT_FACTOR_BITS`]).
        limit: usize,
    },
    /// Two dimensions that had to be equal were not.
    #[error("dimension mismatch: {} is not {}", describe(.left), describe(.right))]
    DimensionMismatch {
        /// The dimension of the value (or left operand).
        left: Dimension,
        /// The dimension required (or of the right operand).
        right: Dimension,
    },
    /// A conversion that needs an irrational factor on the exact path.
    #[error("`{unit}` cannot be used exactly: {reason}")]
    NotExact {
        /// The unit expression.
        unit: String,
        /// Why (e.g. the factor π of `deg`).
        reason: String,
    },
}

fn suggest(s: &[String]) -> String {
    if s.is_empty() {
        String::new()
    } else {
        format!(
            " (did you mean {}?)",
            s.iter()
                .map(|x| format!("`{x}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    }
}
