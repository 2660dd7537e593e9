//! What `plot` can draw: `t`, observes by name, and state components (`x[0]`, `v`), each
//! with its SI unit and quantity kind; and the grid a field lives on.

use physis_check::CheckedModel;
use physis_runtime::ModelInfo;

use super::Failure;

/// Where a column's values come from in a sample.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The sample time.
    Time,
    /// Observe `i`.
    Observe(usize),
    /// State slot `i`.
    Slot(usize),
}

/// A column to draw.
#[derive(Debug, Clone, PartialEq)]
pub struct ColumnSpec {
    /// As shown (`height`, `x[0]`).
    pub name: String,
    /// SI unit text (`m`).
    pub unit: String,
    /// Quantity kind (`Length`).
    pub quantity: String,
    /// Where it comes from.
    pub source: Source,
}

impl ColumnSpec {
    /// The value of this column in a sample.
    pub fn value(&self, t: f64, state: &[f64], observe: &[f64]) -> f64 {
        match self.source {
            Source::Time => t,
            Source::Observe(i) => observe.get(i).copied().unwrap_or(f64::NAN),
            Source::Slot(i) => state.get(i).copied().unwrap_or(f64::NAN),
        }
    }
}

/// Unit and quantity of the checked state named `name`.
pub fn state_unit(checked: &CheckedModel, name: &str) -> (String, String) {
    match checked.state(name) {
        Some(id) => {
            let s = &checked.states[id.0];
            (s.dim.si_unit(), s.kind.clone())
        }
        None => (String::new(), String::new()),
    }
}

/// The names `--y` and `--x` accept, for messages.
fn choices(info: &ModelInfo, checked: &CheckedModel) -> String {
    let mut names = vec!["t".to_string()];
    names.extend(info.observes.iter().map(|o| o.name.clone()));
    // Vectors and arrays of vectors; a 2-D field is plotted with --field.
    let listed = |name: &str| {
        checked
            .state(name)
            .is_some_and(|id| checked.states[id.0].element.is_some())
    };
    for s in (info.states.iter()).filter(|s| s.shape.len() <= 1 || listed(&s.name)) {
        match s.shape.as_slice() {
            [n] if *n > 1 => names.push(format!("{}[0..{}]", s.name, n - 1)),
            [r, w] => names.push(format!("{}[0..{}][0..{}]", s.name, r - 1, w - 1)),
            _ => names.push(s.name.clone()),
        }
    }
    names.join(", ")
}

