//! Quantity kinds: names such as `Velocity` or `Diffusivity` for dimensions.
//!
//! Several kinds share a dimension (Energy and Torque, Frequency and AngularVelocity); lookup by
//! name is exact, and [`kind_of`] answers with the first, most common, name in the table.

use crate::Dimension;

/// Every kind with its dimension (exponents of L, M, T, I, Θ, N, J). Order matters for [`kind_of`]: the preferred name first.
/// The dimension of length: `kind("Length")`.
pub const LENGTH: Dimension = Dimension::from_ints([1, 0, 0, 0, 0, 0, 0]);

/// The dimension of time: `kind("Time")`.
pub const TIME: Dimension = Dimension::from_ints([0, 0, 1, 0, 0, 0, 0]);

/// The dimension of velocity: `kind("Velocity")`.
pub const VELOCITY: Dimension = Dimension::from_ints([1, 0, -1, 0, 0, 0, 0]);

/// The dimension of acceleration: `kind("Acceleration")`.
pub const ACCELERATION: Dimension = Dimension::from_ints([1, 0, -2, 0, 0, 0, 0]);

/// The dimension of energy: `kind("Energy")`.
pub const ENERGY: Dimension = Dimension::from_ints([2, 1, -2, 0, 0, 0, 0]);

/// The dimension of action: `kind("Action")`.
pub const ACTION: Dimension = Dimension::from_ints([2, 1, -1, 0, 0, 0, 0]);

const KINDS: &[(&str, Dimension)] = &[
    ("Dimensionless", Dimension::from_ints([0, 0, 0, 0, 0, 0, 0])),
    ("Angle", Dimension::from_ints([0, 0, 0, 0, 0, 0, 0])),
    ("SolidAngle", Dimension::from_ints([0, 0, 0, 0, 0, 0, 0])),
    ("Ratio", Dimension::from_ints([0, 0, 0, 0, 0, 0, 0])),
    ("Length", LENGTH),
    ("Mass", Dimension::from_ints([0, 1, 0, 0, 0, 0, 0])),
    ("Time", TIME),
    ("Current", Dimension::from_ints([0, 0, 0, 1, 0, 0, 0])),
    ("Temperature", Dimension::from_ints([0, 0, 0, 0, 1, 0, 0])),
    ("Amount", Dimension::from_ints([0, 0, 0, 0, 0, 1, 0])),
    (
        "LuminousIntensity",
        Dimension::from_ints([0, 0, 0, 0, 0, 0, 1]),
    ),
    ("Area", Dimension::from_ints([2, 0, 0, 0, 0, 0, 0])),
    ("Volume", Dimension::from_ints([3, 0, 0, 0, 0, 0, 0])),
    ("WaveNumber", Dimension::from_ints([-1, 0, 0, 0, 0, 0, 0])),
    ("Velocity", VELOCITY),
    ("Acceleration", ACCELERATION),
    ("Jerk", Dimension::from_ints([1, 0, -3, 0, 0, 0, 0])),
    ("Frequency", Dimension::from_ints([0, 0, -1, 0, 0, 0, 0])),
    (
        "AngularVelocity",
        Dimension::from_ints([0, 0, -1, 0, 0, 0, 0]),
    ),
    ("Rate", Dimension::from_ints([0, 0, -1, 0, 0, 0, 0])),
    (
        "AngularAcceleration",
        Dimension::from_ints([0, 0, -2, 0, 0, 0, 0]),
    ),
    ("Force", Dimension::from_ints([1, 1, -2, 0, 0, 0, 0])),
    ("Energy", ENERGY),
    ("Work", Dimension::from_ints([2, 1, -2, 0, 0, 0, 0])),
    ("Heat", Dimension::from_ints([2, 1, -2, 0, 0, 0, 0])),
    ("Torque", Dimension::from_ints([2, 1, -2, 0, 0, 0, 0])),
    ("Power", Dimension::from_ints([2, 1, -3, 0, 0, 0, 0])),
    ("Pressure", Dimension::from_ints([-1, 1, -2, 0, 0, 0, 0])),
    ("Stress", Dimension::from_ints([-1, 1, -2, 0, 0, 0, 0])),
    ("Momentum", Dimension::from_ints([1, 1, -1, 0, 0, 0, 0])),
    ("Impulse", Dimension::from_ints([1, 1, -1, 0, 0, 0, 0])),
    (
        "AngularMomentum",
        Dimension::from_ints([2, 1, -1, 0, 0, 0, 0]),
    ),
    ("Action", ACTION),
    (
        "MomentOfInertia",
        Dimension::from_ints([2, 1, 0, 0, 0, 0, 0]),
    ),
    ("Density", Dimension::from_ints([-3, 1, 0, 0, 0, 0, 0])),
    (
        "LinearDensity",
        Dimension::from_ints([-1, 1, 0, 0, 0, 0, 0]),
    ),
    ("Stiffness", Dimension::from_ints([0, 1, -2, 0, 0, 0, 0])),
    (
        "SpringConstant",
        Dimension::from_ints([0, 1, -2, 0, 0, 0, 0]),
    ),
    (
        "SurfaceTension",
        Dimension::from_ints([0, 1, -2, 0, 0, 0, 0]),
    ),
    ("Damping", Dimension::from_ints([0, 1, -1, 0, 0, 0, 0])),
    ("LinearDrag", Dimension::from_ints([0, 1, -1, 0, 0, 0, 0])),
    ("MassFlowRate", Dimension::from_ints([0, 1, -1, 0, 0, 0, 0])),
    (
        "RotationalDrag",
        Dimension::from_ints([2, 1, -1, 0, 0, 0, 0]),
    ),
    (
        "RotationalStiffness",
        Dimension::from_ints([2, 1, -2, 0, 0, 0, 0]),
    ),
    (
        "DynamicViscosity",
        Dimension::from_ints([-1, 1, -1, 0, 0, 0, 0]),
    ),
    ("Diffusivity", Dimension::from_ints([2, 0, -1, 0, 0, 0, 0])),
    (
        "KinematicViscosity",
        Dimension::from_ints([2, 0, -1, 0, 0, 0, 0]),
    ),
    (
        "VolumeFlowRate",
        Dimension::from_ints([3, 0, -1, 0, 0, 0, 0]),
    ),
    (
        "SpecificEnergy",
        Dimension::from_ints([2, 0, -2, 0, 0, 0, 0]),
    ),
    (
        "GravitationalParameter",
        Dimension::from_ints([3, 0, -2, 0, 0, 0, 0]),
    ),
    ("HeatingRate", Dimension::from_ints([0, 0, -1, 0, 1, 0, 0])),
    (
        "TemperatureGradient",
        Dimension::from_ints([-1, 0, 0, 0, 1, 0, 0]),
    ),
    (
        "HeatCapacity",
        Dimension::from_ints([2, 1, -2, 0, -1, 0, 0]),
    ),
    ("Entropy", Dimension::from_ints([2, 1, -2, 0, -1, 0, 0])),
    (
        "SpecificHeatCapacity",
        Dimension::from_ints([2, 0, -2, 0, -1, 0, 0]),
    ),
    (
        "ThermalConductivity",
        Dimension::from_ints([1, 1, -3, 0, -1, 0, 0]),
    ),
    ("Charge", Dimension::from_ints([0, 0, 1, 1, 0, 0, 0])),
    ("Voltage", Dimension::from_ints([2, 1, -3, -1, 0, 0, 0])),
    (
        "ElectricPotential",
        Dimension::from_ints([2, 1, -3, -1, 0, 0, 0]),
    ),
    ("Resistance", Dimension::from_ints([2, 1, -3, -2, 0, 0, 0])),
    ("Conductance", Dimension::from_ints([-2, -1, 3, 2, 0, 0, 0])),
    ("Capacitance", Dimension::from_ints([-2, -1, 4, 2, 0, 0, 0])),
    ("Inductance", Dimension::from_ints([2, 1, -2, -2, 0, 0, 0])),
    (
        "MagneticFlux",
        Dimension::from_ints([2, 1, -2, -1, 0, 0, 0]),
    ),
    (
        "MagneticFluxDensity",
        Dimension::from_ints([0, 1, -2, -1, 0, 0, 0]),
    ),
    (
        "ElectricField",
        Dimension::from_ints([1, 1, -3, -1, 0, 0, 0]),
    ),
    (
        "TorqueConstant",
        Dimension::from_ints([2, 1, -2, -1, 0, 0, 0]),
    ),
    (
        "BackEmfConstant",
        Dimension::from_ints([2, 1, -2, -1, 0, 0, 0]),
    ),
    ("CurrentRate", Dimension::from_ints([0, 0, -1, 1, 0, 0, 0])),
    (
        "Concentration",
        Dimension::from_ints([-3, 0, 0, 0, 0, 1, 0]),
    ),
    ("MolarMass", Dimension::from_ints([0, 1, 0, 0, 0, -1, 0])),
    ("PerAmount", Dimension::from_ints([0, 0, 0, 0, 0, -1, 0])),
];

