//! Wire forms of engine values: particles, spheres, worlds and force models in, and the same
//! plus invariant reports and contact evidence out.
//!
//! Readers check a list's length against the limits before reading any element, so an
//! oversized world is refused before its numbers are parsed.

use crate::schema::{Field, Kind};
use crate::wire::{self, QuantityOut, VectorOut, q, vq};
use crate::{Limits, ProtocolError};
use centl_physics::dims::{
    ACCELERATION, DRAG, FORCE, LENGTH, MASS, MOMENTUM, STIFFNESS, TIME, VELOCITY,
};
use centl_physics::{
    ConstantForce, ContactEvidence, ForceModel, HookeSpring, InvariantReport, LinearDrag,
    PairContact, Particle, PhysicsError, Sphere, SphereWorld, UniformGravity, Vec3, World,
};
use exact::Rational;
use serde::Serialize;
use serde_json::Value;
use units::{Dimension, Quantity};

/// SI unit texts of the values the protocol sends back.
pub mod unit {
    /// Length.
    pub const M: &str = "m";
    /// Mass.
    pub const KG: &str = "kg";
    /// Time.
    pub const S: &str = "s";
    /// Velocity.
    pub const M_PER_S: &str = "m/s";
    /// Momentum and impulse.
    pub const MOMENTUM: &str = "kg*m/s";
    /// Energy.
    pub const J: &str = "J";
    /// Squared length (contact evidence, clearance).
    pub const M2: &str = "m^2";
    /// The contact polynomial's linear coefficient.
    pub const M2_PER_S: &str = "m^2/s";
    /// The contact polynomial's quadratic coefficient.
    pub const M2_PER_S2: &str = "m^2/s^2";
    /// The contact polynomial's discriminant.
    pub const M4_PER_S2: &str = "m^4/s^2";
}

/// Members of a particle object.
pub const PARTICLE: &[Field] = &[
    Field::req(
        "id",
        Kind::Text,
        "non-empty identifier, unique within a world",
    ),
    Field::req("mass", Kind::Quantity(MASS), "positive mass"),
    Field::req("position", Kind::Vector(LENGTH), "position"),
    Field::req("velocity", Kind::Vector(VELOCITY), "velocity"),
];

/// Members of a sphere object: a particle plus a radius.
pub const SPHERE: &[Field] = &[
    Field::req(
        "id",
        Kind::Text,
        "non-empty identifier, unique within a world",
    ),
    Field::req("mass", Kind::Quantity(MASS), "positive mass"),
    Field::req("position", Kind::Vector(LENGTH), "centre position"),
    Field::req("velocity", Kind::Vector(VELOCITY), "velocity"),
    Field::req("radius", Kind::Quantity(LENGTH), "positive radius"),
];

const CONSTANT_FORCE: &[Field] = &[Field::req("force", Kind::Vector(FORCE), "the force")];
const GRAVITY: &[Field] = &[Field::req(
    "acceleration",
    Kind::Vector(ACCELERATION),
    "gravitational acceleration g (force m g)",
)];
const SPRING: &[Field] = &[
    Field::req("anchor", Kind::Vector(LENGTH), "fixed anchor point"),
    Field::req("stiffness", Kind::Quantity(STIFFNESS), "k, not negative"),
    Field::opt(
        "rest_length",
        Kind::Quantity(LENGTH),
        "rest length, default 0 (nonzero needs rational |x - anchor|)",
    ),
];
const DRAG_FORCE: &[Field] = &[Field::req(
    "coefficient",
    Kind::Quantity(DRAG),
    "b in F = -b v, not negative",
)];

/// A built-in force model: `{"kind": "constant"|"gravity"|"spring"|"drag", ...}`.
pub const FORCE_KIND: Kind = Kind::Tagged {
    tag: "kind",
    variants: &[
        ("constant", CONSTANT_FORCE),
        ("gravity", GRAVITY),
        ("spring", SPRING),
        ("drag", DRAG_FORCE),
    ],
};

/// The conservative subset, for potential energies.
pub const POTENTIAL_KIND: Kind = Kind::Tagged {
    tag: "kind",
    variants: &[("gravity", GRAVITY), ("spring", SPRING)],
};

fn member<'a>(v: &'a Value, name: &str, path: &str) -> Result<&'a Value, ProtocolError> {
    v.get(name).ok_or_else(|| ProtocolError::MissingArgument {
        path: format!("{path}.{name}"),
    })
}

