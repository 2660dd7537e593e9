//! Quantity kinds: names such as `Velocity` or `Diffusivity` for dimensions.
//!
//! Several kinds share a dimension (Energy and Torque, Frequency and AngularVelocity); lookup by
//! name is exact, and [`kind_of`] answers with the first, most common, name in the table.

use crate::Dimension;

/// `(name, [L, M, T, I, Θ, N, J])`. Order matters for [`kind_of`]: the preferred name first.
const KINDS: &[(&str, [i32; 7])] = &[
    ("Dimensionless", [0, 0, 0, 0, 0, 0, 0]),
    ("Angle", [0, 0, 0, 0, 0, 0, 0]),
    ("SolidAngle", [0, 0, 0, 0, 0, 0, 0]),
    ("Ratio", [0, 0, 0, 0, 0, 0, 0]),
    ("Length", [1, 0, 0, 0, 0, 0, 0]),
    ("Mass", [0, 1, 0, 0, 0, 0, 0]),
    ("Time", [0, 0, 1, 0, 0, 0, 0]),
    ("Current", [0, 0, 0, 1, 0, 0, 0]),
    ("Temperature", [0, 0, 0, 0, 1, 0, 0]),
    ("Amount", [0, 0, 0, 0, 0, 1, 0]),
    ("LuminousIntensity", [0, 0, 0, 0, 0, 0, 1]),
    ("Area", [2, 0, 0, 0, 0, 0, 0]),
    ("Volume", [3, 0, 0, 0, 0, 0, 0]),
    ("WaveNumber", [-1, 0, 0, 0, 0, 0, 0]),
    ("Velocity", [1, 0, -1, 0, 0, 0, 0]),
    ("Acceleration", [1, 0, -2, 0, 0, 0, 0]),
    ("Jerk", [1, 0, -3, 0, 0, 0, 0]),
    ("Frequency", [0, 0, -1, 0, 0, 0, 0]),
    ("AngularVelocity", [0, 0, -1, 0, 0, 0, 0]),
    ("Rate", [0, 0, -1, 0, 0, 0, 0]),
    ("AngularAcceleration", [0, 0, -2, 0, 0, 0, 0]),
    ("Force", [1, 1, -2, 0, 0, 0, 0]),
    ("Energy", [2, 1, -2, 0, 0, 0, 0]),
    ("Work", [2, 1, -2, 0, 0, 0, 0]),
    ("Heat", [2, 1, -2, 0, 0, 0, 0]),
    ("Torque", [2, 1, -2, 0, 0, 0, 0]),
    ("Power", [2, 1, -3, 0, 0, 0, 0]),
    ("Pressure", [-1, 1, -2, 0, 0, 0, 0]),
    ("Stress", [-1, 1, -2, 0, 0, 0, 0]),
    ("Momentum", [1, 1, -1, 0, 0, 0, 0]),
    ("Impulse", [1, 1, -1, 0, 0, 0, 0]),
    ("AngularMomentum", [2, 1, -1, 0, 0, 0, 0]),
    ("Action", [2, 1, -1, 0, 0, 0, 0]),
    ("MomentOfInertia", [2, 1, 0, 0, 0, 0, 0]),
    ("Density", [-3, 1, 0, 0, 0, 0, 0]),
    ("LinearDensity", [-1, 1, 0, 0, 0, 0, 0]),
    ("Stiffness", [0, 1, -2, 0, 0, 0, 0]),
    ("SpringConstant", [0, 1, -2, 0, 0, 0, 0]),
    ("SurfaceTension", [0, 1, -2, 0, 0, 0, 0]),
    ("Damping", [0, 1, -1, 0, 0, 0, 0]),
    ("LinearDrag", [0, 1, -1, 0, 0, 0, 0]),
    ("MassFlowRate", [0, 1, -1, 0, 0, 0, 0]),
    ("RotationalDrag", [2, 1, -1, 0, 0, 0, 0]),
    ("RotationalStiffness", [2, 1, -2, 0, 0, 0, 0]),
    ("DynamicViscosity", [-1, 1, -1, 0, 0, 0, 0]),
    ("Diffusivity", [2, 0, -1, 0, 0, 0, 0]),
    ("KinematicViscosity", [2, 0, -1, 0, 0, 0, 0]),
    ("VolumeFlowRate", [3, 0, -1, 0, 0, 0, 0]),
    ("SpecificEnergy", [2, 0, -2, 0, 0, 0, 0]),
    ("GravitationalParameter", [3, 0, -2, 0, 0, 0, 0]),
    ("HeatingRate", [0, 0, -1, 0, 1, 0, 0]),
    ("TemperatureGradient", [-1, 0, 0, 0, 1, 0, 0]),
    ("HeatCapacity", [2, 1, -2, 0, -1, 0, 0]),
    ("Entropy", [2, 1, -2, 0, -1, 0, 0]),
    ("SpecificHeatCapacity", [2, 0, -2, 0, -1, 0, 0]),
    ("ThermalConductivity", [1, 1, -3, 0, -1, 0, 0]),
    ("Charge", [0, 0, 1, 1, 0, 0, 0]),
    ("Voltage", [2, 1, -3, -1, 0, 0, 0]),
    ("ElectricPotential", [2, 1, -3, -1, 0, 0, 0]),
    ("Resistance", [2, 1, -3, -2, 0, 0, 0]),
    ("Conductance", [-2, -1, 3, 2, 0, 0, 0]),
    ("Capacitance", [-2, -1, 4, 2, 0, 0, 0]),
    ("Inductance", [2, 1, -2, -2, 0, 0, 0]),
    ("MagneticFlux", [2, 1, -2, -1, 0, 0, 0]),
    ("MagneticFluxDensity", [0, 1, -2, -1, 0, 0, 0]),
    ("ElectricField", [1, 1, -3, -1, 0, 0, 0]),
    ("TorqueConstant", [2, 1, -2, -1, 0, 0, 0]),
    ("BackEmfConstant", [2, 1, -2, -1, 0, 0, 0]),
    ("CurrentRate", [0, 0, -1, 1, 0, 0, 0]),
    ("Concentration", [-3, 0, 0, 0, 0, 1, 0]),
    ("MolarMass", [0, 1, 0, 0, 0, -1, 0]),
    ("PerAmount", [0, 0, 0, 0, 0, -1, 0]),
];

/// The dimension of the named quantity kind, e.g. `kind("Velocity")` is `L·T⁻¹`.
pub fn kind(name: &str) -> Option<Dimension> {
    KINDS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, e)| Dimension::from_ints(*e))
}

/// Every kind name with its dimension, in catalog order.
pub fn kinds() -> impl Iterator<Item = (&'static str, Dimension)> {
    KINDS.iter().map(|(n, e)| (*n, Dimension::from_ints(*e)))
}

/// The preferred kind name of a dimension, if the catalog has one.
pub fn kind_of(d: &Dimension) -> Option<&'static str> {
    KINDS
        .iter()
        .find(|(_, e)| Dimension::from_ints(*e) == *d)
        .map(|(n, _)| *n)
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
