//! Simbody's Ellipsoid mobilizer in Euler-angle mode (OpenSim's `EllipsoidJoint` and the
//! first of a `ScapulothoracicJoint`'s three mobilizers).
//!
//! Three rotational degrees of freedom of M in F, with M's origin kept on an ellipsoid of
//! semi-axes `s = (s_x, s_y, s_z)` (m) centred on F's origin:
//!
//! ```text
//!   R_FM = Rx(q0) Ry(q1) Rz(q2),   n = R_FM z (M's z axis in F),   p_FM = s ⊙ n
//!   u = w_FM in F:   V_FM = H u = [w; s ⊙ (w × n)],   Ḣ u = [0; s ⊙ (w × ṅ)],   ṅ = w × n
//! ```
//!
//! so the hinge's angular part is the identity and its column k's linear part
//! `s ⊙ (e_k × n)`. The kinematic equation is the
//! BallEuler one (`euler_xyz::qdot`). `p_FM` is Simbody's: the scaled normal, which lies on
//! the ellipsoid (it is the surface point whose normal is `n` only on a sphere). Simbody keeps
//! the quaternion's fourth q slot in Euler-angle mode, which its error norm counts
//! (`Tree::simbody_q_count`).
//!
//! Reference: Simbody 3.7, `RigidBodyNodeSpec_Ellipsoid.h` (`calcX_FM`,
//! `calcAcrossJointVelocityJacobian`, `calcAcrossJointVelocityJacobianDot`); A. Seth et al.,
//! "A biomechanical model of the scapulothoracic joint to accurately capture scapular
//! kinematics during shoulder movements", PLoS ONE 11 (2016) e0141028.

use crate::math::transform::rotation_body_xyz;
use crate::math::{spatial, SpatialVec, Transform};
use crate::scalar::Real;
use nalgebra::Vector3;

/// `s ⊙ v`, componentwise.
#[inline]
fn scaled<T: Real>(radii: &Vector3<T>, v: &Vector3<T>) -> Vector3<T> {
    Vector3::new(radii[0] * v[0], radii[1] * v[1], radii[2] * v[2])
}

/// `n = R_FM z`, M's z axis in F: the third column of [`rotation_body_xyz`],
/// `(s₁, −s₀ c₁, c₀ c₁)`, formed as it forms it (the hinge and Ḣu need only this).
pub(crate) fn normal<T: Real>(q: &[T]) -> Vector3<T> {
    let ((s0, c0), (s1, c1)) = (q[0].sin_cos(), q[1].sin_cos());
    Vector3::new(s1, -(s0 * c1), c0 * c1)
}

/// Pose of M in F: the body-fixed x-y-z rotation, and M's origin at `s ⊙ n`.
pub(crate) fn x_fm<T: Real>(q: &[T], radii: &Vector3<T>) -> Transform<T> {
    let r = rotation_body_xyz(q[0], q[1], q[2]);
    let n = r.column(2).into_owned();
    Transform {
        r,
        p: scaled(radii, &n),
    }
}

/// Hinge columns in F given the normal `n = R_FM z`: Simbody's
/// `[e_k; s ⊙ (e_k × n)]`, written out as Simbody writes them.
pub(crate) fn hinge<T: Real>(n: &Vector3<T>, radii: &Vector3<T>, h: &mut [SpatialVec<T>]) {
    let (s, z) = (radii, T::zero());
    h[0] = spatial(
        Vector3::new(T::one(), z, z),
        Vector3::new(z, -n[2] * s[1], n[1] * s[2]),
    );
    h[1] = spatial(
        Vector3::new(z, T::one(), z),
        Vector3::new(n[2] * s[0], z, -n[0] * s[2]),
    );
    h[2] = spatial(
        Vector3::new(z, z, T::one()),
        Vector3::new(-n[1] * s[0], n[0] * s[1], z),
    );
}

