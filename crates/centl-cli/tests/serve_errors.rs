//! Every error code of the JSON Lines server, each from a real bad input over a pipe, and the
//! server answering the next line as if nothing had happened.

use crate::common;

use common::{Pipe, code, long_args, ok, particle, q, request, sphere, v3};
use serde_json::{Value, json};
use std::collections::BTreeSet;

const GOOD: &str =
    r#"{"v":1,"id":"probe","action":"convert","args":{"value":"100","from":"cm","to":"m"}}"#;

fn conv(value: &str, from: &str, to: &str) -> Value {
    json!({"value": value, "from": from, "to": to})
}

fn pair_args(a: Value, b: Value, duration: &str) -> Value {
    json!({"first": a, "second": b, "duration": q(duration, "s")})
}

fn world(n: usize) -> Vec<Value> {
    (0..n)
        .map(|i| {
            let x = (3 * i).to_string();
            sphere(&format!("s{i}"), "1", [&x, "0", "0"], ["0", "0", "0"], "1")
        })
        .collect()
}

fn gravity_sim(extra: Value) -> Value {
    let mut args = json!({
        "particle": particle("p", "1", ["0", "0", "0"], ["0", "0", "0"]),
        "dt": q("1/10", "s"),
        "steps": 10,
    });
    for (k, v) in extra.as_object().unwrap() {
        args[k] = v.clone();
    }
    args
}

fn spring(extra: Value) -> Value {
    let mut s =
        json!({"kind": "spring", "anchor": v3(["0", "0", "0"], "m"), "stiffness": q("1", "N/m")});
    for (k, v) in extra.as_object().unwrap() {
        s[k] = v.clone();
    }
    s
}

