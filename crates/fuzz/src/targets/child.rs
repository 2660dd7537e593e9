//! Child-process targets, each under `ulimit -v` (the memory cap) and a timeout per answer:
//! `centl-physics --mcp` fed one JSON-RPC line at a time, and `physis run` on a mutated model.

use super::{Campaign, Target, finding};
use crate::corpus;
use crate::mutate;
use crate::report::{Stats, peak_kib};
use rand::rngs::ChaCha8Rng;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use wait_timeout::ChildExt;

/// `sh -c 'ulimit -v KIB; exec "$0" "$@"' program args…`: the program itself, capped.
fn capped(program: &Path, memory_kib: u64) -> Command {
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(format!("ulimit -v {memory_kib}; exec \"$0\" \"$@\""))
        .arg(program);
    cmd
}

/// Runs `c.inputs` inputs of `target`; returns how many were tried (0 when the binary is
/// missing: build it first, see docs/fuzzing.md).
pub fn run(
    target: Target,
    c: &Campaign,
    rng: &mut ChaCha8Rng,
    stats: &mut Stats,
    progress: &mut impl FnMut(&str, u64),
) -> u64 {
    match target {
        Target::Mcp => mcp(c, rng, stats, progress),
        _ => physis_run(c, rng, stats, progress),
    }
}

/// A running MCP server: its stdin and the lines it writes.
struct Server {
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
}

impl Server {
    fn start(bin: &Path, memory_kib: u64) -> Option<Server> {
        let mut child = capped(bin, memory_kib)
            .arg("--mcp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .ok()?;
        let stdin = child.stdin.take()?;
        let stdout = child.stdout.take()?;
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut server = Server {
            child,
            stdin,
            lines,
        };
        let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "fuzz", "version": "0"}}});
        server.send(init.to_string().as_bytes());
        server.lines.recv_timeout(Duration::from_secs(10)).ok()?;
        server.send(b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        Some(server)
    }

    fn send(&mut self, line: &[u8]) -> bool {
        self.stdin.write_all(line).is_ok()
            && self.stdin.write_all(b"\n").is_ok()
            && self.stdin.flush().is_ok()
    }

    fn stop(mut self) -> Option<ExitStatus> {
        drop(self.stdin);
        match self.child.wait_timeout(Duration::from_secs(2)) {
            Ok(Some(status)) => Some(status),
            _ => {
                let _ = self.child.kill();
                self.child.wait().ok()
            }
        }
    }
}

fn mcp(
    c: &Campaign,
    rng: &mut ChaCha8Rng,
    stats: &mut Stats,
    progress: &mut impl FnMut(&str, u64),
) -> u64 {
    let bin = c.bin_dir.join("centl-physics");
    let requests = corpus::requests();
    if !bin.exists() || requests.is_empty() {
        return 0;
    }
    let Some(mut server) = Server::start(&bin, c.bounds.memory_kib) else {
        return 0;
    };
    let mut tried = 0;
    for i in 0..c.inputs {
        let id = i + 1;
        let seed = mutate::pick(rng, &requests);
        let mut arguments: Value =
            serde_json::from_slice(&mutate::request(rng, seed)).unwrap_or_else(|_| seed.clone());
        if let Some(map) = arguments.as_object_mut() {
            map.remove("v");
            map.remove("id");
        }
        let call = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "centl_physics", "arguments": arguments}});
        let mut line = serde_json::to_vec(&call).unwrap_or_default();
        let damaged = mutate::below(rng, 5) == 0;
        if damaged {
            line = mutate::mutate_bytes(rng, line);
            for b in &mut line {
                if *b == b'\n' || *b == b'\r' {
                    *b = b' ';
                }
            }
            // A JSON object without an id is a notification: no reply is due.
            if let Ok(v) = serde_json::from_slice::<Value>(&line)
                && v.is_object()
                && v.get("id").is_none()
            {
                continue;
            }
        }
        let start = Instant::now();
        server.send(&line);
        let reply = server.lines.recv_timeout(c.bounds.timeout);
        stats.timed("mcp", start.elapsed(), &line);
        if i % 100 == 0 {
            stats.peak_child_kib = stats
                .peak_child_kib
                .max(peak_kib(&server.child.id().to_string()));
        }
        tried += 1;
        let verdict = match reply {
            Ok(reply) => mcp_reply(&reply, c.bounds.reply_bytes).or_else(|| {
                // An undamaged call's reply carries its id (a damaged one may have lost it).
                // A line past the protocol's limit is discarded unread: its answer has no id.
                let expected = if line.len() > centl_protocol::Limits::default().max_line_bytes {
                    Value::Null
                } else {
                    json!(id)
                };
                let same = serde_json::from_str::<Value>(&reply).is_ok_and(|v| v["id"] == expected);
                (!damaged && !same).then(|| ("wrong_id", format!("expected id {id}: {reply}")))
            }),
            Err(mpsc::RecvTimeoutError::Timeout) => {
                Some(("timeout", format!("no reply in {:?}", c.bounds.timeout)))
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                Some(("abort", "the server exited".into()))
            }
        };
        if let Some((kind, detail)) = verdict {
            let restart = matches!(kind, "timeout" | "abort");
            stats
                .findings
                .push(finding(Target::Mcp, kind, detail, &line));
            if restart {
                let status = server.stop();
                if let Some(last) = stats.findings.last_mut() {
                    last.detail.push_str(&format!(" ({status:?})"));
                }
                match Server::start(&bin, c.bounds.memory_kib) {
                    Some(s) => server = s,
                    None => return tried,
                }
            }
        }
        if (i + 1) % 1000 == 0 {
            progress("mcp", i + 1);
        }
    }
    stats.peak_child_kib = stats
        .peak_child_kib
        .max(peak_kib(&server.child.id().to_string()));
    let _ = server.stop();
    tried
}

