//! The peer: diffsol (crate `diffsol`, its default nalgebra and faer back ends) on the same
//! anchors, with closures for the right-hand sides and Jacobian-vector products written from
//! the same equations as `bench/anchors/side/*.hph`.
//!
//! Each run builds its problem and solver afresh (what a first call costs, as ours pays
//! `Simulation::new`), steps to a stop time set on the solver and reads the final state, so no
//! dense output is stored.

use std::time::Instant;

use diffsol::{
    FaerSparseLU, FaerSparseMat, NalgebraLU, NalgebraMat, OdeBuilder, OdeEquationsImplicit,
    OdeSolverConfig, OdeSolverMethod, OdeSolverProblem, OdeSolverStopReason, Vector,
};

use super::anchors::{self as problems, Outcome};
use super::ours::{RUN_SECONDS, STEP_LIMIT};

type M = NalgebraMat<f64>;

/// Which diffsol solver a run uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Variable-order BDF (NDF), Newton with a dense or sparse LU.
    Bdf,
    /// ESDIRK34 (Jørgensen et al.), diffsol's SDIRK.
    Esdirk34,
    /// TR-BDF2, diffsol's other SDIRK.
    TrBdf2,
    /// Tsitouras 5(4), explicit.
    Tsit45,
}

impl Method {
    /// Name in the tables.
    pub fn label(self) -> &'static str {
        match self {
            Method::Bdf => "diffsol bdf",
            Method::Esdirk34 => "diffsol esdirk34",
            Method::TrBdf2 => "diffsol tr_bdf2",
            Method::Tsit45 => "diffsol tsit45",
        }
    }
}

fn finish<'a, Eqn, S>(mut solver: S, t_end: f64) -> Outcome
where
    Eqn: OdeEquationsImplicit<T = f64> + 'a,
    S: OdeSolverMethod<'a, Eqn>,
{
    if let Err(e) = solver.set_stop_time(t_end) {
        return Outcome::failed(format!("{e}"));
    }
    // diffsol's own cap (5,000 steps) would end runs that ours, capped at STEP_LIMIT, finish.
    *solver.config_mut().as_base_mut().maximum_number_timesteps = STEP_LIMIT as usize + 1;
    let started = Instant::now();
    let mut taken = 0u64;
    loop {
        match solver.step() {
            Ok(OdeSolverStopReason::TstopReached) => break,
            Ok(_) => {}
            Err(e) => return Outcome::failed(format!("{e}")),
        }
        taken += 1;
        if taken > STEP_LIMIT {
            return Outcome::failed(format!(
                "over {STEP_LIMIT} steps, at t = {:e}",
                solver.state().t
            ));
        }
        if started.elapsed().as_secs_f64() > RUN_SECONDS {
            return Outcome::failed(format!(
                "over {RUN_SECONDS} s, at t = {:e}",
                solver.state().t
            ));
        }
    }
    let st = solver.get_statistics();
    Outcome {
        state: solver.state().y.clone_as_vec(),
        steps: st.number_of_steps as u64,
        evaluations: 0,
        rejected: Some(
            (st.number_of_error_test_failures + st.number_of_nonlinear_solver_fails) as u64,
        ),
        events: Vec::new(),
        failure: None,
    }
}

fn run_dense<Eqn>(problem: &OdeSolverProblem<Eqn>, method: Method, t_end: f64) -> Outcome
where
    Eqn: OdeEquationsImplicit<
            M = M,
            V = <M as diffsol::MatrixCommon>::V,
            T = f64,
            C = <M as diffsol::MatrixCommon>::C,
        >,
{
    let r = match method {
        Method::Bdf => problem.bdf::<NalgebraLU<f64>>().map(|s| finish(s, t_end)),
        Method::Esdirk34 => problem
            .esdirk34::<NalgebraLU<f64>>()
            .map(|s| finish(s, t_end)),
        Method::TrBdf2 => problem
            .tr_bdf2::<NalgebraLU<f64>>()
            .map(|s| finish(s, t_end)),
        Method::Tsit45 => problem.tsit45().map(|s| finish(s, t_end)),
    };
    r.unwrap_or_else(|e| Outcome::failed(format!("{e}")))
}

