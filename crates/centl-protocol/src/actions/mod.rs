//! One file per action, named after its wire name (`irrational_event` is a shared reply shape,
//! not an action). [`ALL`] is the table, in the order `capabilities` lists it.

mod analyze_sphere_contacts;
mod capabilities;
mod certify_linear_sphere_contact;
mod constant;
mod convert;
mod diagnostics;
mod elastic_collision_1d;
mod elastic_collision_3d_at_contact;
mod evolve_linear_sphere_pair_through_contact;
mod evolve_sphere_world_events;
mod irrational_event;
mod resolve_isolated_elastic_sphere_contacts;
mod simulate;

use crate::Action;

/// Every action the server answers.
pub static ALL: &[&dyn Action] = &[
    &capabilities::Capabilities,
    &convert::Convert,
    &constant::Constant,
    &simulate::Simulate,
    &diagnostics::Diagnostics,
    &elastic_collision_1d::ElasticCollision1d,
    &elastic_collision_3d_at_contact::ElasticCollision3d,
    &analyze_sphere_contacts::AnalyzeSphereContacts,
    &resolve_isolated_elastic_sphere_contacts::ResolveContacts,
    &certify_linear_sphere_contact::CertifyContact,
    &evolve_linear_sphere_pair_through_contact::EvolveContact,
    &evolve_sphere_world_events::WorldEvents,
];
