//! Strict JSON reading: nesting depth bounded, duplicate member names refused.
//!
//! `serde_json` keeps the last of two equal member names silently; a physics request whose
//! `mass` appears twice is ambiguous, so this reader refuses it instead.

use crate::ProtocolError;
use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::cell::RefCell;
use std::fmt;

/// Parses one JSON text, refusing nesting deeper than `max_depth` and repeated member names.
pub fn parse_strict(text: &str, max_depth: usize) -> Result<Value, ProtocolError> {
    let fault = RefCell::new(None);
    let mut de = serde_json::Deserializer::from_str(text);
    let seed = Strict {
        depth: 0,
        max_depth,
        fault: &fault,
    };
    let parsed = seed.deserialize(&mut de).and_then(|v| de.end().map(|()| v));
    match parsed {
        Ok(v) => Ok(v),
        Err(e) => Err(fault.into_inner().unwrap_or(ProtocolError::MalformedJson {
            detail: e.to_string(),
        })),
    }
}

struct Strict<'a> {
    depth: usize,
    max_depth: usize,
    fault: &'a RefCell<Option<ProtocolError>>,
}

impl Strict<'_> {
    fn deeper(&self) -> Result<Strict<'_>, ProtocolError> {
        if self.depth >= self.max_depth {
            return Err(ProtocolError::NestingTooDeep {
                limit: self.max_depth,
            });
        }
        Ok(Strict {
            depth: self.depth + 1,
            max_depth: self.max_depth,
            fault: self.fault,
        })
    }

    fn fail<E: serde::de::Error>(&self, e: ProtocolError) -> E {
        let message = e.to_string();
        *self.fault.borrow_mut() = Some(e);
        E::custom(message)
    }
}

impl<'de> DeserializeSeed<'de> for Strict<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Strict<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Value, E> {
        // serde_json never yields a non-finite float, so this is a plain number.
        serde_json::Number::from_f64(v)
            .map(Value::Number)
            .ok_or_else(|| E::custom("non-finite number"))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let inner = self.deeper().map_err(|e| self.fail(e))?;
        let mut out = Vec::new();
        while let Some(v) = seq.next_element_seed(inner.reborrow())? {
            out.push(v);
        }
        Ok(Value::Array(out))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let inner = self.deeper().map_err(|e| self.fail(e))?;
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if out.contains_key(&key) {
                return Err(self.fail(ProtocolError::DuplicateKey { key }));
            }
            let v = map.next_value_seed(inner.reborrow())?;
            out.insert(key, v);
        }
        Ok(Value::Object(out))
    }
}

impl Strict<'_> {
    fn reborrow(&self) -> Strict<'_> {
        Strict {
            depth: self.depth,
            max_depth: self.max_depth,
            fault: self.fault,
        }
    }
}

/// The JSON type name of a value, for messages.
pub fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_plain_json_and_keeps_values() {
        let v = parse_strict(r#"{"a":[1,-2,3.5,"x",true,null],"b":{}}"#, 4).unwrap();
        assert_eq!(v, serde_json::json!({"a":[1,-2,3.5,"x",true,null],"b":{}}));
    }

    #[test]
    fn refuses_duplicates_at_any_depth() {
        let e = parse_strict(r#"{"a":{"k":1,"k":2}}"#, 8).unwrap_err();
        assert_eq!(e, ProtocolError::DuplicateKey { key: "k".into() });
    }

    #[test]
    fn depth_is_counted_per_container() {
        assert!(parse_strict("[[[]]]", 3).is_ok());
        assert_eq!(
            parse_strict("[[[[]]]]", 3).unwrap_err(),
            ProtocolError::NestingTooDeep { limit: 3 }
        );
        // Far deeper than serde_json's own guard: still our typed error, no stack overflow.
        let deep = "[".repeat(100_000);
        assert_eq!(
            parse_strict(&deep, 32).unwrap_err(),
            ProtocolError::NestingTooDeep { limit: 32 }
        );
    }

    #[test]
    fn malformed_and_trailing_text() {
        for bad in ["{", "{\"a\":}", "{} {}", "nul", "[1,]"] {
            assert_eq!(
                parse_strict(bad, 8).unwrap_err().code(),
                "malformed_json",
                "{bad}"
            );
        }
    }
}
