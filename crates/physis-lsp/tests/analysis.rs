//! The analysis over plain text: diagnostics as `physis check` gives them, completion,
//! definitions and references, formatting, quick fixes (each fix applied and checked again).

use physis_lsp::Analysis;
use physis_lsp::analysis::Edit;
use physis_lsp::analysis::complete::CompletionKind;
use physis_syntax::{Code, Span};

fn apply(source: &str, edits: &[Edit]) -> String {
    let mut out = source.to_string();
    let mut edits = edits.to_vec();
    edits.sort_by_key(|e| std::cmp::Reverse(e.span.start));
    for e in edits {
        out.replace_range(e.span.range(), &e.text);
    }
    out
}

fn at(src: &str, needle: &str) -> usize {
    src.find(needle).unwrap_or_else(|| panic!("no `{needle}`"))
}

#[test]
fn missing_step_is_fixed_by_adding_one() {
    let src = "simulate Decay {\n  param k : Frequency = 2 Hz\n  state x : Length = 1 m\n  \
               law x' = −k·x\n  integrate rk4 tolerance 1e-6\n  stop when t ≥ 1 s\n}\n";
    let a = Analysis::new(src.into());
    let codes: Vec<Code> = a.diagnostics().iter().map(|d| d.code).collect();
    assert_eq!(codes, vec![Code::MissingStep]);
    let fixes = a.fixes(a.diagnostics()[0].primary.span);
    assert_eq!(fixes.len(), 1);
    let fixed = apply(src, &fixes[0].edits);
    assert!(
        fixed.contains("integrate rk4 step 1 ms tolerance 1e-6"),
        "{fixed}"
    );
    assert!(Analysis::new(fixed).diagnostics().is_empty());
}

#[test]
fn a_lagrangian_with_nothing_to_move_gains_a_velocity_state() {
    for (kind, expect) in [
        ("Length", "state q' : Velocity = 0 m/s"),
        ("Angle", "state q' : AngularVelocity = 0 rad/s"),
    ] {
        let src = format!(
            "simulate Swing {{\n  param m : Mass = 1 kg\n  state q : {kind} = 1 {}\n  \
             lagrangian ≔ −0.5·m·q²/(1 s²)\n  integrate rk4 step 1 ms\n  stop when t ≥ 1 s\n}}\n",
            if kind == "Angle" { "rad" } else { "m" }
        );
        let a = Analysis::new(src.clone());
        let d = a
            .diagnostics()
            .iter()
            .find(|d| d.code == Code::NothingToMove)
            .unwrap_or_else(|| panic!("{:#?}", a.diagnostics()));
        let fixes = a.fixes(d.primary.span);
        assert_eq!(fixes.len(), 1, "{fixes:?}");
        let fixed = apply(&src, &fixes[0].edits);
        assert!(
            fixed.contains(&format!(
                "= 1 {}\n  {expect}\n",
                if kind == "Angle" { "rad" } else { "m" }
            )),
            "{fixed}"
        );
        let again = Analysis::new(fixed.clone());
        assert!(
            // What is left is the next step (the lagrangian must read q'), not this one.
            again
                .diagnostics()
                .iter()
                .all(|d| !d.message.contains("nothing to move")),
            "{fixed}\n{:#?}",
            again.diagnostics()
        );
    }
}

