//! Exact event stepping of two force-free spheres whose state lies in a quadratic field.
//!
//! The rational event step ([`crate::event`]) stops where the first contact time is the
//! irrational root `t* = (−b − √D)/(2a)`. Here the whole step runs in Q(√D) instead: positions
//! at `t*`, the elastic response and the drift for the remainder are exact elements of the
//! field ([`exact::QuadraticNumber`]). A state already in Q(√d) can step again as long as its
//! next event time stays in Q(√d) (its discriminant is a square there); a time that needs a
//! second radical defers with [`QuadraticDeferral::NestedRadicalEventTime`], naming the state's
//! field and the new radicand, and nothing is approximated.

use crate::collision::ResponseStatus;
use crate::{PhysicsError, Sphere};
use exact::{QuadraticNumber as Q, Rational};
use std::cmp::Ordering;

/// A 3-vector with components in one quadratic field, SI units implied by its role.
pub type QuadraticVec = [Q; 3];

/// A sphere whose position (m) and velocity (m/s) lie in a quadratic field; mass (kg) and
/// radius (m) stay rational.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuadraticSphere {
    /// Identifier.
    pub id: String,
    /// Mass, kg, positive.
    pub mass: Rational,
    /// Radius, m, positive.
    pub radius: Rational,
    /// Centre, m.
    pub position: QuadraticVec,
    /// Velocity, m/s.
    pub velocity: QuadraticVec,
}

impl From<&Sphere> for QuadraticSphere {
    fn from(s: &Sphere) -> Self {
        let p = s.particle();
        let lift = |v: &crate::Vec3| v.components().clone().map(Q::from_rational);
        QuadraticSphere {
            id: s.id().to_string(),
            mass: p.mass().clone(),
            radius: s.radius().clone(),
            position: lift(p.position()),
            velocity: lift(p.velocity()),
        }
    }
}

impl QuadraticSphere {
    /// The sphere moved for `t` at its constant velocity.
    pub fn drifted(&self, t: &Q) -> Result<Self, PhysicsError> {
        Ok(QuadraticSphere {
            position: add(&self.position, &scale(&self.velocity, t)?)?,
            ..self.clone()
        })
    }

    /// Momentum `m v` (kg·m/s).
    pub fn momentum(&self) -> QuadraticVec {
        self.velocity.clone().map(|c| c.scale(&self.mass))
    }

    /// Kinetic energy `m v·v / 2` (J).
    pub fn kinetic_energy(&self) -> Result<Q, PhysicsError> {
        let half_m = self
            .mass
            .checked_div(&Rational::from(2))
            .map_err(|_| PhysicsError::DivisionByZero)?;
        Ok(dot(&self.velocity, &self.velocity)?.scale(&half_m))
    }
}

/// `a + b`.
pub fn add(a: &QuadraticVec, b: &QuadraticVec) -> Result<QuadraticVec, PhysicsError> {
    Ok([
        a[0].checked_add(&b[0])?,
        a[1].checked_add(&b[1])?,
        a[2].checked_add(&b[2])?,
    ])
}

/// `a − b`.
pub fn sub(a: &QuadraticVec, b: &QuadraticVec) -> Result<QuadraticVec, PhysicsError> {
    Ok([
        a[0].checked_sub(&b[0])?,
        a[1].checked_sub(&b[1])?,
        a[2].checked_sub(&b[2])?,
    ])
}

/// `a · s`.
pub fn scale(a: &QuadraticVec, s: &Q) -> Result<QuadraticVec, PhysicsError> {
    Ok([
        a[0].checked_mul(s)?,
        a[1].checked_mul(s)?,
        a[2].checked_mul(s)?,
    ])
}

/// `a · b`.
pub fn dot(a: &QuadraticVec, b: &QuadraticVec) -> Result<Q, PhysicsError> {
    let mut sum = Q::zero();
    for (x, y) in a.iter().zip(b) {
        sum = sum.checked_add(&x.checked_mul(y)?)?;
    }
    Ok(sum)
}

/// Why a quadratic-field step declined to advance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QuadraticDeferral {
    /// The spheres overlap at the start.
    InitialOverlap,
    /// The first contact time needs a radical beyond the state's field: the state lies in
    /// Q(√`state_radicand`) and the time needs √`event_discriminant`, which is not in it.
    NestedRadicalEventTime {
        /// The radicand of the state's field (1 for rational states).
        state_radicand: Rational,
        /// The discriminant `b² − 4ac` of the contact polynomial, an element of that field.
        event_discriminant: Q,
    },
}

