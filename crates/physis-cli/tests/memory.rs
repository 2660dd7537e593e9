//! Issue 19 item 11, the run half: `physis run` estimates the memory a model needs before
//! it allocates anything the size of the state and refuses, with PH0119 naming the grid and
//! what does not fit, a run past its budget (docs/limits.md, Memory), instead of being
//! killed. Tested at the budget's edge and one byte past it.

use crate::common;
use common::physis;

fn temp(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("physis-memory-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

fn poisson(sizes: &str) -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/poisson.hph"
    ))
    .unwrap()
    .replace("Length[41, 41]", sizes)
}

/// The estimate in bytes a PH0119 message states (`needs about … (N bytes)`).
fn needed(err: &str) -> u64 {
    let at = err.find("needs about").expect("an estimate") + "needs about".len();
    let open = err[at..].find('(').unwrap() + at + 1;
    let close = err[open..].find(" bytes").unwrap() + open;
    err[open..close].parse().expect("bytes")
}

#[test]
fn a_run_past_its_memory_budget_was_killed_instead_of_refused() {
    // 1000×1000 Poisson by backward Euler: the sparse LU alone is gigabytes; with a 1 GB
    // budget it is refused before lowering, naming the grid and the LU.
    let file = temp("poisson_1000.hph", &poisson("Length[1000, 1000]"));
    let (code, out, err) = physis(&["run", &file, "--summary", "--memory-budget", "1GB"]);
    assert_eq!((code, out.as_str()), (1, ""), "{err}");
    assert!(err.contains("error[PH0119]"), "{err}");
    assert!(err.contains("grid [1000, 1000] of 1000000 nodes"), "{err}");
    assert!(
        err.contains("sparse Jacobian and LU of `backwardEuler`"),
        "{err}"
    );
    assert!(err.contains("--memory-budget"), "{err}");
    assert!(needed(&err) > 3_000_000_000, "{err}");
    // 10000×10000 is past the grid-node limit: refused by the checker (PH0118) at once.
    let file = temp("poisson_10000.hph", &poisson("Length[10000, 10000]"));
    let (code, _, err) = physis(&["run", &file, "--summary"]);
    assert_eq!(code, 1);
    assert!(err.contains("PH0118"), "{err}");
}

#[test]
fn the_memory_budget_holds_at_its_edge_and_refuses_one_byte_past_it() {
    let file = temp("poisson_41.hph", &poisson("Length[41, 41]"));
    let (code, _, err) = physis(&["run", &file, "--summary", "--memory-budget", "1"]);
    assert_eq!(code, 1, "{err}");
    let need = needed(&err);
    // 1,681 nodes: a few megabytes.
    assert!((1_000_000..100_000_000).contains(&need), "{need}");
    let (code, out, err) = physis(&[
        "run",
        &file,
        "--summary",
        "--memory-budget",
        &need.to_string(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"kind\":\"when\""), "{out}");
    let (code, _, err) = physis(&[
        "run",
        &file,
        "--summary",
        "--memory-budget",
        &(need - 1).to_string(),
    ]);
    assert_eq!(code, 1);
    assert!(
        err.contains("error[PH0119]") && needed(&err) == need,
        "{err}"
    );
    // The default budget (this machine's available memory) lets the example run.
    let (code, _, err) = physis(&["run", &file, "--summary"]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn a_memory_budget_that_is_not_a_size_is_a_usage_error() {
    for bad in ["0", "lots", "4 parsecs", "1e30"] {
        let (code, _, err) = physis(&[
            "run",
            "examples/heated_rod.hph",
            "--summary",
            "--memory-budget",
            bad,
        ]);
        assert_eq!(code, 2, "{bad}: {err}");
        assert!(err.contains("--memory-budget"), "{bad}: {err}");
    }
}