#[test]
fn completion_by_context() {
    let src = "open Physis.Sch\nsimulate P {\n  param v₀ : Velocity = 1 m/s\n  \
               param α : Angle = 1 rad\n  param w : Vel\n  param u : Velocity = 3 km/\n  \
               state x : Length = 0 m\n  law x' = v₀·alp\n  integrate rk\n}\n";
    let a = Analysis::new(src.into());
    let labels = |offset: usize, kind: CompletionKind| -> Vec<String> {
        a.completions(offset)
            .into_iter()
            .filter(|c| c.kind == kind)
            .map(|c| c.label)
            .collect()
    };
    let end = |needle: &str| at(src, needle) + needle.len();
    assert_eq!(
        labels(end("Physis.Sch"), CompletionKind::Module),
        ["Schemes"]
    );
    assert!(labels(end(": Vel"), CompletionKind::Kind).contains(&"Velocity".to_string()));
    let units = labels(end("3 km/"), CompletionKind::Unit);
    assert_eq!(units, ["km/h", "km/s"], "units as typed");
    let c = a.completions(end("3 km/"));
    assert_eq!(c[0].replace, Span::new(at(src, "km/"), end("3 km/")));
    let greek = a.completions(end("v₀·alp"));
    let alpha = greek.iter().find(|c| c.label == "alpha").expect("alpha");
    assert_eq!(alpha.insert, "α");
    assert_eq!(alpha.replace, Span::new(at(src, "alp"), end("v₀·alp")));
    assert!(labels(end("integrate rk"), CompletionKind::Scheme).contains(&"rk4".to_string()));
    // Names in scope: params and states, and a state's derivative.
    let names = labels(
        end("law x' = v₀·") - "·".len() - "v₀".len() + 1,
        CompletionKind::Variable,
    );
    assert!(names.contains(&"v₀".to_string()), "{names:?}");
    let all = labels(end("law x' = v₀·alp") - 3, CompletionKind::Variable);
    assert!(all.contains(&"α".to_string()), "{all:?}");
    // A state's derivative, in a source that parses whole.
    let src = "simulate Q {\n  state x : Length = 0 m\n  law x' = 1 m/s\n  observe r ≔ \n}\n";
    let a = Analysis::new(src.into());
    let names: Vec<String> = a
        .completions(at(src, "≔ ") + "≔ ".len())
        .into_iter()
        .filter(|c| c.kind == CompletionKind::Variable)
        .map(|c| c.label)
        .collect();
    assert_eq!(names, ["x", "x'", "r"]);
}

#[test]
fn definitions_references_and_formatting() {
    let src = "simulate A {\nparam k : Frequency = 2 Hz\n    state x : Length = 1 m\n  law x' = −k·x\n  \
               integrate rk4 step 1 ms\n  observe e ≔ k·x\n  conserve e within 1e-3\n  stop when t ≥ 1 s\n}\n";
    let a = Analysis::new(src.into());
    assert_eq!(
        a.definition(at(src, "k·x")),
        Some(Span::new(at(src, "k :"), at(src, "k :") + 1))
    );
    assert_eq!(a.references(at(src, "k :"), true).len(), 3);
    assert_eq!(a.references(at(src, "e within"), false).len(), 1);
    let edit = a.format().expect("not canonical");
    let formatted = apply(src, &[edit]);
    assert!(formatted.contains("\n  param k") && formatted.contains("\n  state x"));
    assert_eq!(Analysis::new(formatted).format(), None, "idempotent");
}

#[test]
fn formatting_is_idempotent_on_every_example() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples");
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "hph") {
            let src = std::fs::read_to_string(&path).unwrap();
            let a = Analysis::new(src.clone());
            assert!(a.diagnostics().is_empty(), "{}", path.display());
            let once = a.format().map_or(src, |e| e.text);
            assert_eq!(Analysis::new(once).format(), None, "{}", path.display());
        }
    }
}

#[test]
fn a_schemes_local_bindings_hover_with_their_dimension() {
    // Heun's method: k₁ = f(t, y) and k₂ are rates, [y] per time; `next` is a state, [y].
    let src = include_str!("../../../examples/heun.hph");
    let a = Analysis::new(src.into());
    assert!(a.diagnostics().is_empty());
    let hover = |needle: &str| {
        let h = a.hover(at(src, needle)).expect("a hover");
        (h.span.text(src).to_string(), h.markdown)
    };
    let (span, k1) = hover("k₁ ≔");
    assert_eq!(span, "k₁");
    assert!(k1.starts_with("`k₁ ≔ f(t, y)`"), "{k1}");
    assert!(k1.contains("**[y]·"), "{k1}");
    let (_, k2) = hover("k₂ ≔");
    assert!(k2.contains("`k₂ ≔ f(t + h, y + h·k₁)`"), "{k2}");
    assert_eq!(k1.split("**").nth(1), k2.split("**").nth(1));
    let (_, next) = hover("next ≔");
    assert!(next.contains("**[y]** (relative to the state)"), "{next}");
}

