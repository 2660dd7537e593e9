//! Every reply held to its bounds before it is written: no exact number beyond the bit limit
//! and no line beyond the reply limit, whatever the action.
//!
//! Actions check what they can up front (a trajectory's least size, a pair list's size from
//! its inputs' bits); this last check runs on every result in [`crate::dispatch`], so a bound
//! stated in `capabilities` holds even for an action that forgot one.

use crate::{Limits, ProtocolError};
use exact::Rational;
use serde_json::Value;
use std::io;

/// Bytes a JSON value takes when serialized compactly.
pub fn json_bytes<T: serde::Serialize + ?Sized>(value: &T) -> u64 {
    let mut counter = ByteCounter(0);
    // Writing to a counter cannot fail, and our values serialize without error.
    let _ = serde_json::to_writer(&mut counter, value);
    counter.0
}

struct ByteCounter(u64);

impl io::Write for ByteCounter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0 += buf.len() as u64;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Refuses a result with an exact number beyond the bit limit (`rational_too_large`, with the
/// member's path) or a reply longer than the reply limit (`reply_too_large`).
pub fn check_reply(result: &Value, limits: &Limits) -> Result<(), ProtocolError> {
    check_numbers(result, limits)?;
    // The envelope around the result adds a few dozen bytes and the id, which the line limit
    // already bounds; the result is what an action controls.
    let bytes = json_bytes(result);
    if bytes > limits.max_reply_bytes as u64 {
        return Err(ProtocolError::ReplyTooLarge {
            bytes,
            step: 0,
            limit: limits.max_reply_bytes,
        });
    }
    Ok(())
}

/// Digits a part may have before its bits need counting exactly: any integer of at most this
/// many decimal digits has fewer bits than the limit (a d-digit number has < 3.33·d bits).
fn safe_digits(max_bits: usize) -> usize {
    max_bits * 3 / 10
}

/// Whether `s` is written like an exact number (`-12`, `9/2`), and its longest part's digits.
fn number_digits(s: &str) -> Option<usize> {
    let body = s.strip_prefix('-').unwrap_or(s);
    let (n, d) = body.split_once('/').unwrap_or((body, ""));
    let all_digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    (all_digits(n) && (d.is_empty() || all_digits(d))).then(|| n.len().max(d.len()))
}

enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

/// Walks the result without recursion, keeping the path of the current member.
fn check_numbers(result: &Value, limits: &Limits) -> Result<(), ProtocolError> {
    let safe = safe_digits(limits.max_rational_bits);
    let mut trail: Vec<Step<'_>> = Vec::new();
    let mut stack: Vec<(&Value, usize, Option<Step<'_>>)> = vec![(result, 0, None)];
    while let Some((v, depth, step)) = stack.pop() {
        trail.truncate(depth.saturating_sub(1));
        if let Some(s) = step {
            trail.push(s);
        }
        match v {
            Value::Array(items) => {
                for (i, c) in items.iter().enumerate().rev() {
                    stack.push((c, depth + 1, Some(Step::Index(i))));
                }
            }
            Value::Object(m) => {
                for (k, c) in m.iter() {
                    stack.push((c, depth + 1, Some(Step::Key(k))));
                }
            }
            Value::String(s) if number_digits(s).is_some_and(|d| d > safe) => {
                let bits = s
                    .parse::<Rational>()
                    .map(|r| r.bits())
                    .unwrap_or(usize::MAX);
                if bits > limits.max_rational_bits {
                    return Err(ProtocolError::RationalTooLarge {
                        bits,
                        step: 0,
                        limit: limits.max_rational_bits,
                        path: Some(render(&trail)),
                    });
                }
            }
            _ => {}
        }
    }
    Ok(())
}

fn render(trail: &[Step<'_>]) -> String {
    let mut out = String::from("result");
    for s in trail {
        match s {
            Step::Key(k) => {
                out.push('.');
                out.push_str(k);
            }
            Step::Index(i) => out.push_str(&format!("[{i}]")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn small() -> Limits {
        Limits {
            max_rational_bits: 64,
            max_reply_bytes: 100,
            ..Limits::default()
        }
    }

    #[test]
    fn counts_bytes_exactly() {
        let v = json!({"a": [1, "x"], "b": null});
        assert_eq!(json_bytes(&v), v.to_string().len() as u64);
    }

    #[test]
    fn rational_bits_at_the_limit_and_one_past() {
        let l = small();
        let at = (1u128 << 64) - 1;
        let past = 1u128 << 64;
        assert!(check_reply(&json!({"q": {"value": format!("-1/{at}")}}), &l).is_ok());
        let e =
            check_reply(&json!({"p": [{"value": ["0", format!("{past}/3")]}]}), &l).unwrap_err();
        assert_eq!(
            e,
            ProtocolError::RationalTooLarge {
                bits: 65,
                step: 0,
                limit: 64,
                path: Some("result.p[0].value[1]".into()),
            }
        );
        // Text that only looks long is not a number.
        assert!(check_reply(&json!({"id": "9".repeat(30) + "x"}), &l).is_ok());
    }

    #[test]
    fn reply_bytes_at_the_limit_and_one_past() {
        let l = small();
        // `{"s":"…"}` is 8 bytes around the text.
        assert!(check_reply(&json!({"s": "x".repeat(92)}), &l).is_ok());
        let e = check_reply(&json!({"s": "x".repeat(93)}), &l).unwrap_err();
        assert_eq!(
            e,
            ProtocolError::ReplyTooLarge {
                bytes: 101,
                step: 0,
                limit: 100,
            }
        );
    }
}
