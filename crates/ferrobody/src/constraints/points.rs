//! Point constraints between two bodies: Ball (coincident points), Rod (constant distance) and
//! Weld (coincident frames). Notes §5.6; Simbody `ConstraintImpl.h` (BallImpl, RodImpl,
//! WeldImpl).
//!
//! With stations `S1` on body 1 and `S2` on body 2 (Ground locations), `p = S2 − S1`:
//!
//! ```text
//! Ball:  perr = p               verr = v_S2 − v_S1          aerr = a_S2 − a_S1
//! Rod:   perr = |p| − L         verr = ṗ·ĉ                  aerr = p̈·ĉ + ṗ·ċ,  ĉ = p/|p|,
//!                                                           ċ = (ṗ − (ṗ·ĉ)ĉ)/|p|
//! Weld:  perr = [sinvec(R_FM) in G ; p_M − p_F]   verr = [ω2 − ω1 ; v_M − v_F]
//!        aerr = [α2 − α1 ; a_M − a_F]
//! ```
//!
//! `sinvec(R) = ½ (R₃₂ − R₂₃, R₁₃ − R₃₁, R₂₁ − R₁₂)` is `sin θ` times the rotation axis, so the
//! Weld's orientation error vanishes with the relative rotation and its rate is `ω2 − ω1` to
//! first order. Multiplier λ acts as the force λ on body 2 at its station and −λ on body 1
//! (moments likewise); the physical force is the negative (notes §0).

use super::station::BodyMotion;
use crate::ids::BodyId;
use crate::math::{SpatialVec, Transform};
use crate::scalar::Real;
use nalgebra::Vector3;

/// Two points, one on each body, kept coincident (Simbody `Constraint::Ball`). 3 holonomic
/// rows, expressed in Ground.
#[derive(Clone, Debug, PartialEq)]
pub struct Ball<T: Real = f64> {
    /// Body 1.
    pub body1: BodyId,
    /// Station on body 1, in its frame (m).
    pub point1: Vector3<T>,
    /// Body 2.
    pub body2: BodyId,
    /// Station on body 2, in its frame (m).
    pub point2: Vector3<T>,
}

/// Two points kept at a constant distance (Simbody `Constraint::Rod`). 1 holonomic row.
#[derive(Clone, Debug, PartialEq)]
pub struct Rod<T: Real = f64> {
    /// Body 1.
    pub body1: BodyId,
    /// Station on body 1, in its frame (m).
    pub point1: Vector3<T>,
    /// Body 2.
    pub body2: BodyId,
    /// Station on body 2, in its frame (m).
    pub point2: Vector3<T>,
    /// The distance (m), positive.
    pub length: T,
}

/// Frame F on body 1 and frame M on body 2 kept coincident (Simbody `Constraint::Weld`).
/// 6 holonomic rows: 3 rotational, then 3 translational, in Ground.
#[derive(Clone, Debug, PartialEq)]
pub struct Weld<T: Real = f64> {
    /// Body 1.
    pub body1: BodyId,
    /// Frame F in body 1, `x_b1f`.
    pub frame1: Transform<T>,
    /// Body 2.
    pub body2: BodyId,
    /// Frame M in body 2, `x_b2m`.
    pub frame2: Transform<T>,
}

/// Relative station data: positions, material velocities and accelerations of S1 and S2.
struct TwoStations<T: Real> {
    p: Vector3<T>,
    s1: Vector3<T>,
    s2: Vector3<T>,
}

fn stations<T: Real>(
    k: &BodyMotion<T>,
    b1: BodyId,
    p1: &Vector3<T>,
    b2: BodyId,
    p2: &Vector3<T>,
) -> TwoStations<T> {
    let s1 = k.point(b1.0, p1);
    let s2 = k.point(b2.0, p2);
    TwoStations { p: s2 - s1, s1, s2 }
}

fn relative_velocity<T: Real>(
    k: &BodyMotion<T>,
    b1: BodyId,
    b2: BodyId,
    s: &TwoStations<T>,
) -> Vector3<T> {
    k.velocity_at(b2.0, &s.s2) - k.velocity_at(b1.0, &s.s1)
}

fn relative_acceleration<T: Real>(
    k: &BodyMotion<T>,
    b1: BodyId,
    b2: BodyId,
    s: &TwoStations<T>,
) -> Vector3<T> {
    k.acceleration_at(b2.0, &s.s2) - k.acceleration_at(b1.0, &s.s1)
}

fn add_pair<T: Real>(
    k: &BodyMotion<T>,
    forces: &mut [SpatialVec<T>],
    b1: BodyId,
    b2: BodyId,
    s: &TwoStations<T>,
    f: &Vector3<T>,
) {
    k.add_force_at(forces, b2.0, &s.s2, f);
    k.add_force_at(forces, b1.0, &s.s1, &-f);
}

impl<T: Real> Ball<T> {
    pub(crate) fn position_errors(&self, k: &BodyMotion<T>, out: &mut [T]) {
        let s = stations(k, self.body1, &self.point1, self.body2, &self.point2);
        out.copy_from_slice(s.p.as_slice());
    }

