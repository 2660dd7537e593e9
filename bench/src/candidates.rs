//! One [`Rational`] implementation per candidate crate, and the list of compiled-in candidates.
//!
//! Permissive candidates are always built; the LGPL ones (malachite-q, rug) only with the cargo
//! features `malachite` / `rug`, as measurement references.

use dashu_int::ops::BitTest;

use crate::problems::{Outcome, Problem, Rational, canonical_pq, run};

/// A candidate backend: its name, licence and monomorphised runner.
#[derive(Debug, Clone, Copy)]
pub struct Candidate {
    /// Short name used on the command line and in tables.
    pub name: &'static str,
    /// Licence of the crate, to keep LGPL references visibly apart.
    pub licence: &'static str,
    /// Runs `steps` steps of a problem and returns the checked outcome.
    pub run: fn(Problem, u64) -> Outcome,
}

/// Every candidate compiled into this build, the intended default (`dashu`) first.
pub fn all_candidates() -> Vec<Candidate> {
    // `mut` is only used when an LGPL feature is on.
    #[allow(unused_mut)]
    let mut list = vec![
        Candidate {
            name: "engine",
            licence: "MIT OR Apache-2.0 (ours: centl-physics, fast exact path)",
            run: crate::engine::run_fast,
        },
        Candidate {
            name: "engine-stepwise",
            licence: "MIT OR Apache-2.0 (ours: centl-physics, one reduced operation at a time)",
            run: crate::engine::run_stepwise,
        },
        Candidate {
            name: "dashu",
            licence: "MIT OR Apache-2.0",
            run: run::<dashu_ratio::RBig>,
        },
        Candidate {
            name: "dashu-relaxed",
            licence: "MIT OR Apache-2.0",
            run: run::<dashu_ratio::Relaxed>,
        },
        Candidate {
            name: "num-rational",
            licence: "MIT OR Apache-2.0",
            run: run::<num_rational::BigRational>,
        },
    ];
    #[cfg(feature = "malachite")]
    list.push(Candidate {
        name: "malachite",
        licence: "LGPL-3.0-only",
        run: run::<malachite_q::Rational>,
    });
    #[cfg(feature = "rug")]
    list.push(Candidate {
        name: "rug",
        licence: "LGPL-3.0+ (GMP)",
        run: run::<rug::Rational>,
    });
    list
}

/// Step bodies for libraries whose `&a op &b` operators allocate a fresh result and whose
/// `+=` takes an owned value; `$end_of_step` runs on `(x, v)` after each step. Constants are `[k, b, −1/m, dt]` and `([g0, g1, g2], dt)`.
macro_rules! ref_operator_steps {
    ($end_of_step:expr) => {
        type E1Consts = [Self; 4];
        type E2Consts = ([Self; 3], Self);

        fn e1_consts() -> Self::E1Consts {
            [
                Self::ratio(3, 1),
                Self::ratio(1, 5),
                Self::ratio(-1, 7),
                Self::ratio(1, 100),
            ]
        }

        fn e2_consts() -> Self::E2Consts {
            (
                [Self::ratio(0, 1), Self::ratio(0, 1), Self::ratio(-981, 100)],
                Self::ratio(1, 10),
            )
        }

        fn e1_step(x: &mut [Self; 3], v: &mut [Self; 3], c: &Self::E1Consts) {
            let [k, b, neg_inv_m, dt] = c;
            for (xi, vi) in x.iter_mut().zip(v.iter_mut()) {
                let f = &(k * &*xi) + &(b * &*vi);
                let a = &f * neg_inv_m;
                *vi += &a * dt;
                *xi += &*vi * dt;
            }
            $end_of_step(x, v);
        }

        fn e2_step(x: &mut [Self; 3], v: &mut [Self; 3], c: &Self::E2Consts) {
            let (g, dt) = c;
            for ((xi, vi), gi) in x.iter_mut().zip(v.iter_mut()).zip(g) {
                *vi += gi * dt;
                *xi += &*vi * dt;
            }
            $end_of_step(x, v);
        }
    };
}

impl Rational for num_rational::BigRational {
    ref_operator_steps!(already_reduced);

    fn ratio(p: i64, q: u64) -> Self {
        Self::new(p.into(), q.into())
    }
    fn numer_bits(&self) -> u64 {
        self.numer().bits()
    }
    fn denom_bits(&self) -> u64 {
        self.denom().bits()
    }
    fn to_pq(&self) -> String {
        format!("{}/{}", self.numer(), self.denom())
    }
}

impl Rational for dashu_ratio::RBig {
    ref_operator_steps!(already_reduced);

