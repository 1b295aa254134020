//! Cylinder: rotation q0 about and translation q1 along the common z axis; u = q̇.

use crate::math::{SpatialVec, Transform};
use crate::scalar::Real;
use nalgebra::Vector3;

pub(super) fn x_fm<T: Real>(q: &[T]) -> Transform<T> {
    let mut x = Transform::from_rotation(super::pin::rotation_z(q[0]));
    x.p = Vector3::new(T::zero(), T::zero(), q[1]);
    x
}

pub(super) fn hinge<T: Real>(h: &mut [SpatialVec<T>]) {
    let (o, l) = (T::zero(), T::one());
    h[0] = SpatialVec::new(o, o, l, o, o, o);
    h[1] = SpatialVec::new(o, o, o, o, o, l);
}
