//! Exact Jacobians of forward dynamics, u̇ = f(t, q, u, τ), by forward-mode dual numbers.
//!
//! The whole pipeline (kinematics, every force element — contact included —, the applied
//! generalized forces τ, ABA, constraint multipliers) runs on `num_dual::DualSVec64<LANES>`:
//! each number carries LANES directional derivatives. One pass seeds LANES of the
//! nq + 2·nu input directions (unit vectors in q, u or τ) and reads
//!
//! ```text
//!   ∂u̇/∂q  (nu × nq),   ∂u̇/∂u  (nu × nu),   ∂u̇/∂τ  (nu × nu; M⁻¹ without constraints)
//! ```
//!
//! column by column; ⌈(nq + 2 nu) / LANES⌉ passes give all three. Without constraints u̇ is
//! affine in τ with slope M⁻¹, so ∂u̇/∂τ comes from the mass matrix instead (CRBA and a
//! Cholesky factorisation in f64) and ⌈(nq + nu) / LANES⌉ passes suffice. Branches compare real
//! parts (num-dual orders numbers by their real part), so the derivative is that of the path
//! the f64 evaluation takes: exact to round-off wherever the model is differentiable (every
//! smooth force law; at a contact's onset or a friction regime change, the one-sided
//! derivative of the side the state is on).
//!
//! ∂u̇/∂q is with respect to the coordinates as stored: for a quaternion (Ball, Free) its four
//! entries separately, as Drake and MuJoCo's `mjd_transitionFD` do not but as q enters
//! u̇ = f(q, u); the derivative along a motion u (Pinocchio's tangent-space ∂a/∂q) is
//! ∂u̇/∂q · N(q) u with q̇ = N(q) u.
//!
//! References: A. Griewank, A. Walther, *Evaluating Derivatives*, 2nd ed., SIAM (2008), ch. 3
//! (forward mode, vector mode); num-dual: G. Rehner, G. Bauer, "Application of generalized
//! (hyper-) dual numbers in equation of state modeling", Front. Chem. Eng. 3 (2021).

use super::rnea_derivatives::RneaDerivatives;
use crate::algorithms::{crba, MassLtdl};
use crate::data::{Data, Stage};
use crate::error::{Error, Result};
use crate::model::Model;
use crate::pipeline::{forward_dynamics, realize};
use crate::state::State;
use nalgebra::{Const, DMatrix, DVector, U1};
use num_dual::{Derivative, DualSVec64};

/// Directions per pass of [`ForwardDynamicsJacobian`]: the dual numbers' width.
pub const LANES: usize = 8;

/// Jacobians of forward dynamics with dual numbers of [`LANES`] directions.
pub type ForwardDynamicsJacobian = ForwardDynamicsJacobianLanes<LANES>;

/// Jacobians of forward dynamics with dual numbers of `N` directions, with their workspace (a
/// dual-number copy of the model, its data, a state and τ): build once per model, then
/// [`ForwardDynamicsJacobianLanes::compute`] for each state allocates nothing. Wider numbers
/// take fewer passes, each dearer (docs/performance.md, "Derivatives of a 32-body chain").
pub struct ForwardDynamicsJacobianLanes<const N: usize> {
    model: Model<DualSVec64<N>>,
    data: Data<DualSVec64<N>>,
    state: State<DualSVec64<N>>,
    tau: Vec<DualSVec64<N>>,
    /// For ∂u̇/∂τ = M⁻¹ without constraints: the f64 model, its data, M.
    model_f64: Model<f64>,
    data_f64: Data<f64>,
    mass: DMatrix<f64>,
    /// The analytical derivatives, for models [`RneaDerivatives::supports`].
    analytical: RneaDerivatives,
    /// M = Lᵀ D L along the tree.
    ltdl: MassLtdl,
    /// u̇ at the last state (m/s² or rad/s²).
    pub udot: DVector<f64>,
    /// ∂u̇/∂q (nu × nq).
    pub dudot_dq: DMatrix<f64>,
    /// ∂u̇/∂u (nu × nu).
    pub dudot_du: DMatrix<f64>,
    /// ∂u̇/∂τ (nu × nu).
    pub dudot_dtau: DMatrix<f64>,
    /// ∂u̇/∂ctrl (nu × nctrl): the actuators' columns ∂u̇/∂τ · ∂τ/∂ctrl
    /// ([`Model::control_jacobian`]), the force-element controls' by dual numbers (the dual
    /// path: the analytical one covers no element that reads a control).
    pub dudot_dctrl: DMatrix<f64>,
    /// ∂τ/∂ctrl at the last state (nu × nctrl).
    dtau_dctrl: DMatrix<f64>,
    /// ∂u̇/∂(force-element controls) from the dual passes (nu × nfc).
    dudot_dforce_controls: DMatrix<f64>,
    /// The control vector, seeded.
    controls: Vec<DualSVec64<N>>,
}

