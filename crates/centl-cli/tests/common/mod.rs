//! A running `centl-physics --serve` or `--mcp` child talking over pipes, plus request builders.
#![allow(dead_code)]

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// A child process with line-oriented pipes.
pub struct Pipe {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
}

impl Pipe {
    /// Starts the binary with one flag (`--serve` or `--mcp`).
    pub fn start(flag: &str) -> Pipe {
        Pipe::start_with(&[flag])
    }

    /// Starts the binary with these arguments (`["--serve", "--workers", "1"]`).
    pub fn start_with(args: &[&str]) -> Pipe {
        let mut child = Command::new(env!("CARGO_BIN_EXE_centl-physics"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start centl-physics");
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        Pipe {
            child,
            stdin,
            stdout,
        }
    }

    /// Writes raw bytes (a newline is not added).
    pub fn write_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write");
        stdin.flush().expect("flush");
    }

    /// Reads one line of output as JSON.
    pub fn read(&mut self) -> Value {
        let mut line = String::new();
        let n = self.stdout.read_line(&mut line).expect("read");
        assert!(n > 0, "server closed its output");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("reply is not JSON ({e}): {line}"))
    }

    /// Reads one line of output as text (without its newline).
    pub fn read_line(&mut self) -> String {
        let mut line = String::new();
        let n = self.stdout.read_line(&mut line).expect("read");
        assert!(n > 0, "server closed its output");
        line.trim_end_matches('\n').to_string()
    }

    /// Sends one line and reads one reply.
    pub fn send_line(&mut self, line: &str) -> Value {
        let mut bytes = line.as_bytes().to_vec();
        bytes.push(b'\n');
        self.write_raw(&bytes);
        self.read()
    }

    /// Sends a JSON value as one line and reads one reply.
    pub fn send(&mut self, v: &Value) -> Value {
        self.send_line(&v.to_string())
    }

    /// Closes stdin and waits for a clean exit.
    pub fn finish(mut self) {
        drop(self.stdin.take());
        let status = self.child.wait().expect("wait");
        assert!(status.success(), "server exited with {status}");
    }
}

impl Drop for Pipe {
    fn drop(&mut self) {
        if self.stdin.is_some() {
            drop(self.stdin.take());
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// `{"value": v, "unit": u}`.
pub fn q(v: &str, u: &str) -> Value {
    json!({"value": v, "unit": u})
}

/// `{"value": [x, y, z], "unit": u}`.
pub fn v3(c: [&str; 3], u: &str) -> Value {
    json!({"value": c, "unit": u})
}

/// A particle with SI units.
pub fn particle(id: &str, m: &str, x: [&str; 3], v: [&str; 3]) -> Value {
    json!({"id": id, "mass": q(m, "kg"), "position": v3(x, "m"), "velocity": v3(v, "m/s")})
}

/// A sphere with SI units.
pub fn sphere(id: &str, m: &str, x: [&str; 3], v: [&str; 3], r: &str) -> Value {
    let mut p = particle(id, m, x, v);
    p["radius"] = q(r, "m");
    p
}

/// A version-1 request.
pub fn request(id: Value, action: &str, args: Value) -> Value {
    json!({"v": 1, "id": id, "action": action, "args": args})
}

/// The `result` of a successful reply, checking the envelope.
pub fn ok(reply: &Value) -> &Value {
    assert_eq!(reply["v"], json!(1), "{reply}");
    assert_eq!(reply["ok"], json!(true), "expected success: {reply}");
    &reply["result"]
}

/// The error code of a failed reply, checking the envelope.
pub fn code(reply: &Value) -> &str {
    assert_eq!(reply["v"], json!(1), "{reply}");
    assert_eq!(reply["ok"], json!(false), "expected failure: {reply}");
    assert!(
        reply["error"]["message"]
            .as_str()
            .is_some_and(|m| !m.is_empty())
    );
    reply["error"]["code"].as_str().expect("code")
}

/// `simulate` arguments for a world of 256 particles over 32,768 steps: within every default
/// limit, and about a minute of work in a debug build, far longer than a test takes to cancel
/// it.
pub fn long_args() -> Value {
    let world: Vec<Value> = (0..256)
        .map(|i| {
            json!({
                "id": format!("p{i}"),
                "mass": {"value": "1", "unit": "kg"},
                "position": {"value": [i.to_string(), "0", "0"], "unit": "m"},
                "velocity": {"value": ["0", "1/7", "0"], "unit": "m/s"},
            })
        })
        .collect();
    json!({
        "world": world,
        "forces": [{"kind": "gravity", "acceleration": {"value": ["0", "0", "-1"], "unit": "m/s^2"}}],
        "dt": {"value": "1/3", "unit": "s"},
        "steps": 32768,
    })
}
