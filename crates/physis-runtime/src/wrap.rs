//! Models built around another model. A wrapper names its inner model and what it changes
//! (its description, its observed columns); every other [`Model`] method is the inner
//! model's through the one blanket implementation below, written beside the trait. A
//! wrapper therefore cannot drop a method, as a hand-written forwarder once dropped
//! `residual_form` and sent an affine implicit model down the general Newton path.

use std::sync::Arc;

use crate::info::ModelInfo;
use crate::matrix::DenseMatrix;
use crate::model::{JacobianLayout, Model, ResidualForm, StepArgs, StepOut};
use crate::sparse::{SparseMatrix, SparsePattern};

/// A model that is another model with a different description or different observes.
/// Implementing it makes the type a [`Model`]: everything not named here is forwarded.
pub trait Wraps {
    /// The model wrapped.
    type Inner: Model;

    /// The inner model.
    fn inner(&self) -> &Self::Inner;

    /// The inner model, mutably.
    fn inner_mut(&mut self) -> &mut Self::Inner;

    /// The wrapper's description ([`Model::info`]); the inner one's by default.
    fn wrapper_info(&self) -> Arc<ModelInfo> {
        self.inner().info()
    }

    /// The wrapper's observed columns ([`Model::observe`]); the inner one's by default.
    fn wrapper_observe(&mut self, t: f64, y: &[f64], dydt: &[f64], out: &mut [f64]) {
        self.inner_mut().observe(t, y, dydt, out);
    }

    /// The wrapper's conserved observes ([`Model::conserved`]); the inner one's by default.
    /// A wrapper whose [`Wraps::wrapper_observe`] changes the inner observes, or whose
    /// observes are more than the inner's, says here how the conserved ones are computed
    /// (calling [`Wraps::wrapper_observe`] is always right).
    fn wrapper_conserved(&mut self, t: f64, y: &[f64], dydt: &[f64], out: &mut [f64]) {
        self.inner_mut().conserved(t, y, dydt, out);
    }
}

impl<W: Wraps> Model for W {
    fn info(&self) -> Arc<ModelInfo> {
        self.wrapper_info()
    }
    fn initial(&mut self, t0: f64, y: &mut [f64]) {
        self.inner_mut().initial(t0, y);
    }
    fn rate(&mut self, t: f64, y: &[f64], dydt: &mut [f64]) {
        self.inner_mut().rate(t, y, dydt);
    }
    fn step(&mut self, args: &StepArgs<'_>, out: StepOut<'_>) {
        self.inner_mut().step(args, out);
    }
    fn residual(&mut self, args: &StepArgs<'_>, next: &[f64], r: &mut [f64]) {
        self.inner_mut().residual(args, next, r);
    }
    fn residual_jacobian(
        &mut self,
        args: &StepArgs<'_>,
        next: &[f64],
        jac: &mut DenseMatrix,
    ) -> bool {
        self.inner_mut().residual_jacobian(args, next, jac)
    }
    fn residual_form(&self) -> ResidualForm {
        self.inner().residual_form()
    }
    fn jacobian_layout(&self) -> JacobianLayout {
        self.inner().jacobian_layout()
    }
    fn jacobian_pattern(&self) -> Option<Arc<SparsePattern>> {
        self.inner().jacobian_pattern()
    }
    fn residual_jacobian_sparse(
        &mut self,
        args: &StepArgs<'_>,
        next: &[f64],
        jac: &mut SparseMatrix,
    ) -> bool {
        self.inner_mut().residual_jacobian_sparse(args, next, jac)
    }
    fn implicit_error(&mut self, args: &StepArgs<'_>, next: &[f64], err: &mut [f64]) {
        self.inner_mut().implicit_error(args, next, err);
    }
    fn stage_residual(
        &mut self,
        stage: usize,
        args: &StepArgs<'_>,
        solved: &[f64],
        k: &[f64],
        r: &mut [f64],
    ) {
        self.inner_mut().stage_residual(stage, args, solved, k, r);
    }
    fn stage_jacobian(
        &mut self,
        stage: usize,
        args: &StepArgs<'_>,
        solved: &[f64],
        k: &[f64],
        jac: &mut DenseMatrix,
    ) -> bool {
        self.inner_mut().stage_jacobian(stage, args, solved, k, jac)
    }
    fn stage_jacobian_sparse(
        &mut self,
        stage: usize,
        args: &StepArgs<'_>,
        solved: &[f64],
        k: &[f64],
        jac: &mut SparseMatrix,
    ) -> bool {
        self.inner_mut()
            .stage_jacobian_sparse(stage, args, solved, k, jac)
    }
    fn stage_finish(&mut self, args: &StepArgs<'_>, solved: &[f64], out: StepOut<'_>) {
        self.inner_mut().stage_finish(args, solved, out);
    }
    fn rate_jvp(&mut self, t: f64, y: &[f64], v: &[f64], out: &mut [f64]) -> bool {
        self.inner_mut().rate_jvp(t, y, v, out)
    }
    fn margins(&mut self, t: f64, y: &[f64], dydt: &[f64], out: &mut [f64]) {
        self.inner_mut().margins(t, y, dydt, out);
    }
    fn reset(&mut self, event: usize, t: f64, pre: &[f64], pre_rate: &[f64], post: &mut [f64]) {
        self.inner_mut().reset(event, t, pre, pre_rate, post);
    }
    fn observe(&mut self, t: f64, y: &[f64], dydt: &[f64], out: &mut [f64]) {
        self.wrapper_observe(t, y, dydt, out);
    }
    fn conserved(&mut self, t: f64, y: &[f64], dydt: &[f64], out: &mut [f64]) {
        self.wrapper_conserved(t, y, dydt, out);
    }
    // `lane_kernel` stays `None`: a batch of wrappers is not a batch of inner models, so
    // ensembles call each wrapper lane by lane.
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::info::{SchemeInfo, Settings};

