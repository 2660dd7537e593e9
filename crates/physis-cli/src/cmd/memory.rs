//! The memory a run needs, estimated from the checked model before anything the size of
//! its state is allocated (lowering included), and the budget it must fit (`docs/limits.md`,
//! "Memory"). A run past the budget is refused with PH0119, naming the grid and the part
//! that does not fit, instead of being killed by the operating system.
//!
//! The estimate is per state slot (one number of a state, a field counting one per node),
//! calibrated on measured peak resident sizes (`docs/limits.md` has the table) and kept
//! above them:
//! - `BASE` bytes for the driver's vectors, the lowered model and the interpreter's fixed
//!   registers, plus `PER_ARRAY` for each field-sized value the laws compute (one register
//!   per node each), plus `PER_STAGE` for each binding of the scheme (its stages);
//! - an implicit scheme on a grid keeps a sparse Jacobian and its LU: `IMPLICIT_LINE` per
//!   slot on a 1-D grid (tridiagonal), `IMPLICIT_PLANE` on a 2-D one (fill-in of the
//!   5-point stencil's factors); without a grid, a dense Jacobian and LU of `dim²` numbers
//!   each, plus the solve's scratch (`3·dim²·8` bytes).
//!
//! `physis run` streams its samples, so recorded samples cost no memory that grows with the
//! run; `plot` keeps at most its `MAX_ROWS` rows.

use physis_check::{CheckedModel, Expr, ExprKind, Shape};
use physis_syntax::{Code, Diagnostic};

/// Bytes per slot the run keeps whatever its laws and scheme.
const BASE: u64 = 448;
/// Bytes per slot for each field-sized value the laws compute.
const PER_ARRAY: u64 = 40;
/// Bytes per slot for each binding of the scheme.
const PER_STAGE: u64 = 40;
/// Bytes per slot of an implicit scheme's Jacobian and LU on a 1-D grid.
const IMPLICIT_LINE: u64 = 640;
/// Bytes per slot of an implicit scheme's Jacobian and LU on a 2-D grid.
const IMPLICIT_PLANE: u64 = 3584;

/// One part of the estimate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    /// What it holds.
    pub what: String,
    /// Bytes.
    pub bytes: u64,
}

/// What a run of one model needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Estimate {
    /// Numbers in the state (every field counted once per node).
    pub slots: u64,
    /// The parts, largest first.
    pub parts: Vec<Part>,
}

impl Estimate {
    /// The whole estimate in bytes (saturating).
    pub fn bytes(&self) -> u64 {
        self.parts
            .iter()
            .fold(0u64, |a, p| a.saturating_add(p.bytes))
    }
}

/// Field-sized values `e` computes (nodes of shape field).
fn field_values(e: &Expr) -> u64 {
    let own = u64::from(e.shape == Shape::Field);
    own + match &e.kind {
        ExprKind::Vector(items) => items.iter().map(field_values).sum(),
        ExprKind::Neg(a) => field_values(a),
        ExprKind::Binary { lhs, rhs, .. } => field_values(lhs) + field_values(rhs),
        ExprKind::Pow { base, exponent } => field_values(base) + field_values(exponent),
        ExprKind::Call { args, .. } => args.iter().map(field_values).sum(),
        ExprKind::Index { base, .. } => field_values(base),
        _ => 0,
    }
}

/// The estimate for `m` (see the module notes).
pub fn estimate(m: &CheckedModel) -> Estimate {
    let nodes = m.grid_nodes() as u64;
    let slots: u64 = m
        .states
        .iter()
        .map(|s| s.shape.len(nodes as usize) as u64)
        .fold(0, u64::saturating_add);
    let arrays: u64 = m.laws.iter().map(|l| field_values(&l.rhs)).sum();
    let scheme = &m.integrate.scheme;
    let stages = scheme.body.len() as u64;
    let per = |b: u64| slots.saturating_mul(b);
    let mut parts = vec![
        Part {
            what: "the state, the driver's vectors and the lowered model".into(),
            bytes: per(BASE),
        },
        Part {
            what: format!("{arrays} field-sized values the laws compute"),
            bytes: per(PER_ARRAY.saturating_mul(arrays)),
        },
        Part {
            what: format!("{stages} stages of `{}`", scheme.name),
            bytes: per(PER_STAGE.saturating_mul(stages)),
        },
    ];
    if scheme.implicit {
        let axes = m.grid.as_ref().map_or(0, |g| g.sizes.len());
        let bytes = match axes {
            0 => slots.saturating_mul(slots).saturating_mul(24),
            1 => per(IMPLICIT_LINE),
            _ => per(IMPLICIT_PLANE),
        };
        let what = if axes == 0 {
            format!(
                "the dense Jacobian and LU of `{}`'s Newton iterations",
                scheme.name
            )
        } else {
            format!(
                "the sparse Jacobian and LU of `{}`'s Newton iterations",
                scheme.name
            )
        };
        parts.push(Part { what, bytes });
    }
    parts.sort_by_key(|p| std::cmp::Reverse(p.bytes));
    Estimate { slots, parts }
}

/// Where the default budget comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// `--memory-budget`.
    Flag,
    /// `MemAvailable` of `/proc/meminfo`.
    Available,
    /// Neither: [`FALLBACK`].
    Fallback,
}

