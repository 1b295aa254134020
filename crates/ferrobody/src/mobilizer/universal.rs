//! Universal: rotation q0 about F's x, then q1 about the rotated y; u = q̇.
//!
//! `r_fm = Rx(q0) Ry(q1)`, so `w_FM = u0 x + u1 Rx(q0) y = [u0, u1 cos q0, u1 sin q0]` in F and
//! `Ḣ u = [0, −u0 u1 sin q0, u0 u1 cos q0]`.

use crate::math::{SpatialVec, Transform};
use crate::scalar::Real;
use nalgebra::Vector3;

pub(super) fn x_fm<T: Real>(q: &[T]) -> Transform<T> {
    Transform::from_axis_angle(Vector3::x(), q[0]) * Transform::from_axis_angle(Vector3::y(), q[1])
}

pub(super) fn hinge<T: Real>(q: &[T], h: &mut [SpatialVec<T>]) {
    let (o, l) = (T::zero(), T::one());
    let (s0, c0) = q[0].sin_cos();
    h[0] = SpatialVec::new(l, o, o, o, o, o);
    h[1] = SpatialVec::new(o, c0, s0, o, o, o);
}

pub(super) fn hdot_u<T: Real>(q: &[T], u: &[T]) -> SpatialVec<T> {
    let o = T::zero();
    let (s0, c0) = q[0].sin_cos();
    let k = u[0] * u[1];
    SpatialVec::new(o, -k * s0, k * c0, o, o, o)
}
