//! The exact event-driven sphere world against hand-derived results: Newton's cradle (each
//! ball stops and passes its velocity on, times 1, 2, 3, 4), a head-on pair of unequal masses
//! (`v₁' = (m₁ − m₂)/(m₁ + m₂)·u`), an irrational contact at `t = 3 − √3`, a billiard break with
//! rational positions, simultaneous contacts (disjoint: both resolved; shared: deferred),
//! uniform gravity (relative motion stays linear, `½mv² − m g·x` is conserved) and initial
//! overlap. Energies and momenta are summed here from the returned spheres, by hand.

use crate::common;

use centl_physics::dims::ACCELERATION;
use centl_physics::quadratic_event::QuadraticSphere;
use centl_physics::{
    EventWorldRun, MAX_WORLD_EVENTS, Partner, ResponseStatus, Sphere, SphereWorld, Wall,
    WorldDeferral, evolve_sphere_world_events,
};
use common::{q, secs, sphere, v3};
use exact::QuadraticNumber as Q;

fn run(spheres: Vec<Sphere>, duration: &str) -> EventWorldRun {
    let world = SphereWorld::new(spheres).unwrap();
    evolve_sphere_world_events(&world, None, &[], &secs(duration), MAX_WORLD_EVENTS).unwrap()
}

fn qr(s: &str) -> Q {
    Q::from_rational(q(s))
}

fn qv(c: [&str; 3]) -> [Q; 3] {
    c.map(qr)
}

/// `Σ ½ m |v|²` from the spheres, by hand.
fn kinetic(spheres: &[QuadraticSphere]) -> Q {
    let mut total = Q::zero();
    for s in spheres {
        let mut vv = Q::zero();
        for c in &s.velocity {
            vv = vv.checked_add(&c.checked_mul(c).unwrap()).unwrap();
        }
        total = total.checked_add(&vv.scale(&(&s.mass * q("1/2")))).unwrap();
    }
    total
}

/// `Σ m v` from the spheres, by hand.
fn momentum(spheres: &[QuadraticSphere]) -> [Q; 3] {
    let mut p = [Q::zero(), Q::zero(), Q::zero()];
    for s in spheres {
        for (k, c) in s.velocity.iter().enumerate() {
            p[k] = p[k].checked_add(&c.scale(&s.mass)).unwrap();
        }
    }
    p
}

#[test]
fn newtons_cradle_passes_the_velocity_down_the_line() {
    // Five unit masses of radius 1/2, centres 2 apart (gaps of 1); the first moves at 1 m/s.
    let balls: Vec<Sphere> = (0..5)
        .map(|i| {
            let x = (2 * i).to_string();
            let v = if i == 0 { "1" } else { "0" };
            sphere(&format!("b{i}"), "1", "1/2", [&x, "0", "0"], [v, "0", "0"])
        })
        .collect();
    let r = run(balls, "10");
    assert_eq!(r.deferred, None);
    assert_eq!(r.time, qr("10"));
    let times: Vec<Q> = r.events.iter().map(|e| e.time.clone()).collect();
    assert_eq!(times, ["1", "2", "3", "4"].map(qr).to_vec());
    for (k, e) in r.events.iter().enumerate() {
        assert_eq!((e.first, e.second), (k, Partner::Sphere(k + 1)));
        assert_eq!(e.response, ResponseStatus::Resolved);
        assert_eq!(e.kinetic_energy, qr("1/2"));
        assert_eq!(e.momentum, qv(["1", "0", "0"]));
    }
    // Ball k stops at x = 2k + 1 at time k + 1; the last leaves x = 8 at t = 4 at 1 m/s.
    for (k, s) in r.spheres.iter().enumerate() {
        let (x, v) = if k == 4 {
            ("14", "1")
        } else {
            (["1", "3", "5", "7"][k], "0")
        };
        assert_eq!(s.position, qv([x, "0", "0"]), "ball {k}");
        assert_eq!(s.velocity, qv([v, "0", "0"]), "ball {k}");
    }
    assert_eq!(kinetic(&r.spheres), qr("1/2"));
}

