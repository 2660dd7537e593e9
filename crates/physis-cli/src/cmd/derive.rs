//! `physis derive FILE.hph [--sim NAME] [--latex]`: the equations of motion a lagrangian or a
//! hamiltonian implies, as the build derives them (momenta, mass matrix, forces,
//! accelerations or Hamilton's equations, energy), in Unicode or LaTeX.

use physis_ir::lower::{Derivation, derive_motion};
use physis_symbolic::{Acceleration, DerivedMotion, Graph, NodeId, Notation, StateComponent};
use std::fmt::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `physis derive`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The .hph file.
    file: PathBuf,
    /// Only this simulation (default: every simulation in the file).
    #[arg(long)]
    sim: Option<String>,
    /// Print LaTeX (an `aligned` block per simulation) instead of Unicode text.
    #[arg(long)]
    latex: bool,
}

pub fn run(args: &Args) -> ExitCode {
    let checked = match super::open(&args.file) {
        Ok(c) => c,
        Err(failure) => return failure.report(),
    };
    let models: Vec<_> = match &args.sim {
        Some(sim) => match checked.select(Some(sim)) {
            Ok(index) => vec![checked.model(index)],
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        },
        None => checked.program.models.iter().collect(),
    };
    let notation = if args.latex {
        Notation::Latex
    } else {
        Notation::Unicode
    };
    let mut failed = false;
    let mut out = String::new();
    for m in models {
        match derive_motion(m) {
            Ok(Some(mut d)) => match print(&m.name, &mut d, notation) {
                Some(text) => {
                    if !out.is_empty() {
                        out.push('\n');
                    }
                    out.push_str(&text);
                }
                None => {
                    failed = true;
                    eprint!("{}", checked.render(&[too_long(m)]));
                }
            },
            Ok(None) => {
                if !out.is_empty() {
                    out.push('\n');
                }
                let _ = writeln!(
                    out,
                    "{} {}: no lagrangian or hamiltonian; its laws are its equations of motion",
                    comment(notation),
                    m.name
                );
            }
            Err(d) => {
                failed = true;
                eprint!("{}", checked.render(&[*d]));
            }
        }
    }
    print!("{out}");
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// PH0121 at the energy: its derived equations print longer than [`MAX_DERIVE_TEXT`].
fn too_long(m: &physis_check::CheckedModel) -> physis_syntax::Diagnostic {
    let mech = &m.mechanics;
    let span = mech
        .lagrangian
        .as_ref()
        .or(mech.hamiltonian.as_ref())
        .map_or(m.span, |e| e.span);
    physis_syntax::Diagnostic::error(
        physis_syntax::Code::DerivationTooLarge,
        span,
        format!(
            "the equations derived from this energy print longer than {MAX_DERIVE_TEXT} bytes \
             (16 MiB)"
        ),
    )
    .with_hint("a sub-expression is printed once per use; `physis run` still runs the model")
}

fn comment(n: Notation) -> &'static str {
    if n == Notation::Latex { "%" } else { "#" }
}

/// One equation: a left side and a right side, aligned in LaTeX.
struct Lines {
    n: Notation,
    text: String,
}

impl Lines {
    /// A heading, in Unicode text or as a LaTeX comment line.
    fn heading(&mut self, what: &str, tex: &str) {
        match self.n {
            Notation::Latex => {
                let _ = writeln!(self.text, "  % {tex}");
            }
            _ => {
                let _ = writeln!(self.text, "  {what}");
            }
        }
    }

    fn eq(&mut self, lhs: &str, rhs: &str) {
        match self.n {
            Notation::Latex => {
                let _ = writeln!(self.text, "  {lhs} &= {rhs} \\\\");
            }
            _ => {
                let _ = writeln!(self.text, "    {lhs} = {rhs}");
            }
        }
    }
}

/// The longest text `physis derive` prints for one simulation (docs/limits.md, Derivation):
/// a derived expression is a DAG printed as a tree, whose text can grow as a power of the
/// energy's depth.
pub const MAX_DERIVE_TEXT: usize = 16 << 20;

