//! Continuous-contact certificates against contacts built by hand.
//!
//! - A contact built at a chosen rational time `t*`: a point `p` with `|p| = R` from the rational
//!   parametrisation of the sphere, a relative velocity `v` with `v·p < 0` (approaching) and the
//!   start `r₀ = p − v t*`. Then `t*` is the smaller root of `f(t) = |r₀ + v t|² − R²`
//!   (`f'(t*) = 2 v·p < 0`), so the certificate must report `crossing_contact` at exactly `t*`
//!   when `T ≥ t*` and `no_contact_in_interval` when `T < t*`. With `v ⊥ p` instead,
//!   `f(t) = |v|²(t − t*)²`: `tangent_contact` at `t*`.
//! - A crossing inside `(0, 1)` by construction (`f(0) > 0 > f(1)`), usually at an irrational
//!   time: the coefficients are `a = v·v`, `b = 2 r·v`, `c = r·r − R²`; a rational root is
//!   `(−b − √D)/2a`; an algebraic root's bracket `[lo, hi]` holds `(−b − √D)/2a`, decided by
//!   comparing squares, and so does every refinement, no wider than asked.

use super::algebra::{R3, add, div, dot, expect_eq, scale, sub};
use super::rng::Gen;
use crate::dims::{LENGTH, MASS, TIME, VELOCITY};
use crate::{
    CertificateStatus, ContactCertificate, FirstContact, Particle, Sphere, Vec3,
    certify_linear_sphere_contact,
};
use exact::Rational;
use units::Quantity;

fn refused(e: crate::PhysicsError) -> String {
    format!("engine refused a valid input: {e}")
}

/// Two spheres, the second at `r₀` from the first and moving at `v` relative to it, with a
/// random common offset and a random common velocity (the certificate sees neither).
fn certify(
    g: &mut Gen,
    radii: (&Rational, &Rational),
    r0: &R3,
    v: &R3,
    duration: &Rational,
) -> Result<ContactCertificate, String> {
    let base_x = g.triple(10, 4);
    let base_v = g.triple(10, 4);
    let sphere = |id: &str, x: R3, u: R3, radius: &Rational| -> Result<Sphere, String> {
        let p = Particle::new(
            id,
            &Quantity::new(Rational::one(), MASS),
            Vec3::from_components(x, LENGTH),
            Vec3::from_components(u, VELOCITY),
        )
        .map_err(refused)?;
        Sphere::new(p, &Quantity::new(radius.clone(), LENGTH)).map_err(refused)
    };
    let a = sphere("a", base_x.clone(), base_v.clone(), radii.0)?;
    let b = sphere("b", add(&base_x, r0), add(&base_v, v), radii.1)?;
    certify_linear_sphere_contact(&a, &b, &Quantity::new(duration.clone(), TIME)).map_err(refused)
}

/// `R·e` with `e = (2s, 2t, 1 − s² − t²)/(1 + s² + t²)`, a rational point of the unit sphere.
fn point_on_sphere(g: &mut Gen, radius: &Rational) -> R3 {
    let (s, t) = (g.rational(6, 4), g.rational(6, 4));
    let norm = Rational::one() + &s * &s + &t * &t;
    let e = [
        Rational::from(2) * &s,
        Rational::from(2) * &t,
        Rational::one() - &s * &s - &t * &t,
    ];
    scale(&div(radius, &norm), &e)
}

fn check_polynomial(
    cert: &ContactCertificate,
    r0: &R3,
    v: &R3,
    radius: &Rational,
) -> Result<(), String> {
    expect_eq("a = v·v", &cert.polynomial.a, &dot(v, v))?;
    expect_eq(
        "b = 2 r·v",
        &cert.polynomial.b,
        &(Rational::from(2) * dot(r0, v)),
    )?;
    expect_eq(
        "c = r·r − R²",
        &cert.polynomial.c,
        &(dot(r0, r0) - radius * radius),
    )
}

/// A crossing or a tangency built at a rational time `t*`.
pub fn rational_contact_time(g: &mut Gen) -> Result<(), String> {
    let (ra, rb) = (g.positive(8, 4), g.positive(8, 4));
    let radius = &ra + &rb;
    let p = point_on_sphere(g, &radius);
    let t_star = g.positive(10, 6);
    let w = g.triple(10, 4);
    let tangent = g.coin();
    let pp = dot(&p, &p);
    let v = if tangent {
        // v ⊥ p, nonzero.
        let v = sub(&w, &scale(&div(&dot(&w, &p), &pp), &p));
        if v.iter().all(Rational::is_zero) {
            let unit = [Rational::zero(), Rational::zero(), Rational::one()];
            sub(&unit, &scale(&div(&dot(&unit, &p), &pp), &p))
        } else {
            v
        }
    } else if dot(&w, &p).is_negative() {
        w
    } else {
        // v·p = w·p − (w·p/|p|² + 1)|p|² = −|p|² < 0.
        sub(&w, &scale(&(div(&dot(&w, &p), &pp) + Rational::one()), &p))
    };
    if v.iter().all(Rational::is_zero) {
        // Only possible when p is parallel to z and the tangent fallback met it: no case.
        return Ok(());
    }
    let r0 = sub(&p, &scale(&t_star, &v));
    let reach = g.coin();
    let duration = if reach {
        &t_star + g.rational(10, 6).abs()
    } else {
        &t_star * Rational::new(g.int(0, 9), 10).map_err(|e| e.to_string())?
    };
    let cert = certify(g, (&ra, &rb), &r0, &v, &duration)?;
    check_polynomial(&cert, &r0, &v, &radius)?;
    if !reach {
        expect_eq(
            "status before the built contact time",
            &cert.status,
            &CertificateStatus::NoContactInInterval,
        )?;
        return expect_eq("no first contact", &cert.first_contact, &None);
    }
    let status = if tangent {
        CertificateStatus::TangentContact
    } else {
        CertificateStatus::CrossingContact
    };
    expect_eq("status at the built contact time", &cert.status, &status)?;
    expect_eq(
        "first contact at the built time t*",
        &cert.first_contact,
        &Some(FirstContact::Rational(t_star)),
    )
}

