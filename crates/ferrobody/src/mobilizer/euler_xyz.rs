//! Body-fixed x-y-z Euler angles as the rotation coordinates of Ball and Free mobilizers
//! (Simbody's `useEulerAngles` mode, which OpenSim switches on in `Model::initSystem`).
//!
//! `r_fm = Rx(q0) Ry(q1) Rz(q2)`, as for Gimbal, but the speeds stay the angular velocity
//! `w_FM` expressed in F (not the angle rates). The kinematic equation is Simbody's
//! `Rotation::multiplyByBodyXYZ_N_P`: with `t = (s0 w1 − c0 w2) / c1`,
//! `q̇ = (w0 + t s1, c0 w1 + s0 w2, −t)`, singular at `q1 = ±π/2` (Simbody, `Rotation.h`).
//!
//! | kind | nq | nu | q | u |
//! |---|---|---|---|---|
//! | BallEuler | 3 | 3 | Euler angles | `w_FM` in F |
//! | FreeEuler | 6 | 6 | Euler angles, then `p_fm` in F | `w_FM`, then `v_FM`, in F |

use crate::math::transform::rotation_body_xyz;
use crate::math::{SpatialVec, Transform};
use crate::scalar::Real;
use nalgebra::Vector3;

/// Pose of a BallEuler mobilizer: the rotation alone.
pub(super) fn ball_x_fm<T: Real>(q: &[T]) -> Transform<T> {
    Transform::from_rotation(rotation_body_xyz(q[0], q[1], q[2]))
}

/// Pose of a FreeEuler mobilizer: the rotation, then the translation `p_fm = (q3, q4, q5)`.
pub(super) fn free_x_fm<T: Real>(q: &[T]) -> Transform<T> {
    Transform {
        r: rotation_body_xyz(q[0], q[1], q[2]),
        p: Vector3::new(q[3], q[4], q[5]),
    }
}

/// Unit hinge columns: the speeds are the components of `V_FM` in F.
pub(super) fn hinge<T: Real>(h: &mut [SpatialVec<T>]) {
    for (k, col) in h.iter_mut().enumerate() {
        *col = SpatialVec::zeros();
        col[k] = T::one();
    }
}

/// Euler-angle rates from `w_FM` (in F): Simbody's `multiplyByBodyXYZ_N_P`; then
/// `q̇ = v_FM` for the translations of a Free mobilizer.
/// The time derivative of [`qdot`]: with `t = (s0 u1 − c0 u2)/c1`,
/// `ṫ = (c0 q̇0 u1 + s0 u̇1 + s0 q̇0 u2 − c0 u̇2)/c1 + t (s1/c1) q̇1`, then
/// `q̈0 = u̇0 + ṫ s1 + t c1 q̇1`, `q̈1 = −s0 q̇0 u1 + c0 u̇1 + c0 q̇0 u2 + s0 u̇2`, `q̈2 = −ṫ`.
pub(super) fn qdotdot<T: Real>(q: &[T], u: &[T], qd: &[T], ud: &[T], out: &mut [T]) {
    let (s0, c0) = q[0].sin_cos();
    let (s1, c1) = q[1].sin_cos();
    let inv_c1 = T::one() / c1;
    let t = (s0 * u[1] - c0 * u[2]) * inv_c1;
    let t_dot = (c0 * qd[0] * u[1] + s0 * ud[1] + s0 * qd[0] * u[2] - c0 * ud[2]) * inv_c1
        + t * s1 * inv_c1 * qd[1];
    out[0] = ud[0] + t_dot * s1 + t * c1 * qd[1];
    out[1] = -s0 * qd[0] * u[1] + c0 * ud[1] + c0 * qd[0] * u[2] + s0 * ud[2];
    out[2] = -t_dot;
    out[3..].copy_from_slice(&ud[3..]);
}

pub(super) fn qdot<T: Real>(q: &[T], u: &[T], qdot: &mut [T]) {
    qdot_sin_cos([q[0].sin_cos(), q[1].sin_cos()], u, qdot);
}

/// [`qdot`] from the first two angles' (sine, cosine) pairs, for callers that have them.
#[inline]
pub(crate) fn qdot_sin_cos<T: Real>(sin_cos: [(T, T); 2], u: &[T], qdot: &mut [T]) {
    let [(s0, c0), (s1, c1)] = sin_cos;
    let t = (s0 * u[1] - c0 * u[2]) * (T::one() / c1);
    qdot[0] = u[0] + t * s1;
    qdot[1] = c0 * u[1] + s0 * u[2];
    qdot[2] = -t;
    qdot[3..].copy_from_slice(&u[3..]);
}
