//! OpenSim's `WrapEllipsoid::wrapLine`: a path from P₁ to P₂ over the ellipsoid
//! (x/a)² + (y/b)² + (z/c)² = 1 of its frame W (`dimensions` a, b, c in m).
//!
//! Everything is scaled by `3/(a + b + c)` first, as OpenSim does. A segment wraps only when
//! its line crosses the ellipsoid between its ends. The wrapping plane goes through P₁, P₂
//! and a surface point c₁ chosen by the path's method: `midpoint` (the surface point closest
//! to the crossing chord's midpoint), `axial` (Frans' technique: where the chord crosses the
//! plane normal to the coordinate axis most parallel to it) or `hybrid` (Frans' point blended
//! with the average of 298 "fan" directions from the chord to the surface, by how parallel the
//! chord is to that axis). A quadrant other than `all` flips c₁ to its side. The tangent
//! points r₁, r₂ solve, by a damped Gauss–Newton iteration from c₁, "on the ellipsoid, in the
//! plane, tangent towards Pᵢ"; the surface path is the plane's section, sampled every 1 mm
//! (at most 499 pieces), the far way round when the near way would double back on a
//! one-sided ellipsoid. Closest points on the ellipsoid and on ellipses are Eberly's
//! (Graphics Gems IV). Points in W (m); the length over the surface in m.
//!
//! Source: OpenSim 4.6 `OpenSim/Simulation/Wrap/WrapEllipsoid.cpp` (`wrapLine`,
//! `calcTangentPoint`, `CalcDistanceOnEllipsoid`, `findClosestPoint`,
//! `closestPointToEllipse`). One departure: where Eberly's Newton iteration does not converge
//! in 64 steps OpenSim leaves its output untouched (whatever the caller's variable held); here
//! the last iterate is used.

use super::ellipse_closest_point::{
    closest_point_general, closest_point_to_ellipse, closest_points_general_4,
};
use super::wrap_cylinder::{Quadrant, WrapAction, WrapHit};
use super::wrap_ellipsoid_path::{calc_tangent_point, distance_on_ellipsoid};
use super::wrap_math::{dot, dsign, equal_within_error, normalize_or_zero};
use crate::scalar::{is_plain_f64, Real};
use nalgebra::Vector3;

/// How a path chooses its wrapping plane over an ellipsoid (OpenSim's `PathWrap::method`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum WrapMethod {
    /// `hybrid` (OpenSim's default): Frans' technique blended with the fan.
    #[default]
    Hybrid,
    /// `midpoint`.
    Midpoint,
    /// `axial`: Frans' technique alone.
    Axial,
}

/// An ellipsoid wrap object's shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WrapEllipsoid {
    /// The semi-axes along x, y and z of W (m).
    pub dimensions: [f64; 3],
}

