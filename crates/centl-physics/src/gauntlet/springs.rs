//! Symplectic Euler on a zero-rest-length spring (with optional drag): three identities derived
//! by hand from the step `v' = v − h(k/m)d − h(b/m)v`, `d' = d + h v'` (`d = x − anchor`).
//!
//! - Without drag the step conserves `H = ½m|v|² + ½k|d|² − ½hk(d·v)` exactly (expand
//!   `H(d', v')`: the cross terms cancel for any `h`).
//! - The force is central, so `d' × v' = d × v' = (1 − hb/m)(d × v)`: the angular momentum
//!   `m d × v` is multiplied by `1 − hb/m` per step (conserved without drag).
//! - Per component the step is the linear map `M = [[1 − h²k/m, h(1 − hb/m)], [−hk/m, 1 − hb/m]]`
//!   on `(d, v)`, so the momentum `m v_N` is read off `M^N` (computed by squaring).

use super::algebra::{R3, add, bare, cross, div, dot, expect_eq, mat_pow, power, scale, sub};
use super::rng::Gen;
use crate::dims::{DRAG, LENGTH, MASS, STIFFNESS, TIME, VELOCITY};
use crate::{ForceModel, HookeSpring, LinearDrag, Particle, symplectic_euler};
use exact::Rational;
use units::Quantity;

/// A random spring run: the parameters and the engine's final state.
struct SpringRun {
    m: Rational,
    k: Rational,
    b: Rational,
    h: Rational,
    steps: u64,
    d0: R3,
    v0: R3,
    d_n: R3,
    v_n: R3,
}

fn run(g: &mut Gen, with_drag: bool) -> Result<SpringRun, String> {
    let fail = |e: crate::PhysicsError| format!("engine refused a valid spring run: {e}");
    let m = g.positive(20, 6);
    let k = g.positive(30, 6);
    let b = if with_drag {
        g.positive(10, 6)
    } else {
        Rational::zero()
    };
    let h = g.positive(3, 12);
    let steps = g.int(1, 24) as u64;
    let anchor = g.vec3(10, 4, LENGTH);
    let x0 = g.vec3(10, 4, LENGTH);
    let v0 = g.vec3(10, 4, VELOCITY);
    let p = Particle::new("p", &Quantity::new(m.clone(), MASS), x0.clone(), v0.clone())
        .map_err(fail)?;
    let spring = HookeSpring::new(
        anchor.clone(),
        &Quantity::new(k.clone(), STIFFNESS),
        &Quantity::new(Rational::zero(), LENGTH),
    )
    .map_err(fail)?;
    let mut models: Vec<Box<dyn ForceModel>> = vec![Box::new(spring)];
    if with_drag {
        models.push(Box::new(
            LinearDrag::new(&Quantity::new(b.clone(), DRAG)).map_err(fail)?,
        ));
    }
    let out =
        symplectic_euler(&p, &models, &Quantity::new(h.clone(), TIME), steps).map_err(fail)?;
    let a = bare(&anchor);
    Ok(SpringRun {
        d0: sub(&bare(&x0), &a),
        v0: bare(&v0),
        d_n: sub(&bare(out.particle.position()), &a),
        v_n: bare(out.particle.velocity()),
        m,
        k,
        b,
        h,
        steps,
    })
}

/// The modified energy `½m|v|² + ½k|d|² − ½hk(d·v)`.
fn modified_energy(r: &SpringRun, d: &R3, v: &R3) -> Rational {
    let half = Rational::new(1, 2).unwrap_or_else(|_| Rational::zero());
    &half * (&r.m * dot(v, v) + &r.k * dot(d, d) - &r.h * &r.k * dot(d, v))
}

/// Spring without drag: the modified energy is the same after `N` steps.
pub fn modified_energy_conserved(g: &mut Gen) -> Result<(), String> {
    let r = run(g, false)?;
    expect_eq(
        "modified energy ½m|v|² + ½k|d|² − ½hk(d·v) after N steps",
        &modified_energy(&r, &r.d_n, &r.v_n),
        &modified_energy(&r, &r.d0, &r.v0),
    )
}

/// Spring with or without drag: `L_N = (1 − hb/m)^N L_0`.
pub fn angular_momentum_geometric(g: &mut Gen) -> Result<(), String> {
    let with_drag = g.coin();
    let r = run(g, with_drag)?;
    let factor = Rational::one() - div(&(&r.h * &r.b), &r.m);
    let l0 = scale(&r.m, &cross(&r.d0, &r.v0));
    let l_n = scale(&r.m, &cross(&r.d_n, &r.v_n));
    expect_eq(
        "angular momentum about the anchor, m d×v, after N steps",
        &l_n,
        &scale(&power(&factor, r.steps), &l0),
    )
}

/// Spring with or without drag: `(d_N, m v_N)` from `M^N` by squaring.
pub fn momentum_from_map_power(g: &mut Gen) -> Result<(), String> {
    let with_drag = g.coin();
    let r = run(g, with_drag)?;
    let w2 = div(&r.k, &r.m);
    let damp = Rational::one() - div(&(&r.h * &r.b), &r.m);
    let map = [
        [Rational::one() - &r.h * &r.h * &w2, &r.h * &damp],
        [-(&r.h * &w2), damp],
    ];
    let mn = mat_pow(&map, r.steps);
    let d_n = add(&scale(&mn[0][0], &r.d0), &scale(&mn[0][1], &r.v0));
    let v_n = add(&scale(&mn[1][0], &r.d0), &scale(&mn[1][1], &r.v0));
    expect_eq("displacement from the anchor after N steps", &r.d_n, &d_n)?;
    expect_eq(
        "momentum m v after N steps",
        &scale(&r.m, &r.v_n),
        &scale(&r.m, &v_n),
    )
}
