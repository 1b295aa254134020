//! Pin: rotation by q about the common z axis of F and M; u = q̇.

use crate::math::{SpatialVec, Transform};
use crate::scalar::Real;
use nalgebra::Vector3;

pub(super) fn x_fm<T: Real>(q: &[T]) -> Transform<T> {
    Transform::from_axis_angle(Vector3::z(), q[0])
}

pub(super) fn hinge<T: Real>(h: &mut [SpatialVec<T>]) {
    h[0] = SpatialVec::new(T::zero(), T::zero(), T::one(), T::zero(), T::zero(), T::zero());
}