#[test]
fn unequal_head_on_pair_matches_the_closed_form() {
    // m₁ = 1 at 2 m/s hits m₂ = 3 at rest, gap 4 − 1 = 3: contact at t = 3/2; then
    // v₁' = (1 − 3)/4·2 = −1, v₂' = 2·1/4·2 = 1.
    let r = run(
        vec![
            sphere("a", "1", "1/2", ["0", "0", "0"], ["2", "0", "0"]),
            sphere("b", "3", "1/2", ["4", "0", "0"], ["0", "0", "0"]),
        ],
        "5/2",
    );
    assert_eq!(r.events.len(), 1);
    assert_eq!(r.events[0].time, qr("3/2"));
    assert_eq!(r.spheres[0].velocity, qv(["-1", "0", "0"]));
    assert_eq!(r.spheres[1].velocity, qv(["1", "0", "0"]));
    // a reached x = 3 at 3/2 and went back 1 m; b left x = 4 and went 1 m.
    assert_eq!(r.spheres[0].position, qv(["2", "0", "0"]));
    assert_eq!(r.spheres[1].position, qv(["5", "0", "0"]));
    assert_eq!(kinetic(&r.spheres), qr("2"));
    assert_eq!(momentum(&r.spheres), qv(["2", "0", "0"]));
}

#[test]
fn an_irrational_contact_is_taken_exactly() {
    // r = (3, 1, 0), v = (−1, 0, 0), R = 2: t² − 6t + 6 = 0, first root 3 − √3.
    let r = run(
        vec![
            sphere("a", "1", "1", ["0", "0", "0"], ["1", "0", "0"]),
            sphere("b", "1", "1", ["3", "1", "0"], ["0", "0", "0"]),
        ],
        "4",
    );
    assert_eq!(r.deferred, None);
    assert_eq!(r.events.len(), 1);
    let t = Q::new(q("3"), q("-1"), &q("3")).unwrap();
    assert_eq!(r.events[0].time, t);
    assert_eq!(r.time, qr("4"));
    assert_eq!(kinetic(&r.spheres), qr("1/2"));
    assert_eq!(momentum(&r.spheres), qv(["1", "0", "0"]));
    // The spheres touch at t: |x_b − x_a|² = 4, re-derived from the end state moved back.
    let back = qr("4").checked_sub(&t).unwrap();
    let at = |s: &QuadraticSphere| -> Vec<Q> {
        (0..3)
            .map(|k| {
                s.position[k]
                    .checked_sub(&s.velocity[k].checked_mul(&back).unwrap())
                    .unwrap()
            })
            .collect()
    };
    let (pa, pb) = (at(&r.spheres[0]), at(&r.spheres[1]));
    let mut d2 = Q::zero();
    for k in 0..3 {
        let d = pb[k].checked_sub(&pa[k]).unwrap();
        d2 = d2.checked_add(&d.checked_mul(&d).unwrap()).unwrap();
    }
    assert_eq!(d2, qr("4"));
}

