//! `evolve_sphere_world_events` over JSON Lines and MCP: Newton's cradle (times 1, 2, 3 and the
//! last ball leaving at 1 m/s, derived by hand), an irrational contact at `3 − √3`, and the
//! deferred verdicts as successful results.

use crate::common;

use common::{Pipe, ok, q, request, sphere, v3};
use serde_json::{Value, json};

fn cradle() -> Value {
    json!({
        "spheres": [
            sphere("a", "1", ["0", "0", "0"], ["1", "0", "0"], "1/2"),
            sphere("b", "1", ["2", "0", "0"], ["0", "0", "0"], "1/2"),
            sphere("c", "1", ["4", "0", "0"], ["0", "0", "0"], "1/2"),
            sphere("d", "1", ["6", "0", "0"], ["0", "0", "0"], "1/2"),
        ],
        "duration": q("5", "s"),
    })
}

fn texts(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .map(|x| x["time"]["text"].as_str().unwrap().to_string())
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn newtons_cradle_over_json_lines() {
    let mut s = Pipe::start("--serve");
    let r = s.send(&request(json!(1), "evolve_sphere_world_events", cradle()));
    let out = ok(&r);
    assert_eq!(out["status"], "completed");
    assert_eq!(texts(&out["events"]), ["1", "2", "3"]);
    assert_eq!(
        out["spheres"][3]["position"]["text"],
        json!(["8", "0", "0"])
    );
    assert_eq!(
        out["spheres"][3]["velocity"]["text"],
        json!(["1", "0", "0"])
    );
    assert_eq!(out["energy"]["exactly_equal"], true);
    assert_eq!(out["momentum"]["exactly_equal"], true);
    // A shared simultaneous contact is a successful deferred verdict.
    let pinch = json!({
        "spheres": [
            sphere("a", "1", ["0", "0", "0"], ["1", "0", "0"], "1/2"),
            sphere("b", "1", ["3", "0", "0"], ["0", "0", "0"], "1/2"),
            sphere("c", "1", ["6", "0", "0"], ["-1", "0", "0"], "1/2"),
        ],
        "duration": q("5", "s"),
        "gravity": v3(["0", "0", "-10"], "m/s^2"),
    });
    let r = s.send(&request(json!(2), "evolve_sphere_world_events", pinch));
    let out = ok(&r);
    assert_eq!(out["status"], "deferred");
    assert_eq!(out["reason"], "ambiguous_simultaneous_contacts");
    assert_eq!(out["detail"]["sphere"], "b");
    assert_eq!(out["time"]["text"], "2");
    s.finish();
}

#[test]
fn irrational_contact_over_mcp() {
    let mut s = Pipe::start("--mcp");
    s.send(&json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "world-test", "version": "0"}},
    }));
    s.write_raw(b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n");
    let args = json!({
        "spheres": [
            sphere("a", "1", ["0", "0", "0"], ["1", "0", "0"], "1"),
            sphere("b", "1", ["3", "1", "0"], ["0", "0", "0"], "1"),
        ],
        "duration": q("4", "s"),
    });
    let r = s.send(&json!({
        "jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "centl_physics",
                   "arguments": {"action": "evolve_sphere_world_events", "args": args}},
    }));
    let out = &r["result"]["structuredContent"]["result"];
    assert_eq!(out["status"], "completed", "{r}");
    assert_eq!(out["field_radicand"], "3");
    // t² − 6t + 6 = 0: the first root is 3 − √3.
    assert_eq!(
        out["events"][0]["time"]["value"],
        json!({"rational": "3", "sqrt_coefficient": "-1", "radicand": "3"})
    );
    assert_eq!(out["energy"]["exactly_equal"], true);
    assert_eq!(out["momentum"]["exactly_equal"], true);
    s.finish();
}

#[test]
fn a_bouncing_ball_between_walls_over_json_lines() {
    // Radius 1 from z = 3 at rest, g = 10 down, floor z = 0: bounces at √10/5, 3√10/5, √10.
    let mut s = Pipe::start("--serve");
    let args = json!({
        "spheres": [sphere("ball", "1", ["0", "0", "3"], ["0", "0", "0"], "1")],
        "duration": q("4", "s"),
        "gravity": v3(["0", "0", "-10"], "m/s^2"),
        "walls": [{"axis": 2, "position": q("0", "m"), "keeps": "above"}],
    });
    let r = s.send(&request(json!(1), "evolve_sphere_world_events", args));
    let out = ok(&r);
    assert_eq!(out["status"], "completed", "{r}");
    assert_eq!(texts(&out["events"]), ["1/5·√10", "3/5·√10", "√10"]);
    assert_eq!(out["events"][0]["second"], "wall[0]");
    assert_eq!(out["energy"]["exactly_equal"], true);
    // A wall must say which side it keeps.
    let bad = json!({
        "spheres": [sphere("ball", "1", ["0", "0", "3"], ["0", "0", "0"], "1")],
        "duration": q("1", "s"),
        "walls": [{"axis": 2, "position": q("0", "m"), "keeps": "inside"}],
    });
    let r = s.send(&request(json!(2), "evolve_sphere_world_events", bad));
    assert_eq!(r["error"]["code"], "invalid_value", "{r}");
    assert_eq!(r["error"]["path"], "args.walls[0].keeps");
    s.finish();
}
