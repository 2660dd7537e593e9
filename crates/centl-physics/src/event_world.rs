//! An exact event-driven world of spheres moving at constant velocity, optionally under one
//! uniform gravity and inside fixed axis-aligned walls (planes of infinite mass), advanced
//! event by event to a target time.
//!
//! Uniform gravity accelerates every sphere alike, so the relative motion of every pair stays
//! linear and its squared clearance `f(t) = |r + v t|² − R²` stays a quadratic: the same exact
//! first-contact rule as the pair step ([`crate::quadratic_event`]) gives each pair's next
//! contact time. Each round takes the earliest of them, compared exactly even when irrational
//! (two times from different fields Q(√p), Q(√q) are ordered by comparing squares), advances
//! every sphere to it, applies the elastic response to every pair touching then, and repeats.
//!
//! The state lives in one quadratic field: rational at the start, Q(√D) after an event at an
//! irrational time. A later contact time needing a second radical defers the run with
//! `nested_radical_event_time`, as the pair step does. Simultaneous contacts are resolved only
//! when they form a disjoint matching; a sphere in two contacts at once defers with
//! `ambiguous_simultaneous_contacts` (the isolated-contact rule of [`crate::resolve`]).
//! Overlap at the start defers with `initial_overlap`. A deferred run returns the state reached
//! and every event taken before it, exactly; nothing is approximated.
//!
//! A wall `x[k] = p` is met when the sphere's clearance `±(x[k](t) − p) − r` reaches zero: a
//! linear or quadratic equation with the same exact root rule; the response reverses the
//! velocity's component along `k` (energy kept, momentum given to the wall). A sphere resting
//! on a wall that gravity presses it into defers with `resting_contact`.
//!
//! Each slot (a pair of spheres or a sphere and a wall) keeps its next contact time between
//! rounds; only the slots of spheres whose velocity changed are recomputed (O(N) per event),
//! and the earliest is found by one exact scan over every slot.

use crate::collision::ResponseStatus;
use crate::dims::{ACCELERATION, TIME};
use crate::quadratic_event::{
    QuadraticDeferral, QuadraticSphere, QuadraticVec, add, dot, first_zero, respond, scale, sub,
};
use crate::{PhysicsError, SphereWorld, Vec3};
use exact::{ArithmeticError, QuadraticNumber as Q, Rational};
use std::cmp::Ordering;
use std::ops::ControlFlow;
use units::Quantity;

/// The most events one call may take by default.
pub const MAX_WORLD_EVENTS: usize = 100_000;

/// What a sphere met: another sphere or a wall (by index).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Partner {
    /// The sphere with this index.
    Sphere(usize),
    /// The wall with this index.
    Wall(usize),
}

/// A fixed plane `x[axis] = position` of infinite mass: spheres stay on one side of it and
/// bounce off it elastically (the velocity component along the axis is reversed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wall {
    axis: usize,
    position: Rational,
    keeps_above: bool,
}

impl Wall {
    /// The plane `x[axis] = position` (`axis` 0, 1 or 2, in m) keeping spheres on the side
    /// `x[axis] ≥ position` when `keeps_above`, else `x[axis] ≤ position`.
    pub fn new(axis: usize, position: Rational, keeps_above: bool) -> Result<Self, PhysicsError> {
        if axis > 2 {
            return Err(PhysicsError::InvalidWallAxis { axis });
        }
        Ok(Wall {
            axis,
            position,
            keeps_above,
        })
    }

    /// The axis (0, 1, 2).
    pub fn axis(&self) -> usize {
        self.axis
    }

    /// Where the plane is (m).
    pub fn position(&self) -> &Rational {
        &self.position
    }

    /// Whether spheres stay on the side `x[axis] ≥ position`.
    pub fn keeps_above(&self) -> bool {
        self.keeps_above
    }

    /// `+1` when spheres stay above the plane, `−1` below.
    fn side(&self) -> Rational {
        if self.keeps_above {
            Rational::one()
        } else {
            -Rational::one()
        }
    }
}

