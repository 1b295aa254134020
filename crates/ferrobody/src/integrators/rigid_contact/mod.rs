//! The rigid-contact time stepper (Simbody `SemiExplicitEulerTimeStepper::stepTo`, notes
//! §4.4): one fixed step of size h, no error control.
//!
//! 1. Contacts with `sign·perr ≤ tol` are proximal and enabled; the others are disabled. With
//!    none, a plain semi-explicit Euler step: `u += h u̇`, `q += h N(q) u_new`.
//! 2. Velocity errors `v = G u`, friction coefficients from the slip at the start (fixed for
//!    the step), `A = G M⁻¹ Gᵀ`.
//! 3. Impact phase ([`impact`]): `u ← u − M⁻¹ Gᵀ π_impact`.
//! 4. Contact phase: `u̇₀` from the forces at the post-impact state,
//!    `A π = v + G (h u̇₀)` with the contact inequalities and Coulomb friction; `λ = π/h`;
//!    `u ← u + h u̇₀ − M⁻¹ Gᵀ π`; `z ← z + h ż`.
//! 5. Position projection (Bilateral), when some proximal contact has `|perr₀| > tol` (Simbody
//!    3.7's `anyPositionErrorsViolated`): on the normal rows of the contacts that are pushing or
//!    penetrating, `A_PP π = perr₀/h` (least squares); `q̇ = N(q)(u − M⁻¹ Gᵀ π)`, u unchanged.
//! 6. `q ← q + h q̇`, quaternions normalized, `t ← t + h`.
//!
//! `perr₀` is taken at the start of the step (Simbody). Multipliers λ (normal, x, y) of each
//! contact are stored in the state ([`crate::Model::unilateral_multipliers`]).

use crate::algorithms::crba;
use crate::algorithms::energy::kinetic_energy;
use crate::constraints::schur;
use crate::data::{Data, Stage};
use crate::error::{Error, Result, SimulationFailure};
use crate::math::q_projection::normalize_quaternions;
use crate::model::Model;
use crate::pipeline::realize;
use crate::scalar::Real;
use crate::state::State;
use crate::unilateral::settings::RigidContactSettings;
use crate::unilateral::solver::{solve, ActiveContact, ImpulseProblem, SolverWorkspace};
use nalgebra::{DMatrix, DVector};

mod eval;
pub mod impact;
mod position_projection;

use eval::RowWorkspace;

/// Where an impulse problem starts: the rows' velocity errors `verr` (impacts and the velocity
/// step, friction rows included), or the position-correction velocities `perr / h` in `work`
/// (the unilateral position projection, frictionless).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ImpulseStart {
    /// From `verr`, with friction.
    VelocityErrors,
    /// From `work`, without friction.
    PositionCorrection,
}

/// Kinetic energy just before and just after the impact phase of a step (J).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ImpactRecord {
    /// Time at the start of the step (s).
    pub t: f64,
    /// Kinetic energy before the impact impulses.
    pub kinetic_energy_before: f64,
    /// Kinetic energy after them.
    pub kinetic_energy_after: f64,
}

/// Counters of the rigid-contact stepper.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RigidStats {
    /// Steps with at least one impact round.
    pub impact_steps: u64,
    /// Steps with at least one proximal contact.
    pub contact_steps: u64,
}

/// Workspace and settings of the rigid-contact stepper, sized once for the model.
#[derive(Clone, Debug)]
pub struct RigidStepper<T: Real> {
    pub(crate) settings: RigidContactSettings,
    pub(crate) max_rolling_speed: f64,
    pub(crate) m: usize,
    pub(crate) contacts: Vec<ActiveContact<T>>,
    pub(crate) participating: Vec<bool>,
    pub(crate) impacter: Vec<bool>,
    pub(crate) cor: Vec<f64>,
    pub(crate) a: DMatrix<T>,
    pub(crate) verr: Vec<T>,
    pub(crate) v_applied: Vec<T>,
    pub(crate) known: Vec<T>,
    pub(crate) known_rows: Vec<bool>,
    pub(crate) pi: Vec<T>,
    pub(crate) pi_total: Vec<T>,
    pub(crate) work: Vec<T>,
    pub(crate) solver: SolverWorkspace<T>,
    perr: Vec<T>,
    g: DMatrix<T>,
    minv_gt: DMatrix<T>,
    mass: DMatrix<T>,
    row: Vec<T>,
    rows: RowWorkspace<T>,
    du: DVector<T>,
    qdot: DVector<T>,
    stats: RigidStats,
    last_impact: Option<ImpactRecord>,
}

