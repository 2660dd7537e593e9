//! Up-front bounds of the pair actions (`analyze_sphere_contacts`,
//! `resolve_isolated_elastic_sphere_contacts`): their work and their largest reply follow from
//! the pair count and the bits of their largest input, both known before any pair is looked at.

use crate::{Limits, ProtocolError};
use centl_physics::{SphereWorld, StateBits};

/// Bytes of one listed pair besides its two numbers and ids (indices, member names, units).
const PAIR_OVERHEAD_BYTES: u64 = 256;

/// Bits of the largest part of any number in the world (masses, positions, velocities, radii).
pub fn input_bits(world: &SphereWorld) -> usize {
    let particles = StateBits::of_all(world.spheres().iter().map(|s| s.particle())).max_bits();
    let radii = world.spheres().iter().map(|s| s.radius().bits()).max();
    particles.max(radii.unwrap_or(0))
}

/// Decimal digits of a number of `bits` bits, at most.
fn digits(bits: u64) -> u64 {
    // log10(2) < 0.30103; one more for the rounding.
    bits.saturating_mul(30_103) / 100_000 + 1
}

/// The most bytes one listed pair can take when the inputs have `bits` bits: its evidence is a
/// squared distance (a sum of three squared differences: parts of at most 12·bits + 4 bits)
/// and a squared radius sum (at most 4·bits + 2), each written `n/d`.
pub fn pair_reply_bytes(bits: usize, id_bytes: usize) -> u64 {
    let b = bits as u64;
    let number = |part_bits: u64| 2 * digits(part_bits) + 2;
    PAIR_OVERHEAD_BYTES + 2 * id_bytes as u64 + number(12 * b + 4) + number(4 * b + 2)
}

/// The work of examining every pair once: pairs × max(64, bits of the largest input),
/// refused up front when it alone passes the budget (the event world charges it per round).
pub fn pair_work(world: &SphereWorld, limits: &Limits) -> Result<(), ProtocolError> {
    let pairs = world.pair_count() as u64;
    let bits = input_bits(world);
    let work = pairs.saturating_mul((bits as u64).max(crate::limits::MIN_STEP_BITS));
    if work > limits.max_work_bit_steps {
        return Err(ProtocolError::WorkLimitExceeded {
            work,
            step: 0,
            limit: limits.max_work_bit_steps,
        });
    }
    Ok(())
}

/// Charges pairs × max(64, input bits) against the work budget, and refuses a request whose
/// pairs, all listed, could need a reply beyond the reply limit.
pub fn pair_bounds(world: &SphereWorld, limits: &Limits) -> Result<(), ProtocolError> {
    pair_work(world, limits)?;
    let pairs = world.pair_count() as u64;
    let bits = input_bits(world);
    let id_bytes = world
        .spheres()
        .iter()
        .map(|s| s.id().len())
        .max()
        .unwrap_or(0);
    let bytes = pairs.saturating_mul(pair_reply_bytes(bits, id_bytes));
    if bytes > limits.max_reply_bytes as u64 {
        return Err(ProtocolError::ReplyTooLarge {
            bytes,
            step: 0,
            limit: limits.max_reply_bytes,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digit_bound_holds_for_powers_of_two() {
        for bits in [1u64, 2, 10, 64, 100, 1000, 65_536] {
            // 2^bits - 1 is the largest number of `bits` bits.
            let largest =
                exact::Rational::from(2).pow(bits as i64).unwrap() - exact::Rational::one();
            let exact_digits = largest.decimal_digits().0 as u64;
            assert!(digits(bits) >= exact_digits, "{bits}");
            assert!(digits(bits) <= exact_digits + 1, "{bits}");
        }
    }
}
