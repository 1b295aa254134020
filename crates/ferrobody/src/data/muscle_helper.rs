//! The mailbox between a simulation's thread and its muscle helper: a thread of its own that
//! evaluates the second part of a model's muscles while the simulation's thread evaluates the
//! first (`model::parallel_muscles`).
//!
//! rayon's idle worker yields to the kernel and then sleeps between evaluations; on some hosts
//! waking it costs more than half of a model's muscles (docs/performance.md: 37 % of arm26's
//! time in the scheduler). The helper instead spins on an atomic for a while after each job
//! ([`SPIN`]), so that a job posted during a run is picked up in a few hundred nanoseconds,
//! and parks when no job comes (a run whose tuner settled on one thread, or no run at all).
//!
//! Protocol: the simulation's thread writes the inputs into [`HelperJob`] under its mutex,
//! sets the phase to `POSTED` and unparks the helper if it parked; the helper takes the lock,
//! records its muscles' force additions into `lists`, releases the lock and sets `DONE`; the
//! simulation's thread, after its own part, waits for `DONE` and replays the lists in the
//! force set's order. The mutex is never contended: each side takes it only while the phase
//! says the job is its own.

#![cfg_attr(not(feature = "parallel"), allow(dead_code))]

use super::{ForceOp, PositionCache, VelocityCache};
use crate::scalar::Real;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long the helper spins for the next job before it parks.
const SPIN: Duration = Duration::from_micros(200);

/// How long the simulation's thread spins for the helper before it also yields to others.
const LONG_WAIT: Duration = Duration::from_micros(100);

const IDLE: u8 = 0;
const POSTED: u8 = 1;
const DONE: u8 = 2;
const STOP: u8 = 3;

/// What the helper needs to evaluate its muscles, and what it gives back.
#[derive(Debug)]
pub(crate) struct HelperJob<T: Real> {
    /// The state: time, `y = [q; u; z]` and the hidden variables ([`crate::State`]'s
    /// `hidden_variables`).
    pub t: f64,
    pub y: Vec<T>,
    pub discrete: Vec<T>,
    pub auto_update: Vec<T>,
    pub auto_update_time: Vec<f64>,
    pub pos: Option<PositionCache<T>>,
    pub vel: Option<VelocityCache<T>>,
    /// Each force element's enabled flag.
    pub enabled: Vec<T>,
    /// The helper takes the force elements from this one to the end.
    pub first: usize,
    /// Its recorded additions, one list per element from `first`.
    pub lists: Vec<Vec<ForceOp<T>>>,
    /// When the helper finished (to move the cut between the two parts).
    pub finished_at: Option<Instant>,
}

impl<T: Real> Default for HelperJob<T> {
    fn default() -> Self {
        Self {
            t: 0.0,
            y: Vec::new(),
            discrete: Vec::new(),
            auto_update: Vec::new(),
            auto_update_time: Vec::new(),
            pos: None,
            vel: None,
            enabled: Vec::new(),
            first: 0,
            lists: Vec::new(),
            finished_at: None,
        }
    }
}

/// The state both threads share.
#[derive(Debug)]
pub(crate) struct HelperShared<T: Real> {
    phase: AtomicU8,
    parked: AtomicBool,
    job: Mutex<HelperJob<T>>,
}

impl<T: Real> HelperShared<T> {
    /// A mailbox with no job.
    pub(crate) fn new() -> Arc<Self> {
        Arc::new(Self {
            phase: AtomicU8::new(IDLE),
            parked: AtomicBool::new(false),
            job: Mutex::new(HelperJob::default()),
        })
    }

