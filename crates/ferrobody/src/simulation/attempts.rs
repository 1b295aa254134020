//! The step attempts of `Simulation`: the error-controlled loop, each method family's attempt
//! (Runge–Kutta and the implicit TR-BDF2, Euler, the low-order position/velocity methods), the
//! fixed-step methods and the rigid-contact stepper.

use super::*;

impl<T: Real> Simulation<'_, T> {
    /// Error-controlled Merson attempts until one is accepted; returns the end time.
    pub(super) fn merson_step(&mut self, t0: f64, t_max: f64) -> Result<f64> {
        let acc = self.settings.accuracy;
        let tol = self.settings.consistent_constraint_tolerance();
        loop {
            let (t1, limited) = choose_step_end(t0, self.h, t_max);
            if t1.is_nan() || t1 <= t0 {
                return Err(Error::simulation(
                    t0,
                    SimulationFailure::StepSizeUnderflow {
                        h: self.h,
                        min: t0.abs() * f64::EPSILON,
                        accuracy: acc,
                    },
                ));
            }
            self.stats.steps_attempted += 1;
            let err = (self.merson_attempt(t0, t1, acc, tol), self.error_order());
            if adjust_step_size(
                &mut self.h,
                err,
                acc,
                limited,
                self.settings.min_step,
                self.settings.max_step,
            ) {
                return Ok(t1);
            }
            self.stats.error_test_failures += 1;
            if self.h < crate::integrators::MIN_STEP_SIZE && self.settings.min_step.is_none() {
                return Err(crate::run_budget::step_too_small(t0, self.h, acc));
            }
        }
    }

    /// The error order of the error-controlled method in use (Simbody's `errOrder`).
    fn error_order(&self) -> i32 {
        match self.settings.kind {
            IntegratorKind::RungeKutta2 => rk2::ERROR_ORDER,
            IntegratorKind::RungeKutta3 => rk3::ERROR_ORDER,
            IntegratorKind::RungeKuttaFeldberg => rk_feldberg::ERROR_ORDER,
            IntegratorKind::ExplicitEuler => explicit_euler::ERROR_ORDER,
            IntegratorKind::SemiExplicitEuler2 => semi_explicit_euler2::ERROR_ORDER,
            IntegratorKind::Verlet => verlet::ERROR_ORDER,
            IntegratorKind::Implicit => tr_bdf2::ERROR_ORDER,
            _ => rk_merson::ERROR_ORDER,
        }
    }

    /// One attempt: integrate, test the error before and after projection; returns the norm
    /// (infinite when the derivative or the projection failed).
    fn merson_attempt(&mut self, t0: f64, t1: f64, acc: f64, tol: f64) -> f64 {
        match self.settings.kind {
            IntegratorKind::ExplicitEuler => return self.euler_attempt(t0, t1, tol),
            IntegratorKind::SemiExplicitEuler2 | IntegratorKind::Verlet => {
                return self.low_order_attempt(t0, t1, acc, tol)
            }
            _ => {}
        }
        let error_order = self.error_order();
        if let Some(early) = self.runge_kutta_attempt(t0, t1, acc) {
            return early;
        }
        self.finish_attempt(t1, acc, tol, error_order)
    }

    /// The attempt of an explicit Runge–Kutta method or of the implicit one, filling
    /// `buf.merson.y1` and `y_err`; `Some(norm)` ends the attempt there (a failure).
    fn runge_kutta_attempt(&mut self, t0: f64, t1: f64, acc: f64) -> Option<f64> {
        if let Some(implicit) = self.implicit.as_mut() {
            implicit.prepare(&self.state);
        }
        let (model, state, data, buf) =
            (&*self.model, &mut self.state, &mut self.data, &mut self.buf);
        let mut eval = |t: f64, y: &[T], ydot: &mut [T]| {
            state.t = t;
            state.set_y(y);
            step_derivative(model, state, data, ydot).map(|_| ())
        };
        let (y0, f0, ws) = (&buf.y0, &buf.f0, &mut buf.merson);
        if let Some(implicit) = self.implicit.as_mut() {
            let q = (model.nq(), self.error_q_count);
            let (u_scale, z_scale) = (&buf.u_scale, &buf.z_scale);
            let norm2 = |e: &[f64]| correction_norm_squared(e, q, u_scale, z_scale);
            return match implicit.attempt((t0, y0, f0), t1, acc, ws, &mut eval, &norm2) {
                Ok(Outcome::Done) => None,
                // Newton failed even with a fresh Jacobian: an error that shrinks h to about
                // a quarter (Simbody's rule with error order 3).
                Ok(Outcome::NewtonFailed) => Some(64.0 * acc),
                Err(_) => Some(f64::INFINITY),
            };
        }
        let attempted = match self.settings.kind {
            IntegratorKind::RungeKutta2 => rk2::attempt(t0, y0, f0, t1, ws, &mut eval),
            IntegratorKind::RungeKutta3 => rk3::attempt(t0, y0, f0, t1, ws, &mut eval),
            IntegratorKind::RungeKuttaFeldberg => {
                rk_feldberg::attempt(t0, y0, f0, t1, ws, &mut eval)
            }
            _ => rk_merson::attempt(t0, y0, f0, t1, ws, &mut eval),
        };
        attempted.is_err().then_some(f64::INFINITY)
    }

    /// The error norm of an attempt's end, projected as Simbody's `attemptDAEStep` does when
    /// the error is within `2^p acc` (infinite when the projection failed).
    fn finish_attempt(&mut self, t1: f64, acc: f64, tol: f64, error_order: i32) -> f64 {
        let (model, state, data, buf) =
            (&*self.model, &mut self.state, &mut self.data, &mut self.buf);
        let (nq, quats) = (model.nq(), &model.quaternion_starts);
        let ws = &mut buf.merson;
        let weights = StepNorm::new(model, self.error_q_count, &buf.u_scale, &buf.z_scale);
        let norm = |y: &[T], e: &[T]| weights.of(y, e);
        let err0 = norm(&ws.y1, &ws.y_err);
        // Simbody's attemptDAEStep: not worth projecting unless a half step would have passed.
        let worth_projecting = 2f64.powi(error_order) * acc;
        if !err0.is_finite() || err0 > worth_projecting {
            return err0;
        }
        if model.has_constraints() {
            state.t = t1;
            let proj = &mut self.projection;
            return match project_trial_state(
                model,
                state,
                data,
                proj,
                tol,
                &mut ws.y1,
                &mut ws.y_err,
            ) {
                Ok(ProjectionResult::Unchanged) => err0,
                Ok(ProjectionResult::Projected) => norm(&ws.y1, &ws.y_err),
                _ => f64::INFINITY,
            };
        }
        match project_q(&mut ws.y1[..nq], quats, tol, &mut ws.y_err[..nq]) {
            Projection::Failed => f64::INFINITY,
            Projection::Unchanged => err0,
            Projection::Normalized => norm(&ws.y1, &ws.y_err),
        }
    }

    /// One error-controlled Euler attempt (Simbody's `ExplicitEulerIntegratorRep::
    /// attemptDAEStep`): the end state projected without an error estimate, its derivative,
    /// and the unprojected end's gap to the trapezoidal rule as the estimate; returns the norm.
    fn euler_attempt(&mut self, t0: f64, t1: f64, tol: f64) -> f64 {
        let (model, state, data, buf) =
            (&*self.model, &mut self.state, &mut self.data, &mut self.buf);
        let ws = &mut buf.merson;
        explicit_euler::step(t0, &buf.y0, &buf.f0, t1, ws);
        ws.y_err.copy_from_slice(&ws.y1);
        let nq = model.nq();
        let quats = &model.quaternion_starts;
        // Simbody projects with an empty error estimate: `y_pred` takes the unused changes.
        let projected = if model.has_constraints() {
            state.t = t1;
            let proj = &mut self.projection;
            matches!(
                project_trial_state(model, state, data, proj, tol, &mut ws.y1, &mut ws.y_pred),
                Ok(ProjectionResult::Unchanged | ProjectionResult::Projected)
            )
        } else {
            project_q(&mut ws.y1[..nq], quats, tol, &mut ws.y_pred[..nq]) != Projection::Failed
        };
        if !projected {
            return f64::INFINITY;
        }
        state.t = t1;
        state.set_y(&ws.y1);
        let [f1, ..] = &mut ws.f;
        if step_derivative(model, state, data, f1).is_err() {
            return f64::INFINITY;
        }
        explicit_euler::error_estimate(t1 - t0, &buf.y0, &buf.f0, f1, &mut ws.y_err);
        StepNorm::new(model, self.error_q_count, &buf.u_scale, &buf.z_scale).of(&ws.y1, &ws.y_err)
    }

    /// One attempt of Simbody's semi-explicit Euler 2 or Verlet, which project their own end
    /// states (quaternions only: both refuse bilateral constraints); returns the error norm
    /// (infinite when an evaluation, the projection or Verlet's iteration failed).
    fn low_order_attempt(&mut self, t0: f64, t1: f64, acc: f64, tol: f64) -> f64 {
        let (model, state, data, buf) =
            (&*self.model, &mut self.state, &mut self.data, &mut self.buf);
        let mut eval = |t: f64, y: &[T], ydot: &mut [T]| {
            state.t = t;
            state.set_y(y);
            step_derivative(model, state, data, ydot).map(|_| ())
        };
        let start = (t0, &buf.y0[..], &buf.f0[..]);
        let ws = &mut buf.merson;
        let ok = if self.settings.kind == IntegratorKind::Verlet {
            verlet::attempt(model, start, (t1, acc, tol), ws, &mut eval)
        } else {
            semi_explicit_euler2::attempt(model, start, t1, tol, ws, &mut eval)
        };
        if !matches!(ok, Ok(true)) {
            return f64::INFINITY;
        }
        StepNorm::new(model, self.error_q_count, &buf.u_scale, &buf.z_scale).of(&ws.y1, &ws.y_err)
    }

    /// One step of the rigid-contact stepper.
    pub(super) fn rigid_step(&mut self, t0: f64, t_max: f64) -> Result<f64> {
        let (t1, _) = choose_step_end(t0, self.settings.fixed_step, t_max);
        self.stats.steps_attempted += 1;
        let tol = self.settings.consistent_constraint_tolerance();
        let rigid = self
            .rigid
            .as_mut()
            .expect("rigid stepper exists for this kind");
        rigid
            .step(&*self.model, &mut self.state, &mut self.data, t1 - t0, tol)
            .map_err(|e| e.at_time(t0))?;
        self.state.copy_y_to(&mut self.buf.merson.y1);
        Ok(t1)
    }

    /// The rigid-contact stepper (`None` for other integrators): counters, last impact.
    pub fn rigid_stepper(&self) -> Option<&RigidStepper<T>> {
        self.rigid.as_ref()
    }

    /// A fixed-step RK4 or Euler step; quaternions normalized afterwards.
    pub(super) fn fixed_step(&mut self, kind: IntegratorKind, t0: f64, t_max: f64) -> Result<f64> {
        let (t1, _) = choose_step_end(t0, self.settings.fixed_step, t_max);
        self.stats.steps_attempted += 1;
        let (model, state, data, buf) =
            (&*self.model, &mut self.state, &mut self.data, &mut self.buf);
        if kind == IntegratorKind::ExplicitEulerFixed {
            explicit_euler::step(t0, &buf.y0, &buf.f0, t1, &mut buf.merson);
        } else {
            let mut eval = |t: f64, y: &[T], ydot: &mut [T]| {
                state.t = t;
                state.set_y(y);
                step_derivative(model, state, data, ydot).map(|_| ())
            };
            rk4::step(t0, &buf.y0, &buf.f0, t1, &mut buf.merson, &mut eval)
                .map_err(|e| e.at_time(t0))?;
        }
        normalize_quaternions(
            &mut buf.merson.y1[..model.nq()],
            &model.quaternion_starts,
            None,
        );
        if model.has_constraints() {
            state.t = t1;
            state.set_y(&buf.merson.y1);
            let opts =
                ProjectionOptions::during_step(self.settings.consistent_constraint_tolerance());
            project_state(model, state, data, &mut self.projection, &opts)?;
            state.copy_y_to(&mut buf.merson.y1);
        }
        Ok(t1)
    }
}

/// Simbody's error norm with one step's weights: the model's q layout (and Simbody's count of
/// q for the RMS) and the relative scales of u and z taken at the step's start.
struct StepNorm<'a, T: Real> {
    model: &'a Model<T>,
    q_count: usize,
    u_scale: &'a [f64],
    z_scale: &'a [f64],
}

impl<'a, T: Real> StepNorm<'a, T> {
    fn new(model: &'a Model<T>, q_count: usize, u_scale: &'a [f64], z_scale: &'a [f64]) -> Self {
        Self {
            model,
            q_count,
            u_scale,
            z_scale,
        }
    }

    /// The norm of the estimate `e` at the trial state `y`.
    fn of(&self, y: &[T], e: &[T]) -> f64 {
        let m = self.model;
        let q = (m.nq(), self.q_count);
        error_norm(
            y,
            e,
            q,
            m.nu(),
            &m.quaternion_starts,
            self.u_scale,
            self.z_scale,
        )
    }
}
