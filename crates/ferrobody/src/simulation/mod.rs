//! `Simulation`: advances a state with an integrator, exactly in Simbody's order, and produces
//! report states.
//!
//! One accepted step (Simbody `AbstractIntegratorRep::stepTo` + `takeOneStep`, notes §1.9, §8):
//!
//! 1. save `(t0, y0)` and the relative weights of u and z;
//! 2. evaluate `f0 = ẏ(t0, y0)` with the auto-update variables as they are (pre-swap);
//! 3. swap the auto-update values computed in (2) into the state;
//! 4. attempt steps (Merson: 4 evaluations each) until one is accepted, then project.
//!
//! Reports between steps are Hermite-interpolated from `(t0, y0, f0)` and the end state with its
//! derivative, so they never change the step sequence.

use crate::data::{Data, Stage};
use crate::error::{Error, Result, SimulationFailure};
use crate::integrators::error_norm::{correction_norm_squared, error_norm, relative_scaling};
use crate::integrators::hermite::{interpolate, Segment};
use crate::integrators::rigid_contact::RigidStepper;
use crate::integrators::rk_merson::{self, MersonWorkspace};
use crate::integrators::step_control::{adjust_step_size, choose_step_end};
use crate::integrators::tr_bdf2::{self, Outcome, TrBdf2};
use crate::integrators::{
    explicit_euler, rk2, rk3, rk4, rk_feldberg, semi_explicit_euler2, verlet, IntegratorKind,
    IntegratorSettings, Stats,
};
use crate::math::q_projection::{
    normalize_quaternions, project_q, quaternion_norm_error, Projection,
};
use crate::model::Model;
use crate::pipeline::projection::{
    project_q as project_constraints_q, project_trial_state, project_u as project_constraints_u,
    ProjectionOptions, ProjectionResult, ProjectionWorkspace,
};
use crate::pipeline::{realize, step_derivative};
use crate::scalar::Real;
use crate::state::State;

/// Buffers of the step loop, sized once.
struct Buffers<T: Real> {
    y0: Vec<T>,
    f0: Vec<T>,
    f_end: Vec<T>,
    y_interp: Vec<T>,
    u_scale: Vec<f64>,
    z_scale: Vec<f64>,
    merson: MersonWorkspace<T>,
}

/// A running simulation: model, advanced state, its data, and the integrator's memory.
pub struct Simulation<'m, T: Real = f64> {
    model: ModelHandle<'m, T>,
    settings: IntegratorSettings,
    state: State<T>,
    data: Data<T>,
    report_state: State<T>,
    report_data: Data<T>,
    buf: Buffers<T>,
    projection: ProjectionWorkspace<T>,
    rigid: Option<RigidStepper<T>>,
    /// The implicit integrator's Jacobian and factors (kind `Implicit` only).
    implicit: Option<Box<TrBdf2<T>>>,
    t_prev: f64,
    h: f64,
    budget: crate::run_budget::RunBudget,
    f_end_valid: bool,
    /// Whether `data` is realized to Acceleration at the advanced state (it may lag behind a
    /// valid `f_end` taken from the implicit method's last stage).
    data_valid: bool,
    interpolation_valid: bool,
    /// Simbody's q count for the error norm's RMS (`Model::simbody_q_count`).
    error_q_count: usize,
    stats: Stats,
}

