//! `physis fmt`: every example and the prelude are already in the canonical layout, and a
//! deliberately mangled copy of each (indentation gone, tabs, trailing blanks, CRLF, runs of
//! blank lines) formats back to the original bytes, so formatting cannot change what it means.

use crate::common;
use common::physis;
use physis_syntax::format::format;
use std::path::PathBuf;

fn sources() -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files: Vec<PathBuf> = std::fs::read_dir(root.join("examples"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "hph"))
        .collect();
    files.sort();
    assert!(files.len() >= 5, "examples not found");
    files.push(root.join("crates/physis-check/src/prelude.hph"));
    files
}

/// The same tokens and comments, laid out badly.
fn mangle(text: &str) -> String {
    let mut out = String::from("\r\n\n");
    for (i, line) in text.lines().enumerate() {
        let body = line.trim_start();
        if body.is_empty() {
            // One blank line becomes a run of them, some holding whitespace.
            out.push_str("   \n\n\t\r\n");
            continue;
        }
        let indent = ["", "\t", "       ", " "][i % 4];
        out.push_str(&format!("{indent}{body}  \t\r\n"));
    }
    out.push_str("\n\n\n");
    out
}

#[test]
fn examples_and_prelude_are_canonical_and_mangled_copies_come_back_byte_for_byte() {
    for path in sources() {
        let text = std::fs::read_to_string(&path).unwrap();
        let name = path.display();
        assert_eq!(format(&text), text, "{name} is not in the canonical layout");
        let mangled = mangle(&text);
        assert_ne!(mangled, text);
        assert_eq!(
            format(&mangled),
            text,
            "{name}: mangled copy does not come back"
        );
        assert_eq!(
            format(&format(&mangled)),
            format(&mangled),
            "{name}: not idempotent"
        );
    }
}

#[test]
fn check_flag_reports_and_plain_fmt_rewrites() {
    let dir = std::env::temp_dir().join(format!("physis-fmt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("messy.hph");
    let messy =
        "simulate A {\nstate x : Length = 1 m   \n\n\nlaw x' = 0 m/s\nstop when t ≥ 1 s\n}\n";
    std::fs::write(&path, messy).unwrap();
    let file = path.to_str().unwrap();

    let (code, _, err) = physis(&["fmt", "--check", file]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("messy.hph:2: would be reformatted"), "{err}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), messy);

    let (code, _, err) = physis(&["fmt", file]);
    assert_eq!(code, 0, "{err}");
    let tidy = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        tidy,
        "simulate A {\n  state x : Length = 1 m\n\n  law x' = 0 m/s\n  stop when t ≥ 1 s\n}\n"
    );
    let (code, _, err) = physis(&["fmt", "--check", file]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = physis(&["check", file]);
    assert_eq!(code, 0, "{err}");
}