const MU_BLEND_MIN: f64 = 0.7073;
const MU_BLEND_MAX: f64 = 0.9;
const NUM_FAN_SAMPLES: usize = 300;
const SV_BOUNDARY_BLEND: f64 = 0.3;
impl WrapEllipsoid {
    /// Wraps segment `p1`→`p2` (in W) on the side `quadrant` allows, choosing the plane by
    /// `method`.
    pub fn wrap_line<T: Real>(
        &self,
        point1: &Vector3<T>,
        point2: &Vector3<T>,
        quadrant: Quadrant,
        method: WrapMethod,
    ) -> (WrapAction, Option<WrapHit<T>>) {
        let factor = 3.0 / self.dimensions.iter().sum::<f64>();
        let f = T::c(factor);
        let p1 = point1 * f;
        let p2 = point2 * f;
        let m = Vector3::<T>::zeros();
        let a = Vector3::from(self.dimensions.map(|d| T::c(d * factor)));
        let excess = |p: &Vector3<T>| {
            let mut e = T::c(-1.0);
            for i in 0..3 {
                let s = (p[i] - m[i]) / a[i];
                e += s * s;
            }
            e
        };
        let (p1e, p2e) = (excess(&p1), excess(&p2));
        if p1e.re() < -0.0001 || p2e.re() < -0.0001 {
            return (WrapAction::InsideRadius, None);
        }
        let p1p2 = p1 - p2;
        let (p1m, _) = normalize_or_zero(&(p1 - m));
        let (p2m, _) = normalize_or_zero(&(p2 - m));
        let ppm = dot(&p1m, &p2m) - T::one();
        if ppm.re().abs() < 0.0001 {
            return (WrapAction::NoWrap, None);
        }
        let f1 = p1p2.component_div(&a);
        let f2 = (p2 - m).component_div(&a);
        let aa = dot(&f1, &f1);
        let bb = T::c(2.0) * dot(&f1, &f2);
        let cc = dot(&f2, &f2) - T::one();
        let disc = bb * bb - T::c(4.0) * aa * cc;
        if disc.re() < 0.0 {
            return (WrapAction::NoWrap, None);
        }
        let l1 = (-bb + disc.sqrt()) / (T::c(2.0) * aa);
        let l2 = (-bb - disc.sqrt()) / (T::c(2.0) * aa);
        let inside = |l: T| 0.0 < l.re() && l.re() < 1.0;
        if !inside(l1) || !inside(l2) {
            return (WrapAction::NoWrap, None);
        }
        let chord = [p2 + p1p2 * l1, p2 + p1p2 * l2];
        let (c1, fan_weight, best_t) = self.plane_point(&chord, &p1p2, &a, &m, method);
        let use_c1 = match method {
            WrapMethod::Axial => best_t > 0.0 && best_t < 1.0,
            _ => true,
        };
        let (mut r1, mut r2) = if use_c1 {
            (c1, c1)
        } else {
            (chord[0], chord[1])
        };
        let c1 = match quadrant {
            Quadrant::Half { axis, sign } if dsign(c1[axis] - m[axis]) != sign => {
                let flipped = self.flip_to_side(&c1, axis, fan_weight, &a);
                r1 = flipped.0;
                r2 = flipped.0;
                flipped.1
            }
            _ => c1,
        };
        let (vs, _) = normalize_or_zero(&p1p2.cross(&(p1 - c1)));
        let vs4 = -dot(&vs, &c1);
        calc_tangent_point(p1e, &mut r1, &p1, &m, &a, &vs, vs4);
        calc_tangent_point(p2e, &mut r2, &p2, &m, &a, &vs, vs4);
        let one_sided = !matches!(quadrant, Quadrant::All);
        let mut far_side = false;
        let length = loop {
            let path = distance_on_ellipsoid(&r1, &r2, &m, &a, &vs, vs4, far_side, factor);
            if let (true, false, Some((w1, w2))) = (one_sided, far_side, path.interior_ends) {
                let (r1p1, _) = normalize_or_zero(&(p1 - r1));
                let (r1w1, _) = normalize_or_zero(&(w1 - r1));
                let (r2p2, _) = normalize_or_zero(&(p2 - r2));
                let (r2w2, _) = normalize_or_zero(&(w2 - r2));
                if dot(&r1p1, &r1w1).re() > 0.0 || dot(&r2p2, &r2w2).re() > 0.0 {
                    // A wrong-way wrap: OpenSim recomputes it round the far side.
                    far_side = true;
                    continue;
                }
            }
            break path.length;
        };
        let hit = WrapHit {
            r1: r1 / f,
            r2: r2 / f,
            length: length / f,
        };
        (WrapAction::MandatoryWrap, Some(hit))
    }

