//! The version-1 envelope: reading one request line, writing one response line.
//!
//! `{"v":1,"id":..,"action":"..","args":{..}}` in; `{"v":1,"id":..,"ok":true,"result":{..}}` or
//! `{"v":1,"id":..,"ok":false,"error":{"code":"..","message":".."}}` out. The `id` is echoed
//! whenever the request could be read far enough to find it, and is `null` otherwise.

use crate::id::{RawId, find_id};
use crate::json::{parse_strict, type_name};
use crate::{CancelFlag, Limits, ProtocolError, dispatch_cancellable};
use serde_json::Value;

/// The protocol version this server speaks.
pub const VERSION: u64 = 1;

/// The response to one outcome, as one line of JSON (no trailing newline). The id is written
/// as the client sent it ([`RawId`]).
pub fn response_line(id: &RawId, outcome: &Result<Value, ProtocolError>) -> String {
    // Serializing a `Value` tree cannot fail (all map keys are strings).
    let (ok, body) = match outcome {
        Ok(result) => (true, serde_json::to_string(result)),
        Err(e) => (false, serde_json::to_string(&e.to_json())),
    };
    let body = body.unwrap_or_else(|_| "null".to_string());
    let member = if ok { "result" } else { "error" };
    format!(r#"{{"v":{VERSION},"id":{id},"ok":{ok},"{member}":{body}}}"#)
}

/// Answers one request line (without its newline).
pub fn handle_line(line: &[u8], limits: &Limits) -> String {
    let (id, outcome) = evaluate(line, limits);
    response_line(&id, &outcome)
}

/// Reads and runs one request, returning the id to echo and the outcome.
///
/// The id is found by a flat scan before the line is parsed ([`find_id`]), so it is echoed
/// whenever the line could be read as far as the id, even when the rest is refused.
pub fn evaluate(line: &[u8], limits: &Limits) -> (RawId, Result<Value, ProtocolError>) {
    evaluate_cancellable(line, limits, &CancelFlag::new())
}

/// [`evaluate`] under a [`CancelFlag`] the transport may set while the request runs.
pub fn evaluate_cancellable(
    line: &[u8],
    limits: &Limits,
    cancel: &CancelFlag,
) -> (RawId, Result<Value, ProtocolError>) {
    if line.len() > limits.max_line_bytes {
        let limit = limits.max_line_bytes;
        return (RawId::null(), Err(ProtocolError::LineTooLong { limit }));
    }
    let Ok(text) = std::str::from_utf8(line) else {
        return (RawId::null(), Err(ProtocolError::InvalidUtf8));
    };
    if text.trim().is_empty() {
        return (RawId::null(), Err(ProtocolError::EmptyLine));
    }
    let id = find_id(text, limits.max_json_depth);
    let request = match parse_strict(text, limits.max_json_depth) {
        Ok(v) => v,
        Err(e) => return (id, Err(e)),
    };
    let Value::Object(map) = request else {
        let found = type_name(&request);
        return (RawId::null(), Err(ProtocolError::NotAnObject { found }));
    };
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
        dispatch_cancellable(action, map.get("args"), limits, cancel)
    })();
    (id, outcome)
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

    /// Issue 27, item 5: a line nested deeper than serde_json's own limit (128) lost its id,
    /// because the id was salvaged by a second, recursive parse that failed at that depth.
    /// The id is now found by a flat scan before parsing.
    #[test]
    fn id_echoed_when_line_nests_deeper_than_128_after_it() {
        for depth in [33, 129, 100_000] {
            let line = format!(
                r#"{{"v":1,"id":"keep","action":"capabilities","args":{{"a":{}{}}}}}"#,
                "[".repeat(depth),
                "]".repeat(depth)
            );
            assert_eq!(
                code(&line),
                (json!("keep"), "nesting_too_deep".into()),
                "{depth}"
            );
        }
    }

    /// Issue 27, item 5: integer ids beyond u64 came back as floats (`1e20` for
    /// `100000000000000000000`), since the id went through a JSON value tree that holds
    /// integers in 64 bits. It is now echoed as its own text.
    #[test]
    fn integer_ids_beyond_u64_are_echoed_exactly() {
        for big in [
            "18446744073709551616",
            "-9223372036854775809",
            "1234567890123456789012345678901234567890",
        ] {
            let line = format!(r#"{{"v":1,"id":{big},"action":"constant","args":{{"name":"c"}}}}"#);
            let out = handle_line(line.as_bytes(), &Limits::default());
            assert!(
                out.starts_with(&format!(r#"{{"v":1,"id":{big},"ok":true"#)),
                "{out}"
            );
        }
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
