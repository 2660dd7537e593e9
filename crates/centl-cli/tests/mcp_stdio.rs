//! The MCP server spoken to as raw JSON-RPC over pipes: initialize, tools/list, tools/call.

use crate::common;

use common::{Pipe, q, sphere};
use serde_json::{Value, json};

fn rpc(s: &mut Pipe, id: i64, method: &str, params: Value) -> Value {
    let reply = s.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
    assert_eq!(reply["id"], json!(id), "{reply}");
    reply
}

fn start() -> Pipe {
    let mut s = Pipe::start("--mcp");
    let init = rpc(
        &mut s,
        1,
        "initialize",
        json!({
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "raw-test", "version": "0"},
        }),
    );
    assert!(
        init["result"]["capabilities"]["tools"].is_object(),
        "{init}"
    );
    assert_eq!(init["result"]["serverInfo"]["name"], json!("centl-physics"));
    s.write_raw(b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n");
    s
}

fn call(s: &mut Pipe, id: i64, arguments: Value) -> Value {
    let reply = rpc(
        s,
        id,
        "tools/call",
        json!({"name": "centl_physics", "arguments": arguments}),
    );
    assert!(
        reply.get("error").is_none(),
        "a protocol failure must be a tool result: {reply}"
    );
    reply["result"].clone()
}

fn pair(b_radius: &str, duration: &str) -> Value {
    json!({
        "first": sphere("a", "1", ["0", "0", "0"], ["1", "0", "0"], "1"),
        "second": sphere("b", "1", ["3", "1", "0"], ["0", "0", "0"], b_radius),
        "duration": q(duration, "s"),
    })
}

#[test]
fn one_read_only_idempotent_tool() {
    let mut s = start();
    let list = rpc(&mut s, 2, "tools/list", json!({}));
    let tools = list["result"]["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 1);
    let t = &tools[0];
    assert_eq!(t["name"], json!("centl_physics"));
    assert_eq!(t["annotations"]["readOnlyHint"], json!(true));
    assert_eq!(t["annotations"]["idempotentHint"], json!(true));
    assert_eq!(t["annotations"]["destructiveHint"], json!(false));
    assert_eq!(t["inputSchema"]["additionalProperties"], json!(false));
    assert_eq!(t["inputSchema"]["required"], json!(["action"]));
    let actions = t["inputSchema"]["properties"]["action"]["enum"]
        .as_array()
        .unwrap();
    assert!(actions.contains(&json!("certify_linear_sphere_contact")));
    s.finish();
}

#[test]
fn results_mirror_the_protocol_and_errors_are_tool_errors() {
    let mut s = start();
    // Rational certificate: completed result with structured content.
    let r = call(
        &mut s,
        3,
        json!({"action": "certify_linear_sphere_contact", "args": pair("1/2", "5")}),
    );
    assert_eq!(r["isError"], json!(false));
    let sc = &r["structuredContent"];
    assert_eq!(sc["v"], json!(1));
    assert_eq!(sc["ok"], json!(true));
    assert_eq!(sc["result"]["status"], json!("crossing_contact"));
    assert_eq!(
        sc["result"]["first_contact"]["kind"],
        json!("quadratic_irrational")
    );
    let text: Value = serde_json::from_str(r["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(&text, sc);

    // A deferred verdict is a normal successful result.
    let overlap = json!({"spheres": [
        sphere("a", "1", ["0", "0", "0"], ["1", "0", "0"], "1"),
        sphere("b", "1", ["1", "0", "0"], ["0", "0", "0"], "1"),
    ]});
    let r = call(
        &mut s,
        4,
        json!({"action": "resolve_isolated_elastic_sphere_contacts", "args": overlap}),
    );
    assert_eq!(r["isError"], json!(false));
    assert_eq!(
        r["structuredContent"]["result"]["status"],
        json!("deferred")
    );
    assert_eq!(
        r["structuredContent"]["result"]["reason"],
        json!("overlap_detected")
    );
    let r = call(
        &mut s,
        5,
        json!({"action": "evolve_linear_sphere_pair_through_contact", "args": pair("1/2", "5")}),
    );
    assert_eq!(r["isError"], json!(false));
    // The irrational contact t* = 3 − √5/2 completes exactly (values checked over JSON Lines).
    assert_eq!(
        r["structuredContent"]["result"]["event"]["time"]["text"],
        json!("3 - 1/2·√5")
    );
    assert_eq!(
        r["structuredContent"]["result"]["conservation"]["kinetic_energy"]["exactly_equal"],
        json!(true)
    );

    // Bad arguments: tool errors with the protocol's code.
    let mut bad = pair("1/2", "5");
    bad["first"]["spin"] = json!("1");
    for (id, args, want) in [
        (
            6,
            json!({"action": "certify_linear_sphere_contact", "args": bad}),
            "unknown_argument",
        ),
        (
            7,
            json!({"action": "certify_linear_sphere_contact", "args": pair("0", "5")}),
            "non_positive_radius",
        ),
        (
            8,
            json!({"action": "convert", "args": {"value": "1", "from": "m", "to": "s"}}),
            "dimension_mismatch",
        ),
        (9, json!({"action": "warp"}), "unknown_action"),
        (
            10,
            json!({"action": "capabilities", "verbose": true}),
            "unknown_argument",
        ),
        (11, json!({"args": {}}), "missing_action"),
    ] {
        let r = call(&mut s, id, args);
        assert_eq!(r["isError"], json!(true), "{r}");
        assert_eq!(r["structuredContent"]["ok"], json!(false));
        assert_eq!(r["structuredContent"]["error"]["code"], json!(want), "{r}");
    }
    // Still serving after errors.
    let r = call(
        &mut s,
        12,
        json!({"action": "constant", "args": {"name": "c"}}),
    );
    assert_eq!(
        r["structuredContent"]["result"]["quantity"],
        q("299792458", "m/s")
    );
    // An unknown tool is a JSON-RPC error, not a tool result.
    let reply = rpc(
        &mut s,
        13,
        "tools/call",
        json!({"name": "other", "arguments": {}}),
    );
    assert!(reply["error"].is_object(), "{reply}");
    s.finish();
}
