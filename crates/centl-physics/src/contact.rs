//! Exact sphere contact classification and an exact sweep-and-prune broad phase.
//!
//! Two spheres are separated, touching or overlapping according to the exact comparison of the
//! squared centre distance with the squared radius sum: no square root is ever taken.

use crate::dims::LENGTH;
use crate::world::{check_world_ids, total_kinetic_energy, total_momentum};
use crate::{Particle, PhysicsError, Vec3};
use exact::Rational;
use std::cmp::Ordering;
use units::Quantity;

/// A particle with a positive exact sphere radius (m).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Sphere {
    particle: Particle,
    radius: Rational,
}

impl Sphere {
    /// Pairs `particle` with `radius`, which must be a positive length.
    pub fn new(particle: Particle, radius: &Quantity) -> Result<Self, PhysicsError> {
        PhysicsError::check_dim("radius", radius.dim(), LENGTH)?;
        if !radius.value().is_positive() {
            return Err(PhysicsError::NonPositiveRadius {
                id: particle.id().to_string(),
                radius: radius.value().clone(),
            });
        }
        Ok(Sphere {
            particle,
            radius: radius.value().clone(),
        })
    }

    /// The particle.
    pub fn particle(&self) -> &Particle {
        &self.particle
    }

    /// The radius (m).
    pub fn radius(&self) -> &Rational {
        &self.radius
    }

    /// The particle's identifier.
    pub fn id(&self) -> &str {
        self.particle.id()
    }

    /// The same sphere around another state of its particle (identifier, mass and radius kept).
    pub(crate) fn with_particle(&self, particle: Particle) -> Sphere {
        Sphere {
            particle,
            radius: self.radius.clone(),
        }
    }
}

/// The exact geometric verdict for one pair of spheres.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ContactStatus {
    /// The squared centre distance exceeds the squared radius sum.
    Separated,
    /// The squared centre distance equals the squared radius sum.
    Touching,
    /// The squared centre distance is less than the squared radius sum.
    Overlapping,
}

impl ContactStatus {
    /// `separated`, `touching` or `overlapping`.
    pub fn as_str(self) -> &'static str {
        match self {
            ContactStatus::Separated => "separated",
            ContactStatus::Touching => "touching",
            ContactStatus::Overlapping => "overlapping",
        }
    }
}

/// The exact quantities a contact verdict rests on (both in m²).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ContactEvidence {
    /// `|x₂ − x₁|²`.
    pub squared_center_distance: Rational,
    /// `(r₁ + r₂)²`.
    pub squared_radius_sum: Rational,
}

impl ContactEvidence {
    /// The evidence for two spheres.
    pub fn between(a: &Sphere, b: &Sphere) -> Self {
        let d = b
            .particle
            .position()
            .add_scaled_raw(a.particle.position(), &-Rational::one());
        let r = &a.radius + &b.radius;
        ContactEvidence {
            squared_center_distance: d.dot_raw(&d),
            squared_radius_sum: &r * &r,
        }
    }

    /// The verdict this evidence proves.
    pub fn status(&self) -> ContactStatus {
        match self.squared_center_distance.cmp(&self.squared_radius_sum) {
            Ordering::Greater => ContactStatus::Separated,
            Ordering::Equal => ContactStatus::Touching,
            Ordering::Less => ContactStatus::Overlapping,
        }
    }
}

/// One classified unordered pair; `first < second` are indices in the world's order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PairContact {
    /// Index of the first sphere.
    pub first: usize,
    /// Index of the second sphere.
    pub second: usize,
    /// Identifier of the first sphere.
    pub first_id: String,
    /// Identifier of the second sphere.
    pub second_id: String,
    /// The verdict.
    pub status: ContactStatus,
    /// The exact evidence for it.
    pub evidence: ContactEvidence,
}

/// Which pairs a classification lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum ContactFilter {
    /// Every unordered pair, separated ones included.
    All,
    /// Touching and overlapping pairs.
    #[default]
    NonSeparated,
    /// Exactly touching pairs only.
    TouchingOnly,
}

impl ContactFilter {
    fn keeps(self, status: ContactStatus) -> bool {
        match self {
            ContactFilter::All => true,
            ContactFilter::NonSeparated => status != ContactStatus::Separated,
            ContactFilter::TouchingOnly => status == ContactStatus::Touching,
        }
    }
}

/// Spheres in a fixed order with unique identifiers; at most [`crate::MAX_WORLD_PARTICLES`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SphereWorld {
    spheres: Vec<Sphere>,
}

impl SphereWorld {
    /// A sphere world in the given order; refuses repeated identifiers and too many spheres.
    pub fn new(spheres: Vec<Sphere>) -> Result<Self, PhysicsError> {
        check_world_ids(spheres.iter().map(Sphere::id))?;
        Ok(SphereWorld { spheres })
    }

