//! Exact elastic resolution of isolated touching sphere pairs in a world.
//!
//! The contract is narrow on purpose: any overlap, or any sphere touching two others at once,
//! defers the whole operation without modifying anything, because no unique pairwise answer
//! can be justified there.

use crate::collision::{ResponseStatus, elastic_collision_3d_at_contact};
use crate::contact::{
    ContactFilter, ContactStatus, PairContact, SphereWorld, classify_broad_phase,
};
use crate::diagnostics::{InvariantReport, compare_scalar, compare_vector};
use crate::{PhysicsError, Vec3};

/// Why the resolver declined to act.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DeferralReason {
    /// Some pair overlaps; this takes precedence over every other condition.
    OverlapDetected,
    /// Some sphere touches more than one other sphere at the same instant.
    AmbiguousSimultaneousContacts,
}

impl DeferralReason {
    /// `overlap_detected` or `ambiguous_simultaneous_contacts`.
    pub fn as_str(self) -> &'static str {
        match self {
            DeferralReason::OverlapDetected => "overlap_detected",
            DeferralReason::AmbiguousSimultaneousContacts => "ambiguous_simultaneous_contacts",
        }
    }
}

/// The response applied to one touching pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairResponse {
    /// The pair and its exact touching evidence.
    pub contact: PairContact,
    /// Whether an impulse was applied.
    pub status: ResponseStatus,
    /// Impulse on the first sphere of the pair (kg·m/s).
    pub impulse: Vec3,
}

/// A completed resolution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompletedResolution {
    /// The world with the new velocities (order, ids, masses, radii and positions unchanged).
    pub world: SphereWorld,
    /// One entry per touching pair, in pair order; empty when nothing touched.
    pub responses: Vec<PairResponse>,
    /// Whole-world momentum after minus before.
    pub momentum: InvariantReport<Vec3>,
    /// Whole-world kinetic energy after minus before.
    pub kinetic_energy: InvariantReport,
}

/// A deferred resolution: the world is returned exactly as given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeferredResolution {
    /// Why.
    pub reason: DeferralReason,
    /// The unchanged input world.
    pub world: SphereWorld,
    /// The pairs behind the verdict: every overlapping pair, or every touching pair that
    /// involves a shared sphere.
    pub pairs: Vec<PairContact>,
    /// For ambiguity, the identifiers of spheres in more than one touching pair (input order).
    pub shared_ids: Vec<String>,
}

/// The outcome of [`resolve_isolated_elastic_touching_contacts`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolution {
    /// Every touching pair was isolated and received its exact response.
    Completed(Box<CompletedResolution>),
    /// The world lies outside the resolver's justified domain; nothing was modified.
    Deferred(DeferredResolution),
}

/// Classifies every pair, then either defers (overlap first, then shared contacts) or applies
/// [`elastic_collision_3d_at_contact`] to each disjoint touching pair.
pub fn resolve_isolated_elastic_touching_contacts(
    world: &SphereWorld,
) -> Result<Resolution, PhysicsError> {
    let contacts = classify_broad_phase(world, ContactFilter::NonSeparated);
    let overlapping: Vec<PairContact> = contacts
        .iter()
        .filter(|c| c.status == ContactStatus::Overlapping)
        .cloned()
        .collect();
    if !overlapping.is_empty() {
        return Ok(defer(
            DeferralReason::OverlapDetected,
            world,
            overlapping,
            Vec::new(),
        ));
    }
    // Only touching pairs remain.
    let mut uses = vec![0usize; world.len()];
    for c in &contacts {
        uses[c.first] += 1;
        uses[c.second] += 1;
    }
    if uses.iter().any(|&n| n > 1) {
        let shared_ids = world
            .spheres()
            .iter()
            .zip(&uses)
            .filter(|(_, n)| **n > 1)
            .map(|(s, _)| s.id().to_string())
            .collect();
        let pairs = contacts
            .into_iter()
            .filter(|c| uses[c.first] > 1 || uses[c.second] > 1)
            .collect();
        return Ok(defer(
            DeferralReason::AmbiguousSimultaneousContacts,
            world,
            pairs,
            shared_ids,
        ));
    }
    let mut spheres = world.spheres().to_vec();
    let mut responses = Vec::with_capacity(contacts.len());
    for contact in contacts {
        let (i, j) = (contact.first, contact.second);
        let response =
            elastic_collision_3d_at_contact(spheres[i].particle(), spheres[j].particle())?;
        spheres[i] = spheres[i].with_particle(response.first);
        spheres[j] = spheres[j].with_particle(response.second);
        responses.push(PairResponse {
            contact,
            status: response.status,
            impulse: response.impulse,
        });
    }
    let after = world.with_spheres(spheres);
    Ok(Resolution::Completed(Box::new(CompletedResolution {
        momentum: compare_vector(&world.momentum(), &after.momentum())?,
        kinetic_energy: compare_scalar(&world.kinetic_energy(), &after.kinetic_energy())?,
        world: after,
        responses,
    })))
}

fn defer(
    reason: DeferralReason,
    world: &SphereWorld,
    pairs: Vec<PairContact>,
    shared_ids: Vec<String>,
) -> Resolution {
    Resolution::Deferred(DeferredResolution {
        reason,
        world: world.clone(),
        pairs,
        shared_ids,
    })
}
