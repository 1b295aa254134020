//! Linear momentum and angular momentum about the Ground origin: `h_O = Σ Φ(p_B) M_B V_B`.

use crate::data::{Data, Stage};
use crate::math::spatial::shift_force;
use crate::math::{angular, linear};
use crate::scalar::Real;
use crate::tree::Tree;
use nalgebra::Vector3;

/// Momentum of the whole system, in Ground.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Momentum<T: Real> {
    /// Angular momentum about the Ground origin (kg·m²/s).
    pub angular: Vector3<T>,
    /// Linear momentum (kg·m/s).
    pub linear: Vector3<T>,
}

/// Total momentum. Reads: `data.pos`, `data.vel`.
pub fn momentum_about_ground_origin<T: Real>(model: &Tree<T>, data: &Data<T>) -> Momentum<T> {
    data.require(Stage::Velocity);
    let mut h = crate::math::SpatialVec::zeros();
    for i in 1..model.nbodies() {
        let h_b = data.pos.inertia[i].mul(&data.vel.v_gb[i]);
        h += shift_force(&h_b, &data.pos.x_gb[i].p);
    }
    Momentum {
        angular: angular(&h),
        linear: linear(&h),
    }
}