/// The budget when the flag is absent and `/proc/meminfo` cannot be read: 4 GiB.
pub const FALLBACK: u64 = 4 << 30;

/// The budget: the flag's bytes, else the memory the machine has available now
/// (`MemAvailable`, which counts free memory and what the kernel can reclaim), else
/// [`FALLBACK`].
pub fn budget(flag: Option<u64>) -> (u64, Source) {
    if let Some(b) = flag {
        return (b, Source::Flag);
    }
    match std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|t| mem_available(&t))
    {
        Some(b) => (b, Source::Available),
        None => (FALLBACK, Source::Fallback),
    }
}

/// `MemAvailable` in bytes from the text of `/proc/meminfo`.
fn mem_available(text: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let mut words = line.split_whitespace().skip(1);
    let n: u64 = words.next()?.parse().ok()?;
    match words.next() {
        Some("kB") => n.checked_mul(1024),
        None => Some(n),
        Some(_) => None,
    }
}

/// A size for `--memory-budget`: bytes, or a number with `kB`, `MB`, `GB`, `TB` (powers of
/// 1000) or `KiB`, `MiB`, `GiB`, `TiB` (powers of 1024); a space before the unit is allowed.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let split = t.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(t.len());
    let (num, unit) = (t[..split].trim(), t[split..].trim());
    let scale: f64 = match unit {
        "" | "B" => 1.0,
        "kB" | "KB" => 1e3,
        "MB" => 1e6,
        "GB" => 1e9,
        "TB" => 1e12,
        "KiB" => 1024.0,
        "MiB" => 1024.0 * 1024.0,
        "GiB" => 1024.0 * 1024.0 * 1024.0,
        "TiB" => 1024.0 * 1024.0 * 1024.0 * 1024.0,
        _ => {
            return Err(format!(
                "unknown size unit `{unit}` (use B, MB, GB, MiB, GiB …)"
            ));
        }
    };
    let n: f64 = num
        .parse()
        .map_err(|_| format!("`{text}` is not a size such as 4GiB or 500MB"))?;
    let bytes = n * scale;
    if !(1.0..1.8e19).contains(&bytes) {
        return Err(format!("`{text}` is not a size of at least one byte"));
    }
    Ok(bytes.round() as u64)
}

/// A byte count for people: `4.29 GB (4294967296 bytes)`.
pub fn human(bytes: u64) -> String {
    let b = bytes as f64;
    let (v, u) = if b >= 1e12 {
        (b / 1e12, "TB")
    } else if b >= 1e9 {
        (b / 1e9, "GB")
    } else if b >= 1e6 {
        (b / 1e6, "MB")
    } else {
        (b / 1e3, "kB")
    };
    format!("{v:.2} {u} ({bytes} bytes)")
}

/// PH0119 when `est` does not fit `budget`, pointing at the grid (else the integrate clause).
pub fn check(m: &CheckedModel, est: &Estimate, budget: (u64, Source)) -> Option<Diagnostic> {
    let need = est.bytes();
    if need <= budget.0 {
        return None;
    }
    let fields = m.states.iter().filter(|s| s.shape == Shape::Field).count();
    let (span, place) = match &m.grid {
        Some(g) => {
            let sizes: Vec<String> = g.sizes.iter().map(ToString::to_string).collect();
            (
                g.span,
                format!(
                    "the grid [{}] of {} nodes × {fields} field(s), {} numbers in all",
                    sizes.join(", "),
                    m.grid_nodes(),
                    est.slots
                ),
            )
        }
        None => (
            m.integrate.span,
            format!("a state of {} numbers", est.slots),
        ),
    };
    let largest = est
        .parts
        .first()
        .map(|p| format!("; the largest part, {}, needs {}", p.what, human(p.bytes)))
        .unwrap_or_default();
    let from = match budget.1 {
        Source::Flag => "--memory-budget",
        Source::Available => "the memory this machine has available (MemAvailable)",
        Source::Fallback => "the default when /proc/meminfo cannot be read",
    };
    Some(
        Diagnostic::error(
            Code::OutOfMemory,
            span,
            format!(
                "`{}` needs about {} to run, more than the memory budget of {} ({from})",
                m.name,
                human(need),
                human(budget.0)
            ),
        )
        .with_label(format!("{place}{largest}"))
        .with_hint(
            "use a coarser grid, fewer fields or an explicit scheme, or raise the budget \
             with --memory-budget SIZE (docs/limits.md, Memory)",
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_in_both_unit_systems() {
        assert_eq!(parse_size("1000"), Ok(1000));
        assert_eq!(parse_size("4GiB"), Ok(4 << 30));
        assert_eq!(parse_size("1.5 GB"), Ok(1_500_000_000));
        assert_eq!(parse_size("500MiB"), Ok(500 << 20));
        assert!(parse_size("0").is_err());
        assert!(parse_size("-3GB").is_err());
        assert!(parse_size("3 parsecs").is_err());
        assert!(parse_size("1e30").is_err());
    }

    #[test]
    fn mem_available_reads_kilobytes() {
        let text = "MemTotal:       24000000 kB\nMemFree:  1 kB\nMemAvailable:   22000000 kB\n";
        assert_eq!(mem_available(text), Some(22_000_000 * 1024));
        assert_eq!(mem_available("MemTotal: 3 kB\n"), None);
    }
}