fn vec3(v: &Value, path: &str, dim: Dimension, l: &Limits) -> Result<Vec3, ProtocolError> {
    Ok(Vec3::from_components(wire::vector(v, path, dim, l)?, dim))
}

fn scalar(v: &Value, path: &str, dim: Dimension, l: &Limits) -> Result<Quantity, ProtocolError> {
    Ok(Quantity::new(wire::quantity(v, path, dim, l)?, dim))
}

/// Attaches the path of the member an engine refusal is about.
fn at(path: &str, e: PhysicsError) -> ProtocolError {
    let member = match &e {
        PhysicsError::NonPositiveMass { .. } => ".mass",
        PhysicsError::NonPositiveRadius { .. } => ".radius",
        PhysicsError::EmptyId => ".id",
        _ => "",
    };
    ProtocolError::physics_at(format!("{path}{member}"), e)
}

/// Reads a particle object (already shape-checked).
pub fn particle(v: &Value, path: &str, l: &Limits) -> Result<Particle, ProtocolError> {
    let id = member(v, "id", path)?.as_str().unwrap_or_default();
    let mass = scalar(member(v, "mass", path)?, &format!("{path}.mass"), MASS, l)?;
    let x = vec3(
        member(v, "position", path)?,
        &format!("{path}.position"),
        LENGTH,
        l,
    )?;
    let u = vec3(
        member(v, "velocity", path)?,
        &format!("{path}.velocity"),
        VELOCITY,
        l,
    )?;
    Particle::new(id, &mass, x, u).map_err(|e| at(path, e))
}

/// Reads a sphere object (already shape-checked).
pub fn sphere(v: &Value, path: &str, l: &Limits) -> Result<Sphere, ProtocolError> {
    let p = particle(v, path, l)?;
    let r = scalar(
        member(v, "radius", path)?,
        &format!("{path}.radius"),
        LENGTH,
        l,
    )?;
    Sphere::new(p, &r).map_err(|e| at(path, e))
}

fn items<'a>(v: &'a Value, path: &str) -> Result<&'a Vec<Value>, ProtocolError> {
    v.as_array().ok_or_else(|| ProtocolError::WrongType {
        path: path.to_string(),
        expected: "an array".into(),
        found: crate::json::type_name(v),
    })
}

/// Reads a world: at most `max_particles`, counted before any element is read.
pub fn world(v: &Value, path: &str, l: &Limits) -> Result<World, ProtocolError> {
    let particles = within_particle_limit(items(v, path)?, path, l, particle)?;
    World::new(particles).map_err(|e| ProtocolError::physics_at(path, e))
}

/// Reads a sphere world for a contact request, which enumerates pairs: the unordered pair
/// count is checked before any element is read.
pub fn sphere_world(v: &Value, path: &str, l: &Limits) -> Result<SphereWorld, ProtocolError> {
    let list = items(v, path)?;
    let n = list.len() as u64;
    let pairs = n * n.saturating_sub(1) / 2;
    if pairs > l.max_sphere_pairs {
        return Err(ProtocolError::TooManyPairs {
            pairs,
            limit: l.max_sphere_pairs,
        });
    }
    spheres_within_particle_limit(list, path, l)
}

/// Reads a sphere world whose pairs are only examined, never listed (the event-driven
/// world): bounded by the particle limit alone; the work budget bounds the pairs' cost.
pub fn sphere_world_unlisted(
    v: &Value,
    path: &str,
    l: &Limits,
) -> Result<SphereWorld, ProtocolError> {
    spheres_within_particle_limit(items(v, path)?, path, l)
}

fn spheres_within_particle_limit(
    list: &[Value],
    path: &str,
    l: &Limits,
) -> Result<SphereWorld, ProtocolError> {
    let spheres = within_particle_limit(list, path, l, sphere)?;
    SphereWorld::new(spheres).map_err(|e| ProtocolError::physics_at(path, e))
}

/// Reads every element of `list` with `read` (each at its own path), after checking the
/// count against the particle limit so an oversized list is refused before any is read.
fn within_particle_limit<T>(
    list: &[Value],
    path: &str,
    l: &Limits,
    read: impl Fn(&Value, &str, &Limits) -> Result<T, ProtocolError>,
) -> Result<Vec<T>, ProtocolError> {
    if list.len() > l.max_particles {
        return Err(ProtocolError::physics_at(
            path,
            PhysicsError::TooManyParticles {
                count: list.len(),
                limit: l.max_particles,
            },
        ));
    }
    list.iter()
        .enumerate()
        .map(|(i, x)| read(x, &format!("{path}[{i}]"), l))
        .collect()
}

