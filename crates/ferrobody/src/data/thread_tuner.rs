//! Where a model's muscles run — on the simulation's thread, on rayon's pool or split with the
//! simulation's helper thread — measured on the host while the run goes.
//!
//! Handing half of the muscles to another core costs a round trip between the cores (0.6–0.8
//! µs on one host, more with the data the helper reads; docs/performance.md), which a short
//! evaluation may not win back: on one host 2D_gait's 18 muscles ran 1.06× as fast on two
//! threads, on another 0.68×. No fixed threshold fits every processor, so the evaluation
//! times itself. In a trial it cycles through blocks of [`BLOCK`] evaluations in each mode
//! ([`ThreadMode`]), [`ROUNDS`] of each; the fastest mode (the smallest of its blocks' best
//! times) then runs untimed for [`SETTLED`] evaluations before the next trial, so that a change of load
//! on the machine or of the model's state is followed. Each block's first evaluation is left
//! out of its time: it pays for waking the helper thread or refilling caches after the other
//! mode. Which mode runs changes who computes what, never the results (the recorded forces
//! are replayed in the force set's order), so a run's numbers are the same bit for bit
//! whatever the trials choose.

use std::time::Duration;

/// Evaluations per timed block of a trial (the first one untimed).
const BLOCK: u32 = 8;
/// Blocks of each mode per trial.
const ROUNDS: u32 = 3;
/// Evaluations in the chosen mode between two trials.
const SETTLED: u32 = 4096;

/// Where an evaluation's muscles run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ThreadMode {
    /// On the simulation's thread, in the force set's pass.
    One,
    /// On rayon's pool.
    Pool,
    /// Split with the simulation's helper thread (`data::muscle_helper`).
    Helper,
}

const MODES: [ThreadMode; 3] = [ThreadMode::One, ThreadMode::Pool, ThreadMode::Helper];

/// The tuner's state: in a trial, which mode the current block runs; else the chosen mode
/// (indices into [`MODES`]).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Phase {
    Trial { mode: usize },
    Settled { mode: usize },
}

/// Chooses, by measured times, where the muscles of the next evaluation run (module docs).
#[derive(Clone, Debug)]
pub(crate) struct ThreadTuner {
    phase: Phase,
    /// Evaluations so far in the current block, or since the trial settled.
    count: u32,
    /// Time of the current block's timed evaluations.
    block_time: Duration,
    /// Each mode's best block time in this trial.
    best: [Duration; 3],
    /// Trial rounds completed (a round is one block of each mode).
    rounds: u32,
    /// How many of [`MODES`] are tried: two without a helper thread, three with one.
    modes: usize,
    /// Always this mode, no trials (tests of each path).
    forced: Option<ThreadMode>,
}

impl Default for ThreadTuner {
    fn default() -> Self {
        Self {
            phase: Phase::Trial { mode: 0 },
            count: 0,
            block_time: Duration::ZERO,
            best: [Duration::MAX; 3],
            rounds: 0,
            modes: 2,
            forced: None,
        }
    }
}

impl ThreadTuner {
    /// A tuner that always answers `mode` (no trials).
    #[cfg(test)]
    pub(crate) fn forced(mode: ThreadMode) -> Self {
        Self {
            forced: Some(mode),
            ..Self::default()
        }
    }

    /// Starts over, trying the helper thread too if there is one.
    pub(crate) fn reset(&mut self, with_helper: bool) {
        *self = Self {
            modes: if with_helper { 3 } else { 2 },
            forced: self.forced,
            ..Self::default()
        };
    }

    /// Where the next evaluation's muscles should run.
    pub(crate) fn mode_next(&self) -> ThreadMode {
        match (self.forced, self.phase) {
            (Some(mode), _) => mode,
            (None, Phase::Trial { mode } | Phase::Settled { mode }) => MODES[mode],
        }
    }

    /// Whether the next evaluation is to be timed (it is in a trial's block, after the first).
    pub(crate) fn timing_next(&self) -> bool {
        self.forced.is_none() && matches!(self.phase, Phase::Trial { .. }) && self.count > 0
    }

    /// Counts one evaluation, with its time if [`Self::timing_next`] asked for it.
    pub(crate) fn finish(&mut self, elapsed: Option<Duration>) {
        if self.forced.is_some() {
            return;
        }
        self.count += 1;
        match self.phase {
            Phase::Settled { .. } if self.count >= SETTLED => self.reset(self.modes == 3),
            Phase::Settled { .. } => {}
            Phase::Trial { mode } => {
                self.block_time += elapsed.unwrap_or_default();
                if self.count >= BLOCK {
                    self.end_block(mode);
                }
            }
        }
    }

