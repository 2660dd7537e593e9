//! Random linear models with known solutions: `z' = A·z` over every state component,
//! written as `.hph` text. States are dimensionless (a velocity is a `Frequency`), so each
//! coefficient's unit follows from where it stands: `Hz` for a position in a rate, `Hz²`
//! for a position in an acceleration, none for a velocity in a rate, `Hz` for a velocity
//! in an acceleration.

use rand::{Rng, RngExt};

use crate::expm::Matrix;
use crate::scheme::Scheme;

/// What a generated model may contain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Family {
    /// First-order laws (`f' = …`).
    pub first_order: bool,
    /// Second-order laws (`y'' = …`).
    pub second_order: bool,
    /// Velocities may appear in accelerations (and in rates).
    pub velocity_terms: bool,
}

impl Family {
    /// First-order laws only.
    pub const FIRST: Family = Family {
        first_order: true,
        second_order: false,
        velocity_terms: true,
    };
    /// Second-order laws only, velocities allowed in accelerations.
    pub const SECOND: Family = Family {
        first_order: false,
        second_order: true,
        velocity_terms: true,
    };
    /// Second-order laws only, accelerations reading positions only (verlet, leapfrog).
    pub const POSITIONS: Family = Family {
        first_order: false,
        second_order: true,
        velocity_terms: false,
    };
    /// First- and second-order laws side by side.
    pub const MIXED: Family = Family {
        first_order: true,
        second_order: true,
        velocity_terms: true,
    };

    /// The widest family a scheme accepts, within `self`.
    pub fn for_scheme(self, scheme: Scheme) -> Family {
        if scheme.second_order_only() {
            Family::POSITIONS
        } else {
            self
        }
    }
}

/// A generated model and its exact solution operator.
#[derive(Debug, Clone)]
pub struct LinearModel {
    /// The `.hph` source.
    pub text: String,
    /// `A` of `z' = A·z`, over the components in observe order and a last, hidden one
    /// that stays 1 (the column of the laws' constant terms).
    pub a: Matrix,
    /// `z(0)`.
    pub z0: Vec<f64>,
    /// Each component's name as the model reads it (`w1'[0]`), in observe order.
    pub labels: Vec<String>,
    /// For each component, the index of its velocity if it is a second-order position.
    pub velocity_of: Vec<Option<usize>>,
    /// The time the run stops at (s).
    pub t_end: f64,
}

impl LinearModel {
    /// `z(t) = e^{tA}·z(0)`.
    pub fn exact(&self, t: f64) -> Vec<f64> {
        crate::expm::expm(&self.a.scaled(t)).apply(&self.z0)
    }
}

/// How a block of states is declared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Block {
    /// `state f : Dimensionless[len]` with a first-order law.
    First { len: usize },
    /// `state f : Dimensionless = c` with `law f' = 0 Hz`.
    Constant,
    /// `state y : Dimensionless[len]`, `state y' : Frequency[len]` and `law y'' = …`.
    Second { len: usize },
}

/// One component of `z`.
#[derive(Debug, Clone)]
struct Component {
    label: String,
    /// A velocity (dimension `Frequency`) rather than a position.
    velocity: bool,
}

/// A number with three decimals in `[-1, 1]`, so the text states it exactly.
fn coefficient(rng: &mut impl Rng, scale: f64) -> f64 {
    let v: f64 = rng.random_range(-1.0..=1.0) * scale;
    (v * 1000.0).round() / 1000.0
}

fn decimal(v: f64) -> String {
    let s = format!("{v}");
    if s.contains('.') || s.contains('e') {
        s
    } else {
        format!("{s}.0")
    }
}

/// Builds `text` for one law or initial value of a block of `len` components.
fn vector(parts: &[String], len: usize) -> String {
    if len == 1 {
        parts[0].clone()
    } else {
        format!("[{}]", parts.join(", "))
    }
}