    fn ratio(p: i64, q: u64) -> Self {
        Self::from_parts(p.into(), q.into())
    }
    fn numer_bits(&self) -> u64 {
        dashu_bits(self.numerator())
    }
    fn denom_bits(&self) -> u64 {
        self.denominator().bit_len() as u64
    }
    fn to_pq(&self) -> String {
        canonical_pq(self.to_string())
    }
}

/// dashu's lazily reduced type: the step computes unreduced and reduces the state once at the
/// end, which is how an engine would use it in an inner loop.
impl Rational for dashu_ratio::Relaxed {
    ref_operator_steps!(reduce_state);

    fn ratio(p: i64, q: u64) -> Self {
        Self::from_parts(p.into(), q.into())
    }
    fn numer_bits(&self) -> u64 {
        dashu_bits(self.clone().canonicalize().numerator())
    }
    fn denom_bits(&self) -> u64 {
        self.clone().canonicalize().denominator().bit_len() as u64
    }
    fn to_pq(&self) -> String {
        canonical_pq(self.clone().canonicalize().to_string())
    }
}

/// End of step for the types that reduce after every operation: nothing to do.
fn already_reduced<R>(_x: &mut [R; 3], _v: &mut [R; 3]) {}

/// The per-step reduction that keeps `Relaxed` from growing without bound.
fn reduce_state(x: &mut [dashu_ratio::Relaxed; 3], v: &mut [dashu_ratio::Relaxed; 3]) {
    for r in x.iter_mut().chain(v.iter_mut()) {
        *r = std::mem::replace(r, dashu_ratio::Relaxed::ZERO)
            .canonicalize()
            .relax();
    }
}

fn dashu_bits(n: &dashu_int::IBig) -> u64 {
    use dashu_int::ops::UnsignedAbs;
    n.unsigned_abs().bit_len() as u64
}

#[cfg(feature = "malachite")]
impl Rational for malachite_q::Rational {
    ref_operator_steps!(already_reduced);

    fn ratio(p: i64, q: u64) -> Self {
        Self::from(p) / Self::from(q)
    }
    fn numer_bits(&self) -> u64 {
        use malachite_base::num::logic::traits::SignificantBits;
        self.numerator_ref().significant_bits()
    }
    fn denom_bits(&self) -> u64 {
        use malachite_base::num::logic::traits::SignificantBits;
        self.denominator_ref().significant_bits()
    }
    fn to_pq(&self) -> String {
        canonical_pq(self.to_string())
    }
}

/// rug is used in place (`assign`, `+=` with incomplete values), its idiomatic fast path.
#[cfg(feature = "rug")]
impl Rational for rug::Rational {
    type E1Consts = [Self; 4];
    type E2Consts = ([Self; 3], Self);

    fn ratio(p: i64, q: u64) -> Self {
        Self::from((p, q))
    }
    fn e1_consts() -> Self::E1Consts {
        [
            Self::ratio(3, 1),
            Self::ratio(1, 5),
            Self::ratio(-1, 7),
            Self::ratio(1, 100),
        ]
    }
    fn e2_consts() -> Self::E2Consts {
        (
            [Self::ratio(0, 1), Self::ratio(0, 1), Self::ratio(-981, 100)],
            Self::ratio(1, 10),
        )
    }
    fn e1_step(x: &mut [Self; 3], v: &mut [Self; 3], c: &Self::E1Consts) {
        use rug::Assign;
        let [k, b, neg_inv_m, dt] = c;
        let mut f = Self::new();
        let mut t = Self::new();
        for (xi, vi) in x.iter_mut().zip(v.iter_mut()) {
            f.assign(k * &*xi);
            t.assign(b * &*vi);
            f += &t;
            f *= neg_inv_m;
            f *= dt;
            *vi += &f;
            t.assign(&*vi * dt);
            *xi += &t;
        }
    }
    fn e2_step(x: &mut [Self; 3], v: &mut [Self; 3], c: &Self::E2Consts) {
        use rug::Assign;
        let (g, dt) = c;
        let mut t = Self::new();
        for ((xi, vi), gi) in x.iter_mut().zip(v.iter_mut()).zip(g) {
            t.assign(gi * dt);
            *vi += &t;
            t.assign(&*vi * dt);
            *xi += &t;
        }
    }
    fn numer_bits(&self) -> u64 {
        u64::from(self.numer().significant_bits())
    }
    fn denom_bits(&self) -> u64 {
        u64::from(self.denom().significant_bits())
    }
    fn to_pq(&self) -> String {
        canonical_pq(self.to_string())
    }
}
