//! Free: q = [quaternion of `r_fm` (4), `p_fm` (3)], u = [`w_FM` in F (3), `v_FM` in F (3)].

use crate::math::quaternion::{quaternion_dot, rotation_from_quaternion};
use crate::math::{SpatialVec, Transform};
use crate::scalar::Real;
use nalgebra::Vector3;

#[inline(always)]
pub(crate) fn x_fm<T: Real>(q: &[T]) -> Transform<T> {
    Transform {
        r: rotation_from_quaternion(&q[..4]),
        p: Vector3::new(q[4], q[5], q[6]),
    }
}

pub(super) fn hinge<T: Real>(h: &mut [SpatialVec<T>]) {
    for (k, col) in h.iter_mut().enumerate().take(6) {
        *col = SpatialVec::zeros();
        col[k] = T::one();
    }
}

pub(super) fn qdot<T: Real>(q: &[T], u: &[T], qdot: &mut [T]) {
    quaternion_dot(&q[..4], &Vector3::new(u[0], u[1], u[2]), &mut qdot[..4]);
    qdot[4..7].copy_from_slice(&u[3..6]);
}