#[test]
fn billiard_break_conserves_energy_and_momentum_exactly_at_every_event() {
    // A cue ball on a rack of four with rational positions, laid out so every contact time is
    // rational: the cue stops on r0 (head-on), r0 glances off r1 along the 3-4-5 normal
    // (4/5, −3/5), then each moving ball meets the next one head-on.
    let mut balls = vec![sphere("cue", "1", "1/2", ["-6", "0", "0"], ["3", "0", "0"])];
    let rack = [("0", "0"), ("2", "-3/5"), ("3", "12/5"), ("18/5", "-9/5")];
    for (k, (x, y)) in rack.iter().enumerate() {
        balls.push(sphere(
            &format!("r{k}"),
            "1",
            "1/2",
            [x, y, "0"],
            ["0", "0", "0"],
        ));
    }
    let r = run(balls, "20");
    // By hand: the cue closes the gap of 5 at 3 m/s (t = 5/3); r0 at 3 m/s reaches x = 6/5,
    // where |(2, −3/5) − (6/5, 0)| = 1 (t = 5/3 + 2/5); r1 leaves at (12/5)(4/5, −3/5) and
    // covers 1 m to r3 (+ 5/12); r0 keeps (27/25, 36/25), speed 9/5, and covers 2 m to r2
    // (+ 10/9).
    let at: Vec<(Q, usize, Partner)> = r
        .events
        .iter()
        .map(|e| (e.time.clone(), e.first, e.second))
        .collect();
    assert_eq!(
        at,
        vec![
            (qr("5/3"), 0, Partner::Sphere(1)),
            (qr("31/15"), 1, Partner::Sphere(2)),
            (qr("149/60"), 2, Partner::Sphere(4)),
            (qr("143/45"), 1, Partner::Sphere(3))
        ]
    );
    assert_eq!(r.deferred, None);
    let still = qv(["0", "0", "0"]);
    let v: Vec<[Q; 3]> = r.spheres.iter().map(|s| s.velocity.clone()).collect();
    assert_eq!(
        v,
        vec![
            still.clone(),
            still.clone(),
            still,
            qv(["27/25", "36/25", "0"]),
            qv(["48/25", "-36/25", "0"])
        ]
    );
    let e0 = r.initial_energy.clone();
    assert_eq!(e0, qr("9/2"));
    for e in &r.events {
        assert_eq!(e.kinetic_energy, e0, "at {}", e.time);
        assert_eq!(e.momentum, qv(["3", "0", "0"]), "at {}", e.time);
    }
    assert_eq!(kinetic(&r.spheres), e0);
    assert_eq!(momentum(&r.spheres), qv(["3", "0", "0"]));
}

#[test]
fn simultaneous_contacts_resolve_when_disjoint_and_defer_when_shared() {
    // Two pairs meeting at t = 1, far apart: both resolved at the same instant.
    let r = run(
        vec![
            sphere("a", "1", "1/2", ["0", "0", "0"], ["1", "0", "0"]),
            sphere("b", "1", "1/2", ["2", "0", "0"], ["0", "0", "0"]),
            sphere("c", "1", "1/2", ["0", "10", "0"], ["0", "0", "0"]),
            sphere("d", "1", "1/2", ["2", "10", "0"], ["-1", "0", "0"]),
        ],
        "2",
    );
    assert_eq!(r.deferred, None);
    let at: Vec<(Q, usize, Partner)> = r
        .events
        .iter()
        .map(|e| (e.time.clone(), e.first, e.second))
        .collect();
    assert_eq!(
        at,
        vec![
            (qr("1"), 0, Partner::Sphere(1)),
            (qr("1"), 2, Partner::Sphere(3))
        ]
    );
    // b is hit from both sides at t = 2: the rule defers, with the state at that instant.
    let r = run(
        vec![
            sphere("a", "1", "1/2", ["0", "0", "0"], ["1", "0", "0"]),
            sphere("b", "1", "1/2", ["3", "0", "0"], ["0", "0", "0"]),
            sphere("c", "1", "1/2", ["6", "0", "0"], ["-1", "0", "0"]),
        ],
        "5",
    );
    assert_eq!(
        r.deferred,
        Some(WorldDeferral::AmbiguousSimultaneousContacts { sphere: 1 })
    );
    assert_eq!(r.time, qr("2"));
    assert!(r.events.is_empty());
    assert_eq!(r.spheres[0].position, qv(["2", "0", "0"]));
    assert_eq!(r.spheres[0].velocity, qv(["1", "0", "0"]));
}