    /// Answers every method with something of its own, so a method that is not forwarded
    /// shows up as the trait's default.
    struct Probe(Arc<ModelInfo>);

    impl Model for Probe {
        fn info(&self) -> Arc<ModelInfo> {
            Arc::clone(&self.0)
        }
        fn initial(&mut self, _: f64, y: &mut [f64]) {
            y.fill(1.0);
        }
        fn rate(&mut self, _: f64, _: &[f64], d: &mut [f64]) {
            d.fill(2.0);
        }
        fn step(&mut self, _: &StepArgs<'_>, out: StepOut<'_>) {
            out.next.fill(3.0);
        }
        fn residual(&mut self, _: &StepArgs<'_>, _: &[f64], r: &mut [f64]) {
            r.fill(4.0);
        }
        fn residual_jacobian(&mut self, _: &StepArgs<'_>, _: &[f64], j: &mut DenseMatrix) -> bool {
            j.set(0, 0, 5.0);
            true
        }
        fn residual_form(&self) -> ResidualForm {
            ResidualForm::AffineInStep
        }
        fn jacobian_layout(&self) -> JacobianLayout {
            JacobianLayout::Sparse
        }
        fn jacobian_pattern(&self) -> Option<Arc<SparsePattern>> {
            SparsePattern::from_rows(1, [vec![0usize]])
                .ok()
                .map(Arc::new)
        }
        fn residual_jacobian_sparse(
            &mut self,
            _: &StepArgs<'_>,
            _: &[f64],
            _: &mut SparseMatrix,
        ) -> bool {
            true
        }
        fn implicit_error(&mut self, _: &StepArgs<'_>, _: &[f64], e: &mut [f64]) {
            e.fill(6.0);
        }
        fn stage_residual(
            &mut self,
            _: usize,
            _: &StepArgs<'_>,
            _: &[f64],
            _: &[f64],
            r: &mut [f64],
        ) {
            r.fill(11.0);
        }
        fn stage_jacobian(
            &mut self,
            _: usize,
            _: &StepArgs<'_>,
            _: &[f64],
            _: &[f64],
            j: &mut DenseMatrix,
        ) -> bool {
            j.set(0, 0, 12.0);
            true
        }
        fn stage_jacobian_sparse(
            &mut self,
            _: usize,
            _: &StepArgs<'_>,
            _: &[f64],
            _: &[f64],
            _: &mut SparseMatrix,
        ) -> bool {
            true
        }
        fn stage_finish(&mut self, _: &StepArgs<'_>, _: &[f64], out: StepOut<'_>) {
            out.next.fill(13.0);
        }
        fn rate_jvp(&mut self, _: f64, _: &[f64], _: &[f64], out: &mut [f64]) -> bool {
            out.fill(7.0);
            true
        }
        fn margins(&mut self, _: f64, _: &[f64], _: &[f64], out: &mut [f64]) {
            out.fill(8.0);
        }
        fn reset(&mut self, _: usize, _: f64, _: &[f64], _: &[f64], post: &mut [f64]) {
            post.fill(9.0);
        }
        fn observe(&mut self, _: f64, _: &[f64], _: &[f64], out: &mut [f64]) {
            out.fill(10.0);
        }
    }

