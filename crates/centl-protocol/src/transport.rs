//! The JSON Lines transport: request lines in, one response line per request out.
//!
//! Lines are read in chunks with a cap, so an oversized line is never held whole in memory:
//! past the cap the rest of the line is skipped and answered with `line_too_long`. No input
//! ends the loop except end of input or a failing output stream.
//!
//! One thread reads; requests run on a pool of workers. A `cancel` request (`{"v":1,"id":..,
//! "action":"cancel","args":{"id":<the id to cancel>}}`) is answered by the reader at once and
//! sets the [`CancelFlag`] of every waiting or running request with that id, which then
//! replies `cancelled`. With one worker, replies come in request order (a `cancel`'s own reply
//! excepted); with more, in the order requests finish, each with its request's id.

use crate::id::find_id;
use crate::json::parse_strict;
use crate::{CancelFlag, Limits, ProtocolError, RawId, envelope};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::sync::{Mutex, MutexGuard, mpsc};

/// Requests read but not yet picked up by a worker, at most; the reader waits beyond that.
const QUEUE: usize = 1024;

/// Serves requests from `input` until it ends, one worker: replies in request order.
pub fn serve<R: Read, W: Write + Send>(input: R, output: W, limits: &Limits) -> io::Result<()> {
    serve_with_workers(input, output, limits, 1)
}

/// One unit of work for a worker.
enum Job {
    /// A reply already known (an unreadable line): written in turn, so order is kept.
    Reply(String),
    /// A request to evaluate under its cancel flag.
    Request {
        line: Vec<u8>,
        key: String,
        ticket: u64,
        cancel: CancelFlag,
    },
}

/// Requests waiting or running, by the compact text of their id.
#[derive(Default)]
struct Running(Mutex<HashMap<String, Vec<(u64, CancelFlag)>>>);

impl Running {
    fn lock(&self) -> MutexGuard<'_, HashMap<String, Vec<(u64, CancelFlag)>>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn insert(&self, key: &str, ticket: u64, cancel: &CancelFlag) {
        self.lock()
            .entry(key.to_string())
            .or_default()
            .push((ticket, cancel.clone()));
    }

    fn remove(&self, key: &str, ticket: u64) {
        let mut map = self.lock();
        if let Some(list) = map.get_mut(key) {
            list.retain(|(t, _)| *t != ticket);
            if list.is_empty() {
                map.remove(key);
            }
        }
    }

    /// Sets the flag of every request with this id; how many there were.
    fn cancel(&self, key: &str) -> usize {
        let map = self.lock();
        let list = map.get(key).map(Vec::as_slice).unwrap_or_default();
        for (_, flag) in list {
            flag.cancel();
        }
        list.len()
    }
}

/// The output, shared by the reader and the workers; the first write error stops serving.
struct Output<W> {
    writer: Mutex<W>,
    error: Mutex<Option<io::Error>>,
}

impl<W: Write> Output<W> {
    fn write(&self, line: &str) {
        let mut w = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        let result = w
            .write_all(line.as_bytes())
            .and_then(|()| w.write_all(b"\n"))
            .and_then(|()| w.flush());
        if let Err(e) = result {
            let mut slot = self.error.lock().unwrap_or_else(|e| e.into_inner());
            slot.get_or_insert(e);
        }
    }

    fn failed(&self) -> bool {
        self.error
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_some()
    }
}

/// Serves requests from `input` until it ends, running up to `workers` (at least one) at once.
pub fn serve_with_workers<R: Read, W: Write + Send>(
    input: R,
    output: W,
    limits: &Limits,
    workers: usize,
) -> io::Result<()> {
    let out = Output {
        writer: Mutex::new(output),
        error: Mutex::new(None),
    };
    let running = Running::default();
    let (tx, rx) = mpsc::sync_channel::<Job>(QUEUE);
    let rx = Mutex::new(rx);
    let read = std::thread::scope(|scope| {
        for _ in 0..workers.max(1) {
            scope.spawn(|| work(&rx, &running, &out, limits));
        }
        let read = read_requests(input, &tx, &running, &out, limits);
        drop(tx);
        read
    });
    let written = out
        .error
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .map_or(Ok(()), Err);
    read.and(written)
}

/// A worker: takes jobs until the reader is done and the queue is empty.
fn work<W: Write>(
    rx: &Mutex<mpsc::Receiver<Job>>,
    running: &Running,
    out: &Output<W>,
    limits: &Limits,
) {
    loop {
        let job = rx.lock().unwrap_or_else(|e| e.into_inner()).recv();
        let Ok(job) = job else { return };
        let reply = match job {
            Job::Reply(reply) => reply,
            Job::Request {
                line,
                key,
                ticket,
                cancel,
            } => {
                let (id, outcome) = envelope::evaluate_cancellable(&line, limits, &cancel);
                running.remove(&key, ticket);
                envelope::response_line(&id, &outcome)
            }
        };
        out.write(&reply);
    }
}

