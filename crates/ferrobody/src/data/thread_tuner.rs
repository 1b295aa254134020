//! Whether a second thread pays for a model's muscles, measured on the host while the run goes.
//!
//! Handing half of the muscles to another core costs a round trip between the cores (0.6–0.8
//! µs on one host, more with the data the helper reads; docs/performance.md), which a short
//! evaluation may not win back: on one host 2D_gait's 18 muscles ran 1.06× as fast on two
//! threads, on another 0.68×. No fixed threshold fits every processor, so the evaluation
//! times itself. In a trial it alternates blocks of [`BLOCK`] evaluations on one thread and
//! on two, [`ROUNDS`] of each; the faster mode (the smaller of its blocks' best times) then
//! runs untimed for [`SETTLED`] evaluations before the next trial, so that a change of load
//! on the machine or of the model's state is followed. Each block's first evaluation is left
//! out of its time: it pays for waking the helper thread or refilling caches after the other
//! mode. Which mode runs changes who computes what, never the results (the recorded forces
//! are replayed in the force set's order), so a run's numbers are the same bit for bit
//! whatever the trials choose.

use std::time::Duration;

/// Evaluations per timed block of a trial (the first one untimed).
pub(crate) const BLOCK: u32 = 8;
/// Blocks of each mode per trial.
pub(crate) const ROUNDS: u32 = 3;
/// Evaluations in the chosen mode between two trials.
pub(crate) const SETTLED: u32 = 4096;

/// The tuner's state: in a trial, which mode the current block runs; else the chosen mode.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Phase {
    Trial { parallel: bool },
    Settled { parallel: bool },
}

/// Chooses, by measured times, whether the muscles of the next evaluation run on two threads
/// (module docs).
#[derive(Clone, Debug)]
pub(crate) struct ThreadTuner {
    phase: Phase,
    /// Evaluations so far in the current block, or since the trial settled.
    count: u32,
    /// Time of the current block's timed evaluations.
    block_time: Duration,
    /// Each mode's best block time in this trial: `[one thread, two threads]`.
    best: [Duration; 2],
    /// Blocks of two threads completed in this trial.
    rounds: u32,
    /// Never settle: every evaluation tries two threads (tests of the parallel path).
    always_parallel: bool,
}

impl Default for ThreadTuner {
    fn default() -> Self {
        Self {
            phase: Phase::Trial { parallel: false },
            count: 0,
            block_time: Duration::ZERO,
            best: [Duration::MAX; 2],
            rounds: 0,
            always_parallel: false,
        }
    }
}

impl ThreadTuner {
    /// A tuner that always asks for two threads (no trials).
    #[cfg(test)]
    pub(crate) fn always_parallel() -> Self {
        Self {
            always_parallel: true,
            ..Self::default()
        }
    }

    /// Whether the next evaluation's muscles should run on two threads.
    pub(crate) fn parallel_next(&self) -> bool {
        match self.phase {
            _ if self.always_parallel => true,
            Phase::Trial { parallel } | Phase::Settled { parallel } => parallel,
        }
    }

    /// Whether the next evaluation is to be timed (it is in a trial's block, after the first).
    pub(crate) fn timing_next(&self) -> bool {
        !self.always_parallel && matches!(self.phase, Phase::Trial { .. }) && self.count > 0
    }

    /// Counts one evaluation, with its time if [`Self::timing_next`] asked for it.
    pub(crate) fn finish(&mut self, elapsed: Option<Duration>) {
        if self.always_parallel {
            return;
        }
        self.count += 1;
        match self.phase {
            Phase::Settled { .. } if self.count >= SETTLED => *self = Self::default(),
            Phase::Settled { .. } => {}
            Phase::Trial { parallel } => {
                self.block_time += elapsed.unwrap_or_default();
                if self.count >= BLOCK {
                    self.end_block(parallel);
                }
            }
        }
    }

    /// Keeps the block's time as its mode's best if it is, then starts the other mode's
    /// block, or settles on the faster mode after [`ROUNDS`] blocks of each.
    fn end_block(&mut self, parallel: bool) {
        let best = &mut self.best[usize::from(parallel)];
        *best = (*best).min(self.block_time);
        self.count = 0;
        self.block_time = Duration::ZERO;
        if parallel {
            self.rounds += 1;
        }
        self.phase = if self.rounds >= ROUNDS {
            Phase::Settled {
                parallel: self.best[1] < self.best[0],
            }
        } else {
            Phase::Trial {
                parallel: !parallel,
            }
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `evaluations` through `tuner`, each timed as `cost(parallel)` µs when asked;
    /// returns how many ran on two threads.
    fn drive(tuner: &mut ThreadTuner, evaluations: u32, cost: impl Fn(bool) -> u64) -> u32 {
        let mut parallel_runs = 0;
        for _ in 0..evaluations {
            let parallel = tuner.parallel_next();
            parallel_runs += u32::from(parallel);
            let elapsed = tuner
                .timing_next()
                .then(|| Duration::from_micros(cost(parallel)));
            tuner.finish(elapsed);
        }
        parallel_runs
    }

    #[test]
    fn settles_on_the_faster_mode_and_tries_again_later() {
        let trial = 2 * ROUNDS * BLOCK;
        for (one_thread, two_threads, expect_parallel) in [(7, 10, false), (10, 7, true)] {
            let mut tuner = ThreadTuner::default();
            let cost = |parallel: bool| if parallel { two_threads } else { one_thread };
            // A trial runs half of its evaluations on each mode.
            assert_eq!(drive(&mut tuner, trial, cost), trial / 2);
            assert_eq!(
                tuner.phase,
                Phase::Settled {
                    parallel: expect_parallel
                }
            );
            // Settled: every evaluation in the faster mode, none timed.
            assert!(!tuner.timing_next());
            let settled = drive(&mut tuner, SETTLED - 1, cost);
            assert_eq!(settled, if expect_parallel { SETTLED - 1 } else { 0 });
            // Then a new trial starts, on one thread, and follows a change of costs.
            drive(&mut tuner, 1, cost);
            assert_eq!(tuner.phase, Phase::Trial { parallel: false });
            drive(&mut tuner, trial, |parallel| cost(!parallel));
            assert_eq!(
                tuner.phase,
                Phase::Settled {
                    parallel: !expect_parallel
                }
            );
        }
    }

    #[test]
    fn a_slow_block_does_not_decide_alone() {
        // Two threads are faster, but their first block is interrupted (10× its time): the
        // best of the three blocks decides.
        let mut tuner = ThreadTuner::default();
        let mut block = 0;
        for _ in 0..2 * ROUNDS * BLOCK {
            let parallel = tuner.parallel_next();
            if tuner.count == 0 && parallel {
                block += 1;
            }
            let micros = match (parallel, block) {
                (true, 1) => 70,
                (true, _) => 7,
                (false, _) => 10,
            };
            let elapsed = tuner.timing_next().then(|| Duration::from_micros(micros));
            tuner.finish(elapsed);
        }
        assert_eq!(tuner.phase, Phase::Settled { parallel: true });
    }

    #[test]
    fn always_parallel_never_times_or_settles() {
        let mut tuner = ThreadTuner::always_parallel();
        assert_eq!(drive(&mut tuner, 3 * SETTLED, |_| 1), 3 * SETTLED);
        assert!(!tuner.timing_next());
    }
}
