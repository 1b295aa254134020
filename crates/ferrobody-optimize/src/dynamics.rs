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

    /// The columns (of y then c) each row of `∂f/∂(y, c)` may depend on: q̇_i on u_i only;
    /// u̇ on every state and on the controls it depends on; ż on what it depends on. The
    /// dependencies on controls and of ż are read from the exact Jacobian at three sample
    /// points around the base state (dual numbers give exact zeros where there is no path
    /// from a variable to a row: an activation depends on its own excitation and activation
    /// only), so the constraint Jacobian — and IPOPT's KKT matrix — holds no structural zeros
    /// (Moco finds its pattern by CasADi's sparsity detection). If a sample cannot be
    /// evaluated, every u̇ and ż row depends on every column.
    pub fn pattern(&mut self) -> Vec<Vec<usize>> {
        let (nq, nu, nz, nc) = (
            self.model.nq(),
            self.model.nu(),
            self.model.nz(),
            self.model.nctrl(),
        );
        let (ny, nb) = (nq + nu + nz, nq + nu + nz + nc);
        let all: Vec<usize> = (0..nb).collect();
        let dense = || -> Vec<Vec<usize>> {
            (0..nq)
                .map(|i| vec![nq + i])
                .chain((0..nu + nz).map(|_| all.clone()))
                .collect()
        };
        let Some(seen) = self.sampled_nonzeros() else {
            return dense();
        };
        let mut rows: Vec<Vec<usize>> = (0..nq).map(|i| vec![nq + i]).collect();
        for (i, row) in seen.iter().enumerate().skip(nq) {
            let cols: Vec<usize> = if i < nq + nu {
                (0..ny).chain((ny..nb).filter(|&j| row[j])).collect()
            } else {
                (0..nb).filter(|&j| row[j] || j == i).collect()
            };
            rows.push(cols);
        }
        rows
    }

    /// Which entries of `∂f/∂(y, c)` are nonzero at any of three sample points (None if a
    /// sample fails): the base state's q, u and z moved by a few per cent, controls 0.3–0.7.
    fn sampled_nonzeros(&mut self) -> Option<Vec<Vec<bool>>> {
        let (nq, nu) = (self.model.nq(), self.model.nu());
        let base = self.state.clone();
        let y0: Vec<f64> = base
            .q
            .iter()
            .chain(base.u.iter())
            .chain(base.z.iter())
            .copied()
            .collect();
        let (ny, nc) = (y0.len(), self.model.nctrl());
        let mut seen = vec![vec![false; ny + nc]; ny];
        let (mut f, mut jac) = (vec![0.0; ny], DMatrix::zeros(ny, ny + nc));
        for sample in 1..=3 {
            let wobble = |k: usize| ((k * 7 + sample * 13) as f64 * 0.618).sin();
            let y: Vec<f64> = y0
                .iter()
                .enumerate()
                .map(|(k, v)| match k {
                    k if k < nq => v + 0.05 * wobble(k),
                    k if k < nq + nu => v + 0.2 * wobble(k),
                    k => v * (1.0 + 0.05 * wobble(k)),
                })
                .collect();
            let c: Vec<f64> = (0..nc).map(|k| 0.5 + 0.2 * wobble(ny + k)).collect();
            let ok = self.jacobian(base.t, &y, &c, &mut f, &mut jac).is_ok();
            if !ok || jac.iter().any(|v| !v.is_finite()) {
                self.state = base;
                return None;
            }
            for (i, row) in seen.iter_mut().enumerate() {
                for (j, s) in row.iter_mut().enumerate() {
                    *s |= jac[(i, j)] != 0.0;
                }
            }
        }
        self.state = base;
        Some(seen)
    }
}
