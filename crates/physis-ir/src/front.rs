//! The front door every tool comes in by: a source decoded, checked, its simulations chosen
//! and lowered, with every refusal a diagnostic rendered against the file. The CLI's
//! subcommands and the build step start here, so they agree on what a file means and say it
//! in the same words.

use crate::{IrModel, LowerError, lower_with_source};
use physis_check::{CheckedModel, Overrides, Program};
use physis_syntax::Diagnostic;
use physis_syntax::render::render_text;

/// A source file checked; its simulations are lowered on demand, once.
pub struct Checked {
    /// The file's name as diagnostics show it.
    pub name: String,
    /// The decoded text (empty when the bytes could not be decoded).
    pub source: String,
    /// Its schemes and simulations.
    pub program: Program,
    /// What decoding and checking found; see [`Checked::all_diagnostics`] for lowering's too.
    pub diagnostics: Vec<Diagnostic>,
    lowered: Vec<Lowering>,
}

/// A param as callers name it (`--set`, sweeps, Python keywords): where its values go in the
/// parameter vector and in which dimension they are read.
#[derive(Debug, Clone, PartialEq)]
pub struct ParamSlot {
    /// The name as declared (`v₀`).
    pub name: String,
    /// The normalized key (`v0`).
    pub key: String,
    /// Its dimension (values are converted to SI of this dimension).
    pub dim: units::Dimension,
    /// First slot in the parameter vector.
    pub offset: usize,
    /// Number of components (1 for a scalar).
    pub len: usize,
}

impl ParamSlot {
    /// The slot `typed` names by its declared or normalized spelling (`v₀`, `v0`).
    pub fn find<'a>(slots: &'a [ParamSlot], typed: &str) -> Option<&'a ParamSlot> {
        let key = physis_syntax::lexer::normalize_name(typed);
        slots.iter().find(|s| s.key == key || s.name == typed)
    }
}

/// One simulation's lowering, done at most once.
enum Lowering {
    NotYet,
    Done(Box<IrModel>),
    Refused(LowerError),
}

/// Why a simulation could not be chosen from a file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SelectError {
    /// The file declares no `simulate` block.
    #[error("{file} declares no simulation")]
    None {
        /// The file's name.
        file: String,
    },
    /// Several simulations and no name to choose among them.
    #[error("{file} declares several simulations: {}", names.join(", "))]
    Several {
        /// The file's name.
        file: String,
        /// Their names, in source order.
        names: Vec<String>,
    },
    /// No simulation of that name.
    #[error("{file} has no simulation `{wanted}`; it has: {}", list(names))]
    Unknown {
        /// The file's name.
        file: String,
        /// The name asked for.
        wanted: String,
        /// The names it has, in source order.
        names: Vec<String>,
    },
}

/// A simulation that checks but does not lower, with its diagnostic rendered.
#[derive(Debug)]
pub struct Refused {
    /// What lowering said.
    pub error: LowerError,
    /// Its diagnostic (PH0120, PH0121, PH0122 or the symbolic layer's own code), rendered.
    pub rendered: String,
}

fn list(names: &[String]) -> String {
    if names.is_empty() {
        "none".into()
    } else {
        names.join(", ")
    }
}

/// Decodes and checks a file's bytes: bytes that are not UTF-8 or a file past the size limit
/// are its only diagnostic. Nothing is lowered yet.
pub fn check_bytes(bytes: &[u8], name: &str) -> Checked {
    check_bytes_with(bytes, name, &Overrides::default())
}

/// [`check_bytes`] with settings given from outside the text (`--scheme`, `--step`, ...)
/// in place of its own, checked as if it had said them.
pub fn check_bytes_with(bytes: &[u8], name: &str, overrides: &Overrides) -> Checked {
    let (source, not_utf8) = physis_syntax::decode_source(bytes);
    let mut checked = check_as(source, name, overrides);
    if let Some(d) = not_utf8 {
        checked.diagnostics = vec![d];
    }
    checked
}

/// Checks a source text. Nothing is lowered yet. Its `open`s read module files from the
/// folder of the file `name` names (`open Motors` reads `Motors.hph` there).
pub fn check(source: String, name: &str) -> Checked {
    check_as(source, name, &Overrides::default())
}

/// [`check`] with settings from outside the text in place of its own.
pub fn check_as(source: String, name: &str, overrides: &Overrides) -> Checked {
    let files = physis_check::modules::FilesIn::beside(std::path::Path::new(name));
    let checked = physis_check::check_source_as(&source, &files, overrides);
    Checked::from_checked(checked, source, name)
}

