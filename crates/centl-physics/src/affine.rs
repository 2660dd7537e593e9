//! The fast exact path for forces that are affine in the state.
//!
//! Every built-in force is `F = α·x + β·v + c` with scalar `α`, `β` (the same on every axis)
//! and a constant vector `c`, except a spring with a nonzero rest length. For such forces a
//! symplectic Euler step is one fixed affine map of `(x, v)`, which [`exact::AffineMap`]
//! iterates on integers over a shared denominator instead of reducing every intermediate
//! fraction. The results are the same rationals as step-by-step stepping, which the tests check;
//! only the cost differs (see `docs/performance.md`).

use crate::integrate::TimeStep;
use crate::{ForceModel, Particle, Vec3};
use exact::{AffineMap, Rational, SharedDenominator};

/// A force of the form `F = position·x + velocity·v + constant` (SI units: N/m, kg/s, N).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AffineForce {
    /// Coefficient of the position (N/m); `−k` for a spring.
    pub position: Rational,
    /// Coefficient of the velocity (kg/s); `−b` for drag.
    pub velocity: Rational,
    /// The constant part (N), per axis.
    pub constant: [Rational; 3],
}

impl AffineForce {
    /// The zero force.
    pub fn zero() -> Self {
        AffineForce {
            position: Rational::zero(),
            velocity: Rational::zero(),
            constant: [Rational::zero(), Rational::zero(), Rational::zero()],
        }
    }

    fn add(mut self, o: AffineForce) -> Self {
        self.position += o.position;
        self.velocity += o.velocity;
        for (a, b) in self.constant.iter_mut().zip(o.constant) {
            *a += b;
        }
        self
    }
}

/// The summed affine form of every model on `p`, or `None` if any model is not affine.
pub(crate) fn affine_net(models: &[Box<dyn ForceModel>], p: &Particle) -> Option<AffineForce> {
    models
        .iter()
        .try_fold(AffineForce::zero(), |acc, m| Some(acc.add(m.affine(p)?)))
}

/// `steps` symplectic Euler steps of `p` when every force is affine; `None` otherwise.
pub(crate) fn evolve_affine(
    p: &Particle,
    models: &[Box<dyn ForceModel>],
    dt: &TimeStep,
    steps: u64,
) -> Option<Particle> {
    let f = affine_net(models, p)?;
    let h = dt.seconds();
    let m = p.mass();
    // Accelerations per unit state: a = ax·x + av·v + ac. The mass is positive by construction.
    let ax = f.position.checked_div(m).ok()?;
    let av = f.velocity.checked_div(m).ok()?;
    // v' = h·ax·x + (1 + h·av)·v + h·ac;  x' = x + h·v'.
    let vx = h * &ax;
    let vv = Rational::one() + h * &av;
    let xx = Rational::one() + h * &vx;
    let xv = h * &vv;
    let mut matrix = vec![vec![Rational::zero(); 6]; 6];
    let mut offset = vec![Rational::zero(); 6];
    for axis in 0..3 {
        let vc = h * &f.constant[axis].checked_div(m).ok()?;
        matrix[axis][axis] = xx.clone();
        matrix[axis][axis + 3] = xv.clone();
        matrix[axis + 3][axis] = vx.clone();
        matrix[axis + 3][axis + 3] = vv.clone();
        offset[axis] = h * &vc;
        offset[axis + 3] = vc;
    }
    let map = AffineMap::new(&matrix, &offset)?;
    let start: Vec<Rational> = p
        .position()
        .components()
        .iter()
        .chain(p.velocity().components())
        .cloned()
        .collect();
    let mut state = SharedDenominator::new(&start);
    for _ in 0..steps {
        map.apply(&mut state);
    }
    let s = state.to_rationals();
    let [x0, x1, x2, v0, v1, v2]: [Rational; 6] = s.try_into().ok()?;
    let x = Vec3::new(x0, x1, x2, p.position().dim());
    let v = Vec3::new(v0, v1, v2, p.velocity().dim());
    Some(p.with_state_unchecked(x, v))
}
