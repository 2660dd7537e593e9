//! The version-1 envelope: reading one request line, writing one response line.
//!
//! `{"v":1,"id":..,"action":"..","args":{..}}` in; `{"v":1,"id":..,"ok":true,"result":{..}}` or
//! `{"v":1,"id":..,"ok":false,"error":{"code":"..","message":".."}}` out. The `id` is echoed
//! whenever the request could be read far enough to find it, and is `null` otherwise.

use crate::json::{parse_strict, type_name};
use crate::{Limits, ProtocolError, dispatch};
use serde::Serialize;
use serde_json::Value;

/// The protocol version this server speaks.
pub const VERSION: u64 = 1;

#[derive(Serialize)]
struct Success<'a> {
    v: u64,
    id: &'a Value,
    ok: bool,
    result: &'a Value,
}

#[derive(Serialize)]
struct Failure<'a> {
    v: u64,
    id: &'a Value,
    ok: bool,
    error: Value,
}

/// The response to one outcome, as one line of JSON (no trailing newline).
pub fn response_line(id: &Value, outcome: &Result<Value, ProtocolError>) -> String {
    let text = match outcome {
        Ok(result) => serde_json::to_string(&Success {
            v: VERSION,
            id,
            ok: true,
            result,
        }),
        Err(e) => serde_json::to_string(&Failure {
            v: VERSION,
            id,
            ok: false,
            error: e.to_json(),
        }),
    };
    // Serializing a `Value` tree cannot fail (all map keys are strings); keep a valid line anyway.
    text.unwrap_or_else(|e| {
        format!(
            r#"{{"v":1,"id":null,"ok":false,"error":{{"code":"malformed_json","message":{}}}}}"#,
            Value::String(e.to_string())
        )
    })
}

/// Answers one request line (without its newline).
pub fn handle_line(line: &[u8], limits: &Limits) -> String {
    let (id, outcome) = evaluate(line, limits);
    response_line(&id, &outcome)
}

/// Reads and runs one request, returning the id to echo and the outcome.
pub fn evaluate(line: &[u8], limits: &Limits) -> (Value, Result<Value, ProtocolError>) {
    if line.len() > limits.max_line_bytes {
        let limit = limits.max_line_bytes;
        return (Value::Null, Err(ProtocolError::LineTooLong { limit }));
    }
    let Ok(text) = std::str::from_utf8(line) else {
        return (Value::Null, Err(ProtocolError::InvalidUtf8));
    };
    if text.trim().is_empty() {
        return (Value::Null, Err(ProtocolError::EmptyLine));
    }
    let request = match parse_strict(text, limits.max_json_depth) {
        Ok(v) => v,
        Err(e) => return (salvage_id(text, &e), Err(e)),
    };
    let Value::Object(map) = request else {
        let found = type_name(&request);
        return (Value::Null, Err(ProtocolError::NotAnObject { found }));
    };
    let id = map.get("id").cloned().unwrap_or(Value::Null);
    let outcome = (|| {
        match map.get("v") {
            None => return Err(ProtocolError::MissingVersion),
            Some(v) if v.as_u64() == Some(VERSION) => {}
            Some(v) => {
                return Err(ProtocolError::UnsupportedVersion {
                    found: v.to_string(),
                });
            }
        }
        if let Some(member) = map
            .keys()
            .find(|k| !matches!(k.as_str(), "v" | "id" | "action" | "args"))
        {
            return Err(ProtocolError::UnknownMember {
                member: member.clone(),
            });
        }
        let action = map
            .get("action")
            .and_then(Value::as_str)
            .ok_or(ProtocolError::MissingAction)?;
        dispatch(action, map.get("args"), limits)
    })();
    (id, outcome)
}

/// After a strict-parse refusal of well-formed JSON (duplicate member, deep nesting), the id
/// may still be readable; echo it unless the id itself is what was ambiguous.
fn salvage_id(text: &str, e: &ProtocolError) -> Value {
    let ambiguous_id = matches!(e, ProtocolError::DuplicateKey { key } if key == "id");
    if ambiguous_id || matches!(e, ProtocolError::MalformedJson { .. }) {
        return Value::Null;
    }
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(m)) => m.get("id").cloned().unwrap_or(Value::Null),
        _ => Value::Null,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn reply(line: &str) -> Value {
        serde_json::from_str(&handle_line(line.as_bytes(), &Limits::default())).unwrap()
    }

    fn code(line: &str) -> (Value, String) {
        let r = reply(line);
        assert_eq!(r["ok"], json!(false), "{r}");
        (
            r["id"].clone(),
            r["error"]["code"].as_str().unwrap().to_string(),
        )
    }

    #[test]
    fn envelope_refusals_keep_the_id_when_readable() {
        assert_eq!(code(""), (Value::Null, "empty_line".into()));
        assert_eq!(code("  \t"), (Value::Null, "empty_line".into()));
        assert_eq!(code("{\"v\":1,"), (Value::Null, "malformed_json".into()));
        assert_eq!(code("[1]"), (Value::Null, "not_an_object".into()));
        assert_eq!(code(r#"{"id":7}"#), (json!(7), "missing_version".into()));
        assert_eq!(
            code(r#"{"v":2,"id":"a","action":"convert"}"#),
            (json!("a"), "unsupported_version".into())
        );
        assert_eq!(
            code(r#"{"v":1,"id":[1]}"#),
            (json!([1]), "missing_action".into())
        );
        assert_eq!(
            code(r#"{"v":1,"id":1,"action":"fly"}"#),
            (json!(1), "unknown_action".into())
        );
        assert_eq!(
            code(r#"{"v":1,"id":1,"action":"capabilities","extra":0}"#),
            (json!(1), "unknown_member".into())
        );
        assert_eq!(
            code(r#"{"v":1,"id":3,"action":"capabilities","args":{"a":1,"a":2}}"#),
            (json!(3), "duplicate_key".into())
        );
        assert_eq!(
            code(r#"{"v":1,"id":3,"id":4,"action":"capabilities"}"#),
            (Value::Null, "duplicate_key".into())
        );
        let deep = format!(
            r#"{{"v":1,"id":5,"args":{}}}"#,
            "[".repeat(40) + &"]".repeat(40)
        );
        assert_eq!(code(&deep), (json!(5), "nesting_too_deep".into()));
        assert_eq!(
            code(r#"{"v":1,"id":1,"action":"capabilities","args":[]}"#),
            (json!(1), "wrong_type".into())
        );
    }

    #[test]
    fn oversized_and_non_utf8_lines() {
        let small = Limits {
            max_line_bytes: 8,
            ..Limits::default()
        };
        let r: Value = serde_json::from_str(&handle_line(b"{\"v\":1,\"id\":1}", &small)).unwrap();
        assert_eq!(r["error"]["code"], json!("line_too_long"));
        let r: Value = serde_json::from_str(&handle_line(b"\xff\xfe", &Limits::default())).unwrap();
        assert_eq!(r["error"]["code"], json!("invalid_utf8"));
    }

    #[test]
    fn success_envelope_shape() {
        let r = reply(
            r#"{"v":1,"id":{"k":[1]},"action":"convert","args":{"value":"100","from":"cm","to":"m"}}"#,
        );
        assert_eq!(r["v"], json!(1));
        assert_eq!(r["id"], json!({"k":[1]}));
        assert_eq!(r["ok"], json!(true));
        assert_eq!(r["result"]["quantity"], json!({"value":"1","unit":"m"}));
    }
}
