//! Issue 27: requests inside every documented limit that crashed or stalled the server and the
//! MCP tool, each sent to the real binary.
//!
//! Root causes, one per test: the unit parser bounded each power and each nesting level but
//! not the size of the factor they multiply up to; `simulate` checked a trajectory's sample
//! count but not its bytes; the work budget charged particles × steps but not forces; the pair
//! actions checked neither their inputs' bits nor their reply; the id was salvaged by a second,
//! recursive parse that failed past serde_json's depth of 128 and held integers in 64 bits;
//! `elastic_collision_3d_at_contact` skipped the distinct-ids check of the other pair actions;
//! and the MCP transport dropped every line it could not decode without a reply.

use crate::common;

use common::{Pipe, code, ok, particle, q, request, sphere, v3};
use serde_json::{Value, json};

/// The reply to one tools/call of the MCP server, after the handshake.
fn mcp() -> Pipe {
    let mut s = Pipe::start("--mcp");
    let init = s.send(&json!({
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "issue-27", "version": "0"}},
    }));
    assert!(init["result"].is_object(), "{init}");
    s.write_raw(b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n");
    s
}

fn tool_call(s: &mut Pipe, id: i64, action: &str, args: Value) -> Value {
    let reply = s.send(&json!({
        "jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": "centl_physics", "arguments": {"action": action, "args": args}},
    }));
    assert_eq!(reply["id"], json!(id), "{reply}");
    reply["result"].clone()
}

const TOWER: &str = "(((Qm^64)^64)^64)^64";

#[test]
fn unit_power_tower_is_refused_before_computing_its_factor() {
    let mut s = Pipe::start("--serve");
    let r = s.send(&request(
        json!(1),
        "convert",
        json!({"value": "1", "from": TOWER, "to": "m"}),
    ));
    assert_eq!(code(&r), "unit_factor_too_large");
    assert_eq!(r["error"]["path"], json!("args.from"));
    assert_eq!(r["error"]["limit"], json!(8192));
    // The same tower as a particle's position unit.
    let mut p = particle("a", "1", ["0", "0", "0"], ["0", "0", "0"]);
    p["position"] = v3(["1", "0", "0"], TOWER);
    let r = s.send(&request(
        json!(2),
        "simulate",
        json!({"particle": p, "dt": q("1", "s"), "steps": 1}),
    ));
    assert_eq!(code(&r), "unit_factor_too_large");
    assert_eq!(r["error"]["path"], json!("args.particle.position.unit"));
    s.finish();

    let mut m = mcp();
    let r = tool_call(
        &mut m,
        1,
        "convert",
        json!({"value": "1", "from": TOWER, "to": "m"}),
    );
    assert_eq!(r["isError"], json!(true), "{r}");
    assert_eq!(
        r["structuredContent"]["error"]["code"],
        json!("unit_factor_too_large")
    );
    m.finish();
}

fn gravity_world(particles: usize, steps: u64, stride: u64, x: &str) -> Value {
    let world: Vec<Value> = (0..particles)
        .map(|i| particle(&format!("p{i}"), "1", [x, "0", "0"], ["0", "0", "0"]))
        .collect();
    json!({
        "world": world,
        "forces": [{"kind": "gravity", "acceleration": v3(["0", "0", "-10"], "m/s^2")}],
        "dt": q("1", "s"),
        "steps": steps,
        "stride": stride,
    })
}

#[test]
fn large_trajectory_is_refused_up_front_by_its_least_size() {
    let mut s = Pipe::start("--serve");
    // The issue's request: 256 particles, 9,999 steps, every step recorded.
    let args = gravity_world(256, 9_999, 1, "0");
    let line = request(json!(1), "simulate", args).to_string();
    assert!(line.len() < 64 * 1024, "{}", line.len());
    let r = s.send_line(&line);
    assert_eq!(code(&r), "reply_too_large", "{r}");
    assert_eq!(r["error"]["step"], json!(0));
    assert_eq!(r["error"]["bytes"], json!(10_000u64 * 256 * 137));
    assert_eq!(r["error"]["limit"], json!(8u64 << 20));
    // 64 particles answered 98 MB at 2.6 GB of memory before; refused up front now.
    let r = s.send(&request(
        json!(2),
        "simulate",
        gravity_world(64, 9_999, 1, "0"),
    ));
    assert_eq!(code(&r), "reply_too_large");
    s.finish();
}

#[test]
fn trajectory_that_grows_past_the_reply_limit_stops_where_it_does() {
    let mut s = Pipe::start("--serve");
    // Least size 10,000 × 2 × 137 bytes, but 990-digit positions make each sample ~4 kB.
    let big = "7".repeat(990);
    let r = s.send(&request(
        json!(1),
        "simulate",
        gravity_world(2, 9_999, 1, &big),
    ));
    assert_eq!(code(&r), "reply_too_large", "{r}");
    let step = r["error"]["step"].as_u64().unwrap();
    assert!((1..9_999).contains(&step), "{r}");
    // With a stride that records 1 sample in 100 it fits.
    let r = s.send(&request(
        json!(2),
        "simulate",
        gravity_world(2, 9_999, 100, &big),
    ));
    assert_eq!(ok(&r)["trajectory"].as_array().unwrap().len(), 100);
    s.finish();
}