/// A1 Lotka–Volterra with tsit45 at rtol = atol = `tol`.
pub fn lotka_volterra(tol: f64) -> Outcome {
    let (a, b, c, d) = problems::LV_PARAMS;
    let problem = OdeBuilder::<M>::new()
        .rtol(tol)
        .atol([tol])
        .rhs_implicit(
            move |x: &_, _p: &_, _t, y: &mut _| {
                let (x, y_) = (x[0], x[1]);
                y[0] = a * x - b * x * y_;
                y[1] = -c * y_ + d * x * y_;
            },
            move |x: &_, _p: &_, _t, v: &_, y: &mut _| {
                y[0] = (a - b * x[1]) * v[0] - b * x[0] * v[1];
                y[1] = d * x[1] * v[0] + (-c + d * x[0]) * v[1];
            },
        )
        .init(|_p: &_, _t, y: &mut _| y.fill(1.0), 2)
        .build();
    match problem {
        Ok(p) => run_dense(&p, Method::Tsit45, problems::LV_T_END),
        Err(e) => Outcome::failed(format!("{e}")),
    }
}

/// A3 bouncing ball with tsit45 at `tol`: a root on the height gated on falling velocity
/// (a plain `y = 0` root misses bounces that start on the floor), reset `v ← −e·v`.
pub fn bouncing_ball(tol: f64) -> Outcome {
    let (g, e, h0) = (problems::BALL_G, problems::BALL_E, problems::BALL_H0);
    let built = OdeBuilder::<M>::new()
        .rtol(tol)
        .atol([tol])
        .rhs_implicit(
            move |x: &_, _p: &_, _t, y: &mut _| {
                y[0] = x[1];
                y[1] = -g;
            },
            |_x: &_, _p: &_, _t, v: &_, y: &mut _| {
                y[0] = v[1];
                y[1] = 0.0;
            },
        )
        .init(
            move |_p: &_, _t, y: &mut _| {
                y[0] = h0;
                y[1] = 0.0;
            },
            2,
        )
        .root(
            |x: &_, _p: &_, _t, y: &mut _| y[0] = if x[1] < 0.0 { x[0] } else { 1.0 },
            1,
        )
        .reset(move |x: &_, _p: &_, _t, y: &mut _| {
            y[0] = x[0];
            y[1] = -e * x[1];
        })
        .build();
    let problem = match built {
        Ok(p) => p,
        Err(err) => return Outcome::failed(format!("{err}")),
    };
    let mut solver = match problem.tsit45() {
        Ok(s) => s,
        Err(err) => return Outcome::failed(format!("{err}")),
    };
    let mut events = Vec::new();
    let t_end = problems::BALL_T_END;
    if let Err(err) = solver.set_stop_time(t_end) {
        return Outcome::failed(format!("{err}"));
    }
    loop {
        match solver.step() {
            Ok(OdeSolverStopReason::TstopReached) => break,
            Ok(OdeSolverStopReason::RootFound(t, _)) => {
                events.push(t);
                let r = solver.state_mut_back(t).and_then(|()| solver.apply_reset());
                if let Err(err) = r {
                    return Outcome::failed(format!("{err}"));
                }
            }
            Ok(OdeSolverStopReason::InternalTimestep) => {}
            Err(err) => return Outcome::failed(format!("{err}")),
        }
    }
    let st = solver.get_statistics();
    Outcome {
        state: solver.state().y.clone_as_vec(),
        steps: st.number_of_steps as u64,
        evaluations: 0,
        rejected: Some(
            (st.number_of_error_test_failures + st.number_of_nonlinear_solver_fails) as u64,
        ),
        events,
        failure: None,
    }
}

