//! Run budgets: a simulation stops with a clear error, instead of grinding on, when it takes
//! more than `IntegratorSettings::max_steps` steps, outlives a wall-clock limit, or needs a step
//! below [`crate::integrators::MIN_STEP_SIZE`] (Simbody's internal step limit and minimum step
//! size; MuJoCo's warnings). Each message says which limit was hit, at what time, and the likely
//! cause.
//!
//! The step limit is also enforced ahead of time: when the run knows where it ends (`run`,
//! `advance_to`), every [`PACE_WINDOW`] steps it projects the steps still needed at the pace
//! of the last window (remaining time ÷ mean step of the window) and stops at once if they
//! exceed the steps left, instead of grinding for minutes towards a limit it cannot avoid
//! at that pace (bodies started deep in a half space take ~3e-9 s steps: 1e8 steps would be
//! 0.3 s of simulated time and ten minutes of wall time).

use crate::error::{Error, Result, SimulationFailure};
use std::time::{Duration, Instant};

/// Steps between two looks at the clock (reading it costs about as much as a tiny step).
const CLOCK_EVERY: u32 = 64;

/// Accepted steps per look at the pace (long enough to pass the short bursts of tiny steps
/// at impacts and contact onsets).
pub(crate) const PACE_WINDOW: u64 = 100_000;

/// The wall-clock and pace parts of a run's budget.
#[derive(Clone, Debug, Default)]
pub(crate) struct RunBudget {
    deadline: Option<(Instant, Duration)>,
    countdown: u32,
    /// Where the run is going (s), when known.
    end_time: Option<f64>,
    /// Time and step count at the start of the current pace window.
    window_start: Option<(f64, u64)>,
}

impl RunBudget {
    /// Limits the run to `seconds` of wall time from now (`None`: no limit).
    pub(crate) fn set_wall_time(&mut self, seconds: Option<f64>) {
        self.deadline = seconds.map(|s| {
            let d = Duration::from_secs_f64(s.clamp(0.0, 1e9));
            (Instant::now() + d, d)
        });
        self.countdown = 0;
    }

    /// Sets where the run is going (s): the pace check projects the steps needed to get there.
    pub(crate) fn set_end_time(&mut self, t_end: f64) {
        if self.end_time != Some(t_end) {
            self.end_time = Some(t_end);
            self.window_start = None;
        }
    }

    /// Checks the limits before a step at time `t` after `steps` accepted steps.
    #[inline]
    pub(crate) fn check(&mut self, t: f64, steps: u64, max_steps: u64) -> Result<()> {
        if steps >= max_steps {
            return Err(Error::simulation(t, SimulationFailure::Budget(format!(
                    "step limit reached: {max_steps} steps (integrator.max_steps, --max-steps); likely causes: a stiff contact or spring forcing tiny steps, or bodies starting in deep contact"
                ))));
        }
        if steps % PACE_WINDOW == 0 {
            self.check_pace(t, steps, max_steps)?;
        }
        let Some((deadline, limit)) = self.deadline else {
            return Ok(());
        };
        if self.countdown > 0 {
            self.countdown -= 1;
            return Ok(());
        }
        self.countdown = CLOCK_EVERY;
        if Instant::now() >= deadline {
            return Err(Error::simulation(
                t,
                SimulationFailure::Budget(format!(
                    "wall-time limit reached: {:.3} s (--max-wall-time) after {steps} steps",
                    limit.as_secs_f64()
                )),
            ));
        }
        Ok(())
    }
}

impl RunBudget {
    /// At a window boundary: stops the run if, at the last window's pace, the steps still needed
    /// exceed the steps left.
    fn check_pace(&mut self, t: f64, steps: u64, max_steps: u64) -> Result<()> {
        let Some(t_end) = self.end_time else {
            return Ok(());
        };
        let start = self.window_start.replace((t, steps));
        let Some((t0, _)) = start.filter(|&(_, s0)| steps == s0 + PACE_WINDOW) else {
            return Ok(());
        };
        let mean_step = (t - t0) / PACE_WINDOW as f64;
        let needed = (t_end - t) / mean_step;
        let left = max_steps - steps;
        if (needed.is_finite() && needed <= left as f64) || t >= t_end {
            return Ok(());
        }
        Err(Error::simulation(t, SimulationFailure::Budget(format!(
                "step limit would be reached: at the pace of the last {PACE_WINDOW} steps (mean step {mean_step:.3e} s) the remaining {:.6} s need about {needed:.2e} steps, more than the {left} left of {max_steps} (integrator.max_steps, --max-steps raises it); likely causes: a stiff contact or spring forcing tiny steps, or bodies starting in deep contact",
                t_end - t
            ))))
    }
}

/// The error of a step size that fell below the floor while the integrator kept rejecting.
pub(crate) fn step_too_small(t: f64, h: f64, accuracy: f64) -> Error {
    Error::simulation(
        t,
        SimulationFailure::StepSizeUnderflow {
            h,
            min: crate::integrators::MIN_STEP_SIZE,
            accuracy,
        },
    )
}
