//! The contact actions over MCP (issue 26 item 3): 3-D collisions, sphere-contact analysis and
//! resolution, certificates and event steps, completed and deferred. Expected values are
//! closed forms worked by hand in the comments; deferred verdicts must be successful tool
//! results, engine refusals tool errors with the engine's code.

use crate::common;

use common::{Pipe, particle, q, sphere, v3};
use serde_json::{Value, json};

fn start() -> Pipe {
    let mut s = Pipe::start("--mcp");
    let init = s.send(
        &json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "contacts-test", "version": "0"},
        }}),
    );
    assert!(
        init["result"]["capabilities"]["tools"].is_object(),
        "{init}"
    );
    s.write_raw(b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n");
    s
}

/// `tools/call` of `action`: `(is_error, structured content)`.
fn call(s: &mut Pipe, id: i64, action: &str, args: Value) -> (bool, Value) {
    let reply = s.send(
        &json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
            "name": "centl_physics", "arguments": {"action": action, "args": args},
        }}),
    );
    assert_eq!(reply["id"], json!(id));
    assert!(reply.get("error").is_none(), "{reply}");
    let r = &reply["result"];
    (
        r["isError"].as_bool().unwrap(),
        r["structuredContent"].clone(),
    )
}

fn result(s: &mut Pipe, id: i64, action: &str, args: Value) -> Value {
    let (err, content) = call(s, id, action, args);
    assert!(!err, "{content}");
    content["result"].clone()
}

#[test]
fn three_d_collisions_over_mcp() {
    let mut s = start();
    // Equal masses, oblique contact along n = (1, 1, 0): s = (v₂ − v₁)·n = −1, impulse on a is
    // 2·m₁m₂/(m₁+m₂) · s/(n·n) · n = (−1/2, −1/2, 0).
    let r = result(
        &mut s,
        1,
        "elastic_collision_3d_at_contact",
        json!({
            "first": particle("a", "1", ["0", "0", "0"], ["1", "0", "0"]),
            "second": particle("b", "1", ["1", "1", "0"], ["0", "0", "0"]),
        }),
    );
    assert_eq!(r["status"], json!("resolved"));
    assert_eq!(r["first"]["velocity"], v3(["1/2", "-1/2", "0"], "m/s"));
    assert_eq!(r["second"]["velocity"], v3(["1/2", "1/2", "0"], "m/s"));
    assert_eq!(r["impulse"], v3(["-1/2", "-1/2", "0"], "kg*m/s"));
    assert_eq!(
        r["trust_boundary"],
        json!("caller_supplied_contact_with_distinct_centers")
    );
    assert_eq!(
        r["conservation"]["kinetic_energy"]["exactly_equal"],
        json!(true)
    );
    // Separating along the normal: nothing applied, velocities kept.
    let r = result(
        &mut s,
        2,
        "elastic_collision_3d_at_contact",
        json!({
            "first": particle("a", "2", ["0", "0", "0"], ["-1", "3", "0"]),
            "second": particle("b", "1", ["0", "0", "1"], ["0", "0", "0"]),
        }),
    );
    assert_eq!(r["status"], json!("separating_or_stationary"));
    assert_eq!(r["first"]["velocity"], v3(["-1", "3", "0"], "m/s"));
    // Coincident centres: an engine refusal, a tool error with its code.
    let (err, content) = call(
        &mut s,
        3,
        "elastic_collision_3d_at_contact",
        json!({
            "first": particle("a", "1", ["1", "1", "1"], ["1", "0", "0"]),
            "second": particle("b", "1", ["1", "1", "1"], ["0", "0", "0"]),
        }),
    );
    assert!(err);
    assert_eq!(content["error"]["code"], json!("coincident_centers"));
    s.finish();
}