    /// The job, whoever's turn it is (a helper that panicked leaves the lock poisoned; its
    /// data is still plain numbers).
    pub(crate) fn job(&self) -> MutexGuard<'_, HelperJob<T>> {
        self.job
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// On the helper's thread: waits for a job (spinning, then parked); `false` when asked to
    /// stop.
    pub(crate) fn wait_for_job(&self) -> bool {
        let mut spin_start = Instant::now();
        let mut spins: u32 = 0;
        loop {
            match self.phase.load(Ordering::Acquire) {
                POSTED => return true,
                STOP => return false,
                _ => {}
            }
            spins = spins.wrapping_add(1);
            if spins % 64 != 0 || spin_start.elapsed() < SPIN {
                std::hint::spin_loop();
                continue;
            }
            self.parked.store(true, Ordering::SeqCst);
            if self.phase.load(Ordering::SeqCst) == IDLE {
                std::thread::park_timeout(Duration::from_millis(50));
            }
            self.parked.store(false, Ordering::SeqCst);
            spin_start = Instant::now();
        }
    }

    /// On the helper's thread: the job is done (unless the handle was dropped meanwhile: its
    /// `STOP` stays).
    pub(crate) fn finish_job(&self) {
        let _ = self
            .phase
            .compare_exchange(POSTED, DONE, Ordering::AcqRel, Ordering::Acquire);
    }
}

/// The simulation's side: the mailbox and the helper's thread, stopped when dropped.
#[derive(Debug)]
pub(crate) struct HelperHandle<T: Real> {
    shared: Arc<HelperShared<T>>,
    thread: Option<JoinHandle<()>>,
}

impl<T: Real> HelperHandle<T> {
    /// The handle of a helper thread already started on `shared`.
    pub(crate) fn new(shared: Arc<HelperShared<T>>, thread: JoinHandle<()>) -> Self {
        Self {
            shared,
            thread: Some(thread),
        }
    }

    /// The job, to fill before [`Self::post`] or to read after [`Self::wait`].
    pub(crate) fn job(&self) -> MutexGuard<'_, HelperJob<T>> {
        self.shared.job()
    }

    /// Hands the job filled in to the helper.
    pub(crate) fn post(&self) {
        self.shared.phase.store(POSTED, Ordering::SeqCst);
        if self.shared.parked.load(Ordering::SeqCst) {
            if let Some(thread) = &self.thread {
                thread.thread().unpark();
            }
        }
    }

    /// Waits for the posted job; `false` if the helper's thread ended without doing it (it
    /// panicked), so that the caller evaluates the helper's part itself.
    pub(crate) fn wait(&self) -> bool {
        let start = Instant::now();
        let mut long_wait = false;
        let mut spins: u32 = 0;
        loop {
            if self.shared.phase.load(Ordering::Acquire) == DONE {
                self.shared.phase.store(IDLE, Ordering::Release);
                return true;
            }
            spins = spins.wrapping_add(1);
            if spins % 4096 == 0 && self.thread.as_ref().is_none_or(JoinHandle::is_finished) {
                return false;
            }
            if spins % 256 == 0 && !long_wait {
                long_wait = start.elapsed() > LONG_WAIT;
            }
            if long_wait {
                // The helper is slow to come: on a machine whose cores are all busy it may be
                // waiting for this one, so give it up now and then.
                std::thread::yield_now();
            } else {
                std::hint::spin_loop();
            }
        }
    }
}

impl<T: Real> Drop for HelperHandle<T> {
    fn drop(&mut self) {
        self.shared.phase.store(STOP, Ordering::SeqCst);
        if let Some(thread) = self.thread.take() {
            thread.thread().unpark();
            // A helper that panicked has already said so on stderr; nothing is left to do.
            let _ = thread.join();
        }
    }
}

/// Where a simulation's data keeps its helper: a copy of the data starts without one (the
/// helper serves one simulation's thread).
#[derive(Debug)]
pub(crate) struct HelperSlot<T: Real>(pub Option<HelperHandle<T>>);

impl<T: Real> Default for HelperSlot<T> {
    fn default() -> Self {
        Self(None)
    }
}

impl<T: Real> Clone for HelperSlot<T> {
    fn clone(&self) -> Self {
        Self(None)
    }
}
