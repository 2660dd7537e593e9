//! Every request at every byte offset of every example, and of copies with one character
//! deleted, answers without a panic (offsets inside a multi-byte character included), and a
//! scheme body's hover is relative to the state.

use physis_lsp::Analysis;
use physis_syntax::Span;

fn ask_everywhere(a: &Analysis) {
    for offset in 0..=a.source.len() + 1 {
        let _ = a.hover(offset);
        let _ = a.completions(offset);
        let _ = a.definition(offset);
        let _ = a.references(offset, true);
        let _ = a.fixes(Span::new(offset, offset));
    }
    let _ = a.format();
}

#[test]
fn every_offset_of_every_example_and_its_damaged_copies() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples");
    let mut examples: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "hph"))
        .collect();
    examples.sort();
    for path in &examples {
        let src = std::fs::read_to_string(path).unwrap();
        ask_everywhere(&Analysis::new(src.clone()));
        // One character deleted, at every 97th character: broken clauses, open brackets.
        for (i, (at, c)) in src.char_indices().enumerate() {
            if i % 97 == 0 {
                let mut damaged = src.clone();
                damaged.replace_range(at..at + c.len_utf8(), "");
                ask_everywhere(&Analysis::new(damaged));
            }
        }
    }
}

#[test]
fn scheme_bodies_hover_relative_to_the_state() {
    let src = "scheme mid {\n  k1 ≔ f(t, y)\n  next ≔ y + h·f(t + h/2, y + h/2·k1)\n}\n";
    let a = Analysis::new(src.into());
    let at = src.find("h·f").unwrap();
    let h = a.hover(at + "h".len()).unwrap();
    assert_eq!(h.span.text(src), "h·f(t + h/2, y + h/2·k1)");
    assert!(h.markdown.contains("[y]"), "{}", h.markdown);
}