/// One contact resolved by the world.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorldEvent {
    /// When it happened (s from the start).
    pub time: Q,
    /// Index of the first sphere in the world.
    pub first: usize,
    /// The other sphere, or the wall.
    pub second: Partner,
    /// Whether an impulse was applied.
    pub response: ResponseStatus,
    /// Whole-world kinetic energy right after the event (J).
    pub kinetic_energy: Q,
    /// Whole-world mechanical energy right after: kinetic plus `−Σ m g·x` (J).
    pub energy: Q,
    /// Whole-world momentum right after (kg·m/s).
    pub momentum: QuadraticVec,
}

/// Why a world run stopped before its target time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WorldDeferral {
    /// Two spheres overlap at the start: nothing was advanced.
    InitialOverlap {
        /// Index of the first sphere.
        first: usize,
        /// The other sphere, or the wall it crosses.
        second: Partner,
    },
    /// A sphere is in two contacts at the same instant; the state is at that instant,
    /// before any response.
    AmbiguousSimultaneousContacts {
        /// Index of the sphere in more than one contact.
        sphere: usize,
    },
    /// A pair's next contact time needs a radical beyond the state's field.
    NestedRadicalEventTime {
        /// Index of the first sphere of the pair.
        first: usize,
        /// The other sphere, or the wall.
        second: Partner,
        /// The radicand of the state's field.
        state_radicand: Rational,
        /// The discriminant of the pair's contact polynomial, an element of that field.
        event_discriminant: Q,
    },
    /// The event limit was reached before the target time.
    EventLimit {
        /// The limit in force.
        limit: usize,
    },
    /// The caller's observer asked to stop (a budget or a cancellation of its own).
    Stopped,
    /// A sphere at rest on a wall that gravity presses it into: resting contact, outside an
    /// event-driven model.
    RestingContact {
        /// Index of the sphere.
        sphere: usize,
        /// Index of the wall.
        wall: usize,
    },
}

impl WorldDeferral {
    /// `initial_overlap`, `ambiguous_simultaneous_contacts`, `nested_radical_event_time`,
    /// `event_limit`, `stopped` or `resting_contact`.
    pub fn as_str(&self) -> &'static str {
        match self {
            WorldDeferral::InitialOverlap { .. } => "initial_overlap",
            WorldDeferral::AmbiguousSimultaneousContacts { .. } => {
                "ambiguous_simultaneous_contacts"
            }
            WorldDeferral::NestedRadicalEventTime { .. } => "nested_radical_event_time",
            WorldDeferral::EventLimit { .. } => "event_limit",
            WorldDeferral::Stopped => "stopped",
            WorldDeferral::RestingContact { .. } => "resting_contact",
        }
    }
}

/// The end of a world run: the state reached, the events taken, and why it stopped early if
/// it did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventWorldRun {
    /// The spheres at [`EventWorldRun::time`], in the world's order.
    pub spheres: Vec<QuadraticSphere>,
    /// The time reached (s): the target unless deferred.
    pub time: Q,
    /// Every event, in order.
    pub events: Vec<WorldEvent>,
    /// Set when the run stopped before the target.
    pub deferred: Option<WorldDeferral>,
    /// Whole-world mechanical energy at the start (J).
    pub initial_energy: Q,
    /// Whole-world momentum at the start (kg·m/s).
    pub initial_momentum: QuadraticVec,
}

/// The exact order of two quadratic numbers, from the same field or from two different ones.
pub fn compare(x: &Q, y: &Q) -> Result<Ordering, PhysicsError> {
    match x.checked_cmp(y) {
        Ok(o) => Ok(o),
        Err(ArithmeticError::MixedRadicands { .. }) => {
            // x − y = L − R with L = x − rat(y) in Q(√p) and R = e√q.
            let l = x.add_rational(&-(y.rational().clone()));
            let e = y.sqrt_coefficient();
            let (sl, sr) = (l.signum(), e.signum());
            if sl != sr {
                return Ok(sl.cmp(&sr));
            }
            // Same sign, both nonzero (e ≠ 0): compare the squares, reversed when negative.
            let r2 = Q::from_rational(e * e * y.radicand());
            let squares = l.checked_mul(&l)?.checked_cmp(&r2)?;
            Ok(if sl > 0 { squares } else { squares.reverse() })
        }
        Err(e) => Err(e.into()),
    }
}