/// A random model of `family` for `scheme`, stopping at `t_end`.
pub fn generate(
    rng: &mut impl Rng,
    family: Family,
    scheme: Scheme,
    h: f64,
    tolerance: f64,
    t_end: f64,
) -> LinearModel {
    let family = family.for_scheme(scheme);
    let mut blocks = Vec::new();
    let count = rng.random_range(1..=4usize);
    while blocks.len() < count || !covers(&blocks, family) {
        let len = if rng.random_bool(0.3) { 2 } else { 1 };
        let block = match rng.random_range(0..3u32) {
            0 if family.first_order => Block::First { len },
            1 if family.first_order => Block::Constant,
            _ if family.second_order => Block::Second { len },
            _ => Block::First { len },
        };
        blocks.push(block);
        if blocks.len() > 5 {
            break;
        }
    }
    // Components in declaration order: positions of a block, then its velocities.
    let mut comps = Vec::new();
    let mut names = Vec::new();
    for (b, block) in blocks.iter().enumerate() {
        let name = match block {
            Block::First { .. } => format!("f{b}"),
            Block::Constant => format!("c{b}"),
            Block::Second { .. } => format!("y{b}"),
        };
        let (len, second) = match *block {
            Block::First { len } => (len, false),
            Block::Constant => (1, false),
            Block::Second { len } => (len, true),
        };
        let index = |i: usize| {
            if len == 1 {
                String::new()
            } else {
                format!("[{i}]")
            }
        };
        for i in 0..len {
            comps.push(Component {
                label: format!("{name}{}", index(i)),
                velocity: false,
            });
        }
        if second {
            for i in 0..len {
                comps.push(Component {
                    label: format!("{name}'{}", index(i)),
                    velocity: true,
                });
            }
        }
        names.push(name);
    }
    // A hidden last component, constant 1, carries the laws' constant terms.
    let n = comps.len() + 1;
    let mut a = Matrix::zeros(n);
    let mut z0 = vec![0.0; n];
    z0[n - 1] = 1.0;
    let mut params: Vec<String> = Vec::new();
    let mut states = Vec::new();
    let mut laws = Vec::new();
    let mut velocity_of = vec![None; n];
    let mut at = 0;
    for (block, name) in blocks.iter().zip(&names) {
        match *block {
            Block::Constant => {
                z0[at] = coefficient(rng, 1.0);
                states.push(format!(
                    "  state {name} : Dimensionless = {}",
                    decimal(z0[at])
                ));
                laws.push(format!("  law {name}' = 0 Hz"));
                at += 1;
            }
            Block::First { len } => {
                let mut init = Vec::new();
                let mut rows = Vec::new();
                for i in 0..len {
                    z0[at + i] = coefficient(rng, 1.0);
                    init.push(decimal(z0[at + i]));
                    rows.push(row(
                        rng,
                        &comps,
                        &mut a,
                        &mut params,
                        (at + i, at + i),
                        false,
                        family,
                    ));
                }
                let shape = if len == 1 {
                    String::new()
                } else {
                    format!("[{len}]")
                };
                states.push(format!(
                    "  state {name} : Dimensionless{shape} = {}",
                    vector(&init, len)
                ));
                laws.push(format!("  law {name}' = {}", vector(&rows, len)));
                at += len;
            }
            Block::Second { len } => {
                let (mut init, mut vinit, mut rows) = (Vec::new(), Vec::new(), Vec::new());
                for i in 0..len {
                    z0[at + i] = coefficient(rng, 1.0);
                    init.push(decimal(z0[at + i]));
                    z0[at + len + i] = coefficient(rng, 1.0);
                    vinit.push(format!("{} Hz", decimal(z0[at + len + i])));
                    a.set(at + i, at + len + i, 1.0);
                    velocity_of[at + i] = Some(at + len + i);
                    rows.push(row(
                        rng,
                        &comps,
                        &mut a,
                        &mut params,
                        (at + len + i, at + i),
                        true,
                        family,
                    ));
                }
                let shape = if len == 1 {
                    String::new()
                } else {
                    format!("[{len}]")
                };
                states.push(format!(
                    "  state {name} : Dimensionless{shape} = {}",
                    vector(&init, len)
                ));
                states.push(format!(
                    "  state {name}' : Frequency{shape} = {}",
                    vector(&vinit, len)
                ));
                laws.push(format!("  law {name}'' = {}", vector(&rows, len)));
                at += 2 * len;
            }
        }
    }
    let mut text = String::from(
        "// Generated by physis-oracle: a linear model with a known solution.\nsimulate Linear {\n",
    );
    for p in &params {
        text.push_str(p);
        text.push('\n');
    }
    for line in states.iter().chain(&laws) {
        text.push_str(line);
        text.push('\n');
    }
    text.push_str(&format!("  {}\n", scheme.clause(h, tolerance)));
    for (i, c) in comps.iter().enumerate() {
        text.push_str(&format!("  observe z{i} ≔ {}\n", c.label));
    }
    text.push_str(&format!("  stop when t ≥ {} s\n}}\n", decimal(t_end)));
    LinearModel {
        text,
        a,
        z0,
        labels: comps.into_iter().map(|c| c.label).collect(),
        velocity_of,
        t_end,
    }
}

