//! Run budgets: a simulation stops with a clear error, instead of grinding on, when it takes
//! more than `IntegratorSettings::max_steps` steps, outlives a wall-clock limit, or needs a step
//! below [`crate::integrators::MIN_STEP_SIZE`] (Simbody's internal step limit and minimum step
//! size; MuJoCo's warnings). Each message says which limit was hit, at what time, and the likely
//! cause.

use crate::error::{Error, Result};
use std::time::{Duration, Instant};

/// Steps between two looks at the clock (reading it costs about as much as a tiny step).
const CLOCK_EVERY: u32 = 64;

/// The wall-clock part of a run's budget.
#[derive(Clone, Debug, Default)]
pub(crate) struct RunBudget {
    deadline: Option<(Instant, Duration)>,
    countdown: u32,
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

    /// Checks the limits before a step at time `t` after `steps` accepted steps.
    #[inline]
    pub(crate) fn check(&mut self, t: f64, steps: u64, max_steps: u64) -> Result<()> {
        if steps >= max_steps {
            return Err(Error::Simulation {
                t,
                message: format!(
                    "step limit reached: {max_steps} steps (integrator.max_steps, --max-steps); likely causes: a stiff contact or spring forcing tiny steps, or bodies starting in deep contact"
                ),
            });
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
            return Err(Error::Simulation {
                t,
                message: format!(
                    "wall-time limit reached: {:.3} s (--max-wall-time) after {steps} steps",
                    limit.as_secs_f64()
                ),
            });
        }
        Ok(())
    }
}

/// The error of a step size that fell below the floor while the integrator kept rejecting.
pub(crate) fn step_too_small(t: f64, h: f64, accuracy: f64) -> Error {
    Error::Simulation {
        t,
        message: format!(
            "step size fell below {:e} s (h = {h:e}): the integrator cannot meet accuracy {accuracy:e}; likely causes: bodies starting in deep contact, a discontinuous force, or an accuracy too tight for f64",
            crate::integrators::MIN_STEP_SIZE
        ),
    }
}
