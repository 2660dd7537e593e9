//! The limits added for issue 27, each at its edge and one past it, through [`dispatch`] with
//! small limits so the edges are cheap to reach: input rational bits, the reply's least size
//! up front and its measured size during a trajectory, the pair actions' work and reply
//! bounds, and the work budget's charge for forces.

use centl_protocol::budget::pair_reply_bytes;
use centl_protocol::limits::MIN_PARTICLE_SAMPLE_BYTES;
use centl_protocol::{Limits, ProtocolError, dispatch};
use serde_json::{Value, json};

fn q(v: &str, u: &str) -> Value {
    json!({"value": v, "unit": u})
}

fn v3(c: [&str; 3], u: &str) -> Value {
    json!({"value": c, "unit": u})
}

fn particle(id: &str, x: &str) -> Value {
    json!({"id": id, "mass": q("1", "kg"), "position": v3([x, "0", "0"], "m"),
           "velocity": v3(["0", "0", "0"], "m/s")})
}

fn sphere(id: &str, x: &str) -> Value {
    let mut p = particle(id, x);
    p["radius"] = q("1", "m");
    p
}

fn run(action: &str, args: Value, limits: &Limits) -> Result<Value, ProtocolError> {
    dispatch(action, Some(&args), limits)
}

#[test]
fn input_rational_bits_at_the_limit_and_one_past() {
    let limits = Limits {
        max_rational_bits: 10,
        ..Limits::default()
    };
    // 1023 has 10 bits; 1024 has 11. In km the value is 1000 times larger.
    let convert = |v: &str, from: &str| {
        run(
            "simulate",
            json!({"particle": {"id": "a", "mass": q("1", "kg"),
                                "position": v3([v, "0", "0"], from),
                                "velocity": v3(["0", "0", "0"], "m/s")},
                   "dt": q("1", "s"), "steps": 0}),
            &limits,
        )
    };
    assert!(convert("1023", "m").is_ok());
    let e = convert("1024", "m").unwrap_err();
    assert_eq!(
        e,
        ProtocolError::RationalTooLarge {
            bits: 11,
            step: 0,
            limit: 10,
            path: Some("args.particle.position.value[0]".into()),
        }
    );
    // 1 km is 1000 m (10 bits); 2 km is 2000 m (11 bits): checked after conversion to SI.
    assert!(convert("1", "km").is_ok());
    assert_eq!(convert("2", "km").unwrap_err().code(), "rational_too_large");
}

fn trajectory(particles: usize, steps: u64, x: &str) -> Value {
    let world: Vec<Value> = (0..particles)
        .map(|i| particle(&format!("p{i}"), x))
        .collect();
    json!({"world": world, "dt": q("1", "s"), "steps": steps, "stride": 1})
}

#[test]
fn reply_least_size_up_front_at_the_limit_and_one_past() {
    // 3 particles × 4 samples × 137 bytes.
    let least = 3 * 4 * MIN_PARTICLE_SAMPLE_BYTES;
    let at = Limits {
        max_reply_bytes: least as usize,
        ..Limits::default()
    };
    // At the limit the request starts (and then meets its true, larger size while recording).
    match run("simulate", trajectory(3, 3, "0"), &at) {
        Err(ProtocolError::ReplyTooLarge { step, .. }) => assert!(step <= 3, "{step}"),
        other => panic!("{other:?}"),
    }
    let e = run(
        "simulate",
        trajectory(3, 3, "0"),
        &Limits {
            max_reply_bytes: least as usize - 1,
            ..Limits::default()
        },
    );
    assert_eq!(
        e.unwrap_err(),
        ProtocolError::ReplyTooLarge {
            bytes: least,
            step: 0,
            limit: least as usize - 1,
        }
    );
}

