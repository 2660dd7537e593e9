//! Runs the commands of the README's `## Tour` section (shared by the `physis` and the
//! `centl-physics` tour tests: each runs the commands of its own binary).
//!
//! Rules: fenced blocks tagged `sh` or `console` in the section are run unless the info
//! string says `no-test`. In `sh` blocks every line is a command; in `console` blocks a
//! line starting with `$ ` is a command and the lines up to the next one are its expected
//! standard output. A trailing `\` continues a command on the next line. The `cargo run
//! ... -p CRATE --` prefix is replaced by the already-built binary, so no test builds.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// One command of the tour with the output the README shows for it, if any.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// The command as written.
    pub command: String,
    /// Expected standard output lines (console blocks only).
    pub expected: Option<Vec<String>>,
}

/// The README at the workspace root.
pub fn readme() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md");
    std::fs::read_to_string(path).expect("README.md is readable")
}

/// The commands of the `## Tour` section, in order.
pub fn tour(readme: &str) -> Vec<Step> {
    let start = readme
        .find("\n## Tour\n")
        .expect("README has a `## Tour` section");
    let rest = &readme[start + 1..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |i| i + 3);
    let section = &rest[..end];
    let mut steps = Vec::new();
    let mut lines = section.lines();
    while let Some(line) = lines.next() {
        let Some(info) = line.strip_prefix("```") else {
            continue;
        };
        let mut block = Vec::new();
        for l in lines.by_ref() {
            if l.starts_with("```") {
                break;
            }
            block.push(l.to_string());
        }
        let lang = info.split_whitespace().next().unwrap_or("");
        if info.contains("no-test") {
            continue;
        }
        match lang {
            "sh" => steps.extend(sh_block(&block)),
            "console" => steps.extend(console_block(&block)),
            _ => {}
        }
    }
    steps
}

/// Joins `\`-continued lines.
fn logical_lines(block: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut pending: Option<String> = None;
    for l in block {
        let mut text = match pending.take() {
            Some(p) => format!("{p} {}", l.trim()),
            None => l.clone(),
        };
        if let Some(stripped) = text.trim_end().strip_suffix('\\') {
            text = stripped.trim_end().to_string();
            pending = Some(text);
        } else {
            out.push(text);
        }
    }
    out.extend(pending);
    out
}

fn sh_block(block: &[String]) -> Vec<Step> {
    logical_lines(block)
        .into_iter()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|command| Step {
            command,
            expected: None,
        })
        .collect()
}

fn console_block(block: &[String]) -> Vec<Step> {
    let mut steps: Vec<Step> = Vec::new();
    let mut pending: Option<String> = None;
    for l in block {
        if let Some(p) = pending.take() {
            let joined = format!("{p} {}", l.trim());
            match joined.strip_suffix('\\') {
                Some(more) => pending = Some(more.trim_end().to_string()),
                None => steps.push(Step {
                    command: joined,
                    expected: Some(Vec::new()),
                }),
            }
        } else if let Some(cmd) = l.strip_prefix("$ ") {
            match cmd.trim_end().strip_suffix('\\') {
                Some(more) => pending = Some(more.trim_end().to_string()),
                None => steps.push(Step {
                    command: cmd.to_string(),
                    expected: Some(Vec::new()),
                }),
            }
        } else if let Some(Some(out)) = steps.last_mut().map(|s| s.expected.as_mut()) {
            out.push(l.trim_end().to_string());
        }
    }
    steps
}

/// `cargo run [-q] [--release] -p CRATE --` prefixes, and the crate each names.
fn cargo_prefix(command: &str) -> Option<(String, &str)> {
    let at = command.find("cargo run ")?;
    let rest = &command[at..];
    let end = rest
        .find(" -- ")
        .map(|i| i + 4)
        .or_else(|| rest.ends_with(" --").then_some(rest.len()))?;
    let prefix = &rest[..end];
    let krate = prefix
        .split_whitespace()
        .skip_while(|w| *w != "-p")
        .nth(1)?;
    Some((prefix.to_string(), krate))
}

/// The command with `cargo run ... -p CRATE --` replaced by `binary`, when it runs CRATE.
pub fn for_crate(command: &str, krate: &str, binary: &Path) -> Option<String> {
    let (prefix, named) = cargo_prefix(command)?;
    if named != krate {
        return None;
    }
    let bin = format!("'{}' ", binary.display());
    let replaced = command.replacen(&prefix, &bin, 1);
    assert!(
        !replaced.contains("cargo "),
        "one cargo command per line: {command}"
    );
    Some(replaced)
}

/// A scratch directory holding a copy of the example models.
pub fn scratch(name: &str) -> PathBuf {
    let root = std::env::temp_dir().join(format!("readme-tour-{name}-{}", std::process::id()));
    let examples = root.join("examples");
    std::fs::create_dir_all(&examples).expect("scratch directory");
    let src = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples");
    for entry in std::fs::read_dir(src).expect("examples/").flatten() {
        let p = entry.path();
        if p.extension().is_some_and(|e| e == "hph") {
            std::fs::copy(&p, examples.join(entry.file_name())).expect("copy an example");
        }
    }
    root
}

/// Runs every tour step meant for `krate` with `binary` in `dir`; returns how many ran.
pub fn run_tour(krate: &str, binary: &Path, dir: &Path) -> usize {
    let mut ran = 0;
    for step in tour(&readme()) {
        let Some(command) = for_crate(&step.command, krate, binary) else {
            assert!(
                cargo_prefix(&step.command).is_some(),
                "the tour runs only `cargo run -p CRATE --` commands: {}",
                step.command
            );
            continue;
        };
        let out = Command::new("sh")
            .arg("-c")
            .arg(&command)
            .current_dir(dir)
            .output()
            .expect("sh runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "`{}` failed ({}):\n{}",
            step.command,
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        if let Some(expected) = &step.expected {
            let got: Vec<&str> = stdout.lines().map(str::trim_end).collect();
            assert_eq!(got, *expected, "output of `{}`", step.command);
        }
        // A command writing `-o FILE` must leave a non-empty FILE.
        let words: Vec<&str> = step.command.split_whitespace().collect();
        for w in words.windows(2).filter(|w| w[0] == "-o") {
            let len = std::fs::metadata(dir.join(w[1]))
                .map(|m| m.len())
                .unwrap_or(0);
            assert!(len > 0, "`{}` left no {}", step.command, w[1]);
        }
        ran += 1;
    }
    ran
}

#[test]
fn the_tour_parses_as_written() {
    let steps = tour(&readme());
    assert!(steps.len() >= 10, "{steps:#?}");
    assert!(steps.iter().all(|s| !s.command.contains("git clone")));
    let serve = steps
        .iter()
        .find(|s| s.command.contains("--serve"))
        .expect("a JSON Lines exchange");
    assert!(serve.command.starts_with("echo '{"), "{}", serve.command);
    assert_eq!(serve.expected.as_ref().map(Vec::len), Some(1));
}
