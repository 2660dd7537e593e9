//! Parameter sets and sweeps: what an ensemble varies from member to member.
//!
//! A sweep is a list of axes, each a parameter name and its values, written
//! `NAME=a..b:count` (`count` evenly spaced values from `a` to `b`, both included; `a > b`
//! counts down) or `NAME=v1,v2,...`. Several axes give their cartesian product, the first
//! axis varying slowest (like nested loops written in the order given). Value texts may
//! carry units: a conversion closure turns `(name, text)` into an SI value, so the CLI can
//! use the checker's unit parsing while the runtime stays free of it.

use std::fmt;

use serde::Serialize;
use serde::ser::SerializeMap;
use thiserror::Error;

/// Most parameter sets a sweep may describe (a guard against `k=0..1:1e12` typos).
pub const MAX_SETS: usize = 10_000_000;

/// Parameter overrides for one member: `(name, SI value)` pairs in axis order. How a model
/// applies them is the factory's business (unknown names are its errors to report).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ParamSet(pub Vec<(String, f64)>);

impl ParamSet {
    /// No overrides (the model's defaults).
    pub fn new() -> Self {
        Self::default()
    }

    /// The value given for `name`, if any.
    pub fn get(&self, name: &str) -> Option<f64> {
        self.0.iter().find(|(n, _)| n == name).map(|&(_, v)| v)
    }

    /// The `(name, value)` pairs in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, f64)> {
        self.0.iter().map(|(n, v)| (n.as_str(), *v))
    }

    /// Number of overrides.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True when nothing is overridden.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Display for ParamSet {
    /// `k=2, m=0.5` (values in SI), or `defaults` when empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("defaults");
        }
        for (i, (n, v)) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{n}={v:?}")?;
        }
        Ok(())
    }
}

impl Serialize for ParamSet {
    /// A JSON object `{"k": 2.0, ...}` in axis order.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (n, v) in &self.0 {
            m.serialize_entry(n, v)?;
        }
        m.end()
    }
}

/// Why a sweep could not be built.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum SweepError {
    /// No `=` between the name and the values.
    #[error("sweep `{spec}` has no `=`: write NAME=a..b:count or NAME=v1,v2,...")]
    MissingEquals {
        /// The text given.
        spec: String,
    },
    /// Nothing before the `=`.
    #[error("sweep `{spec}` names no parameter")]
    EmptyName {
        /// The text given.
        spec: String,
    },
    /// An empty value (`k=`, `k=1,,2`, `k=..2:3`).
    #[error("sweep of `{name}` has an empty value in `{spec}`")]
    EmptyValue {
        /// The parameter.
        name: String,
        /// The text given.
        spec: String,
    },
    /// A value the conversion refused.
    #[error("sweep of `{name}`: value `{text}` is not valid: {message}")]
    BadValue {
        /// The parameter.
        name: String,
        /// The value text.
        text: String,
        /// The conversion's message.
        message: String,
    },
    /// A value that converted to NaN or an infinity.
    #[error("sweep of `{name}`: value `{text}` is not finite")]
    NonFinite {
        /// The parameter.
        name: String,
        /// The value text.
        text: String,
    },
    /// A range with no `:count`.
    #[error("sweep of `{name}`: the range `{spec}` needs a count (`a..b:count`)")]
    MissingCount {
        /// The parameter.
        name: String,
        /// The text given.
        spec: String,
    },
    /// A count that is not a whole number.
    #[error("sweep of `{name}`: count `{text}` is not a whole number")]
    BadCount {
        /// The parameter.
        name: String,
        /// The count text.
        text: String,
    },
    /// A count of zero.
    #[error("sweep of `{name}`: count must be at least 1")]
    ZeroCount {
        /// The parameter.
        name: String,
    },
    /// One value asked of a range with two different ends.
    #[error("sweep of `{name}`: a range from {from} to {to} needs a count of at least 2")]
    CountOne {
        /// The parameter.
        name: String,
        /// Start of the range (SI).
        from: f64,
        /// End of the range (SI).
        to: f64,
    },
    /// The same parameter swept twice.
    #[error("parameter `{name}` is swept twice")]
    Duplicate {
        /// The parameter.
        name: String,
    },
    /// More parameter sets than [`MAX_SETS`].
    #[error("the sweep describes {sets} parameter sets; at most {max} are allowed", max = MAX_SETS)]
    TooMany {
        /// Sets described (saturating).
        sets: u128,
    },
}

/// One swept parameter and its values (SI).
#[derive(Debug, Clone, PartialEq)]
pub struct Axis {
    /// Parameter name as written.
    pub name: String,
    /// Its values, in order.
    pub values: Vec<f64>,
}

/// The cartesian product of one or more axes; empty means one set with no overrides.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Sweep {
    axes: Vec<Axis>,
}

/// Plain numbers: the conversion used when values carry no units.
pub fn plain_number(_name: &str, text: &str) -> Result<f64, String> {
    text.parse::<f64>().map_err(|e| e.to_string())
}