/// Reads a list of force models.
pub fn forces(
    v: &Value,
    path: &str,
    l: &Limits,
) -> Result<Vec<Box<dyn ForceModel>>, ProtocolError> {
    let list = items(v, path)?;
    let mut out: Vec<Box<dyn ForceModel>> = Vec::with_capacity(list.len());
    for (i, f) in list.iter().enumerate() {
        let p = format!("{path}[{i}]");
        out.push(force(f, &p, l)?);
    }
    Ok(out)
}

/// The tag of one force object.
pub fn force_kind(v: &Value) -> &str {
    v.get("kind").and_then(Value::as_str).unwrap_or_default()
}

/// Reads one force model.
pub fn force(v: &Value, path: &str, l: &Limits) -> Result<Box<dyn ForceModel>, ProtocolError> {
    let sub = |name: &str| format!("{path}.{name}");
    let wrap = |e| ProtocolError::physics_at(path, e);
    Ok(match force_kind(v) {
        "constant" => {
            let f = vec3(member(v, "force", path)?, &sub("force"), FORCE, l)?;
            Box::new(ConstantForce::new(f).map_err(wrap)?)
        }
        "gravity" => Box::new(gravity(v, path, l)?),
        "spring" => Box::new(spring(v, path, l)?),
        "drag" => {
            let b = scalar(
                member(v, "coefficient", path)?,
                &sub("coefficient"),
                DRAG,
                l,
            )?;
            Box::new(LinearDrag::new(&b).map_err(wrap)?)
        }
        other => {
            return Err(ProtocolError::InvalidValue {
                path: sub("kind"),
                reason: format!("unknown force kind `{other}`"),
            });
        }
    })
}

/// Reads a `gravity` force object.
pub fn gravity(v: &Value, path: &str, l: &Limits) -> Result<UniformGravity, ProtocolError> {
    let g = vec3(
        member(v, "acceleration", path)?,
        &format!("{path}.acceleration"),
        ACCELERATION,
        l,
    )?;
    UniformGravity::new(g).map_err(|e| ProtocolError::physics_at(path, e))
}

/// Reads a `spring` force object.
pub fn spring(v: &Value, path: &str, l: &Limits) -> Result<HookeSpring, ProtocolError> {
    let anchor = vec3(
        member(v, "anchor", path)?,
        &format!("{path}.anchor"),
        LENGTH,
        l,
    )?;
    let k = scalar(
        member(v, "stiffness", path)?,
        &format!("{path}.stiffness"),
        STIFFNESS,
        l,
    )?;
    let rest = match v.get("rest_length") {
        Some(r) => scalar(r, &format!("{path}.rest_length"), LENGTH, l)?,
        None => Quantity::new(Rational::zero(), LENGTH),
    };
    HookeSpring::new(anchor, &k, &rest).map_err(|e| ProtocolError::physics_at(path, e))
}

/// A time quantity in seconds.
pub fn time(v: &Value, path: &str, l: &Limits) -> Result<Quantity, ProtocolError> {
    scalar(v, path, TIME, l)
}

/// A particle as sent back.
#[derive(Debug, Clone, Serialize)]
pub struct ParticleOut {
    /// Identifier.
    pub id: String,
    /// Mass (kg).
    pub mass: QuantityOut,
    /// Position (m).
    pub position: VectorOut,
    /// Velocity (m/s).
    pub velocity: VectorOut,
}

impl From<&Particle> for ParticleOut {
    fn from(p: &Particle) -> Self {
        ParticleOut {
            id: p.id().to_string(),
            mass: q(p.mass(), unit::KG),
            position: vq(p.position().components(), unit::M),
            velocity: vq(p.velocity().components(), unit::M_PER_S),
        }
    }
}

/// A sphere as sent back.
#[derive(Debug, Clone, Serialize)]
pub struct SphereOut {
    /// Identifier.
    pub id: String,
    /// Mass (kg).
    pub mass: QuantityOut,
    /// Centre position (m).
    pub position: VectorOut,
    /// Velocity (m/s).
    pub velocity: VectorOut,
    /// Radius (m).
    pub radius: QuantityOut,
}

