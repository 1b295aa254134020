//! Recorded runs, and with the `parallel` feature many independent runs at once
//! ([`rollouts`], on all cores with rayon; `parallel.rs`).
//!
//! A [`Trajectory`] holds, per report time, the state (q, u, z), every body's pose in Ground
//! (origin `p_gb` in m, orientation as a unit quaternion `[w, x, y, z]`) and spatial velocity
//! (angular in rad/s, then the origin's linear velocity in m/s), the kinetic and
//! potential energies (J), and optionally every contact (the rows of `contacts.csv`). Report
//! times are those of [`Simulation::run`]: t0, then every `report_interval`, then the end; with
//! `step_to_reports` every report time is a step boundary (OpenSim's `Manager`, for .osim
//! models), otherwise reports are interpolated between steps (Simbody's `TimeStepper`).
//!
//! Runs are independent and deterministic: a rollout gives bit for bit the trajectory of the
//! same run made alone, whatever the thread count.

use crate::algorithms::energy::kinetic_energy;
use crate::integrators::{IntegratorSettings, Stats};
use crate::math::quaternion::quaternion_from_rotation;
use crate::model::potential_energy;
use crate::pipeline::contact_reports;
use crate::{Data, Error, Model, Result, Simulation, State};

/// What a recorded run covers and records.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RecordOptions {
    /// Simulated time from the start state (s).
    pub duration: f64,
    /// Interval between reports (s); `None` reports only the start and the end.
    pub report_interval: Option<f64>,
    /// Whether each report time is a step boundary (see the module docs).
    pub step_to_reports: bool,
    /// Whether to record the contacts at every report.
    pub contacts: bool,
    /// Whether a model of many muscles evaluates them on the threads of the rayon pool the
    /// run is on ([`Simulation::set_parallel_forces`]: the same results bit for bit). For a
    /// single run called from a pool thread; batches of runs ([`rollouts`]) leave it off,
    /// their runs already filling the threads.
    pub parallel_forces: bool,
}

/// The contacts of a run, one entry per contact per report (flat arrays).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct ContactRows {
    /// Index of the report each contact belongs to.
    pub report: Vec<usize>,
    /// Index of the force element (in `Model::forces`).
    pub element: Vec<usize>,
    /// The two bodies (indices into `Model::bodies`, 0 is Ground).
    pub bodies: Vec<[usize; 2]>,
    /// Contact point in Ground (m).
    pub point: Vec<[f64; 3]>,
    /// Contact normal in Ground, from body 1 towards body 2.
    pub normal: Vec<[f64; 3]>,
    /// Penetration depth (m).
    pub depth: Vec<f64>,
    /// Total force on body 2 at the point, in Ground (N).
    pub force: Vec<[f64; 3]>,
    /// Normal force magnitude (N).
    pub normal_force: Vec<f64>,
    /// Friction force magnitude (N).
    pub friction_force: Vec<f64>,
    /// Slip speed (m/s).
    pub slip_speed: Vec<f64>,
}

/// A recorded run: row-major arrays with one row per report (serialized with the error as
/// its one-line message).
#[derive(Clone, Debug, serde::Serialize)]
pub struct Trajectory {
    /// Report times (s).
    pub time: Vec<f64>,
    /// Generalized coordinates, `nq` per report.
    pub q: Vec<f64>,
    /// Generalized speeds, `nu` per report.
    pub u: Vec<f64>,
    /// Auxiliary continuous states, `nz` per report.
    pub z: Vec<f64>,
    /// The controls the state holds at each report (those of the interval that ends there),
    /// `nctrl` per report.
    pub controls: Vec<f64>,
    /// Body origins in Ground, `nbodies − 1` (Ground left out) × 3 per report (m).
    pub position: Vec<f64>,
    /// Body orientations in Ground, `nbodies − 1` × 4 per report (`[w, x, y, z]`).
    pub quaternion: Vec<f64>,
    /// Body spatial velocities in Ground, `nbodies − 1` × 6 per report: angular (rad/s), then
    /// the linear velocity of the body origin (m/s).
    pub velocity: Vec<f64>,
    /// Kinetic energy (J).
    pub kinetic_energy: Vec<f64>,
    /// Potential energy of gravity and conservative forces (J).
    pub potential_energy: Vec<f64>,
    /// The contacts, when recorded.
    pub contacts: ContactRows,
    /// The state where the run ended (the last report's, or the last good one on failure).
    pub final_state: State<f64>,
    /// Integrator statistics.
    pub stats: Stats,
    /// Why the run stopped early, if it did (the rows up to then are kept); shared, so that a
    /// trajectory clones cheaply.
    #[serde(serialize_with = "error_message")]
    pub error: Option<std::sync::Arc<Error>>,
}