/// `count` evenly spaced values from `a` to `b`, both ends exact (like NumPy's
/// `linspace`: `a + i·(b − a)/(count − 1)`, last value set to `b`).
pub fn linspace(a: f64, b: f64, count: usize) -> Vec<f64> {
    if count == 1 {
        return vec![a];
    }
    let step = (b - a) / (count - 1) as f64;
    let mut v: Vec<f64> = (0..count).map(|i| a + i as f64 * step).collect();
    if let Some(last) = v.last_mut() {
        *last = b;
    }
    v
}

impl Sweep {
    /// No axes: one parameter set with no overrides.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds an axis with explicit SI values.
    pub fn axis(mut self, name: &str, values: Vec<f64>) -> Result<Self, SweepError> {
        if name.trim().is_empty() {
            return Err(SweepError::EmptyName { spec: name.into() });
        }
        if self.axes.iter().any(|a| a.name == name) {
            return Err(SweepError::Duplicate { name: name.into() });
        }
        if values.is_empty() {
            return Err(SweepError::ZeroCount { name: name.into() });
        }
        if let Some(v) = values.iter().find(|v| !v.is_finite()) {
            return Err(SweepError::NonFinite {
                name: name.into(),
                text: format!("{v}"),
            });
        }
        self.axes.push(Axis {
            name: name.into(),
            values,
        });
        self.check_size()?;
        Ok(self)
    }

    /// Parses axes written `NAME=a..b:count` or `NAME=v1,v2,...`, converting every value
    /// text with `convert(name, text)` (e.g. `convert("v0", "50 m/s") = Ok(50.0)`).
    pub fn parse<S: AsRef<str>>(
        specs: &[S],
        convert: impl Fn(&str, &str) -> Result<f64, String>,
    ) -> Result<Self, SweepError> {
        let mut sweep = Self::new();
        for spec in specs {
            let (name, values) = parse_axis(spec.as_ref(), &convert)?;
            sweep = sweep.axis(&name, values)?;
        }
        Ok(sweep)
    }

    /// The axes, in order.
    pub fn axes(&self) -> &[Axis] {
        &self.axes
    }

    /// Number of parameter sets (1 when there is no axis).
    pub fn len(&self) -> usize {
        self.axes.iter().map(|a| a.values.len()).product()
    }

    /// Always false: an empty sweep still has its one set of defaults.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Parameter set number `index` (first axis slowest), or `None` past the end.
    pub fn set(&self, index: usize) -> Option<ParamSet> {
        if index >= self.len() {
            return None;
        }
        let mut rest = index;
        let mut pairs = vec![(String::new(), 0.0); self.axes.len()];
        for (slot, a) in pairs.iter_mut().zip(&self.axes).rev() {
            let n = a.values.len();
            *slot = (a.name.clone(), a.values[rest % n]);
            rest /= n;
        }
        Some(ParamSet(pairs))
    }

    /// Every parameter set, first axis slowest.
    pub fn sets(&self) -> impl Iterator<Item = ParamSet> + '_ {
        (0..self.len()).filter_map(|i| self.set(i))
    }

    fn check_size(&self) -> Result<(), SweepError> {
        let sets = self
            .axes
            .iter()
            .fold(1u128, |p, a| p.saturating_mul(a.values.len() as u128));
        if sets > MAX_SETS as u128 {
            return Err(SweepError::TooMany { sets });
        }
        Ok(())
    }
}

fn value(
    name: &str,
    text: &str,
    spec: &str,
    convert: &impl Fn(&str, &str) -> Result<f64, String>,
) -> Result<f64, SweepError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(SweepError::EmptyValue {
            name: name.into(),
            spec: spec.into(),
        });
    }
    let v = convert(name, text).map_err(|message| SweepError::BadValue {
        name: name.into(),
        text: text.into(),
        message,
    })?;
    if !v.is_finite() {
        return Err(SweepError::NonFinite {
            name: name.into(),
            text: text.into(),
        });
    }
    Ok(v)
}

