//! Gimbal: body-fixed x-y-z Euler angles, `r_fm = Rx(q0) Ry(q1) Rz(q2)`; u = q̇.
//!
//! `w_FM = q̇0 x + q̇1 Rx(q0) y + q̇2 Rx(q0) Ry(q1) z`, in F:
//! columns `(1,0,0)`, `(0, c0, s0)`, `(s1, −s0 c1, c0 c1)`. Singular at q1 = ±π/2, as in Simbody.

use crate::math::{SpatialVec, Transform};
use crate::scalar::Real;
use nalgebra::Vector3;

pub(super) fn x_fm<T: Real>(q: &[T]) -> Transform<T> {
    Transform::from_axis_angle(Vector3::x(), q[0])
        * Transform::from_axis_angle(Vector3::y(), q[1])
        * Transform::from_axis_angle(Vector3::z(), q[2])
}

pub(super) fn hinge<T: Real>(q: &[T], h: &mut [SpatialVec<T>]) {
    let (o, l) = (T::zero(), T::one());
    let (s0, c0) = q[0].sin_cos();
    let (s1, c1) = q[1].sin_cos();
    h[0] = SpatialVec::new(l, o, o, o, o, o);
    h[1] = SpatialVec::new(o, c0, s0, o, o, o);
    h[2] = SpatialVec::new(s1, -s0 * c1, c0 * c1, o, o, o);
}

pub(super) fn hdot_u<T: Real>(q: &[T], u: &[T]) -> SpatialVec<T> {
    let o = T::zero();
    let (s0, c0) = q[0].sin_cos();
    let (s1, c1) = q[1].sin_cos();
    // d/dt of column 1 times u1, plus d/dt of column 2 times u2.
    let col1 = Vector3::new(o, -s0 * u[0], c0 * u[0]);
    let col2 = Vector3::new(
        c1 * u[1],
        -c0 * c1 * u[0] + s0 * s1 * u[1],
        -s0 * c1 * u[0] - c0 * s1 * u[1],
    );
    let w = col1 * u[1] + col2 * u[2];
    SpatialVec::new(w.x, w.y, w.z, o, o, o)
}