/// Whether the blocks have each kind of law the family asks for.
fn covers(blocks: &[Block], family: Family) -> bool {
    let first = blocks
        .iter()
        .any(|b| matches!(b, Block::First { .. } | Block::Constant));
    let second = blocks.iter().any(|b| matches!(b, Block::Second { .. }));
    (!family.first_order || first) && (!family.second_order || second)
}

/// The right side of component `r`'s law (an acceleration when `acceleration`), filling
/// row `r` of `a`, where `own` is the position the law moves (always read, so no law is
/// empty); a coefficient is now and then a param, declared into `params`.
fn row(
    rng: &mut impl Rng,
    comps: &[Component],
    a: &mut Matrix,
    params: &mut Vec<String>,
    (r, own): (usize, usize),
    acceleration: bool,
    family: Family,
) -> String {
    let mut terms = Vec::new();
    for (j, c) in comps.iter().enumerate() {
        if c.velocity && !family.velocity_terms {
            continue;
        }
        if j != own && !rng.random_bool(0.5) {
            continue;
        }
        let mut v = coefficient(rng, 1.0);
        if v == 0.0 && j == own {
            v = 0.5;
        }
        if v == 0.0 {
            continue;
        }
        a.set(r, j, v);
        // The unit of the coefficient: rate [Hz] or acceleration [Hz²] over position
        // [1] or velocity [Hz].
        let unit = match (acceleration, c.velocity) {
            (false, false) | (true, true) => "Hz",
            (true, false) => "Hz²",
            (false, true) => "",
        };
        let term = if rng.random_bool(0.25) && unit != "Hz²" {
            let name = format!("k{}", params.len());
            let kind = if unit.is_empty() {
                "Dimensionless"
            } else {
                "Frequency"
            };
            let value = if unit.is_empty() {
                decimal(v.abs())
            } else {
                format!("{} {unit}", decimal(v.abs()))
            };
            params.push(format!("  param {name} : {kind} = {value}"));
            let sign = if v < 0.0 { "−" } else { "" };
            format!("{sign}{name}·{}", c.label)
        } else if unit.is_empty() {
            format!("{}·{}", decimal(v), c.label)
        } else {
            format!("({} {unit})·{}", decimal(v), c.label)
        };
        terms.push(term);
    }
    if rng.random_bool(0.3) {
        // A constant term (the issue's `z' = 1 m/s` beside `y'' = −g₀`).
        let v = coefficient(rng, 1.0);
        a.set(r, a.n - 1, v);
        let unit = if acceleration { "Hz²" } else { "Hz" };
        terms.push(format!("({} {unit})", decimal(v)));
    }
    if terms.is_empty() {
        if acceleration {
            "0 Hz²".into()
        } else {
            "0 Hz".into()
        }
    } else {
        terms.join(" + ")
    }
}