#[test]
fn under_gravity_relative_motion_stays_linear_and_mechanical_energy_is_kept() {
    // The head-on pair of unequal masses as above, both falling under g = (0, 0, −10).
    let world = SphereWorld::new(vec![
        sphere("a", "1", "1/2", ["0", "0", "100"], ["2", "0", "0"]),
        sphere("b", "3", "1/2", ["4", "0", "100"], ["0", "0", "0"]),
    ])
    .unwrap();
    let g = v3(["0", "0", "-10"], ACCELERATION);
    let r = evolve_sphere_world_events(&world, Some(&g), &[], &secs("5/2"), 10).unwrap();
    assert_eq!(r.events.len(), 1);
    assert_eq!(r.events[0].time, qr("3/2"));
    // z(t) = 100 − 5t², v_z = −10t at t = 5/2.
    assert_eq!(r.spheres[0].position, qv(["2", "0", "275/4"]));
    assert_eq!(r.spheres[1].velocity, qv(["1", "0", "-25"]));
    // ½mv² − m g·x by hand, against its value at the start (2 + 10·(1 + 3)·100).
    let mut energy = kinetic(&r.spheres);
    for s in &r.spheres {
        energy = energy
            .checked_add(&s.position[2].scale(&(&s.mass * q("10"))))
            .unwrap();
    }
    assert_eq!(energy, qr("4002"));
    assert_eq!(r.initial_energy, qr("4002"));
    assert_eq!(r.events[0].energy, qr("4002"));
}

#[test]
fn initial_overlap_defers_without_moving_anything() {
    let r = run(
        vec![
            sphere("a", "1", "1", ["0", "0", "0"], ["1", "0", "0"]),
            sphere("b", "1", "1", ["1", "0", "0"], ["0", "0", "0"]),
        ],
        "3",
    );
    assert_eq!(
        r.deferred,
        Some(WorldDeferral::InitialOverlap {
            first: 0,
            second: Partner::Sphere(1)
        })
    );
    assert_eq!(r.time, qr("0"));
    assert_eq!(r.spheres[0].position, qv(["0", "0", "0"]));
}

#[test]
fn the_event_limit_stops_the_run_with_its_state() {
    let balls: Vec<Sphere> = (0..5)
        .map(|i| {
            let x = (2 * i).to_string();
            let v = if i == 0 { "1" } else { "0" };
            sphere(&format!("b{i}"), "1", "1/2", [&x, "0", "0"], [v, "0", "0"])
        })
        .collect();
    let world = SphereWorld::new(balls).unwrap();
    let r = evolve_sphere_world_events(&world, None, &[], &secs("10"), 2).unwrap();
    assert_eq!(r.deferred, Some(WorldDeferral::EventLimit { limit: 2 }));
    assert_eq!(r.events.len(), 2);
    assert_eq!(r.time, qr("2"));
}

#[test]
fn a_second_radical_defers_with_the_state_reached() {
    // An off-centre cue meets r0 at an irrational time; the next contact, from a state in
    // that field, needs a second radical.
    let mut balls = vec![sphere(
        "cue",
        "1",
        "1/2",
        ["-6", "1/10", "0"],
        ["3", "0", "0"],
    )];
    for (k, (x, y)) in [("0", "0"), ("11/10", "-3/5"), ("11/10", "3/5")]
        .iter()
        .enumerate()
    {
        balls.push(sphere(
            &format!("r{k}"),
            "1",
            "1/2",
            [x, y, "0"],
            ["0", "0", "0"],
        ));
    }
    let r = run(balls, "20");
    assert!(
        matches!(
            r.deferred,
            Some(WorldDeferral::NestedRadicalEventTime { .. })
        ),
        "{:?}",
        r.deferred
    );
    // |(6 − 3t, −1/10)| = 1 first at t = 2 − √99/30 = 2 − √11/10.
    assert_eq!(
        r.events[0].time,
        Q::new(q("2"), q("-1/10"), &q("11")).unwrap()
    );
    assert_eq!(kinetic(&r.spheres), qr("9/2"));
    assert_eq!(momentum(&r.spheres), qv(["3", "0", "0"]));
}

#[test]
fn times_from_different_fields_compare_exactly() {
    use centl_physics::event_world::compare;
    use std::cmp::Ordering::{Greater, Less};
    let x = |a: &str, b: &str, d: &str| Q::new(q(a), q(b), &q(d)).unwrap();
    // 2 − √3 ≈ 0.268 < √2 − 1 ≈ 0.414; 1 + √2 < 1 + √3; √2 < 3/2; −√2 < 3 − √3 ≈ 1.27 < √2.
    assert_eq!(
        compare(&x("2", "-1", "3"), &x("-1", "1", "2")).unwrap(),
        Less
    );
    assert_eq!(compare(&x("1", "1", "2"), &x("1", "1", "3")).unwrap(), Less);
    assert_eq!(compare(&x("0", "1", "2"), &qr("3/2")).unwrap(), Less);
    assert_eq!(
        compare(&x("3", "-1", "3"), &x("0", "1", "2")).unwrap(),
        Less
    );
    assert_eq!(
        compare(&x("3", "-1", "3"), &x("0", "-1", "2")).unwrap(),
        Greater
    );
}