    /// The wrapping plane's surface point c₁ (scaled W), the fan's weight (−∞ when the fan
    /// was not used) and Frans' chord parameter along the most parallel axis.
    fn plane_point<T: Real>(
        &self,
        chord: &[Vector3<T>; 2],
        p1p2: &Vector3<T>,
        a: &Vector3<T>,
        m: &Vector3<T>,
        method: WrapMethod,
    ) -> (Vector3<T>, T, f64) {
        let [r1, r2] = *chord;
        let r1r2 = r2 - r1;
        let closest = |p: &Vector3<T>, axis: Option<usize>| self.closest_point(a, p, axis);
        if method == WrapMethod::Midpoint {
            let sv = r1 + (r2 - r1) * T::c(0.5);
            return (closest(&sv, None), T::c(f64::NEG_INFINITY), 0.0);
        }
        let (dir, _) = normalize_or_zero(p1p2);
        let mut mu = dir.map(|x| x.abs());
        let mut t = [T::zero(); 3];
        let mut t_sv = [Vector3::<T>::zeros(); 3];
        let mut t_c1 = [Vector3::<T>::zeros(); 3];
        for i in 0..3 {
            t[i] = (m[i] - r1[i]) / r1r2[i];
            t_sv[i] = r1 + r1r2 * t[i];
            t_c1[i] = closest(&t_sv[i], Some(i));
        }
        let mut best = 0;
        for i in 1..3 {
            if mu[i].re() > mu[best].re() {
                best = i;
            }
        }
        let best_t = t[best].re();
        let hybrid = method == WrapMethod::Hybrid;
        let (min, max) = (T::c(MU_BLEND_MIN), T::c(MU_BLEND_MAX));
        if hybrid && mu[best].re() > MU_BLEND_MIN {
            let blend = T::c(SV_BOUNDARY_BLEND);
            let s = if !(0.0..=1.0).contains(&best_t) {
                T::zero()
            } else if best_t < SV_BOUNDARY_BLEND {
                t[best] / blend
            } else if best_t > 1.0 - SV_BOUNDARY_BLEND {
                (T::one() - t[best]) / blend
            } else {
                T::one()
            };
            if s.re() < 1.0 {
                mu[best] = min + s * (mu[best] - min);
            }
        }
        let mut c1 = Vector3::<T>::zeros();
        if method == WrapMethod::Axial || mu[best].re() > MU_BLEND_MIN {
            c1 = t_c1[best];
        }
        let mut fan_weight = T::c(f64::NEG_INFINITY);
        if hybrid && mu[best].re() < MU_BLEND_MAX {
            let middle = r1 + r1r2 * T::c(0.5);
            let mut v_sum = Vector3::<T>::zeros();
            // Each sample's Newton iteration starts from Eberly's start, as OpenSim's does: a
            // warm start from the previous sample's root (tried, 1.67× on arm26) stops at
            // another iterate inside the |f| < 1e-9 tolerance, which moved opensim-core's
            // shoulder PathSprings' lengths by 2.5e-8 m and their accelerations by 5e-7
            // relative (docs/performance.md, 2026-11-29).
            if is_plain_f64::<T>() {
                let re = |v: &Vector3<T>| v.map(|x| x.re());
                let sum = self.fan_sum(&re(a), &re(&r1), &re(&r1r2));
                v_sum = sum.map(T::c);
            } else {
                for i in 1..NUM_FAN_SAMPLES - 1 {
                    let sample = r1 + r1r2 * T::c(i as f64 / NUM_FAN_SAMPLES as f64);
                    let closest = self.closest_point(a, &sample, None);
                    let (v, _) = normalize_or_zero(&(closest - sample));
                    v_sum += v;
                }
            }
            let (v_sum, _) = normalize_or_zero(&v_sum);
            let towards = middle + v_sum;
            if mu[best].re() <= MU_BLEND_MIN {
                c1 = closest(&towards, None);
                fan_weight = T::one();
            } else {
                let tt = (mu[best] - min) / (max - min);
                let fan = closest(&towards, None);
                let blend = c1 * tt + fan * (T::one() - tt);
                c1 = closest(&blend, None);
                fan_weight = T::one() - tt;
            }
        }
        (c1, fan_weight, best_t)
    }

    /// c₁ flipped to the quadrant's side (scaled W), returned as (the tangent points' start,
    /// c₁): the start is the flipped point, c₁ moves towards the bisection by the fan's weight.
    fn flip_to_side<T: Real>(
        &self,
        c1: &Vector3<T>,
        axis: usize,
        fan_weight: T,
        a: &Vector3<T>,
    ) -> (Vector3<T>, Vector3<T>) {
        let original = *c1;
        let mut c1 = *c1;
        c1[axis] = -c1[axis];
        let start = c1;
        let mut fan_weight = fan_weight;
        // OpenSim tests `EQUAL_WITHIN_ERROR(fanWeight, -Infinity)`, which is false for −∞
        // itself (−∞ − −∞ is NaN): the fan weight is never recomputed here.
        if equal_within_error(fan_weight.re(), f64::NEG_INFINITY) {
            fan_weight = T::one();
        }
        if fan_weight.re() > 1.0 {
            fan_weight = T::one();
        }
        if fan_weight.re() > 0.0 {
            let bisection = (original[axis] + c1[axis]) * T::c(0.5);
            c1[axis] = c1[axis] + (bisection - c1[axis]) * fan_weight;
            c1 = self.closest_point(a, &c1, None);
        }
        (start, c1)
    }

