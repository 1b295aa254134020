//! The report loop of `Simulation`: steps to each report time (or onto it, for OpenSim's
//! `Manager::integrate` semantics and the rigid-contact stepper) and fills the report state,
//! Hermite-interpolated within the last step (linearly for the first-order methods), projected
//! and realized to Acceleration, so that reports never change the step sequence.

use super::*;
use crate::error::{invalid, ModelError};

/// More report rows than this is a mistake in a scene or a call, not a request (it would fill
/// the disk).
const MAX_REPORT_ROWS: f64 = 1e8;

/// Refuses runs that would write more than 1e8 report rows.
pub fn check_report_rows(
    duration: f64,
    report_interval: f64,
) -> std::result::Result<(), ModelError> {
    if duration / report_interval > MAX_REPORT_ROWS {
        return Err(invalid!(
            "simulation.report_interval: {report_interval} s over {duration} s would write more than {MAX_REPORT_ROWS:e} rows"
        ));
    }
    Ok(())
}

/// What a run asks before each report interval: given the interval's index (0 from the
/// start) and the state at its start, write the controls to hold over it into the buffer
/// (which holds the current ones) and say whether they changed.
pub(super) trait ControlHook<T: Real> {
    fn controls(&mut self, interval: usize, state: &State<T>, out: &mut [T]) -> Result<bool>;
}

/// No controller: the held controls stay.
pub(super) struct Held;

impl<T: Real> ControlHook<T> for Held {
    fn controls(&mut self, _: usize, _: &State<T>, _: &mut [T]) -> Result<bool> {
        Ok(false)
    }
}

impl<T: Real, F: FnMut(usize, &State<T>, &mut [T]) -> Result<()>> ControlHook<T> for F {
    fn controls(&mut self, interval: usize, state: &State<T>, out: &mut [T]) -> Result<bool> {
        self(interval, state, out)?;
        Ok(true)
    }
}

impl<T: Real> Simulation<'_, T> {
    pub(super) fn run_reports(
        &mut self,
        final_time: f64,
        report_interval: f64,
        step_to_reports: bool,
        mut controller: impl ControlHook<T>,
        mut on_report: impl FnMut(&Model<T>, &State<T>, &Data<T>) -> Result<()>,
    ) -> Result<()> {
        let t_start = self.state.t;
        self.budget.set_end_time(final_time);
        self.report_at(t_start)?;
        on_report(&*self.model, &self.report_state, &self.report_data)?;
        let mut k = 1u64;
        let mut held = self.controls().to_vec();
        loop {
            if controller.controls(k as usize - 1, &self.state, &mut held)? {
                self.set_controls(&held)?;
            }
            let mut t_report = if report_interval > 0.0 {
                (t_start + k as f64 * report_interval).min(final_time)
            } else {
                final_time
            };
            // A report time a rounding error short of the end is the end (no near-duplicate row).
            if final_time - t_report <= 1e-9 * report_interval {
                t_report = final_time;
            }
            // The rigid-contact stepper cannot be interpolated across impacts: it steps onto
            // report times instead.
            let t_max = if self.rigid.is_some() || step_to_reports {
                t_report
            } else {
                final_time
            };
            while self.state.t < t_report {
                self.step(t_max)?;
            }
            self.report_at(t_report)?;
            on_report(&*self.model, &self.report_state, &self.report_data)?;
            if t_report >= final_time {
                return Ok(());
            }
            k += 1;
        }
    }

    /// Fills the report state and data at time `t` (the advanced state, or an interpolation
    /// within the last step), projected and realized to Acceleration.
    pub(super) fn report_at(&mut self, t: f64) -> Result<()> {
        self.report_state.clone_from(&self.state);
        if t < self.state.t {
            if !self.interpolation_valid {
                return Err(Error::simulation(
                    self.state.t,
                    SimulationFailure::Request(if self.rigid.is_some() {
                        format!("cannot report at t = {t}: the rigid-contact stepper reports only at step ends")
                    } else {
                        format!(
                            "cannot report at t = {t}: the state was changed after the last step"
                        )
                    }),
                ));
            }
            self.ensure_end_derivative()?;
            let seg = Segment {
                t0: self.t_prev,
                y0: &self.buf.y0,
                f0: &self.buf.f0,
                t1: self.state.t,
                y1: &self.buf.merson.y1,
                f1: &self.buf.f_end,
            };
            let linear = matches!(
                self.settings.kind,
                IntegratorKind::ExplicitEuler | IntegratorKind::SemiExplicitEuler2
            );
            if linear {
                let (y0, y1) = (&self.buf.y0, &self.buf.merson.y1);
                explicit_euler::interpolate(seg.t0, y0, seg.t1, y1, t, &mut self.buf.y_interp);
            } else {
                interpolate(&seg, t, &mut self.buf.y_interp);
            }
            self.report_state.t = t;
            self.report_state.set_y(&self.buf.y_interp);
            let quats = &self.model.quaternion_starts;
            let tol = self.settings.consistent_constraint_tolerance();
            if self.model.has_constraints() {
                let opts = ProjectionOptions {
                    limit: f64::INFINITY,
                    ..ProjectionOptions::during_step(tol)
                };
                let (model, rs, rd) = (&*self.model, &mut self.report_state, &mut self.report_data);
                project_state(model, rs, rd, &mut self.projection, &opts)?;
            } else if quaternion_norm_error(self.report_state.q.as_slice(), quats) > tol {
                normalize_quaternions(self.report_state.q.as_mut_slice(), quats, None);
            }
        }
        realize(
            &*self.model,
            &self.report_state,
            &mut self.report_data,
            Stage::Acceleration,
        )
        .map_err(|e| e.at_time(t))
    }
}
