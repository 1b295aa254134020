//! Rigid transforms (Simbody's `Transform`, variables named `x_ab`).
//!
//! `x_ab` maps coordinates of a point in frame B to frame A: `p_A = r_ab · p_B + p_ab`.
//! Composition follows the monograms: `x_ac = x_ab * x_bc`.

use crate::math::small::{mul3, mul3v};
use crate::scalar::Real;
use nalgebra::{Matrix3, Rotation3, Unit, Vector3};
use std::ops::Mul;

/// A rigid transform: rotation matrix `r` and translation `p` (frame B's origin in A, in A).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transform<T: Real = f64> {
    /// Rotation `r_ab`: columns are B's axes expressed in A.
    pub r: Matrix3<T>,
    /// Position `p_ab` of B's origin from A's origin, expressed in A.
    pub p: Vector3<T>,
}

impl<T: Real> Default for Transform<T> {
    fn default() -> Self {
        Self::identity()
    }
}

impl<T: Real> Transform<T> {
    /// The identity transform.
    pub fn identity() -> Self {
        Self {
            r: Matrix3::identity(),
            p: Vector3::zeros(),
        }
    }

    /// A pure translation.
    pub fn from_translation(p: Vector3<T>) -> Self {
        Self {
            r: Matrix3::identity(),
            p,
        }
    }

    /// A pure rotation.
    pub fn from_rotation(r: Matrix3<T>) -> Self {
        Self {
            r,
            p: Vector3::zeros(),
        }
    }

    /// A rotation by `angle` (radians) about `axis` (need not be unit length, must be non-zero).
    pub fn from_axis_angle(axis: Vector3<T>, angle: T) -> Self {
        let r = Rotation3::from_axis_angle(&Unit::new_normalize(axis), angle);
        Self::from_rotation(r.into_inner())
    }

    /// A rotation by body-fixed x-y-z angles (rad): `Rx(a0) Ry(a1) Rz(a2)`, OpenSim's
    /// `orientation` and Simbody's `BodyRotationSequence` X-Y-Z.
    pub fn from_body_xyz(angles: &Vector3<T>) -> Self {
        Self::from_rotation(rotation_body_xyz(angles[0], angles[1], angles[2]))
    }

    /// The inverse transform `x_ba` of `x_ab`.
    pub fn inverse(&self) -> Self {
        let rt = self.r.transpose();
        Self {
            r: rt,
            p: -(rt * self.p),
        }
    }

    /// Maps a point given in B to A.
    #[inline(always)]
    pub fn apply(&self, p_b: &Vector3<T>) -> Vector3<T> {
        mul3v(&self.r, p_b) + self.p
    }

    /// Converts this transform to another scalar type through `f64` (derivative parts dropped).
    pub fn cast<U: Real>(&self) -> Transform<U> {
        Transform {
            r: self.r.map(|x| U::c(x.re())),
            p: self.p.map(|x| U::c(x.re())),
        }
    }
}

#[allow(clippy::suspicious_arithmetic_impl)] // composition adds the rotated translation
impl<T: Real> Mul for Transform<T> {
    type Output = Transform<T>;
    #[inline(always)]
    fn mul(self, rhs: Transform<T>) -> Transform<T> {
        Transform {
            r: mul3(&self.r, &rhs.r),
            p: mul3v(&self.r, &rhs.p) + self.p,
        }
    }
}

#[allow(clippy::suspicious_arithmetic_impl)]
impl<T: Real> Mul for &Transform<T> {
    type Output = Transform<T>;
    #[inline(always)]
    fn mul(self, rhs: &Transform<T>) -> Transform<T> {
        Transform {
            r: mul3(&self.r, &rhs.r),
            p: mul3v(&self.r, &rhs.p) + self.p,
        }
    }
}

/// `Rx(a0) Ry(a1) Rz(a2)` written out from the sines and cosines, as Simbody's
/// `Rotation::setRotationToBodyFixedXYZ` forms it.
pub fn rotation_body_xyz<T: Real>(a0: T, a1: T, a2: T) -> Matrix3<T> {
    rotation_body_xyz_sin_cos([a0.sin_cos(), a1.sin_cos(), a2.sin_cos()])
}