/// Decodes, checks and, when the file checks clean, lowers every simulation without a grid,
/// so what only lowering can see is reported as `run` would report it (a velocity a
/// lagrangian never reads, a derivative the rules cannot take, a derivation past its limit, a
/// construct not built yet). A simulation with a grid is lowered only when it is run: lowering
/// builds every node's arrays, and what it would refuse there the checker refuses itself.
pub fn check_and_lower(bytes: &[u8], name: &str) -> Checked {
    let mut checked = check_bytes(bytes, name);
    checked.lower_unless_grid();
    checked
}

impl Checked {
    /// Wraps what the checker made of `source` (for a caller that checked it itself, like the
    /// language server, which also keeps the type of every expression). Nothing is lowered.
    pub fn from_checked(checked: physis_check::Checked, source: String, name: &str) -> Self {
        let lowered = checked
            .program
            .models
            .iter()
            .map(|_| Lowering::NotYet)
            .collect();
        Checked {
            name: name.to_string(),
            source,
            program: checked.program,
            diagnostics: checked.diagnostics,
            lowered,
        }
    }

    /// When the file checks clean, lowers every simulation without a grid (see
    /// [`check_and_lower`]) and the scheme of every simulation with one.
    pub fn lower_unless_grid(&mut self) {
        if self.has_errors() {
            return;
        }
        for index in 0..self.program.models.len() {
            if self.program.models[index].grid.is_none() {
                self.lower_once(index);
            } else if let Err(e) =
                crate::lower::scheme_def(&self.program.models[index].integrate.scheme)
            {
                // A grid model's scheme costs nothing per node to lower, and what it refuses
                // (a `stable` its own text does not have) `run` would refuse too.
                self.lowered[index] = Lowering::Refused(e);
            }
        }
    }

    /// Whether decoding or checking found an error (lowering's refusals are not counted).
    pub fn has_errors(&self) -> bool {
        physis_syntax::has_errors(&self.diagnostics)
    }

