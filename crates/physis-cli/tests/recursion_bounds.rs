//! Issue 27 item 3: every recursive pass is bounded by the parser's limits (1,024 tokens in one
//! expression, PH0007; 256 levels of nesting, PH0004). For each shape that makes a pass recurse
//! — flat chains of `·`, `+`, `−` and of function calls, nested calls, nested parentheses, and a
//! Lagrangian built of such chains — the largest expression the parser accepts is found, then
//! `physis check`, `run`, `derive`, `emit` and `plot` run on it with the main thread's stack
//! capped at 2 MiB (`ulimit -s 2048`, what `std::thread` gives a spawned thread), and one
//! step past it is refused with its code. The binary is the test profile's, which is optimized;
//! an unoptimized build's checker (`infer.rs`, `Cx::expr`) overflows 2 MiB near 300 factors
//! (docs/limits.md).

#![allow(clippy::print_stderr)]

use std::process::Command;

/// A first-order law `y' = EXPR` (EXPR must be a rate of a length).
fn law(expr: &str) -> String {
    format!(
        "simulate Chain {{\n  state y : Length = 1 m\n  law y' = {expr}\n  observe z ≔ y\n  integrate rk4 step 1 s\n  stop when t ≥ 2 s\n}}\n"
    )
}

/// A Lagrangian model whose kinetic energy is `EXPR` (an energy in `m`, `s`, `s'`).
fn lagrangian(expr: &str) -> String {
    format!(
        "simulate Chain {{\n  param m : Mass = 1 kg\n  state s : Length = 0 m\n  state s' : Velocity = 1 m/s\n  lagrangian ≔ {expr}\n  observe z ≔ s\n  integrate rk4 step 1 ms\n  stop when t ≥ 3 ms\n}}\n"
    )
}

/// The shapes: a name, the model with `n` repetitions, and the code past the edge.
type Shape = (&'static str, fn(usize) -> String, &'static str);

fn shapes() -> Vec<Shape> {
    vec![
        (
            "factors",
            |n| law(&format!("0 Hz·y{}", "·1".repeat(n))),
            "PH0007",
        ),
        (
            "sums",
            |n| law(&vec!["0 Hz·y"; n + 1].join(" + ")),
            "PH0007",
        ),
        (
            "differences",
            |n| law(&vec!["0 Hz·y"; n + 1].join(" − ")),
            "PH0007",
        ),
        (
            "call chain",
            |n| law(&format!("0 Hz·y{}", "·cos(0)".repeat(n))),
            "PH0007",
        ),
        (
            "nested calls",
            |n| law(&format!("0 Hz·y·{}0{}", "cos(".repeat(n), ")".repeat(n))),
            "PH0004",
        ),
        (
            "nested parentheses",
            |n| law(&format!("{}0 Hz·y{}", "(".repeat(n), ")".repeat(n))),
            "PH0004",
        ),
        (
            "lagrangian factors",
            |n| lagrangian(&format!("0.5·m·s'²{}", "·cos(s/1 m)".repeat(n))),
            "PH0007",
        ),
        (
            "lagrangian sums",
            |n| lagrangian(&vec!["0.5·m·s'²"; n + 1].join(" + ")),
            "PH0007",
        ),
    ]
}

/// `physis ARGS` with a 2 MiB main stack; exit code and stderr.
fn physis_small_stack(args: &[&str]) -> (i32, String) {
    let out = Command::new("sh")
        .arg("-c")
        .arg("ulimit -s 2048; exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_physis"))
        .args(args)
        .output()
        .expect("physis runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Whether the parser and checker accept `source` (in-process, on a 2 MiB thread).
fn accepted(source: String) -> bool {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || !physis_check::check_source(&source).has_errors())
        .expect("spawn")
        .join()
        .expect("no overflow")
}

/// The largest `n` whose model is accepted (accepted at 1, refused at 4,096).
fn edge(model: fn(usize) -> String) -> usize {
    let (mut lo, mut hi) = (1, 4096);
    assert!(accepted(model(lo)), "{}", model(lo));
    assert!(!accepted(model(hi)));
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if accepted(model(mid)) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

#[test]
fn every_pass_runs_at_the_expression_limits_on_a_2_mib_stack() {
    let dir = std::env::temp_dir().join(format!("physis-recursion-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for (name, model, code) in shapes() {
        let n = edge(model);
        let at = dir.join(format!("{}-at.hph", name.replace(' ', "-")));
        let past = dir.join(format!("{}-past.hph", name.replace(' ', "-")));
        std::fs::write(&at, model(n)).expect("write");
        std::fs::write(&past, model(n + 1)).expect("write");
        let svg = dir.join("plot.svg");
        let (at, past, svg) = (
            at.to_str().unwrap(),
            past.to_str().unwrap(),
            svg.to_str().unwrap(),
        );
        let mut commands = vec![
            vec!["check", at],
            vec!["run", at, "--summary"],
            vec!["emit", at],
            vec!["plot", at, "--output", svg],
        ];
        if name.starts_with("lagrangian") {
            commands.push(vec!["derive", at]);
        }
        for args in &commands {
            let (status, err) = physis_small_stack(args);
            assert_eq!(status, 0, "{name} at n = {n}: physis {args:?}: {err}");
        }
        let (status, err) = physis_small_stack(&["check", past]);
        assert_eq!(status, 1, "{name} past the edge (n = {}): {err}", n + 1);
        assert!(err.contains(code), "{name} past the edge: {err}");
        for args in [
            vec!["run", past],
            vec!["emit", past],
            vec!["plot", past, "--output", svg],
        ] {
            let (status, err) = physis_small_stack(&args);
            assert_eq!(status, 1, "{name} past: physis {args:?}: {err}");
            assert!(err.contains(code), "{name} past: {err}");
        }
        eprintln!("{name}: edge at n = {n}, every pass ran on 2 MiB; n + 1 is {code}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
