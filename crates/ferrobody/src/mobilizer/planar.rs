//! Planar: rotation q0 about the common z axis, translation (q1, q2) along F's x and y; u = q̇.

use crate::math::{SpatialVec, Transform};
use crate::scalar::Real;
use nalgebra::Vector3;

pub(super) fn x_fm<T: Real>(q: &[T]) -> Transform<T> {
    let mut x = Transform::from_rotation(super::pin::rotation_z(q[0]));
    x.p = Vector3::new(q[1], q[2], T::zero());
    x
}

pub(super) fn hinge<T: Real>(h: &mut [SpatialVec<T>]) {
    let (o, l) = (T::zero(), T::one());
    h[0] = SpatialVec::new(o, o, l, o, o, o);
    h[1] = SpatialVec::new(o, o, o, l, o, o);
    h[2] = SpatialVec::new(o, o, o, o, l, o);
}