    struct Plain(Probe);

    impl Wraps for Plain {
        type Inner = Probe;
        fn inner(&self) -> &Probe {
            &self.0
        }
        fn inner_mut(&mut self) -> &mut Probe {
            &mut self.0
        }
    }

    #[test]
    fn a_wrapper_forwards_every_method() {
        let info = ModelInfo {
            name: "Probe".into(),
            dim: 1,
            states: vec![],
            observes: vec![],
            noises: 0,
            scheme: SchemeInfo {
                name: "backwardEuler".into(),
                order: 1,
                adaptive: false,
                implicit: true,
                stochastic: false,
                stability_radius: None,
                stages: 0,
                residual_evals: 1,
                fsal: false,
                dense: false,
                implicit_stages: Vec::new(),
                bdf: false,
            },
            settings: Settings::default(),
            integrate: None,
            atoms: vec![],
            stops: vec![],
            events: vec![],
            conserves: vec![],
            conditions_read_rate: false,
            observes_read_rate: false,
        };
        let mut w = Plain(Probe(Arc::new(info)));
        let (y, f, dw) = ([0.5], [0.25], [0.0; 0]);
        let args = StepArgs {
            t: 0.0,
            h: 0.1,
            y: &y,
            f0: &f,
            dw: &dw,
        };
        let mut v = [0.0];
        let check = |v: &mut [f64; 1], want: f64| {
            assert_eq!(v[0], want);
            v[0] = 0.0;
        };
        assert_eq!(w.info().name, "Probe");
        w.initial(0.0, &mut v);
        check(&mut v, 1.0);
        w.rate(0.0, &y, &mut v);
        check(&mut v, 2.0);
        w.step(
            &args,
            StepOut {
                next: &mut v,
                err: None,
                f1: None,
                dense: None,
            },
        );
        check(&mut v, 3.0);
        w.residual(&args, &y, &mut v);
        check(&mut v, 4.0);
        let mut jac = DenseMatrix::zeros(1);
        assert!(w.residual_jacobian(&args, &y, &mut jac));
        assert_eq!(jac.get(0, 0), 5.0);
        assert_eq!(w.residual_form(), ResidualForm::AffineInStep);
        assert_eq!(w.jacobian_layout(), JacobianLayout::Sparse);
        let pattern = w.jacobian_pattern().expect("forwarded");
        let mut sparse = SparseMatrix::zeros(pattern);
        assert!(w.residual_jacobian_sparse(&args, &y, &mut sparse));
        w.implicit_error(&args, &y, &mut v);
        check(&mut v, 6.0);
        w.stage_residual(0, &args, &[], &y, &mut v);
        check(&mut v, 11.0);
        assert!(w.stage_jacobian(0, &args, &[], &y, &mut jac));
        assert_eq!(jac.get(0, 0), 12.0);
        assert!(w.stage_jacobian_sparse(0, &args, &[], &y, &mut sparse));
        let out = StepOut {
            next: &mut v,
            err: None,
            f1: None,
            dense: None,
        };
        w.stage_finish(&args, &[], out);
        check(&mut v, 13.0);
        assert!(w.rate_jvp(0.0, &y, &y, &mut v));
        check(&mut v, 7.0);
        w.margins(0.0, &y, &f, &mut v);
        check(&mut v, 8.0);
        w.reset(0, 0.0, &y, &f, &mut v);
        check(&mut v, 9.0);
        w.observe(0.0, &y, &f, &mut v);
        check(&mut v, 10.0);
    }
}
