//! `certify_linear_sphere_contact`: an exact certificate of contact or non-contact of two
//! constant-velocity spheres over `[0, duration]`, with its polynomial evidence.

use crate::objects::{self, SPHERE, unit};
use crate::schema::{Field, Kind};
use crate::table::to_json;
use crate::wire::{self, QuantityOut, q};
use crate::{Action, Args, Limits, ProtocolError};
use centl_physics::dims::TIME;
use centl_physics::{
    ContactCertificate, ContactPolynomial, FirstContact, Sphere, certify_linear_sphere_contact,
};
use serde::Serialize;
use serde_json::Value;
use units::Quantity;

/// The continuous contact certificate.
pub struct CertifyContact;

/// Arguments shared with `evolve_linear_sphere_pair_through_contact`.
pub(crate) const PAIR_ARGS: &[Field] = &[
    Field::req(
        "first",
        Kind::Object(SPHERE),
        "first sphere, constant velocity",
    ),
    Field::req("second", Kind::Object(SPHERE), "second sphere, distinct id"),
    Field::req(
        "duration",
        Kind::Quantity(TIME),
        "interval length, not negative",
    ),
];

/// The pair arguments plus an optional bracket width.
const CERTIFY_ARGS: &[Field] = &[
    PAIR_ARGS[0],
    PAIR_ARGS[1],
    PAIR_ARGS[2],
    Field::opt(
        "bracket_width",
        Kind::Quantity(TIME),
        "positive; narrow an algebraic first-contact bracket to at most this width by exact bisection (at most 10,000 halvings)",
    ),
];

/// What the certificate does and does not claim.
pub(crate) const TRUST_BOUNDARY: &[&str] = &[
    "constant_velocity",
    "exact_sphere_geometry",
    "no_time_sampling",
    "no_floating_point_root_finding",
    "no_force_integration",
    "no_automatic_response",
    "no_simultaneous_contact_solving",
];

/// `f(t) = a t² + b t + c`, each coefficient with its unit.
#[derive(Serialize)]
pub(crate) struct PolynomialOut {
    variable: &'static str,
    a: QuantityOut,
    b: QuantityOut,
    c: QuantityOut,
}

impl From<&ContactPolynomial> for PolynomialOut {
    fn from(p: &ContactPolynomial) -> Self {
        PolynomialOut {
            variable: "t in s; f(t) = a t^2 + b t + c = |r + v t|^2 - R^2 in m^2",
            a: q(&p.a, unit::M2_PER_S2),
            b: q(&p.b, unit::M2_PER_S),
            c: q(&p.c, unit::M2),
        }
    }
}

/// The typed first-contact time.
#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum FirstContactOut {
    /// An exact rational time.
    Rational { time: QuantityOut },
    /// The smaller root of the polynomial, inside a certified rational bracket.
    QuadraticIrrational {
        root: &'static str,
        polynomial: Box<PolynomialOut>,
        discriminant: QuantityOut,
        bracket: [QuantityOut; 2],
    },
}

/// The certificate as sent back.
#[derive(Serialize)]
pub(crate) struct CertificateOut {
    first_id: String,
    second_id: String,
    status: &'static str,
    duration: QuantityOut,
    polynomial: PolynomialOut,
    closest_time: QuantityOut,
    minimum_clearance: QuantityOut,
    discriminant: QuantityOut,
    first_contact: Option<FirstContactOut>,
    trust_boundary: &'static [&'static str],
}

