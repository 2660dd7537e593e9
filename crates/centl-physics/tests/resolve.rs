//! World-level composition of exact contact detection with the 3D elastic response.

use crate::common;

use centl_physics::{
    DeferralReason, InvariantReport, Resolution, ResponseStatus, SphereWorld,
    resolve_isolated_elastic_touching_contacts,
};
use common::{sphere, vel};

fn resolve(world: &SphereWorld) -> Resolution {
    resolve_isolated_elastic_touching_contacts(world).unwrap()
}

fn completed(world: &SphereWorld) -> centl_physics::CompletedResolution {
    match resolve(world) {
        Resolution::Completed(c) => *c,
        other => panic!("expected completion, got {other:?}"),
    }
}

fn deferred(world: &SphereWorld) -> centl_physics::DeferredResolution {
    match resolve(world) {
        Resolution::Deferred(d) => d,
        other => panic!("expected deferral, got {other:?}"),
    }
}

#[test]
fn isolated_touching_pair_gets_the_elastic_response() {
    let w = SphereWorld::new(vec![
        sphere("a", "1", "1", ["0", "0", "0"], ["1", "0", "0"]),
        sphere("b", "1", "1", ["2", "0", "0"], ["0", "0", "0"]),
        sphere("c", "5", "1", ["10", "0", "0"], ["0", "1", "0"]),
    ])
    .unwrap();
    let done = completed(&w);
    assert_eq!(done.responses.len(), 1);
    let r = &done.responses[0];
    assert_eq!((r.contact.first, r.contact.second), (0, 1));
    assert_eq!(r.status, ResponseStatus::Resolved);
    assert_eq!(r.status.as_str(), "resolved");
    // Equal masses head-on: the velocities swap.
    let s = done.world.spheres();
    assert_eq!(s[0].particle().velocity(), &vel(["0", "0", "0"]));
    assert_eq!(s[1].particle().velocity(), &vel(["1", "0", "0"]));
    assert_eq!(&s[2], &w.spheres()[2]);
    for (after, before) in s.iter().zip(w.spheres()) {
        assert_eq!(after.id(), before.id());
        assert_eq!(after.radius(), before.radius());
        assert_eq!(after.particle().mass(), before.particle().mass());
        assert_eq!(after.particle().position(), before.particle().position());
    }
    assert_eq!(done.momentum, InvariantReport::ExactlyEqual);
    assert_eq!(done.kinetic_energy, InvariantReport::ExactlyEqual);
}

#[test]
fn separating_touching_pair_completes_without_impulse() {
    let w = SphereWorld::new(vec![
        sphere("a", "1", "1", ["0", "0", "0"], ["-1", "0", "0"]),
        sphere("b", "2", "1", ["2", "0", "0"], ["0", "3", "0"]),
    ])
    .unwrap();
    let done = completed(&w);
    assert_eq!(
        done.responses[0].status.as_str(),
        "separating_or_stationary"
    );
    assert!(done.responses[0].impulse.is_zero());
    assert_eq!(done.world, w);
}

#[test]
fn no_contact_completes_unchanged_with_no_responses() {
    let w = SphereWorld::new(vec![
        sphere("a", "1", "1", ["0", "0", "0"], ["1", "0", "0"]),
        sphere("b", "1", "1", ["2", "1/100", "0"], ["-1", "0", "0"]),
    ])
    .unwrap();
    let done = completed(&w);
    assert!(done.responses.is_empty());
    assert_eq!(done.world, w);
    assert!(done.momentum.is_exactly_equal() && done.kinetic_energy.is_exactly_equal());
    assert!(
        completed(&SphereWorld::new(vec![]).unwrap())
            .responses
            .is_empty()
    );
}

#[test]
fn overlap_defers_without_mutation() {
    let w = SphereWorld::new(vec![
        sphere("a", "1", "1", ["0", "0", "0"], ["1", "0", "0"]),
        sphere("b", "1", "1", ["3/2", "0", "0"], ["-1", "0", "0"]),
        sphere("c", "1", "1", ["10", "0", "0"], ["1", "0", "0"]),
        sphere("d", "1", "1", ["12", "0", "0"], ["-1", "0", "0"]),
    ])
    .unwrap();
    let d = deferred(&w);
    assert_eq!(d.reason, DeferralReason::OverlapDetected);
    assert_eq!(d.reason.as_str(), "overlap_detected");
    assert_eq!(d.world, w);
    assert_eq!(d.pairs.len(), 1);
    assert_eq!(
        (d.pairs[0].first_id.as_str(), d.pairs[0].second_id.as_str()),
        ("a", "b")
    );
}

