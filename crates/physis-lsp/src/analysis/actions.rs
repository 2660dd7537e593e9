//! Code actions: the fixes of diagnostics whose hint has one obvious edit — a fixed-step
//! scheme without a step (PH `MissingStep`: add `step 1 ms`), a lagrangian with nothing to
//! move (`NothingToMove`: declare the velocity state of its first coordinate).

use super::{Analysis, Edit, contains};
use physis_syntax::ast::{ClauseKind, Item};
use physis_syntax::{Code, Diagnostic, Span};
use units::{Base, Dimension};

/// A fix of one diagnostic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    /// What the editor shows.
    pub title: String,
    /// The diagnostic it fixes.
    pub diagnostic: Diagnostic,
    /// The edits, applied together.
    pub edits: Vec<Edit>,
}

fn overlaps(a: Span, b: Span) -> bool {
    a.start <= b.end && b.start <= a.end
}

impl Analysis {
    /// The fixes of the diagnostics that touch `range`.
    pub fn fixes(&self, range: Span) -> Vec<Fix> {
        self.diagnostics()
            .iter()
            .filter(|d| overlaps(d.primary.span, range))
            .filter_map(|d| self.fix(d))
            .collect()
    }

    fn fix(&self, d: &Diagnostic) -> Option<Fix> {
        let at = d.primary.span.start as usize;
        let sim = self.file.items.iter().find_map(|i| match i {
            Item::Simulate(s) if contains(s.span, at) => Some(s),
            _ => None,
        })?;
        match d.code {
            Code::MissingStep => {
                let scheme = sim.clauses.iter().find_map(|c| match &c.kind {
                    ClauseKind::Integrate { scheme, .. } if contains(c.span, at) => Some(scheme),
                    _ => None,
                })?;
                let end = scheme.span.end as usize;
                Some(Fix {
                    title: "add `step 1 ms`".into(),
                    diagnostic: d.clone(),
                    edits: vec![Edit {
                        span: Span::new(end, end),
                        text: " step 1 ms".into(),
                    }],
                })
            }
            Code::NothingToMove if d.message.contains("lagrangian") => {
                // The first coordinate without a velocity state.
                let states: Vec<_> = sim
                    .clauses
                    .iter()
                    .filter_map(|c| match &c.kind {
                        ClauseKind::State { name, ty, .. } => Some((name, ty, c.span)),
                        _ => None,
                    })
                    .collect();
                let (name, ty, span) = states.iter().copied().find(|(n, ..)| {
                    n.primes == 0
                        && !states
                            .iter()
                            .any(|(m, ..)| m.primes == 1 && m.text == n.text)
                })?;
                let (kind, unit) = velocity_of(&ty.kind.text)?;
                let shown = name.span.text(&self.source);
                let line_start = self.source[..span.start as usize]
                    .rfind('\n')
                    .map_or(0, |i| i + 1);
                let indent: String = self.source[line_start..]
                    .chars()
                    .take_while(|c| *c == ' ')
                    .collect();
                let extents = &self.source[ty.kind.span.end as usize..ty.span.end as usize];
                let zero = if extents.is_empty() {
                    format!("0 {unit}")
                } else {
                    let n = ty
                        .extents
                        .first()
                        .and_then(|e| match e {
                            physis_syntax::ast::Extent::Number(n, _) => Some(*n as usize),
                            physis_syntax::ast::Extent::Name(_) => None,
                        })
                        .unwrap_or(1);
                    format!("[{}]", vec![format!("0 {unit}"); n].join(", "))
                };
                let end = span.end as usize;
                Some(Fix {
                    title: format!("declare the velocity state `{shown}'`"),
                    diagnostic: d.clone(),
                    edits: vec![Edit {
                        span: Span::new(end, end),
                        text: format!("\n{indent}state {shown}' : {kind}{extents} = {zero}"),
                    }],
                })
            }
            _ => None,
        }
    }
}

/// The kind and SI unit of the rate of a coordinate of kind `kind`.
fn velocity_of(kind: &str) -> Option<(String, String)> {
    if kind == "Angle" {
        return Some(("AngularVelocity".into(), "rad/s".into()));
    }
    let d: Dimension = units::kind(kind)? / Dimension::base(Base::Time);
    Some((d.kind_name()?.to_string(), d.si_unit()))
}
