//! The Jacobian of the state derivative, `J = ∂ẏ/∂y` for `ẏ = [q̇, u̇, ż] = f(t, y, c)`
//! (ny × ny): what an implicit integrator's Newton iteration needs (`integrators::tr_bdf2`).
//! q̇ = N(q) u enters through both q and u. On request
//! ([`StateDerivativeJacobian::with_control_columns`]) also `B = ∂ẏ/∂c` (ny × nctrl) for the
//! model's control vector c — actuators' controls and the excitations of muscles and OpenSim
//! actuators, which enter ż through activation dynamics and u̇ through forces — what direct
//! collocation needs.
//!
//! For models the analytical derivatives cover (`RneaDerivatives::supports`, no auxiliary
//! variables z), the u̇ rows are `ForwardDynamicsJacobian::compute_analytical`'s and the q̇ rows
//! come joint by joint (`kinematic_rows`); otherwise dual-number passes run over the
//! integrators' state derivative (`pipeline::step_derivative`: in two dimensions for a
//! planar-xy model).

use super::forward_dynamics::{ForwardDynamicsJacobian, LANES};
use super::rnea_derivatives::RneaDerivatives;
use crate::data::Data;
use crate::error::Result;
use crate::mobilizer::Mobilizer;
use crate::model::Model;
use crate::pipeline::step_derivative;
use crate::scalar::Real;
use crate::state::State;
use nalgebra::{Const, DMatrix, Vector3, U1};
use num_dual::{Derivative, DualSVec64};

type D = DualSVec64<LANES>;

/// `∂ẏ/∂y` with its workspace (a dual-number copy of the model, its data, a state).
pub struct StateDerivativeJacobian {
    model: Model<D>,
    data: Data<D>,
    state: State<D>,
    ydot: Vec<D>,
    /// The analytical path, for models without z (f64 copies; used where it covers the state).
    analytical: Option<AnalyticalPath>,
    /// Whether the analytical path is taken wherever it covers the state, even if dual
    /// numbers should be cheaper.
    always_analytical: bool,
    /// ∂ẏ/∂y (ny × ny), from the last [`StateDerivativeJacobian::compute`].
    pub jacobian: DMatrix<f64>,
    /// `[q, u, z]` of the state given to [`StateDerivativeJacobian::compute`].
    y: Vec<f64>,
    /// ∂ẏ/∂c (ny × nctrl) from the last [`StateDerivativeJacobian::compute`], when asked for
    /// with [`StateDerivativeJacobian::with_control_columns`] (else 0 columns).
    pub control_jacobian: DMatrix<f64>,
    /// The control vector, seeded (empty without control columns).
    controls: Vec<D>,
}

/// The f64 model, a state and the forward-dynamics Jacobian of the analytical path.
struct AnalyticalPath {
    model: Model<f64>,
    state: State<f64>,
    forward: ForwardDynamicsJacobian,
    tau: Vec<f64>,
}

impl StateDerivativeJacobian {
    /// The workspace for `model` (any scalar type: it is read through its real parts).
    pub fn new<T: Real>(model: &Model<T>) -> Result<Self> {
        let dual = model.cast::<D>()?;
        let ny = model.nq() + model.nu() + model.nz();
        let no_force_controls = model.nctrl() == model.force_control_start();
        let analytical = if model.nz() == 0 && !model.has_constraints() && no_force_controls {
            let model = model.cast::<f64>()?;
            Some(AnalyticalPath {
                state: model.default_state(),
                forward: ForwardDynamicsJacobian::new(&model)?,
                tau: vec![0.0; model.nu()],
                model,
            })
        } else {
            None
        };
        Ok(Self {
            analytical,
            always_analytical: false,
            data: Data::new(&dual),
            state: dual.default_state(),
            ydot: vec![D::from_re(0.0); ny],
            model: dual,
            jacobian: DMatrix::zeros(ny, ny),
            y: vec![0.0; ny],
            control_jacobian: DMatrix::zeros(ny, 0),
            controls: Vec::new(),
        })
    }

    /// This workspace computing `∂ẏ/∂c` too, into [`Self::control_jacobian`]
    /// (⌈nctrl / LANES⌉ more dual passes, or a product with M⁻¹ on the analytical path).
    pub fn with_control_columns(mut self) -> Self {
        let (ny, nctrl) = (self.ydot.len(), self.model.nctrl());
        self.control_jacobian = DMatrix::zeros(ny, nctrl);
        self.controls = vec![D::from_re(0.0); nctrl];
        self
    }

