//! Absolute tolerances per state slot for the adaptive error norm.
//!
//! A state with a declared absolute tolerance (`abs x 1 mm`, in SI base units) uses it. Any
//! other state's absolute tolerance is the relative tolerance times the state's own scale:
//! the largest magnitude any of its components has had in the run so far (the start
//! included). Scaling a state's unit scales its values, its scale and its errors alike, so
//! the accuracy no longer depends on the unit a user picks. The scale is per state rather
//! than per component so that the components of a vector (or the nodes of a field), one
//! quantity in different places, are measured alike; and it is a running peak rather than
//! the initial value so that a state starting at zero (a height, a reaction intermediate)
//! gets the scale it reaches instead of an arbitrary `1` in SI base units.
//!
//! Until a state has moved from zero it has no scale of its own, and a pure relative error
//! cannot be met there: a state that starts at zero and grows as `t³` (Robertson's `c`)
//! has an estimated error as large as its value at every step size, so its first step is
//! never accepted. Such a state borrows [`FLOOR`] times the scale of its unit (the largest
//! magnitude any state of the same SI unit has had) until it moves. A state whose unit no
//! other state shares has nothing to borrow: it is measured against its own value.

use std::ops::Range;

use crate::info::ModelInfo;

/// Fraction of its unit's scale a state still at zero is measured against: `1e-3`, the ratio
/// of SciPy's and MATLAB's default absolute and relative tolerances (1e-6 and 1e-3).
pub(crate) const FLOOR: f64 = 1e-3;

/// The per-slot absolute tolerances of one run, kept up to date with the state's scales.
#[derive(Debug, Clone)]
pub(crate) struct Tolerances {
    /// Relative tolerance.
    rtol: f64,
    /// One group per state (per slot when the model names no states).
    groups: Vec<Group>,
    /// Largest magnitude seen so far of each unit, indexed by [`Group::unit`].
    unit_peaks: Vec<f64>,
    /// Absolute tolerance of every slot.
    atol: Vec<f64>,
}

#[derive(Debug, Clone)]
struct Group {
    slots: Range<usize>,
    /// The declared absolute tolerance, when there is one.
    given: Option<f64>,
    /// Largest magnitude seen so far.
    peak: f64,
    /// Index of the state's unit among the run's distinct units.
    unit: usize,
}

impl Tolerances {
    /// Tolerances for a run of the model described by `info` at relative tolerance `rtol`,
    /// with `absolute` the declared absolute tolerance of each state (checked beforehand).
    pub(crate) fn new(info: &ModelInfo, rtol: f64) -> Self {
        let given = |i: usize| info.settings.absolute.get(i).copied().flatten();
        let units = &info.settings.units;
        // A state's unit is the first state's of the same unit string; a state with none
        // (or a model that names no units) is a unit of its own.
        let unit = |i: usize| match units.get(i) {
            Some(u) => units.iter().position(|v| v == u).unwrap_or(i),
            None => i,
        };
        let groups: Vec<Group> = if info.states.is_empty() {
            (0..info.dim)
                .map(|i| Group {
                    slots: i..i + 1,
                    given: None,
                    peak: 0.0,
                    unit: i,
                })
                .collect()
        } else {
            info.states
                .iter()
                .enumerate()
                .map(|(i, s)| Group {
                    slots: s.offset..s.offset + s.len(),
                    given: given(i),
                    peak: 0.0,
                    unit: unit(i),
                })
                .collect()
        };
        let mut atol = vec![0.0; info.dim];
        for g in &groups {
            atol[g.slots.clone()].fill(g.given.unwrap_or(0.0));
        }
        let unit_peaks = vec![0.0; groups.len()];
        Self {
            rtol,
            groups,
            unit_peaks,
            atol,
        }
    }

    /// Starts over (a renewed run) at relative tolerance `rtol`.
    pub(crate) fn reset(&mut self, rtol: f64) {
        self.rtol = rtol;
        self.unit_peaks.fill(0.0);
        for g in &mut self.groups {
            g.peak = 0.0;
            self.atol[g.slots.clone()].fill(g.given.unwrap_or(0.0));
        }
    }

    /// Takes the magnitudes of `y` into the scales of the states and their units, and
    /// renews the absolute tolerances of the states with none declared.
    pub(crate) fn observe(&mut self, y: &[f64]) {
        let mut moved = false;
        for g in &mut self.groups {
            let peak = y[g.slots.clone()]
                .iter()
                .fold(g.peak, |m, v| if v.abs() > m { v.abs() } else { m });
            if peak > g.peak {
                g.peak = peak;
                moved = true;
                if let Some(u) = self.unit_peaks.get_mut(g.unit) {
                    *u = u.max(peak);
                }
            }
        }
        if !moved {
            return;
        }
        for g in &self.groups {
            if g.given.is_none() {
                let unit = self.unit_peaks.get(g.unit).copied().unwrap_or(0.0);
                let scale = if g.peak > 0.0 { g.peak } else { FLOOR * unit };
                self.atol[g.slots.clone()].fill(self.rtol * scale);
            }
        }
    }