    /// The point of the ellipsoid of semi-axes `a` closest to `p` (OpenSim's
    /// `findClosestPoint`): near a coordinate plane (or on the plane `axis` when given) the
    /// two-dimensional problem in that plane, else Eberly's Newton iteration.
    fn closest_point<T: Real>(
        &self,
        a: &Vector3<T>,
        p: &Vector3<T>,
        axis: Option<usize>,
    ) -> Vector3<T> {
        match axis.or_else(|| self.nearest_plane(p)) {
            Some(axis) => closest_point_in_plane(a, p, axis),
            None => closest_point_general(a, p),
        }
    }

    /// The fan's sum of unit directions from the chord's samples to their closest surface
    /// points, in plain `f64`: the loop of the generic path above, operation for operation,
    /// with the samples off the coordinate planes solved four at a time
    /// ([`closest_points_general_4`]); the sum taken in sample order.
    fn fan_sum(&self, a: &Vector3<f64>, r1: &Vector3<f64>, r1r2: &Vector3<f64>) -> Vector3<f64> {
        const N: usize = NUM_FAN_SAMPLES - 2;
        let samples: [Vector3<f64>; N] =
            std::array::from_fn(|k| r1 + r1r2 * ((k + 1) as f64 / NUM_FAN_SAMPLES as f64));
        let mut closest = [Vector3::zeros(); N];
        let mut pending = [0usize; 4];
        let mut count = 0;
        let solve = |pending: &[usize; 4], count: usize, closest: &mut [Vector3<f64>; N]| {
            let points = std::array::from_fn(|l| samples[pending[l.min(count - 1)]]);
            let found = closest_points_general_4(a, &points);
            for l in 0..count {
                closest[pending[l]] = found[l];
            }
        };
        for (k, sample) in samples.iter().enumerate() {
            match self.nearest_plane(sample) {
                Some(axis) => closest[k] = closest_point_in_plane(a, sample, axis),
                None => {
                    pending[count] = k;
                    count += 1;
                    if count == 4 {
                        solve(&pending, count, &mut closest);
                        count = 0;
                    }
                }
            }
        }
        if count > 0 {
            solve(&pending, count, &mut closest);
        }
        let mut v_sum = Vector3::zeros();
        for (c, sample) in closest.iter().zip(&samples) {
            let (v, _) = normalize_or_zero(&(c - sample));
            v_sum += v;
        }
        v_sum
    }

    /// The coordinate plane `p` lies on (within OpenSim's error), the one of the smallest
    /// ellipse when several.
    fn nearest_plane<T: Real>(&self, p: &Vector3<T>) -> Option<usize> {
        let mut chosen = None;
        let mut min_sum = f64::INFINITY;
        for i in 0..3 {
            if equal_within_error(0.0, p[i].re()) {
                let sum: f64 = (0..3).filter(|&j| j != i).map(|j| self.dimensions[j]).sum();
                if min_sum > sum {
                    chosen = Some(i);
                    min_sum = sum;
                }
            }
        }
        chosen
    }
}

/// The closest point of the ellipse in which the plane `axis = p[axis]` cuts the ellipsoid.
fn closest_point_in_plane<T: Real>(a: &Vector3<T>, p: &Vector3<T>, axis: usize) -> Vector3<T> {
    match axis {
        0 => {
            let (y, z) = closest_point_to_ellipse(a[1], a[2], p[1], p[2]);
            Vector3::new(p[0], y, z)
        }
        1 => {
            let (z, x) = closest_point_to_ellipse(a[2], a[0], p[2], p[0]);
            Vector3::new(x, p[1], z)
        }
        _ => {
            let (x, y) = closest_point_to_ellipse(a[0], a[1], p[0], p[1]);
            Vector3::new(x, y, p[2])
        }
    }
}