/// The reader: queues every request line and answers `cancel` requests itself.
fn read_requests<R: Read, W: Write>(
    input: R,
    tx: &mpsc::SyncSender<Job>,
    running: &Running,
    out: &Output<W>,
    limits: &Limits,
) -> io::Result<()> {
    let mut reader = BufReader::with_capacity(64 * 1024, input);
    let mut line = Vec::new();
    let mut ticket = 0u64;
    while let Some(overflowed) = read_capped_line(&mut reader, &mut line, limits.max_line_bytes)? {
        if out.failed() {
            break;
        }
        let job = if overflowed {
            Job::Reply(envelope::response_line(
                &RawId::null(),
                &Err(ProtocolError::LineTooLong {
                    limit: limits.max_line_bytes,
                }),
            ))
        } else if let Some((id, outcome)) = cancel_request(&line, limits, running) {
            out.write(&envelope::response_line(&id, &outcome));
            continue;
        } else {
            let key = std::str::from_utf8(&line)
                .map(|text| find_id(text, limits.max_json_depth))
                .unwrap_or_else(|_| RawId::null());
            let key = key.as_str().to_string();
            let cancel = CancelFlag::new();
            ticket += 1;
            running.insert(&key, ticket, &cancel);
            Job::Request {
                line: std::mem::take(&mut line),
                key,
                ticket,
                cancel,
            }
        };
        if tx.send(job).is_err() {
            break;
        }
    }
    Ok(())
}