    /// Relative tolerance.
    pub(crate) fn rtol(&self) -> f64 {
        self.rtol
    }

    /// Absolute tolerance of every slot.
    pub(crate) fn atol(&self) -> &[f64] {
        &self.atol
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::info::{SchemeInfo, Settings, StateInfo};
    use std::sync::Arc;

    fn info(absolute: Vec<Option<f64>>) -> Arc<ModelInfo> {
        info_in(absolute, vec![])
    }

    fn info_in(absolute: Vec<Option<f64>>, units: Vec<String>) -> Arc<ModelInfo> {
        let state = |name: &str, offset, shape: Vec<usize>| StateInfo {
            name: name.into(),
            offset,
            shape,
            fixed_edge: false,
        };
        Arc::new(ModelInfo {
            name: "T".into(),
            dim: 3,
            states: vec![state("x", 0, vec![2]), state("v", 2, vec![])],
            observes: vec![],
            noises: 0,
            scheme: SchemeInfo {
                name: "rk45".into(),
                order: 5,
                adaptive: true,
                implicit: false,
                stochastic: false,
                stability_radius: None,
                stages: 6,
                residual_evals: 0,
                fsal: true,
                dense: false,
                implicit_stages: Vec::new(),
                bdf: false,
            },
            settings: Settings {
                absolute,
                units,
                ..Settings::default()
            },
            integrate: None,
            atoms: vec![],
            stops: vec![],
            events: vec![],
            conserves: vec![],
            conditions_read_rate: false,
            observes_read_rate: false,
        })
    }

    #[test]
    fn scale_is_the_running_peak_of_each_state() {
        let mut t = Tolerances::new(&info(vec![]), 1e-6);
        assert_eq!(t.atol(), &[0.0, 0.0, 0.0]);
        t.observe(&[0.0, -4.0, 0.0]);
        // Both components of `x` share its scale; `v` has none yet.
        assert_eq!(t.atol(), &[4e-6, 4e-6, 0.0]);
        t.observe(&[1.0, 0.0, 2.0]);
        assert_eq!(t.atol(), &[4e-6, 4e-6, 2e-6]);
        t.reset(1e-3);
        assert_eq!(t.atol(), &[0.0, 0.0, 0.0]);
    }

    #[test]
    fn a_declared_absolute_tolerance_stays() {
        let mut t = Tolerances::new(&info(vec![None, Some(1e-9)]), 1e-6);
        t.observe(&[3.0, 0.0, 5.0]);
        assert_eq!(t.atol(), &[3e-6, 3e-6, 1e-9]);
        assert_eq!(t.rtol(), 1e-6);
    }

    #[test]
    fn a_state_at_zero_takes_a_floor_from_the_states_of_its_unit() {
        // `x` and `v` of one unit: `v`, still at zero, is measured against 1e-3 of `x`'s
        // scale, then against its own peak once it moves, however small.
        let same = vec!["m".to_string(), "m".to_string()];
        let mut t = Tolerances::new(&info_in(vec![], same), 1e-6);
        t.observe(&[0.0, -4.0, 0.0]);
        assert_eq!(t.atol(), &[4e-6, 4e-6, 1e-6 * (FLOOR * 4.0)]);
        t.observe(&[0.0, 0.0, 1e-5]);
        assert_eq!(t.atol(), &[4e-6, 4e-6, 1e-6 * 1e-5]);
        // Of different units, `v` has no floor until it moves.
        let apart = vec!["m".to_string(), "m/s".to_string()];
        let mut t = Tolerances::new(&info_in(vec![], apart), 1e-6);
        t.observe(&[0.0, -4.0, 0.0]);
        assert_eq!(t.atol(), &[4e-6, 4e-6, 0.0]);
        // A declared absolute tolerance still counts towards its unit's scale.
        let same = vec!["m".to_string(), "m".to_string()];
        let mut t = Tolerances::new(&info_in(vec![Some(1e-9), None], same), 1e-6);
        t.observe(&[0.0, 2.0, 0.0]);
        assert_eq!(t.atol(), &[1e-9, 1e-9, 1e-6 * (FLOOR * 2.0)]);
    }
}
