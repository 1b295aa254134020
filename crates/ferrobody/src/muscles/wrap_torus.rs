//! OpenSim's `WrapTorus::wrapLine`: a path through a torus (the axis circle of radius R_o,
//! `outer_radius`, in W's xy plane; tube radius R_i, `inner_radius`) wraps over the tube
//! locally approximated by a cylinder.
//!
//! 1. The point of the segment's line closest to the axis circle: on the line
//!    a(u) = P₁ + u n̂ (n̂ from P₁ to P₂), the root of the derivative of the squared distance
//!    to the circle,
//!
//!    ```text
//!      r(u) = c₂ + 2u − 2 R_o (2 c₄ u + 2 c₃) / √(c₄ u² + 2 c₃ u + c₅)
//!      c₂ = 2 P₁·n̂,  c₃ = P₁ₓn̂ₓ + P₁ᵧn̂ᵧ,  c₄ = n̂ₓ² + n̂ᵧ²,  c₅ = P₁ₓ² + P₁ᵧ²
//!    ```
//!
//!    found from u = 0 by MINPACK's `lmdif` with OpenSim's loose tolerances (1e-4) — from P₁
//!    towards P₂ and from P₂ towards P₁ — and the nearer of the two (or the one on the
//!    quadrant's side) projected onto the circle: C = R_o (aₓ, aᵧ, 0)/|(aₓ, aᵧ)|.
//! 2. A cylinder of radius R_i and length 10 000 with its centre at C, x axis towards the
//!    torus's centre (−Ĉ), y axis −ẑ, wraps the segment on its +x side (`WrapCylinder`), and
//!    its tangent points are brought back to W.
//!
//! OpenSim reports every such attempt as `wrapped`; when the cylinder does not wrap, its
//! result holds NaN and is never chosen, so that case is `NoWrap` here. Derivatives: u is
//! OpenSim's iterate (its value exactly), its dual part from the implicit function theorem on
//! r(u) = 0, `du = −(∂r/∂P · dP)/(∂r/∂u)`. Source: OpenSim 4.6
//! `OpenSim/Simulation/Wrap/WrapTorus.cpp`.

use super::lmdif::{lmdif, LmdifSettings};
use super::wrap_cylinder::{Quadrant, WrapAction, WrapCylinder, WrapHit};
use super::wrap_math::{dsign, normalize_or_zero};
use crate::math::quaternion::rotation_from_approximate_matrix;
use crate::scalar::Real;
use nalgebra::{Matrix3, Vector3};

/// A torus wrap object's shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WrapTorus {
    /// The tube's radius (m).
    pub inner_radius: f64,
    /// The axis circle's radius (m).
    pub outer_radius: f64,
}

/// OpenSim's `CYL_LENGTH`.
const CYLINDER_LENGTH: f64 = 10000.0;

/// OpenSim's arguments of `lmdif_C` in `findClosestPoint`.
const SETTINGS: LmdifSettings = LmdifSettings {
    ftol: 1e-4,
    xtol: 1e-4,
    gtol: 0.0,
    maxfev: 500,
    factor: 0.2,
};

/// r(u) and ∂r/∂u for the line from `p1` towards `p2` and the circle of radius `radius`.
fn residual<T: Real>(p1: &Vector3<T>, p2: &Vector3<T>, radius: T, u: T) -> (T, T) {
    let n = (p2 - p1) / (p2 - p1).norm();
    let c2 = T::c(2.0) * p1.dot(&n);
    let c3 = p1[0] * n[0] + p1[1] * n[1];
    let c4 = n[0] * n[0] + n[1] * n[1];
    let c5 = p1[0] * p1[0] + p1[1] * p1[1];
    let s = u * u * c4 + T::c(2.0) * c3 * u + c5;
    let numerator = T::c(2.0) * c4 * u + T::c(2.0) * c3;
    let two = T::c(2.0);
    let r = c2 + two * u - two * radius * numerator / s.sqrt();
    let dr_du = two - two * radius * (two * c4 * s - numerator * numerator / two) / (s * s.sqrt());
    (r, dr_du)
}

/// The point of the line from `p1` towards `p2` nearest the circle: OpenSim's iterate u
/// (by value), with the implicit derivatives of the root.
fn nearest_on_line<T: Real>(p1: &Vector3<T>, p2: &Vector3<T>, radius: f64) -> Vector3<T> {
    let (q1, q2) = (p1.map(|x| x.re()), p2.map(|x| x.re()));
    let mut u = [0.0];
    let mut f = |x: &[f64], r: &mut [f64]| r[0] = residual(&q1, &q2, radius, x[0]).0;
    lmdif(&mut f, 1, &mut u, SETTINGS);
    let (r, _) = residual(p1, p2, T::c(radius), T::c(u[0]));
    let (_, dr_du) = residual(&q1, &q2, radius, u[0]);
    // The dual part only: u keeps OpenSim's value.
    let u_t = T::c(u[0]) - (r - T::c(r.re())) / T::c(dr_du);
    let n = (p2 - p1) / (p2 - p1).norm();
    p1 + n * u_t
}

/// The distance from `a` to the circle of radius `radius` in the xy plane.
fn circle_distance(a: &Vector3<f64>, radius: f64) -> f64 {
    let xy = (a[0] * a[0] + a[1] * a[1]).sqrt();
    (a.norm_squared() + radius * radius - 2.0 * radius * xy).sqrt()
}