/// The world's state and the rule that moves it.
struct State {
    spheres: Vec<QuadraticSphere>,
    walls: Vec<Wall>,
    gravity: QuadraticVec,
    half_gravity: QuadraticVec,
}

impl State {
    /// Every sphere moved on by `t`: `x + v t + g t²/2`, `v + g t`.
    fn drift(&mut self, t: &Q) -> Result<(), PhysicsError> {
        let t2 = t.checked_mul(t)?;
        for s in &mut self.spheres {
            let moved = add(&scale(&s.velocity, t)?, &scale(&self.half_gravity, &t2)?)?;
            s.position = add(&s.position, &moved)?;
            s.velocity = add(&s.velocity, &scale(&self.gravity, t)?)?;
        }
        Ok(())
    }

    /// Whole-world kinetic energy, mechanical energy and momentum.
    fn totals(&self) -> Result<(Q, Q, QuadraticVec), PhysicsError> {
        let mut kinetic = Q::zero();
        let mut potential = Q::zero();
        let mut momentum = [Q::zero(), Q::zero(), Q::zero()];
        for s in &self.spheres {
            kinetic = kinetic.checked_add(&s.kinetic_energy()?)?;
            potential = potential.checked_sub(&dot(&self.gravity, &s.position)?.scale(&s.mass))?;
            momentum = add(&momentum, &s.momentum())?;
        }
        let energy = kinetic.checked_add(&potential)?;
        Ok((kinetic, energy, momentum))
    }

    /// The radicand of the field the state and `now` share (1 when all are rational).
    fn field(&self, now: &Q) -> Rational {
        self.spheres
            .iter()
            .flat_map(|s| s.position.iter().chain(&s.velocity))
            .chain(std::iter::once(now))
            .find(|v| !v.is_rational())
            .map_or_else(Rational::one, Q::radicand)
    }

    /// `(a, b, c)` of the pair's squared clearance `a t² + b t + c`.
    fn clearance(&self, i: usize, j: usize) -> Result<[Q; 3], PhysicsError> {
        let (p, q) = (&self.spheres[i], &self.spheres[j]);
        let r = sub(&q.position, &p.position)?;
        let v = sub(&q.velocity, &p.velocity)?;
        let radius = &p.radius + &q.radius;
        Ok([
            dot(&v, &v)?,
            dot(&r, &v)?.scale(&Rational::from(2)),
            dot(&r, &r)?.add_rational(&-(&radius * &radius)),
        ])
    }
}

impl State {
    /// `(A, B, C)` of sphere `i`'s clearance from wall `w`, `A t² + B t + C`:
    /// `s·(x(t) − p) − r` with `x(t) = x + v t + g t²/2` along the wall's axis.
    fn wall_clearance(&self, i: usize, w: usize) -> [Q; 3] {
        let (sp, wall) = (&self.spheres[i], &self.walls[w]);
        let k = wall.axis;
        let side = wall.side();
        [
            self.half_gravity[k].scale(&side),
            sp.velocity[k].scale(&side),
            sp.position[k]
                .add_rational(&-wall.position.clone())
                .scale(&side)
                .add_rational(&-sp.radius.clone()),
        ]
    }
}

/// The first `t` in `[0, limit]` with `A t² + B t + C = 0` for `C > 0` (a sphere's clearance
/// from a wall); `Err(deferral detail)` when the root needs a radical beyond Q(√`field`).
fn wall_zero(
    [a, b, c]: [&Q; 3],
    limit: &Q,
    field: &Rational,
) -> Result<Result<Option<Q>, (Rational, Q)>, PhysicsError> {
    let time = if a.is_zero() {
        // Linear: reaches zero only when moving toward the wall.
        if !b.is_negative() {
            return Ok(Ok(None));
        }
        c.neg().checked_div(b)?
    } else if a.is_positive() {
        // Convex (gravity away from the wall): the pair rule applies as is.
        return match first_zero([a, b, c], limit, field.clone())? {
            Ok(t) => Ok(Ok(t)),
            Err(QuadraticDeferral::NestedRadicalEventTime {
                state_radicand,
                event_discriminant,
            }) => Ok(Err((state_radicand, event_discriminant))),
            Err(QuadraticDeferral::InitialOverlap) => Ok(Ok(None)),
        };
    } else {
        // Concave (gravity toward the wall) with C > 0: one positive root, (−B − √D)/2A.
        let disc = b
            .checked_mul(b)?
            .checked_sub(&a.checked_mul(c)?.scale(&Rational::from(4)))?;
        let root = match disc.sqrt_in_field(field) {
            Some(root) => root,
            None if *field == Rational::one() && disc.is_rational() => Q::sqrt_of(disc.rational())?,
            None => return Ok(Err((field.clone(), disc))),
        };
        b.neg()
            .checked_sub(&root)?
            .checked_div(&a.scale(&Rational::from(2)))?
    };
    Ok(Ok(
        (compare(&time, limit)? != Ordering::Greater).then_some(time)
    ))
}