/// An error as its one-line message ([`Error::message`]).
fn error_message<S: serde::Serializer>(
    error: &Option<std::sync::Arc<Error>>,
    serializer: S,
) -> std::result::Result<S::Ok, S::Error> {
    match error {
        Some(e) => serializer.serialize_some(&e.message()),
        None => serializer.serialize_none(),
    }
}

impl Trajectory {
    fn empty(start: &State<f64>) -> Self {
        Self {
            time: Vec::new(),
            q: Vec::new(),
            u: Vec::new(),
            z: Vec::new(),
            controls: Vec::new(),
            position: Vec::new(),
            quaternion: Vec::new(),
            velocity: Vec::new(),
            kinetic_energy: Vec::new(),
            potential_energy: Vec::new(),
            contacts: ContactRows::default(),
            final_state: start.clone(),
            stats: Stats::default(),
            error: None,
        }
    }

    /// Room for `rows` reports, so that recording does not reallocate.
    fn reserve(&mut self, model: &Model<f64>, rows: usize) {
        let nb = model.nbodies() - 1;
        self.time.reserve(rows);
        self.q.reserve(rows * model.nq());
        self.u.reserve(rows * model.nu());
        self.z.reserve(rows * model.nz());
        self.controls.reserve(rows * model.nctrl());
        self.position.reserve(rows * nb * 3);
        self.quaternion.reserve(rows * nb * 4);
        self.velocity.reserve(rows * nb * 6);
        self.kinetic_energy.reserve(rows);
        self.potential_energy.reserve(rows);
    }

    fn record(&mut self, model: &Model<f64>, state: &State<f64>, data: &Data<f64>, contacts: bool) {
        let report = self.time.len();
        self.time.push(state.t);
        self.q.extend(state.q.iter());
        self.u.extend(state.u.iter());
        self.z.extend(state.z.iter());
        self.controls.extend(model.controls(state));
        for (x, v) in data.pos.x_gb[1..].iter().zip(&data.vel.v_gb[1..]) {
            self.position.extend(x.p.iter());
            self.quaternion.extend(quaternion_from_rotation(&x.r));
            self.velocity.extend(v.iter());
        }
        self.kinetic_energy.push(kinetic_energy(model, data));
        self.potential_energy
            .push(potential_energy(model, state, data));
        if contacts {
            let c = &mut self.contacts;
            for r in contact_reports(model, state, data) {
                c.report.push(report);
                c.element.push(r.element);
                c.bodies.push([r.bodies.0 .0, r.bodies.1 .0]);
                c.point.push(r.point.into());
                c.normal.push(r.normal.into());
                c.depth.push(r.depth);
                c.force.push(r.force_on_body2().into());
                c.normal_force.push(r.normal_force);
                c.friction_force.push(r.friction_force.norm());
                c.slip_speed.push(r.slip_speed);
            }
        }
    }
}

/// Runs `model` from `start` for `options.duration` and records every report. A failure
/// while stepping ends the run with [`Trajectory::error`] set and the rows kept; a run that
/// cannot start is an error.
pub fn simulate(
    model: &Model<f64>,
    start: State<f64>,
    settings: IntegratorSettings,
    options: &RecordOptions,
) -> Result<Trajectory> {
    record(model, start, settings, options, None::<Controller>)
}

/// The controller type of a run without one.
type Controller = fn(usize, &State<f64>, &mut [f64]) -> Result<()>;