fn walls(list: &[(usize, &str, bool)]) -> Vec<Wall> {
    list.iter()
        .map(|(axis, at, above)| Wall::new(*axis, q(at), *above).unwrap())
        .collect()
}

#[test]
fn a_ball_bounces_between_two_walls() {
    // Walls x = 0 and x = 10, radius 1/2, from x = 5 at 2 m/s: the right wall at
    // t = 4.5/2 = 9/4, the left one 9/2 later (27/4), then 5/4 more to x = 3.
    let world = SphereWorld::new(vec![sphere(
        "a",
        "1",
        "1/2",
        ["5", "0", "0"],
        ["2", "0", "0"],
    )])
    .unwrap();
    let box_x = walls(&[(0, "0", true), (0, "10", false)]);
    let r = evolve_sphere_world_events(&world, None, &box_x, &secs("8"), 10).unwrap();
    let at: Vec<(Q, Partner)> = r
        .events
        .iter()
        .map(|e| (e.time.clone(), e.second))
        .collect();
    assert_eq!(
        at,
        vec![
            (qr("9/4"), Partner::Wall(1)),
            (qr("27/4"), Partner::Wall(0))
        ]
    );
    assert_eq!(r.spheres[0].position, qv(["3", "0", "0"]));
    assert_eq!(r.spheres[0].velocity, qv(["2", "0", "0"]));
    assert_eq!(kinetic(&r.spheres), qr("2"));
}

#[test]
fn a_ball_bounces_on_the_floor_at_irrational_times_exactly() {
    // Radius 1 from z = 3 at rest, g = 10 down: 2 = 5t² gives t₁ = √10/5; it leaves at
    // v = 2√10 and is back after 2v/g = 2√10/5: bounces at √10/5, 3√10/5, 5√10/5 < 4 s.
    let world = SphereWorld::new(vec![sphere(
        "a",
        "1",
        "1",
        ["0", "0", "3"],
        ["0", "0", "0"],
    )])
    .unwrap();
    let g = v3(["0", "0", "-10"], ACCELERATION);
    let floor = walls(&[(2, "0", true)]);
    let r = evolve_sphere_world_events(&world, Some(&g), &floor, &secs("4"), 10).unwrap();
    assert_eq!(r.deferred, None);
    let root10 = |k: &str| Q::new(q("0"), q(k), &q("10")).unwrap();
    let times: Vec<Q> = r.events.iter().map(|e| e.time.clone()).collect();
    assert_eq!(times, vec![root10("1/5"), root10("3/5"), root10("1")]);
    // ½ m v² + m g z is 30 J throughout, by hand from the end state.
    let energy = kinetic(&r.spheres)
        .checked_add(&r.spheres[0].position[2].scale(&q("10")))
        .unwrap();
    assert_eq!(energy, qr("30"));
    for e in &r.events {
        assert_eq!(e.energy, qr("30"));
    }
}