/// What the next round found.
enum Next {
    /// No contact before the target.
    None,
    /// The earliest contact time (absolute) and every pair touching then.
    At(Q, Vec<(usize, usize)>),
    /// The run must stop.
    Defer(WorldDeferral),
}

/// The next contact time of one slot (`j < n`: sphere `j`; else wall `j − n`) within
/// `remaining` from now, or the deferral its computation meets.
fn slot_time(
    state: &State,
    (i, j): (usize, usize),
    remaining: &Q,
    field: &Rational,
) -> Result<Result<Option<Q>, WorldDeferral>, PhysicsError> {
    let n = state.spheres.len();
    if j < n {
        let [a, b, c] = state.clearance(i, j)?;
        if c.is_zero() {
            // Touching now: a contact only if approaching; a convex f with f(0) = 0 and
            // f'(0) ≥ 0 never returns to zero later unless it stays there.
            return Ok(Ok(b.is_negative().then(Q::zero)));
        }
        return Ok(match first_zero([&a, &b, &c], remaining, field.clone())? {
            Ok(t) => Ok(t),
            Err(QuadraticDeferral::NestedRadicalEventTime {
                state_radicand,
                event_discriminant,
            }) => Err(WorldDeferral::NestedRadicalEventTime {
                first: i,
                second: Partner::Sphere(j),
                state_radicand,
                event_discriminant,
            }),
            Err(QuadraticDeferral::InitialOverlap) => Err(WorldDeferral::InitialOverlap {
                first: i,
                second: Partner::Sphere(j),
            }),
        });
    }
    let w = j - n;
    let [a, b, c] = state.wall_clearance(i, w);
    if c.is_zero() {
        return Ok(if b.is_negative() {
            Ok(Some(Q::zero()))
        } else if a.is_negative() && b.is_positive() {
            // Leaving the wall against gravity: back at the other root, −B/A.
            let t = b.neg().checked_div(&a)?;
            Ok((compare(&t, remaining)? != Ordering::Greater).then_some(t))
        } else if a.is_negative() {
            // At rest on the wall with gravity pressing into it: a resting contact, which an
            // event rule cannot resolve (it would repeat at the same instant).
            Err(WorldDeferral::RestingContact { sphere: i, wall: w })
        } else {
            Ok(None)
        });
    }
    Ok(match wall_zero([&a, &b, &c], remaining, field)? {
        Ok(t) => Ok(t),
        Err((state_radicand, event_discriminant)) => Err(WorldDeferral::NestedRadicalEventTime {
            first: i,
            second: Partner::Wall(w),
            state_radicand,
            event_discriminant,
        }),
    })
}

/// Every slot's next contact time, absolute, kept between rounds: a slot is recomputed only
/// when one of its spheres changed velocity (the others' relative motion is unchanged, so
/// their times stand) or the state's field changed.
struct Schedule {
    slots: Vec<(usize, usize)>,
    times: Vec<Option<Q>>,
    stale: Vec<bool>,
    field: Option<Rational>,
}

impl Schedule {
    fn new(n: usize, walls: usize) -> Self {
        let mut slots = Vec::new();
        for i in 0..n {
            slots.extend((i + 1..n).map(|j| (i, j)));
            slots.extend((0..walls).map(|w| (i, n + w)));
        }
        Schedule {
            times: vec![None; slots.len()],
            slots,
            stale: vec![true; n],
            field: None,
        }
    }

    /// Marks sphere `i`'s slots for recomputation.
    fn touch(&mut self, i: usize) {
        self.stale[i] = true;
    }