    /// Computes `∂ẏ/∂y` at `state` (its real parts); allocates nothing.
    pub fn compute<T: Real>(&mut self, state: &State<T>) -> Result<()> {
        let mut y = std::mem::take(&mut self.y);
        let values = state.q.iter().chain(state.u.iter()).chain(state.z.iter());
        for (slot, x) in y.iter_mut().zip(values) {
            *slot = x.re();
        }
        let result = self.compute_at(state.t, &y, state);
        self.y = y;
        result
    }

    /// Computes `∂ẏ/∂y` at time `t` and `y = [q, u, z]`, the discrete variables taken from
    /// `rest`; allocates nothing.
    pub fn compute_at<T: Real, U: Real>(&mut self, t: f64, y: &[T], rest: &State<U>) -> Result<()> {
        if self.analytical_path(t, y, rest)? {
            return Ok(());
        }
        let (nq, nu) = (self.model.nq(), self.model.nu());
        let ny = self.ydot.len();
        let nctrl = self.controls.len();
        self.state.assign_from(rest);
        self.state.t = t;
        for (slot, c) in self
            .controls
            .iter_mut()
            .zip(self.model.controls(&self.state))
        {
            *slot = D::from_re(c.re);
        }
        let seed = |x: f64, i: usize, first: usize| {
            if (first..first + LANES).contains(&i) {
                D::new(
                    x,
                    Derivative::derivative_generic(Const::<LANES>, U1, i - first),
                )
            } else {
                D::from_re(x)
            }
        };
        for first in (0..ny + nctrl).step_by(LANES) {
            for (i, x) in y.iter().enumerate() {
                let slot = match i {
                    i if i < nq => &mut self.state.q[i],
                    i if i < nq + nu => &mut self.state.u[i - nq],
                    i => &mut self.state.z[i - nq - nu],
                };
                *slot = seed(x.re(), i, first);
            }
            if nctrl > 0 {
                for (k, slot) in self.controls.iter_mut().enumerate() {
                    *slot = seed(slot.re, ny + k, first);
                }
                self.model.set_controls(&mut self.state, &self.controls)?;
            }
            // The integrators' derivative: a planar-xy model's dual passes run in two
            // dimensions (only ẏ is read here, not the realized data).
            step_derivative(&self.model, &self.state, &mut self.data, &mut self.ydot)?;
            for (row, d) in self.ydot.iter().enumerate() {
                for lane in 0..LANES.min(ny + nctrl - first) {
                    let x = d.eps.0.map_or(0.0, |e| e[lane]);
                    match first + lane {
                        column if column < ny => self.jacobian[(row, column)] = x,
                        column => self.control_jacobian[(row, column - ny)] = x,
                    }
                }
            }
        }
        Ok(())
    }
}

impl StateDerivativeJacobian {
    /// This workspace without its analytical path: dual numbers whatever the model (for
    /// comparisons and benchmarks).
    pub fn dual_only(mut self) -> Self {
        self.analytical = None;
        self
    }

    /// This workspace taking the analytical path wherever it covers the state, whatever it
    /// costs (for comparisons and benchmarks).
    pub fn analytical_where_covered(mut self) -> Self {
        self.always_analytical = true;
        self
    }

    /// The analytical path at `(t, y)`, if the model and the state's enabled forces allow it:
    /// `Ok(true)` once `jacobian` holds ∂ẏ/∂y.
    fn analytical_path<T: Real, U: Real>(
        &mut self,
        t: f64,
        y: &[T],
        rest: &State<U>,
    ) -> Result<bool> {
        let Some(path) = &mut self.analytical else {
            return Ok(false);
        };
        let state = &mut path.state;
        state.assign_from(rest);
        state.t = t;
        let nq = state.q.len();
        for (i, x) in y.iter().enumerate() {
            match i {
                i if i < nq => state.q[i] = x.re(),
                i => state.u[i - nq] = x.re(),
            }
        }
        if !RneaDerivatives::supports(&path.model, state)
            || !(self.always_analytical
                || path.forward.analytical().is_cheaper_than_dual(&path.model))
        {
            return Ok(false);
        }
        path.forward
            .compute_analytical_unchecked(state, &path.tau)?;
        let nu = state.u.len();
        let j = &mut self.jacobian;
        j.as_mut_slice().fill(0.0);
        j.view_mut((nq, 0), (nu, nq))
            .copy_from(&path.forward.dudot_dq);
        j.view_mut((nq, nq), (nu, nu))
            .copy_from(&path.forward.dudot_du);
        for body in path.model.bodies().iter().skip(1) {
            let (qr, ur) = (body.q_range(), body.u_range());
            kinematic_rows(
                body.mobilizer,
                &state.q.as_slice()[qr.clone()],
                &state.u.as_slice()[ur.clone()],
                |r, c, x| {
                    j[(qr.start + r, c)] = x;
                },
                qr.start,
                nq + ur.start,
            );
        }
        if self.control_jacobian.ncols() > 0 {
            // Only actuators' controls here (no force-element controls on this path): they
            // enter u̇ through τ and nothing else.
            self.control_jacobian.fill(0.0);
            self.control_jacobian
                .view_mut((nq, 0), (nu, path.forward.dudot_dctrl.ncols()))
                .copy_from(&path.forward.dudot_dctrl);
        }
        Ok(true)
    }
}