impl<const N: usize> ForwardDynamicsJacobianLanes<N> {
    /// The workspace for `model`.
    pub fn new(model: &Model<f64>) -> Result<Self> {
        let dual = model.cast::<DualSVec64<N>>()?;
        let (nq, nu) = (model.nq(), model.nu());
        Ok(Self {
            data: Data::new(&dual),
            state: dual.default_state(),
            tau: vec![DualSVec64::from_re(0.0); nu],
            model: dual,
            data_f64: Data::new(model),
            analytical: RneaDerivatives::new(model)?,
            ltdl: MassLtdl::new(model),
            model_f64: model.clone(),
            mass: DMatrix::zeros(nu, nu),
            udot: DVector::zeros(nu),
            dudot_dq: DMatrix::zeros(nu, nq),
            dudot_du: DMatrix::zeros(nu, nu),
            dudot_dtau: DMatrix::zeros(nu, nu),
            dudot_dctrl: DMatrix::zeros(nu, model.nctrl()),
            dtau_dctrl: DMatrix::zeros(nu, model.nctrl()),
            dudot_dforce_controls: DMatrix::zeros(nu, model.nctrl() - model.force_control_start()),
            controls: vec![DualSVec64::from_re(0.0); model.nctrl()],
        })
    }

    /// Computes u̇ and its three Jacobians at `state` with applied generalized forces `tau`
    /// (nu entries): analytically where [`RneaDerivatives::supports`] the model and
    /// [`RneaDerivatives::is_cheaper_than_dual`], with dual numbers otherwise.
    pub fn compute(&mut self, state: &State<f64>, tau: &[f64]) -> Result<()> {
        if RneaDerivatives::supports(&self.model_f64, state)
            && self.analytical.is_cheaper_than_dual(&self.model_f64)
        {
            self.compute_analytical(state, tau)
        } else {
            self.compute_dual(state, tau)
        }
    }

    /// `dudot_dctrl = dudot_dtau · ∂τ/∂ctrl` at `state` (no allocation).
    fn control_columns(&mut self, state: &State<f64>) {
        if self.model_f64.nctrl() == 0 {
            return;
        }
        self.model_f64
            .fill_control_jacobian(state, &mut self.dtau_dctrl);
        self.dudot_dctrl
            .gemm(1.0, &self.dudot_dtau, &self.dtau_dctrl, 0.0);
    }

    /// [`Self::compute`] by Carpentier and Mansard's derivatives of inverse dynamics at the
    /// forward-dynamics accelerations: `∂u̇/∂x = −M⁻¹ ∂τ/∂x` for x = q, u, and M⁻¹ for τ.
    /// An error for a model (or a state's enabled forces) that [`RneaDerivatives::supports`]
    /// does not cover.
    pub fn compute_analytical(&mut self, state: &State<f64>, tau: &[f64]) -> Result<()> {
        assert_eq!(
            tau.len(),
            self.model_f64.nu(),
            "tau has one entry per generalized speed"
        );
        if !RneaDerivatives::supports(&self.model_f64, state) {
            return Err(Error::Model(
                "analytical derivatives cover Weld, Pin, Slider, Cylinder, Translation, Ball \
                 and Free joints without constraints, with gravity, constant forces, mobility \
                 and two-point springs and dampers, Hunt-Crossley and smooth sphere/half-space \
                 contact only; use compute_dual"
                    .into(),
            ));
        }
        self.compute_analytical_unchecked(state, tau)
    }

