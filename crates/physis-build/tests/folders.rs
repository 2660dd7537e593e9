//! Compiling folders of models: a good folder writes one file named after it with every
//! model; a model with errors fails with exactly what `physis check` prints.

use std::path::{Path, PathBuf};

use physis_build::{BuildError, Builder};

/// A fresh folder under the system's temp dir, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!(
            "physis-build-{tag}-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("models")).unwrap();
        TempDir(dir)
    }

    fn write(&self, name: &str, text: &str) -> PathBuf {
        let p = self.0.join("models").join(name);
        std::fs::write(&p, text).unwrap();
        p
    }

    fn models(&self) -> PathBuf {
        self.0.join("models")
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

const DECAY: &str = "simulate Decay {
  param λ : Frequency = 0.5 Hz
  state n : Dimensionless = 1
  law n' = −λ·n
  integrate rk4 step 10 ms
  observe remaining ≔ n
  stop when t ≥ 1 s
}
";

const BROKEN: &str = "simulate Broken {
  state x : Length = 1 m
  law x' = 2 m
  stop when t ≥ 1 s
}
";

#[test]
fn a_folder_becomes_one_file_named_after_it() {
    let tmp = TempDir::new("good");
    let a = tmp.write("decay.hph", DECAY);
    let b = tmp.write(
        "growth.hph",
        &DECAY.replace("Decay", "Growth").replace("−λ·n", "λ·n"),
    );
    tmp.write("notes.txt", "not a model");
    let out = Builder::new()
        .folder(tmp.models())
        .out_dir(tmp.path())
        .cargo_instructions(false)
        .compile()
        .unwrap();
    assert_eq!(out.path, tmp.path().join("models.rs"));
    assert_eq!(out.models, ["Decay", "Growth"]);
    assert_eq!(out.files, [a.clone(), b.clone()]);
    let code = std::fs::read_to_string(&out.path).unwrap();
    assert!(code.contains("pub struct Decay {"), "{code}");
    assert!(code.contains("pub struct GrowthParams {"));
    assert!(code.contains("pub lambda: f64"));
    for f in [tmp.models(), a, b] {
        let line = format!("cargo:rerun-if-changed={}", f.display());
        assert!(out.instructions.contains(&line), "{line}");
    }
    let named = Builder::new()
        .folder(tmp.models())
        .out_dir(tmp.path())
        .out_name("physics")
        .cargo_instructions(false)
        .compile()
        .unwrap();
    assert_eq!(named.path, tmp.path().join("physics.rs"));
}

#[test]
fn a_model_error_fails_with_the_diagnostics_of_physis_check() {
    let tmp = TempDir::new("broken");
    tmp.write("decay.hph", DECAY);
    let broken = tmp.write("broken.hph", BROKEN);
    let err = Builder::new()
        .folder(tmp.models())
        .out_dir(tmp.path())
        .cargo_instructions(false)
        .compile()
        .unwrap_err();
    let shown = format!("{err:?}");
    // What `physis check` renders for the same file, byte for byte.
    let checked = physis_check::check_source(BROKEN);
    assert!(checked.has_errors());
    let name = broken.display().to_string();
    let expected = physis_syntax::render::render_text(&checked.diagnostics, &name, BROKEN);
    assert!(shown.starts_with(&expected), "{shown}\n---\n{expected}");
    assert!(
        shown.contains("error[PH0109]") || shown.contains("error[PH"),
        "{shown}"
    );
    assert!(shown.contains("broken.hph"), "{shown}");
    assert!(
        shown.contains("law x' = 2 m"),
        "the line is quoted: {shown}"
    );
    assert!(shown.ends_with("due to 1 error"), "{shown}");
    assert!(!tmp.path().join("models.rs").exists());
}

