//! Reading exact numbers and vectors from command-line text.

use centl_physics::Vec3;
use exact::Rational;
use units::{Dimension, Quantity};

/// One exact number, with the argument's name in the error.
pub fn number(what: &str, text: &str) -> Result<Rational, String> {
    text.parse().map_err(|e| format!("{what}: {e}"))
}

/// An exact number in SI base units of `dim`.
pub fn quantity(what: &str, text: &str, dim: Dimension) -> Result<Quantity, String> {
    Ok(Quantity::new(number(what, text)?, dim))
}

/// A vector written `x,y,z` of exact numbers, in SI base units of `dim`.
pub fn vector(what: &str, text: &str, dim: Dimension) -> Result<Vec3, String> {
    let parts: Vec<&str> = text.split(',').collect();
    let [x, y, z] = parts[..] else {
        return Err(format!(
            "{what}: expected three comma-separated components `x,y,z`, got `{text}`"
        ));
    };
    Ok(Vec3::new(
        number(what, x)?,
        number(what, y)?,
        number(what, z)?,
        dim,
    ))
}

/// A step count: a non-negative integer.
pub fn steps(text: &str) -> Result<u64, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("steps: `{text}` is not a non-negative whole number"))
}
