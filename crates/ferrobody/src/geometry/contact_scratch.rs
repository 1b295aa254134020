//! The reusable buffers of contact evaluation: surface poses and the broad phase's pairs, kept
//! in `Data` so the step loop does not allocate.

use super::BroadPhase;
use crate::math::Transform;
use crate::scalar::Real;

/// Reusable buffers of contact evaluation, kept in `Data` so the step loop does not allocate.
#[derive(Clone, Debug)]
pub struct ContactScratch<T: Real> {
    /// Surface poses in Ground.
    pub x_gs: Vec<Transform<T>>,
    /// Broad-phase buffers.
    pub broad: BroadPhase,
}

impl<T: Real> Default for ContactScratch<T> {
    fn default() -> Self {
        Self {
            x_gs: Vec::new(),
            broad: BroadPhase::default(),
        }
    }
}
