//! Translation: `p_fm = q` in F, no rotation; u = q̇ = `v_FM` in F.

use crate::math::{SpatialVec, Transform};
use crate::scalar::Real;
use nalgebra::Vector3;

pub(super) fn x_fm<T: Real>(q: &[T]) -> Transform<T> {
    Transform::from_translation(Vector3::new(q[0], q[1], q[2]))
}

pub(super) fn hinge<T: Real>(h: &mut [SpatialVec<T>]) {
    for (k, col) in h.iter_mut().enumerate().take(3) {
        *col = SpatialVec::zeros();
        col[3 + k] = T::one();
    }
}