/// The rows of `q̇ = N(q) u` for one joint: `set(row, column, value)` with rows counted from
/// the joint's first q and columns absolute (its q from `q_column`, its u from `u_column`).
/// q̇ = u for most joints; a quaternion's `q̇ = ½ (0, w) ⊗ q` is bilinear (exact matrices);
/// Euler angles' `q̇ = N(q) w` by 3-lane dual numbers in q and three unit w.
fn kinematic_rows(
    kind: Mobilizer,
    q: &[f64],
    u: &[f64],
    mut set: impl FnMut(usize, usize, f64),
    q_column: usize,
    u_column: usize,
) {
    match kind {
        Mobilizer::Ball | Mobilizer::Free => {
            let (w, qv) = (
                Vector3::new(u[0], u[1], u[2]),
                Vector3::new(q[1], q[2], q[3]),
            );
            for k in 0..3 {
                // ∂q̇/∂q: [[0, −½ wᵀ], [½ w, ½ [w×]]]
                set(0, q_column + 1 + k, -0.5 * w[k]);
                set(1 + k, q_column, 0.5 * w[k]);
                // ∂q̇/∂w: [[−½ q_vᵀ], [½ (q0 1 − [q_v×])]]
                set(0, u_column + k, -0.5 * qv[k]);
            }
            let wx = crate::math::spatial::cross_matrix(&w);
            let qx = crate::math::spatial::cross_matrix(&qv);
            for r in 0..3 {
                for c in 0..3 {
                    set(1 + r, q_column + 1 + c, 0.5 * wx[(r, c)]);
                    let identity = if r == c { q[0] } else { 0.0 };
                    set(1 + r, u_column + c, 0.5 * (identity - qx[(r, c)]));
                }
            }
            if kind == Mobilizer::Free {
                for k in 0..3 {
                    set(4 + k, u_column + 3 + k, 1.0);
                }
            }
        }
        Mobilizer::BallEuler | Mobilizer::FreeEuler | Mobilizer::Ellipsoid => {
            type D3 = DualSVec64<3>;
            let seed = |k: usize| D3::new(q[k], Derivative::derivative_generic(Const::<3>, U1, k));
            let q_dual = [seed(0), seed(1), seed(2)];
            let w_dual = [D3::from_re(u[0]), D3::from_re(u[1]), D3::from_re(u[2])];
            let mut out = [D3::from_re(0.0); 3];
            Mobilizer::BallEuler.qdot(&q_dual, &w_dual, &mut out);
            for (r, x) in out.iter().enumerate() {
                let lanes = x.eps.0.unwrap_or_else(nalgebra::SVector::zeros);
                for c in 0..3 {
                    set(r, q_column + c, lanes[c]);
                }
            }
            for c in 0..3 {
                let mut unit = [0.0; 3];
                unit[c] = 1.0;
                let mut column = [0.0; 3];
                Mobilizer::BallEuler.qdot(&q[..3], &unit, &mut column);
                for (r, x) in column.iter().enumerate() {
                    set(r, u_column + c, *x);
                }
            }
            if kind == Mobilizer::FreeEuler {
                for k in 0..3 {
                    set(3 + k, u_column + 3 + k, 1.0);
                }
            }
        }
        _ => {
            for k in 0..kind.nu() {
                set(k, u_column + k, 1.0);
            }
        }
    }
}
