//! Markdown tables of timed contenders: times with ratios to named peers (the stiff
//! work-precision tables are built in `stiff.rs`), and the cell formats they share.

use super::anchors::Outcome;
use super::timing::Timed;

/// One table: a title, notes printed under it, a header and rows of cells.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// Heading.
    pub title: String,
    /// Lines under the table.
    pub notes: Vec<String>,
    /// Column names.
    pub header: Vec<String>,
    /// Cells, row by row.
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// The table as Markdown.
    pub fn to_markdown(&self) -> String {
        let mut s = format!("### {}\n\n| {} |\n|", self.title, self.header.join(" | "));
        s.push_str(&"---|".repeat(self.header.len()));
        s.push('\n');
        for r in &self.rows {
            s.push_str(&format!("| {} |\n", r.join(" | ")));
        }
        for n in &self.notes {
            s.push_str(&format!("\n{n}\n"));
        }
        s
    }
}

/// Seconds as µs or ms.
pub fn fmt_time(s: f64) -> String {
    if !s.is_finite() {
        "—".into()
    } else if s < 1e-3 {
        format!("{:.2} µs", s * 1e6)
    } else if s < 1.0 {
        format!("{:.3} ms", s * 1e3)
    } else {
        format!("{s:.2} s")
    }
}

/// An error in two significant digits.
pub fn fmt_err(e: f64) -> String {
    if e.is_finite() {
        format!("{e:.1e}")
    } else {
        "∞".into()
    }
}

/// A ratio as `0.52×`.
pub fn fmt_ratio(r: f64) -> String {
    if r.is_finite() {
        format!("{r:.2}×")
    } else {
        "—".into()
    }
}

fn evaluations(o: &Outcome) -> String {
    if o.evaluations == 0 {
        "—".into()
    } else {
        o.evaluations.to_string()
    }
}

/// Times with ratios to the contenders named in `peers` (column name, index in `timed`).
pub fn ratios_table(
    title: &str,
    note: &str,
    timed: &[Timed],
    error: impl Fn(&Outcome) -> f64,
    peers: &[(&str, usize)],
) -> Table {
    let mut header: Vec<String> = [
        "contender",
        "median time/run",
        "error",
        "steps",
        "rate evals",
    ]
    .map(String::from)
    .to_vec();
    header.extend(peers.iter().map(|(n, _)| format!("ratio to {n}")));
    let rows = timed
        .iter()
        .map(|t| {
            let o = &t.outcome;
            let mut r = vec![t.name.clone()];
            if let Some(f) = &o.failure {
                r.push(format!("failed: {f}"));
                r.extend(std::iter::repeat_n(String::new(), header.len() - 2));
                return r;
            }
            r.extend([
                fmt_time(t.median_s),
                fmt_err(error(o)),
                o.steps.to_string(),
                evaluations(o),
            ]);
            r.extend(
                peers
                    .iter()
                    .map(|(_, i)| fmt_ratio(t.median_s / timed[*i].median_s)),
            );
            r
        })
        .collect();
    Table {
        title: title.into(),
        notes: vec![note.into()],
        header,
        rows,
    }
}