impl<T: Real> RigidStepper<T> {
    /// A stepper for `model` with `settings`.
    pub fn new(model: &Model<T>, settings: RigidContactSettings) -> Result<Self> {
        settings.validate()?;
        let m_max: usize = model.unilateral.iter().map(|c| c.row_count()).sum();
        let nc = model.unilateral.len();
        let nu = model.nu();
        let z = || vec![T::zero(); m_max];
        Ok(Self {
            settings,
            max_rolling_speed: 0.0,
            m: 0,
            contacts: Vec::with_capacity(nc),
            participating: vec![false; nc],
            impacter: vec![false; nc],
            cor: vec![0.0; nc],
            a: DMatrix::zeros(m_max, m_max),
            verr: z(),
            v_applied: z(),
            known: z(),
            known_rows: vec![false; m_max],
            pi: z(),
            pi_total: z(),
            work: z(),
            solver: SolverWorkspace::new(m_max, nc),
            perr: z(),
            g: DMatrix::zeros(m_max, nu),
            minv_gt: DMatrix::zeros(nu, m_max),
            mass: DMatrix::zeros(nu, nu),
            row: vec![T::zero(); nu],
            rows: RowWorkspace::new(model),
            du: DVector::zeros(nu),
            qdot: DVector::zeros(model.nq()),
            stats: RigidStats::default(),
            last_impact: None,
        })
    }

    /// Counters so far.
    pub fn stats(&self) -> RigidStats {
        self.stats
    }

    /// The impact of the last step, if it had one.
    pub fn last_impact(&self) -> Option<ImpactRecord> {
        self.last_impact
    }

    /// The settings.
    pub fn settings(&self) -> &RigidContactSettings {
        &self.settings
    }

    /// Advances `state` by one step of size `h` with constraint tolerance `tol`.
    pub fn step(
        &mut self,
        model: &Model<T>,
        state: &mut State<T>,
        data: &mut Data<T>,
        h: f64,
        tol: f64,
    ) -> Result<()> {
        self.max_rolling_speed = self.settings.transition_velocity_in_use(tol);
        self.last_impact = None;
        realize(model, state, data, Stage::Velocity)?;
        self.select_proximal(model, state, data, tol);
        model.clear_unilateral_multipliers(state);
        if self.m == 0 {
            realize(model, state, data, Stage::Acceleration)?;
            self.du.copy_from(&data.acc.udot);
            self.du *= T::c(h);
            state.u += &self.du;
            return self.finish_step(model, state, data, h, tol, false);
        }
        self.stats.contact_steps += 1;
        self.build_rows(model, state, data);
        self.build_schur(model, data)?;
        if self.impact_phase(model, tol) {
            self.stats.impact_steps += 1;
            // The after-impact energy is read once the contact phase has realized the new u.
            self.last_impact = Some(ImpactRecord {
                t: state.t,
                kinetic_energy_before: kinetic_energy(model, data).re(),
                kinetic_energy_after: f64::NAN,
            });
            for c in 0..state.u.len() {
                state.u[c] -= self.minv_gt_times(c, &self.pi_total);
            }
        }
        self.contact_phase(model, state, data, h)?;
        self.finish_step(model, state, data, h, tol, true)
    }

    /// Enables the proximal contacts, disables the others, and lays out their rows.
    fn select_proximal(
        &mut self,
        model: &Model<T>,
        state: &mut State<T>,
        data: &Data<T>,
        tol: f64,
    ) {
        self.contacts.clear();
        let mut m = 0;
        for (i, c) in model.unilateral.iter().enumerate() {
            let proximal = c.eval_is_proximal(model, state, data, tol);
            model.set_unilateral_flag(state, i, proximal);
            if proximal {
                self.contacts.push(ActiveContact {
                    contact: i,
                    normal_row: m,
                    friction_row: c.has_friction().then_some(m + 1),
                    sign: c.sign(),
                    mu: T::zero(),
                });
                m += c.row_count();
            }
        }
        self.m = m;
    }

    /// G, the velocity errors, perr₀ and the friction coefficients of the proximal contacts.
    fn build_rows(&mut self, model: &Model<T>, state: &State<T>, data: &Data<T>) {
        for k in 0..self.contacts.len() {
            let ac = self.contacts[k];
            let c = &model.unilateral[ac.contact];
            let (r0, n) = (ac.normal_row, c.row_count());
            for r in 0..n {
                c.eval_jacobian_row(model, state, data, r, &mut self.rows, &mut self.row);
                for (col, v) in self.row.iter().enumerate() {
                    self.g[(r0 + r, col)] = *v;
                }
            }
            c.eval_velocity_errors(model, state, data, &mut self.verr[r0..r0 + n]);
            self.perr[r0] = c.eval_position_error(model, state, data);
            if let Some(f) = ac.friction_row {
                let slip =
                    (self.verr[f] * self.verr[f] + self.verr[f + 1] * self.verr[f + 1]).sqrt();
                self.contacts[k].mu =
                    T::c(c.effective_cof(self.settings.transition_velocity, slip.re()));
            }
        }
    }