/// `(raw request line, expected code, expected echoed id)`.
fn cases() -> Vec<(String, &'static str, Value)> {
    let r = |id: i64, action: &str, args: Value| {
        (request(json!(id), action, args).to_string(), json!(id))
    };
    let mut out: Vec<(String, &'static str, Value)> = Vec::new();
    let mut add = |(line, id): (String, Value), c: &'static str| out.push((line, c, id));
    let null = Value::Null;
    add(("".into(), null.clone()), "empty_line");
    add(("{\"v\":1,".into(), null.clone()), "malformed_json");
    add(("[1,2]".into(), null.clone()), "not_an_object");
    add(
        (r#"{"id":3,"action":"convert"}"#.into(), json!(3)),
        "missing_version",
    );
    add(
        (r#"{"v":2,"id":4,"action":"convert"}"#.into(), json!(4)),
        "unsupported_version",
    );
    add(
        (r#"{"v":"1","id":5,"action":"convert"}"#.into(), json!(5)),
        "unsupported_version",
    );
    add((r#"{"v":1,"id":6}"#.into(), json!(6)), "missing_action");
    add(
        (
            r#"{"v":1,"id":7,"action":"teleport","args":{}}"#.into(),
            json!(7),
        ),
        "unknown_action",
    );
    add(
        (
            r#"{"v":1,"id":8,"action":"capabilities","extra":true}"#.into(),
            json!(8),
        ),
        "unknown_member",
    );
    add(
        (
            r#"{"v":1,"id":9,"action":"constant","args":{"name":"c","name":"h"}}"#.into(),
            json!(9),
        ),
        "duplicate_key",
    );
    let deep = format!(
        r#"{{"v":1,"id":10,"action":"capabilities","args":{{"x":{}}}}}"#,
        "[".repeat(64) + &"]".repeat(64)
    );
    add((deep, json!(10)), "nesting_too_deep");
    add(
        r(11, "convert", json!({"value": "1", "from": "m"})),
        "missing_argument",
    );
    add(
        r(
            12,
            "convert",
            json!({"value": "1", "from": "m", "to": "cm", "round": true}),
        ),
        "unknown_argument",
    );
    add(
        r(13, "convert", json!({"value": 1, "from": "m", "to": "cm"})),
        "wrong_type",
    );
    add(r(14, "convert", conv("one", "m", "cm")), "invalid_number");
    add(r(15, "convert", conv("1/0", "m", "cm")), "invalid_number");
    add(
        r(16, "convert", conv("1e2000", "m", "cm")),
        "number_too_large",
    );
    add(
        r(17, "convert", conv(&"7".repeat(3_000), "m", "cm")),
        "number_too_large",
    );
    add(r(18, "convert", conv("1", "mtr", "m")), "unknown_unit");
    add(r(19, "convert", conv("1", "m^", "m")), "malformed_unit");
    add(r(20, "convert", conv("90", "deg", "rad")), "inexact_unit");
    add(r(21, "convert", conv("1", "m", "s")), "dimension_mismatch");
    let wrong_unit = gravity_sim(json!({"dt": q("1/10", "m")}));
    add(r(22, "simulate", wrong_unit), "dimension_mismatch");
    add(
        r(23, "constant", json!({"name": "warp"})),
        "unknown_constant",
    );
    add(r(24, "constant", json!({"name": "G"})), "measured_constant");
    add(
        r(25, "simulate", gravity_sim(json!({"stride": 0}))),
        "invalid_value",
    );
    add(
        r(
            26,
            "simulate",
            gravity_sim(json!({"forces": [{"kind": "magic"}]})),
        ),
        "invalid_value",
    );
    add(
        r(27, "simulate", gravity_sim(json!({"steps": 1_000_001}))),
        "too_many_steps",
    );
    add(
        r(
            28,
            "simulate",
            gravity_sim(json!({"steps": 1_000_000, "stride": 10})),
        ),
        "too_many_samples",
    );
    let crowd: Vec<Value> = (0..257)
        .map(|i| particle(&format!("p{i}"), "1", ["0", "0", "0"], ["0", "0", "0"]))
        .collect();
    let crowd_args = json!({"world": crowd, "dt": q("1", "s"), "steps": 1});
    add(r(29, "simulate", crowd_args), "too_many_particles");
    // 256 particles × 65,537 steps × 64 bits is one step's worth over the 2³⁰ budget.
    let crowd: Vec<Value> = (0..256)
        .map(|i| particle(&format!("p{i}"), "1", ["0", "0", "0"], ["0", "0", "0"]))
        .collect();
    add(
        r(
            29,
            "simulate",
            json!({"world": crowd, "dt": q("1", "s"), "steps": 65_537}),
        ),
        "work_limit_exceeded",
    );
    // 10,000 samples of 100 particles at no less than 137 bytes each pass 8 MiB.
    let crowd: Vec<Value> = (0..100)
        .map(|i| particle(&format!("p{i}"), "1", ["0", "0", "0"], ["0", "0", "0"]))
        .collect();
    add(
        r(
            29,
            "simulate",
            json!({"world": crowd, "dt": q("1", "s"), "steps": 9_999, "stride": 1}),
        ),
        "reply_too_large",
    );
    add(
        r(
            29,
            "convert",
            json!({"value": "1", "from": "(Qm^64)^64", "to": "m"}),
        ),
        "unit_factor_too_large",
    );
    add(
        r(30, "analyze_sphere_contacts", json!({"spheres": world(92)})),
        "too_many_pairs",
    );
    let zero_mass =
        json!({"m1": q("0", "kg"), "u1": q("1", "m/s"), "m2": q("1", "kg"), "u2": q("0", "m/s")});
    add(
        r(31, "elastic_collision_1d", zero_mass),
        "non_positive_mass",
    );
    let neg_mass =
        gravity_sim(json!({"particle": particle("p", "-2", ["0", "0", "0"], ["0", "0", "0"])}));
    add(r(32, "simulate", neg_mass), "non_positive_mass");
    let a = sphere("a", "1", ["0", "0", "0"], ["0", "0", "0"], "1");
    let zero_r = sphere("b", "1", ["5", "0", "0"], ["0", "0", "0"], "0");
    add(
        r(
            33,
            "certify_linear_sphere_contact",
            pair_args(a.clone(), zero_r, "1"),
        ),
        "non_positive_radius",
    );
    add(
        r(34, "simulate", gravity_sim(json!({"dt": q("0", "s")}))),
        "non_positive_time_step",
    );
    let b = sphere("b", "1", ["5", "0", "0"], ["0", "0", "0"], "1");
    add(
        r(
            35,
            "certify_linear_sphere_contact",
            pair_args(a.clone(), b.clone(), "-1"),
        ),
        "negative_duration",
    );
    let mover = sphere("a", "1", ["0", "0", "0"], ["1", "0", "0"], "1");
    let off_axis = sphere("b", "1", ["3", "1", "0"], ["0", "0", "0"], "1/2");
    let mut narrow = pair_args(mover, off_axis, "5");
    narrow["bracket_width"] = q("0", "s");
    add(
        r(35, "certify_linear_sphere_contact", narrow),
        "non_positive_width",
    );
    // `refinement_too_fine` needs a width below 2^-10000 s ≈ 1e-3010 s, which the
    // 1,000-digit limit on request numbers already rules out.
    let neg_k = gravity_sim(json!({"forces": [spring(json!({"stiffness": q("-1", "N/m")}))]}));
    add(r(36, "simulate", neg_k), "negative_parameter");
    add(
        r(
            37,
            "simulate",
            gravity_sim(json!({"particle": particle("", "1", ["0", "0", "0"], ["0", "0", "0"])})),
        ),
        "empty_id",
    );
    let twins = json!([
        particle("a", "1", ["0", "0", "0"], ["0", "0", "0"]),
        particle("a", "1", ["1", "0", "0"], ["0", "0", "0"])
    ]);
    add(
        r(
            38,
            "simulate",
            json!({"world": twins, "dt": q("1", "s"), "steps": 1}),
        ),
        "duplicate_id",
    );
    add(
        r(
            39,
            "certify_linear_sphere_contact",
            pair_args(a.clone(), a.clone(), "1"),
        ),
        "same_particle",
    );
    let same_spot = json!({"first": particle("a", "1", ["1", "2", "3"], ["1", "0", "0"]), "second": particle("b", "1", ["1", "2", "3"], ["0", "0", "0"])});
    add(
        r(40, "elastic_collision_3d_at_contact", same_spot),
        "coincident_centers",
    );
    let irr = gravity_sim(json!({
        "particle": particle("p", "1", ["1", "1", "0"], ["0", "0", "0"]),
        "forces": [spring(json!({"rest_length": q("1", "m")}))],
    }));
    add(r(41, "simulate", irr), "irrational_spring_length");
    let at_anchor = gravity_sim(json!({"forces": [spring(json!({"rest_length": q("1", "m")}))]}));
    add(r(42, "simulate", at_anchor), "spring_at_anchor");
    // dt = 10^-999 makes every step add about 6,600 bits: the guard trips at step 10.
    let growth = json!({
        "particle": particle("p", "1", ["1", "0", "0"], ["0", "0", "0"]),
        "forces": [spring(json!({}))],
        "dt": q("1e-999", "s"),
        "steps": 1000,
    });
    add(r(43, "simulate", growth), "rational_too_large");
    out
}

#[test]
fn every_error_code_is_distinct_keeps_the_id_and_does_not_stop_the_server() {
    let mut server = Pipe::start("--serve");
    let mut seen = BTreeSet::new();
    for (line, expected, id) in cases() {
        let reply = server.send_line(&line);
        assert_eq!(code(&reply), expected, "{}", &line[..line.len().min(200)]);
        assert_eq!(reply["id"], id, "id for {expected}");
        seen.insert(expected);
        let probe = server.send_line(GOOD);
        assert_eq!(ok(&probe)["quantity"], q("1", "m"), "after {expected}");
        assert_eq!(probe["id"], json!("probe"));
    }
    // Byte-level failures need raw writes.
    server.write_raw(b"\xff\xfe\xfd\n");
    assert_eq!(code(&server.read()), "invalid_utf8");
    seen.insert("invalid_utf8");
    let mut huge = vec![b' '; 3 << 20];
    huge.extend_from_slice(b"{\"v\":1,\"id\":\"big\"}\n");
    server.write_raw(&huge);
    let reply = server.read();
    assert_eq!(code(&reply), "line_too_long");
    assert_eq!(reply["error"]["limit"], json!(1 << 20));
    seen.insert("line_too_long");
    assert_eq!(ok(&server.send_line(GOOD))["quantity"], q("1", "m"));
    // A long request cancelled by id; its reply and the cancel's may come in either order.
    let long = request(json!("long"), "simulate", long_args());
    server.write_raw(format!("{long}\n").as_bytes());
    let cancel = request(json!("stop"), "cancel", json!({"id": "long"}));
    server.write_raw(format!("{cancel}\n").as_bytes());
    let (a, b) = (server.read(), server.read());
    let cancelled = if a["id"] == json!("long") { a } else { b };
    assert_eq!(code(&cancelled), "cancelled", "{cancelled}");
    seen.insert("cancelled");
    server.finish();

    // Every code the server lists was produced (engine codes come from the cases themselves).
    let protocol: BTreeSet<&str> = centl_protocol_codes().into_iter().collect();
    for c in &protocol {
        assert!(seen.contains(c), "no test input produced `{c}`");
    }
}

fn centl_protocol_codes() -> Vec<&'static str> {
    // The capabilities action is the public list; read it from a fresh server.
    let mut s = Pipe::start("--serve");
    let caps = s.send_line(r#"{"v":1,"id":0,"action":"capabilities"}"#);
    let codes: Vec<String> = serde_json::from_value(ok(&caps)["error_codes"].clone()).unwrap();
    s.finish();
    codes
        .into_iter()
        .map(|c| &*Box::leak(c.into_boxed_str()))
        .collect()
}

#[test]
fn rational_guard_stops_at_the_same_step_every_time() {
    let growth = cases()
        .into_iter()
        .find(|c| c.1 == "rational_too_large")
        .unwrap()
        .0;
    let mut a = Pipe::start("--serve");
    let first = a.send_line(&growth);
    let second = a.send_line(&growth);
    a.finish();
    assert_eq!(first, second);
    let e = &first["error"];
    assert_eq!(e["step"], json!(10), "{e}");
    assert_eq!(e["limit"], json!(65_536));
    assert!(e["bits"].as_u64().unwrap() > 65_536);
}

#[test]
fn pair_limit_is_inclusive() {
    // 91 spheres make 4,095 pairs: allowed, and every pair is counted.
    let mut s = Pipe::start("--serve");
    let reply = s.send(&request(
        json!(1),
        "analyze_sphere_contacts",
        json!({"spheres": world(91)}),
    ));
    let summary = &ok(&reply)["summary"];
    assert_eq!(summary["pairs"], json!(4_095));
    assert_eq!(summary["separated"], json!(4_095));
    assert_eq!(ok(&reply)["pairs"], json!([]));
    s.finish();
}
