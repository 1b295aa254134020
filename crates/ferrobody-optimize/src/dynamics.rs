//! The dynamics at one grid point, `ẏ = f(y, c)` with y = [q, u, z] (q̇ = u; z the muscles'
//! and actuators' activations, fibre lengths and normalized tendon forces) and c the model's
//! control vector, and its exact Jacobian `∂f/∂(y, c)` (ny × (ny + nc)):
//!
//! ```text
//!   ∂q̇/∂u = I,   ∂u̇/∂(q, u, z, c),   ∂ż/∂(q, u, z, c)
//! ```
//!
//! from ferrobody's `StateDerivativeJacobian` with its control columns: analytical
//! derivatives of RNEA for models they cover (∂u̇/∂c = M⁻¹ ∂τ/∂c), dual numbers through the
//! whole pipeline otherwise — contact, constraints, actuators, muscles with their paths and
//! wrapping, activation dynamics (excitations enter ż). The model is autonomous here: its
//! forces do not depend on t (t is set, but ∂f/∂t is not part of the Jacobian; a free final
//! time moves the grid's times).

use crate::error::Result;
use ferrobody::derivatives::StateDerivativeJacobian;
use ferrobody::nalgebra::DMatrix;
use ferrobody::pipeline::state_derivative;
use ferrobody::{Data, Model, State};

/// The model, a state and the workspaces to evaluate f and ∂f/∂(y, c) at any point.
pub(crate) struct PointDynamics {
    model: Model<f64>,
    state: State<f64>,
    data: Data<f64>,
    jacobian: StateDerivativeJacobian,
}

impl PointDynamics {
    /// The workspace for `model`, every point starting from `base` (its discrete variables).
    pub fn new(model: &Model<f64>, base: &State<f64>) -> Result<Self> {
        Ok(Self {
            jacobian: StateDerivativeJacobian::new(model)?.with_control_columns(),
            data: Data::new(model),
            state: base.clone(),
            model: model.clone(),
        })
    }

    fn set(&mut self, t: f64, y: &[f64], c: &[f64]) -> Result<()> {
        let (nq, nu) = (self.model.nq(), self.model.nu());
        self.state.t = t;
        self.state.q.as_mut_slice().copy_from_slice(&y[..nq]);
        self.state.u.as_mut_slice().copy_from_slice(&y[nq..nq + nu]);
        self.state.z.as_mut_slice().copy_from_slice(&y[nq + nu..]);
        self.model.set_controls(&mut self.state, c)?;
        Ok(())
    }

    /// `f` (ny) at (t, y, c).
    pub fn value(&mut self, t: f64, y: &[f64], c: &[f64], f: &mut [f64]) -> Result<()> {
        self.set(t, y, c)?;
        state_derivative(&self.model, &self.state, &mut self.data, f)?;
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
        self.value(t, y, c, f)?;
        self.jacobian.compute(&self.state)?;
        let ny = f.len();
        jac.view_mut((0, 0), (ny, ny))
            .copy_from(&self.jacobian.jacobian);
        let nc = self.jacobian.control_jacobian.ncols();
        jac.view_mut((0, ny), (ny, nc))
            .copy_from(&self.jacobian.control_jacobian);
        Ok(())
    }

    /// The columns (of y then c) each row of `∂f/∂(y, c)` may depend on: q̇_i on u_i only,
    /// u̇ and ż on everything.
    pub fn pattern(&self) -> Vec<Vec<usize>> {
        let (nq, nu, nz, nc) = (
            self.model.nq(),
            self.model.nu(),
            self.model.nz(),
            self.model.nctrl(),
        );
        let all: Vec<usize> = (0..nq + nu + nz + nc).collect();
        (0..nq)
            .map(|i| vec![nq + i])
            .chain((0..nu + nz).map(|_| all.clone()))
            .collect()
    }
}