/// Answers `line` if it is a version-1 `cancel` request, setting the flags of the requests it
/// names; `None` for every other line (those take the ordinary path, errors included).
fn cancel_request(
    line: &[u8],
    limits: &Limits,
    running: &Running,
) -> Option<(RawId, Result<Value, ProtocolError>)> {
    if !line.windows(8).any(|w| w == b"\"cancel\"") {
        return None;
    }
    let text = std::str::from_utf8(line).ok()?;
    let Ok(Value::Object(map)) = parse_strict(text, limits.max_json_depth) else {
        return None;
    };
    let is_cancel = map.get("v").and_then(Value::as_u64) == Some(crate::VERSION)
        && map.get("action").and_then(Value::as_str) == Some("cancel")
        && map
            .keys()
            .all(|k| matches!(k.as_str(), "v" | "id" | "action" | "args"));
    if !is_cancel {
        return None;
    }
    let id = find_id(text, limits.max_json_depth);
    let outcome = (|| {
        let empty = serde_json::Map::new();
        let args = match map.get("args") {
            None => &empty,
            Some(Value::Object(m)) => m,
            Some(other) => {
                return Err(ProtocolError::WrongType {
                    path: "args".into(),
                    expected: "an object".into(),
                    found: crate::json::type_name(other),
                });
            }
        };
        if let Some(extra) = args.keys().find(|k| k.as_str() != "id") {
            return Err(ProtocolError::UnknownArgument {
                path: format!("args.{extra}"),
                expected: vec!["id"],
            });
        }
        let target = args
            .get("id")
            .ok_or_else(|| ProtocolError::MissingArgument {
                path: "args.id".into(),
            })?;
        let found = running.cancel(RawId::from_value(target).as_str());
        Ok(json!({"cancelled": target, "found": found > 0}))
    })();
    Some((id, outcome))
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

    /// Lines handed over one at a time, as a client would type them.
    struct Typed {
        rx: mpsc::Receiver<Vec<u8>>,
        buf: Vec<u8>,
        pos: usize,
    }

    impl Read for Typed {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            if self.pos == self.buf.len() {
                match self.rx.recv() {
                    Ok(b) => (self.buf, self.pos) = (b, 0),
                    Err(_) => return Ok(0),
                }
            }
            let n = out.len().min(self.buf.len() - self.pos);
            out[..n].copy_from_slice(&self.buf[self.pos..self.pos + n]);
            self.pos += n;
            Ok(n)
        }
    }

    /// Reply lines handed back one at a time.
    struct Replies {
        tx: mpsc::Sender<Value>,
        pending: Vec<u8>,
    }

    impl Write for Replies {
        fn write(&mut self, b: &[u8]) -> io::Result<usize> {
            self.pending.extend_from_slice(b);
            while let Some(i) = self.pending.iter().position(|&c| c == b'\n') {
                let line: Vec<u8> = self.pending.drain(..=i).collect();
                let _ = self.tx.send(serde_json::from_slice(&line).unwrap());
            }
            Ok(b.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// A server on its own thread: send lines, receive replies.
    struct Session {
        lines: Option<mpsc::Sender<Vec<u8>>>,
        replies: mpsc::Receiver<Value>,
        server: Option<std::thread::JoinHandle<io::Result<()>>>,
    }

    impl Session {
        fn start(workers: usize) -> Self {
            let (lines, rx) = mpsc::channel();
            let (tx, replies) = mpsc::channel();
            let limits = Limits {
                max_work_bit_steps: u64::MAX,
                ..Limits::default()
            };
            let server = std::thread::spawn(move || {
                let input = Typed {
                    rx,
                    buf: Vec::new(),
                    pos: 0,
                };
                let output = Replies {
                    tx,
                    pending: Vec::new(),
                };
                serve_with_workers(input, output, &limits, workers)
            });
            Session {
                lines: Some(lines),
                replies,
                server: Some(server),
            }
        }

        fn send(&self, line: &str) {
            let mut b = line.as_bytes().to_vec();
            b.push(b'\n');
            self.lines.as_ref().unwrap().send(b).unwrap();
        }

        fn reply(&self) -> Value {
            self.replies.recv().unwrap()
        }

        fn finish(mut self) {
            self.lines.take();
            self.server.take().unwrap().join().unwrap().unwrap();
        }
    }

    /// A million steps of 64 particles: far longer than any test waits for.
    fn long_request(id: u64) -> String {
        let world = String::from_utf8(gravity_world(64, 1_000_000, "1/3")).unwrap();
        world.replacen(r#""id":1,"#, &format!(r#""id":{id},"#), 1)
    }

    const SHORT: &str = r#"{"v":1,"id":3,"action":"constant","args":{"name":"c"}}"#;

    #[test]
    fn a_cancelled_request_replies_cancelled_and_frees_the_only_worker() {
        let s = Session::start(1);
        s.send(&long_request(1));
        s.send(r#"{"v":1,"id":"stop","action":"cancel","args":{"id":1}}"#);
        // The reader answers the cancel at once, while the worker is still busy with id 1.
        let ack = s.reply();
        assert_eq!(ack["id"], "stop", "{ack}");
        assert_eq!(
            ack["result"],
            serde_json::json!({"cancelled": 1, "found": true})
        );
        let cancelled = s.reply();
        assert_eq!(cancelled["id"], 1, "{cancelled}");
        assert_eq!(cancelled["error"]["code"], "cancelled", "{cancelled}");
        assert!(cancelled["error"]["step"].as_u64().unwrap() < 1_000_000);
        // The one worker is free again: a later request is answered.
        s.send(SHORT);
        let later = s.reply();
        assert_eq!(
            (later["id"].clone(), later["ok"].clone()),
            (3.into(), true.into())
        );
        // Cancelling what is no longer running finds nothing and is not an error.
        s.send(r#"{"v":1,"id":4,"action":"cancel","args":{"id":1}}"#);
        assert_eq!(s.reply()["result"]["found"], false);
        s.finish();
    }

    #[test]
    fn a_long_request_does_not_block_a_later_one_on_two_workers() {
        let s = Session::start(2);
        s.send(&long_request(1));
        s.send(SHORT);
        // The short request overtakes the long one: replies keep their ids, not their order.
        let first = s.reply();
        assert_eq!(
            (first["id"].clone(), first["ok"].clone()),
            (3.into(), true.into())
        );
        s.send(r#"{"v":1,"id":2,"action":"cancel","args":{"id":1}}"#);
        let mut two = [s.reply(), s.reply()];
        two.sort_by_key(|r| r["id"].to_string());
        assert_eq!(two[0]["id"], 1);
        assert_eq!(two[0]["error"]["code"], "cancelled");
        assert_eq!(two[1]["id"], 2);
        assert_eq!(two[1]["result"]["found"], true);
        s.finish();
    }

    #[test]
    fn cancel_refusals_are_ordinary_errors() {
        let s = Session::start(1);
        s.send(r#"{"v":1,"id":5,"action":"cancel","args":{}}"#);
        assert_eq!(s.reply()["error"]["code"], "missing_argument");
        s.send(r#"{"v":1,"id":6,"action":"cancel","args":{"id":1,"x":2}}"#);
        assert_eq!(s.reply()["error"]["code"], "unknown_argument");
        s.send(r#"{"v":1,"id":7,"action":"cancel","args":[]}"#);
        assert_eq!(s.reply()["error"]["code"], "wrong_type");
        s.finish();
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