impl QuadraticDeferral {
    /// `initial_overlap` or `nested_radical_event_time`.
    pub fn as_str(&self) -> &'static str {
        match self {
            QuadraticDeferral::InitialOverlap => "initial_overlap",
            QuadraticDeferral::NestedRadicalEventTime { .. } => "nested_radical_event_time",
        }
    }
}

/// The contact inside a completed quadratic-field step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuadraticContact {
    /// The exact event time (s from the start of the step).
    pub time: Q,
    /// The first sphere at the event, before the response.
    pub first: QuadraticSphere,
    /// The second sphere at the event, before the response.
    pub second: QuadraticSphere,
    /// `|x₂ − x₁|²` at the event (m²), re-checked equal to the squared radius sum.
    pub squared_center_distance: Q,
    /// Whether the response applied an impulse.
    pub response: ResponseStatus,
    /// Impulse on the first sphere (kg·m/s); the second receives its negative.
    pub impulse: QuadraticVec,
}

/// A quadratic-field step that ran to the end of the interval.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuadraticCompleted {
    /// The contact, when one occurred.
    pub event: Option<QuadraticContact>,
    /// The first sphere at the end.
    pub first: QuadraticSphere,
    /// The second sphere at the end.
    pub second: QuadraticSphere,
    /// Pair momentum at the end minus at the start (kg·m/s), exact.
    pub momentum_delta: QuadraticVec,
    /// Pair kinetic energy at the end minus at the start (J), exact.
    pub kinetic_energy_delta: Q,
}

impl QuadraticCompleted {
    /// True when the momentum delta is exactly zero.
    pub fn momentum_conserved(&self) -> bool {
        self.momentum_delta.iter().all(Q::is_zero)
    }

    /// True when the kinetic-energy delta is exactly zero.
    pub fn kinetic_energy_conserved(&self) -> bool {
        self.kinetic_energy_delta.is_zero()
    }
}

/// The outcome of [`evolve_quadratic_sphere_pair`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QuadraticOutcome {
    /// The step ran to the end of the interval.
    Completed(Box<QuadraticCompleted>),
    /// The step was declined; the inputs are unchanged.
    Deferred(QuadraticDeferral),
}

/// The first time in `[0, duration]` at which `f(t) = a t² + b t + c` reaches zero, for
/// `f(0) = c ≥ 0`; `Ok(None)` when it stays positive, `Err(deferral)` when the root needs a
/// radical beyond the state's field Q(√`field`) (`field` 1: the rationals).
pub(crate) fn first_zero(
    [a, b, c]: [&Q; 3],
    duration: &Q,
    field: Rational,
) -> Result<Result<Option<Q>, QuadraticDeferral>, PhysicsError> {
    if c.is_zero() {
        return Ok(Ok(Some(Q::zero())));
    }
    if a.is_zero() {
        // Constant clearance (no relative motion): b is zero too.
        return Ok(Ok(None));
    }
    let two_a = a.scale(&Rational::from(2));
    let vertex = b.neg().checked_div(&two_a)?;
    let clamped = if vertex.is_negative() {
        Q::zero()
    } else if vertex.checked_cmp(duration)? == Ordering::Greater {
        duration.clone()
    } else {
        vertex
    };
    let f = |t: &Q| -> Result<Q, PhysicsError> {
        Ok(a.checked_mul(t)?
            .checked_add(b)?
            .checked_mul(t)?
            .checked_add(c)?)
    };
    if f(&clamped)?.is_positive() {
        return Ok(Ok(None));
    }
    let disc = b
        .checked_mul(b)?
        .checked_sub(&a.checked_mul(c)?.scale(&Rational::from(4)))?;
    let root = match disc.sqrt_in_field(&field) {
        Some(root) => root,
        // Rational state: the root adds the one radical √D.
        None if field == Rational::one() && disc.is_rational() => Q::sqrt_of(disc.rational())?,
        None => {
            return Ok(Err(QuadraticDeferral::NestedRadicalEventTime {
                state_radicand: field,
                event_discriminant: disc,
            }));
        }
    };
    Ok(Ok(Some(b.neg().checked_sub(&root)?.checked_div(&two_a)?)))
}

/// The radicand of the field the state and duration share (1 when all are rational).
fn field_radicand(first: &QuadraticSphere, second: &QuadraticSphere, duration: &Q) -> Rational {
    let state = [first, second]
        .into_iter()
        .flat_map(|s| s.position.iter().chain(&s.velocity));
    state
        .chain(std::iter::once(duration))
        .find(|v| !v.is_rational())
        .map_or_else(Rational::one, Q::radicand)
}