#[test]
fn shared_contact_defers_without_mutation() {
    // A-B-C in a row, all touching: no pairwise order is justified.
    let w = SphereWorld::new(vec![
        sphere("a", "1", "1", ["0", "0", "0"], ["1", "0", "0"]),
        sphere("b", "1", "1", ["2", "0", "0"], ["0", "0", "0"]),
        sphere("c", "1", "1", ["4", "0", "0"], ["-1", "0", "0"]),
    ])
    .unwrap();
    let d = deferred(&w);
    assert_eq!(d.reason.as_str(), "ambiguous_simultaneous_contacts");
    assert_eq!(d.shared_ids, ["b"]);
    assert_eq!(d.pairs.len(), 2);
    assert_eq!(d.world, w);
}

#[test]
fn overlap_takes_precedence_over_ambiguity() {
    let w = SphereWorld::new(vec![
        sphere("a", "1", "1", ["0", "0", "0"], ["0", "0", "0"]),
        sphere("b", "1", "1", ["2", "0", "0"], ["0", "0", "0"]),
        sphere("c", "1", "1", ["4", "0", "0"], ["0", "0", "0"]),
        sphere("d", "1", "1", ["20", "0", "0"], ["0", "0", "0"]),
        sphere("e", "1", "1", ["21", "0", "0"], ["0", "0", "0"]),
    ])
    .unwrap();
    let d = deferred(&w);
    assert_eq!(d.reason, DeferralReason::OverlapDetected);
    assert!(d.shared_ids.is_empty());
    assert_eq!(d.world, w);
}

#[test]
fn disjoint_pairs_resolve_deterministically() {
    // Input order a, c, b, d with a–b and c–d touching: pairs come out as (0,2) then (1,3).
    let w = SphereWorld::new(vec![
        sphere("a", "3", "1/2", ["0", "0", "0"], ["2", "0", "0"]),
        sphere("c", "1", "1", ["0", "10", "0"], ["0", "0", "1"]),
        sphere("b", "1", "1/2", ["1", "0", "0"], ["0", "0", "0"]),
        sphere("d", "1", "1", ["0", "10", "2"], ["0", "0", "0"]),
    ])
    .unwrap();
    let done = completed(&w);
    let order: Vec<_> = done
        .responses
        .iter()
        .map(|r| (r.contact.first, r.contact.second))
        .collect();
    assert_eq!(order, [(0, 2), (1, 3)]);
    let v: Vec<_> = done
        .world
        .spheres()
        .iter()
        .map(|s| s.particle().velocity().clone())
        .collect();
    // a–b: masses 3 and 1, 1D closed form (2, 0) -> (1, 3); c–d: equal masses swap.
    assert_eq!(
        v,
        [
            vel(["1", "0", "0"]),
            vel(["0", "0", "0"]),
            vel(["3", "0", "0"]),
            vel(["0", "0", "1"])
        ]
    );
    let ids: Vec<_> = done
        .world
        .spheres()
        .iter()
        .map(|s| s.id().to_string())
        .collect();
    assert_eq!(ids, ["a", "c", "b", "d"]);
    assert_eq!(resolve(&w), resolve(&w));
}

#[test]
fn whole_world_conservation_with_fractional_oblique_contacts() {
    // Touching along (1/2, 2/3, 0), |n| = 5/6 = 1/2 + 1/3; fractional masses and velocities.
    let w = SphereWorld::new(vec![
        sphere(
            "a",
            "2/3",
            "1/2",
            ["1/5", "0", "1/7"],
            ["1/3", "1/4", "-1/5"],
        ),
        sphere(
            "b",
            "7/4",
            "1/3",
            ["7/10", "2/3", "1/7"],
            ["-1/2", "0", "1/3"],
        ),
        sphere("c", "1", "1", ["9", "9", "9"], ["1", "1", "1"]),
    ])
    .unwrap();
    let done = completed(&w);
    assert_eq!(done.responses[0].status, ResponseStatus::Resolved);
    assert!(done.momentum.is_exactly_equal());
    assert!(done.kinetic_energy.is_exactly_equal());
    // Independent check of the totals.
    let total_p = |w: &SphereWorld| w.momentum();
    assert_eq!(total_p(&w), total_p(&done.world));
    assert_eq!(w.kinetic_energy(), done.world.kinetic_energy());
    assert_ne!(done.world, w);
}
