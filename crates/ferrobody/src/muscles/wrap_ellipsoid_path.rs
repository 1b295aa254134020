//! The tangent points and the surface path of OpenSim's `WrapEllipsoid`:
//! `calcTangentPoint` (a damped Gauss–Newton iteration for "on the ellipsoid, in the wrapping
//! plane, its tangent plane through the end point") and `CalcDistanceOnEllipsoid` (the plane's
//! section sampled every 1 mm of chord). Used by [`super::wrap_ellipsoid`]; points in its
//! scaled frame.

use super::wrap_math::{dot, normalize_or_zero};
use crate::scalar::Real;
use nalgebra::{Matrix4, Vector3, Vector4};

const ELLIPSOID_TINY: f64 = 0.000_000_01;
const DESIRED_SEGMENT_LENGTH: f64 = 0.001;

/// The residuals of "r on the ellipsoid, in the plane (vs, vs4), its tangent plane (offset d)
/// through p": OpenSim's `ee` of `calcTangentPoint`.
fn tangent_residuals<T: Real>(
    r: &Vector3<T>,
    d: T,
    p: &Vector3<T>,
    m: &Vector3<T>,
    a: &Vector3<T>,
    vs: &Vector3<T>,
    vs4: T,
) -> Vector4<T> {
    let nr = Vector3::from_fn(|i, _| T::c(2.0) * (r[i] - m[i]) / (a[i] * a[i]));
    let mut on_surface = T::c(-1.0);
    for i in 0..3 {
        let s = (r[i] - m[i]) / a[i];
        on_surface += s * s;
    }
    Vector4::new(
        dot(vs, r) + vs4,
        on_surface,
        dot(&nr, r) + d,
        dot(&nr, p) + d,
    )
}

/// OpenSim's `calcTangentPoint`: moves `r` (scaled W) to the tangent point from `p`, a damped
/// Gauss–Newton iteration (Levenberg–Marquardt damping α, a doubling line search).
pub(super) fn calc_tangent_point<T: Real>(
    pe: T,
    r: &mut Vector3<T>,
    p: &Vector3<T>,
    m: &Vector3<T>,
    a: &Vector3<T>,
    vs: &Vector3<T>,
    vs4: T,
) {
    if pe.re().abs() < 0.0001 {
        *r = *p;
        return;
    }
    let sq = |e: &Vector4<T>| e[0] * e[0] + e[1] * e[1] + e[2] * e[2] + e[3] * e[3];
    let nr = Vector3::from_fn(|i, _| T::c(2.0) * (r[i] - m[i]) / (a[i] * a[i]));
    let mut d = -dot(&nr, r);
    let mut ee = tangent_residuals(r, d, p, m, a, vs, vs4);
    let mut ssqo = sq(&ee);
    let mut ssq = ssqo;
    let mut alpha = 0.01;
    let mut nit = 0;
    while ssq.re() > ELLIPSOID_TINY && nit < 50 {
        nit += 1;
        let mut dedth = Matrix4::<T>::zeros();
        for i in 0..3 {
            let a2 = a[i] * a[i];
            dedth[(i, 0)] = vs[i];
            dedth[(i, 1)] = T::c(2.0) * (r[i] - m[i]) / a2;
            dedth[(i, 2)] = T::c(2.0) * (T::c(2.0) * r[i] - m[i]) / a2;
            dedth[(i, 3)] = T::c(2.0) * p[i] / a2;
        }
        dedth[(3, 2)] = T::one();
        dedth[(3, 3)] = T::one();
        let (p1r1, _) = normalize_or_zero(&(p - *r));
        let (p1m, _) = normalize_or_zero(&(p - m));
        let pcos = dot(&p1r1, &p1m);
        let dd = if pcos.re() > 0.1 {
            T::one() - pcos.powi(100)
        } else {
            T::one()
        };
        let v = Vector4::from_fn(|i, _| {
            let mut s = T::zero();
            for j in 0..4 {
                s -= dedth[(i, j)] * ee[j];
            }
            s
        });
        let mut dedth2 = Matrix4::from_fn(|i, j| {
            let mut s = T::zero();
            for k in 0..4 {
                s += dedth[(i, k)] * dedth[(j, k)];
            }
            s
        });
        let diag = Vector4::from_fn(|i, _| dedth2[(i, i)]);
        let mut vt = Vector4::<T>::zeros();
        let mut nit2 = 0;
        while ssq.re() >= ssqo.re() && nit2 < 1000 {
            for i in 0..4 {
                dedth2[(i, i)] = diag[i] * T::c(1.0 + alpha);
            }
            let inverse = dedth2.try_inverse().unwrap_or_else(Matrix4::zeros);
            vt = Vector4::from_fn(|i, _| {
                let mut s = T::zero();
                for j in 0..4 {
                    s += dd * inverse[(i, j)] * v[j] / T::c(16.0);
                }
                s
            });
            for i in 0..3 {
                r[i] += vt[i];
            }
            d += vt[3];
            ee = tangent_residuals(r, d, p, m, a, vs, vs4);
            ssqo = ssq;
            ssq = sq(&ee);
            alpha *= 4.0;
            nit2 += 1;
        }
        alpha /= 8.0;
        let mut fakt = 0.5;
        nit2 = 0;
        while ssq.re() <= ssqo.re() && nit2 < 1000 {
            fakt *= 2.0;
            for i in 0..3 {
                r[i] += vt[i] * T::c(fakt);
            }
            d += vt[3] * T::c(fakt);
            ee = tangent_residuals(r, d, p, m, a, vs, vs4);
            ssqo = ssq;
            ssq = sq(&ee);
            nit2 += 1;
        }
        for i in 0..3 {
            r[i] -= vt[i] * T::c(fakt);
        }
        d -= vt[3] * T::c(fakt);
        ee = tangent_residuals(r, d, p, m, a, vs, vs4);
        ssq = sq(&ee);
        ssqo = ssq;
    }
}