/// [`simulate`] with controls chosen before each report interval
/// ([`Simulation::run_with_controller`]): every report time is then a step boundary, as the
/// controls may change there.
pub fn simulate_controlled(
    model: &Model<f64>,
    start: State<f64>,
    settings: IntegratorSettings,
    options: &RecordOptions,
    controller: impl FnMut(usize, &State<f64>, &mut [f64]) -> Result<()>,
) -> Result<Trajectory> {
    record(model, start, settings, options, Some(controller))
}

/// [`simulate`] holding row k of `schedule` (rows × nctrl, row-major) from report k to
/// report k + 1: an open-loop control sequence at the report rate. It needs a row per report
/// interval (a last row for the final report is allowed and unused).
pub fn simulate_schedule(
    model: &Model<f64>,
    start: State<f64>,
    settings: IntegratorSettings,
    options: &RecordOptions,
    schedule: &[f64],
) -> Result<Trajectory> {
    let n = model.nctrl();
    let intervals = expected_reports(options.duration, options.report_interval.unwrap_or(0.0)) - 1;
    let rows = schedule.len().checked_div(n).unwrap_or(intervals);
    if schedule.len() != rows * n || rows < intervals {
        return Err(Error::model(format!(
            "controls: {} values do not make {intervals} rows of {n} controls (one row per report interval)",
            schedule.len()
        )));
    }
    let hold_row = |k: usize, _: &State<f64>, out: &mut [f64]| {
        out.copy_from_slice(&schedule[k * n..(k + 1) * n]);
        Ok(())
    };
    record(model, start, settings, options, Some(hold_row))
}

fn record(
    model: &Model<f64>,
    start: State<f64>,
    settings: IntegratorSettings,
    options: &RecordOptions,
    controller: Option<impl FnMut(usize, &State<f64>, &mut [f64]) -> Result<()>>,
) -> Result<Trajectory> {
    if !(options.duration.is_finite() && options.duration >= 0.0) {
        return Err(Error::model(format!(
            "duration must be finite and non-negative, got {}",
            options.duration
        )));
    }
    let interval = match options.report_interval {
        Some(dt) if dt.is_finite() && dt > 0.0 => {
            crate::simulation::check_report_rows(options.duration, dt).map_err(|m| {
                Error::Settings(crate::error::SettingsError::new(
                    "",
                    "report_interval",
                    m.to_string(),
                ))
            })?;
            dt
        }
        Some(dt) => {
            return Err(Error::model(format!(
                "report_interval must be positive and finite, got {dt}"
            )))
        }
        None => 0.0,
    };
    let mut out = Trajectory::empty(&start);
    out.reserve(model, expected_reports(options.duration, interval));
    let mut sim = Simulation::new(model, start, settings)?;
    sim.set_parallel_forces(options.parallel_forces);
    let t_end = sim.state().t + options.duration;
    let on_report = |m: &Model<f64>, s: &State<f64>, d: &Data<f64>| {
        out.record(m, s, d, options.contacts);
        Ok(())
    };
    let result = match controller {
        Some(c) => sim.run_with_controller(t_end, interval, c, on_report),
        None if options.step_to_reports => sim.run_stepping_to_reports(t_end, interval, on_report),
        None => sim.run(t_end, interval, on_report),
    };
    out.error = result.err().map(std::sync::Arc::new);
    out.final_state = sim.state().clone();
    out.stats = sim.stats();
    Ok(out)
}

/// The number of reports of a complete run of `duration` with `interval` (0: start and end
/// only): t0, every interval, the end, a report a rounding error short of the end merged with
/// it (as `Simulation::run` reports).
pub fn expected_reports(duration: f64, interval: f64) -> usize {
    if duration <= 0.0 {
        1
    } else if interval > 0.0 {
        1 + (duration / interval - 1e-9).ceil() as usize
    } else {
        2
    }
}

#[cfg(feature = "parallel")]
mod parallel;
#[cfg(feature = "parallel")]
pub use parallel::{advance_all, body_origins_all, rollouts, rollouts_with_schedules, thread_pool};
