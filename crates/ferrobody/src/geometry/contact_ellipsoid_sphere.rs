//! Ellipsoid against sphere (Simbody registers `CollisionDetectionAlgorithm::ConvexConvex` for
//! the pair: a portal search refined by Newton's method until the two surface points have
//! opposite normals along their separation, then `addContact`'s combined curvature). For a
//! sphere that condition has a closed form: the ellipsoid point is the one nearest the sphere's
//! centre, which is what this routine solves for directly.
//!
//! In the ellipsoid frame E with radii `a` and the sphere's centre `c` (radius r):
//!
//! ```text
//! p₁(t) = a² ∘ c / (a² + t),   g(t) = Σ (a_i c_i / (a_i² + t))² − 1 = 0,  t > −min a_i²
//! n     = normalize(p₁ / a²)                 outward normal at p₁ (toward the sphere)
//! s     = (c − p₁) · n                       signed distance of the centre (m)
//! depth = r − s,   p₂ = c − r n,   point = X_GE (p₁ + p₂)/2
//! κ₁ κ₂ = d² (R S − T²/4),  κ₁ + κ₂ = d (R + S),  d = p₁ · n
//!         R, S, T: the form diag(1/a²) on a tangent basis (u, v): uᵀDu, vᵀDv, 2 uᵀDv
//! R_eff = 1 / √((κ₁ + 1/r)(κ₂ + 1/r))        Simbody's combined paraboloid, √(R₁ R₂)
//! ```
//!
//! g is convex and decreasing, so Newton's method from the left of the root converges
//! monotonically (D. Eberly, "Distance from a point to an ellipse, an ellipsoid, or a
//! hyperellipsoid", Geometric Tools 2013). The root is found on real parts; one more Newton
//! step in the scalar type carries exact first derivatives (implicit function theorem). The
//! ellipsoid is surface 1, the normal points from it toward the sphere.

use super::PointContact;
use crate::math::small::mul3v;
use crate::math::Transform;
use crate::scalar::Real;
use nalgebra::Vector3;

/// Contact of the ellipsoid of radii `radii` at `x_ge` with the sphere of radius `r` centred
/// at `x_gs.p`; `None` when they do not overlap or the centre is the ellipsoid's centre.
#[inline]
pub fn contact_ellipsoid_sphere<T: Real>(
    x_ge: &Transform<T>,
    radii: &[f64; 3],
    p_gs: &Vector3<T>,
    r: T,
) -> Option<PointContact<T>> {
    let c = x_ge.r.tr_mul(&(p_gs - x_ge.p));
    let c_re = [c.x.re(), c.y.re(), c.z.re()];
    let p1 = nearest_point(radii, &c_re, &c)?;
    let a2 = radii.map(|a| T::c(a * a));
    let grad = Vector3::new(p1.x / a2[0], p1.y / a2[1], p1.z / a2[2]);
    let n = grad / grad.norm();
    let signed_distance = (c - p1).dot(&n);
    let depth = r - signed_distance;
    if depth.re() <= 0.0 {
        return None;
    }
    let p2 = c - n * r;
    let half = T::c(0.5);
    let location = x_ge.p + mul3v(&x_ge.r, &((p1 + p2) * half));
    let (k_sum, k_product) = curvature_invariants(&a2, &p1, &n);
    let inv_r = T::one() / r;
    let combined = k_product + k_sum * inv_r + inv_r * inv_r;
    Some(PointContact {
        depth,
        normal: mul3v(&x_ge.r, &n),
        location,
        radius: T::one() / combined.sqrt(),
    })
}