    /// How many of [`Checked::diagnostics`] are errors.
    pub fn error_count(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.is_error()).count()
    }

    /// Whether a lowering done so far refused the simulation at `index`.
    pub fn is_refused(&self, index: usize) -> bool {
        matches!(self.lowered.get(index), Some(Lowering::Refused(_)))
    }

    /// The checker's diagnostics followed by every refusal of a lowering done so far.
    pub fn all_diagnostics(&self) -> Vec<Diagnostic> {
        let mut all = self.diagnostics.clone();
        for (model, lowering) in self.program.models.iter().zip(&self.lowered) {
            if let Lowering::Refused(e) = lowering {
                all.push(e.to_diagnostic(model));
            }
        }
        all
    }

    /// Diagnostics rendered rustc-style against this file.
    pub fn render(&self, diagnostics: &[Diagnostic]) -> String {
        render_text(diagnostics, &self.name, &self.source)
    }

    /// The checker's diagnostics, rendered.
    pub fn rendered(&self) -> String {
        self.render(&self.diagnostics)
    }

    /// The simulation named `wanted` (any spelling the language accepts), or the only one.
    pub fn select(&self, wanted: Option<&str>) -> Result<usize, SelectError> {
        let models = &self.program.models;
        let names = || models.iter().map(|m| m.name.clone()).collect::<Vec<_>>();
        let file = self.name.clone();
        match wanted {
            Some(w) => {
                let key = physis_syntax::lexer::normalize_name(w);
                models
                    .iter()
                    .position(|m| m.key == key)
                    .ok_or_else(|| SelectError::Unknown {
                        file,
                        wanted: w.to_string(),
                        names: names(),
                    })
            }
            None => match models.len() {
                1 => Ok(0),
                0 => Err(SelectError::None { file }),
                _ => Err(SelectError::Several {
                    file,
                    names: names(),
                }),
            },
        }
    }

    /// Every param of the simulation at `index` that its lowered form `ir` reads, with its
    /// place in the parameter vector.
    pub fn param_slots(&self, index: usize, ir: &IrModel) -> Vec<ParamSlot> {
        self.program.models[index]
            .params
            .iter()
            .filter_map(|p| {
                let spec = ir
                    .params
                    .iter()
                    .find(|s| physis_syntax::lexer::normalize_name(&s.name) == p.key)?;
                Some(ParamSlot {
                    name: p.name.clone(),
                    key: p.key.clone(),
                    dim: p.dim,
                    offset: spec.offset as usize,
                    len: spec.default.len(),
                })
            })
            .collect()
    }

    /// The checked simulation at `index`.
    pub fn model(&self, index: usize) -> &CheckedModel {
        &self.program.models[index]
    }

    /// The simulation at `index`, lowered once and kept.
    pub fn lower(&mut self, index: usize) -> Result<&IrModel, Refused> {
        self.lower_once(index);
        match &self.lowered[index] {
            Lowering::Done(ir) => Ok(&**ir),
            other => Err(self.refusal(index, other)),
        }
    }

    /// The simulation at `index`, lowered and handed over (a later [`Checked::lower`] of it
    /// lowers it again).
    pub fn take(&mut self, index: usize) -> Result<IrModel, Refused> {
        self.lower_once(index);
        match std::mem::replace(&mut self.lowered[index], Lowering::NotYet) {
            Lowering::Done(ir) => Ok(*ir),
            other => {
                let refusal = self.refusal(index, &other);
                self.lowered[index] = other;
                Err(refusal)
            }
        }
    }

    fn refusal(&self, index: usize, lowering: &Lowering) -> Refused {
        let error = match lowering {
            Lowering::Refused(e) => e.clone(),
            // `lower_once` never leaves a simulation unlowered; were it to, say so plainly.
            _ => LowerError::Invalid {
                problem: "a simulation was read before it was lowered".into(),
            },
        };
        let d = error.to_diagnostic(&self.program.models[index]);
        Refused {
            rendered: self.render(&[d]),
            error,
        }
    }

    fn lower_once(&mut self, index: usize) {
        if matches!(self.lowered[index], Lowering::NotYet) {
            self.lowered[index] = match lower_with_source(&self.program.models[index], &self.source)
            {
                Ok(ir) => Lowering::Done(Box::new(ir)),
                Err(e) => Lowering::Refused(e),
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO: &str = "simulate Fall {
  state h : Length = 10 m
  state h' : Velocity = 0 m/s
  law h'' = −9.81 m/s²
  integrate rk4 step 10 ms
  stop when h ≤ 0 m
}

simulate Decay {
  param λ : Frequency = 0.5 Hz
  state n : Dimensionless = 1
  law n' = −λ·n
  integrate rk4 step 10 ms
  stop when t ≥ 1 s
}
";

    #[test]
    fn bytes_that_are_not_utf8_are_the_only_diagnostic() {
        let mut bytes = TWO.as_bytes().to_vec();
        bytes.insert(3, 0xff);
        let checked = check_and_lower(&bytes, "bad.hph");
        assert_eq!(checked.diagnostics.len(), 1);
        assert_eq!(checked.diagnostics[0].code.as_str(), "PH0008");
        assert!(checked.rendered().contains("bad.hph"));
    }

    #[test]
    fn a_simulation_is_chosen_by_any_spelling_or_as_the_only_one() {
        let checked = check_and_lower(TWO.as_bytes(), "two.hph");
        assert!(
            !(checked.has_errors() || checked.is_refused(0) || checked.is_refused(1)),
            "{}",
            checked.render(&checked.all_diagnostics())
        );
        assert_eq!(checked.select(Some("Decay")), Ok(1));
        assert_eq!(
            checked.select(None),
            Err(SelectError::Several {
                file: "two.hph".into(),
                names: vec!["Fall".into(), "Decay".into()],
            })
        );
        let unknown = checked.select(Some("Rise")).unwrap_err();
        assert_eq!(
            unknown.to_string(),
            "two.hph has no simulation `Rise`; it has: Fall, Decay"
        );
        let none = check(String::new(), "empty.hph");
        assert_eq!(
            none.select(None).unwrap_err().to_string(),
            "empty.hph declares no simulation"
        );
    }

    #[test]
    fn a_simulation_is_lowered_once_and_can_be_taken() {
        let mut checked = check(TWO.to_string(), "two.hph");
        let first = checked.lower(1).map(|ir| ir.info.name.clone()).ok();
        assert_eq!(first.as_deref(), Some("Decay"));
        let taken = checked.take(1).ok().map(|ir| ir.info.name.clone());
        assert_eq!(taken.as_deref(), Some("Decay"));
        // Taken away, it is lowered again on demand.
        assert!(checked.lower(1).is_ok());
    }

    /// 1,200 coordinates in a lagrangian: it checks, and lowering refuses it before work
    /// (PH0121, a derivation past its limit).
    fn past_the_derivation_limit() -> String {
        let list = |v: &str| vec![v; 150].join(", ");
        let mut text = String::from(
            "simulate Chain {\n  param m : Mass = 1 kg\n  param c : Stiffness = 1 N/m\n",
        );
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
    fn what_only_lowering_sees_is_a_refusal_with_its_code() {
        let chain = past_the_derivation_limit();
        let mut checked = check_and_lower(chain.as_bytes(), "chain.hph");
        assert!(!checked.has_errors());
        assert!(checked.is_refused(0));
        let all = checked.all_diagnostics();
        assert_eq!(all.len(), 1);
        assert_eq!(all[0].code.as_str(), "PH0121");
        let refused = checked.take(0).unwrap_err();
        assert!(refused.rendered.contains("error[PH0121]"));
        assert!(refused.rendered.contains("chain.hph"));
    }
}