/// Advances two force-free spheres with state in one quadratic field over `duration`
/// (s, non-negative) through at most one exact contact. The event time may add the radical
/// √D to rational states; it may not add a second radical to states already in Q(√d).
pub fn evolve_quadratic_sphere_pair(
    first: &QuadraticSphere,
    second: &QuadraticSphere,
    duration: &Q,
) -> Result<QuadraticOutcome, PhysicsError> {
    if first.id == second.id {
        return Err(PhysicsError::SameParticle {
            id: first.id.clone(),
        });
    }
    if duration.is_negative() {
        return Err(PhysicsError::NegativeDuration {
            duration: duration.rational().clone(),
        });
    }
    let r = sub(&second.position, &first.position)?;
    let v = sub(&second.velocity, &first.velocity)?;
    let radius_sum = &first.radius + &second.radius;
    let rr = &radius_sum * &radius_sum;
    let a = dot(&v, &v)?;
    let b = dot(&r, &v)?.scale(&Rational::from(2));
    let c = dot(&r, &r)?.add_rational(&-rr.clone());
    if c.is_negative() {
        return Ok(QuadraticOutcome::Deferred(
            QuadraticDeferral::InitialOverlap,
        ));
    }
    let field = field_radicand(first, second, duration);
    let time = match first_zero([&a, &b, &c], duration, field)? {
        Ok(t) => t,
        Err(deferral) => return Ok(QuadraticOutcome::Deferred(deferral)),
    };
    let (event, end_first, end_second) = match time {
        None => (None, first.drifted(duration)?, second.drifted(duration)?),
        Some(t) => {
            let at_first = first.drifted(&t)?;
            let at_second = second.drifted(&t)?;
            let n = sub(&at_second.position, &at_first.position)?;
            let nn = dot(&n, &n)?;
            if nn != Q::from_rational(rr.clone()) {
                return Err(PhysicsError::QuadraticEventRecheckFailed {
                    squared_center_distance: nn,
                    squared_radius_sum: rr,
                });
            }
            let (response, impulse) = respond(&at_first, &at_second, &n, &nn)?;
            let kick = |s: &QuadraticSphere, sign: i64| -> Result<QuadraticSphere, PhysicsError> {
                let dv = Rational::from(sign)
                    .checked_div(&s.mass)
                    .map_err(|_| PhysicsError::DivisionByZero)?;
                let dv = impulse.clone().map(|c| c.scale(&dv));
                Ok(QuadraticSphere {
                    velocity: add(&s.velocity, &dv)?,
                    ..s.clone()
                })
            };
            let remainder = duration.checked_sub(&t)?;
            let end_first = kick(&at_first, 1)?.drifted(&remainder)?;
            let end_second = kick(&at_second, -1)?.drifted(&remainder)?;
            let event = QuadraticContact {
                time: t,
                first: at_first,
                second: at_second,
                squared_center_distance: nn,
                response,
                impulse,
            };
            (Some(event), end_first, end_second)
        }
    };
    let momentum = |x: &QuadraticSphere, y: &QuadraticSphere| add(&x.momentum(), &y.momentum());
    let energy = |x: &QuadraticSphere, y: &QuadraticSphere| -> Result<Q, PhysicsError> {
        Ok(x.kinetic_energy()?.checked_add(&y.kinetic_energy()?)?)
    };
    Ok(QuadraticOutcome::Completed(Box::new(QuadraticCompleted {
        momentum_delta: sub(
            &momentum(&end_first, &end_second)?,
            &momentum(first, second)?,
        )?,
        kinetic_energy_delta: energy(&end_first, &end_second)?
            .checked_sub(&energy(first, second)?)?,
        event,
        first: end_first,
        second: end_second,
    })))
}

/// The elastic response along the unnormalised line of centres `n` (as in
/// [`crate::elastic_collision_3d_at_contact`]): the impulse on the first sphere.
pub(crate) fn respond(
    a: &QuadraticSphere,
    b: &QuadraticSphere,
    n: &QuadraticVec,
    nn: &Q,
) -> Result<(ResponseStatus, QuadraticVec), PhysicsError> {
    let s = dot(&sub(&b.velocity, &a.velocity)?, n)?;
    if !s.is_negative() {
        return Ok((
            ResponseStatus::SeparatingOrStationary,
            [Q::zero(), Q::zero(), Q::zero()],
        ));
    }
    let reduced_twice = (Rational::from(2) * &a.mass * &b.mass)
        .checked_div(&(&a.mass + &b.mass))
        .map_err(|_| PhysicsError::DivisionByZero)?;
    let along = s.checked_div(nn)?.scale(&reduced_twice);
    Ok((ResponseStatus::Resolved, scale(n, &along)?))
}