/// 1,200 coordinates in a lagrangian: it checks, and lowering refuses it before work
/// (PH0121, a derivation past its limit).
fn past_the_derivation_limit() -> String {
    let list = |v: &str| vec![v; 150].join(", ");
    let mut text =
        String::from("simulate Chain {\n  param m : Mass = 1 kg\n  param c : Stiffness = 1 N/m\n");
    for i in 0..8 {
        text += &format!("  state q{i} : Length[150] = [{}]\n", list("0 m"));
        text += &format!("  state q{i}' : Velocity[150] = [{}]\n", list("1 m/s"));
    }
    let sum = |f: &dyn Fn(usize) -> String| (0..8).map(f).collect::<Vec<_>>().join(" + ");
    text += &format!(
        "  lagrangian ≔ 0.5·m·({}) − 0.5·c·({})\n",
        sum(&|i| format!("dot(q{i}', q{i}')")),
        sum(&|i| format!("dot(q{i}, q{i})"))
    );
    text + "  integrate rk4 step 1 ms\n  stop when t ≥ 1 ms\n}\n"
}

#[test]
fn a_lowering_refusal_is_rendered_as_physis_check_renders_it() {
    let tmp = TempDir::new("chain");
    let chain = past_the_derivation_limit();
    let path = tmp.write("chain.hph", &chain);
    let err = Builder::new()
        .folder(tmp.models())
        .out_dir(tmp.path())
        .cargo_instructions(false)
        .compile()
        .unwrap_err();
    let shown = format!("{err:?}");
    // The same front door `physis check` goes through, rendered the same way.
    let name = path.display().to_string();
    let checked = physis_ir::front::check_and_lower(chain.as_bytes(), &name);
    let expected = checked.render(&checked.all_diagnostics());
    assert!(expected.contains("error[PH0121]"), "{expected}");
    assert!(shown.starts_with(&expected), "{shown}\n---\n{expected}");
    assert!(
        shown.contains("lagrangian ≔"),
        "the line is quoted: {shown}"
    );
    assert!(shown.ends_with("due to 1 error"), "{shown}");
    assert!(!tmp.path().join("models.rs").exists());
}

#[test]
fn an_empty_folder_or_no_out_dir_is_an_error() {
    let tmp = TempDir::new("empty");
    let err = Builder::new()
        .folder(tmp.models())
        .out_dir(tmp.path())
        .cargo_instructions(false)
        .compile()
        .unwrap_err();
    assert!(matches!(err, BuildError::Empty { .. }), "{err}");
    let missing = Builder::new()
        .folder(tmp.path().join("nowhere"))
        .out_dir(tmp.path())
        .cargo_instructions(false)
        .compile()
        .unwrap_err();
    assert!(matches!(missing, BuildError::Io { .. }), "{missing}");
}

/// `DECAY` followed by a comment, `len` bytes in all.
fn decay_of_length(len: usize) -> String {
    let mut text = format!("{DECAY}// ");
    text.extend(std::iter::repeat_n('x', len - text.len()));
    text
}

#[test]
fn physis_build_applies_the_16_mib_source_limit() {
    let limit = 16 << 20;
    let tmp = TempDir::new("size");
    let model = tmp.write("decay.hph", &decay_of_length(limit));
    let build = || {
        Builder::new()
            .folder(tmp.models())
            .out_dir(tmp.path())
            .cargo_instructions(false)
            .compile()
    };
    let out = build().expect("a file of exactly 16 MiB compiles");
    assert_eq!(out.models, ["Decay"]);
    std::fs::write(&model, decay_of_length(limit + 1)).unwrap();
    let shown = format!("{:?}", build().unwrap_err());
    assert!(
        shown.starts_with("error[PH0009]") && shown.contains("16777216"),
        "{shown}"
    );
    assert!(shown.contains("decay.hph"), "{shown}");
}

#[test]
fn physis_build_gives_a_model_that_is_not_utf8_its_code_and_byte() {
    let tmp = TempDir::new("utf8");
    let path = tmp.0.join("models").join("latin1.hph");
    std::fs::write(&path, b"// caf\xe9\nsimulate S {\n}\n").unwrap();
    let shown = format!(
        "{:?}",
        Builder::new()
            .folder(tmp.models())
            .out_dir(tmp.path())
            .cargo_instructions(false)
            .compile()
            .unwrap_err()
    );
    assert!(
        shown.starts_with("error[PH0008]") && shown.contains("byte 6"),
        "{shown}"
    );
}
