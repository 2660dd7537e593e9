//! The `physis` binary end to end: exit codes, rustc-style stderr, JSON, explain.

use std::process::Command;

fn physis(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_physis"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn example(name: &str) -> String {
    format!("{}/../../examples/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn temp(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("physis-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

#[test]
fn valid_files_exit_zero_and_print_nothing() {
    let (code, out, err) = physis(&[
        "check",
        &example("projectile.hph"),
        &example("dc_motor.hph"),
    ]);
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));
}

#[test]
fn errors_are_rustc_style_and_fail() {
    let path = temp(
        "nostop.hph",
        "simulate A {\n  state y : Length = 1 m\n  law y' = 1 m/s\n}\n",
    );
    let (code, out, err) = physis(&["check", &path]);
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(
        err.starts_with("error[PH0104]: simulation `A` has no `stop when`"),
        "{err}"
    );
    assert!(err.contains("nostop.hph:1:10"), "{err}");
}

#[test]
fn json_format_follows_the_contract() {
    let path = temp(
        "mismatch.hph",
        "simulate A {\n  state y : Length = 1 m\n  law y' = 1 m/s + 1 s\n  stop when t > 1 s\n}\n",
    );
    let (code, out, _) = physis(&["check", "--format", "json", &path]);
    assert_eq!(code, 1);
    assert_eq!(
        out.trim(),
        r#"[{"code":"PH0203","severity":"error","line":3,"column":12,"message":"cannot add Velocity and Time"}]"#
    );
}

#[test]
fn explain_prints_meaning_and_example_for_every_code() {
    for code in physis_syntax::Code::ALL {
        let (status, out, _) = physis(&["explain", code.as_str()]);
        assert_eq!(status, 0, "{code}");
        assert!(
            out.starts_with(&format!("{code}: {}", code.title())),
            "{out}"
        );
        assert!(out.contains(code.explanation()));
    }
    let (status, _, err) = physis(&["explain", "PH9999"]);
    assert_eq!(status, 2);
    assert!(err.contains("unknown diagnostic code"));
}

#[test]
fn missing_file_is_an_error() {
    let (code, _, err) = physis(&["check", "/nonexistent/x.hph"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot read"));
}

#[test]
fn checking_a_big_grid_cost_as_much_as_running_it_did() {
    // Issue 19 item 11: `check` lowered grid models, building every node's arrays (2.1 GB
    // at 2000×2000; 10000×10000 did not finish). It now checks without touching a node.
    let source = std::fs::read_to_string(example("poisson.hph"))
        .unwrap()
        .replace("Length[41, 41]", "Length[1000, 1000]");
    let file = temp("poisson_1000.hph", &source);
    let (code, out, err) = physis(&["check", &file]);
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));
    // Issue 27 item 5: past the grid-node limit (10⁶) check refuses it with PH0118.
    let source = source.replace("Length[1000, 1000]", "Length[10000, 10000]");
    let file = temp("poisson_10000.hph", &source);
    let (code, _, err) = physis(&["check", &file]);
    assert_eq!(code, 1);
    assert!(err.contains("PH0118"), "{err}");
}

/// `physis schemes` lists exactly the prelude's schemes, and the PH0107 hint names the same
/// ones: both are read from the prelude's text, never from a list of their own.
#[test]
fn schemes_lists_the_prelude_and_prints_one_scheme_text() {
    let prelude = physis_check::prelude::names();
    let (code, out, err) = physis(&["schemes"]);
    assert_eq!(code, 0, "{err}");
    let listed: Vec<&str> = out
        .lines()
        .filter(|l| !l.starts_with(' '))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(listed, prelude);
    assert!(out.contains("adaptive <5>"), "{out}");
    assert!(out.contains("implicit (Newton)"), "{out}");

    let (code, out, _) = physis(&["schemes", "rk4"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("// Classical Runge–Kutta"), "{out}");
    assert!(out.contains("scheme rk4 stable 2.78 {"), "{out}");

    let (code, _, err) = physis(&["schemes", "rk5"]);
    assert_eq!(code, 2);
    assert!(err.contains(&prelude.join(", ")), "{err}");

    let file = temp("rk5.hph", physis_syntax::Code::SchemeNotInScope.example());
    let (code, _, err) = physis(&["check", &file]);
    assert_eq!(code, 1);
    assert!(err.contains("PH0107"), "{err}");
    assert!(
        err.contains(&format!("built in: {}", prelude.join(", "))),
        "{err}"
    );
}
