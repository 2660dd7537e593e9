//! Runs every example in `docs/protocol.md`: each `json request` block is sent to the real
//! server and the reply must equal the `json response` block after it (or contain the
//! `json response-subset` block).

use crate::common;

use common::Pipe;
use serde_json::Value;

const DOC: &str = include_str!("../../../docs/protocol.md");

/// `(info string, body)` of every fenced block.
fn blocks(md: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut current: Option<(String, String)> = None;
    for line in md.lines() {
        match (&mut current, line.strip_prefix("```")) {
            (None, Some(info)) => current = Some((info.trim().to_string(), String::new())),
            (Some(_), Some(_)) => out.extend(current.take()),
            (Some((_, body)), None) => {
                body.push_str(line);
                body.push('\n');
            }
            (None, None) => {}
        }
    }
    out
}

/// Every member of `want` is in `got` with a matching value (arrays must match in length).
fn contains(got: &Value, want: &Value) -> bool {
    match (got, want) {
        (Value::Object(g), Value::Object(w)) => w
            .iter()
            .all(|(k, wv)| g.get(k).is_some_and(|gv| contains(gv, wv))),
        (Value::Array(g), Value::Array(w)) => {
            g.len() == w.len() && g.iter().zip(w).all(|(a, b)| contains(a, b))
        }
        _ => got == want,
    }
}

#[test]
fn every_documented_example_runs() {
    let blocks = blocks(DOC);
    let mut server = Pipe::start("--serve");
    let mut checked = 0;
    let mut actions = std::collections::BTreeSet::new();
    for pair in blocks.windows(2) {
        let [(info, request), (resp_info, expected)] = pair else {
            continue;
        };
        if info != "json request" {
            continue;
        }
        let request = request.trim();
        assert!(!request.contains('\n'), "a request is one line: {request}");
        let sent: Value = serde_json::from_str(request).unwrap();
        actions.insert(sent["action"].as_str().unwrap().to_string());
        let got = server.send_line(request);
        let want: Value = serde_json::from_str(expected).unwrap();
        match resp_info.as_str() {
            "json response" => assert_eq!(got, want, "for {request}"),
            "json response-subset" => assert!(contains(&got, &want), "for {request}:\n{got}"),
            other => panic!("request not followed by a response block but `{other}`"),
        }
        checked += 1;
    }
    server.finish();
    assert!(checked >= 11, "only {checked} examples");
    // Every action of the table has an example.
    let mut caps = Pipe::start("--serve");
    let reply = caps.send_line(r#"{"v":1,"id":0,"action":"capabilities"}"#);
    caps.finish();
    for a in reply["result"]["actions"].as_array().unwrap() {
        let name = a["name"].as_str().unwrap();
        assert!(
            actions.contains(name),
            "docs/protocol.md has no example of `{name}`"
        );
    }
}