impl<'m, T: Real> Simulation<'m, T> {
    /// Starts a simulation from `state`: normalizes quaternions, evaluates the initial
    /// derivative, swaps auto-update variables once (Simbody `Integrator::initialize`).
    /// `model` is borrowed (`&model`) or shared (`Arc<Model>`: the simulation then owns what
    /// it runs and can live as long as it likes, `Simulation<'static, T>`).
    pub fn new(
        model: impl Into<ModelHandle<'m, T>>,
        mut state: State<T>,
        settings: IntegratorSettings,
    ) -> Result<Self> {
        let handle = model.into();
        let model = &*handle;
        settings.validate()?;
        let mut data = Data::new(model);
        let mut projection = ProjectionWorkspace::new(model);
        prepare_start(model, &mut state, &settings, &mut data, &mut projection)?;
        let rigid = rigid_stepper(model, &settings)?;
        let implicit = implicit_workspace(model, &settings)?;
        realize(model, &state, &mut data, Stage::Acceleration)?;
        state.swap_auto_updates(model, &mut data);
        let ny = state.ny();
        let z = || vec![T::zero(); ny];
        let h0 = settings.initial_step.unwrap_or(0.01);
        let h0 = settings.min_step.map_or(h0, |lo| h0.max(lo));
        let h0 = settings.max_step.map_or(h0, |hi| h0.min(hi));
        Ok(Self {
            model: handle.clone(),
            settings,
            report_state: state.clone(),
            report_data: Data::new(model),
            t_prev: state.t,
            state,
            data,
            buf: Buffers {
                y0: z(),
                f0: z(),
                f_end: z(),
                y_interp: z(),
                u_scale: vec![1.0; model.nu()],
                z_scale: vec![1.0; model.nz()],
                merson: MersonWorkspace::new(ny),
            },
            projection,
            rigid,
            implicit,
            h: h0,
            budget: Default::default(),
            f_end_valid: false,
            data_valid: false,
            interpolation_valid: false,
            error_q_count: model.simbody_q_count(),
            stats: Stats::default(),
        })
    }

    /// The advanced state (the end of the last accepted step).
    pub fn state(&self) -> &State<T> {
        &self.state
    }

    /// Mutable access to the advanced state, e.g. to change a discrete variable between steps.
    /// Invalidates cached derivatives.
    pub fn state_mut(&mut self) -> &mut State<T> {
        self.f_end_valid = false;
        self.data_valid = false;
        self.interpolation_valid = false;
        self.data.invalidate(Stage::Position);
        &mut self.state
    }

    /// Replaces the advanced state (a restart from `state` that keeps the integrator's
    /// settings, statistics and step size): sizes and finiteness checked, quaternions
    /// normalized, the constraints projected as at the start. Errors leave the simulation
    /// unchanged.
    pub fn set_state(&mut self, mut state: State<T>) -> Result<()> {
        let mut scratch = Data::new(&*self.model);
        prepare_start(
            &*self.model,
            &mut state,
            &self.settings,
            &mut scratch,
            &mut self.projection,
        )?;
        self.t_prev = state.t;
        *self.state_mut() = state;
        Ok(())
    }

    /// The controls held for the next steps (one per actuator, [`Model::controls`]).
    pub fn controls(&self) -> &[T] {
        self.model.controls(&self.state)
    }

    /// Sets the controls, held constant from now on (zero-order hold). A change is a
    /// discontinuity at the current time: as Simbody's integrators do after an event handler
    /// changes the state, the next step starts from a fresh derivative (no first-same-as-last
    /// reuse, no interpolation back across the change) with the step size the integrator had
    /// reached. Setting the same values again changes nothing. Errors (state unchanged) if
    /// they are not one finite value per actuator.
    pub fn set_controls(&mut self, controls: &[T]) -> Result<()> {
        if self.model.controls(&self.state) == controls {
            return Ok(());
        }
        self.model.set_controls(&mut self.state, controls)?;
        self.state_mut();
        Ok(())
    }

    /// The model.
    pub fn model(&self) -> &Model<T> {
        &self.model
    }

    /// Data of the advanced state, realized to Acceleration.
    pub fn data(&mut self) -> Result<&Data<T>> {
        self.ensure_end_derivative()?;
        if !self.data_valid {
            realize(
                &*self.model,
                &self.state,
                &mut self.data,
                Stage::Acceleration,
            )
            .map_err(|e| e.at_time(self.state.t))?;
            self.data_valid = true;
        }
        Ok(&self.data)
    }

    /// The model, the advanced state and its data realized to Acceleration, borrowed
    /// together (what [`data`](Self::data) alone cannot give: it borrows the simulation
    /// mutably).
    pub fn realized(&mut self) -> Result<(&Model<T>, &State<T>, &Data<T>)> {
        self.data()?;
        Ok((&self.model, &self.state, &self.data))
    }

