//! The generated models that are compiled to Rust ahead of time (by the build script of
//! `examples/rust-api`), so generated code meets the oracle too: fixed seeds, one model per
//! built-in scheme and family.

use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;

use crate::discrete::{power, step_matrix};
use crate::linear::{Family, LinearModel, generate};
use crate::scheme::Scheme;

/// A model of the compiled corpus.
#[derive(Debug, Clone)]
pub struct Compiled {
    /// The simulation's name (`Oracle7`).
    pub name: String,
    /// Its scheme.
    pub scheme: Scheme,
    /// Its fixed step (s), unused by rk45.
    pub h: f64,
    /// Its tolerance, unused by the fixed schemes.
    pub tolerance: f64,
    /// The model, its text renamed to `name`.
    pub model: LinearModel,
}

impl Compiled {
    /// What the run must end with, and how far from it it may be: `R(hA)^N·z₀` to rounding
    /// for a fixed scheme, `e^{TA}·z₀` within `100·tol·(1 + T‖A‖)` for rk45 (both relative
    /// to the largest value).
    pub fn truth(&self) -> (Vec<f64>, f64) {
        let m = &self.model;
        let size = |v: &[f64]| v.iter().fold(1.0f64, |s, x| s.max(x.abs()));
        match step_matrix(self.scheme, &m.a, self.h, &m.velocity_of) {
            Some(one) => {
                let steps = (m.t_end / self.h).round() as u64;
                let want = power(&one, steps).apply(&m.z0);
                let tol = 1e-11 * steps as f64 * size(&want).max(size(&m.z0));
                (want, tol)
            }
            None => {
                let want = m.exact(m.t_end);
                let tol = 100.0
                    * self.tolerance
                    * (1.0 + m.t_end * m.a.norm_inf())
                    * size(&want).max(size(&m.z0));
                (want, tol)
            }
        }
    }
}

/// The corpus: every built-in scheme with first-order, second-order and mixed models
/// (rk45 without mixed ones until issue 19 item 1 is merged), from fixed seeds.
pub fn compiled() -> Vec<Compiled> {
    let mut out = Vec::new();
    let families = [Family::FIRST, Family::SECOND, Family::MIXED];
    for (f, family) in families.into_iter().enumerate() {
        for (s, scheme) in Scheme::ALL.into_iter().enumerate() {
            if scheme == Scheme::Rk45 && family == Family::MIXED {
                continue;
            }
            let k = f * Scheme::ALL.len() + s;
            let mut rng = ChaCha8Rng::seed_from_u64(crate::seeds::mix(k as u64));
            let (h, tolerance) = (1.0 / 32.0, 1e-9);
            let mut model = generate(&mut rng, family, scheme, h, tolerance, 1.0);
            let name = format!("Oracle{k}");
            model.text = model
                .text
                .replace("simulate Linear {", &format!("simulate {name} {{"));
            out.push(Compiled {
                name,
                scheme,
                h,
                tolerance,
                model,
            });
        }
    }
    out
}
