//! Slider: translation by q along the common x axis of F and M; u = q̇.

use crate::math::{SpatialVec, Transform};
use crate::scalar::Real;
use nalgebra::Vector3;

pub(super) fn x_fm<T: Real>(q: &[T]) -> Transform<T> {
    Transform::from_translation(Vector3::new(q[0], T::zero(), T::zero()))
}

pub(super) fn hinge<T: Real>(h: &mut [SpatialVec<T>]) {
    h[0] = SpatialVec::new(
        T::zero(),
        T::zero(),
        T::zero(),
        T::one(),
        T::zero(),
        T::zero(),
    );
}
