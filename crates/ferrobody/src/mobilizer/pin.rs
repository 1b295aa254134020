//! Pin: rotation by q about the common z axis of F and M; u = q̇.

use crate::math::{SpatialVec, Transform};
use crate::scalar::Real;
use nalgebra::Matrix3;

pub(super) fn x_fm<T: Real>(q: &[T]) -> Transform<T> {
    Transform::from_rotation(rotation_z(q[0]))
}

/// Rotation by `angle` about z, built directly from its sine and cosine.
#[inline(always)]
pub(super) fn rotation_z<T: Real>(angle: T) -> Matrix3<T> {
    let (s, c) = angle.sin_cos();
    let (o, l) = (T::zero(), T::one());
    Matrix3::new(c, -s, o, s, c, o, o, o, l)
}

pub(super) fn hinge<T: Real>(h: &mut [SpatialVec<T>]) {
    h[0] = SpatialVec::new(
        T::zero(),
        T::zero(),
        T::one(),
        T::zero(),
        T::zero(),
        T::zero(),
    );
}