/// The ellipsoid point nearest `c` (E frame): the root of g found on real parts `c_re`, then
/// one Newton step in `T`. `None` for the centre itself (every axis end is a candidate).
fn nearest_point<T: Real>(radii: &[f64; 3], c_re: &[f64; 3], c: &Vector3<T>) -> Option<Vector3<T>> {
    let a2 = radii.map(|a| a * a);
    let (imin, a2min) =
        a2.iter().copied().enumerate().fold(
            (0, f64::INFINITY),
            |m, (i, v)| if v < m.1 { (i, v) } else { m },
        );
    if c_re.iter().all(|&x| x == 0.0) {
        return None;
    }
    // Left start: the term of each axis alone reaches 1 at t = a_i |c_i| − a_i², so g ≥ 0
    // there. It lies right of the pole at −min a² unless the centre's coordinate on the
    // shortest axis is 0; then start at the pole, where that term vanishes.
    let t_left = (0..3)
        .map(|i| radii[i] * c_re[i].abs() - a2[i])
        .fold(f64::NEG_INFINITY, f64::max);
    let mut t = t_left.max(-a2min);
    if t == -a2min && g_and_slope(&a2, radii, c_re, t).0 <= 0.0 {
        // The centre lies in the plane of the two longer axes, inside the ellipse of the
        // pole: the nearest point has t = −min a² and leaves that plane (Eberly's degenerate
        // case).
        return Some(degenerate_nearest_point(&a2, imin, c));
    }
    for _ in 0..100 {
        let (value, slope) = g_and_slope(&a2, radii, c_re, t);
        let step = value / slope;
        t -= step;
        if step.abs() <= 1e-15 * t.abs().max(a2min) {
            break;
        }
    }
    // One Newton step in T from the converged root: exact first derivatives.
    let a2t = a2.map(T::c);
    let tt = T::c(t);
    let mut gt = -T::one();
    let mut slope = T::zero();
    for i in 0..3 {
        let q = T::c(radii[i]) * c[i] / (a2t[i] + tt);
        gt += q * q;
        slope -= T::c(2.0) * q * q / (a2t[i] + tt);
    }
    let tt = tt - gt / slope;
    Some(Vector3::new(
        a2t[0] * c.x / (a2t[0] + tt),
        a2t[1] * c.y / (a2t[1] + tt),
        a2t[2] * c.z / (a2t[2] + tt),
    ))
}

/// g(t) and g′(t) on real parts (axes with c_i = 0 add nothing, also at their pole).
fn g_and_slope(a2: &[f64; 3], radii: &[f64; 3], c: &[f64; 3], t: f64) -> (f64, f64) {
    let mut value = -1.0;
    let mut slope = 0.0;
    for i in (0..3).filter(|&i| c[i] != 0.0) {
        let q = radii[i] * c[i] / (a2[i] + t);
        value += q * q;
        slope -= 2.0 * q * q / (a2[i] + t);
    }
    (value, slope)
}

/// The nearest point when `t = −a_min²`: the other two coordinates from the formula, the
/// shortest axis's coordinate from the surface equation (on the side of `c`, + when `c` is
/// on the plane).
fn degenerate_nearest_point<T: Real>(a2: &[f64; 3], imin: usize, c: &Vector3<T>) -> Vector3<T> {
    let mut p = Vector3::zeros();
    let mut used = T::zero();
    for i in (0..3).filter(|&i| i != imin) {
        p[i] = T::c(a2[i]) * c[i] / T::c(a2[i] - a2[imin]);
        used += p[i] * p[i] / T::c(a2[i]);
    }
    let rest = (T::one() - used).max(T::zero());
    let sign = if c[imin].re() < 0.0 {
        -T::one()
    } else {
        T::one()
    };
    p[imin] = sign * T::c(a2[imin].sqrt()) * rest.sqrt();
    p
}