/// `Ḣ_FM u` in F given the normal `n` and `u = w_FM`: Simbody's `HDot` columns (those of
/// [`hinge`] with `ṅ = w × n` for `n`, zero angular parts) times u.
pub(crate) fn hdot_u<T: Real>(n: &Vector3<T>, radii: &Vector3<T>, u: &[T]) -> SpatialVec<T> {
    let w = Vector3::new(u[0], u[1], u[2]);
    let mut columns = [SpatialVec::zeros(); 3];
    hinge(&w.cross(n), radii, &mut columns);
    let linear = |c: &SpatialVec<T>| Vector3::new(c[3], c[4], c[5]);
    let v = linear(&columns[0]) * u[0] + linear(&columns[1]) * u[1] + linear(&columns[2]) * u[2];
    spatial(Vector3::zeros(), v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{angular, linear};
    use crate::mobilizer::Mobilizer;
    use nalgebra::Matrix3;

    const RADII: [f64; 3] = [0.2, 0.083, 0.083];

    fn radii() -> Vector3<f64> {
        Vector3::from(RADII)
    }

    fn velocity(q: &[f64], u: &[f64]) -> SpatialVec<f64> {
        let mut h = [SpatialVec::zeros(); 3];
        hinge(&normal(q), &radii(), &mut h);
        h.iter().zip(u).map(|(c, ui)| c * *ui).sum()
    }

    fn advanced(q: &[f64], u: &[f64], t: f64) -> Vec<f64> {
        let mut qd = [0.0; 3];
        Mobilizer::Ellipsoid.qdot(q, u, &mut qd);
        q.iter().zip(qd).map(|(a, b)| a + t * b).collect()
    }

    #[test]
    fn normal_is_the_rotations_z_column_bit_for_bit() {
        let q = [0.4, -0.7, 1.1];
        assert_eq!(normal(&q), x_fm(&q, &radii()).r.column(2).into_owned());
    }

    #[test]
    fn origin_stays_on_the_ellipsoid_along_m_z() {
        let x = x_fm(&[0.4, -0.7, 1.1], &radii());
        let s = radii();
        let on_surface = (0..3).map(|k| (x.p[k] / s[k]).powi(2)).sum::<f64>();
        assert!((on_surface - 1.0).abs() < 1e-15, "{on_surface}");
        let q0 = x_fm(&[0.0, 0.0, 0.0], &radii());
        assert_eq!(q0.p, Vector3::new(0.0, 0.0, RADII[2]));
    }

    #[test]
    fn hinge_matches_finite_difference_of_pose() {
        let (q, u) = ([0.3, -0.5, 0.9], [0.7, 0.3, -0.4]);
        let h = 1e-6;
        let (xp, xm) = (
            x_fm(&advanced(&q, &u, h), &radii()),
            x_fm(&advanced(&q, &u, -h), &radii()),
        );
        let rdot: Matrix3<f64> = (xp.r - xm.r) / (2.0 * h);
        let wx = rdot * x_fm(&q, &radii()).r.transpose();
        let w = Vector3::new(wx[(2, 1)], wx[(0, 2)], wx[(1, 0)]);
        let v = velocity(&q, &u);
        assert!((angular(&v) - w).norm() < 1e-8, "{v:?} {w:?}");
        assert!((angular(&v) - Vector3::from(u)).norm() < 1e-15);
        assert!((linear(&v) - (xp.p - xm.p) / (2.0 * h)).norm() < 1e-9);
    }

    #[test]
    fn hdot_u_matches_finite_difference_of_hinge() {
        let (q, u) = ([-0.2, 0.6, 0.4], [0.5, -0.9, 0.2]);
        let eps = 1e-6;
        let fd = (velocity(&advanced(&q, &u, eps), &u) - velocity(&advanced(&q, &u, -eps), &u))
            / (2.0 * eps);
        let an = hdot_u(&normal(&q), &radii(), &u);
        assert!((an - fd).norm() < 1e-8, "{an:?} {fd:?}");
    }
}
