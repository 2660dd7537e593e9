//! [`Limits`]: every bound a request is held to, advertised by `capabilities`.
//!
//! Bounds are checked before work starts where the cost is known up front (steps, samples,
//! particles, pairs, digits), and after every step where it is not (rational growth), so a
//! request either completes or fails deterministically: never a hang, never a partial answer.

use serde::Serialize;

/// The bounds in force for one server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Limits {
    /// Longest request line in bytes; longer lines are discarded unread.
    pub max_line_bytes: usize,
    /// Deepest nesting of JSON arrays and objects in a request.
    pub max_json_depth: usize,
    /// Most decimal digits in the numerator or denominator of any exact number in a request.
    pub max_number_digits: usize,
    /// Most bits in the numerator or denominator of any rational produced while computing.
    pub max_rational_bits: usize,
    /// Most symplectic Euler steps in one request.
    pub max_steps: u64,
    /// Most particles in one world.
    pub max_particles: usize,
    /// Most unordered sphere pairs a contact request may enumerate.
    pub max_sphere_pairs: u64,
    /// Most trajectory samples one simulation may return.
    pub max_trajectory_samples: u64,
    /// Most work one simulation may do, in bit-steps: each step costs the number of
    /// particles times the bits of the largest rational in the state (at least
    /// [`MIN_STEP_BITS`]). Steps × particles bound the count of operations and the bit
    /// limit bounds their size, but together they still allow hours of arithmetic; this
    /// budget bounds the product, deterministically (no clock involved).
    pub max_work_bit_steps: u64,
}

/// The bits a particle's step is charged at least, so small states still cost something.
pub const MIN_STEP_BITS: u64 = 64;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_line_bytes: 1 << 20,
            max_json_depth: 32,
            max_number_digits: 1_000,
            max_rational_bits: 1 << 16,
            max_steps: centl_physics::MAX_STEPS,
            max_particles: centl_physics::MAX_WORLD_PARTICLES,
            max_sphere_pairs: 4_096,
            max_trajectory_samples: 10_000,
            max_work_bit_steps: 1 << 30,
        }
    }
}