#[test]
fn reply_measured_during_a_trajectory_and_on_the_whole_result() {
    let roomy = run("simulate", trajectory(2, 9, "5"), &Limits::default()).unwrap();
    let bytes = serde_json::to_string(&roomy).unwrap().len();
    // The whole result at exactly its size passes the final check; one byte less fails.
    let at = Limits {
        max_reply_bytes: bytes,
        ..Limits::default()
    };
    assert_eq!(run("simulate", trajectory(2, 9, "5"), &at).unwrap(), roomy);
    let past = Limits {
        max_reply_bytes: bytes - 1,
        ..Limits::default()
    };
    assert_eq!(
        run("simulate", trajectory(2, 9, "5"), &past)
            .unwrap_err()
            .code(),
        "reply_too_large"
    );
}

#[test]
fn work_budget_charges_every_force() {
    let force = json!({"kind": "constant", "force": v3(["1", "0", "0"], "N")});
    let args = |forces: usize| {
        json!({"particle": particle("a", "0"), "forces": vec![force.clone(); forces],
               "dt": q("1", "s"), "steps": 10})
    };
    // 1 particle × (3 forces + 1) × 10 steps × 64 bits = 2,560.
    let at = Limits {
        max_work_bit_steps: 2_560,
        ..Limits::default()
    };
    assert!(run("simulate", args(3), &at).is_ok());
    assert_eq!(
        run("simulate", args(4), &at).unwrap_err(),
        ProtocolError::WorkLimitExceeded {
            work: 3_200,
            step: 0,
            limit: 2_560,
        }
    );
}

#[test]
fn pair_action_bounds_at_the_limit_and_one_past() {
    // Three spheres, 3 pairs, all inputs of at most 2 bits (x = 0, 1, 2; masses and radii 1).
    let spheres = json!([sphere("a", "0"), sphere("b", "1"), sphere("c", "2")]);
    let reply = 3 * pair_reply_bytes(2, 1);
    for action in [
        "analyze_sphere_contacts",
        "resolve_isolated_elastic_sphere_contacts",
    ] {
        let limits = |reply: u64, work: u64| Limits {
            max_reply_bytes: reply as usize,
            max_work_bit_steps: work,
            ..Limits::default()
        };
        // Work: 3 pairs × 64 bits. At both limits the request is not refused up front: it
        // answers, or (resolve, which also sends every sphere back) is refused by the final
        // measurement of its reply, which is larger than the pairs alone.
        match run(action, json!({"spheres": spheres}), &limits(reply, 192)) {
            Ok(_) => {}
            Err(ProtocolError::ReplyTooLarge { bytes, .. }) => assert!(bytes > reply, "{action}"),
            Err(e) => panic!("{action}: {e:?}"),
        }
        assert_eq!(
            run(action, json!({"spheres": spheres}), &limits(reply, 191)).unwrap_err(),
            ProtocolError::WorkLimitExceeded {
                work: 192,
                step: 0,
                limit: 191,
            },
            "{action}"
        );
        assert_eq!(
            run(action, json!({"spheres": spheres}), &limits(reply - 1, 192)).unwrap_err(),
            ProtocolError::ReplyTooLarge {
                bytes: reply,
                step: 0,
                limit: reply as usize - 1,
            },
            "{action}"
        );
    }
}

#[test]
fn event_world_takes_up_to_the_particle_limit_whatever_the_pair_limit() {
    // The event world examines pairs without listing them, so 256 spheres (32,640 pairs,
    // far past the listing limit of 4,096) are accepted and 257 are refused by count.
    let world = |n: usize| {
        json!({"spheres": (0..n).map(|i| sphere(&format!("s{i}"), &(3 * i).to_string()))
                   .collect::<Vec<_>>(),
               "duration": q("1", "s")})
    };
    let limits = Limits::default();
    let at = run("evolve_sphere_world_events", world(256), &limits).unwrap();
    assert_eq!(at["events"], json!([]), "{at}");
    let past = run("evolve_sphere_world_events", world(257), &limits).unwrap_err();
    assert_eq!(past.code(), "too_many_particles", "{past:?}");
    // The same 256 spheres listed pair by pair are refused by the pair limit.
    let listed = run(
        "analyze_sphere_contacts",
        json!({"spheres": world(256)["spheres"].clone()}),
        &limits,
    )
    .unwrap_err();
    assert_eq!(listed.code(), "too_many_pairs", "{listed:?}");
}