    /// The earliest contact (absolute time) over every slot, recomputing stale slots at
    /// `now` with the target `target`.
    fn next(&mut self, state: &State, now: &Q, target: &Q) -> Result<Next, PhysicsError> {
        let n = state.spheres.len();
        let field = state.field(now);
        let all = self.field.as_ref() != Some(&field);
        self.field = Some(field.clone());
        let remaining = target.checked_sub(now)?;
        let mut best: Option<(Q, Vec<(usize, usize)>)> = None;
        for (slot, &(i, j)) in self.slots.iter().enumerate() {
            if all || self.stale[i] || (j < n && self.stale[j]) {
                self.times[slot] = match slot_time(state, (i, j), &remaining, &field)? {
                    Ok(t) => t.map(|t| now.checked_add(&t)).transpose()?,
                    Err(d) => return Ok(Next::Defer(d)),
                };
            }
            if let Some(t) = &self.times[slot] {
                best = earliest(best, t.clone(), (i, j))?;
            }
        }
        self.stale.iter_mut().for_each(|s| *s = false);
        Ok(best.map_or(Next::None, |(t, pairs)| Next::At(t, pairs)))
    }
}

/// `best` updated with a contact of `pair` at `t`: replaced when earlier, joined when equal.
#[allow(clippy::type_complexity)]
fn earliest(
    best: Option<(Q, Vec<(usize, usize)>)>,
    t: Q,
    pair: (usize, usize),
) -> Result<Option<(Q, Vec<(usize, usize)>)>, PhysicsError> {
    Ok(match best {
        None => Some((t, vec![pair])),
        Some((bt, mut pairs)) => match compare(&t, &bt)? {
            Ordering::Less => Some((t, vec![pair])),
            Ordering::Equal => {
                pairs.push(pair);
                Some((bt, pairs))
            }
            Ordering::Greater => Some((bt, pairs)),
        },
    })
}

/// Advances `world` for `duration` (a non-negative time) under an optional uniform
/// `gravity` (an acceleration) inside fixed `walls`, event by event, taking at most
/// `max_events` events.
pub fn evolve_sphere_world_events(
    world: &SphereWorld,
    gravity: Option<&Vec3>,
    walls: &[Wall],
    duration: &Quantity,
    max_events: usize,
) -> Result<EventWorldRun, PhysicsError> {
    evolve_sphere_world_events_observed(world, gravity, walls, duration, max_events, |_, _| {
        ControlFlow::Continue(())
    })
}

