//! Property tests: random text and mutated examples never panic, and every diagnostic span lies
//! inside the file on character boundaries.

use physis_check::check_source;
use proptest::prelude::*;

fn examples() -> Vec<String> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples");
    let mut out: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "hph"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    out.sort();
    out
}

fn spans_ok(src: &str) -> Result<(), TestCaseError> {
    let checked = check_source(src);
    for d in &checked.diagnostics {
        for span in std::iter::once(d.primary.span).chain(d.secondary.iter().map(|l| l.span)) {
            prop_assert!(
                span.start <= span.end && span.end as usize <= src.len(),
                "{d:?}"
            );
            prop_assert!(src.is_char_boundary(span.start as usize), "{d:?}");
            prop_assert!(src.is_char_boundary(span.end as usize), "{d:?}");
        }
    }
    // Rendering must not fail either.
    let _ = physis_syntax::render::render_text(&checked.diagnostics, "f.hph", src);
    let _ = physis_syntax::render::render_json(&checked.diagnostics, src);
    Ok(())
}

/// Characters the language uses, so random text reaches deep into the parser.
const ALPHABET: &[&str] = &[
    "simulate ",
    "state ",
    "law ",
    "param ",
    "stop when ",
    "on ",
    " do ",
    "integrate ",
    "scheme ",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "\n",
    " ",
    "y",
    "y'",
    "x",
    "v₀",
    "t",
    "·",
    "*",
    "/",
    "+",
    "−",
    "-",
    "=",
    "≔",
    ":",
    ",",
    "<",
    "≥",
    "∧",
    "²",
    "⁻¹",
    "√",
    "½",
    "1",
    "0.5",
    "1e-3",
    " m",
    " s",
    "m/s²",
    "Length",
    "Velocity[2]",
    "norm(",
    "dx(",
    "grid (x) : Length[5] from 0 m to 1 m\n",
    "field u : Temperature = 0 K\n",
    "noise w\n",
    "lagrangian ≔ ",
    "effort ",
    "//c\n",
    "$",
    "é",
    "𝜋",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn random_token_soup_never_panics(parts in proptest::collection::vec(proptest::sample::select(ALPHABET), 0..80)) {
        spans_ok(&parts.concat())?;
    }

    #[test]
    fn arbitrary_text_never_panics(src in "\\PC{0,200}") {
        spans_ok(&src)?;
    }

    #[test]
    fn mutated_examples_never_panic(
        which in 0usize..11,
        edits in proptest::collection::vec((any::<proptest::sample::Index>(), 0usize..3, proptest::sample::select(ALPHABET)), 1..6),
    ) {
        let all = examples();
        let mut src = all[which % all.len()].clone();
        for (at, kind, text) in edits {
            let boundaries: Vec<usize> = src.char_indices().map(|(i, _)| i).chain([src.len()]).collect();
            let i = boundaries[at.index(boundaries.len())];
            match kind {
                0 => src.insert_str(i, text),
                1 => {
                    // Delete one character.
                    if let Some(c) = src[i..].chars().next() {
                        src.replace_range(i..i + c.len_utf8(), "");
                    }
                }
                _ => src.truncate(i),
            }
        }
        spans_ok(&src)?;
    }
}