#[test]
fn work_budget_counts_forces() {
    let mut s = Pipe::start("--serve");
    let force = json!({"kind": "constant", "force": v3(["0", "0", "1"], "N")});
    let args = json!({
        "particle": particle("a", "1", ["0", "0", "0"], ["0", "0", "0"]),
        "forces": vec![force; 10_000],
        "dt": q("1", "s"),
        "steps": 1_000_000,
    });
    let line = request(json!(1), "simulate", args).to_string();
    assert!(
        line.len() < 1 << 20,
        "inside the line limit: {}",
        line.len()
    );
    let r = s.send_line(&line);
    assert_eq!(code(&r), "work_limit_exceeded", "{r}");
    assert_eq!(r["error"]["step"], json!(0));
    assert_eq!(r["error"]["work"], json!(10_001u64 * 1_000_000 * 64));
    s.finish();
}

#[test]
fn pair_actions_bound_their_inputs_and_replies() {
    let mut s = Pipe::start("--serve");
    let tower = "((qm^64)^64)^4/((m^64)^64)^4*m";
    let spheres: Vec<Value> = (0..3)
        .map(|i| {
            let mut p = sphere(&format!("s{i}"), "1", ["0", "0", "0"], ["0", "0", "0"], "1");
            p["position"] = v3([&i.to_string(), "0", "0"], tower);
            p
        })
        .collect();
    let r = s.send(&request(
        json!(1),
        "analyze_sphere_contacts",
        json!({"spheres": spheres}),
    ));
    assert_eq!(code(&r), "unit_factor_too_large", "{r}");
    // 91 spheres (4,095 pairs) of 1,000-digit coordinates: every pair listed could need far
    // more than the reply limit, so the request is refused before any pair is looked at.
    let big = format!("1{}", "3".repeat(999));
    let spheres: Vec<Value> = (0..91)
        .map(|i| {
            sphere(
                &format!("s{i}"),
                "1",
                [&big, "0", "0"],
                ["0", "0", "0"],
                &big,
            )
        })
        .collect();
    for action in [
        "analyze_sphere_contacts",
        "resolve_isolated_elastic_sphere_contacts",
    ] {
        let r = s.send(&request(json!(2), action, json!({"spheres": spheres})));
        assert_eq!(code(&r), "reply_too_large", "{action}: {r}");
        assert_eq!(r["error"]["step"], json!(0));
    }
    s.finish();
}

#[test]
fn elastic_collision_3d_refuses_one_particle_twice() {
    let mut s = Pipe::start("--serve");
    let a = particle("a", "1", ["0", "0", "0"], ["1", "0", "0"]);
    let b = particle("a", "1", ["1", "0", "0"], ["0", "0", "0"]);
    let r = s.send(&request(
        json!(1),
        "elastic_collision_3d_at_contact",
        json!({"first": a, "second": b}),
    ));
    assert_eq!(code(&r), "same_particle", "{r}");
    assert_eq!(r["error"]["path"], json!("args.second.id"));
    s.finish();
}

#[test]
fn id_is_echoed_past_serde_json_depth_and_beyond_u64() {
    let mut s = Pipe::start("--serve");
    let deep = format!(
        r#"{{"v":1,"id":"deep","action":"capabilities","args":{{"a":{}{}}}}}"#,
        "[".repeat(200),
        "]".repeat(200)
    );
    let r = s.send_line(&deep);
    assert_eq!(code(&r), "nesting_too_deep");
    assert_eq!(r["id"], json!("deep"));
    // Read the raw line: a JSON reader would round the id again.
    let big = "340282366920938463463374607431768211457";
    s.write_raw(
        format!("{{\"v\":1,\"id\":{big},\"action\":\"constant\",\"args\":{{\"name\":\"c\"}}}}\n")
            .as_bytes(),
    );
    let line = s.read_line();
    assert!(
        line.starts_with(&format!("{{\"v\":1,\"id\":{big},\"ok\":true")),
        "{line}"
    );
    s.finish();
}

/// Every line gets one answer; a line that is not a message gets the JSON-RPC error for it.
#[test]
fn mcp_answers_every_line() {
    let mut m = mcp();
    let parse_error = |r: &Value, data: &str| {
        assert_eq!(r["error"]["code"], json!(-32700), "{r}");
        assert_eq!(r["error"]["data"]["code"], json!(data), "{r}");
        assert_eq!(r["id"], Value::Null);
    };
    parse_error(
        &m.send_line("{\"jsonrpc\":\"2.0\",\"id\":1,"),
        "malformed_json",
    );
    parse_error(&m.send_line(""), "empty_line");
    m.write_raw(b"{\"jsonrpc\":\"2.0\",\"id\":\xff}\n");
    parse_error(&m.read(), "invalid_utf8");
    let mut huge = vec![b' '; 20 << 20];
    huge.push(b'\n');
    m.write_raw(&huge);
    parse_error(&m.read(), "line_too_long");
    // A known method with params that do not fit: -32602, not -32601.
    let r =
        m.send(&json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": 7}}));
    assert_eq!(r["error"]["code"], json!(-32602), "{r}");
    assert_eq!(r["id"], json!(5));
    let r = m.send(&json!({"jsonrpc": "2.0", "id": 6, "method": "no/such"}));
    assert_eq!(r["error"]["code"], json!(-32601), "{r}");
    // And the server is still there.
    let r = tool_call(&mut m, 7, "constant", json!({"name": "c"}));
    assert_eq!(r["isError"], json!(false), "{r}");
    m.finish();
}
