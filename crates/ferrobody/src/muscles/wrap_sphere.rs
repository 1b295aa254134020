//! OpenSim's `WrapSphere::wrapLine`: a path from P₁ to P₂ over a sphere of radius R at the
//! origin of its frame W.
//!
//! A segment wraps when its line crosses the sphere between its ends. Each end has two
//! tangent-point candidates in the plane through P₁, P₂ and the centre, `Pᵢ + |Pᵢ| cos αᵢ
//! (ŷᵢ cos αᵢ ∓ ẑᵢ sin αᵢ)` with `sin αᵢ = R/|Pᵢ|`, ŷᵢ towards the centre and ẑᵢ = n̂ × ŷᵢ; the
//! pair whose directions from the centre agree best is taken. On a sphere with a quadrant
//! (`+x` … `-z`) the points are chosen towards the allowed side instead, and the wrap may go
//! round the far side. The arc's length is R θ, θ the angle between the tangent points —
//! −(2π − θ) R for a far-side wrap, a negative length exactly as OpenSim computes it. The wrap
//! is `Wrapped` (to be compared with the path's other segments) unless a quadrant makes it
//! mandatory. Points in W (m).
//!
//! Source: OpenSim 4.6 `OpenSim/Simulation/Wrap/WrapSphere.cpp`. One departure: when the line
//! passes within 1e-5 of the centre OpenSim reuses the previous evaluation's tangent points
//! (state carried between evaluations); here the segment is not wrapped.

use super::wrap_cylinder::{Quadrant, WrapAction, WrapHit};
use super::wrap_math::{closest_point_on_line, dot, dsign, normalize_or_zero};
use crate::scalar::Real;
use nalgebra::Vector3;

/// A sphere wrap object's shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WrapSphere {
    /// Radius (m).
    pub radius: f64,
}

/// The two tangent-point candidates from `p` (in the plane of normal `n` through the centre).
fn tangent_candidates<T: Real>(p: &Vector3<T>, n: &Vector3<T>, r: T) -> [Vector3<T>; 2] {
    let (y, _) = normalize_or_zero(&(-p));
    let z = n.cross(&y);
    let distance = p.norm();
    let alpha = (r / distance).asin();
    let (c, s) = (alpha.cos(), alpha.sin());
    // Column 1 of `ra · Rx(±α)ᵀ`, ra = [n y z]: y cos α ∓ z sin α (the n column is times 0).
    let column =
        |sign: T| Vector3::from_fn(|i, _| n[i] * T::zero() + y[i] * c + z[i] * (-(s * sign)));
    [
        p + column(T::one()) * distance * c,
        p + column(-T::one()) * distance * c,
    ]
}

impl WrapSphere {
    /// Wraps segment `p1`→`p2` (in W) on the side `quadrant` allows.
    pub fn wrap_line<T: Real>(
        &self,
        p1: &Vector3<T>,
        p2: &Vector3<T>,
        quadrant: Quadrant,
    ) -> (WrapAction, Option<WrapHit<T>>) {
        let r = T::c(self.radius);
        if p1.norm().re() < self.radius || p2.norm().re() < self.radius {
            return (WrapAction::InsideRadius, None);
        }
        let ri = p1 - p2;
        let mp = -p2;
        let a = dot(&ri, &ri);
        let b = T::c(-2.0) * dot(&mp, &ri);
        let c = dot(&mp, &mp) - r * r;
        let disc = b * b - T::c(4.0) * a * c;
        if disc.re() < 0.0 {
            return (WrapAction::NoWrap, None);
        }
        let l1 = (-b + disc.sqrt()) / (T::c(2.0) * a);
        let l2 = (-b - disc.sqrt()) / (T::c(2.0) * a);
        let inside = |l: T| 0.0 < l.re() && l.re() < 1.0;
        if !inside(l1) || !inside(l2) || l1.re() < l2.re() {
            return (WrapAction::NoWrap, None);
        }
        let (p1p2, _) = normalize_or_zero(&ri);
        let (np2, _) = normalize_or_zero(p2);
        let hp2 = p1p2.cross(&np2);
        if hp2.norm().re() < 0.00001 {
            return (WrapAction::NoWrap, None);
        }
        let (n, _) = normalize_or_zero(&hp2);
        let [r1a, r1b] = tangent_candidates(p1, &n, r);
        let [r2a, r2b] = tangent_candidates(p2, &n, r);
        let unit = |v: &Vector3<T>| normalize_or_zero(v).0;
        let (r1am, r1bm, r2am, r2bm) = (unit(&r1a), unit(&r1b), unit(&r2a), unit(&r2b));
        let j1 = dot(&r1am, &r2am).re();
        let j2 = dot(&r1am, &r2bm).re();
        let j3 = dot(&r1bm, &r2am).re();
        let j4 = dot(&r1bm, &r2bm).re();
        let (mut r1, mut r2) = if j1 > j2 && j1 > j3 && j1 > j4 {
            (r1a, r2a)
        } else if j2 > j3 && j2 > j4 {
            (r1a, r2b)
        } else if j3 > j4 {
            (r1b, r2a)
        } else {
            (r1b, r2b)
        };
        let mut code = WrapAction::Wrapped;
        let mut far_side = false;
        if let Quadrant::Half { axis, sign } = quadrant {
            let (s1, s2) = (dsign(p1[axis]), dsign(p2[axis]));
            if s1 == sign || s2 == sign {
                // p1p2 runs from P₂ to P₁, so the parameter along P₁→P₂ is −t; p1p2 is a unit
                // vector, so t is a distance in m compared with 1, as in OpenSim.
                let (mm, t) = closest_point_on_line(&Vector3::zeros(), p1, &p1p2);
                let t = -t.re();
                if mm.norm_squared().re() < self.radius * self.radius && t > 0.0 && t < 1.0 {
                    code = WrapAction::MandatoryWrap;
                } else if s1 != s2 && dsign(mm[axis]) != sign {
                    code = WrapAction::Wrapped;
                } else {
                    return (WrapAction::NoWrap, None);
                }
            }
            if s1 != sign || s2 != sign {
                let mut wrap_axis = Vector3::<T>::zeros();
                wrap_axis[axis] = T::c(f64::from(sign));
                let (sum, _) = normalize_or_zero(&(-p1 - p2));
                // The candidates towards the centre, and the others (r11, r22).
                let (r11, r22);
                if dot(&r1am, &sum).re() > dot(&r1bm, &sum).re() {
                    (r1, r11) = (r1a, r1b);
                } else {
                    (r1, r11) = (r1b, r1a);
                }
                if dot(&r2am, &sum).re() > dot(&r2bm, &sum).re() {
                    (r2, r22) = (r2a, r2b);
                } else {
                    (r2, r22) = (r2b, r2a);
                }
                let (sum, _) = normalize_or_zero(&((r1 - p1) + (r2 - p2)));
                if dot(&sum, &wrap_axis).re() < 0.0 {
                    (r1, r2) = (r11, r22);
                }
                let sum_musc = (r1 - p1) + (r2 - p2);
                let sum_r = r1 + r2;
                if dot(&sum_r, &sum_musc).re() < 0.0 {
                    far_side = true;
                }
            }
        }
        let (r1n, _) = normalize_or_zero(&r1);
        let (r2n, _) = normalize_or_zero(&r2);
        let mut angle = dot(&r1n, &r2n).acos();
        if far_side {
            angle = -(T::c(2.0 * std::f64::consts::PI) - angle);
        }
        let hit = WrapHit {
            r1,
            r2,
            length: r * angle,
        };
        (code, Some(hit))
    }
}
