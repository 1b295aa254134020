//! Quaternion kinematics with Simbody's conventions.
//!
//! Quaternions are stored scalar first, `q = [q0, q1, q2, q3] = [w, x, y, z]`. The time derivative
//! for an angular velocity `w` expressed in the parent (F) frame is `q̇ = ½ (0, w) ⊗ q`, applied to
//! the *unnormalized* q (Simbody `Rotation::convertAngVelToQuaternionDot`); the rotation is formed
//! from the normalized q. Quaternions drift off unit length and are renormalized only by
//! projection (see `integrators`).

use crate::scalar::Real;
use nalgebra::{Matrix3, UnitQuaternion, Vector3};

/// Rotation matrix of the (possibly unnormalized) quaternion `q = [w, x, y, z]`, with Simbody's
/// arithmetic (its Free and Ball mobilizers scale q by the precalculated `1/|q|`, then
/// `Rotation::setRotationFromQuaternion` uses the products below in this order), so that
/// rotations agree with Simbody's to the last bit.
#[inline(always)]
pub fn rotation_from_quaternion<T: Real>(q: &[T]) -> Matrix3<T> {
    // `qCache[QuatOONorm]` (RigidBodyNodeSpec_Free.h): a product per entry, not a division.
    let oo_norm = T::one() / (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]).sqrt();
    let (q0, q1, q2, q3) = (
        q[0] * oo_norm,
        q[1] * oo_norm,
        q[2] * oo_norm,
        q[3] * oo_norm,
    );
    rotation_from_unit_quaternion([q0, q1, q2, q3])
}

/// Simbody's `Rotation::setRotationFromQuaternion` for a quaternion already of unit length.
#[inline(always)]
fn rotation_from_unit_quaternion<T: Real>([q0, q1, q2, q3]: [T; 4]) -> Matrix3<T> {
    let (q00, q11, q22, q33) = (q0 * q0, q1 * q1, q2 * q2, q3 * q3);
    let (q01, q02, q03) = (q0 * q1, q0 * q2, q0 * q3);
    let (q12, q13, q23) = (q1 * q2, q1 * q3, q2 * q3);
    let (q00mq11, q22mq33) = (q00 - q11, q22 - q33);
    let two = T::c(2.0);
    Matrix3::new(
        q00 + q11 - q22 - q33,
        two * (q12 - q03),
        two * (q13 + q02),
        two * (q12 + q03),
        q00mq11 + q22mq33,
        two * (q23 - q01),
        two * (q13 - q02),
        two * (q23 + q01),
        q00mq11 - q22mq33,
    )
}

/// Simbody's `Rotation(const Mat33&)` (`setRotationFromApproximateMat33`): a nearly
/// orthonormal matrix made a rotation by way of its quaternion — `convertRotationToQuaternion`
/// (Spurrier's method as Simbody modifies it: 4 q_m q from the largest of the trace and the
/// diagonal, divided by its norm, w ≥ 0), then `setRotationFromQuaternion`. For a matrix that
/// is a rotation already the result moves only by round-off, but by Simbody's round-off, which
/// code that follows Simbody's arithmetic (OpenSim's WrapTorus) must reproduce.
pub(crate) fn rotation_from_approximate_matrix<T: Real>(m: &Matrix3<T>) -> Matrix3<T> {
    let r = |i: usize, j: usize| m[(i, j)];
    let tr = r(0, 0) + r(1, 1) + r(2, 2);
    let (one, two) = (T::one(), T::c(2.0));
    let (d0, d1, d2, t) = (r(0, 0).re(), r(1, 1).re(), r(2, 2).re(), tr.re());
    let q = if t >= d0 && t >= d1 && t >= d2 {
        [
            one + tr,
            r(2, 1) - r(1, 2),
            r(0, 2) - r(2, 0),
            r(1, 0) - r(0, 1),
        ]
    } else if d0 >= d1 && d0 >= d2 {
        [
            r(2, 1) - r(1, 2),
            one - (tr - two * r(0, 0)),
            r(0, 1) + r(1, 0),
            r(0, 2) + r(2, 0),
        ]
    } else if d1 >= d2 {
        [
            r(0, 2) - r(2, 0),
            r(0, 1) + r(1, 0),
            one - (tr - two * r(1, 1)),
            r(1, 2) + r(2, 1),
        ]
    } else {
        [
            r(1, 0) - r(0, 1),
            r(0, 2) + r(2, 0),
            r(1, 2) + r(2, 1),
            one - (tr - two * r(2, 2)),
        ]
    };
    let mut scale = (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]).sqrt();
    if q[0].re() < 0.0 {
        scale = -scale;
    }
    rotation_from_unit_quaternion(q.map(|x| x / scale))
}

