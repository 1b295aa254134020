//! What one Hunt–Crossley (or brick) contact evaluation gives ([`ContactEvaluation`]: point,
//! normal, depth, forces, potential energy), and the reusable buffers of the evaluations
//! ([`ContactScratch`], defined with the broad phase and kept in `Data` so the step loop does
//! not allocate). Re-exported by
//! [`super::hunt_crossley`].

pub use crate::geometry::ContactScratch;
use crate::ids::BodyId;
use crate::scalar::Real;
use nalgebra::Vector3;

/// One evaluated contact.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactEvaluation<T: Real> {
    /// Surface indices (surface 1, surface 2) within the set.
    pub surfaces: (usize, usize),
    /// Bodies of surface 1 and surface 2.
    pub bodies: (BodyId, BodyId),
    /// Contact point in Ground.
    pub point: Vector3<T>,
    /// Normal in Ground, from surface 1 toward surface 2.
    pub normal: Vector3<T>,
    /// Penetration depth (m).
    pub depth: T,
    /// Normal force magnitude (N); 0 when the contact is separating too fast.
    pub normal_force: T,
    /// Friction force on body 2 (N, Ground).
    pub friction_force: Vector3<T>,
    /// Slip speed |v_t| (m/s).
    pub slip_speed: T,
    /// Potential energy (J).
    pub potential_energy: T,
    /// Moment on body 2 about `point` besides that of the force (N·m, Ground): zero for point
    /// contacts, the spread of a brick's vertex forces about their centre of pressure.
    pub moment: Vector3<T>,
}

impl<T: Real> ContactEvaluation<T> {
    /// Total force on body 2 (N, Ground); body 1 gets its negative.
    pub fn force_on_body2(&self) -> Vector3<T> {
        self.normal * self.normal_force + self.friction_force
    }
}
