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

/// A scratch directory of this test process.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("physis-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The `┌─ file:line:col` location of the first diagnostic in `err`.
fn location(err: &str) -> Option<&str> {
    let at = err.find("┌─ ")? + "┌─ ".len();
    err[at..].lines().next()
}

#[test]
fn check_reports_what_run_refuses_at_lowering_with_the_same_code_and_span() {
    let dir = scratch("lowering");
    let cases = [
        (
            "adaptive_stochastic.hph",
            "PH0114",
            "scheme ad <1> {\n  next ≔ y + h·f(t, y) + g(t, y)·dW\n  error ≔ h·f(t, y)\n}\n\
             simulate Walk {\n  param γ : Frequency = 1 Hz\n  param σ : Velocity = 1 m/s\n  \
             state v : Velocity = 0 m/s\n  noise w\n  law v' = −γ·v + σ·√γ·w\n  \
             integrate ad tolerance 1e-6\n  stop when t ≥ 1 s\n}\n",
        ),
        (
            "lagrangian_on_a_grid.hph",
            "PH0120",
            "simulate Rod {\n  param m : Mass = 1 kg\n  grid (x) : Length[10] from 0 m to 1 m\n  \
             field u : Temperature = 0 K\n  law u' = 1 K/s\n  state s : Length = 0 m\n  \
             state s' : Velocity = 1 m/s\n  lagrangian ≔ 0.5·m·s'²\n  stop when t ≥ 1 s\n}\n",
        ),
        (
            "stencil_over_gradient.hph",
            "PH0120",
            "simulate Rod {\n  grid (x) : Length[10] from 0 m to 1 m\n  \
             field u : Temperature = 0 K\n  boundary u neumann 1 K/m\n  \
             law u' = 1 m²/s·laplacian(2·u)\n  stop when t ≥ 1 s\n}\n",
        ),
        (
            "euler_maruyama_without_noise.hph",
            "PH0114",
            "simulate S {\n  state v : Velocity = 0 m/s\n  law v' = 1 m/s²\n  \
             integrate eulerMaruyama step 1 ms\n  stop when t ≥ 1 s\n}\n",
        ),
        (
            "grid_ends_coincide.hph",
            "PH0109",
            "simulate S {\n  grid (x) : Length[1000] from 0 m to 1e-321 m\n  \
             field u : Temperature = 0 K\n  law u' = 1 K/s\n  stop when t ≥ 1 s\n}\n",
        ),
        (
            // Found by the long fuzz campaign (seed 2026121600, hph): a grid model's scheme
            // that overclaims its stability radius passed `check` and was refused by `run`.
            "grid_scheme_overclaims_its_stability.hph",
            "PH0105",
            "scheme heun stable 1e9 {\n  k₁ ≔ f(t, y)\n  k₂ ≔ f(t + h, y + h·k₁)\n  \
             next ≔ y + h/2·(k₁ + k₂)\n}\n\
             simulate S {\n  grid (x) : Length[10] from 0 m to 1 m\n  \
             field u : Temperature = 0 K\n  law u' = 1 K/s\n  integrate heun step 1 ms\n  \
             stop when t ≥ 1 s\n}\n",
        ),
        (
            "grid_beyond_the_node_limit.hph",
            "PH0118",
            "simulate S {\n  grid (x, y) : Length[100000, 100000] from 0 m to 1 m\n  \
             field u : Temperature = 0 K\n  law u' = 1 K/s\n  stop when t ≥ 1 s\n}\n",
        ),
    ];
    for (file, code, text) in cases {
        let path = dir.join(file);
        std::fs::write(&path, text).unwrap();
        let path = path.to_str().unwrap();
        let (check, check_err) = physis(&["check", path]);
        let (run, run_err) = physis(&["run", path, "--summary"]);
        assert_eq!((check, run), (1, 1), "{file}: {check_err}\n{run_err}");
        for err in [&check_err, &run_err] {
            assert!(err.starts_with(&format!("error[{code}]")), "{file}: {err}");
            assert!(!err.contains("cannot be lowered"), "{file}: {err}");
        }
        assert!(location(&check_err).is_some(), "{file}: {check_err}");
        assert_eq!(location(&check_err), location(&run_err), "{file}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A file of exactly `len` bytes: a model that checks, then a comment padding it out.
fn model_of_length(len: usize) -> Vec<u8> {
    let mut bytes = b"simulate S {\n  state y : Length = 10 m\n  law y' = -1 m/s\n  \
                      stop when y < 0 m\n}\n// "
        .to_vec();
    bytes.resize(len, b'x');
    bytes
}

#[test]
fn physis_emit_prints_its_ph_code_first() {
    let dir = scratch("emit-code");
    let cases = [
        (
            "adaptive_stochastic.hph",
            "PH0114",
            "scheme ad <1> {\n  next ≔ y + h·f(t, y) + g(t, y)·dW\n  error ≔ h·f(t, y)\n}\n\
             simulate Walk {\n  param γ : Frequency = 1 Hz\n  param σ : Velocity = 1 m/s\n  \
             state v : Velocity = 0 m/s\n  noise w\n  law v' = −γ·v + σ·√γ·w\n  \
             integrate ad tolerance 1e-6\n  stop when t ≥ 1 s\n}\n",
        ),
        (
            "euler_maruyama_without_noise.hph",
            "PH0114",
            "simulate S {\n  state v : Velocity = 0 m/s\n  law v' = 1 m/s²\n  \
             integrate eulerMaruyama step 1 ms\n  stop when t ≥ 1 s\n}\n",
        ),
        (
            "checker_error.hph",
            "PH0101",
            "simulate S {\n  state x : Length = 1 m\n  stop when t ≥ 1 s\n}\n",
        ),
    ];
    for (file, code, text) in cases {
        let path = dir.join(file);
        std::fs::write(&path, text).unwrap();
        let path = path.to_str().unwrap();
        let (check, check_err) = physis(&["check", path]);
        let (emit, emit_err) = physis(&["emit", path]);
        assert_eq!((check, emit), (1, 1), "{file}: {check_err}\n{emit_err}");
        // The same first line and location as `physis check`: the code comes first.
        assert!(
            emit_err.starts_with(&format!("error[{code}]")),
            "{file}: {emit_err}"
        );
        assert_eq!(emit_err.lines().next(), check_err.lines().next(), "{file}");
        assert!(location(&emit_err).is_some(), "{file}: {emit_err}");
        assert_eq!(location(&emit_err), location(&check_err), "{file}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn source_size_limit_at_its_edge_and_one_past_it() {
    let dir = scratch("size");
    let limit = 16 << 20;
    let at = dir.join("at.hph");
    let past = dir.join("past.hph");
    std::fs::write(&at, model_of_length(limit)).unwrap();
    std::fs::write(&past, model_of_length(limit + 1)).unwrap();
    let (code, err) = physis(&["check", at.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    for cmd in ["check", "run", "derive", "emit"] {
        let (code, err) = physis(&[cmd, past.to_str().unwrap()]);
        assert_eq!(code, 1, "{cmd}: {err}");
        assert!(
            err.starts_with("error[PH0009]") && err.contains("16777216"),
            "{cmd}: {err}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn numeric_flags_are_range_checked_without_an_ensemble() {
    let run = |extra: &[&str]| {
        let mut args = vec![
            "run",
            "examples/projectile.hph",
            "--summary",
            "--limit",
            "10",
        ];
        args.extend_from_slice(extra);
        physis(&args)
    };
    for (flags, want, says) in [
        (&["--threads", "1024"][..], 0, ""),
        (&["--threads", "1025"], 2, "--threads is at most 1024"),
        (&["--threads", "1000000"], 2, "--threads is at most 1024"),
        (&["--threads", "0"], 2, "--threads needs at least 1"),
        (&["--quantiles", "1"], 0, ""),
        (&["--quantiles", "1.5"], 2, "--quantiles"),
        (&["--limit", "0"], 2, "--limit"),
        (&["--ensemble", "0"], 2, "--ensemble needs at least 1"),
        (
            &["--ensemble", "1000001"],
            2,
            "--ensemble is at most 1000000",
        ),
    ] {
        let (code, err) = run(flags);
        assert_eq!(code, want, "{flags:?}: {err}");
        assert!(err.contains(says), "{flags:?}: {err}");
    }
    let dir = scratch("plot-flags");
    let out = dir.join("p.svg");
    let out = out.to_str().unwrap();
    for (flags, says) in [
        (&["--width", "0"][..], "--width is from 1 to 8192"),
        (&["--height", "8193"], "--height is from 1 to 8192"),
        (&["--ensemble", "0"], "--ensemble needs at least 1"),
        (&["--ensemble", "1000001"], "--ensemble is at most 1000000"),
    ] {
        let mut args = vec!["plot", "examples/projectile.hph", "-o", out];
        args.extend_from_slice(flags);
        let (code, err) = physis(&args);
        assert_eq!(code, 2, "{flags:?}: {err}");
        assert!(err.contains(says), "{flags:?}: {err}");
    }
    let (code, err) = physis(&[
        "plot",
        "examples/projectile.hph",
        "-o",
        out,
        "--width",
        "8192",
        "--height",
        "1",
    ]);
    assert_eq!(code, 0, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A lagrangian over `k` vector states of 150 components each (a chain of free masses on
/// springs to the origin): 150·k coordinates, each reading its own velocity.
fn vector_lagrangian(k: usize) -> String {
    let mut text =
        String::from("simulate Chain {\n  param m : Mass = 1 kg\n  param c : Stiffness = 1 N/m\n");
    let list = |v: &str| vec![v; 150].join(", ");
    for i in 0..k {
        text += &format!("  state q{i} : Length[150] = [{}]\n", list("0 m"));
        text += &format!("  state q{i}' : Velocity[150] = [{}]\n", list("1 m/s"));
    }
    let sum = |f: &dyn Fn(usize) -> String| (0..k).map(f).collect::<Vec<_>>().join(" + ");
    text += &format!(
        "  lagrangian ≔ 0.5·m·({}) − 0.5·c·({})\n",
        sum(&|i| format!("dot(q{i}', q{i}')")),
        sum(&|i| format!("dot(q{i}, q{i})"))
    );
    text + "  integrate rk4 step 1 ms\n  stop when t ≥ 1 ms\n}\n"
}

#[test]
fn a_lagrangian_past_the_derivation_limit_is_refused_before_work() {
    let dir = scratch("derivation");
    // 1,200 coordinates plan 1200 × (nodes + 1200) > 10⁶ node derivatives.
    let big = dir.join("big.hph");
    std::fs::write(&big, vector_lagrangian(8)).unwrap();
    for cmd in ["check", "run", "derive", "emit"] {
        let (code, err) = physis(&[cmd, big.to_str().unwrap()]);
        assert_eq!(code, 1, "{cmd}: {err}");
        assert!(
            err.starts_with("error[PH0121]") && err.contains("limit of 1000000"),
            "{cmd}: {err}"
        );
        assert!(
            location(&err).is_some_and(|l| l.ends_with(":20:16")),
            "{cmd}: {err}"
        );
    }
    // 150 coordinates are derived and run.
    let small = dir.join("small.hph");
    std::fs::write(&small, vector_lagrangian(1)).unwrap();
    let (code, err) = physis(&["run", small.to_str().unwrap(), "--summary"]);
    assert_eq!(code, 0, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn derived_equations_printing_past_their_bound_are_refused() {
    // A 200-deep chain of sines: its derivatives print as trees of about 200³ terms.
    let mut e = String::from("s'·1 s/m");
    for i in 0..200 {
        e = format!("sin({e} + {i})");
    }
    let text = format!(
        "simulate P {{\n  param m : Mass = 1 kg\n  state s : Length = 0 m\n  \
         state s' : Velocity = 1 m/s\n  lagrangian ≔ 0.5·m·s'²·{e}\n  \
         integrate rk4 step 1 ms\n  stop when t ≥ 1 ms\n}}\n"
    );
    let dir = scratch("derive-text");
    let path = dir.join("deep.hph");
    std::fs::write(&path, text).unwrap();
    let path = path.to_str().unwrap();
    let (code, err) = physis(&["derive", path]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.starts_with("error[PH0121]") && err.contains("16 MiB"),
        "{err}"
    );
    // The model itself runs: only its printed equations are too long.
    let (code, err) = physis(&["run", path, "--summary"]);
    assert_eq!(code, 0, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
