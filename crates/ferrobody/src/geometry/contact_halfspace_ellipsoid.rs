//! Half space against ellipsoid (Simbody `CollisionDetectionAlgorithm::HalfSpaceEllipsoid`),
//! as Simbody computes it, for its `HuntCrossleyForce`.
//!
//! In the ellipsoid frame E, with radii `a = (a₀, a₁, a₂)` and `n` the half space's outward
//! normal (`R_GH (−1, 0, 0)` in Ground, from the half space toward the ellipsoid) expressed in E:
//!
//! ```text
//! p     = −(a² ∘ n) / √(n · (a² ∘ n))        the ellipsoid point deepest in the half space
//! depth = x_H · (X_GE p − p_GH)              its height below the plane (m), contact if > 0
//! point = X_GE (p + (depth/2) n)             midway between the undeformed surfaces
//! d_uv  = uᵀ diag(1/a²) v,  u, v = the half space's y and z axes expressed in E
//! λ₁,λ₂ = eigenvalues of [[d_yy, d_yz], [d_yz, d_zz]],   R_i = 1/√λ_i
//! R     = √(R₁ R₂)                           effective radius (m)
//! ```
//!
//! **As Simbody does it:** `R₁, R₂` are the semi-axes of the ellipse cut by the plane through
//! the centre parallel to the half space, not the principal radii of curvature at the contact
//! point (those are `a₀²/a₁`, ... on an axis); ferrobody keeps Simbody's numbers so that OpenSim
//! models give OpenSim's trajectories. Reference: Simbody `SimTKmath/Geometry/src/
//! CollisionDetectionAlgorithm.cpp`; M. A. Sherman, A. Seth, S. L. Delp, Procedia IUTAM 2 (2011)
//! 241–261.

use super::PointContact;
use crate::math::small::mul3v;
use crate::math::Transform;
use crate::scalar::Real;
use nalgebra::Vector3;