/// `(κ₁ + κ₂, κ₁ κ₂)` of the ellipsoid at its surface point `p` with unit normal `n`
/// (Simbody `Ellipsoid::findParaboloidAtPointWithNormal`, without the directions).
fn curvature_invariants<T: Real>(a2: &[T; 3], p: &Vector3<T>, n: &Vector3<T>) -> (T, T) {
    let helper = if n.x.re().abs() > 0.5 {
        Vector3::y()
    } else {
        Vector3::x()
    };
    let u = n.cross(&helper);
    let u = u / u.norm();
    let v = n.cross(&u);
    let form =
        |x: &Vector3<T>, y: &Vector3<T>| x.x * y.x / a2[0] + x.y * y.y / a2[1] + x.z * y.z / a2[2];
    let (rr, ss, tt) = (form(&u, &u), form(&v, &v), form(&u, &v));
    let d = p.dot(n);
    (d * (rr + ss), d * d * (rr * ss - tt * tt))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_round_ellipsoid_is_a_sphere() {
        // Radii all 0.1 against a sphere of 0.05 at 0.14 from the centre: depth 0.01, the
        // two-sphere radius 0.1·0.05/0.15.
        let x_ge = Transform::<f64>::from_axis_angle(Vector3::new(1.0, 1.0, 0.0).normalize(), 0.4);
        let dir = Vector3::new(0.2, -0.5, 0.7).normalize();
        let c = contact_ellipsoid_sphere(&x_ge, &[0.1; 3], &(dir * 0.14), 0.05).unwrap();
        assert!((c.depth - 0.01).abs() < 1e-15);
        assert!((c.normal - dir).norm() < 1e-14);
        assert!((c.location - dir * 0.095).norm() < 1e-15);
        assert!((c.radius - 0.1 * 0.05 / 0.15).abs() < 1e-15);
    }

    #[test]
    fn on_an_axis_the_curvatures_are_the_ellipse_s() {
        // Sphere on the x axis of radii (0.1, 0.05, 0.08): principal radii a₁²/a₀ and a₂²/a₀.
        let radii = [0.1, 0.05, 0.08];
        let r = 0.02;
        let c = contact_ellipsoid_sphere(
            &Transform::<f64>::identity(),
            &radii,
            &Vector3::new(0.115, 0.0, 0.0),
            r,
        )
        .unwrap();
        assert!((c.depth - 0.005).abs() < 1e-15);
        let (k1, k2) = (0.1 / 0.0025, 0.1 / 0.0064);
        let expected: f64 = 1.0 / ((k1 + 1.0 / r) * (k2 + 1.0 / r)).sqrt();
        assert!((c.radius - expected).abs() < 1e-15 * expected);
    }

    #[test]
    fn the_nearest_point_off_axis_is_the_foot_of_a_normal() {
        // From centres outside and inside: p₁ on the surface, c − p₁ along its normal, and no
        // surface point nearer (brute force) for the outside one.
        let radii = [0.1, 0.05, 0.08];
        for c in [
            Vector3::new(0.09, 0.07, -0.03),
            Vector3::new(0.03, 0.01, 0.02),
        ] {
            let cr = [c.x, c.y, c.z];
            let p = nearest_point(&radii, &cr, &c).unwrap();
            let on = (p.x / 0.1).powi(2) + (p.y / 0.05).powi(2) + (p.z / 0.08).powi(2);
            assert!((on - 1.0).abs() < 1e-14, "{on}");
            let grad = Vector3::new(p.x / 0.01, p.y / 0.0025, p.z / 0.0064).normalize();
            assert!((c - p).cross(&grad).norm() < 1e-14);
        }
        let c = Vector3::new(0.09, 0.07, -0.03);
        let p = nearest_point(&radii, &[c.x, c.y, c.z], &c).unwrap();
        let mut best = f64::INFINITY;
        let step = std::f64::consts::PI / 1440.0;
        for i in 0..=2880 {
            for j in 0..=1440 {
                let (th, ph) = (i as f64 * step, j as f64 * step);
                let q = Vector3::new(
                    0.1 * ph.sin() * th.cos(),
                    0.05 * ph.sin() * th.sin(),
                    0.08 * ph.cos(),
                );
                best = best.min((q - c).norm());
            }
        }
        // A 0.125° grid finds the minimum to ~1.3e-7 m (a 0.045° grid: 1.7e-8).
        let d = (c - p).norm();
        assert!(d <= best + 1e-12 && best - d < 5e-7, "{d} vs {best}");
    }

    #[test]
    fn a_centre_on_the_long_axes_plane_inside_takes_the_degenerate_branch() {
        let radii = [0.1, 0.08, 0.05];
        let c = Vector3::new(0.01, 0.005, 0.0);
        let p = nearest_point(&radii, &[c.x, c.y, c.z], &c).unwrap();
        let on = (p.x / 0.1).powi(2) + (p.y / 0.08).powi(2) + (p.z / 0.05).powi(2);
        assert!((on - 1.0).abs() < 1e-14 && p.z > 0.0);
        assert!(contact_ellipsoid_sphere(
            &Transform::<f64>::identity(),
            &radii,
            &Vector3::zeros(),
            0.1
        )
        .is_none());
    }

    #[test]
    fn dual_derivatives_match_differences() {
        use num_dual::Dual64;
        let radii = [0.1, 0.05, 0.08];
        let at = |x: Dual64| {
            let x_ge = Transform::<Dual64>::identity();
            let p = Vector3::new(x, Dual64::from(0.07), Dual64::from(-0.03));
            contact_ellipsoid_sphere(&x_ge, &radii, &p, Dual64::from(0.1)).unwrap()
        };
        let c = at(Dual64::from(0.09).derivative());
        let h = 1e-6;
        let plus = at(Dual64::from(0.09 + h));
        let minus = at(Dual64::from(0.09 - h));
        let fd_depth = (plus.depth.re - minus.depth.re) / (2.0 * h);
        let fd_radius = (plus.radius.re - minus.radius.re) / (2.0 * h);
        assert!(
            (c.depth.eps - fd_depth).abs() < 1e-8,
            "{} {}",
            c.depth.eps,
            fd_depth
        );
        assert!(
            (c.radius.eps - fd_radius).abs() < 1e-7,
            "{} {}",
            c.radius.eps,
            fd_radius
        );
    }
}
