//! Issue 27: the size bounds of docs/limits.md at their edge and one past it, each with its
//! code and a message that says which bound.

use physis_check::check_source;
use physis_syntax::Code;

fn codes(src: &str) -> Vec<(Code, String)> {
    check_source(src)
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| (d.code, d.message.clone()))
        .collect()
}

fn grid(sizes: &str) -> String {
    format!(
        "simulate G {{
  grid (x, y) : Length[{sizes}] from 0 m to 1 m
  field u : Temperature = 0 K
  boundary u dirichlet 0 K
  law u' = 1 K/s
  stop when t ≥ 1 s
}}
"
    )
}

fn vector(n: u64) -> String {
    format!(
        "simulate V {{
  state x : Length[{n}] = 0 m
  law x' = 1 m/s
  stop when t ≥ 1 s
}}
"
    )
}

#[test]
fn grid_nodes_at_the_limit_pass_and_one_row_past_it_is_ph0118() {
    assert_eq!(codes(&grid("1000, 1000")), vec![]);
    let past = codes(&grid("1000, 1001"));
    // The grid clause's own PH0118 comes first; the field then has no grid (PH0113 follows,
    // noise the checker could drop).
    assert_eq!(
        past[0],
        (Code::TooBig, "a grid with too many nodes".into()),
        "{past:?}"
    );
}

#[test]
fn a_vector_extent_of_1e8_is_refused_by_the_state_bound_and_one_past_by_the_extent() {
    // 10⁸ is a valid extent but past the 4,000,000 numbers a state may hold: PH0118 first
    // (the scalar initial value and rate of the test model add PH0109s of their own).
    let at = codes(&vector(100_000_000));
    assert_eq!(
        at[0],
        (Code::TooBig, "a state too large to step".into()),
        "{at:?}"
    );
    // 10⁸ + 1 is past the extent bound itself: PH0109, and no PH0118.
    let past = codes(&vector(100_000_001));
    assert!(
        past.iter().all(|(c, _)| *c == Code::ShapeMismatch),
        "{past:?}"
    );
    // The state bound's edge in fields: 4 fields of 10⁶ nodes check, a fifth does not.
    let fields = |k: usize| {
        let mut src =
            String::from("simulate F {\n  grid (x, y) : Length[1000, 1000] from 0 m to 1 m\n");
        for i in 0..k {
            src += &format!("  field u{i} : Temperature = 0 K\n  law u{i}' = 1 K/s\n");
        }
        src + "  stop when t ≥ 1 s\n}\n"
    };
    assert_eq!(codes(&fields(4)), vec![]);
    let over = codes(&fields(5));
    assert_eq!(over.len(), 1, "{over:?}");
    assert_eq!(over[0].0, Code::TooBig, "{over:?}");
}