/// A JSON-RPC reply: an error with an integer code, or a tool result whose failure has a code.
fn mcp_reply(reply: &str, reply_bytes: usize) -> Option<(&'static str, String)> {
    if reply.len() > reply_bytes {
        return Some(("too_large", format!("reply of {} bytes", reply.len())));
    }
    let start: String = reply.chars().take(200).collect();
    let Ok(v) = serde_json::from_str::<Value>(reply) else {
        return Some(("malformed_reply", start));
    };
    if let Some(e) = v.get("error") {
        return (!e["code"].is_i64()).then_some(("no_code", start));
    }
    let result = &v["result"];
    if result["isError"] == true && !result["structuredContent"]["error"]["code"].is_string() {
        return Some(("no_code", start));
    }
    None
}

fn physis_run(
    c: &Campaign,
    rng: &mut ChaCha8Rng,
    stats: &mut Stats,
    progress: &mut impl FnMut(&str, u64),
) -> u64 {
    let bin = c.bin_dir.join("physis");
    let models = corpus::models();
    if !bin.exists() || models.is_empty() {
        return 0;
    }
    let dir = std::env::temp_dir();
    let file = dir.join(format!("fuzz-{}-run.hph", std::process::id()));
    let errors = dir.join(format!("fuzz-{}-run.err", std::process::id()));
    let mut tried = 0;
    for i in 0..c.inputs {
        let model = mutate::model(rng, &models);
        let mut flags = mutate::run_flags(rng);
        if !flags.iter().any(|f| f == "--limit") {
            flags.extend(["--limit".into(), "20000".into()]);
        }
        if std::fs::write(&file, &model).is_err() {
            break;
        }
        let Ok(err_file) = std::fs::File::create(&errors) else {
            break;
        };
        let start = Instant::now();
        let child = capped(&bin, c.bounds.memory_kib)
            .arg("run")
            .arg(&file)
            .arg("--summary")
            .arg("--quiet")
            .args(&flags)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(err_file)
            .spawn();
        let Ok(mut child) = child else { break };
        let pid = child.id().to_string();
        let mut peak = 0;
        let status = loop {
            peak = peak.max(peak_kib(&pid));
            match child.wait_timeout(Duration::from_millis(20)) {
                Ok(Some(status)) => break Some(status),
                Ok(None) if start.elapsed() < c.bounds.timeout => continue,
                _ => {
                    let _ = child.kill();
                    let _ = child.wait();
                    break None;
                }
            }
        };
        let took = start.elapsed();
        stats.peak_child_kib = stats.peak_child_kib.max(peak);
        tried += 1;
        let stderr = std::fs::read_to_string(&errors).unwrap_or_default();
        let mut input = flags.join(" ").into_bytes();
        input.extend_from_slice(b"\n");
        input.extend_from_slice(&model);
        stats.timed("run", took, &input);
        let verdict = match status.map(|s| s.code()) {
            None => Some(("timeout", format!("no answer in {:?}", c.bounds.timeout))),
            Some(None) => Some(("abort", format!("killed by a signal; {}", tail(&stderr)))),
            Some(Some(101)) => Some(("panic", tail(&stderr))),
            Some(Some(0)) => None,
            // A model refused (exit 1) names its code: `error[PH0114]: ...`.
            Some(Some(1)) if stderr.contains("error[PH") => None,
            Some(Some(1)) => Some(("no_code", format!("exit 1: {}", tail(&stderr)))),
            Some(Some(2)) if stderr.contains("error") => None,
            Some(Some(code)) => Some(("no_code", format!("exit {code}: {}", tail(&stderr)))),
        };
        if let Some((kind, detail)) = verdict {
            stats
                .findings
                .push(finding(Target::Run, kind, detail, &input));
        }
        if (i + 1) % 100 == 0 {
            progress("run", i + 1);
        }
    }
    let _ = std::fs::remove_file(&file);
    let _ = std::fs::remove_file(&errors);
    tried
}

fn tail(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(3)..].join(" | ")
}