/// [`rotation_body_xyz`] from the angles' (sine, cosine) pairs, for callers that reuse them.
#[inline]
pub fn rotation_body_xyz_sin_cos<T: Real>(sin_cos: [(T, T); 3]) -> Matrix3<T> {
    let [(sx, cx), (sy, cy), (sz, cz)] = sin_cos;
    Matrix3::new(
        cy * cz,
        -(cy * sz),
        sy,
        sz * cx + sx * sy * cz,
        cz * cx - sx * sy * sz,
        -(sx * cy),
        sz * sx - cx * sy * cz,
        cz * sx + cx * sy * sz,
        cx * cy,
    )
}

/// Simbody's `Rotation::convertRotationToBodyFixedXYZ` (`convertThreeAxesRotationToThreeAngles`
/// for a body-fixed x-y-z sequence): the middle angle from `atan2(r₀₂, R)` with
/// `R = √((r₀₀² + r₀₁² + r₁₂² + r₂₂²)/2) = |cos θ₂|`, the outer two from `atan2`s of the
/// row and column they share with it; where `R ≤ 4ε` (gimbal lock) the whole first-plus-or-
/// minus-third angle goes to the first and the third is 0. Radians.
pub fn body_fixed_xyz_angles<T: Real>(r: &Matrix3<T>) -> Vector3<T> {
    let sq = |x: T| x * x;
    let r_sum =
        ((sq(r[(0, 0)]) + sq(r[(0, 1)]) + sq(r[(1, 2)]) + sq(r[(2, 2)])) / T::c(2.0)).sqrt();
    let theta2 = r[(0, 2)].atan2(r_sum);
    if r_sum.re() > 4.0 * f64::EPSILON {
        return Vector3::new(
            (-r[(1, 2)]).atan2(r[(2, 2)]),
            theta2,
            (-r[(0, 1)]).atan2(r[(0, 0)]),
        );
    }
    let theta1 = if r[(0, 2)].re() > 0.0 {
        (r[(1, 0)] + r[(2, 1)]).atan2(r[(1, 1)] - r[(2, 0)])
    } else {
        (r[(2, 1)] - r[(1, 0)]).atan2(r[(1, 1)] + r[(2, 0)])
    };
    Vector3::new(theta1, theta2, T::zero())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn body_fixed_angles_round_trip() {
        for a in [[0.3f64, -0.87, 0.2], [0.0, -0.87, 0.0], [-2.5, 1.2, 3.0]] {
            let r = rotation_body_xyz(a[0], a[1], a[2]);
            let back = body_fixed_xyz_angles(&r);
            for k in 0..3 {
                assert!((back[k] - a[k]).abs() < 1e-14, "{a:?} → {back:?}");
            }
        }
        // At the singularity the whole first-plus-third angle goes to the first.
        let r = rotation_body_xyz(0.4, std::f64::consts::FRAC_PI_2, 0.3);
        let back = body_fixed_xyz_angles(&r);
        assert!((back[0] - 0.7).abs() < 1e-7 && back[2] == 0.0, "{back:?}");
    }

    #[test]
    fn compose_with_inverse_is_identity() {
        let x_ab = Transform::from_axis_angle(Vector3::new(1.0, 2.0, 3.0), 0.7)
            * Transform::from_translation(Vector3::new(0.1, -0.2, 0.3));
        let id = x_ab * x_ab.inverse();
        assert!((id.r - Matrix3::identity()).norm() < 1e-14);
        assert!(id.p.norm() < 1e-14);
    }

    #[test]
    fn rotation_about_z_maps_x_to_y() {
        let x = Transform::from_axis_angle(Vector3::z(), std::f64::consts::FRAC_PI_2);
        assert!((x.apply(&Vector3::x()) - Vector3::y()).norm() < 1e-15);
    }
}
