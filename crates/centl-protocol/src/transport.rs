//! The JSON Lines transport: one request line in, one response line out, in order.
//!
//! Lines are read in chunks with a cap, so an oversized line is never held whole in memory:
//! past the cap the rest of the line is skipped and answered with `line_too_long`. No input
//! ends the loop except end of input or a failing output stream.

use crate::{Limits, ProtocolError, RawId, envelope};
use std::io::{self, BufRead, BufReader, Read, Write};

/// Serves requests from `input` until it ends, writing one response line per request line.
///
/// Output is flushed whenever no further input is already buffered, so an interactive client
/// gets each answer at once while a piped batch is written in large blocks.
pub fn serve<R: Read, W: Write>(input: R, mut output: W, limits: &Limits) -> io::Result<()> {
    let mut reader = BufReader::with_capacity(64 * 1024, input);
    let mut line = Vec::new();
    while let Some(overflowed) = read_capped_line(&mut reader, &mut line, limits.max_line_bytes)? {
        let response = if overflowed {
            envelope::response_line(
                &RawId::null(),
                &Err(ProtocolError::LineTooLong {
                    limit: limits.max_line_bytes,
                }),
            )
        } else {
            envelope::handle_line(&line, limits)
        };
        output.write_all(response.as_bytes())?;
        output.write_all(b"\n")?;
        if reader.buffer().is_empty() {
            output.flush()?;
        }
    }
    output.flush()
}

/// Reads one line (without `\n` or a trailing `\r`) into `line`, keeping at most `cap` bytes.
/// Returns `None` at end of input, else whether the line was longer than `cap`.
fn read_capped_line<R: BufRead>(
    reader: &mut R,
    line: &mut Vec<u8>,
    cap: usize,
) -> io::Result<Option<bool>> {
    line.clear();
    let mut overflowed = false;
    let mut seen_any = false;
    loop {
        let chunk = match reader.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            if !seen_any {
                return Ok(None);
            }
            break;
        }
        seen_any = true;
        let (part, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], Some(i + 1)),
            None => (chunk, None),
        };
        if !overflowed {
            // One byte of slack for a `\r` that is stripped below.
            if line.len() + part.len() > cap + 1 {
                overflowed = true;
                line.clear();
            } else {
                line.extend_from_slice(part);
            }
        }
        let used = done.unwrap_or(chunk.len());
        reader.consume(used);
        if done.is_some() {
            break;
        }
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    if !overflowed && line.len() > cap {
        overflowed = true;
    }
    Ok(Some(overflowed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn run(input: &[u8], limits: &Limits) -> Vec<Value> {
        let mut out = Vec::new();
        serve(input, &mut out, limits).unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    #[test]
    fn one_answer_per_line_in_order_and_bad_lines_do_not_stop_it() {
        let input = b"{\"v\":1,\"id\":1,\"action\":\"capabilities\"}\r\n\nnot json\n{\"v\":1,\"id\":2,\"action\":\"constant\",\"args\":{\"name\":\"c\"}}";
        let r = run(input, &Limits::default());
        assert_eq!(r.len(), 4);
        assert_eq!(r[0]["id"], 1);
        assert_eq!(r[0]["ok"], true);
        assert_eq!(r[1]["error"]["code"], "empty_line");
        assert_eq!(r[2]["error"]["code"], "malformed_json");
        assert_eq!(r[3]["id"], 2);
        assert_eq!(r[3]["ok"], true);
    }

    #[test]
    fn oversized_line_is_skipped_without_holding_it() {
        let limits = Limits {
            max_line_bytes: 100,
            ..Limits::default()
        };
        let mut input = vec![b'x'; 1_000_000];
        input.push(b'\n');
        input.extend_from_slice(
            b"{\"v\":1,\"id\":9,\"action\":\"constant\",\"args\":{\"name\":\"g0\"}}\n",
        );
        let r = run(&input, &limits);
        assert_eq!(r.len(), 2);
        assert_eq!(r[0]["error"]["code"], "line_too_long");
        assert_eq!(r[1]["id"], 9);
        assert_eq!(r[1]["ok"], true);
    }

    fn gravity_world(particles: usize, steps: u64, dt: &str) -> Vec<u8> {
        let p: Vec<String> = (0..particles)
            .map(|i| {
                format!(
                    r#"{{"id":"p{i}","mass":{{"value":"1","unit":"kg"}},"position":{{"value":["0","0","0"],"unit":"m"}},"velocity":{{"value":["0","0","0"],"unit":"m/s"}}}}"#
                )
            })
            .collect();
        format!(
            r#"{{"v":1,"id":1,"action":"simulate","args":{{"world":[{}],"forces":[{{"kind":"gravity","acceleration":{{"value":["0","0","-1"],"unit":"m/s^2"}}}}],"dt":{{"value":"{dt}","unit":"s"}},"steps":{steps}}}}}"#,
            p.join(",")
        )
        .into_bytes()
    }

    #[test]
    fn work_budget_is_enforced_up_front_at_its_edge_and_during_the_run() {
        // 2 particles × (1 force + 1) × 10 steps × 64 bits.
        let limits = Limits {
            max_work_bit_steps: 2 * 2 * 10 * 64,
            ..Limits::default()
        };
        // Exactly at the budget's least cost with small states: runs to the end.
        let r = run(&gravity_world(2, 10, "1/3"), &limits);
        assert_eq!(r[0]["ok"], true, "{r:?}");
        // The same size with a 70-bit time step: accepted up front, then refused part way,
        // since every step is charged its states' bits (over 64 here).
        let r = run(&gravity_world(2, 10, "1/1180591620717411303424"), &limits);
        let e = &r[0]["error"];
        assert_eq!(e["code"], "work_limit_exceeded", "{r:?}");
        assert!((1..10).contains(&e["step"].as_u64().unwrap()), "{e}");
        assert!(e["work"].as_u64().unwrap() > 2560);
        // One step more: refused before any work.
        let r = run(&gravity_world(2, 11, "1/3"), &limits);
        assert_eq!(r[0]["error"]["code"], "work_limit_exceeded");
        assert_eq!(r[0]["error"]["step"], 0);
        assert_eq!(r[0]["error"]["work"], 2 * 2 * 11 * 64);
        // A budget that covers the run lets it finish.
        let roomy = Limits {
            max_work_bit_steps: 1 << 20,
            ..Limits::default()
        };
        let r = run(&gravity_world(2, 10, "1/1180591620717411303424"), &roomy);
        assert_eq!(r[0]["ok"], true, "{r:?}");
    }

    #[test]
    fn capped_reader_holds_at_most_the_cap() {
        let mut input = &b"abcdefghij\nxy\n"[..];
        let mut line = Vec::new();
        assert_eq!(
            read_capped_line(&mut input, &mut line, 4).unwrap(),
            Some(true)
        );
        assert!(line.len() <= 5);
        assert_eq!(
            read_capped_line(&mut input, &mut line, 4).unwrap(),
            Some(false)
        );
        assert_eq!(line, b"xy");
        assert_eq!(read_capped_line(&mut input, &mut line, 4).unwrap(), None);
    }
}
