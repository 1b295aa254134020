//! Forces recorded by elements evaluated in parallel, replayed in the force set's order.
//!
//! An element evaluated on another thread cannot add into the shared body and mobility
//! forces; it records each addition (already formed, e.g. `(r × f, f)` for a station force)
//! and the sequential pass replays them in the elements' order, so every sum is formed in the
//! same order, with the same operands, as when the elements run one after another: the
//! results are identical bit for bit.

use super::{HelperSlot, ThreadTuner};
use crate::ids::{BodyId, ZId};
use crate::math::SpatialVec;
use crate::scalar::Real;

/// One addition to the force totals, or one state rate (recorded only with the `parallel`
/// feature).
#[derive(Clone, Copy, Debug)]
#[cfg_attr(not(feature = "parallel"), allow(dead_code))]
pub(crate) enum ForceOp<T: Real> {
    /// `body_forces[b] += f` (moment about the body origin, then force; Ground).
    Body(BodyId, SpatialVec<T>),
    /// `mobility_forces[u_start(b) + k] += f`.
    Mobility(BodyId, usize, T),
    /// `ż[id] = value`.
    Zdot(ZId, T),
}

/// The recorded additions of each force element of a model (empty for the elements that run
/// in the sequential pass), with whether the model's muscles run in parallel.
#[derive(Clone, Debug)]
pub(crate) struct ForceRecords<T: Real> {
    /// Whether eligible elements are evaluated in parallel (`Simulation::set_parallel_forces`).
    pub enabled: bool,
    /// One list per force element; reused from one evaluation to the next.
    pub per_element: Vec<Vec<ForceOp<T>>>,
    /// Where the force set is cut between two threads (moved by the measured times), or
    /// `None` to leave the balance to rayon's work stealing (paths with wrap objects, whose
    /// costs change from one evaluation to the next).
    pub split: Option<usize>,
    /// Where the next evaluation's muscles run, from the host's measured times.
    pub tuner: ThreadTuner,
    /// The thread that evaluates the second part of the muscles, when the simulation
    /// started one (`Simulation::set_parallel_forces`); else rayon's pool does.
    pub helper: HelperSlot<T>,
    /// Where the force set is cut between this thread and the helper (moved by the measured
    /// times, wrapped paths or not; `None`: the middle).
    pub helper_split: Option<usize>,
}

impl<T: Real> Default for ForceRecords<T> {
    fn default() -> Self {
        Self {
            enabled: false,
            per_element: Vec::new(),
            split: None,
            tuner: ThreadTuner::default(),
            helper: HelperSlot::default(),
            helper_split: None,
        }
    }
}