/// The equations as text, or `None` when they print longer than [`MAX_DERIVE_TEXT`].
fn print(model: &str, d: &mut Derivation, n: Notation) -> Option<String> {
    let latex = n == Notation::Latex;
    let name = |d: &mut Derivation, c: StateComponent| -> String {
        match d.state_node(c) {
            Some(node) => d.graph.print(node, n),
            None => "?".into(),
        }
    };
    // An expression whose text passes the bound prints as nothing and marks the overflow.
    let overflow = std::cell::Cell::new(false);
    let expr = |g: &Graph, id: NodeId| {
        g.print_within(id, n, MAX_DERIVE_TEXT).unwrap_or_else(|| {
            overflow.set(true);
            String::new()
        })
    };
    let motion = d.motion.clone();
    let kind = match &motion {
        DerivedMotion::Hamilton { .. } => "hamiltonian",
        _ => "lagrangian",
    };
    let mut l = Lines {
        n,
        text: String::new(),
    };
    match &motion {
        DerivedMotion::Lagrange {
            coordinates,
            velocities,
            equations,
        } => {
            let q: Vec<String> = coordinates.iter().map(|c| name(d, *c)).collect();
            let v: Vec<String> = velocities.iter().map(|c| name(d, *c)).collect();
            let sub = |s: &str| {
                if latex {
                    format!("_{{{s}}}")
                } else {
                    format!("[{s}]")
                }
            };
            l.heading("momenta p = ∂L/∂q̇", "momenta p = dL/dqdot");
            for (i, p) in equations.momenta.iter().enumerate() {
                l.eq(&format!("p{}", sub(&q[i])), &expr(&d.graph, *p));
            }
            l.heading(
                "mass matrix M = ∂p/∂q̇ (symmetric; zero entries omitted)",
                "mass matrix M = dp/dqdot (symmetric; zero entries omitted)",
            );
            for (i, row) in equations.mass.iter().enumerate() {
                for (j, m) in row.iter().enumerate().skip(i) {
                    if *m != Graph::ZERO {
                        let ij = if latex {
                            format!("{},{}", q[i], q[j])
                        } else {
                            format!("{}, {}", q[i], q[j])
                        };
                        l.eq(&format!("M{}", sub(&ij)), &expr(&d.graph, *m));
                    }
                }
            }
            l.heading(
                "forces b = ∂L/∂q − (∂p/∂q)·q̇ − ∂p/∂t − ∂D/∂q̇ + Q",
                "forces b = dL/dq - (dp/dq) qdot - dp/dt - dD/dqdot + Q",
            );
            for (i, b) in equations.force.iter().enumerate() {
                l.eq(&format!("b{}", sub(&q[i])), &expr(&d.graph, *b));
            }
            match &equations.acceleration {
                Acceleration::Explicit(a) => {
                    l.heading(
                        "accelerations a = b/M (M is diagonal)",
                        "accelerations a = b/M (M is diagonal)",
                    );
                    for (i, a) in a.iter().enumerate() {
                        let lhs = if latex {
                            format!("\\dot{{{}}}", v[i])
                        } else {
                            format!("{}'", v[i])
                        };
                        l.eq(&lhs, &expr(&d.graph, *a));
                    }
                }
                _ => {
                    let vs = v.join(", ");
                    let what = format!(
                        "accelerations: M·a = b, solved at run time by elimination \
                         (a = rates of {vs})"
                    );
                    l.heading(&what, &what.replace('·', " "));
                }
            }
            l.heading("energy E = Σ q̇·p − L", "energy E = sum qdot p - L");
            l.eq("E", &expr(&d.graph, equations.energy));
        }
        DerivedMotion::Hamilton {
            positions,
            momenta,
            equations,
        } => {
            let dot = |s: &str| {
                if latex {
                    format!("\\dot{{{s}}}")
                } else {
                    format!("{s}'")
                }
            };
            l.heading("q' = ∂H/∂p", "qdot = dH/dp");
            for (i, r) in equations.position_rates.iter().enumerate() {
                let q = name(d, positions[i]);
                l.eq(&dot(&q), &expr(&d.graph, *r));
            }
            l.heading("p' = −∂H/∂q + Q", "pdot = -dH/dq + Q");
            for (i, r) in equations.momentum_rates.iter().enumerate() {
                let p = name(d, momenta[i]);
                l.eq(&dot(&p), &expr(&d.graph, *r));
            }
            l.heading("energy E = H", "energy E = H");
            l.eq("E", &expr(&d.graph, equations.energy));
        }
        _ => l.heading(
            "equations of a form this command does not print",
            "equations of a form this command does not print",
        ),
    }
    if overflow.get() || l.text.len() > MAX_DERIVE_TEXT {
        return None;
    }
    let mut out = String::new();
    if latex {
        let _ = writeln!(out, "% {model}: from its {kind}");
        out.push_str("\\begin{aligned}\n");
        out.push_str(&l.text);
        out.push_str("\\end{aligned}\n");
    } else {
        let _ = writeln!(out, "{model}: from its {kind}");
        out.push_str(&l.text);
    }
    Some(out)
}
