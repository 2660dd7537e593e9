//! [`PhysicsError`]: every refusal of the engine, one variant each.
//!
//! Each variant has a stable snake_case [`PhysicsError::code`], so a machine interface can map
//! it to its own error code without parsing messages.

use exact::{QuadraticNumber, Rational};
use thiserror::Error;
use units::{Dimension, describe};

/// Why the engine refused an input or an operation. Refusals happen before any work is done,
/// so a refused call never leaves a half-updated state behind.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum PhysicsError {
    /// An input quantity does not carry the dimension its role requires.
    #[error("{quantity} must be {}, got {}", describe(.expected), describe(.found))]
    WrongDimension {
        /// The role of the value (`mass`, `position`, `time step`, ...).
        quantity: &'static str,
        /// The dimension supplied.
        found: Dimension,
        /// The dimension required.
        expected: Dimension,
    },
    /// Vector addition or subtraction of two different dimensions.
    #[error("cannot {operation} vectors of {} and {}", describe(.left), describe(.right))]
    VectorDimensionMismatch {
        /// `add` or `subtract`.
        operation: &'static str,
        /// Dimension of the left operand.
        left: Dimension,
        /// Dimension of the right operand.
        right: Dimension,
    },
    /// A particle identifier that is empty.
    #[error("particle identifier must not be empty")]
    EmptyId,
    /// A mass that is zero or negative.
    #[error("mass of particle `{id}` must be positive, got {mass} kg")]
    NonPositiveMass {
        /// The particle.
        id: String,
        /// The mass supplied, in kg.
        mass: Rational,
    },
    /// A sphere radius that is zero or negative.
    #[error("radius of sphere `{id}` must be positive, got {radius} m")]
    NonPositiveRadius {
        /// The particle the sphere belongs to.
        id: String,
        /// The radius supplied, in m.
        radius: Rational,
    },
    /// A force-model parameter that must not be negative (stiffness, drag, rest length).
    #[error("{parameter} must not be negative, got {value}")]
    NegativeParameter {
        /// Which parameter.
        parameter: &'static str,
        /// The value supplied, in SI base units.
        value: Rational,
    },
    /// A time step that is zero or negative.
    #[error("time step must be positive, got {dt} s")]
    NonPositiveTimeStep {
        /// The step supplied, in s.
        dt: Rational,
    },
    /// More steps than one call may take.
    #[error("{requested} steps requested; one call takes at most {limit}")]
    TooManySteps {
        /// Steps asked for.
        requested: u64,
        /// The limit in force ([`crate::MAX_STEPS`]).
        limit: u64,
    },
    /// More particles than a world may hold.
    #[error("{count} particles given; a world holds at most {limit}")]
    TooManyParticles {
        /// Particles supplied.
        count: usize,
        /// The limit in force ([`crate::MAX_WORLD_PARTICLES`]).
        limit: usize,
    },
    /// Two particles of one world share an identifier.
    #[error("particle identifier `{id}` appears more than once")]
    DuplicateId {
        /// The repeated identifier.
        id: String,
    },
    /// A spring with a nonzero rest length needs |x − anchor|, and that length is irrational.
    #[error(
        "spring length is irrational (|x - anchor|^2 = {squared_length} m^2 is not the square of a rational); a nonzero rest length is supported exactly only at rational lengths"
    )]
    IrrationalSpringLength {
        /// |x − anchor|² in m².
        squared_length: Rational,
    },
    /// A spring with a nonzero rest length whose particle sits on the anchor: no direction.
    #[error(
        "particle `{id}` sits exactly on the spring anchor; with rest length {rest_length} m the force has no direction"
    )]
    SpringAtAnchor {
        /// The particle.
        id: String,
        /// The spring's rest length in m.
        rest_length: Rational,
    },
    /// Division of a vector by an exact zero scalar.
    #[error("cannot divide a vector by zero")]
    DivisionByZero,
    /// A contact response between two particles whose centres coincide (no line of centres).
    #[error(
        "particles `{first}` and `{second}` have coincident centres: the contact normal is undefined"
    )]
    CoincidentCenters {
        /// First particle.
        first: String,
        /// Second particle.
        second: String,
    },
    /// A pair operation given the same particle identifier twice.
    #[error("a contact pair needs two distinct particles, both are `{id}`")]
    SameParticle {
        /// The shared identifier.
        id: String,
    },
    /// A negative interval duration.
    #[error("duration must not be negative, got {duration} s")]
    NegativeDuration {
        /// The duration supplied, in s.
        duration: Rational,
    },
    /// A bracket refinement width that is zero or negative.
    #[error("refinement width must be positive, got {width}")]
    NonPositiveWidth {
        /// The width supplied, in s.
        width: Rational,
    },
    /// A bracket refinement that would need more bisections than allowed.
    #[error("narrowing the bracket to width {width} needs more than {limit} bisections")]
    RefinementTooFine {
        /// The width asked for, in s.
        width: Rational,
        /// The bisection limit ([`crate::MAX_BISECTIONS`]).
        limit: u32,
    },
    /// The exact re-check at an event time did not find the spheres touching. This signals an
    /// engine defect, never a user error; it is reported rather than trusted.
    #[error(
        "event re-check failed: squared centre distance {squared_center_distance} m^2 differs from squared radius sum {squared_radius_sum} m^2"
    )]
    EventRecheckFailed {
        /// |Δx|² at the event state, m².
        squared_center_distance: Rational,
        /// (r₁ + r₂)², m².
        squared_radius_sum: Rational,
    },
    /// Exact arithmetic in a quadratic field failed: operands from two different fields
    /// Q(√d), or a zero divisor.
    #[error("exact quadratic-field arithmetic failed: {reason}")]
    QuadraticArithmetic {
        /// What the arithmetic refused.
        reason: exact::ArithmeticError,
    },
    /// A wall given an axis other than 0, 1 or 2.
    #[error("a wall's axis must be 0, 1 or 2, got {axis}")]
    InvalidWallAxis {
        /// The axis given.
        axis: usize,
    },
    /// The exact re-check at a wall event did not find the sphere touching the wall: an engine
    /// defect, reported rather than trusted.
    #[error("exact re-check failed at a wall event: clearance {clearance} m, not 0")]
    WallEventRecheckFailed {
        /// The clearance found, printed.
        clearance: String,
    },
    /// The exact re-check at an irrational event time did not find the spheres touching: an
    /// engine defect, reported rather than trusted.
    #[error(
        "event re-check failed: squared centre distance {squared_center_distance} m^2 differs from squared radius sum {squared_radius_sum} m^2"
    )]
    QuadraticEventRecheckFailed {
        /// |Δx|² at the event state, m².
        squared_center_distance: QuadraticNumber,
        /// (r₁ + r₂)², m².
        squared_radius_sum: Rational,
    },
}

