//! An independent oracle for Physis runs.
//!
//! **Takes in** a seed. **Hands on** generated `.hph` models whose exact solutions are known
//! without any of the driver's code: linear systems of mixed first and second order
//! ([`linear`]), solved by a matrix exponential written here ([`expm`]); events, counters
//! and stops whose times follow in closed form ([`events`]). [`front`] runs a model's text
//! the way `physis run` does; [`seeds`] draws fresh seeds and keeps failing ones as
//! regression files under `regressions/`. The tests of this crate are the oracle.

pub mod corpus;
pub mod discrete;
pub mod events;
pub mod expm;
pub mod front;
pub mod linear;
pub mod scheme;
pub mod seeds;