    /// `M⁻¹ Gᵀ` and `A = G M⁻¹ Gᵀ` over the active rows.
    fn build_schur(&mut self, model: &Model<T>, data: &mut Data<T>) -> Result<()> {
        let (m, nu) = (self.m, model.nu());
        crba(model, data, &mut self.mass);
        // The mass matrix is positive definite (every subtree has mass, checked at build);
        // a pivot below 1e-14 of the largest diagonal means it is numerically singular.
        if schur::factor_ldlt(&mut self.mass, nu, 1e-14) > 0 {
            return Err(Error::model("the mass matrix is singular"));
        }
        for r in 0..m {
            for c in 0..nu {
                self.row[c] = self.g[(r, c)];
            }
            schur::solve_ldlt(&self.mass, nu, &mut self.row);
            for c in 0..nu {
                self.minv_gt[(c, r)] = self.row[c];
            }
        }
        for i in 0..m {
            for j in 0..m {
                let mut s = T::zero();
                for c in 0..nu {
                    s += self.g[(i, c)] * self.minv_gt[(c, j)];
                }
                self.a[(i, j)] = s;
            }
        }
        Ok(())
    }

    /// Solves the impulse problem over the current active rows into `pi`, with the configured
    /// solver (PLUS or PGS), starting from `start`.
    pub(crate) fn solve_impulse_problem(&mut self, start: ImpulseStart) {
        let (v_start, friction) = match start {
            ImpulseStart::VelocityErrors => (&self.verr, true),
            ImpulseStart::PositionCorrection => (&self.work, false),
        };
        let problem = ImpulseProblem {
            a: &self.a,
            m: self.m,
            contacts: &self.contacts,
            participating: &self.participating,
            v_start,
            v_applied: &self.v_applied,
            known: &self.known,
            known_rows: &self.known_rows,
            friction,
            max_rolling_speed: self.max_rolling_speed,
        };
        solve(
            self.settings.solver,
            &problem,
            &mut self.solver,
            &mut self.pi,
        );
    }

    /// `(M⁻¹ Gᵀ x)_c` over the active rows.
    fn minv_gt_times(&self, c: usize, x: &[T]) -> T {
        let mut s = T::zero();
        for (r, xr) in x[..self.m].iter().enumerate() {
            s += self.minv_gt[(c, r)] * *xr;
        }
        s
    }

    /// Contact phase: forces, impulses of the step, new u and z; stores λ = π/h.
    fn contact_phase(
        &mut self,
        model: &Model<T>,
        state: &mut State<T>,
        data: &mut Data<T>,
        h: f64,
    ) -> Result<()> {
        let m = self.m;
        realize(model, state, data, Stage::Acceleration)?;
        if let Some(record) = &mut self.last_impact {
            record.kinetic_energy_after = kinetic_energy(model, data).re();
        }
        let ht = T::c(h);
        for i in 0..m {
            let mut s = T::zero();
            for c in 0..model.nu() {
                s += self.g[(i, c)] * data.acc.udot[c];
            }
            self.v_applied[i] = s * ht;
            self.known[i] = T::zero();
            self.known_rows[i] = false;
        }
        // Velocity errors of the post-impact u (G is unchanged: q has not moved).
        for i in 0..m {
            let mut s = T::zero();
            for c in 0..model.nu() {
                s += self.g[(i, c)] * state.u[c];
            }
            self.verr[i] = s;
        }
        self.participating.iter_mut().for_each(|p| *p = true);
        self.solve_impulse_problem(ImpulseStart::VelocityErrors);
        for c in 0..model.nu() {
            state.u[c] += data.acc.udot[c] * ht - self.minv_gt_times(c, &self.pi);
        }
        for k in 0..self.contacts.len() {
            let ac = self.contacts[k];
            let n = model.unilateral[ac.contact].row_count();
            let lambda = &self.pi[ac.normal_row..ac.normal_row + n];
            model.store_unilateral_multipliers(state, ac.contact, lambda, ht);
        }
        Ok(())
    }

    /// z, projection, q update, quaternion normalization and time.
    fn finish_step(
        &mut self,
        model: &Model<T>,
        state: &mut State<T>,
        data: &mut Data<T>,
        h: f64,
        tol: f64,
        contacts: bool,
    ) -> Result<()> {
        let ht = T::c(h);
        for (z, zdot) in state.z.iter_mut().zip(data.dynamics.zdot.iter()) {
            *z += *zdot * ht;
        }
        if contacts && self.any_position_error_violated(tol) {
            self.position_projection(h);
        } else {
            self.du.fill(T::zero());
        }
        for b in model.bodies().iter().skip(1) {
            let (qr, ur) = (b.q_range(), b.u_range());
            for k in ur.clone() {
                self.row[k] = state.u[k] - self.du[k];
            }
            b.mobilizer.qdot(
                &state.q.as_slice()[qr.clone()],
                &self.row[ur],
                &mut self.qdot.as_mut_slice()[qr],
            );
        }
        state.q.axpy(ht, &self.qdot, T::one());
        normalize_quaternions(state.q.as_mut_slice(), &model.quaternion_starts, None);
        state.t += h;
        data.invalidate(Stage::Position);
        if !state.is_finite() {
            return Err(Error::simulation(
                state.t - h,
                SimulationFailure::NonFiniteState,
            ));
        }
        Ok(())
    }
}
