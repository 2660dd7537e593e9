//! One file per action. [`ALL`] is the table, in the order `capabilities` lists it.

mod analyze_sphere_contacts;
mod capabilities;
mod certify_contact;
mod constant;
mod convert;
mod diagnostics;
mod elastic_collision_1d;
mod elastic_collision_3d;
mod evolve_contact;
mod irrational_event;
mod resolve_contacts;
mod simulate;
mod world_events;

use crate::Action;

/// Every action the server answers.
pub static ALL: &[&dyn Action] = &[
    &capabilities::Capabilities,
    &convert::Convert,
    &constant::Constant,
    &simulate::Simulate,
    &diagnostics::Diagnostics,
    &elastic_collision_1d::ElasticCollision1d,
    &elastic_collision_3d::ElasticCollision3d,
    &analyze_sphere_contacts::AnalyzeSphereContacts,
    &resolve_contacts::ResolveContacts,
    &certify_contact::CertifyContact,
    &evolve_contact::EvolveContact,
    &world_events::WorldEvents,
];