/// A2 Robertson to 1e11 s at rtol `tol`, atol `atol`.
pub fn robertson(method: Method, tol: f64, atol: f64) -> Outcome {
    let (k1, k2, k3) = problems::ROBERTSON_K;
    let built = OdeBuilder::<M>::new()
        .rtol(tol)
        .atol([atol])
        .rhs_implicit(
            move |x: &_, _p: &_, _t, y: &mut _| {
                y[0] = -k1 * x[0] + k3 * x[1] * x[2];
                y[1] = k1 * x[0] - k3 * x[1] * x[2] - k2 * x[1] * x[1];
                y[2] = k2 * x[1] * x[1];
            },
            move |x: &_, _p: &_, _t, v: &_, y: &mut _| {
                y[0] = -k1 * v[0] + k3 * x[2] * v[1] + k3 * x[1] * v[2];
                y[1] = k1 * v[0] - (k3 * x[2] + 2.0 * k2 * x[1]) * v[1] - k3 * x[1] * v[2];
                y[2] = 2.0 * k2 * x[1] * v[1];
            },
        )
        .init(
            |_p: &_, _t, y: &mut _| {
                y[0] = 1.0;
                y[1] = 0.0;
                y[2] = 0.0;
            },
            3,
        )
        .build();
    match built {
        Ok(p) => run_dense(&p, method, problems::ROBERTSON_T_END),
        Err(e) => Outcome::failed(format!("{e}")),
    }
}

/// A10 Van der Pol, μ = 1000, to 3000 s at rtol `tol`, atol `atol`.
pub fn van_der_pol(method: Method, tol: f64, atol: f64) -> Outcome {
    let mu = problems::VDP_MU;
    let built = OdeBuilder::<M>::new()
        .rtol(tol)
        .atol([atol])
        .rhs_implicit(
            move |x: &_, _p: &_, _t, y: &mut _| {
                y[0] = x[1];
                y[1] = mu * (1.0 - x[0] * x[0]) * x[1] - x[0];
            },
            move |x: &_, _p: &_, _t, v: &_, y: &mut _| {
                y[0] = v[1];
                y[1] = (-2.0 * mu * x[0] * x[1] - 1.0) * v[0] + mu * (1.0 - x[0] * x[0]) * v[1];
            },
        )
        .init(
            |_p: &_, _t, y: &mut _| {
                y[0] = 2.0;
                y[1] = 0.0;
            },
            2,
        )
        .build();
    match built {
        Ok(p) => run_dense(&p, method, problems::VDP_T_END),
        Err(e) => Outcome::failed(format!("{e}")),
    }
}

/// A11 HIRES to 321.8122 s at rtol `tol`, atol `atol`.
pub fn hires(method: Method, tol: f64, atol: f64) -> Outcome {
    let built = OdeBuilder::<M>::new()
        .rtol(tol)
        .atol([atol])
        .rhs_implicit(
            |x: &_, _p: &_, _t, y: &mut _| {
                let mut out = [0.0; 8];
                problems::hires_rate(&std::array::from_fn(|i| x[i]), &mut out);
                for (i, v) in out.iter().enumerate() {
                    y[i] = *v;
                }
            },
            |x: &_, _p: &_, _t, v: &_, y: &mut _| {
                let mut out = [0.0; 8];
                problems::hires_jvp(
                    &std::array::from_fn(|i| x[i]),
                    &std::array::from_fn(|i| v[i]),
                    &mut out,
                );
                for (i, o) in out.iter().enumerate() {
                    y[i] = *o;
                }
            },
        )
        .init(
            |_p: &_, _t, y: &mut _| {
                for (i, v) in problems::HIRES_Y0.iter().enumerate() {
                    y[i] = *v;
                }
            },
            8,
        )
        .build();
    match built {
        Ok(p) => run_dense(&p, method, problems::HIRES_T_END),
        Err(e) => Outcome::failed(format!("{e}")),
    }
}