/// `t ≥ lo` for `t = (−b − √D)/2a`, `a > 0`: `−b − 2a·lo ≥ √D`.
fn root_at_least(a: &Rational, b: &Rational, d: &Rational, lo: &Rational) -> bool {
    let m = -b - Rational::from(2) * a * lo;
    !m.is_negative() && &(&m * &m) >= d
}

/// `t ≤ hi`: `−b − 2a·hi ≤ √D`.
fn root_at_most(a: &Rational, b: &Rational, d: &Rational, hi: &Rational) -> bool {
    let m = -b - Rational::from(2) * a * hi;
    !m.is_positive() || &(&m * &m) <= d
}

/// A crossing inside `(0, 1)`: rational roots solve `f`, algebraic ones are bracketed.
pub fn roots_and_brackets(g: &mut Gen) -> Result<(), String> {
    let mut r0 = g.triple(10, 1);
    while dot(&r0, &r0) <= Rational::from(4) {
        r0 = g.triple(10, 1);
    }
    // r₀ + v = w with |w| < 2 = R: f(0) = |r₀|² − 4 > 0 > |w|² − 4 = f(1).
    let mut coordinate = || Rational::new(g.int(-16, 16), 16).unwrap_or_else(|_| Rational::zero());
    let w = [coordinate(), coordinate(), coordinate()];
    let v = sub(&w, &r0);
    let ra = Rational::new(g.int(1, 7), 4).map_err(|e| e.to_string())?;
    let rb = Rational::from(2) - &ra;
    let duration = Rational::one() + g.rational(4, 3).abs();
    let cert = certify(g, (&ra, &rb), &r0, &v, &duration)?;
    let radius = Rational::from(2);
    check_polynomial(&cert, &r0, &v, &radius)?;
    let (a, b, c) = (
        dot(&v, &v),
        Rational::from(2) * dot(&r0, &v),
        dot(&r0, &r0) - &radius * &radius,
    );
    let d = &b * &b - Rational::from(4) * &a * &c;
    expect_eq("discriminant b² − 4ac", &cert.discriminant, &d)?;
    expect_eq(
        "status of a built crossing",
        &cert.status,
        &CertificateStatus::CrossingContact,
    )?;
    match &cert.first_contact {
        Some(FirstContact::Rational(t)) => {
            let Some(root) = d.sqrt_exact() else {
                return Err(format!(
                    "rational first contact {t} but D = {d} is not a square"
                ));
            };
            let want = div(&(-&b - root), &(Rational::from(2) * &a));
            expect_eq("rational first contact (−b − √D)/2a", t, &want)
        }
        Some(FirstContact::Algebraic(at)) => {
            if let Some(root) = d.sqrt_exact() {
                return Err(format!("algebraic first contact but D = {d} = ({root})²"));
            }
            expect_eq("algebraic discriminant", &at.discriminant, &d)?;
            let check = |(lo, hi): &(Rational, Rational), what: &str| -> Result<(), String> {
                let inside = !lo.is_negative()
                    && lo <= hi
                    && hi <= &duration
                    && root_at_least(&a, &b, &d, lo)
                    && root_at_most(&a, &b, &d, hi);
                if inside {
                    Ok(())
                } else {
                    Err(format!(
                        "{what} [{lo}, {hi}] does not hold (−b − √D)/2a for a={a}, b={b}, D={d}"
                    ))
                }
            };
            check(&at.bracket, "bracket")?;
            let width = Rational::new(1, 1_i64 << g.int(1, 40)).map_err(|e| e.to_string())?;
            let fine = at.refine(&width).map_err(refused)?;
            check(&fine.bracket, "refined bracket")?;
            let (lo, hi) = &fine.bracket;
            if hi - lo > width || lo < &at.bracket.0 || hi > &at.bracket.1 {
                return Err(format!(
                    "refined bracket [{lo}, {hi}] wider than {width} or outside [{}, {}]",
                    at.bracket.0, at.bracket.1
                ));
            }
            Ok(())
        }
        None => Err("a built crossing has no first contact".to_string()),
    }
}