    /// Integrator statistics so far.
    pub fn stats(&self) -> Stats {
        let (jacobians, newton_matrices) = self
            .implicit
            .as_ref()
            .map_or((0, 0), |i| (i.jacobian_evaluations, i.factorizations));
        Stats {
            realizations: self.data.realizations + self.report_data.realizations,
            jacobians,
            newton_matrices,
            ..self.stats
        }
    }

    /// Stops the run with an error once `seconds` of wall time have passed from now (`None`:
    /// no limit). Checked every few steps.
    pub fn set_wall_time_limit(&mut self, seconds: Option<f64>) {
        self.budget.set_wall_time(seconds);
    }

    /// Evaluates the muscles of a model of 24 or more (12 or more when none is wrapped) on
    /// rayon's threads, each recording its forces for the sequential pass to add in order, so the results are bit for bit those
    /// of one thread (the `parallel` feature). It takes effect while the simulation runs on a
    /// thread of a rayon pool of two or more threads (`pool.install(|| sim.advance_to(t))`;
    /// the `ferrobody` command runs there); `RAYON_NUM_THREADS=1` turns it off. Turning it on
    /// also starts a helper thread of the simulation's own (with a copy of a borrowed model),
    /// which spins briefly between evaluations instead of sleeping as rayon's workers do. The
    /// run then times itself, from time to time, with the muscles on one thread, on rayon's
    /// pool and split with the helper, and keeps the fastest (on some processors a second
    /// core costs more than it saves). Off by default: parallel runs of many simulations gain
    /// nothing from it.
    pub fn set_parallel_forces(&mut self, on: bool) {
        let split = crate::model::muscle_split(self.model());
        let on = on && crate::model::muscles_worth_parallel(self.model(), split.is_some());
        self.data.force_records.enabled = on;
        self.report_data.force_records.enabled = on;
        self.data.force_records.split = split;
        self.report_data.force_records.split = split;
        self.data.force_records.helper.0 = None;
        self.data.force_records.helper_split = split;
        #[cfg(feature = "parallel")]
        if on && rayon::current_num_threads() >= 2 {
            let model = match &self.model {
                ModelHandle::Shared(model) => std::sync::Arc::clone(model),
                ModelHandle::Borrowed(model) => std::sync::Arc::new((*model).clone()),
            };
            self.data.force_records.helper.0 = crate::model::start_muscle_helper(model);
        }
        let with_helper = self.data.force_records.helper.0.is_some();
        self.data.force_records.tuner.reset(with_helper);
        self.report_data.force_records.tuner.reset(false);
    }

    /// The step size the next attempt will use (s).
    pub fn next_step_size(&self) -> f64 {
        self.h
    }

    /// Steps until the state's time is exactly `t` (the last step is truncated or stretched).
    pub fn advance_to(&mut self, t: f64) -> Result<()> {
        self.budget.set_end_time(t);
        while self.state.t < t {
            self.step(t)?;
        }
        Ok(())
    }

    /// Runs to `final_time`, calling `on_report` with a state realized to Acceleration at
    /// t0 and every `report_interval` (interpolated), and at `final_time`.
    pub fn run(
        &mut self,
        final_time: f64,
        report_interval: f64,
        on_report: impl FnMut(&Model<T>, &State<T>, &Data<T>) -> Result<()>,
    ) -> Result<()> {
        self.run_reports(final_time, report_interval, false, reports::Held, on_report)
    }

    /// Like [`Self::run`], but every report time is also a step boundary: steps are cut at
    /// each report time instead of being interpolated across it. This is OpenSim's
    /// `Manager::integrate(t)` called once per report time (Simbody's `TimeStepper::stepTo(t)`
    /// passes t as the integrator's step limit), so .osim runs reproduce OpenSim's step
    /// sequence.
    pub fn run_stepping_to_reports(
        &mut self,
        final_time: f64,
        report_interval: f64,
        on_report: impl FnMut(&Model<T>, &State<T>, &Data<T>) -> Result<()>,
    ) -> Result<()> {
        self.run_reports(final_time, report_interval, true, reports::Held, on_report)
    }

