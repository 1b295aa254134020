//! The dynamics at one grid point, `ẏ = f(y, c)` with y = [q, u] and q̇ = u, and its exact
//! Jacobian `∂f/∂(y, c)` (ny × (ny + nc)):
//!
//! ```text
//!   ∂q̇/∂u = I,   ∂u̇/∂q, ∂u̇/∂u, ∂u̇/∂c   (ferrobody's ForwardDynamicsJacobian: analytical
//!                                       derivatives of RNEA, or dual numbers through the
//!                                       whole pipeline — contact, constraints, actuators)
//! ```
//!
//! The controls enter through the model's actuators (`Model::set_controls`); ∂u̇/∂c =
//! ∂u̇/∂τ · ∂τ/∂c. The model is autonomous here: its forces do not depend on t (t is set, but
//! ∂f/∂t is not part of the Jacobian; a free final time moves the grid's times).

use crate::error::Result;
use ferrobody::derivatives::ForwardDynamicsJacobian;
use ferrobody::nalgebra::DMatrix;
use ferrobody::pipeline::forward_dynamics;
use ferrobody::{Data, Model, State};

/// The model, a state and the workspaces to evaluate f and ∂f/∂(y, c) at any point.
pub(crate) struct PointDynamics {
    model: Model<f64>,
    state: State<f64>,
    data: Data<f64>,
    jacobian: ForwardDynamicsJacobian,
    tau: Vec<f64>,
}

impl PointDynamics {
    /// The workspace for `model`, every point starting from `base` (its discrete variables).
    pub fn new(model: &Model<f64>, base: &State<f64>) -> Result<Self> {
        Ok(Self {
            jacobian: ForwardDynamicsJacobian::new(model)?,
            data: Data::new(model),
            state: base.clone(),
            tau: vec![0.0; model.nu()],
            model: model.clone(),
        })
    }

    fn set(&mut self, t: f64, y: &[f64], c: &[f64]) -> Result<()> {
        let nq = self.model.nq();
        self.state.t = t;
        self.state.q.as_mut_slice().copy_from_slice(&y[..nq]);
        self.state.u.as_mut_slice().copy_from_slice(&y[nq..]);
        self.model.set_controls(&mut self.state, c)?;
        Ok(())
    }

    /// `f` (ny) at (t, y, c).
    pub fn value(&mut self, t: f64, y: &[f64], c: &[f64], f: &mut [f64]) -> Result<()> {
        self.set(t, y, c)?;
        forward_dynamics(&self.model, &self.state, &mut self.data, &self.tau)?;
        let nq = self.model.nq();
        f[..nq].copy_from_slice(self.state.u.as_slice());
        f[nq..].copy_from_slice(self.data.udot()?.as_slice());
        Ok(())
    }

    /// `f` (ny) and `∂f/∂(y, c)` (ny × (ny + nc), every entry written) at (t, y, c).
    pub fn jacobian(
        &mut self,
        t: f64,
        y: &[f64],
        c: &[f64],
        f: &mut [f64],
        jac: &mut DMatrix<f64>,
    ) -> Result<()> {
        self.set(t, y, c)?;
        self.jacobian.compute(&self.state, &self.tau)?;
        let (nq, nu) = (self.model.nq(), self.model.nu());
        let ny = nq + nu;
        f[..nq].copy_from_slice(self.state.u.as_slice());
        f[nq..].copy_from_slice(self.jacobian.udot.as_slice());
        jac.fill(0.0);
        for i in 0..nq {
            jac[(i, nq + i)] = 1.0;
        }
        let j = &self.jacobian;
        jac.view_mut((nq, 0), (nu, nq)).copy_from(&j.dudot_dq);
        jac.view_mut((nq, nq), (nu, nu)).copy_from(&j.dudot_du);
        let nc = j.dudot_dctrl.ncols();
        jac.view_mut((nq, ny), (nu, nc)).copy_from(&j.dudot_dctrl);
        Ok(())
    }

    /// The columns (of y then c) each row of `∂f/∂(y, c)` may depend on: q̇_i on u_i only,
    /// u̇ on everything.
    pub fn pattern(&self) -> Vec<Vec<usize>> {
        let (nq, nu, nc) = (self.model.nq(), self.model.nu(), self.model.nctrl());
        let all: Vec<usize> = (0..nq + nu + nc).collect();
        (0..nq)
            .map(|i| vec![nq + i])
            .chain((0..nu).map(|_| all.clone()))
            .collect()
    }
}
