//! The request `id`, found by a flat scan of the line and echoed as the client wrote it.
//!
//! The scan walks the members of the top-level object and steps over each value with a
//! counter instead of recursion, so the id is found however deep the rest of the line nests
//! and even when a later member is malformed. The id is echoed as its own compact JSON text:
//! an integer beyond 64 bits comes back as that integer, never as a float.

use crate::json::parse_strict;
use serde_json::Value;
use std::fmt;

/// The id to echo, as compact JSON text (`null` when there is none to echo).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawId(String);

impl RawId {
    /// No id: echoed as `null`.
    pub fn null() -> Self {
        RawId("null".to_string())
    }

    /// The id of an already parsed value.
    pub fn from_value(v: &Value) -> Self {
        RawId(v.to_string())
    }

    /// The compact JSON text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The id as a JSON value (an integer beyond 64 bits becomes the nearest float here; the
    /// text form [`RawId::as_str`] is the exact one).
    pub fn to_value(&self) -> Value {
        serde_json::from_str(&self.0).unwrap_or(Value::Null)
    }
}

impl fmt::Display for RawId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Finds the top-level `id` member of `text`. The id is `null` when the text is not an
/// object, has no id, names `id` twice before the scan stops (which one is meant is
/// ambiguous), or when the id itself is not JSON or nests deeper than `max_depth`.
pub fn find_id(text: &str, max_depth: usize) -> RawId {
    let Some(raw) = scan_member(text.as_bytes(), b"id") else {
        return RawId::null();
    };
    match parse_strict(raw, max_depth) {
        Ok(_) => RawId(compact(raw)),
        Err(_) => RawId::null(),
    }
}

/// The raw text of the member `name` of the top-level object, if the scan reaches it once and
/// not twice.
fn scan_member<'a>(text: &'a [u8], name: &[u8]) -> Option<&'a str> {
    let mut s = Scanner { text, pos: 0 };
    s.ws();
    if !s.eat(b'{') {
        return None;
    }
    let mut found: Option<(usize, usize)> = None;
    loop {
        s.ws();
        if s.peek() != Some(b'"') {
            break;
        }
        let key_start = s.pos;
        if !s.string() {
            break;
        }
        let is_name = key_is(&text[key_start..s.pos], name);
        s.ws();
        if !s.eat(b':') {
            break;
        }
        s.ws();
        let start = s.pos;
        if !s.value() {
            // A truncated id value is not an id.
            break;
        }
        if is_name {
            if found.is_some() {
                return None;
            }
            found = Some((start, s.pos));
        }
        s.ws();
        if !s.eat(b',') {
            break;
        }
    }
    let (a, b) = found?;
    std::str::from_utf8(&text[a..b]).ok()
}

/// Whether a quoted key (with its quotes) decodes to `name`.
fn key_is(quoted: &[u8], name: &[u8]) -> bool {
    if quoted.len() == name.len() + 2 && &quoted[1..quoted.len() - 1] == name {
        return true;
    }
    // An escaped spelling (`"\u0069d"`) is rare; decode it properly.
    quoted.contains(&b'\\')
        && std::str::from_utf8(quoted)
            .ok()
            .and_then(|q| serde_json::from_str::<String>(q).ok())
            .is_some_and(|k| k.as_bytes() == name)
}

struct Scanner<'a> {
    text: &'a [u8],
    pos: usize,
}