    /// The spheres in order.
    pub fn spheres(&self) -> &[Sphere] {
        &self.spheres
    }

    /// How many spheres.
    pub fn len(&self) -> usize {
        self.spheres.len()
    }

    /// True when there are no spheres.
    pub fn is_empty(&self) -> bool {
        self.spheres.is_empty()
    }

    /// The number of unordered pairs, `n(n − 1)/2`.
    pub fn pair_count(&self) -> usize {
        self.spheres.len() * self.spheres.len().saturating_sub(1) / 2
    }

    /// Whole-world momentum (kg·m/s).
    pub fn momentum(&self) -> Vec3 {
        total_momentum(self.spheres.iter().map(Sphere::particle))
    }

    /// Whole-world kinetic energy (J).
    pub fn kinetic_energy(&self) -> Quantity {
        total_kinetic_energy(self.spheres.iter().map(Sphere::particle))
    }

    /// Same spheres, new velocities for the listed indices; only the resolver builds these.
    pub(crate) fn with_spheres(&self, spheres: Vec<Sphere>) -> SphereWorld {
        SphereWorld { spheres }
    }

    fn pair(&self, i: usize, j: usize) -> PairContact {
        let (a, b) = (&self.spheres[i], &self.spheres[j]);
        let evidence = ContactEvidence::between(a, b);
        PairContact {
            first: i,
            second: j,
            first_id: a.id().to_string(),
            second_id: b.id().to_string(),
            status: evidence.status(),
            evidence,
        }
    }
}

/// Classifies every unordered pair `(i, j)`, `i < j`, in input order: the reference
/// enumeration, quadratic in the number of spheres.
pub fn classify_all_pairs(world: &SphereWorld, filter: ContactFilter) -> Vec<PairContact> {
    let n = world.len();
    (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .map(|(i, j)| world.pair(i, j))
        .filter(|p| filter.keeps(p.status))
        .collect()
}

/// The pairs whose closed x-intervals `[x − r, x + r]` overlap, as `(i, j)` with `i < j` in
/// lexicographic order. Exact sweep and prune: every touching or overlapping pair is among
/// them, because `|Δx| ≤ |Δx⃗| ≤ r₁ + r₂`.
pub fn broad_phase_candidates(world: &SphereWorld) -> Vec<(usize, usize)> {
    let bounds: Vec<(Rational, Rational)> = world
        .spheres
        .iter()
        .map(|s| {
            let x = s.particle.position().x();
            (x - &s.radius, x + &s.radius)
        })
        .collect();
    let mut order: Vec<usize> = (0..bounds.len()).collect();
    // Stable sort by exact lower bound: ties keep input order, so the sweep is deterministic.
    order.sort_by(|&i, &j| bounds[i].0.cmp(&bounds[j].0));
    let mut active: Vec<usize> = Vec::new();
    let mut pairs = Vec::new();
    for &i in &order {
        // Closed intervals: an upper bound equal to the new lower bound may still be touching.
        active.retain(|&j| bounds[j].1 >= bounds[i].0);
        pairs.extend(active.iter().map(|&j| (i.min(j), i.max(j))));
        active.push(i);
    }
    pairs.sort_unstable();
    pairs
}

/// Classifies the pairs `filter` asks for, using the broad phase unless every pair is wanted.
/// The result equals [`classify_all_pairs`] with the same filter.
pub fn classify_broad_phase(world: &SphereWorld, filter: ContactFilter) -> Vec<PairContact> {
    if filter == ContactFilter::All {
        return classify_all_pairs(world, filter);
    }
    broad_phase_candidates(world)
        .into_iter()
        .map(|(i, j)| world.pair(i, j))
        .filter(|p| filter.keeps(p.status))
        .collect()
}

/// Counts of every pair plus the pairs `filter` asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContactReport {
    /// The listed pairs in `(i, j)` order.
    pub pairs: Vec<PairContact>,
    /// All unordered pairs, `n(n − 1)/2`.
    pub pair_count: usize,
    /// Separated pairs.
    pub separated: usize,
    /// Touching pairs.
    pub touching: usize,
    /// Overlapping pairs.
    pub overlapping: usize,
}

