//! Cancellation and concurrency through the real binary, asserted by the order of replies (no
//! clocks): a long request is cancelled and a later request is answered, on one worker.

use crate::common;

use common::{Pipe, long_args};
use serde_json::{Value, json};

fn send(s: &mut Pipe, v: &Value) {
    s.write_raw(format!("{v}\n").as_bytes());
}

#[test]
fn json_lines_cancel_frees_the_one_worker() {
    let mut s = Pipe::start_with(&["--serve", "--workers", "1"]);
    send(
        &mut s,
        &json!({"v": 1, "id": 1, "action": "simulate", "args": long_args()}),
    );
    send(
        &mut s,
        &json!({"v": 1, "id": 2, "action": "cancel", "args": {"id": 1}}),
    );
    let ack = s.read();
    assert_eq!(ack["id"], 2, "{ack}");
    assert_eq!(ack["result"]["found"], true, "{ack}");
    let cancelled = s.read();
    assert_eq!(cancelled["id"], 1);
    assert_eq!(cancelled["error"]["code"], "cancelled", "{cancelled}");
    // Had the cancel not stopped it, this reply would wait for the whole simulation.
    let later = s.send(&json!({"v": 1, "id": 3, "action": "constant", "args": {"name": "c"}}));
    assert_eq!(
        (later["id"].clone(), later["ok"].clone()),
        (json!(3), json!(true))
    );
    s.finish();
}

#[test]
fn mcp_cancelled_notification_stops_the_call_and_sends_no_reply_for_it() {
    let mut s = Pipe::start_with(&["--mcp", "--workers", "1"]);
    let init = s.send(&json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "cancel-test", "version": "0"},
        },
    }));
    assert_eq!(init["id"], 1, "{init}");
    s.write_raw(b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n");
    let call = |id: i64, arguments: Value| {
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
               "params": {"name": "centl_physics", "arguments": arguments}})
    };
    send(
        &mut s,
        &call(2, json!({"action": "simulate", "args": long_args()})),
    );
    send(
        &mut s,
        &json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                "params": {"requestId": 2, "reason": "test"}}),
    );
    // The one worker is freed and the cancelled call gets no response (MCP asks for none):
    // the next reply is the later call's.
    let later = s.send(&call(
        3,
        json!({"action": "constant", "args": {"name": "c"}}),
    ));
    assert_eq!(later["id"], 3, "{later}");
    assert_eq!(later["result"]["structuredContent"]["ok"], true, "{later}");
    s.finish();
}