/// OpenSim's `findClosestPoint`: the point of the axis circle nearest the segment's line
/// (None when a quadrant excludes both candidates).
fn closest_circle_point<T: Real>(
    radius: f64,
    p1: &Vector3<T>,
    p2: &Vector3<T>,
    quadrant: Quadrant,
) -> Option<Vector3<T>> {
    let a1 = nearest_on_line(p1, p2, radius);
    let a2 = nearest_on_line(p2, p1, radius);
    let (d1, d2) = (
        circle_distance(&a1.map(|x| x.re()), radius),
        circle_distance(&a2.map(|x| x.re()), radius),
    );
    let first = match quadrant {
        Quadrant::All => d1 < d2,
        Quadrant::Half { axis, sign } => match (dsign(a1[axis]) == sign, dsign(a2[axis]) == sign) {
            (true, true) => d1 < d2,
            (true, false) => true,
            (false, true) => false,
            (false, false) => return None,
        },
    };
    let a = if first { a1 } else { a2 };
    let xy = (a[0] * a[0] + a[1] * a[1]).sqrt();
    let r = T::c(radius);
    Some(Vector3::new(a[0] * r / xy, a[1] * r / xy, T::zero()))
}

/// The frame C of the cylinder standing for the tube at the ring's point P: x towards the
/// torus's centre (−P̂), y = −ẑ, z = x × y, its origin at P. OpenSim builds it as a Simbody
/// `Transform` from `Rotation(Mat33)` (rows x, y, z, re-orthonormalized through a quaternion)
/// and the station `R (−P)`, and maps points with `shiftFrameStationToBase` and back with
/// `shiftBaseStationToFrame`; the same arithmetic here, so that the cylinder's tangent slide
/// starts from OpenSim's bits.
#[derive(Clone, Copy, Debug)]
pub(super) struct CylinderFrame<T> {
    /// The rows x, y, z of C in W.
    r_cw: Matrix3<T>,
    /// `R (−P)`: what OpenSim adds to `R p` (the torus's origin seen from C, in C).
    p_cw: Vector3<T>,
}

impl<T: Real> CylinderFrame<T> {
    fn at(closest: &Vector3<T>) -> Self {
        let towards_centre = -closest;
        let (x_axis, _) = normalize_or_zero(&towards_centre);
        let y_axis = Vector3::new(T::zero(), T::zero(), T::c(-1.0));
        let z_axis = x_axis.cross(&y_axis);
        let rows =
            Matrix3::from_rows(&[x_axis.transpose(), y_axis.transpose(), z_axis.transpose()]);
        let r_cw = rotation_from_approximate_matrix(&rows);
        Self {
            r_cw,
            p_cw: r_cw * towards_centre,
        }
    }

    /// A point of W in C (`shiftFrameStationToBase`).
    pub(super) fn cylinder_point(&self, p_w: &Vector3<T>) -> Vector3<T> {
        self.p_cw + self.r_cw * p_w
    }

    /// A point of C in W (`shiftBaseStationToFrame`).
    pub(super) fn torus_point(&self, p_c: &Vector3<T>) -> Vector3<T> {
        self.r_cw.transpose() * (p_c - self.p_cw)
    }
}

impl WrapTorus {
    /// The cylinder that stands for the tube at the ring's point nearest the segment (None
    /// when a quadrant excludes both candidates).
    pub(super) fn cylinder_frame<T: Real>(
        &self,
        p1: &Vector3<T>,
        p2: &Vector3<T>,
        quadrant: Quadrant,
    ) -> Option<CylinderFrame<T>> {
        let closest = closest_circle_point(self.outer_radius, p1, p2, quadrant)?;
        Some(CylinderFrame::at(&closest))
    }

    /// The cylinder standing for the tube (radius `inner_radius`, length 10 000 m).
    pub(super) fn cylinder(&self) -> WrapCylinder {
        WrapCylinder {
            radius: self.inner_radius,
            length: CYLINDER_LENGTH,
        }
    }

    /// Wraps segment `p1`→`p2` (in W); `single` as for [`WrapCylinder::wrap_line`].
    pub fn wrap_line<T: Real>(
        &self,
        p1: &Vector3<T>,
        p2: &Vector3<T>,
        quadrant: Quadrant,
        single: bool,
    ) -> (WrapAction, Option<WrapHit<T>>) {
        let Some(frame) = self.cylinder_frame(p1, p2, quadrant) else {
            return (WrapAction::NoWrap, None);
        };
        let plus_x = Quadrant::Half { axis: 0, sign: 1 };
        let (code, hit) = self.cylinder().wrap_line(
            &frame.cylinder_point(p1),
            &frame.cylinder_point(p2),
            plus_x,
            single,
        );
        match (code, hit) {
            (WrapAction::Wrapped | WrapAction::MandatoryWrap, Some(h)) => {
                let hit = WrapHit {
                    r1: frame.torus_point(&h.r1),
                    r2: frame.torus_point(&h.r2),
                    length: h.length,
                };
                (WrapAction::Wrapped, Some(hit))
            }
            _ => (WrapAction::NoWrap, None),
        }
    }
}