impl From<&ContactCertificate> for CertificateOut {
    fn from(c: &ContactCertificate) -> Self {
        let first_contact = c.first_contact.as_ref().map(|f| match f {
            FirstContact::Rational(t) => FirstContactOut::Rational {
                time: q(t, unit::S),
            },
            FirstContact::Algebraic(a) => FirstContactOut::QuadraticIrrational {
                root: "smaller root of the polynomial, the only root in the bracket",
                polynomial: Box::new(PolynomialOut::from(&a.polynomial)),
                discriminant: q(&a.discriminant, unit::M4_PER_S2),
                bracket: [q(&a.bracket.0, unit::S), q(&a.bracket.1, unit::S)],
            },
        });
        CertificateOut {
            first_id: c.first_id.clone(),
            second_id: c.second_id.clone(),
            status: c.status.as_str(),
            duration: q(&c.duration, unit::S),
            polynomial: PolynomialOut::from(&c.polynomial),
            closest_time: q(&c.closest_time, unit::S),
            minimum_clearance: q(&c.minimum_clearance, unit::M2),
            discriminant: q(&c.discriminant, unit::M4_PER_S2),
            first_contact,
            trust_boundary: TRUST_BOUNDARY,
        }
    }
}

/// Reads the two spheres and the duration shared by both pair actions.
pub(crate) fn read_pair(args: &Args<'_>) -> Result<(Sphere, Sphere, Quantity), ProtocolError> {
    let l = args.limits;
    let null = Value::Null;
    let a = objects::sphere(args.get("first").unwrap_or(&null), "args.first", l)?;
    let b = objects::sphere(args.get("second").unwrap_or(&null), "args.second", l)?;
    let t = objects::time(args.get("duration").unwrap_or(&null), "args.duration", l)?;
    Ok((a, b, t))
}

/// Refuses a certificate whose exact numbers outgrew the limit.
pub(crate) fn check_certificate_bits(
    c: &ContactCertificate,
    l: &Limits,
) -> Result<(), ProtocolError> {
    let p = &c.polynomial;
    let mut all = vec![
        &p.a,
        &p.b,
        &p.c,
        &c.closest_time,
        &c.minimum_clearance,
        &c.discriminant,
    ];
    match &c.first_contact {
        Some(FirstContact::Rational(t)) => all.push(t),
        Some(FirstContact::Algebraic(a)) => all.extend([&a.bracket.0, &a.bracket.1]),
        None => {}
    }
    wire::check_bits(all, 0, l)
}

impl Action for CertifyContact {
    fn name(&self) -> &'static str {
        "certify_linear_sphere_contact"
    }

    fn summary(&self) -> &'static str {
        "Certify exactly whether two constant-velocity spheres touch during [0, duration]: polynomial, closest time, minimum clearance, discriminant and a rational or bracketed algebraic first-contact time."
    }

    fn args(&self) -> &'static [Field] {
        CERTIFY_ARGS
    }

    fn run(&self, args: &Args<'_>) -> Result<Value, ProtocolError> {
        let (a, b, t) = read_pair(args)?;
        // Read and check the width before any work, whatever the pair turns out to be.
        let width = match args.get("bracket_width") {
            Some(v) => {
                let w = objects::time(v, "args.bracket_width", args.limits)?;
                if !w.value().is_positive() {
                    return Err(ProtocolError::physics_at(
                        "args.bracket_width",
                        centl_physics::PhysicsError::NonPositiveWidth {
                            width: w.value().clone(),
                        },
                    ));
                }
                Some(w)
            }
            None => None,
        };
        let mut c = certify_linear_sphere_contact(&a, &b, &t).map_err(pair_error)?;
        if let (Some(w), Some(FirstContact::Algebraic(alg))) = (&width, &c.first_contact) {
            let narrow = alg
                .refine(w.value())
                .map_err(|e| ProtocolError::physics_at("args.bracket_width", e))?;
            c.first_contact = Some(FirstContact::Algebraic(Box::new(narrow)));
        }
        check_certificate_bits(&c, args.limits)?;
        Ok(to_json(CertificateOut::from(&c)))
    }
}

/// Attaches the argument an engine refusal of a pair operation is about.
pub(crate) fn pair_error(e: centl_physics::PhysicsError) -> ProtocolError {
    use centl_physics::PhysicsError as P;
    let path = match &e {
        P::SameParticle { .. } => "args.second.id",
        P::NegativeDuration { .. } => "args.duration",
        _ => "args",
    };
    ProtocolError::physics_at(path, e)
}
