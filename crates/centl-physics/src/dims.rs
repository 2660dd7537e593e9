//! The dimensions the engine checks its inputs against, named once.

use units::Dimension;

/// Length, metre.
pub const LENGTH: Dimension = Dimension::from_ints([1, 0, 0, 0, 0, 0, 0]);
/// Mass, kilogram.
pub const MASS: Dimension = Dimension::from_ints([0, 1, 0, 0, 0, 0, 0]);
/// Time, second.
pub const TIME: Dimension = Dimension::from_ints([0, 0, 1, 0, 0, 0, 0]);
/// Velocity, m/s.
pub const VELOCITY: Dimension = Dimension::from_ints([1, 0, -1, 0, 0, 0, 0]);
/// Acceleration, m/s².
pub const ACCELERATION: Dimension = Dimension::from_ints([1, 0, -2, 0, 0, 0, 0]);
/// Force, newton.
pub const FORCE: Dimension = Dimension::from_ints([1, 1, -2, 0, 0, 0, 0]);
/// Momentum, kg·m/s.
pub const MOMENTUM: Dimension = Dimension::from_ints([1, 1, -1, 0, 0, 0, 0]);
/// Energy, joule.
pub const ENERGY: Dimension = Dimension::from_ints([2, 1, -2, 0, 0, 0, 0]);
/// Spring stiffness, N/m.
pub const STIFFNESS: Dimension = Dimension::from_ints([0, 1, -2, 0, 0, 0, 0]);
/// Linear drag coefficient, kg/s.
pub const DRAG: Dimension = Dimension::from_ints([0, 1, -1, 0, 0, 0, 0]);
/// Area, m² (squared distances and the contact polynomial's value).
pub const AREA: Dimension = Dimension::from_ints([2, 0, 0, 0, 0, 0, 0]);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_agree_with_the_kind_catalog() {
        for (name, dim) in [
            ("Length", LENGTH),
            ("Mass", MASS),
            ("Time", TIME),
            ("Velocity", VELOCITY),
            ("Acceleration", ACCELERATION),
            ("Force", FORCE),
            ("Momentum", MOMENTUM),
            ("Energy", ENERGY),
            ("Stiffness", STIFFNESS),
            ("LinearDrag", DRAG),
            ("Area", AREA),
        ] {
            assert_eq!(units::kind(name), Some(dim), "{name}");
        }
        assert_eq!(FORCE, MASS * ACCELERATION);
        assert_eq!(STIFFNESS, FORCE / LENGTH);
    }
}