/// OpenSim's `CalcDistanceOnEllipsoid`: the section of the ellipsoid by the wrapping plane
/// from r₁ to r₂ (scaled W), sampled every 1 mm of chord (at most 499 pieces).
#[allow(clippy::too_many_arguments)]
pub(super) fn distance_on_ellipsoid<T: Real>(
    r1: &Vector3<T>,
    r2: &Vector3<T>,
    m: &Vector3<T>,
    a: &Vector3<T>,
    vs: &Vector3<T>,
    vs4: T,
    far_side: bool,
    factor: f64,
) -> SurfacePath<T> {
    let mut interior_ends: Option<(Vector3<T>, Vector3<T>)> = None;
    let length = section(r1, r2, m, a, vs, vs4, far_side, factor, &mut |point| {
        interior_ends = Some(interior_ends.map_or((*point, *point), |(first, _)| (first, *point)));
    });
    SurfacePath {
        length,
        interior_ends,
    }
}

/// The section's length from r₁ to r₂, each interior point handed to `visit` in order (the
/// points r₁, s₁ … s_{n−1}, r₂ are summed as they come, in OpenSim's order: nothing is
/// stored, this runs in every force evaluation).
#[allow(clippy::too_many_arguments)]
pub(super) fn section<T: Real>(
    r1: &Vector3<T>,
    r2: &Vector3<T>,
    m: &Vector3<T>,
    a: &Vector3<T>,
    vs: &Vector3<T>,
    vs4: T,
    far_side: bool,
    factor: f64,
    visit: &mut impl FnMut(&Vector3<T>),
) -> T {
    let len = (r1 - r2).norm() / T::c(factor);
    if len.re() < DESIRED_SEGMENT_LENGTH {
        return len * T::c(factor);
    }
    let segments = ((len.re() / DESIRED_SEGMENT_LENGTH) as usize).min(499);
    let mut imax = 0;
    for i in 1..3 {
        if vs[i].re().abs() > vs[imax].re().abs() {
            imax = i;
        }
    }
    let mut u = Vector3::<T>::zeros();
    u[imax] = T::one();
    let mu = (-dot(vs, m) - vs4) / dot(vs, &u);
    let a0 = m + u * mu;
    let (ar1, _) = normalize_or_zero(&(r1 - a0));
    let (ar2, _) = normalize_or_zero(&(r2 - a0));
    let phi0 = dot(&ar1, &ar2).acos();
    let n = T::c(segments as f64);
    let dphi = if far_side {
        -(T::c(2.0 * std::f64::consts::PI) - phi0) / n
    } else {
        phi0 / n
    };
    let (vsz, _) = normalize_or_zero(&ar1.cross(&ar2));
    let vsy = vsz.cross(&ar1);
    let f2 = (a0 - m).component_div(a);
    let mut length = T::zero();
    let mut previous = *r1;
    for i in 0..segments.saturating_sub(1) {
        let phi = T::c((i + 1) as f64) * dphi;
        let (c, s) = (phi.cos(), phi.sin());
        let r = Vector3::from_fn(|j, _| ar1[j] * c + vsy[j] * s + vsz[j] * T::zero());
        let f1 = r.component_div(a);
        let aa = dot(&f1, &f1);
        let bb = T::c(2.0) * dot(&f1, &f2);
        let cc = dot(&f2, &f2) - T::one();
        let mu3 = (-bb + (bb * bb - T::c(4.0) * aa * cc).sqrt()) / (T::c(2.0) * aa);
        let point = a0 + r * mu3;
        length += (point - previous).norm();
        previous = point;
        visit(&point);
    }
    length + (r2 - previous).norm()
}

/// The surface path between the tangent points: its length (scaled) and its first and last
/// interior points (none when the path is one straight piece).
pub(super) struct SurfacePath<T> {
    pub(super) length: T,
    pub(super) interior_ends: Option<(Vector3<T>, Vector3<T>)>,
}
