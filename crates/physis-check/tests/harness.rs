//! The data-driven suite: every `tests/cases/*.hph` states its expected diagnostics in comments
//! (`// error: PH0104 line 3`, `// warning: PH0211 line 1`); a file without such comments must
//! check clean. The rendered diagnostics of every case are snapshotted, so wording changes are
//! reviewed. Module files the cases open live in `tests/cases/modules/`.

use physis_check::check_source_with;
use physis_syntax::LineIndex;
use physis_syntax::render::render_text;

fn expected(src: &str) -> Vec<(String, String, u32)> {
    let mut out = Vec::new();
    for line in src.lines() {
        let Some(comment) = line.find("//").map(|i| &line[i + 2..]) else {
            continue;
        };
        // Several expectations share one comment, separated by `;`.
        for part in comment.split(';').map(str::trim) {
            for severity in ["error", "warning"] {
                let Some(rest) = part.strip_prefix(&format!("{severity}:")) else {
                    continue;
                };
                let parts: Vec<&str> = rest.split_whitespace().collect();
                match parts.as_slice() {
                    [code, "line", n] => {
                        out.push((severity.to_string(), code.to_string(), n.parse().unwrap()))
                    }
                    _ => panic!("malformed expectation: {line}"),
                }
            }
        }
    }
    out.sort();
    out
}

#[test]
fn cases() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/cases");
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "hph"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 30, "only {} cases", paths.len());
    let mut failures = Vec::new();
    let mut rendered = Vec::new();
    for path in &paths {
        let name = path.file_stem().unwrap().to_str().unwrap().to_string();
        let src = std::fs::read_to_string(path).unwrap();
        // `open Name` reads cases/modules/Name.hph.
        // Relative to the crate (the tests' working folder), so snapshots hold no machine path.
        let files = physis_check::modules::FilesIn {
            dir: std::path::PathBuf::from("tests/cases/modules"),
        };
        let checked = check_source_with(&src, &files);
        let index = LineIndex::new(&src);
        let mut found: Vec<_> = checked
            .diagnostics
            .iter()
            .map(|d| {
                let line = index.line(d.primary.span.start as usize);
                (
                    d.severity.as_str().to_string(),
                    d.code.as_str().to_string(),
                    line,
                )
            })
            .collect();
        found.sort();
        let want = expected(&src);
        if found != want {
            failures.push(format!(
                "{name}: expected {want:?}, found {found:?}\n{}",
                render_text(&checked.diagnostics, &name, &src)
            ));
        }
        let text = render_text(&checked.diagnostics, &format!("{name}.hph"), &src);
        rendered.push((name, text));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    for (name, text) in rendered {
        insta::with_settings!({ snapshot_path => "snapshots", prepend_module_to_snapshot => false }, {
            insta::assert_snapshot!(name, text);
        });
    }
}

#[test]
fn every_code_has_a_case() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/cases");
    let mut all = String::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            all.push_str(&std::fs::read_to_string(path).unwrap());
        }
    }
    for code in physis_syntax::Code::ALL {
        assert!(all.contains(code.as_str()), "no case triggers {code}");
    }
}
