//! The gauntlet's random source: SplitMix64, seeded per identity and case, so a counterexample
//! is reproduced by its seed alone.

use crate::Vec3;
use exact::Rational;
use units::Dimension;

/// A SplitMix64 generator (Steele, Lea and Flood, 2014): small, fast and reproducible.
#[derive(Clone, Debug)]
pub struct Gen {
    state: u64,
}

/// One SplitMix64 output for `z`.
pub fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Gen {
    /// The generator for case `case` of identity number `identity` under `seed`.
    pub fn for_case(seed: u64, identity: usize, case: u32) -> Self {
        let salt = ((identity as u64) << 32) | u64::from(case);
        Gen {
            state: mix(seed ^ mix(salt)),
        }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix(self.state)
    }

    /// A uniform integer in `lo..=hi` (`lo ≤ hi`, a span far below 2⁶⁴, so the bias is nil).
    pub fn int(&mut self, lo: i64, hi: i64) -> i64 {
        let span = hi.abs_diff(lo) + 1;
        lo.wrapping_add((self.next_u64() % span) as i64)
    }

    /// True with probability 1/2.
    pub fn coin(&mut self) -> bool {
        self.next_u64() & 1 == 1
    }

    /// `n/d` with `|n| ≤ max_num` and `1 ≤ d ≤ max_den`.
    pub fn rational(&mut self, max_num: i64, max_den: i64) -> Rational {
        let n = self.int(-max_num, max_num);
        let d = self.int(1, max_den);
        Rational::from(n) * Rational::new(1, d).unwrap_or_else(|_| Rational::one())
    }

    /// `n/d` with `1 ≤ n ≤ max_num` and `1 ≤ d ≤ max_den`: strictly positive.
    pub fn positive(&mut self, max_num: i64, max_den: i64) -> Rational {
        let n = self.int(1, max_num);
        let d = self.int(1, max_den);
        Rational::from(n) * Rational::new(1, d).unwrap_or_else(|_| Rational::one())
    }

    /// Three rationals from [`Gen::rational`].
    pub fn triple(&mut self, max_num: i64, max_den: i64) -> [Rational; 3] {
        [
            self.rational(max_num, max_den),
            self.rational(max_num, max_den),
            self.rational(max_num, max_den),
        ]
    }

    /// A vector of [`Gen::triple`] components with dimension `dim`.
    pub fn vec3(&mut self, max_num: i64, max_den: i64, dim: Dimension) -> Vec3 {
        Vec3::from_components(self.triple(max_num, max_den), dim)
    }
}