/// The dimension of the named quantity kind, e.g. `kind("Velocity")` is `L·T⁻¹`.
pub fn kind(name: &str) -> Option<Dimension> {
    KINDS.iter().find(|(n, _)| *n == name).map(|(_, d)| *d)
}

/// Every kind name with its dimension, in catalog order.
pub fn kinds() -> impl Iterator<Item = (&'static str, Dimension)> {
    KINDS.iter().map(|(n, d)| (*n, *d))
}

/// The preferred kind name of a dimension, if the catalog has one.
pub fn kind_of(d: &Dimension) -> Option<&'static str> {
    KINDS.iter().find(|(_, e)| e == d).map(|(n, _)| *n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_dimensions() {
        assert_eq!(kind("Velocity").unwrap().to_string(), "L·T⁻¹");
        assert_eq!(kind("Angle"), Some(Dimension::NONE));
        assert_eq!(kind_of(&Dimension::NONE), Some("Dimensionless"));
        assert_eq!(kind_of(&kind("Torque").unwrap()), Some("Energy"));
        assert_eq!(kind("velocity"), None);
        // Every name is unique.
        let mut names: Vec<_> = kinds().map(|(n, _)| n).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), KINDS.len());
    }

    #[test]
    fn electromechanical_kinds_are_consistent() {
        let v = kind("Voltage").unwrap();
        let i = kind("Current").unwrap();
        assert_eq!(v / i, kind("Resistance").unwrap());
        assert_eq!(kind("TorqueConstant").unwrap() * i, kind("Torque").unwrap());
        assert_eq!(kind("Inductance").unwrap() * i / kind("Time").unwrap(), v);
    }
}