/// A4 heat (100 interior nodes) with a sparse Jacobian (faer sparse LU), rtol `rtol`, atol
/// `atol`; diffsol finds the tridiagonal pattern itself from the Jacobian-vector product.
pub fn heat(method: Method, rtol: f64, atol: f64) -> Outcome {
    let n = problems::HEAT_N;
    let inv_h2 = 1.0 / (problems::heat_h() * problems::heat_h());
    let lap = move |x: &dyn Fn(usize) -> f64, y: &mut dyn FnMut(usize, f64)| {
        for i in 0..n {
            let left = if i == 0 { 0.0 } else { x(i - 1) };
            let right = if i + 1 == n { 0.0 } else { x(i + 1) };
            y(i, (left - 2.0 * x(i) + right) * inv_h2);
        }
    };
    let built = OdeBuilder::<FaerSparseMat<f64>>::new()
        .rtol(rtol)
        .atol([atol])
        .rhs_implicit(
            move |x: &_, _p: &_, _t, y: &mut _| lap(&|i| x[i], &mut |i, v| y[i] = v),
            move |_x: &_, _p: &_, _t, v: &_, y: &mut _| lap(&|i| v[i], &mut |i, w| y[i] = w),
        )
        .init(
            move |_p: &_, _t, y: &mut _| {
                for (i, v) in problems::heat_initial().iter().enumerate() {
                    y[i] = *v;
                }
            },
            n,
        )
        .build();
    let problem = match built {
        Ok(p) => p,
        Err(e) => return Outcome::failed(format!("{e}")),
    };
    let t_end = problems::HEAT_T_END;
    let r = match method {
        Method::Bdf => problem.bdf::<FaerSparseLU<f64>>().map(|s| finish(s, t_end)),
        Method::Esdirk34 => problem
            .esdirk34::<FaerSparseLU<f64>>()
            .map(|s| finish(s, t_end)),
        Method::TrBdf2 => problem
            .tr_bdf2::<FaerSparseLU<f64>>()
            .map(|s| finish(s, t_end)),
        Method::Tsit45 => problem.tsit45().map(|s| finish(s, t_end)),
    };
    r.unwrap_or_else(|e| Outcome::failed(format!("{e}")))
}

/// A12 Brusselator 2-D (8,192 states) with a sparse Jacobian (faer sparse LU; diffsol finds
/// the pattern from the Jacobian-vector product), rtol `rtol`, atol `atol`.
pub fn brusselator(method: Method, rtol: f64, atol: f64) -> Outcome {
    let n = 2 * problems::BRUSS_N * problems::BRUSS_N;
    let built = OdeBuilder::<FaerSparseMat<f64>>::new()
        .rtol(rtol)
        .atol([atol])
        .rhs_implicit(
            |x: &_, _p: &_, _t, y: &mut _| {
                problems::bruss_rate(&|i| x[i], None, &mut |i, v| y[i] = v);
            },
            |x: &_, _p: &_, _t, v: &_, y: &mut _| {
                problems::bruss_rate(&|i| x[i], Some(&|i| v[i]), &mut |i, w| y[i] = w);
            },
        )
        .init(
            |_p: &_, _t, y: &mut _| {
                for (i, v) in problems::bruss_initial().iter().enumerate() {
                    y[i] = *v;
                }
            },
            n,
        )
        .build();
    let problem = match built {
        Ok(p) => p,
        Err(e) => return Outcome::failed(format!("{e}")),
    };
    let t_end = problems::BRUSS_T_END;
    let r = match method {
        Method::Bdf => problem.bdf::<FaerSparseLU<f64>>().map(|s| finish(s, t_end)),
        Method::Esdirk34 => problem
            .esdirk34::<FaerSparseLU<f64>>()
            .map(|s| finish(s, t_end)),
        Method::TrBdf2 => problem
            .tr_bdf2::<FaerSparseLU<f64>>()
            .map(|s| finish(s, t_end)),
        Method::Tsit45 => problem.tsit45().map(|s| finish(s, t_end)),
    };
    r.unwrap_or_else(|e| Outcome::failed(format!("{e}")))
}
