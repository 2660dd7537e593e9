//! SI dimensions, exact units and quantity kinds, shared by the exact engine and Physis.
//!
//! Takes in unit text (`m/s²`, `kg·m²`, `N*m/A`, `1/mol`) and kind names (`Velocity`), and
//! hands on [`Dimension`] (seven rational exponents, so `Time^-1/2` exists), [`Unit`] (an exact
//! rational factor to SI base units, times a power of π for angle units such as `deg`) and
//! [`Quantity`] (an exact value with its dimension). No spans, no I/O: callers attach context.

mod catalog;
mod dimension;
mod error;
mod exponent;
mod kind;
mod parse;
mod quantity;
mod reading;
mod unit;

pub use dimension::{Base, Dimension, describe};
pub use error::UnitError;
pub use exponent::Exponent;
pub use kind::{kind, kind_of, kinds};

/// The dimensions other crates name in code, as constants (no look-up by name that could fail).
pub mod dims {
    pub use crate::kind::{ACCELERATION, ACTION, ENERGY, LENGTH, TIME, VELOCITY};
}
pub use parse::{MAX_UNIT_FACTOR_BITS, MAX_UNIT_POWER};
pub use quantity::Quantity;
pub use reading::{ReadError, number_prefix_len, read_si};
pub use unit::{Unit, is_unit_symbol, parse_unit};

/// Every catalog symbol (without prefixes), for listings and completion.
pub fn unit_symbols() -> impl Iterator<Item = &'static str> {
    catalog::ATOMS
        .iter()
        .map(|a| a.symbol)
        .chain(std::iter::once("kg"))
}