/// Classifies the whole world: every pair is counted, the pairs `filter` asks for are listed.
pub fn analyze_sphere_contacts(world: &SphereWorld, filter: ContactFilter) -> ContactReport {
    let non_separated = classify_broad_phase(world, ContactFilter::NonSeparated);
    let touching = non_separated
        .iter()
        .filter(|p| p.status == ContactStatus::Touching)
        .count();
    let overlapping = non_separated.len() - touching;
    let pair_count = world.pair_count();
    let pairs = match filter {
        ContactFilter::All => classify_all_pairs(world, filter),
        _ => non_separated
            .into_iter()
            .filter(|p| filter.keeps(p.status))
            .collect(),
    };
    ContactReport {
        pairs,
        pair_count,
        separated: pair_count - touching - overlapping,
        touching,
        overlapping,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dims::{MASS, VELOCITY};

    fn q(s: &str) -> Rational {
        s.parse().unwrap()
    }

    fn sphere(id: &str, x: [&str; 3], r: &str) -> Sphere {
        let p = Particle::new(
            id,
            &Quantity::new(q("1"), MASS),
            Vec3::new(q(x[0]), q(x[1]), q(x[2]), LENGTH),
            Vec3::zero(VELOCITY),
        )
        .unwrap();
        Sphere::new(p, &Quantity::new(q(r), LENGTH)).unwrap()
    }

    #[test]
    fn three_verdicts_with_evidence() {
        let a = sphere("a", ["0", "0", "0"], "1");
        let far = sphere("far", ["3", "0", "0"], "1");
        let touch = sphere("t", ["2", "0", "0"], "1");
        let over = sphere("o", ["1", "1", "0"], "1");
        assert_eq!(
            ContactEvidence::between(&a, &far).status(),
            ContactStatus::Separated
        );
        assert_eq!(
            ContactEvidence::between(&a, &touch),
            ContactEvidence {
                squared_center_distance: q("4"),
                squared_radius_sum: q("4")
            }
        );
        assert_eq!(
            ContactEvidence::between(&a, &touch).status().as_str(),
            "touching"
        );
        assert_eq!(
            ContactEvidence::between(&a, &over).status().as_str(),
            "overlapping"
        );
        assert_eq!(ContactStatus::Separated.as_str(), "separated");
    }

    #[test]
    fn fractional_contact_without_square_roots() {
        // Centres 5/6 apart along (3,4,0)/5 with radii 1/3 + 1/2: exactly touching, although
        // neither the unit normal nor anything else needed a root.
        let a = sphere("a", ["1/7", "0", "0"], "1/3");
        let b = sphere("b", ["1/7", "1/2", "2/3"], "1/3");
        let e = ContactEvidence::between(&a, &b);
        assert_eq!(e.squared_center_distance, q("25/36"));
        assert_eq!(e.squared_radius_sum, q("4/9"));
        assert_eq!(e.status(), ContactStatus::Separated);
        let c = sphere("c", ["1/7", "1/2", "2/3"], "1/2");
        let e = ContactEvidence::between(&a, &c);
        assert_eq!(e.squared_center_distance, q("25/36"));
        assert_eq!(e.squared_radius_sum, q("25/36"));
        assert_eq!(e.status(), ContactStatus::Touching);
    }

    #[test]
    fn pair_order_and_filters_are_deterministic() {
        let w = SphereWorld::new(vec![
            sphere("c", ["4", "0", "0"], "1"),
            sphere("a", ["0", "0", "0"], "1"),
            sphere("b", ["2", "0", "0"], "1"),
            sphere("d", ["2", "1", "0"], "1"),
        ])
        .unwrap();
        let all = classify_all_pairs(&w, ContactFilter::All);
        let order: Vec<_> = all.iter().map(|p| (p.first, p.second)).collect();
        assert_eq!(order, [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]);
        let touching: Vec<_> = classify_broad_phase(&w, ContactFilter::TouchingOnly)
            .iter()
            .map(|p| (p.first_id.clone(), p.second_id.clone()))
            .collect();
        assert_eq!(
            touching,
            [("c".to_string(), "b".to_string()), ("a".into(), "b".into())]
        );
        let report = analyze_sphere_contacts(&w, ContactFilter::NonSeparated);
        assert_eq!(
            (
                report.pair_count,
                report.separated,
                report.touching,
                report.overlapping
            ),
            (6, 3, 2, 1)
        );
        assert_eq!(report.pairs.len(), 3);
        assert_eq!(analyze_sphere_contacts(&w, ContactFilter::All).pairs, all);
    }

    #[test]
    fn sphere_construction_refusals() {
        let p = sphere("a", ["0", "0", "0"], "1").particle().clone();
        assert!(matches!(
            Sphere::new(p.clone(), &Quantity::new(q("0"), LENGTH)),
            Err(PhysicsError::NonPositiveRadius { .. })
        ));
        assert!(matches!(
            Sphere::new(p.clone(), &Quantity::new(q("1"), MASS)),
            Err(PhysicsError::WrongDimension {
                quantity: "radius",
                ..
            })
        ));
        let s = Sphere::new(p, &Quantity::new(q("1"), LENGTH)).unwrap();
        assert_eq!(
            SphereWorld::new(vec![s.clone(), s]),
            Err(PhysicsError::DuplicateId { id: "a".into() })
        );
    }
}
