//! Landing exactly on a time-only stop: a step that would pass the first time at which a
//! stop reading only `t` holds (`stop when t ≥ 10 s`) is shortened to end there, so the
//! run's last state is a step's own end, not an interpolation to it.

use super::Simulation;
use crate::model::Model;

/// Most ulp-sized moves from the secant estimate before falling back to bisection.
const WALK: usize = 4;
/// Most margin evaluations spent finding the landing time.
const MAX_EVALS: usize = 200;

impl<M: Model> Simulation<M> {
    /// True when one of the stops that read only `t` holds at the margins in `land`.
    fn time_stop_holds(&self) -> bool {
        let info = &self.info;
        self.time_stops
            .iter()
            .any(|&i| info.stops[i].cond.eval(&info.atoms, &self.land))
    }

    /// Margins at `tau` into `land` (time-only atoms read nothing but `tau`).
    fn land_margins(&mut self, tau: f64) {
        self.model.margins(tau, &self.y, &self.f, &mut self.land);
        self.land_t = tau;
    }

    /// The first time in `(t, tb]` at which a time-only stop holds, when one holds at `tb`
    /// (none held at `t`, or the run would have ended) and that time is resolvably past
    /// `t`. The step from `t` then ends there exactly.
    pub(super) fn landing(&mut self, t: f64, tb: f64) -> Option<f64> {
        if self.time_stops.is_empty() {
            return None;
        }
        self.land_margins(tb);
        if !self.time_stop_holds() {
            return None;
        }
        // The atoms are affine in `t`: the secant root of one whose side differs across
        // the step is within a few ulps of the landing time.
        let start = &self.margins;
        let guess = self.time_stops.iter().find_map(|&i| {
            let mut used = Vec::new();
            self.info.stops[i].cond.atoms_into(&mut used);
            used.into_iter().find_map(|k| {
                let (g0, g1) = (start[k], self.land[k]);
                let op = self.info.atoms[k].op;
                (op.holds(g0) != op.holds(g1) && g0 != g1).then(|| t + (tb - t) * (g0 / (g0 - g1)))
            })
        });
        let (mut lo, mut hi) = (t, tb);
        let mut walk = guess.filter(|g| g.is_finite()).map(|g| (g, 0usize));
        for _ in 0..MAX_EVALS {
            let c = match walk {
                Some((g, n)) if g > lo && g < hi && n < WALK => g,
                _ => {
                    walk = None;
                    let mid = lo + 0.5 * (hi - lo);
                    if !(mid > lo && mid < hi) {
                        break;
                    }
                    mid
                }
            };
            self.land_margins(c);
            let holds = self.time_stop_holds();
            if holds {
                hi = c;
            } else {
                lo = c;
            }
            walk = walk.map(|(_, n)| {
                let next = if holds { c.next_down() } else { c.next_up() };
                (next, n + 1)
            });
        }
        (hi - t >= 2.0 * Self::min_step(t)).then_some(hi)
    }
}