impl From<&Sphere> for SphereOut {
    fn from(s: &Sphere) -> Self {
        let p = ParticleOut::from(s.particle());
        SphereOut {
            id: p.id,
            mass: p.mass,
            position: p.position,
            velocity: p.velocity,
            radius: q(s.radius(), unit::M),
        }
    }
}

/// The spheres of a world, in order.
pub fn spheres_out(w: &SphereWorld) -> Vec<SphereOut> {
    w.spheres().iter().map(SphereOut::from).collect()
}

/// An exact invariant check: equality flag plus the exact change `after − before`.
#[derive(Debug, Clone, Serialize)]
pub struct CheckOut<T> {
    /// True when the value is exactly unchanged.
    pub exactly_equal: bool,
    /// `after − before` (zero when equal).
    pub delta: T,
}

/// A scalar invariant report in `unit`.
pub fn scalar_check(r: &InvariantReport, unit: &str) -> CheckOut<QuantityOut> {
    match r {
        InvariantReport::ExactlyEqual => CheckOut {
            exactly_equal: true,
            delta: q(&Rational::zero(), unit),
        },
        InvariantReport::Delta(d) => CheckOut {
            exactly_equal: false,
            delta: q(d, unit),
        },
    }
}

/// A vector invariant report in `unit`.
pub fn vector_check(r: &InvariantReport<Vec3>, unit: &str) -> CheckOut<VectorOut> {
    match r {
        InvariantReport::ExactlyEqual => CheckOut {
            exactly_equal: true,
            delta: vq(
                &[Rational::zero(), Rational::zero(), Rational::zero()],
                unit,
            ),
        },
        InvariantReport::Delta(d) => CheckOut {
            exactly_equal: false,
            delta: vq(d.components(), unit),
        },
    }
}

/// Momentum and kinetic-energy conservation of an operation.
#[derive(Debug, Clone, Serialize)]
pub struct ConservationOut {
    /// Total momentum (kg·m/s).
    pub momentum: CheckOut<VectorOut>,
    /// Total kinetic energy (J).
    pub kinetic_energy: CheckOut<QuantityOut>,
}

impl ConservationOut {
    /// From the engine's two reports.
    pub fn new(momentum: &InvariantReport<Vec3>, kinetic_energy: &InvariantReport) -> Self {
        ConservationOut {
            momentum: vector_check(momentum, unit::MOMENTUM),
            kinetic_energy: scalar_check(kinetic_energy, unit::J),
        }
    }
}

/// The exact squared quantities a contact verdict rests on.
#[derive(Debug, Clone, Serialize)]
pub struct EvidenceOut {
    /// `|x₂ − x₁|²` (m²).
    pub squared_center_distance: QuantityOut,
    /// `(r₁ + r₂)²` (m²).
    pub squared_radius_sum: QuantityOut,
}

impl From<&ContactEvidence> for EvidenceOut {
    fn from(e: &ContactEvidence) -> Self {
        EvidenceOut {
            squared_center_distance: q(&e.squared_center_distance, unit::M2),
            squared_radius_sum: q(&e.squared_radius_sum, unit::M2),
        }
    }
}

/// One classified pair.
#[derive(Debug, Clone, Serialize)]
pub struct PairOut {
    /// Index of the first sphere in the request.
    pub first: usize,
    /// Index of the second sphere.
    pub second: usize,
    /// Identifier of the first sphere.
    pub first_id: String,
    /// Identifier of the second sphere.
    pub second_id: String,
    /// `separated`, `touching` or `overlapping`.
    pub status: &'static str,
    /// The exact basis of the verdict.
    pub evidence: EvidenceOut,
}

impl From<&PairContact> for PairOut {
    fn from(p: &PairContact) -> Self {
        PairOut {
            first: p.first,
            second: p.second,
            first_id: p.first_id.clone(),
            second_id: p.second_id.clone(),
            status: p.status.as_str(),
            evidence: EvidenceOut::from(&p.evidence),
        }
    }
}

/// Momentum of a vector in kg·m/s.
pub fn momentum_out(v: &Vec3) -> VectorOut {
    debug_assert_eq!(v.dim(), MOMENTUM);
    vq(v.components(), unit::MOMENTUM)
}
