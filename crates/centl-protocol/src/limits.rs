//! [`Limits`]: every bound a request is held to, advertised by `capabilities`.
//!
//! Bounds are checked before work starts where the cost is known up front (steps, samples,
//! particles, pairs, digits, unit factors, the least work and the least reply), and after every
//! step where it is not (rational growth, work, reply bytes), so a request either completes or
//! fails deterministically: never a hang, never a partial answer. Every reply is measured
//! before it is written, and every exact number read or produced is held to the bit limit.

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
    /// Most bits in the numerator or denominator of any rational: read (after conversion to
    /// SI units), produced while computing, or sent back.
    pub max_rational_bits: usize,
    /// Most symplectic Euler steps in one request.
    pub max_steps: u64,
    /// Most particles in one world.
    pub max_particles: usize,
    /// Most unordered sphere pairs a contact request may enumerate.
    pub max_sphere_pairs: u64,
    /// Most trajectory samples one simulation may return.
    pub max_trajectory_samples: u64,
    /// Most work one request may do, in bit-steps. A simulation step costs particles ×
    /// (forces + 1) × the bits of the largest rational in the state (at least
    /// [`MIN_STEP_BITS`]); a pair action costs pairs × the bits of its largest input. Counts
    /// and the bit limit each bound one factor, but their product still allows hours of
    /// arithmetic; this budget bounds the product, deterministically (no clock involved).
    pub max_work_bit_steps: u64,
    /// Most bytes in one reply line. Refused up front when the least reply the request asks
    /// for is already larger (a trajectory's samples × particles), checked while a trajectory
    /// is recorded, and checked on every reply before it is written. A result is held as a
    /// JSON value tree before it is written, which takes about 25 times its text (measured:
    /// 420 MB for a 15.8 MB trajectory), so this limit also bounds a request's memory.
    pub max_reply_bytes: usize,
}

/// The bits a particle's step is charged at least, so small states still cost something.
pub const MIN_STEP_BITS: u64 = 64;

/// The bytes one particle takes in a trajectory sample at least (one-digit numbers, a
/// one-letter id): the unit of the up-front reply check.
pub const MIN_PARTICLE_SAMPLE_BYTES: u64 = 137;

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
            max_reply_bytes: 8 << 20,
        }
    }
}
