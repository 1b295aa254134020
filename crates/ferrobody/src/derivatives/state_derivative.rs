//! The Jacobian of the state derivative, `J = ∂ẏ/∂y` for `ẏ = [q̇, u̇, ż] = f(t, y)` (ny × ny),
//! by dual-number passes over `pipeline::state_derivative`: what an implicit integrator's
//! Newton iteration needs (`integrators::tr_bdf2`). q̇ = N(q) u enters through both q and u.

use super::forward_dynamics::LANES;
use crate::data::Data;
use crate::error::Result;
use crate::model::Model;
use crate::pipeline::state_derivative;
use crate::scalar::Real;
use crate::state::State;
use nalgebra::{Const, DMatrix, U1};
use num_dual::{Derivative, DualSVec64};

type D = DualSVec64<LANES>;

/// `∂ẏ/∂y` with its workspace (a dual-number copy of the model, its data, a state).
pub struct StateDerivativeJacobian {
    model: Model<D>,
    data: Data<D>,
    state: State<D>,
    ydot: Vec<D>,
    /// ∂ẏ/∂y (ny × ny), from the last [`StateDerivativeJacobian::compute`].
    pub jacobian: DMatrix<f64>,
}

impl StateDerivativeJacobian {
    /// The workspace for `model` (any scalar type: it is read through its real parts).
    pub fn new<T: Real>(model: &Model<T>) -> Result<Self> {
        let dual = model.cast::<D>()?;
        let ny = model.nq() + model.nu() + model.nz();
        Ok(Self {
            data: Data::new(&dual),
            state: dual.default_state(),
            ydot: vec![D::from_re(0.0); ny],
            model: dual,
            jacobian: DMatrix::zeros(ny, ny),
        })
    }

    /// Computes `∂ẏ/∂y` at `state` (its real parts).
    pub fn compute<T: Real>(&mut self, state: &State<T>) -> Result<()> {
        let y: Vec<f64> = state
            .q
            .iter()
            .chain(state.u.iter())
            .chain(state.z.iter())
            .map(|x| x.re())
            .collect();
        self.compute_at(state.t, &y, state)
    }

    /// Computes `∂ẏ/∂y` at time `t` and `y = [q, u, z]`, the discrete variables taken from
    /// `rest`; allocates nothing.
    pub fn compute_at<T: Real, U: Real>(&mut self, t: f64, y: &[T], rest: &State<U>) -> Result<()> {
        let (nq, nu) = (self.model.nq(), self.model.nu());
        let ny = self.ydot.len();
        self.state.assign_from(rest);
        self.state.t = t;
        for first in (0..ny).step_by(LANES) {
            for (i, x) in y.iter().enumerate() {
                let x = x.re();
                let slot = match i {
                    i if i < nq => &mut self.state.q[i],
                    i if i < nq + nu => &mut self.state.u[i - nq],
                    i => &mut self.state.z[i - nq - nu],
                };
                *slot = if (first..first + LANES).contains(&i) {
                    D::new(
                        x,
                        Derivative::derivative_generic(Const::<LANES>, U1, i - first),
                    )
                } else {
                    D::from_re(x)
                };
            }
            state_derivative(&self.model, &self.state, &mut self.data, &mut self.ydot)?;
            for (row, d) in self.ydot.iter().enumerate() {
                for lane in 0..LANES.min(ny - first) {
                    self.jacobian[(row, first + lane)] = d.eps.0.map_or(0.0, |e| e[lane]);
                }
            }
        }
        Ok(())
    }
}