/// A user module in a file beside the document: `open Motors` reads `Motors.hph` as
/// `physis check` does, so its functions are checked at each call, hovered with their value's
/// kind and completed; a text with no folder finds no such module (PH0211).
#[test]
fn module_files_beside_the_document_are_read() {
    let dir = std::env::temp_dir().join(format!("physis-lsp-modules-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("Motors.hph"),
        "module Motors {\n  // Steady speed: ω = k·V/(k² + R·b).\n  fn speed(k : TorqueConstant, V : Voltage, R : Resistance, b : RotationalDrag) : AngularVelocity ≔ k·V/(k² + R·b)\n  const drag ≔ 0.001 N·m·s\n}\n",
    )
    .unwrap();
    let src = "open Motors\nsimulate M {\n  state w : AngularVelocity = 0 rad/s\n  law w' = (speed(0.05 N·m/A, 12 V, 1 Ω, drag) − w)/(1 s)\n  observe fast ≔ Motors.speed(0.05 N·m/A, 12 V, 1 Ω, drag)\n  stop when t ≥ 1 s\n}\n";
    let path = dir.join("model.hph");
    let a = Analysis::at(src.into(), &path);
    assert!(a.diagnostics().is_empty(), "{:#?}", a.diagnostics());
    let h = a.hover(at(src, "Motors.speed") + 8).expect("a hover");
    // AngularVelocity shares its dimension with Frequency, the name the hover gives.
    assert!(h.markdown.contains("· 1/s"), "{}", h.markdown);
    let names: Vec<String> = a
        .completions(at(src, "speed(0.05"))
        .into_iter()
        .map(|c| c.label)
        .collect();
    assert!(names.contains(&"speed".to_string()), "{names:?}");
    let dotted = "Motors.";
    let offset = at(src, dotted) + dotted.len();
    let members: Vec<(String, Option<String>)> = a
        .completions(offset)
        .into_iter()
        .map(|c| (c.label, c.detail))
        .collect();
    assert!(
        members
            .iter()
            .any(|(l, d)| l == "speed" && d.as_deref().is_some_and(|d| d.contains("Voltage"))),
        "{members:?}"
    );
    assert!(members.iter().any(|(l, _)| l == "drag"), "{members:?}");
    let opens: Vec<String> = a
        .completions(at(src, "Motors"))
        .into_iter()
        .map(|c| c.label)
        .collect();
    assert!(opens.contains(&"Motors".to_string()), "{opens:?}");
    // A wrong dimension in a call is diagnosed at the call, as the CLI does.
    let bad = src.replace("12 V, 1 Ω, drag) − w", "12 m, 1 Ω, drag) − w");
    let b = Analysis::at(bad, &path);
    assert_eq!(
        b.diagnostics()[0].code,
        Code::WrongDimension,
        "{:#?}",
        b.diagnostics()
    );
    // The server reads a `file:` document's folder.
    let uri: lsp_types::Uri = format!("file://{}", path.display()).parse().unwrap();
    let served = physis_lsp::server::analyse_at(src.into(), &uri);
    assert!(
        served.diagnostics().is_empty(),
        "{:#?}",
        served.diagnostics()
    );
    // Without a folder, the module is unknown.
    let c = Analysis::new(src.into());
    assert!(
        c.diagnostics()
            .iter()
            .any(|d| d.code == Code::UnknownModule),
        "{:#?}",
        c.diagnostics()
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn file_uris_become_paths() {
    use physis_lsp::position::file_path;
    use std::path::PathBuf;
    assert_eq!(
        file_path("file:///home/a/b%20c.hph"),
        Some(PathBuf::from("/home/a/b c.hph"))
    );
    assert_eq!(
        file_path("file://localhost/m.hph"),
        Some(PathBuf::from("/m.hph"))
    );
    assert_eq!(
        file_path("file:///C:/m.hph"),
        Some(PathBuf::from("C:/m.hph"))
    );
    assert_eq!(file_path("untitled:Untitled-1"), None);
    assert_eq!(file_path("file:///a%2"), None);
}