impl From<exact::ArithmeticError> for PhysicsError {
    fn from(reason: exact::ArithmeticError) -> Self {
        match reason {
            exact::ArithmeticError::DivisionByZero => PhysicsError::DivisionByZero,
            reason => PhysicsError::QuadraticArithmetic { reason },
        }
    }
}

impl PhysicsError {
    /// The stable snake_case code of the refusal, for machine interfaces.
    pub fn code(&self) -> &'static str {
        match self {
            PhysicsError::WrongDimension { .. } => "wrong_dimension",
            PhysicsError::VectorDimensionMismatch { .. } => "vector_dimension_mismatch",
            PhysicsError::EmptyId => "empty_id",
            PhysicsError::NonPositiveMass { .. } => "non_positive_mass",
            PhysicsError::NonPositiveRadius { .. } => "non_positive_radius",
            PhysicsError::NegativeParameter { .. } => "negative_parameter",
            PhysicsError::NonPositiveTimeStep { .. } => "non_positive_time_step",
            PhysicsError::TooManySteps { .. } => "too_many_steps",
            PhysicsError::TooManyParticles { .. } => "too_many_particles",
            PhysicsError::DuplicateId { .. } => "duplicate_id",
            PhysicsError::IrrationalSpringLength { .. } => "irrational_spring_length",
            PhysicsError::SpringAtAnchor { .. } => "spring_at_anchor",
            PhysicsError::DivisionByZero => "division_by_zero",
            PhysicsError::CoincidentCenters { .. } => "coincident_centers",
            PhysicsError::SameParticle { .. } => "same_particle",
            PhysicsError::NegativeDuration { .. } => "negative_duration",
            PhysicsError::NonPositiveWidth { .. } => "non_positive_width",
            PhysicsError::RefinementTooFine { .. } => "refinement_too_fine",
            PhysicsError::EventRecheckFailed { .. }
            | PhysicsError::QuadraticEventRecheckFailed { .. }
            | PhysicsError::WallEventRecheckFailed { .. } => "event_recheck_failed",
            PhysicsError::InvalidWallAxis { .. } => "invalid_wall_axis",
            PhysicsError::QuadraticArithmetic { .. } => "quadratic_arithmetic",
        }
    }

    /// Checks that `found` is `expected`, naming the role on failure.
    pub(crate) fn check_dim(
        quantity: &'static str,
        found: Dimension,
        expected: Dimension,
    ) -> Result<(), PhysicsError> {
        if found == expected {
            Ok(())
        } else {
            Err(PhysicsError::WrongDimension {
                quantity,
                found,
                expected,
            })
        }
    }
}