/// [`evolve_sphere_world_events`], calling `observe(spheres, events so far)` after every round
/// of events; [`ControlFlow::Break`] stops the run there with [`WorldDeferral::Stopped`] (for
/// work budgets, bit limits and cancellation).
pub fn evolve_sphere_world_events_observed(
    world: &SphereWorld,
    gravity: Option<&Vec3>,
    walls: &[Wall],
    duration: &Quantity,
    max_events: usize,
    mut observe: impl FnMut(&[QuadraticSphere], usize) -> ControlFlow<()>,
) -> Result<EventWorldRun, PhysicsError> {
    PhysicsError::check_dim("duration", duration.dim(), TIME)?;
    if duration.value().is_negative() {
        return Err(PhysicsError::NegativeDuration {
            duration: duration.value().clone(),
        });
    }
    let g = match gravity {
        Some(g) => {
            g.expect_dim("gravity", ACCELERATION)?;
            g.components().clone().map(Q::from_rational)
        }
        None => [Q::zero(), Q::zero(), Q::zero()],
    };
    let half = Rational::new(1, 2).map_err(|_| PhysicsError::DivisionByZero)?;
    let mut state = State {
        spheres: world.spheres().iter().map(QuadraticSphere::from).collect(),
        walls: walls.to_vec(),
        half_gravity: g.clone().map(|c| c.scale(&half)),
        gravity: g,
    };
    let (_, initial_energy, initial_momentum) = state.totals()?;
    let target = Q::from_rational(duration.value().clone());
    let mut run = EventWorldRun {
        spheres: Vec::new(),
        time: Q::zero(),
        events: Vec::new(),
        deferred: None,
        initial_energy,
        initial_momentum,
    };
    let n = state.spheres.len();
    for i in 0..n {
        for j in i + 1..n {
            if state.clearance(i, j)?[2].is_negative() {
                run.deferred = Some(WorldDeferral::InitialOverlap {
                    first: i,
                    second: Partner::Sphere(j),
                });
                run.spheres = state.spheres;
                return Ok(run);
            }
        }
        for w in 0..state.walls.len() {
            if state.wall_clearance(i, w)[2].is_negative() {
                run.deferred = Some(WorldDeferral::InitialOverlap {
                    first: i,
                    second: Partner::Wall(w),
                });
                run.spheres = state.spheres;
                return Ok(run);
            }
        }
    }
    let mut schedule = Schedule::new(n, state.walls.len());
    loop {
        let (at, pairs) = match schedule.next(&state, &run.time, &target)? {
            Next::None => {
                state.drift(&target.checked_sub(&run.time)?)?;
                run.time = target;
                break;
            }
            Next::Defer(d) => {
                run.deferred = Some(d);
                break;
            }
            Next::At(at, pairs) => (at, pairs),
        };
        let dt = at.checked_sub(&run.time)?;
        if run.events.len() + pairs.len() > max_events {
            run.deferred = Some(WorldDeferral::EventLimit { limit: max_events });
            break;
        }
        state.drift(&dt)?;
        run.time = run.time.checked_add(&dt)?;
        let mut seen = vec![false; n];
        if let Some(&sphere) = pairs
            .iter()
            .flat_map(|(i, j)| [i, j])
            .filter(|&&k| k < n)
            .find(|&&k| std::mem::replace(&mut seen[k], true))
        {
            run.deferred = Some(WorldDeferral::AmbiguousSimultaneousContacts { sphere });
            break;
        }
        for &(i, j) in &pairs {
            schedule.touch(i);
            if j < n {
                schedule.touch(j);
            }
        }
        for (i, j) in pairs {
            if j >= n {
                let w = j - n;
                let k = state.walls[w].axis;
                let [_, b, c] = state.wall_clearance(i, w);
                if !c.is_zero() {
                    return Err(PhysicsError::WallEventRecheckFailed {
                        clearance: c.to_string(),
                    });
                }
                let response = if b.is_negative() {
                    state.spheres[i].velocity[k] = state.spheres[i].velocity[k].neg();
                    ResponseStatus::Resolved
                } else {
                    ResponseStatus::SeparatingOrStationary
                };
                let (kinetic_energy, energy, momentum) = state.totals()?;
                run.events.push(WorldEvent {
                    time: run.time.clone(),
                    first: i,
                    second: Partner::Wall(w),
                    response,
                    kinetic_energy,
                    energy,
                    momentum,
                });
                continue;
            }
            let (p, q) = (&state.spheres[i], &state.spheres[j]);
            let nvec = sub(&q.position, &p.position)?;
            let nn = dot(&nvec, &nvec)?;
            let radius = &p.radius + &q.radius;
            let rr = &radius * &radius;
            if nn != Q::from_rational(rr.clone()) {
                return Err(PhysicsError::QuadraticEventRecheckFailed {
                    squared_center_distance: nn,
                    squared_radius_sum: rr,
                });
            }
            let (response, impulse) = respond(p, q, &nvec, &nn)?;
            let kick = |s: &QuadraticSphere, sign: i64| -> Result<QuadraticVec, PhysicsError> {
                let dv = Rational::from(sign)
                    .checked_div(&s.mass)
                    .map_err(|_| PhysicsError::DivisionByZero)?;
                add(&s.velocity, &impulse.clone().map(|c| c.scale(&dv)))
            };
            let (vi, vj) = (kick(p, 1)?, kick(q, -1)?);
            state.spheres[i].velocity = vi;
            state.spheres[j].velocity = vj;
            let (kinetic_energy, energy, momentum) = state.totals()?;
            run.events.push(WorldEvent {
                time: run.time.clone(),
                first: i,
                second: Partner::Sphere(j),
                response,
                kinetic_energy,
                energy,
                momentum,
            });
        }
        if observe(&state.spheres, run.events.len()).is_break() {
            run.deferred = Some(WorldDeferral::Stopped);
            break;
        }
    }
    run.spheres = state.spheres;
    Ok(run)
}