    /// [`Self::compute_analytical`] for a state the caller has checked with
    /// [`RneaDerivatives::supports`].
    pub(crate) fn compute_analytical_unchecked(
        &mut self,
        state: &State<f64>,
        tau: &[f64],
    ) -> Result<()> {
        forward_dynamics(&self.model_f64, state, &mut self.data_f64, tau)?;
        self.udot.copy_from(&self.data_f64.acc.udot);
        self.analytical
            .compute(&self.model_f64, state, &self.data_f64, self.udot.as_slice());
        self.solve_with_tree_factors()?;
        self.control_columns(state);
        Ok(())
    }

    /// `M⁻¹` by solving with the tree factors of M against the identity (M⁻¹ is symmetric,
    /// so its rows are its columns), then `−M⁻¹ ∂τ/∂q` and `−M⁻¹ ∂τ/∂u` as matrix products
    /// (by columns, in place: nalgebra's `gemm` allocates packing buffers above 5 × 5).
    fn solve_with_tree_factors(&mut self) -> Result<()> {
        let rnea = &self.analytical;
        self.ltdl.factor(&rnea.mass)?;
        self.dudot_dtau.fill_with_identity();
        self.ltdl.solve_rows(&mut self.dudot_dtau);
        negated_product(&self.dudot_dtau, &rnea.dtau_dq, &mut self.dudot_dq);
        negated_product(&self.dudot_dtau, &rnea.dtau_du, &mut self.dudot_du);
        Ok(())
    }

    /// The analytical derivatives' workspace.
    pub fn analytical(&self) -> &RneaDerivatives {
        &self.analytical
    }

    /// [`Self::compute`] with dual numbers whatever the model: ⌈(nq + nu + nfc) / N⌉ passes of
    /// the whole pipeline (⌈(nq + 2 nu + nfc) / N⌉ with constraints), nfc the force-element
    /// controls (seeded in the state's control vector: they act through muscles' and OpenSim
    /// actuators' forces, not through τ).
    pub fn compute_dual(&mut self, state: &State<f64>, tau: &[f64]) -> Result<()> {
        let nu = self.model.nu();
        assert_eq!(tau.len(), nu, "tau has one entry per generalized speed");
        self.state.assign_from(state);
        let constrained = self.model.has_constraints();
        let directions = self.force_controls_direction() + self.force_controls_count();
        for first in (0..directions).step_by(N) {
            self.seed(state, tau, first)?;
            forward_dynamics(&self.model, &self.state, &mut self.data, &self.tau)?;
            self.read(first);
        }
        for (out, a) in self.udot.iter_mut().zip(self.data.acc.udot.iter()) {
            *out = a.re;
        }
        if !constrained {
            self.inverse_mass_matrix(state)?;
        }
        self.control_columns(state);
        let start = self.model.force_control_start();
        self.dudot_dctrl
            .columns_mut(start, self.dudot_dforce_controls.ncols())
            .copy_from(&self.dudot_dforce_controls);
        Ok(())
    }

    /// The direction of the first force-element control: after q, u and (with constraints) τ.
    fn force_controls_direction(&self) -> usize {
        let (nq, nu) = (self.model.nq(), self.model.nu());
        if self.model.has_constraints() {
            nq + 2 * nu
        } else {
            nq + nu
        }
    }

    fn force_controls_count(&self) -> usize {
        self.model.nctrl() - self.model.force_control_start()
    }

    /// ∂u̇/∂τ = M(q)⁻¹ (no constraints): CRBA, Cholesky, solves against the identity, in
    /// place (no allocation).
    fn inverse_mass_matrix(&mut self, state: &State<f64>) -> Result<()> {
        let model = &self.model_f64;
        realize(model, state, &mut self.data_f64, Stage::Position)?;
        crba(model, &mut self.data_f64, &mut self.mass);
        self.invert_mass_matrix()
    }

    /// `dudot_dtau = M⁻¹` of the mass matrix in `self.mass` (Cholesky, in place).
    fn invert_mass_matrix(&mut self) -> Result<()> {
        let m = std::mem::replace(&mut self.mass, DMatrix::zeros(0, 0));
        let cholesky = nalgebra::Cholesky::new(m).ok_or_else(|| {
            Error::model("the mass matrix is not positive definite at this state")
        })?;
        self.dudot_dtau.fill_with_identity();
        cholesky.solve_mut(&mut self.dudot_dtau);
        self.mass = cholesky.unpack();
        Ok(())
    }