/// `q̇ = ½ (0, w) ⊗ q` for angular velocity `w` expressed in the parent frame, as Simbody
/// forms it (`Rotation::convertAngVelToQuaternionDot`: `e = q/2`, then the rows of its
/// unnormalized `N(e)` times `w`, each a left-to-right sum).
pub fn quaternion_dot<T: Real>(q: &[T], w: &Vector3<T>, qdot: &mut [T]) {
    let half = T::c(0.5);
    let e = [q[0] * half, q[1] * half, q[2] * half, q[3] * half];
    let (ne1, ne2, ne3) = (-e[1], -e[2], -e[3]);
    qdot[0] = ne1 * w.x + ne2 * w.y + ne3 * w.z;
    qdot[1] = e[0] * w.x + e[3] * w.y + ne2 * w.z;
    qdot[2] = ne3 * w.x + e[0] * w.y + e[1] * w.z;
    qdot[3] = e[2] * w.x + ne1 * w.y + e[0] * w.z;
}

/// Maps a quaternion change `dq` to the angular-velocity-like vector `N⁺ dq = 2 E(q)ᵀ dq / |q|²`,
/// the least-squares inverse of [`quaternion_dot`]. The component of `dq` along `q` (a change
/// of length only) maps to zero.
pub fn quaternion_dot_to_ang_vel<T: Real>(q: &[T], dq: &[T]) -> Vector3<T> {
    let q0 = q[0];
    let qv = Vector3::new(q[1], q[2], q[3]);
    let dv = Vector3::new(dq[1], dq[2], dq[3]);
    let norm2 = q0 * q0 + qv.norm_squared();
    // (0, w) = 2 q̇ ⊗ q* for unit q; its vector part:
    let w = dv * q0 - qv * dq[0] - dv.cross(&qv);
    w * (T::c(2.0) / norm2)
}

/// Quaternion `[w, x, y, z]` of a rotation matrix, with the sign chosen so that `w ≥ 0`.
pub fn quaternion_from_rotation(r: &Matrix3<f64>) -> [f64; 4] {
    let rot = nalgebra::Rotation3::from_matrix_unchecked(*r);
    let q = UnitQuaternion::from_rotation_matrix(&rot);
    let s = if q.w < 0.0 { -1.0 } else { 1.0 };
    [s * q.w, s * q.i, s * q.j, s * q.k]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotation_matches_nalgebra_for_unnormalized_quaternions() {
        let q = [0.8, 0.2, -0.4, 0.4].map(|x: f64| 1.3 * x);
        let unit =
            UnitQuaternion::from_quaternion(nalgebra::Quaternion::new(q[0], q[1], q[2], q[3]));
        assert!(
            (rotation_from_quaternion(&q) - unit.to_rotation_matrix().into_inner()).norm() < 1e-15
        );
    }

    #[test]
    fn approximate_matrices_become_nearby_rotations() {
        let q = [0.8f64, 0.2, -0.4, 0.4];
        let exact = rotation_from_quaternion(&q);
        // A rotation stays itself to round-off, from every branch of Spurrier's method
        // (the trace's and each diagonal entry's).
        for turn in [
            Matrix3::identity(),
            Matrix3::new(1.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, -1.0),
            Matrix3::new(-1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, -1.0),
            Matrix3::new(-1.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 1.0),
        ] {
            let r = turn * exact;
            assert!((rotation_from_approximate_matrix(&r) - r).norm() < 1e-15);
        }
        // A perturbed matrix becomes orthonormal, near the original.
        let skewed = exact + Matrix3::new(1e-3, 0.0, 2e-3, 0.0, -1e-3, 0.0, 1e-3, 0.0, 0.0);
        let fixed = rotation_from_approximate_matrix(&skewed);
        assert!((fixed.transpose() * fixed - Matrix3::identity()).norm() < 1e-15);
        assert!((fixed - exact).norm() < 5e-3);
    }

    #[test]
    fn quaternion_dot_round_trips_through_its_inverse() {
        let q = [0.8, 0.2, -0.4, 0.4];
        let w = Vector3::new(0.3, -1.0, 2.0);
        let mut qd = [0.0; 4];
        quaternion_dot(&q, &w, &mut qd);
        let back = quaternion_dot_to_ang_vel(&q, &qd);
        assert!((back - w).norm() < 1e-14);
        // A pure length change maps to zero angular velocity.
        assert!(quaternion_dot_to_ang_vel(&q, &q).norm() < 1e-15);
    }

    #[test]
    fn quaternion_dot_matches_rotation_derivative() {
        // d/dt R = [w]× R for w in the parent frame.
        let q = [0.8f64, 0.2, -0.4, 0.4];
        let w = Vector3::new(0.3, -1.0, 2.0);
        let mut qd = [0.0; 4];
        quaternion_dot(&q, &w, &mut qd);
        let h = 1e-6;
        let qp: Vec<f64> = q.iter().zip(qd).map(|(a, b)| a + h * b).collect();
        let qm: Vec<f64> = q.iter().zip(qd).map(|(a, b)| a - h * b).collect();
        let rdot = (rotation_from_quaternion(&qp) - rotation_from_quaternion(&qm)) / (2.0 * h);
        let expected = w.cross_matrix() * rotation_from_quaternion(&q);
        assert!((rdot - expected).norm() < 1e-8);
    }
}