    pub(crate) fn velocity_errors(&self, k: &BodyMotion<T>, out: &mut [T]) {
        let s = stations(k, self.body1, &self.point1, self.body2, &self.point2);
        out.copy_from_slice(relative_velocity(k, self.body1, self.body2, &s).as_slice());
    }

    pub(crate) fn acceleration_errors(&self, k: &BodyMotion<T>, out: &mut [T]) {
        let s = stations(k, self.body1, &self.point1, self.body2, &self.point2);
        out.copy_from_slice(relative_acceleration(k, self.body1, self.body2, &s).as_slice());
    }

    pub(crate) fn add_forces(&self, k: &BodyMotion<T>, lambda: &[T], forces: &mut [SpatialVec<T>]) {
        let s = stations(k, self.body1, &self.point1, self.body2, &self.point2);
        let f = Vector3::new(lambda[0], lambda[1], lambda[2]);
        add_pair(k, forces, self.body1, self.body2, &s, &f);
    }
}

impl<T: Real> Rod<T> {
    fn direction(p: &Vector3<T>) -> (Vector3<T>, T) {
        let r = p.norm();
        if r.re() < super::TINY_REAL {
            (Vector3::z(), r)
        } else {
            (p / r, r)
        }
    }

    pub(crate) fn position_errors(&self, k: &BodyMotion<T>, out: &mut [T]) {
        let s = stations(k, self.body1, &self.point1, self.body2, &self.point2);
        out[0] = s.p.norm() - self.length;
    }

    pub(crate) fn velocity_errors(&self, k: &BodyMotion<T>, out: &mut [T]) {
        let s = stations(k, self.body1, &self.point1, self.body2, &self.point2);
        let (c, _) = Self::direction(&s.p);
        out[0] = relative_velocity(k, self.body1, self.body2, &s).dot(&c);
    }

    pub(crate) fn acceleration_errors(&self, k: &BodyMotion<T>, out: &mut [T]) {
        let s = stations(k, self.body1, &self.point1, self.body2, &self.point2);
        let (c, r) = Self::direction(&s.p);
        let pdot = relative_velocity(k, self.body1, self.body2, &s);
        let pddot = relative_acceleration(k, self.body1, self.body2, &s);
        let cdot = if r.re() < super::TINY_REAL {
            Vector3::zeros()
        } else {
            (pdot - c * pdot.dot(&c)) / r
        };
        out[0] = pddot.dot(&c) + pdot.dot(&cdot);
    }

    pub(crate) fn add_forces(&self, k: &BodyMotion<T>, lambda: &[T], forces: &mut [SpatialVec<T>]) {
        let s = stations(k, self.body1, &self.point1, self.body2, &self.point2);
        let (c, _) = Self::direction(&s.p);
        add_pair(k, forces, self.body1, self.body2, &s, &(c * lambda[0]));
    }
}

impl<T: Real> Weld<T> {
    fn frames(&self, k: &BodyMotion<T>) -> (Transform<T>, Transform<T>) {
        (
            k.x_gb[self.body1.0] * self.frame1,
            k.x_gb[self.body2.0] * self.frame2,
        )
    }

    fn stations(&self, k: &BodyMotion<T>) -> TwoStations<T> {
        let (f, m) = self.frames(k);
        TwoStations {
            p: m.p - f.p,
            s1: f.p,
            s2: m.p,
        }
    }

    pub(crate) fn position_errors(&self, k: &BodyMotion<T>, out: &mut [T]) {
        let (f, m) = self.frames(k);
        let r_fm = f.r.transpose() * m.r;
        let half = T::c(0.5);
        let sinvec = Vector3::new(
            (r_fm[(2, 1)] - r_fm[(1, 2)]) * half,
            (r_fm[(0, 2)] - r_fm[(2, 0)]) * half,
            (r_fm[(1, 0)] - r_fm[(0, 1)]) * half,
        );
        let rot = f.r * sinvec;
        let p = m.p - f.p;
        for i in 0..3 {
            out[i] = rot[i];
            out[i + 3] = p[i];
        }
    }

    pub(crate) fn velocity_errors(&self, k: &BodyMotion<T>, out: &mut [T]) {
        let s = self.stations(k);
        let w = k.omega(self.body2.0) - k.omega(self.body1.0);
        let v = relative_velocity(k, self.body1, self.body2, &s);
        for i in 0..3 {
            out[i] = w[i];
            out[i + 3] = v[i];
        }
    }

    pub(crate) fn acceleration_errors(&self, k: &BodyMotion<T>, out: &mut [T]) {
        let s = self.stations(k);
        let alpha = k.alpha(self.body2.0) - k.alpha(self.body1.0);
        let a = relative_acceleration(k, self.body1, self.body2, &s);
        for i in 0..3 {
            out[i] = alpha[i];
            out[i + 3] = a[i];
        }
    }

    pub(crate) fn add_forces(&self, k: &BodyMotion<T>, lambda: &[T], forces: &mut [SpatialVec<T>]) {
        let s = self.stations(k);
        let m = Vector3::new(lambda[0], lambda[1], lambda[2]);
        k.add_moment(forces, self.body2.0, &m);
        k.add_moment(forces, self.body1.0, &-m);
        let f = Vector3::new(lambda[3], lambda[4], lambda[5]);
        add_pair(k, forces, self.body1, self.body2, &s, &f);
    }
}