    /// Keeps the block's time as its mode's best if it is, then starts the next mode's
    /// block, or settles on the fastest mode after [`ROUNDS`] rounds.
    fn end_block(&mut self, mode: usize) {
        self.best[mode] = self.best[mode].min(self.block_time);
        self.count = 0;
        self.block_time = Duration::ZERO;
        let next = (mode + 1) % self.modes;
        if next == 0 {
            self.rounds += 1;
        }
        self.phase = if self.rounds >= ROUNDS {
            // The first of equal times wins: fewer threads.
            let fastest = (0..self.modes).min_by_key(|&m| self.best[m]).unwrap_or(0);
            Phase::Settled { mode: fastest }
        } else {
            Phase::Trial { mode: next }
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `evaluations` through `tuner`, each timed as `cost(mode)` µs when asked; returns
    /// how many ran in each mode.
    fn drive(
        tuner: &mut ThreadTuner,
        evaluations: u32,
        cost: impl Fn(ThreadMode) -> u64,
    ) -> [u32; 3] {
        let mut runs = [0; 3];
        for _ in 0..evaluations {
            let mode = tuner.mode_next();
            runs[MODES.iter().position(|&m| m == mode).unwrap()] += 1;
            let elapsed = tuner
                .timing_next()
                .then(|| Duration::from_micros(cost(mode)));
            tuner.finish(elapsed);
        }
        runs
    }

    fn costs(one: u64, pool: u64, helper: u64) -> impl Fn(ThreadMode) -> u64 {
        move |mode| match mode {
            ThreadMode::One => one,
            ThreadMode::Pool => pool,
            ThreadMode::Helper => helper,
        }
    }

    #[test]
    fn settles_on_the_fastest_mode_and_tries_again_later() {
        for (with_helper, cost, expect) in [
            (false, costs(7, 10, 1), 0),
            (false, costs(10, 7, 1), 1),
            (true, costs(10, 8, 7), 2),
            (true, costs(7, 8, 9), 0),
        ] {
            let mut tuner = ThreadTuner::default();
            tuner.reset(with_helper);
            let modes = if with_helper { 3 } else { 2 };
            let trial = modes * ROUNDS * BLOCK;
            // A trial runs the same number of evaluations in each mode it tries.
            let runs = drive(&mut tuner, trial, &cost);
            assert_eq!(
                &runs[..modes as usize],
                &vec![ROUNDS * BLOCK; modes as usize][..]
            );
            assert_eq!(tuner.phase, Phase::Settled { mode: expect });
            // Settled: every evaluation in the fastest mode, none timed.
            assert!(!tuner.timing_next());
            let settled = drive(&mut tuner, SETTLED - 1, &cost);
            assert_eq!(settled[expect], SETTLED - 1);
            // Then a new trial starts, on one thread, and follows a change of costs.
            drive(&mut tuner, 1, &cost);
            assert_eq!(tuner.phase, Phase::Trial { mode: 0 });
            drive(&mut tuner, trial, |mode| match mode {
                ThreadMode::One => 1,
                _ => 100,
            });
            assert_eq!(tuner.phase, Phase::Settled { mode: 0 });
        }
    }

    #[test]
    fn a_slow_block_does_not_decide_alone() {
        // Two threads are faster, but their first block is interrupted (10× its time): the
        // best of the three blocks decides.
        let mut tuner = ThreadTuner::default();
        let mut pool_blocks = 0;
        for _ in 0..2 * ROUNDS * BLOCK {
            let mode = tuner.mode_next();
            if tuner.count == 0 && mode == ThreadMode::Pool {
                pool_blocks += 1;
            }
            let micros = match (mode, pool_blocks) {
                (ThreadMode::Pool, 1) => 70,
                (ThreadMode::Pool, _) => 7,
                _ => 10,
            };
            let elapsed = tuner.timing_next().then(|| Duration::from_micros(micros));
            tuner.finish(elapsed);
        }
        assert_eq!(tuner.phase, Phase::Settled { mode: 1 });
    }

    #[test]
    fn a_forced_mode_is_never_timed_and_never_changes() {
        for mode in MODES {
            let mut tuner = ThreadTuner::forced(mode);
            tuner.reset(true);
            let runs = drive(&mut tuner, 3 * SETTLED, |_| 1);
            assert_eq!(runs.iter().sum::<u32>(), 3 * SETTLED);
            assert_eq!(tuner.mode_next(), mode);
            assert!(!tuner.timing_next());
        }
    }
}