/// Resolves `name` (`t`, an observe, `x` for every component of state x, `x[1]`) to
/// one or more columns.
pub fn resolve(
    name: &str,
    info: &ModelInfo,
    checked: &CheckedModel,
    fields: &[String],
) -> Result<Vec<ColumnSpec>, Failure> {
    let key = physis_syntax::lexer::normalize_name(name.trim());
    let same = |other: &str| physis_syntax::lexer::normalize_name(other) == key;
    if key == "t" {
        return Ok(vec![ColumnSpec {
            name: "t".into(),
            unit: "s".into(),
            quantity: "Time".into(),
            source: Source::Time,
        }]);
    }
    if let Some((i, o)) = info
        .observes
        .iter()
        .enumerate()
        .find(|(_, o)| same(&o.name))
    {
        return Ok(vec![ColumnSpec {
            name: o.name.clone(),
            unit: o.unit.clone(),
            quantity: o.quantity.clone(),
            source: Source::Observe(i),
        }]);
    }
    // `x`, `x[1]`, and for an array of vectors `q[3]`, `q[3][1]` or `q[3, 1]`.
    let (base, index) = match key.find('[') {
        Some(at) if key.ends_with(']') => {
            let inner = &key[at + 1..key.len() - 1];
            let mut index = Vec::new();
            for part in inner.split("][").flat_map(|p| p.split(',')) {
                index.push(part.trim().parse::<usize>().map_err(|_| {
                    Failure::usage(format!("error: `{name}`: the index must be a whole number"))
                })?);
            }
            (key[..at].trim().to_string(), index)
        }
        _ => (key.clone(), Vec::new()),
    };
    let unknown = || {
        Failure::usage(format!(
            "error: `{}` has no column `{name}`; it has: {}",
            info.name,
            choices(info, checked)
        ))
    };
    let state = info
        .states
        .iter()
        .find(|s| physis_syntax::lexer::normalize_name(&s.name) == base)
        .ok_or_else(unknown)?;
    if fields
        .iter()
        .any(|f| physis_syntax::lexer::normalize_name(f) == base)
    {
        return Err(Failure::usage(format!(
            "error: `{}` is a field; plot it with --field {}",
            state.name, state.name
        )));
    }
    let (unit, quantity) = state_unit(checked, &state.name);
    let column = |k: usize, shown: String| ColumnSpec {
        name: shown,
        unit: unit.clone(),
        quantity: quantity.clone(),
        source: Source::Slot(state.offset + k),
    };
    let out_of_range = |k: usize, n: usize| {
        Failure::usage(format!(
            "error: `{}` has {n} component(s); index {k} is out of range",
            state.name
        ))
    };
    if let [rows, width] = state.shape[..] {
        // An array of vectors, stored row by row: `q[j][k]` is slot j·width + k.
        let cell = |j: usize, k: usize| column(j * width + k, format!("{}[{j}][{k}]", state.name));
        return match index[..] {
            [] => Ok((0..rows)
                .flat_map(|j| (0..width).map(move |k| (j, k)))
                .map(|(j, k)| cell(j, k))
                .collect()),
            [j] if j < rows => Ok((0..width).map(|k| cell(j, k)).collect()),
            [j, k] if j < rows && k < width => Ok(vec![cell(j, k)]),
            [j, ..] if j >= rows => Err(Failure::usage(format!(
                "error: `{}` has {rows} vector(s); index {j} is out of range",
                state.name
            ))),
            [_, k] => Err(out_of_range(k, width)),
            _ => Err(unknown()),
        };
    }
    match (&index[..], state.len()) {
        ([], 1) if state.shape.is_empty() => Ok(vec![column(0, state.name.clone())]),
        ([], n) => Ok((0..n)
            .map(|k| column(k, format!("{}[{k}]", state.name)))
            .collect()),
        (&[k], n) if k < n => Ok(vec![column(k, format!("{}[{k}]", state.name))]),
        (&[k], n) => Err(out_of_range(k, n)),
        _ => Err(unknown()),
    }
}

/// Every non-field state component (what a model without observes plots by default).
pub fn all_states(
    info: &ModelInfo,
    checked: &CheckedModel,
    fields: &[String],
) -> Result<Vec<ColumnSpec>, Failure> {
    let mut out = Vec::new();
    for s in info.states.iter().filter(|s| !fields.contains(&s.name)) {
        out.extend(resolve(&s.name, info, checked, fields)?);
    }
    Ok(out)
}

/// A field's grid: one axis per coordinate, nodes evenly spaced with both ends included, or
/// N nodes over one period for a periodic field (as the lowering places them).
pub fn grid_axes(checked: &CheckedModel, periodic: bool) -> Vec<physis_plot::GridAxis> {
    let Some(g) = &checked.grid else {
        return Vec::new();
    };
    let unit = g.dim.si_unit();
    g.coords
        .iter()
        .zip(&g.sizes)
        .zip(g.from.iter().zip(&g.to))
        .map(|((name, &n), (&a, &b))| physis_plot::GridAxis {
            name: name.clone(),
            unit: unit.clone(),
            nodes: (0..n)
                .map(|k| {
                    let intervals = if periodic { n } else { n.saturating_sub(1) };
                    if intervals > 0 {
                        a + (b - a) * k as f64 / intervals as f64
                    } else {
                        a
                    }
                })
                .collect(),
        })
        .collect()
}

/// Names of the model's fields (states declared with `field`).
pub fn field_names(checked: &CheckedModel) -> Vec<String> {
    checked
        .states
        .iter()
        .filter(|s| s.is_field)
        .map(|s| s.name.clone())
        .collect()
}