#[test]
fn sphere_contact_analysis_and_resolution_over_mcp() {
    let mut s = start();
    let at = |id: &str, x: &str, v: &str| sphere(id, "1", [x, "0", "0"], [v, "0", "0"], "1/2");
    // a–b touch (distance 1 = 1/2 + 1/2), c is far away.
    let r = result(
        &mut s,
        1,
        "analyze_sphere_contacts",
        json!({"spheres": [at("a", "0", "1"), at("b", "1", "0"), at("c", "5", "0")]}),
    );
    assert_eq!(r["summary"]["touching"], json!(1));
    assert_eq!(r["summary"]["separated"], json!(2));
    assert_eq!(r["summary"]["pairs"], json!(3));
    // Completed: the disjoint pair exchanges velocities (equal masses, head on).
    let r = result(
        &mut s,
        2,
        "resolve_isolated_elastic_sphere_contacts",
        json!({"spheres": [at("a", "0", "1"), at("b", "1", "0"), at("c", "5", "0")]}),
    );
    assert_eq!(r["status"], json!("completed"));
    assert_eq!(r["responses"][0]["status"], json!("resolved"));
    assert_eq!(r["responses"][0]["impulse"], v3(["-1", "0", "0"], "kg*m/s"));
    assert_eq!(r["spheres"][0]["velocity"], v3(["0", "0", "0"], "m/s"));
    assert_eq!(r["spheres"][1]["velocity"], v3(["1", "0", "0"], "m/s"));
    // Deferred: a chain a–b–c of simultaneous contacts, world returned unchanged.
    let chain = json!({"spheres": [at("a", "0", "1"), at("b", "1", "0"), at("c", "2", "0")]});
    let (err, content) = call(
        &mut s,
        3,
        "resolve_isolated_elastic_sphere_contacts",
        chain.clone(),
    );
    assert!(!err, "a deferral is a successful tool result");
    let r = &content["result"];
    assert_eq!(r["status"], json!("deferred"));
    assert_eq!(r["reason"], json!("ambiguous_simultaneous_contacts"));
    assert_eq!(r["world_unchanged"], json!(true));
    assert_eq!(r["spheres"], chain["spheres"]);
    // Deferred: overlap takes precedence.
    let r = result(
        &mut s,
        4,
        "resolve_isolated_elastic_sphere_contacts",
        json!({"spheres": [at("a", "0", "1"), at("b", "1/2", "0"), at("c", "3/2", "0")]}),
    );
    assert_eq!(r["reason"], json!("overlap_detected"));
    s.finish();
}

#[test]
fn certificates_and_event_steps_over_mcp() {
    let mut s = start();
    let pair = |b_radius: &str, duration: &str| {
        json!({
            "first": sphere("a", "1", ["0", "0", "0"], ["1", "0", "0"], "1"),
            "second": sphere("b", "1", ["3", "1", "0"], ["0", "0", "0"], b_radius),
            "duration": q(duration, "s"),
        })
    };
    // Radius sum 2: f(t) = (t − 3)² + 1 − 4 = t² − 6t + 6, D = 12, t* = 3 − √3 ∈ [1, 2].
    let mut args = pair("1", "5");
    args["bracket_width"] = q("1/1024", "s");
    let r = result(&mut s, 1, "certify_linear_sphere_contact", args);
    assert_eq!(r["status"], json!("crossing_contact"));
    // Over-fine bracket: 10^-999 (numbers are held to 1,000 digits) in a unit of 10^-2280 s
    // (unit factors to 8,192 bits) needs log2(3·10^3279) ≈ 10,894 halvings, over 10,000.
    let mut args = pair("1", "5");
    args["bracket_width"] = q("1e-999", "s*(qm/Qm)^38");
    let (err, content) = call(&mut s, 2, "certify_linear_sphere_contact", args);
    assert!(err);
    assert_eq!(content["error"]["code"], json!("refinement_too_fine"));
    // Rational event: radius sum 1, centres 3 apart closing at 1 m/s: t* = 2.
    let rational = json!({
        "first": sphere("a", "1", ["0", "0", "0"], ["1", "0", "0"], "1/2"),
        "second": sphere("b", "1", ["3", "0", "0"], ["0", "0", "0"], "1/2"),
        "duration": q("3", "s"),
    });
    let r = result(
        &mut s,
        3,
        "evolve_linear_sphere_pair_through_contact",
        rational,
    );
    assert_eq!(r["status"], json!("completed"));
    assert_eq!(r["event"]["time"], q("2", "s"));
    assert_eq!(r["second"]["position"], v3(["4", "0", "0"], "m"));
    // Irrational event: completes in Q(√3); equal masses, so the event exchanges the normal
    // components and the speeds squared still sum to 1.
    let r = result(
        &mut s,
        4,
        "evolve_linear_sphere_pair_through_contact",
        pair("1", "2"),
    );
    assert_eq!(r["status"], json!("completed"));
    assert_eq!(r["event"]["time"]["text"], json!("3 - √3"));
    assert_eq!(r["field_radicand"], json!("3"));
    assert_eq!(r["conservation"]["momentum"]["exactly_equal"], json!(true));
    // Deferred: initial overlap, spheres unchanged.
    let over = json!({
        "first": sphere("a", "1", ["0", "0", "0"], ["1", "0", "0"], "1"),
        "second": sphere("b", "1", ["1", "0", "0"], ["0", "0", "0"], "1"),
        "duration": q("1", "s"),
    });
    let (err, content) = call(&mut s, 5, "evolve_linear_sphere_pair_through_contact", over);
    assert!(!err);
    assert_eq!(content["result"]["reason"], json!("initial_overlap"));
    assert_eq!(content["result"]["spheres_unchanged"], json!(true));
    s.finish();
}