fn parse_axis(
    spec: &str,
    convert: &impl Fn(&str, &str) -> Result<f64, String>,
) -> Result<(String, Vec<f64>), SweepError> {
    let Some((name, rhs)) = spec.split_once('=') else {
        return Err(SweepError::MissingEquals { spec: spec.into() });
    };
    let name = name.trim();
    if name.is_empty() {
        return Err(SweepError::EmptyName { spec: spec.into() });
    }
    let Some((from, rest)) = rhs.split_once("..") else {
        let values = rhs
            .split(',')
            .map(|t| value(name, t, spec, convert))
            .collect::<Result<Vec<_>, _>>()?;
        return Ok((name.into(), values));
    };
    let Some((to, count)) = rest.rsplit_once(':') else {
        return Err(SweepError::MissingCount {
            name: name.into(),
            spec: spec.into(),
        });
    };
    let count_text = count.trim();
    let count: usize = count_text.parse().map_err(|_| SweepError::BadCount {
        name: name.into(),
        text: count_text.into(),
    })?;
    if count == 0 {
        return Err(SweepError::ZeroCount { name: name.into() });
    }
    if count > MAX_SETS {
        return Err(SweepError::TooMany {
            sets: count as u128,
        });
    }
    let (a, b) = (
        value(name, from, spec, convert)?,
        value(name, to, spec, convert)?,
    );
    if count == 1 && a != b {
        return Err(SweepError::CountOne {
            name: name.into(),
            from: a,
            to: b,
        });
    }
    Ok((name.into(), linspace(a, b, count)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(specs: &[&str]) -> Result<Sweep, SweepError> {
        Sweep::parse(specs, plain_number)
    }

    #[test]
    fn ranges_are_inclusive_and_may_count_down() {
        let s = parse(&["k=0..1:5"]).expect("parses");
        assert_eq!(s.axes()[0].values, vec![0.0, 0.25, 0.5, 0.75, 1.0]);
        let s = parse(&["k = 3 .. 1 : 3"]).expect("parses");
        assert_eq!(s.axes()[0].values, vec![3.0, 2.0, 1.0]);
        let s = parse(&["k=-1e-3..2e-3:4"]).expect("parses");
        assert_eq!(s.axes()[0].values, vec![-1e-3, 0.0, 1e-3, 2e-3]);
        let s = parse(&["k=2..2:1"]).expect("one value of a point range");
        assert_eq!(s.axes()[0].values, vec![2.0]);
        // NumPy: linspace(0, 21, 8192)[4096] = 10.501281894762544.
        let v = linspace(0.0, 21.0, 8192);
        assert_eq!(v[4096], 10.501281894762544);
        assert_eq!(v[8191], 21.0);
    }

    #[test]
    fn products_vary_the_first_axis_slowest() {
        let s = parse(&["a=1,2", "b=10..30:3"]).expect("parses");
        assert_eq!(s.len(), 6);
        let sets: Vec<_> = s.sets().collect();
        assert_eq!(
            sets[1],
            ParamSet(vec![("a".into(), 1.0), ("b".into(), 20.0)])
        );
        assert_eq!(
            sets[3],
            ParamSet(vec![("a".into(), 2.0), ("b".into(), 10.0)])
        );
        assert_eq!(s.set(6), None);
        assert_eq!(sets[5].to_string(), "a=2.0, b=30.0");
        assert_eq!(Sweep::new().len(), 1);
        assert_eq!(Sweep::new().set(0), Some(ParamSet::new()));
    }

    #[test]
    fn units_go_through_the_conversion() {
        let conv = |name: &str, text: &str| -> Result<f64, String> {
            assert_eq!(name, "v₀");
            match text.strip_suffix(" km/h") {
                Some(n) => n.parse::<f64>().map(|x| x / 3.6).map_err(|e| e.to_string()),
                None => Err(format!("`{text}` has no unit")),
            }
        };
        let s = Sweep::parse(&["v₀=36 km/h..72 km/h:2"], conv).expect("parses");
        assert_eq!(s.axes()[0].values, vec![10.0, 20.0]);
        let e = Sweep::parse(&["v₀=36,72 km/h"], conv).unwrap_err();
        assert!(matches!(e, SweepError::BadValue { ref text, .. } if text == "36"));
    }

    #[test]
    fn bad_sweeps_are_typed_errors() {
        let err = |s: &str| parse(&[s]).unwrap_err();
        assert!(matches!(err("k0..1:3"), SweepError::MissingEquals { .. }));
        assert!(matches!(err(" =1,2"), SweepError::EmptyName { .. }));
        assert!(matches!(err("k="), SweepError::EmptyValue { .. }));
        assert!(matches!(err("k=1,,2"), SweepError::EmptyValue { .. }));
        assert!(matches!(err("k=..2:3"), SweepError::EmptyValue { .. }));
        assert!(matches!(err("k=0..1"), SweepError::MissingCount { .. }));
        assert!(matches!(err("k=0..1:0"), SweepError::ZeroCount { .. }));
        assert!(matches!(err("k=0..1:2.5"), SweepError::BadCount { .. }));
        assert!(matches!(err("k=0..1:-3"), SweepError::BadCount { .. }));
        assert!(matches!(err("k=0..1:1"), SweepError::CountOne { .. }));
        assert!(matches!(err("k=1,x"), SweepError::BadValue { .. }));
        assert!(matches!(err("k=0..1e999:3"), SweepError::NonFinite { .. }));
        assert!(matches!(err("k=1,NaN"), SweepError::NonFinite { .. }));
        assert!(matches!(
            err("k=0..1:99999999999"),
            SweepError::TooMany { .. }
        ));
        assert!(matches!(
            parse(&["k=1,2", "m=3", "k=4"]).unwrap_err(),
            SweepError::Duplicate { ref name } if name == "k"
        ));
        assert!(matches!(
            parse(&["a=0..1:10000", "b=0..1:10000"]).unwrap_err(),
            SweepError::TooMany { sets: 100_000_000 }
        ));
        let msg = err("k=0..1:0").to_string();
        assert!(msg.contains("`k`") && msg.contains("at least 1"), "{msg}");
    }
}