#[test]
fn a_gas_in_a_box_keeps_its_energy_exactly_and_never_overlaps() {
    // 24 spheres in 4 lanes along x, in a box of walls on x; lanes 2 m apart in y and z.
    // Lane-mates meet head-on and bounce off the walls: every time is rational.
    let mut balls = Vec::new();
    for lane in 0..4 {
        let (y, z) = ((2 * (lane % 2)).to_string(), (2 * (lane / 2)).to_string());
        for k in 0..6 {
            let x = (2 * k + 1).to_string();
            let v = format!("{}/{}", if (k + lane) % 2 == 0 { 3 } else { -2 }, k + 1);
            let m = (1 + (k + lane) % 3).to_string();
            balls.push(sphere(
                &format!("g{lane}_{k}"),
                &m,
                "1/2",
                [&x, &y, &z],
                [&v, "0", "0"],
            ));
        }
    }
    let world = SphereWorld::new(balls).unwrap();
    let box_x = walls(&[(0, "0", true), (0, "12", false)]);
    let r = evolve_sphere_world_events(&world, None, &box_x, &secs("30"), 400).unwrap();
    assert!(r.events.len() >= 50, "{} events", r.events.len());
    let e0 = kinetic(
        &world
            .spheres()
            .iter()
            .map(QuadraticSphere::from)
            .collect::<Vec<_>>(),
    );
    for e in &r.events {
        assert_eq!(e.kinetic_energy, e0, "at {}", e.time);
    }
    assert_eq!(kinetic(&r.spheres), e0);
    // No two spheres overlap and none crosses a wall at the end, checked by hand.
    for (i, a) in r.spheres.iter().enumerate() {
        let x = &a.position[0];
        assert!(
            !x.add_rational(&q("-1/2")).is_negative() && !x.add_rational(&q("-23/2")).is_positive()
        );
        for b in &r.spheres[i + 1..] {
            let mut d2 = Q::zero();
            for k in 0..3 {
                let d = b.position[k].checked_sub(&a.position[k]).unwrap();
                d2 = d2.checked_add(&d.checked_mul(&d).unwrap()).unwrap();
            }
            assert!(!d2.add_rational(&q("-1")).is_negative());
        }
    }
}

#[test]
fn a_ball_resting_on_the_floor_defers() {
    let world = SphereWorld::new(vec![sphere(
        "a",
        "1",
        "1",
        ["0", "0", "1"],
        ["0", "0", "0"],
    )])
    .unwrap();
    let g = v3(["0", "0", "-10"], ACCELERATION);
    let r = evolve_sphere_world_events(&world, Some(&g), &walls(&[(2, "0", true)]), &secs("1"), 10)
        .unwrap();
    assert_eq!(
        r.deferred,
        Some(WorldDeferral::RestingContact { sphere: 0, wall: 0 })
    );
    assert!(Wall::new(3, q("0"), true).is_err());
}

#[test]
fn a_gas_of_200_spheres_in_a_walled_box_keeps_its_energy_exactly() {
    // 20 lanes of 10 along x in a box walled at x = 0 and x = 40 (as in
    // examples/event_world_speed.rs); 60 events.
    let mut balls = Vec::new();
    for lane in 0..20 {
        let (y, z) = ((2 * (lane % 5)).to_string(), (2 * (lane / 5)).to_string());
        for k in 0..10 {
            let x = (2 + 4 * k).to_string();
            let sign = if (k + lane) % 2 == 0 { 1 } else { -1 };
            let v = format!("{}/{}", sign * (1 + (k * 7 + lane * 3) % 5), 1 + k % 3);
            let m = (1 + (k + lane) % 3).to_string();
            balls.push(sphere(
                &format!("s{lane}_{k}"),
                &m,
                "1/2",
                [&x, &y, &z],
                [&v, "0", "0"],
            ));
        }
    }
    let world = SphereWorld::new(balls).unwrap();
    let e0 = kinetic(
        &world
            .spheres()
            .iter()
            .map(QuadraticSphere::from)
            .collect::<Vec<_>>(),
    );
    let box_x = walls(&[(0, "0", true), (0, "40", false)]);
    let r = evolve_sphere_world_events(&world, None, &box_x, &secs("1000"), 60).unwrap();
    assert_eq!(r.deferred, Some(WorldDeferral::EventLimit { limit: 60 }));
    assert!(r.events.len() > 50);
    for e in &r.events {
        assert_eq!(e.kinetic_energy, e0, "at {}", e.time);
    }
    assert_eq!(kinetic(&r.spheres), e0);
    for s in &r.spheres {
        let x = &s.position[0];
        assert!(!x.add_rational(&q("-1/2")).is_negative());
        assert!(!x.add_rational(&q("-79/2")).is_positive());
    }
}