    /// Sets every input to its value, with unit derivatives in lanes for directions
    /// `first..first + N` (q, then u, then τ with constraints, then the force-element
    /// controls).
    fn seed(&mut self, state: &State<f64>, tau: &[f64], first: usize) -> Result<()> {
        let nq = self.model.nq();
        let nu = self.model.nu();
        let constrained = self.model.has_constraints();
        let fc_direction = self.force_controls_direction();
        let lane_of = |direction: usize| {
            (first..first + N)
                .contains(&direction)
                .then(|| direction - first)
        };
        let value = |x: f64, direction: usize| match lane_of(direction) {
            Some(lane) => DualSVec64::new(x, Derivative::derivative_generic(Const::<N>, U1, lane)),
            None => DualSVec64::from_re(x),
        };
        for i in 0..nq {
            self.state.q[i] = value(state.q[i], i);
        }
        for (i, (&u, &t)) in state.u.iter().zip(tau).enumerate() {
            self.state.u[i] = value(u, nq + i);
            self.tau[i] = if constrained {
                value(t, nq + nu + i)
            } else {
                DualSVec64::from_re(t)
            };
        }
        let start = self.model.force_control_start();
        for (k, (slot, &c)) in self
            .controls
            .iter_mut()
            .zip(self.model_f64.controls(state))
            .enumerate()
        {
            *slot = match k.checked_sub(start) {
                Some(j) => value(c, fc_direction + j),
                None => DualSVec64::from_re(c),
            };
        }
        self.model.set_controls(&mut self.state, &self.controls)
    }

    /// Copies the derivative lanes of u̇ into the Jacobians' columns.
    fn read(&mut self, first: usize) {
        let (nq, nu) = (self.model.nq(), self.model.nu());
        let fc_direction = self.force_controls_direction();
        let fc_end = fc_direction + self.force_controls_count();
        for lane in 0..N {
            let direction = first + lane;
            let (matrix, column) = if direction < nq {
                (&mut self.dudot_dq, direction)
            } else if direction < nq + nu {
                (&mut self.dudot_du, direction - nq)
            } else if direction < fc_direction {
                (&mut self.dudot_dtau, direction - nq - nu)
            } else if direction < fc_end {
                (&mut self.dudot_dforce_controls, direction - fc_direction)
            } else {
                break;
            };
            for (row, a) in self.data.acc.udot.iter().enumerate() {
                matrix[(row, column)] = a.eps.0.map_or(0.0, |e| e[lane]);
            }
        }
    }
}

/// `out = −a b`, column by column, four columns of `a` per sweep over a column of `out` (no
/// allocation: nalgebra's `gemm` allocates packing buffers above 5 × 5; this is about 1.3×
/// slower than it at n = 42 and as fast below 10).
fn negated_product(a: &DMatrix<f64>, b: &DMatrix<f64>, out: &mut DMatrix<f64>) {
    let n = a.nrows();
    let a = a.as_slice();
    let columns = out.ncols();
    let out = out.as_mut_slice();
    let a_column = |k: usize| &a[k * n..(k + 1) * n];
    for j in 0..columns {
        let column = &mut out[j * n..(j + 1) * n];
        column.fill(0.0);
        let mut k = 0;
        while k + 4 <= n {
            let x = [-b[(k, j)], -b[(k + 1, j)], -b[(k + 2, j)], -b[(k + 3, j)]];
            let (a0, a1, a2, a3) = (
                a_column(k),
                a_column(k + 1),
                a_column(k + 2),
                a_column(k + 3),
            );
            for (i, o) in column.iter_mut().enumerate() {
                *o += a0[i] * x[0] + a1[i] * x[1] + a2[i] * x[2] + a3[i] * x[3];
            }
            k += 4;
        }
        for k in k..n {
            let x = -b[(k, j)];
            for (o, a_ik) in column.iter_mut().zip(a_column(k)) {
                *o += a_ik * x;
            }
        }
    }
}
