//! The exact engine: dimension-checked particle mechanics in exact rational arithmetic.
//!
//! Takes in exact rationals ([`exact::Rational`]) with SI dimensions ([`units::Dimension`]) and
//! hands on particles, worlds, forces, symplectic Euler trajectories, diagnostics, sphere
//! contacts, elastic collision responses and certified continuous-contact verdicts. Nothing on
//! this path is a binary float: every result is exact, and every mismatch of dimensions is an
//! error rather than a coercion.
//!
//! The layers, in order: [`vector`] and [`particle`] (checked state), [`force`] and
//! [`integrate`] (symplectic Euler), [`diagnostics`], [`world`] (ordered particle sets),
//! [`contact`] (exact sphere classification and broad phase), [`collision`] (elastic
//! responses), [`resolve`] (isolated touching pairs in a world), [`continuous`] (interval
//! certificates), [`event`] (stepping through one contact event), [`quadratic_event`] (the same
//! step with state in a quadratic field Q(√d), for irrational event times) and [`event_world`]
//! (a whole world of spheres advanced event by event).
//!
//! ```
//! use centl_physics::dims::{ACCELERATION, LENGTH, MASS, TIME, VELOCITY};
//! use centl_physics::{ForceModel, Particle, UniformGravity, Vec3, symplectic_euler};
//! use units::Quantity;
//!
//! let ball = Particle::new(
//!     "ball",
//!     &Quantity::new(2.into(), MASS),
//!     Vec3::from_ints(0, 0, 10, LENGTH),
//!     Vec3::from_ints(1, 0, 0, VELOCITY),
//! )?;
//! let gravity: Vec<Box<dyn ForceModel>> =
//!     vec![Box::new(UniformGravity::new(Vec3::from_ints(0, 0, -10, ACCELERATION))?)];
//! let dt = Quantity::new("1/10".parse()?, TIME);
//! let run = symplectic_euler(&ball, &gravity, &dt, 10)?;
//! assert_eq!(run.particle.position().to_string(), "1,0,9/2 m");
//! assert_eq!(run.particle.velocity().to_string(), "1,0,-10 m/s");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(
    clippy::float_arithmetic,
    clippy::float_cmp,
    clippy::cast_precision_loss
)]
// Refusals carry both dimensions involved (seven rational exponents each); they are rare and
// the success values (exact vectors, particles) are as large, so boxing would buy nothing.
#![allow(clippy::result_large_err)]

pub mod affine;
pub mod collision;
pub mod constants;
pub mod contact;
pub mod continuous;
pub mod diagnostics;
pub mod dims;
pub mod error;
pub mod event;
pub mod event_world;
pub mod force;
pub mod gauntlet;
pub mod integrate;
pub mod particle;
pub mod quadratic_event;
pub mod resolve;
pub mod vector;
pub mod world;

pub use affine::{AffineForce, AffineWorldStepper};
pub use collision::{
    Collision1d, Collision3d, ResponseStatus, TrustBoundary, elastic_collision_1d,
    elastic_collision_3d_at_contact,
};
pub use contact::{
    ContactEvidence, ContactFilter, ContactReport, ContactStatus, PairContact, Sphere, SphereWorld,
    analyze_sphere_contacts, broad_phase_candidates, classify_all_pairs, classify_broad_phase,
};
pub use continuous::{
    AlgebraicTime, CertificateStatus, ContactCertificate, ContactPolynomial, FirstContact,
    MAX_BISECTIONS, certify_linear_sphere_contact,
};
pub use diagnostics::{
    InvariantReport, StateBits, compare_scalar, compare_vector, gravity_potential_energy,
    kinetic_energy, momentum, spring_potential_energy,
};
pub use error::PhysicsError;
pub use event::{
    CompletedEvent, ContactEvent, DeferredEvent, EventDeferral, EventOutcome,
    IrrationalCompletedEvent, SphereChange, evolve_linear_sphere_pair_through_contact,
};
pub use event_world::{
    EventWorldRun, MAX_WORLD_EVENTS, Partner, Wall, WorldDeferral, WorldEvent,
    evolve_sphere_world_events, evolve_sphere_world_events_observed,
};
pub use force::{
    ConstantForce, ForceModel, HookeSpring, LinearDrag, UniformGravity, acceleration, net_force,
};
pub use integrate::{
    EulerRun, INTEGRATOR_NAME, MAX_STEPS, TimeStep, check_step_count, symplectic_euler,
    symplectic_euler_general, symplectic_euler_observed, symplectic_euler_step,
};
pub use particle::Particle;
pub use quadratic_event::{
    QuadraticCompleted, QuadraticContact, QuadraticDeferral, QuadraticOutcome, QuadraticSphere,
    evolve_quadratic_sphere_pair,
};
pub use resolve::{
    CompletedResolution, DeferralReason, DeferredResolution, PairResponse, Resolution,
    resolve_isolated_elastic_touching_contacts,
};
pub use vector::Vec3;
pub use world::{
    MAX_WORLD_PARTICLES, World, WorldRun, evolve_world_symplectic_euler,
    step_world_symplectic_euler,
};
