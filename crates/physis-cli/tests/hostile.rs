//! Issue 27 items 1 and 5 through `physis`: hostile flags and files get a typed error and a
//! usage or model exit code, never a panic, a hang or a silent coercion.

use std::process::Command;

fn physis(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_physis"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .output()
        .expect("physis runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const TOWER: &str = "(((Qm^64)^64)^64)^64";

#[test]
fn unit_power_tower_in_set_sweep_and_step_is_a_typed_error() {
    let set = format!("v0=1 {TOWER}");
    let sweep = format!("v0=1..2 {TOWER}:2");
    let step = format!("1 {TOWER}");
    for args in [
        vec!["run", "examples/projectile.hph", "--summary", "--set", &set],
        vec![
            "run",
            "examples/projectile.hph",
            "--summary",
            "--sweep",
            &sweep,
        ],
        vec![
            "run",
            "examples/projectile.hph",
            "--summary",
            "--step",
            &step,
        ],
    ] {
        let (code, err) = physis(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(
            err.starts_with("error:") && err.contains("8192"),
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn set_overflowing_after_scaling_is_refused_not_diverged() {
    let (code, err) = physis(&[
        "run",
        "examples/projectile.hph",
        "--summary",
        "--set",
        "v0=1e308 Qm/s",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("64-bit float"), "{err}");
    // The largest value that stays finite in SI is accepted.
    let (code, err) = physis(&[
        "run",
        "examples/projectile.hph",
        "--summary",
        "--limit",
        "1",
        "--set",
        "v0=1e278 Qm/s",
    ]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn limit_zero_is_refused_and_one_is_accepted() {
    let (code, err) = physis(&[
        "run",
        "examples/projectile.hph",
        "--summary",
        "--limit",
        "0",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--limit"), "{err}");
    let (code, err) = physis(&[
        "run",
        "examples/projectile.hph",
        "--summary",
        "--limit",
        "1",
    ]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn threads_beyond_the_bound_are_refused_before_any_start() {
    for (k, want) in [("1024", 0), ("1025", 2), ("1000000", 2)] {
        let (code, err) = physis(&[
            "run",
            "examples/projectile.hph",
            "--summary",
            "--ensemble",
            "2",
            "--limit",
            "10",
            "--threads",
            k,
        ]);
        assert_eq!(code, want, "--threads {k}: {err}");
        if want == 2 {
            assert!(err.contains("at most 1024"), "{err}");
        }
    }
}

#[test]
fn invalid_utf8_gets_a_code_and_a_byte_location() {
    let dir = std::env::temp_dir().join(format!("physis-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("latin1.hph");
    std::fs::write(&file, b"// caf\xe9\nsimulate S {\n}\n").unwrap();
    let path = file.to_str().unwrap();
    for args in [
        vec!["check", path],
        vec!["run", path],
        vec!["emit", path],
        vec!["derive", path],
    ] {
        let (code, err) = physis(&args);
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(
            err.contains("PH0008") && err.contains("byte 6"),
            "{args:?}: {err}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