/// Contact of the half space at `x_gh` with the ellipsoid of radii `radii` whose frame is at
/// `x_ge`; `None` when they do not overlap. The half space is surface 1. Inlined: returned
/// through memory, the contact was read back across the stores that wrote it and stalled.
#[inline(always)]
pub fn contact_halfspace_ellipsoid<T: Real>(
    x_gh: &Transform<T>,
    x_ge: &Transform<T>,
    radii: &[f64; 3],
) -> Option<PointContact<T>> {
    let a2 = radii.map(|a| T::c(a * a));
    let normal_g = -x_gh.r.column(0).into_owned();
    // The half space's normal and tangent axes expressed in E: R_GEᵀ times Ground vectors.
    let n = x_ge.r.tr_mul(&normal_g);
    let scaled = Vector3::new(n.x * a2[0], n.y * a2[1], n.z * a2[2]);
    let p_e = -scaled / n.dot(&scaled).sqrt();
    let p_g = x_ge.p + mul3v(&x_ge.r, &p_e);
    let depth = -normal_g.dot(&(p_g - x_gh.p));
    if depth.re() <= 0.0 {
        return None;
    }
    let u = x_ge.r.tr_mul(&x_gh.r.column(1).into_owned());
    let v = x_ge.r.tr_mul(&x_gh.r.column(2).into_owned());
    // Simbody multiplies by the reciprocals `ri2 = 1/a²` (three divisions, not nine).
    let ri2 = radii.map(|a| T::c(1.0 / (a * a)));
    let form = |x: &Vector3<T>, y: &Vector3<T>| {
        x.x * y.x * ri2[0] + x.y * y.y * ri2[1] + x.z * y.z * ri2[2]
    };
    let (dxx, dyy, dxy) = (form(&u, &u), form(&v, &v), form(&u, &v));
    // Roots of λ² − (d_xx + d_yy) λ + (d_xx d_yy − d_xy²), as Simbody's root finder gives them.
    let half = T::c(0.5);
    let mean = (dxx + dyy) * half;
    let spread = ((dxx - dyy) * (dxx - dyy) * T::c(0.25) + dxy * dxy).sqrt();
    let radius1 = T::one() / (mean + spread).sqrt();
    let radius2 = T::one() / (mean - spread).sqrt();
    let location = x_ge.p + mul3v(&x_ge.r, &(p_e + n * (depth * half)));
    Some(PointContact {
        depth,
        normal: normal_g,
        location,
        radius: (radius1 * radius2).sqrt(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::FRAC_PI_2;

    /// The ground half space of OpenSim models: its frame turned −90° about z (solid y < 0).
    fn ground() -> Transform<f64> {
        Transform::from_axis_angle(Vector3::z(), -FRAC_PI_2)
    }

    #[test]
    fn resting_on_an_axis() {
        // Radii (0.1, 0.05, 0.08), centre 0.049 m up: 1 mm deep on the y semi-axis.
        let x_ge = Transform::from_translation(Vector3::new(0.2, 0.049, -0.1));
        let c = contact_halfspace_ellipsoid(&ground(), &x_ge, &[0.1, 0.05, 0.08]).unwrap();
        assert!((c.depth - 0.001).abs() < 1e-15);
        assert!((c.normal - Vector3::y()).norm() < 1e-15);
        assert!((c.location - Vector3::new(0.2, -0.0005, -0.1)).norm() < 1e-15);
        // Simbody's radius: √(a₀ a₂), the semi-axes of the central section.
        assert!((c.radius - (0.1f64 * 0.08).sqrt()).abs() < 1e-15);
        let above = Transform::from_translation(Vector3::new(0.0, 0.051, 0.0));
        assert!(contact_halfspace_ellipsoid(&ground(), &above, &[0.1, 0.05, 0.08]).is_none());
    }

    #[test]
    fn a_sphere_shaped_ellipsoid_matches_the_sphere_routine() {
        // Equal radii: the same depth, normal, point and radius as the sphere routine, at a
        // turned half space and a turned body.
        let x_gh = Transform::<f64>::from_axis_angle(Vector3::new(0.3, -1.0, 0.2).normalize(), 0.7);
        let mut x_ge =
            Transform::<f64>::from_axis_angle(Vector3::new(1.0, 2.0, 3.0).normalize(), 1.1);
        x_ge.p = x_gh.p + x_gh.r * Vector3::new(-0.07, 0.3, -0.2);
        let e = contact_halfspace_ellipsoid(&x_gh, &x_ge, &[0.1; 3]).unwrap();
        let s = super::super::contact_halfspace_sphere(&x_gh, &x_ge, 0.1).unwrap();
        assert!((e.depth - s.depth).abs() < 1e-15);
        assert!((e.normal - s.normal).norm() < 1e-15);
        assert!((e.location - s.location).norm() < 1e-15);
        assert!((e.radius - s.radius).abs() < 1e-15);
    }

    #[test]
    fn the_deepest_point_of_a_tilted_ellipsoid() {
        // Turned 30° about z: the support point in −y, found by brute force over the surface,
        // lies depth below the plane.
        let radii = [0.1, 0.05, 0.08];
        let mut x_ge = Transform::from_axis_angle(Vector3::z(), std::f64::consts::FRAC_PI_6);
        x_ge.p = Vector3::new(0.0, 0.06, 0.0);
        let c = contact_halfspace_ellipsoid(&ground(), &x_ge, &radii).unwrap();
        let mut lowest = f64::INFINITY;
        for i in 0..=400 {
            for j in 0..=200 {
                let (th, ph) = (i as f64 * 0.0157079632679, j as f64 * 0.0157079632679);
                let q = Vector3::new(
                    radii[0] * ph.sin() * th.cos(),
                    radii[1] * ph.sin() * th.sin(),
                    radii[2] * ph.cos(),
                );
                lowest = lowest.min(x_ge.apply(&q).y);
            }
        }
        // The grid resolves the lowest point to ~1e-6 m (a 0.9° step on a 0.1 m radius).
        assert!(
            (c.depth + lowest).abs() < 2e-6,
            "{} vs {}",
            c.depth,
            -lowest
        );
    }
}