impl Scanner<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.get(self.pos).copied()
    }

    fn eat(&mut self, b: u8) -> bool {
        let hit = self.peek() == Some(b);
        if hit {
            self.pos += 1;
        }
        hit
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    /// Steps over a string starting at its opening quote; false when it is unterminated.
    fn string(&mut self) -> bool {
        self.pos += 1;
        while let Some(b) = self.peek() {
            self.pos += 1;
            match b {
                b'"' => return true,
                b'\\' => self.pos += 1,
                _ => {}
            }
        }
        false
    }

    /// Steps over one value; false when the text ends first. Containers are stepped over
    /// by counting brackets, so any depth costs no stack. Only the id's own text is checked
    /// as JSON later; the other members need only be skipped.
    fn value(&mut self) -> bool {
        match self.peek() {
            None => false,
            Some(b'"') => self.string(),
            Some(b'{' | b'[') => self.container(),
            Some(_) => {
                let start = self.pos;
                while let Some(b) = self.peek() {
                    if matches!(
                        b,
                        b',' | b'}'
                            | b']'
                            | b':'
                            | b'"'
                            | b'{'
                            | b'['
                            | b' '
                            | b'\t'
                            | b'\n'
                            | b'\r'
                    ) {
                        break;
                    }
                    self.pos += 1;
                }
                self.pos > start
            }
        }
    }

    fn container(&mut self) -> bool {
        let mut depth = 0usize;
        while let Some(b) = self.peek() {
            match b {
                b'"' => {
                    if !self.string() {
                        return false;
                    }
                    continue;
                }
                b'{' | b'[' => depth += 1,
                b'}' | b']' => {
                    depth -= 1;
                    if depth == 0 {
                        self.pos += 1;
                        return true;
                    }
                }
                _ => {}
            }
            self.pos += 1;
        }
        false
    }
}

/// The text without white space outside strings.
fn compact(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut in_string = false;
    let mut escaped = false;
    for c in raw.chars() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
        } else if c == '"' {
            in_string = true;
            out.push(c);
        } else if !matches!(c, ' ' | '\t' | '\n' | '\r') {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(text: &str) -> String {
        find_id(text, 32).as_str().to_string()
    }

    #[test]
    fn finds_the_id_as_written() {
        assert_eq!(id(r#"{"v":1,"id":7}"#), "7");
        assert_eq!(
            id(r#" { "id" : { "k" : [ 1 , "a b" ] } , "v":1}"#),
            r#"{"k":[1,"a b"]}"#
        );
        assert_eq!(id(r#"{"v":1,"id":"x\"y"}"#), r#""x\"y""#);
        assert_eq!(id(r#"{"\u0069d":3}"#), "3");
        assert_eq!(id(r#"{"id":-1.5e3}"#), "-1.5e3");
        assert_eq!(id(r#"{"id":true,"v":1}"#), "true");
        assert_eq!(id(r#"{"idx":1}"#), "null");
        assert_eq!(id(r#"[{"id":1}]"#), "null");
        assert_eq!(id(""), "null");
    }

    #[test]
    fn integers_beyond_64_bits_stay_integers() {
        let big = "123456789012345678901234567890";
        assert_eq!(id(&format!(r#"{{"id":{big},"v":1}}"#)), big);
    }

    #[test]
    fn deep_members_after_the_id_do_not_hide_it() {
        let deep = format!(
            r#"{{"v":1,"id":"first","args":{}{}}}"#,
            "[".repeat(100_000),
            "]".repeat(100_000)
        );
        assert_eq!(id(&deep), r#""first""#);
        let deep_before = format!(
            r#"{{"args":{}{},"id":2}}"#,
            "[".repeat(500),
            "]".repeat(500)
        );
        assert_eq!(id(&deep_before), "2");
    }

    #[test]
    fn malformed_after_the_id_still_echoes_it_but_ambiguity_does_not() {
        assert_eq!(id(r#"{"id":5,"v":1,"action":}"#), "5");
        assert_eq!(id(r#"{"id":5 "v":1}"#), "5");
        assert_eq!(id(r#"{"id":5,"id":6}"#), "null");
        assert_eq!(id(r#"{"id":[1,}"#), "null");
        assert_eq!(id(r#"{"id":"open"#), "null");
        assert_eq!(id(r#"{"id":[1}"#), "null");
    }

    #[test]
    fn an_id_deeper_than_the_limit_is_not_echoed() {
        let deep = format!(r#"{{"id":{}{}}}"#, "[".repeat(40), "]".repeat(40));
        assert_eq!(id(&deep), "null");
    }
}
