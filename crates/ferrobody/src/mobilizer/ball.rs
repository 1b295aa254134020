//! Ball: q = quaternion of `r_fm` (scalar first), u = `w_FM` expressed in F.

use crate::math::quaternion::{quaternion_dot, rotation_from_quaternion};
use crate::math::{SpatialVec, Transform};
use crate::scalar::Real;
use nalgebra::Vector3;

pub(super) fn x_fm<T: Real>(q: &[T]) -> Transform<T> {
    Transform::from_rotation(rotation_from_quaternion(q))
}

pub(super) fn hinge<T: Real>(h: &mut [SpatialVec<T>]) {
    for (k, col) in h.iter_mut().enumerate().take(3) {
        *col = SpatialVec::zeros();
        col[k] = T::one();
    }
}

pub(super) fn qdot<T: Real>(q: &[T], u: &[T], qdot: &mut [T]) {
    quaternion_dot(q, &Vector3::new(u[0], u[1], u[2]), qdot);
}