    /// Like [`Self::run_stepping_to_reports`] (every report time a step boundary), with
    /// controls chosen before each report interval: `controller(k, state, controls)` gets the
    /// interval's index k (0 from the start), the state at its start and the controls held so
    /// far, overwrites them with those to hold until the next report, and may stop the run
    /// with an error. A closed loop sampled at the report rate, or an open-loop schedule.
    pub fn run_with_controller(
        &mut self,
        final_time: f64,
        report_interval: f64,
        controller: impl FnMut(usize, &State<T>, &mut [T]) -> Result<()>,
        on_report: impl FnMut(&Model<T>, &State<T>, &Data<T>) -> Result<()>,
    ) -> Result<()> {
        self.run_reports(final_time, report_interval, true, controller, on_report)
    }

    /// Takes one accepted step, never past `t_max`.
    pub fn step(&mut self, t_max: f64) -> Result<()> {
        let t0 = self.state.t;
        if t_max.is_nan() || t_max <= t0 {
            return Err(Error::simulation(
                t0,
                SimulationFailure::Request(format!(
                    "cannot step to t = {t_max}: not after the current time"
                )),
            ));
        }
        self.budget
            .check(t0, self.stats.steps_taken, self.settings.max_steps)?;
        // The rigid-contact stepper needs no derivative at the step start (it is not
        // interpolated across impacts); it swaps in the auto-update values of its own last
        // force evaluation.
        let rigid = self.rigid.is_some();
        if !rigid {
            self.ensure_end_derivative()?;
        }
        self.state.copy_y_to(&mut self.buf.y0);
        crate::state::copy_small(&mut self.buf.f0, &self.buf.f_end);
        self.t_prev = t0;
        let (nq, nu) = (self.model.nq(), self.model.nu());
        relative_scaling(&self.buf.y0[nq..nq + nu], &mut self.buf.u_scale);
        relative_scaling(&self.buf.y0[nq + nu..], &mut self.buf.z_scale);
        self.state.swap_auto_updates(&*self.model, &mut self.data);
        let t1 = match self.settings.kind {
            kind if kind.is_error_controlled() => self.merson_step(t0, t_max)?,
            IntegratorKind::SemiExplicitEuler => self.rigid_step(t0, t_max)?,
            kind => self.fixed_step(kind, t0, t_max)?,
        };
        self.state.t = t1;
        self.state.set_y(&self.buf.merson.y1);
        self.f_end_valid = false;
        self.data_valid = false;
        if self.implicit.is_some() && self.model.auto_update_layout().is_empty() {
            // The implicit method's end derivative from its last stage's equation (Shampine:
            // better than re-evaluating f for stiff problems, whose evaluation amplifies the
            // Newton error by J); kept unless auto-update variables need the end realized.
            crate::state::copy_small(
                &mut self.buf.f_end,
                tr_bdf2::end_derivative(&self.buf.merson),
            );
            self.f_end_valid = true;
        }
        self.interpolation_valid = !rigid;
        self.stats.steps_taken += 1;
        if !self.state.is_finite() {
            return Err(Error::simulation(t0, SimulationFailure::NonFiniteState));
        }
        Ok(())
    }

    /// Realizes the advanced state to Acceleration (once) and keeps its derivative.
    fn ensure_end_derivative(&mut self) -> Result<()> {
        if !self.f_end_valid {
            let realized = step_derivative(
                &*self.model,
                &self.state,
                &mut self.data,
                &mut self.buf.f_end,
            )
            .map_err(|e| e.at_time(self.state.t))?;
            self.f_end_valid = true;
            self.data_valid = realized;
        }
        Ok(())
    }
}

mod attempts;
mod model_handle;
mod reports;
mod setup;
pub mod step_jacobian;
#[cfg(all(test, feature = "parallel", feature = "io"))]
mod tests;

pub use model_handle::ModelHandle;
pub use reports::check_report_rows;
pub use step_jacobian::StepJacobian;

use setup::{implicit_workspace, prepare_start, project_state, rigid_stepper};
